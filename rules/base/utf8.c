/* utf8: see utf8.h. */
#include "rules/base/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <utf8proc.h>

size_t
utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	utf8proc_int32_t c;
	utf8proc_ssize_t n;

	if (len == 0)
		return 0;
	if ((unsigned char)s[0] < 0x80) {
		*cp = (unsigned char)s[0];
		return 1;
	}
	n = utf8proc_iterate((const utf8proc_uint8_t *)s, len < 4 ? (utf8proc_ssize_t)len : 4, &c);
	if (n <= 0)
		return 0;
	*cp = (uint32_t)c;
	return (size_t)n;
}

size_t
utf8_seq_len(const char *s, size_t len)
{
	uint32_t cp;

	return utf8_decode(s, len, &cp);
}

size_t
utf8_valid_len(const char *str, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t n;
		uint64_t w;

		/* ASCII, most of every reply and frame, eight bytes at a time:
		 * this runs on every string a reply holds. */
		while (len - i >= 8) {
			memcpy(&w, str + i, 8);
			if ((w & 0x8080808080808080ull) != 0)
				break;
			i += 8;
		}
		if (i == len)
			break;
		n = utf8_seq_len(str + i, len - i);
		if (n == 0)
			break;
		i += n;
	}
	return i;
}

bool
utf8_valid(const char *str, size_t len)
{
	return utf8_valid_len(str, len) == len;
}

size_t
utf8_count(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += (s[i] & 0xC0) != 0x80;
	return n;
}

size_t
utf8_len(const char *str)
{
	return utf8_count(str, strlen(str));
}

size_t
utf8_cut(const char *str, size_t len, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;

	if (len <= max)
		return len;
	while (max > 0 && (s[max] & 0xC0) == 0x80)
		max--;
	return max;
}

size_t
utf8_cut_text(const char *str, size_t len, size_t max)
{
	utf8proc_int32_t state = 0;
	uint32_t prev = 0, cp;
	size_t at = 0, cut = 0;

	if (len <= max)
		return len;
	while (at <= max) {
		size_t n = utf8_decode(str + at, len - at, &cp);

		/* A break before cp (none before the first) ends a character. */
		if (n == 0 || at == 0 ||
		    utf8proc_grapheme_break_stateful((utf8proc_int32_t)prev, (utf8proc_int32_t)cp,
		                                     &state))
			cut = at;
		if (n == 0)
			break;
		prev = cp;
		at += n;
	}
	/* One character longer than max (a letter under dozens of accents):
	 * cut inside it, on a code point, rather than show nothing. */
	return cut > 0 ? cut : utf8_cut(str, len, max);
}

/* A string read one folded code point at a time: each code point of it
 * is lowered (after raising, so that İ is i and ǅ is ǆ) and then case
 * folded in full, so that one code point may give several (ß gives ss,
 * the ﬁ ligature fi). */
struct folding {
	const char *s;
	utf8proc_int32_t buf[8];
	utf8proc_ssize_t n, i;
	uint32_t prev; /* the code point read last, 0 at the start */
};

/* Whether cp is Extended_Pictographic, the property on which Unicode
 * defines the emoji ZWJ sequence (UAX #29, rule GB11). utf8proc marks the
 * assigned code points that have it; Unicode gives it to the unassigned
 * ones of the pictographic blocks too (U+1F000..U+1FAFF, U+1FC00..U+1FFFD),
 * so that emoji newer than utf8proc's tables join as well. */
static bool
is_pictographic(uint32_t cp)
{
	const utf8proc_property_t *p;

	if (cp == 0 || cp > 0x10FFFF)
		return false;
	p = utf8proc_get_property((utf8proc_int32_t)cp);
	if (p->boundclass == UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC)
		return true;
	return p->category == UTF8PROC_CATEGORY_CN &&
	       ((cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0x1FC00 && cp <= 0x1FFFD));
}

/* Whether cp may stand just before the joiner of an emoji ZWJ sequence: a
 * pictograph, or what GB11 lets follow one there and emoji put there, the
 * emoji presentation selector U+FE0F (❤️‍🔥) or a skin tone U+1F3FB..U+1F3FF
 * (👨🏻‍💻). */
static bool
ends_pictograph(uint32_t cp)
{
	return is_pictographic(cp) || cp == 0xFE0F || (cp >= 0x1F3FB && cp <= 0x1F3FF);
}

/* Whether cp is a letter (or, when mark, a combining mark) of a script
 * whose letters join (Arabic, Syriac, N'Ko, Mandaic, Mongolian, Phags-pa,
 * Manichaean, Psalter Pahlavi, Hanifi Rohingya, Sogdian, Old Uyghur,
 * Chorasmian, Adlam), where a non-joiner between two letters keeps them
 * apart. Their format characters (U+061C, U+180E, U+FEFF) are not. */
static bool
is_joining_script(uint32_t cp, bool mark)
{
	static const uint32_t ranges[][2] = {
	    {0x0600, 0x077F},   {0x07C0, 0x07FF},   {0x0840, 0x08FF},   {0x1800, 0x18AF},
	    {0xA840, 0xA87F},   {0xFB50, 0xFDFF},   {0xFE70, 0xFEFF},   {0x10AC0, 0x10AFF},
	    {0x10B80, 0x10BAF}, {0x10D00, 0x10D3F}, {0x10F30, 0x10FDF}, {0x1E900, 0x1E95F},
	};

	utf8proc_category_t cat;

	if (cp == 0 || cp > 0x10FFFF)
		return false;
	cat = utf8proc_category((utf8proc_int32_t)cp);
	if (!(cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) &&
	    !(mark && (cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC)))
		return false;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return true;
	return false;
}

bool
utf8_joiner_shows(uint32_t prev, uint32_t joiner, uint32_t next)
{
	bool virama = prev > 0 && prev < 0x110000 &&
	              utf8proc_get_property((utf8proc_int32_t)prev)->combining_class == 9;

	if (joiner == 0x200D)
		return virama || (ends_pictograph(prev) && is_pictographic(next));
	if (joiner == 0x200C)
		return virama || (is_joining_script(prev, true) && is_joining_script(next, false));
	return false;
}

/* The next folded code point, or -1 at the end; a byte that starts no
 * well-formed sequence is itself, above every code point. Default
 * ignorable code points (zero-width spaces, bidi marks, the soft hyphen,
 * joiners where utf8_joiner_shows() says they show nothing), are passed
 * over. */
static int32_t
folded(struct folding *f)
{
	while (f->i >= f->n) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t len;
		int boundclass = 0;
		uint32_t prev = f->prev, next = 0;

		if (*f->s == '\0')
			return -1;
		len = utf8proc_iterate((const utf8proc_uint8_t *)f->s, -1, &cp);
		if (len <= 0) {
			f->prev = 0;
			f->s++;
			return 0x110000 + (unsigned char)f->s[-1];
		}
		f->s += len;
		f->prev = (uint32_t)cp;
		if (cp == 0x200C || cp == 0x200D) {
			utf8_decode(f->s, strnlen(f->s, 4), &next);
			if (utf8_joiner_shows(prev, (uint32_t)cp, next))
				return cp; /* part of what shows: compared as it is */
		}
		cp = utf8proc_tolower(utf8proc_toupper(cp));
		f->n = utf8proc_decompose_char(cp, f->buf, 8,
		                               UTF8PROC_CASEFOLD | UTF8PROC_IGNORE |
		                                   UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT,
		                               &boundclass);
		f->i = 0;
		if (f->n < 0 || f->n > 8) {
			f->n = 0;
			return cp;
		}
	}
	return f->buf[f->i++];
}

int
utf8_casecmp(const char *a, const char *b)
{
	struct folding fa = {.s = a}, fb = {.s = b};

	for (;;) {
		int32_t x = folded(&fa), y = folded(&fb);

		if (x != y)
			return x < y ? -1 : 1;
		if (x < 0)
			return 0;
	}
}

void
utf8_copy(char *dst, size_t size, const char *src)
{
	size_t n = utf8_cut(src, strlen(src), size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

size_t
utf8_copy_bytes(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src), n = len < size - 1 ? len : size - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
	return len;
}

bool
utf8_is_letter(uint32_t cp)
{
	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT:
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
		return true;
	default:
		return false;
	}
}

bool
utf8_is_accent(uint32_t cp)
{
	utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);

	return cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC ||
	       cat == UTF8PROC_CATEGORY_ME;
}

size_t
utf8_prefix(const char *s, size_t len, size_t chars)
{
	size_t n = 0;

	for (size_t k = 0; n < len && k < chars; k++) {
		size_t step = utf8_seq_len(s + n, len - n);

		n += step > 0 ? step : 1;
	}
	return n;
}

size_t
utf8_repair(struct buf *out, const char *str, size_t len)
{
	size_t i = 0, bad = 0;

	while (i < len) {
		size_t n = utf8_seq_len(str + i, len - i);

		if (n == 0) {
			buf_adds(out, "\xEF\xBF\xBD");
			bad++;
			n = 1;
		} else {
			buf_add(out, str + i, n);
		}
		i += n;
	}
	return bad;
}
