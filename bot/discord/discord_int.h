/*
 * discord_int: the inside of struct discord, shared by discord.c (the
 * transport's pieces wired together: events, the shards, start and stop),
 * discord_shard.c (one shard's gateway connection and session file),
 * discord_answer.c (answers on their way out, deferrals, the shed/failed
 * summary), discord_answer_gm.c (an answer's message to the GM),
 * discord_answer_late.c (replays too late to answer), discord_live.c (the
 * live panels), discord_register.c (the command registration) and
 * discord_count.c (the shard count, and starting the shards). Nothing else
 * includes it.
 */
#ifndef DELVER_DISCORD_INT_H
#define DELVER_DISCORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/discord/discord.h"
#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_unanswered.h"

struct rest;
struct discord_wsctx;
struct discord_shard;
struct discord_idq;
struct rng;
struct interact;
struct discord_dm;
struct shed;
struct defer;
struct discord_live;

struct discord {
	uv_loop_t *loop;
	struct rest *rest;
	struct discord_wsctx *wsctx; /* every shard's socket lives in it */
	struct discord_idq *idq;     /* identify slots, with the bot's other processes */
	/* The shards this process runs (discord_shard.h), first..last of
	 * shard_count (0 until Discord's answer, when auto). */
	struct discord_shard **shards;
	int nshards, first, last, shard_count;
	int cfg_count;   /* as configured: 0 auto */
	int recommended; /* Discord's count, from GET /gateway/bot */
	bool started;    /* the shards were made */
	char *token, *state_dir, *state_root;
	bool compress;
	struct rng *rng;
	struct dispatch *d; /* commands go on their road through it */
	struct interact *it;
	struct discord_dm *dm; /* the GMs' DM channels, by user id */
	char *app_id, *dev_guild, *gateway_url;
	char *hash_path;
	/* what was last registered, and Discord's answer when it held that */
	char stored_want[17], stored_have[17];
	bool user_install; /* [discord] user_install: commands offered to user installs too */
	bool registering;
	bool register_tried; /* this process has checked the registration */
	uint64_t intents;    /* as configured: a saved session with others is not resumed */
	uv_timer_t retry_timer, stop_timer, summary_timer, stats_timer;
	uv_timer_t late_timer; /* runs while unanswered interactions are being summed */
	struct shed *shed;
	struct defer *defer;       /* held answers, deferred when late (discord_defer) */
	struct discord_live *live; /* the live panels (discord_live.h) */
	uv_timer_t defer_timer;
	uint64_t defer_armed;                 /* the uv_hrtime() defer_timer is set for, 0: none */
	uint64_t summary_failed;              /* since the last summary */
	struct discord_unanswered unanswered; /* discord_unanswered.h */
	int64_t start_wall_ms; /* the wall clock (ms since 1970) when discord_start ran */
	/* Late replays of the resume under way checked with Discord
	 * (discord_answer_late_replay), and whether the cap was logged. */
	unsigned late_checks;
	bool late_cap_said;
	uint64_t late_unchecked; /* those past the cap in this resume */
	int failed_logged;       /* lines in this summary period */
	bool summary_due;
	int gateway_tries;
	bool stopping, stopped;
	int ready_at_stop; /* shards with a session up when the stop began */
	int64_t stop_deadline;
	int closing;  /* handles and parts still closing */
	bool ws_down; /* discord_shutdown() asked; libwebsockets goes once closing is 0 */
	void (*on_stopped)(void *);
	void *stopped_ctx;
	void (*on_fatal)(void *, int, const char *);
	void *ctx;
	bool fatal; /* a fatal condition was reported */
	struct discord_stats stats;
	bool record;
	uint64_t *lat;
	size_t nlat, caplat;
};

/* The application id: configured, else from the first READY (or the saved
 * session), else NULL. */
const char *discord_app_id(const struct discord *dc);
/* discord.c: Discord cannot go on: msg (one sentence) is logged and goes
 * with code to the on_fatal hook (discord_opts), the first time only. */
void discord_fatal_stop(struct discord *dc, int code, const char *msg);
/* discord.c: the answer to interaction id is over (sent, refused or
 * given up): its shard's resume point may move on (discord_shard.h). */
void discord_interaction_over(struct discord *dc, uint64_t id);

#endif
