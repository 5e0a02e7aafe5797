/*
 * fuzz_rest_answer: an HTTP/1.1 answer as discord_rest_h1 reads it off a
 * connection (bot/discord/discord_rest_h1_answer), with a body cap of 4 KB
 * so the cap is reached at once.
 *
 * Byte 0 is the size of the pieces the rest arrives in (0: one piece);
 * after them the connection ends. Promises checked: no more is taken than
 * was given; the body never passes its cap; the end of the connection
 * ends the answer (done or cut); a DONE answer's status is no 1xx (those
 * are skipped) and at most 999; an X-RateLimit-Bucket is kept aside only
 * when it was too long for the headers' struct. And an answer read whole
 * at once without http_parser (a plain one, read_plain) reads as
 * http_parser reads it: the same bytes again, one at a time, give the
 * same status, headers, body, length and keep-alive. A broken promise
 * aborts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/h1read.h"

#define BODY_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(bool ok)
{
	if (!ok)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1;
	struct h1read whole, bytes;

	if (size < 1)
		return 0;
	h1read(text, size - 1, data[0] != 0 ? data[0] : size, BODY_MAX, &whole);
	check(!whole.taken_too_much && !whole.ended_in_more);
	check(whole.body.len <= BODY_MAX);
	if (whole.r == DISCORD_REST_H1_DONE) {
		check(whole.status <= 999 && !(whole.status >= 100 && whole.status < 200));
		if (whole.long_bucket != NULL)
			check((whole.hd.seen & DISCORD_REST_ANSWER_LONG_BUCKET) != 0);
	}
	if (whole.plain) {
		h1read(text, size - 1, 1, BODY_MAX, &bytes);
		check(!bytes.plain && h1read_same(&whole, &bytes));
		h1read_free(&bytes);
	}
	h1read_free(&whole);
	return 0;
}
