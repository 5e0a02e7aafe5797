/* discord_gw: the gateway session state machine; see discord_gw.h. */
#include "bot/discord/discord_gw.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/backoff.h"
#include "bot/discord/discord_gw_outbox.h"
#include "bot/discord/discord_gw_payload.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_proto.h"
#include "bot/log.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"

#define URL_MAX         512
#define SESSION_MAX     128
#define HELLO_TIMEOUT   20000 /* ms from connected to HELLO */
#define CONNECT_TIMEOUT 30000 /* ms from connect to connected */
#define BACKOFF_MAX     60000
#define QUERY           "/?v=10&encoding=json"
#define QUERY_ZLIB      QUERY "&compress=zlib-stream"

struct discord_gw {
	struct discord_gw_hooks h;
	struct discord_json *json; /* the tree of the frame being handled */
	bool in_message;           /* discord_gw_message() runs: a nested one parses elsewhere */
	struct rng *rng;
	char *token;
	char *ledger;
	char url[URL_MAX];
	uint64_t intents;
	int shard_id, shard_count;
	bool compress;
	enum discord_gw_state state;

	/* the session */
	char session_id[SESSION_MAX];
	char resume_url[URL_MAX];
	char app_id[24];
	int64_t seq;       /* last sequence number, -1 for none */
	int64_t last_rx;   /* when the last message was read */
	int64_t clock;     /* the latest time the session was given */
	int64_t abort_seq; /* seq at the last discord_gw_abort */
	int aborts;        /* discord_gw_aborts in a row at abort_seq */
	bool saved;        /* the session is the one discord_gw_restore gave, not resumed yet */

	/* the connection */
	bool reached_ready; /* this connection reached READY or RESUMED */
	bool resume_next;   /* the next connection resumes */
	int64_t connect_at; /* WAIT_CONNECT: when to connect */
	int64_t deadline;   /* CONNECTING, WAIT_HELLO: give up at */
	int attempt;        /* connections that failed since the last READY */
	int64_t hb_interval, hb_next, hb_sent_at;
	bool hb_acked;
	bool identify_sent; /* IDENTIFYING: the IDENTIFY is queued or written */
	/* after our own close: what the next connection does */
	bool planned;
	bool planned_resume;
	int64_t planned_delay;

	/* the identify slot (see discord_gw_grant): when it was granted, or
	 * INT64_MIN when none is held; whether one was asked for */
	int64_t slot_at;
	bool slot_wanted;

	/* frames to send and the times of the last sends */
	struct discord_gw_outbox *out;

	struct discord_gw_stats stats;
};

const char *
discord_gw_fatal_reason(int code)
{
	switch (code) {
	case DISCORD_CLOSE_AUTHENTICATION_FAILED:
		return "token rejected (4004): check the token [discord] token_source names";
	case DISCORD_CLOSE_INVALID_SHARD:
		return "invalid shard (4010): check [discord] shard_id and shard_count";
	case DISCORD_CLOSE_SHARDING_REQUIRED:
		return "sharding required (4011): the bot is in too many guilds for one shard; "
		       "raise [discord] shard_count";
	case DISCORD_CLOSE_INVALID_API_VERSION:
		return "invalid API version (4012): Discord no longer accepts gateway v10; "
		       "upgrade delver";
	case DISCORD_CLOSE_INVALID_INTENTS:
		return "invalid intents (4013): check [discord] intents";
	case DISCORD_CLOSE_DISALLOWED_INTENTS:
		return "disallowed intents (4014): [discord] intents asks for a privileged intent "
		       "this application may not use; remove it or enable it in the Developer "
		       "Portal";
	default:
		return NULL;
	}
}

struct discord_gw *
discord_gw_new(const struct discord_gw_opts *o, const struct discord_gw_hooks *h, struct rng *rng)
{
	struct discord_gw *g = xcalloc(1, sizeof(*g));

	g->h = *h;
	g->rng = rng;
	g->token = xstrdup(o->token != NULL ? o->token : "");
	g->ledger = xstrdup(o->ledger != NULL ? o->ledger : "this process");
	discord_gw_set_url(g, o->gateway_url);
	g->intents = o->intents;
	g->shard_id = o->shard_id;
	g->shard_count = o->shard_count > 0 ? o->shard_count : 1;
	g->compress = o->compress;
	g->seq = -1;
	g->slot_at = INT64_MIN;
	g->stats.last_ack_ms = -1;
	g->out = discord_gw_outbox_new();
	g->json = discord_json_new();
	return g;
}

void
discord_gw_free(struct discord_gw *g)
{
	if (g == NULL)
		return;
	discord_gw_outbox_free(g->out);
	/* The token is wiped before it is freed. */
	memset(g->token, 0, strlen(g->token));
	free(g->token);
	free(g->ledger);
	discord_json_free(g->json);
	free(g);
}

void
discord_gw_set_url(struct discord_gw *g, const char *url)
{
	size_t n;

	snprintf(g->url, sizeof(g->url), "%s", url != NULL ? url : "wss://gateway.discord.gg");
	n = strlen(g->url);
	while (n > 0 && g->url[n - 1] == '/')
		g->url[--n] = '\0';
}

enum discord_gw_state
discord_gw_state(const struct discord_gw *g)
{
	return g->state;
}

const struct discord_gw_stats *
discord_gw_stats(const struct discord_gw *g)
{
	return &g->stats;
}

const char *
discord_gw_application_id(const struct discord_gw *g)
{
	return g->app_id[0] != '\0' ? g->app_id : NULL;
}

const char *
discord_gw_session_id(const struct discord_gw *g)
{
	return g->session_id[0] != '\0' ? g->session_id : NULL;
}

int64_t
discord_gw_seq(const struct discord_gw *g)
{
	return g->seq;
}

/* A uniform random duration in [0, ms). */
static int64_t
jitter(struct discord_gw *g, int64_t ms)
{
	return ms > 0 ? (int64_t)rng_below(g->rng, (uint64_t)ms) : 0;
}

static void
queue(struct discord_gw *g, char *text, bool heartbeat, bool identify)
{
	if (!discord_gw_outbox_push(g->out, text, heartbeat, identify, g->clock))
		return;
	if (g->h.want_write != NULL)
		g->h.want_write(g->h.ctx);
}

static void
send_heartbeat(struct discord_gw *g, int64_t now)
{
	char s[64];

	discord_gw_payload_heartbeat(g->seq, s, sizeof(s));
	/* One heartbeat waits at most (the send budget may hold it back): a
	 * later one only brings its sequence up to date. */
	if (!discord_gw_outbox_heartbeat(g->out, s))
		queue(g, xstrdup(s), true, false);
}

/* Whether the slot held is still good at now (granted within the lease,
 * with a margin for the IDENTIFY's trip). */
static bool
slot_fresh(const struct discord_gw *g, int64_t now)
{
	return g->slot_at != INT64_MIN &&
	       now - g->slot_at <= DISCORD_GW_SLOT_LEASE - DISCORD_GW_SLOT_MARGIN;
}

/* Gives a slot back unused (the coordinator frees its bucket). */
static void
slot_drop(struct discord_gw *g)
{
	if (g->slot_at == INT64_MIN)
		return;
	g->slot_at = INT64_MIN;
	if (g->h.slot_unused != NULL)
		g->h.slot_unused(g->h.ctx);
}

/* Asks for a slot (once until it comes); without a coordinator one is
 * granted at once. Returns whether a fresh slot is held now. */
static bool
slot_ask(struct discord_gw *g, int64_t now)
{
	if (slot_fresh(g, now))
		return true;
	slot_drop(g); /* an old one: its lease is over */
	if (g->h.want_identify == NULL) {
		g->slot_at = now;
		return true;
	}
	if (!g->slot_wanted) {
		g->slot_wanted = true;
		g->h.want_identify(g->h.ctx);
	}
	return false;
}

static void
send_identify(struct discord_gw *g, int64_t now)
{
	char *s = discord_gw_payload_identify(g->token, g->intents, g->shard_id, g->shard_count);

	g->slot_at = INT64_MIN; /* used: the identified hook tells when it is written */
	g->identify_sent = true;
	g->stats.identifies++;
	discord_opstats_add(OPSTATS_IDENTIFIES);
	log_info("discord: identifying as shard %d/%d", g->shard_id, g->shard_count);
	queue(g, s, false, true);
}

static void
send_resume(struct discord_gw *g)
{
	char *s = discord_gw_payload_resume(g->token, g->session_id, g->seq);

	g->stats.resumes++;
	discord_opstats_add(OPSTATS_RESUMES);
	if (g->saved)
		log_info("discord: shard %d: resuming the saved session at sequence %" PRId64,
		         g->shard_id, g->seq);
	else
		log_info("discord: resuming session at sequence %" PRId64, g->seq);
	g->saved = false;
	queue(g, s, false, false);
}

static void
forget_session(struct discord_gw *g)
{
	g->session_id[0] = '\0';
	g->resume_url[0] = '\0';
	g->seq = -1;
	g->saved = false;
}

static bool
can_resume(const struct discord_gw *g)
{
	return g->session_id[0] != '\0' && g->seq >= 0;
}

/* Waits delay, then connects (resuming when asked and possible). */
static void
schedule_connect(struct discord_gw *g, bool resume, int64_t delay, int64_t now)
{
	g->state = DISCORD_GW_WAIT_CONNECT;
	g->resume_next = resume && can_resume(g);
	g->connect_at = now + delay;
}

static void
do_connect(struct discord_gw *g, int64_t now)
{
	char url[URL_MAX + sizeof(QUERY_ZLIB)];
	const char *base = g->resume_next && g->resume_url[0] != '\0' ? g->resume_url : g->url;

	snprintf(url, sizeof(url), "%s%s", base, g->compress ? QUERY_ZLIB : QUERY);
	g->state = DISCORD_GW_CONNECTING;
	g->deadline = now + CONNECT_TIMEOUT;
	g->reached_ready = false;
	g->planned = false;
	if (g->stats.identifies + g->stats.resumes > 0)
		g->stats.reconnects++;
	if (g->h.connect(g->h.ctx, url) < 0) {
		log_warnx("discord: cannot start a gateway connection");
		discord_gw_closed(g, -1, now);
	}
}

/* Asks the transport to close, then connect again as planned. */
static void
close_and(struct discord_gw *g, bool resume, int64_t delay, int64_t now)
{
	g->planned = true;
	g->planned_resume = resume;
	g->planned_delay = delay;
	if (g->state == DISCORD_GW_CLOSING)
		return;
	g->state = DISCORD_GW_CLOSING;
	g->hb_next = INT64_MAX;
	g->h.close(g->h.ctx, DISCORD_GW_ZOMBIE_CODE);
}

void
discord_gw_restore(struct discord_gw *g, const char *session_id, const char *resume_url,
                   int64_t seq)
{
	if (g->state != DISCORD_GW_IDLE || session_id == NULL || *session_id == '\0' ||
	    strlen(session_id) >= sizeof(g->session_id) || seq < 0)
		return;
	snprintf(g->session_id, sizeof(g->session_id), "%s", session_id);
	snprintf(g->resume_url, sizeof(g->resume_url), "%s",
	         resume_url != NULL && strlen(resume_url) < sizeof(g->resume_url) ? resume_url
	                                                                          : "");
	g->seq = seq;
	g->saved = true;
}

void
discord_gw_start(struct discord_gw *g, int64_t now)
{
	if (g->state != DISCORD_GW_IDLE)
		return;
	schedule_connect(g, can_resume(g), 0, now);
}

void
discord_gw_grant(struct discord_gw *g, int64_t now)
{
	g->slot_wanted = false;
	g->clock = now;
	if (g->state == DISCORD_GW_WAIT_SLOT) {
		g->slot_at = now;
		do_connect(g, now);
	} else if (g->state == DISCORD_GW_IDENTIFYING && !g->identify_sent) {
		g->slot_at = now;
		send_identify(g, now);
	} else {
		/* Nobody waits for it any more (stopped, resumed, closed meanwhile
		 * and asking again later): the bucket is freed at once. */
		g->slot_at = now;
		slot_drop(g);
	}
}

int
discord_gw_shard_id(const struct discord_gw *g)
{
	return g->shard_id;
}

void
discord_gw_opened(struct discord_gw *g, int64_t now)
{
	if (g->state != DISCORD_GW_CONNECTING)
		return;
	g->state = DISCORD_GW_WAIT_HELLO;
	g->deadline = now + HELLO_TIMEOUT;
	g->last_rx = now;
	discord_gw_outbox_clear(g->out, true);
}

static void
on_hello(struct discord_gw *g, const cJSON *d, int64_t now)
{
	const cJSON *iv = cJSON_GetObjectItemCaseSensitive(d, "heartbeat_interval");

	if (g->state != DISCORD_GW_WAIT_HELLO || !cJSON_IsNumber(iv) || iv->valuedouble < 100 ||
	    iv->valuedouble > 3600000) {
		g->stats.ignored++;
		return;
	}
	g->hb_interval = (int64_t)iv->valuedouble;
	g->hb_next = now + jitter(g, g->hb_interval);
	g->hb_acked = true;
	if (g->resume_next && can_resume(g)) {
		g->state = DISCORD_GW_RESUMING;
		send_resume(g);
		return;
	}
	g->state = DISCORD_GW_IDENTIFYING;
	g->identify_sent = false; /* until a slot is held */
	if (slot_ask(g, now))
		send_identify(g, now);
}

static void
on_ready(struct discord_gw *g, const cJSON *d)
{
	const char *sid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "session_id"));
	const char *url =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "resume_gateway_url"));
	const char *app = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(d, "application"), "id"));

	if (sid == NULL || strlen(sid) >= sizeof(g->session_id)) {
		log_warnx("discord: READY without a usable session id; the session cannot resume");
		g->session_id[0] = '\0';
	} else {
		snprintf(g->session_id, sizeof(g->session_id), "%s", sid);
	}
	g->saved = false;
	if (url != NULL && strlen(url) < sizeof(g->resume_url)) {
		snprintf(g->resume_url, sizeof(g->resume_url), "%s", url);
		while (strlen(g->resume_url) > 0 && g->resume_url[strlen(g->resume_url) - 1] == '/')
			g->resume_url[strlen(g->resume_url) - 1] = '\0';
	} else {
		g->resume_url[0] = '\0';
	}
	if (app != NULL && strlen(app) < sizeof(g->app_id) &&
	    strspn(app, "0123456789") == strlen(app))
		snprintf(g->app_id, sizeof(g->app_id), "%s", app);
	log_info("discord: ready (shard %d/%d)", g->shard_id, g->shard_count);
}

static void
on_dispatch(struct discord_gw *g, const cJSON *tj, const cJSON *d)
{
	const char *t = cJSON_GetStringValue(tj);

	if (t == NULL) {
		g->stats.ignored++;
		return;
	}
	if (strcmp(t, "READY") == 0) {
		if (g->state != DISCORD_GW_IDENTIFYING) {
			g->stats.ignored++;
			return;
		}
		on_ready(g, d);
		g->state = DISCORD_GW_READY;
		g->reached_ready = true;
		g->attempt = 0;
	} else if (strcmp(t, "RESUMED") == 0) {
		if (g->state != DISCORD_GW_RESUMING) {
			g->stats.ignored++;
			return;
		}
		log_info("discord: resumed");
		g->state = DISCORD_GW_READY;
		g->reached_ready = true;
		g->attempt = 0;
	} else if (g->state != DISCORD_GW_READY && g->state != DISCORD_GW_RESUMING) {
		g->stats.ignored++; /* events before READY: not Discord's way */
		return;
	}
	g->stats.events++;
	if (g->h.event != NULL)
		g->h.event(g->h.ctx, t, d);
}

/* The members op, s, d and t of a frame (root may be NULL), each NULL when
 * absent: the first of its name, as cJSON_GetObjectItemCaseSensitive finds
 * it, in one walk over the frame's few members. */
static void
frame_fields(const cJSON *root, const cJSON **op, const cJSON **s, const cJSON **d, const cJSON **t)
{
	*op = *s = *d = *t = NULL;
	for (const cJSON *c = root != NULL ? root->child : NULL; c != NULL; c = c->next) {
		const char *k = c->string;
		const cJSON **slot = NULL;

		if (k == NULL)
			continue;
		if (k[0] == 'o' && k[1] == 'p' && k[2] == '\0')
			slot = op;
		else if (k[0] != '\0' && k[1] == '\0')
			slot = k[0] == 's' ? s : k[0] == 'd' ? d : k[0] == 't' ? t : NULL;
		if (slot != NULL && *slot == NULL)
			*slot = c;
	}
}

/* Handles one parsed frame (root may be NULL: not JSON). */
static void
message(struct discord_gw *g, const cJSON *root, size_t len, int64_t now)
{
	const cJSON *op, *s, *d, *t;

	frame_fields(root, &op, &s, &d, &t);

	g->clock = now;
	if (g->state < DISCORD_GW_WAIT_HELLO || g->state > DISCORD_GW_READY)
		return; /* closing or stopped: late frames do not count */
	g->last_rx = now;
	if (!cJSON_IsObject(root) || !cJSON_IsNumber(op)) {
		g->stats.ignored++;
		log_warnx("discord: the gateway sent a payload that is not a gateway message "
		          "(%zu bytes); ignored",
		          len);
		return;
	}
	if (cJSON_IsNumber(s) && s->valuedouble >= 0 && s->valuedouble < 9007199254740992.0 &&
	    op->valueint == DISCORD_OP_DISPATCH)
		g->seq = (int64_t)s->valuedouble;
	switch (op->valueint) {
	case DISCORD_OP_HELLO:
		on_hello(g, d, now);
		break;
	case DISCORD_OP_HEARTBEAT_ACK:
		g->hb_acked = true;
		g->stats.acks++;
		g->stats.last_ack_ms = now - g->hb_sent_at;
		break;
	case DISCORD_OP_HEARTBEAT:
		if (g->hb_interval > 0)
			send_heartbeat(g, now);
		break;
	case DISCORD_OP_RECONNECT:
		log_info("discord: the gateway asked to reconnect");
		close_and(g, true, jitter(g, 250), now);
		break;
	case DISCORD_OP_INVALID_SESSION:
		if (cJSON_IsTrue(d)) {
			log_info("discord: session interrupted; resuming");
			close_and(g, true, jitter(g, 250), now);
		} else if (g->state == DISCORD_GW_IDENTIFYING) {
			/* Discord refuses an IDENTIFY so when another came in its
			 * bucket less than 5 s before (docs/events/gateway.mdx,
			 * Max Concurrency): a process that shares no ledger. */
			log_warnx(
			    "discord: Discord refused shard %d's IDENTIFY (op 9): another process "
			    "of this bot probably identified in the same bucket without sharing "
			    "the identify ledger in %s; identifying again",
			    g->shard_id, g->ledger);
			forget_session(g);
			close_and(g, false, 1000 + jitter(g, 4000), now);
		} else {
			log_info("discord: session invalid; identifying again");
			forget_session(g);
			close_and(g, false, 1000 + jitter(g, 4000), now);
		}
		break;
	case DISCORD_OP_DISPATCH:
		on_dispatch(g, t, d);
		break;
	default:
		g->stats.ignored++;
		break;
	}
}

/* The frame is parsed into g's arena (discord_json): no allocation per
 * node, and nothing to free node by node afterwards. */
void
discord_gw_message(struct discord_gw *g, const char *data, size_t len, int64_t now)
{
	struct discord_json *own = NULL;

	if (g->in_message) /* from inside an event hook: the outer tree stays */
		own = discord_json_new();
	g->in_message = true;
	message(g, discord_json_parse(own != NULL ? own : g->json, data, len), len, now);
	if (own != NULL)
		discord_json_free(own);
	else
		g->in_message = false;
}

/* A heartbeat queued a whole interval ago that the send budget would have
 * let go is still waiting: the socket takes nothing (its peer is gone),
 * and with no heartbeat sent no ACK can be missed. */
static bool
heartbeat_stuck(const struct discord_gw *g, int64_t now)
{
	size_t hb = discord_gw_outbox_heartbeat_index(g->out);

	return hb != SIZE_MAX && discord_gw_outbox_pick(g->out, now) == hb &&
	       now - discord_gw_outbox_queued_at(g->out, hb) >= g->hb_interval;
}

/* The wait before the next attempt when this one ended unplanned. */
static int64_t
backoff(struct discord_gw *g)
{
	static const struct backoff reconnect = {1000, BACKOFF_MAX};

	if (g->reached_ready) {
		g->attempt = 0;
		return jitter(g, 1000);
	}
	g->attempt++;
	return backoff_delay(&reconnect, g->attempt - 1, rng_next(g->rng));
}

void
discord_gw_closed(struct discord_gw *g, int code, int64_t now)
{
	const char *fatal = discord_gw_fatal_reason(code);
	bool resume = true;
	int64_t delay;

	discord_gw_outbox_clear(g->out, false);
	g->hb_next = INT64_MAX;
	g->hb_interval = 0;
	slot_drop(g);
	if (g->state == DISCORD_GW_STOPPED || g->state == DISCORD_GW_IDLE ||
	    g->state == DISCORD_GW_WAIT_CONNECT || g->state == DISCORD_GW_WAIT_SLOT)
		return;
	if (g->planned) {
		resume = g->planned_resume;
		delay = g->planned_delay;
		if (!g->reached_ready)
			delay += backoff(g);
		g->planned = false;
	} else if (fatal != NULL) {
		/* Discord ends the session with a fatal close: no resume. */
		forget_session(g);
		g->state = DISCORD_GW_STOPPED;
		if (g->h.fatal != NULL)
			g->h.fatal(g->h.ctx, code, fatal);
		return;
	} else {
		if (code == DISCORD_CLOSE_INVALID_SEQ || code == DISCORD_CLOSE_SESSION_TIMED_OUT) {
			forget_session(g);
			resume = false;
		}
		if (code >= 0)
			log_warnx("discord: the gateway closed the connection (%d); %s", code,
			          resume && can_resume(g) ? "resuming" : "identifying again");
		else
			log_warnx("discord: the gateway connection was lost; %s",
			          can_resume(g) ? "resuming" : "identifying again");
		delay = backoff(g);
	}
	schedule_connect(g, resume, delay, now);
}

void
discord_gw_abort(struct discord_gw *g, const char *why, int64_t now)
{
	if (g->state < DISCORD_GW_CONNECTING || g->state > DISCORD_GW_READY)
		return;
	if (g->aborts > 0 && g->seq == g->abort_seq) {
		g->aborts++;
	} else {
		g->abort_seq = g->seq;
		g->aborts = 1;
	}
	if (g->aborts >= 2) {
		/* A resume replays what broke the connection: the same event
		 * would break it again, forever. A new session skips it. */
		log_warnx("discord: %s again at sequence %" PRId64 "; starting a new session", why,
		          g->seq);
		forget_session(g);
		g->aborts = 0;
		close_and(g, false, jitter(g, 250), now);
		return;
	}
	log_warnx("discord: %s; reconnecting", why);
	close_and(g, true, jitter(g, 250), now);
}

void
discord_gw_tick(struct discord_gw *g, int64_t now)
{
	g->clock = now;
	switch (g->state) {
	case DISCORD_GW_WAIT_CONNECT:
		if (now < g->connect_at)
			return;
		/* A new session asks for its slot first, so the connection opens
		 * only when the IDENTIFY may follow. */
		if (g->resume_next || slot_ask(g, now)) {
			do_connect(g, now);
		} else {
			g->state = DISCORD_GW_WAIT_SLOT;
		}
		return;
	case DISCORD_GW_CONNECTING:
	case DISCORD_GW_WAIT_HELLO:
		if (now >= g->deadline) {
			log_warnx("discord: the gateway did not %s in time",
			          g->state == DISCORD_GW_CONNECTING ? "answer" : "say HELLO");
			close_and(g, true, 0, now); /* discord_gw_closed adds the backoff */
		}
		return;
	case DISCORD_GW_IDENTIFYING:
		if (!g->identify_sent && !g->slot_wanted && slot_ask(g, now))
			send_identify(g, now);
		break;
	default:
		break;
	}
	if (g->state >= DISCORD_GW_IDENTIFYING && g->state <= DISCORD_GW_READY &&
	    now >= g->hb_next) {
		if (!g->hb_acked) {
			g->stats.zombies++;
			log_warnx(
			    "discord: no heartbeat ACK since the last heartbeat; the connection "
			    "is a zombie, reconnecting");
			close_and(g, true, jitter(g, 250), now);
			return;
		}
		if (heartbeat_stuck(g, now)) {
			g->stats.zombies++;
			log_warnx("discord: the last heartbeat could not be written in a whole "
			          "interval; reconnecting");
			close_and(g, true, jitter(g, 250), now);
			return;
		}
		send_heartbeat(g, now);
		g->hb_next += g->hb_interval;
		if (g->hb_next <= now)
			g->hb_next = now + g->hb_interval;
	}
	/* A frame held back by the send budget may go now: the transport
	 * only writes when asked to. */
	if (discord_gw_outbox_count(g->out) > 0 &&
	    discord_gw_outbox_pick(g->out, now) != SIZE_MAX && g->h.want_write != NULL)
		g->h.want_write(g->h.ctx);
}

char *
discord_gw_next_frame(struct discord_gw *g, int64_t now, size_t *len)
{
	size_t pick;
	char *text;
	bool heartbeat, identify;

	if (discord_gw_outbox_count(g->out) == 0 || g->state < DISCORD_GW_WAIT_HELLO ||
	    g->state > DISCORD_GW_READY)
		return NULL;
	pick = discord_gw_outbox_pick(g->out, now);
	if (pick == SIZE_MAX)
		return NULL;
	text = discord_gw_outbox_take(g->out, pick, now, len, &heartbeat, &identify);
	if (heartbeat) {
		/* An ACK is owed from when the heartbeat left, not from when it
		 * was queued. */
		g->hb_acked = false;
		g->hb_sent_at = now;
		g->stats.heartbeats++;
	}
	if (identify && g->h.identified != NULL)
		g->h.identified(g->h.ctx);
	return text;
}

int64_t
discord_gw_next_wakeup(const struct discord_gw *g, int64_t now)
{
	int64_t t = INT64_MAX, f;

	switch (g->state) {
	case DISCORD_GW_WAIT_CONNECT:
		return g->connect_at;
	case DISCORD_GW_CONNECTING:
	case DISCORD_GW_WAIT_HELLO:
		return g->deadline;
	case DISCORD_GW_IDENTIFYING:
	case DISCORD_GW_RESUMING:
	case DISCORD_GW_READY:
		if (g->hb_next < t)
			t = g->hb_next;
		f = discord_gw_outbox_wakeup(g->out, now);
		return f < t ? f : t;
	default:
		return INT64_MAX;
	}
}

void
discord_gw_stop(struct discord_gw *g, bool keep_session)
{
	bool open = g->state >= DISCORD_GW_CONNECTING && g->state <= DISCORD_GW_CLOSING;

	slot_drop(g);
	g->slot_wanted = false;
	g->state = DISCORD_GW_STOPPED;
	g->hb_next = INT64_MAX;
	discord_gw_outbox_clear(g->out, false);
	if (open)
		g->h.close(g->h.ctx, keep_session ? DISCORD_GW_ZOMBIE_CODE : 1000);
}

const char *
discord_gw_resume_url(const struct discord_gw *g)
{
	return g->resume_url[0] != '\0' ? g->resume_url : NULL;
}

const char *
discord_gw_stalled(const struct discord_gw *g, int64_t now, char *why, size_t len)
{
	int64_t due = discord_gw_next_wakeup(g, now);
	size_t pick =
	    discord_gw_outbox_count(g->out) > 0 ? discord_gw_outbox_pick(g->out, now) : SIZE_MAX;

	if (due != INT64_MAX && now - due > DISCORD_GW_STALL_MS) {
		snprintf(why, len, "the gateway's timer is %" PRId64 " ms overdue (state %d)",
		         now - due, (int)g->state);
		return why;
	}
	if (pick != SIZE_MAX &&
	    now - discord_gw_outbox_queued_at(g->out, pick) > DISCORD_GW_STALL_MS) {
		snprintf(why, len, "a gateway frame has waited %" PRId64 " ms for the socket",
		         now - discord_gw_outbox_queued_at(g->out, pick));
		return why;
	}
	if (g->state == DISCORD_GW_READY && g->hb_interval > 0 &&
	    now - g->last_rx > 2 * g->hb_interval + DISCORD_GW_STALL_MS) {
		snprintf(why, len, "nothing was read from the gateway for %" PRId64 " ms",
		         now - g->last_rx);
		return why;
	}
	return NULL;
}
