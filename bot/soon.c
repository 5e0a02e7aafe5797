/* soon: a callback before the loop next waits; see soon.h. */
#include "bot/soon.h"

static void
run(struct soon *s)
{
	soon_stop(s);
	s->cb(s);
}

static void
on_prepare(uv_prepare_t *h)
{
	run(h->data);
}

static void
on_idle(uv_idle_t *h)
{
	run(h->data);
}

void
soon_init(uv_loop_t *loop, struct soon *s, soon_cb cb, void *data)
{
	s->cb = cb;
	s->data = data;
	s->closed = NULL;
	s->open = 2;
	uv_prepare_init(loop, &s->prepare);
	s->prepare.data = s;
	uv_idle_init(loop, &s->idle);
	s->idle.data = s;
}

void
soon_start(struct soon *s)
{
	uv_prepare_start(&s->prepare, on_prepare);
	uv_idle_start(&s->idle, on_idle);
}

void
soon_stop(struct soon *s)
{
	uv_prepare_stop(&s->prepare);
	uv_idle_stop(&s->idle);
}

bool
soon_pending(const struct soon *s)
{
	return uv_is_active((const uv_handle_t *)&s->idle);
}

static void
on_closed(uv_handle_t *h)
{
	struct soon *s = h->data;

	if (--s->open == 0 && s->closed != NULL)
		s->closed(s);
}

void
soon_close(struct soon *s, soon_cb closed)
{
	s->closed = closed;
	uv_close((uv_handle_t *)&s->prepare, on_closed);
	uv_close((uv_handle_t *)&s->idle, on_closed);
}
