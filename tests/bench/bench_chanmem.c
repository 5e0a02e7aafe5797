/*
 * bench_chanmem: heap bytes a channel in play holds, by what it used.
 *
 * For each kind of channel, 2,000 channels run the same command lines
 * through dispatch (as a GM), and the heap in use (mallinfo2's uordblks,
 * malloc's own overhead included) grows by the figure printed per channel.
 * delver(8) quotes these figures. Prints figures; asserts
 * nothing (tests/unit/test_cmd_tension.c holds the Tension bound).
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "commands/tension/cmd_tension.h"
#include "rules/base/rng.h"

#define CHANNELS 2000

static void
run_lines(struct dispatch *d, const char *chan, const char *const *lines)
{
	struct origin o = {.platform = "bench"};

	snprintf(o.chan_key, sizeof(o.chan_key), "bench:%s", chan);
	snprintf(o.user_key, sizeof(o.user_key), "bench:gm");
	snprintf(o.user_name, sizeof(o.user_name), "gm");
	for (size_t i = 0; lines[i] != NULL; i++) {
		struct reply *r = reply_new();

		dispatch_line(d, &o, lines[i], strlen(lines[i]), 1000, r);
		reply_free(r);
	}
}

static void
measure(const char *what, const char *const *lines)
{
	struct state *st = state_new();
	struct rng *rng = rng_new_seeded(1);
	struct dispatch *d = dispatch_new(&(struct dispatch_opts){.state = st, .rng = rng});
	struct mallinfo2 m0, m1;
	char chan[32];

	run_lines(d, "warm", lines); /* the user record and shared defaults */
	m0 = mallinfo2();
	for (int c = 0; c < CHANNELS; c++) {
		snprintf(chan, sizeof(chan), "c%d", c);
		run_lines(d, chan, lines);
	}
	m1 = mallinfo2();
	printf("%-50s %6zu bytes per channel\n", what, (m1.uordblks - m0.uordblks) / CHANNELS);
	dispatch_free(d);
	state_free(st);
	rng_free(rng);
}

int
main(void)
{
	static const char *const gm[] = {"/gm claim", NULL};
	static const char *const t1[] = {"/gm claim", "/tension set 5", NULL};
	static const char *const t10[] = {"/gm claim",
	                                  "/tension raise combat",
	                                  "/tension raise door",
	                                  "/tension lower trap",
	                                  "/tension raise amount:1 reason:\"the party argued\"",
	                                  "/tension raise combat",
	                                  "/tension lower secret",
	                                  "/tension set 4",
	                                  "/tension raise door",
	                                  "/tension raise quiet-combat",
	                                  "/tension reset",
	                                  NULL};
	static const char *const struck[] = {"/gm claim", "/tension set 5", "/tension strike 9-12",
	                                     NULL};
	static const char *const light[] = {"/gm claim", "/light add torch", NULL};
	static const char *const hazard[] = {
	    "/gm claim", "/hazard custom d6 1 a wandering monster; 2 a torch gutters; 3-6 nothing",
	    NULL};

	measure("a GM claimed, nothing else", gm);
	measure("Tension set once", t1);
	measure("Tension with ten changes in its history", t10);
	measure("Tension with an entry struck (its own table)", struck);
	measure("a light source (the procedure's state)", light);
	measure("a custom hazard table (the procedure's state)", hazard);
	return 0;
}
