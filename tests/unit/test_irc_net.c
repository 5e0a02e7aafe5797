/*
 * Unit tests for bot/irc/irc_net on a real libuv loop: completions (drained,
 * done) run from the loop, never before the call returns, the link
 * connects over IPv4 and IPv6 to a listener of the test's own (port 0),
 * and a connection that gets no answer is given up at the connect timeout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bot/irc/irc_net.h"
#include "commands/core/state.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"

struct fixture {
	uv_loop_t loop;
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct config_irc cfg;
	struct irc_timing t;
};

static int
setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	assert_int_equal(uv_loop_init(&f->loop), 0);
	f->st = state_new();
	f->rng = rng_new_seeded(1);
	f->d = dispatch_new(&(struct dispatch_opts){.state = f->st, .rng = f->rng});
	config_irc_init(&f->cfg, "test");
	f->cfg.nick = xstrdup("delver");
	f->cfg.host = xstrdup("127.0.0.1");
	f->cfg.tls = false;
	f->cfg.port = 1; /* set by each test */
	irc_conn_timing_defaults(&f->t);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	/* Closing handles only (a test that failed may leave a network
	 * behind: then this fails instead of running it for ever). */
	for (int i = 0; i < 10; i++)
		uv_run(&f->loop, UV_RUN_NOWAIT);
	assert_int_equal(uv_loop_close(&f->loop), 0);
	config_irc_clear(&f->cfg);
	dispatch_free(f->d);
	state_free(f->st);
	rng_free(f->rng);
	free(f);
	return 0;
}

static void
count(void *ctx)
{
	(*(int *)ctx)++;
}

/* Runs the loop until *n reaches want (or 1000 turns). */
static void
run_until(uv_loop_t *loop, const int *n, int want)
{
	for (int i = 0; i < 1000 && *n < want; i++)
		uv_run(loop, UV_RUN_ONCE);
	assert_int_equal(*n, want);
}

static void
test_drain_and_stop_complete_from_the_loop(void **state)
{
	struct fixture *f = *state;
	struct irc_net *n = irc_net_new(&f->loop, f->d, &f->cfg, &f->t);
	int drained = 0, done = 0;

	/* Not connected: nothing to write, yet drained waits for the loop. */
	irc_net_drain(n, count, &drained);
	assert_int_equal(drained, 0);
	run_until(&f->loop, &drained, 1);
	irc_net_stop(n, "bye", count, &done);
	assert_int_equal(done, 0);
	run_until(&f->loop, &done, 1);
	assert_int_equal(drained, 1);
}

/* A listener that reads the bot's first lines, then hangs up. */
struct server {
	uv_tcp_t listener;
	uv_tcp_t peer;
	bool peer_open;
	char got[1024];
	size_t len;
	int family; /* of the peer's address */
	int hung_up;
};

static void
server_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct server *s = h->data;

	(void)suggested;
	*buf = uv_buf_init(s->got + s->len, (unsigned)(sizeof(s->got) - 1 - s->len));
}

static void
peer_closed(uv_handle_t *h)
{
	struct server *s = h->data;

	s->hung_up++;
}

static void
server_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
	struct server *s = st->data;

	(void)buf;
	if (nread > 0) {
		s->len += (size_t)nread;
		s->got[s->len] = '\0';
	}
	if ((nread < 0 || strstr(s->got, "NICK delver\r\n") != NULL) &&
	    !uv_is_closing((uv_handle_t *)&s->peer))
		uv_close((uv_handle_t *)&s->peer, peer_closed);
}

static void
server_accept(uv_stream_t *l, int status)
{
	struct server *s = l->data;
	struct sockaddr_storage ss;
	int len = sizeof(ss);

	assert_int_equal(status, 0);
	assert_false(s->peer_open);
	uv_tcp_init(l->loop, &s->peer);
	s->peer.data = s;
	s->peer_open = true;
	assert_int_equal(uv_accept(l, (uv_stream_t *)&s->peer), 0);
	uv_tcp_getpeername(&s->peer, (struct sockaddr *)&ss, &len);
	s->family = ss.ss_family;
	uv_read_start((uv_stream_t *)&s->peer, server_alloc, server_read);
}

/* Listens on ip, port 0, taking connections with accept; returns the port,
 * or 0 when the address cannot be bound (no IPv6 on this machine). */
static int
server_listen_with(uv_loop_t *loop, struct server *s, const char *ip, uv_connection_cb accept)
{
	struct sockaddr_storage ss;
	int len = sizeof(ss);

	memset(s, 0, sizeof(*s));
	uv_tcp_init(loop, &s->listener);
	s->listener.data = s;
	if (strchr(ip, ':') != NULL)
		uv_ip6_addr(ip, 0, (struct sockaddr_in6 *)&ss);
	else
		uv_ip4_addr(ip, 0, (struct sockaddr_in *)&ss);
	if (uv_tcp_bind(&s->listener, (struct sockaddr *)&ss, 0) != 0 ||
	    uv_listen((uv_stream_t *)&s->listener, 4, accept) != 0) {
		uv_close((uv_handle_t *)&s->listener, NULL);
		return 0;
	}
	uv_tcp_getsockname(&s->listener, (struct sockaddr *)&ss, &len);
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                                      : ((struct sockaddr_in *)&ss)->sin_port);
}

/* server_listen_with() the listener that reads the bot's first lines. */
static int
server_listen(uv_loop_t *loop, struct server *s, const char *ip)
{
	return server_listen_with(loop, s, ip, server_accept);
}

static void
connect_over(struct fixture *f, const char *ip, int family)
{
	struct server s;
	struct irc_net *n;
	int done = 0, port = server_listen(&f->loop, &s, ip);

	if (port == 0) {
		uv_run(&f->loop, UV_RUN_DEFAULT);
		skip();
	}
	free(f->cfg.host);
	f->cfg.host = xstrdup(ip);
	f->cfg.port = port;
	n = irc_net_new(&f->loop, f->d, &f->cfg, &f->t);
	irc_net_start(n);
	run_until(&f->loop, &s.hung_up, 1);
	assert_int_equal(s.family, family);
	assert_non_null(strstr(s.got, "NICK delver\r\n"));
	assert_non_null(strstr(s.got, "USER "));
	irc_net_stop(n, "bye", count, &done);
	run_until(&f->loop, &done, 1);
	uv_close((uv_handle_t *)&s.listener, NULL);
	uv_run(&f->loop, UV_RUN_DEFAULT);
}

static void
test_connects_over_ipv4(void **state)
{
	connect_over(*state, "127.0.0.1", AF_INET);
}

static void
test_connects_over_ipv6(void **state)
{
	connect_over(*state, "::1", AF_INET6);
}

/* The log of the last run_until_logged(). */
static char out[16384];

/* Runs the loop with stderr going to a file until the log holds want (or
 * 1000 turns); returns whether it did. */
static bool
run_until_logged(uv_loop_t *loop, const char *want)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	bool found = false;
	size_t n;

	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	for (int i = 0; i < 1000 && !found; i++) {
		uv_run(loop, UV_RUN_ONCE);
		fflush(stderr);
		rewind(f);
		n = fread(out, 1, sizeof(out) - 1, f);
		out[n] = '\0';
		found = strstr(out, want) != NULL;
		fseek(f, 0, SEEK_END);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(f);
	if (!found)
		fprintf(stderr, "the log:\n%s", out);
	return found;
}

/*
 * A listener whose accept queue is full (backlog 0, never accepted, filled
 * by the test's own connections) drops the next SYN: the bot's connect gets
 * no answer, and is given up once the connect timeout has passed.
 */
static void
test_connect_timeout(void **state)
{
	struct fixture *f = *state;
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	int lfd = socket(AF_INET, SOCK_STREAM, 0), fill[4], done = 0;
	bool timed_out;
	struct irc_net *n;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(lfd, 0), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &alen), 0);
	for (int i = 0; i < 4; i++) {
		fill[i] = socket(AF_INET, SOCK_STREAM, 0);
		fcntl(fill[i], F_SETFL, O_NONBLOCK);
		connect(fill[i], (struct sockaddr *)&a, sizeof(a));
	}
	f->cfg.port = ntohs(a.sin_port);
	f->t.connect = 300;
	n = irc_net_new(&f->loop, f->d, &f->cfg, &f->t);
	irc_net_start(n);
	timed_out = run_until_logged(&f->loop, "no answer within 0.3 s");
	irc_net_stop(n, "bye", count, &done);
	run_until(&f->loop, &done, 1);
	for (int i = 0; i < 4; i++)
		close(fill[i]);
	close(lfd);
	assert_true(timed_out);
}

/*
 * A server that takes the TCP connection but never answers the TLS
 * ClientHello: the link is given up once the handshake timeout (a timing
 * field like the others, 300 ms here) has passed.
 */
static void
test_tls_handshake_timeout(void **state)
{
	struct fixture *f = *state;
	struct server s;
	int done = 0, port = server_listen(&f->loop, &s, "127.0.0.1");
	bool timed_out;
	struct irc_net *n;

	assert_int_not_equal(port, 0);
	f->cfg.port = port;
	f->cfg.tls = true;
	f->cfg.tls_verify = false;
	f->t.handshake = 300;
	n = irc_net_new(&f->loop, f->d, &f->cfg, &f->t);
	irc_net_start(n);
	timed_out = run_until_logged(&f->loop, "the TLS handshake did not finish within 0.3 s");
	irc_net_stop(n, "bye", count, &done);
	run_until(&f->loop, &done, 1);
	uv_close((uv_handle_t *)&s.listener, NULL);
	if (s.peer_open && !uv_is_closing((uv_handle_t *)&s.peer))
		uv_close((uv_handle_t *)&s.peer, NULL);
	uv_run(&f->loop, UV_RUN_DEFAULT);
	assert_true(timed_out);
}

/* A plain IRC server's greeting to every connection it takes: each peer
 * is its own, closed when the bot hangs up. */
struct greeter {
	uv_tcp_t peer;
	uv_write_t w;
	char rbuf[4096];
};

static void
greeter_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
greeter_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct greeter *g = h->data;

	(void)suggested;
	*buf = uv_buf_init(g->rbuf, sizeof(g->rbuf));
}

static void
greeter_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
	(void)buf;
	if (nread < 0 && !uv_is_closing((uv_handle_t *)st))
		uv_close((uv_handle_t *)st, greeter_closed);
}

static void
greeter_accept(uv_stream_t *l, int status)
{
	static char hello[] = ":irc.test NOTICE * :*** Looking up your hostname...\r\n";
	struct greeter *g = xcalloc(1, sizeof(*g));
	uv_buf_t b = uv_buf_init(hello, sizeof(hello) - 1);

	assert_int_equal(status, 0);
	uv_tcp_init(l->loop, &g->peer);
	g->peer.data = g;
	assert_int_equal(uv_accept(l, (uv_stream_t *)&g->peer), 0);
	uv_read_start((uv_stream_t *)&g->peer, greeter_alloc, greeter_read);
	uv_write(&g->w, (uv_stream_t *)&g->peer, &b, 1, NULL);
}

/*
 * recheck9 F15: with tls on (the default) and the port of a server that
 * speaks plain IRC (6667), the handshake failed again and again with
 * OpenSSL's reason alone; the bot says what is wrong and names tls = no.
 */
static void
test_plain_server_under_tls(void **state)
{
	struct fixture *f = *state;
	struct server s;
	int done = 0, port = server_listen_with(&f->loop, &s, "127.0.0.1", greeter_accept);
	const char *first;
	bool said;
	struct irc_net *n;

	assert_int_not_equal(port, 0);
	f->cfg.port = port;
	f->cfg.tls = true;
	f->cfg.tls_verify = false;
	f->t.backoff_min = 10;
	f->t.backoff_max = 20;
	n = irc_net_new(&f->loop, f->d, &f->cfg, &f->t);
	irc_net_start(n);
	/* said once, as a warning; the next tries, at info level */
	said = run_until_logged(&f->loop, "info: irc test: 127.0.0.1 port ");
	irc_net_stop(n, "bye", count, &done);
	run_until(&f->loop, &done, 1);
	uv_close((uv_handle_t *)&s.listener, NULL);
	uv_run(&f->loop, UV_RUN_DEFAULT);
	assert_true(said);
	first = strstr(out, "warn: irc test: 127.0.0.1 port ");
	assert_non_null(first);
	assert_non_null(strstr(first, " answers in plain text, not TLS: the server does not speak "
	                              "TLS on that port; set tls = no under [irc.test], or give "
	                              "the port of its TLS\n"));
	assert_null(strstr(first + 1, "warn: irc test: 127.0.0.1 port "));
	assert_non_null(strstr(first, " answers in plain text, not TLS (tls = no)\n"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_drain_and_stop_complete_from_the_loop, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_connects_over_ipv4, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_connects_over_ipv6, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_connect_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tls_handshake_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_plain_server_under_tls, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
