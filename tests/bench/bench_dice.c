/*
 * bench_dice: nanoseconds per dice_roll() (parse, roll, free) for everyday
 * commands, and 100d6 against 100 bare rng_die() calls to show the
 * engine's overhead per die. Each figure is wall time and this thread's
 * CPU time: on a shared machine the second leaves out the time spent
 * waiting for a core, so it is the one to compare with a target.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/dice/dice.h"
#include "tests/bench/bench.h"
#include "rules/base/rng.h"

static volatile int64_t sink;

/* Returns ns per call of dice_roll() on text, result freed each time, and
 * the CPU ns per call in *cpu. */
static double
bench_roll(struct rng *rng, const char *text, long iters, int want, double *cpu)
{
	size_t len = strlen(text);
	char err[DICE_ERR_MAX];
	double t0, t1, c0 = bench_cpu_ns();

	t0 = bench_now_ns();
	for (long i = 0; i < iters; i++) {
		struct dice_result *res;
		int rc = dice_roll(text, len, rng, &res, err, sizeof(err));

		if (rc != want) {
			fprintf(stderr, "bench_dice: %s: %s\n", text, err);
			exit(1);
		}
		if (rc == 0) {
			sink += dice_result_expr(res, 0)->repeats[0].total;
			dice_result_free(res);
		}
	}
	t1 = bench_now_ns();
	*cpu = (bench_cpu_ns() - c0) / (double)iters;
	return (t1 - t0) / (double)iters;
}

static double
bench_raw(struct rng *rng, int dice, long iters, double *cpu)
{
	double t0, t1, c0 = bench_cpu_ns();

	t0 = bench_now_ns();
	for (long i = 0; i < iters; i++) {
		int64_t sum = 0;

		for (int d = 0; d < dice; d++)
			sum += rng_die(rng, 6);
		sink += sum;
	}
	t1 = bench_now_ns();
	*cpu = (bench_cpu_ns() - c0) / (double)iters;
	return (t1 - t0) / (double)iters;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *text;
		int want;
	} cmds[] = {
	    {"4d6kh3", 0}, {"10d10>8!f1 # attack", 0}, {"10d10!>8f1 # attack", 0},
	    {"1d20+5", 0}, {"6x 4d6kh3", 0},           {"100d6", 0},
	};
	long iters = argc > 1 ? atol(argv[1]) : 1000000;
	struct rng *rng = rng_new_seeded(1);
	double raw, cpu, raw_cpu, d100_cpu = 0;

	if (rng == NULL || iters <= 0)
		return 1;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		double wall;

		bench_roll(rng, cmds[i].text, iters / 10, cmds[i].want, &cpu);
		wall = bench_roll(rng, cmds[i].text, iters, cmds[i].want, &cpu);
		printf("dice_roll %-22s %8.1f ns/op, CPU %8.1f ns/op%s\n", cmds[i].text, wall, cpu,
		       cmds[i].want != 0 ? " (error path)" : "");
		if (strcmp(cmds[i].text, "100d6") == 0)
			d100_cpu = cpu;
	}
	raw = bench_raw(rng, 100, iters, &raw_cpu);
	printf("100 x rng_die(6)                 %8.1f ns/op, CPU %8.1f ns/op\n", raw, raw_cpu);
	printf("100d6 / 100 raw draws (CPU)      %8.2f\n", d100_cpu / raw_cpu);
	rng_free(rng);
	return 0;
}
