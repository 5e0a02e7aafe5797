/* soon: a callback before the loop next waits; see soon.h. */
#include "bot/soon.h"

/* The loop whose prepare phase runs a soon's callback, and the number of
 * that run; the soons asked for meanwhile (their prepares would wait for the
 * loop's next turn), in the order asked. */
static _Thread_local uv_loop_t *draining;
static _Thread_local unsigned drain_no;
static _Thread_local struct soon *asked, *asked_last;

static void
run(struct soon *s)
{
	soon_stop(s);
	s->cb(s);
}

/* Runs s, then every soon asked for while it or the others ran, each once:
 * one asked again after it ran here waits for the loop's next turn. */
static void
on_prepare(uv_prepare_t *h)
{
	struct soon *s = h->data;

	draining = h->loop;
	s->ran_in = ++drain_no;
	run(s);
	while (asked != NULL) {
		struct soon *a = asked;

		asked = a->asked_next;
		a->queued = false;
		if (soon_pending(a) && a->ran_in != drain_no) {
			a->ran_in = drain_no;
			run(a);
		}
	}
	draining = NULL;
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
	s->asked_next = NULL;
	s->queued = false;
	s->ran_in = 0;
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
	if (draining == s->prepare.loop && !s->queued && s->ran_in != drain_no) {
		s->queued = true;
		s->asked_next = NULL;
		if (asked == NULL)
			asked = s;
		else
			asked_last->asked_next = s;
		asked_last = s;
	}
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
