/* discord_shed: interaction deadlines; see discord_shed.h. */
#include "bot/discord/discord_shed.h"

#include <stdbool.h>
#include <stdlib.h>

#include "rules/base/mem.h"

struct shed {
	/* The smallest offset of the current period and of the one before. */
	int64_t min_cur, min_prev;
	bool have_cur, have_prev;
	uint64_t period_start; /* ns */
	bool started;
};

struct shed *
discord_shed_new(void)
{
	return xcalloc(1, sizeof(struct shed));
}

void
discord_shed_free(struct shed *s)
{
	free(s);
}

int64_t
discord_shed_skew_ms(const struct shed *s)
{
	int64_t skew;

	if (!s->have_cur && !s->have_prev)
		return 0;
	if (!s->have_prev)
		skew = s->min_cur;
	else if (!s->have_cur)
		skew = s->min_prev;
	else
		skew = s->min_cur < s->min_prev ? s->min_cur : s->min_prev;
	return skew > SHED_SKEW_MAX_MS ? SHED_SKEW_MAX_MS : skew;
}

uint64_t
discord_shed_deadline(struct shed *s, uint64_t id, int64_t wall_ms, uint64_t rx_ns)
{
	int64_t created = (int64_t)(id >> 22) + SHED_DISCORD_EPOCH_MS;
	int64_t offset = wall_ms - created, age, left;

	if (!s->started) {
		s->started = true;
		s->period_start = rx_ns;
	} else if (rx_ns - s->period_start >= SHED_SKEW_SPAN) {
		/* A new period; a gap of two periods forgets both. */
		bool gap = rx_ns - s->period_start >= 2 * SHED_SKEW_SPAN;

		s->min_prev = s->min_cur;
		s->have_prev = s->have_cur && !gap;
		s->have_cur = false;
		s->period_start = rx_ns;
	}
	if (!s->have_cur || offset < s->min_cur)
		s->min_cur = offset;
	s->have_cur = true;
	age = offset - discord_shed_skew_ms(s);
	if (age < 0)
		age = 0;
	left = SHED_WINDOW_MS - SHED_MARGIN_MS - age;
	if (left <= 0)
		return rx_ns; /* already due: too late */
	return rx_ns + (uint64_t)left * 1000000u;
}
