/*
 * soon: a callback the loop runs once, after its caller returned and before
 * the loop next waits for events.
 *
 * A uv_idle alone runs in the loop's next turn, whose poll then returns at
 * once: asked for after the turn's timers (from an idle callback, where
 * persist commits and answers), that is a turn and an epoll_wait the loop
 * would not otherwise make. soon runs before the poll of the turn it was
 * asked for in (a uv_prepare) when asked before that turn's prepare phase,
 * or from another soon's callback run in that phase (each soon at most once
 * in it); asked later (from another prepare, the poll or a check callback,
 * or again from its own callback), it runs in the next turn, before that
 * turn's poll, and its uv_idle keeps this turn's poll from waiting when it
 * was asked for in the prepare phase.
 *
 * Ownership: the caller holds the struct (embedded where it is used) from
 * soon_init until soon_close's callback.
 */
#ifndef DELVER_SOON_H
#define DELVER_SOON_H

#include <stdbool.h>

#include <uv.h>

struct soon;
typedef void (*soon_cb)(struct soon *s);

struct soon {
	uv_prepare_t prepare;
	uv_idle_t idle;
	soon_cb cb;
	void *data; /* the caller's */
	soon_cb closed;
	int open; /* handles not closed yet */
	/* soon.c's: asked for while a soon ran from the prepare phase */
	struct soon *asked_next;
	bool queued;
	unsigned ran_in;
};

/* Makes s idle on loop: cb runs once after each soon_start. */
void soon_init(uv_loop_t *loop, struct soon *s, soon_cb cb, void *data);
/* Asks for cb; asked again before it ran, it still runs once. */
void soon_start(struct soon *s);
/* Takes back a soon_start whose cb has not run. */
void soon_stop(struct soon *s);
/* Whether cb is asked for and has not run. */
bool soon_pending(const struct soon *s);
/* Closes s (a pending cb does not run); closed runs from the loop once s
 * may be freed. */
void soon_close(struct soon *s, soon_cb closed);

#endif
