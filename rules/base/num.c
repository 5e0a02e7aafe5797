/* num: small numbers in user text; see num.h. */
#include "rules/base/num.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "rules/base/utf8.h"

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

/* The ways number n (0..99) is written with separator sep between its
 * tens and its units: its cardinal (ordinal false) or ordinal word. */
static void
spelled(int n, bool ordinal, const char *sep, char *out, size_t len)
{
	static const char *const ones[] = {
	    "zero",     "one",     "two",     "three",     "four",     "five",    "six",
	    "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",  "thirteen",
	    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
	static const char *const nth[] = {"zeroth",    "first",       "second",     "third",
	                                  "fourth",    "fifth",       "sixth",      "seventh",
	                                  "eighth",    "ninth",       "tenth",      "eleventh",
	                                  "twelfth",   "thirteenth",  "fourteenth", "fifteenth",
	                                  "sixteenth", "seventeenth", "eighteenth", "nineteenth"};
	static const char *const tens[] = {"twenty", "thirty",  "forty",  "fifty",
	                                   "sixty",  "seventy", "eighty", "ninety"};
	static const char *const tenth[] = {"twentieth", "thirtieth",  "fortieth",  "fiftieth",
	                                    "sixtieth",  "seventieth", "eightieth", "ninetieth"};

	if (n < 20)
		snprintf(out, len, "%s", ordinal ? nth[n] : ones[n]);
	else if (n % 10 == 0)
		snprintf(out, len, "%s", ordinal ? tenth[n / 10 - 2] : tens[n / 10 - 2]);
	else
		snprintf(out, len, "%s%s%s", tens[n / 10 - 2], sep,
		         ordinal ? nth[n % 10] : ones[n % 10]);
}

int
num_word(const char *s, bool ordinals)
{
	static const char *const seps[] = {"-", "", " "};
	char w[32];

	if (strlen(s) >= sizeof(w) * 4) /* longer than any spelling, folded or not */
		return -1;
	for (int n = 0; n < 100; n++) {
		int last = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;

		snprintf(w, sizeof(w), "%d%s", n,
		         last == 1   ? "st"
		         : last == 2 ? "nd"
		         : last == 3 ? "rd"
		                     : "th");
		if (ordinals && utf8_casecmp(s, w) == 0)
			return n;
		for (size_t k = 0; k < sizeof(seps) / sizeof(seps[0]); k++) {
			if (k > 0 && (n < 20 || n % 10 == 0))
				break; /* one word, no separator */
			for (int o = 0; o < (ordinals ? 2 : 1); o++) {
				spelled(n, o == 1, seps[k], w, sizeof(w));
				if (utf8_casecmp(s, w) == 0)
					return n;
			}
		}
	}
	return -1;
}
