/* render_text: terminal rendering of the reply model; see render_text.h. */
#include "bot/console/render_text.h"

#include <stdio.h>
#include <string.h>

#include <utf8proc.h>

#include "bot/render/render_layout.h"
#include "rules/base/utf8.h"

/* One SGR sequence for the style, written in one append. */
static void
sgr_open(unsigned style, const struct thwacko_style *us, struct buf *out)
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
		                      render_layout_ansi_colour(us->colour));
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
	bool styled = (s->style & ~RS_DETAIL) != 0; /* detail alone looks plain */

	if (ansi && styled)
		sgr_open(s->style, &s->user, out);
	if (mark)
		buf_adds(out, s->user.mark);
	if (!ansi && (s->style & RS_STRUCK))
		buf_addf(out, "~~%s~~", s->text);
	else if (s->style & RS_CHANNEL)
		buf_adds(out, render_layout_channel(s->text));
	else
		buf_add(out, s->text, s->len);
	if (ansi && styled)
		buf_adds(out, RENDER_SGR_RESET);
}

/* One part of a table: its columns cols[0..n) (cols[0] is the first), each
 * padded to width[] plus two spaces, but for the last with text in a
 * line (no trailing blanks). */
static void
table_part(const struct reply_block *b, bool ansi, const size_t *width, bool any_hl,
           const int *cols, int n, struct buf *out)
{
	if (b->header != NULL) {
		buf_adds(out, any_hl ? "  " : "");
		if (ansi)
			buf_adds(out, "\033[1m");
		for (int k = 0; k < n; k++) {
			const char *h = b->header[cols[k]];

			buf_adds(out, h);
			if (k + 1 < n)
				render_layout_pad(out, width[cols[k]] - render_layout_width(h) + 2);
		}
		if (ansi)
			buf_adds(out, RENDER_SGR_RESET);
		buf_addc(out, '\n');
	}
	for (size_t r = 0; r < b->nrows; r++) {
		const struct reply_row *row = &b->rows[r];
		int last = n - 1;

		while (last > 0 && row->cells[cols[last]][0] == '\0')
			last--;
		if (any_hl)
			buf_adds(out, row->highlight ? "▶ " : "  ");
		if (ansi)
			buf_adds(out, row->highlight ? "\033[1;33m" : any_hl ? "\033[2m" : "");
		for (int k = 0; k < n; k++) {
			int c = cols[k];

			if (ansi && (row->user_cols >> c & 1u)) {
				/* A player's die keeps the player's colour. */
				sgr_open(RS_USER, &row->user[c], out);
				buf_adds(out, row->cells[c]);
				buf_adds(out, RENDER_SGR_RESET);
				buf_adds(out, row->highlight ? "\033[1;33m"
				              : any_hl       ? "\033[2m"
				                             : "");
			} else {
				buf_adds(out, row->cells[c]);
			}
			if (k < last)
				render_layout_pad(out, width[c] -
				                           render_layout_width(row->cells[c]) + 2);
		}
		if (ansi && (row->highlight || any_hl))
			buf_adds(out, RENDER_SGR_RESET);
		buf_addc(out, '\n');
	}
}

/* A table, in as many parts as it takes for each to fit in cols columns
 * (0: no limit): each part is the first column (what a row is known by)
 * and as many of the next columns as fit, at least one. */
static void
table(const struct reply_block *b, bool ansi, size_t cols, struct buf *out)
{
	size_t width[RENDER_COLS_MAX] = {0};
	int ncols = b->ncols < RENDER_COLS_MAX ? b->ncols : RENDER_COLS_MAX, next = 1;
	bool any_hl = false;

	if (ncols < 1)
		return;
	render_layout_widths(b, width);
	for (size_t r = 0; r < b->nrows; r++)
		any_hl |= b->rows[r].highlight;
	do {
		int part[RENDER_COLS_MAX] = {0}, n = 1;
		size_t used = (any_hl ? 2 : 0) + width[0];

		while (next < ncols && (n == 1 || cols == 0 || used + 2 + width[next] <= cols)) {
			used += 2 + width[next];
			part[n++] = next++;
		}
		table_part(b, ansi, width, any_hl, part, n, out);
	} while (next < ncols);
}

void
render_text(const struct reply_msg *m, bool ansi, struct buf *out)
{
	render_text_width(m, ansi, 0, out);
}

void
render_text_width(const struct reply_msg *m, bool ansi, size_t cols, struct buf *out)
{
	if (m == NULL)
		return;
	if (m->title != NULL)
		buf_addf(out, ansi ? "\033[1m%s" RENDER_SGR_RESET "\n" : "%s\n", m->title);
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *b = &m->blocks[i];

		if (b->brief)
			continue;
		if (b->kind == RB_TABLE) {
			table(b, ansi, cols, out);
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

/* The bytes of the CSI escape sequence (ESC [ ... final byte) at s, or 0. */
static size_t
csi_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e))
		i++;
	return i < n ? i + 1 : n;
}

/* The columns the character at s takes on a terminal (0 for a combining
 * mark, 2 for a wide one; 1 for a byte that is not UTF-8), its bytes in
 * *len. */
static size_t
char_columns(const char *s, size_t n, size_t *len)
{
	utf8proc_int32_t cp;
	utf8proc_ssize_t r =
	    utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);

	if (r <= 0) {
		*len = 1;
		return 1;
	}
	*len = (size_t)r;
	return (size_t)utf8proc_charwidth(cp);
}

size_t
render_text_columns(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n;) {
		size_t e = csi_len(s + i, n - i), clen;

		if (e > 0) {
			i += e;
			continue;
		}
		cols += char_columns(s + i, n - i, &clen);
		i += clen;
	}
	return cols;
}

/* The code point at s (U+FFFD for a byte that is not UTF-8). */
static utf8proc_int32_t
code_point(const char *s, size_t n)
{
	utf8proc_int32_t cp;

	if (utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp) <= 0)
		return 0xfffd;
	return cp;
}

/*
 * Whether a line may break between prev and cp, neither a space, as text
 * without spaces between words breaks (Chinese, Japanese): next to a wide
 * character, but not before closing or other punctuation (。、」！) or a
 * length mark (ー), nor after opening punctuation (「（), nor before a
 * combining mark. The classes are Unicode's general categories, as
 * utf8proc reads them.
 */
static bool
wide_break(utf8proc_int32_t prev, size_t prev_w, utf8proc_int32_t cp, size_t w)
{
	utf8proc_category_t c = utf8proc_category(cp), pc = utf8proc_category(prev);

	if (w == 0 || (w < 2 && prev_w < 2))
		return false;
	if (c == UTF8PROC_CATEGORY_PE || c == UTF8PROC_CATEGORY_PF || c == UTF8PROC_CATEGORY_PO ||
	    c == UTF8PROC_CATEGORY_LM)
		return false;
	return pc != UTF8PROC_CATEGORY_PS && pc != UTF8PROC_CATEGORY_PI;
}

/* Wraps one line (no '\n') of n bytes; see render_wrap. */
static void
wrap_line(const char *s, size_t n, size_t width, struct buf *out)
{
	size_t pos = 0, col0 = 0, indent = 0;
	bool first = true;

	for (;;) {
		size_t col = col0, i = pos, stop = n, brk = 0, hang = 0, hang_at = 0, end;
		size_t run = 0;    /* visible spaces just before i */
		size_t prev_w = 0; /* the columns of the character before i */
		utf8proc_int32_t prev = ' ';
		bool found = false;

		while (i < n) {
			size_t e = csi_len(s + i, n - i), clen, w;
			unsigned char ch = (unsigned char)s[i];
			utf8proc_int32_t cp;

			if (e > 0) {
				i += e;
				continue;
			}
			w = char_columns(s + i, n - i, &clen);
			cp = code_point(s + i, n - i);
			if (ch == ' ' && run == 0 && col > col0) {
				brk = i;
				found = true;
			} else if (ch != ' ' && prev != ' ' && col > col0 &&
			           wide_break(prev, prev_w, cp, w)) {
				brk = i;
				found = true;
			}
			if (col + w > width) {
				stop = i;
				break;
			}
			if (ch != ' ' && run >= 2 && first && col <= width / 2) {
				hang = col;
				hang_at = i;
			}
			run = ch == ' ' ? run + 1 : 0;
			prev = cp;
			prev_w = w;
			col += w;
			i += clen;
		}
		if (stop == n) {
			buf_add(out, s + pos, n - pos);
			buf_addc(out, '\n');
			return;
		}
		/* a break between the cells of a table row would leave the last
		 * cell's text alone at the line's start: the text is cut at the
		 * width instead, and goes on under its column */
		if (found && first && hang_at != 0 && brk < hang_at)
			found = false;
		end = found ? brk : stop;
		buf_add(out, s + pos, end - pos);
		buf_addc(out, '\n');
		if (first)
			indent = hang_at != 0 && hang_at < end ? hang : 0;
		first = false;
		pos = end;
		while (found && pos < n && s[pos] == ' ')
			pos++;
		render_layout_pad(out, indent);
		col0 = indent;
	}
}

void
render_text_wrap(const char *s, size_t len, size_t width, struct buf *out)
{
	while (len > 0) {
		const char *nl = memchr(s, '\n', len);
		size_t n = nl != NULL ? (size_t)(nl - s) : len;

		if (width < 20) {
			buf_add(out, s, n);
			buf_addc(out, '\n');
		} else {
			wrap_line(s, n, width, out);
		}
		s += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
}
