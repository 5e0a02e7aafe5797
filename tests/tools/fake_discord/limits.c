/*
 * fake_discord/limits: Discord's REST rate limits as the fake applies them,
 * and its invalid-request limit.
 *
 * Every route belongs to a class; a class has a bucket (its name is the
 * X-RateLimit-Bucket hash, the same for every route of the class) that
 * Discord keeps per top-level resource of the path: the channel, the guild,
 * or the webhook id with its token (docs/topics/rate-limits: "Top-level
 * resources are currently limited to channels, guilds, and webhooks").
 * A bucket allows `limit` requests in a window of `per_ms` that starts with
 * its first request; every answer carries X-RateLimit-Limit, -Remaining,
 * -Reset (epoch seconds), -Reset-After and -Bucket, and a request on an
 * exhausted bucket gets a 429 with retry_after, Retry-After and
 * X-RateLimit-Scope: user. Routes the bot token authorises also share the
 * global limit, 50 requests in any second ("All bots can make up to 50
 * requests per second"); interaction routes (the callback and the webhook
 * routes of an interaction's token) are exempt ("not bound to the bot's
 * Global Rate Limit"). A global 429 says X-RateLimit-Global and scope
 * global.
 *
 * The numbers are those observed of Discord where known: an interaction's
 * follow-ups and edits 5 per 2 s per interaction, measured by library
 * authors (discord-api-docs issue 2701); a channel's messages 5 per 5 s.
 * The others are of the same order; Discord asks clients to read the
 * headers, never to assume numbers, and the "ratelimit" control changes
 * any of them. A channel-wide limit on follow-ups, 30 a minute, was
 * reported in 2021 (issues 2701, 3763: a shared limit, whose 429 says scope
 * shared and which no header announces); it is off unless a test sets it
 * ("ratelimit webhook_channel limit=30 per=60000"), since nothing says it
 * still holds and the basic tests send far more than that in a minute.
 *
 * Invalid requests: every answer 401, 403 or 429 is counted over a
 * sliding 10 minutes (shared 429s too: Discord's documentation says they
 * are not, but discord-api-docs issue 7243 shows bots banned by shared
 * 429s of follow-ups, so the fake counts them); at 10,000 (the
 * "invalidlimit" control changes it) the IP is banned for an hour, as
 * Cloudflare does: every request is answered 429 with the text "error
 * code: 1015" and no JSON, and the ban is a violation.
 */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/base/mem.h"

#define GLOBAL_RATE    50
#define INVALID_WINDOW (10 * 60 * 1000) /* ms */
#define INVALID_SLOT   1000             /* ms a slot of the window covers */
#define INVALID_SLOTS  (INVALID_WINDOW / INVALID_SLOT)
#define BAN_MS         (60 * 60 * 1000)
#define BUCKET_KEY_MAX 400

enum class {
	C_CALLBACK,
	C_WEBHOOK,
	C_WEBHOOK_CHANNEL,
	C_MESSAGE_CREATE,
	C_MESSAGE_EDIT,
	C_MESSAGE_DELETE,
	C_MESSAGE_GET,
	C_DM_OPEN,
	C_GATEWAY,
	C_COMMANDS_GET,
	C_COMMANDS_PUT,
	C_OTHER,
	C_GLOBAL,
	C_COUNT
};

static struct class_spec {
	const char *name;   /* for the "ratelimit" control */
	const char *bucket; /* its X-RateLimit-Bucket */
	int limit, per_ms;
} spec[C_COUNT] = {
    [C_CALLBACK] = {"callback", "8a0c4e6f1b2d3a59", 5, 1000},
    [C_WEBHOOK] = {"webhook", "41d9fa3c7e0b6a12", 5, 2000},
    [C_WEBHOOK_CHANNEL] = {"webhook_channel", "", 0, 60000}, /* 0: off */
    [C_MESSAGE_CREATE] = {"message_create", "80c17d2f10b5ab2d", 5, 5000},
    [C_MESSAGE_EDIT] = {"message_edit", "d2a04b1ce5f73a80", 5, 5000},
    [C_MESSAGE_DELETE] = {"message_delete", "3b1e9d0a6c4f2e71", 5, 1000},
    [C_MESSAGE_GET] = {"message_get", "9f3c2b1a0e8d7c65", 5, 1000},
    [C_DM_OPEN] = {"dm_open", "6e1b7c3d9a2f4e08", 5, 5000},
    [C_GATEWAY] = {"gateway", "c5d0e2f1a3b49786", 5, 5000},
    [C_COMMANDS_GET] = {"commands_get", "0b7e5a3c1d9f2468", 10, 10000},
    [C_COMMANDS_PUT] = {"commands_put", "f1e2d3c4b5a69788", 5, 20000},
    [C_OTHER] = {"other", "7a6b5c4d3e2f1a0b", 10, 10000},
    [C_GLOBAL] = {"global", "", GLOBAL_RATE, 1000},
};

struct bucket {
	char key[BUCKET_KEY_MAX]; /* the class's bucket and the top-level resource */
	int remaining;
	int64_t reset_at;    /* ms (fake_now): the window's end */
	int64_t reset_epoch; /* the same on the wall clock (X-RateLimit-Reset) */
	int64_t told_wait;   /* a 429 said to wait until then */
	UT_hash_handle hh;
};

static struct bucket *buckets;
/* The global limit: when each of the last GLOBAL_RATE bot-token requests
 * went (a ring), so that any second holds at most that many. */
static int64_t global_sent[GLOBAL_RATE];
static size_t global_next;
static int64_t global_told; /* a global 429 said to wait until then */
/* Invalid answers per second over the last 10 minutes. */
static struct {
	int64_t second; /* fake_now() / INVALID_SLOT of the slot, -1: unused */
	uint32_t n;
} invalid[INVALID_SLOTS];
static int invalid_limit = 10000;
static int64_t banned_until;
static bool invalid_ready;

int64_t
fake_epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The n-th segment of path (0: the first after the leading '/') into out,
 * or "" when there is none. */
static void
segment(const char *path, int n, char *out, size_t len)
{
	const char *p = path;

	out[0] = '\0';
	for (int i = 0; *p == '/'; i++) {
		const char *seg = ++p;
		size_t k = strcspn(seg, "/?");

		if (i == n) {
			snprintf(out, len, "%.*s", (int)k, seg);
			return;
		}
		p = seg + k;
	}
}

static int
segments(const char *path)
{
	int n = 0;

	for (const char *p = path; *p == '/' && p[1] != '\0' && p[1] != '?'; n++)
		p += 1 + strcspn(p + 1, "/?");
	return n;
}

/* The class of a request, and its top-level resource into major (a path
 * prefix, "" for none). */
static enum class classify(const char *method, const char *path, char *major, size_t len) {
	char s0[64],
	s1[200],
	s2[200],
	s3[64]; int n = segments(path);

	    segment(path, 0, s0, sizeof(s0)); segment(path, 1, s1, sizeof(s1));
	    segment(path, 2, s2, sizeof(s2)); segment(path, 3, s3, sizeof(s3)); major[0] = '\0';
	    if (strcmp(s0, "interactions") ==
	        0){snprintf(major, len, "/interactions/%s/%s", s1, s2); return C_CALLBACK;
}
if (strcmp(s0, "webhooks") == 0)
{
	snprintf(major, len, "/webhooks/%s/%s", s1, s2);
	return C_WEBHOOK;
}
if (strcmp(s0, "channels") == 0) {
	snprintf(major, len, "/channels/%s", s1);
	if (strcmp(s2, "messages") == 0 && n == 3 && strcmp(method, "POST") == 0)
		return C_MESSAGE_CREATE;
	if (strcmp(s2, "messages") == 0 && n == 4 && strcmp(method, "PATCH") == 0)
		return C_MESSAGE_EDIT;
	if (strcmp(s2, "messages") == 0 && n == 4 && strcmp(method, "DELETE") == 0)
		return C_MESSAGE_DELETE;
	if (strcmp(s2, "messages") == 0 && strcmp(method, "GET") == 0)
		return C_MESSAGE_GET;
	return C_OTHER;
}
if (strcmp(s0, "users") == 0 && strcmp(s1, "@me") == 0 && strcmp(s2, "channels") == 0)
	return C_DM_OPEN;
if (strcmp(s0, "gateway") == 0)
	return C_GATEWAY;
if (strcmp(s0, "applications") == 0 && strstr(path, "/commands") != NULL) {
	if (strcmp(s2, "guilds") == 0)
		snprintf(major, len, "/guilds/%s", s3);
	return strcmp(method, "GET") == 0 ? C_COMMANDS_GET : C_COMMANDS_PUT;
}
if (strcmp(s0, "guilds") == 0)
	snprintf(major, len, "/guilds/%s", s1);
return C_OTHER;
}

static struct bucket *
bucket_get(const char *key, int64_t now)
{
	struct bucket *b;

	HASH_FIND_STR(buckets, key, b);
	if (b == NULL) {
		b = xcalloc(1, sizeof(*b));
		snprintf(b->key, sizeof(b->key), "%s", key);
		b->reset_at = now - 1;
		HASH_ADD_STR(buckets, key, b);
	}
	return b;
}

/* The bucket's window, started afresh when the last one ended. */
static void
window(struct bucket *b, const struct class_spec *cs, int64_t now)
{
	if (b->reset_at <= now) {
		b->remaining = cs->limit;
		b->reset_at = now + cs->per_ms;
		/* Fixed when the window opens: every answer of one window
		 * names the same reset, as Discord's do. */
		b->reset_epoch = fake_epoch_ms() + cs->per_ms;
	}
}

static void
rate_headers(struct http_answer *a, const struct class_spec *cs, const struct bucket *b,
             int64_t now)
{
	int64_t after = b->reset_at - now;
	int64_t epoch = b->reset_epoch;

	fake_header(a, "X-RateLimit-Limit", "%d", cs->limit);
	fake_header(a, "X-RateLimit-Remaining", "%d", b->remaining);
	fake_header(a, "X-RateLimit-Reset", "%" PRId64 ".%03d", epoch / 1000, (int)(epoch % 1000));
	fake_header(a, "X-RateLimit-Reset-After", "%" PRId64 ".%03d", after / 1000,
	            (int)(after % 1000));
	fake_header(a, "X-RateLimit-Bucket", "%s", cs->bucket);
}

/* A 429 of that scope, asking to wait ms. */
static void
too_many(struct http_answer *a, const char *scope, int64_t ms)
{
	char body[256];

	snprintf(body, sizeof(body), "{\"message\":\"%s\",\"retry_after\":%.3f,\"global\":%s}",
	         strcmp(scope, "shared") == 0 ? "The resource is being rate limited."
	                                      : "You are being rate limited.",
	         (double)ms / 1000.0, strcmp(scope, "global") == 0 ? "true" : "false");
	free(a->body);
	a->body = xstrdup(body);
	a->status = 429;
	fake_header(a, "Retry-After", "%d", (int)((ms + 999) / 1000));
	fake_header(a, "X-RateLimit-Scope", "%s", scope);
	if (strcmp(scope, "global") == 0)
		fake_header(a, "X-RateLimit-Global", "true");
	F.st.r429++;
	if (strcmp(scope, "shared") == 0)
		F.st.r429_shared++;
}

/* A request on a bucket (or the global limit) that a 429 told to wait. */
static void
early(const char *what, int64_t until, int64_t now)
{
	if (until <= now)
		return;
	F.st.early++;
	fake_violation("%s: a request came %" PRId64 " ms before its 429's retry_after passed",
	               what, until - now);
}

bool
limits_fake_take(const char *method, const char *path, const char *route, struct http_answer *a)
{
	char major[300], key[BUCKET_KEY_MAX];
	enum class c = classify(method, path, major, sizeof(major));
	const struct class_spec *cs = &spec[c];
	int64_t now = fake_now();
	struct bucket *b;
	bool exempt = c == C_CALLBACK || c == C_WEBHOOK;

	if (!exempt) {
		const struct class_spec *g = &spec[C_GLOBAL];
		/* The limit-th most recent send (the ring holds GLOBAL_RATE). */
		int64_t oldest =
		    global_sent[(global_next + GLOBAL_RATE - (size_t)g->limit) % GLOBAL_RATE];

		early(route, global_told, now);
		if (oldest != 0 && now - oldest < g->per_ms) {
			global_told = oldest + g->per_ms;
			too_many(a, "global", global_told - now);
			return true;
		}
	}
	snprintf(key, sizeof(key), "%s%s", cs->bucket, major);
	b = bucket_get(key, now);
	early(route, b->told_wait, now);
	window(b, cs, now);
	if (b->remaining <= 0) {
		b->told_wait = b->reset_at;
		rate_headers(a, cs, b, now);
		too_many(a, "user", b->reset_at - now);
		return true;
	}
	b->remaining--;
	if (!exempt) {
		global_sent[global_next] = now;
		global_next = (global_next + 1) % GLOBAL_RATE;
	}
	rate_headers(a, cs, b, now);
	return false;
}

bool
limits_fake_channel_followup(uint64_t chan, struct http_answer *a)
{
	const struct class_spec *cs = &spec[C_WEBHOOK_CHANNEL];
	char key[64];
	int64_t now = fake_now();
	struct bucket *b;

	if (cs->limit <= 0)
		return false;
	snprintf(key, sizeof(key), "webhook-channel/%" PRIu64, chan);
	b = bucket_get(key, now);
	early("follow-ups of a channel (shared)", b->told_wait, now);
	window(b, cs, now);
	if (b->remaining <= 0) {
		b->told_wait = b->reset_at;
		too_many(a, "shared", b->reset_at - now);
		return true;
	}
	b->remaining--;
	return false;
}

static void
invalid_init(void)
{
	for (size_t i = 0; i < INVALID_SLOTS; i++)
		invalid[i].second = -1;
	invalid_ready = true;
}

int64_t
limits_fake_invalid_recent(void)
{
	int64_t sec = fake_now() / INVALID_SLOT, n = 0;

	if (!invalid_ready)
		invalid_init();
	for (size_t i = 0; i < INVALID_SLOTS; i++)
		if (invalid[i].second > sec - INVALID_SLOTS)
			n += invalid[i].n;
	return n;
}

void
limits_fake_answered(int status)
{
	int64_t sec = fake_now() / INVALID_SLOT, n;
	size_t k = (size_t)(sec % INVALID_SLOTS);

	if (status != 401 && status != 403 && status != 429)
		return;
	if (!invalid_ready)
		invalid_init();
	F.st.invalid++;
	if (invalid[k].second != sec) {
		invalid[k].second = sec;
		invalid[k].n = 0;
	}
	invalid[k].n++;
	n = limits_fake_invalid_recent();
	if (n > F.st.max_invalid_10min)
		F.st.max_invalid_10min = n;
	if (n >= invalid_limit && banned_until <= fake_now()) {
		banned_until = fake_now() + BAN_MS;
		F.st.bans++;
		fake_violation("%" PRId64 " invalid requests (401, 403, 429) in 10 minutes: "
		               "Discord bans the IP for an hour",
		               n);
	}
}

bool
limits_fake_banned(struct http_answer *a)
{
	if (banned_until <= fake_now())
		return false;
	free(a->body);
	a->body = xstrdup("error code: 1015");
	a->status = 429;
	a->text = true;
	F.st.banned_requests++;
	return true;
}

void
limits_fake_tick(int64_t now)
{
	struct bucket *b, *tmp;

	HASH_ITER(hh, buckets, b, tmp)
	{
		if (b->reset_at <= now && b->told_wait <= now) {
			HASH_DEL(buckets, b);
			free(b);
		}
	}
}

void
limits_fake_free(void)
{
	struct bucket *b, *tmp;

	HASH_ITER(hh, buckets, b, tmp)
	{
		HASH_DEL(buckets, b);
		free(b);
	}
}

int
limits_fake_control(const char *args, char *err, size_t errlen)
{
	char word[32], cls[32];
	const char *p = args + strcspn(args, " ");
	const char *lim, *per;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(args, " \n"), args);
	p += strspn(p, " ");
	if (strcmp(word, "invalidlimit") == 0) {
		int n = atoi(p);

		if (n < 1) {
			snprintf(err, errlen, "invalidlimit needs a positive count");
			return -1;
		}
		invalid_limit = n;
		return 0;
	}
	snprintf(cls, sizeof(cls), "%.*s", (int)strcspn(p, " \n"), p);
	for (int c = 0; c < C_COUNT; c++) {
		if (strcmp(spec[c].name, cls) != 0)
			continue;
		lim = strstr(p, "limit=");
		per = strstr(p, "per=");
		if (lim != NULL && (atoi(lim + 6) >= 1 || c == C_WEBHOOK_CHANNEL))
			spec[c].limit = atoi(lim + 6);
		if (c == C_GLOBAL && spec[c].limit > GLOBAL_RATE)
			spec[c].limit = GLOBAL_RATE;
		if (per != NULL && atoi(per + 4) >= 1)
			spec[c].per_ms = atoi(per + 4);
		return 0;
	}
	snprintf(err, errlen, "ratelimit: unknown class '%s'", cls);
	return -1;
}
