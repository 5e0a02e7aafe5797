/* Unit tests for bot/irc/irc_flood: the token bucket and the per-target queues. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bot/irc/irc_flood.h"

static void
push(struct irc_flood *f, const char *target, const char *line)
{
	assert_int_equal(irc_flood_push(f, target, line, strlen(line)), 0);
}

/* The next line at now, or "" when none may go. */
static const char *
pop(struct irc_flood *f, int64_t now)
{
	static char out[600];

	if (irc_flood_pop(f, now, out, sizeof(out)) == 0)
		out[0] = '\0';
	return out;
}

static void
test_burst_then_interval(void **state)
{
	struct irc_flood *f = irc_flood_new(4, 2000);
	char line[32];

	(void)state;
	assert_int_equal(irc_flood_next(f, 0), -1);
	for (int i = 1; i <= 7; i++) {
		snprintf(line, sizeof(line), "PRIVMSG #a :%d\r\n", i);
		push(f, "#a", line);
	}
	assert_int_equal(irc_flood_pending(f), 7);
	assert_int_equal(irc_flood_next(f, 1000), 1000);
	for (int i = 1; i <= 4; i++) {
		snprintf(line, sizeof(line), "PRIVMSG #a :%d\r\n", i);
		assert_string_equal(pop(f, 1000), line);
	}
	assert_string_equal(pop(f, 1000), "");
	assert_int_equal(irc_flood_next(f, 1000), 3000);
	assert_string_equal(pop(f, 2999), "");
	assert_string_equal(pop(f, 3000), "PRIVMSG #a :5\r\n");
	assert_int_equal(irc_flood_next(f, 3000), 5000);
	assert_string_equal(pop(f, 4000), "");
	assert_string_equal(pop(f, 5000), "PRIVMSG #a :6\r\n");
	assert_string_equal(pop(f, 7000), "PRIVMSG #a :7\r\n");
	assert_int_equal(irc_flood_next(f, 7000), -1);
	irc_flood_free(f);
}

/* A new rate applies to the lines already queued; the bucket keeps the
 * sends it held, up to the new burst. */
static void
test_set_rate(void **state)
{
	struct irc_flood *f = irc_flood_new(4, 2000);

	(void)state;
	for (int i = 0; i < 6; i++)
		push(f, "#a", "PRIVMSG #a :x\r\n");
	assert_string_equal(pop(f, 1000), "PRIVMSG #a :x\r\n"); /* 3 sends left */
	irc_flood_set_rate(f, 2, 500);                          /* at most 2 kept */
	assert_string_equal(pop(f, 1000), "PRIVMSG #a :x\r\n");
	assert_string_equal(pop(f, 1000), "PRIVMSG #a :x\r\n");
	assert_string_equal(pop(f, 1000), "");
	assert_int_equal(irc_flood_next(f, 1000), 1500);
	irc_flood_set_rate(f, 2, 100);
	assert_int_equal(irc_flood_next(f, 1000), 1100);
	assert_string_equal(pop(f, 1100), "PRIVMSG #a :x\r\n");
	irc_flood_free(f);
}

static void
test_refill_is_capped(void **state)
{
	struct irc_flood *f = irc_flood_new(2, 1000);

	(void)state;
	assert_string_equal(pop(f, 0), "");
	/* An hour of silence still buys only a burst of 2. */
	for (int i = 0; i < 5; i++)
		push(f, "#a", "x\r\n");
	assert_string_equal(pop(f, 3600000), "x\r\n");
	assert_string_equal(pop(f, 3600000), "x\r\n");
	assert_string_equal(pop(f, 3600000), "");
	assert_string_equal(pop(f, 3600999), "");
	assert_string_equal(pop(f, 3601000), "x\r\n");
	irc_flood_free(f);
}

static void
test_urgent_bypasses(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 2000);

	(void)state;
	push(f, "#a", "one\r\n");
	push(f, "#a", "two\r\n");
	assert_string_equal(pop(f, 0), "one\r\n");
	assert_string_equal(pop(f, 0), "");
	assert_int_equal(irc_flood_push_urgent(f, "PONG :x\r\n", 9), 0);
	assert_int_equal(irc_flood_next(f, 10), 10);
	assert_string_equal(pop(f, 10), "PONG :x\r\n");
	assert_string_equal(pop(f, 10), "");
	assert_string_equal(pop(f, 2000), "two\r\n");
	irc_flood_free(f);
}

static void
test_targets_take_turns(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 0);

	(void)state;
	push(f, "#a", "a1");
	push(f, "#a", "a2");
	push(f, "#a", "a3");
	push(f, "#b", "b1");
	push(f, "#b", "b2");
	push(f, "", "JOIN #c");
	push(f, "nick", "n1");
	assert_string_equal(pop(f, 0), "JOIN #c");
	assert_string_equal(pop(f, 0), "a1");
	assert_string_equal(pop(f, 0), "b1");
	assert_string_equal(pop(f, 0), "n1");
	assert_string_equal(pop(f, 0), "a2");
	/* A new lane goes next, ahead of those already waiting. */
	push(f, "#d", "d1");
	assert_string_equal(pop(f, 0), "d1");
	assert_string_equal(pop(f, 0), "b2");
	assert_string_equal(pop(f, 0), "a3");
	assert_string_equal(pop(f, 0), "");
	assert_int_equal(irc_flood_pending(f), 0);
	irc_flood_free(f);
}

static void
test_caps_and_clear(void **state)
{
	struct irc_flood *f = irc_flood_new(4, 2000);

	(void)state;
	for (int i = 0; i < IRC_FLOOD_TARGET_MAX; i++)
		push(f, "#a", "x");
	assert_int_equal(irc_flood_push(f, "#a", "x", 1), -1);
	push(f, "#b", "y");
	for (int i = 0; i < 4; i++)
		pop(f, 0);
	assert_string_equal(pop(f, 0), "");
	irc_flood_clear(f);
	assert_int_equal(irc_flood_pending(f), 0);
	/* Cleared: the bucket is full again. */
	for (int i = 0; i < 4; i++)
		push(f, "#a", "z");
	for (int i = 0; i < 4; i++)
		assert_string_equal(pop(f, 1), "z");
	for (int i = 0; i < IRC_FLOOD_TOTAL_MAX; i++) {
		char t[16];

		snprintf(t, sizeof(t), "#%d", i % 16);
		push(f, t, "w");
	}
	assert_int_equal(irc_flood_push(f, "#new", "w", 1), -1);
	irc_flood_free(f);
}

/* A group goes whole or not at all, and once started it is sent before
 * any other lane's line: lanes take turns reply by reply. */
static void
test_groups(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 0);
	const char *two[] = {"a1", "a2"}, *three[] = {"b1", "b2", "b3"}, *one[] = {"c1"};

	(void)state;
	assert_int_equal(irc_flood_push_group(f, "alice", two, 2, 1), 0);
	assert_int_equal(irc_flood_push_group(f, "alice", two, 2, 1), 0);
	assert_int_equal(irc_flood_push_group(f, "bob", three, 3, 1), 0);
	assert_int_equal(irc_flood_push_group(f, "carol", one, 1, 1), 0);
	push(f, "", "JOIN #c");
	assert_string_equal(pop(f, 0), "JOIN #c");
	assert_string_equal(pop(f, 0), "a1");
	push(f, "", "JOIN #d"); /* waits for the end of the reply */
	assert_string_equal(pop(f, 0), "a2");
	assert_string_equal(pop(f, 0), "JOIN #d");
	assert_string_equal(pop(f, 0), "b1");
	assert_string_equal(pop(f, 0), "b2");
	assert_string_equal(pop(f, 0), "b3");
	assert_string_equal(pop(f, 0), "c1");
	assert_string_equal(pop(f, 0), "a1");
	assert_string_equal(pop(f, 0), "a2");
	assert_string_equal(pop(f, 0), "");
	assert_int_equal(irc_flood_pending(f), 0);
	irc_flood_free(f);
}

/* A reply in parts: each part takes its turn as a reply would, so another
 * lane's reply goes between them; all the parts are queued, or none. */
static void
test_parts(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 0);
	const char *turn[] = {"t1", "t2", "t3", "t4", "t5"}, *one[] = {"b1"};
	const size_t starts[] = {2, 4};
	const char *want[] = {"t1", "t2", "b1", "t3", "t4", "b1", "t5"};

	(void)state;
	assert_int_equal(irc_flood_push_parts(f, "alice", turn, 5, starts, 2, 0), 0);
	assert_int_equal(irc_flood_push_group(f, "bob", one, 1, 0), 0);
	assert_int_equal(irc_flood_push_group(f, "bob", one, 1, 0), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(pop(f, 0), want[i]);
	assert_int_equal(irc_flood_pending(f), 0);
	/* no room for every part: none is queued */
	for (int i = 0; i < IRC_FLOOD_TARGET_MAX - 3; i++)
		push(f, "alice", "x");
	assert_int_equal(irc_flood_push_parts(f, "alice", turn, 5, starts, 2, 0), -1);
	assert_int_equal(irc_flood_pending(f), IRC_FLOOD_TARGET_MAX - 3);
	irc_flood_free(f);
}

/* Users who were not waiting go ahead of a flooder, in the order they
 * came; the flooder keeps its turn after them. */
static void
test_newcomers_first(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 0);
	char line[16];

	(void)state;
	for (int i = 1; i <= 5; i++) {
		snprintf(line, sizeof(line), "a%d", i);
		push(f, "alice", line);
	}
	assert_string_equal(pop(f, 0), "a1");
	push(f, "bob", "b1");
	push(f, "carol", "c1");
	assert_string_equal(pop(f, 0), "b1");
	assert_string_equal(pop(f, 0), "c1");
	assert_string_equal(pop(f, 0), "a2");
	assert_string_equal(pop(f, 0), "a3");
	push(f, "dave", "d1");
	push(f, "bob", "b2");
	assert_string_equal(pop(f, 0), "d1");
	assert_string_equal(pop(f, 0), "b2");
	assert_string_equal(pop(f, 0), "a4");
	assert_string_equal(pop(f, 0), "a5");
	assert_string_equal(pop(f, 0), "");
	irc_flood_free(f);
}

/* Flooders whose lines trickle in keep their lanes: a newcomer still goes
 * ahead of them; a lane empty for a whole turn leaves. */
static void
test_trickle_keeps_place(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 0);

	(void)state;
	push(f, "alice", "a1");
	push(f, "bob", "b1");
	assert_string_equal(pop(f, 0), "a1");
	assert_string_equal(pop(f, 0), "b1");
	assert_string_equal(pop(f, 0), ""); /* nothing queued: places kept */
	push(f, "alice", "a2");
	push(f, "bob", "b2");
	push(f, "dave", "d1");
	assert_string_equal(pop(f, 0), "d1");
	assert_string_equal(pop(f, 0), "a2");
	assert_string_equal(pop(f, 0), "b2");
	/* Dave's lane was passed empty: when he speaks again he is new. */
	push(f, "alice", "a3");
	assert_string_equal(pop(f, 0), "a3");
	push(f, "alice", "a4");
	push(f, "dave", "d2");
	assert_string_equal(pop(f, 0), "d2");
	assert_string_equal(pop(f, 0), "a4");
	assert_int_equal(irc_flood_pending(f), 0);
	irc_flood_free(f);
}

/* Quitting: the reply being written is finished, at once; the others
 * (not started) are dropped. */
static void
test_finish(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 2000);
	const char *three[] = {"a1", "a2", "a3"}, *two[] = {"b1", "b2"};

	(void)state;
	assert_int_equal(irc_flood_push_group(f, "alice", three, 3, 0), 0);
	assert_int_equal(irc_flood_push_group(f, "bob", two, 2, 0), 0);
	push(f, "", "JOIN #x");
	assert_string_equal(pop(f, 0), "JOIN #x");
	assert_string_equal(pop(f, 2000), "a1");
	irc_flood_finish(f);
	assert_int_equal(irc_flood_push_urgent(f, "QUIT", 4), 0);
	assert_string_equal(pop(f, 2000), "a2");
	assert_string_equal(pop(f, 2000), "a3");
	assert_string_equal(pop(f, 2000), "QUIT");
	assert_string_equal(pop(f, 9000), "");
	assert_int_equal(irc_flood_pending(f), 0);
	/* Nothing being written: everything waiting is dropped. */
	assert_int_equal(irc_flood_push_group(f, "bob", two, 2, 0), 0);
	irc_flood_finish(f);
	assert_int_equal(irc_flood_pending(f), 0);
	assert_string_equal(pop(f, 20000), "");
	irc_flood_free(f);
}

/* A group that does not fit with its reserve is refused whole. */
static void
test_group_refused_whole(void **state)
{
	struct irc_flood *f = irc_flood_new(1, 0);
	const char *three[] = {"x1", "x2", "x3"};

	(void)state;
	for (int i = 0; i < IRC_FLOOD_TARGET_MAX - 4; i++)
		push(f, "alice", "w");
	assert_int_equal(irc_flood_push_group(f, "alice", three, 3, 2), -1);
	assert_int_equal(irc_flood_pending(f), IRC_FLOOD_TARGET_MAX - 4);
	assert_int_equal(irc_flood_push_group(f, "alice", three, 3, 1), 0);
	assert_int_equal(irc_flood_pending(f), IRC_FLOOD_TARGET_MAX - 1);
	/* A new lane that cannot take the group is not left behind. */
	for (int i = 0; i < IRC_FLOOD_TOTAL_MAX - IRC_FLOOD_TARGET_MAX + 1; i++) {
		char t[16];

		snprintf(t, sizeof(t), "#%d", i % 16);
		push(f, t, "w");
	}
	assert_int_equal(irc_flood_push_group(f, "bob", three, 3, 0), -1);
	assert_int_equal(irc_flood_pending(f), IRC_FLOOD_TOTAL_MAX);
	irc_flood_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_burst_then_interval),
	    cmocka_unit_test(test_refill_is_capped),
	    cmocka_unit_test(test_urgent_bypasses),
	    cmocka_unit_test(test_targets_take_turns),
	    cmocka_unit_test(test_caps_and_clear),
	    cmocka_unit_test(test_set_rate),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_group_refused_whole),
	    cmocka_unit_test(test_parts),
	    cmocka_unit_test(test_newcomers_first),
	    cmocka_unit_test(test_trickle_keeps_place),
	    cmocka_unit_test(test_finish),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
