/* irc_net: one IRC network over a libuv TCP handle; see irc_net.h. */
#include "bot/irc/irc_net.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "bot/irc/irc.h"
#include "bot/irc/irc_tls.h"
#include "bot/irc/irc_trace.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define WRITE_MAX 4096  /* plaintext bytes taken for one write */
#define READ_MAX  16384 /* bytes of one read */

enum net_state {
	NS_IDLE,
	NS_RESOLVING,  /* uv_getaddrinfo in flight */
	NS_CONNECTING, /* link is connecting to the address before ai_next */
	NS_UP,         /* connected: the session runs */
	NS_WAITING,    /* before the next attempt */
	NS_STOPPING,   /* irc_net_stop was called */
};

/*
 * One TCP connection. It lives until its handle is closed (its close
 * callback frees it), which may be after the network let go of it: n is
 * then NULL and nothing it reports reaches the network.
 */
struct link {
	uv_tcp_t tcp;
	uv_connect_t connect;
	struct irc_net *n; /* NULL once detached */
	bool closing;
	char rbuf[READ_MAX];
};

/* One uv_write in flight; its bytes follow it. */
struct wreq {
	uv_write_t req;
	struct link *l;
	size_t len;
	char data[];
};

struct irc_net {
	uv_loop_t *loop;
	const struct config_irc *cfg;
	struct irc_conn *conn;
	struct irc_bot *bot;
	enum net_state st;
	uv_getaddrinfo_t gai;
	bool gai_busy;
	struct addrinfo *ai, *ai_next; /* resolved addresses; the next to try */
	struct link *link;             /* the connection, while there is one */
	bool writing;                  /* a write is in flight on link */
	bool busy;                     /* inside flush or a read: wakes wait */
	bool flush_wanted;             /* a wake came while busy */
	struct irc_tls *tls;           /* with TLS, from the TCP connection on */
	bool linked;                   /* the session runs (TLS, if any, is up) */
	bool plain_said;               /* a plain-text answer to TLS was explained */
	int connect_ms;                /* the timing's connect */
	int handshake_ms;              /* the timing's handshake */
	int64_t connect_by;            /* NS_CONNECTING */
	int64_t handshake_by;
	uv_timer_t timer;
	int64_t reconnect_at; /* NS_WAITING */
	int64_t kill_at;      /* NS_STOPPING: the link is cut by then */
	char rx[IRC_RX_MAX + 2];
	size_t rxlen;
	bool rx_overflow; /* dropping the rest of an overlong line */
	bool draining;
	bool drain_due; /* irc_net_drain was called: the timer checks */
	void (*drained)(void *);
	void *drained_ctx;
	void (*done)(void *);
	void *done_ctx;
};

static int64_t
now_ms(const struct irc_net *n)
{
	return (int64_t)uv_now(n->loop);
}

static void arm(struct irc_net *n);
static void connect_next(struct irc_net *n);
static void finish_stop(struct irc_net *n);
static void flush(struct irc_net *n);

/* --- the TCP side --- */

static void link_lost(struct irc_net *n);

/* A link's handle is closed: it is freed, and its network (unless it let
 * go of it) learns that the link is gone. */
static void
link_closed(uv_handle_t *h)
{
	struct link *l = h->data;
	struct irc_net *n = l->n;

	free(l);
	if (n != NULL) {
		n->link = NULL;
		n->writing = false;
		link_lost(n);
	}
}

/* Closes l's handle; pending writes are cancelled, and link_closed runs
 * from the loop later. */
static void
link_close(struct link *l)
{
	if (l->closing)
		return;
	l->closing = true;
	uv_close((uv_handle_t *)&l->tcp, link_closed);
}

/* Lets go of the network's link and closes it: nothing it reports later
 * reaches the network. */
static void
detach_link(struct irc_net *n)
{
	struct link *l = n->link;

	if (l == NULL)
		return;
	n->link = NULL;
	n->writing = false;
	l->n = NULL;
	link_close(l);
}

/* Ends the link: the session learns it from the loop (never inside the
 * irc_conn call that asked for it). */
static void
kill_link(struct irc_net *n)
{
	if (n->link != NULL)
		link_close(n->link);
}

static void
check_drained(struct irc_net *n)
{
	void (*fn)(void *) = n->drained;

	if (fn == NULL || (n->st == NS_UP && (n->writing || irc_conn_pending(n->conn) > 0)))
		return;
	n->drained = NULL;
	fn(n->drained_ctx);
}

static void
schedule_retry(struct irc_net *n)
{
	uint64_t rnd = uv_hrtime() * 0x9E3779B97F4A7C15ull;
	int64_t delay = irc_conn_backoff(n->conn, rnd >> 11);

	if (n->ai != NULL) {
		uv_freeaddrinfo(n->ai);
		n->ai = n->ai_next = NULL;
	}
	n->st = NS_WAITING;
	n->reconnect_at = now_ms(n) + delay;
	log_info("irc %s: reconnecting in %.1f s", n->cfg->network, (double)delay / 1000.0);
	arm(n);
}

/* The link is closed (by either side, or cut): the session ends and the
 * network stops or tries again. */
static void
link_lost(struct irc_net *n)
{
	irc_conn_link_down(n->conn, now_ms(n));
	irc_tls_free(n->tls);
	n->tls = NULL;
	n->linked = false;
	n->rxlen = 0;
	n->rx_overflow = false;
	if (n->st == NS_STOPPING) {
		finish_stop(n);
		return;
	}
	log_info("irc %s: disconnected from %s", n->cfg->network, n->cfg->host);
	schedule_retry(n);
	check_drained(n);
}

static void
received(struct irc_net *n, int64_t now)
{
	size_t len = n->rxlen;

	if (len > 0 && n->rx[len - 1] == '\r')
		len--;
	irc_trace_received(n->cfg->network, n->rx, len);
	irc_conn_receive(n->conn, n->rx, len, now);
}

/* Cuts received plaintext into lines for the session. */
static void
receive(void *ctx, const char *p, size_t len)
{
	struct irc_net *n = ctx;
	int64_t now = now_ms(n);

	for (size_t i = 0; i < len; i++) {
		if (p[i] != '\n') {
			if (n->rxlen < sizeof(n->rx))
				n->rx[n->rxlen++] = p[i];
			else
				n->rx_overflow = true;
			continue;
		}
		if (n->rx_overflow)
			log_warnx("irc %s: dropped a line of more than %d bytes from the server",
			          n->cfg->network, IRC_RX_MAX);
		else
			received(n, now);
		n->rxlen = 0;
		n->rx_overflow = false;
	}
}

/* Takes the lines that may go now: as they are, or encrypted into the
 * TLS session's output. Returns the plaintext bytes taken. */
static size_t
take_lines(struct irc_net *n, char *buf, size_t room)
{
	char line[IRC_LINE_MAX + 1];
	size_t len = 0, k;
	int64_t now = now_ms(n);

	if (!n->linked)
		return 0;
	while (len + IRC_LINE_MAX <= room) {
		k = irc_conn_pop(n->conn, now, line, sizeof(line));
		if (k == 0)
			break;
		irc_trace_sent(n->cfg->network, line, k);
		if (n->tls != NULL)
			irc_tls_send(n->tls, line, k);
		else
			memcpy(buf + len, line, k);
		len += k;
	}
	return len;
}

static void
written(uv_write_t *req, int status)
{
	struct wreq *w = req->data;
	struct irc_net *n = w->l->n;

	free(w);
	if (n == NULL || status == UV_ECANCELED)
		return;
	n->writing = false;
	if (status < 0) {
		log_warnx("irc %s: writing to the server failed: %s", n->cfg->network,
		          uv_strerror(status));
		kill_link(n);
		return;
	}
	flush(n);
	check_drained(n);
	arm(n);
}

/*
 * Writes what may go now, one write at a time: the lines the flood
 * bucket lets out (through TLS, if any) and the TLS session's own output
 * (its handshake). The next write starts when this one is done, so lines
 * wait in the session's queue (which the flood bucket orders) rather than
 * in the socket's.
 */
static void
flush(struct irc_net *n)
{
	struct link *l = n->link;
	struct wreq *w;
	uv_buf_t b;
	size_t len;
	int r;

	if (n->busy) {
		n->flush_wanted = true;
		return;
	}
	if (l == NULL || l->closing || n->writing || (n->st != NS_UP && n->st != NS_STOPPING))
		return;
	n->busy = true;
	w = xmalloc(sizeof(*w) + WRITE_MAX);
	len = take_lines(n, w->data, WRITE_MAX);
	if (n->tls != NULL)
		len = irc_tls_output(n->tls, w->data, WRITE_MAX);
	n->busy = false;
	n->flush_wanted = false;
	if (len == 0) {
		free(w);
		return;
	}
	w->l = l;
	w->len = len;
	w->req.data = w;
	b = uv_buf_init(w->data, (unsigned)len);
	r = uv_write(&w->req, (uv_stream_t *)&l->tcp, &b, 1, written);
	if (r < 0) {
		free(w);
		log_warnx("irc %s: writing to the server failed: %s", n->cfg->network,
		          uv_strerror(r));
		kill_link(n);
		return;
	}
	n->writing = true;
}

/* The link (and TLS, if any) is up: the session starts. */
static void
link_up(struct irc_net *n)
{
	n->linked = true;
	irc_conn_link_up(n->conn, now_ms(n));
}

static void
rx_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct link *l = h->data;

	(void)suggested;
	*buf = uv_buf_init(l->rbuf, sizeof(l->rbuf));
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct link *l = s->data;
	struct irc_net *n = l->n;
	char err[256];

	(void)buf;
	if (n == NULL || l->closing || nread == 0)
		return;
	if (nread < 0) {
		if (nread != UV_EOF)
			log_warnx("irc %s: reading from the server failed: %s", n->cfg->network,
			          uv_strerror((int)nread));
		kill_link(n);
		return;
	}
	n->busy = true;
	if (n->tls == NULL) {
		receive(n, l->rbuf, (size_t)nread);
	} else if (irc_tls_input(n->tls, l->rbuf, (size_t)nread, receive, n, err, sizeof(err)) <
	           0) {
		n->busy = false;
		if (irc_tls_plain(n->tls) && !n->plain_said)
			log_warnx(
			    "irc %s: %s port %d answers in plain text, not TLS: the server "
			    "does not speak TLS on that port; set tls = no under [irc.%s], or "
			    "give the port of its TLS",
			    n->cfg->network, n->cfg->host, n->cfg->port, n->cfg->network);
		else if (irc_tls_plain(n->tls))
			log_info("irc %s: %s port %d answers in plain text, not TLS (tls = no)",
			         n->cfg->network, n->cfg->host, n->cfg->port);
		else
			log_warnx("irc %s: %s", n->cfg->network, err);
		n->plain_said = n->plain_said || irc_tls_plain(n->tls);
		kill_link(n);
		return;
	} else if (!n->linked && irc_tls_ready(n->tls)) {
		link_up(n);
	}
	n->busy = false;
	flush(n);
	arm(n);
}

static void
on_connected(uv_connect_t *req, int status)
{
	struct link *l = req->data;
	struct irc_net *n = l->n;
	char err[256];
	int r;

	if (n == NULL)
		return; /* let go of (a timeout, a stop): it is closing */
	if (status < 0) {
		log_warnx("irc %s: cannot connect to %s port %d: %s", n->cfg->network, n->cfg->host,
		          n->cfg->port, uv_strerror(status));
		detach_link(n);
		connect_next(n);
		return;
	}
	n->st = NS_UP;
	if (n->ai != NULL) {
		uv_freeaddrinfo(n->ai);
		n->ai = n->ai_next = NULL;
	}
	r = uv_read_start((uv_stream_t *)&l->tcp, rx_alloc, on_read);
	if (r < 0) {
		log_warnx("irc %s: cannot read from the server: %s", n->cfg->network,
		          uv_strerror(r));
		kill_link(n);
		return;
	}
	if (!n->cfg->tls) {
		link_up(n);
		flush(n);
		arm(n);
		return;
	}
	{
		unsigned char pin[IRC_TLS_SHA256_LEN];
		struct irc_tls_opts o = {.verify = n->cfg->tls_verify,
		                         .ca_file = n->cfg->tls_ca_file,
		                         .cert_file = n->cfg->tls_cert_file};

		/* The configuration checked the fingerprint's form. */
		if (n->cfg->tls_fingerprint != NULL &&
		    irc_tls_parse_fingerprint(n->cfg->tls_fingerprint, pin) == 0)
			o.fingerprint = pin;
		n->tls = irc_tls_new(n->cfg->host, &o, err, sizeof(err));
	}
	if (n->tls == NULL) {
		log_warnx("irc %s: %s", n->cfg->network, err);
		kill_link(n);
		return;
	}
	n->handshake_by = now_ms(n) + n->handshake_ms;
	flush(n); /* the ClientHello */
	arm(n);
}

/* --- connecting --- */

/* Starts connecting to a; returns 0, or a libuv error (logged). */
static int
connect_to(struct irc_net *n, const struct addrinfo *a, const char *ip)
{
	struct link *l = xcalloc(1, sizeof(*l));
	int r;

	l->n = n;
	l->tcp.data = l;
	l->connect.data = l;
	r = uv_tcp_init(n->loop, &l->tcp);
	if (r < 0) {
		free(l);
	} else {
		n->link = l;
		uv_tcp_nodelay(&l->tcp, 1);
		r = uv_tcp_connect(&l->connect, &l->tcp, a->ai_addr, on_connected);
		if (r < 0)
			detach_link(n);
	}
	if (r < 0)
		log_warnx("irc %s: cannot connect to %s (%s) port %d: %s", n->cfg->network,
		          n->cfg->host, ip, n->cfg->port, uv_strerror(r));
	return r;
}

/* Tries the next resolved address; after the last, waits and resolves
 * again. */
static void
connect_next(struct irc_net *n)
{
	const struct config_irc *cfg = n->cfg;

	if (n->st == NS_STOPPING) {
		finish_stop(n);
		return;
	}
	while (n->ai_next != NULL) {
		struct addrinfo *a = n->ai_next;
		char ip[INET6_ADDRSTRLEN] = "";
		const void *addr;

		n->ai_next = a->ai_next;
		if (a->ai_family == AF_INET6) {
			((struct sockaddr_in6 *)a->ai_addr)->sin6_port = htons((uint16_t)cfg->port);
			addr = &((struct sockaddr_in6 *)a->ai_addr)->sin6_addr;
		} else if (a->ai_family == AF_INET) {
			((struct sockaddr_in *)a->ai_addr)->sin_port = htons((uint16_t)cfg->port);
			addr = &((struct sockaddr_in *)a->ai_addr)->sin_addr;
		} else {
			continue;
		}
		if (inet_ntop(a->ai_family, addr, ip, sizeof(ip)) == NULL)
			continue;
		log_info("irc %s: connecting to %s (%s) port %d%s", cfg->network, cfg->host, ip,
		         cfg->port,
		         cfg->tls ? (cfg->tls_verify ? " with TLS" : " with unverified TLS") : "");
		n->st = NS_CONNECTING;
		if (connect_to(n, a, ip) == 0) {
			n->connect_by = now_ms(n) + n->connect_ms;
			arm(n);
			return; /* on_connected goes on from here */
		}
	}
	schedule_retry(n);
}

static void
on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	struct irc_net *n = req->data;

	n->gai_busy = false;
	if (n->st == NS_STOPPING) {
		if (res != NULL)
			uv_freeaddrinfo(res);
		finish_stop(n);
		return;
	}
	if (status < 0) {
		log_warnx("irc %s: cannot resolve %s: %s", n->cfg->network, n->cfg->host,
		          uv_strerror(status));
		schedule_retry(n);
		return;
	}
	n->ai = n->ai_next = res;
	connect_next(n);
}

static void
resolve(struct irc_net *n)
{
	struct addrinfo hints;
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	n->st = NS_RESOLVING;
	n->gai.data = n;
	r = uv_getaddrinfo(n->loop, &n->gai, on_resolved, n->cfg->host, NULL, &hints);
	if (r < 0) {
		log_warnx("irc %s: cannot resolve %s: %s", n->cfg->network, n->cfg->host,
		          uv_strerror(r));
		schedule_retry(n);
		return;
	}
	n->gai_busy = true;
}

/* --- the session's hooks and the timer --- */

static void
on_wake(void *ctx)
{
	struct irc_net *n = ctx;

	flush(n);
	arm(n);
}

static void
on_recycle(void *ctx, const char *why)
{
	(void)why; /* irc_conn logged it */
	kill_link(ctx);
}

static void
on_message(void *ctx, const struct irc_msg *m)
{
	struct irc_net *n = ctx;

	if (n->st == NS_UP && !n->draining)
		irc_bot_message(n->bot, m, now_ms(n), (int64_t)time(NULL));
}

/* An owner's "reload": the same as SIGHUP, which the app handles. */
static void
owner_reload(void *ctx)
{
	(void)ctx;
	raise(SIGHUP);
}

static void
on_user(void *ctx, const struct irc_msg *m)
{
	struct irc_net *n = ctx;

	irc_bot_user(n->bot, m);
}

static const struct irc_conn_hooks hooks = {on_wake, on_recycle, on_message, on_user};

static void
on_timer(uv_timer_t *t)
{
	struct irc_net *n = t->data;
	int64_t now = now_ms(n);

	if (n->drain_due) {
		n->drain_due = false;
		check_drained(n);
	}
	switch (n->st) {
	case NS_WAITING:
		if (now >= n->reconnect_at)
			resolve(n);
		break;
	case NS_CONNECTING:
		if (now >= n->connect_by) {
			log_warnx("irc %s: cannot connect to %s port %d: no answer within %.1f s",
			          n->cfg->network, n->cfg->host, n->cfg->port,
			          (double)n->connect_ms / 1000.0);
			detach_link(n);
			connect_next(n);
			return;
		}
		break;
	case NS_UP:
		if (!n->linked && now >= n->handshake_by) {
			log_warnx("irc %s: the TLS handshake did not finish within %g s",
			          n->cfg->network, (double)n->handshake_ms / 1000.0);
			kill_link(n);
			return;
		}
		irc_conn_tick(n->conn, now);
		flush(n);
		break;
	case NS_STOPPING:
		if (now >= n->kill_at) {
			finish_stop(n);
			return;
		}
		flush(n);
		break;
	default:
		break;
	}
	arm(n);
}

/* Sets the timer for the earliest thing to do. */
static void
arm(struct irc_net *n)
{
	int64_t now = now_ms(n), next = -1;

	if (uv_is_closing((uv_handle_t *)&n->timer))
		return;
	switch (n->st) {
	case NS_WAITING:
		next = n->reconnect_at;
		break;
	case NS_CONNECTING:
		next = n->connect_by;
		break;
	case NS_UP:
		next = n->linked ? irc_conn_next(n->conn, now) : n->handshake_by;
		break;
	case NS_STOPPING:
		next = irc_conn_next(n->conn, now);
		if (next < 0 || next > n->kill_at)
			next = n->kill_at;
		break;
	default:
		break;
	}
	if (n->drain_due)
		next = now;
	if (next < 0) {
		uv_timer_stop(&n->timer);
		return;
	}
	/* At least 1 ms: a deadline that stayed due must not starve the loop. */
	uv_timer_start(&n->timer, on_timer, (uint64_t)(next > now ? next - now : 1), 0);
}

/* --- life cycle --- */

struct irc_net *
irc_net_new(uv_loop_t *loop, struct dispatch *d, const struct config_irc *cfg,
            const struct irc_timing *t)
{
	struct irc_net *n = xcalloc(1, sizeof(*n));
	struct irc_timing defaults;

	if (t == NULL) {
		irc_conn_timing_defaults(&defaults);
		t = &defaults;
	}
	n->loop = loop;
	n->cfg = cfg;
	n->conn = irc_conn_new(cfg, t, &hooks, n);
	n->connect_ms = t->connect;
	n->handshake_ms = t->handshake;
	n->bot = irc_bot_new(d, cfg, n->conn);
	irc_bot_set_reload(n->bot, owner_reload, n);
	uv_timer_init(n->loop, &n->timer);
	n->timer.data = n;
	return n;
}

void
irc_net_start(struct irc_net *n)
{
	if (n->st == NS_IDLE)
		resolve(n);
}

void
irc_net_drain(struct irc_net *n, void (*drained)(void *ctx), void *ctx)
{
	n->draining = true;
	n->drained = drained;
	n->drained_ctx = ctx;
	/* Checked from the timer: drained never runs before this returns. */
	n->drain_due = true;
	arm(n);
}

static void
timer_closed(uv_handle_t *h)
{
	struct irc_net *n = h->data;
	void (*done)(void *) = n->done;
	void *ctx = n->done_ctx;

	irc_bot_free(n->bot);
	irc_conn_free(n->conn);
	irc_tls_free(n->tls);
	free(n);
	if (done != NULL)
		done(ctx);
}

/* Frees the network once nothing can call back into it. */
static void
finish_stop(struct irc_net *n)
{
	if (n->gai_busy)
		return; /* on_resolved comes back here */
	detach_link(n); /* one that did not close in time is cut */
	if (n->ai != NULL) {
		uv_freeaddrinfo(n->ai);
		n->ai = n->ai_next = NULL;
	}
	if (uv_is_closing((uv_handle_t *)&n->timer))
		return;
	uv_timer_stop(&n->timer);
	uv_close((uv_handle_t *)&n->timer, timer_closed);
}

void
irc_net_stop(struct irc_net *n, const char *why, void (*done)(void *ctx), void *ctx)
{
	enum net_state was = n->st;

	n->done = done;
	n->done_ctx = ctx;
	n->st = NS_STOPPING;
	n->kill_at = now_ms(n) + IRC_NET_QUIT_MS;
	n->drained = NULL;
	n->drain_due = false;
	switch (was) {
	case NS_UP:
		if (n->link != NULL && !n->link->closing) {
			irc_conn_quit(n->conn, why);
			flush(n);
			arm(n);
			break;
		}
		/* The link is closing: link_lost finishes the stop. */
		if (n->link != NULL) {
			arm(n);
			break;
		}
		finish_stop(n);
		break;
	case NS_RESOLVING:
		uv_cancel((uv_req_t *)&n->gai);
		break;
	default:
		finish_stop(n);
		break;
	}
}

void
irc_net_reconfigure(struct irc_net *n, const struct config_irc *cfg, const struct irc_timing *t)
{
	n->cfg = cfg;
	irc_bot_set_config(n->bot, cfg);
	irc_conn_reconfigure(n->conn, cfg, t);
	if (t != NULL) {
		n->connect_ms = t->connect;
		n->handshake_ms = t->handshake;
	}
	on_wake(n); /* the PARTs and JOINs wait in the queue */
}
