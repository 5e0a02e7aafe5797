/*
 * libFuzzer target: a level typed where a class goes, in words
 * (num_word(s, true)) or in digits, numerals, Roman numerals or with a
 * label (fungeon_level_typed()). Any bytes
 * (ill-formed UTF-8 too, which the case folding and the digit reading
 * walk) read as a number from 0 to 99 or as none, and as a level in range
 * or none, with no read past the text; the two readings agree.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/num.h"
#include "rules/fungeon/fungeon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[256];
	enum fungeon_level_form form;
	int n, level;

	if (size >= sizeof(s))
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	n = num_word(s, true);
	if (n < -1 || n > 99 || (n >= 0 && size == 0))
		abort();
	form = fungeon_level_typed(s, &level);
	if (level != -1 && (level < FUNGEON_LEVEL_MIN || level > FUNGEON_LEVEL_MAX))
		abort();
	if ((form == FUNGEON_LEVEL_WORDS) != (n >= 0))
		abort();
	if (form == FUNGEON_LEVEL_WORDS &&
	    level != (n >= FUNGEON_LEVEL_MIN && n <= FUNGEON_LEVEL_MAX ? n : -1))
		abort();
	if (form == FUNGEON_LEVEL_NONE && level != -1)
		abort();
	if (form == FUNGEON_LEVEL_OTHER_DIGITS && level != -1)
		abort();
	if (form == FUNGEON_LEVEL_ROMAN && (level < 1 || level > 39))
		abort();
	if (form == FUNGEON_LEVEL_DIGITS && level != -1) {
		long v = 0;

		for (size_t i = 0; s[i] != '\0'; i++) {
			if (s[i] < '0' || s[i] > '9')
				abort();
			if (v <= FUNGEON_LEVEL_MAX)
				v = v * 10 + (s[i] - '0');
		}
		if (v != level)
			abort();
	}
	return 0;
}
