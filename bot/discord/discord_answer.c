/* discord_answer: answers on their way to Discord; see discord_answer.h. */
#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot/discord/discord_answer_gm.h"
#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_live.h"
#include "bot/discord/discord_live_post.h"
#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_pending.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_roles.h"
#include "bot/discord/discord_shed.h"
#include "bot/discord/discord_unanswered.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define LATENCY_MAX  (4u << 20)
#define SUMMARY_MS   10000 /* failed answers are summed up this often */
#define FAIL_LOG_MAX 5     /* failed answers logged one by one per summary period */
#define DUE_BATCH    64    /* deferrals taken from the table at a time */
#define NS_PER_MS    1000000u

struct answer {
	struct discord *dc;
	uint64_t rx_ns;
	char id[24];
	uint64_t idn; /* id as its number, 0 when not known */
	char *followup_path;
	char *followups[2 * DISCORD_PARTS_MAX];
	size_t nfollowups, next;      /* the follow-ups, the next one to send */
	struct discord_answer_gm *gm; /* a message to send the GM last, or NULL */
	/* A button's deferred answer that is all follow-ups: its note
	 * (discord_pending.h) goes once the first one went. */
	bool noted;
};

static void
on_summary_timer(uv_timer_t *t)
{
	discord_answer_summary(t->data);
}

/* The summary period's end (also at stop): what failed, and what went
 * unanswered and is not told yet. */
void
discord_answer_summary(struct discord *dc)
{
	dc->summary_due = false;
	if (dc->stopped && discord_unanswered_pending(dc))
		discord_unanswered_tell(dc, true);
	if (dc->summary_failed > (uint64_t)dc->failed_logged)
		log_warnx("discord: %llu more answers failed in the last %d s",
		          (unsigned long long)(dc->summary_failed - (uint64_t)dc->failed_logged),
		          SUMMARY_MS / 1000);
	dc->summary_failed = 0;
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

/* Counts an interaction whose command ran (or had run before a restart:
 * handled_before) and whose answer can no longer go: shed, told apart. */
static void
count_shed_ran(struct discord *dc, bool handled_before)
{
	discord_unanswered_count(
	    dc, handled_before ? DISCORD_UNANSWERED_HANDLED : DISCORD_UNANSWERED_RAN, 0);
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

/* An interaction's id (interact_out's digits, checked when its event was
 * read) as its number. */
static uint64_t
id_value(const char *id)
{
	uint64_t v = 0;

	(void)discord_json_snowflake(id, &v);
	return v;
}

/* An interaction's id as its number: idn when known (not 0), else id's. */
static uint64_t
id_num(const char *id, uint64_t idn)
{
	return idn != 0 ? idn : id_value(id);
}

/* out's interaction id as its number. */
static uint64_t
out_id(const struct interact_out *out)
{
	return id_num(out->id, out->idn);
}

/* The answer to interaction id is over (sent, refused or given up): a
 * restart need not replay it (discord_seqs.h), and a panel's update it
 * carried that did not land by now never will (discord_live_answered). */
static void
over(struct discord *dc, const char *id, uint64_t idn)
{
	discord_live_answered(dc, id, false);
	discord_interaction_over(dc, id_num(id, idn));
}

/* Frees a without ending its interaction (answer_free ends it). */
static void
answer_drop(struct answer *a)
{
	free(a->followup_path);
	for (size_t i = 0; i < a->nfollowups; i++)
		free(a->followups[i]);
	discord_answer_gm_free(a->gm);
	free(a);
}

static void
answer_free(struct answer *a)
{
	over(a->dc, a->id, a->idn);
	answer_drop(a);
}

static void send_edit(struct discord *dc, struct defer_item *item);

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
		if (a->gm != NULL && dc->rest != NULL) {
			/* the interaction is over once the GM's message is */
			discord_answer_gm_send(dc, a->gm, a->id, a->followup_path);
			a->gm = NULL;
			a->followup_path = NULL;
			answer_drop(a);
		} else {
			answer_free(a);
		}
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

	/* Sent, or never can be (the token refused): a restart has nothing
	 * left to complete. */
	if (a->noted && res->status >= 200 && res->status <= 499) {
		discord_pending_done(a->dc, a->id);
		a->noted = false;
	}
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
		discord_live_answered(dc, a->id, true);
		next_followup(a);
		return;
	} else if (res->expired) {
		count_shed_ran(dc, false); /* it waited in the queue past its deadline */
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
	utf8_copy_bytes(a->id, sizeof(a->id), out->id);
	a->idn = out->idn;
	a->followup_path = out->followup_path;
	memcpy(a->followups, out->followups, out->nfollowups * sizeof(*a->followups));
	a->nfollowups = out->nfollowups;
	a->gm = discord_answer_gm_take(out);
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
	                        REST_CALLBACK | REST_INTERACTION | REST_ESSENTIAL, out->deadline,
	                        on_callback, a);
}

static void
on_edit(void *ctx, const struct rest_result *res)
{
	struct answer *a = ctx;

	/* Edited, or never can be (the token refused): a restart has nothing
	 * left to complete. A 5xx given up, or no answer, leaves it to one. */
	if (res->status >= 200 && res->status <= 499)
		discord_pending_done(a->dc, a->id);
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
	discord_live_answered(a->dc, a->id, true);
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
		over(dc, item->ready.id, item->ready.idn);
		return;
	}
	a = answer_new(dc, &item->ready, item->rx_ns);
	if (patch == NULL) {
		/* A button's: the answer is all follow-ups. */
		a->noted = true;
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
	char digits[24];

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
		count_shed_ran(dc, false); /* it waited in the queue past its deadline */
	else if (res->status == 400 &&
	         discord_rest_error_code(res) == DISCORD_ERROR_ALREADY_ACKNOWLEDGED)
		log_debug("discord: interaction %llu was answered before the restart",
		          (unsigned long long)item->id);
	else if (count_failed(dc))
		log_warnx("discord: the deferral of interaction %llu failed (%ld%s%.200s)",
		          (unsigned long long)item->id, res->status, res->len > 0 ? ": " : "",
		          res->len > 0 ? res->body : "");
	item->state = DEFER_LOST;
	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)item->id);
	discord_pending_done(dc, digits); /* no "thinking..." to complete */
	if (item->have_ready) {
		over(dc, item->ready.id, item->ready.idn);
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
			if (due[i]->req != NULL)
				discord_pending_note(dc, due[i], request_origin(due[i]->req));
			dc->stats.interactions++;
			discord_rest_call_until(dc->rest, "POST", due[i]->callback_path,
			                        discord_defer_body(due[i]),
			                        REST_CALLBACK | REST_INTERACTION | REST_ESSENTIAL,
			                        due[i]->deadline, on_deferred, due[i]);
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
discord_answer_complete(struct discord *dc, struct interact_out *ans, bool private,
                        int64_t created_ms)
{
	struct timespec wall;
	uint64_t now = uv_hrtime(), age, created;
	int64_t age_ms;
	struct defer_item *item;

	clock_gettime(CLOCK_REALTIME, &wall);
	age_ms = (int64_t)wall.tv_sec * 1000 + wall.tv_nsec / 1000000 - created_ms;
	age = age_ms > 0 ? (uint64_t)age_ms * NS_PER_MS : 0;
	created = now > age ? now - age : 0;
	/* Kept as a deferral sent, and completed at once as one whose answer
	 * came: never left in the table for defer_run. */
	item = discord_defer_add(dc->defer, out_id(ans), ans->type, private, "", ans->followup_path,
	                         created,
	                         created + (uint64_t)(SHED_WINDOW_MS - SHED_MARGIN_MS) * NS_PER_MS);
	if (item == NULL)
		return; /* held already: this process answers it */
	item->ctx = dc;
	item->state = DEFER_SENT;
	item->ready = *ans;
	memset(ans, 0, sizeof(*ans));
	item->have_ready = true;
	edit_deferred(dc, item);
}

void
discord_answer_hold(struct discord *dc, const struct interact_out *out, struct request *req)
{
	uint64_t id = out_id(out);
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
	out->callback_body = discord_interact_render_note(dc->it, refusal);
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
	bool handled_before;            /* its mark was found: a process before ran it */
};

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
		count_shed_ran(dc, c->handled_before);
		over(dc, c->out.id, c->out.idn);
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

bool
discord_answer_original(const char *body, size_t len, bool *loading, bool *ephemeral)
{
	cJSON *j = cJSON_ParseWithLength(body, len);
	const cJSON *flags = cJSON_GetObjectItemCaseSensitive(j, "flags");
	unsigned f = cJSON_IsNumber(flags) ? (unsigned)flags->valueint : 0;
	bool read = j != NULL;

	*loading = (f & DISCORD_FLAG_LOADING) != 0;
	*ephemeral = *loading && (f & DISCORD_FLAG_EPHEMERAL) != 0;
	cJSON_Delete(j);
	return read;
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
	char why[400];

	if (res->status == 404) {
		c->loading = false;
	} else if (res->status >= 200 && res->status <= 299 &&
	           discord_answer_original(res->body, res->len, &c->loading, &c->loading_private)) {
		if (!c->loading) {
			dc->stats.replayed_answered++;
			log_debug("discord: interaction %s was answered before the restart",
			          c->out.id);
			over(dc, c->out.id, c->out.idn);
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
		over(dc, c->out.id, c->out.idn);
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
	struct defer_item *item = discord_defer_find(dc->defer, out_id(out));

	if (item != NULL)
		item->req = NULL; /* answered: gone */
	if (dc->rest == NULL || (item != NULL && item->state == DEFER_LOST)) {
		/* Nothing to send, or the deferral failed (counted already). */
		if (item != NULL)
			discord_defer_remove(dc->defer, item);
		over(dc, out->id, out->idn);
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
		count_shed_ran(dc, false);
		over(dc, out->id, out->idn);
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

void
discord_answer_deliver(struct discord *dc, struct request *req, struct interact_out *out,
                       bool known, struct discord_live_post *post)
{
	struct defer_item *item;
	/* A replay, which an earlier process may have answered or deferred,
	 * whether it had committed it (its mark found) or not (its
	 * deferral, then a kill before the commit). */
	bool check = request_replayed(req);
	bool handled_before = request_outcome(req) == REQUEST_REPLAYED;
	const char *hook = check ? discord_interact_webhook(req) : NULL;
	/* Only a replay asks Discord about its answer (req's is freed with it). */
	char *webhook = hook != NULL ? xstrdup(hook) : NULL;

	request_free(req);
	item = discord_defer_find(dc->defer, out_id(out));
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
		over(dc, out->id, out->idn);
		discord_interact_out_clear(out);
		discord_live_post_drop(post);
		free(webhook);
		return;
	}
	if (check && (item == NULL || item->state == DEFER_WAITING)) {
		struct check *c = xcalloc(1, sizeof(*c));
		char path[2200];

		if (item != NULL)
			discord_defer_remove(dc->defer, item);
		c->dc = dc;
		c->out = *out;
		c->webhook = webhook;
		c->post = post;
		c->handled_before = handled_before;
		dc->stats.replayed++;
		snprintf(path, sizeof(path), "%s/messages/@original", webhook);
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

/*
 * req's event was handled by another process of the fleet first (both got
 * it: their shards overlap), which made the change and answers it: this
 * one does not, unless its deferral was sent already (Discord took this
 * process's acknowledgement, so the other's answer is refused), when the
 * deferral is edited to say so (request.c). Returns whether req was taken
 * (freed, its interaction over).
 */
static bool
handled_elsewhere(struct discord *dc, struct request *req)
{
	struct interact_out out;
	struct defer_item *item;

	if (discord_interact_render(dc->it, req, &out) < 0) {
		discord_interact_out_clear(&out);
		return false;
	}
	item = discord_defer_find(dc->defer, out_id(&out));
	if (item != NULL && item->state != DEFER_WAITING) {
		discord_interact_out_clear(&out);
		return false;
	}
	log_debug("discord: interaction %s was handled by another delver process; it answers it",
	          out.id);
	discord_opstats_add(OPSTATS_ELSEWHERE);
	request_free(req);
	if (item != NULL)
		discord_defer_remove(dc->defer, item);
	over(dc, out.id, out.idn);
	discord_interact_out_clear(&out);
	return true;
}

/* A request's answer came (its answer function; ctx: the struct discord).
 * A press of a panel's button waits for the panel rendered anew; a
 * /panel's panel goes to the channel first (discord_live_post.h), and its
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
	if (request_outcome(req) == REQUEST_HANDLED_ELSEWHERE && handled_elsewhere(dc, req))
		return;
	if (dc->rest != NULL && request_outcome(req) != REQUEST_REPLAYED &&
	    request_outcome(req) != REQUEST_HANDLED_ELSEWHERE) {
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
