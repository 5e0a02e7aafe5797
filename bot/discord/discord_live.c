/* discord_live: the live panels' calls; see discord_live.h. */
#include "bot/discord/discord_live.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uthash.h>

#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/discord/discord_panel.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_shed.h"
#include "bot/log.h"
#include "commands/core/dispatch.h"
#include "commands/core/registry_parse.h"
#include "commands/panel/cmd_panel.h"
#include "commands/panel/panel_state.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#define DUE_BATCH 64 /* refreshes taken at a time */

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/* A press's update of its panel on its way, as the answer to interaction
 * id. */
struct update {
	char id[24];
	uint64_t chan;
	uint64_t seq;  /* the changes counted when its panel was rendered */
	uint64_t body; /* the hash of that panel as an edit sends it, 0 none */
	UT_hash_handle hh;
};

struct discord_live {
	struct discord *dc;
	struct discord_panels *p;
	struct update *updates; /* by interaction id */
	uv_timer_t timer;
	int64_t armed; /* when the timer is set for; INT64_MAX: not set */
	bool closing;
	void (*closed)(void *);
	void *closed_ctx;
};

/* What a request of this module's is for (its tag). */
enum job_kind {
	JOB_REFRESH, /* the panel rendered for an edit */
	JOB_PRESS,   /* the panel rendered for a press's answer */
	JOB_PLACE,   /* a new panel's message recorded */
	JOB_FORGET,  /* a panel found gone forgotten */
};

struct job {
	enum job_kind kind;
	uint64_t chan;
	uint64_t seq;              /* PRESS, PLACE: changes counted when it was rendered */
	uint64_t body;             /* PLACE: its body's hash */
	char msg[PANEL_ID_MAX];    /* PLACE: the message posted */
	char server[PANEL_ID_MAX]; /* PLACE: the guild it is in, "" none */
	struct request *press;     /* PRESS: the press, answered, kept until the panel is */
};

/* An edit's context: the panel's channel and message. */
struct call {
	struct discord_live *lv;
	uint64_t chan;
	char msg[PANEL_ID_MAX];
	char *sent; /* a check's: the body to send when the message differs */
};

static void
job_free(void *p)
{
	struct job *j = p;

	if (j != NULL)
		request_free(j->press);
	free(j);
}

static void
call_free(struct call *c)
{
	free(c->sent);
	free(c);
}

static int64_t
now_ms(const struct discord_live *lv)
{
	return (int64_t)uv_now(lv->dc->loop);
}

static void live_answer(struct request *req, void *ctx);

/* A request of the transport's own in channel chan: the panel rendered
 * (line "panel"), or bound to cmd_panel_placed (message, was, and the
 * job's server). It asks as
 * the bot, who holds no GM seat: the panel rendered is the channel's. */
static void
submit(struct discord_live *lv, struct job *j, const char *message, const char *was)
{
	struct discord *dc = lv->dc;
	const char *app = discord_app_id(dc);
	struct origin o;
	struct request *req;

	memset(&o, 0, sizeof(o));
	o.platform = "discord";
	o.channel_named = discord_interact_channel_named;
	snprintf(o.chan_key, sizeof(o.chan_key), "discord:%" PRIu64, j->chan);
	snprintf(o.user_key, sizeof(o.user_key), "discord:%s", app != NULL ? app : "0");
	snprintf(o.user_name, sizeof(o.user_name), "delver");
	req = request_new(&o, (int64_t)time(NULL), live_answer, lv);
	request_set_tag(req, j, job_free);
	if (j->kind == JOB_REFRESH || j->kind == JOB_PRESS) {
		request_set_line(req, "panel", 5);
	} else {
		struct invocation *inv = request_invocation(req);

		inv->cmd = &cmd_panel_placed;
		inv->path[0] = &cmd_panel_placed;
		if ((message[0] != '\0' &&
		     registry_parse_bind(inv, "message", message, request_reply(req)) < 0) ||
		    (j->server[0] != '\0' &&
		     registry_parse_bind(inv, "server", j->server, request_reply(req)) < 0) ||
		    (was != NULL && registry_parse_bind(inv, "was", was, request_reply(req)) < 0))
			log_warnx("discord: the panel's message %s cannot be recorded", message);
	}
	dispatch_submit(dc->d, req);
}

static void arm(struct discord_live *lv);
static void on_edited(void *ctx, const struct rest_result *res);

/* --- edits --- */

/* The panel of c's channel is gone (res said so): its record is cleared,
 * unless a newer panel took its place meanwhile. */
static void
forget(struct discord_live *lv, const struct call *c, const struct rest_result *res)
{
	struct job *j;

	if (lv->dc->rest == NULL)
		return;
	log_info("discord: the panel of channel %" PRIu64 " is gone (message %s: Discord "
	         "answered %ld); it is forgotten",
	         c->chan, c->msg, res->status);
	j = xcalloc(1, sizeof(*j));
	j->kind = JOB_FORGET;
	j->chan = c->chan;
	submit(lv, j, "", c->msg);
}

static void
on_edited(void *ctx, const struct rest_result *res)
{
	struct call *c = ctx;
	struct discord_live *lv = c->lv;
	/* Only a failure's body is worth parsing (a success's is the whole
	 * message). */
	enum discord_panel_outcome oc = discord_panel_outcome(
	    res->status, res->status >= 400 ? discord_rest_error_code(res) : 0);

	if (oc == PANEL_GONE) {
		forget(lv, c, res);
	}
	if (oc == PANEL_UNSURE && res->shed)
		oc = PANEL_FAILED; /* never sent */
	if (discord_panels_done(lv->p, c->chan, oc, now_ms(lv)))
		log_warnx("discord: the edit of the panel of channel %" PRIu64
		          " failed %d times in a row (the last: %ld); it waits for the next change",
		          c->chan, PANEL_RETRIES, res->status);
	else if (oc != PANEL_EDITED && oc != PANEL_GONE && !res->shed)
		log_warnx("discord: the edit of the panel of channel %" PRIu64
		          " failed (%ld); it is tried again",
		          c->chan, res->status);
	call_free(c);
	arm(lv);
}

/* Whether message id (a snowflake: its top bits date it) is older than an
 * hour, on the host's clock. */
static bool
old_message(const char *id)
{
	struct timespec ts;
	int64_t made = (int64_t)(strtoull(id, NULL, 10) >> 22) + SHED_DISCORD_EPOCH_MS;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - made > PANEL_OLD_AFTER_MS;
}

/* Edits c's message to show body. */
static void
edit(struct discord_live *lv, struct call *c, const char *body)
{
	char path[96];

	if (old_message(c->msg))
		discord_panels_old(lv->p, c->chan);
	snprintf(path, sizeof(path), "/channels/%" PRIu64 "/messages/%s", c->chan, c->msg);
	lv->dc->stats.panel_edits++;
	discord_rest_call(lv->dc->rest, "PATCH", path, body, REST_OPTIONAL | REST_GONE_OK,
	                  on_edited, c);
}

/* Whether have holds every value of want (objects: each member of want's,
 * recursively; arrays: as many elements, each covered; anything else:
 * equal). Discord's message holds more than was sent (a button's id, the
 * author...). */
static bool
covers(const cJSON *want, const cJSON *have)
{
	const cJSON *w, *h;

	if (cJSON_IsObject(want)) {
		if (!cJSON_IsObject(have))
			return false;
		cJSON_ArrayForEach(w, want)
		{
			if (!covers(w, cJSON_GetObjectItemCaseSensitive(have, w->string)))
				return false;
		}
		return true;
	}
	if (cJSON_IsArray(want)) {
		if (!cJSON_IsArray(have) || cJSON_GetArraySize(want) != cJSON_GetArraySize(have))
			return false;
		for (w = want->child, h = have->child; w != NULL; w = w->next, h = h->next)
			if (!covers(w, h))
				return false;
		return true;
	}
	return have != NULL && cJSON_Compare(want, have, true);
}

/* Whether message msg (Discord's JSON) shows body (a message body as the
 * panel is sent): the same content, and what body says of its embeds and
 * components (none when it says nothing). */
static bool
shows(const char *msg, size_t len, const char *body)
{
	static const char *const keys[] = {"content", "embeds", "components"};
	cJSON *m = cJSON_ParseWithLength(msg, len), *b = cJSON_Parse(body);
	bool same = cJSON_IsObject(m) && cJSON_IsObject(b);

	for (size_t i = 0; same && i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(b, keys[i]);
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(m, keys[i]);

		if (w != NULL)
			same = covers(w, h);
		else if (i == 0)
			same = h == NULL || (cJSON_IsString(h) && h->valuestring[0] == '\0');
		else
			same = h == NULL || cJSON_GetArraySize(h) == 0;
	}
	cJSON_Delete(m);
	cJSON_Delete(b);
	return same;
}

/* A check's read of the message: gone, it is forgotten; showing the panel
 * already, nothing is sent; else (another panel, or the read refused: the
 * bot may lack Read Message History, which editing does not need) it is
 * edited. */
static void
on_read(void *ctx, const struct rest_result *res)
{
	struct call *c = ctx;
	struct discord_live *lv = c->lv;
	int code = res->status >= 400 ? discord_rest_error_code(res) : 0;
	char *body;

	if (res->status == 404 &&
	    (code == DISCORD_ERROR_UNKNOWN_MESSAGE || code == DISCORD_ERROR_UNKNOWN_CHANNEL)) {
		forget(lv, c, res);
		discord_panels_done(lv->p, c->chan, PANEL_GONE, now_ms(lv));
	} else if (res->status >= 200 && res->status <= 299 &&
	           shows(res->body, res->len, c->sent)) {
		discord_panels_done(lv->p, c->chan, PANEL_EDITED, now_ms(lv));
	} else if (!lv->closing && lv->dc->rest != NULL && !res->shed) {
		body = c->sent;
		c->sent = NULL;
		edit(lv, c, body);
		free(body);
		return;
	} else {
		discord_panels_done(lv->p, c->chan, PANEL_FAILED, now_ms(lv));
	}
	call_free(c);
	arm(lv);
}

/* A refresh's panel, rendered: the message it names is edited, unless it
 * shows that already. */
static void
refreshed(struct discord_live *lv, struct job *j, struct request *req)
{
	struct discord *dc = lv->dc;
	const struct reply *r = request_reply(req);
	const char *msg = reply_panel_message(r);
	char *body, path[96];
	struct call *c;
	uint64_t h;

	if (reply_is_error(r) || msg == NULL || dc->rest == NULL) {
		discord_panels_done(lv->p, j->chan, PANEL_FAILED, now_ms(lv));
		return;
	}
	discord_panels_message(lv->p, j->chan, msg);
	if (msg[0] == '\0' || (body = discord_interact_render_panel(dc->it, r)) == NULL) {
		discord_panels_done(lv->p, j->chan, PANEL_NONE, now_ms(lv));
		return;
	}
	h = discord_panel_hash(body, strlen(body));
	if (discord_panels_same(lv->p, j->chan, h)) {
		log_debug("discord: the panel of channel %" PRIu64 " reads as its message shows "
		          "it already: nothing sent",
		          j->chan);
		discord_panels_done(lv->p, j->chan, PANEL_EDITED, now_ms(lv));
		free(body);
		return;
	}
	c = xcalloc(1, sizeof(*c));
	c->lv = lv;
	c->chan = j->chan;
	snprintf(c->msg, sizeof(c->msg), "%s", msg);
	snprintf(path, sizeof(path), "/channels/%" PRIu64 "/messages/%s", j->chan, msg);
	if (discord_panels_checking(lv->p, j->chan)) {
		/* What the message shows is not known here: it is read first. */
		c->sent = body;
		discord_rest_call(dc->rest, "GET", path, NULL, REST_OPTIONAL | REST_GONE_OK,
		                  on_read, c);
		return;
	}
	edit(lv, c, body);
	free(body);
}

static void
on_timer(uv_timer_t *t)
{
	struct discord_live *lv = t->data;
	uint64_t due[DUE_BATCH];
	size_t n;

	lv->armed = INT64_MAX;
	if (lv->closing || lv->dc->rest == NULL)
		return;
	do {
		n = discord_panels_take_due(lv->p, now_ms(lv), due, DUE_BATCH);
		for (size_t i = 0; i < n; i++) {
			struct job *j = xcalloc(1, sizeof(*j));

			j->kind = JOB_REFRESH;
			j->chan = due[i];
			submit(lv, j, NULL, NULL);
		}
	} while (n == DUE_BATCH);
	arm(lv);
}

/* Sets the timer for the next refresh due, unless it is set early enough. */
static void
arm(struct discord_live *lv)
{
	int64_t next = discord_panels_next(lv->p), now = now_ms(lv);

	if (lv->closing || next == INT64_MAX || next >= lv->armed)
		return;
	lv->armed = next;
	uv_timer_start(&lv->timer, on_timer, next > now ? (uint64_t)(next - now) : 0, 0);
}

/* The road's watcher: a change kept in a channel with a panel. */
static void
on_stale(void *ctx, const struct request *req, const char *chan_key, const char *message)
{
	struct discord_live *lv = ctx;
	uint64_t chan = discord_panel_chan(chan_key);

	/* Recording where the panel is changes nothing it shows. */
	if (request_ctx(req) == lv || chan == 0)
		return;
	discord_panels_changed(lv->p, chan, message, now_ms(lv));
	arm(lv);
}

/* --- a new panel --- */

/* The answer to the DELETE of the panel a new one replaced (c: its channel
 * and message). A message someone deleted already answers 404 Unknown
 * Message, which is no fault: said at info. The REST layer warns of any
 * other failure but another 404, which is warned of here. */
static void
on_deleted(void *ctx, const struct rest_result *res)
{
	struct call *c = ctx;
	int code = res->status == 404 ? discord_rest_error_code(res) : 0;

	if (code == DISCORD_ERROR_UNKNOWN_MESSAGE || code == DISCORD_ERROR_UNKNOWN_CHANNEL)
		log_info("discord: the panel a new one replaced in channel %" PRIu64
		         " (message %s) was gone already (Discord answered 404)",
		         c->chan, c->msg);
	else if (res->status == 404)
		log_warnx("discord: the panel a new one replaced in channel %" PRIu64
		          " (message %s) could not be deleted (404, code %d)",
		          c->chan, c->msg, code);
	call_free(c);
}

/* The new panel is recorded: the one it replaces goes, and the new one
 * shows the changes counted when it was rendered. */
static void
placed(struct discord_live *lv, struct job *j, struct request *req)
{
	struct discord *dc = lv->dc;
	const char *old = reply_panel_message(request_reply(req));
	char path[96];
	struct call *c;

	if (reply_is_error(request_reply(req)))
		return;
	discord_panels_shown(lv->p, j->chan, j->msg, j->seq, j->body, now_ms(lv));
	arm(lv);
	if (old == NULL || old[0] == '\0' || strcmp(old, j->msg) == 0 || dc->rest == NULL)
		return;
	c = xcalloc(1, sizeof(*c));
	c->lv = lv;
	c->chan = j->chan;
	snprintf(c->msg, sizeof(c->msg), "%s", old);
	snprintf(path, sizeof(path), "/channels/%" PRIu64 "/messages/%s", j->chan, old);
	discord_rest_call(dc->rest, "DELETE", path, NULL, REST_OPTIONAL | REST_GONE_OK, on_deleted,
	                  c);
}

bool
discord_live_running(struct discord *dc, uint64_t *seq)
{
	struct discord_live *lv = dc->live;

	if (lv == NULL || lv->closing)
		return false;
	if (seq != NULL)
		*seq = discord_panels_seq(lv->p);
	return true;
}

void
discord_live_placed(struct discord *dc, uint64_t chan, const char *msg, const char *server,
                    uint64_t seq, uint64_t body)
{
	struct job *j;

	if (dc->live == NULL)
		return;
	j = xcalloc(1, sizeof(*j));
	j->kind = JOB_PLACE;
	j->chan = chan;
	j->seq = seq;
	j->body = body;
	snprintf(j->msg, sizeof(j->msg), "%s", msg);
	snprintf(j->server, sizeof(j->server), "%s", server);
	submit(dc->live, j, msg, NULL);
}

/* --- presses --- */

bool
discord_live_press(struct discord *dc, struct request *req)
{
	struct discord_live *lv = dc->live;
	const struct reply *r = request_reply(req);
	uint64_t chan = discord_panel_chan(request_origin(req)->chan_key);
	struct job *j;

	if (lv == NULL || lv->closing || discord_interact_pressed(req) == NULL ||
	    reply_is_error(r) || reply_msg(r, REPLY_CHANNEL) == NULL || chan == 0)
		return false;
	j = xcalloc(1, sizeof(*j));
	j->kind = JOB_PRESS;
	j->chan = chan;
	j->seq = discord_panels_seq(lv->p);
	j->press = req;
	submit(lv, j, NULL, NULL);
	return true;
}

/* A press's answer, interaction id, updates message msg of chan with a
 * panel rendered when the changes counted were seq, whose body as an edit
 * sends it hashes to body (0: not known): it is on its way until
 * discord_live_answered. */
static void
updating(struct discord_live *lv, uint64_t chan, const char *msg, uint64_t seq, uint64_t body,
         const char *id)
{
	struct update *u;

	HASH_FIND_STR(lv->updates, id, u);
	if (u != NULL)
		return; /* one answer each */
	u = xcalloc(1, sizeof(*u));
	snprintf(u->id, sizeof(u->id), "%s", id);
	u->chan = chan;
	u->seq = seq;
	u->body = body;
	HASH_ADD_STR(lv->updates, id, u);
	discord_panels_updating(lv->p, chan, msg);
}

void
discord_live_answered(struct discord *dc, const char *id, bool landed)
{
	struct discord_live *lv = dc->live;
	struct update *u;

	if (lv == NULL)
		return;
	HASH_FIND_STR(lv->updates, id, u);
	if (u == NULL)
		return;
	HASH_DEL(lv->updates, u);
	if (!lv->closing) {
		discord_panels_updated(lv->p, u->chan, u->seq, u->body, landed, now_ms(lv));
		arm(lv);
	}
	free(u);
}

/* The panel rendered after a press: the press is answered with it, when
 * the pressed message is the channel's panel; when that message shows
 * this panel already (the press changed nothing it shows), without an
 * update. */
static void
pressed(struct discord_live *lv, struct job *j, struct request *req)
{
	struct discord *dc = lv->dc;
	const struct reply *panel = request_reply(req);
	const char *msg = reply_panel_message(panel);
	const char *on = discord_interact_pressed(j->press);
	struct interact_out out;
	bool known = true;

	if (dc->rest == NULL)
		return;
	if (!reply_is_error(panel) && msg != NULL && strcmp(msg, on) == 0) {
		/* Rendered once: the body hashed is the body the answer carries. */
		char *body = discord_interact_render_panel(dc->it, panel);
		uint64_t h = body != NULL ? discord_panel_hash(body, strlen(body)) : 0;
		bool update = !discord_panels_shows(lv->p, j->chan, msg, h);

		/* The message shows the panel as it reads after the press's
		 * change: the refresh that change made due has nothing to do. */
		if (!update)
			discord_panels_shown(lv->p, j->chan, msg, j->seq, h, now_ms(lv));
		if (discord_interact_render_press(dc->it, j->press, body, update, &out))
			updating(lv, j->chan, msg, j->seq, h, out.id);
	} else {
		/* Not (or no longer) the channel's panel: a press as any. */
		known = discord_interact_render(dc->it, j->press, &out) == 0;
	}
	discord_answer_deliver(dc, j->press, &out, known, NULL);
	j->press = NULL;
}

/* The answer to a request of this module's. */
static void
live_answer(struct request *req, void *ctx)
{
	struct discord_live *lv = ctx;
	struct job *j = request_tag(req);

	if (!lv->closing) {
		switch (j->kind) {
		case JOB_REFRESH:
			refreshed(lv, j, req);
			arm(lv);
			break;
		case JOB_PRESS:
			pressed(lv, j, req);
			break;
		case JOB_PLACE:
			placed(lv, j, req);
			break;
		case JOB_FORGET:
			break;
		}
	}
	request_free(req);
}

struct start {
	struct discord_live *lv;
	int64_t due;
	size_t n;
};

/* Whether this process runs the shard of a guild (id; "" none: a DM's,
 * shard 0), as Discord routes it: (guild_id >> 22) % shard_count. */
static bool
runs_guild(const struct discord *dc, const char *server)
{
	uint64_t g;
	int shard;
	char *end;

	if (dc->shard_count <= 0)
		return false;
	if (server[0] == '\0') {
		shard = 0;
	} else {
		g = strtoull(server, &end, 10);
		if (*end != '\0' || end == server)
			return false;
		shard = (int)((g >> 22) % (uint64_t)dc->shard_count);
	}
	return shard >= dc->first && shard <= dc->last;
}

static void
start_one(const char *chan_key, const char *message, const char *server, void *ctx)
{
	struct start *st = ctx;
	uint64_t chan = discord_panel_chan(chan_key);

	if (chan == 0 || strlen(message) >= PANEL_ID_MAX ||
	    strspn(message, "0123456789") != strlen(message) || !runs_guild(st->lv->dc, server))
		return;
	discord_panels_check(st->lv->p, chan, message, st->due);
	st->due += PANEL_CHECK_GAP_MS;
	st->n++;
}

void
discord_live_started(struct discord *dc)
{
	struct discord_live *lv = dc->live;
	struct start st = {.lv = lv};

	if (lv == NULL || lv->closing || dc->d == NULL)
		return;
	st.due = now_ms(lv);
	panel_state_each(dispatch_state(dc->d), start_one, &st);
	if (st.n > 0)
		log_info("discord: %zu live panel%s to check", st.n, st.n == 1 ? "" : "s");
	arm(lv);
}

void
discord_live_start(struct discord *dc)
{
	struct discord_live *lv = xcalloc(1, sizeof(*lv));

	lv->dc = dc;
	lv->p = discord_panels_new();
	lv->armed = INT64_MAX;
	uv_timer_init(dc->loop, &lv->timer);
	lv->timer.data = lv;
	dc->live = lv;
	if (dc->d != NULL)
		dispatch_watch_panels(dc->d, on_stale, lv);
}

static void
timer_closed(uv_handle_t *h)
{
	struct discord_live *lv = h->data;

	if (lv->closed != NULL)
		lv->closed(lv->closed_ctx);
}

void
discord_live_close(struct discord *dc, void (*closed)(void *ctx), void *ctx)
{
	struct discord_live *lv = dc->live;

	lv->closing = true;
	lv->closed = closed;
	lv->closed_ctx = ctx;
	if (dc->d != NULL)
		dispatch_watch_panels(dc->d, NULL, NULL);
	uv_timer_stop(&lv->timer);
	uv_close((uv_handle_t *)&lv->timer, timer_closed);
}

void
discord_live_free(struct discord *dc)
{
	struct update *u, *tmp;

	if (dc->live == NULL)
		return;
	HASH_ITER(hh, dc->live->updates, u, tmp)
	{
		HASH_DEL(dc->live->updates, u);
		free(u);
	}
	discord_panels_free(dc->live->p);
	free(dc->live);
	dc->live = NULL;
}
