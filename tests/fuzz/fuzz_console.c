/*
 * libFuzzer target: one console line through the whole command path:
 * validation, parsing against the real command table, every handler, and
 * both terminal renderings. State persists across inputs (as in a long
 * session) but is reset every 1000 inputs to keep memory bounded. Whatever
 * the input, the rendered reply must be valid UTF-8 (names are cut on
 * character boundaries); a long multibyte display name tests that.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "commands/dispatch.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct state *st;
	static struct rng *rng;
	static unsigned n;
	struct dispatch d;
	struct origin o = {.platform = "console",
	                   .chan_key = "console:fuzz",
	                   .user_key = "console:fuzzer",
	                   .user_name = "fuzzer"};
	struct reply *r;
	struct buf b;

	if (st == NULL || ++n % 1000 == 0) {
		state_free(st);
		st = state_new();
	}
	if (rng == NULL)
		rng = rng_new_seeded(1);
	/* The first byte picks the speaker: the GM seat gets exercised too. */
	if (size > 0 && (data[0] & 1)) {
		memcpy(o.user_key, "console:other", sizeof("console:other"));
		memcpy(o.user_name, "other", sizeof("other"));
		o.platform_admin = (data[0] & 2) != 0;
	}
	if (size > 0 && (data[0] & 4)) {
		memset(o.user_name, 0, sizeof(o.user_name));
		for (size_t i = 0; i + 2 < sizeof(o.user_name); i += 2)
			memcpy(o.user_name + i, "é", 2);
	}
	memset(&d, 0, sizeof(d));
	d.state = st;
	d.rng = rng;
	r = reply_new();
	dispatch_line(&d, &o, (const char *)data, size, 1000, r);
	buf_init(&b, 1 << 22);
	for (int a = 0; a < 2; a++) {
		const struct reply_msg *m = reply_msg(r, (enum reply_audience)a);

		if (m != NULL) {
			render_text(m, true, &b);
			render_text(m, false, &b);
		}
	}
	if (!utf8_valid(buf_str(&b), b.len))
		__builtin_trap();
	buf_free(&b);
	reply_free(r);
	return 0;
}
