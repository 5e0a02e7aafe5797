/*
 * bench_parked: the dispatcher's commands waiting for reads by key
 * (commands/core/dispatch.h) at their bound, DISPATCH_PARKED_MAX. Half of them
 * wait, two to a channel, for channels whose reads are still under way and
 * came first; the other half, one to a channel, for reads that are over.
 * One dispatch_resume then runs the second half and leaves the first; a
 * second one, once the slow reads are over too, runs the rest. Prints this
 * thread's CPU time for the parking and for each resume, and the whole per
 * command. The store is a stand-in (persist_want answers from a flag), so
 * the figures are the dispatcher's own.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "rules/base/rng.h"
#include "tests/bench/bench.h"

static bool arriving, slow_over;
static int answered;

/* While the commands arrive every read is under way; then channels named
 * "slow:..." are being read until slow_over, and the rest are read. */
static int
want(void *ctx, const char *chan_key, const char *user_key, const char *legacy_key, bool restart)
{
	(void)ctx;
	(void)user_key;
	(void)legacy_key;
	(void)restart;
	return arriving || (strncmp(chan_key, "slow:", 5) == 0 && !slow_over) ? 1 : 0;
}

static void
done(void *ctx, struct reply *out)
{
	(void)ctx;
	(void)out;
	answered++;
}

int
main(void)
{
	enum {
		N = DISPATCH_PARKED_MAX,
		ROUNDS = 20
	};
	static struct reply *out[N];
	double park_ns = 0, first_ns = 0, second_ns = 0;

	for (int round = 0; round < ROUNDS; round++) {
		struct dispatch d = {.state = state_new(), .rng = rng_new_seeded(1)};
		double t0, t1, t2, t3;

		d.persist_want = want;
		arriving = true;
		slow_over = false;
		answered = 0;
		t0 = bench_cpu_ns();
		for (int i = 0; i < N; i++) {
			struct origin o = {.platform = "bench", .user_name = "u"};

			if (i < N / 2)
				snprintf(o.chan_key, sizeof(o.chan_key), "slow:%d", i / 2);
			else
				snprintf(o.chan_key, sizeof(o.chan_key), "read:%d", i);
			snprintf(o.user_key, sizeof(o.user_key), "bench:%d", i % 100);
			out[i] = reply_new();
			dispatch_line_async(&d, &o, "gm", 2, 0, out[i], done, NULL);
		}
		arriving = false;
		t1 = bench_cpu_ns();
		dispatch_resume(&d);
		t2 = bench_cpu_ns();
		slow_over = true;
		dispatch_resume(&d);
		t3 = bench_cpu_ns();
		if (answered != N || d.nparked != 0) {
			fprintf(stderr, "bench_parked: %d of %d answered\n", answered, N);
			return 1;
		}
		park_ns += t1 - t0;
		first_ns += t2 - t1;
		second_ns += t3 - t2;
		for (int i = 0; i < N; i++)
			reply_free(out[i]);
		state_free(d.state);
		rng_free(d.rng);
	}
	printf("parked commands: %d waiting (%d behind reads under way): parking %.0f us, "
	       "resume with half read %.0f us, resume with all read %.0f us; %.2f us per "
	       "command in all\n",
	       N, N / 2, park_ns / ROUNDS / 1e3, first_ns / ROUNDS / 1e3, second_ns / ROUNDS / 1e3,
	       (park_ns + first_ns + second_ns) / ROUNDS / 1e3 / N);
	return 0;
}
