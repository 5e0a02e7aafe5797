/*
 * discord_budget: a sliding-window send budget (at most N sends in any
 * window of W ms), without I/O or a clock of its own.
 *
 * The gateway allows 120 payloads per 60 s per connection (discord_gw keeps
 * 5 of them for heartbeats by asking with a lower limit for other frames).
 * The budget remembers the times of the last N sends; discord_budget_allows_at()
 * says from when one more send keeps at most limit of them in a window. The
 * answer depends only on the sends recorded, never on the clock, so a time
 * already past means "now" and no caller can arm a timer in the past from it
 * by mistake (the spin of issue 12).
 */
#ifndef DELVER_DISCORD_BUDGET_H
#define DELVER_DISCORD_BUDGET_H

#include <stddef.h>
#include <stdint.h>

struct budget;

/* A budget of size sends per window_ms (size >= 1, window_ms >= 1); the
 * caller frees it with discord_budget_free(). */
struct budget *discord_budget_new(size_t size, int64_t window_ms);
void discord_budget_free(struct budget *b);
/* Forgets every send (a new connection has a whole budget). */
void discord_budget_reset(struct budget *b);
/* Records a send at now. */
void discord_budget_spend(struct budget *b, int64_t now);
/* From when a send keeps at most limit (1..size) sends in any window: with
 * the kept sends s_1 <= ... <= s_n, s_(n - limit + 1) + window, or
 * INT64_MIN when fewer than limit sends are kept (any time). */
int64_t discord_budget_allows_at(const struct budget *b, size_t limit);

#endif
