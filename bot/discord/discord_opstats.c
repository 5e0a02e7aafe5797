/* discord_opstats: counters and handling times; see discord_opstats.h. */
#include "bot/discord/discord_opstats.h"

#include <stdio.h>
#include <string.h>

#define SUB     8  /* buckets per power of two */
#define MAJORS  38 /* up to 2^40 us: any time at all */
#define BUCKETS (MAJORS * SUB)
#define STEP_MS 10000 /* the invalid requests' window moves in steps this long */
#define STEPS   (DISCORD_INVALID_WINDOW_MS / STEP_MS)

static struct {
	uint64_t count[OPSTATS_COUNTERS];
	uint32_t hist[BUCKETS];
	uint64_t n, max_us;
	/* Invalid requests per step of the window: a ring indexed by the
	 * step's number modulo STEPS, each slot naming its step (+1: 0 is a
	 * slot never used). */
	struct {
		int64_t step;
		uint64_t n;
	} invalid[STEPS];
	int64_t invalid_last; /* the step of the newest invalid request; 0: none yet */
} S;

void
discord_opstats_invalid(int64_t now_ms)
{
	int64_t step = now_ms / STEP_MS + 1;
	size_t k = (size_t)(step % STEPS);

	if (S.invalid[k].step != step) {
		S.invalid[k].step = step;
		S.invalid[k].n = 0;
	}
	S.invalid[k].n++;
	S.invalid_last = step;
}

uint64_t
discord_opstats_invalid_recent(int64_t now_ms)
{
	int64_t step = now_ms / STEP_MS + 1;
	uint64_t n = 0;

	/* Asked before every request: with none in the window (the usual
	 * case), no walk over it. */
	if (S.invalid_last == 0 || S.invalid_last <= step - STEPS)
		return 0;
	/* The current step and the STEPS - 1 before it: between 9 min 50 s
	 * and 10 minutes of answers. */
	for (size_t k = 0; k < STEPS; k++)
		if (S.invalid[k].step > step - STEPS && S.invalid[k].step <= step)
			n += S.invalid[k].n;
	return n;
}

/* Values below 16 us have a bucket each; above, a power of two is split
 * into SUB equal buckets. */
static unsigned
bucket_of(uint64_t us)
{
	unsigned msb, i;

	if (us < 2 * SUB)
		return (unsigned)us;
	msb = 63u - (unsigned)__builtin_clzll(us);
	i = (msb - 2) * SUB + (unsigned)((us >> (msb - 3)) & (SUB - 1));
	return i < BUCKETS ? i : BUCKETS - 1;
}

/* The largest value bucket i holds. */
static uint64_t
bucket_top(unsigned i)
{
	unsigned msb, sub;

	if (i < 2 * SUB)
		return i;
	msb = i / SUB + 2;
	sub = i % SUB;
	return (((uint64_t)(SUB + sub) + 1) << (msb - 3)) - 1;
}

void
discord_opstats_add(enum opstats_counter c)
{
	S.count[c]++;
}

uint64_t
discord_opstats_get(enum opstats_counter c)
{
	return S.count[c];
}

void
discord_opstats_time(uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned b = bucket_of(us);

	if (S.hist[b] < UINT32_MAX)
		S.hist[b]++;
	S.n++;
	if (us > S.max_us)
		S.max_us = us;
}

/* The smallest bucket top under which at least rank values lie. */
static uint64_t
rank_value(uint64_t rank)
{
	uint64_t seen = 0;

	for (unsigned i = 0; i < BUCKETS; i++) {
		seen += S.hist[i];
		if (seen >= rank)
			return bucket_top(i) < S.max_us ? bucket_top(i) : S.max_us;
	}
	return S.max_us;
}

void
discord_opstats_times(struct discord_opstats_times *out)
{
	memset(out, 0, sizeof(*out));
	out->n = S.n;
	if (S.n == 0)
		return;
	/* The nearest-rank percentiles: ceil(p * n / 100). */
	out->p50_us = rank_value((S.n * 50 + 99) / 100);
	out->p99_us = rank_value((S.n * 99 + 99) / 100);
	out->max_us = S.max_us;
}

int
discord_opstats_line(char *buf, size_t len, int64_t now_ms)
{
	struct discord_opstats_times t;
	char elsewhere[64] = "";
	int r;

	discord_opstats_times(&t);
	/* Only a fleet whose shards overlap has any (delver(8), SHARDING). */
	if (S.count[OPSTATS_ELSEWHERE] > 0)
		snprintf(elsewhere, sizeof(elsewhere), ", handled by another process %llu",
		         (unsigned long long)S.count[OPSTATS_ELSEWHERE]);
	r = snprintf(buf, len,
	             "discord stats: interactions answered %llu, shed %llu, failed %llu%s; "
	             "deferred %llu; gateway resumes %llu, identifies %llu; REST 429s %llu, "
	             "5xx %llu, invalid in the last 10 min %llu, shed %llu; callbacks answered on "
	             "own connections %llu, through libcurl %llu; handling time over %llu "
	             "interactions since the last line: p50 %llu us, "
	             "p99 %llu us, max %llu us",
	             (unsigned long long)S.count[OPSTATS_ANSWERED],
	             (unsigned long long)S.count[OPSTATS_SHED],
	             (unsigned long long)S.count[OPSTATS_FAILED], elsewhere,
	             (unsigned long long)S.count[OPSTATS_DEFERRED],
	             (unsigned long long)S.count[OPSTATS_RESUMES],
	             (unsigned long long)S.count[OPSTATS_IDENTIFIES],
	             (unsigned long long)S.count[OPSTATS_REST_429],
	             (unsigned long long)S.count[OPSTATS_REST_5XX],
	             (unsigned long long)discord_opstats_invalid_recent(now_ms),
	             (unsigned long long)S.count[OPSTATS_REST_SHED],
	             (unsigned long long)S.count[OPSTATS_CALLBACKS_OWN],
	             (unsigned long long)S.count[OPSTATS_CALLBACKS_CURL], (unsigned long long)t.n,
	             (unsigned long long)t.p50_us, (unsigned long long)t.p99_us,
	             (unsigned long long)t.max_us);
	memset(S.hist, 0, sizeof(S.hist));
	S.n = S.max_us = 0;
	return r;
}

void
discord_opstats_reset(void)
{
	memset(&S, 0, sizeof(S));
}
