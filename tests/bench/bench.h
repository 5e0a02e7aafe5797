/* bench: what every benchmark needs: a monotonic clock and the resident
 * set size, and the change the store benchmarks commit. Header-only;
 * benchmarks are single files. */
#ifndef DELVER_BENCH_H
#define DELVER_BENCH_H

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands/core/channel.h"
#include "commands/core/invocation.h"
#include "commands/core/reply.h"

/* Nanoseconds on the monotonic clock. */
static inline double
bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds of CPU time this thread used: on a shared machine, time the
 * thread waited for a core is not counted. */
static inline double
bench_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds this thread has waited on a run queue for a CPU
 * (/proc/thread-self/schedstat, its second field), or 0: on a shared
 * machine, a stall that is mostly this wait is the machine's, not the
 * program's. With run, also the nanoseconds it ran (the first field). */
static inline double
bench_runq_wait_ns(double *run)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long ran = 0, wait = 0;

	if (f != NULL && fscanf(f, "%llu %llu", &ran, &wait) != 2)
		ran = wait = 0;
	if (f != NULL)
		fclose(f);
	if (run != NULL)
		*run = (double)ran;
	return (double)wait;
}

/* Resident memory of this process in kB, or -1. */
static inline long
bench_rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, resident = -1;

	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * 4;
}

/* A command's handler that changes one small thing: the channel's GM
 * seat changes hands (between discord:1 and discord:2). */
static inline void
bench_swap_gm(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->chan);

	channel_set_gm(inv->chan,
	               gm != NULL && strcmp(gm, "discord:1") == 0 ? "discord:2" : "discord:1",
	               "Player");
	channel_touch(inv->chan);
	reply_line(out, 0, "swapped");
}

#endif
