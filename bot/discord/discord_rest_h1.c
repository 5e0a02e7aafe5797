/* discord_rest_h1: interaction callbacks on connections of our own; see
 * discord_rest_h1.h. */
#include "bot/discord/discord_rest_h1.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_rest_curl.h"
#include "bot/discord/discord_rest_h1_answer.h"
#include "bot/discord/discord_rest_int.h"
#include "bot/discord/discord_rest_wire.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/num.h"

enum conn_state {
	CONNECTING,
	IDLE,
	BUSY
};

struct conn {
	struct h1 *h;
	struct rest *r; /* h's (h may be gone when poll's close callback runs) */
	struct conn *prev, *next;
	CURL *easy; /* connect-only, in r->connect_io.multi: it owns the socket */
	uv_poll_t poll;
	bool polling; /* poll is initialised (counted among r's open handles) */
	int events;   /* what poll watches */
	bool reused;  /* it carried an answer before the request on it now */
	enum conn_state state;
	struct req *q;  /* the request on it (CONNECTING, BUSY) */
	struct buf out; /* the request's bytes; off of them went out */
	size_t off;
	uint64_t deadline; /* uv_now() past which the answer is too late */
	/* While CONNECTING with q: the uv_now() at which q leaves for libcurl. */
	uint64_t slow_at;
	size_t got; /* bytes of the answer read */
	struct discord_rest_h1_answer a;
};

struct h1 {
	struct rest *r;
	struct conn *conns;
	int nconns, max;
	char *host;         /* "Host: ...\r\n" as libcurl writes it */
	char *fixed;        /* the headers after Host, before Content-Length */
	uv_timer_t timer;   /* the earliest deadline of a busy connection or a waiter */
	uint64_t timer_due; /* its uv_now(), while it runs */
	struct req *wait_head, *wait_tail; /* waiting for a connection, oldest first */
	int nwait;
	bool closing;
};

static void conn_close(struct conn *c);
static void conn_pump(struct conn *c);
static void compose(struct conn *c);
static void on_poll(uv_poll_t *hd, int status, int events);
static void on_timer(uv_timer_t *t);
static void check_connected(struct rest *r);
static void serve(struct h1 *h);

/* A request compose() writes as libcurl would, when the road is open: a
 * POST or PATCH with a small body on a route the interaction's token
 * authorises (its headers are the same for every such route). */
bool
discord_rest_h1_wants(const struct rest *r, const struct req *q)
{
	return r->h1 != NULL && q->token_route &&
	       (strcmp(q->method, "POST") == 0 || strcmp(q->method, "PATCH") == 0) &&
	       q->body != NULL && q->body_len <= DISCORD_REST_WIRE_EXPECT_THRESHOLD &&
	       q->target != NULL && q->target[0] == '/';
}

static void
on_poll_closed(uv_handle_t *hd)
{
	struct conn *c = hd->data;
	struct rest *r = c->r;

	free(c);
	discord_rest__handle_closed(r);
}

static void
on_timer_closed(uv_handle_t *hd)
{
	struct h1 *h = hd->data;
	struct rest *r = h->r;

	free(h->host);
	free(h->fixed);
	free(h);
	discord_rest__handle_closed(r);
}

/* h's timer runs at due (a uv_now()) or earlier. */
static void
arm(struct h1 *h, uint64_t due)
{
	uint64_t now = uv_now(h->r->loop);

	if (uv_is_active((uv_handle_t *)&h->timer) && h->timer_due <= due)
		return;
	h->timer_due = due;
	uv_timer_start(&h->timer, on_timer, due > now ? due - now : 0, 0);
}

static void
watch(struct conn *c, int events)
{
	if (events != c->events) {
		uv_poll_start(&c->poll, events, on_poll);
		c->events = events;
	}
}

/* The request on c is over: c goes idle (keep) or closes, then q's answer
 * is taken, then those waiting go on. Nothing of c is touched after. */
static void
conn_done(struct conn *c, bool keep, long status, CURLcode rc)
{
	struct h1 *h = c->h;
	struct rest *r = h->r;
	struct req *q = c->q;
	char *lb = c->a.long_bucket;

	c->q = NULL;
	c->a.long_bucket = NULL;
	r->nh1--;
	buf_reset(&c->out);
	if (keep) {
		c->state = IDLE;
		c->reused = true;
		watch(c, UV_READABLE);
	} else {
		conn_close(c);
	}
	if (status != 0 && (q->flags & REST_CALLBACK))
		discord_opstats_add(OPSTATS_CALLBACKS_OWN);
	discord_rest__done(r, q, status, rc, lb);
	free(lb);
	/* The connection freed goes to the oldest waiter: a request that q's
	 * callback made waits behind them (discord_rest_h1_send). */
	serve(h);
}

/* An idle connection of h, or NULL. */
static struct conn *
idle(struct h1 *h)
{
	struct conn *c;

	for (c = h->conns; c != NULL && c->state != IDLE; c = c->next)
		;
	return c;
}

/* Whether a request would go on a connection at once. */
static bool
room(struct h1 *h)
{
	return !h->closing && (h->nconns < h->max || idle(h) != NULL);
}

/* When q, on a connection still connecting, leaves it for libcurl:
 * DISCORD_REST_H1_SLOW_MS from now, or sooner when its deadline would leave
 * less than DISCORD_REST_H1_WAIT_MS then (see discord_rest_h1.h). */
static uint64_t
slow_at(const struct h1 *h, const struct req *q)
{
	uint64_t now = uv_now(h->r->loop), now_ns, left_ms;

	if (q->deadline_ns == 0)
		return now + DISCORD_REST_H1_SLOW_MS;
	now_ns = uv_hrtime();
	left_ms = q->deadline_ns > now_ns ? (q->deadline_ns - now_ns) / 1000000u : 0;
	if (left_ms >= DISCORD_REST_H1_SLOW_MS + DISCORD_REST_H1_WAIT_MS)
		return now + DISCORD_REST_H1_SLOW_MS;
	return now + (left_ms > DISCORD_REST_H1_WAIT_MS ? left_ms - DISCORD_REST_H1_WAIT_MS : 0);
}

/* q goes on a connection: an idle one, else a new one; false when none
 * can take it. */
static bool
take(struct h1 *h, struct req *q)
{
	struct rest *r = h->r;
	struct conn *c = idle(h);

	if (c == NULL) {
		if (h->nconns >= h->max || h->closing)
			return false;
		c = xcalloc(1, sizeof(*c));
		c->h = h;
		c->r = r;
		c->easy = curl_easy_init();
		if (c->easy == NULL)
			log_fatalx("libcurl cannot make a handle");
		discord_rest_curl_conn_opts(r, c->easy, &r->connect_io);
		curl_easy_setopt(c->easy, CURLOPT_CURLU, r->base);
		curl_easy_setopt(c->easy, CURLOPT_CONNECT_ONLY, 1L);
		curl_easy_setopt(c->easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
		curl_easy_setopt(c->easy, CURLOPT_PRIVATE, c);
		buf_init(&c->out, 2 * DISCORD_REST_WIRE_EXPECT_THRESHOLD);
		discord_rest_h1_answer_init(&c->a);
		c->state = CONNECTING;
		c->next = h->conns;
		if (h->conns != NULL)
			h->conns->prev = c;
		h->conns = c;
		h->nconns++;
		c->q = q;
		r->nh1++;
		c->slow_at = slow_at(h, q);
		arm(h, c->slow_at);
		curl_multi_add_handle(r->connect_io.multi, c->easy);
		return true;
	}
	c->q = q;
	c->state = BUSY;
	r->nh1++;
	compose(c);
	conn_pump(c); /* may close c, and give q to another connection */
	return true;
}

/* The oldest waiter leaves the line (counted on libcurl's side then, if
 * it goes there). */
static struct req *
wait_pop(struct h1 *h)
{
	struct req *q = h->wait_head;

	h->wait_head = q->h1_next;
	if (h->wait_head == NULL)
		h->wait_tail = NULL;
	q->h1_next = NULL;
	h->nwait--;
	h->r->nh1--;
	return q;
}

/* Whether q may wait for a connection (see discord_rest_h1.h); then it
 * does. */
static bool
wait_push(struct h1 *h, struct req *q)
{
	uint64_t wait_ns = (uint64_t)DISCORD_REST_H1_WAIT_MS * 1000000u;

	if (h->closing || h->nwait >= DISCORD_REST_H1_WAITERS ||
	    (q->deadline_ns != 0 && q->deadline_ns - q->sent_ns < 2 * wait_ns))
		return false;
	q->h1_next = NULL;
	q->h1_until = uv_now(h->r->loop) + DISCORD_REST_H1_WAIT_MS;
	if (h->wait_tail != NULL)
		h->wait_tail->h1_next = q;
	else
		h->wait_head = q;
	h->wait_tail = q;
	h->nwait++;
	h->r->nh1++;
	arm(h, q->h1_until);
	return true;
}

/* Those waiting go on the connections free, oldest first. */
static void
serve(struct h1 *h)
{
	struct rest *r = h->r;

	while (h->wait_head != NULL && room(h)) {
		struct req *q = wait_pop(h);

		if (!discord_rest__sending(r, q)) {
			q->expired = true;
			discord_rest__done(r, q, 0, CURLE_ABORTED_BY_CALLBACK, NULL);
			continue;
		}
		take(h, q);
	}
}

/* Every waiter goes through libcurl. */
static void
spill_waiting(struct h1 *h)
{
	while (h->wait_head != NULL)
		discord_rest_curl_spill(h->r, wait_pop(h));
}

bool
discord_rest_h1_send(struct h1 *h, struct req *q)
{
	/* One past its deadline goes to libcurl, which drops it from the loop
	 * (no request's callback runs inside the call that made it). */
	if (!discord_rest__sending(h->r, q))
		return false;
	if (h->wait_head == NULL && take(h, q))
		return true;
	/* Only callbacks wait: the others are not the ones Discord times. */
	return (q->flags & REST_CALLBACK) && wait_push(h, q);
}

/* The request's bytes, as libcurl 7.88 writes them with the options
 * discord_rest gives it (checked by test_discord_rest). */
static void
compose(struct conn *c)
{
	struct h1 *h = c->h;
	struct req *q = c->q;
	char length[NUM_TEXT_MAX];

	buf_reset(&c->out);
	buf_adds(&c->out, q->method);
	buf_addc(&c->out, ' ');
	buf_adds(&c->out, q->target);
	buf_adds(&c->out, " HTTP/1.1\r\n");
	buf_adds(&c->out, h->host);
	buf_adds(&c->out, h->fixed);
	buf_adds(&c->out, "Content-Length: ");
	buf_add(&c->out, length, num_text((long long)q->body_len, length));
	buf_adds(&c->out, "\r\n\r\n");
	buf_add(&c->out, q->body, q->body_len);
	c->off = 0;
	c->got = 0;
	discord_rest_h1_answer_begin(&c->a, &q->hd, &q->resp);
	c->deadline = uv_now(h->r->loop) + h->r->timeout_ms;
	arm(h, c->deadline);
}

/* The request on c failed before any byte of its answer came, on a kept
 * connection the server may have closed meanwhile: once, it goes on
 * another connection (or through libcurl); false when it is not the
 * case. c is closed either way when true. */
static bool
again(struct conn *c)
{
	struct h1 *h = c->h;
	struct rest *r = h->r;
	struct req *q = c->q;

	if (!c->reused || c->got > 0 || q->h1_again)
		return false;
	q->h1_again = true;
	c->q = NULL;
	r->nh1--;
	conn_close(c);
	if (!discord_rest__sending(r, q)) /* never sent late: expired */
		discord_rest__done(r, q, 0, CURLE_ABORTED_BY_CALLBACK, NULL);
	else if (!take(h, q))
		discord_rest_curl_spill(r, q);
	return true;
}

/* Reads what the server sent; answers end here. */
static void
conn_read(struct conn *c)
{
	struct h1 *h = c->h;
	char in[16384];

	for (;;) {
		size_t n = 0, used;
		CURLcode rc = curl_easy_recv(c->easy, in, sizeof(in), &n);

		if (rc == CURLE_AGAIN)
			return; /* (TLS records that carry no data: tickets) */
		if (c->state == IDLE) {
			/* Closed by the server, or bytes no request asked for:
			 * either way the connection is no use. */
			conn_close(c);
			serve(h);
			return;
		}
		if (rc != CURLE_OK || (n == 0 && c->got == 0)) {
			if (again(c))
				return;
			conn_done(c, false, 0, rc != CURLE_OK ? rc : CURLE_GOT_NOTHING);
			return;
		}
		c->got += n;
		switch (discord_rest_h1_answer_read(&c->a, in, n, &used)) {
		case DISCORD_REST_H1_MORE:
			continue;
		case DISCORD_REST_H1_DONE:
			conn_done(c, n > 0 && used == n && discord_rest_h1_answer_keep(&c->a),
			          c->a.status, CURLE_OK);
			return;
		case DISCORD_REST_H1_TOO_BIG:
			conn_done(c, false, 0, CURLE_WRITE_ERROR);
			return;
		case DISCORD_REST_H1_CUT:
			conn_done(c, false, 0, CURLE_PARTIAL_FILE);
			return;
		case DISCORD_REST_H1_BAD:
			conn_done(c, false, 0, CURLE_WEIRD_SERVER_REPLY);
			return;
		}
	}
}

/* Sends what is left of the request on c, then waits for the answer. */
static void
conn_pump(struct conn *c)
{
	while (c->off < c->out.len) {
		size_t n = 0;
		CURLcode rc = curl_easy_send(c->easy, c->out.p + c->off, c->out.len - c->off, &n);

		if (rc == CURLE_AGAIN) {
			watch(c, UV_READABLE | UV_WRITABLE);
			return;
		}
		if (rc != CURLE_OK) {
			if (c->off == 0 && again(c))
				return;
			conn_done(c, false, 0, rc);
			return;
		}
		c->off += n;
	}
	watch(c, UV_READABLE);
}

static void
on_poll(uv_poll_t *hd, int status, int events)
{
	struct conn *c = hd->data;

	if (c->state == BUSY && c->off < c->out.len && (events & UV_WRITABLE)) {
		conn_pump(c);
		return;
	}
	if (status < 0 || (events & UV_READABLE))
		conn_read(c);
}

/* The connections libcurl made, or could not make. */
static void
check_connected(struct rest *r)
{
	CURLMsg *m;
	int left;

	while ((m = curl_multi_info_read(r->connect_io.multi, &left)) != NULL) {
		struct conn *c = NULL;
		struct h1 *h;
		curl_socket_t fd = CURL_SOCKET_BAD;
		struct req *q;
		CURLcode rc; /* (m is the handle's: gone with it) */

		if (m->msg != CURLMSG_DONE)
			continue;
		rc = m->data.result;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&c);
		q = c->q;
		h = c->h;
		if (rc == CURLE_OK &&
		    curl_easy_getinfo(c->easy, CURLINFO_ACTIVESOCKET, &fd) == CURLE_OK &&
		    fd != CURL_SOCKET_BAD && uv_poll_init_socket(r->loop, &c->poll, fd) == 0) {
			c->poll.data = c;
			c->polling = true;
			r->open_handles++;
			c->state = BUSY;
			uv_poll_start(&c->poll, UV_READABLE, on_poll);
			c->events = UV_READABLE;
			if (q == NULL) { /* its request left it, slow: kept for the next */
				c->state = IDLE;
				serve(h);
				continue;
			}
			if (!discord_rest__sending(r, q)) {
				c->q = NULL;
				r->nh1--;
				c->state = IDLE;
				discord_rest__done(r, q, 0, CURLE_ABORTED_BY_CALLBACK, NULL);
				serve(h);
				continue;
			}
			compose(c);
			conn_pump(c);
			continue;
		}
		/* libcurl says why when it tries the same: the request goes
		 * there, with its retries and their log lines. Those waiting
		 * go too when the connection was refused (the road cannot
		 * connect now); one that stalled until its timeout concerns
		 * none but its own request: they go on other connections. */
		conn_close(c);
		if (q != NULL) {
			r->nh1--;
			discord_rest_curl_spill(r, q);
		}
		if (rc == CURLE_OPERATION_TIMEDOUT)
			serve(h);
		else
			spill_waiting(h);
	}
}

static void
on_timer(uv_timer_t *t)
{
	struct h1 *h = t->data;
	uint64_t now = uv_now(h->r->loop), next = UINT64_MAX;
	struct conn *c, *nx;

	while (h->wait_head != NULL && h->wait_head->h1_until <= now)
		discord_rest_curl_spill(h->r, wait_pop(h));
	for (c = h->conns; c != NULL; c = nx) {
		nx = c->next;
		if (c->state == CONNECTING && c->q != NULL) {
			if (c->slow_at <= now) { /* q goes; c goes on connecting */
				struct req *q = c->q;

				c->q = NULL;
				h->r->nh1--;
				discord_rest_curl_spill(h->r, q);
			} else if (c->slow_at < next) {
				next = c->slow_at;
			}
			continue;
		}
		if (c->state != BUSY)
			continue;
		if (c->deadline <= now) {
			conn_done(c, false, 0, CURLE_OPERATION_TIMEDOUT);
			nx = h->conns; /* the list may have changed: look again */
			continue;
		}
		if (c->deadline < next)
			next = c->deadline;
	}
	if (h->wait_head != NULL && h->wait_head->h1_until < next)
		next = h->wait_head->h1_until;
	if (next != UINT64_MAX)
		arm(h, next);
}

/* "Host: ...\r\n" for the base URL, as libcurl writes it: the port only
 * when it is not the scheme's own. */
static char *
host_line(CURLU *base)
{
	char *host = NULL, *port = NULL, *scheme = NULL, *out;
	struct buf b;
	bool dflt;

	curl_url_get(base, CURLUPART_HOST, &host, 0);
	curl_url_get(base, CURLUPART_PORT, &port, 0);
	curl_url_get(base, CURLUPART_SCHEME, &scheme, 0);
	dflt = port == NULL ||
	       (scheme != NULL && ((strcmp(scheme, "https") == 0 && strcmp(port, "443") == 0) ||
	                           (strcmp(scheme, "http") == 0 && strcmp(port, "80") == 0)));
	buf_init(&b, 4096);
	buf_addf(&b, "Host: %s%s%s\r\n", host != NULL ? host : "", dflt ? "" : ":",
	         dflt ? "" : port);
	out = buf_take(&b);
	curl_free(host);
	curl_free(port);
	curl_free(scheme);
	return out;
}

struct h1 *
discord_rest_h1_new(struct rest *r, int conns)
{
	struct h1 *h;
	struct buf b;

	char *scheme = NULL;
	bool web;

	if (conns <= 0 || r->base == NULL || r->origin != NULL)
		return NULL;
	web = curl_url_get(r->base, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	      (strcmp(scheme, "https") == 0 || strcmp(scheme, "http") == 0);
	curl_free(scheme);
	if (!web)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->r = r;
	h->max = conns;
	h->host = host_line(r->base);
	/* The headers libcurl sends of the list for a JSON body on a route the
	 * interaction's token authorises: an empty one ("Accept:") only
	 * removes libcurl's own. */
	buf_init(&b, 4096);
	for (struct curl_slist *l = r->hdr_body[1]; l != NULL; l = l->next) {
		size_t n = strlen(l->data);

		if (n > 0 && l->data[n - 1] == ':')
			continue;
		buf_adds(&b, l->data);
		buf_adds(&b, "\r\n");
	}
	h->fixed = buf_take(&b);
	r->connect_io.check = check_connected;
	uv_timer_init(r->loop, &h->timer);
	h->timer.data = h;
	r->open_handles++;
	return h;
}

static void
conn_close(struct conn *c)
{
	struct h1 *h = c->h;
	struct rest *r = h->r;
	curl_socket_t fd = CURL_SOCKET_BAD;

	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		h->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	h->nconns--;
	/* libcurl only marks a connect-only connection for closing when its
	 * handle goes; shut, it is found dead and closed at its next look. */
	if (c->state != CONNECTING &&
	    curl_easy_getinfo(c->easy, CURLINFO_ACTIVESOCKET, &fd) == CURLE_OK &&
	    fd != CURL_SOCKET_BAD)
		shutdown(fd, SHUT_RDWR);
	if (c->polling)
		uv_close((uv_handle_t *)&c->poll, on_poll_closed);
	curl_multi_remove_handle(r->connect_io.multi, c->easy);
	curl_easy_cleanup(c->easy);
	buf_free(&c->out);
	discord_rest_h1_answer_free(&c->a);
	if (!c->polling)
		free(c);
}

void
discord_rest_h1_close(struct h1 *h)
{
	if (h == NULL)
		return;
	h->closing = true;
	while (h->wait_head != NULL)
		wait_pop(h);
	while (h->conns != NULL) {
		if (h->conns->q != NULL) {
			h->conns->q = NULL;
			h->r->nh1--;
		}
		conn_close(h->conns);
	}
	uv_timer_stop(&h->timer);
	uv_close((uv_handle_t *)&h->timer, on_timer_closed);
}

int
discord_rest_h1_waiting(const struct h1 *h)
{
	return h != NULL ? h->nwait : 0;
}
