/* buf: a capped growing buffer; see buf.h. */
#include "rules/base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

void
buf_init(struct buf *b, size_t max)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->toobig = false;
}

void
buf_free(struct buf *b)
{
	free(b->p);
	buf_init(b, b->max);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
	b->toobig = false;
}

/* Makes room for n more bytes plus the NUL, or refuses past the cap. */
static int
grow(struct buf *b, size_t n)
{
	size_t need, cap;

	if (n > b->max || b->len > b->max - n) {
		b->toobig = true;
		return -1;
	}
	need = b->len + n + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
	return 0;
}

int
buf_reserve_slow(struct buf *b, size_t n)
{
	if (n > b->max || b->len > b->max - n)
		return -1;
	return grow(b, n);
}

int
buf_add_slow(struct buf *b, const void *p, size_t n)
{
	if (grow(b, n) < 0)
		return -1;
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(again);
		return -1;
	}
	if ((size_t)n < sizeof(small)) {
		va_end(again);
		return buf_add(b, small, (size_t)n);
	}
	if (grow(b, (size_t)n) < 0) {
		va_end(again);
		return -1;
	}
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, again);
	va_end(again);
	b->len += (size_t)n;
	return 0;
}

int
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return r;
}

const char *
buf_str(const struct buf *b)
{
	return b->p ? b->p : "";
}

char *
buf_take(struct buf *b)
{
	char *p = b->p ? b->p : xstrdup("");

	buf_init(b, b->max);
	return p;
}
