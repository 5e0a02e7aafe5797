/* utf8: see utf8.h. */
#include "rules/base/utf8.h"

#include <stdint.h>
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

bool
utf8_valid(const char *str, size_t len)
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
			return false;
		i += n;
	}
	return true;
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

/* A string read one folded code point at a time: each code point of it
 * is lowered (after raising, so that İ is i and ǅ is ǆ) and then case
 * folded in full, so that one code point may give several (ß gives ss,
 * the ﬁ ligature fi). */
struct folding {
	const char *s;
	utf8proc_int32_t buf[8];
	utf8proc_ssize_t n, i;
};

/* The next folded code point, or -1 at the end; a byte that starts no
 * well-formed sequence is itself, above every code point. Default
 * ignorable code points (zero-width spaces and joiners, bidi marks, the
 * soft hyphen), which show nothing, are passed over. */
static int32_t
folded(struct folding *f)
{
	while (f->i >= f->n) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t len;
		int boundclass = 0;

		if (*f->s == '\0')
			return -1;
		len = utf8proc_iterate((const utf8proc_uint8_t *)f->s, -1, &cp);
		if (len <= 0) {
			f->s++;
			return 0x110000 + (unsigned char)f->s[-1];
		}
		f->s += len;
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
