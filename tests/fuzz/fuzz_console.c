/*
 * libFuzzer target: one console line through the whole command path:
 * validation, parsing against the real command table, every handler, and
 * both terminal renderings. State persists across inputs (as in a long
 * session) but is reset every 1000 inputs to keep memory bounded. Whatever
 * the input, the rendered reply must be valid UTF-8 (names are cut on
 * character boundaries); a long multibyte display name tests that. And no
 * text of the reply, nor any line of its plain rendering, holds a control,
 * bidi control or invisible character (rules/textsafe.h), whatever the
 * user typed: the display name carries a right-to-left override.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "commands/core/dispatch.h"
#include "rules/base/rng.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
safe(const char *s)
{
	if (s != NULL && !textsafe_ok(s, strlen(s)))
		__builtin_trap();
}

/* Every string of the reply model is safe to show. */
static void
check_msg(const struct reply_msg *m)
{
	safe(m->title);
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct reply_block *bl = &m->blocks[i];

		for (size_t j = 0; j < bl->nspans; j++) {
			safe(bl->spans[j].text);
			if (bl->spans[j].style & RS_USER)
				safe(bl->spans[j].user.mark);
		}
		for (int c = 0; bl->header != NULL && c < bl->ncols; c++)
			safe(bl->header[c]);
		for (size_t j = 0; j < bl->nrows; j++)
			for (int c = 0; c < bl->ncols; c++)
				safe(bl->rows[j].cells[c]);
	}
	for (size_t i = 0; i < m->nbuttons; i++) {
		safe(m->buttons[i].label);
		safe(m->buttons[i].action);
	}
}

/* Each line of a plain (no ANSI) rendering is safe to show. */
static void
check_lines(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - s) : n;

		if (!textsafe_ok(s + i, end - i))
			__builtin_trap();
		i = end + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct state *st;
	static struct rng *rng;
	static unsigned n;
	struct dispatch *d;
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
	if (size > 0 && (data[0] & 8))
		memcpy(o.user_name,
		       "\xE2\x80\xAE"
		       "evil",
		       sizeof("\xE2\x80\xAE"
		              "evil"));
	d = dispatch_new(&(struct dispatch_opts){.state = st, .rng = rng});
	r = reply_new();
	dispatch_line(d, &o, (const char *)data, size, 1000, r);
	dispatch_free(d);
	buf_init(&b, 1 << 22);
	for (int a = 0; a < REPLY_AUDIENCES; a++) {
		const struct reply_msg *m = reply_msg(r, (enum reply_audience)a);

		if (m != NULL) {
			size_t start;

			check_msg(m);
			render_text(m, true, &b);
			start = b.len;
			render_text(m, false, &b);
			check_lines(buf_str(&b) + start, b.len - start);
		}
	}
	if (!utf8_valid(buf_str(&b), b.len))
		__builtin_trap();
	buf_free(&b);
	reply_free(r);
	return 0;
}
