/* discord_answer: answers on their way to Discord; see discord_answer.h. */
#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_dm.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_live.h"
#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_roles.h"
#include "bot/discord/discord_shed.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#define LATENCY_MAX  (4u << 20)
#define SUMMARY_MS   10000 /* shed and failed answers are summed up this often */
#define FAIL_LOG_MAX 5     /* failed answers logged one by one per summary period */
#define DUE_BATCH    64    /* deferrals taken from the table at a time */
#define NS_PER_MS    1000000u

struct answer {
	struct discord *dc;
	uint64_t rx_ns;
	char id[24];
	char *followup_path;
	char *followups[2 * DISCORD_PARTS_MAX];
	size_t nfollowups, next; /* the follow-ups, the next one to send */
	char gm_user[24];        /* a direct message to send last, to this user */
	char gm_name[64];
	char gm_what[96]; /* what the GM's message is, for the invoker: "your secret roll" */
	bool gm_aside;    /* an aside to the answer (reply_gm_aside), not a secret roll */
	char gm_chan[24]; /* where it goes when the GM takes no DMs, or "" */
	char *dm_body;
	char dm_chan[DISCORD_DM_ID]; /* the DM channel the message went to */
	bool dm_cached;              /* that channel id came from dc->dm */
};

static void
on_summary_timer(uv_timer_t *t)
{
	discord_answer_summary(t->data);
}

/* The summary period's end (also at stop): what was shed or failed. */
void
discord_answer_summary(struct discord *dc)
{

	dc->summary_due = false;
	if (dc->summary_shed > 0)
		log_warnx(
		    "discord: %llu interaction%s could no longer be answered within Discord's "
		    "3 s and went unanswered in the last %d s (overload); %llu since the start",
		    (unsigned long long)dc->summary_shed, dc->summary_shed == 1 ? "" : "s",
		    SUMMARY_MS / 1000, (unsigned long long)dc->stats.shed);
	if (dc->summary_failed > (uint64_t)dc->failed_logged)
		log_warnx("discord: %llu more answers failed in the last %d s",
		          (unsigned long long)(dc->summary_failed - (uint64_t)dc->failed_logged),
		          SUMMARY_MS / 1000);
	dc->summary_shed = dc->summary_failed = 0;
	dc->failed_logged = 0;
}

/* Starts a summary period unless one runs. */
static void
summary_arm(struct discord *dc)
{
	if (dc->summary_due || dc->stopped)
		return;
	dc->summary_due = true;
	uv_timer_start(&dc->summary_timer, on_summary_timer, SUMMARY_MS, 0);
}

void
discord_answer_count_shed(struct discord *dc)
{
	dc->stats.shed++;
	dc->summary_shed++;
	discord_opstats_add(OPSTATS_SHED);
	summary_arm(dc);
}

/* Counts a failed answer; true when it may have a log line of its own. */
static bool
count_failed(struct discord *dc)
{
	dc->stats.failed++;
	dc->summary_failed++;
	discord_opstats_add(OPSTATS_FAILED);
	summary_arm(dc);
	if (dc->failed_logged >= FAIL_LOG_MAX)
		return false;
	dc->failed_logged++;
	return true;
}

static void
record(struct discord *dc, uint64_t ns)
{
	if (!dc->record || dc->nlat == LATENCY_MAX)
		return;
	if (dc->nlat == dc->caplat) {
		dc->caplat = dc->caplat ? dc->caplat * 2 : 4096;
		dc->lat = xrealloc(dc->lat, dc->caplat * sizeof(*dc->lat));
	}
	dc->lat[dc->nlat++] = ns;
}

/* The answer to interaction id is over (sent, refused or given up): a
 * restart need not replay it (discord_seqs.h). */
static void
over(struct discord *dc, const char *id)
{
	discord_interaction_over(dc, strtoull(id, NULL, 10));
}

static void
answer_free(struct answer *a)
{
	over(a->dc, a->id);
	free(a->followup_path);
	for (size_t i = 0; i < a->nfollowups; i++)
		free(a->followups[i]);
	free(a->dm_body);
	free(a);
}

static void dm_start(struct answer *a);
static void send_edit(struct discord *dc, struct defer_item *item);
static void dm_send(struct answer *a);

static void on_followup(void *ctx, const struct rest_result *res);

/* Sends the next follow-up of an answer, or frees the answer when none is
 * left: one at a time, so that they arrive in order. The operator stats
 * count an answer with follow-ups as answered once the last one went. */
static void
next_followup(struct answer *a)
{
	struct discord *dc = a->dc;

	if (a->next >= a->nfollowups) {
		if (a->nfollowups > 0)
			discord_opstats_add(OPSTATS_ANSWERED);
		if (a->gm_user[0] != '\0' && dc->rest != NULL)
			dm_start(a);
		else
			answer_free(a);
		return;
	}
	if (dc->rest == NULL) {
		count_failed(dc); /* REST stopped: the rest of the answer is lost */
		answer_free(a);
		return;
	}
	dc->stats.followups++;
	discord_rest_call(dc->rest, "POST", a->followup_path, a->followups[a->next++],
	                  REST_INTERACTION, on_followup, a);
}

static void
on_followup(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;

	if (res->status < 200 || res->status > 299) {
		/* a failed answer for the operator, as a failed callback is */
		if (count_failed(a->dc))
			log_warnx("discord: follow-up %zu of %zu of the answer to interaction %s "
			          "failed (%ld); the rest of the answer is not sent",
			          a->next, a->nfollowups, a->id, res->status);
		answer_free(a);
		return;
	}
	next_followup(a);
}

/* Tells the invoker text by an ephemeral follow-up; frees the answer. */
static void
tell_invoker(struct answer *a, const char *text)
{
	struct discord *dc = a->dc;
	cJSON *o;
	char *body;

	if (a->followup_path == NULL || dc->rest == NULL) {
		answer_free(a);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "content", text);
	cJSON_AddNumberToObject(o, "flags", 64);
	cJSON_AddArrayToObject(cJSON_AddObjectToObject(o, "allowed_mentions"), "parse");
	body = json_print(o);
	cJSON_Delete(o);
	dc->stats.followups++;
	discord_rest_call(dc->rest, "POST", a->followup_path, body,
	                  REST_INTERACTION | REST_OPTIONAL, NULL, NULL);
	free(body);
	answer_free(a);
}

/* The message to the GM's channel for secret rolls went, or not. */
static void
on_secret_channel(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;
	char text[600];

	if (res->status >= 200 && res->status <= 299) {
		a->dc->stats.dms++;
		snprintf(text, sizeof(text),
		         "The GM, %s, takes no direct messages from delver, so %s went to <#%s>, "
		         "where the GM reads secret rolls.",
		         a->gm_name, a->gm_what, a->gm_chan);
	} else {
		log_warnx("discord: the secret roll of interaction %s could not go to channel %s, "
		          "which the GM set for them (%ld%s%.120s)",
		          a->id, a->gm_chan, res->status, res->len > 0 ? ": " : "",
		          res->len > 0 ? res->body : "");
		snprintf(
		    text, sizeof(text),
		    "The GM, %s, takes no direct messages from delver, and <#%s>, where the GM "
		    "reads secret rolls, refused delver's message (Discord answered %ld), so "
		    "nobody saw %s; the GM can let delver post there or name another with /gm "
		    "secret-channel.",
		    a->gm_name, a->gm_chan, res->status, a->gm_what);
	}
	tell_invoker(a, text);
}

/* Tells the invoker, by an ephemeral follow-up, that the GM's direct
 * message did not go (status: Discord's answer; closed: the GM takes no
 * direct messages from the bot; known: that was known already, nothing
 * was asked); frees the answer. When the GM takes none and set a channel
 * for secret rolls, the message goes there instead, and the invoker is
 * told where. */
static void
dm_refused(struct answer *a, long status, bool closed, bool known)
{
	struct discord *dc = a->dc;
	char text[512], path[64];

	if (closed && a->gm_chan[0] != '\0' && dc->rest != NULL) {
		log_debug("discord: the GM of interaction %s takes no direct messages; the "
		          "message goes to channel %s",
		          a->id, a->gm_chan);
		snprintf(path, sizeof(path), "/channels/%s/messages", a->gm_chan);
		discord_rest_call(dc->rest, "POST", path, a->dm_body, 0, on_secret_channel, a);
		return;
	}
	if (known)
		log_debug("discord: the GM of interaction %s takes no direct messages (known); "
		          "not tried",
		          a->id);
	else
		log_warnx("discord: the direct message to the GM for interaction %s failed "
		          "(%ld%s)",
		          a->id, status, closed ? ": the GM takes no direct messages" : "");
	if (closed)
		snprintf(text, sizeof(text),
		         "The GM, %s, takes no direct messages from delver, so nobody saw %s; "
		         "they can allow direct messages from this server's members (Privacy "
		         "Settings) or name a channel for secret rolls with /gm secret-channel%s.",
		         a->gm_name, a->gm_what,
		         a->gm_aside ? "" : ", or you can roll in the open");
	else
		snprintf(text, sizeof(text),
		         "delver could not send %s to the GM, %s (Discord answered %ld), so nobody "
		         "saw it%s.",
		         a->gm_what, a->gm_name, status,
		         a->gm_aside ? "" : "; roll again in a minute");
	tell_invoker(a, text);
}

static void
on_dm_sent(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;

	/* A kept DM channel Discord no longer knows (404, code 10003) is
	 * forgotten and opened again, once. */
	if (res->status == 404 && discord_rest_error_code(res) == DISCORD_ERROR_UNKNOWN_CHANNEL) {
		discord_dm_drop(a->dc->dm, a->gm_user, a->dm_chan);
		if (a->dm_cached && a->dc->rest != NULL) {
			a->dm_cached = false;
			dm_start(a);
			return;
		}
	}
	if (res->status < 200 || res->status > 299) {
		bool closed =
		    res->status == 403 && discord_rest_error_code(res) == DISCORD_ERROR_CANNOT_DM;

		if (closed)
			discord_dm_refuse(a->dc->dm, a->gm_user, a->dm_chan,
			                  (int64_t)uv_now(a->dc->loop));
		dm_refused(a, res->status, closed, false);
		return;
	}
	a->dc->stats.dms++;
	answer_free(a);
}

static void
on_dm_channel(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;
	struct discord *dc = a->dc;
	cJSON *j = NULL;
	const char *id = NULL;

	if (res->status >= 200 && res->status <= 299 && res->len > 0) {
		j = cJSON_ParseWithLength(res->body, res->len);
		id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "id"));
	}
	if (id == NULL || !discord_dm_snowflake(id) || dc->rest == NULL) {
		cJSON_Delete(j);
		dm_refused(a, res->status,
		           res->status == 403 &&
		               discord_rest_error_code(res) == DISCORD_ERROR_CANNOT_DM,
		           false);
		return;
	}
	snprintf(a->dm_chan, sizeof(a->dm_chan), "%s", id);
	cJSON_Delete(j);
	discord_dm_put(dc->dm, a->gm_user, a->dm_chan);
	dm_send(a);
}

/* Sends the GM's message to the DM channel a->dm_chan. */
static void
dm_send(struct answer *a)
{
	char path[64];

	snprintf(path, sizeof(path), "/channels/%s/messages", a->dm_chan);
	discord_rest_call(a->dc->rest, "POST", path, a->dm_body, 0, on_dm_sent, a);
}

/* Sends the GM's message to the DM channel with the GM: the one kept from
 * an earlier secret roll, else the one Discord opens (or finds: it answers
 * with the same channel each time). */
static void
dm_start(struct answer *a)
{
	char body[64];

	if (discord_dm_refused(a->dc->dm, a->gm_user, (int64_t)uv_now(a->dc->loop))) {
		dm_refused(a, 403, true, true);
		return;
	}
	if (discord_dm_find(a->dc->dm, a->gm_user, a->dm_chan)) {
		a->dm_cached = true;
		dm_send(a);
		return;
	}
	snprintf(body, sizeof(body), "{\"recipient_id\":\"%s\"}", a->gm_user);
	discord_rest_call(a->dc->rest, "POST", "/users/@me/channels", body, 0, on_dm_channel, a);
}

static void
on_callback(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;
	struct discord *dc = a->dc;

	if (res->status >= 200 && res->status <= 299) {
		uint64_t took = res->sent_ns > a->rx_ns ? res->sent_ns - a->rx_ns : 0;

		dc->stats.answered++;
		if (a->nfollowups == 0)
			discord_opstats_add(
			    OPSTATS_ANSWERED); /* else once the last follow-up went */
		discord_opstats_time(took);
		record(dc, took);
		next_followup(a);
		return;
	} else if (res->expired) {
		discord_answer_count_shed(dc); /* it waited in the queue past its deadline */
	} else if (res->status == 400 &&
	           discord_rest_error_code(res) == DISCORD_ERROR_ALREADY_ACKNOWLEDGED) {
		/* A replay after a restart re-sent an interaction the previous
		 * process had answered (its saved sequence lags by up to 1 s). */
		log_debug("discord: interaction %s was answered before the restart", a->id);
	} else if (count_failed(dc)) {
		log_warnx("discord: the answer to interaction %s failed (%ld%s%.200s)", a->id,
		          res->status, res->len > 0 ? ": " : "", res->len > 0 ? res->body : "");
	}
	answer_free(a);
}

/* An answer for out: its follow-ups and its GM message move into it. */
static struct answer *
answer_new(struct discord *dc, struct interact_out *out, uint64_t rx_ns)
{
	struct answer *a = xcalloc(1, sizeof(*a));

	a->dc = dc;
	a->rx_ns = rx_ns;
	snprintf(a->id, sizeof(a->id), "%s", out->id);
	a->followup_path = out->followup_path;
	memcpy(a->followups, out->followups, out->nfollowups * sizeof(*a->followups));
	a->nfollowups = out->nfollowups;
	memcpy(a->gm_user, out->gm_user, sizeof(a->gm_user));
	memcpy(a->gm_name, out->gm_name, sizeof(a->gm_name));
	memcpy(a->gm_what, out->gm_what, sizeof(a->gm_what));
	a->gm_aside = out->gm_aside;
	memcpy(a->gm_chan, out->gm_chan, sizeof(a->gm_chan));
	a->dm_body = out->dm_body;
	out->dm_body = NULL;
	out->followup_path = NULL;
	out->nfollowups = 0;
	return a;
}

void
discord_answer_now(struct discord *dc, struct interact_out *out)
{
	struct answer *a = answer_new(dc, out, out->rx_ns);

	dc->stats.interactions++;
	discord_rest_call_until(dc->rest, "POST", out->callback_path, out->callback_body,
	                        REST_INTERACTION | REST_ESSENTIAL, out->deadline, on_callback, a);
}

static void
on_edit(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;

	if (res->status < 200 || res->status > 299) {
		if (count_failed(a->dc))
			log_warnx("discord: the edit of the deferred answer to interaction %s "
			          "failed (%ld%s%.200s)",
			          a->id, res->status, res->len > 0 ? ": " : "",
			          res->len > 0 ? res->body : "");
		answer_free(a);
		return;
	}
	if (a->nfollowups == 0)
		discord_opstats_add(OPSTATS_ANSWERED); /* else once the last follow-up went */
	next_followup(a);
}

/* The answer kept in item completes its deferral: the edit of @original,
 * then the follow-ups. The item is forgotten. */
static void
edit_deferred(struct discord *dc, struct defer_item *item)
{
	send_edit(dc, item);
	discord_defer_remove(dc->defer, item);
}

/* The answer kept in item (item->ready: its strings are taken) completes
 * a deferral: the edit of @original, then the follow-ups. */
static void
send_edit(struct discord *dc, struct defer_item *item)
{
	struct answer *a;
	char *patch = NULL;
	struct buf path;
	/* The token's 15 minutes run from the creation. */
	uint64_t until = discord_defer_due_at(item->rx_ns, item->deadline) -
	                 (uint64_t)DEFER_AFTER_MS * NS_PER_MS +
	                 (uint64_t)DEFER_TOKEN_MS * NS_PER_MS;

	if (dc->rest == NULL || discord_defer_edit(item, &item->ready, &patch) < 0) {
		if (count_failed(dc))
			log_warnx(
			    "discord: the deferred answer to interaction %s could not be sent",
			    item->ready.id);
		over(dc, item->ready.id);
		return;
	}
	a = answer_new(dc, &item->ready, item->rx_ns);
	if (patch == NULL) {
		/* A button's: the answer is all follow-ups. */
		next_followup(a);
	} else {
		buf_init(&path, 4096);
		buf_addf(&path, "%s/messages/@original", a->followup_path);
		discord_rest_call_until(dc->rest, "PATCH", buf_str(&path), patch,
		                        REST_INTERACTION | REST_ESSENTIAL, until, on_edit, a);
		buf_free(&path);
		free(patch);
	}
}

static void
on_deferred(void *ctx, const struct rest_result *res)
{
	struct defer_item *item = ctx;
	struct discord *dc = item->ctx;

	if (res->status >= 200 && res->status <= 299) {
		uint64_t took = res->sent_ns > item->rx_ns ? res->sent_ns - item->rx_ns : 0;

		item->state = DEFER_SENT;
		dc->stats.answered++;
		dc->stats.deferred++;
		discord_opstats_add(OPSTATS_DEFERRED);
		discord_opstats_time(took);
		record(dc, took);
		if (item->have_ready)
			edit_deferred(dc, item);
		return;
	}
	if (res->expired)
		discord_answer_count_shed(dc); /* it waited in the queue past its deadline */
	else if (res->status == 400 &&
	         discord_rest_error_code(res) == DISCORD_ERROR_ALREADY_ACKNOWLEDGED)
		log_debug("discord: interaction %llu was answered before the restart",
		          (unsigned long long)item->id);
	else if (count_failed(dc))
		log_warnx("discord: the deferral of interaction %llu failed (%ld%s%.200s)",
		          (unsigned long long)item->id, res->status, res->len > 0 ? ": " : "",
		          res->len > 0 ? res->body : "");
	item->state = DEFER_LOST;
	if (item->have_ready) {
		over(dc, item->ready.id);
		discord_defer_remove(dc->defer, item);
	}
}

static void on_defer_timer(uv_timer_t *t);

/* Sends the deferrals due now, then sets the timer for the next one, which
 * is in the future: the timer never fires for nothing twice. */
static void
defer_run(struct discord *dc)
{
	struct defer_item *due[DUE_BATCH];
	uint64_t now = uv_hrtime(), next, ms;
	size_t n;

	if (dc->rest == NULL || dc->stopped)
		return;
	do {
		n = discord_defer_take_due(dc->defer, now, due, DUE_BATCH);
		for (size_t i = 0; i < n; i++) {
			due[i]->ctx = dc;
			/* A command that has run by now tells whether its answer
			 * is private: then so is its deferral. */
			if (due[i]->req != NULL && discord_interact_private(due[i]->req))
				due[i]->private = true;
			dc->stats.interactions++;
			discord_rest_call_until(dc->rest, "POST", due[i]->callback_path,
			                        discord_defer_body(due[i]),
			                        REST_INTERACTION | REST_ESSENTIAL, due[i]->deadline,
			                        on_deferred, due[i]);
		}
	} while (n == DUE_BATCH);
	/* 0 (none waits), or after now: what was due went. It may be early
	 * (an answer came before its deferral was due): the timer then finds
	 * nothing due and is set again for the real one. */
	next = discord_defer_next(dc->defer);
	if (next == 0) {
		uv_timer_stop(&dc->defer_timer);
		dc->defer_armed = 0;
		return;
	}
	if (dc->defer_armed != 0 && dc->defer_armed <= next &&
	    uv_is_active((uv_handle_t *)&dc->defer_timer))
		return; /* set early enough already */
	ms = next > now ? (next - now + NS_PER_MS - 1) / NS_PER_MS : 1;
	dc->defer_armed = next;
	uv_timer_start(&dc->defer_timer, on_defer_timer, ms, 0);
}

static void
on_defer_timer(uv_timer_t *t)
{
	struct discord *dc = t->data;

	dc->defer_armed = 0;
	defer_run(dc);
}

void
discord_answer_hold(struct discord *dc, const struct interact_out *out, struct request *req)
{
	char *end;
	uint64_t id = strtoull(out->id, &end, 10);
	struct defer_item *item;

	/* Without a deadline there is nothing to be late for; without the
	 * application's id, no way to edit a deferral. */
	if (dc->rest == NULL || out->deadline == 0 || out->followup_path == NULL ||
	    out->callback_path == NULL)
		return;
	item = discord_defer_add(dc->defer, id, out->type, out->defer_private, out->callback_path,
	                         out->followup_path, out->rx_ns, out->deadline);
	if (item != NULL) {
		item->req = req;
		defer_run(dc);
	}
}

/* A /panel's answer says why its panel was not posted (refusal), instead
 * of what was rendered: one private message. */
static void
refuse(struct discord *dc, struct interact_out *out, const char *refusal)
{
	free(out->callback_body);
	out->callback_body = discord_interact_note_body(dc->it, refusal);
	for (size_t i = 0; i < out->nfollowups; i++)
		free(out->followups[i]);
	out->nfollowups = 0;
	out->error = true;
}

/* A replayed interaction's answer waits for Discord to say whether an
 * earlier process answered it (GET @original). */
struct check {
	struct discord *dc;
	struct interact_out out;
	char *webhook;                  /* "/webhooks/<application id>/<token>" */
	struct discord_live_post *post; /* a /panel's panel, posted if not answered */
	bool loading;                   /* the earlier process deferred it: the answer edits */
	bool loading_private;           /* that deferral is ephemeral */
};

#define MESSAGE_LOADING 0x80 /* a deferral's message, not completed yet */

static void
check_free(struct check *c)
{
	discord_live_post_drop(c->post);
	discord_interact_out_clear(&c->out);
	free(c->webhook);
	free(c);
}

/* A replay nobody answered, or whose deferral nobody completed, is
 * answered (refusal: its panel was not posted, and why; NULL else). */
static void
check_answer(struct check *c, const char *refusal)
{
	struct discord *dc = c->dc;

	if (refusal != NULL)
		refuse(dc, &c->out, refusal);
	if (c->loading) {
		struct defer_item item = {.type = c->out.type,
		                          .private = c->loading_private,
		                          .rx_ns = c->out.rx_ns,
		                          .deadline = c->out.deadline};

		item.ready = c->out;
		item.webhook_path = c->webhook;
		memset(&c->out, 0, sizeof(c->out));
		send_edit(dc, &item);
		discord_interact_out_clear(&item.ready);
	} else if (c->out.deadline != 0 && uv_hrtime() >= c->out.deadline) {
		discord_answer_count_shed(dc);
		over(dc, c->out.id);
	} else {
		discord_answer_now(dc, &c->out);
	}
	check_free(c);
}

static void
check_posted(void *ctx, const char *refusal)
{
	check_answer(ctx, refusal);
}

/* Discord's word on a replayed interaction: no original response (404):
 * nobody answered it, so the answer goes now if it still may; a deferral
 * not completed (the LOADING flag): the answer completes it, as an edit;
 * an original response: it was answered, and is not answered again. A
 * /panel answered by nobody posts its panel first, and its answer says
 * what became of it. */
static void
on_original(void *ctx, const struct rest_result *res)
{
	struct check *c = ctx;
	struct discord *dc = c->dc;
	struct discord_live_post *post;
	cJSON *j;
	const cJSON *flags;
	char why[400];

	if (res->status == 404) {
		c->loading = false;
	} else if (res->status >= 200 && res->status <= 299 &&
	           (j = cJSON_ParseWithLength(res->body, res->len)) != NULL &&
	           (flags = cJSON_GetObjectItemCaseSensitive(j, "flags"), true)) {
		bool loading =
		    cJSON_IsNumber(flags) && ((unsigned)flags->valueint & MESSAGE_LOADING) != 0;

		c->loading = loading;
		c->loading_private = loading && (flags->valueint & DISCORD_FLAG_EPHEMERAL) != 0;
		cJSON_Delete(j);
		if (!loading) {
			dc->stats.replayed_answered++;
			log_debug("discord: interaction %s was answered before the restart",
			          c->out.id);
			over(dc, c->out.id);
			check_free(c);
			return;
		}
	} else {
		/* Not known: answering could answer twice; at most once. */
		if (count_failed(dc))
			log_warnx(
			    "discord: cannot tell whether replayed interaction %s was answered "
			    "(%ld); it is not answered again",
			    c->out.id, res->status);
		over(dc, c->out.id);
		check_free(c);
		return;
	}
	/* Nobody answered it, so nobody posted its panel either. */
	if ((post = c->post) != NULL) {
		c->post = NULL;
		if (discord_live_post_send(dc, post, check_posted, c, why, sizeof(why)) == 0)
			return;
		check_answer(c, why);
		return;
	}
	check_answer(c, NULL);
}

/* The answer to out's interaction, which no earlier process answered:
 * now, or as the edit of this process's deferral once Discord took it;
 * shed when too late. out is emptied. */
static void
answer_here(struct discord *dc, struct interact_out *out)
{
	struct defer_item *item = discord_defer_find(dc->defer, strtoull(out->id, NULL, 10));

	if (item != NULL)
		item->req = NULL; /* answered: gone */
	if (dc->rest == NULL || (item != NULL && item->state == DEFER_LOST)) {
		/* Nothing to send, or the deferral failed (counted already). */
		if (item != NULL)
			discord_defer_remove(dc->defer, item);
		over(dc, out->id);
		discord_interact_out_clear(out);
		return;
	}
	if (item != NULL && item->state != DEFER_WAITING) {
		/* Deferred: the answer edits the deferral, once Discord took it. */
		item->ready = *out;
		item->have_ready = true;
		memset(out, 0, sizeof(*out));
		if (item->state == DEFER_SENT)
			edit_deferred(dc, item);
		return;
	}
	if (item != NULL)
		discord_defer_remove(dc->defer, item); /* in time: no deferral */
	if (out->deadline != 0 && uv_hrtime() >= out->deadline) {
		discord_answer_count_shed(dc);
		over(dc, out->id);
	} else {
		discord_answer_now(dc, out);
	}
	discord_interact_out_clear(out);
}

/* A /panel's answer, waiting for its panel's post: its request (NULL once
 * freed: a replay this process deferred) and its answer as rendered. */
struct posting {
	struct discord *dc;
	struct request *req;
	struct interact_out out;
};

static void
panel_posted(void *ctx, const char *refusal)
{
	struct posting *p = ctx;

	if (refusal != NULL)
		refuse(p->dc, &p->out, refusal);
	if (p->req != NULL)
		discord_answer_deliver(p->dc, p->req, &p->out, true, NULL);
	else
		answer_here(p->dc, &p->out);
	free(p);
}

/* Posts a /panel's panel, then sends its answer (req: its request, or
 * NULL), saying what became of the panel; out is taken. */
static void
post_then_answer(struct discord *dc, struct request *req, struct interact_out *out,
                 struct discord_live_post *post)
{
	struct posting *p = xcalloc(1, sizeof(*p));
	char why[400];

	p->dc = dc;
	p->req = req;
	p->out = *out;
	memset(out, 0, sizeof(*out));
	if (discord_live_post_send(dc, post, panel_posted, p, why, sizeof(why)) < 0)
		panel_posted(p, why);
}

/* A replay that came past Discord's 3 s, not worked out (as discord_answer_count_shed's);
 * GET @original tells what it was. */
struct late {
	struct discord *dc;
	char id[24];
};

/* Discord's word on a late replay: an original response (not a deferral
 * left loading) means an earlier process answered it, and it is counted
 * so; anything else means it went unanswered: shed, as ever. */
static void
on_late_original(void *ctx, const struct rest_result *res)
{
	struct late *l = ctx;
	struct discord *dc = l->dc;
	cJSON *j = NULL;
	const cJSON *flags;

	if (res->status >= 200 && res->status <= 299 &&
	    (j = cJSON_ParseWithLength(res->body, res->len)) != NULL &&
	    (flags = cJSON_GetObjectItemCaseSensitive(j, "flags"),
	     !cJSON_IsNumber(flags) || ((unsigned)flags->valueint & MESSAGE_LOADING) == 0)) {
		dc->stats.replayed_answered++;
		log_debug("discord: interaction %s, replayed too late to answer, was answered "
		          "before the restart",
		          l->id);
	} else {
		discord_answer_count_shed(dc);
	}
	cJSON_Delete(j);
	free(l);
}

void
discord_answer_late_replay(struct discord *dc, const struct cJSON *d)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "id"));
	char *hook = discord_interact_webhook_of(d);
	char path[2200];
	struct late *l;

	if (hook == NULL || id == NULL || strlen(id) >= sizeof(l->id) || dc->rest == NULL) {
		free(hook);
		discord_answer_count_shed(dc);
		return;
	}
	if (dc->late_checks >= DISCORD_LATE_CHECKS_MAX) {
		free(hook);
		dc->stats.replayed_unknown++;
		if (!dc->late_cap_said)
			log_warnx(
			    "discord: more than %d interactions were replayed too late to "
			    "answer since the resume; the others are not checked with Discord, "
			    "so whether an earlier process answered them is not known",
			    DISCORD_LATE_CHECKS_MAX);
		dc->late_cap_said = true;
		return;
	}
	dc->late_checks++;
	l = xcalloc(1, sizeof(*l));
	l->dc = dc;
	snprintf(l->id, sizeof(l->id), "%s", id);
	snprintf(path, sizeof(path), "%s/messages/@original", hook);
	free(hook);
	dc->stats.replayed++;
	discord_rest_call(dc->rest, "GET", path, NULL, REST_INTERACTION | REST_OPTIONAL,
	                  on_late_original, l);
}

void
discord_answer_replays_over(struct discord *dc)
{
	dc->late_checks = 0;
	dc->late_cap_said = false;
}

void
discord_answer_deliver(struct discord *dc, struct request *req, struct interact_out *out,
                       bool known, struct discord_live_post *post)
{
	struct defer_item *item;
	/* A replay, which an earlier process may have answered or deferred,
	 * whether it had committed it (its mark found) or not (its
	 * deferral, then a kill before the commit). */
	bool check = request_replayed(req);
	const char *hook = discord_interact_webhook(req);
	char *webhook = hook != NULL ? xstrdup(hook) : NULL; /* req's is freed with it */
	char path[2200];

	snprintf(path, sizeof(path), "%s/messages/@original", webhook != NULL ? webhook : "");
	request_free(req);
	item = discord_defer_find(dc->defer, strtoull(out->id, NULL, 10));
	if (item != NULL)
		item->req = NULL; /* answered: gone */
	if (dc->rest == NULL || !known || (check && webhook == NULL)) {
		/* Nothing to send, or no way to tell whether it was answered. */
		if (dc->rest != NULL && !known)
			log_warnx("discord: the answer kept for replayed interaction %s cannot be "
			          "read; it is not answered again",
			          out->id);
		if (item != NULL)
			discord_defer_remove(dc->defer, item);
		over(dc, out->id);
		discord_interact_out_clear(out);
		discord_live_post_drop(post);
		free(webhook);
		return;
	}
	if (check && (item == NULL || item->state == DEFER_WAITING)) {
		struct check *c = xcalloc(1, sizeof(*c));

		if (item != NULL)
			discord_defer_remove(dc->defer, item);
		c->dc = dc;
		c->out = *out;
		c->webhook = webhook;
		c->post = post;
		dc->stats.replayed++;
		discord_rest_call(dc->rest, "GET", path, NULL, REST_INTERACTION | REST_ESSENTIAL,
		                  on_original, c);
		return;
	}
	free(webhook);
	if (post != NULL && item != NULL && item->state != DEFER_LOST) {
		/* A replayed /panel this process deferred: Discord took that
		 * deferral, so nobody answered it before. */
		post_then_answer(dc, NULL, out, post);
		return;
	}
	discord_live_post_drop(post);
	answer_here(dc, out);
}

/* A request's answer came (its answer function; ctx: the struct discord).
 * A press of a panel's button waits for the panel rendered anew; a
 * /panel's panel goes to the channel first (discord_live.h), and its
 * answer says whether it went: once, when that is known (meanwhile the
 * interaction is deferred, as any late answer, if Discord's 3 s run
 * short). */
void
discord_answer_request(struct request *req, void *ctx)
{
	struct discord *dc = ctx;
	struct interact_out out;
	struct discord_live_post *post = NULL;
	bool known;

	/* A replay whose change was kept gets the answer kept then: no press
	 * answered with the panel anew. A replayed /panel (it changes nothing,
	 * so it has no mark) posts its panel only if Discord says nobody
	 * answered it (discord_answer_deliver). */
	if (dc->rest != NULL && request_outcome(req) != REQUEST_REPLAYED) {
		if (discord_live_press(dc, req))
			return;
		post = discord_live_post_new(dc, req);
	}
	known = discord_interact_render(dc->it, req, &out) == 0;
	if (post != NULL && !request_replayed(req)) {
		post_then_answer(dc, req, &out, post);
		return;
	}
	discord_answer_deliver(dc, req, &out, known, post);
}
