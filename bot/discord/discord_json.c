/* discord_json: gateway frames into an arena of cJSON nodes; see discord_json.h. */
#include "bot/discord/discord_json.h"

#include <cJSON.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
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

#define BLOCK_SIZE    16384 /* the block kept between frames */
#define NESTING_LIMIT 1000  /* as CJSON_NESTING_LIMIT */
#define NUMBER_STACK  64    /* a number longer than this is copied into the arena */
#define PAD           16    /* zero bytes after the arena's copy of the text */

struct block {
	struct block *next;
	size_t size, used;
	max_align_t data[]; /* size bytes */
};

struct discord_json {
	struct block *head; /* the block allocations come from; the first one last */
};

/* The parse's position p is passed along and returned (NULL: refused),
 * kept in a register rather than here. p and end are in the arena's copy
 * of the text: strings are cut out of it in place (parse_string). *end (a
 * PAD byte) is always readable and is zero, which no test for a
 * particular character takes. */
struct parser {
	struct discord_json *a;
	const unsigned char *end;
	int depth;
};

static struct block *
block_new(size_t size, struct block *next)
{
	struct block *b = xmalloc(sizeof(*b) + size);

	b->next = next;
	b->size = size;
	b->used = 0;
	return b;
}

struct discord_json *
discord_json_new(void)
{
	struct discord_json *a = xcalloc(1, sizeof(*a));

	a->head = block_new(BLOCK_SIZE, NULL);
	return a;
}

/* Frees every block but the first (the last in the list) and empties it. */
static void
arena_reset(struct discord_json *a)
{
	while (a->head->next != NULL) {
		struct block *b = a->head;

		a->head = b->next;
		free(b);
	}
	a->head->used = 0;
}

void
discord_json_free(struct discord_json *a)
{
	if (a == NULL)
		return;
	arena_reset(a);
	free(a->head);
	free(a);
}

static void *
arena_alloc(struct discord_json *a, size_t n)
{
	struct block *b = a->head;
	void *p;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (b->size - b->used < n) {
		b = block_new(n > BLOCK_SIZE ? n : BLOCK_SIZE, a->head);
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

static cJSON *
node_new(struct parser *ps)
{
	cJSON *n = arena_alloc(ps->a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	return n;
}

static inline unsigned char *
skip_space(unsigned char *p, const unsigned char *end)
{
	while (*p <= 32 && p < end)
		p++;
	return p;
}

/* Four hex digits; 0 when any is not one (cJSON's parse_hex4). */
static unsigned
hex4(const unsigned char *s)
{
	unsigned h = 0;

	for (int i = 0; i < 4; i++) {
		unsigned c = s[i], v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'A' && c <= 'F')
			v = 10 + c - 'A';
		else if (c >= 'a' && c <= 'f')
			v = 10 + c - 'a';
		else
			return 0;
		h = (h << 4) | v;
	}
	return h;
}

/* Decodes the \u escape at s (before end, the closing quote) into out;
 * returns the escape's length (6 or 12), or 0 when it is invalid. */
static size_t
utf16_escape(const unsigned char *s, const unsigned char *end, unsigned char **out)
{
	unsigned long cp;
	unsigned first, second;
	size_t len = 6;
	unsigned char *o = *out;

	if (end - s < 6)
		return 0;
	first = hex4(s + 2);
	if (first >= 0xDC00 && first <= 0xDFFF)
		return 0;
	if (first >= 0xD800 && first <= 0xDBFF) {
		if (end - (s + 6) < 6 || s[6] != '\\' || s[7] != 'u')
			return 0;
		second = hex4(s + 8);
		if (second < 0xDC00 || second > 0xDFFF)
			return 0;
		cp = 0x10000 + (((unsigned long)(first & 0x3FF) << 10) | (second & 0x3FF));
		len = 12;
	} else {
		cp = first;
	}
	if (cp < 0x80) {
		*o++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*o++ = (unsigned char)(0xC0 | (cp >> 6));
		*o++ = (unsigned char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (unsigned char)(0xE0 | (cp >> 12));
		*o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (unsigned char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (unsigned char)(0xF0 | (cp >> 18));
		*o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (unsigned char)(0x80 | (cp & 0x3F));
	}
	*out = o;
	return len;
}

#ifdef __SSE2__
/* The first quote or backslash at or after s, before end; NULL when there
 * is none. Reads up to 15 bytes past end: the arena's copy of the text is
 * followed by PAD zero bytes. */
static inline unsigned char *
find_quote_or_backslash(unsigned char *s, const unsigned char *end)
{
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');

	for (; s < end; s += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
		unsigned hit = (unsigned)_mm_movemask_epi8(
		    _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));

		if (hit != 0)
			return s + __builtin_ctz(hit) < end ? s + __builtin_ctz(hit) : NULL;
	}
	return NULL;
}
#else
/* The first byte of w (in memory order) that is a quote or a backslash,
 * as its index, or 8 when there is none. A byte's own test is exact; a
 * borrow only ever marks a byte after one that matched, never before. */
static inline unsigned
quote_or_backslash(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
	uint64_t hit = (((q - ones) & ~q) | ((b - ones) & ~b)) & highs;

	return hit == 0 ? 8 : (unsigned)__builtin_ctzll(hit) / 8;
}

/* As the SSE2 version above, 8 bytes at a time (reads up to 7 past end). */
static inline unsigned char *
find_quote_or_backslash(unsigned char *s, const unsigned char *end)
{
	for (; s < end; s += 8) {
		uint64_t w;
		unsigned i;

		memcpy(&w, s, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		i = quote_or_backslash(w);
		if (i < 8)
			return s + i < end ? s + i : NULL;
	}
	return NULL;
}
#endif

/* Decodes the escapes of the string s..e (e its closing quote) in place
 * and ends it with a NUL; returns false when an escape is invalid. An
 * escape never decodes longer than it is written, and each is read whole
 * before its bytes are written, so the output never overtakes the input. */
static bool
unescape(unsigned char *s, unsigned char *e)
{
	unsigned char *in, *o;

	for (in = s, o = s; in < e;) {
		size_t n = 2;

		if (*in != '\\') {
			*o++ = *in++;
			continue;
		}
		switch (in[1]) {
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case '"':
		case '\\':
		case '/':
			*o++ = in[1];
			break;
		case 'u':
			n = utf16_escape(in, e, &o);
			if (n == 0)
				return false;
			break;
		default:
			return false;
		}
		in += n;
	}
	*o = '\0';
	return true;
}

/* The string at p (its opening quote), NUL-terminated where it stands in
 * the arena's copy of the text: its closing quote (or, after escapes are
 * decoded in place, a byte before it) becomes the NUL. Returns the
 * position after it, with *out the string. */
static inline unsigned char *
parse_string(unsigned char *p, const unsigned char *end, char **out)
{
	unsigned char *s = p + 1, *e = s;
	bool plain = true;

	if (*p != '"')
		return NULL;
	/* The closing quote is the first one not escaped: a backslash takes
	 * the byte after it, which may be a quote. */
	for (;;) {
		e = find_quote_or_backslash(e, end);
		if (e == NULL)
			return NULL;
		if (*e == '"')
			break;
		plain = false;
		e += 2;
		if (e > end)
			return NULL;
	}
	if (plain)
		*e = '\0';
	else if (!unescape(s, e))
		return NULL;
	*out = (char *)s;
	return e + 1;
}

static bool
number_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

/* A number as cJSON reads one: the longest run of number characters, of
 * which strtod takes what it can. */
static unsigned char *
parse_number(struct parser *ps, unsigned char *p, cJSON *n)
{
	size_t run = 0, digits = 0;
	bool neg = *p == '-';
	double v;

	while (number_char(p[run]))
		run++;
	for (size_t i = neg; i < run && p[i] >= '0' && p[i] <= '9'; i++)
		digits++;
	if (digits > 0 && digits <= 15 && digits + neg == run) {
		/* A plain integer: exact in a double, as strtod reads it. */
		uint64_t u = 0;

		for (size_t i = neg; i < run; i++)
			u = u * 10 + (uint64_t)(p[i] - '0');
		v = neg ? -(double)u : (double)u;
		p += run;
	} else {
		char stack[NUMBER_STACK], *after;
		char *buf = run < sizeof(stack) ? stack : arena_alloc(ps->a, run + 1);
		char point = localeconv()->decimal_point[0];

		for (size_t i = 0; i < run; i++)
			buf[i] = p[i] == '.' ? point : (char)p[i];
		buf[run] = '\0';
		v = strtod(buf, &after);
		if (after == buf)
			return NULL;
		p += after - buf;
	}
	n->type = cJSON_Number;
	n->valuedouble = v;
	if (v >= INT_MAX)
		n->valueint = INT_MAX;
	else if (v <= (double)INT_MIN)
		n->valueint = INT_MIN;
	else
		n->valueint = (int)v;
	return p;
}

static unsigned char *parse_value(struct parser *ps, unsigned char *p, cJSON *n);

/* The elements of an array or the members of an object, from p at its
 * opening bracket. */
static unsigned char *
parse_container(struct parser *ps, unsigned char *p, cJSON *n, bool object)
{
	const unsigned char *end = ps->end;
	unsigned char close = object ? '}' : ']';
	cJSON *last = NULL;

	if (ps->depth >= NESTING_LIMIT)
		return NULL;
	ps->depth++;
	n->type = object ? cJSON_Object : cJSON_Array;
	p = skip_space(p + 1, end);
	if (*p == close)
		goto done;
	for (;;) {
		cJSON *item = node_new(ps);

		p = skip_space(p, end);
		if (object) {
			p = parse_string(p, end, &item->string);
			if (p == NULL)
				return NULL;
			p = skip_space(p, end);
			if (*p != ':')
				return NULL;
			p = skip_space(p + 1, end);
		}
		if (*p == '"') { /* most values: no call through parse_value */
			item->type = cJSON_String;
			p = parse_string(p, end, &item->valuestring);
		} else {
			p = parse_value(ps, p, item);
		}
		if (p == NULL)
			return NULL;
		if (last == NULL) {
			n->child = item;
		} else {
			last->next = item;
			item->prev = last;
		}
		last = item;
		p = skip_space(p, end);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != close)
			return NULL;
		break;
	}
	n->child->prev = last; /* cJSON's convention: the head points at the tail */
done:
	ps->depth--;
	return p + 1;
}

static unsigned char *
literal(unsigned char *p, const unsigned char *end, const char *word, size_t len)
{
	if ((size_t)(end - p) < len || memcmp(p, word, len) != 0)
		return NULL;
	return p + len;
}

static unsigned char *
parse_value(struct parser *ps, unsigned char *p, cJSON *n)
{
	switch (*p) {
	case '"':
		n->type = cJSON_String;
		return parse_string(p, ps->end, &n->valuestring);
	case '{':
	case '[':
		return parse_container(ps, p, n, *p == '{');
	case 'n':
		n->type = cJSON_NULL;
		return literal(p, ps->end, "null", 4);
	case 'f':
		n->type = cJSON_False;
		return literal(p, ps->end, "false", 5);
	case 't':
		n->type = cJSON_True;
		n->valueint = 1;
		return literal(p, ps->end, "true", 4);
	case '-':
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9':
		return parse_number(ps, p, n);
	default:
		return NULL;
	}
}

const cJSON *
discord_json_parse(struct discord_json *a, const char *text, size_t len)
{
	struct parser ps = {.a = a};
	unsigned char *p;
	cJSON *root;

	arena_reset(a);
	if (text == NULL || len == 0)
		return NULL;
	/* The tree's strings are cut out of this copy (parse_string). */
	p = arena_alloc(a, len + PAD);
	memcpy(p, text, len);
	memset(p + len, 0, PAD);
	ps.end = p + len;
	if (len > 4 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	p = skip_space(p, ps.end);
	root = node_new(&ps);
	p = parse_value(&ps, p, root);
	if (p == NULL)
		return NULL;
	return skip_space(p, ps.end) == ps.end ? root : NULL;
}

/* Whether the 8 bytes of w are all ASCII digits: each byte's high nibble
 * is 3, and stays 3 with 6 added (past '9' it becomes 4; a byte's carry
 * comes only from a byte that fails itself). */
static bool
eight_digits(uint64_t w)
{
	const uint64_t highs = 0xF0F0F0F0F0F0F0F0ull;

	return ((w & highs) | (((w + 0x0606060606060606ull) & highs) >> 4)) ==
	       0x3333333333333333ull;
}

/* The number the 8 digits of w (in memory order, the first the most
 * significant) write: pairs, then fours, then the eight, each step
 * inside its lane (99, 9,999 and 99,999,999 fit). */
static uint64_t
eight_value(uint64_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	w -= 0x3030303030303030ull;
	w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFull;
	w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFFull;
	return (w * 10000 + (w >> 32)) & 0xFFFFFFFFull;
}

bool
discord_json_snowflake(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n, i = 0;

	if (s == NULL || (n = strnlen(s, 21)) == 0 || n > 20)
		return false;
	/* Eight digits at a time up to 16 (below 10^16), then one at a time:
	 * 19 digits always fit in 64 bits, a 20th may not. */
	for (; n - i >= 8 && i < 16; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		if (!eight_digits(w))
			return false;
		v = v * 100000000u + eight_value(w);
	}
	for (; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d >= 10)
			return false;
		if (i < 19)
			v = v * 10 + d;
		else if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v))
			return false;
	}
	*out = v;
	return true;
}
