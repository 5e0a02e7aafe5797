/* discord: the transport's pieces wired together; see discord.h. */
#include "bot/discord/discord.h"
#include "bot/discord/discord_int.h"
#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_answer_gm.h"
#include "bot/discord/discord_answer_late.h"
#include "bot/discord/discord_burst.h"
#include "bot/discord/discord_pending.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot/discord/discord_cmds.h"
#include "bot/discord/discord_count.h"
#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_dm.h"
#include "bot/discord/discord_gw.h"
#include "bot/discord/discord_idq.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_live.h"
#include "bot/discord/discord_ledger_pg.h"
#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_register.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_shard.h"
#include "bot/discord/discord_shed.h"
#include "bot/discord/discord_ws.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"

#define STOP_GRACE 2000 /* ms answers in flight may take at shutdown */

void
discord_fatal_stop(struct discord *dc, int code, const char *msg)
{
	if (dc->fatal)
		return;
	dc->fatal = true;
	log_error("discord: %s", msg);
	if (dc->on_fatal != NULL)
		dc->on_fatal(dc->ctx, code, msg);
}

/* The wall clock in ms since the epoch. */
static int64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *
discord_app_id(const struct discord *dc)
{
	if (dc->app_id != NULL)
		return dc->app_id;
	for (int i = 0; i < dc->nshards; i++) {
		const char *app = discord_gw_application_id(discord_shard_gw(dc->shards[i]));

		if (app != NULL)
			return app;
	}
	return NULL;
}

/*
 * The deadline of the interaction d, whose frame came at rx_ns (see
 * discord_shed.h; replayed: between RESUME and RESUMED), or 0 when its id
 * is not a snowflake (interact drops it).
 */
static uint64_t
deadline_of(struct discord *dc, const cJSON *d, uint64_t rx_ns, bool replayed)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "id"));
	uint64_t now = uv_hrtime(), n;
	int64_t wall;
	enum shed_from from = !replayed                             ? SHED_LIVE
	                      : discord_interact_is_autocomplete(d) ? SHED_REPLAY_AT_ONCE
	                                                            : SHED_REPLAY;

	if (id == NULL || *id < '1' || *id > '9' || !discord_json_snowflake(id, &n))
		return 0;
	wall = wall_ms() - (int64_t)((now - rx_ns) / 1000000u); /* the wall clock at rx_ns */
	return discord_shed_deadline(dc->shed, n, wall, rx_ns, from);
}

/* A clock check's answer: its Date went to on_rest_date already. */
static void
on_clock_check(void *ctx, const struct rest_result *res)
{
	(void)ctx;
	(void)res;
}

/* Asks Discord for its clock when the shed wants it (discord_shed.h):
 * GET /gateway/bot, the cheapest call every bot may make. */
static void
check_clock(struct discord *dc)
{
	if (discord_shed_probe(dc->shed) && dc->rest != NULL && !dc->stopping)
		discord_rest_call(dc->rest, "GET", "/gateway/bot", NULL, REST_OPTIONAL,
		                  on_clock_check, dc);
}

void
discord_on_shard_event(struct discord *dc, struct discord_shard *s, const char *t, const cJSON *d)
{
	struct interact_out out = {0};
	struct request *req;
	uint64_t rx_ns = discord_shard_rx_ns(s), deadline = 0, send_ns = 0;
	int rc;

	/* The commands are checked once a process, by its first shard. */
	if (s == dc->shards[0] &&
	    (strcmp(t, "READY") == 0 || (strcmp(t, "RESUMED") == 0 && !dc->register_tried)))
		discord_register_commands(dc);
	discord_shard_touch(s); /* the resume point changed */
	if (strcmp(t, "RESUMED") == 0 || strcmp(t, "READY") == 0)
		discord_answer_late_over(dc);
	if (strcmp(t, "RESUMED") == 0)
		discord_burst_resumed(dc, s);
	if (strcmp(t, "INTERACTION_CREATE") == 0 &&
	    (deadline =
	         deadline_of(dc, d, rx_ns,
	                     discord_gw_state(discord_shard_gw(s)) == DISCORD_GW_RESUMING)) != 0) {
		check_clock(dc);
		/* When its answer could go out: now, or later behind a backlog of
		 * answers still waiting to go out (overload). Too late then: it is
		 * shed before it is worked out, so it costs no work and touches
		 * no channel. */
		send_ns = uv_hrtime();
		if (dc->rest != NULL)
			send_ns += discord_rest_backlog_ns(dc->rest, send_ns);
	}
	rc = discord_interact_event(dc->it, t, d, (int64_t)time(NULL), &out, &req, rx_ns, deadline,
	                            send_ns);
	if (rc == INTERACT_SHED) {
		/* Not even worked out: too late already. A replay may be one an
		 * earlier process answered: Discord says which. */
		if (discord_gw_state(discord_shard_gw(s)) == DISCORD_GW_RESUMING)
			discord_answer_late_replay(dc, s, d);
		else
			discord_unanswered_count(dc, DISCORD_UNANSWERED_SHED, 0);
	} else if (rc == INTERACT_ANSWER && dc->rest != NULL) {
		discord_answer_now(dc, &out);
	} else if (rc == INTERACT_REQUEST) {
		/* Between RESUME and RESUMED, Discord replays the events after
		 * the sequence named: this process or one before it may have
		 * handled them (exactly once: request.h). */
		bool replayed = discord_gw_state(discord_shard_gw(s)) == DISCORD_GW_RESUMING;
		uint64_t idn = out.idn; /* interaction() read and checked it */

		if (replayed) {
			request_set_replayed(req);
			discord_burst_run(s, idn);
		}
		discord_shard_interaction(s, idn);
		/* The command's road (commands/core/request.h); its answer
		 * comes to discord_answer_request. A replay is not deferred:
		 * the earlier process may have answered or deferred it, and a
		 * second callback is refused; its answer asks Discord first. */
		dispatch_submit(dc->d, req);
		if (!replayed)
			discord_answer_hold(dc, &out, req);
	}
	discord_interact_out_clear(&out);
}

void
discord_on_shard_fatal(struct discord *dc, struct discord_shard *s, int code, const char *msg)
{
	char line[512];

	if (code == DISCORD_CLOSE_SHARDING_REQUIRED || code == DISCORD_CLOSE_INVALID_SHARD) {
		/* Kept for the next start, which then refuses the same count
		 * before it spends an IDENTIFY. */
		discord_idq_refused(dc->idq, dc->shard_count, code, dc->recommended);
		discord_count_refusal(dc, code, line, sizeof(line));
		discord_fatal_stop(dc, dc->cfg_count != 0 ? code : 0, line);
		return;
	}
	if (dc->nshards > 1) {
		/* which of the connections Discord closed */
		snprintf(line, sizeof(line), "%s (shard %d)", msg, discord_shard_id(s));
		msg = line;
	}
	discord_fatal_stop(dc, code, msg);
}

/* REST stops for good only when the bot token is refused. */
static void
on_rest_fatal(void *ctx, const char *msg)
{
	discord_fatal_stop(ctx, 401, msg);
}

/* A REST answer's Date: the clocks compared (discord_shed.h). */
static void
on_rest_date(void *ctx, int64_t date_s, uint64_t sent_ns, uint64_t recv_ns)
{
	struct discord *dc = ctx;
	uint64_t now = uv_hrtime();
	int64_t wall = wall_ms();
	struct shed_skew k;

	switch (discord_shed_date(dc->shed, date_s, wall - (int64_t)((now - sent_ns) / 1000000u),
	                          wall - (int64_t)((now - recv_ns) / 1000000u), now)) {
	case SHED_CLOCK_OFF:
		discord_shed_skew(dc->shed, &k);
		log_warnx("discord: this host's clock is %s Discord's by %" PRId64 " to %" PRId64
		          " ms (the Date of its answers), beyond the %d ms an interaction's id "
		          "can be aged with: deadlines count from each interaction's receipt "
		          "until the clock is right (is NTP running?)",
		          k.lo > 0 ? "ahead of" : "behind", k.lo > 0 ? k.lo : -k.hi,
		          k.lo > 0 ? k.hi : -k.lo, SHED_SKEW_MAX_MS);
		break;
	case SHED_CLOCK_OK:
		log_info("discord: this host's clock agrees with Discord's again; deadlines count "
		         "from the interactions' ids");
		break;
	case SHED_CLOCK_SAME:
		break;
	}
}

void
discord_log_stats(struct discord *dc)
{
	char line[1024];
	struct shed_skew k;
	struct buf b;
	int ready = 0, total, remaining;

	discord_opstats_line(line, sizeof(line), (int64_t)uv_now(dc->loop));
	buf_init(&b, 2048);
	buf_adds(&b, line);
	for (int i = 0; i < dc->nshards; i++)
		ready += discord_gw_state(discord_shard_gw(dc->shards[i])) == DISCORD_GW_READY;
	buf_addf(&b, "; shards ready %d of %d", ready, dc->nshards);
	if (dc->nshards == 1)
		buf_addf(&b, " (shard %d of %d)", dc->first, dc->shard_count);
	else if (dc->nshards > 1)
		buf_addf(&b, " (shards %d-%d of %d)", dc->first, dc->last, dc->shard_count);
	discord_idq_budget(dc->idq, &total, &remaining);
	if (total > 0)
		buf_addf(&b, ", session starts left %d of %d", remaining, total);
	discord_shed_skew(dc->shed, &k);
	buf_adds(&b, "; clock skew");
	if (k.ids)
		buf_addf(&b, " %+" PRId64 " ms by ids", k.ids_ms);
	if (k.date)
		buf_addf(&b, "%s %+" PRId64 "..%+" PRId64 " ms by Date", k.ids ? "," : "", k.lo,
		         k.hi);
	if (!k.ids && !k.date)
		buf_adds(&b, " not known yet");
	if (k.receipt)
		buf_adds(&b, " (deadlines from receipt)");
	log_info("%s", buf_str(&b));
	buf_free(&b);
}

static void
on_stats_timer(uv_timer_t *t)
{
	discord_log_stats(t->data);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL && *s != '\0' ? xstrdup(s) : NULL;
}

/* Where the bot's processes keep the identify ledger: the fleet's
 * PostgreSQL server, else the runtime directory the units give them, else
 * this user's runtime directory on this machine (discord_ledger_home),
 * else the state root. */
static struct ledger_backend *
ledger_of(const struct discord_opts *o)
{
	const char *rt = getenv("RUNTIME_DIRECTORY");
	char dir[4096], err[512], key[17];

	if (o->store_conninfo != NULL)
		return discord_ledger_pg(o->store_conninfo, o->store_password);
	if (rt != NULL && *rt != '\0') {
		/* systemd lists one directory per RuntimeDirectory= entry. */
		snprintf(dir, sizeof(dir), "%.*s", (int)strcspn(rt, ":"), rt);
		return discord_ledger_file(dir);
	}
	discord_cmds_hash(o->cfg->token != NULL ? o->cfg->token : "", "identify ledger", key);
	if (discord_ledger_home(getenv("XDG_RUNTIME_DIR"), "/run/user", "/tmp", (unsigned)geteuid(),
	                        key, dir, sizeof(dir), err, sizeof(err)) == 0)
		return discord_ledger_file(dir);
	log_warnx("discord: %s; the identify ledger stays in %s, which only processes sharing "
	          "that state directory see",
	          err, o->ledger_dir != NULL ? o->ledger_dir : "this process");
	return discord_ledger_file(o->ledger_dir);
}

struct discord *
discord_start(uv_loop_t *loop, const struct discord_opts *o)
{
	const struct config_discord *cfg = o->cfg;
	struct discord *dc;
	struct rest_opts ro = {.base_url = cfg->rest_url,
	                       .token = cfg->token,
	                       .tls_verify = cfg->tls_verify,
	                       .ca_file = cfg->tls_ca_file,
	                       .fatal = on_rest_fatal,
	                       .date = on_rest_date};
	struct interact_opts io = {
	    .d = o->d, .gm_role = o->gm_role, .answer = discord_answer_request};
	struct discord_idq_opts qo = {.loop = loop, .refetch = discord_count_refetch};

	if (cfg->token == NULL || *cfg->token == '\0') {
		log_error("discord: no token: set [discord] token_source");
		return NULL;
	}
	dc = xcalloc(1, sizeof(*dc));
	dc->loop = loop;
	dc->start_wall_ms = wall_ms();
	dc->d = o->d;
	dc->wsctx = discord_wsctx_new(loop, cfg->tls_verify);
	if (dc->wsctx == NULL) {
		free(dc);
		return NULL;
	}
	dc->on_fatal = o->on_fatal;
	dc->ctx = o->ctx;
	dc->record = o->record_latency;
	dc->app_id = dup_or_null(cfg->application_id);
	dc->intents = cfg->intents;
	dc->cfg_count = cfg->shard_count;
	dc->first = cfg->shard_first;
	dc->last = cfg->shard_last;
	dc->token = xstrdup(cfg->token);
	log_secret(dc->token);
	dc->compress = cfg->compress == DISCORD_COMPRESS_ZLIB;
	dc->dev_guild = dup_or_null(cfg->dev_guild);
	dc->user_install = cfg->user_install;
	dc->gateway_url = dup_or_null(cfg->gateway_url);
	dc->state_dir =
	    dup_or_null(o->state_dir != NULL ? o->state_dir : getenv("STATE_DIRECTORY"));
	dc->state_root = dup_or_null(o->state_root != NULL ? o->state_root : dc->state_dir);
	discord_register_read_hash(dc, o->state_dir);
	dc->rng = rng_new_seeded(uv_hrtime() ^ (uint64_t)getpid());
	io.answer_ctx = dc;
	io.unreachable = discord_answer_gm_unreachable;
	io.unreachable_ctx = dc;
	dc->it = discord_interact_new(&io);
	ro.ctx = dc;
	dc->rest = discord_rest_new(loop, &ro);
	dc->shed = discord_shed_new();
	dc->defer = discord_defer_new();
	dc->dm = discord_dm_new(DISCORD_DM_MAX);
	discord_live_start(dc);
	qo.ledger = ledger_of(o);
	qo.ctx = dc;
	dc->idq = discord_idq_new(&qo);
	uv_timer_init(loop, &dc->retry_timer);
	uv_timer_init(loop, &dc->stop_timer);
	uv_timer_init(loop, &dc->summary_timer);
	uv_timer_init(loop, &dc->late_timer);
	uv_timer_init(loop, &dc->stats_timer);
	uv_timer_init(loop, &dc->defer_timer);
	dc->defer_timer.data = dc;
	dc->retry_timer.data = dc->stop_timer.data = dc;
	dc->summary_timer.data = dc->stats_timer.data = dc->late_timer.data = dc;
	if (o->stats_interval_ms > 0)
		uv_timer_start(&dc->stats_timer, on_stats_timer, o->stats_interval_ms,
		               o->stats_interval_ms);
	if (cfg->shard_count == 0)
		log_info("discord: starting (as many shards as Discord recommends, %s)",
		         dc->compress ? "zlib-stream compression" : "no compression");
	else if (dc->first < 0)
		log_info("discord: starting (every shard of %d, %s)", cfg->shard_count,
		         dc->compress ? "zlib-stream compression" : "no compression");
	else if (dc->first == dc->last)
		log_info("discord: starting (shard %d of %d, %s)", dc->first, cfg->shard_count,
		         dc->compress ? "zlib-stream compression" : "no compression");
	else
		log_info("discord: starting (shards %d-%d of %d, %s)", dc->first, dc->last,
		         cfg->shard_count,
		         dc->compress ? "zlib-stream compression" : "no compression");
	discord_count_fetch(dc);
	discord_pending_resume(dc);
	return dc;
}

static void
part_closed(void *ctx)
{
	struct discord *dc = ctx;

	if (--dc->closing == 0) {
		/* The stop's last line, as each transport ends with one. */
		if (!dc->started)
			log_info("discord: stopped (no shard had started)");
		else
			log_info("discord: stopped (%d of %d shard%s had a gateway session up)",
			         dc->ready_at_stop, dc->nshards, dc->nshards == 1 ? "" : "s");
		if (dc->ws_down)
			discord_wsctx_shutdown(dc->wsctx);
		if (dc->on_stopped != NULL)
			dc->on_stopped(dc->stopped_ctx);
	}
}

static void
timer_closed(uv_handle_t *h)
{
	part_closed(h->data);
}

static void
finish_stop(struct discord *dc)
{
	struct rest *r = dc->rest;

	dc->stopped = true;
	dc->closing = 10 + dc->nshards * DISCORD_SHARD_HANDLES;
	discord_answer_summary(dc); /* what is not yet told */
	uv_close((uv_handle_t *)&dc->retry_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->stop_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->summary_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->late_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->stats_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->defer_timer, timer_closed);
	discord_live_close(dc, part_closed, dc);
	dc->rest = NULL;
	if (r != NULL)
		discord_rest_close(r, part_closed, dc);
	else
		dc->closing--;
	discord_idq_close(dc->idq, part_closed, dc);
	dc->idq = NULL;
	for (int i = 0; i < dc->nshards; i++)
		discord_shard_shutdown(dc->shards[i], part_closed, dc);
	part_closed(dc); /* the shards' loop handles are all asked to close */
}

static bool
shards_busy(const struct discord *dc)
{
	for (int i = 0; i < dc->nshards; i++)
		if (discord_shard_busy(dc->shards[i]))
			return true;
	return false;
}

static void
on_stop_timer(uv_timer_t *t)
{
	struct discord *dc = t->data;
	int64_t now = (int64_t)uv_now(dc->loop);
	bool idle = !shards_busy(dc) && (dc->rest == NULL || discord_rest_pending(dc->rest) == 0) &&
	            !discord_idq_busy(dc->idq);

	/* The answers that went since the stop moved the resume points on:
	 * written before the end, unless time is up. */
	if (idle && now < dc->stop_deadline) {
		discord_unanswered_tell_held(dc);
		for (int i = 0; i < dc->nshards; i++)
			discord_shard_save(dc->shards[i]);
		idle = !shards_busy(dc);
	}
	if (idle || now >= dc->stop_deadline) {
		uv_timer_stop(t);
		finish_stop(dc);
	}
}

void
discord_interaction_over(struct discord *dc, uint64_t id)
{
	for (int i = 0; i < dc->nshards; i++)
		if (discord_shard_answered(dc->shards[i], id)) {
			discord_burst_settled(dc, dc->shards[i], id);
			return;
		}
	/* In flight on no shard (held past SEQS_STALE_MS): a replay run
	 * still settles its shard's burst. */
	for (int i = 0; i < dc->nshards; i++)
		discord_burst_settled(dc, dc->shards[i], id);
}

void
discord_stop(struct discord *dc, void (*done)(void *ctx), void *ctx)
{
	if (dc == NULL || dc->stopping)
		return;
	dc->stopping = true;
	dc->on_stopped = done;
	dc->stopped_ctx = ctx;
	for (int i = 0; i < dc->nshards; i++)
		dc->ready_at_stop +=
		    discord_gw_state(discord_shard_gw(dc->shards[i])) == DISCORD_GW_READY;
	uv_timer_stop(&dc->retry_timer);
	for (int i = 0; i < dc->nshards; i++)
		discord_shard_stop(dc->shards[i]);
	dc->stop_deadline = (int64_t)uv_now(dc->loop) + STOP_GRACE;
	uv_timer_start(&dc->stop_timer, on_stop_timer, 0, 20);
}

void
discord_shutdown(struct discord *dc)
{
	if (dc == NULL || dc->ws_down)
		return;
	dc->ws_down = true;
	if (dc->stopped && dc->closing == 0)
		discord_wsctx_shutdown(dc->wsctx);
}

void
discord_free(struct discord *dc)
{
	if (dc == NULL)
		return;
	discord_wsctx_free(dc->wsctx);
	for (int i = 0; i < dc->nshards; i++)
		discord_shard_free(dc->shards[i]);
	free(dc->shards);
	discord_interact_free(dc->it);
	discord_shed_free(dc->shed);
	discord_defer_free(dc->defer);
	discord_dm_free(dc->dm);
	discord_live_free(dc);
	rng_free(dc->rng);
	free(dc->app_id);
	free(dc->dev_guild);
	free(dc->gateway_url);
	free(dc->hash_path);
	free(dc->state_dir);
	free(dc->state_root);
	if (dc->token != NULL) {
		explicit_bzero(dc->token, strlen(dc->token));
		free(dc->token);
	}
	free(dc->lat);
	discord_unanswered_free(&dc->unanswered);
	free(dc);
}

void
discord_set_gm_role(struct discord *dc, const char *gm_role)
{
	discord_interact_set_gm_role(dc->it, gm_role);
	if (gm_role != NULL && strspn(gm_role, "0123456789") != strlen(gm_role))
		log_info("discord: the GM role is now '%s'; each guild's role ids are learnt when "
		         "Discord next sends its roles (restart delver to apply it at once)",
		         gm_role);
}

const char *
discord_stalled(struct discord *dc, char *why, size_t len)
{
	int64_t now = (int64_t)uv_now(dc->loop);

	if (dc->stopping)
		return NULL;
	for (int i = 0; i < dc->nshards; i++) {
		char one[256];

		if (discord_gw_stalled(discord_shard_gw(dc->shards[i]), now, one, sizeof(one)) !=
		    NULL) {
			snprintf(why, len, "shard %d: %s", discord_shard_id(dc->shards[i]), one);
			return why;
		}
	}
	return NULL;
}

const struct discord_stats *
discord_stats(const struct discord *dc)
{
	return &dc->stats;
}

const uint64_t *
discord_latencies(const struct discord *dc, size_t *n)
{
	*n = dc->nlat;
	return dc->lat;
}

void
discord_latencies_reset(struct discord *dc)
{
	dc->nlat = 0;
}

struct discord_gw *
discord_gateway(struct discord *dc)
{
	return dc->nshards > 0 ? discord_shard_gw(dc->shards[0]) : NULL;
}

int
discord_shard_count(const struct discord *dc)
{
	return dc->nshards;
}

struct discord_gw *
discord_gateway_of(struct discord *dc, int i)
{
	return i >= 0 && i < dc->nshards ? discord_shard_gw(dc->shards[i]) : NULL;
}
