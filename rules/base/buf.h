/*
 * buf: a growing byte buffer with a hard cap (after curl's dynbuf).
 *
 * A struct buf is a value the caller owns (usually on the stack). It always
 * holds a NUL-terminated string once anything was added. An append that
 * would pass the cap fails, leaves the buffer as it was, and sets the sticky
 * `toobig` flag so a caller can build a whole message and check once.
 */
#ifndef DELVER_BUF_H
#define DELVER_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct buf {
	char *p;     /* the bytes; NULL until the first append */
	size_t len;  /* bytes used, not counting the NUL */
	size_t cap;  /* bytes allocated */
	size_t max;  /* hard cap on len */
	bool toobig; /* some append was refused for the cap */
};

/* Prepares an empty buffer that may grow to max bytes. */
void buf_init(struct buf *b, size_t max);
/* Frees the bytes and leaves an empty buffer with the same cap. */
void buf_free(struct buf *b);
/* Empties the buffer, keeping its memory. Clears toobig. */
void buf_reset(struct buf *b);

/* Makes room for n more bytes (and the NUL) after len without adding
 * them, for a writer that fills b->p + b->len itself and then raises len
 * (and writes the NUL). Returns 0, or -1 when len + n would pass the cap
 * (nothing changes then, toobig neither). */
int buf_reserve_slow(struct buf *b, size_t n);

static inline int
buf_reserve(struct buf *b, size_t n)
{
	if (n < b->cap - b->len && b->len + n <= b->max) /* cap 0: never */
		return 0;
	return buf_reserve_slow(b, n);
}

/* Appends n bytes. Returns 0, or -1 when the cap would be passed. */
int buf_add_slow(struct buf *b, const void *p, size_t n);

/* The common case (room already allocated, cap not reached) stays inline:
 * renderers append many short pieces and this is their hot path. */
static inline int
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n > 0 && n < b->cap - b->len && b->len + n <= b->max) { /* cap 0: never */
		memcpy(b->p + b->len, p, n);
		b->len += n;
		b->p[b->len] = '\0';
		return 0;
	}
	return buf_add_slow(b, p, n);
}

static inline int
buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

static inline int
buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}
int buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_vaddf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The contents as a string: never NULL (an empty buffer gives ""). */
const char *buf_str(const struct buf *b);

/* Hands the bytes to the caller, who frees them with free(); the buffer is
 * left empty. Never NULL. */
char *buf_take(struct buf *b);

#endif
