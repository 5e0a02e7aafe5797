/* backoff: exponential reconnect delays with jitter; see backoff.h. */
#include "bot/backoff.h"

int64_t
backoff_step(const struct backoff *b, int attempt)
{
	int64_t step = b->min_ms;

	for (int i = 0; i < attempt && step < b->max_ms; i++)
		step *= 2;
	return step > b->max_ms ? b->max_ms : step;
}

int64_t
backoff_delay(const struct backoff *b, int attempt, uint64_t rnd)
{
	int64_t step = backoff_step(b, attempt);

	return step / 2 + (int64_t)(rnd % (uint64_t)(step / 2 + 1));
}
