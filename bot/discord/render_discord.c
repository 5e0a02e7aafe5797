/* render_discord: Discord rendering of the reply model; see render_discord.h. */
#include "bot/discord/render_discord.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/render/render_layout.h"
#include "bot/discord/discord_buttons.h"
#include "bot/discord/render_discord_text.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define FENCE_OPEN  "```ansi\n"
#define FENCE_CLOSE "```\n"
#define HL_MARK     "\xe2\x96\xb6 " /* "▶ " */
#define SHORTENED   " \xe2\x80\xa6 (shortened)"
/* A longer line is shortened rather than left out. */
#define LINE_MAX_UNITS 1500

enum ukind {
	U_TITLE,
	U_LINE,
	U_HEADER,
	U_ROW,
	U_HLROW,
};

/* One output line of a message, before fitting it into the limit. */
struct unit {
	char *text; /* in its units' texts, or its own allocation (own) */
	bool own;
	size_t len; /* UTF-16 code units */
	enum ukind kind;
	bool fenced;
	bool dropped;
	bool done;                    /* sent in an earlier part: skipped without a marker */
	size_t rank;                  /* rows: drop order, the larger the earlier */
	size_t head;                  /* rows: the unit of their table's header, or SIZE_MAX */
	size_t table;                 /* a table's units: its first unit, else SIZE_MAX */
	const struct reply_block *bl; /* lines: for the ansi rendering */
	char *alt;                    /* lines not fenced: their ansi rendering */
	size_t alt_len;
};

/* A block of the units' texts, each NUL-terminated, laid end to end. */
struct texts {
	struct texts *next;
	char data[];
};

/* Units (and their texts' bytes) most replies fit in without allocating. */
#define UNITS_FIRST 16
#define TEXTS_FIRST 2048
/* The smallest block of texts allocated past the first. */
#define TEXTS_BLOCK 4000

/* A reply's units: v is first_v until more are needed; the texts go in
 * first_texts, then in blocks allocated as needed (texts). */
struct units {
	struct unit *v;
	size_t n, cap;
	char *room;          /* where the next text goes */
	size_t room_left;    /* bytes free from room on */
	struct texts *texts; /* the blocks allocated, the newest first */
	struct unit first_v[UNITS_FIRST];
	char first_texts[TEXTS_FIRST];
};

size_t
render_discord_len(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xC0) != 0x80)
			n++;
		if (*p >= 0xF0)
			n++; /* a surrogate pair */
	}
	return n;
}

/* render_discord_len of s, a string of n bytes (s[n] is its NUL): words of
 * eight ASCII bytes, none of them NUL, count eight at once. Every line of
 * a reply and every part assembled from them is measured. */
static size_t
len_of(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t units = 0, i = 0;

	while (i < n) {
		unsigned char c;

		if (n - i >= 8) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if (((w | ((w - ones) & ~w)) & highs) == 0) {
				units += 8;
				i += 8;
				continue;
			}
		}
		c = (unsigned char)s[i++];
		if (c == '\0')
			break;
		if ((c & 0xC0) != 0x80)
			units++;
		if (c >= 0xF0)
			units++; /* a surrogate pair */
	}
	return units;
}

static void
units_add(struct units *u, enum ukind kind, bool fenced, struct buf *text)
{
	struct unit *x;
	size_t len = text->len;

	if (u->v == NULL) {
		u->v = u->first_v;
		u->cap = UNITS_FIRST;
	} else if (u->n == u->cap && u->v == u->first_v) {
		u->v = xmalloc(2 * u->cap * sizeof(*u->v));
		memcpy(u->v, u->first_v, u->cap * sizeof(*u->v));
		u->cap *= 2;
	} else if (u->n == u->cap) {
		u->cap *= 2;
		u->v = xrealloc(u->v, u->cap * sizeof(*u->v));
	}
	if (u->room == NULL && len < TEXTS_FIRST) {
		u->room = u->first_texts;
		u->room_left = TEXTS_FIRST;
	} else if (u->room_left <= len) {
		size_t size = len + 1 > TEXTS_BLOCK ? len + 1 : TEXTS_BLOCK;
		struct texts *t = xmalloc(sizeof(*t) + size);

		t->next = u->texts;
		u->texts = t;
		u->room = t->data;
		u->room_left = size;
	}
	x = &u->v[u->n++];
	memset(x, 0, sizeof(*x));
	/* A copy into the units' texts: text keeps its memory for the next
	 * line. */
	x->text = u->room;
	memcpy(x->text, buf_str(text), len);
	x->text[len] = '\0';
	u->room += len + 1;
	u->room_left -= len + 1;
	buf_reset(text);
	x->len = len_of(x->text, len);
	x->kind = kind;
	x->fenced = fenced;
	x->head = SIZE_MAX;
	x->table = SIZE_MAX;
}

static void
units_free(struct units *u)
{
	for (size_t i = 0; i < u->n; i++) {
		if (u->v[i].own)
			free(u->v[i].text);
		free(u->v[i].alt);
	}
	if (u->v != u->first_v)
		free(u->v);
	while (u->texts != NULL) {
		struct texts *next = u->texts->next;

		free(u->texts);
		u->texts = next;
	}
}

static void
table_units(const struct reply_block *bl, struct units *u)
{
	size_t width[RENDER_COLS_MAX] = {0};
	size_t hl = SIZE_MAX, head = SIZE_MAX, first = u->n;
	struct buf b;

	buf_init(&b, RENDER_DISCORD_TEXT_MAX);
	render_layout_widths(bl, width);
	for (size_t r = 0; r < bl->nrows; r++)
		if (bl->rows[r].highlight && hl == SIZE_MAX)
			hl = r;
	if (bl->header != NULL) {
		buf_adds(&b, hl != SIZE_MAX ? "  \033[1m" : "\033[1m");
		for (int c = 0; c < bl->ncols; c++) {
			render_discord_text_fenced(&b, bl->header[c]);
			if (c + 1 < bl->ncols)
				render_layout_pad(&b, width[c] -
				                          render_layout_width(bl->header[c]) + 2);
		}
		buf_adds(&b, RENDER_SGR_RESET);
		units_add(u, U_HEADER, true, &b);
		head = u->n - 1;
	}
	for (size_t r = 0; r < bl->nrows; r++) {
		const struct reply_row *row = &bl->rows[r];
		bool mark = hl != SIZE_MAX;

		const char *rowsgr = !mark ? "" : row->highlight ? "\033[1;33m" : "\033[30m";

		if (mark)
			buf_addf(&b, "%s%s", row->highlight ? HL_MARK : "  ", rowsgr);
		for (int c = 0; c < bl->ncols; c++) {
			char sgr[32];

			/* A player's die keeps the player's colour. */
			if ((row->user_cols >> c & 1u) &&
			    render_discord_text_sgr(RS_USER, &row->user[c], sgr, sizeof(sgr))) {
				buf_adds(&b, sgr);
				render_discord_text_fenced(&b, row->cells[c]);
				buf_addf(&b, RENDER_SGR_RESET "%s", rowsgr);
			} else {
				render_discord_text_fenced(&b, row->cells[c]);
			}
			if (c + 1 < bl->ncols)
				render_layout_pad(&b, width[c] -
				                          render_layout_width(row->cells[c]) + 2);
		}
		if (mark)
			buf_adds(&b, RENDER_SGR_RESET);
		units_add(u, row->highlight ? U_HLROW : U_ROW, true, &b);
		/* Far rows go first; without a highlight, the last rows go first. */
		u->v[u->n - 1].rank =
		    hl == SIZE_MAX ? r : (r > hl ? r - hl : hl - r) * 2 + (r > hl);
		u->v[u->n - 1].head = head;
	}
	for (size_t i = first; i < u->n; i++)
		u->v[i].table = first;
	buf_free(&b);
}

/* Where to cut t to keep about keep UTF-16 units: at a word, never inside
 * an escape sequence or a character. Never 0 unless t is empty. */
static size_t
cut_point(const char *t, size_t keep)
{
	size_t cut = 0, whole;

	for (size_t n = 0; t[cut] != '\0' && n < keep; cut++) {
		unsigned char c = (unsigned char)t[cut];

		if ((c & 0xC0) != 0x80)
			n += c >= 0xF0 ? 2 : 1;
	}
	cut = utf8_cut(t, strlen(t), cut);
	whole = cut;
	for (size_t k = cut; k > 0 && cut - k < 40; k--) {
		if (t[k - 1] == ' ') {
			cut = k - 1;
			break;
		}
	}
	for (size_t k = cut; k > 0 && cut - k < 16; k--) {
		if (t[k - 1] == 'm')
			break;
		if (t[k - 1] == '\033') { /* inside an escape: cut before it */
			cut = k - 1;
			break;
		}
	}
	return cut > 0 ? cut : whole;
}

/* Shortens a unit to about keep UTF-16 units and says so. */
static void
shorten(struct unit *x, size_t keep)
{
	struct buf b;

	buf_init(&b, RENDER_DISCORD_TEXT_MAX);
	buf_add(&b, x->text, cut_point(x->text, keep));
	buf_adds(&b, x->fenced ? RENDER_SGR_RESET SHORTENED : SHORTENED);
	if (x->own)
		free(x->text);
	x->text = buf_take(&b);
	x->own = true;
	x->len = render_discord_len(x->text);
	x->bl = NULL; /* its ansi rendering would be the whole line */
}

/* Cuts the newest unit, when longer than LINE_MAX_UNITS, into lines of
 * at most that length at words: every line then fits in a message of its
 * own, and nothing needs to be left out of a reply sent in parts. */
static void
split_long(struct units *u)
{
	struct unit *x = &u->v[u->n - 1];
	char *text, *rest, carry[32] = "";
	bool fenced = x->fenced, own;
	struct buf b;

	if (x->len <= LINE_MAX_UNITS)
		return;
	text = x->text;
	own = x->own;
	x->text = NULL;
	free(x->alt);
	u->n--;
	buf_init(&b, RENDER_DISCORD_TEXT_MAX);
	for (rest = text; render_discord_len(rest) > LINE_MAX_UNITS;) {
		size_t cut = cut_point(rest, LINE_MAX_UNITS - 40);
		const char *sgr = NULL;

		buf_adds(&b, carry);
		buf_add(&b, rest, cut);
		if (fenced)
			buf_adds(&b, RENDER_SGR_RESET);
		units_add(u, U_LINE, fenced, &b);
		/* The style open where the line was cut goes on in the next. */
		for (const char *e = rest;
		     (e = memchr(e, '\033', (size_t)(rest + cut - e))) != NULL; e++)
			sgr = e;
		if (sgr != NULL) {
			size_t n = strcspn(sgr, "m") + 1;

			carry[0] = '\0';
			if (n < sizeof(carry) && strncmp(sgr, RENDER_SGR_RESET, n) != 0)
				snprintf(carry, sizeof(carry), "%.*s", (int)n, sgr);
		}
		rest += cut;
		if (*rest == ' ')
			rest++;
	}
	buf_adds(&b, carry);
	buf_adds(&b, rest);
	units_add(u, U_LINE, fenced, &b);
	buf_free(&b);
	if (own)
		free(text);
}

static void
build_units(const struct reply_msg *m, struct units *u)
{
	struct buf b;

	buf_init(&b, RENDER_DISCORD_TEXT_MAX);
	if (m->title != NULL) {
		bool start = true;

		buf_adds(&b, "**");
		render_discord_text_md(&b, m->title, &start);
		buf_adds(&b, "**");
		units_add(u, U_TITLE, false, &b);
		if (u->v[0].len > LINE_MAX_UNITS)
			shorten(&u->v[0], LINE_MAX_UNITS - 40);
	}
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *bl = &m->blocks[i];
		bool fenced, start = true;

		if (bl->brief)
			continue;
		if (bl->kind == RB_TABLE) {
			table_units(bl, u);
			continue;
		}
		fenced = render_discord_text_is_dice(bl);
		if (bl->nspans == 0) /* an empty line stays where it is */
			fenced = u->n > 0 && u->v[u->n - 1].fenced;
		for (size_t j = 0; j < bl->nspans; j++)
			render_discord_text_span(&b, &bl->spans[j], fenced, &start);
		units_add(u, U_LINE, fenced, &b);
		u->v[u->n - 1].bl = bl;
		split_long(u);
	}
	buf_free(&b);
}

static void
gap_marker(struct buf *out, bool *open, size_t gap, bool rows, bool fenced)
{
	if (gap == 0)
		return;
	if (fenced && !*open)
		buf_adds(out, FENCE_OPEN);
	if (!fenced && *open)
		buf_adds(out, FENCE_CLOSE);
	*open = fenced;
	buf_addf(out,
	         fenced ? "\xe2\x80\xa6 %zu more %s not shown\n"
	                : "*\xe2\x80\xa6 %zu more %s not shown*\n",
	         gap, rows ? (gap == 1 ? "row" : "rows") : (gap == 1 ? "line" : "lines"));
}

/* Joins the units that are not dropped, with fences and gap markers. */
static char *
assemble(const struct units *u)
{
	struct buf out;
	bool open = false, gap_rows = true, gap_fenced = false;
	size_t gap = 0;

	buf_init(&out, RENDER_DISCORD_TEXT_MAX);
	for (size_t i = 0; i < u->n; i++) {
		const struct unit *x = &u->v[i];

		if (x->done)
			continue;
		if (x->dropped) {
			if (gap == 0) {
				gap_fenced = x->fenced;
				gap_rows = true;
			}
			gap_rows &= (x->kind == U_ROW);
			gap++;
			continue;
		}
		gap_marker(&out, &open, gap, gap_rows, gap_fenced);
		gap = 0;
		if (x->fenced && !open)
			buf_adds(&out, FENCE_OPEN);
		if (!x->fenced && open)
			buf_adds(&out, FENCE_CLOSE);
		open = x->fenced;
		buf_adds(&out, x->text);
		buf_addc(&out, '\n');
	}
	gap_marker(&out, &open, gap, gap_rows, gap_fenced);
	if (open)
		buf_adds(&out, FENCE_CLOSE);
	if (out.len > 0)
		out.p[--out.len] = '\0'; /* the last newline */
	return buf_take(&out);
}

/* The next unit to leave out: the row farthest from the highlight, then
 * the last plain line but the message's last (its conclusion: a total, the
 * narrator), then (only when a message is little else) the last header or
 * highlighted row, the last line, and the title last of all. SIZE_MAX when
 * everything is left out already. */
static size_t
next_drop(const struct units *u)
{
	static const enum ukind order[] = {U_LINE, U_HEADER, U_HLROW, U_LINE, U_TITLE};
	size_t best = SIZE_MAX, last = u->n;

	for (size_t i = 0; i < u->n; i++) {
		const struct unit *x = &u->v[i];

		if (!x->dropped && !x->done && x->kind == U_ROW &&
		    (best == SIZE_MAX || x->rank >= u->v[best].rank))
			best = i;
	}
	if (best != SIZE_MAX)
		return best;
	while (last > 0 && (u->v[last - 1].kind != U_LINE || u->v[last - 1].done))
		last--;
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (size_t i = u->n; i > 0; i--)
			if (!u->v[i - 1].dropped && !u->v[i - 1].done &&
			    u->v[i - 1].kind == order[k] && (k > 0 || i != last))
				return i - 1;
	return SIZE_MAX;
}

/* The content of the message, fitted into DISCORD_CONTENT_MAX. */
static char *
fit(struct units *u)
{
	char *s = assemble(u);
	size_t len = render_discord_len(s), est;

	if (len <= DISCORD_CONTENT_MAX)
		return s;
	/* A line longer than most of a message is shortened, not dropped. */
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].len > LINE_MAX_UNITS)
			shorten(&u->v[i], LINE_MAX_UNITS - 40);
	free(s);
	s = assemble(u);
	est = render_discord_len(s);
	if (est <= DISCORD_CONTENT_MAX)
		return s;
	/* Drop by estimate first (each marker line costs about 30). */
	while (est > DISCORD_CONTENT_MAX - 120) {
		size_t i = next_drop(u);

		if (i == SIZE_MAX)
			break;
		u->v[i].dropped = true;
		est -= u->v[i].len + 1 < est ? u->v[i].len + 1 : est;
	}
	for (;;) {
		size_t i;

		free(s);
		s = assemble(u);
		len = render_discord_len(s);
		if (len <= DISCORD_CONTENT_MAX)
			return s;
		i = next_drop(u);
		if (i == SIZE_MAX)
			return s; /* only the marker is left: it always fits */
		u->v[i].dropped = true;
	}
}

/* Appends m's buttons as the message's "components" member (its rows of
 * buttons), when it has one whose id bs can give. */
static void
write_buttons(const struct reply_msg *m, struct discord_buttons *bs, struct buf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nbuttons && n < DISCORD_BUTTONS_MAX; i++) {
		const char *action = m->buttons[i].action, *label = m->buttons[i].label;
		char id[DISCORD_CUSTOM_ID_MAX + 1], lab[DISCORD_LABEL_MAX + 1];
		size_t ll = strlen(label);

		if (action == NULL || *action == '\0')
			continue;
		if (discord_buttons_id(bs, action,
		                       m->buttons[i].panel    ? DISCORD_BUTTON_PANEL
		                       : m->buttons[i].update ? DISCORD_BUTTON_UPDATE
		                                              : DISCORD_BUTTON_NEW,
		                       id, sizeof(id)) < 0)
			continue;
		ll = utf8_cut(label, ll, DISCORD_LABEL_MAX);
		if (ll == 0) {
			label = "Run";
			ll = 3;
		}
		memcpy(lab, label, ll);
		lab[ll] = '\0';
		if (n == 0)
			json_write_lit(out, ",\"components\":[");
		if (n % DISCORD_ROW_BUTTONS == 0) {
			if (n > 0)
				json_write_lit(out, "]},");
			json_write_lit(out, "{\"type\":");
			json_write_int(DISCORD_COMPONENT_ACTION_ROW, out);
			json_write_lit(out, ",\"components\":[");
		} else {
			buf_addc(out, ',');
		}
		json_write_lit(out, "{\"type\":");
		json_write_int(DISCORD_COMPONENT_BUTTON, out);
		json_write_lit(out, ",\"style\":");
		json_write_int(n == 0 ? DISCORD_BUTTON_PRIMARY : DISCORD_BUTTON_SECONDARY, out);
		json_write_lit(out, ",\"label\":");
		json_write_string(lab, out);
		json_write_lit(out, ",\"custom_id\":");
		json_write_string(id, out);
		buf_addc(out, '}');
		n++;
	}
	if (n > 0)
		json_write_lit(out, "]}]");
}

/* The ansi rendering of a plain line, for a part drawn as one block. */
static const char *
alt_text(struct unit *x)
{
	if (x->alt == NULL) {
		struct buf b;

		buf_init(&b, RENDER_DISCORD_TEXT_MAX);
		for (size_t j = 0; j < x->bl->nspans; j++)
			render_discord_text_span(&b, &x->bl->spans[j], true, NULL);
		x->alt = buf_take(&b);
		x->alt_len = render_discord_len(x->alt);
	}
	return x->alt;
}

/* Whether units [a, b) go into one ansi block: when they would make more
 * than one block, and every plain line among them has an ansi rendering.
 * The title stays above the block. */
static bool
one_block(const struct units *u, size_t a, size_t b)
{
	size_t runs = 0;
	bool prev = false;

	for (size_t i = a; i < b; i++) {
		const struct unit *x = &u->v[i];

		if (x->kind == U_TITLE)
			continue;
		if (!x->fenced && x->bl == NULL)
			return false;
		if (x->fenced && !prev)
			runs++;
		prev = x->fenced;
	}
	return runs > 1;
}

/* Room reserved at once for a part: most parts fit without a regrowth. */
#define PART_ROOM 1024

/* The content of units [a, b) as one message; a part that starts inside
 * a table repeats the table's header. */
static char *
assemble_part(struct units *u, size_t a, size_t b)
{
	bool merged = one_block(u, a, b), open = false;
	struct buf out;

	buf_init(&out, RENDER_DISCORD_TEXT_MAX);
	buf_reserve(&out, PART_ROOM);
	if (a < b && u->v[a].head != SIZE_MAX && u->v[a].head < a) {
		buf_adds(&out, FENCE_OPEN);
		buf_adds(&out, u->v[u->v[a].head].text);
		buf_addc(&out, '\n');
		open = true;
	}
	for (size_t i = a; i < b; i++) {
		struct unit *x = &u->v[i];
		bool fenced = x->fenced || (merged && x->kind != U_TITLE);

		if (fenced && !open)
			buf_adds(&out, FENCE_OPEN);
		if (!fenced && open)
			buf_adds(&out, FENCE_CLOSE);
		open = fenced;
		buf_adds(&out, fenced && !x->fenced ? alt_text(x) : x->text);
		buf_addc(&out, '\n');
	}
	if (open)
		buf_adds(&out, FENCE_CLOSE);
	if (out.len > 0)
		out.p[--out.len] = '\0';
	return buf_take(&out);
}

/* The length in UTF-16 code units of what assemble_part(u, a, b) returns,
 * summed from the units' lengths: the same pieces in the same order (each
 * ends in a newline, the last one dropped), none of them put together. */
static size_t
part_len(struct units *u, size_t a, size_t b)
{
	const size_t open_len = sizeof(FENCE_OPEN) - 1, close_len = sizeof(FENCE_CLOSE) - 1;
	bool merged = one_block(u, a, b), open = false;
	size_t n = 0;

	if (a < b && u->v[a].head != SIZE_MAX && u->v[a].head < a) {
		n += open_len + u->v[u->v[a].head].len + 1;
		open = true;
	}
	for (size_t i = a; i < b; i++) {
		struct unit *x = &u->v[i];
		bool fenced = x->fenced || (merged && x->kind != U_TITLE);

		if (fenced && !open)
			n += open_len;
		if (!fenced && open)
			n += close_len;
		open = fenced;
		if (fenced && !x->fenced) {
			(void)alt_text(x);
			n += x->alt_len + 1;
		} else {
			n += x->len + 1;
		}
	}
	if (open)
		n += close_len;
	return n > 0 ? n - 1 : 0;
}

static bool
part_fits_len(struct units *u, size_t a, size_t b)
{
	return part_len(u, a, b) <= DISCORD_CONTENT_MAX;
}

/* The end of the part starting at a (the largest b whose units fit), moved
 * back to the start of a table cut in two when the part holds something
 * before it. *s gets the content of the last candidate that fitted, in the
 * order they are tried (left alone when none did); only that one is put
 * together. */
static size_t
part_end(struct units *u, size_t a, char **s)
{
	size_t b = a + 1, fit = 0, t;

	/* Every unit fits alone: long lines were cut, titles shortened. */
	if (part_fits_len(u, a, b))
		fit = b;
	while (b < u->n && part_fits_len(u, a, b + 1))
		fit = ++b;
	if (b < u->n && (t = u->v[b].table) != SIZE_MAX && t == u->v[b - 1].table && t > a) {
		b = t;
		if (part_fits_len(u, a, b))
			fit = b;
	}
	if (fit > 0) {
		free(*s);
		*s = assemble_part(u, a, fit);
	}
	return b;
}

/* The message object of content (freed here) as JSON text: content, flags
 * (ephemeral), allowed_mentions that ping nobody, then m's buttons when m
 * is not NULL; "(nothing to show)" when it would show neither text nor a
 * button. head goes before the content when both fit in one message. */
static char *
message(char *content, bool ephemeral, const char *head, const struct reply_msg *m,
        struct discord_buttons *bs)
{
	struct buf out, comps;

	buf_init(&comps, SIZE_MAX);
	if (m != NULL)
		write_buttons(m, bs, &comps);
	if (content[0] == '\0' && comps.len == 0) {
		free(content);
		content = xstrdup("(nothing to show)");
	}
	if (head != NULL) {
		struct buf b;

		buf_init(&b, 4 * DISCORD_CONTENT_MAX + 64);
		buf_adds(&b, head);
		buf_adds(&b, content);
		if (!b.toobig && render_discord_len(buf_str(&b)) <= DISCORD_CONTENT_MAX) {
			free(content);
			content = buf_take(&b);
		}
		buf_free(&b);
	}
	buf_init(&out, SIZE_MAX);
	/* The room json_write_string takes for the content (six bytes a byte,
	 * at the longest escape) and the rest: one allocation, no regrowth. */
	buf_reserve(&out, 6 * strlen(content) + comps.len + 80);
	json_write_lit(&out, "{\"content\":");
	json_write_string(content, &out);
	free(content);
	if (ephemeral) {
		json_write_lit(&out, ",\"flags\":");
		json_write_int(DISCORD_FLAG_EPHEMERAL, &out);
	}
	json_write_lit(&out, ",\"allowed_mentions\":{\"parse\":[]}");
	buf_add(&out, comps.p, comps.len);
	buf_addc(&out, '}');
	buf_free(&comps);
	return buf_take(&out);
}

size_t
render_discord_parts(const struct reply_msg *m, bool ephemeral, struct discord_buttons *bs,
                     const char *head, char **out, size_t max)
{
	struct units u;
	size_t n = 0, a = 0;
	char *content = NULL;

	if (max == 0)
		return 0;
	u.v = NULL; /* the arrays need no zeroing */
	u.n = u.cap = u.room_left = 0;
	u.room = NULL;
	u.texts = NULL;
	build_units(m, &u);
	if (u.n > 0 && part_fits_len(&u, 0, u.n)) {
		content = assemble_part(&u, 0, u.n);
		a = u.n;
	} else {
		/* Each part's content in out[] until all are known. */
		while (a < u.n && n + 1 < max) {
			char *s = NULL;
			size_t b = part_end(&u, a, &s);

			out[n++] = s != NULL ? s : xstrdup("");
			for (; a < b; a++)
				u.v[a].done = true;
		}
		if (a < u.n)
			content = fit(&u); /* the last part: what is left, summarised */
	}
	if (content == NULL && n > 0)
		content = out[--n];
	units_free(&u);
	if (content == NULL || *content == '\0') {
		free(content);
		content = xstrdup(m->nbuttons > 0 ? "" : "(nothing to show)");
	}
	for (size_t i = 0; i < n; i++)
		out[i] = message(out[i], ephemeral, NULL, NULL, bs);
	out[n] = message(content, ephemeral, head, m, bs);
	return n + 1;
}

char *
render_discord(const struct reply_msg *m, bool ephemeral, struct discord_buttons *bs)
{
	char *msg;

	(void)render_discord_parts(m, ephemeral, bs, NULL, &msg, 1);
	return msg;
}
