/* reply: the platform-neutral answer model; see reply.h. */
#include "commands/core/reply.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/num.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

/* One span's text may not exceed this; longer text is cut with an ellipsis
 * by the command that builds it, never by the renderer. */
#define SPAN_MAX 8192

/* Every string and array of a reply comes from its arena: a reply lives
 * for one command, so it is freed in one go instead of piece by piece. */
struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct reply {
	struct chunk *arena;
	struct reply_msg msg[REPLY_AUDIENCES];
	size_t cap_blocks[REPLY_AUDIENCES]; /* allocated blocks per message */
	enum reply_audience cur;
	bool line_open[REPLY_AUDIENCES];
	char *gm_key, *gm_name; /* the GM message's recipient, in the arena */
	char *gm_fallback;      /* where it goes when it cannot, in the arena */
	char *gm_aside;         /* what it is, when an aside (reply_gm_aside), in the arena */
	bool error;
	char *error_text;
	char *panel; /* reply_panel's message id ("" none), in the arena; NULL: not a panel */
	struct reply_ask ask; /* its strings in the arena; line NULL: none */
};

#define CHUNK_SIZE 4096

/* Arena allocations are multiples of 16 bytes. */
static size_t
round_up(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* Returns n bytes aligned for any struct, from the reply's arena. */
static void *
alloc(struct reply *r, size_t n)
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
	p = alloc(r, *cap * elem);
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

static char *
copy(struct reply *r, const char *s, size_t n)
{
	char *p = alloc(r, n + 1);

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

static char *copy_text(struct reply *r, const char *s, size_t n, size_t *len);

void
reply_to_gm(struct reply *r, const char *user_key, const char *name)
{
	r->gm_key = copy_text(r, user_key, strlen(user_key), NULL);
	r->gm_name = copy_text(r, name, strlen(name), NULL);
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
	r->gm_fallback = copy_text(r, chan_key, strlen(chan_key), NULL);
}

const char *
reply_gm_fallback_key(const struct reply *r)
{
	return r->gm_fallback;
}

void
reply_gm_aside(struct reply *r, const char *what)
{
	r->gm_aside = copy_text(r, what, strlen(what), NULL);
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
	 * copy_text would make spaces). */
	r->ask.line = copy(r, ask->line, strlen(ask->line));
	r->ask.opt = copy(r, ask->opt, strlen(ask->opt));
	r->ask.label = copy(r, ask->label, strlen(ask->label));
	r->ask.sample = copy(r, ask->sample, strlen(ask->sample));
	r->ask.max = ask->max;
}

const struct reply_ask *
reply_asked(const struct reply *r)
{
	return r->ask.line != NULL && !r->error ? &r->ask : NULL;
}

/* The formats replies use most (%s, %d, %zu, %lld, %%) without printf,
 * into out (size bytes). Returns the length, or SIZE_MAX when the format
 * has another conversion or the text does not fit: printf's turn then. */
static size_t
quick_format(char *out, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;

	for (const char *f = fmt; *f != '\0'; f++) {
		const char *s = f;
		char num[NUM_TEXT_MAX];
		size_t len = 1;

		if (*f == '%') {
			if (f[1] == 's') {
				s = va_arg(ap, const char *);
				len = strlen(s);
				f++;
			} else if (f[1] == '.' && (f[2] == '*' || (f[2] >= '0' && f[2] <= '9'))) {
				/* %.Ns and %.*s cut on a character boundary, not
				 * inside one as printf would. */
				size_t prec = 0;
				const char *p = f + 2;

				if (*p == '*') {
					int v = va_arg(ap, int);

					prec = v < 0 ? SIZE_MAX : (size_t)v;
					p++;
				} else {
					while (*p >= '0' && *p <= '9' && prec < 100000)
						prec = prec * 10 + (size_t)(*p++ - '0');
				}
				if (*p != 's')
					return SIZE_MAX;
				s = va_arg(ap, const char *);
				len = strnlen(s, prec == SIZE_MAX ? prec : prec + 1);
				len = utf8_cut(s, len, prec);
				f = p;
			} else if (f[1] == 'd') {
				s = num;
				len = num_text(va_arg(ap, int), num);
				f++;
			} else if (f[1] == 'z' && f[2] == 'u') {
				size_t z = va_arg(ap, size_t);

				if (z > LLONG_MAX)
					return SIZE_MAX;
				s = num;
				len = num_text((long long)z, num);
				f += 2;
			} else if (f[1] == 'l' && f[2] == 'l' && f[3] == 'd') {
				s = num;
				len = num_text(va_arg(ap, long long), num);
				f += 3;
			} else if (f[1] == '%') {
				f++;
			} else {
				return SIZE_MAX;
			}
		}
		if (len >= size - n)
			return SIZE_MAX;
		memcpy(out + n, s, len);
		n += len;
	}
	out[n] = '\0';
	return n;
}

/* Whether s[0..n) may go into a reply as it is: UTF-8 without any
 * character rules/textsafe.h removes. */
static bool
clean(const char *s, size_t n)
{
	return utf8_valid(s, n) && textsafe_ok(s, n);
}

/* A copy of s[0..n) in the arena with every ill-formed byte replaced by
 * U+FFFD (a reply is always UTF-8, even if some text was cut badly), then
 * without the controls, bidi controls and invisible characters of
 * rules/textsafe.h: user text can neither break a line nor reorder the
 * text around it ("+ 0 = 14" shown as "41 = 0 +"). */
static char *
repaired(struct reply *r, const char *s, size_t n, size_t *len)
{
	struct buf b, safe;
	char *out;

	buf_init(&b, 3 * (size_t)SPAN_MAX);
	buf_init(&safe, 3 * (size_t)SPAN_MAX);
	utf8_repair(&b, s, n);
	textsafe_clean(&safe, buf_str(&b), b.len);
	out = copy(r, buf_str(&safe), safe.len);
	if (len != NULL)
		*len = safe.len;
	buf_free(&b);
	buf_free(&safe);
	return out;
}

/* A copy of s[0..n) in the arena, repaired when it is not UTF-8 or holds
 * what textsafe removes. Every string a reply holds comes through here or
 * through vformat: this is the one place user text is made safe to show,
 * so the renderers can rely on it and none needs its own check. */
static char *
copy_text(struct reply *r, const char *s, size_t n, size_t *len)
{
	if (!clean(s, n))
		return repaired(r, s, n, len);
	if (len != NULL)
		*len = n;
	return copy(r, s, n);
}

/* Formats into the arena; *len (when not NULL) gets the length. Literal
 * formats and the common conversions skip printf altogether. */
static char *
vformat(struct reply *r, const char *fmt, va_list ap, size_t *len)
{
	char small[512], *out = NULL;
	const char *src = small;
	va_list again;
	size_t n;
	int f;

	if (fmt[0] == '%' && fmt[1] == 's' && fmt[2] == '\0') {
		src = va_arg(ap, const char *);
		n = strlen(src);
	} else if (strchr(fmt, '%') == NULL) {
		src = fmt;
		n = strlen(fmt);
	} else {
		va_copy(again, ap);
		n = quick_format(small, sizeof(small), fmt, ap);
		if (n == SIZE_MAX) {
			va_list third;

			va_copy(third, again);
			f = vsnprintf(small, sizeof(small), fmt, again);
			n = f < 0 ? SIZE_MAX : (size_t)f;
			if (n >= sizeof(small) && n <= SPAN_MAX) {
				out = alloc(r, n + 1);
				vsnprintf(out, n + 1, fmt, third);
			}
			va_end(third);
		}
		va_end(again);
	}
	if (n > SPAN_MAX) {
		src = "…";
		n = strlen(src);
		out = NULL;
	}
	if (out == NULL)
		return copy_text(r, src, n, len);
	if (!clean(out, n))
		return repaired(r, out, n, len);
	if (len != NULL)
		*len = n;
	return out;
}

void
reply_title(struct reply *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->msg[r->cur].title = vformat(r, fmt, ap, NULL);
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

/* Makes a player's mark (THWACKO_STYLE_MARK_MAX bytes) as safe as span text. */
static void
safe_mark(char *mark)
{
	size_t n = strlen(mark);
	struct buf b;

	if (clean(mark, n))
		return;
	buf_init(&b, 4 * THWACKO_STYLE_MARK_MAX);
	textsafe_clean(&b, mark, utf8_valid(mark, n) ? n : 0);
	n = utf8_cut(buf_str(&b), b.len, THWACKO_STYLE_MARK_MAX - 1);
	memcpy(mark, buf_str(&b), n);
	mark[n] = '\0';
	buf_free(&b);
}

/* A new span on the open line; the caller sets text and len. */
static struct reply_span *
push_span(struct reply *r, unsigned style, const struct thwacko_style *us)
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
		safe_mark(s->user.mark);
		s->style |= RS_USER;
	}
	return s;
}

/* After reply_error, spans added to the error's line (a command
 * reference, the end of the sentence) extend the error's text. */
static void
error_extend(struct reply *r)
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
	r->error_text = copy(r, buf_str(&t), t.len);
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
	text = vformat(r, fmt, ap, &len);
	if (last != NULL && text == last->text + round_up(last->len + 1)) {
		memmove(last->text + last->len, text, len + 1);
		last->len += len;
		r->arena->used = (size_t)(last->text + round_up(last->len + 1) - r->arena->data);
		return;
	}
	s = push_span(r, style, us);
	s->text = text;
	s->len = len;
	error_extend(r);
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
reply_line(struct reply *r, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_span(r, style & ~RS_USER, NULL, fmt, ap);
	va_end(ap);
	reply_nl(r);
}

/* One option of a reference being built: pieces of the caller's text. */
struct opt_in {
	const char *name, *value;
	size_t nlen, vlen;
	bool named;
};

#define REF_OPTS_MAX 16

/* Appends a command reference span; its text is the console's form. */
static void
add_cmd(struct reply *r, unsigned style, const char *path, size_t plen, const struct opt_in *in,
        size_t n)
{
	struct reply_cmdref *c = alloc(r, sizeof(*c));
	struct reply_span *s;
	struct buf b;

	memset(c, 0, sizeof(*c));
	c->path = copy_text(r, path, plen, NULL);
	c->nopts = n;
	c->opts = n > 0 ? alloc(r, n * sizeof(*c->opts)) : NULL;
	if (n > 0)
		memset(c->opts, 0, n * sizeof(*c->opts));
	buf_init(&b, SPAN_MAX);
	buf_addf(&b, "/%s", c->path);
	for (size_t i = 0; i < n; i++) {
		struct reply_cmd_opt *o = &c->opts[i];
		bool quote;

		o->name = copy_text(r, in[i].name, in[i].nlen, NULL);
		o->value = copy_text(r, in[i].value, in[i].vlen, NULL);
		o->named = in[i].named;
		quote = memchr(o->value, ' ', in[i].vlen) != NULL && (o->named || i + 1 < n);
		buf_addf(&b, " %s%s%s%s%s", o->named ? o->name : "", o->named ? ":" : "",
		         quote ? "\"" : "", o->value, quote ? "\"" : "");
	}
	s = push_span(r, style | RS_CMD, NULL);
	s->text = copy_text(r, buf_str(&b), b.len, &s->len);
	s->cmd = c;
	buf_free(&b);
	error_extend(r);
}

void
reply_usage(struct reply *r, unsigned style, const char *path, const struct reply_usage_opt *opts,
            size_t n)
{
	struct reply_cmdref *c = alloc(r, sizeof(*c));
	struct reply_span *s;
	struct buf b;

	memset(c, 0, sizeof(*c));
	c->path = copy_text(r, path, strlen(path), NULL);
	c->usage = true;
	c->nopts = n;
	c->opts = n > 0 ? alloc(r, n * sizeof(*c->opts)) : NULL;
	buf_init(&b, SPAN_MAX);
	buf_addf(&b, "/%s", c->path);
	for (size_t i = 0; i < n; i++) {
		struct reply_cmd_opt *o = &c->opts[i];
		const char *open = opts[i].optional ? "[" : "<",
		           *close = opts[i].optional ? "]" : ">";

		o->name = copy_text(r, opts[i].name, strlen(opts[i].name), NULL);
		o->value = copy_text(r, opts[i].value, strlen(opts[i].value), NULL);
		o->kind = copy_text(r, opts[i].kind, strlen(opts[i].kind), NULL);
		o->named = opts[i].named;
		o->optional = opts[i].optional;
		if (o->named)
			buf_addf(&b, " %s%s:%s%s", open, o->name, o->kind, close);
		else
			buf_addf(&b, " %s%s%s", open, o->value, close);
	}
	s = push_span(r, (style & ~RS_USER) | RS_CMD, NULL);
	s->text = copy_text(r, buf_str(&b), b.len, &s->len);
	s->cmd = c;
	buf_free(&b);
	error_extend(r);
}

void
reply_cmd(struct reply *r, unsigned style, const char *path, ...)
{
	struct opt_in in[REF_OPTS_MAX];
	size_t n = 0;
	const char *name;
	va_list ap;

	va_start(ap, path);
	while ((name = va_arg(ap, const char *)) != NULL) {
		const char *value = va_arg(ap, const char *);
		size_t nlen = strlen(name);

		if (n == REF_OPTS_MAX || value == NULL)
			continue;
		in[n].named = nlen > 0 && name[nlen - 1] == ':';
		in[n].name = name;
		in[n].nlen = in[n].named ? nlen - 1 : nlen;
		in[n].value = value;
		in[n].vlen = strlen(value);
		n++;
	}
	va_end(ap);
	add_cmd(r, style & ~RS_USER, path, strlen(path), in, n);
}

/* Parses "/path opt=value name:\"a b\"}" (just after the brace) into a
 * reference; returns the length up to and with the closing brace, or 0
 * when it is not one. */
static size_t
parse_ref(const char *t, const char **path, size_t *plen, struct opt_in *in, size_t *n)
{
	const char *p = t + 1;

	*path = p;
	*plen = 0;
	*n = 0;
	while (*p != '\0' && *p != '}') {
		size_t w = strcspn(p, " =:}\"");

		if (p[w] != '=' && p[w] != ':') { /* a word of the path */
			if (*n > 0 || w == 0)
				return 0;
			p += w;
			*plen = (size_t)(p - *path);
		} else {
			struct opt_in *o = &in[*n];

			if (*n == REF_OPTS_MAX || w == 0)
				return 0;
			o->name = p;
			o->nlen = w;
			o->named = p[w] == ':';
			p += w + 1;
			if (*p == '"') {
				o->value = ++p;
				p += strcspn(p, "\"");
				if (*p != '"')
					return 0;
				o->vlen = (size_t)(p++ - o->value);
			} else {
				o->value = p;
				o->vlen = strcspn(p, " }");
				p += o->vlen;
			}
			(*n)++;
		}
		p += strspn(p, " ");
	}
	if (*p != '}' || *plen == 0)
		return 0;
	return (size_t)(p + 1 - t) + 1;
}

void
reply_text(struct reply *r, unsigned style, const char *text)
{
	const char *p = text;

	for (;;) {
		const char *ref = strstr(p, "{/"), *path;
		struct opt_in in[REF_OPTS_MAX];
		size_t plen, n, len = 0;

		while (ref != NULL && (len = parse_ref(ref + 1, &path, &plen, in, &n)) == 0)
			ref = strstr(ref + 2, "{/");
		if (ref == NULL)
			break;
		if (ref > p)
			reply_add(r, style, "%.*s", (int)(ref - p), p);
		add_cmd(r, style & ~RS_USER, path, plen, in, n);
		p = ref + len;
	}
	if (*p != '\0')
		reply_add(r, style, "%s", p);
}

static char **
copy_strings(struct reply *r, const char *const *v, int n)
{
	char **out = alloc(r, (size_t)n * sizeof(*out));

	for (int i = 0; i < n; i++)
		out[i] = copy_text(r, v[i] ? v[i] : "", v[i] ? strlen(v[i]) : 0, NULL);
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

void
reply_row(struct reply *r, bool highlight, const char *const *cells)
{
	struct reply_msg *m = &r->msg[r->cur];
	struct reply_block *b = NULL;
	struct reply_row *row;
	size_t cap;

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
			row->user = alloc(r, (size_t)b->ncols * sizeof(*row->user));
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
	m->buttons[m->nbuttons].label = copy_text(r, label, strlen(label), NULL);
	m->buttons[m->nbuttons].action = copy_text(r, action, strlen(action), NULL);
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
	r->panel = copy(r, message, strlen(message));
}

const char *
reply_panel_message(const struct reply *r)
{
	return r->panel;
}

void
reply_error(struct reply *r, const char *fmt, ...)
{
	va_list ap, again;
	char *text, small[512];
	struct reply_span *span;
	struct buf b;
	size_t len;

	/* Formatted first: the arguments may point into this reply. */
	buf_init(&b, SPAN_MAX);
	va_start(ap, fmt);
	va_copy(again, ap);
	len = quick_format(small, sizeof(small), fmt, ap);
	if (len != SIZE_MAX)
		buf_add(&b, small, len);
	else
		buf_vaddf(&b, fmt, again);
	va_end(again);
	va_end(ap);
	reply_clear(r);
	text = copy_text(r, buf_str(&b), b.len, &len);
	buf_free(&b);
	r->error = true;
	r->error_text = text;
	r->cur = REPLY_CHANNEL;
	span = push_span(r, RS_BAD, NULL);
	span->text = text;
	span->len = len;
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
