/* bot/discord/discord_rest_h1: interaction callbacks on connections of
 * their own. Against a scripted server on a thread (plain HTTP; TLS is
 * tests/integration/test_discord_rest_tls.sh): the request's bytes are
 * libcurl's, and each way an answer can go wrong ends as libcurl's would. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <uv.h>

#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_rest_h1.h"
#include "tests/unit/helpers/stderrcap.h"

#define STEPS 8
#define HOLD  ""     /* an answer that never comes */
#define LATE  "\x01" /* closes the connection 400 ms after the request, unanswered */

#define CONNS_MAX 8

/*
 * The server: request i (counted over every connection, in the order
 * they come) is answered answers[i]; NULL closes the connection once the
 * request is read, unanswered; close_after[i] closes it after the
 * answer. Each connection is served on a thread of its own. It keeps the
 * bytes of every request, and counts connections. The first silent
 * connections are sent nothing (a TLS handshake that stalls) until the
 * client goes; with drop_others, every later one is closed at once.
 */
struct script {
	int listener, port;
	const char *answers[STEPS];
	bool close_after[STEPS];
	int silent;
	bool drop_others;
	int n, accepts;
	char req[STEPS][1024];
	pthread_mutex_t lock;
	pthread_t th, conn_th[CONNS_MAX];
};

struct served {
	struct script *s;
	int fd, nth; /* nth: 0 for the first connection accepted */
};

/* One request (head and Content-Length body) into out; false at the end. */
static bool
read_request(int fd, char *out, size_t len)
{
	size_t n = 0, body = 0;
	char c;
	const char *cl;

	while (n < 4 || memcmp(out + n - 4, "\r\n\r\n", 4) != 0) {
		if (n + 1 >= len || read(fd, &c, 1) != 1)
			return false;
		out[n++] = c;
		out[n] = '\0';
	}
	cl = strstr(out, "Content-Length: ");
	if (cl != NULL)
		body = (size_t)atoi(cl + 16);
	while (body-- > 0 && n + 1 < len && read(fd, &c, 1) == 1)
		out[n++] = c;
	out[n] = '\0';
	return true;
}

static void
send_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void *
serve_conn(void *arg)
{
	struct served *sv = arg;
	struct script *s = sv->s;
	int fd = sv->fd;
	char buf[4096];

	if (sv->nth < s->silent) {
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		free(sv);
		return NULL;
	}
	if (s->drop_others) {
		close(fd);
		free(sv);
		return NULL;
	}
	free(sv);
	while (read_request(fd, buf, sizeof(buf))) {
		int i;

		pthread_mutex_lock(&s->lock);
		i = s->n < STEPS ? s->n++ : -1;
		if (i >= 0)
			memcpy(s->req[i], buf, sizeof(s->req[i]) - 1);
		pthread_mutex_unlock(&s->lock);
		if (i < 0 || s->answers[i] == NULL)
			break;
		if (s->answers[i][0] == '\x01') { /* LATE */
			usleep(400000);
			break;
		}
		if (s->answers[i][0] == '\0') { /* HOLD: until the client goes */
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			break;
		}
		send_all(fd, s->answers[i], strlen(s->answers[i]));
		if (s->close_after[i])
			break;
	}
	close(fd);
	return NULL;
}

static void *
serve(void *arg)
{
	struct script *s = arg;

	while (s->accepts < CONNS_MAX) {
		struct pollfd p = {.fd = s->listener, .events = POLLIN};
		struct served *sv;
		int fd, i;

		if (poll(&p, 1, 5000) != 1)
			return NULL;
		fd = accept(s->listener, NULL, NULL);
		if (fd < 0)
			return NULL;
		sv = malloc(sizeof(*sv));
		sv->s = s;
		sv->fd = fd;
		pthread_mutex_lock(&s->lock);
		i = s->accepts++; /* counted before any answer on it goes */
		pthread_mutex_unlock(&s->lock);
		sv->nth = i;
		assert_int_equal(pthread_create(&s->conn_th[i], NULL, serve_conn, sv), 0);
	}
	return NULL;
}

static void
script_start(struct script *s)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof(a);

	s->listener = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->listener >= 0);
	assert_int_equal(bind(s->listener, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(s->listener, 8), 0);
	assert_int_equal(getsockname(s->listener, (struct sockaddr *)&a, &alen), 0);
	s->port = ntohs(a.sin_port);
	pthread_mutex_init(&s->lock, NULL);
	assert_int_equal(pthread_create(&s->th, NULL, serve, s), 0);
}

static void
script_stop(struct script *s)
{
	shutdown(s->listener, SHUT_RDWR);
	pthread_join(s->th, NULL);
	for (int i = 0; i < s->accepts; i++)
		pthread_join(s->conn_th[i], NULL);
	close(s->listener);
	pthread_mutex_destroy(&s->lock);
}

struct got {
	int done, seq; /* seq: 1 for the first request answered, ... */
	long status;
	char body[64];
	const char *error;
	bool expired;
	uint64_t at;
};

static void
got_it(void *ctx, const struct rest_result *res)
{
	struct got *g = ctx;

	static int answered;

	g->done++;
	g->seq = ++answered;
	g->status = res->status;
	snprintf(g->body, sizeof(g->body), "%.*s", (int)res->len, res->body);
	g->error = res->error;
	g->expired = res->expired;
	g->at = uv_hrtime();
}

static void
closed(void *ctx)
{
	*(bool *)ctx = true;
}

struct run {
	uv_loop_t loop;
	struct rest *r;
};

static void
run_open_on(struct run *u, struct script *s, const char *scheme, int h1_conns, unsigned timeout_ms)
{
	char base[64];
	struct rest_opts o = {.token = "t", .h1_conns = h1_conns, .timeout_ms = timeout_ms};

	script_start(s);
	uv_loop_init(&u->loop);
	snprintf(base, sizeof(base), "%s://127.0.0.1:%d/api/v10", scheme, s->port);
	o.base_url = base;
	u->r = discord_rest_new(&u->loop, &o);
}

static void
run_open(struct run *u, struct script *s, int h1_conns, unsigned timeout_ms)
{
	run_open_on(u, s, "http", h1_conns, timeout_ms);
}

/* One callback, waited for (at most 10 s). */
static void
callback(struct run *u, unsigned flags, struct got *g)
{
	uint64_t t0 = uv_hrtime();

	memset(g, 0, sizeof(*g));
	discord_rest_call(u->r, "POST", "/interactions/1/tok/callback", "{\"type\":4}",
	                  REST_CALLBACK | REST_INTERACTION | REST_ESSENTIAL | flags, got_it, g);
	while (g->done == 0) {
		uv_run(&u->loop, UV_RUN_ONCE);
		assert_true(uv_hrtime() - t0 < 10000000000ull);
	}
}

static void
run_close(struct run *u, struct script *s)
{
	bool is_closed = false;

	discord_rest_close(u->r, closed, &is_closed);
	uv_run(&u->loop, UV_RUN_DEFAULT);
	assert_true(is_closed);
	assert_int_equal(uv_loop_close(&u->loop), 0);
	script_stop(s);
}

/* A callback with body {"n":n}, not waited for. */
static void
callback_n(struct run *u, int n, unsigned flags, struct got *g)
{
	char body[32];

	memset(g, 0, sizeof(*g));
	snprintf(body, sizeof(body), "{\"n\":%d}", n);
	discord_rest_call(u->r, "POST", "/interactions/1/tok/callback", body,
	                  REST_CALLBACK | REST_INTERACTION | REST_ESSENTIAL | flags, got_it, g);
}

/* Runs the loop until g is answered (at most 10 s). */
static void
wait_for(struct run *u, const struct got *g)
{
	uint64_t t0 = uv_hrtime();

	while (g->done == 0) {
		uv_run(&u->loop, UV_RUN_ONCE);
		assert_true(uv_hrtime() - t0 < 10000000000ull);
	}
}

/* One request, waited for (at most 10 s). */
static void
request(struct run *u, const char *path, unsigned flags, struct got *g)
{
	memset(g, 0, sizeof(*g));
	discord_rest_call(u->r, "POST", path, "{\"type\":4}", flags, got_it, g);
	wait_for(u, g);
}

static const char ok204[] = "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n";

/* The bytes of a callback, a follow-up and an edit are those libcurl
 * sends for them. */
static void
request_bytes_are_libcurls(void **unused)
{
	struct script a = {.answers = {ok204, ok204, ok204}},
	              b = {.answers = {ok204, ok204, ok204}};
	struct script *both[] = {&a, &b};
	struct run u;
	struct got g;
	char *at;

	for (int road = 0; road < 2; road++) {
		run_open(&u, both[road], road == 0 ? -1 : 0, 0);
		callback(&u, 0, &g);
		assert_int_equal(g.status, 204);
		request(&u, "/webhooks/7/tok", REST_INTERACTION, &g);
		assert_int_equal(g.status, 204);
		memset(&g, 0, sizeof(g));
		discord_rest_call(u.r, "PATCH", "/webhooks/7/tok/messages/@original",
		                  "{\"content\":\"x\"}", REST_INTERACTION, got_it, &g);
		wait_for(&u, &g);
		assert_int_equal(g.status, 204);
		run_close(&u, both[road]);
	}
	assert_int_equal(b.accepts, 1); /* (all three on the road) */
	for (int i = 0; i < 3; i++) {
		/* The ports differ: the Host lines are compared apart. */
		at = strstr(a.req[i], "Host: 127.0.0.1:");
		assert_non_null(at);
		memset(at + 16, 'P', 5);
		at = strstr(b.req[i], "Host: 127.0.0.1:");
		assert_non_null(at);
		memset(at + 16, 'P', 5);
		assert_string_equal(b.req[i], a.req[i]);
	}
	assert_non_null(strstr(b.req[0], "POST /api/v10/interactions/1/tok/callback HTTP/1.1\r\n"));
	assert_non_null(
	    strstr(b.req[2], "PATCH /api/v10/webhooks/7/tok/messages/@original HTTP/1.1\r\n"));
}

/*
 * A kept connection the server closed after reading the next request,
 * unanswered: that is no failed try (no log line, no wait), the request
 * goes at once on a fresh connection.
 */
static void
a_dropped_kept_connection_is_tried_again_at_once(void **unused)
{
	struct script s = {.answers = {ok204, NULL, ok204}};
	struct run u;
	struct got g;
	struct stderrcap cap;
	uint64_t t0;

	run_open(&u, &s, 0, 0);
	callback(&u, 0, &g);
	assert_int_equal(g.status, 204);
	assert_int_equal(stderrcap_begin(&cap), 0);
	t0 = uv_hrtime();
	callback(&u, 0, &g);
	assert_string_equal(stderrcap_end(&cap), "");
	assert_int_equal(g.status, 204);
	assert_true(g.at - t0 < 400000000u); /* a retry would wait 500 ms */
	assert_int_equal(s.accepts, 2);
	run_close(&u, &s);
}

/* One callback with REST_ONCE (the error comes back at once, no retry)
 * answered answer, on either road: status 0, the body read so far
 * (its first 63 bytes), and the error, libcurl's words for both roads
 * but where h1_error says otherwise. */
static void
once_on(int h1_conns, const char *answer, bool close_after, const char *body, const char *error)
{
	struct script s = {.answers = {answer}, .close_after = {close_after}};
	struct run u;
	struct got g;

	run_open(&u, &s, h1_conns, 200);
	callback(&u, REST_ONCE, &g);
	assert_int_equal(g.status, 0);
	assert_string_equal(g.body, body);
	assert_string_equal(g.error, error);
	run_close(&u, &s);
}

static void
once(const char *answer, bool close_after, const char *body, const char *error,
     const char *h1_error)
{
	once_on(-1, answer, close_after, body, error);
	once_on(0, answer, close_after, body, h1_error != NULL ? h1_error : error);
}

/* Answers cut, empty, not HTTP, too big, late: the try fails as libcurl's
 * would. */
static void
broken_answers(void **unused)
{
	static const char head[] = "HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\n";
	size_t n = strlen(head);
	char *big = malloc(n + (1u << 20) + 2), xs[64];

	once("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true, "abc",
	     "Transferred a partial file", NULL);
	once(NULL, false, "", "Server returned nothing (no headers, no data)", NULL);
	/* libcurl takes it for HTTP/0.9, which it refuses: said better here. */
	once("SSH-2.0-OpenSSH_9.2\r\n", false, "", "Unsupported protocol", "Weird server reply");
	memcpy(big, head, n);
	memset(big + n, 'x', (1u << 20) + 1);
	big[n + (1u << 20) + 1] = '\0';
	memset(xs, 'x', 63);
	xs[63] = '\0';
	once(big, false, xs, "Failed writing received data to disk/application", NULL);
	free(big);
	once(HOLD, false, "", "Timeout was reached", NULL);
}

/* Chunked, after a 100 Continue, and with Connection: close (the next
 * request then goes on a new connection, untroubled). */
static void
unusual_answers(void **unused)
{
	struct script s = {
	    .answers =
	        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	         "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
	         "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
	         "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye",
	         "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nagain"},
	    .close_after = {false, false, true}};
	struct run u;
	struct got g;
	struct stderrcap cap;

	run_open(&u, &s, 0, 0);
	assert_int_equal(stderrcap_begin(&cap), 0);
	callback(&u, 0, &g);
	assert_int_equal(g.status, 200);
	assert_string_equal(g.body, "hello world");
	callback(&u, 0, &g);
	assert_int_equal(g.status, 200);
	assert_string_equal(g.body, "ok");
	callback(&u, 0, &g);
	assert_int_equal(g.status, 200);
	assert_string_equal(g.body, "bye");
	callback(&u, 0, &g);
	assert_int_equal(g.status, 200);
	assert_string_equal(g.body, "again");
	assert_string_equal(stderrcap_end(&cap), "");
	assert_int_equal(s.accepts, 2);
	run_close(&u, &s);
}

/* A 429 waits its Retry-After and goes again; the log line hides the
 * interaction's token. */
static void
a_429_waits(void **unused)
{
	struct script s = {.answers = {"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0.3\r\n"
	                               "X-RateLimit-Scope: user\r\nContent-Length: 0\r\n\r\n",
	                               ok204}};
	struct run u;
	struct got g;
	struct stderrcap cap;
	uint64_t t0 = uv_hrtime();
	const char *log;

	run_open(&u, &s, 0, 0);
	assert_int_equal(stderrcap_begin(&cap), 0);
	callback(&u, 0, &g);
	log = stderrcap_end(&cap);
	assert_int_equal(g.status, 204);
	assert_true(g.at - t0 >= 300000000u);
	assert_non_null(strstr(log,
	                       "POST /interactions/1/[token]/callback is rate limited (bucket); "
	                       "waiting 0.300 s"));
	assert_null(strstr(log, "tok/"));
	assert_int_equal(s.n, 2);
	run_close(&u, &s);
}

/* Whether the request s read i-th carried body. */
static bool
request_has(const struct script *s, int i, const char *body)
{
	size_t n = strlen(s->req[i]), b = strlen(body);

	return n >= b && strcmp(s->req[i] + n - b, body) == 0;
}

/*
 * Callbacks that find the one connection still connecting wait for it,
 * in order, rather than going through libcurl (which would make
 * connections of its own).
 */
static void
callbacks_wait_for_the_connection_in_order(void **unused)
{
	struct script s = {.answers = {ok204, ok204, ok204}};
	struct run u;
	struct got g[3];

	discord_opstats_reset();
	run_open(&u, &s, 1, 2000);
	for (int i = 0; i < 3; i++)
		callback_n(&u, i + 1, REST_ONCE, &g[i]);
	for (int i = 0; i < 3; i++)
		wait_for(&u, &g[i]);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(g[i].status, 204);
		assert_int_equal(g[i].seq, g[0].seq + i);
	}
	assert_int_equal(s.accepts, 1);
	assert_int_equal(s.n, 3);
	assert_true(request_has(&s, 0, "{\"n\":1}"));
	assert_true(request_has(&s, 1, "{\"n\":2}"));
	assert_true(request_has(&s, 2, "{\"n\":3}"));
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_OWN), 3);
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_CURL), 0);
	run_close(&u, &s);
}

/*
 * A follow-up that finds the one connection busy does not wait behind
 * the callbacks: it never joins their line, and goes through libcurl at
 * once, answered while the callback on the connection is still held.
 */
static void
a_follow_up_does_not_wait_for_the_connection(void **unused)
{
	struct script s = {.answers = {HOLD, ok204}};
	struct run u;
	struct got g[2];

	discord_opstats_reset();
	run_open(&u, &s, 1, 5000);
	callback_n(&u, 1, REST_ONCE, &g[0]);
	while (s.n == 0) /* the callback is on the connection */
		uv_run(&u.loop, UV_RUN_NOWAIT);
	memset(&g[1], 0, sizeof(g[1]));
	discord_rest_call(u.r, "POST", "/webhooks/7/tok", "{\"n\":2}", REST_INTERACTION | REST_ONCE,
	                  got_it, &g[1]);
	assert_int_equal(discord_rest_waiting(u.r), 0);
	wait_for(&u, &g[1]);
	assert_int_equal(g[1].status, 204);
	assert_int_equal(g[0].done, 0);
	assert_int_equal(s.accepts, 2);
	run_close(&u, &s);
}

/*
 * A callback waits DISCORD_REST_H1_WAIT_MS for the connection at most:
 * the one on it held unanswered, it goes through libcurl and is answered
 * first.
 */
static void
a_waiting_callback_goes_through_libcurl_in_time(void **unused)
{
	struct script s = {.answers = {HOLD, ok204}};
	struct run u;
	struct got g[2];

	discord_opstats_reset();
	run_open(&u, &s, 1, 5000);
	callback_n(&u, 1, REST_ONCE, &g[0]);
	callback_n(&u, 2, REST_ONCE, &g[1]);
	assert_int_equal(discord_rest_waiting(u.r), 1);
	wait_for(&u, &g[1]);
	assert_int_equal(g[1].status, 204);
	assert_int_equal(discord_rest_waiting(u.r), 0);
	assert_int_equal(g[0].done, 0);
	assert_int_equal(s.accepts, 2);
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_OWN), 0);
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_CURL), 1);
	run_close(&u, &s);
	assert_int_equal(g[0].done, 1);
}

/*
 * What goes on the road is what an interaction's token authorises, POST
 * or PATCH with a body: a callback with a query (?with_response=true), a
 * follow-up and an edit of the first answer, on the one connection; a
 * route the bot's token authorises goes through libcurl (a connection of
 * its own). Only what the caller says is a callback counts as one.
 */
static void
the_token_routes_go_on_the_road(void **unused)
{
	struct script s = {.answers = {ok204, ok204, ok204, ok204, ok204}};
	const unsigned cb = REST_CALLBACK | REST_INTERACTION | REST_ESSENTIAL | REST_ONCE;
	struct run u;
	struct got g;

	discord_opstats_reset();
	run_open(&u, &s, 0, 2000);
	request(&u, "/interactions/1/tok/callback", cb, &g);
	assert_int_equal(g.status, 204);
	request(&u, "/interactions/1/tok/callback?with_response=true", cb, &g);
	assert_int_equal(g.status, 204);
	request(&u, "/webhooks/7/tok", REST_INTERACTION | REST_ONCE, &g);
	assert_int_equal(g.status, 204);
	memset(&g, 0, sizeof(g));
	discord_rest_call(u.r, "PATCH", "/webhooks/7/tok/messages/@original", "{\"content\":\"x\"}",
	                  REST_INTERACTION | REST_ONCE, got_it, &g);
	wait_for(&u, &g);
	assert_int_equal(g.status, 204);
	assert_int_equal(s.accepts, 1);
	request(&u, "/channels/5/messages", REST_ONCE, &g);
	assert_int_equal(g.status, 204);
	assert_int_equal(s.accepts, 2);
	assert_non_null(strstr(s.req[1], "POST /api/v10/interactions/1/tok/callback"
	                                 "?with_response=true HTTP/1.1\r\n"));
	assert_non_null(strstr(s.req[2], "POST /api/v10/webhooks/7/tok HTTP/1.1\r\n"));
	assert_non_null(
	    strstr(s.req[3], "PATCH /api/v10/webhooks/7/tok/messages/@original HTTP/1.1\r\n"));
	assert_non_null(strstr(s.req[4], "Authorization: Bot t\r\n"));
	/* (the follow-up, the edit and the bot's message were no callbacks:
	 * not counted) */
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_OWN), 2);
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_CURL), 0);
	run_close(&u, &s);
}

/*
 * A callback that waited its time for the one connection (held by
 * another) goes through libcurl; met a 429 there, it goes again, on the
 * road this time (the connection freed as the other timed out), and is on
 * it when REST closes: it is completed once, and the libcurl handle of its
 * first try, kept for the next request, freed once (it was freed twice).
 */
static void
a_callback_tried_on_both_roads_closes_once(void **unused)
{
	struct script s = {.answers = {HOLD,
	                               "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0.05\r\n"
	                               "X-RateLimit-Scope: user\r\nContent-Length: 0\r\n\r\n",
	                               HOLD}};
	struct run u;
	struct got g[2];
	struct stderrcap cap;
	uint64_t t0 = uv_hrtime();
	int n = 0;

	discord_opstats_reset();
	run_open(&u, &s, 1, 400);
	assert_int_equal(stderrcap_begin(&cap), 0);
	callback_n(&u, 1, REST_ONCE, &g[0]);
	callback_n(&u, 2, 0, &g[1]);
	while (n < 3) {
		uv_run(&u.loop, UV_RUN_NOWAIT);
		pthread_mutex_lock(&s.lock);
		n = s.n;
		pthread_mutex_unlock(&s.lock);
		assert_true(uv_hrtime() - t0 < 10000000000ull);
	}
	stderrcap_end(&cap);
	assert_true(request_has(&s, 1, "{\"n\":2}"));
	assert_true(request_has(&s, 2, "{\"n\":2}"));
	assert_int_equal(g[1].done, 0);
	assert_int_equal(discord_opstats_get(OPSTATS_CALLBACKS_CURL), 1);
	run_close(&u, &s);
	assert_int_equal(g[1].done, 1);
	assert_int_equal(g[1].status, 0);
}

/* A callback with body {"n":n} and a deadline ms from now, not waited
 * for; its deadline (uv_hrtime()) returned. */
static uint64_t
callback_until(struct run *u, int n, unsigned flags, uint64_t ms, struct got *g)
{
	char body[32];
	uint64_t deadline = uv_hrtime() + ms * 1000000u;

	memset(g, 0, sizeof(*g));
	snprintf(body, sizeof(body), "{\"n\":%d}", n);
	discord_rest_call_until(u->r, "POST", "/interactions/1/tok/callback", body,
	                        REST_CALLBACK | REST_INTERACTION | REST_ESSENTIAL | flags, deadline,
	                        got_it, g);
	return deadline;
}

/*
 * A callback on a connection whose TLS handshake stalls leaves it for
 * libcurl DISCORD_REST_H1_SLOW_MS later, or DISCORD_REST_H1_WAIT_MS before
 * its deadline when that is sooner: well before its deadline, not at the
 * connection's 5 s timeout. (libcurl's connection is refused here: its
 * error comes back, REST_ONCE.)
 */
static void
slow_connect_leaves(uint64_t deadline_ms)
{
	struct script s = {.silent = 1, .drop_others = true};
	struct run u;
	struct got g;
	uint64_t t0, deadline;

	run_open_on(&u, &s, "https", 1, 0);
	t0 = uv_hrtime();
	deadline = callback_until(&u, 1, REST_ONCE, deadline_ms, &g);
	wait_for(&u, &g);
	assert_int_equal(g.status, 0);
	assert_false(g.expired);
	assert_non_null(g.error);
	assert_true(g.at < deadline);
	assert_true(g.at - t0 >= (deadline_ms < DISCORD_REST_H1_SLOW_MS + DISCORD_REST_H1_WAIT_MS
	                              ? deadline_ms - DISCORD_REST_H1_WAIT_MS
	                              : DISCORD_REST_H1_SLOW_MS) *
	                             1000000u);
	assert_int_equal(s.accepts, 2);
	run_close(&u, &s);
}

static void
a_callback_leaves_a_stalled_handshake(void **unused)
{
	slow_connect_leaves(2500);
	slow_connect_leaves(900);
}

/*
 * A kept connection dropped unanswered after its deadline passed: the
 * callback is not sent again on the other idle connection, late; it
 * expires, unsent.
 */
static void
a_callback_is_never_sent_again_late(void **unused)
{
	struct script s = {.answers = {ok204, ok204, LATE, ok204}};
	struct run u;
	struct got g[2];

	run_open(&u, &s, 2, 0);
	callback_n(&u, 1, 0, &g[0]);
	callback_n(&u, 2, 0, &g[1]);
	wait_for(&u, &g[0]);
	wait_for(&u, &g[1]);
	assert_int_equal(s.accepts, 2);
	callback_until(&u, 3, 0, 200, &g[0]);
	wait_for(&u, &g[0]);
	assert_int_equal(g[0].status, 0);
	assert_true(g[0].expired);
	assert_int_equal(s.n, 3);
	run_close(&u, &s);
}

/*
 * Through libcurl, a connection that stalls is given up at the callback's
 * deadline, not at the 5 s connect timeout: the callback expires, unsent,
 * with no retry logged.
 */
static void
libcurls_connect_ends_at_the_deadline(void **unused)
{
	struct script s = {.silent = 1};
	struct run u;
	struct got g;
	struct stderrcap cap;
	uint64_t deadline;

	run_open_on(&u, &s, "https", -1, 0);
	assert_int_equal(stderrcap_begin(&cap), 0);
	deadline = callback_until(&u, 1, 0, 600, &g);
	wait_for(&u, &g);
	assert_string_equal(stderrcap_end(&cap), "");
	assert_int_equal(g.status, 0);
	assert_true(g.expired);
	assert_true(g.at - deadline < 1000000000u);
	assert_int_equal(s.accepts, 1);
	run_close(&u, &s);
}

/*
 * The one connection's handshake stalls until its connect timeout (the
 * transfer's limit, 100 ms here): that fails its own callback over to
 * libcurl, but the callback waiting behind it tries a connection of the
 * road again rather than going to libcurl with it. (Every connection but
 * the first is refused here: that one too then goes to libcurl.)
 */
static void
a_stalled_connection_fails_over_its_own_callback_alone(void **unused)
{
	struct script s = {.silent = 1, .drop_others = true};
	struct run u;
	struct got g[2];

	run_open_on(&u, &s, "https", 1, 100);
	callback_n(&u, 1, REST_ONCE, &g[0]);
	callback_n(&u, 2, REST_ONCE, &g[1]);
	wait_for(&u, &g[0]);
	wait_for(&u, &g[1]);
	assert_int_equal(g[0].status, 0);
	assert_int_equal(g[1].status, 0);
	/* the stalled one, libcurl's for the first, the road's second for the
	 * other, then libcurl's for it */
	assert_int_equal(s.accepts, 4);
	run_close(&u, &s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(request_bytes_are_libcurls),
	    cmocka_unit_test(a_dropped_kept_connection_is_tried_again_at_once),
	    cmocka_unit_test(broken_answers),
	    cmocka_unit_test(unusual_answers),
	    cmocka_unit_test(a_429_waits),
	    cmocka_unit_test(callbacks_wait_for_the_connection_in_order),
	    cmocka_unit_test(a_waiting_callback_goes_through_libcurl_in_time),
	    cmocka_unit_test(a_follow_up_does_not_wait_for_the_connection),
	    cmocka_unit_test(the_token_routes_go_on_the_road),
	    cmocka_unit_test(a_callback_tried_on_both_roads_closes_once),
	    cmocka_unit_test(a_callback_leaves_a_stalled_handshake),
	    cmocka_unit_test(a_callback_is_never_sent_again_late),
	    cmocka_unit_test(libcurls_connect_ends_at_the_deadline),
	    cmocka_unit_test(a_stalled_connection_fails_over_its_own_callback_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
