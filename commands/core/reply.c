/* reply: the platform-neutral answer model; see reply.h. */
#include "commands/core/reply.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/reply_fmt.h"
#include "commands/core/reply_int.h"
#include "commands/core/reply_ref.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* Arena allocations are multiples of 16 bytes. */
static size_t
round_up(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* Returns n bytes aligned for any struct, from the reply's arena. */
void *
reply__alloc(struct reply *r, size_t n)
{
	struct chunk *c = r->arena;
	void *p;

	n = round_up(n);
	if (c == NULL || c->size - c->used < n) {
		size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = r->arena;
		r->arena = c;
	}
	p = c->data + c->used;
	c->used += n;
	return p;
}

/* Grows an arena array of elem-sized items to hold at least n; the old
 * copy stays in the arena until the reply goes. */
static void *
grow_array(struct reply *r, void *old, size_t *cap, size_t n, size_t elem)
{
	void *p;

	if (n <= *cap)
		return old;
	*cap = *cap ? *cap * 2 : 8;
	while (*cap < n)
		*cap *= 2;
	p = reply__alloc(r, *cap * elem);
	if (old != NULL)
		memcpy(p, old, (n - 1) * elem);
	return p;
}

/* The capacity an array of n items has: arrays start at 8 items and
 * double, so it follows from the count and need not be stored. */
static size_t
implied_cap(size_t n)
{
	size_t c = 8;

	if (n == 0)
		return 0;
	while (c < n)
		c *= 2;
	return c;
}

char *
reply__copy(struct reply *r, const char *s, size_t n)
{
	char *p = reply__alloc(r, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

struct reply *
reply_new(void)
{
	return xcalloc(1, sizeof(struct reply));
}

static void
free_chunks(struct chunk *c)
{
	while (c != NULL) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
}

void
reply_clear(struct reply *r)
{
	/* The first chunk of ordinary size stays for the next reply: a
	 * transport that reuses one reply allocates nothing per command. */
	struct chunk *keep = r->arena;

	while (keep != NULL && keep->next != NULL)
		keep = keep->next;
	if (keep != NULL && keep->size == CHUNK_SIZE) {
		struct chunk *c = r->arena;

		while (c != keep) {
			struct chunk *next = c->next;

			free(c);
			c = next;
		}
		keep->used = 0;
		r->arena = keep;
	} else {
		free_chunks(r->arena);
		r->arena = NULL;
	}
	memset(r->msg, 0, sizeof(r->msg));
	memset(r->cap_blocks, 0, sizeof(r->cap_blocks));
	memset(r->line_open, 0, sizeof(r->line_open));
	r->gm_key = r->gm_name = r->gm_fallback = r->gm_aside = NULL;
	r->panel = NULL;
	r->error = false;
	r->error_text = NULL;
	memset(&r->ask, 0, sizeof(r->ask));
	r->ask_given = false;
	r->cur = REPLY_CHANNEL;
}

void
reply_free(struct reply *r)
{
	if (r == NULL)
		return;
	free_chunks(r->arena);
	free(r);
}

void
reply_to(struct reply *r, enum reply_audience a)
{
	r->cur = a;
}

void
reply_to_gm(struct reply *r, const char *user_key, const char *name)
{
	r->gm_key = reply_fmt_text(r, user_key, strlen(user_key), NULL);
	r->gm_name = reply_fmt_text(r, name, strlen(name), NULL);
	r->cur = REPLY_GM;
}

const char *
reply_gm_key(const struct reply *r)
{
	return r->gm_key;
}

const char *
reply_gm_name(const struct reply *r)
{
	return r->gm_name;
}

void
reply_gm_fallback(struct reply *r, const char *chan_key)
{
	r->gm_fallback = reply_fmt_text(r, chan_key, strlen(chan_key), NULL);
}

const char *
reply_gm_fallback_key(const struct reply *r)
{
	return r->gm_fallback;
}

void
reply_gm_aside(struct reply *r, const char *what)
{
	r->gm_aside = reply_fmt_text(r, what, strlen(what), NULL);
}

const char *
reply_gm_what(const struct reply *r)
{
	return r->gm_aside != NULL ? r->gm_aside : "your secret roll";
}

bool
reply_gm_is_aside(const struct reply *r)
{
	return r->gm_aside != NULL;
}

void
reply_ask(struct reply *r, const struct reply_ask *ask)
{
	/* The handler's own strings (a sample may hold line breaks, which
	 * reply_fmt_text would make spaces). */
	r->ask.line = reply__copy(r, ask->line, strlen(ask->line));
	r->ask.opt = reply__copy(r, ask->opt, strlen(ask->opt));
	r->ask.label = reply__copy(r, ask->label, strlen(ask->label));
	r->ask.sample = reply__copy(r, ask->sample, strlen(ask->sample));
	r->ask.max = ask->max;
	r->ask.text = ask->text != NULL ? reply__copy(r, ask->text, strlen(ask->text)) : NULL;
}

const struct reply_ask *
reply_asked(const struct reply *r)
{
	return r->ask.line != NULL && (!r->error || r->ask.text != NULL) ? &r->ask : NULL;
}

void
reply_ask_given(struct reply *r)
{
	r->ask_given = true;
}

bool
reply_ask_was_given(const struct reply *r)
{
	return r->ask_given;
}

void
reply_title(struct reply *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->msg[r->cur].title = reply_fmt_v(r, fmt, ap, NULL);
	va_end(ap);
}

static struct reply_block *
new_block(struct reply *r, enum reply_block_kind kind)
{
	struct reply_msg *m = &r->msg[r->cur];
	struct reply_block *b;

	m->blocks =
	    grow_array(r, m->blocks, &r->cap_blocks[r->cur], m->nblocks + 1, sizeof(*m->blocks));
	b = &m->blocks[m->nblocks++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	r->line_open[r->cur] = (kind == RB_LINE);
	return b;
}

static struct reply_block *
open_line(struct reply *r)
{
	struct reply_msg *m = &r->msg[r->cur];

	if (r->line_open[r->cur])
		return &m->blocks[m->nblocks - 1];
	return new_block(r, RB_LINE);
}

/* A new span on the open line; the caller sets text and len. */
struct reply_span *
reply__push_span(struct reply *r, unsigned style, const struct thwacko_style *us)
{
	struct reply_block *b = open_line(r);
	struct reply_span *s;
	size_t cap = implied_cap(b->nspans);

	b->spans = grow_array(r, b->spans, &cap, b->nspans + 1, sizeof(*b->spans));
	s = &b->spans[b->nspans++];
	s->style = style;
	s->text = NULL;
	s->len = 0;
	s->cmd = NULL;
	if (us != NULL) {
		s->user = *us;
		s->user.mark[THWACKO_STYLE_MARK_MAX - 1] = '\0';
		reply_fmt_mark(s->user.mark);
		s->style |= RS_USER;
	}
	return s;
}

/* After reply_error, spans added to the error's line (a command
 * reference, the end of the sentence) extend the error's text. */
void
reply__error_extend(struct reply *r)
{
	const struct reply_block *b;
	struct buf t;

	if (!r->error || r->cur != REPLY_CHANNEL || r->msg[REPLY_CHANNEL].nblocks != 1 ||
	    !r->line_open[REPLY_CHANNEL])
		return;
	b = &r->msg[REPLY_CHANNEL].blocks[0]; /* blocks may be NULL until one exists */
	buf_init(&t, 4 * (size_t)SPAN_MAX);
	for (size_t i = 0; i < b->nspans; i++)
		buf_add(&t, b->spans[i].text, b->spans[i].len);
	r->error_text = reply__copy(r, buf_str(&t), t.len);
	buf_free(&t);
}

/* Plain text after plain text on the same line joins the span before it
 * when the two are adjacent in the arena (they are, unless a chunk filled
 * up): a roll's separators and ordinary dice then cost no span each. */
static void
add_span(struct reply *r, unsigned style, const struct thwacko_style *us, const char *fmt,
         va_list ap)
{
	struct reply_msg *m = &r->msg[r->cur];
	struct reply_span *s, *last = NULL;
	char *text;
	size_t len;

	if (style == 0 && us == NULL && r->line_open[r->cur]) {
		struct reply_block *b = &m->blocks[m->nblocks - 1];

		if (b->nspans > 0 && b->spans[b->nspans - 1].style == 0)
			last = &b->spans[b->nspans - 1];
	}
	text = reply_fmt_v(r, fmt, ap, &len);
	if (last != NULL && text == last->text + round_up(last->len + 1)) {
		memmove(last->text + last->len, text, len + 1);
		last->len += len;
		r->arena->used = (size_t)(last->text + round_up(last->len + 1) - r->arena->data);
		return;
	}
	s = reply__push_span(r, style, us);
	s->text = text;
	s->len = len;
	reply__error_extend(r);
}

void
reply_add(struct reply *r, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style & ~RS_USER, NULL, fmt, ap);
	va_end(ap);
}

void
reply_add_user(struct reply *r, const struct thwacko_style *us, unsigned style, const char *fmt,
               ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style, us, fmt, ap);
	va_end(ap);
}

const char *
reply_list_sep(size_t i, size_t n, const char *last)
{
	return i == 0 ? "" : i + 1 == n ? last : ", ";
}

void
reply_nl(struct reply *r)
{
	if (!r->line_open[r->cur])
		new_block(r, RB_LINE);
	r->line_open[r->cur] = false;
}

void
reply_working(struct reply *r)
{
	struct reply_msg *m = &r->msg[r->cur];

	if (m->nblocks > 0)
		m->blocks[m->nblocks - 1].working = true;
}

void
reply_brief(struct reply *r)
{
	struct reply_msg *m = &r->msg[r->cur];

	if (m->nblocks > 0)
		m->blocks[m->nblocks - 1].brief = true;
}

void
reply_results_last(struct reply *r)
{
	r->msg[r->cur].results_last = true;
}

void
reply_line(struct reply *r, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style & ~RS_USER, NULL, fmt, ap);
	va_end(ap);
	reply_nl(r);
}

void
reply_cmd(struct reply *r, unsigned style, const char *path, ...)
{
	struct reply_ref_opt in[REPLY_REF_OPTS_MAX];
	size_t n = 0;
	const char *name;
	va_list ap;

	va_start(ap, path);
	while ((name = va_arg(ap, const char *)) != NULL) {
		const char *value = va_arg(ap, const char *);
		size_t nlen = strlen(name);

		if (n == REPLY_REF_OPTS_MAX || value == NULL)
			continue;
		in[n].named = nlen > 0 && name[nlen - 1] == ':';
		in[n].name = name;
		in[n].nlen = in[n].named ? nlen - 1 : nlen;
		in[n].value = value;
		in[n].vlen = strlen(value);
		n++;
	}
	va_end(ap);
	reply_ref_add(r, style & ~RS_USER, path, strlen(path), in, n);
}

static char **
copy_strings(struct reply *r, const char *const *v, int n)
{
	char **out = reply__alloc(r, (size_t)n * sizeof(*out));

	for (int i = 0; i < n; i++)
		out[i] = reply_fmt_text(r, v[i] ? v[i] : "", v[i] ? strlen(v[i]) : 0, NULL);
	return out;
}

void
reply_table(struct reply *r, int ncols, const char *const *header)
{
	struct reply_block *b;

	if (ncols < 1)
		ncols = 1;
	if (ncols > 16)
		ncols = 16;
	b = new_block(r, RB_TABLE);
	b->ncols = ncols;
	if (header != NULL)
		b->header = copy_strings(r, header, ncols);
	r->line_open[r->cur] = false;
}

/* The newest table of the current message, or NULL. */
static struct reply_block *
newest_table(struct reply *r)
{
	struct reply_msg *m = &r->msg[r->cur];

	for (size_t i = m->nblocks; i > 0; i--)
		if (m->blocks[i - 1].kind == RB_TABLE)
			return &m->blocks[i - 1];
	return NULL;
}

void
reply_table_records(struct reply *r)
{
	struct reply_block *b = newest_table(r);

	if (b != NULL)
		b->records = true;
}

void
reply_row(struct reply *r, bool highlight, const char *const *cells)
{
	struct reply_block *b = newest_table(r);
	struct reply_row *row;
	size_t cap;

	if (b == NULL) {
		reply_table(r, 1, NULL);
		b = newest_table(r);
	}
	cap = implied_cap(b->nrows);
	b->rows = grow_array(r, b->rows, &cap, b->nrows + 1, sizeof(*b->rows));
	row = &b->rows[b->nrows++];
	row->highlight = highlight;
	row->cells = copy_strings(r, cells, b->ncols);
	row->user = NULL;
	row->user_cols = 0;
}

void
reply_cell_user(struct reply *r, int col, const struct thwacko_style *us)
{
	struct reply_msg *m = &r->msg[r->cur];

	for (size_t i = m->nblocks; i > 0; i--) {
		struct reply_block *b = &m->blocks[i - 1];
		struct reply_row *row;

		if (b->kind != RB_TABLE)
			continue;
		if (b->nrows == 0 || col < 0 || col >= b->ncols)
			return;
		row = &b->rows[b->nrows - 1];
		if (row->user == NULL)
			row->user = reply__alloc(r, (size_t)b->ncols * sizeof(*row->user));
		row->user[col] = *us;
		row->user[col].mark[THWACKO_STYLE_MARK_MAX - 1] = '\0';
		row->user_cols |= 1u << col;
		return;
	}
}

static void
add_button(struct reply *r, const char *label, const char *action, bool update, bool panel)
{
	struct reply_msg *m = &r->msg[r->cur];

	size_t cap = implied_cap(m->nbuttons);

	m->buttons = grow_array(r, m->buttons, &cap, m->nbuttons + 1, sizeof(*m->buttons));
	m->buttons[m->nbuttons].label = reply_fmt_text(r, label, strlen(label), NULL);
	m->buttons[m->nbuttons].action = reply_fmt_text(r, action, strlen(action), NULL);
	m->buttons[m->nbuttons].update = update;
	m->buttons[m->nbuttons].panel = panel;
	m->nbuttons++;
}

void
reply_button(struct reply *r, const char *label, const char *action)
{
	add_button(r, label, action, false, false);
}

void
reply_button_update(struct reply *r, const char *label, const char *action)
{
	add_button(r, label, action, true, false);
}

void
reply_button_panel(struct reply *r, const char *label, const char *action)
{
	add_button(r, label, action, false, true);
}

void
reply_panel(struct reply *r, const char *message)
{
	r->panel = reply__copy(r, message, strlen(message));
}

const char *
reply_panel_message(const struct reply *r)
{
	return r->panel;
}

/* reply_error from a va_list; returns the error's text, which the reply
 * owns. */
static char *
error_v(struct reply *r, const char *fmt, va_list ap)
{
	va_list again;
	char *text, small[512];
	struct reply_span *span;
	struct buf b;
	size_t len;

	/* Formatted first: the arguments may point into this reply. */
	buf_init(&b, SPAN_MAX);
	va_copy(again, ap);
	len = reply_fmt_quick(small, sizeof(small), fmt, ap);
	if (len != SIZE_MAX)
		buf_add(&b, small, len);
	else
		buf_vaddf(&b, fmt, again);
	va_end(again);
	reply_clear(r);
	text = reply_fmt_text(r, buf_str(&b), b.len, &len);
	buf_free(&b);
	r->error = true;
	r->error_text = text;
	r->cur = REPLY_CHANNEL;
	span = reply__push_span(r, RS_BAD, NULL);
	span->text = text;
	span->len = len;
	return text;
}

void
reply_error(struct reply *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_v(r, fmt, ap);
	va_end(ap);
}

void
reply_error_capital(struct reply *r, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = error_v(r, fmt, ap);
	va_end(ap);
	/* the span's text and the error's are one string */
	if (text[0] >= 'a' && text[0] <= 'z')
		text[0] = (char)(text[0] - 'a' + 'A');
}

void
reply_error_sentence(struct reply *r, const char *text)
{
	size_t n = strlen(text);

	reply_error_capital(r, "%s%s", text, n > 0 && text[n - 1] != '.' ? "." : "");
}

void
reply_error_refs(struct reply *r, const char *text)
{
	size_t n = strcspn(text, "{");

	while (text[n] != '\0' && text[n + 1] != '/')
		n += 1 + strcspn(text + n + 1, "{");
	reply_error(r, "%.*s", (int)n, text);
	if (text[n] != '\0')
		reply_text(r, RS_BAD, text + n);
}

bool
reply_is_error(const struct reply *r)
{
	return r->error;
}

const char *
reply_error_text(const struct reply *r)
{
	return r->error_text;
}

const struct reply_msg *
reply_msg(const struct reply *r, enum reply_audience a)
{
	const struct reply_msg *m = &r->msg[a];

	if (m->title == NULL && m->nblocks == 0 && m->nbuttons == 0)
		return NULL;
	return m;
}

static void
plain_msg(const struct reply_msg *m, struct buf *b)
{
	if (m->title != NULL)
		buf_addf(b, "%s\n", m->title);
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *bl = &m->blocks[i];

		if (bl->brief)
			continue;
		if (bl->kind == RB_LINE) {
			for (size_t j = 0; j < bl->nspans; j++)
				buf_adds(b, bl->spans[j].text);
			buf_addc(b, '\n');
			continue;
		}
		for (size_t j = 0; j < bl->nrows; j++) {
			buf_adds(b, bl->rows[j].highlight ? "> " : "  ");
			for (int c = 0; c < bl->ncols; c++)
				buf_addf(b, "%s%s", c ? " | " : "", bl->rows[j].cells[c]);
			buf_addc(b, '\n');
		}
	}
}

char *
reply_plain(const struct reply *r)
{
	struct buf b;

	buf_init(&b, 1 << 20);
	for (int a = 0; a < REPLY_AUDIENCES; a++) {
		const struct reply_msg *m = reply_msg(r, (enum reply_audience)a);

		if (m == NULL)
			continue;
		if (a == REPLY_INVOKER)
			buf_adds(&b, "[private]\n");
		else if (a == REPLY_GM)
			buf_addf(&b, "[to the GM, %s]\n", r->gm_name);
		plain_msg(m, &b);
	}
	return buf_take(&b);
}
