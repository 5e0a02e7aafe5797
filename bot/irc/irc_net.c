/* irc_net: one IRC network over libwebsockets on the libuv loop; see irc_net.h. */
#include "bot/irc/irc_net.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <libwebsockets.h>

#include "bot/irc/irc.h"
#include "bot/irc/irc_tls.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define PROTOCOL     "delver-irc"
#define WRITE_MAX    4096  /* bytes handed to one lws_write */
#define HANDSHAKE_MS 30000 /* for the TLS handshake */

#define REAP_MS     10  /* how often a context being destroyed is checked */
#define REAP_SECOND 3   /* ticks before the second lws_context_destroy */
#define REAP_TRIES  400 /* then it is given up on (4 s) */

struct irc_lws {
	struct lws_context *ctx; /* NULL once libwebsockets finished destroying it */
	uv_loop_t *loop;
	uv_timer_t reap;
	int tries;
};

enum net_state {
	NS_IDLE,
	NS_RESOLVING,  /* uv_getaddrinfo in flight */
	NS_CONNECTING, /* a raw client is connecting to ai_cur */
	NS_UP,         /* connected: the session runs */
	NS_WAITING,    /* before the next attempt */
	NS_STOPPING,   /* irc_net_stop was called */
};

struct irc_net {
	struct irc_lws *x;
	uv_loop_t *loop;
	const struct config_irc *cfg;
	struct irc_conn *conn;
	struct irc_bot *bot;
	enum net_state st;
	uv_getaddrinfo_t gai;
	bool gai_busy;
	struct addrinfo *ai, *ai_next; /* resolved addresses; the next to try */
	bool connecting_now;           /* inside lws_client_connect_via_info */
	bool connect_failed;           /* its error arrived synchronously */
	struct lws *wsi;
	struct irc_tls *tls; /* with TLS, from the TCP connection on */
	bool linked;         /* the session runs (TLS, if any, is up) */
	int64_t handshake_by;
	uv_timer_t timer;
	int64_t reconnect_at; /* NS_WAITING */
	int64_t kill_at;      /* NS_STOPPING: the link is cut by then */
	char rx[IRC_RX_MAX + 2];
	size_t rxlen;
	bool rx_overflow; /* dropping the rest of an overlong line */
	bool draining;
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

/* --- the libwebsockets side --- */

/*
 * Ends the link now. The socket is shut down as well as handed to
 * libwebsockets to close: a raw client still in the TLS handshake (delver's
 * own, bot/irc_tls) was otherwise only closed by libwebsockets' own
 * timeout, 30 s after the handshake timeout had been logged.
 */
static void
kill_link(struct irc_net *n)
{
	lws_sockfd_type fd;

	if (n->wsi == NULL)
		return;
	fd = lws_get_socket_fd(n->wsi);
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
	lws_set_timeout(n->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static void
check_drained(struct irc_net *n)
{
	void (*fn)(void *) = n->drained;

	if (fn == NULL || (n->st == NS_UP && irc_conn_pending(n->conn) > 0))
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
connect_failed(struct irc_net *n, const char *why)
{
	log_warnx("irc %s: cannot connect to %s port %d: %s", n->cfg->network, n->cfg->host,
	          n->cfg->port, why);
	n->wsi = NULL;
	if (n->connecting_now) {
		n->connect_failed = true; /* connect_next goes on */
		return;
	}
	if (n->st == NS_STOPPING)
		finish_stop(n);
	else
		connect_next(n);
}

/*
 * Writes s[0..len) to out (size bytes, NUL-terminated) with every control
 * byte and DEL as \xNN and a backslash as \\, so that a line a user sent
 * (ESC sequences, formatting codes) cannot act on a terminal showing the
 * log. A line that does not fit is cut and ends with "...".
 */
static void
escape_line(char *out, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (o + 8 >= size) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			if (c == '\\')
				out[o++] = '\\';
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

/* Where the command of a received line ends when it is part of SASL
 * (AUTHENTICATE, numerics 900-908, whose text a server may fill with the
 * payload it got), else 0. */
static size_t
sasl_command_end(const char *line, size_t len)
{
	size_t i = 0, start;

	for (int skip = 0; skip < 2; skip++) /* "@tags " and ":prefix " */
		if (i < len && line[i] == (skip == 0 ? '@' : ':')) {
			while (i < len && line[i] != ' ')
				i++;
			while (i < len && line[i] == ' ')
				i++;
		}
	start = i;
	while (i < len && line[i] != ' ')
		i++;
	if ((i - start == 12 && strncmp(line + start, "AUTHENTICATE", 12) == 0) ||
	    (i - start == 3 && line[start] == '9' && line[start + 1] == '0' &&
	     line[start + 2] >= '0' && line[start + 2] <= '8'))
		return i;
	return 0;
}

static void
received(struct irc_net *n, int64_t now)
{
	size_t len = n->rxlen, cmd;
	char shown[4 * IRC_RX_MAX + 8];

	if (len > 0 && n->rx[len - 1] == '\r')
		len--;
	if (log_get_level() >= LOG_LEVEL_DEBUG) {
		cmd = sasl_command_end(n->rx, len);
		escape_line(shown, sizeof(shown), n->rx, cmd > 0 ? cmd : len);
		log_debug("irc %s: <- %s%s", n->cfg->network, shown,
		          cmd > 0 ? " (SASL: the rest not shown)" : "");
	}
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

static void
log_sent(const struct irc_net *n, const char *line, size_t len)
{
	const char *keys;
	char shown[4 * IRC_LINE_MAX + 8];

	if (log_get_level() < LOG_LEVEL_DEBUG)
		return;
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	/* Passwords, SASL payloads and channel keys never reach the log. */
	if (strncmp(line, "PASS ", 5) == 0 || (strncmp(line, "AUTHENTICATE ", 13) == 0 &&
	                                       strcmp(line, "AUTHENTICATE PLAIN\r\n") != 0))
		len = (size_t)(strchr(line, ' ') - line);
	if (strncmp(line, "PRIVMSG NickServ :", 18) == 0)
		len = 17; /* IDENTIFY and REGAIN carry the password */
	if (strncmp(line, "JOIN ", 5) == 0 && (keys = memchr(line + 5, ' ', len - 5)) != NULL) {
		escape_line(shown, sizeof(shown), line, (size_t)(keys - line));
		log_debug("irc %s: -> %s (keys not shown)", n->cfg->network, shown);
		return;
	}
	escape_line(shown, sizeof(shown), line, len);
	log_debug("irc %s: -> %s", n->cfg->network, shown);
}

/* Takes the lines that may go now: as they are, or encrypted into the
 * TLS session's output. Returns the plaintext bytes taken. */
static size_t
take_lines(struct irc_net *n, unsigned char *buf, size_t room, bool *more)
{
	char line[IRC_LINE_MAX + 1];
	size_t len = 0, k;
	int64_t now = now_ms(n);

	*more = false;
	if (!n->linked)
		return 0;
	while (len + IRC_LINE_MAX <= room) {
		k = irc_conn_pop(n->conn, now, line, sizeof(line));
		if (k == 0)
			return len;
		log_sent(n, line, k);
		if (n->tls != NULL)
			irc_tls_send(n->tls, line, k);
		else
			memcpy(buf + len, line, k);
		len += k;
	}
	*more = true;
	return len;
}

static int
write_ready(struct irc_net *n, struct lws *wsi)
{
	unsigned char buf[LWS_PRE + WRITE_MAX];
	size_t len;
	bool more;

	len = take_lines(n, buf + LWS_PRE, WRITE_MAX, &more);
	if (n->tls != NULL) {
		len = irc_tls_output(n->tls, buf + LWS_PRE, WRITE_MAX);
		more |= irc_tls_pending(n->tls) > 0;
	}
	if (len > 0 && lws_write(wsi, buf + LWS_PRE, len, LWS_WRITE_RAW) < (int)len) {
		log_warnx("irc %s: writing to the server failed", n->cfg->network);
		return -1;
	}
	if (more)
		lws_callback_on_writable(wsi); /* more is ready than one write took */
	check_drained(n);
	arm(n);
	return 0;
}

/* The link (and TLS, if any) is up: the session starts. */
static void
link_up(struct irc_net *n)
{
	n->linked = true;
	irc_conn_link_up(n->conn, now_ms(n));
}

static int
on_connected(struct irc_net *n, struct lws *wsi)
{
	char err[256];

	n->wsi = wsi;
	if (n->st == NS_STOPPING)
		return -1;
	n->st = NS_UP;
	if (n->ai != NULL) {
		uv_freeaddrinfo(n->ai);
		n->ai = n->ai_next = NULL;
	}
	if (!n->cfg->tls) {
		link_up(n);
		return 0;
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
		return -1;
	}
	n->handshake_by = now_ms(n) + HANDSHAKE_MS;
	lws_callback_on_writable(wsi); /* the ClientHello */
	arm(n);
	return 0;
}

static int
on_rx(struct irc_net *n, struct lws *wsi, const void *in, size_t len)
{
	char err[256];

	if (n->tls == NULL) {
		receive(n, in, len);
	} else {
		if (irc_tls_input(n->tls, in, len, receive, n, err, sizeof(err)) < 0) {
			log_warnx("irc %s: %s", n->cfg->network, err);
			return -1;
		}
		if (!n->linked && irc_tls_ready(n->tls))
			link_up(n);
		if (irc_tls_pending(n->tls) > 0)
			lws_callback_on_writable(wsi);
	}
	arm(n);
	return 0;
}

static int
callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct irc_net *n = lws_get_opaque_user_data(wsi);

	(void)user;
	if (n == NULL)
		return reason == LWS_CALLBACK_RAW_RX ? -1 : 0;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		/* One attempt at a time: an error while connecting is that
		 * attempt's (lws may have cleared n->wsi already). */
		if (n->st == NS_CONNECTING || n->st == NS_STOPPING)
			connect_failed(n, in != NULL ? (const char *)in : "connection failed");
		return 0;
	case LWS_CALLBACK_RAW_CONNECTED:
		if (n->st != NS_CONNECTING && n->st != NS_STOPPING)
			return -1;
		return on_connected(n, wsi);
	case LWS_CALLBACK_RAW_RX:
		return n->wsi == wsi ? on_rx(n, wsi, in, len) : -1;
	case LWS_CALLBACK_RAW_WRITEABLE:
		return n->wsi == wsi ? write_ready(n, wsi) : 0;
	case LWS_CALLBACK_RAW_CLOSE:
		if (n->wsi == wsi) {
			n->wsi = NULL;
			link_lost(n);
		}
		return 0;
	default:
		return 0;
	}
}

static const struct lws_protocols protocols[] = {
    {PROTOCOL, callback, 0, WRITE_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void
lws_log(int level, const char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == '\n')
		n--;
	if (level & LLL_ERR)
		log_warnx("libwebsockets: %.*s", (int)n, line);
	else
		log_debug("libwebsockets: %.*s", (int)n, line);
}

struct irc_lws *
irc_lws_new(uv_loop_t *loop)
{
	struct lws_context_creation_info info;
	void *loops[1] = {loop};
	struct irc_lws *x = xcalloc(1, sizeof(*x));

	memset(&info, 0, sizeof(info));
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.foreign_loops = loops;
	info.pcontext = &x->ctx;
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
	x->loop = loop;
	x->ctx = lws_create_context(&info);
	if (x->ctx == NULL) {
		log_warnx("irc: libwebsockets cannot start on the event loop");
		free(x);
		return NULL;
	}
	return x;
}

static void
reaped(uv_handle_t *h)
{
	free(h->data);
}

/*
 * On a foreign loop libwebsockets 4.1 destroys a context in two calls: the
 * first closes its libuv handles (their close callbacks run on the next
 * loop iterations); a second lws_context_destroy() once they are closed
 * frees the rest and clears info.pcontext. This timer keeps the loop
 * running through both.
 */
static void
reap(uv_timer_t *t)
{
	struct irc_lws *x = t->data;

	x->tries++;
	if (x->ctx != NULL && x->tries == REAP_SECOND)
		lws_context_destroy(x->ctx);
	if (x->ctx != NULL && x->tries < REAP_TRIES)
		return;
	if (x->ctx != NULL)
		log_warnx("irc: libwebsockets did not finish closing in %d ms",
		          REAP_MS * REAP_TRIES);
	uv_timer_stop(t);
	uv_close((uv_handle_t *)t, reaped);
}

void
irc_lws_destroy(struct irc_lws *x)
{
	if (x == NULL)
		return;
	lws_context_destroy(x->ctx);
	uv_timer_init(x->loop, &x->reap);
	x->reap.data = x;
	uv_timer_start(&x->reap, reap, 0, REAP_MS);
}

/* --- connecting --- */

static void
connect_next(struct irc_net *n)
{
	const struct config_irc *cfg = n->cfg;

	while (n->ai_next != NULL) {
		struct addrinfo *a = n->ai_next;
		struct lws_client_connect_info i;
		char ip[INET6_ADDRSTRLEN] = "";
		const void *addr =
		    a->ai_family == AF_INET6
		        ? (const void *)&((struct sockaddr_in6 *)a->ai_addr)->sin6_addr
		        : (const void *)&((struct sockaddr_in *)a->ai_addr)->sin_addr;

		n->ai_next = a->ai_next;
		if (inet_ntop(a->ai_family, addr, ip, sizeof(ip)) == NULL)
			continue;
		memset(&i, 0, sizeof(i));
		i.context = n->x->ctx;
		i.address = ip;
		i.port = cfg->port;
		i.host = cfg->host; /* SNI and the certificate check */
		i.origin = cfg->host;
		i.method = "RAW";
		i.protocol = PROTOCOL;
		i.local_protocol_name = PROTOCOL;
		i.opaque_user_data = n;
		/* No LCCSCF_USE_SSL: TLS runs in irc_tls over the raw link
		 * (libwebsockets 4.1.6 would start it before connecting). */
		log_info("irc %s: connecting to %s (%s) port %d%s", cfg->network, cfg->host, ip,
		         cfg->port,
		         cfg->tls ? (cfg->tls_verify ? " with TLS" : " with unverified TLS") : "");
		n->st = NS_CONNECTING;
		n->connecting_now = true;
		n->connect_failed = false;
		n->wsi = lws_client_connect_via_info(&i);
		n->connecting_now = false;
		if (n->wsi != NULL && !n->connect_failed)
			return; /* the callbacks go on from here */
		if (!n->connect_failed)
			log_warnx("irc %s: cannot connect to %s", cfg->network, ip);
		n->wsi = NULL;
		if (n->st == NS_STOPPING) {
			finish_stop(n);
			return;
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

	if (n->wsi != NULL && (n->st == NS_UP || n->st == NS_STOPPING))
		lws_callback_on_writable(n->wsi);
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

	switch (n->st) {
	case NS_WAITING:
		if (now >= n->reconnect_at)
			resolve(n);
		break;
	case NS_UP:
		if (!n->linked && now >= n->handshake_by) {
			log_warnx("irc %s: the TLS handshake did not finish within %d s",
			          n->cfg->network, HANDSHAKE_MS / 1000);
			kill_link(n);
			return;
		}
		irc_conn_tick(n->conn, now);
		if (n->wsi != NULL)
			lws_callback_on_writable(n->wsi);
		break;
	case NS_STOPPING:
		if (now >= n->kill_at) {
			finish_stop(n);
			return;
		}
		if (n->wsi != NULL)
			lws_callback_on_writable(n->wsi);
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

	switch (n->st) {
	case NS_WAITING:
		next = n->reconnect_at;
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
	if (next < 0) {
		uv_timer_stop(&n->timer);
		return;
	}
	/* At least 1 ms: a deadline that stayed due must not starve the loop. */
	uv_timer_start(&n->timer, on_timer, (uint64_t)(next > now ? next - now : 1), 0);
}

/* --- life cycle --- */

struct irc_net *
irc_net_new(struct irc_lws *x, struct dispatch *d, const struct config_irc *cfg,
            const struct irc_timing *t)
{
	struct irc_net *n = xcalloc(1, sizeof(*n));

	n->x = x;
	n->loop = x->loop;
	n->cfg = cfg;
	n->conn = irc_conn_new(cfg, t, &hooks, n);
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
	check_drained(n);
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
	if (n->wsi != NULL) {
		/* The link did not close in time: cut it, and make sure its
		 * callbacks no longer find this network. */
		lws_set_opaque_user_data(n->wsi, NULL);
		kill_link(n);
		n->wsi = NULL;
	}
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
	switch (was) {
	case NS_UP:
		irc_conn_quit(n->conn, why);
		arm(n);
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
	on_wake(n); /* the PARTs and JOINs wait in the queue */
}
