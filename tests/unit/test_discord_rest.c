/* bot/discord/discord_rest: which routes an interaction's token authorises
 * (a 401 there fails one request; elsewhere it stops REST), and the backlog
 * estimate against a server on the test's loop. The requests themselves
 * are tested against the fake Discord (tests/integration/test_discord_rest.sh). */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

#include <uv.h>

#include "bot/discord/discord_rest.h"
#include "tests/unit/helpers/stderrcap.h"

extern char **environ;

/* getenv calls for a proxy variable (a name ending in _proxy, in either
 * case), counted by the getenv below. */
static int proxy_lookups;

/* Stands in for the C library's getenv (libcurl's calls come here too), to
 * count the lookups of proxy variables. */
char *
getenv(const char *name)
{
	size_t n = strlen(name);

	if (n > 6 && strcasecmp(name + n - 6, "_proxy") == 0)
		proxy_lookups++;
	for (char **e = environ; e != NULL && *e != NULL; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static void
token_routes(void **unused)
{
	assert_true(
	    discord_rest_token_route("/interactions/1200000000000000000/aW50ZXJhY3Rpb24/callback"));
	assert_true(discord_rest_token_route("/webhooks/1100000000000000001/aW50ZXJhY3Rpb24"));
	assert_true(discord_rest_token_route(
	    "/webhooks/1100000000000000001/aW50ZXJhY3Rpb24/messages/@original"));
}

static void
bot_token_routes(void **unused)
{
	assert_false(discord_rest_token_route("/gateway/bot"));
	assert_false(discord_rest_token_route("/applications/1100000000000000001/commands"));
	assert_false(discord_rest_token_route("/applications/1/guilds/2/commands"));
	assert_false(discord_rest_token_route("/channels/1300000000000000000/messages"));
	/* A webhook named by id alone is managed with the bot token. */
	assert_false(discord_rest_token_route("/webhooks/1100000000000000001"));
	assert_false(discord_rest_token_route("/webhooks/1100000000000000001/"));
	assert_false(discord_rest_token_route("/webhooks/1100000000000000001/?wait=true"));
	assert_false(discord_rest_token_route("/interactionsx/1/t/callback"));
}

static int
code_of(const char *body)
{
	struct rest_result res = {.status = 403, .body = body, .len = strlen(body)};

	return discord_rest_error_code(&res);
}

/* Error codes come from the body's "code" member, never from digits found
 * elsewhere in it (a message may quote any number). */
static void
error_codes(void **state)
{
	(void)state;
	assert_int_equal(code_of("{\"message\": \"Cannot send messages to this user\", "
	                         "\"code\": 50007}"),
	                 50007);
	assert_int_equal(code_of("{\"code\": 10003, \"message\": \"Unknown Channel\"}"), 10003);
	assert_int_equal(code_of("{\"message\": \"error 50007\", \"code\": 0}"), 0);
	assert_int_equal(code_of("{\"message\": \"40060\"}"), 0);
	assert_int_equal(code_of("{\"code\": \"50007\"}"), 0);
	assert_int_equal(code_of("<html>50007</html>"), 0);
	assert_int_equal(code_of(""), 0);
}

/*
 * An HTTP/1.1 server that holds every request it reads until release() and
 * then answers each with 204 (and every later one at once). One request at
 * a time per connection (libcurl does not pipeline), so the requests it
 * holds are its connections with a request read.
 */
struct srv {
	uv_loop_t *loop;
	uv_tcp_t listener;
	int port, requests, conns;
	bool released;
	const char *answer; /* what every request is answered, NULL: answer204 */
	char seen[8192];    /* the first bytes read, from every connection */
	size_t nseen;
	struct conn *all;
};

struct conn {
	uv_tcp_t h;
	struct srv *s;
	struct conn *next;
	char tail[4]; /* the last bytes read, to find "POST " across reads */
	int held;
	bool closing;
};

static const char answer204[] = "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n";

static void
on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	static char mem[65536];

	b->base = mem;
	b->len = sizeof(mem);
}

static void
on_written(uv_write_t *w, int status)
{
	free(w);
}

static void
answer_held(struct conn *c)
{
	for (; c->held > 0; c->held--) {
		uv_write_t *w = calloc(1, sizeof(*w));
		const char *a = c->s->answer != NULL ? c->s->answer : answer204;
		uv_buf_t b = uv_buf_init((char *)a, strlen(a));

		uv_write(w, (uv_stream_t *)&c->h, &b, 1, on_written);
	}
}

static void
on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
	struct conn *c = st->data;

	if (n < 0) {
		if (!c->closing) {
			c->closing = true;
			uv_close((uv_handle_t *)&c->h, NULL);
		}
		return;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (c->s->nseen < sizeof(c->s->seen) - 1)
			c->s->seen[c->s->nseen++] = b->base[i];
		memmove(c->tail, c->tail + 1, 3);
		c->tail[3] = b->base[i];
		/* Each request begins with its method; a body ("{}") never holds it. */
		if (memcmp(c->tail, "POST", 4) == 0) {
			c->held++;
			c->s->requests++;
		}
	}
	if (c->s->released)
		answer_held(c);
}

static void
on_conn(uv_stream_t *l, int status)
{
	struct srv *s = l->data;
	struct conn *c = calloc(1, sizeof(*c));

	assert_int_equal(status, 0);
	c->s = s;
	uv_tcp_init(s->loop, &c->h);
	c->h.data = c;
	assert_int_equal(uv_accept(l, (uv_stream_t *)&c->h), 0);
	c->next = s->all;
	s->all = c;
	s->conns++;
	uv_read_start((uv_stream_t *)&c->h, on_alloc, on_read);
}

static void
srv_start(struct srv *s, uv_loop_t *loop)
{
	struct sockaddr_in a;
	struct sockaddr_storage got;
	int len = sizeof(got);

	memset(s, 0, sizeof(*s));
	s->loop = loop;
	uv_ip4_addr("127.0.0.1", 0, &a);
	uv_tcp_init(loop, &s->listener);
	s->listener.data = s;
	assert_int_equal(uv_tcp_bind(&s->listener, (const struct sockaddr *)&a, 0), 0);
	assert_int_equal(uv_listen((uv_stream_t *)&s->listener, 128, on_conn), 0);
	uv_tcp_getsockname(&s->listener, (struct sockaddr *)&got, &len);
	s->port = ntohs(((struct sockaddr_in *)&got)->sin_port);
}

static void
srv_release(struct srv *s)
{
	s->released = true;
	for (struct conn *c = s->all; c != NULL; c = c->next)
		answer_held(c);
}

static void
srv_stop(struct srv *s)
{
	struct conn *c, *next;

	for (c = s->all; c != NULL; c = c->next)
		if (!c->closing) {
			c->closing = true;
			uv_close((uv_handle_t *)&c->h, NULL);
		}
	uv_close((uv_handle_t *)&s->listener, NULL);
	uv_run(s->loop, UV_RUN_DEFAULT);
	for (c = s->all; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

static void
count_done(void *ctx, const struct rest_result *res)
{
	int *done = ctx;

	assert_int_equal(res->status, 204);
	(*done)++;
}

static void
closed(void *ctx)
{
	*(bool *)ctx = true;
}

/* Runs the loop until *n reaches want (or a minute passes: a failure). */
static void
run_until_count(uv_loop_t *loop, const int *n, int want)
{
	uint64_t t0 = uv_hrtime();

	while (*n < want) {
		uv_run(loop, UV_RUN_ONCE);
		assert_true(uv_hrtime() - t0 < 60000000000ull);
	}
}

/*
 * The backlog is the wait of the last answer out: none before any went;
 * requests that find a connection free wait no longer than the test took
 * to run; the ones that waited inside libcurl for a connection (64 at
 * most, every one held by the server) until the server answered waited at
 * least from their call to the release, and the estimate says so; a
 * second after the last answer out it is forgotten.
 */
static void
backlog_is_the_last_wait(void **unused)
{
	uv_loop_t loop;
	struct srv s;
	struct rest *r;
	/* libcurl's queue: interaction callbacks on connections of their own
	 * (discord_rest_h1) would take 16 of them. */
	struct rest_opts o = {.token = "t", .h1_conns = -1};
	char base[64], path[64];
	int done = 0, total = 70;
	uint64_t t0, t_called, t_released, b;
	bool is_closed = false;

	uv_loop_init(&loop);
	srv_start(&s, &loop);
	snprintf(base, sizeof(base), "http://127.0.0.1:%d/api/v10", s.port);
	o.base_url = base;
	r = discord_rest_new(&loop, &o);
	assert_int_equal(discord_rest_backlog_ns(r, uv_hrtime()), 0);
	/* One answered at once first: libcurl learns the server speaks
	 * HTTP/1.1 (so it opens more connections rather than wait to see
	 * whether the first one multiplexes). */
	s.released = true;
	discord_rest_call_until(r, "POST", "/interactions/999/tok/callback", "{}", REST_INTERACTION,
	                        uv_hrtime() + 600000000000ull, count_done, &done);
	run_until_count(&loop, &done, 1);
	s.released = false;
	done = 0;
	s.requests = 0;
	t0 = uv_hrtime();
	for (int i = 0; i < total; i++) {
		snprintf(path, sizeof(path), "/interactions/%d/tok/callback", 1000 + i);
		discord_rest_call_until(r, "POST", path, "{}", REST_INTERACTION,
		                        t0 + 600000000000ull, count_done, &done);
	}
	t_called = uv_hrtime();
	run_until_count(&loop, &s.requests, 64); /* one per connection, all held */
	b = discord_rest_backlog_ns(r, uv_hrtime());
	assert_true(b <= uv_hrtime() - t0);
	assert_int_equal(s.conns, 64);
	assert_int_equal(done, 0);
	t_released = uv_hrtime();
	srv_release(&s);
	run_until_count(&loop, &done, total);
	assert_int_equal(s.requests, total);
	b = discord_rest_backlog_ns(r, uv_hrtime());
	assert_true(t_released > t_called);
	assert_true(b >= t_released - t_called);
	assert_true(b <= uv_hrtime() - t0);
	/* Forgotten a second after the last answer out. */
	assert_int_equal(discord_rest_backlog_ns(r, uv_hrtime() + 1000000001ull), 0);
	discord_rest_close(r, closed, &is_closed);
	srv_stop(&s);
	assert_true(is_closed);
	assert_int_equal(uv_loop_close(&loop), 0);
}

/* Runs n POSTs to base (all answered 204) and closes. */
static void
post_through(uv_loop_t *loop, const char *base, int n)
{
	struct rest_opts o = {.token = "t", .base_url = base};
	struct rest *r;
	int done = 0, before;
	bool is_closed = false;

	before = proxy_lookups;
	r = discord_rest_new(loop, &o);
	assert_true(proxy_lookups > before); /* the environment is read here */
	before = proxy_lookups;
	for (int i = 0; i < n; i++)
		discord_rest_call(r, "POST", "/interactions/1/tok/callback", "{}", REST_INTERACTION,
		                  count_done, &done);
	run_until_count(loop, &done, n);
	assert_int_equal(proxy_lookups, before); /* and only there */
	discord_rest_close(r, closed, &is_closed);
	uv_run(loop, UV_RUN_NOWAIT);
	assert_true(is_closed);
}

static int
count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/*
 * The proxy comes from the environment by libcurl's rules (http_proxy for
 * an http URL, not HTTP_PROXY; no_proxy exempts hosts), read once when REST
 * starts: libcurl, left to it, reads the environment for every request.
 */
static void
proxy_from_the_environment(void **unused)
{
	uv_loop_t loop;
	struct srv s;
	char url[96];

	uv_loop_init(&loop);
	srv_start(&s, &loop);
	s.released = true;
	/* The server is the proxy: a host that cannot be resolved is reached. */
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", s.port);
	setenv("http_proxy", url, 1);
	post_through(&loop, "http://delver-test.invalid/api/v10", 3);
	assert_int_equal(s.requests, 3);
	/* A plain-HTTP proxy is told the whole URL. */
	s.seen[s.nseen] = '\0';
	assert_int_equal(
	    count_of(
	        s.seen,
	        "POST http://delver-test.invalid/api/v10/interactions/1/tok/callback HTTP/1.1\r\n"),
	    3);
	/* no_proxy: the host is reached directly, not through the (closed)
	 * proxy port. */
	setenv("http_proxy", "http://127.0.0.1:1", 1);
	setenv("no_proxy", "127.0.0.1", 1);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/api/v10", s.port);
	post_through(&loop, url, 2);
	assert_int_equal(s.requests, 5);
	unsetenv("http_proxy");
	unsetenv("no_proxy");
	/* HTTP_PROXY is not read for an http URL. */
	setenv("HTTP_PROXY", "http://127.0.0.1:1", 1);
	post_through(&loop, url, 2);
	assert_int_equal(s.requests, 7);
	unsetenv("HTTP_PROXY");
	srv_stop(&s);
	assert_int_equal(uv_loop_close(&loop), 0);
}

/* Each request goes to its own path and query, although every request
 * shares the base URL's handle; no request asks for a "100 Continue"; only
 * routes that need the bot token are sent it. */
static void
paths_and_queries(void **unused)
{
	uv_loop_t loop;
	struct srv s;
	struct rest *r;
	struct rest_opts o = {.token = "t"};
	char base[64];
	int done = 0;
	bool is_closed = false;
	size_t big_len = 1024 * 1024 + 100;
	char *big;
	static const char *const paths[] = {"/webhooks/1/tok?wait=true",
	                                    "/interactions/2/tok/callback",
	                                    "/webhooks/3/tok?wait=true&thread_id=4",
	                                    "/webhooks/5/tok", "/interactions/6/t/callback"};

	uv_loop_init(&loop);
	srv_start(&s, &loop);
	s.released = true;
	snprintf(base, sizeof(base), "http://127.0.0.1:%d/api/v10", s.port);
	o.base_url = base;
	r = discord_rest_new(&loop, &o);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		/* (the callbacks on discord_rest_h1's road) */
		discord_rest_call(r, "POST", paths[i], "{}",
		                  REST_INTERACTION |
		                      (strstr(paths[i], "/callback") != NULL ? REST_CALLBACK : 0),
		                  count_done, &done);
		run_until_count(&loop, &done, (int)i + 1); /* one after the other */
	}
	s.seen[s.nseen] = '\0';
	assert_int_equal(count_of(s.seen, "POST /api/v10/webhooks/1/tok?wait=true HTTP/1.1\r\n"),
	                 1);
	assert_int_equal(count_of(s.seen, "POST /api/v10/interactions/2/tok/callback HTTP/1.1\r\n"),
	                 1);
	assert_int_equal(
	    count_of(s.seen, "POST /api/v10/webhooks/3/tok?wait=true&thread_id=4 HTTP/1.1\r\n"), 1);
	assert_int_equal(count_of(s.seen, "POST /api/v10/webhooks/5/tok HTTP/1.1\r\n"), 1);
	assert_int_equal(count_of(s.seen, "POST /api/v10/interactions/6/t/callback HTTP/1.1\r\n"),
	                 1);
	assert_int_equal(count_of(s.seen, "POST "), 5);
	/* Routes an interaction's token authorises go without the bot token;
	 * the others carry it. */
	assert_int_equal(count_of(s.seen, "Authorization"), 0);
	discord_rest_call(r, "POST", "/channels/8/messages", "{}", 0, count_done, &done);
	run_until_count(&loop, &done, 6);
	s.seen[s.nseen] = '\0';
	assert_int_equal(count_of(s.seen, "POST /api/v10/channels/8/messages HTTP/1.1\r\n"), 1);
	assert_int_equal(count_of(s.seen, "Authorization: Bot t\r\n"), 1);
	assert_int_equal(count_of(s.seen, "Authorization"), 1);
	/* No "Expect: 100-continue", for a small body or, however the
	 * headers are chosen, for one past libcurl's 1 MB threshold. */
	big = malloc(big_len + 1);
	memset(big, ' ', big_len);
	memcpy(big, "{}", 2);
	big[big_len] = '\0';
	discord_rest_call(r, "POST", "/webhooks/7/tok", big, REST_INTERACTION, count_done, &done);
	run_until_count(&loop, &done, 7);
	free(big);
	s.seen[s.nseen] = '\0';
	assert_int_equal(count_of(s.seen, "POST /api/v10/webhooks/7/tok HTTP/1.1\r\n"), 1);
	assert_int_equal(count_of(s.seen, "Expect"), 0);
	discord_rest_close(r, closed, &is_closed);
	srv_stop(&s);
	assert_true(is_closed);
	assert_int_equal(uv_loop_close(&loop), 0);
}

/*
 * A server on its own thread, with blocking sockets, for one connection:
 * it answers the first request 204 and, 50 ms later, with the connection
 * idle, sends a 429 (retry after 200 ms) ahead of the next request, so
 * that libcurl finds that answer as soon as it has sent the request, in
 * the same callback; it answers the later ones 204. It notes when each
 * request came, and its request line.
 */
#define EARLY_MAX 8

struct early {
	int listener;
	int n;
	uint64_t at[EARLY_MAX];
	char line[EARLY_MAX][64];
};

/* Reads one request's head (these have no body) into line (its first
 * line, cut); false at the end. */
static bool
read_head(int fd, char *line, size_t len)
{
	char tail[4] = {0}, c;
	size_t n = 0;
	bool first = true;

	while (memcmp(tail, "\r\n\r\n", 4) != 0) {
		if (read(fd, &c, 1) != 1)
			return false;
		if (c == '\r')
			first = false;
		if (first && n + 1 < len)
			line[n++] = c;
		memmove(tail, tail + 1, 3);
		tail[3] = c;
	}
	line[n] = '\0';
	return true;
}

static void
write_all(int fd, const char *s)
{
	size_t n = strlen(s), off = 0;

	while (off < n) {
		ssize_t w = write(fd, s + off, n - off);

		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

static void *
early_serve(void *arg)
{
	static const char body[] = "{\"retry_after\": 0.2, \"global\": false}";
	struct early *e = arg;
	char limited[256], first[64];
	int fd = accept(e->listener, NULL, NULL);

	snprintf(limited, sizeof(limited),
	         "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
	         "Content-Length: %zu\r\n\r\n%s",
	         sizeof(body) - 1, body);
	if (fd < 0 || !read_head(fd, first, sizeof(first)))
		return NULL;
	write_all(fd, answer204);
	usleep(50000);
	write_all(fd, limited);
	while (e->n < EARLY_MAX && read_head(fd, e->line[e->n], sizeof(e->line[0]))) {
		e->at[e->n] = uv_hrtime();
		if (e->n++ > 0) /* the first was answered ahead */
			write_all(fd, answer204);
	}
	close(fd);
	return NULL;
}

static void
busy_100ms(uv_timer_t *t)
{
	uint64_t t0 = uv_hrtime();

	while (uv_hrtime() - t0 < 100000000u)
		;
}

static void
status_is(void *ctx, const struct rest_result *res)
{
	*(long *)ctx = res->status;
}

static void
another_call(uv_timer_t *t)
{
	static long status;

	discord_rest_call(t->data, "GET", "/users/@me", NULL, 0, status_is, &status);
}

/*
 * A 429's retry_after counts from when the answer was read, even when it
 * was read in the turn of the loop its request went out in, after a
 * callback that took 100 ms: counted from the loop's time, from the start
 * of that turn, the request went again 100 ms early as soon as anything
 * else (here another request, 150 ms on) looked at the queue.
 */
static void
retry_after_counts_from_the_answer(void **unused)
{
	uv_loop_t loop;
	uv_timer_t slow, other;
	struct early e = {0};
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof(a);
	pthread_t th;
	struct rest *r;
	struct rest_opts o = {.token = "t"};
	char base[64];
	long status = -1;
	bool is_closed = false;
	uint64_t t0;
	int retried = -1;

	e.listener = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(e.listener >= 0);
	assert_int_equal(bind(e.listener, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(e.listener, 1), 0);
	assert_int_equal(getsockname(e.listener, (struct sockaddr *)&a, &alen), 0);
	assert_int_equal(pthread_create(&th, NULL, early_serve, &e), 0);
	uv_loop_init(&loop);
	snprintf(base, sizeof(base), "http://127.0.0.1:%d/api/v10", ntohs(a.sin_port));
	o.base_url = base;
	r = discord_rest_new(&loop, &o);
	discord_rest_call(r, "GET", "/gateway/bot", NULL, 0, status_is, &status);
	t0 = uv_hrtime();
	while (status < 0) {
		uv_run(&loop, UV_RUN_ONCE);
		assert_true(uv_hrtime() - t0 < 10000000000ull);
	}
	assert_int_equal(status, 204);
	usleep(150000); /* the 429 is waiting on the idle connection */
	uv_timer_init(&loop, &slow);
	uv_timer_init(&loop, &other);
	other.data = r;
	uv_timer_start(&slow, busy_100ms, 0, 0); /* runs just before libcurl's */
	uv_timer_start(&other, another_call, 150, 0);
	status = -1;
	discord_rest_call(r, "GET", "/gateway/bot", NULL, 0, status_is, &status);
	t0 = uv_hrtime();
	while (status < 0) {
		uv_run(&loop, UV_RUN_ONCE);
		assert_true(uv_hrtime() - t0 < 10000000000ull);
	}
	assert_int_equal(status, 204);
	/* e.line[0] is the request the 429 answered, as soon as it came. */
	assert_string_equal(e.line[0], "GET /api/v10/gateway/bot HTTP/1.1");
	for (int i = 1; i < e.n; i++)
		if (strcmp(e.line[i], e.line[0]) == 0)
			retried = i;
	assert_true(retried > 0);
	/* The 429 was read after the 100 ms callback, which began after t0:
	 * the request may go again 200 ms after that at the soonest. (Not
	 * measured from e.at[0]: the server's thread may note that request
	 * later than libcurl read the answer sent ahead.) */
	assert_true(e.at[retried] - t0 >= 300000000u);
	discord_rest_close(r, closed, &is_closed);
	uv_close((uv_handle_t *)&slow, NULL);
	uv_close((uv_handle_t *)&other, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_true(is_closed);
	pthread_join(th, NULL);
	close(e.listener);
	assert_int_equal(uv_loop_close(&loop), 0);
}

/* The server of callback_never_inside_the_call, and its two signals. */
struct ahead {
	struct early e;
	int go[2];   /* the test read the first answer */
	int sent[2]; /* the second answer went ahead */
};

/* Answers the first request; once the test read that answer, sends the
 * answer to the second before the second comes. */
static void *
ahead_serve(void *arg)
{
	struct ahead *h = arg;
	int fd = accept(h->e.listener, NULL, NULL);
	char c;

	if (fd < 0 || !read_head(fd, h->e.line[h->e.n++], sizeof(h->e.line[0])))
		return NULL;
	write_all(fd, answer204);
	if (read(h->go[0], &c, 1) == 1) {
		write_all(fd, answer204);
		(void)!write(h->sent[1], "s", 1);
	}
	if (read_head(fd, h->e.line[h->e.n], sizeof(h->e.line[0])))
		h->e.n++;
	close(fd);
	return NULL;
}

/*
 * A request's callback never runs inside discord_rest_call(), even when
 * its answer is there as soon as it is sent: callers count on it (one
 * that freed what its callback freed too died of a double free).
 */
static void
callback_never_inside_the_call(void **unused)
{
	uv_loop_t loop;
	struct ahead h = {0};
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof(a);
	pthread_t th;
	struct rest *r;
	struct rest_opts o = {.token = "t"};
	char base[64], c;
	long status = -1;
	bool is_closed = false;
	uint64_t t0;

	(void)unused;
	assert_int_equal(pipe(h.go), 0);
	assert_int_equal(pipe(h.sent), 0);
	h.e.listener = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(h.e.listener >= 0);
	assert_int_equal(bind(h.e.listener, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(h.e.listener, 1), 0);
	assert_int_equal(getsockname(h.e.listener, (struct sockaddr *)&a, &alen), 0);
	assert_int_equal(pthread_create(&th, NULL, ahead_serve, &h), 0);
	uv_loop_init(&loop);
	snprintf(base, sizeof(base), "http://127.0.0.1:%d/api/v10", ntohs(a.sin_port));
	o.base_url = base;
	r = discord_rest_new(&loop, &o);
	for (int i = 0; i < 2; i++) {
		status = -1;
		discord_rest_call(r, "GET", "/gateway/bot", NULL, 0, status_is, &status);
		assert_int_equal(status, -1);
		t0 = uv_hrtime();
		while (status < 0) {
			uv_run(&loop, UV_RUN_ONCE);
			assert_true(uv_hrtime() - t0 < 10000000000ull);
		}
		assert_int_equal(status, 204);
		if (i == 0) { /* the second answer waits on the kept connection */
			assert_int_equal(write(h.go[1], "g", 1), 1);
			assert_int_equal(read(h.sent[0], &c, 1), 1);
		}
	}
	discord_rest_close(r, closed, &is_closed);
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_true(is_closed);
	pthread_join(th, NULL);
	close(h.e.listener);
	for (int i = 0; i < 2; i++) {
		close(h.go[i]);
		close(h.sent[i]);
	}
	assert_int_equal(uv_loop_close(&loop), 0);
	assert_int_equal(h.e.n, 2);
}

/*
 * A request on a kept connection is on the wire when discord_rest_call()
 * returns, before the loop turns again: made from a callback that runs
 * after the turn's timers (an idle callback, as persist answers), a request
 * left to libcurl's 0 ms timeout costs the loop a turn of its own. Its
 * answer still comes from the loop. On either road: libcurl's, and
 * discord_rest_h1's (REST_CALLBACK).
 */
static void
goes_out_in_its_call(unsigned flags)
{
	uv_loop_t loop;
	struct srv s;
	struct rest *r;
	struct rest_opts o = {.token = "t"};
	char base[64];
	int done = 0;
	uv_os_fd_t fd;
	struct pollfd pfd;
	bool is_closed = false;

	uv_loop_init(&loop);
	srv_start(&s, &loop);
	s.released = true;
	snprintf(base, sizeof(base), "http://127.0.0.1:%d/api/v10", s.port);
	o.base_url = base;
	r = discord_rest_new(&loop, &o);
	discord_rest_call(r, "POST", "/interactions/1/tok/callback", "{}", flags, count_done,
	                  &done);
	run_until_count(&loop, &done, 1);
	assert_int_equal(s.conns, 1);
	assert_int_equal(uv_fileno((uv_handle_t *)&s.all->h, &fd), 0);
	discord_rest_call(r, "POST", "/interactions/2/tok/callback", "{}", flags, count_done,
	                  &done);
	/* The loop does not run here: the server's end is read directly. */
	pfd = (struct pollfd){.fd = fd, .events = POLLIN};
	assert_int_equal(poll(&pfd, 1, 10000), 1);
	assert_int_equal(done, 1);
	run_until_count(&loop, &done, 2);
	assert_int_equal(s.requests, 2);
	assert_int_equal(s.conns, 1);
	discord_rest_close(r, closed, &is_closed);
	srv_stop(&s);
	assert_true(is_closed);
	assert_int_equal(uv_loop_close(&loop), 0);
}

static void
a_request_goes_out_in_its_call(void **unused)
{
	goes_out_in_its_call(REST_INTERACTION);
	goes_out_in_its_call(REST_INTERACTION | REST_CALLBACK);
}

static void
count_any(void *ctx, const struct rest_result *res)
{
	(void)res;
	(*(int *)ctx)++;
}

static void
count_timers(uv_handle_t *h, void *arg)
{
	if (h->type == UV_TIMER && uv_is_active(h))
		(*(int *)arg)++;
}

/*
 * A transfer over in the call that made it (here one from a file that does
 * not exist, which fails at once) leaves no timer armed: libcurl 7.88
 * does not take back the 0 ms timeout curl_multi_add_handle asked for when
 * the run for it leaves no timeout at all, and that timer would fire for
 * nothing after a poll kept from waiting (a turn and an epoll_wait of
 * their own for each answer a loopback Discord answered at once).
 */
static void
a_transfer_over_in_its_call_leaves_no_timer(void **unused)
{
	uv_loop_t loop;
	struct rest *r;
	struct rest_opts o = {.token = "t", .base_url = "file:///nonexistent/api/v10"};
	int done = 0, timers = 0;
	bool is_closed = false;

	(void)unused;
	uv_loop_init(&loop);
	r = discord_rest_new(&loop, &o);
	discord_rest_call(r, "POST", "/interactions/1/tok/callback", "{}", REST_INTERACTION,
	                  count_any, &done);
	uv_walk(&loop, count_timers, &timers);
	assert_int_equal(timers, 0);
	assert_int_equal(done, 0);
	discord_rest_close(r, closed, &is_closed);
	while (!is_closed)
		uv_run(&loop, UV_RUN_ONCE);
	assert_int_equal(uv_loop_close(&loop), 0);
}

static void
count_404(void *ctx, const struct rest_result *res)
{
	int *done = ctx;

	assert_int_equal(res->status, 404);
	(*done)++;
}

/* A 404 the caller expects (REST_GONE_OK: a message someone deleted) is
 * not logged here, the caller says what it means; any other request's
 * 404 is, at warn. */
static void
an_expected_404_is_not_logged(void **unused)
{
	static const char gone[] = "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
	                           "Content-Length: 42\r\n\r\n"
	                           "{\"message\":\"Unknown Message\",\"code\":10008}";
	uv_loop_t loop;
	struct srv s;
	struct rest *r;
	struct rest_opts o = {.token = "t"};
	struct stderrcap cap;
	char base[64];
	int done = 0;
	bool is_closed = false;
	const char *log;

	uv_loop_init(&loop);
	srv_start(&s, &loop);
	s.released = true;
	s.answer = gone;
	snprintf(base, sizeof(base), "http://127.0.0.1:%d/api/v10", s.port);
	o.base_url = base;
	r = discord_rest_new(&loop, &o);
	assert_int_equal(stderrcap_begin(&cap), 0);
	discord_rest_call(r, "POST", "/channels/1/messages/2", "{}", REST_OPTIONAL | REST_GONE_OK,
	                  count_404, &done);
	run_until_count(&loop, &done, 1);
	log = stderrcap_end(&cap);
	assert_string_equal(log, "");
	assert_int_equal(stderrcap_begin(&cap), 0);
	discord_rest_call(r, "POST", "/channels/1/messages/2", "{}", REST_OPTIONAL, count_404,
	                  &done);
	run_until_count(&loop, &done, 2);
	log = stderrcap_end(&cap);
	assert_non_null(strstr(log, "warn: discord: POST /channels/1/messages/:id answered 404"));
	discord_rest_close(r, closed, &is_closed);
	srv_stop(&s);
	assert_true(is_closed);
	assert_int_equal(uv_loop_close(&loop), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(token_routes),
	    cmocka_unit_test(error_codes),
	    cmocka_unit_test(bot_token_routes),
	    cmocka_unit_test(backlog_is_the_last_wait),
	    cmocka_unit_test(proxy_from_the_environment),
	    cmocka_unit_test(paths_and_queries),
	    cmocka_unit_test(retry_after_counts_from_the_answer),
	    cmocka_unit_test(callback_never_inside_the_call),
	    cmocka_unit_test(a_request_goes_out_in_its_call),
	    cmocka_unit_test(a_transfer_over_in_its_call_leaves_no_timer),
	    cmocka_unit_test(an_expected_404_is_not_logged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
