/*
 * discord_rest_curl: the requests discord_rest hands to libcurl; see
 * discord_rest_curl.h.
 *
 * What libcurl 7.88.1 (Debian 12) costs per request on a kept HTTP/1.1
 * connection that no option or use of its API removes (measured with
 * callgrind on a debug build of that release, issue 12):
 * - two poll() calls on the connection's socket: one to see that the idle
 *   connection is still alive before reusing it (url.c, extract_if_dead),
 *   one after sending, in the same curl_multi_socket_action call, to see
 *   whether the answer is there already (transfer.c, Curl_readwrite with no
 *   select bits known: the request was started from the timer, when no
 *   socket had an event);
 * - each byte of the request formatted one at a time through its printf,
 *   about 100 instructions a byte: the path URL-encoded again (even from a
 *   CURLU), the headers, the request line (about 45k of its 80k
 *   instructions a request, for a path with an interaction's token);
 * - a 16 KB receive buffer allocated and freed per request (a smaller one,
 *   CURLOPT_BUFFERSIZE 1024, saved glibc's malloc 5k instructions but
 *   nothing overall on the bench, and costs reads for Discord's answers of
 *   more than 1 KB);
 * - the status line read with sscanf, a log line formatted whether or not
 *   it is shown, the DNS cache pruned.
 */
#include "bot/discord/discord_rest_curl.h"

#include <curl/curl.h>
#include <string.h>

#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_rest_answer.h"
#include "bot/discord/discord_rest_int.h"
#include "bot/discord/discord_rest_io.h"
#include "bot/discord/discord_rest_wire.h"
#include "bot/log.h"
#include "bot/soon.h"
#include "rules/base/buf.h"

#define CONNECT_MS     5000
#define HOST_CONNS_MAX 64

static void
on_io_timer_closed(uv_handle_t *h)
{
	struct curlio *io = h->data;

	discord_rest__handle_closed(io->r);
}

static size_t
on_write(char *p, size_t size, size_t n, void *ctx)
{
	struct req *q = ctx;

	if (buf_add(&q->resp, p, size * n) < 0)
		return 0; /* too big: curl fails the transfer */
	return size * n;
}

/* libcurl has a connection and is about to send: the last moment to drop
 * a request past its deadline. */
static int
on_prereq(void *ctx, char *ip, char *local_ip, int port, int local_port)
{
	struct req *q = ctx;

	if (!discord_rest__sending(q->r, q))
		return CURL_PREREQFUNC_ABORT;
	q->went = true;
	return CURL_PREREQFUNC_OK;
}

/* The longest a connection for q (NULL: for none in particular) may take
 * to be made: CONNECT_MS, at most the transfer's limit, at most what is
 * left to q's deadline, rounded up: a connection given up for it ends
 * past it (and at least 1 ms: 0 would be libcurl's default). */
static long
connect_ms(const struct rest *r, const struct req *q)
{
	uint64_t ms = r->timeout_ms < CONNECT_MS ? r->timeout_ms : CONNECT_MS;

	if (q != NULL && q->deadline_ns != 0) {
		uint64_t now_ns = uv_hrtime();
		uint64_t left =
		    q->deadline_ns > now_ns ? (q->deadline_ns - now_ns + 999999u) / 1000000u : 0;

		if (left < ms)
			ms = left > 0 ? left : 1;
	}
	return (long)ms;
}

void
discord_rest_curl_conn_opts(struct rest *r, CURL *e, struct curlio *io)
{
	curl_easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, discord_rest_io_close_socket);
	curl_easy_setopt(e, CURLOPT_CLOSESOCKETDATA, io);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)connect_ms(r, NULL));
	curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, r->tls_verify ? 1L : 0L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, r->tls_verify ? 2L : 0L);
	if (r->ca_file != NULL)
		curl_easy_setopt(e, CURLOPT_CAINFO, r->ca_file);
	/* Set, even when empty, so that libcurl does not read the environment
	 * again for every request. */
	curl_easy_setopt(e, CURLOPT_PROXY, r->proxy);
	curl_easy_setopt(e, CURLOPT_NOPROXY, r->noproxy);
}

/* A handle with the options every request shares; pooled handles keep
 * them, so a request sets only its own. */
static CURL *
handle_new(struct rest *r)
{
	CURL *e = curl_easy_init();

	if (e == NULL) /* out of memory: the policy is to stop */
		log_fatalx("libcurl cannot make a handle");
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, discord_rest_answer_header);
	curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, on_prereq);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)r->timeout_ms);
	curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
	curl_easy_setopt(e, CURLOPT_UPLOAD_BUFFERSIZE, 16384L); /* bodies are small */
	discord_rest_curl_conn_opts(r, e, &r->io);
	return e;
}

void
discord_rest_curl_start(struct rest *r, struct req *q)
{
	CURL *e = r->npool > 0 ? r->pool[--r->npool] : handle_new(r);
	bool has_body = q->body != NULL;

	if (r->origin == NULL) {
		curl_easy_setopt(e, CURLOPT_CURLU, r->base);
		curl_easy_setopt(e, CURLOPT_REQUEST_TARGET, q->target);
	} else {
		curl_easy_setopt(e, CURLOPT_URL, q->target);
	}
	curl_easy_setopt(e, CURLOPT_PRIVATE, q);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, q);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, &q->hd);
	curl_easy_setopt(e, CURLOPT_PREREQDATA, q);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER,
	                 !has_body ? r->hdr_plain[q->token_route]
	                 : q->body_len > DISCORD_REST_WIRE_EXPECT_THRESHOLD
	                     ? r->hdr_big[q->token_route]
	                     : r->hdr_body[q->token_route]);
	if (strcmp(q->method, "GET") == 0) {
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	} else {
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, has_body ? q->body : "");
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, has_body ? (long)q->body_len : 0L);
	}
	/* NULL: the method the options above imply (GET or POST). */
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST,
	                 strcmp(q->method, "GET") != 0 && strcmp(q->method, "POST") != 0 ? q->method
	                                                                                 : NULL);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, connect_ms(r, q));
	q->easy = e;
	q->went = false;
	buf_reset(&q->resp);
	q->hd.seen = 0;
	curl_multi_add_handle(r->io.multi, e);
}

/* Left to the 0 ms timeout curl_multi_add_handle sets, the requests
 * would wait for the loop's next turn, and an answer given after the
 * turn's timers (from an idle callback, as persist gives them) would cost
 * the loop a turn of its own (an epoll_wait that returns at once). */
void
discord_rest_curl_kick(struct rest *r)
{
	int running = 0;
	long ms = -1;

	curl_multi_socket_action(r->io.multi, CURL_SOCKET_TIMEOUT, 0, &running);
	/* A run for the timeout that leaves libcurl no timeout at all (every
	 * transfer over) does not call its timer function (7.88 forgets the
	 * last one it gave then): the 0 ms timer curl_multi_add_handle asked
	 * for would still fire, for nothing, after a poll kept from waiting. */
	if (curl_multi_timeout(r->io.multi, &ms) == CURLM_OK && ms < 0)
		uv_timer_stop(&r->io.timer);
	if ((size_t)running < r->nactive - r->nh1)
		soon_start(&r->ended);
}

void
discord_rest_curl_spill(struct rest *r, struct req *q)
{
	discord_rest_curl_start(r, q);
	discord_rest_curl_kick(r);
}

void
discord_rest_curl_check(struct rest *r)
{
	CURLMsg *m;
	int left;

	while ((m = curl_multi_info_read(r->io.multi, &left)) != NULL) {
		CURL *e = m->easy_handle;
		CURLcode rc = m->data.result;
		struct req *q = NULL;
		struct curl_header *bh;
		long status = 0;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&q);
		if (rc == CURLE_OK)
			curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
		if (status != 0 && (q->flags & REST_CALLBACK))
			discord_opstats_add(OPSTATS_CALLBACKS_CURL);
		/* Not sent (no connection in time) and its deadline passed: it
		 * could only expire, not be tried again. */
		if (rc != CURLE_OK && !q->went && q->deadline_ns != 0 &&
		    uv_hrtime() >= q->deadline_ns)
			q->expired = true;
		/* (e keeps the answer's headers until its next transfer) */
		curl_multi_remove_handle(r->io.multi, e);
		q->easy = NULL; /* e goes to the pool: a next try may not be libcurl's */
		discord_rest__finish(r, q, status, rc,
		                     rc == CURLE_OK &&
		                             (q->hd.seen & DISCORD_REST_ANSWER_LONG_BUCKET) &&
		                             curl_easy_header(e, "X-RateLimit-Bucket", 0,
		                                              CURLH_HEADER, -1, &bh) == CURLHE_OK
		                         ? bh->value
		                         : NULL);
		q = NULL;
		if (r->npool < POOL_MAX) /* it keeps its shared options */
			r->pool[r->npool++] = e;
		else
			curl_easy_cleanup(e);
	}
	if (!r->closing)
		discord_rest__pump(r);
}

void
discord_rest_curl_io_init(struct rest *r, struct curlio *io, bool keep_idle,
                          void (*check)(struct rest *))
{
	io->r = r;
	io->keep_idle = keep_idle;
	io->check = check;
	io->multi = curl_multi_init();
	if (io->multi == NULL)
		log_fatalx("libcurl cannot make a multi handle");
	curl_multi_setopt(io->multi, CURLMOPT_SOCKETFUNCTION, discord_rest_io_socket);
	curl_multi_setopt(io->multi, CURLMOPT_SOCKETDATA, io);
	curl_multi_setopt(io->multi, CURLMOPT_TIMERFUNCTION, discord_rest_io_timer);
	curl_multi_setopt(io->multi, CURLMOPT_TIMERDATA, io);
	curl_multi_setopt(io->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)HOST_CONNS_MAX);
	/* The connect-only handles' connections stay in its cache, idle to
	 * libcurl: past the limit it would close the oldest. */
	curl_multi_setopt(io->multi, CURLMOPT_MAXCONNECTS, (long)HOST_CONNS_MAX);
	uv_timer_init(r->loop, &io->timer);
	io->timer.data = io;
	r->open_handles++;
}

void
discord_rest_curl_io_close(struct curlio *io)
{
	if (io->multi == NULL)
		return;
	curl_multi_cleanup(io->multi);
	io->multi = NULL;
	discord_rest_io_close_socks(io);
	uv_timer_stop(&io->timer);
	uv_close((uv_handle_t *)&io->timer, on_io_timer_closed);
}
