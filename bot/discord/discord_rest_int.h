/*
 * discord_rest_int: the inside of struct rest, shared by discord_rest.c
 * (the queue, the answers, the API), discord_rest_curl.c (the requests
 * handed to libcurl), discord_rest_io.c (libcurl's sockets and timer on
 * the libuv loop) and discord_rest_h1.c (the callbacks' own connections).
 * Nothing else includes it.
 */
#ifndef DELVER_DISCORD_REST_INT_H
#define DELVER_DISCORD_REST_INT_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <uv.h>

#include "bot/discord/discord_ratelimit.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_rest_answer.h"
#include "bot/soon.h"
#include "rules/base/buf.h"

#define POOL_MAX 64 /* easy handles kept for reuse: one per connection */

struct rng;

struct req {
	struct rest *r;
	struct req *prev, *next;
	char method[8];
	/* The request target (the base's path, this request's path and query),
	 * or the whole URL when a proxy is told it (see discord_rest_wire_target). */
	char *target;
	char *body;
	size_t body_len;
	char route[DISCORD_RATELIMIT_ROUTE_MAX];
	unsigned flags;
	bool token_route, expired, shed;
	uint64_t deadline_ns; /* 0: none */
	rest_cb cb;
	void *ctx;
	int tries, limited;
	int64_t not_before;
	CURL *easy;    /* libcurl's, while it carries q; else NULL */
	bool went;     /* libcurl began to send this try (it had a connection) */
	bool h1_again; /* sent again on a fresh connection once already */
	/* Waiting for one of discord_rest_h1's connections: the next in line,
	 * and the uv_now() at which it goes through libcurl instead. */
	struct req *h1_next;
	uint64_t h1_until;
	struct buf resp;
	uint64_t queued_ns, sent_ns;
	struct discord_rest_answer hd; /* of the answer (discord_rest_answer_header) */
	const char *error;             /* rest_result's error (static) */
};

struct list {
	struct req *head, *tail;
};

struct curlio;

struct sock {
	uv_poll_t poll;
	curl_socket_t fd;
	struct curlio *io;
	struct sock *prev, *next;
	bool idle;  /* curl does not watch it: its connection waits in the cache */
	int events; /* the UV_ events it polls for; 0 when stopped */
};

/* A libcurl multi handle on the loop (discord_rest_io): the one that
 * carries requests, and the one that only connects (discord_rest_h1). */
struct curlio {
	struct rest *r;
	CURLM *multi;
	uv_timer_t timer;
	struct sock *socks;
	/* Whether a socket curl stops watching keeps its poll handle (a
	 * connection waiting in the cache); else the handle is closed at once,
	 * so that discord_rest_h1 may watch the socket itself. */
	bool keep_idle;
	void (*check)(struct rest *r); /* takes what curl finished */
};

struct h1;

struct rest {
	uv_loop_t *loop;
	struct curlio io, connect_io;
	struct h1 *h1; /* NULL: every request goes through libcurl */
	uv_timer_t pump_timer;
	struct soon ended; /* takes the transfers a kick (discord_rest_curl.c) ended */
	CURLU *base;       /* the base URL, parsed once */
	char *base_path;   /* its path, without a trailing '/' */
	char *base_shown;  /* the base URL as logs show it (discord_rest_base) */
	size_t base_len;
	char *origin; /* "scheme://host[:port]" when targets are whole URLs, else NULL */
	/* [0]: with the bot's Authorization, [1]: without it, for routes an
	 * interaction's token authorises (see discord_rest_wire_headers()) */
	struct curl_slist *hdr_body[2], *hdr_big[2], *hdr_plain[2];
	char *proxy, *noproxy; /* from the environment, read once (discord_rest_wire_proxy) */
	bool tls_verify;
	char *ca_file; /* NULL: the system's */
	struct discord_ratelimit *rl;
	struct rng *rng;
	struct list pending, active, failed;
	size_t npending, nactive;
	size_t nh1; /* of nactive, those on discord_rest_h1's road (on a connection or waiting) */
	unsigned timeout_ms;
	struct sock *socks;
	CURL *pool[POOL_MAX];
	size_t npool;
	bool stopped, closing;
	int shedding;                        /* 0, or the threshold past which requests are shed */
	uint64_t last_sent_ns, last_wait_ns; /* see discord_rest_backlog_ns */
	char fatal_msg[DISCORD_RATELIMIT_ROUTE_MAX + 128]; /* set when the fatal hook is due */
	void (*fatal)(void *, const char *);
	void (*date)(void *, int64_t, uint64_t, uint64_t);
	char date_seen[64]; /* the last Date header read, and its time: */
	time_t date_at;     /* answers in the same second carry the same text */
	void *fatal_ctx;
	int open_handles;
	void (*done)(void *);
	void *done_ctx;
};

/* q's try is over (discord_rest.c's finish): status (0: no answer, rc
 * says why), its answer's headers in q->hd and its body in q->resp,
 * long_bucket the X-RateLimit-Bucket too long for q->hd (or NULL). q
 * leaves the active list: completed, or queued again for a retry. */
void discord_rest__finish(struct rest *r, struct req *q, long status, CURLcode rc,
                          const char *long_bucket);
/* discord_rest__finish, then what may go next is sent. */
void discord_rest__done(struct rest *r, struct req *q, long status, CURLcode rc,
                        const char *long_bucket);
/* Sends what of the queue may go now (deadlines, shedding, buckets). */
void discord_rest__pump(struct rest *r);
/* q is about to go out: its send time noted; false when it is past its
 * deadline (then expired). */
bool discord_rest__sending(struct rest *r, struct req *q);
/* One of r's handles has closed: the last one frees r and runs the done
 * hook discord_rest_close was given. */
void discord_rest__handle_closed(struct rest *r);

#endif
