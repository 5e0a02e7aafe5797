/*
 * discord_rest: Discord's HTTP API from the libuv loop.
 *
 * One libcurl multi handle driven by the loop (the multi socket API on
 * uv_poll and a uv_timer, after curl's docs/examples/multi-uv.c), so
 * requests never block the loop that carries the gateway's heartbeats.
 * Connections are reused (HTTP/2 multiplexing to discord.com, keep-alive
 * on HTTP/1.1). What an interaction's token authorises with a JSON body
 * (its callback, follow-ups, edits: POST and PATCH) goes on up to 16
 * HTTP/1.1 connections of their own, kept alive (discord_rest_h1.h),
 * which cost far less CPU. Every request
 * carries "Authorization: Bot <token>" and "User-Agent: DiscordBot (<url>, <version>)".
 *
 * Requests wait for their rate-limit bucket (discord_ratelimit): a 429
 * waits its retry_after and is sent again (at most 8 times); a 5xx or a
 * failed connection is retried after 0.5, 1 and 2 s with jitter (unless
 * REST_ONCE), each retry logged; a 401
 * means the token is wrong: REST stops for good, logging why, and every
 * request from then on completes with status 0. No token or interaction
 * token ever reaches the log: requests are logged by their route.
 *
 * Discord bans for an hour an IP that makes 10,000 invalid requests
 * (answered 401, 403 or 429) in 10 minutes. Every such answer is counted
 * (discord_opstats_invalid, shown in the stats line), and requests are shed
 * long before the ban, by what they are worth: past
 * DISCORD_INVALID_SHED_OPTIONAL invalid requests in 10 minutes those
 * marked REST_OPTIONAL, past DISCORD_INVALID_SHED_NORMAL every request not
 * marked REST_ESSENTIAL, complete at once with status 0 and shed set,
 * unsent. The log says so once when shedding starts and once when it ends.
 */
#ifndef DELVER_DISCORD_REST_H
#define DELVER_DISCORD_REST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#define REST_INTERACTION 0x1u /* an interaction endpoint: exempt from the global limit */
#define REST_OPTIONAL    0x2u /* the first shed: a notice, a retry another time makes */
#define REST_ESSENTIAL                                                                             \
	0x4u /* never shed: an interaction's answer itself (its callback,                          \
	        the edit of its deferral), the gateway's address */
/* One try: a failed connection or a 5xx completes at once, and nothing
 * about its failure is logged here: the caller tries again on its own
 * clock and says so in one line (rest_result's error tells what failed). */
#define REST_ONCE 0x8u
/* A 404 is an answer the caller expects (a message or channel someone may
 * have deleted) and says what it means itself: it is not logged here. */
#define REST_GONE_OK 0x10u
/* An interaction's callback (POST /interactions/{id}/{token}/callback,
 * with a JSON body): counted apart in the stats line, by the road it took. */
#define REST_CALLBACK 0x20u

#define DISCORD_INVALID_LIMIT         10000 /* Discord's: invalid requests in 10 min */
#define DISCORD_INVALID_SHED_OPTIONAL 2000  /* REST_OPTIONAL requests are shed from here */
#define DISCORD_INVALID_SHED_NORMAL   5000  /* and all but REST_ESSENTIAL from here */

struct rest;

struct rest_opts {
	const char *base_url; /* e.g. "https://discord.com/api/v10" */
	const char *token;    /* copied; never logged */
	bool tls_verify;
	const char *ca_file; /* the CA certificates to verify with; NULL or "": the system's */
	/* Connections of discord_rest_h1's road for interaction callbacks:
	 * 0 the default (DISCORD_REST_H1_CONNS), -1 none (all through libcurl). */
	int h1_conns;
	unsigned timeout_ms; /* a transfer's limit; 0: 15 s (tests set less) */
	/* REST stopped for good (the bot token was refused); msg is one
	 * sentence, not logged here. May be NULL. */
	void (*fatal)(void *ctx, const char *msg);
	/* An answer carried a Date header (date_s: seconds since 1970); the
	 * request's last try began to go out at sent_ns and the answer was
	 * read at recv_ns (uv_hrtime()). May be NULL. */
	void (*date)(void *ctx, int64_t date_s, uint64_t sent_ns, uint64_t recv_ns);
	void *ctx;
};

struct rest_result {
	long status;      /* the HTTP status, or 0 when no answer could be had */
	const char *body; /* the response body (NUL-terminated), valid during the callback */
	size_t len;
	uint64_t sent_ns;   /* uv_hrtime() when the request's last try began to go out */
	uint64_t queued_ns; /* uv_hrtime() when discord_rest_call() was made */
	bool expired;       /* not sent: its deadline passed first (status 0) */
	bool shed;          /* not sent: too many invalid requests lately (status 0) */
	/* Why no answer could be had (status 0), in libcurl's words
	 * ("Couldn't connect to server"); NULL when there is an answer, or
	 * when the request was expired, shed, or cut by discord_rest_close. */
	const char *error;
};

/* Runs once per request, from the loop (never inside discord_rest_call). */
typedef void (*rest_cb)(void *ctx, const struct rest_result *res);

struct rest *discord_rest_new(uv_loop_t *loop, const struct rest_opts *o);

/*
 * Queues method path (relative to base_url) with an optional JSON body
 * (copied). cb may be NULL.
 */
void discord_rest_call(struct rest *r, const char *method, const char *path, const char *body,
                       unsigned flags, rest_cb cb, void *ctx);

/*
 * As discord_rest_call(), but a request that has not begun to go out by
 * deadline_ns (on uv_hrtime()'s clock) is not sent, nor sent again after a
 * 429 or a 5xx: it completes with status 0 and expired set.
 */
void discord_rest_call_until(struct rest *r, const char *method, const char *path, const char *body,
                             unsigned flags, uint64_t deadline_ns, rest_cb cb, void *ctx);

/* Whether path (relative to base_url) is authorised by an interaction's
 * token rather than the bot token. */
bool discord_rest_token_route(const char *path);

/*
 * How long a request with a deadline made at now_ns would wait before it
 * goes out: how long the last such request waited (from discord_rest_call_until
 * to going out), if that was within the last second; else 0. That wait is
 * spent in the queues here and in libcurl, and in the loop while it works
 * through what it has read before it sends again. Requests go out in
 * order, so under overload a new one waits about as long: an interaction
 * whose answer would miss its deadline there is not worth working out.
 * The estimate comes from requests that already went: a backlog shows
 * once its first request leaves, and a backlog gone is forgotten once
 * newer requests go out promptly, or a second after the last one went.
 */
uint64_t discord_rest_backlog_ns(const struct rest *r, uint64_t now_ns);

/* Requests queued or in flight. */
size_t discord_rest_pending(const struct rest *r);
/* Of those, the interaction requests waiting in line for one of the
 * callbacks' own connections (discord_rest_h1). */
int discord_rest_waiting(const struct rest *r);
/* The base URL as a log line may show it (no user or password), e.g.
 * "https://discord.com/api/v10"; valid until discord_rest_close. */
const char *discord_rest_base(const struct rest *r);
/* The JSON error code of an answer's body ({"code": 50007, ...}), or 0
 * when it has none (no body, not JSON, no numeric code). */
int discord_rest_error_code(const struct rest_result *res);
/* Whether a 401 stopped REST. */
bool discord_rest_stopped(const struct rest *r);

/*
 * Aborts everything (callbacks run with status 0) and closes the loop
 * handles; r is freed once libuv has closed them, after which done runs.
 */
void discord_rest_close(struct rest *r, void (*done)(void *ctx), void *ctx);

#endif
