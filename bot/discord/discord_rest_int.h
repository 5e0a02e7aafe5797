/*
 * discord_rest_int: the inside of struct rest, shared by discord_rest.c
 * (the queue, the requests handed to libcurl, their answers, the API) and
 * discord_rest_io.c (libcurl's sockets and timer on the libuv loop).
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
	CURL *easy;
	struct buf resp;
	uint64_t queued_ns, sent_ns;
	struct discord_rest_answer hd; /* of the answer (discord_rest_answer_header) */
	const char *error;             /* rest_result's error (static) */
};

struct list {
	struct req *head, *tail;
};

struct sock {
	uv_poll_t poll;
	curl_socket_t fd;
	struct rest *r;
	struct sock *prev, *next;
	bool idle;  /* curl does not watch it: its connection waits in the cache */
	int events; /* the UV_ events it polls for; 0 when stopped */
};

struct rest {
	uv_loop_t *loop;
	CURLM *multi;
	uv_timer_t curl_timer, pump_timer;
	struct soon ended; /* takes the transfers a kick (discord_rest.c) ended */
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
	struct discord_ratelimit *rl;
	struct rng *rng;
	struct list pending, active, failed;
	size_t npending, nactive;
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

/* Takes the transfers libcurl has finished (their answers, retries and
 * callbacks), then sends what may go now. */
void discord_rest__check_done(struct rest *r);
/* One of r's handles has closed: the last one frees r and runs the done
 * hook discord_rest_close was given. */
void discord_rest__handle_closed(struct rest *r);

#endif
