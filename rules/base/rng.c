/*
 * rng: xoshiro256** with Lemire's unbiased bounded draws.
 * See rng.h for the contract.
 */
#include "rules/base/mem.h"
#include "rules/base/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

struct rng {
	uint64_t s[4];
	uint64_t draws;
};

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64 expands one seed word into the four state words, as the
 * xoshiro authors recommend; it never yields an all-zero state. */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	r->draws = 0;
}

struct rng *
rng_new_seeded(uint64_t seed)
{
	struct rng *r = xmalloc(sizeof(*r));

	rng_seed(r, seed);
	return r;
}

struct rng *
rng_new(void)
{
	struct rng *r = xmalloc(sizeof(*r));
	unsigned char *p;
	size_t got = 0;

	p = (unsigned char *)r->s;
	while (got < sizeof(r->s)) {
		ssize_t n = getrandom(p + got, sizeof(r->s) - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(r);
			return NULL;
		}
		got += (size_t)n;
	}
	if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
		r->s[0] = 1; /* the one state xoshiro cannot leave */
	r->draws = 0;
	return r;
}

void
rng_free(struct rng *r)
{
	free(r);
}

uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/*
 * Lemire, "Fast Random Integer Generation in an Interval" (2019): the high
 * word of x * bound is uniform once the low word's short range is rejected.
 */
uint64_t
rng_below(struct rng *r, uint64_t bound)
{
	unsigned __int128 m;
	uint64_t low;

	if (bound == 0)
		return 0;
	r->draws++;
	m = (unsigned __int128)rng_next(r) * bound;
	low = (uint64_t)m;
	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * bound;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

int64_t
rng_die(struct rng *r, int64_t sides)
{
	if (sides <= 1)
		return 1;
	return 1 + (int64_t)rng_below(r, (uint64_t)sides);
}

uint64_t
rng_draws(const struct rng *r)
{
	return r->draws;
}
