/*
 * libFuzzer target for bot/irc/irc_fold: any bytes folded by every casemapping,
 * into a roomy and a small buffer. A fold never overruns its buffer and is
 * NUL-terminated; one that fits is complete and folding it again changes
 * nothing; well-formed UTF-8 stays well-formed (a cut one too) and
 * malformed text stays malformed, so it can never share a key with a
 * well-formed name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fold.h"
#include "rules/base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(enum irc_casemap cm, const char *in, size_t outsize)
{
	char *out = malloc(outsize), *again = malloc(outsize);
	bool valid = utf8_valid(in, strlen(in));
	int r = irc_fold(cm, in, out, outsize);
	size_t n = strnlen(out, outsize);

	if (n >= outsize || (r != 0 && r != -1))
		abort();
	if (valid && !utf8_valid(out, n))
		abort();
	if (r == 0 && !valid && utf8_valid(out, n))
		abort();
	if (r == 0 && (irc_fold(cm, out, again, outsize) != 0 || strcmp(out, again) != 0))
		abort();
	free(out);
	free(again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1);

	memcpy(in, data, size);
	in[size] = '\0';
	for (int cm = IRC_CM_ASCII; cm <= IRC_CM_RFC7613; cm++) {
		check((enum irc_casemap)cm, in, 4096);
		check((enum irc_casemap)cm, in, 7);
	}
	free(in);
	return 0;
}
