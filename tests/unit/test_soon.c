/* Unit tests for bot/soon: once, after the caller returned, and never at the
 * cost of a poll that waits or of a turn of its own. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include <uv.h>

#include "bot/soon.h"

struct t {
	struct soon s;
	int runs;
	bool asker_returned; /* the callback that asked for s is over */
	bool ran_after;      /* every run came after it */
	bool closed;
	int ask_times;
	struct t *next; /* asked for by this one's callback (on_soon_asking) */
	int again;      /* times on_soon_asking asks for its own soon again */
};

static void
on_soon(struct soon *s)
{
	struct t *t = s->data;

	t->runs++;
	t->ran_after = t->asker_returned;
}

static void
ask(struct t *t)
{
	t->asker_returned = false;
	for (int i = 0; i < t->ask_times; i++)
		soon_start(&t->s);
	t->asker_returned = true;
}

/* Runs as on_soon, then asks for t->next's soon, and for its own again
 * while t->again lasts. */
static void
on_soon_asking(struct soon *s)
{
	struct t *t = s->data;

	on_soon(s);
	if (t->next != NULL)
		ask(t->next);
	if (t->again > 0) {
		t->again--;
		soon_start(&t->s);
	}
}

static void
ask_from_idle(uv_idle_t *h)
{
	uv_idle_stop(h);
	ask(h->data);
}

static void
ask_from_prepare(uv_prepare_t *h)
{
	uv_prepare_stop(h);
	ask(h->data);
}

static void
too_late(uv_timer_t *h)
{
	(void)h;
	fail_msg("the loop waited in its poll with a soon callback due");
}

static void
on_closed(struct soon *s)
{
	((struct t *)s->data)->closed = true;
}

static void
finish(uv_loop_t *loop, struct t *t)
{
	soon_close(&t->s, on_closed);
	uv_run(loop, UV_RUN_DEFAULT);
	assert_true(t->closed);
	assert_int_equal(uv_loop_close(loop), 0);
}

/* Asked from an idle callback (where persist commits and answers), it runs
 * in the same turn: one uv_run(UV_RUN_NOWAIT) runs both; asked twice, once. */
static void
test_asked_from_an_idle_callback_runs_in_that_turn(void **state)
{
	uv_loop_t loop;
	uv_idle_t asker;
	struct t t = {.ask_times = 2};

	(void)state;
	uv_loop_init(&loop);
	soon_init(&loop, &t.s, on_soon, &t);
	uv_idle_init(&loop, &asker);
	asker.data = &t;
	uv_idle_start(&asker, ask_from_idle);
	uv_run(&loop, UV_RUN_NOWAIT);
	assert_int_equal(t.runs, 1);
	assert_true(t.ran_after);
	assert_false(soon_pending(&t.s));
	uv_run(&loop, UV_RUN_NOWAIT);
	assert_int_equal(t.runs, 1);
	uv_close((uv_handle_t *)&asker, NULL);
	finish(&loop, &t);
}

/* Asked from a prepare callback (after that turn's prepare phase began), it
 * runs in the next turn, and this turn's poll does not wait for the timer
 * that would otherwise end it (which fails the test). */
static void
test_asked_from_a_prepare_callback_keeps_the_poll_from_waiting(void **state)
{
	uv_loop_t loop;
	uv_prepare_t asker;
	uv_timer_t timer;
	struct t t = {.ask_times = 1};

	(void)state;
	uv_loop_init(&loop);
	soon_init(&loop, &t.s, on_soon, &t);
	uv_prepare_init(&loop, &asker);
	asker.data = &t;
	uv_prepare_start(&asker, ask_from_prepare);
	uv_timer_init(&loop, &timer);
	uv_timer_start(&timer, too_late, 10000, 0);
	uv_run(&loop, UV_RUN_ONCE);
	assert_true(soon_pending(&t.s));
	assert_int_equal(t.runs, 0);
	uv_run(&loop, UV_RUN_ONCE);
	assert_int_equal(t.runs, 1);
	assert_true(t.ran_after);
	uv_close((uv_handle_t *)&asker, NULL);
	uv_close((uv_handle_t *)&timer, NULL);
	finish(&loop, &t);
}

/* Stopped, or closed while asked for, it does not run. */
static void
test_stopped_or_closed_it_does_not_run(void **state)
{
	uv_loop_t loop;
	struct t t = {.ask_times = 1};

	(void)state;
	uv_loop_init(&loop);
	soon_init(&loop, &t.s, on_soon, &t);
	soon_start(&t.s);
	assert_true(soon_pending(&t.s));
	soon_stop(&t.s);
	assert_false(soon_pending(&t.s));
	uv_run(&loop, UV_RUN_NOWAIT);
	assert_int_equal(t.runs, 0);
	soon_start(&t.s);
	finish(&loop, &t);
	assert_int_equal(t.runs, 0);
}

/* Asked for from another soon's callback run in the prepare phase (the
 * store's answer to a commit making a REST request whose transfer ended at
 * once), it runs in that same phase, so one turn runs both; and a callback
 * that asks for its own soon again has it run once in the phase, the rest in
 * the turns after (no phase that never ends). */
static void
test_asked_from_a_soon_callback_runs_in_that_phase(void **state)
{
	uv_loop_t loop;
	uv_idle_t asker;
	struct t second = {.ask_times = 2}, first = {.ask_times = 1, .next = &second, .again = 1};

	(void)state;
	uv_loop_init(&loop);
	soon_init(&loop, &first.s, on_soon_asking, &first);
	soon_init(&loop, &second.s, on_soon, &second);
	uv_idle_init(&loop, &asker);
	asker.data = &first;
	uv_idle_start(&asker, ask_from_idle);
	/* The idle phase asks for first; its prepare runs it, and it asks
	 * for second (twice) and for itself. */
	uv_run(&loop, UV_RUN_NOWAIT);
	assert_int_equal(first.runs, 1);
	assert_int_equal(second.runs, 1);
	assert_true(second.ran_after);
	assert_false(soon_pending(&second.s));
	assert_true(soon_pending(&first.s));
	/* The next turn runs first again (it asks for second once more). */
	uv_run(&loop, UV_RUN_NOWAIT);
	assert_int_equal(first.runs, 2);
	assert_int_equal(second.runs, 2);
	assert_false(soon_pending(&first.s));
	assert_false(soon_pending(&second.s));
	uv_close((uv_handle_t *)&asker, NULL);
	soon_close(&second.s, NULL);
	finish(&loop, &first);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_asked_from_an_idle_callback_runs_in_that_turn),
	    cmocka_unit_test(test_asked_from_a_prepare_callback_keeps_the_poll_from_waiting),
	    cmocka_unit_test(test_stopped_or_closed_it_does_not_run),
	    cmocka_unit_test(test_asked_from_a_soon_callback_runs_in_that_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
