/* reply: the platform-neutral answer model; see reply.h. */
#include "commands/reply.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/buf.h"
#include "rules/mem.h"

/* One span's text may not exceed this; longer text is cut with an ellipsis
 * by the command that builds it, never by the renderer. */
#define SPAN_MAX 8192

struct reply {
	struct reply_msg msg[2];
	enum reply_audience cur;
	bool line_open[2];
	bool error;
	char *error_text;
};

struct reply *
reply_new(void)
{
	return xcalloc(1, sizeof(struct reply));
}

static void
free_strings(char **v, int n)
{
	if (v == NULL)
		return;
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
msg_free(struct reply_msg *m)
{
	for (size_t i = 0; i < m->nblocks; i++) {
		struct reply_block *b = &m->blocks[i];

		for (size_t j = 0; j < b->nspans; j++)
			free(b->spans[j].text);
		free(b->spans);
		free_strings(b->header, b->ncols);
		for (size_t j = 0; j < b->nrows; j++)
			free_strings(b->rows[j].cells, b->ncols);
		free(b->rows);
	}
	free(m->blocks);
	for (size_t i = 0; i < m->nbuttons; i++) {
		free(m->buttons[i].label);
		free(m->buttons[i].action);
	}
	free(m->buttons);
	free(m->title);
	memset(m, 0, sizeof(*m));
}

void
reply_clear(struct reply *r)
{
	msg_free(&r->msg[0]);
	msg_free(&r->msg[1]);
	r->line_open[0] = r->line_open[1] = false;
	r->error = false;
	free(r->error_text);
	r->error_text = NULL;
	r->cur = REPLY_CHANNEL;
}

void
reply_free(struct reply *r)
{
	if (r == NULL)
		return;
	reply_clear(r);
	free(r);
}

void
reply_to(struct reply *r, enum reply_audience a)
{
	r->cur = a;
}

static char *
vformat(const char *fmt, va_list ap)
{
	struct buf b;

	buf_init(&b, SPAN_MAX);
	buf_vaddf(&b, fmt, ap);
	if (b.toobig) {
		buf_reset(&b);
		buf_adds(&b, "…");
	}
	return buf_take(&b);
}

void
reply_title(struct reply *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(r->msg[r->cur].title);
	r->msg[r->cur].title = vformat(fmt, ap);
	va_end(ap);
}

static struct reply_block *
new_block(struct reply *r, enum reply_block_kind kind)
{
	struct reply_msg *m = &r->msg[r->cur];
	struct reply_block *b;

	m->blocks = xrealloc(m->blocks, (m->nblocks + 1) * sizeof(*m->blocks));
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

static void
add_span(struct reply *r, unsigned style, const struct ustyle *us, char *text)
{
	struct reply_block *b = open_line(r);
	struct reply_span *s;

	b->spans = xrealloc(b->spans, (b->nspans + 1) * sizeof(*b->spans));
	s = &b->spans[b->nspans++];
	memset(s, 0, sizeof(*s));
	s->style = style;
	s->text = text;
	if (us != NULL) {
		s->user = *us;
		s->user.mark[USTYLE_MARK_MAX - 1] = '\0';
		s->style |= RS_USER;
	}
}

void
reply_add(struct reply *r, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style & ~RS_USER, NULL, vformat(fmt, ap));
	va_end(ap);
}

void
reply_add_user(struct reply *r, const struct ustyle *us, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style, us, vformat(fmt, ap));
	va_end(ap);
}

void
reply_nl(struct reply *r)
{
	if (!r->line_open[r->cur])
		new_block(r, RB_LINE);
	r->line_open[r->cur] = false;
}

void
reply_line(struct reply *r, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style & ~RS_USER, NULL, vformat(fmt, ap));
	va_end(ap);
	reply_nl(r);
}

static char **
copy_strings(const char *const *v, int n)
{
	char **out = xcalloc((size_t)n, sizeof(*out));

	for (int i = 0; i < n; i++)
		out[i] = xstrdup(v[i] ? v[i] : "");
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
		b->header = copy_strings(header, ncols);
	r->line_open[r->cur] = false;
}

void
reply_row(struct reply *r, bool highlight, const char *const *cells)
{
	struct reply_msg *m = &r->msg[r->cur];
	struct reply_block *b = NULL;
	struct reply_row *row;

	for (size_t i = m->nblocks; i > 0; i--) {
		if (m->blocks[i - 1].kind == RB_TABLE) {
			b = &m->blocks[i - 1];
			break;
		}
	}
	if (b == NULL) {
		reply_table(r, 1, NULL);
		b = &m->blocks[m->nblocks - 1];
	}
	b->rows = xrealloc(b->rows, (b->nrows + 1) * sizeof(*b->rows));
	row = &b->rows[b->nrows++];
	row->highlight = highlight;
	row->cells = copy_strings(cells, b->ncols);
}

void
reply_button(struct reply *r, const char *label, const char *action)
{
	struct reply_msg *m = &r->msg[r->cur];

	m->buttons = xrealloc(m->buttons, (m->nbuttons + 1) * sizeof(*m->buttons));
	m->buttons[m->nbuttons].label = xstrdup(label);
	m->buttons[m->nbuttons].action = xstrdup(action);
	m->nbuttons++;
}

void
reply_error(struct reply *r, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = vformat(fmt, ap);
	va_end(ap);
	reply_clear(r);
	r->error = true;
	r->error_text = xstrdup(text);
	r->cur = REPLY_CHANNEL;
	add_span(r, RS_BAD, NULL, text);
	reply_nl(r);
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
	for (int a = 0; a < 2; a++) {
		const struct reply_msg *m = reply_msg(r, (enum reply_audience)a);

		if (m == NULL)
			continue;
		if (a == REPLY_INVOKER)
			buf_adds(&b, "[private]\n");
		plain_msg(m, &b);
	}
	return buf_take(&b);
}
