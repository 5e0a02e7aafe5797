/* utf8: see utf8.h. Follows the Unicode Standard's table 3-7 of well-formed
 * byte sequences. */
#include "rules/base/utf8.h"

#include <stdint.h>
#include <string.h>

#include <utf8proc.h>

size_t
utf8_seq_len(const char *str, size_t len)
{
	const unsigned char *u = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;

	if (len == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] < 0xC2 || u[0] > 0xF4)
		return 0;
	n = u[0] < 0xE0 ? 2 : u[0] < 0xF0 ? 3 : 4;
	if (len < n)
		return 0;
	if (u[0] == 0xE0)
		lo = 0xA0;
	else if (u[0] == 0xED)
		hi = 0x9F;
	else if (u[0] == 0xF0)
		lo = 0x90;
	else if (u[0] == 0xF4)
		hi = 0x8F;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (u[i] < 0x80 || u[i] > 0xBF)
			return 0;
	return n;
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
utf8_len(const char *str)
{
	size_t n = 0;

	for (const unsigned char *s = (const unsigned char *)str; *s; s++)
		if ((*s & 0xC0) != 0x80)
			n++;
	return n;
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

/* The code point at *s (advancing it), folded; a byte that starts no
 * well-formed sequence is itself, above every code point. */
static int32_t
folded(const char **s)
{
	utf8proc_int32_t cp;
	utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)*s, -1, &cp);

	if (n <= 0) {
		cp = 0x110000 + (unsigned char)**s;
		n = 1;
	} else {
		cp = utf8proc_tolower(utf8proc_toupper(cp));
	}
	*s += n;
	return cp;
}

int
utf8_casecmp(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		int32_t x = folded(&a), y = folded(&b);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return (*a != '\0') - (*b != '\0');
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
