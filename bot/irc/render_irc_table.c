/* render_irc_table: a reply's tables on IRC; see render_irc_table.h. */
#include "bot/irc/render_irc_table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "bot/irc/render_irc_int.h"
#include "bot/render/render_layout.h"
#include "rules/base/mem.h"

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
           const size_t *width, const struct render_irc_opts *o, struct buf *out)
{
	for (int c = 0; c < ncols; c++) {
		size_t start = out->len, w;

		render_irc__clean(out, cells[c], o);
		w = render_layout_width(out->p != NULL ? out->p + start : "");
		if (row != NULL && (row->user_cols >> c & 1u)) {
			struct buf cell;

			buf_init(&cell, LOGICAL_MAX);
			buf_adds(&cell, out->p + start);
			out->len = start;
			out->p[start] = '\0';
			if (render_irc__open_style(RS_USER, &row->user[c], out)) {
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
clean_width(const char *s, const struct render_irc_opts *o)
{
	struct buf b;
	size_t n;

	buf_init(&b, LOGICAL_MAX);
	render_irc__clean(&b, s, o);
	n = render_layout_width(buf_str(&b));
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
bool
render_irc_table_is_rolled(const struct reply_block *b)
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

/* The short name of a table entry: its text up to the first ':', ',' or
 * '(' (the name a roll's own line gives it: "Fatigue"), at most max
 * columns (a wide character takes two). */
static void
entry_name(const char *cell, size_t max, const struct render_irc_opts *o, struct buf *out)
{
	size_t n = strcspn(cell, ":,(");
	char *name;

	while (n > 0 && cell[n - 1] == ' ')
		n--;
	if (n == 0)
		n = strlen(cell);
	name = xstrndup(cell, n);
	if (render_layout_width(name) > max) {
		name[render_layout_cut(name, max - 1)] = '\0';
		render_irc__clean(out, name, o);
		buf_adds(out, "…");
	} else {
		render_irc__clean(out, name, o);
	}
	free(name);
}

/*
 * A rolled table as one line: each row's first column and the short name
 * of its last, " · " apart, the rolled row bold in brackets. Returns false,
 * having written nothing, when that is longer than a line.
 */
static bool
table_line(const struct reply_block *b, const struct render_irc_opts *o, struct buf *line,
           struct irc_lines *out)
{
	struct buf t;
	bool fits;

	buf_init(&t, LOGICAL_MAX);
	for (size_t r = 0; r < b->nrows; r++) {
		const struct reply_row *row = &b->rows[r];

		if (r > 0)
			buf_adds(&t, " · ");
		if (row->highlight)
			buf_adds(&t, IRC_FMT_BOLD "[");
		render_irc__clean(&t, row->cells[0], o);
		if (b->ncols > 1) {
			buf_addc(&t, ' ');
			entry_name(row->cells[b->ncols - 1], row->highlight ? 60 : 24, o, &t);
		}
		if (row->highlight)
			buf_adds(&t, "]" IRC_FMT_RESET);
	}
	fits = !t.toobig && t.len <= o->budget;
	if (fits) {
		buf_add(line, buf_str(&t), t.len);
		render_irc__flush_line(line, out);
	}
	buf_free(&t);
	return fits;
}

/* A table with a rolled (highlighted) row, in one line: its header, then
 * the row marked "▶" and where it stands ("(row 7 of 20)"). */
void
render_irc_table_rolled(const struct reply_block *b, const struct render_irc_opts *o,
                        struct buf *line, struct irc_lines *out)
{
	if (table_line(b, o, line, out))
		return;
	if (b->header != NULL) {
		buf_adds(line, IRC_FMT_BOLD);
		cells_line(b->header, NULL, "", b->ncols, NULL, o, line);
		buf_adds(line, IRC_FMT_RESET);
	}
	for (size_t r = 0; r < b->nrows; r++) {
		struct buf reopen;

		if (!b->rows[r].highlight)
			continue;
		buf_init(&reopen, 64);
		buf_adds(&reopen, IRC_FMT_BOLD);
		render_irc__colour(&reopen, C_ORANGE);
		buf_adds(line, line->len > 0 ? " ▶ " : "▶ ");
		buf_adds(line, buf_str(&reopen));
		cells_line(b->rows[r].cells, &b->rows[r], buf_str(&reopen), b->ncols, NULL, o,
		           line);
		buf_free(&reopen);
		buf_adds(line, IRC_FMT_RESET " ");
		render_irc__colour(line, C_GREY);
		buf_addf(line, "(row %zu of %zu)" IRC_FMT_RESET, r + 1, b->nrows);
	}
	render_irc__flush_line(line, out);
}

/* Whether a cell says nothing ("" or "-") and is left out of a row
 * written in words. */
static bool
empty_cell(const char *cell)
{
	return cell[0] == '\0' || strcmp(cell, "-") == 0;
}

/* Whether the rows of b in words name their first cell after its header:
 * when any of them starts with a number ("level 1", "when 1 min ago"), so
 * that every row of one table reads alike ("when just now" too). */
static bool
first_header_named(const struct reply_block *b)
{
	if (empty_cell(b->header[0]))
		return false;
	for (size_t r = 0; r < b->nrows; r++)
		if (isdigit((unsigned char)b->rows[r].cells[0][0]))
			return true;
	return false;
}

/*
 * A row of a table with a header, in words rather than columns (IRC has
 * no columns to keep): "level 1: total XP 0, max hits 5, class bonus 0".
 * The first cell names the row, after its header when named
 * (first_header_named); each other cell follows its header (a two-column
 * table's second cell stands alone: "torch: Lasts 6 turns"); cells that
 * say nothing are left out. reopen is the row's formatting, reopened after
 * a player's cell.
 */
static void
row_words(const struct reply_block *b, const struct reply_row *row, bool named, const char *reopen,
          const struct render_irc_opts *o, struct buf *out)
{
	const char *sep = ": ";

	if (named) {
		render_irc__clean(out, b->header[0], o);
		buf_addc(out, ' ');
	}
	for (int c = 0; c < b->ncols; c++) {
		if (c > 0 && empty_cell(row->cells[c]))
			continue;
		if (c > 0) {
			buf_adds(out, sep);
			sep = ", ";
		}
		if (c > 0 && b->ncols > 2 && !empty_cell(b->header[c])) {
			render_irc__clean(out, b->header[c], o);
			buf_addc(out, ' ');
		}
		if ((row->user_cols >> c & 1u) &&
		    render_irc__open_style(RS_USER, &row->user[c], out)) {
			render_irc__clean(out, row->cells[c], o);
			buf_adds(out, IRC_FMT_RESET);
			buf_adds(out, reopen);
		} else {
			render_irc__clean(out, row->cells[c], o);
		}
	}
}

/* Every row; cells padded to columns when padded, else each row in words
 * (row_words) when the table has a header, or its cells two spaces
 * apart. */
void
render_irc_table_rows(const struct reply_block *b, bool padded, const struct render_irc_opts *o,
                      struct buf *line, struct irc_lines *out)
{
	size_t width[16] = {0};
	bool hl = any_highlight(b), named = b->header != NULL && first_header_named(b);

	for (int c = 0; padded && c < b->ncols && c < 16; c++) {
		if (b->header != NULL)
			width[c] = clean_width(b->header[c], o);
		for (size_t r = 0; r < b->nrows; r++) {
			size_t w = clean_width(b->rows[r].cells[c], o);

			if (w > width[c])
				width[c] = w;
		}
	}
	if (b->header != NULL && padded) {
		buf_adds(line, hl ? "  " IRC_FMT_BOLD : IRC_FMT_BOLD);
		cells_line(b->header, NULL, "", b->ncols, padded ? width : NULL, o, line);
		buf_adds(line, IRC_FMT_RESET);
		render_irc__flush_line(line, out);
	}
	for (size_t r = 0; r < b->nrows; r++) {
		const struct reply_row *row = &b->rows[r];

		struct buf reopen;

		buf_init(&reopen, 64);
		if (row->highlight) {
			buf_adds(&reopen, IRC_FMT_BOLD);
			render_irc__colour(&reopen, C_ORANGE);
			buf_adds(line, "▶ ");
		} else if (hl) {
			buf_adds(line, padded ? "  " : ""); /* under the ▶ */
			render_irc__colour(&reopen, C_GREY);
		}
		buf_adds(line, buf_str(&reopen));
		if (!padded && b->header != NULL)
			row_words(b, row, named, buf_str(&reopen), o, line);
		else
			cells_line(row->cells, row, buf_str(&reopen), b->ncols,
			           padded ? width : NULL, o, line);
		buf_free(&reopen);
		if (hl)
			buf_adds(line, IRC_FMT_RESET);
		render_irc__flush_line(line, out);
	}
}

/* A table that is not a roll's (a rolled one is table_rolled's) in one
 * line: the list of its first column, a highlighted entry (help's default
 * subcommand, a party's own member) marked, so that every entry stays
 * named. */
void
render_irc_table_brief(const struct reply_block *b, const struct render_irc_opts *o,
                       struct buf *line, struct irc_lines *out)
{
	if (b->header != NULL) {
		buf_adds(line, IRC_FMT_BOLD);
		render_irc__clean(line, b->header[0], o);
		buf_adds(line, ":" IRC_FMT_RESET " ");
	}
	for (size_t r = 0; r < b->nrows; r++) {
		if (r > 0)
			buf_adds(line, ", ");
		if (b->rows[r].highlight) {
			buf_adds(line, IRC_FMT_BOLD);
			render_irc__colour(line, C_ORANGE);
			buf_adds(line, "▶ ");
		}
		render_irc__clean(line, b->rows[r].cells[0], o);
		if (b->rows[r].highlight)
			buf_adds(line, IRC_FMT_RESET);
	}
	render_irc__flush_line(line, out);
}
