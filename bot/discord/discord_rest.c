/*
 * discord_rest: Discord's HTTP API on the libuv loop; see discord_rest.h.
 * Requests wait in a queue here for their rate-limit bucket; interaction
 * callbacks, the hot route, then go on connections of their own
 * (discord_rest_h1: about 10,000 instructions a callback instead of
 * 78,000); every other route, and a callback that road cannot take, goes
 * through libcurl (discord_rest_curl). Both roads end in finish(): one
 * set of rules for 429s, 5xx, retries, buckets, the timeout and the
 * answer's cap.
 */
#include "bot/discord/discord_rest.h"

#include <cJSON.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_ratelimit.h"
#include "bot/discord/discord_rest_answer.h"
#include "bot/discord/discord_rest_curl.h"
#include "bot/discord/discord_rest_h1.h"
#include "bot/discord/discord_rest_int.h"
#include "bot/discord/discord_rest_wire.h"
#include "bot/log.h"
#include "bot/soon.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"

#define RESPONSE_MAX (1u << 20)
#define TRIES_MAX    3 /* retries of a 5xx or a failed connection */
#define LIMITED_MAX  8 /* 429s one request may meet */
#define TIMEOUT_MS   15000
/* Requests handed to libcurl at once; later ones wait in our queue, where
 * their deadlines are still checked. */
#define ACTIVE_MAX 256
/* How long the wait of the last request out tells of the backlog. */
#define BACKLOG_RECENT_NS 1000000000u

static void on_pump_timer(uv_timer_t *t);

static void
list_push(struct list *l, struct req *q, bool front)
{
	q->prev = q->next = NULL;
	if (l->head == NULL) {
		l->head = l->tail = q;
	} else if (front) {
		q->next = l->head;
		l->head->prev = q;
		l->head = q;
	} else {
		q->prev = l->tail;
		l->tail->next = q;
		l->tail = q;
	}
}

static void
list_unlink(struct list *l, struct req *q)
{
	if (q->prev != NULL)
		q->prev->next = q->next;
	else
		l->head = q->next;
	if (q->next != NULL)
		q->next->prev = q->prev;
	else
		l->tail = q->prev;
	q->prev = q->next = NULL;
}

/* The route as logs show it: an interaction's or webhook's token hidden. */
static void
log_route(const char *route, char *out, size_t len)
{
	const char *p = strstr(route, "/interactions/");

	if (p == NULL)
		p = strstr(route, "/webhooks/");
	if (p != NULL) {
		const char *id = strchr(p + 1, '/') + 1, *tok = strchr(id, '/');

		if (tok != NULL) {
			const char *after = strchr(tok + 1, '/');

			snprintf(out, len, "%.*s/[token]%s", (int)(tok - route), route,
			         after != NULL ? after : "");
			return;
		}
	}
	snprintf(out, len, "%s", route);
}

static void
req_free(struct req *q)
{
	free(q->target);
	free(q->body);
	buf_free(&q->resp);
	free(q);
}

static void
complete(struct rest *r, struct req *q, long status)
{
	struct rest_result res = {
	    .status = status,
	    .body = buf_str(&q->resp),
	    .len = q->resp.len,
	    .sent_ns = q->sent_ns,
	    .queued_ns = q->queued_ns,
	    .expired = q->expired,
	    .shed = q->shed,
	    .error = q->error,
	};

	if (q->cb != NULL)
		q->cb(q->ctx, &res);
	req_free(q);
}

void
discord_rest__handle_closed(struct rest *r)
{
	if (--r->open_handles == 0) {
		void (*done)(void *) = r->done;
		void *ctx = r->done_ctx;

		free(r);
		if (done != NULL)
			done(ctx);
	}
}

static void
on_timer_closed(uv_handle_t *h)
{
	discord_rest__handle_closed(h->data);
}

static void
on_ended_closed(struct soon *s)
{
	discord_rest__handle_closed(s->data);
}

/* A first try with a deadline goes out at now_ns: how long it waited is
 * the backlog (discord_rest_backlog_ns). (One that expired unsent is not counted:
 * measured, that kept shedding everything long after a backlog.) */
static void
note_wait(struct rest *r, const struct req *q, uint64_t now_ns)
{
	if (q->deadline_ns != 0 && q->tries == 0 && q->limited == 0) {
		r->last_sent_ns = now_ns;
		r->last_wait_ns = now_ns > q->queued_ns ? now_ns - q->queued_ns : 0;
	}
}

bool
discord_rest__sending(struct rest *r, struct req *q)
{
	q->sent_ns = uv_hrtime();
	note_wait(r, q, q->sent_ns);
	if (q->deadline_ns != 0 && q->sent_ns >= q->deadline_ns) {
		q->expired = true;
		return false;
	}
	return true;
}

/* q goes out: on discord_rest_h1's road when it wants q and can take it,
 * else through libcurl (then true). */
static bool
start(struct rest *r, struct req *q, int64_t now)
{
	discord_ratelimit_sent(r->rl, q->route, q->flags & REST_INTERACTION, now);
	list_push(&r->active, q, false);
	r->nactive++;
	if (discord_rest_h1_wants(r, q) && discord_rest_h1_send(r->h1, q))
		return false;
	discord_rest_curl_start(r, q);
	return true;
}

static void fail_later(struct rest *r, struct req *q);

/*
 * The threshold of invalid requests the last 10 minutes passed (0: none):
 * what is worth less than it is shed. The log says when shedding starts,
 * changes and ends.
 */
static int
shed_level(struct rest *r, int64_t now)
{
	uint64_t n = discord_opstats_invalid_recent(now);
	int level = n >= DISCORD_INVALID_SHED_NORMAL     ? DISCORD_INVALID_SHED_NORMAL
	            : n >= DISCORD_INVALID_SHED_OPTIONAL ? DISCORD_INVALID_SHED_OPTIONAL
	                                                 : 0;

	if (level == r->shedding)
		return level;
	if (level == 0)
		log_info("discord: invalid requests are down to %llu in 10 minutes; every request "
		         "goes again",
		         (unsigned long long)n);
	else
		log_warnx("discord: %llu requests were answered 401, 403 or 429 in the last 10 "
		          "minutes (Discord bans the address for an hour at %d); %s are not sent "
		          "until they fall below %d",
		          (unsigned long long)n, DISCORD_INVALID_LIMIT,
		          level == DISCORD_INVALID_SHED_OPTIONAL
		              ? "optional requests (notices, what can wait for another time)"
		              : "all requests but interaction answers",
		          level);
	r->shedding = level;
	return level;
}

/* Whether q is worth less than what shedding at level keeps. */
static bool
shed_req(int level, const struct req *q)
{
	if (level == 0 || (q->flags & REST_ESSENTIAL))
		return false;
	return level == DISCORD_INVALID_SHED_NORMAL || (q->flags & REST_OPTIONAL);
}

static void
on_ended(struct soon *s)
{
	discord_rest_curl_check(s->data);
}

void
discord_rest__pump(struct rest *r)
{
	int64_t now = (int64_t)uv_now(r->loop), next = INT64_MAX;
	int level = r->pending.head != NULL ? shed_level(r, now) : r->shedding;
	uint64_t now_ns = 0;
	struct req *q, *nx;
	bool started = false;

	for (q = r->pending.head; q != NULL; q = nx) {
		int64_t w, wr;

		nx = q->next;
		if (q->deadline_ns != 0) {
			if (now_ns == 0)
				now_ns = uv_hrtime();
			if (now_ns >= q->deadline_ns) {
				list_unlink(&r->pending, q);
				r->npending--;
				q->expired = true;
				fail_later(r, q);
				continue;
			}
		}
		if (r->nactive >= ACTIVE_MAX)
			break; /* the queue is pumped again as requests finish */
		if (shed_req(level, q)) {
			list_unlink(&r->pending, q);
			r->npending--;
			q->shed = true;
			discord_opstats_add(OPSTATS_REST_SHED);
			fail_later(r, q);
			continue;
		}
		w = q->not_before > now ? q->not_before - now : 0;
		wr = discord_ratelimit_wait(r->rl, q->route, q->flags & REST_INTERACTION, now);
		if (wr > w)
			w = wr;
		if (w > 0) {
			if (now + w < next)
				next = now + w;
			continue;
		}
		list_unlink(&r->pending, q);
		r->npending--;
		if (start(r, q, now))
			started = true;
	}
	if (started)
		discord_rest_curl_kick(r);
	if (next != INT64_MAX)
		uv_timer_start(&r->pump_timer, on_pump_timer, (uint64_t)(next - now), 0);
}

static void
on_pump_timer(uv_timer_t *t)
{
	struct rest *r = t->data;
	struct req *q;

	while ((q = r->failed.head) != NULL) {
		list_unlink(&r->failed, q);
		complete(r, q, 0);
	}
	if (r->fatal_msg[0] != '\0' && !r->closing) {
		char msg[sizeof(r->fatal_msg)];

		memcpy(msg, r->fatal_msg, sizeof(msg));
		r->fatal_msg[0] = '\0';
		if (r->fatal != NULL)
			r->fatal(r->fatal_ctx, msg); /* may close r: touch nothing after */
		return;
	}
	if (!r->closing)
		discord_rest__pump(r);
}

/* Sends q again after delay ms (it keeps its place before later ones). */
static void
retry(struct rest *r, struct req *q, int64_t delay, int64_t now)
{
	q->not_before = now + delay;
	list_push(&r->pending, q, true);
	r->npending++;
}

static void
fail_later(struct rest *r, struct req *q)
{
	list_push(&r->failed, q, false);
	uv_timer_start(&r->pump_timer, on_pump_timer, 0, 0);
}

/* The bot token was refused on route lr: no more REST, and the fatal hook
 * runs from the loop. */
static void
stop_rest(struct rest *r, const char *lr)
{
	struct req *q;

	if (r->stopped)
		return;
	r->stopped = true;
	snprintf(r->fatal_msg, sizeof(r->fatal_msg),
	         "token rejected by Discord (401): check the token [discord] token_source names "
	         "(the call was %s); "
	         "no more REST calls will be made",
	         lr);
	uv_timer_start(&r->pump_timer, on_pump_timer, 0, 0);
	while ((q = r->pending.head) != NULL) {
		list_unlink(&r->pending, q);
		r->npending--;
		fail_later(r, q);
	}
}

/* The time a Date header says, 0 or less when it says none; the text of
 * the last one read is kept with its time. */
static time_t
date_of(struct rest *r, const char *value)
{
	if (strcmp(value, r->date_seen) != 0) {
		r->date_at = curl_getdate(value, NULL);
		if (strlen(value) < sizeof(r->date_seen))
			memcpy(r->date_seen, value, strlen(value) + 1);
		else
			r->date_seen[0] = '\0';
	}
	return r->date_at;
}

/* The route for a log line, worked out only when a line is written. */
#define LOG_ROUTE() (lr[0] == '\0' ? log_route(q->route, lr, sizeof(lr)) : (void)0, lr)

/* q's try is over: status (0: no answer, rc says why), the headers of
 * its answer in q->hd, long_bucket the X-RateLimit-Bucket too long for
 * q->hd (or NULL). */
static void
finish(struct rest *r, struct req *q, long status, CURLcode rc, const char *long_bucket,
       int64_t now)
{
	bool exempt = (q->flags & REST_INTERACTION) != 0;
	char lr[DISCORD_RATELIMIT_ROUTE_MAX];
	const struct discord_rest_answer *a = &q->hd;
	struct discord_ratelimit_headers h = {.limit = -1, .remaining = -1, .reset_after = -1};

	lr[0] = '\0';     /* LOG_ROUTE() fills it for the lines that need it */
	if (q->expired) { /* dropped past its deadline: not an error */
		discord_ratelimit_done(r->rl, q->route, exempt, 0, NULL, 0, false, now);
		complete(r, q, 0);
		return;
	}
	if (rc != CURLE_OK) {
		discord_ratelimit_done(r->rl, q->route, exempt, 0, NULL, 0, false, now);
		if (q->flags & REST_ONCE) { /* the caller says what failed */
			q->error = curl_easy_strerror(rc);
			complete(r, q, 0);
			return;
		}
		if (q->tries++ < TRIES_MAX && !r->stopped) {
			log_warnx("discord: %s failed (%s); retrying", LOG_ROUTE(),
			          curl_easy_strerror(rc));
			retry(r, q, (500 << (q->tries - 1)) + (int64_t)rng_below(r->rng, 250), now);
			return;
		}
		log_warnx("discord: %s failed (%s); giving up", LOG_ROUTE(),
		          curl_easy_strerror(rc));
		complete(r, q, 0);
		return;
	}
	if (r->date != NULL && (a->seen & DISCORD_REST_ANSWER_DATE)) {
		time_t d = date_of(r, a->date);

		if (d > 0)
			r->date(r->fatal_ctx, (int64_t)d, q->sent_ns, uv_hrtime());
	}
	if (a->seen & DISCORD_REST_ANSWER_BUCKET)
		h.bucket = a->bucket;
	else if (a->seen & DISCORD_REST_ANSWER_LONG_BUCKET)
		h.bucket = long_bucket;
	if (a->seen & DISCORD_REST_ANSWER_LIMIT)
		h.limit = a->limit;
	if (a->seen & DISCORD_REST_ANSWER_REMAINING)
		h.remaining = a->remaining;
	if (a->seen & DISCORD_REST_ANSWER_RESET_AFTER)
		h.reset_after = a->reset_after;
	if (a->seen & DISCORD_REST_ANSWER_RESET)
		h.reset = a->reset;
	/* What Discord counts toward its ban; a 429 of a shared limit too,
	 * though Discord says it does not count: bots were banned for them
	 * (discord-api-docs issue 7243), and counting more only sheds sooner. */
	if (status == 401 || status == 403 || status == 429)
		discord_opstats_invalid(now);
	if (status == 429) {
		bool global = false;
		double secs = discord_rest_answer_429(a, buf_str(&q->resp), q->resp.len, &global);

		discord_ratelimit_done(r->rl, q->route, exempt, 429, &h, secs, global, now);
		discord_opstats_add(OPSTATS_REST_429);
		log_warnx("discord: %s is rate limited (%s); waiting %.3f s", LOG_ROUTE(),
		          global ? "global" : "bucket", secs);
		if (q->limited++ < LIMITED_MAX) {
			retry(r, q, (int64_t)(secs * 1000.0 + 0.999) + 1, now);
			return;
		}
		complete(r, q, status);
		return;
	}
	discord_ratelimit_done(r->rl, q->route, exempt, status, &h, 0, false, now);
	if (status >= 500 && status <= 599) {
		discord_opstats_add(OPSTATS_REST_5XX);
		if (!(q->flags & REST_ONCE) && q->tries++ < TRIES_MAX && !r->stopped) {
			log_warnx("discord: %s answered %ld; retrying", LOG_ROUTE(), status);
			retry(r, q, (500 << (q->tries - 1)) + (int64_t)rng_below(r->rng, 250), now);
			return;
		}
	}
	if (status == 401 && !q->token_route)
		stop_rest(r, LOG_ROUTE());
	else if (status >= 400 && !q->token_route && !(q->flags & REST_ONCE) &&
	         !(status == 404 && (q->flags & REST_GONE_OK)))
		log_warnx("discord: %s answered %ld: %.200s", LOG_ROUTE(), status,
		          buf_str(&q->resp));
	complete(r, q, status);
}

void
discord_rest__finish(struct rest *r, struct req *q, long status, CURLcode rc,
                     const char *long_bucket)
{
	list_unlink(&r->active, q);
	r->nactive--;
	/* The loop's time is from the start of this turn, and an answer may
	 * be read in the same turn as its request went out, after other
	 * callbacks took their time: a retry_after or a reset counted from
	 * then would end early. */
	uv_update_time(r->loop);
	finish(r, q, status, rc, long_bucket, (int64_t)uv_now(r->loop));
}

void
discord_rest__done(struct rest *r, struct req *q, long status, CURLcode rc, const char *long_bucket)
{
	discord_rest__finish(r, q, status, rc, long_bucket);
	if (!r->closing)
		discord_rest__pump(r);
}

/* The base URL as logs show it: without a user or password, and without
 * a trailing '/' (given: the text configured, shown when it is no URL). */
static char *
shown_url(CURLU *base, const char *given)
{
	CURLU *u = base != NULL ? curl_url_dup(base) : NULL;
	char *text = NULL, *out;
	size_t n;

	if (u != NULL && curl_url_set(u, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &text, 0) == CURLUE_OK)
		out = xstrdup(text);
	else
		out = xstrdup(given);
	curl_free(text);
	curl_url_cleanup(u);
	n = strlen(out);
	while (n > 0 && out[n - 1] == '/')
		out[--n] = '\0';
	return out;
}

struct rest *
discord_rest_new(uv_loop_t *loop, const struct rest_opts *o)
{
	static bool curl_ready;
	struct rest *r = xcalloc(1, sizeof(*r));
	const char *base;
	char *path = NULL;
	size_t n;

	if (!curl_ready) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		curl_ready = true;
	}
	r->loop = loop;
	/* Parsed once and shared by every request, each with its own target
	 * (discord_rest_wire_target). */
	r->base = curl_url();
	if (r->base == NULL)
		log_fatalx("libcurl cannot make a URL handle");
	base = o->base_url != NULL ? o->base_url : "https://discord.com/api/v10";
	if (curl_url_set(r->base, CURLUPART_URL, base, 0) != CURLUE_OK ||
	    curl_url_get(r->base, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
		log_warnx("discord: libcurl cannot parse the REST URL %.200s ([discord] rest_url); "
		          "every REST call will fail",
		          base);
		curl_url_cleanup(r->base);
		r->base = NULL;
		path = NULL;
	}
	r->base_path = xstrdup(path != NULL ? path : "");
	r->base_shown = shown_url(r->base, base);
	curl_free(path);
	path = NULL;
	if (r->base == NULL || curl_url_get(r->base, CURLUPART_SCHEME, &path, 0) != CURLUE_OK)
		path = NULL;
	discord_rest_wire_proxy(path != NULL ? path : "https", &r->proxy, &r->noproxy);
	/* Through a proxy, an https request goes in a tunnel, with its path as
	 * target; a plain-HTTP one names the whole URL. */
	if (r->proxy[0] != '\0' && path != NULL && strcasecmp(path, "http") == 0)
		r->origin = discord_rest_wire_origin(r->base);
	curl_free(path);
	n = strlen(r->base_path);
	while (n > 0 && r->base_path[n - 1] == '/')
		r->base_path[--n] = '\0';
	r->base_len = n;
	r->tls_verify = o->tls_verify;
	r->ca_file = o->ca_file != NULL && o->ca_file[0] != '\0' ? xstrdup(o->ca_file) : NULL;
	r->timeout_ms = o->timeout_ms != 0 ? o->timeout_ms : TIMEOUT_MS;
	r->fatal = o->fatal;
	r->date = o->date;
	r->fatal_ctx = o->ctx;
	for (int a = 0; a < 2; a++) {
		const char *token = a == 1 || o->token == NULL ? NULL : o->token;

		r->hdr_plain[a] = discord_rest_wire_headers(token, 0);
		r->hdr_body[a] = discord_rest_wire_headers(token, 1);
		r->hdr_big[a] = discord_rest_wire_headers(token, 2);
	}
	r->rl = discord_ratelimit_new();
	r->rng = rng_new_seeded(uv_hrtime());
	r->open_handles = 2;
	discord_rest_curl_io_init(r, &r->io, true, discord_rest_curl_check);
	uv_timer_init(loop, &r->pump_timer);
	r->pump_timer.data = r;
	soon_init(loop, &r->ended, on_ended, r);
	if (o->h1_conns >= 0) {
		discord_rest_curl_io_init(r, &r->connect_io, false, NULL);
		r->h1 =
		    discord_rest_h1_new(r, o->h1_conns > 0 ? o->h1_conns : DISCORD_REST_H1_CONNS);
	}
	return r;
}

bool
discord_rest_token_route(const char *path)
{
	const char *p;

	if (strncmp(path, "/interactions/", 14) == 0)
		return true;
	if (strncmp(path, "/webhooks/", 10) != 0)
		return false;
	/* /webhooks/<id>/<token>...: the token is the second segment. */
	p = strchr(path + 10, '/');
	return p != NULL && p[1] != '\0' && p[1] != '?';
}

void
discord_rest_call(struct rest *r, const char *method, const char *path, const char *body,
                  unsigned flags, rest_cb cb, void *ctx)
{
	discord_rest_call_until(r, method, path, body, flags, 0, cb, ctx);
}

void
discord_rest_call_until(struct rest *r, const char *method, const char *path, const char *body,
                        unsigned flags, uint64_t deadline_ns, rest_cb cb, void *ctx)
{
	struct req *q = xcalloc(1, sizeof(*q));
	size_t mlen = strnlen(method, sizeof(q->method) - 1);

	q->r = r;
	memcpy(q->method, method, mlen); /* q is zeroed: NUL-terminated */
	q->target = r->base == NULL
	                ? NULL
	                : discord_rest_wire_target(r->origin, r->base_path, r->base_len, path);
	if (body != NULL) {
		q->body_len = strlen(body);
		q->body = xmalloc(q->body_len + 1);
		memcpy(q->body, body, q->body_len + 1);
	}
	discord_ratelimit_route(method, path, q->route, sizeof(q->route));
	q->flags = flags;
	q->token_route = discord_rest_token_route(path);
	q->deadline_ns = deadline_ns;
	q->cb = cb;
	q->ctx = ctx;
	buf_init(&q->resp, RESPONSE_MAX);
	q->queued_ns = uv_hrtime();
	if (r->stopped || r->closing || q->target == NULL) {
		if (q->target == NULL)
			q->error = "libcurl cannot parse the URL ([discord] rest_url)";
		fail_later(r, q);
		return;
	}
	list_push(&r->pending, q, false);
	r->npending++;
	discord_rest__pump(r);
}

uint64_t
discord_rest_backlog_ns(const struct rest *r, uint64_t now_ns)
{
	return now_ns - r->last_sent_ns < BACKLOG_RECENT_NS ? r->last_wait_ns : 0;
}

size_t
discord_rest_pending(const struct rest *r)
{
	return r->npending + r->nactive;
}

int
discord_rest_waiting(const struct rest *r)
{
	return discord_rest_h1_waiting(r->h1);
}

const char *
discord_rest_base(const struct rest *r)
{
	return r->base_shown;
}

int
discord_rest_error_code(const struct rest_result *res)
{
	cJSON *root, *code;
	int n = 0;

	if (res->body == NULL || res->len == 0)
		return 0;
	root = cJSON_ParseWithLength(res->body, res->len);
	code = cJSON_GetObjectItemCaseSensitive(root, "code");
	if (cJSON_IsNumber(code) && code->valuedouble >= 0 && code->valuedouble <= 1e9)
		n = (int)code->valuedouble;
	cJSON_Delete(root);
	return n;
}

bool
discord_rest_stopped(const struct rest *r)
{
	return r->stopped;
}

void
discord_rest_close(struct rest *r, void (*done)(void *), void *ctx)
{
	struct req *q;

	r->closing = true;
	r->done = done;
	r->done_ctx = ctx;
	discord_rest_h1_close(r->h1);
	r->h1 = NULL;
	while ((q = r->active.head) != NULL) {
		list_unlink(&r->active, q);
		curl_multi_remove_handle(r->io.multi, q->easy);
		curl_easy_cleanup(q->easy);
		complete(r, q, 0);
	}
	while ((q = r->pending.head) != NULL) {
		list_unlink(&r->pending, q);
		complete(r, q, 0);
	}
	while ((q = r->failed.head) != NULL) {
		list_unlink(&r->failed, q);
		complete(r, q, 0);
	}
	r->npending = r->nactive = 0;
	while (r->npool > 0)
		curl_easy_cleanup(r->pool[--r->npool]);
	discord_rest_curl_io_close(&r->io);
	discord_rest_curl_io_close(&r->connect_io);
	for (int a = 0; a < 2; a++) {
		curl_slist_free_all(r->hdr_body[a]);
		curl_slist_free_all(r->hdr_big[a]);
		curl_slist_free_all(r->hdr_plain[a]);
	}
	discord_ratelimit_free(r->rl);
	rng_free(r->rng);
	curl_url_cleanup(r->base);
	free(r->base_path);
	free(r->base_shown);
	free(r->origin);
	free(r->proxy);
	free(r->noproxy);
	free(r->ca_file);
	uv_timer_stop(&r->pump_timer);
	uv_close((uv_handle_t *)&r->pump_timer, on_timer_closed);
	soon_close(&r->ended, on_ended_closed);
}
