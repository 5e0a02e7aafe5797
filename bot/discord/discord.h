/*
 * discord: the Discord transport, assembled.
 *
 * At start it asks GET /gateway/bot for the gateway URL, the recommended
 * shard count and the identify limits (a configured gateway_url wins over
 * the URL). The shard count is [discord] shard_count, or with auto (the
 * default) Discord's recommendation; this process runs the shards of
 * [discord] shards (all of them by default), each with its own gateway
 * session (discord_shard.h), their sockets in one libwebsockets context
 * on the loop. New sessions take identify slots from discord_idq, which
 * spaces IDENTIFYs per max_concurrency bucket and keeps the daily budget
 * with the bot's other processes (discord_ledger.h). A count Discord
 * refused (4010, 4011) is remembered there: a later start with the same
 * count, while Discord still recommends more, is refused before any
 * IDENTIFY, with the count to set.
 * On every READY after an IDENTIFY it reads the commands Discord holds for
 * its scope (GET, the dev guild's when one is configured, else the global
 * ones) and, unless they are exactly the command table
 * (discord_cmds_same), registers the table with one bulk overwrite (PUT).
 * The hashes of the table and of Discord's answer, stored in the state
 * directory once they matched, only spare the comparison. Each
 * INTERACTION_CREATE is answered through discord_interact and the REST
 * client: the callback, then the private follow-up if the reply has one.
 *
 * An answer held for the store (its change being committed, its records
 * being read) that is not ready DEFER_AFTER_MS after its interaction was
 * created is deferred: a deferral goes out in time, and the answer edits it
 * when it is ready (discord_defer.h). An interaction that can no longer be
 * answered within Discord's 3 s is
 * not answered (discord_shed.h says how that is decided): it is counted
 * as shed, and the shed and the failed answers are summed up in one
 * warning per 10 s (at most 5 failed answers a period get a line of their
 * own). Every stats_interval_ms, and on discord_log_stats(), one info line
 * gives the counters of discord_opstats.h.
 *
 * Everything runs on the caller's libuv loop. A fatal condition (a fatal
 * gateway close code, the token refused at start) is logged as one
 * sentence and reported through on_fatal, once; the caller decides to
 * stop.
 *
 * With a state directory, each shard's resume point is kept in
 * discord-session-N.json (discord_shard.h).
 *
 * Each REST answer's Date header is compared with the host's clock
 * (discord_shed.h); the stats line gives the skew, and beyond
 * SHED_SKEW_MAX_MS the deadlines count from receipt, said once in the log.
 *
 * Lifetime: discord_start() before or while the loop runs; discord_stop()
 * closes the gateway (with 4000 when the session is kept, so Discord keeps
 * it for the next start; else 1000), writes the resume point, lets answers
 * in flight finish for up to 2 s, closes its loop handles and then calls done.
 * libwebsockets is left standing until discord_shutdown(), which the daemon
 * calls only after the store has made its last commit and its snapshot and
 * joined its threads: tearing libwebsockets down closes descriptors
 * (discord_ws.h), which must not happen while another thread opens files.
 * Its handles then close by themselves. discord_free() must come after
 * uv_run() has returned (libwebsockets frees its context only then).
 */
#ifndef DELVER_DISCORD_H
#define DELVER_DISCORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/config/config.h"
#include "commands/core/dispatch.h"

struct discord;

struct discord_opts {
	const struct config_discord *cfg; /* read during discord_start() only */
	const char *gm_role;              /* [bot] gm_role, or NULL */
	const char *state_dir;            /* the registration hashes and the session, or NULL */
	const char *state_root; /* every process's state root (discord_shard.h), or NULL */
	/* The identify ledger (discord_ledger.h): on the fleet's PostgreSQL
	 * server when store_conninfo is set (store_password: NULL for libpq's
	 * own), else in $RUNTIME_DIRECTORY when set, else in ledger_dir (the
	 * state root every process of the bot shares; NULL: this process's
	 * memory only). */
	const char *store_conninfo, *store_password, *ledger_dir;
	struct dispatch *d;
	/* Discord cannot go on: code is the gateway's fatal close code (4004,
	 * 4010 to 4014: a configuration Discord refuses, so starting again as
	 * it is cannot help), the HTTP status 401 (the token refused on REST),
	 * or 0 when a restart may mend it (a count Discord recommended a moment
	 * ago and now refuses: the next start takes its new count); msg is one
	 * sentence, already logged. */
	void (*on_fatal)(void *ctx, int code, const char *msg);
	void *ctx;
	/* Keep each interaction's frame-to-callback time (benchmarks). */
	bool record_latency;
	uint64_t stats_interval_ms; /* the stats line this often; 0: never */
};

struct discord_stats {
	uint64_t interactions; /* answers attempted */
	uint64_t answered;     /* callbacks Discord accepted */
	uint64_t failed;       /* callbacks that failed */
	uint64_t shed; /* not answered: too late (those shed on arrival are not in interactions) */
	uint64_t deferred; /* deferrals Discord accepted (the answer edits them) */
	uint64_t followups;
	uint64_t dms; /* direct messages to a GM (secret rolls) Discord accepted */
	uint64_t registrations;
	uint64_t panel_edits;            /* edits of live panels sent (discord_live.h) */
	uint64_t replayed;               /* replays checked with Discord before answering */
	uint64_t replayed_answered;      /* of those, answered by an earlier process */
	uint64_t replayed_unknown;       /* late replays past a resume's cap, not checked */
	uint64_t replayed_autocompletes; /* autocompletes replayed too late: dropped, not checked */
};

struct app;

/* Returns NULL (and logs why) when the transport cannot start. */
struct discord *discord_start(uv_loop_t *loop, const struct discord_opts *o);
void discord_stop(struct discord *dc, void (*done)(void *ctx), void *ctx);
/* Starts tearing libwebsockets down: at once when discord_stop() is over,
 * else when it is. */
void discord_shutdown(struct discord *dc);
void discord_free(struct discord *dc);

/* Uses another GM role name (or id) from now on (a reload). */
void discord_set_gm_role(struct discord *dc, const char *gm_role);

/* NULL while the transport makes progress, else one sentence in why
 * (discord_gw_stalled() of its gateway session); for the systemd watchdog. */
const char *discord_stalled(struct discord *dc, char *why, size_t len);

const struct discord_stats *discord_stats(const struct discord *dc);
/* Logs the stats line (discord_opstats.h) at info. */
void discord_log_stats(struct discord *dc);
/* With record_latency: the frame-received to callback-sent times in
 * nanoseconds, in the order the callbacks went out. */
const uint64_t *discord_latencies(const struct discord *dc, size_t *n);
void discord_latencies_reset(struct discord *dc);
/* The first shard's gateway session (NULL before Discord's answer at
 * start), for tests and benchmarks. */
struct discord_gw *discord_gateway(struct discord *dc);
/* The shards this process runs (0 before Discord's answer), and the i-th
 * one's session. */
int discord_shard_count(const struct discord *dc);
struct discord_gw *discord_gateway_of(struct discord *dc, int i);

#endif
