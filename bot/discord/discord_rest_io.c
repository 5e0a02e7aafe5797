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
	struct rest *r = s->io->r;

	free(s);
	discord_rest__handle_closed(r);
}

static void
sock_close(struct curlio *io, struct sock *s)
{
	if (s->prev != NULL)
		s->prev->next = s->next;
	else
		io->socks = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	uv_poll_stop(&s->poll);
	uv_close((uv_handle_t *)&s->poll, on_sock_closed);
}

static void
on_poll(uv_poll_t *h, int status, int events)
{
	struct sock *s = h->data;
	struct curlio *io = s->io;
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
	curl_multi_socket_action(io->multi, s->fd, flags, &running);
	io->check(io->r);
}

static struct sock *
sock_find(struct curlio *io, curl_socket_t fd)
{
	struct sock *s;

	for (s = io->socks; s != NULL && s->fd != fd; s = s->next)
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
	struct curlio *io = userp;
	struct sock *s = socketp;
	int events = 0;

	if (action == CURL_POLL_REMOVE) {
		if (s == NULL)
			s = sock_find(io, fd);
		if (s != NULL && io->keep_idle) {
			s->idle = true;
		} else if (s != NULL) {
			curl_multi_assign(io->multi, fd, NULL);
			sock_close(io, s);
		}
		return 0;
	}
	if (s == NULL && (s = sock_find(io, fd)) != NULL) {
		curl_multi_assign(io->multi, fd, s);
	} else if (s == NULL) {
		s = xcalloc(1, sizeof(*s));
		s->fd = fd;
		s->io = io;
		if (uv_poll_init_socket(io->r->loop, &s->poll, fd) != 0) {
			free(s);
			return -1;
		}
		s->poll.data = s;
		io->r->open_handles++;
		s->next = io->socks;
		if (io->socks != NULL)
			io->socks->prev = s;
		io->socks = s;
		curl_multi_assign(io->multi, fd, s);
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
	struct curlio *io = clientp;
	struct sock *s = sock_find(io, fd);

	if (s != NULL)
		sock_close(io, s);
	return close(fd);
}

static void
on_curl_timer(uv_timer_t *t)
{
	struct curlio *io = t->data;
	int running;

	curl_multi_socket_action(io->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	io->check(io->r);
}

int
discord_rest_io_timer(CURLM *m, long timeout_ms, void *userp)
{
	struct curlio *io = userp;

	if (timeout_ms < 0)
		uv_timer_stop(&io->timer);
	else
		uv_timer_start(&io->timer, on_curl_timer, (uint64_t)timeout_ms, 0);
	return 0;
}

void
discord_rest_io_close_socks(struct curlio *io)
{
	while (io->socks != NULL)
		sock_close(io, io->socks);
}
