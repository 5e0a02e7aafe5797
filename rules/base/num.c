/* num: small numbers in user text; see num.h. */
#include "rules/base/num.h"

#include <ctype.h>

int
num_read(const char **p, int *out)
{
	int v = 0, digits = 0;

	while (isdigit((unsigned char)**p)) {
		if (++digits > 3)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	if (digits == 0)
		return -1;
	*out = v;
	return 0;
}

size_t
num_text(long long v, char *out)
{
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	char digits[24];
	size_t n = 0, k = 0;

	do
		digits[k++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		out[n++] = '-';
	while (k > 0)
		out[n++] = digits[--k];
	out[n] = '\0';
	return n;
}
