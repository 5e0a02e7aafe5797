/* render_text: terminal rendering of the reply model; see render_text.h. */
#include "bot/console/render_text.h"

#include <stdio.h>
#include <string.h>

#include "rules/base/utf8.h"

#define SGR_RESET "\033[0m"

int
render_ansi_colour(enum ucolour c)
{
	/* Discord's ANSI palette is 30 gray .. 37 white in this order. */
	return 30 + ((int)c >= 0 && c < UC_COUNT ? (int)c : 0);
}

/* One SGR sequence for the style, written in one append. */
static void
sgr_open(unsigned style, const struct ustyle *us, struct buf *out)
{
	char sgr[48] = "\033[0";
	size_t n = 3;

#define SGR(s) (memcpy(sgr + n, (s), sizeof(s) - 1), n += sizeof(s) - 1)
	if (style & (RS_BOLD | RS_CRIT | RS_FUMBLE | RS_USER | RS_HIGHLIGHT))
		SGR(";1");
	if (style & RS_DIM)
		SGR(";2");
	if (style & RS_ITALIC)
		SGR(";3");
	if (style & RS_STRUCK)
		SGR(";9");
	if (style & RS_USER)
		n += (size_t)snprintf(sgr + n, sizeof(sgr) - n, ";%d;4",
		                      render_ansi_colour(us->colour));
	else if (style & (RS_CRIT | RS_GOOD))
		SGR(";32");
	else if (style & (RS_FUMBLE | RS_BAD))
		SGR(";31");
	else if (style & RS_HIGHLIGHT)
		SGR(";33");
	else if (style & RS_CODE)
		SGR(";36");
#undef SGR
	sgr[n++] = 'm';
	buf_add(out, sgr, n);
}

static void
span(const struct reply_span *s, bool ansi, struct buf *out)
{
	bool mark = (s->style & RS_USER) && s->user.mark[0] != '\0';

	if (ansi && s->style != 0)
		sgr_open(s->style, &s->user, out);
	if (mark)
		buf_adds(out, s->user.mark);
	if (!ansi && (s->style & RS_STRUCK))
		buf_addf(out, "~~%s~~", s->text);
	else
		buf_add(out, s->text, s->len);
	if (ansi && s->style != 0)
		buf_adds(out, SGR_RESET);
}

void
render_pad(struct buf *out, size_t n)
{
	while (n-- > 0)
		buf_addc(out, ' ');
}

void
render_table_widths(const struct reply_block *b, size_t width[16])
{
	for (int c = 0; c < b->ncols && c < 16; c++) {
		width[c] = b->header != NULL ? utf8_len(b->header[c]) : 0;
		for (size_t r = 0; r < b->nrows; r++) {
			size_t w = utf8_len(b->rows[r].cells[c]);

			if (w > width[c])
				width[c] = w;
		}
	}
}

static void
table(const struct reply_block *b, bool ansi, struct buf *out)
{
	size_t width[16] = {0};
	bool any_hl = false;

	render_table_widths(b, width);
	for (size_t r = 0; r < b->nrows; r++)
		any_hl |= b->rows[r].highlight;
	if (b->header != NULL) {
		buf_adds(out, any_hl ? "  " : "");
		if (ansi)
			buf_adds(out, "\033[1m");
		for (int c = 0; c < b->ncols; c++) {
			buf_adds(out, b->header[c]);
			if (c + 1 < b->ncols)
				render_pad(out, width[c] - utf8_len(b->header[c]) + 2);
		}
		if (ansi)
			buf_adds(out, SGR_RESET);
		buf_addc(out, '\n');
	}
	for (size_t r = 0; r < b->nrows; r++) {
		const struct reply_row *row = &b->rows[r];

		if (any_hl)
			buf_adds(out, row->highlight ? "▶ " : "  ");
		if (ansi)
			buf_adds(out, row->highlight ? "\033[1;33m" : any_hl ? "\033[2m" : "");
		for (int c = 0; c < b->ncols; c++) {
			if (ansi && (row->user_cols >> c & 1u)) {
				/* A player's die keeps the player's colour. */
				sgr_open(RS_USER, &row->user[c], out);
				buf_adds(out, row->cells[c]);
				buf_adds(out, SGR_RESET);
				buf_adds(out, row->highlight ? "\033[1;33m"
				              : any_hl       ? "\033[2m"
				                             : "");
			} else {
				buf_adds(out, row->cells[c]);
			}
			if (c + 1 < b->ncols)
				render_pad(out, width[c] - utf8_len(row->cells[c]) + 2);
		}
		if (ansi && (row->highlight || any_hl))
			buf_adds(out, SGR_RESET);
		buf_addc(out, '\n');
	}
}

void
render_text(const struct reply_msg *m, bool ansi, struct buf *out)
{
	if (m->title != NULL)
		buf_addf(out, ansi ? "\033[1m%s" SGR_RESET "\n" : "%s\n", m->title);
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *b = &m->blocks[i];

		if (b->kind == RB_TABLE) {
			table(b, ansi, out);
			continue;
		}
		for (size_t j = 0; j < b->nspans; j++)
			span(&b->spans[j], ansi, out);
		buf_addc(out, '\n');
	}
	for (size_t i = 0; i < m->nbuttons; i++) {
		buf_adds(out, i ? " [" : "[");
		buf_adds(out, m->buttons[i].label);
		buf_adds(out, ": /");
		buf_adds(out, m->buttons[i].action);
		buf_adds(out, i + 1 == m->nbuttons ? "]\n" : "]");
	}
}
