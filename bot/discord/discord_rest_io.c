/* discord_rest_io: libcurl's sockets and timer on the libuv loop; see
 * discord_rest_io.h. */
#include "bot/discord/discord_rest_io.h"

#include <stdlib.h>
#include <unistd.h>

#include "bot/discord/discord_rest_int.h"
#include "rules/base/mem.h"

static void
on_sock_closed(uv_handle_t *h)
{
	struct sock *s = h->data;
	struct rest *r = s->r;

	free(s);
	discord_rest__handle_closed(r);
}

static void
sock_close(struct rest *r, struct sock *s)
{
	if (s->prev != NULL)
		s->prev->next = s->next;
	else
		r->socks = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	uv_poll_stop(&s->poll);
	uv_close((uv_handle_t *)&s->poll, on_sock_closed);
}

static void
on_poll(uv_poll_t *h, int status, int events)
{
	struct sock *s = h->data;
	struct rest *r = s->r;
	int flags = 0, running;

	if (s->idle) {
		/* An idle connection became readable (the server closed it):
		 * stop polling it; curl finds it dead before any reuse. */
		uv_poll_stop(&s->poll);
		s->events = 0;
		return;
	}
	if (status < 0)
		flags = CURL_CSELECT_ERR;
	if (events & UV_READABLE)
		flags |= CURL_CSELECT_IN;
	if (events & UV_WRITABLE)
		flags |= CURL_CSELECT_OUT;
	curl_multi_socket_action(r->multi, s->fd, flags, &running);
	discord_rest__check_done(r);
}

static struct sock *
sock_find(struct rest *r, curl_socket_t fd)
{
	struct sock *s;

	for (s = r->socks; s != NULL && s->fd != fd; s = s->next)
		;
	return s;
}

/*
 * A connection's poll handle lives as long as its socket: when curl stops
 * watching a socket (its connection waits in the cache between requests)
 * the handle keeps its events and is only marked idle, so that the next
 * request on that connection costs no epoll_ctl; and it is started again
 * only when the events change (uv_poll_start always removes the socket
 * from epoll and adds it again: two system calls per request). It is
 * closed when curl closes the socket (discord_rest_io_close_socket).
 */
int
discord_rest_io_socket(CURL *e, curl_socket_t fd, int action, void *userp, void *socketp)
{
	struct rest *r = userp;
	struct sock *s = socketp;
	int events = 0;

	if (action == CURL_POLL_REMOVE) {
		if (s == NULL)
			s = sock_find(r, fd);
		if (s != NULL)
			s->idle = true;
		return 0;
	}
	if (s == NULL && (s = sock_find(r, fd)) != NULL) {
		curl_multi_assign(r->multi, fd, s);
	} else if (s == NULL) {
		s = xcalloc(1, sizeof(*s));
		s->fd = fd;
		s->r = r;
		if (uv_poll_init_socket(r->loop, &s->poll, fd) != 0) {
			free(s);
			return -1;
		}
		s->poll.data = s;
		r->open_handles++;
		s->next = r->socks;
		if (r->socks != NULL)
			r->socks->prev = s;
		r->socks = s;
		curl_multi_assign(r->multi, fd, s);
	}
	s->idle = false;
	if (action & CURL_POLL_IN)
		events |= UV_READABLE;
	if (action & CURL_POLL_OUT)
		events |= UV_WRITABLE;
	if (events != s->events) {
		uv_poll_start(&s->poll, events, on_poll);
		s->events = events;
	}
	return 0;
}

int
discord_rest_io_close_socket(void *clientp, curl_socket_t fd)
{
	struct rest *r = clientp;
	struct sock *s = sock_find(r, fd);

	if (s != NULL)
		sock_close(r, s);
	return close(fd);
}

static void
on_curl_timer(uv_timer_t *t)
{
	struct rest *r = t->data;
	int running;

	curl_multi_socket_action(r->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	discord_rest__check_done(r);
}

int
discord_rest_io_timer(CURLM *m, long timeout_ms, void *userp)
{
	struct rest *r = userp;

	if (timeout_ms < 0)
		uv_timer_stop(&r->curl_timer);
	else
		uv_timer_start(&r->curl_timer, on_curl_timer, (uint64_t)timeout_ms, 0);
	return 0;
}

void
discord_rest_io_close_socks(struct rest *r)
{
	while (r->socks != NULL)
		sock_close(r, r->socks);
}
