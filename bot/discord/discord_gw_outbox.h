/*
 * discord_gw_outbox: the frames one gateway connection has yet to send,
 * and the send budget they go within (DISCORD_GW_BUDGET frames per
 * DISCORD_GW_BUDGET_WINDOW ms, discord_budget), for discord_gw.
 *
 * Heartbeats go first and may use the whole budget; other frames go in
 * the order they were queued, within DISCORD_GW_BUDGET_OTHER, so that a
 * heartbeat always finds room. At most one heartbeat waits: a later one
 * only replaces its text (discord_gw_outbox_heartbeat). Times are ms on
 * the caller's monotonic clock. No I/O; the frames' texts are the
 * outbox's until taken.
 */
#ifndef DELVER_DISCORD_GW_OUTBOX_H
#define DELVER_DISCORD_GW_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct discord_gw_outbox;

struct discord_gw_outbox *discord_gw_outbox_new(void);
void discord_gw_outbox_free(struct discord_gw_outbox *o);

/* Forgets every frame waiting; with budget, the sends counted too (a new
 * connection starts with the whole budget). */
void discord_gw_outbox_clear(struct discord_gw_outbox *o, bool budget);

/* Queues text (taken; freed at once, and a warning logged, when the
 * outbox is full, which a few frames a minute never make it) as queued at
 * now. Returns whether it was queued. */
bool discord_gw_outbox_push(struct discord_gw_outbox *o, char *text, bool heartbeat, bool identify,
                            int64_t now);

/* When a heartbeat waits already, its text becomes a copy of s (the
 * newer sequence number) and true is returned; else false. */
bool discord_gw_outbox_heartbeat(struct discord_gw_outbox *o, const char *s);

/* How many frames wait. */
size_t discord_gw_outbox_count(const struct discord_gw_outbox *o);

/* The frame that may go at now (an index below the count), or SIZE_MAX. */
size_t discord_gw_outbox_pick(const struct discord_gw_outbox *o, int64_t now);

/* The heartbeat waiting (its index), or SIZE_MAX. */
size_t discord_gw_outbox_heartbeat_index(const struct discord_gw_outbox *o);

/* When frame i was queued. */
int64_t discord_gw_outbox_queued_at(const struct discord_gw_outbox *o, size_t i);

/* When the budget next lets a waiting frame go, if none may go at now;
 * else INT64_MAX (nothing waits, or a frame may go now). */
int64_t discord_gw_outbox_wakeup(const struct discord_gw_outbox *o, int64_t now);

/* Takes frame i (a pick) as sent at now: its text (the caller's, to
 * free), its length in *len, and whether it is a heartbeat or an
 * IDENTIFY; the send is counted against the budget. */
char *discord_gw_outbox_take(struct discord_gw_outbox *o, size_t i, int64_t now, size_t *len,
                             bool *heartbeat, bool *identify);

#endif
