/* render_irc: IRC rendering of the reply model; see render_irc.h. */
#include "bot/irc/render_irc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "commands/core/registry.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define LOGICAL_MAX (64 * 1024) /* bytes of one logical line before cutting */
#define SHORT_LINES 3           /* logical lines a message may pack into one */

#define C_GREEN  3
#define C_RED    4
#define C_ORANGE 7
#define C_TEAL   10
#define C_GREY   14

/* The mIRC colour number (00-15) for a palette colour. */
static int
render_irc_colour(enum ucolour c)
{
	/* gray, red, green, yellow, blue, pink, cyan, white, in mIRC numbers;
	 * yellow and white are darkened a step to stay readable on light
	 * backgrounds (orange, light grey). */
	static const int map[UC_COUNT] = {14, 4, 3, 7, 12, 13, 10, 15};

	return (int)c >= 0 && c < UC_COUNT ? map[c] : C_GREY;
}

void
render_irc_lines_add(struct irc_lines *l, const char *line, size_t len)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrndup(line, len);
}

void
render_irc_lines_free(struct irc_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void
add_piece(void *ctx, const char *piece, size_t len)
{
	render_irc_lines_add(ctx, piece, len);
}

/* Ends a logical line: it joins the list uncut, and line is emptied. */
static void
flush_line(struct buf *line, struct irc_lines *logical)
{
	render_irc_lines_add(logical, buf_str(line), line->len);
	buf_reset(line);
}

static void
colour(struct buf *out, int c)
{
	buf_addf(out, "\x03%02d\x02\x02", c); /* the guard keeps ",5" text from being a bg */
}

/* Opens the codes for a span style; returns whether anything was opened. */
static bool
open_style(unsigned st, const struct thwacko_style *us, struct buf *out)
{
	int c = -1;
	size_t before = out->len;

	if (st & (RS_BOLD | RS_CRIT | RS_FUMBLE | RS_USER | RS_HIGHLIGHT))
		buf_adds(out, IRC_FMT_BOLD);
	if (st & RS_ITALIC)
		buf_adds(out, IRC_FMT_ITALIC);
	if (st & RS_STRUCK)
		buf_adds(out, IRC_FMT_STRIKE);
	if (st & RS_USER)
		c = render_irc_colour(us->colour);
	else if (st & RS_STRUCK)
		c = C_GREY;
	else if (st & (RS_CRIT | RS_GOOD))
		c = C_GREEN;
	else if (st & (RS_FUMBLE | RS_BAD))
		c = C_RED;
	else if (st & RS_HIGHLIGHT)
		c = C_ORANGE;
	else if (st & RS_CODE)
		c = C_TEAL;
	else if (st & RS_DIM)
		c = C_GREY;
	if (c >= 0)
		colour(out, c);
	return out->len > before;
}

/* A command reference: "/name" at the start of a word, name a command. */
static size_t
command_ref(const char *s, const char *p)
{
	size_t n = 0;

	if (*p != '/' || (p > s && strchr(" \t([\"'`", p[-1]) == NULL))
		return 0;
	while (p[1 + n] >= 'a' && p[1 + n] <= 'z')
		n++;
	if (n == 0 || isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_' || p[1 + n] == '-' ||
	    registry_find(p + 1, n) == NULL)
		return 0;
	return n;
}

/* Cleans s into out (irc_fmt_clean), writing each command reference with
 * the network's prefix: help and hints say /roll, IRC users type !roll. */
static void
clean(struct buf *out, const char *s, const char *prefix)
{
	struct buf t;

	if (prefix == NULL || strcmp(prefix, "/") == 0 || strchr(s, '/') == NULL) {
		irc_fmt_clean(out, s);
		return;
	}
	buf_init(&t, LOGICAL_MAX);
	for (const char *p = s; *p != '\0'; p++) {
		if (command_ref(s, p) > 0)
			buf_adds(&t, prefix);
		else
			buf_addc(&t, *p);
	}
	irc_fmt_clean(out, buf_str(&t));
	buf_free(&t);
}

/* Writes s. Its formatting stays open (*open) when the next span has the
 * same style: a sentence in several spans (an error with a command
 * reference in it) is one run of formatting, as one span would be. */
static void
span(const struct reply_span *s, const struct reply_span *next, const char *prefix, bool *open,
     struct buf *out)
{
	unsigned st = s->style & ~RS_CMD;
	bool opened = *open || open_style(st, &s->user, out);

	if ((s->style & RS_USER) && s->user.mark[0] != '\0')
		irc_fmt_clean(out, s->user.mark);
	if (s->style & RS_STRUCK)
		buf_adds(out, "~~"); /* read where strike-through is not shown */
	clean(out, s->text, prefix);
	if (s->style & RS_STRUCK)
		buf_adds(out, "~~");
	*open = opened && next != NULL && (next->style & ~RS_CMD) == st && !(st & RS_USER);
	if (opened && !*open)
		buf_adds(out, IRC_FMT_RESET);
}

static void
pad(struct buf *out, size_t n)
{
	while (n-- > 0)
		buf_addc(out, ' ');
}

/* Appends cells cleaned, padded to widths (NULL: joined by two spaces).
 * With row, a cell in a player's style is drawn in it, then reopen (the
 * row's own formatting) goes on. */
static void
cells_line(char *const *cells, const struct reply_row *row, const char *reopen, int ncols,
           const size_t *width, const char *prefix, struct buf *out)
{
	for (int c = 0; c < ncols; c++) {
		size_t start = out->len, w;

		clean(out, cells[c], prefix);
		w = utf8_len(out->p != NULL ? out->p + start : "");
		if (row != NULL && (row->user_cols >> c & 1u)) {
			struct buf cell;

			buf_init(&cell, LOGICAL_MAX);
			buf_adds(&cell, out->p + start);
			out->len = start;
			out->p[start] = '\0';
			if (open_style(RS_USER, &row->user[c], out)) {
				buf_add(out, cell.p, cell.len);
				buf_adds(out, IRC_FMT_RESET);
				buf_adds(out, reopen);
			} else {
				buf_add(out, cell.p, cell.len);
			}
			buf_free(&cell);
		}
		if (c + 1 < ncols)
			pad(out, width != NULL && width[c] > w ? width[c] - w + 2 : 2);
	}
}

static size_t
clean_len(const char *s, const char *prefix)
{
	struct buf b;
	size_t n;

	buf_init(&b, LOGICAL_MAX);
	clean(&b, s, prefix);
	n = utf8_len(buf_str(&b));
	buf_free(&b);
	return n;
}

static bool
any_highlight(const struct reply_block *b)
{
	for (size_t r = 0; r < b->nrows; r++)
		if (b->rows[r].highlight)
			return true;
	return false;
}

/* Whether b is a roll table whose highlighted row is the one rolled: its
 * first column is the die ("roll", "d12", "2d6"). Other tables with a
 * highlighted row (help's default, a party's own member, a price band)
 * are shown whole. */
static bool
rolled_table(const struct reply_block *b)
{
	const char *h;

	if (b->header == NULL || !any_highlight(b))
		return false;
	h = b->header[0];
	if (strcmp(h, "roll") == 0)
		return true;
	while (*h >= '0' && *h <= '9')
		h++;
	if (*h++ != 'd' || *h < '1' || *h > '9')
		return false;
	while (*h >= '0' && *h <= '9')
		h++;
	return *h == '\0';
}

/* A table with a rolled (highlighted) row, in one line: its header, then
 * the row marked "▶" and where it stands ("(row 7 of 20)"). */
static void
table_rolled(const struct reply_block *b, const char *prefix, struct buf *line,
             struct irc_lines *out)
{
	if (b->header != NULL) {
		buf_adds(line, IRC_FMT_BOLD);
		cells_line(b->header, NULL, "", b->ncols, NULL, prefix, line);
		buf_adds(line, IRC_FMT_RESET);
	}
	for (size_t r = 0; r < b->nrows; r++) {
		struct buf reopen;

		if (!b->rows[r].highlight)
			continue;
		buf_init(&reopen, 64);
		buf_adds(&reopen, IRC_FMT_BOLD);
		colour(&reopen, C_ORANGE);
		buf_adds(line, line->len > 0 ? " ▶ " : "▶ ");
		buf_adds(line, buf_str(&reopen));
		cells_line(b->rows[r].cells, &b->rows[r], buf_str(&reopen), b->ncols, NULL, prefix,
		           line);
		buf_free(&reopen);
		buf_adds(line, IRC_FMT_RESET " ");
		colour(line, C_GREY);
		buf_addf(line, "(row %zu of %zu)" IRC_FMT_RESET, r + 1, b->nrows);
	}
	flush_line(line, out);
}

/* Every row; cells padded to columns when padded, else two spaces apart. */
static void
table_rows(const struct reply_block *b, bool padded, const char *prefix, struct buf *line,
           struct irc_lines *out)
{
	size_t width[16] = {0};
	bool hl = any_highlight(b);

	for (int c = 0; padded && c < b->ncols && c < 16; c++) {
		if (b->header != NULL)
			width[c] = clean_len(b->header[c], prefix);
		for (size_t r = 0; r < b->nrows; r++) {
			size_t w = clean_len(b->rows[r].cells[c], prefix);

			if (w > width[c])
				width[c] = w;
		}
	}
	if (b->header != NULL) {
		buf_adds(line, hl && padded ? "  " IRC_FMT_BOLD : IRC_FMT_BOLD);
		cells_line(b->header, NULL, "", b->ncols, padded ? width : NULL, prefix, line);
		buf_adds(line, IRC_FMT_RESET);
		flush_line(line, out);
	}
	for (size_t r = 0; r < b->nrows; r++) {
		const struct reply_row *row = &b->rows[r];

		struct buf reopen;

		buf_init(&reopen, 64);
		if (row->highlight) {
			buf_adds(&reopen, IRC_FMT_BOLD);
			colour(&reopen, C_ORANGE);
			buf_adds(line, "▶ ");
		} else if (hl) {
			buf_adds(line, padded ? "  " : ""); /* under the ▶ */
			colour(&reopen, C_GREY);
		}
		buf_adds(line, buf_str(&reopen));
		cells_line(row->cells, row, buf_str(&reopen), b->ncols, padded ? width : NULL,
		           prefix, line);
		buf_free(&reopen);
		if (hl)
			buf_adds(line, IRC_FMT_RESET);
		flush_line(line, out);
	}
}

/* A table in one line: its highlighted row, or its first column. */
static void
table_brief(const struct reply_block *b, const char *prefix, struct buf *line,
            struct irc_lines *out)
{
	for (size_t r = 0; r < b->nrows; r++) {
		if (!b->rows[r].highlight)
			continue;
		buf_adds(line, "▶ " IRC_FMT_BOLD);
		colour(line, C_ORANGE);
		cells_line(b->rows[r].cells, NULL, "", b->ncols, NULL, prefix, line);
		buf_adds(line, IRC_FMT_RESET " ");
		colour(line, C_GREY);
		buf_addf(line, "(row %zu of %zu)" IRC_FMT_RESET, r + 1, b->nrows);
		flush_line(line, out);
		return;
	}
	if (b->header != NULL) {
		buf_adds(line, IRC_FMT_BOLD);
		clean(line, b->header[0], prefix);
		buf_adds(line, ":" IRC_FMT_RESET " ");
	}
	for (size_t r = 0; r < b->nrows; r++) {
		if (r > 0)
			buf_adds(line, ", ");
		clean(line, b->rows[r].cells[0], prefix);
	}
	flush_line(line, out);
}

enum layout {
	LAYOUT_FULL,   /* one line per line, tables padded into columns */
	LAYOUT_PACKED, /* short lines packed together, tables unpadded */
	LAYOUT_BRIEF,  /* packed, tables cut to their highlighted row */
};

/* The message's logical lines (uncut, formatting closed at each end). */
static void
logical_lines(const struct reply_msg *m, const struct render_irc_opts *o, enum layout lay,
              struct irc_lines *out)
{
	struct buf line;

	buf_init(&line, LOGICAL_MAX);
	if (m->title != NULL) {
		buf_adds(&line, IRC_FMT_BOLD);
		clean(&line, m->title, o->prefix);
		buf_adds(&line, IRC_FMT_RESET);
		flush_line(&line, out);
	}
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *b = &m->blocks[i];
		bool open = false;

		if (b->kind == RB_TABLE) {
			if (rolled_table(b))
				table_rolled(b, o->prefix, &line, out);
			else if (lay == LAYOUT_BRIEF)
				table_brief(b, o->prefix, &line, out);
			else
				table_rows(b, lay == LAYOUT_FULL, o->prefix, &line, out);
			continue;
		}
		for (size_t j = 0; j < b->nspans; j++)
			span(&b->spans[j], j + 1 < b->nspans ? &b->spans[j + 1] : NULL, o->prefix,
			     &open, &line);
		flush_line(&line, out);
	}
	buf_free(&line);
}

/*
 * Cuts the logical lines to the budget into out. Packed, consecutive lines
 * share an IRC line, " · " apart, while they fit. Each logical line closes
 * its own formatting, so joining them cannot carry styles across.
 */
static void
layout(const struct irc_lines *logical, const struct render_irc_opts *o, bool pack,
       struct irc_lines *out)
{
	static const char sep[] = " · ";
	struct buf cur;

	buf_init(&cur, LOGICAL_MAX);
	for (size_t i = 0; i < logical->n; i++) {
		const char *l = logical->v[i];
		size_t len = strlen(l);

		if (len == 0)
			continue;
		if (pack && cur.len > 0 && cur.len + strlen(sep) + len <= o->budget) {
			buf_adds(&cur, sep);
			buf_add(&cur, l, len);
			continue;
		}
		if (cur.len > 0)
			irc_fmt_split(buf_str(&cur), cur.len, o->budget, add_piece, out);
		buf_reset(&cur);
		buf_add(&cur, l, len);
		if (!pack) {
			irc_fmt_split(buf_str(&cur), cur.len, o->budget, add_piece, out);
			buf_reset(&cur);
		}
	}
	if (cur.len > 0)
		irc_fmt_split(buf_str(&cur), cur.len, o->budget, add_piece, out);
	buf_free(&cur);
}

static void
render_as(const struct reply_msg *m, const struct render_irc_opts *o, enum layout lay,
          struct irc_lines *out)
{
	struct irc_lines logical = {0};

	logical_lines(m, o, lay, &logical);
	layout(&logical, o, lay != LAYOUT_FULL, out);
	render_irc_lines_free(&logical);
}

/* Whether m has at most SHORT_LINES logical lines and no table that is
 * shown whole. */
static bool
short_message(const struct reply_msg *m)
{
	size_t n = m->title != NULL ? 1 : 0;

	for (size_t i = 0; i < m->nblocks; i++) {
		if (m->blocks[i].kind == RB_TABLE && !rolled_table(&m->blocks[i]))
			return false;
		n++;
	}
	return n <= SHORT_LINES;
}

void
render_irc(const struct reply_msg *m, const struct render_irc_opts *o, struct irc_lines *out)
{
	size_t max = o->max_lines < 2 ? 2 : (size_t)o->max_lines;
	struct irc_lines tmp = {0};
	char note[96];
	int n;

	/* A short message (a roll: who rolls, the dice) that packs into one
	 * IRC line is sent as one. */
	if (short_message(m)) {
		render_as(m, o, LAYOUT_PACKED, &tmp);
		if (tmp.n == 1) {
			render_irc_lines_add(out, tmp.v[0], strlen(tmp.v[0]));
			render_irc_lines_free(&tmp);
			return;
		}
	}
	for (enum layout lay = LAYOUT_FULL; lay <= LAYOUT_BRIEF; lay++) {
		render_irc_lines_free(&tmp);
		render_as(m, o, lay, &tmp);
		if (tmp.n <= max) {
			for (size_t i = 0; i < tmp.n; i++)
				render_irc_lines_add(out, tmp.v[i], strlen(tmp.v[i]));
			render_irc_lines_free(&tmp);
			return;
		}
	}
	for (size_t i = 0; i + 1 < max; i++)
		render_irc_lines_add(out, tmp.v[i], strlen(tmp.v[i]));
	n = snprintf(note, sizeof(note),
	             "\x03%02d… %zu more lines not shown (too long for IRC)\x0f", C_GREY,
	             tmp.n - (max - 1));
	if (n > 0 && (size_t)n < sizeof(note))
		render_irc_lines_add(out, note, (size_t)n);
	render_irc_lines_free(&tmp);
}
