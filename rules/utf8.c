/* utf8: see utf8.h. Follows the Unicode Standard's table 3-7 of well-formed
 * byte sequences. */
#include "utf8.h"

bool
utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		unsigned char lo = 0x80, hi = 0xBF;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			n = 1;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 2;
			if (c == 0xE0)
				lo = 0xA0;
			if (c == 0xED)
				hi = 0x9F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 3;
			if (c == 0xF0)
				lo = 0x90;
			if (c == 0xF4)
				hi = 0x8F;
		} else {
			return false;
		}
		if (len - i - 1 < n)
			return false;
		if (s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (size_t k = 2; k <= n; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return false;
		i += n + 1;
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
