/*
 * discord_opstats: what an operator sees of the Discord transport.
 *
 * Process-wide counters, incremented where the events happen (a single
 * call: discord_opstats_add(OPSTATS_RESUMES)), and a fixed-memory histogram of the
 * bot's own handling time: from the gateway frame received to the
 * interaction callback sent. discord_opstats_line() formats them as the one stats
 * line the transport logs at info every [discord] stats_interval seconds
 * and on SIGUSR1 (see delver(8)).
 *
 * The counters are totals since the process started. The handling times
 * cover the interval since the previous line: discord_opstats_line() starts a new
 * interval. The histogram has log-linear buckets (8 per power of two, so a
 * percentile is exact below 16 us and within 12.5% above; it is reported
 * as its bucket's upper bound); the maximum is exact. Everything runs on
 * the one loop thread: nothing here is locked.
 */
#ifndef DELVER_DISCORD_OPSTATS_H
#define DELVER_DISCORD_OPSTATS_H

#include <stddef.h>
#include <stdint.h>

enum opstats_counter {
	OPSTATS_ANSWERED,   /* answers Discord accepted whole (callback and follow-ups) */
	OPSTATS_SHED,       /* interactions not answered: too late for Discord's 3 s */
	OPSTATS_FAILED,     /* answers whose callback or a follow-up failed */
	OPSTATS_DEFERRED,   /* deferrals Discord accepted (the answer came later, as an edit) */
	OPSTATS_RESUMES,    /* gateway RESUMEs sent */
	OPSTATS_IDENTIFIES, /* gateway IDENTIFYs sent */
	OPSTATS_REST_429,   /* REST answers 429 */
	OPSTATS_REST_5XX,   /* REST answers 500-599 */
	OPSTATS_COUNTERS
};

struct discord_opstats_times {
	uint64_t n;                      /* handling times in the interval */
	uint64_t p50_us, p99_us, max_us; /* 0 when n is 0 */
};

void discord_opstats_add(enum opstats_counter c);
uint64_t discord_opstats_get(enum opstats_counter c);
/* One handling time, in nanoseconds. */
void discord_opstats_time(uint64_t ns);
/* The handling times of the current interval (the interval goes on). */
void discord_opstats_times(struct discord_opstats_times *out);

/*
 * Writes the stats line into buf (NUL-terminated, cut to fit) and starts a
 * new interval of handling times. Returns the length it needed, as
 * snprintf does.
 */
int discord_opstats_line(char *buf, size_t len);

/* Zeroes everything (tests). */
void discord_opstats_reset(void);

#endif
