/* discord_shard: one shard's gateway connection; see discord_shard.h. */
#include "bot/discord/discord_shard.h"
#include "bot/discord/discord_int.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bot/discord/discord_burst.h"
#include "bot/discord/discord_gw.h"
#include "bot/discord/discord_idq.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_roles.h"
#include "bot/discord/discord_seqs.h"
#include "bot/discord/discord_session.h"
#include "bot/discord/discord_ws.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define SESSION_FILE "discord-session-%d.json"
#define SESSION_SAVE 1000 /* ms: the session file is written at most this often */

struct discord_shard {
	struct discord *dc;
	struct discord_idq *idq;
	int id, count;
	struct discord_gw *gw;
	struct discord_ws *ws;
	/* the session file: what was last written, and the write in flight */
	char *session_path;
	struct discord_session saved;
	bool saving, save_again;
	bool tell_saved;            /* discord_shard_save_settled: log once the file is written */
	struct discord_burst burst; /* its replays after a RESUME (discord_burst.h) */
	/* the last write's failure, logged once until a write succeeds or
	 * fails otherwise (a stop retries every 20 ms) */
	char save_err[512];
	uv_timer_t save_timer;
	struct seqs *seqs; /* its interactions whose answer is not over */
	bool started, stopped;
	bool quiet; /* stopped: the identify queue hears no more of it (it may be closed) */
	void (*down)(void *ctx); /* discord_shard_shutdown's done */
	void *down_ctx;
};

struct session_write {
	uv_work_t work;
	struct discord_shard *s;
	struct discord_session ses;
	char *path;
	int r;
	char err[512];
};

static void session_save(struct discord_shard *s);

/* The line discord_shard_save_settled promised, once the write it asked
 * for is over (or none was needed). */
static void
tell_saved(struct discord_shard *s)
{
	if (!s->tell_saved || s->saving)
		return;
	s->tell_saved = false;
	log_info("discord: shard %d: %s; its session file resumes at sequence %lld", s->id,
	         s->burst.said, (long long)s->saved.seq);
}

static void
session_written(uv_work_t *req, int status)
{
	struct session_write *sw = (struct session_write *)req;
	struct discord_shard *s = sw->s;

	s->saving = false;
	if (sw->r == 0) {
		s->saved = sw->ses;
		s->save_err[0] = '\0';
	} else if (strcmp(sw->err, s->save_err) != 0) {
		/* What a restart finds: the file written or read last, or none. */
		if (s->saved.session_id[0] != '\0')
			log_warnx(
			    "discord: cannot save shard %d's gateway session (a restart resumes "
			    "it from the point saved before, sequence %lld, and Discord replays "
			    "the events since): %s",
			    s->id, (long long)s->saved.seq, sw->err);
		else
			log_warnx("discord: cannot save shard %d's gateway session (a restart will "
			          "start a new one): %s",
			          s->id, sw->err);
		snprintf(s->save_err, sizeof(s->save_err), "%s", sw->err);
	}
	free(sw->path);
	free(sw);
	if (s->save_again) {
		s->save_again = false;
		session_save(s);
	}
	tell_saved(s);
}

static void
session_write(uv_work_t *req)
{
	struct session_write *sw = (struct session_write *)req;

	if (sw->ses.session_id[0] == '\0')
		sw->r = discord_session_remove(sw->path, sw->err, sizeof(sw->err));
	else
		sw->r = discord_session_save(sw->path, &sw->ses, sw->err, sizeof(sw->err));
}

/* Writes the session's resume point off the loop, unless the file holds it
 * already; one write at a time. */
static void
session_save(struct discord_shard *s)
{
	struct discord *dc = s->dc;
	struct discord_session now;
	struct session_write *sw;
	const char *sid = discord_gw_session_id(s->gw), *url = discord_gw_resume_url(s->gw);
	const char *app = dc->app_id != NULL ? dc->app_id : discord_gw_application_id(s->gw);

	if (s->session_path == NULL)
		return;
	memset(&now, 0, sizeof(now));
	if (sid == NULL || discord_gw_seq(s->gw) < 0) {
		/* No session to resume (a fatal close ended it): the file goes,
		 * once one was written or read. */
		if (s->saved.session_id[0] == '\0')
			return;
		sid = "";
	}
	now.intents = dc->intents;
	now.shard_count = s->count;
	snprintf(now.session_id, sizeof(now.session_id), "%s", sid);
	snprintf(now.resume_url, sizeof(now.resume_url), "%s", url != NULL ? url : "");
	snprintf(now.app_id, sizeof(now.app_id), "%s", app != NULL ? app : "");
	/* Where a restart must resume: before the oldest interaction whose
	 * answer is not over (discord_seqs.h). */
	now.seq = sid[0] != '\0' ? discord_seqs_resume_at(s->seqs, discord_gw_seq(s->gw),
	                                                  (int64_t)uv_now(dc->loop))
	                         : 0;
	discord_roles_export(discord_interact_roles(dc->it), now.gm_roles, sizeof(now.gm_roles));
	if (discord_session_equal(&now, &s->saved))
		return;
	if (s->saving) {
		s->save_again = true;
		return;
	}
	sw = xcalloc(1, sizeof(*sw));
	sw->s = s;
	sw->ses = now;
	sw->path = xstrdup(s->session_path);
	s->saving = true;
	uv_queue_work(dc->loop, &sw->work, session_write, session_written);
}

static void
on_save_timer(uv_timer_t *t)
{
	session_save(t->data);
}

void
discord_shard_touch(struct discord_shard *s)
{
	if (s->session_path != NULL && !s->dc->stopping &&
	    !uv_is_active((uv_handle_t *)&s->save_timer))
		uv_timer_start(&s->save_timer, on_save_timer, SESSION_SAVE, 0);
}

/* Keeps in best the path dir/name when that file is newer than best's. */
static void
newer_session(const char *dir, const char *name, struct buf *best, struct timespec *best_t)
{
	struct buf p;
	struct stat st;

	buf_init(&p, 4096);
	buf_addf(&p, "%s/%s", dir, name);
	if (stat(buf_str(&p), &st) == 0 && S_ISREG(st.st_mode) &&
	    (buf_str(best)[0] == '\0' || st.st_mtim.tv_sec > best_t->tv_sec ||
	     (st.st_mtim.tv_sec == best_t->tv_sec && st.st_mtim.tv_nsec > best_t->tv_nsec))) {
		buf_reset(best);
		buf_adds(best, buf_str(&p));
		*best_t = st.st_mtim;
	}
	buf_free(&p);
}

/* Without a session file of its own, the newest one for this shard that
 * a process of another layout saved in root (discord_shard.h) is moved in,
 * so that the shard resumes where that process left it. */
static void
session_adopt(struct discord_shard *s, const char *root)
{
	struct buf best, sub;
	struct timespec best_t = {0, 0};
	struct stat st;
	char name[64];
	DIR *d;
	struct dirent *e;

	if (root == NULL || s->session_path == NULL || stat(s->session_path, &st) == 0 ||
	    errno != ENOENT)
		return;
	snprintf(name, sizeof(name), SESSION_FILE, s->id);
	buf_init(&best, 4096);
	buf_init(&sub, 4096);
	newer_session(root, name, &best, &best_t);
	d = opendir(root);
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "shard-", 6) != 0 && strncmp(e->d_name, "shards-", 7) != 0)
			continue;
		buf_reset(&sub);
		buf_addf(&sub, "%s/%s", root, e->d_name);
		newer_session(buf_str(&sub), name, &best, &best_t);
	}
	if (d != NULL)
		closedir(d);
	if (buf_str(&best)[0] != '\0' && strcmp(buf_str(&best), s->session_path) != 0) {
		if (rename(buf_str(&best), s->session_path) == 0)
			log_info("discord: shard %d: took the session saved in %s", s->id,
			         buf_str(&best));
		else
			log_warnx("discord: cannot move shard %d's session from %s: %s", s->id,
			          buf_str(&best), strerror(errno));
	}
	buf_free(&best);
	buf_free(&sub);
}

/* A session saved by the last process: the first connection resumes it. */
static void
session_load(struct discord_shard *s)
{
	struct discord *dc = s->dc;
	char err[512];
	int r;

	if (s->session_path == NULL)
		return;
	r = discord_session_load(s->session_path, &s->saved, err, sizeof(err));
	if (r < 0) {
		log_warnx("discord: ignoring shard %d's saved gateway session: %s", s->id, err);
		return;
	}
	if (r == 0)
		return;
	if (s->saved.intents != dc->intents || s->saved.shard_count != s->count) {
		log_info("discord: the intents or the shard count changed since shard %d's session "
		         "was saved; starting a new session",
		         s->id);
		memset(&s->saved, 0, sizeof(s->saved)); /* the next READY replaces the file */
		return;
	}
	if (dc->app_id == NULL && s->saved.app_id[0] != '\0')
		dc->app_id = xstrdup(s->saved.app_id);
	discord_gw_restore(s->gw, s->saved.session_id, s->saved.resume_url, s->saved.seq);
	if (s->saved.gm_roles[0] != '\0') {
		cJSON *roles = cJSON_Parse(s->saved.gm_roles);

		discord_roles_import(discord_interact_roles(dc->it), roles);
		cJSON_Delete(roles);
	}
}

/* --- the gateway session's hooks --- */

static int
hook_connect(void *ctx, const char *url)
{
	return discord_ws_connect(((struct discord_shard *)ctx)->ws, url);
}

static void
hook_close(void *ctx, int code)
{
	discord_ws_close(((struct discord_shard *)ctx)->ws, code);
}

static void
hook_want_write(void *ctx)
{
	discord_ws_want_write(((struct discord_shard *)ctx)->ws);
}

static void
hook_event(void *ctx, const char *t, const cJSON *d)
{
	struct discord_shard *s = ctx;

	discord_on_shard_event(s->dc, s, t, d);
}

static void
hook_fatal(void *ctx, int code, const char *msg)
{
	struct discord_shard *s = ctx;

	discord_on_shard_fatal(s->dc, s, code, msg);
}

static void
on_grant(void *ctx)
{
	struct discord_shard *s = ctx;

	uv_update_time(s->dc->loop);
	discord_gw_grant(s->gw, (int64_t)uv_now(s->dc->loop));
	discord_ws_rearm(s->ws);
}

static void
hook_want_identify(void *ctx)
{
	struct discord_shard *s = ctx;

	if (s->quiet)
		return;
	discord_idq_want(s->idq, s->id, on_grant, s);
}

static void
hook_slot_unused(void *ctx)
{
	struct discord_shard *s = ctx;

	if (s->quiet)
		return;
	discord_idq_unused(s->idq, s->id);
}

/* The IDENTIFY went out: the bucket's spacing counts from now. */
static void
hook_identified(void *ctx)
{
	struct discord_shard *s = ctx;

	if (s->quiet)
		return;
	discord_idq_sent(s->idq, s->id);
}

struct discord_shard *
discord_shard_new(struct discord *dc, const struct discord_shard_opts *o)
{
	struct discord_shard *s = xcalloc(1, sizeof(*s));
	struct discord_gw_opts go = {.token = o->token,
	                             .gateway_url = o->gateway_url,
	                             .intents = o->intents,
	                             .shard_id = o->id,
	                             .shard_count = o->count,
	                             .compress = o->compress,
	                             .ledger = discord_idq_where(o->idq)};
	struct discord_gw_hooks gh = {.ctx = s,
	                              .connect = hook_connect,
	                              .close = hook_close,
	                              .want_write = hook_want_write,
	                              .event = hook_event,
	                              .fatal = hook_fatal,
	                              .identified = hook_identified,
	                              .want_identify = hook_want_identify,
	                              .slot_unused = hook_slot_unused};

	s->dc = dc;
	s->idq = o->idq;
	s->id = o->id;
	s->count = o->count;
	s->gw = discord_gw_new(&go, &gh, dc->rng);
	s->ws = discord_ws_new(o->wsctx, o->compress);
	discord_ws_attach(s->ws, s->gw);
	if (o->state_dir != NULL) {
		struct buf p;

		buf_init(&p, 8192);
		buf_addf(&p, "%s/" SESSION_FILE, o->state_dir, o->id);
		s->session_path = buf_take(&p);
		session_adopt(s, o->state_root);
	}
	uv_timer_init(dc->loop, &s->save_timer);
	s->save_timer.data = s;
	s->seqs = discord_seqs_new();
	return s;
}

void
discord_shard_start(struct discord_shard *s)
{
	session_load(s);
	s->started = true;
	discord_gw_start(s->gw, (int64_t)uv_now(s->dc->loop));
	discord_ws_rearm(s->ws);
}

void
discord_shard_stop(struct discord_shard *s)
{
	if (s->stopped)
		return;
	s->stopped = true;
	uv_timer_stop(&s->save_timer);
	discord_idq_cancel(s->idq, s->id);
	/* With a session file the session stays resumable at Discord, and its
	 * last resume point is written now: a restart loses nothing. */
	discord_gw_stop(s->gw, s->session_path != NULL);
	s->quiet = true;
	if (s->started)
		session_save(s);
	discord_ws_rearm(s->ws);
}

void
discord_shard_interaction(struct discord_shard *s, uint64_t id)
{
	discord_seqs_add(s->seqs, id, discord_gw_seq(s->gw), (int64_t)uv_now(s->dc->loop));
}

bool
discord_shard_answered(struct discord_shard *s, uint64_t id)
{
	if (!discord_seqs_done(s->seqs, id))
		return false;
	discord_shard_touch(s);
	return true;
}

void
discord_shard_save(struct discord_shard *s)
{
	if (s->started)
		session_save(s);
}

void
discord_shard_save_settled(struct discord_shard *s)
{
	if (!s->started || s->session_path == NULL)
		return;
	s->tell_saved = true;
	session_save(s);
	tell_saved(s);
}

bool
discord_shard_busy(const struct discord_shard *s)
{
	return discord_ws_busy(s->ws) || s->saving;
}

static void
save_timer_closed(uv_handle_t *h)
{
	struct discord_shard *s = h->data;

	s->down(s->down_ctx);
}

void
discord_shard_shutdown(struct discord_shard *s, void (*done)(void *ctx), void *ctx)
{
	s->down = done;
	s->down_ctx = ctx;
	uv_close((uv_handle_t *)&s->save_timer, save_timer_closed);
	discord_ws_shutdown(s->ws, done, ctx);
}

void
discord_shard_free(struct discord_shard *s)
{
	if (s == NULL)
		return;
	discord_ws_free(s->ws);
	discord_gw_free(s->gw);
	discord_seqs_free(s->seqs);
	discord_burst_free(&s->burst);
	free(s->session_path);
	free(s);
}

struct discord_burst *
discord_shard_burst(struct discord_shard *s)
{
	return &s->burst;
}

int
discord_shard_id(const struct discord_shard *s)
{
	return s->id;
}

struct discord_gw *
discord_shard_gw(struct discord_shard *s)
{
	return s->gw;
}

uint64_t
discord_shard_rx_ns(const struct discord_shard *s)
{
	return discord_ws_rx_ns(s->ws);
}
