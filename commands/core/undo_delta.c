/* undo_delta: an encoding as a delta against the next one; see undo_delta.h. */
#include "commands/core/undo_delta.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#define BLOCK     8  /* bytes a copy found through the index must match, at least */
#define HASH_BITS 12 /* the index of next's blocks: 4096 buckets */
#define SEARCHES  4  /* blocks searched for before the index is built */

uint32_t
undo_delta_sum(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	uint32_t h = 2166136261u;

	/* Eight bytes a turn of the loop: the same sum, a byte at a time. */
	for (; end - p >= 8; p += 8) {
		h = (h ^ p[0]) * 16777619u;
		h = (h ^ p[1]) * 16777619u;
		h = (h ^ p[2]) * 16777619u;
		h = (h ^ p[3]) * 16777619u;
		h = (h ^ p[4]) * 16777619u;
		h = (h ^ p[5]) * 16777619u;
		h = (h ^ p[6]) * 16777619u;
		h = (h ^ p[7]) * 16777619u;
	}
	for (; p < end; p++)
		h = (h ^ *p) * 16777619u;
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

/* A bucket of 2^bits for the BLOCK bytes at s: the eight bytes as one
 * word, multiplied by a large odd constant, its top bits (an index is
 * built for every byte of next: a sum a byte at a time cost eight times
 * more). */
static uint32_t
block_hash(const char *s, unsigned bits)
{
	uint64_t w;

	_Static_assert(BLOCK == sizeof(w), "a block is one 64-bit word");
	memcpy(&w, s, sizeof(w));
	return (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* How many bytes a and b have in common from their starts (at most n),
 * a word at a time. */
static size_t
match_len(const char *a, const char *b, size_t n)
{
	size_t k = 0;

	while (n - k >= 8) {
		uint64_t x, y;

		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y) {
			while (a[k] == b[k])
				k++;
			return k;
		}
		k += 8;
	}
	while (k < n && a[k] == b[k])
		k++;
	return k;
}

/* How many bytes a (alen) and b (blen) have in common at their ends, at
 * most n (n at most alen and blen), a word at a time. */
static size_t
match_tail(const char *a, size_t alen, const char *b, size_t blen, size_t n)
{
	size_t k = 0;

	while (n - k >= 8) {
		uint64_t x, y;

		memcpy(&x, a + alen - k - 8, 8);
		memcpy(&y, b + blen - k - 8, 8);
		if (x != y)
			break;
		k += 8;
	}
	while (k < n && a[alen - 1 - k] == b[blen - 1 - k])
		k++;
	return k;
}

static size_t
min_size(size_t a, size_t b)
{
	return a < b ? a : b;
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

/* A copy not written yet: one that follows on from it joins it. */
struct run {
	size_t off, n;
};

static void
add_copy(struct ops *o, struct run *r, size_t off, size_t n)
{
	if (r->n > 0 && r->off + r->n == off) {
		r->n += n;
		return;
	}
	if (r->n > 0)
		ops_copy(o, r->off, r->n);
	r->off = off;
	r->n = n;
}

/* Writes the copy not written yet, then n literal bytes. */
static void
add_lit(struct ops *o, struct run *r, const char *lit, size_t n)
{
	if (r->n > 0)
		ops_copy(o, r->off, r->n);
	r->n = 0;
	ops_add(o, lit, n);
}

/* The index of next's middle (pre to nend): for each of its 2^bits
 * buckets, the first place a block of that bucket starts, or -1. Built on
 * the first lookup that needs it (index_find()). */
struct index {
	int32_t *at;
	unsigned bits;
	unsigned searches; /* blocks searched for so far without it */
};

static void
index_build(struct index *x, const char *next, size_t pre, size_t nend)
{
	x->at = xmalloc(sizeof(*x->at) << x->bits);
	memset(x->at, 0xff, sizeof(*x->at) << x->bits);
	for (size_t i = nend - BLOCK + 1; i-- > pre;)
		x->at[block_hash(next + i, x->bits)] = (int32_t)i;
}

/*
 * The index's entry for the block at s (the first place in next's middle
 * of a block in its bucket, or -1). Only an entry where BLOCK bytes or
 * more match changes what undo_delta_make() writes (a shorter match ends
 * as literals either way), and none can when the block is nowhere in the
 * middle: for such a block (one search, cheaper than the index) the answer
 * is -1 without building it, so a change in place (a value, a word) builds
 * none. After SEARCHES blocks the index is built (many literals would
 * search the middle again and again).
 */
static int32_t
index_find(struct index *x, const char *s, const char *next, size_t pre, size_t nend)
{
	if (x->at == NULL) {
		if (x->searches < SEARCHES && memmem(next + pre, nend - pre, s, BLOCK) == NULL) {
			x->searches++;
			return -1;
		}
		index_build(x, next, pre, nend);
	}
	return x->at[block_hash(s, x->bits)];
}

/*
 * The bytes both encodings start with and end with are one copy each;
 * between them, prev's bytes are found in next through an index of the
 * blocks of next's middle (where a change moved them: an entry added
 * before them), else where the last copy ended (a change in place), else
 * they are literals.
 */
void
undo_delta_make(const char *prev, size_t plen, const char *next, size_t nlen, struct undo_delta *d)
{
	struct ops o = {0};
	struct index x = {NULL, 6, 0};
	size_t pre = match_len(prev, next, min_size(plen, nlen));
	size_t suf = match_tail(prev, plen, next, nlen, min_size(plen, nlen) - pre);
	size_t pend = plen - suf, nend = nlen - suf; /* the middles' ends */
	size_t j = 0, lit = 0, expect = 0;
	struct run copy = {0, 0};
	bool may_index = nend - pre >= BLOCK && pend - pre >= BLOCK;

	if (may_index) /* the index's size: about one bucket a byte */
		while (x.bits < HASH_BITS && ((size_t)1 << x.bits) < nend - pre)
			x.bits++;
	while (j < pend) {
		size_t off = 0, n = 0;

		if (expect < nlen)
			n = match_len(prev + j, next + expect, min_size(pend - j, nlen - expect)),
			off = expect;
		if (n < BLOCK && may_index && pend - j >= BLOCK) {
			int32_t at = index_find(&x, prev + j, next, pre, nend);

			if (at >= 0) {
				size_t m = match_len(prev + j, next + at,
				                     min_size(pend - j, nlen - (size_t)at));

				if (m > n)
					n = m, off = (size_t)at;
			}
		}
		if (n < BLOCK && !(n > 0 && off == expect && j == pend - n)) {
			j++;
			lit++;
			if (expect < nlen)
				expect++; /* a changed byte in place: keep walking next with prev */
			continue;
		}
		if (lit > 0)
			add_lit(&o, &copy, prev + j - lit, lit);
		lit = 0;
		add_copy(&o, &copy, off, n);
		j += n;
		expect = off + n;
	}
	if (lit > 0)
		add_lit(&o, &copy, prev + j - lit, lit);
	if (suf > 0)
		add_copy(&o, &copy, nend, suf);
	add_lit(&o, &copy, "", 0);
	free(x.at);
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

int
undo_delta_write(const struct undo_delta *d, struct buf *out)
{
	const uint8_t *p = d->ops, *end = d->ops + d->ops_len;
	bool first = true;

	json_write_lit(out, "{\"after\":");
	json_write_int((int64_t)d->after, out);
	json_write_lit(out, ",\"sum\":");
	json_write_int(d->sum, out);
	json_write_lit(out, ",\"ops\":[");
	while (p < end) {
		size_t v, off;

		if (get_num(&p, end, &v) < 0)
			break; /* not reached: ops are checked when made or loaded */
		if (!first)
			buf_addc(out, ',');
		first = false;
		if (v & 1) {
			if (get_num(&p, end, &off) < 0)
				break;
			buf_addc(out, '[');
			json_write_int((int64_t)off, out);
			buf_addc(out, ',');
			json_write_int((int64_t)(v >> 1), out);
			buf_addc(out, ']');
		} else {
			json_write_string_len((const char *)p, v >> 1, out);
			p += v >> 1;
		}
	}
	json_write_lit(out, "]}");
	return out->toobig ? -1 : 0;
}

static int
write_delta(const void *d, struct buf *out)
{
	return undo_delta_write(d, out);
}

cJSON *
undo_delta_save(const struct undo_delta *d)
{
	return json_tree_of(write_delta, d);
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
