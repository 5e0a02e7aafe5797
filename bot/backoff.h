/*
 * backoff: the wait before a transport's next connection attempt, shared by
 * the Discord gateway and IRC. Exponential with jitter: the step doubles
 * from min_ms with each failed attempt up to max_ms, and the delay is half
 * the step plus up to another half, chosen by a random value the caller
 * draws (so that the computation is pure and tests give exact values).
 *
 * Nothing here allocates, blocks or reads a clock.
 */
#ifndef DELVER_BACKOFF_H
#define DELVER_BACKOFF_H

#include <stdint.h>

struct backoff {
	int64_t min_ms; /* the first step (> 0) */
	int64_t max_ms; /* the longest step (>= min_ms) */
};

/* The step of attempt number `attempt` (0 for the first retry after a
 * failure): min_ms * 2^attempt, at most max_ms. */
int64_t backoff_step(const struct backoff *b, int attempt);

/* The delay before that attempt: step / 2 + (rnd mod (step / 2 + 1)), so in
 * [step / 2, step]. rnd is any uniformly drawn 64-bit value. */
int64_t backoff_delay(const struct backoff *b, int attempt, uint64_t rnd);

#endif
