/*
 * libFuzzer target: a level said in words (fungeon_level_word()). Any
 * bytes (ill-formed UTF-8 too, which the case folding walks) read as a
 * number from 0 to 99 or as none, with no read past the text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/fungeon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[256];
	int n;

	if (size >= sizeof(s))
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	n = fungeon_level_word(s);
	if (n < -1 || n > 99 || (n >= 0 && size == 0))
		abort();
	return 0;
}
