/*
 * h1read: an HTTP/1.1 answer read through discord_rest_h1_answer in pieces
 * of k bytes, then the end of the connection, and what the read left; for
 * the unit test and the fuzzer, which hold an answer read whole at once (a
 * plain one) to the same answer read one byte at a time (by http_parser).
 * Header-only: each of those is its own program.
 */
#ifndef DELVER_TESTS_H1READ_H
#define DELVER_TESTS_H1READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_rest_h1_answer.h"
#include "rules/base/buf.h"

struct h1read {
	enum discord_rest_h1_read r;
	struct discord_rest_answer hd;
	struct buf body;
	char *long_bucket; /* owned */
	long status;
	size_t used; /* of the bytes given, up to the end of the answer */
	bool keep, plain;
	bool taken_too_much; /* some read said it took more than it was given */
	bool ended_in_more;  /* the end of the connection left the answer MORE */
};

/* Reads text[0..size) into o in pieces of k bytes (k > 0), the body capped
 * at body_max bytes; h1read_free() frees what o holds. */
static inline void
h1read(const char *text, size_t size, size_t k, size_t body_max, struct h1read *o)
{
	struct discord_rest_h1_answer a;
	size_t off = 0, used;

	memset(o, 0, sizeof(*o));
	o->r = DISCORD_REST_H1_MORE;
	buf_init(&o->body, body_max);
	discord_rest_h1_answer_init(&a);
	discord_rest_h1_answer_begin(&a, &o->hd, &o->body);
	while (o->r == DISCORD_REST_H1_MORE) {
		size_t n = size - off < k ? size - off : k;

		o->r = discord_rest_h1_answer_read(&a, text + off, n, &used);
		o->taken_too_much |= used > n;
		o->ended_in_more |= n == 0 && o->r == DISCORD_REST_H1_MORE;
		if (n == 0)
			break;
		o->used += used;
		off += n;
	}
	if (o->r == DISCORD_REST_H1_DONE)
		o->keep = discord_rest_h1_answer_keep(&a);
	o->status = a.status;
	o->plain = a.plain;
	o->long_bucket = a.long_bucket;
	a.long_bucket = NULL;
	discord_rest_h1_answer_free(&a);
}

/* Whether a and b read the same answer: result, status, length,
 * keep-alive, headers, body and long bucket. */
static inline bool
h1read_same(const struct h1read *a, const struct h1read *b)
{
	return a->r == b->r && a->status == b->status && a->used == b->used && a->keep == b->keep &&
	       memcmp(&a->hd, &b->hd, sizeof(a->hd)) == 0 && a->body.len == b->body.len &&
	       (a->body.len == 0 || memcmp(a->body.p, b->body.p, a->body.len) == 0) &&
	       (a->long_bucket == NULL) == (b->long_bucket == NULL) &&
	       (a->long_bucket == NULL || strcmp(a->long_bucket, b->long_bucket) == 0);
}

static inline void
h1read_free(struct h1read *o)
{
	buf_free(&o->body);
	free(o->long_bucket);
}

#endif
