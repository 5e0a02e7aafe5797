/* render_irc: IRC rendering of the reply model; see render_irc.h. */
#include "bot/irc/render_irc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "bot/irc/render_irc_int.h"
#include "bot/irc/render_irc_table.h"
#include "bot/render/render_layout.h"
#include "commands/core/registry.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define NICK_SCAN_MAX 64 /* bytes of the longest nick looked for */

/* The mIRC colour number (00-15) for a palette colour. */
static int
render_irc_colour(enum ucolour c)
{
	/* gray, red, green, yellow, blue, pink, cyan, white, in mIRC numbers;
	 * white is darkened a step (light grey) to stay readable on light
	 * backgrounds; yellow stays yellow, as the die is called. */
	static const int map[UC_COUNT] = {14, 4, 3, 8, 12, 13, 10, 15};

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
	free(l->part);
	l->v = NULL;
	l->n = 0;
	l->part = NULL;
	l->nparts = 0;
}

static void
add_piece(void *ctx, const char *piece, size_t len)
{
	render_irc_lines_add(ctx, piece, len);
}

/* Ends a logical line: it joins the list uncut, and line is emptied. */
void
render_irc__flush_line(struct buf *line, struct irc_lines *logical)
{
	render_irc_lines_add(logical, buf_str(line), line->len);
	buf_reset(line);
}

void
render_irc__colour(struct buf *out, int c)
{
	buf_addf(out, "\x03%02d\x02\x02", c); /* the guard keeps ",5" text from being a bg */
}

/* Opens the codes for a span style; returns whether anything was opened. */
bool
render_irc__open_style(unsigned st, const struct thwacko_style *us, struct buf *out)
{
	int c = -1;
	size_t before = out->len;

	if (st & (RS_BOLD | RS_CRIT | RS_FUMBLE | RS_USER | RS_HIGHLIGHT))
		buf_adds(out, IRC_FMT_BOLD);
	if (st & RS_ITALIC)
		buf_adds(out, IRC_FMT_ITALIC);
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
		render_irc__colour(out, c);
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

/* Whether c may be part of a nick (RFC 2812's letters, digits and
 * specials). */
static bool
nick_char(unsigned char c)
{
	return isalnum(c) || (c != '\0' && strchr("[]\\`_^{|}-", c) != NULL);
}

/*
 * Appends the cleaned text s to out, with a zero-width joiner after the
 * first character of every nick o->is_nick names that stands between two
 * characters that are not letters or digits: clients match a mention as a
 * word (each with its own idea of which characters a word holds), which
 * the joiner breaks without showing. The longest nick at a place wins.
 */
static void
guard_nicks(struct buf *out, const char *s, const struct render_irc_opts *o)
{
	size_t len = strlen(s), i = 0;

	if (o->is_nick == NULL) {
		buf_add(out, s, len);
		return;
	}
	while (i < len) {
		size_t run = i, hit = 0;

		if ((i == 0 || !isalnum((unsigned char)s[i - 1])) &&
		    nick_char((unsigned char)s[i])) {
			while (run < len && run - i < NICK_SCAN_MAX &&
			       nick_char((unsigned char)s[run]))
				run++;
			for (size_t j = run; j >= i + 2 && hit == 0; j--)
				if ((j == len || !isalnum((unsigned char)s[j])) &&
				    o->is_nick(o->nick_ctx, s + i, j - i))
					hit = j - i;
		}
		if (hit > 0) {
			buf_addc(out, s[i]);
			buf_adds(out, "\u200d");
			buf_add(out, s + i + 1, hit - 1);
			i += hit;
		} else {
			buf_addc(out, s[i++]);
		}
	}
}

/* Cleans s into out (irc_fmt_clean), writing each command reference with
 * the network's prefix (help and hints say /roll, IRC users type !roll)
 * and breaking nicks (guard_nicks). */
void
render_irc__clean(struct buf *out, const char *s, const struct render_irc_opts *o)
{
	const char *prefix = o->prefix;
	struct buf t, c;

	buf_init(&c, LOGICAL_MAX);
	if (prefix == NULL || strcmp(prefix, "/") == 0 || strchr(s, '/') == NULL) {
		irc_fmt_clean(&c, s);
	} else {
		buf_init(&t, LOGICAL_MAX);
		for (const char *p = s; *p != '\0'; p++) {
			if (command_ref(s, p) > 0)
				buf_adds(&t, prefix);
			else
				buf_addc(&t, *p);
		}
		irc_fmt_clean(&c, buf_str(&t));
		buf_free(&t);
	}
	guard_nicks(out, buf_str(&c), o);
	buf_free(&c);
}

/* Writes s. Its formatting stays open (*open) when the next span has the
 * same style: a sentence in several spans (an error with a command
 * reference in it) is one run of formatting, as one span would be. */
static void
span(const struct reply_span *s, const struct reply_span *next, const struct render_irc_opts *o,
     bool *open, struct buf *out)
{
	unsigned st = s->style & ~RS_CMD;
	bool opened = *open || render_irc__open_style(st, &s->user, out);

	if ((s->style & RS_USER) && s->user.mark[0] != '\0')
		irc_fmt_clean(out, s->user.mark);
	if (s->style & RS_STRUCK)
		buf_adds(out, "~~"); /* read where strike-through is not shown */
	render_irc__clean(out, s->style & RS_CHANNEL ? render_layout_channel(s->text) : s->text, o);
	if (s->style & RS_STRUCK)
		buf_adds(out, "~~");
	*open = opened && next != NULL && (next->style & ~RS_CMD) == st && !(st & RS_USER);
	if (opened && !*open)
		buf_adds(out, IRC_FMT_RESET);
}

enum layout {
	LAYOUT_FULL,   /* one line per line, tables padded into columns */
	LAYOUT_PACKED, /* short lines packed together, tables unpadded */
	LAYOUT_BRIEF,  /* packed, tables cut to their highlighted row */
};

/* Whether m's first line opens with o->address and the word "rolls" alone
 * (a roll's heading, its label after it): it is then written "address: "
 * and the rest of the line. */
static bool
addressed(const struct reply_msg *m, const struct render_irc_opts *o)
{
	const struct reply_block *b = m->nblocks > 0 ? &m->blocks[0] : NULL;

	return o->address != NULL && m->title == NULL && b != NULL && b->kind == RB_LINE &&
	       b->nspans >= 2 && strcmp(b->spans[0].text, o->address) == 0 &&
	       strcmp(b->spans[1].text, " rolls") == 0;
}

/* The dice in entries ", " apart: one each, "6x3" three, a note of the
 * ones not shown ("… 196 more", "… 98 more rerolled") its number. */
static size_t
entries_dice(const char *s)
{
	size_t n = 0;

	while (*s != '\0') {
		size_t len = strcspn(s, ","), d = len;
		const char *more = NULL;

		for (const char *m = s; (m = strstr(m, " more")) != NULL && m < s + len; m++)
			more = m;
		if (more != NULL) {
			d = (size_t)(more - s);
		} else {
			while (d > 0 && s[d - 1] == ' ')
				d--;
		}
		if (d > 0 && isdigit((unsigned char)s[d - 1])) {
			size_t k = d, v = 0;

			while (k > 0 && isdigit((unsigned char)s[k - 1]) && d - k < 9)
				k--;
			for (size_t i = k; i < d; i++)
				v = v * 10 + (size_t)(s[i] - '0');
			n += more != NULL || (k > 0 && s[k - 1] == 'x') ? v : 1;
		} else if (strspn(s, " ") < len) {
			n++;
		}
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

/*
 * Writes the detail span sp (RS_DETAIL) if it fits in what is left of
 * allow (*used so far) and returns SIZE_MAX; if not, as many of its first
 * entries (", " apart, a styled die being one) as fit, and returns the
 * bytes of its text written.
 */
static size_t
detail_span(const struct reply_span *sp, const struct reply_span *next,
            const struct render_irc_opts *o, size_t allow, size_t *used, bool *open,
            struct buf *line)
{
	struct reply_span part = *sp;
	bool was_open = *open;
	size_t keep = 0;
	struct buf t;

	buf_init(&t, LOGICAL_MAX);
	span(sp, next, o, open, &t);
	if (!t.toobig && *used + t.len <= allow) {
		buf_add(line, buf_str(&t), t.len);
		*used += t.len;
		buf_free(&t);
		return SIZE_MAX;
	}
	*open = false;
	if (was_open)
		buf_adds(line, IRC_FMT_RESET);
	for (const char *c = sp->text; (sp->style & ~RS_DETAIL) == 0 && *c != '\0'; c++) {
		if (c[0] != ',' || c[1] != ' ')
			continue;
		part.text = xstrndup(sp->text, (size_t)(c + 2 - sp->text));
		buf_reset(&t);
		span(&part, NULL, o, &(bool){false}, &t);
		free(part.text);
		if (*used + t.len > allow)
			break;
		keep = (size_t)(c + 2 - sp->text);
	}
	if (keep > 0) {
		part.text = xstrndup(sp->text, keep);
		buf_reset(&t);
		span(&part, NULL, o, &(bool){false}, &t);
		free(part.text);
		buf_add(line, buf_str(&t), t.len);
		*used += t.len;
	}
	buf_free(&t);
	return keep;
}

/* b's spans, the name and "rolls" left out when addr. Detail spans take
 * at most allow bytes between them; a run of them cut short ends in how
 * many dice it did not show: "… 52 more", or "1000 dice" when none. */
static void
spans_allowed(const struct reply_block *b, bool addr, size_t allow, const struct render_irc_opts *o,
              struct buf *line)
{
	size_t used = 0, shown = 0, keep;
	bool open = false;

	for (size_t j = addr ? 1 : 0; j < b->nspans; j++) {
		struct reply_span sp = b->spans[j];
		const struct reply_span *next = j + 1 < b->nspans ? &b->spans[j + 1] : NULL;
		size_t left;

		/* "alice rolls Stealth" leaves "Stealth". */
		if (addr && line->len == 0) {
			if (j == 1)
				sp.text += 6;
			while (*sp.text == ' ')
				sp.text++;
			if (*sp.text == '\0')
				continue;
		}
		if (!(sp.style & RS_DETAIL)) {
			shown = 0;
			span(&sp, next, o, &open, line);
			continue;
		}
		keep = detail_span(&sp, next, o, allow, &used, &open, line);
		if (keep == SIZE_MAX) {
			shown++;
			continue;
		}
		left = entries_dice(sp.text + keep);
		while (j + 1 < b->nspans && (b->spans[j + 1].style & RS_DETAIL))
			left += entries_dice(b->spans[++j].text);
		render_irc__colour(line, C_GREY);
		if (shown > 0 || keep > 0)
			buf_addf(line, "… %zu more" IRC_FMT_RESET, left);
		else
			buf_addf(line, "%zu %s" IRC_FMT_RESET, left, left == 1 ? "die" : "dice");
		shown = 0;
	}
}

/* A line block, into the empty line: whole when it fits the budget (or
 * has no detail), else its detail cut to the room the rest leaves; when
 * brief, its detail is how many dice alone (a summary keeps totals). */
static void
line_block(const struct reply_block *b, bool addr, bool brief, const struct render_irc_opts *o,
           struct buf *line)
{
	/* "… N more" is 4 bytes longer than the "N dice" of the room counted. */
	const size_t longer = 4;
	bool detail = false;
	size_t base;

	for (size_t j = 0; j < b->nspans; j++)
		detail |= (b->spans[j].style & RS_DETAIL) != 0;
	if (!detail || !brief) {
		spans_allowed(b, addr, SIZE_MAX, o, line);
		if (!detail || line->len <= o->budget)
			return;
		buf_reset(line);
	}
	spans_allowed(b, addr, 0, o, line);
	base = line->len;
	if (brief || base + longer >= o->budget)
		return;
	buf_reset(line);
	spans_allowed(b, addr, o->budget - base - longer, o, line);
}

/* The message's logical lines (uncut, formatting closed at each end);
 * with addr, the first line without its name and "rolls". */
static void
logical_lines(const struct reply_msg *m, const struct render_irc_opts *o, enum layout lay,
              bool addr, struct irc_lines *out)
{
	struct buf line;

	buf_init(&line, LOGICAL_MAX);
	if (m->title != NULL) {
		buf_adds(&line, IRC_FMT_BOLD);
		render_irc__clean(&line, m->title, o);
		buf_adds(&line, IRC_FMT_RESET);
		render_irc__flush_line(&line, out);
	}
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *b = &m->blocks[i];

		if (lay == LAYOUT_BRIEF ? b->working : b->brief)
			continue;
		if (b->kind == RB_TABLE) {
			if (render_irc_table_is_rolled(b))
				render_irc_table_rolled(b, o, &line, out);
			else if (lay == LAYOUT_BRIEF && !b->records)
				render_irc_table_brief(b, o, &line, out);
			else
				render_irc_table_rows(b, lay == LAYOUT_FULL, o, &line, out);
			continue;
		}
		line_block(b, i == 0 && addr, lay == LAYOUT_BRIEF, o, &line);
		render_irc__flush_line(&line, out);
	}
	buf_free(&line);
}

enum pack {
	PACK_NONE,   /* each logical line on lines of its own */
	PACK_WHOLE,  /* consecutive lines share an IRC line while they fit whole */
	PACK_STREAM, /* all of them one stream, cut wherever a line is full */
};

/*
 * Cuts the logical lines to the budget into out, " · " between those that
 * share an IRC line. Each logical line closes its own formatting, so
 * joining them cannot carry styles across.
 */
static void
layout(const struct irc_lines *logical, const struct render_irc_opts *o, enum pack pack,
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
		if (cur.len > 0 &&
		    (pack == PACK_STREAM ||
		     (pack == PACK_WHOLE && cur.len + strlen(sep) + len <= o->budget))) {
			buf_adds(&cur, sep);
			buf_add(&cur, l, len);
			continue;
		}
		if (cur.len > 0)
			irc_fmt_split(buf_str(&cur), cur.len, o->budget, add_piece, out);
		buf_reset(&cur);
		buf_add(&cur, l, len);
		if (pack == PACK_NONE) {
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
          enum pack pack, bool addr, struct irc_lines *out)
{
	struct irc_lines logical = {0};

	logical_lines(m, o, lay, addr, &logical);
	layout(&logical, o, pack, out);
	render_irc_lines_free(&logical);
}

/* The tables of m that a packed layout writes in words, without their
 * header line (table_rows). */
static size_t
headers(const struct reply_msg *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nblocks; i++)
		n += m->blocks[i].kind == RB_TABLE && m->blocks[i].header != NULL &&
		     !render_irc_table_is_rolled(&m->blocks[i]);
	return n;
}

/* Appends tmp's lines to out, the first after "address: " when addr. */
static void
take_lines(struct irc_lines *tmp, const struct render_irc_opts *o, bool addr, size_t n,
           struct irc_lines *out)
{
	for (size_t i = 0; i < n && i < tmp->n; i++) {
		if (i == 0 && addr) {
			struct buf b;

			buf_init(&b, LOGICAL_MAX);
			buf_adds(&b, o->address);
			buf_adds(&b, ": ");
			buf_adds(&b, tmp->v[0]);
			render_irc_lines_add(out, buf_str(&b), b.len);
			buf_free(&b);
			continue;
		}
		render_irc_lines_add(out, tmp->v[i], strlen(tmp->v[i]));
	}
}

/* Whether m ends in a table of records (a log's rows, newest first),
 * whose last row is the one that matters least. */
static bool
ends_in_records(const struct reply_msg *m)
{
	return m->nblocks > 0 && m->blocks[m->nblocks - 1].kind == RB_TABLE &&
	       m->blocks[m->nblocks - 1].records;
}

/* Writes m, a message ending in its results that is longer than max
 * lines, whole, in parts of at most max lines: each part after the first
 * starts with m's title and "(continued) · " (every line is laid out short
 * enough to take it), and is recorded in out->part. */
static void
in_parts(const struct reply_msg *m, const struct render_irc_opts *o, bool addr, size_t max,
         struct irc_lines *out)
{
	struct irc_lines tmp = {0};
	struct render_irc_opts po = *o;
	struct buf pre, line;

	buf_init(&pre, LOGICAL_MAX);
	if (m->title != NULL) {
		buf_adds(&pre, IRC_FMT_BOLD);
		render_irc__clean(&pre, m->title, o);
		buf_adds(&pre, " (continued)" IRC_FMT_RESET " · ");
	} else {
		buf_adds(&pre, "\x03"
		               "14(continued)" IRC_FMT_RESET " · ");
	}
	if (po.budget > pre.len + IRC_FMT_BUDGET_MIN)
		po.budget -= pre.len;
	render_as(m, &po, LAYOUT_BRIEF, PACK_WHOLE, addr, &tmp);
	take_lines(&tmp, &po, addr, max, out);
	for (size_t i = max; i < tmp.n; i++) {
		if ((i % max) != 0) {
			render_irc_lines_add(out, tmp.v[i], strlen(tmp.v[i]));
			continue;
		}
		out->part = xrealloc(out->part, (out->nparts + 1) * sizeof(*out->part));
		out->part[out->nparts++] = out->n;
		buf_init(&line, LOGICAL_MAX);
		buf_add(&line, pre.p, pre.len);
		buf_adds(&line, tmp.v[i]);
		render_irc_lines_add(out, buf_str(&line), line.len);
		buf_free(&line);
	}
	render_irc_lines_free(&tmp);
	buf_free(&pre);
}

void
render_irc(const struct reply_msg *m, const struct render_irc_opts *o, struct irc_lines *out)
{
	size_t max = o->max_lines < 2 ? 2 : (size_t)o->max_lines;
	struct irc_lines tmp = {0}, full = {0};
	struct render_irc_opts ro = *o;
	bool addr = addressed(m, o), last;
	char note[96];
	int n;

	/* The address goes before the first line: every line leaves room. */
	if (addr && ro.budget > strlen(o->address) + 2 + IRC_FMT_BUDGET_MIN)
		ro.budget -= strlen(o->address) + 2;
	else
		addr = false;
	/* Line for line when packing saves no more than the header lines
	 * that rows in words do without (tables keep their columns), else
	 * packed; then the steps that summarise. */
	render_as(m, &ro, LAYOUT_FULL, PACK_NONE, addr, &full);
	render_as(m, &ro, LAYOUT_PACKED, PACK_WHOLE, addr, &tmp);
	if (full.n <= tmp.n + headers(m) && full.n <= max) {
		take_lines(&full, &ro, addr, full.n, out);
		render_irc_lines_free(&full);
		render_irc_lines_free(&tmp);
		return;
	}
	render_irc_lines_free(&full);
	for (int step = 0; step < 4; step++) {
		if (step > 0) {
			render_irc_lines_free(&tmp);
			render_as(m, &ro, step < 2 ? LAYOUT_PACKED : LAYOUT_BRIEF,
			          step % 2 == 0 ? PACK_WHOLE : PACK_STREAM, addr, &tmp);
		}
		if (tmp.n <= max) {
			take_lines(&tmp, &ro, addr, tmp.n, out);
			render_irc_lines_free(&tmp);
			return;
		}
	}
	/* Cut: whole lines read better than a stream cut short. */
	render_irc_lines_free(&tmp);
	render_as(m, &ro, LAYOUT_BRIEF, PACK_WHOLE, addr, &tmp);
	if (m->results_last) {
		render_irc_lines_free(&tmp);
		in_parts(m, &ro, addr, max, out);
		return;
	}
	last = max > 2 && !ends_in_records(m);
	take_lines(&tmp, &ro, addr, max - 1 - last, out);
	n = snprintf(note, sizeof(note),
	             "\x03%02d… %zu more lines not shown (too long for IRC)\x0f", C_GREY,
	             tmp.n - (max - 1));
	if (n > 0 && (size_t)n < sizeof(note))
		render_irc_lines_add(out, note, (size_t)n);
	if (last)
		render_irc_lines_add(out, tmp.v[tmp.n - 1], strlen(tmp.v[tmp.n - 1]));
	render_irc_lines_free(&tmp);
}
