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
 * when it was too long for the headers' struct. A broken promise aborts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_rest_h1_answer.h"
#include "rules/base/buf.h"

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
	struct discord_rest_h1_answer a;
	struct discord_rest_answer hd;
	struct buf body;
	enum discord_rest_h1_read r = DISCORD_REST_H1_MORE;
	size_t k, off = 1, used;

	if (size < 1)
		return 0;
	k = data[0] != 0 ? data[0] : size;
	buf_init(&body, BODY_MAX);
	discord_rest_h1_answer_init(&a);
	discord_rest_h1_answer_begin(&a, &hd, &body);
	while (r == DISCORD_REST_H1_MORE) {
		size_t n = size - off < k ? size - off : k;

		r = discord_rest_h1_answer_read(&a, (const char *)data + off, n, &used);
		check(used <= n);
		check(body.len <= BODY_MAX);
		if (n == 0)
			check(r != DISCORD_REST_H1_MORE);
		off += n;
	}
	if (r == DISCORD_REST_H1_DONE) {
		check(a.status <= 999 && !(a.status >= 100 && a.status < 200));
		if (a.long_bucket != NULL)
			check((hd.seen & DISCORD_REST_ANSWER_LONG_BUCKET) != 0);
	}
	discord_rest_h1_answer_free(&a);
	buf_free(&body);
	return 0;
}
