/* discord_budget: a sliding-window send budget (see discord_budget.h). */
#include "bot/discord/discord_budget.h"

#include <stdlib.h>

#include "rules/base/mem.h"

#define NONE (INT64_MIN / 2) /* a slot with no send */

struct budget {
	int64_t window;
	size_t size, next;
	int64_t *sent; /* ring of the last size send times */
	int64_t *kept; /* scratch for discord_budget_allows_at() */
};

struct budget *
discord_budget_new(size_t size, int64_t window_ms)
{
	struct budget *b = xcalloc(1, sizeof(*b));

	b->size = size > 0 ? size : 1;
	b->window = window_ms > 0 ? window_ms : 1;
	b->sent = xcalloc(b->size, sizeof(*b->sent));
	b->kept = xcalloc(b->size, sizeof(*b->kept));
	discord_budget_reset(b);
	return b;
}

void
discord_budget_free(struct budget *b)
{
	if (b == NULL)
		return;
	free(b->sent);
	free(b->kept);
	free(b);
}

void
discord_budget_reset(struct budget *b)
{
	b->next = 0;
	for (size_t i = 0; i < b->size; i++)
		b->sent[i] = NONE;
}

void
discord_budget_spend(struct budget *b, int64_t now)
{
	b->sent[b->next] = now;
	b->next = (b->next + 1) % b->size;
}

int64_t
discord_budget_allows_at(const struct budget *b, size_t limit)
{
	int64_t *kept = b->kept;
	size_t n = 0;

	if (limit == 0 || limit > b->size)
		limit = b->size;
	for (size_t i = 0; i < b->size; i++)
		if (b->sent[i] > NONE)
			kept[n++] = b->sent[i];
	if (n < limit)
		return INT64_MIN;
	/* The (n - limit + 1)-th smallest: a partial selection sort is enough
	 * for at most a few hundred entries, a few times a minute. */
	for (size_t i = 0; i <= n - limit; i++) {
		size_t m = i;

		for (size_t j = i + 1; j < n; j++)
			if (kept[j] < kept[m])
				m = j;
		if (m != i) {
			int64_t t = kept[i];

			kept[i] = kept[m];
			kept[m] = t;
		}
	}
	return kept[n - limit] + b->window;
}
