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
	OPSTATS_ANSWERED,       /* answers Discord accepted whole (callback and follow-ups) */
	OPSTATS_SHED,           /* interactions not answered: too late for Discord's 3 s */
	OPSTATS_FAILED,         /* answers whose callback or a follow-up failed */
	OPSTATS_DEFERRED,       /* deferrals Discord accepted (the answer came later, as an edit) */
	OPSTATS_RESUMES,        /* gateway RESUMEs sent */
	OPSTATS_IDENTIFIES,     /* gateway IDENTIFYs sent */
	OPSTATS_REST_429,       /* REST answers 429 */
	OPSTATS_REST_5XX,       /* REST answers 500-599 */
	OPSTATS_REST_SHED,      /* REST requests not sent: too many invalid requests */
	OPSTATS_ELSEWHERE,      /* interactions another process of the fleet handled first:
	                           left for it to answer */
	OPSTATS_CALLBACKS_OWN,  /* answers to interaction callbacks read on discord_rest_h1's
	                           connections (each try: a 429 and its retry are two) */
	OPSTATS_CALLBACKS_CURL, /* and those read through libcurl */
	OPSTATS_COUNTERS
};

struct discord_opstats_times {
	uint64_t n;                      /* handling times in the interval */
	uint64_t p50_us, p99_us, max_us; /* 0 when n is 0 */
};

/* Discord bans an IP that makes 10,000 invalid requests (answers 401, 403
 * or 429) in 10 minutes. These count them, process-wide since the limit is
 * the IP's, over a sliding 10 minutes in steps of 10 seconds; now_ms is any
 * clock that never goes back (the loop's), the same for every call. */
#define DISCORD_INVALID_WINDOW_MS (10 * 60 * 1000)
/* An answer Discord counts as an invalid request came at now_ms. */
void discord_opstats_invalid(int64_t now_ms);
/* The invalid requests counted in the 10 minutes before now_ms. */
uint64_t discord_opstats_invalid_recent(int64_t now_ms);

void discord_opstats_add(enum opstats_counter c);
uint64_t discord_opstats_get(enum opstats_counter c);
/* One handling time, in nanoseconds. */
void discord_opstats_time(uint64_t ns);
/* The handling times of the current interval (the interval goes on). */
void discord_opstats_times(struct discord_opstats_times *out);

/*
 * Writes the stats line into buf (NUL-terminated, cut to fit) and starts a
 * new interval of handling times; now_ms dates the invalid requests' count.
 * Returns the length it needed, as snprintf does.
 */
int discord_opstats_line(char *buf, size_t len, int64_t now_ms);

/* Zeroes everything (tests). */
void discord_opstats_reset(void);

#endif
