/* irc_fold: case folding by CASEMAPPING; see irc_fold.h. */
#include "bot/irc/irc_fold.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define STACK_CPS 512 /* code points decomposed without an allocation */

enum irc_casemap
irc_fold_casemap(const char *name)
{
	if (strcmp(name, "rfc1459") == 0)
		return IRC_CM_RFC1459;
	if (strcmp(name, "strict-rfc1459") == 0)
		return IRC_CM_STRICT;
	if (strcmp(name, "rfc7613") == 0)
		return IRC_CM_RFC7613;
	return IRC_CM_ASCII;
}

/* Copies the UTF-8 text in[0..len) into out (size > 0), cut on a
 * character boundary. Returns 0, or -1 when cut. */
static int
put(const char *in, size_t len, char *out, size_t size)
{
	size_t n = len > size - 1 ? utf8_cut(in, len, size - 1) : len;

	memcpy(out, in, n);
	out[n] = '\0';
	return n == len ? 0 : -1;
}

static int
fold_ascii(enum irc_casemap cm, const char *in, char *out, size_t size)
{
	size_t len = strlen(in), n = len;

	if (n > size - 1)
		n = utf8_valid(in, len) ? utf8_cut(in, len, size - 1) : size - 1;
	for (size_t i = 0; i < n; i++) {
		char c = in[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if ((cm == IRC_CM_RFC1459 || cm == IRC_CM_STRICT) &&
		         (c == '[' || c == ']' || c == '\\'))
			c = (char)(c + 32); /* [ ] \ fold to { } | */
		else if (cm == IRC_CM_RFC1459 && c == '~')
			c = '^';
		out[i] = c;
	}
	out[n] = '\0';
	return n == len ? 0 : -1;
}

/* Width mapping: what utf8proc does to each code point before it
 * decomposes the text. */
static utf8proc_int32_t
map_char(utf8proc_int32_t cp, void *data)
{
	const utf8proc_property_t *p = utf8proc_get_property(cp);
	utf8proc_int32_t wide[4];

	(void)data;
	if ((p->decomp_type == UTF8PROC_DECOMP_TYPE_WIDE ||
	     p->decomp_type == UTF8PROC_DECOMP_TYPE_NARROW) &&
	    utf8proc_decompose_char(cp, wide, 4, UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT, NULL) == 1)
		cp = wide[0];
	return cp;
}

/* RFC 7613/8265 UsernameCaseMapped: returns 0, -1 when cut, or -2 when
 * utf8proc cannot map the text (it is not UTF-8). */
static int
fold_precis(const char *in, char *out, size_t size)
{
	const utf8proc_option_t decompose =
	    UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_DECOMPOSE;
	utf8proc_int32_t stack[STACK_CPS + 1], *cps = stack; /* + 1: the NUL */
	utf8proc_ssize_t n, bytes;
	int r;

	if (!utf8_valid(in, strlen(in)))
		return -2;
	n = utf8proc_decompose_custom((const utf8proc_uint8_t *)in, 0, cps, STACK_CPS, decompose,
	                              map_char, NULL);
	if (n > STACK_CPS) {
		cps = xmalloc(((size_t)n + 1) * sizeof(*cps));
		n = utf8proc_decompose_custom((const utf8proc_uint8_t *)in, 0, cps, n, decompose,
		                              map_char, NULL);
	}
	if (n < 0) {
		r = -2;
		goto done;
	}
	/* Lowercase the decomposed text: "İ" is "I" U+0307 by then, so its
	 * dot stays, and singletons such as KELVIN SIGN are letters again. */
	for (utf8proc_ssize_t i = 0; i < n; i++)
		cps[i] = utf8proc_tolower(cps[i]);
	/* NFC, written over the code points as UTF-8 (never longer). */
	bytes = utf8proc_reencode(cps, n, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
	if (bytes < 0) {
		r = -2;
		goto done;
	}
	r = put((const char *)cps, (size_t)bytes, out, size);
done:
	if (cps != stack)
		free(cps);
	return r;
}

int
irc_fold(enum irc_casemap cm, const char *in, char *out, size_t size)
{
	int r;

	if (size == 0)
		return -1;
	if (cm == IRC_CM_RFC7613) {
		r = fold_precis(in, out, size);
		if (r != -2)
			return r;
		/* Not UTF-8: see the header for why ascii is safe here. */
		cm = IRC_CM_ASCII;
	}
	return fold_ascii(cm, in, out, size);
}
