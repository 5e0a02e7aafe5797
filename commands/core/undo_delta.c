/* undo_delta: an encoding as a delta against the next one; see undo_delta.h. */
#include "commands/core/undo_delta.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

#define BLOCK     8  /* bytes a copy found through the index must match, at least */
#define HASH_BITS 12 /* the index of next's blocks: 4096 buckets */

uint32_t
undo_delta_sum(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* A growing byte buffer for the operations. */
struct ops {
	uint8_t *p;
	size_t len, cap;
};

static void
ops_put(struct ops *o, const void *bytes, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 32;

		while (cap < o->len + n)
			cap *= 2;
		o->p = xrealloc(o->p, cap);
		o->cap = cap;
	}
	memcpy(o->p + o->len, bytes, n);
	o->len += n;
}

static void
ops_num(struct ops *o, size_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		if (v)
			b |= 0x80;
		ops_put(o, &b, 1);
	} while (v);
}

static void
ops_add(struct ops *o, const char *lit, size_t n)
{
	if (n == 0)
		return;
	ops_num(o, n << 1);
	ops_put(o, lit, n);
}

static void
ops_copy(struct ops *o, size_t off, size_t n)
{
	ops_num(o, n << 1 | 1);
	ops_num(o, off);
}

/* Reads a number at *p (before end); -1 when cut or too large. */
static int
get_num(const uint8_t **p, const uint8_t *end, size_t *v)
{
	unsigned shift = 0;

	*v = 0;
	for (;;) {
		uint8_t b;

		if (*p == end || shift > 56)
			return -1;
		b = *(*p)++;
		*v |= (size_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return 0;
	}
}

/* A bucket for the BLOCK bytes at s: the eight bytes as one word,
 * multiplied by a large odd constant, its top HASH_BITS (an index is built
 * for every byte of next: a sum a byte at a time cost eight times more). */
static uint32_t
block_hash(const char *s)
{
	uint64_t w;

	_Static_assert(BLOCK == sizeof(w), "a block is one 64-bit word");
	memcpy(&w, s, sizeof(w));
	return (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> (64 - HASH_BITS));
}

static size_t
match_len(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = 0;

	while (n < alen && n < blen && a[n] == b[n])
		n++;
	return n;
}

static void
finish(struct undo_delta *d, struct ops *o, const char *next, size_t nlen)
{
	d->ops = o->p;
	d->ops_len = o->len;
	d->after = nlen;
	d->sum = undo_delta_sum(next, nlen);
	d->whole = false;
}

void
undo_delta_make(const char *prev, size_t plen, const char *next, size_t nlen, struct undo_delta *d)
{
	struct ops o = {0};
	int32_t *index = NULL;
	size_t j = 0, lit = 0, expect = 0;

	if (nlen >= BLOCK) { /* where each block of next starts (the first one) */
		index = xmalloc(sizeof(*index) << HASH_BITS);
		memset(index, 0xff, sizeof(*index) << HASH_BITS);
		for (size_t i = nlen - BLOCK + 1; i-- > 0;)
			index[block_hash(next + i)] = (int32_t)i;
	}
	while (j < plen) {
		size_t off = 0, n = 0;

		/* Where the last copy ended first (encodings change in place),
		 * then any block of next with the same bytes. */
		if (expect < nlen)
			n = match_len(prev + j, plen - j, next + expect, nlen - expect),
			off = expect;
		if (n < BLOCK && index != NULL && plen - j >= BLOCK) {
			int32_t at = index[block_hash(prev + j)];

			if (at >= 0) {
				size_t m =
				    match_len(prev + j, plen - j, next + at, nlen - (size_t)at);

				if (m > n)
					n = m, off = (size_t)at;
			}
		}
		if (n < BLOCK && !(n > 0 && off == expect && j == plen - n)) {
			j++;
			lit++;
			if (expect < nlen)
				expect++; /* a changed byte in place: keep walking next with prev */
			continue;
		}
		ops_add(&o, prev + j - lit, lit);
		lit = 0;
		ops_copy(&o, off, n);
		j += n;
		expect = off + n;
	}
	ops_add(&o, prev + j - lit, lit);
	free(index);
	finish(d, &o, next, nlen);
}

void
undo_delta_make_whole(const char *prev, size_t plen, struct undo_delta *d)
{
	struct ops o = {0};

	ops_add(&o, prev, plen);
	finish(d, &o, "", 0);
	d->whole = true;
}

int
undo_delta_apply(const struct undo_delta *d, const char *next, size_t nlen, char **out,
                 size_t *out_len)
{
	const uint8_t *p = d->ops, *end = d->ops + d->ops_len;
	struct ops o = {0};

	if (!d->whole && (nlen != d->after || undo_delta_sum(next, nlen) != d->sum))
		return -1;
	while (p < end) {
		size_t v, off;

		if (get_num(&p, end, &v) < 0)
			goto bad;
		if (v & 1) {
			if (get_num(&p, end, &off) < 0 || off > nlen || (v >> 1) > nlen - off)
				goto bad;
			ops_put(&o, next + off, v >> 1);
		} else {
			if ((v >> 1) > (size_t)(end - p))
				goto bad;
			ops_put(&o, p, v >> 1);
			p += v >> 1;
		}
	}
	ops_put(&o, "", 1);
	*out = (char *)o.p;
	*out_len = o.len - 1;
	return 0;
bad:
	free(o.p);
	return -1;
}

cJSON *
undo_delta_save(const struct undo_delta *d)
{
	cJSON *o = cJSON_CreateObject(), *ops;
	const uint8_t *p = d->ops, *end = d->ops + d->ops_len;

	cJSON_AddNumberToObject(o, "after", (double)d->after);
	cJSON_AddNumberToObject(o, "sum", (double)d->sum);
	ops = cJSON_AddArrayToObject(o, "ops");
	while (p < end) {
		size_t v, off;

		if (get_num(&p, end, &v) < 0)
			break; /* not reached: ops are checked when made or loaded */
		if (v & 1) {
			cJSON *c = cJSON_CreateArray();

			if (get_num(&p, end, &off) < 0)
				break;
			cJSON_AddItemToArray(c, cJSON_CreateNumber((double)off));
			cJSON_AddItemToArray(c, cJSON_CreateNumber((double)(v >> 1)));
			cJSON_AddItemToArray(ops, c);
		} else {
			char *lit = xmalloc((v >> 1) + 1);

			memcpy(lit, p, v >> 1);
			lit[v >> 1] = '\0';
			cJSON_AddItemToArray(ops, cJSON_CreateString(lit));
			free(lit);
			p += v >> 1;
		}
	}
	return o;
}

/* A whole number from 0 to max in o's member name, or -1. */
static int
load_count(const cJSON *o, const char *name, double max, size_t *out)
{
	const cJSON *v = name != NULL ? cJSON_GetObjectItemCaseSensitive(o, name) : o;

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > max ||
	    v->valuedouble != (double)(size_t)v->valuedouble)
		return -1;
	*out = (size_t)v->valuedouble;
	return 0;
}

int
undo_delta_load(const cJSON *o, const char *what, struct undo_delta *d, char *err, size_t errlen)
{
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(o, "ops"), *op;
	struct ops b = {0};
	size_t sum;

	memset(d, 0, sizeof(*d));
	if (!cJSON_IsObject(o) || !cJSON_IsArray(ops) ||
	    load_count(o, "after", UNDO_DELTA_NEXT_MAX, &d->after) < 0 ||
	    load_count(o, "sum", 4294967295.0, &sum) < 0)
		goto bad;
	d->sum = (uint32_t)sum;
	cJSON_ArrayForEach(op, ops)
	{
		size_t off, n;

		if (cJSON_IsString(op) && op->valuestring[0] != '\0')
			ops_add(&b, op->valuestring, strlen(op->valuestring));
		else if (cJSON_IsArray(op) && cJSON_GetArraySize(op) == 2 &&
		         load_count(cJSON_GetArrayItem(op, 0), NULL, UNDO_DELTA_NEXT_MAX, &off) ==
		             0 &&
		         load_count(cJSON_GetArrayItem(op, 1), NULL, UNDO_DELTA_NEXT_MAX, &n) ==
		             0 &&
		         n > 0 && off + n <= d->after)
			ops_copy(&b, off, n);
		else
			goto bad;
	}
	d->ops = b.p;
	d->ops_len = b.len;
	return 0;
bad:
	free(b.p);
	snprintf(err, errlen,
	         "An undo step's \"%.40s\" is neither null nor a delta {\"after\", \"sum\", "
	         "\"ops\"} whose ops are non-empty strings and [offset, length] pairs within "
	         "after.",
	         what);
	return -1;
}

void
undo_delta_free(struct undo_delta *d)
{
	free(d->ops);
	d->ops = NULL;
	d->ops_len = 0;
}
