/*
 * Console benchmarks: the whole path of a command (validation, parsing,
 * dice, reply, terminal rendering) in ns per command, and memory over
 * 100,000 commands (resident set after warm-up vs at the end).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bot/console/console.h"
#include "tests/bench/bench.h"
#include "rules/base/rng.h"

static void
per_command(struct console *c, const char *line, int n)
{
	struct buf out;
	double t0, t1;

	buf_init(&out, 1 << 20);
	for (int i = 0; i < 1000; i++) {
		console_handle_line(c, line, strlen(line), &out);
		buf_reset(&out);
	}
	t0 = bench_now_ns();
	for (int i = 0; i < n; i++) {
		console_handle_line(c, line, strlen(line), &out);
		buf_reset(&out);
	}
	t1 = bench_now_ns();
	printf("console %-28s %8.0f ns/command (parse+roll+render, %d runs)\n", line, (t1 - t0) / n,
	       n);
	buf_free(&out);
}

int
main(void)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "bench", .channel = "table", .ansi = true};
	struct console *c = console_new(d, &o);
	static const char *const mix[] = {"/roll 4d6kh3", "/roll 10d10!>8f1 # attack",
	                                  "/gm",          "/roll 6x 4d6kh3",
	                                  "/help roll",   "/roll 1d20+"};
	struct buf out;
	long warm = 0;

	per_command(c, "/roll 4d6kh3", 200000);
	per_command(c, "/roll 10d10!>8f1 # attack", 200000);
	per_command(c, "/gm", 200000);
	/* Read-only commands in a channel where every game holds state (the
	 * /undo encoding they must not pay for: commands/core/undo.h). */
	{
		static const char *const setup[] = {
		    "/gm claim",
		    "/tension raise combat",
		    "/fungeon join Alba wizard 2",
		    "/fungeon hallway",
		    "/fungeon trap add pit annoy 2 pain 3 type spikes",
		    "/light add torch",
		    "/turn advance"};

		buf_init(&out, 1 << 20);
		for (size_t i = 0; i < sizeof(setup) / sizeof(setup[0]); i++)
			console_handle_line(c, setup[i], strlen(setup[i]), &out);
		buf_free(&out);
		per_command(c, "/tension show", 50000);
		per_command(c, "/fungeon party", 50000);
	}

	buf_init(&out, 1 << 20);
	for (int i = 0; i < 100000; i++) {
		const char *line = mix[i % 6];

		console_handle_line(c, line, strlen(line), &out);
		buf_reset(&out);
		if (i == 9999)
			warm = bench_rss_kb();
	}
	printf("100,000 console commands: RSS %ld kB after 10,000 (warm), %ld kB after 100,000 "
	       "(growth %ld kB)\n",
	       warm, bench_rss_kb(), bench_rss_kb() - warm);
	{
		long before = bench_rss_kb();
		struct origin from = {.platform = "bench", .user_key = "bench:u", .user_name = "u"};
		struct reply *r = reply_new();

		for (int i = 0; i < 100000; i++) {
			snprintf(from.chan_key, sizeof(from.chan_key), "discord:%d",
			         1000000000 + i);
			reply_clear(r);
			dispatch_line(d, &from, "roll 1d20", 9, 0, r);
		}
		printf("100,000 channels that each rolled once: %ld kB more resident (%zu "
		       "records)\n",
		       bench_rss_kb() - before, state_nchannels(dispatch_state(d)));
		reply_free(r);
	}
	buf_free(&out);
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
	return 0;
}
