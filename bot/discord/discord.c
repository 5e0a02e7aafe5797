/* discord: the transport's pieces wired together; see discord.h. */
#include "bot/discord/discord.h"
#include "bot/discord/discord_int.h"
#include "bot/discord/discord_answer.h"

#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot/discord/discord_cmds.h"
#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_dm.h"
#include "bot/discord/discord_gw.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_register.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_roles.h"
#include "bot/discord/discord_session.h"
#include "bot/discord/discord_shed.h"
#include "bot/discord/discord_ws.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"

#define STOP_GRACE   2000  /* ms answers in flight may take at shutdown */
#define GATEWAY_WAIT 60000 /* ms between GET /gateway/bot tries, at most */
#define SESSION_FILE "discord-session-%d.json"
#define SESSION_SAVE 1000 /* ms: the session file is written at most this often */

struct session_write {
	uv_work_t work;
	struct discord *dc;
	struct discord_session s;
	char *path;
	int r;
	char err[512];
};

static void
fatal_stop(struct discord *dc, int code, const char *msg)
{
	log_error("discord: %s", msg);
	if (dc->on_fatal != NULL)
		dc->on_fatal(dc->ctx, code, msg);
}

static void session_save(struct discord *dc);

/* The wall clock in ms since the epoch. */
static int64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
session_written(uv_work_t *req, int status)
{
	struct session_write *sw = (struct session_write *)req;
	struct discord *dc = sw->dc;

	dc->saving = false;
	if (sw->r == 0)
		dc->saved = sw->s;
	else
		log_warnx("discord: cannot save the gateway session (a restart will start a new "
		          "one): %s",
		          sw->err);
	free(sw->path);
	free(sw);
	if (dc->save_again) {
		dc->save_again = false;
		session_save(dc);
	}
}

static void
session_write(uv_work_t *req)
{
	struct session_write *sw = (struct session_write *)req;

	if (sw->s.session_id[0] == '\0' && sw->s.last_identify == 0)
		sw->r = discord_session_remove(sw->path, sw->err, sizeof(sw->err));
	else
		sw->r = discord_session_save(sw->path, &sw->s, sw->err, sizeof(sw->err));
}

/* Writes the session's resume point off the loop, unless the file holds it
 * already; one write at a time. */
static void
session_save(struct discord *dc)
{
	struct discord_session now;
	struct session_write *sw;
	const char *sid = discord_gw_session_id(dc->gw), *url = discord_gw_resume_url(dc->gw);
	const char *app = dc->app_id != NULL ? dc->app_id : discord_gw_application_id(dc->gw);

	if (dc->session_path == NULL)
		return;
	memset(&now, 0, sizeof(now));
	if (discord_gw_last_identify(dc->gw) != INT64_MIN)
		now.last_identify =
		    wall_ms() - ((int64_t)uv_now(dc->loop) - discord_gw_last_identify(dc->gw));
	if (sid == NULL || discord_gw_seq(dc->gw) < 0) {
		/* No session to resume (a fatal close ended it): the file goes,
		 * once one was written or read, unless it keeps the last
		 * IDENTIFY. */
		if (dc->saved.session_id[0] == '\0' && dc->saved.last_identify == 0 &&
		    now.last_identify == 0)
			return;
		sid = "";
	}
	now.intents = dc->intents;
	now.shard_count = dc->shard_count;
	snprintf(now.session_id, sizeof(now.session_id), "%s", sid);
	snprintf(now.resume_url, sizeof(now.resume_url), "%s", url != NULL ? url : "");
	snprintf(now.app_id, sizeof(now.app_id), "%s", app != NULL ? app : "");
	now.seq = sid[0] != '\0' ? discord_gw_seq(dc->gw) : 0;
	discord_roles_export(discord_interact_roles(dc->it), now.gm_roles, sizeof(now.gm_roles));
	if (discord_session_equal(&now, &dc->saved))
		return;
	if (dc->saving) {
		dc->save_again = true;
		return;
	}
	sw = xcalloc(1, sizeof(*sw));
	sw->dc = dc;
	sw->s = now;
	sw->path = xstrdup(dc->session_path);
	dc->saving = true;
	uv_queue_work(dc->loop, &sw->work, session_write, session_written);
}

static void
on_save_timer(uv_timer_t *t)
{
	session_save(t->data);
}

/* An IDENTIFY went out: saved at once, so that a process started right
 * after this one dies still keeps Discord's spacing between IDENTIFYs. */
static void
on_identified(void *ctx)
{
	struct discord *dc = ctx;

	if (!dc->stopping)
		session_save(dc);
}

/*
 * The deadline of the interaction d, whose frame came at rx_ns (see
 * discord_shed.h), or 0 when its id is not a snowflake (interact drops it).
 */
static uint64_t
deadline_of(struct discord *dc, const cJSON *d, uint64_t rx_ns)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "id"));
	struct timespec ts;
	uint64_t now = uv_hrtime(), n;
	int64_t wall;
	char *end;

	if (id == NULL || *id < '1' || *id > '9' || strlen(id) > 20)
		return 0;
	errno = 0;
	n = strtoull(id, &end, 10);
	if (errno != 0 || *end != '\0')
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	wall = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	wall -= (int64_t)((now - rx_ns) / 1000000u); /* the wall clock at rx_ns */
	return discord_shed_deadline(dc->shed, n, wall, rx_ns);
}

static void
on_event(void *ctx, const char *t, const cJSON *d)
{
	struct discord *dc = ctx;
	struct interact_out out = {0};
	uint64_t rx_ns = discord_ws_rx_ns(dc->ws), deadline = 0, send_ns = 0;
	int rc;

	if (strcmp(t, "READY") == 0 || (strcmp(t, "RESUMED") == 0 && !dc->register_tried))
		discord_register_commands(dc);
	/* The resume point changed: saved within SESSION_SAVE. */
	if (dc->session_path != NULL && !dc->stopping &&
	    !uv_is_active((uv_handle_t *)&dc->save_timer))
		uv_timer_start(&dc->save_timer, on_save_timer, SESSION_SAVE, 0);
	if (strcmp(t, "INTERACTION_CREATE") == 0 && (deadline = deadline_of(dc, d, rx_ns)) != 0) {
		/* When its answer could go out: now, or later behind a backlog of
		 * answers still waiting to go out (overload). Too late then: it is
		 * shed before it is worked out, so it costs no work and touches
		 * no channel. */
		send_ns = uv_hrtime();
		if (dc->rest != NULL)
			send_ns += discord_rest_backlog_ns(dc->rest, send_ns);
	}
	rc = discord_interact_event_held(dc->it, t, d, (int64_t)time(NULL), &out, rx_ns, deadline,
	                                 send_ns);
	if (rc == 3)
		discord_answer_count_shed(dc); /* not even worked out: too late already */
	else if (rc == 1 && dc->rest != NULL)
		discord_answer_now(dc, &out, rx_ns, deadline);
	else if (rc == 2 && dc->rest != NULL)
		discord_answer_hold(dc, &out, rx_ns, deadline);
	discord_interact_out_clear(&out);
}

static void
on_gw_fatal(void *ctx, int code, const char *msg)
{
	fatal_stop(ctx, code, msg);
}

/* REST stops for good only when the bot token is refused. */
static void
on_rest_fatal(void *ctx, const char *msg)
{
	fatal_stop(ctx, 401, msg);
}

void
discord_log_stats(struct discord *dc)
{
	char line[512];

	(void)dc;
	discord_opstats_line(line, sizeof(line), (int64_t)uv_now(dc->loop));
	log_info("%s", line);
}

static void
on_stats_timer(uv_timer_t *t)
{
	discord_log_stats(t->data);
}

static int
hook_connect(void *ctx, const char *url)
{
	return discord_ws_connect(((struct discord *)ctx)->ws, url);
}

static void
hook_close(void *ctx, int code)
{
	discord_ws_close(((struct discord *)ctx)->ws, code);
}

static void
hook_want_write(void *ctx)
{
	discord_ws_want_write(((struct discord *)ctx)->ws);
}

static void get_gateway(struct discord *dc);

static void
on_retry_timer(uv_timer_t *t)
{
	get_gateway(t->data);
}

static void
on_gateway_bot(void *ctx, const struct rest_result *res)
{
	struct discord *dc = ctx;
	cJSON *j;
	const cJSON *ssl;
	const char *url;
	int shards;
	int64_t now = (int64_t)uv_now(dc->loop), wait;

	if (dc->stopping || res->status == 401) /* REST's fatal hook tells of a 401 */
		return;
	j = res->status == 200 ? cJSON_ParseWithLength(res->body, res->len) : NULL;
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		wait = dc->gateway_tries >= 6 ? GATEWAY_WAIT : 1000LL << dc->gateway_tries;
		dc->gateway_tries++;
		log_warnx("discord: GET /gateway/bot failed (%ld); trying again in %lld s",
		          res->status, (long long)(wait / 1000));
		uv_timer_start(&dc->retry_timer, on_retry_timer, (uint64_t)wait, 0);
		return;
	}
	url = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "url"));
	if (dc->gateway_url == NULL && url != NULL &&
	    (strncmp(url, "wss://", 6) == 0 || strncmp(url, "ws://", 5) == 0))
		discord_gw_set_url(dc->gw, url);
	shards = cJSON_GetObjectItemCaseSensitive(j, "shards") != NULL
	             ? cJSON_GetObjectItemCaseSensitive(j, "shards")->valueint
	             : 1;
	ssl = cJSON_GetObjectItemCaseSensitive(j, "session_start_limit");
	if (cJSON_IsObject(ssl)) {
		const cJSON *total = cJSON_GetObjectItemCaseSensitive(ssl, "total");
		const cJSON *rem = cJSON_GetObjectItemCaseSensitive(ssl, "remaining");
		const cJSON *reset = cJSON_GetObjectItemCaseSensitive(ssl, "reset_after");
		const cJSON *mc = cJSON_GetObjectItemCaseSensitive(ssl, "max_concurrency");

		discord_gw_set_limits(dc->gw, cJSON_IsNumber(total) ? total->valueint : 1000,
		                      cJSON_IsNumber(rem) ? rem->valueint : 1000,
		                      cJSON_IsNumber(reset) ? (int64_t)reset->valuedouble : 0,
		                      cJSON_IsNumber(mc) ? mc->valueint : 1, now);
	}
	log_info("discord: Discord recommends %d shard%s for this bot", shards,
	         shards == 1 ? "" : "s");
	cJSON_Delete(j);
	discord_gw_start(dc->gw, now);
	discord_ws_rearm(dc->ws);
}

static void
get_gateway(struct discord *dc)
{
	if (dc->rest != NULL)
		discord_rest_call(dc->rest, "GET", "/gateway/bot", NULL, REST_ESSENTIAL,
		                  on_gateway_bot, dc);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL && *s != '\0' ? xstrdup(s) : NULL;
}

static void
session_path(struct discord *dc, const char *state_dir, int shard)
{
	struct buf p;

	if (state_dir == NULL)
		state_dir = getenv("STATE_DIRECTORY");
	if (state_dir == NULL || *state_dir == '\0')
		return;
	buf_init(&p, 8192);
	buf_addf(&p, "%s/" SESSION_FILE, state_dir, shard);
	dc->session_path = buf_take(&p);
}

/* A session saved by the last process: the first connection resumes it. */
static void
session_load(struct discord *dc)
{
	char err[512];
	int r;

	if (dc->session_path == NULL)
		return;
	r = discord_session_load(dc->session_path, &dc->saved, err, sizeof(err));
	if (r < 0) {
		log_warnx("discord: ignoring the saved gateway session: %s", err);
		return;
	}
	if (r == 0)
		return;
	if (dc->saved.last_identify > 0) {
		/* the earlier process's IDENTIFY, on this process's clock */
		int64_t now = (int64_t)uv_now(dc->loop);

		discord_gw_restore_identify(dc->gw, now - (wall_ms() - dc->saved.last_identify),
		                            now);
	}
	if (dc->saved.session_id[0] == '\0')
		return; /* only the last IDENTIFY: a new session starts */
	if (dc->saved.intents != dc->intents || dc->saved.shard_count != dc->shard_count) {
		log_info("discord: the intents or the shard count changed since the session was "
		         "saved; starting a new session");
		memset(&dc->saved, 0, sizeof(dc->saved)); /* the next READY replaces it */
		return;
	}
	if (dc->app_id == NULL && dc->saved.app_id[0] != '\0')
		dc->app_id = xstrdup(dc->saved.app_id);
	discord_gw_restore(dc->gw, dc->saved.session_id, dc->saved.resume_url, dc->saved.seq);
	if (dc->saved.gm_roles[0] != '\0') {
		cJSON *roles = cJSON_Parse(dc->saved.gm_roles);

		discord_roles_import(discord_interact_roles(dc->it), roles);
		cJSON_Delete(roles);
	}
	log_info("discord: resuming the saved session at sequence %" PRId64, dc->saved.seq);
}

struct discord *
discord_start(uv_loop_t *loop, const struct discord_opts *o)
{
	const struct config_discord *cfg = o->cfg;
	struct discord *dc;
	struct rest_opts ro = {.base_url = cfg->rest_url,
	                       .token = cfg->token,
	                       .tls_verify = cfg->tls_verify,
	                       .fatal = on_rest_fatal};
	struct discord_gw_opts go = {.token = cfg->token,
	                             .gateway_url = cfg->gateway_url,
	                             .intents = cfg->intents,
	                             .shard_id = cfg->shard_id,
	                             .shard_count = cfg->shard_count,
	                             .compress = cfg->compress == DISCORD_COMPRESS_ZLIB};
	struct discord_gw_hooks gh = {.connect = hook_connect,
	                              .close = hook_close,
	                              .want_write = hook_want_write,
	                              .event = on_event,
	                              .fatal = on_gw_fatal,
	                              .identified = on_identified};
	struct interact_opts io = {.d = o->d, .gm_role = o->gm_role};

	if (cfg->token == NULL || *cfg->token == '\0') {
		log_error("discord: no token: set [discord] token_source");
		return NULL;
	}
	dc = xcalloc(1, sizeof(*dc));
	dc->loop = loop;
	dc->ws = discord_ws_new(loop, cfg->tls_verify, cfg->compress == DISCORD_COMPRESS_ZLIB);
	if (dc->ws == NULL) {
		free(dc);
		return NULL;
	}
	dc->on_fatal = o->on_fatal;
	dc->ctx = o->ctx;
	dc->record = o->record_latency;
	dc->app_id = dup_or_null(cfg->application_id);
	dc->intents = cfg->intents;
	dc->shard_count = cfg->shard_count > 0 ? cfg->shard_count : 1;
	dc->dev_guild = dup_or_null(cfg->dev_guild);
	dc->user_install = cfg->user_install;
	dc->gateway_url = dup_or_null(cfg->gateway_url);
	discord_register_read_hash(dc, o->state_dir);
	session_path(dc, o->state_dir, cfg->shard_id);
	dc->rng = rng_new_seeded(uv_hrtime() ^ (uint64_t)getpid());
	gh.ctx = dc;
	dc->gw = discord_gw_new(&go, &gh, dc->rng);
	discord_ws_attach(dc->ws, dc->gw);
	dc->it = discord_interact_new(&io);
	discord_interact_set_later(dc->it, discord_answer_later, dc);
	session_load(dc);
	ro.ctx = dc;
	dc->rest = discord_rest_new(loop, &ro);
	dc->shed = discord_shed_new();
	dc->defer = discord_defer_new();
	dc->dm = discord_dm_new(DISCORD_DM_MAX);
	uv_timer_init(loop, &dc->retry_timer);
	uv_timer_init(loop, &dc->stop_timer);
	uv_timer_init(loop, &dc->save_timer);
	uv_timer_init(loop, &dc->summary_timer);
	uv_timer_init(loop, &dc->stats_timer);
	uv_timer_init(loop, &dc->defer_timer);
	dc->defer_timer.data = dc;
	dc->retry_timer.data = dc->stop_timer.data = dc->save_timer.data = dc;
	dc->summary_timer.data = dc->stats_timer.data = dc;
	if (o->stats_interval_ms > 0)
		uv_timer_start(&dc->stats_timer, on_stats_timer, o->stats_interval_ms,
		               o->stats_interval_ms);
	log_info("discord: starting (shard %d of %d, %s)", cfg->shard_id, cfg->shard_count,
	         cfg->compress == DISCORD_COMPRESS_ZLIB ? "zlib-stream compression"
	                                                : "no compression");
	get_gateway(dc);
	return dc;
}

static void
part_closed(void *ctx)
{
	struct discord *dc = ctx;

	if (--dc->closing == 0 && dc->on_stopped != NULL)
		dc->on_stopped(dc->stopped_ctx);
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
	dc->closing = 8;
	discord_answer_summary(dc); /* what is not yet told */
	uv_close((uv_handle_t *)&dc->retry_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->stop_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->save_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->summary_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->stats_timer, timer_closed);
	uv_close((uv_handle_t *)&dc->defer_timer, timer_closed);
	dc->rest = NULL;
	if (r != NULL)
		discord_rest_close(r, part_closed, dc);
	else
		dc->closing--;
	discord_ws_shutdown(dc->ws, part_closed, dc);
}

static void
on_stop_timer(uv_timer_t *t)
{
	struct discord *dc = t->data;
	int64_t now = (int64_t)uv_now(dc->loop);
	bool idle = !discord_ws_busy(dc->ws) &&
	            (dc->rest == NULL || discord_rest_pending(dc->rest) == 0) && !dc->saving;

	if (idle || now >= dc->stop_deadline) {
		uv_timer_stop(t);
		finish_stop(dc);
	}
}

void
discord_stop(struct discord *dc, void (*done)(void *ctx), void *ctx)
{
	if (dc == NULL || dc->stopping)
		return;
	dc->stopping = true;
	dc->on_stopped = done;
	dc->stopped_ctx = ctx;
	uv_timer_stop(&dc->retry_timer);
	uv_timer_stop(&dc->save_timer);
	/* With a session file the session stays resumable at Discord, and its
	 * last resume point is written now: a restart loses nothing. */
	discord_gw_stop(dc->gw, dc->session_path != NULL);
	session_save(dc);
	discord_ws_rearm(dc->ws);
	dc->stop_deadline = (int64_t)uv_now(dc->loop) + STOP_GRACE;
	uv_timer_start(&dc->stop_timer, on_stop_timer, 0, 20);
}

void
discord_free(struct discord *dc)
{
	if (dc == NULL)
		return;
	discord_ws_free(dc->ws);
	discord_gw_free(dc->gw);
	discord_interact_free(dc->it);
	discord_shed_free(dc->shed);
	discord_defer_free(dc->defer);
	discord_dm_free(dc->dm);
	rng_free(dc->rng);
	free(dc->app_id);
	free(dc->dev_guild);
	free(dc->gateway_url);
	free(dc->hash_path);
	free(dc->session_path);
	free(dc->lat);
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
	if (dc->stopping)
		return NULL;
	return discord_gw_stalled(dc->gw, (int64_t)uv_now(dc->loop), why, len);
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
	return dc->gw;
}
