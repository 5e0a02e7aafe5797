/*
 * rng: the bot's one source of randomness.
 *
 * xoshiro256** (Blackman and Vigna), seeded from getrandom() in production
 * and from a 64-bit seed (expanded with splitmix64) in tests. Bounded draws
 * use Lemire's multiply-and-reject method, so every face of every die is
 * exactly equally likely: there is no modulo bias at any bound.
 *
 * Every rule in rules/ takes a struct rng * argument and never reaches for
 * randomness elsewhere, which is what makes the rules testable with exact
 * expectations.
 */
#ifndef DELVER_RNG_H
#define DELVER_RNG_H

#include <stdint.h>

struct rng;

/* Returns a generator seeded from the kernel (getrandom), or NULL when the
 * kernel refused. Memory follows mem.h's policy. The caller frees it with
 * rng_free(). */
struct rng *rng_new(void);

/* Returns a generator whose whole sequence is fixed by seed (for tests and
 * benchmarks); never NULL (mem.h's policy). */
struct rng *rng_new_seeded(uint64_t seed);

/* Reseeds an existing generator as rng_new_seeded(seed) would. */
void rng_seed(struct rng *r, uint64_t seed);

void rng_free(struct rng *r);

/* The next raw 64-bit output. */
uint64_t rng_next(struct rng *r);

/* A uniform integer in [0, bound). bound must be at least 1 (0 is a
 * programmer error and returns 0). Unbiased for every bound. */
uint64_t rng_below(struct rng *r, uint64_t bound);

/* One roll of a die with sides faces: 1..sides (sides >= 1). */
int64_t rng_die(struct rng *r, int64_t sides);

/* How many bounded draws (rng_below and everything built on it) this
 * generator has made; lets tests and limits count dice actually rolled. */
uint64_t rng_draws(const struct rng *r);

#endif
