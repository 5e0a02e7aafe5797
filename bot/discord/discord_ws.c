/* discord_ws: libwebsockets client on the uv loop; see discord_ws.h. */
#include "bot/discord/discord_ws.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/discord/discord_gw.h"
#include "bot/discord/discord_zlib.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define PROTOCOL     "discord-gw"
#define HOST_MAX     256
#define PATH_MAX_LEN 1024
#define RX_CHUNK     (64 * 1024)
/* The close opcode: what lws_close_reason() would send. Writing it in the
 * writeable callback is the way 4.1 reliably sends our own close code. */
#define WRITE_CLOSE  ((enum lws_write_protocol)4)
#define EVENTFDS_MAX 32 /* eventfds of the process looked at */
#define HELD_MAX     4  /* descriptor numbers held for libwebsockets */

struct discord_wsctx {
	uv_loop_t *loop;
	struct lws_context *ctx;
	bool tls_verify;
	bool down;          /* the first pass of the teardown was made */
	int held[HELD_MAX]; /* numbers held by a placeholder (hold()) */
	size_t nheld;
	dev_t null_rdev; /* what a placeholder is: /dev/null */
};

struct discord_ws {
	uv_loop_t *loop;
	struct discord_wsctx *x;
	struct discord_gw *g;
	uv_timer_t timer;
	bool timer_open;
	void (*on_down)(void *);
	void *down_ctx;

	/* the connection being made or open */
	uv_getaddrinfo_t dns;
	bool resolving;
	bool cancelled; /* discord_ws_close() during DNS */
	bool over;      /* this attempt's end was reported */
	bool killing;   /* discord_ws_close() is killing a connection in its handshake */
	struct lws *wsi;
	bool established;
	int close_code; /* ours, to send (0: none) */
	int peer_code;  /* theirs, from the close frame (-1: none) */
	char host[HOST_MAX];
	char path[PATH_MAX_LEN];
	int port;
	bool tls;

	struct buf rx;
	bool oversize;
	uint64_t rx_ns;
	struct discord_zlib *z; /* the connection's zlib stream, or NULL without compression */
	bool text_noted;        /* a text message on a compressed connection was logged */
};

static int64_t
now_ms(const struct discord_ws *w)
{
	uv_update_time(w->loop); /* the loop's cached time lags behind busy callbacks */
	return (int64_t)uv_now(w->loop);
}

static void
on_timer(uv_timer_t *t)
{
	struct discord_ws *w = t->data;

	if (w->g != NULL)
		discord_gw_tick(w->g, now_ms(w));
	discord_ws_rearm(w);
}

void
discord_ws_rearm(struct discord_ws *w)
{
	int64_t at, now = now_ms(w);

	if (w->g == NULL || !w->timer_open)
		return;
	at = discord_gw_next_wakeup(w->g, now);
	if (at == INT64_MAX) {
		uv_timer_stop(&w->timer);
		return;
	}
	/* At least 1 ms: a timer armed at 0 from inside its own callback
	 * would run again before the loop polls its sockets and signals. */
	uv_timer_start(&w->timer, on_timer, at > now ? (uint64_t)(at - now) : 1, 0);
}

/* The connection ended (or never began): tells the session. */
static void
ended(struct discord_ws *w, int code)
{
	w->over = true;
	w->wsi = NULL;
	w->established = false;
	w->close_code = 0;
	w->peer_code = -1;
	buf_reset(&w->rx);
	w->oversize = false;
	if (w->g != NULL)
		discord_gw_closed(w->g, code, now_ms(w));
	discord_ws_rearm(w);
}

/* A binary message with compression: part of the connection's zlib stream. */
static void
receive_compressed(struct discord_ws *w, struct lws *wsi, const char *in, size_t len)
{
	const char *payload;
	size_t n;

	discord_zlib_add(w->z, in, len);
	if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
		return;
	w->rx_ns = uv_hrtime();
	switch (discord_zlib_end(w->z)) {
	case DISCORD_ZLIB_PAYLOAD:
		payload = discord_zlib_payload(w->z, &n);
		discord_gw_message(w->g, payload, n, now_ms(w));
		break;
	case DISCORD_ZLIB_ERROR: /* once per connection: later input is dropped */
		discord_gw_abort(w->g, discord_zlib_why(w->z), now_ms(w));
		break;
	case DISCORD_ZLIB_MORE:
		break;
	}
}

/* A message in one or more pieces. With compression, Discord's messages
 * are binary; a text message is taken for plain JSON (as discord.py does),
 * leaving the zlib stream as it was. */
static void
receive(struct discord_ws *w, struct lws *wsi, const char *in, size_t len)
{
	if (w->z != NULL && lws_frame_is_binary(wsi)) {
		receive_compressed(w, wsi, in, len);
		return;
	}
	if (!w->oversize && buf_add(&w->rx, in, len) < 0) {
		w->oversize = true;
		buf_reset(&w->rx);
	}
	if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
		return;
	w->rx_ns = uv_hrtime();
	if (w->z != NULL && !w->text_noted) {
		w->text_noted = true;
		log_warnx("discord: the gateway sent a text message on a compressed connection; "
		          "reading it as plain JSON");
	}
	if (w->oversize) {
		char why[128];

		w->oversize = false;
		snprintf(why, sizeof(why), "the gateway sent a message over %u bytes",
		         DISCORD_WS_MESSAGE_MAX);
		discord_gw_abort(w->g, why, now_ms(w));
	} else {
		discord_gw_message(w->g, buf_str(&w->rx), w->rx.len, now_ms(w));
	}
	buf_reset(&w->rx);
}

static int
writeable(struct discord_ws *w, struct lws *wsi)
{
	unsigned char *buf;
	size_t len;
	char *frame;

	if (w->close_code != 0) {
		unsigned char cf[LWS_PRE + 2];

		cf[LWS_PRE] = (unsigned char)(w->close_code >> 8);
		cf[LWS_PRE + 1] = (unsigned char)(w->close_code & 0xff);
		lws_write(wsi, cf + LWS_PRE, 2, WRITE_CLOSE);
		return -1;
	}
	frame = discord_gw_next_frame(w->g, now_ms(w), &len);
	if (frame == NULL)
		return 0;
	buf = xmalloc(LWS_PRE + len);
	memcpy(buf + LWS_PRE, frame, len);
	free(frame);
	if (lws_write(wsi, buf + LWS_PRE, len, LWS_WRITE_TEXT) < (int)len) {
		free(buf);
		return -1;
	}
	free(buf);
	lws_callback_on_writable(wsi); /* there may be more */
	return 0;
}

static int
callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct discord_ws *w = lws_get_opaque_user_data(wsi);
	int r = 0;

	if (w == NULL || (wsi != w->wsi && reason != LWS_CALLBACK_CLIENT_CONNECTION_ERROR &&
	                  reason != LWS_CALLBACK_CLIENT_CLOSED))
		return 0;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		if (wsi != w->wsi && w->wsi != NULL)
			return 0;
		if (!w->killing)
			log_warnx("discord: cannot connect to the gateway at %s: %s", w->host,
			          in != NULL ? (const char *)in : "connection failed");
		ended(w, -1);
		return 0;
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		w->established = true;
		w->text_noted = false;
		if (w->z != NULL)
			discord_zlib_reset(w->z); /* one zlib stream per connection */
		discord_gw_opened(w->g, now_ms(w));
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		receive(w, wsi, in, len);
		break;
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		r = writeable(w, wsi);
		break;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (len >= 2)
			w->peer_code =
			    ((const unsigned char *)in)[0] << 8 | ((const unsigned char *)in)[1];
		break;
	case LWS_CALLBACK_CLIENT_CLOSED:
		if (wsi != w->wsi)
			return 0;
		ended(w, w->peer_code);
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		/* A connection killed before its handshake finished (discord_ws_close
		 * while connecting) ends without CLIENT_CLOSED. */
		if (wsi == w->wsi && !w->over)
			ended(w, -1);
		return 0;
	default:
		break;
	}
	discord_ws_rearm(w);
	return r;
}

static const struct lws_protocols protocols[] = {
    {PROTOCOL, callback, 0, RX_CHUNK, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void
lws_log(int level, const char *line)
{
	size_t n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	if (level & LLL_ERR)
		log_debug("libwebsockets: %.*s", (int)n, line);
}

struct discord_wsctx *
discord_wsctx_new(uv_loop_t *loop, bool tls_verify)
{
	struct discord_wsctx *x = xcalloc(1, sizeof(*x));
	struct lws_context_creation_info info;
	void *loops[1] = {loop};

	x->loop = loop;
	x->tls_verify = tls_verify;
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
	memset(&info, 0, sizeof(info));
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT |
	               LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN;
	info.foreign_loops = loops;
	info.pcontext = &x->ctx;
	x->ctx = lws_create_context(&info);
	if (x->ctx == NULL) {
		log_warnx("discord: libwebsockets cannot start on the event loop (is the "
		          "libwebsockets-evlib-uv package installed?)");
		free(x);
		return NULL;
	}
	return x;
}

/* Up to max numbers of the process's open eventfds (/proc/self/fd). */
static size_t
open_eventfds(int *fds, size_t max)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL && n < max) {
		char link[64], *end;
		long fd = strtol(e->d_name, &end, 10);
		ssize_t len;

		if (end == e->d_name || *end != '\0' || fd == dirfd(d))
			continue;
		len = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
		if (len < 0)
			continue;
		link[len] = '\0';
		if (strcmp(link, "anon_inode:[eventfd]") == 0)
			fds[n++] = (int)fd;
	}
	closedir(d);
	return n;
}

/* Takes the number fd, just closed, with a placeholder (/dev/null) that
 * libwebsockets' second close of it will close: F_DUPFD gives the lowest
 * free number from fd, so fd exactly when it is still free. */
static void
hold(struct discord_wsctx *x, int fd)
{
	int src = open("/dev/null", O_RDONLY | O_CLOEXEC), p;
	struct stat st;

	if (src < 0 || fstat(src, &st) < 0) {
		log_warnx("discord: cannot open /dev/null to hold descriptor %d: %s", fd,
		          strerror(errno));
		if (src >= 0)
			close(src);
		return;
	}
	x->null_rdev = st.st_rdev;
	p = src == fd ? src : fcntl(src, F_DUPFD_CLOEXEC, fd);
	if (p != src)
		close(src);
	if (p == fd && x->nheld < HELD_MAX) {
		x->held[x->nheld++] = fd;
		return;
	}
	if (p >= 0)
		close(p);
	log_warnx("discord: descriptor %d, which libwebsockets closes a second time, was reused "
	          "before it could be held",
	          fd);
}

/* After the teardown: a placeholder that libwebsockets did not close (a
 * version without the double close) is closed here, once. */
static void
release_held(struct discord_wsctx *x)
{
	for (size_t i = 0; i < x->nheld; i++) {
		struct stat st;

		if (fstat(x->held[i], &st) == 0 && S_ISCHR(st.st_mode) &&
		    st.st_rdev == x->null_rdev)
			close(x->held[i]);
	}
	x->nheld = 0;
}

/*
 * libwebsockets on a foreign loop destroys its context in two passes: the
 * first closes its loop handles (they live inside the context, so the loop
 * must finish closing them before anything frees it); the second, once the
 * loop has ended, frees the context. discord_wsctx_free() makes the second.
 *
 * The first pass of libwebsockets 4.1 closes its event pipe (an eventfd)
 * and closes the same number again when the pipe's poll handle has closed,
 * a loop iteration later. Whatever the process opened in between under
 * that number (a snapshot file, a database's descriptor) would be closed
 * under its owner's feet: so each eventfd the first pass closed is held at
 * once by a placeholder until that second close.
 */
void
discord_wsctx_shutdown(struct discord_wsctx *x)
{
	int before[EVENTFDS_MAX], after[EVENTFDS_MAX];
	size_t nb, na;

	if (x->ctx == NULL || x->down)
		return;
	x->down = true;
	nb = open_eventfds(before, EVENTFDS_MAX);
	lws_context_destroy(x->ctx);
	na = open_eventfds(after, EVENTFDS_MAX);
	for (size_t i = 0; i < nb; i++) {
		size_t j = 0;

		while (j < na && after[j] != before[i])
			j++;
		if (j == na)
			hold(x, before[i]);
	}
}

void
discord_wsctx_free(struct discord_wsctx *x)
{
	if (x == NULL)
		return;
	if (x->ctx != NULL && !x->down) {
		discord_wsctx_shutdown(x);
		uv_run(x->loop, UV_RUN_DEFAULT);
	}
	if (x->ctx != NULL) {
		lws_context_destroy(x->ctx); /* the second pass */
		uv_run(x->loop, UV_RUN_DEFAULT);
	}
	release_held(x);
	free(x);
}

struct discord_ws *
discord_ws_new(struct discord_wsctx *x, bool compress)
{
	struct discord_ws *w = xcalloc(1, sizeof(*w));

	w->loop = x->loop;
	w->x = x;
	w->peer_code = -1;
	buf_init(&w->rx, DISCORD_WS_MESSAGE_MAX);
	if (compress)
		w->z = discord_zlib_new(DISCORD_WS_MESSAGE_MAX, DISCORD_WS_MESSAGE_MAX);
	uv_timer_init(w->loop, &w->timer);
	w->timer.data = w;
	w->timer_open = true;
	return w;
}

void
discord_ws_attach(struct discord_ws *w, struct discord_gw *g)
{
	w->g = g;
}

/* Splits "wss://host[:port][/path]" into w's fields. */
static int
parse_url(struct discord_ws *w, const char *url)
{
	const char *p, *h, *slash, *colon;
	size_t hl;

	if (strncmp(url, "wss://", 6) == 0) {
		w->tls = true;
		w->port = 443;
		h = url + 6;
	} else if (strncmp(url, "ws://", 5) == 0) {
		w->tls = false;
		w->port = 80;
		h = url + 5;
	} else {
		return -1;
	}
	slash = h + strcspn(h, "/?");
	colon = memchr(h, ':', (size_t)(slash - h));
	hl = (size_t)((colon != NULL ? colon : slash) - h);
	if (hl == 0 || hl >= sizeof(w->host))
		return -1;
	memcpy(w->host, h, hl);
	w->host[hl] = '\0';
	if (colon != NULL) {
		char *end;
		long port = strtol(colon + 1, &end, 10);

		if (end != slash || port < 1 || port > 65535)
			return -1;
		w->port = (int)port;
	}
	p = *slash == '\0' ? "/" : slash;
	if (snprintf(w->path, sizeof(w->path), "%s%s", *p == '?' ? "/" : "", p) >=
	    (int)sizeof(w->path))
		return -1;
	return 0;
}

static void
on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	struct discord_ws *w = req->data;
	struct lws_client_connect_info ci;
	char ip[INET6_ADDRSTRLEN] = "";

	w->resolving = false;
	if (status == 0 && res != NULL) {
		const void *a =
		    res->ai_family == AF_INET6
		        ? (const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr
		        : (const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr;

		inet_ntop(res->ai_family, a, ip, sizeof(ip));
	}
	uv_freeaddrinfo(res);
	if (w->cancelled || w->x->ctx == NULL) {
		w->cancelled = false;
		ended(w, -1);
		return;
	}
	if (status != 0 || ip[0] == '\0') {
		log_warnx("discord: cannot resolve %s: %s", w->host,
		          status != 0 ? uv_strerror(status) : "no address");
		ended(w, -1);
		return;
	}
	memset(&ci, 0, sizeof(ci));
	ci.context = w->x->ctx;
	ci.opaque_user_data = w;
	ci.address = ip;
	ci.port = w->port;
	ci.path = w->path;
	ci.host = w->host;
	ci.origin = w->host;
	ci.local_protocol_name = PROTOCOL;
	ci.alpn = "http/1.1";
	ci.pwsi = &w->wsi;
	w->over = false;
	if (w->tls) {
		ci.ssl_connection = LCCSCF_USE_SSL;
		if (!w->x->tls_verify)
			ci.ssl_connection |= LCCSCF_ALLOW_SELFSIGNED |
			                     LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
			                     LCCSCF_ALLOW_EXPIRED | LCCSCF_ALLOW_INSECURE;
	}
	if (lws_client_connect_via_info(&ci) == NULL && !w->over) {
		/* lws failed at once without reporting it. */
		log_warnx("discord: cannot open a connection to %s", w->host);
		ended(w, -1);
	}
}

int
discord_ws_connect(struct discord_ws *w, const char *url)
{
	struct addrinfo hints;
	char port[8];

	if (w->x->ctx == NULL || w->wsi != NULL || w->resolving)
		return -1;
	if (parse_url(w, url) < 0) {
		log_warnx("discord: the gateway URL is not a ws:// or wss:// URL");
		return -1;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%d", w->port);
	w->dns.data = w;
	w->cancelled = false;
	w->peer_code = -1;
	if (uv_getaddrinfo(w->loop, &w->dns, on_resolved, w->host, port, &hints) != 0)
		return -1;
	w->resolving = true;
	return 0;
}

void
discord_ws_close(struct discord_ws *w, int code)
{
	if (w->resolving) {
		w->cancelled = true;
		uv_cancel((uv_req_t *)&w->dns);
		return;
	}
	if (w->wsi == NULL)
		return;
	if (!w->established) {
		struct lws *wsi = w->wsi;

		/* Still in its handshake: killed at once (an asynchronous kill
		 * let a silent server hold the stop for seconds). */
		w->killing = true;
		lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
		w->killing = false;
		if (!w->over)
			ended(w, -1);
		return;
	}
	w->close_code = code;
	lws_callback_on_writable(w->wsi);
}

void
discord_ws_want_write(struct discord_ws *w)
{
	if (w->wsi != NULL && w->established)
		lws_callback_on_writable(w->wsi);
}

uint64_t
discord_ws_rx_ns(const struct discord_ws *w)
{
	return w->rx_ns;
}

bool
discord_ws_busy(const struct discord_ws *w)
{
	return w->wsi != NULL || w->resolving;
}

static void
on_timer_closed(uv_handle_t *h)
{
	struct discord_ws *w = h->data;

	if (w->on_down != NULL)
		w->on_down(w->down_ctx);
}

void
discord_ws_shutdown(struct discord_ws *w, void (*on_down)(void *ctx), void *ctx)
{
	w->g = NULL;
	w->on_down = on_down;
	w->down_ctx = ctx;
	if (w->resolving) {
		w->cancelled = true;
		uv_cancel((uv_req_t *)&w->dns);
	}
	if (w->timer_open) {
		w->timer_open = false;
		uv_close((uv_handle_t *)&w->timer, on_timer_closed);
	}
}

void
discord_ws_free(struct discord_ws *w)
{
	if (w == NULL)
		return;
	buf_free(&w->rx);
	discord_zlib_free(w->z);
	free(w);
}
