/*
 * discord_idq: when this process's shards may IDENTIFY.
 *
 * Discord lets a bot start max_concurrency sessions per 5 s: shard s is in
 * bucket s % max_concurrency, and each bucket takes one IDENTIFY per 5 s; a
 * sooner one is answered with op 9 and wasted. Starts also come out of a
 * daily budget (session_start_limit) that all shards of the bot share, and
 * overrunning it ends every session and resets the token. The processes of
 * one bot agree on both through a ledger (discord_ledger.h: a file under a
 * lock on one machine, a table on the fleet's PostgreSQL server).
 *
 * A shard that needs a new session asks for a slot (discord_idq_want) and
 * is granted it when its bucket is free: no IDENTIFY in it for the
 * spacing, which is what Discord says (session_start_limit's
 * identify_interval_ms when present, else 5000 ms) plus a tenth for the
 * trip, and no slot of another process's outstanding in it (a lease of
 * DISCORD_GW_SLOT_LEASE ms; the bucket is asked for again each
 * LEDGER_HELD_POLL_MS meanwhile, so that the wait after that process's
 * IDENTIFY is the spacing). Within a bucket the lowest of this process's
 * shards goes first, so the buckets start in order, as Discord asks. Why
 * a shard waits is logged at debug. A slot is used
 * (discord_idq_sent: the IDENTIFY was written) or given back
 * (discord_idq_unused).
 *
 * The budget: while the budget has no more than a hundredth of its total
 * left (at least 1), no slot is granted. That is said once, with the time
 * Discord resets it; then the refetch hook asks Discord for the new
 * numbers (GET /gateway/bot, whose answer comes back through
 * discord_idq_limits) and slots are granted again.
 *
 * Every ledger operation runs on libuv's pool, one at a time, in the order
 * asked; completions and grants run on the loop, never inside the call
 * that asked. A ledger that cannot be read or written is logged (once per
 * failure streak) and retried each second; slots wait meanwhile.
 */
#ifndef DELVER_DISCORD_IDQ_H
#define DELVER_DISCORD_IDQ_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#include "bot/discord/discord_ledger.h"

#define DISCORD_IDQ_INTERVAL 5000 /* ms between IDENTIFYs of a bucket, as documented */

struct discord_idq;

struct discord_idq_opts {
	uv_loop_t *loop;
	struct ledger_backend *ledger; /* taken: closed with the queue */
	/* The budget's reset has come: ask Discord for its numbers again. */
	void (*refetch)(void *ctx);
	void *ctx;
};

struct discord_idq *discord_idq_new(const struct discord_idq_opts *o);

/* Discord's session_start_limit, just read, and the spacing it asks for
 * (0: DISCORD_IDQ_INTERVAL); done(ctx, res) once the ledger holds them,
 * with the refusal on record (res->refused_*; res->status -1 when the
 * ledger failed). Slots are granted only after the first call. */
void discord_idq_limits(struct discord_idq *q, int total, int remaining, int64_t reset_after,
                        int max_concurrency, int64_t interval,
                        void (*done)(void *ctx, const struct ledger_result *res), void *ctx);

/* Shard wants a slot: grant(ctx) runs once, later. Asking again replaces
 * the earlier ask. */
void discord_idq_want(struct discord_idq *q, int shard, void (*grant)(void *ctx), void *ctx);
/* The shard no longer wants one (it stopped). */
void discord_idq_cancel(struct discord_idq *q, int shard);
/* The shard wrote its IDENTIFY / gave its slot back unused. */
void discord_idq_sent(struct discord_idq *q, int shard);
void discord_idq_unused(struct discord_idq *q, int shard);
/* Discord refused count shards with code (4010, 4011) when it recommended
 * recommended: kept for the next start. */
void discord_idq_refused(struct discord_idq *q, int count, int code, int recommended);

/* Whether a ledger operation is queued or running. */
bool discord_idq_busy(const struct discord_idq *q);
/* Where the ledger is, for log lines. */
const char *discord_idq_where(const struct discord_idq *q);
/* Shards waiting for a slot. */
int discord_idq_waiting(const struct discord_idq *q);
/* The budget as the ledger last said (total 0: not known yet). */
void discord_idq_budget(const struct discord_idq *q, int *total, int *remaining);

/* Finishes the operation running (the others are dropped), closes the
 * timer and the ledger, frees q, then calls done. */
void discord_idq_close(struct discord_idq *q, void (*done)(void *ctx), void *ctx);

#endif
