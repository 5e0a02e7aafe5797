/* json: a cJSON tree written as JSON text; see json.h. */
#include "rules/base/json.h"

#include <cJSON.h>
#include <locale.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* The escape of a byte below 0x20, the quote or the backslash. */
static const char *
escape_of(unsigned char c)
{
	static const char *const low[32] = {
	    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
	    "\\b",     "\\t",     "\\n",     "\\u000b", "\\f",     "\\r",     "\\u000e", "\\u000f",
	    "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
	    "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
	};

	if (c < 32)
		return low[c];
	if (c == '"')
		return "\\\"";
	return "\\\\";
}

/* The bytes of the word w that need an escape (below 0x20, the quote, the
 * backslash), each flagged by its top bit. The lowest flag is exact: a
 * spurious one can only follow a byte that does need an escape. */
static uint64_t
escapes_of(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');

	return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
}

#ifdef __SSE2__
/* The bytes of the sixteen at p that need an escape (below 0x20, the
 * quote, the backslash): bit i for the byte at p + i. */
static unsigned
escapes16(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
	__m128i bslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
	__m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, bslash), low));
}
#endif

/* The eight bytes at p as a word whose low byte is the first. */
static uint64_t
word_at(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* Whether none of the eight bytes at p needs an escape. */
static bool
word_plain(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return escapes_of(w) == 0;
}

void
json_write_string(const char *s, struct buf *out)
{
	json_write_string_len(s != NULL ? s : "", s != NULL ? strlen(s) : 0, out);
}

/* Strings up to this many bytes are written in place: room for each byte
 * escaped at its longest is reserved first, then no append is checked. */
#define IN_PLACE_MAX 4096

/* Byte c escaped at q; returns where its escape ends. */
static char *
put_escape(unsigned char c, char *q)
{
	const char *e;
	size_t n;

	if (c == '"' || c == '\\') {
		q[0] = '\\';
		q[1] = (char)c;
		return q + 2;
	}
	e = escape_of(c);
	n = e[1] == 'u' ? 6 : 2;
	memcpy(q, e, n);
	return q + n;
}

/* s (len bytes, at most IN_PLACE_MAX) written into the room reserved at
 * out's end, eight bytes at a time: a word's bytes are copied whole, and
 * the output moves past those before its first byte that needs an escape
 * (escapes_of), which is escaped; the last bytes one by one. The room
 * (six bytes a byte) always holds the word copied whole. */
static void
write_in_place(const unsigned char *p, size_t len, struct buf *out)
{
	const unsigned char *end = p + len;
	char *q = out->p + out->len;

	*q++ = '"';
#ifdef __SSE2__
	/* Sixteen bytes at a time: stored whole, then each byte that needs
	 * an escape (escapes16, exact) escaped where it falls and the bytes
	 * after it stored whole again behind the escape, while sixteen are
	 * left to store; else the words and bytes below go on from there. */
	while (end - p >= 16) {
		unsigned m = escapes16(p);
		size_t done = 0; /* the chunk's bytes written */
		bool cut = false;

		memcpy(q, p, 16);
		while (m != 0) {
			size_t k = (size_t)__builtin_ctz(m);

			q = put_escape(p[k], q + (k - done));
			done = k + 1;
			m &= m - 1;
			if (end - (p + done) < 16) {
				cut = true;
				break;
			}
			memcpy(q, p + done, 16);
		}
		if (cut) {
			p += done;
			break;
		}
		q += 16 - done;
		p += 16;
	}
#endif
	while (end - p >= 8) {
		uint64_t m = escapes_of(word_at(p));
		size_t k;

		memcpy(q, p, 8);
		if (m == 0) {
			p += 8;
			q += 8;
			continue;
		}
		k = (size_t)__builtin_ctzll(m) / 8; /* the first to escape (word_at) */
		p += k;
		q = put_escape(*p++, q + k);
	}
	for (; p < end; p++) {
		unsigned char c = *p;

		if (c >= 32 && c != '"' && c != '\\')
			*q++ = (char)c;
		else
			q = put_escape(c, q);
	}
	*q++ = '"';
	out->len = (size_t)(q - out->p);
	out->p[out->len] = '\0';
}

void
json_write_string_len(const char *s, size_t len, struct buf *out)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;
	const unsigned char *end = p + len;

	if (len <= IN_PLACE_MAX && buf_reserve(out, len * 6 + 2) == 0) {
		write_in_place(p, len, out);
		return;
	}

	buf_addc(out, '"');
	while (p < end) {
		/* Message text is long and mostly plain: eight bytes at a time. */
		if (end - p >= 8 && word_plain(p)) {
			p += 8;
			continue;
		}
		if (*p >= 32 && *p != '"' && *p != '\\') {
			p++;
			continue;
		}
		buf_add(out, run, (size_t)(p - run));
		buf_adds(out, escape_of(*p));
		run = ++p;
	}
	buf_add(out, run, (size_t)(p - run));
	buf_addc(out, '"');
}

void
json_write_name(const char *s, struct buf *out)
{
	size_t n = strlen(s);
	char *q;

#ifdef DELVER_DEBUG
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 32 || s[i] == '"' || s[i] == '\\')
			abort();
#endif
	if (buf_reserve(out, n + 2) < 0) { /* under a cap: as any string */
		json_write_string_len(s, n, out);
		return;
	}
	q = out->p + out->len;
	q[0] = '"';
	memcpy(q + 1, s, n);
	q[n + 1] = '"';
	out->len += n + 2;
	out->p[out->len] = '\0';
}

void
json_write_int(int64_t v, struct buf *out)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
	                            "25262728293031323334353637383940414243444546474849"
	                            "50515253545556575859606162636465666768697071727374"
	                            "75767778798081828384858687888990919293949596979899";
	/* The digits end at tmp + 24 (20 bytes at most, the sign included);
	 * the 20 bytes after them are zero, so that 20 bytes from the first
	 * digit can be copied as one piece of a fixed size. */
	char tmp[24 + 20], *q = tmp + 24;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n;

	memset(tmp + 24, 0, 20);
	/* Two digits a division. */
	while (u >= 100) {
		q -= 2;
		memcpy(q, pairs + u % 100 * 2, 2);
		u /= 100;
	}
	if (u >= 10) {
		q -= 2;
		memcpy(q, pairs + u * 2, 2);
	} else {
		*--q = (char)('0' + u);
	}
	if (v < 0)
		*--q = '-';
	n = (size_t)(tmp + 24 - q);
	if (buf_reserve(out, 20) < 0) { /* near a cap: as any append */
		buf_add(out, q, n);
		return;
	}
	memcpy(out->p + out->len, q, 20);
	out->len += n;
	out->p[out->len] = '\0';
}

static void
write_number(double v, struct buf *out)
{
	char tmp[32];
	char point;
	int n;

	if (!isfinite(v)) {
		buf_add(out, "null", 4);
		return;
	}
	if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v) {
		/* An integer (most numbers here: types, flags): exact digits. */
		if (v == 0 && signbit(v))
			buf_add(out, "-0", 2);
		else
			json_write_int((int64_t)v, out);
		return;
	}
	n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return;
	point = localeconv()->decimal_point[0];
	for (int k = 0; k < n && point != '.'; k++)
		if (tmp[k] == point)
			tmp[k] = '.';
	buf_add(out, tmp, (size_t)n);
}

static int
write_item(const cJSON *item, struct buf *out)
{
	const cJSON *c;

	switch (item->type & 0xFF) {
	case cJSON_NULL:
		buf_add(out, "null", 4);
		break;
	case cJSON_False:
		buf_add(out, "false", 5);
		break;
	case cJSON_True:
		buf_add(out, "true", 4);
		break;
	case cJSON_Number:
		write_number(item->valuedouble, out);
		break;
	case cJSON_String:
		json_write_string(item->valuestring, out);
		break;
	case cJSON_Array:
	case cJSON_Object:
		buf_addc(out, (item->type & 0xFF) == cJSON_Array ? '[' : '{');
		for (c = item->child; c != NULL; c = c->next) {
			if (c != item->child)
				buf_addc(out, ',');
			if ((item->type & 0xFF) == cJSON_Object) {
				json_write_string(c->string, out);
				buf_addc(out, ':');
			}
			if (write_item(c, out) < 0)
				return -1;
		}
		buf_addc(out, (item->type & 0xFF) == cJSON_Array ? ']' : '}');
		break;
	default: /* invalid or raw: nothing delver writes */
		return -1;
	}
	return 0;
}

int
json_write(const cJSON *item, struct buf *out)
{
	if (item == NULL || write_item(item, out) < 0)
		return -1;
	return out->toobig ? -1 : 0;
}

char *
json_print(const cJSON *item)
{
	struct buf b;
	char *text = NULL;

	buf_init(&b, SIZE_MAX / 2);
	if (json_write(item, &b) == 0)
		text = buf_take(&b);
	buf_free(&b);
	return text;
}

cJSON *
json_tree_of(int (*write)(const void *p, struct buf *out), const void *p)
{
	struct buf b;
	cJSON *o = NULL;

	buf_init(&b, SIZE_MAX / 2);
	if (write(p, &b) == 0)
		o = cJSON_ParseWithLength(b.p, b.len);
	buf_free(&b);
	return o;
}

/* --- scratch trees --- */

#define SCRATCH_BLOCK (64u << 10)

/* A block of the arena; the first one stays between windows. */
struct scratch_block {
	struct scratch_block *next;
	size_t size, used;
	max_align_t data[];
};

static _Thread_local struct scratch_block *blocks;
static _Thread_local int depth;

/* Whether p lies in one of this thread's blocks. */
static bool
scratch_owns(const void *p)
{
	for (const struct scratch_block *b = blocks; b != NULL; b = b->next)
		if ((const char *)p >= (const char *)b->data &&
		    (const char *)p < (const char *)b->data + b->size)
			return true;
	return false;
}

void *
json_malloc(size_t n)
{
	struct scratch_block *b = blocks;

	if (depth == 0)
		return xmalloc(n);
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (b == NULL || b->size - b->used < n) {
		size_t size = n > SCRATCH_BLOCK ? n : SCRATCH_BLOCK;

		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = blocks;
		blocks = b;
	}
	b->used += n;
	return (char *)b->data + b->used - n;
}

void
json_free(void *p)
{
	if (p != NULL && !scratch_owns(p))
		free(p);
}

void
json_scratch_begin(void)
{
	depth++;
}

void
json_scratch_end(void)
{
	if (--depth > 0)
		return;
	/* Everything goes at once; one block stays for the next window. */
	while (blocks != NULL && blocks->next != NULL) {
		struct scratch_block *b = blocks;

		blocks = b->next;
		free(b);
	}
	if (blocks != NULL)
		blocks->used = 0;
}
