/* discord_ratelimit: buckets, 429 locks, the global limit; see
 * discord_ratelimit.h. */
#include "bot/discord/discord_ratelimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "rules/base/mem.h"

#define IDLE_FORGET 60000 /* ms after its reset an idle bucket is forgotten */
/* A request that waits for the answers in flight is looked at again when
 * one comes (discord_rest pumps then), or after this many ms. */
#define ANSWER_WAIT 1000
/* Resets (seconds) this close are one window's: far less than any window
 * lasts, more than a server's rounding. */
#define WINDOW_SAME 0.010
#define SWEEP_EVERY 1024 /* calls between sweeps */

struct bucket {
	char
	    key[DISCORD_RATELIMIT_ROUTE_MAX * 2]; /* bucket hash + major parameters, or the route */
	int limit, remaining;                     /* -1: unknown */
	int64_t reset_at;                         /* when remaining refills */
	double window;                            /* its X-RateLimit-Reset, 0: unknown */
	int64_t locked_until;                     /* a 429 said wait */
	int inflight;
	bool answered; /* an answer came: its headers (or their absence) told */
	int refs;      /* routes in this bucket */
	int64_t last_used;
	UT_hash_handle hh;
};

struct route {
	char key[DISCORD_RATELIMIT_ROUTE_MAX];
	struct bucket *b;
	bool exempt; /* made for an exempt request (its 429) */
	UT_hash_handle hh;
};

struct discord_ratelimit {
	struct bucket *buckets;
	struct route *routes;
	int64_t global_until;
	/* When each of the last DISCORD_RATELIMIT_GLOBAL_RATE requests bound
	 * by the global limit went: a ring, sent[next] the oldest. */
	int64_t sent[DISCORD_RATELIMIT_GLOBAL_RATE];
	size_t next;
	unsigned calls;
	size_t exempt_routes; /* routes with exempt set */
};

struct discord_ratelimit *
discord_ratelimit_new(void)
{
	struct discord_ratelimit *rl = xcalloc(1, sizeof(*rl));

	for (size_t i = 0; i < DISCORD_RATELIMIT_GLOBAL_RATE; i++)
		rl->sent[i] = INT64_MIN / 2;
	return rl;
}

void
discord_ratelimit_free(struct discord_ratelimit *rl)
{
	struct bucket *b, *bt;
	struct route *r, *rt;

	if (rl == NULL)
		return;
	HASH_ITER(hh, rl->routes, r, rt)
	{
		HASH_DEL(rl->routes, r);
		free(r);
	}
	HASH_ITER(hh, rl->buckets, b, bt)
	{
		HASH_DEL(rl->buckets, b);
		free(b);
	}
	free(rl);
}

size_t
discord_ratelimit_buckets(const struct discord_ratelimit *rl)
{
	return HASH_COUNT(rl->buckets);
}

static bool
is_id(const char *s, size_t n)
{
	return n > 0 && n <= 20 && strspn(s, "0123456789") >= n;
}

/* How many segments after this one are major parameters. */
static int
major_after(const char *seg, size_t n)
{
	if ((n == 8 && strncmp(seg, "channels", n) == 0) ||
	    (n == 6 && strncmp(seg, "guilds", n) == 0))
		return 1;
	if ((n == 8 && strncmp(seg, "webhooks", n) == 0) ||
	    (n == 12 && strncmp(seg, "interactions", n) == 0))
		return 2;
	return 0;
}

/* A route being written into a caller's array: a piece that does not fit
 * whole is left out (as buf_add does), the rest still goes in. No heap and
 * no printf: this runs for every request. */
struct piece_out {
	char *p;
	size_t n, max; /* max: the bytes before the NUL */
};

static void
put(struct piece_out *o, const char *s, size_t n)
{
	if (n <= o->max - o->n) {
		memcpy(o->p + o->n, s, n);
		o->n += n;
	}
}

/* Walks path's segments into o: the route (ids replaced except major
 * parameters) when major_only is false, else the major parameters alone. */
static void
walk(const char *path, bool major_only, struct piece_out *o)
{
	int keep = 0;

	for (const char *p = path; *p == '/';) {
		const char *seg = ++p;
		size_t n = strcspn(seg, "/?");

		if (keep > 0) {
			put(o, "/", 1);
			put(o, seg, n);
			keep--;
		} else if (!major_only) {
			if (is_id(seg, n)) {
				put(o, "/:id", 4);
			} else {
				put(o, "/", 1);
				put(o, seg, n);
			}
			keep = major_after(seg, n);
		} else {
			keep = major_after(seg, n);
		}
		p = seg + n;
	}
}

void
discord_ratelimit_route(const char *method, const char *path, char *out, size_t len)
{
	struct piece_out o = {out, 0, 0};

	if (len == 0)
		return;
	o.max = len - 1;
	put(&o, method, strlen(method));
	put(&o, " ", 1);
	walk(path, false, &o);
	out[o.n] = '\0';
}

/* The major parameters of a route key (the route starts at its '/'). */
static void
major_of(const char *route, char *out, size_t len)
{
	struct piece_out o = {out, 0, 0};
	const char *p = strchr(route, '/');

	if (len == 0)
		return;
	o.max = len - 1;
	if (p != NULL)
		walk(p, true, &o);
	out[o.n] = '\0';
}

static bool
idle(const struct bucket *b, int64_t now)
{
	return b->inflight == 0 && b->locked_until <= now && b->last_used + IDLE_FORGET <= now &&
	       b->reset_at + IDLE_FORGET <= now;
}

/* Forgets idle routes, then the buckets no route uses that are idle. */
static void
sweep(struct discord_ratelimit *rl, int64_t now)
{
	struct route *r, *rt;
	struct bucket *b, *bt;

	HASH_ITER(hh, rl->routes, r, rt)
	{
		if (!idle(r->b, now))
			continue;
		r->b->refs--;
		if (r->exempt)
			rl->exempt_routes--;
		HASH_DEL(rl->routes, r);
		free(r);
	}
	HASH_ITER(hh, rl->buckets, b, bt)
	{
		if (b->refs > 0 || !idle(b, now))
			continue;
		HASH_DEL(rl->buckets, b);
		free(b);
	}
}

static struct bucket *
bucket_get(struct discord_ratelimit *rl, const char *key, bool create, int64_t now)
{
	struct bucket *b;

	HASH_FIND_STR(rl->buckets, key, b);
	if (b == NULL && create) {
		b = xcalloc(1, sizeof(*b));
		snprintf(b->key, sizeof(b->key), "%s", key);
		b->limit = b->remaining = -1;
		b->reset_at = INT64_MIN / 2;
		b->locked_until = INT64_MIN / 2;
		HASH_ADD_STR(rl->buckets, key, b);
	}
	if (b != NULL)
		b->last_used = now;
	return b;
}

/*
 * The bucket a route is in, or NULL when nothing is known of it. An exempt
 * request (an interaction's) meets only the routes its kind made, from
 * their 429s: while there are none, its route (about 200 bytes, with the
 * token) is not even hashed.
 */
static struct bucket *
bucket_of(struct discord_ratelimit *rl, const char *route, bool exempt, bool create, int64_t now)
{
	struct route *r;

	if (exempt && rl->exempt_routes == 0 && !create)
		return NULL;
	HASH_FIND_STR(rl->routes, route, r);
	if (r == NULL && !create)
		return NULL;
	if (r == NULL) {
		r = xcalloc(1, sizeof(*r));
		snprintf(r->key, sizeof(r->key), "%s", route);
		r->exempt = exempt;
		if (exempt)
			rl->exempt_routes++;
		r->b = bucket_get(rl, route, true, now);
		r->b->refs++;
		HASH_ADD_STR(rl->routes, key, r);
	}
	r->b->last_used = now;
	return r->b;
}

int64_t
discord_ratelimit_wait(struct discord_ratelimit *rl, const char *route, bool exempt, int64_t now)
{
	struct bucket *b = bucket_of(rl, route, exempt, false, now);
	int64_t wait = 0;

	if (++rl->calls % SWEEP_EVERY == 0) {
		sweep(rl, now);
		b = bucket_of(rl, route, exempt, false, now);
	}
	if (!exempt) {
		/* At most DISCORD_RATELIMIT_GLOBAL_RATE in any second: the
		 * oldest of the last that many must be a second old. */
		int64_t free_at = rl->sent[rl->next] + 1000;

		if (rl->global_until > now)
			wait = rl->global_until - now;
		if (free_at > now && free_at - now > wait)
			wait = free_at - now;
	}
	if (b == NULL)
		return wait;
	if (b->locked_until > now && b->locked_until - now > wait)
		wait = b->locked_until - now;
	/* Nothing known yet: one request at a time, until its answer tells
	 * the bucket. */
	if (!b->answered && b->inflight > 0 && wait < ANSWER_WAIT)
		wait = ANSWER_WAIT;
	if (b->reset_at <= now && b->limit >= 0)
		b->remaining = b->limit;
	if (b->remaining >= 0 && b->remaining - b->inflight <= 0) {
		/* Before the reset, wait for it; after it, the requests in
		 * flight may have used the new window up, and only their
		 * answers tell when it ends. */
		int64_t until = b->reset_at > now ? b->reset_at - now : ANSWER_WAIT;

		if (until > wait)
			wait = until;
	}
	return wait;
}

void
discord_ratelimit_sent(struct discord_ratelimit *rl, const char *route, bool exempt, int64_t now)
{
	/* A route of the bot's is known from its first request, so that the
	 * next waits for its answer; an exempt one only once it must be. */
	struct bucket *b = bucket_of(rl, route, exempt, !exempt, now);

	if (!exempt) {
		rl->sent[rl->next] = now;
		rl->next = (rl->next + 1) % DISCORD_RATELIMIT_GLOBAL_RATE;
	}
	if (b != NULL)
		b->inflight++;
}

/* Forgets route r of an exempt request once its bucket tells nothing that
 * the next request needs: requests left before the reset, none in flight,
 * no 429 lock. An interaction's routes serve one interaction, so keeping
 * them would only fill memory. */
static void
forget_exempt(struct discord_ratelimit *rl, struct route *r, int64_t now)
{
	struct bucket *b = r->b;

	if (b->inflight > 0 || b->locked_until > now || (b->remaining == 0 && b->reset_at > now))
		return;
	if (r->exempt)
		rl->exempt_routes--;
	HASH_DEL(rl->routes, r);
	free(r);
	if (--b->refs == 0) {
		HASH_DEL(rl->buckets, b);
		free(b);
	}
}

/* The remaining count and reset of an answer's window. Within the window
 * known (the same X-RateLimit-Reset) the count only falls: an answer that
 * went out first may come back last, holding a higher count. An answer of
 * a window before it, or of the window known once its reset passed (the
 * count was refilled then), tells nothing new. */
static void
learn_window(struct bucket *b, const struct discord_ratelimit_headers *h, int64_t now)
{
	if (h->reset > 0 && b->window > 0) {
		if (h->reset < b->window - WINDOW_SAME)
			return;
		if (h->reset <= b->window + WINDOW_SAME) {
			if (b->reset_at > now && h->remaining >= 0 &&
			    (b->remaining < 0 || h->remaining < b->remaining))
				b->remaining = h->remaining;
			return;
		}
	}
	if (h->reset > 0)
		b->window = h->reset;
	if (h->remaining >= 0)
		b->remaining = h->remaining;
	if (h->reset_after >= 0)
		b->reset_at = now + (int64_t)(h->reset_after * 1000.0 + 0.999);
}

void
discord_ratelimit_done(struct discord_ratelimit *rl, const char *route, bool exempt, long status,
                       const struct discord_ratelimit_headers *h, double retry_after, bool global,
                       int64_t now)
{
	struct bucket *b = bucket_of(rl, route, exempt, false, now);
	bool learn = h != NULL && h->bucket != NULL && h->bucket[0] != '\0';
	struct route *r = NULL;

	if (b != NULL && b->inflight > 0)
		b->inflight--;
	if (b != NULL && status != 0)
		b->answered = true;
	if (status == 429 && global) {
		rl->global_until = now + (int64_t)(retry_after * 1000.0 + 0.999);
		return;
	}
	/* An exempt route nothing is known of, whose answer leaves requests
	 * in its bucket: there is nothing the next request must wait for
	 * (the common case, with no allocation). */
	if (exempt && b == NULL && status != 429 && (!learn || h->remaining != 0))
		return;
	if (!learn && status != 429)
		return;
	if (learn) {
		char key[DISCORD_RATELIMIT_ROUTE_MAX * 2], major[DISCORD_RATELIMIT_ROUTE_MAX];
		struct bucket *nb;
		int inflight = b != NULL ? b->inflight : 0;

		major_of(route, major, sizeof(major));
		snprintf(key, sizeof(key), "%.100s%s", h->bucket, major);
		(void)bucket_of(rl, route, exempt, true, now);
		HASH_FIND_STR(rl->routes, route, r);
		nb = bucket_get(rl, key, true, now);
		if (r->b != nb) {
			r->b->inflight = r->b->inflight > inflight ? r->b->inflight - inflight : 0;
			if (--r->b->refs == 0 && r->b->inflight == 0) {
				HASH_DEL(rl->buckets, r->b);
				free(r->b);
			}
			nb->inflight += inflight;
			nb->refs++;
			r->b = nb;
		}
		b = nb;
		b->answered = true;
		if (h->limit >= 0)
			b->limit = h->limit;
		learn_window(b, h, now);
	}
	if (status == 429) {
		if (b == NULL)
			b = bucket_of(rl, route, exempt, true, now);
		b->answered = true;
		b->locked_until = now + (int64_t)(retry_after * 1000.0 + 0.999);
	}
	if (exempt && r != NULL)
		forget_exempt(rl, r, now);
}
