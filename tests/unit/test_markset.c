/* Unit tests for bot/store/markset.c: the marks a store may hold. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bot/store/markset.h"

/* Members are known until the expiry passes the time they were made; a
 * key never added is known absent. */
static void
expiry_takes_the_old_alone(void **state)
{
	struct markset *s = markset_new();

	markset_add(s, "ev-1", 100);
	markset_add(s, "ev-2", 200);
	markset_add(s, "ev-3", 300);
	assert_true(markset_complete(s));
	assert_true(markset_may_hold(s, "ev-1"));
	assert_true(markset_may_hold(s, "ev-3"));
	assert_false(markset_may_hold(s, "ev-4"));
	markset_expire(s, 200); /* before 200: ev-1 alone */
	assert_false(markset_may_hold(s, "ev-1"));
	assert_true(markset_may_hold(s, "ev-2"));
	assert_int_equal(markset_count(s), 2);
	markset_expire(s, 301);
	assert_int_equal(markset_count(s), 0);
	assert_false(markset_may_hold(s, "ev-3"));
	assert_true(markset_complete(s));
	markset_free(s);
}

/* A key marked twice stays a member until its newer mark expires. */
static void
a_key_marked_twice_stays_for_the_newer(void **state)
{
	struct markset *s = markset_new();

	markset_add(s, "ev-1", 100);
	markset_add(s, "ev-2", 150);
	markset_add(s, "ev-1", 200);
	markset_expire(s, 160);
	assert_true(markset_may_hold(s, "ev-1"));
	assert_false(markset_may_hold(s, "ev-2"));
	markset_expire(s, 201);
	assert_false(markset_may_hold(s, "ev-1"));
	markset_free(s);
}

/* Past MARKSET_MAX the oldest leave, and until the expiry passes them
 * every key may be held; then the set is whole again. */
static void
past_the_bound_every_key_may_be_held(void **state)
{
	struct markset *s = markset_new();
	char key[32];

	for (unsigned i = 0; i < MARKSET_MAX + 2; i++) {
		snprintf(key, sizeof(key), "ev-%u", i);
		markset_add(s, key, 1000 + i);
	}
	assert_int_equal(markset_count(s), MARKSET_MAX);
	assert_false(markset_complete(s));
	assert_true(markset_may_hold(s, "never"));
	/* ev-0 and ev-1 (made at 1000, 1001) left: an expiry before 1001
	 * does not pass them both. */
	markset_expire(s, 1001);
	assert_false(markset_complete(s));
	assert_int_equal(markset_count(s), MARKSET_MAX);
	markset_expire(s, 1002);
	assert_true(markset_complete(s));
	assert_false(markset_may_hold(s, "never"));
	assert_true(markset_may_hold(s, "ev-2"));
	assert_int_equal(markset_count(s), MARKSET_MAX);
	markset_free(s);
}

/* The store's marks come newest first: each joins as the oldest, and past
 * the bound one is lost instead (the set knows not every mark). */
static void
marks_read_newest_first(void **state)
{
	struct markset *s = markset_new();
	char key[32];

	markset_add_older(s, "ev-3", 300);
	markset_add_older(s, "ev-2", 200);
	markset_add_older(s, "ev-1", 100);
	markset_add(s, "ev-4", 400);
	markset_expire(s, 201);
	assert_false(markset_may_hold(s, "ev-1"));
	assert_false(markset_may_hold(s, "ev-2"));
	assert_true(markset_may_hold(s, "ev-3"));
	assert_true(markset_may_hold(s, "ev-4"));
	assert_int_equal(markset_count(s), 2);
	markset_free(s);

	s = markset_new();
	for (unsigned i = 0; i < MARKSET_MAX + 1; i++) {
		snprintf(key, sizeof(key), "ev-%u", i);
		markset_add_older(s, key, 100000 - i);
	}
	assert_int_equal(markset_count(s), MARKSET_MAX);
	assert_false(markset_complete(s));
	markset_expire(s, 100000 - MARKSET_MAX); /* the lost one was made then */
	assert_false(markset_complete(s));
	markset_expire(s, 100000 - MARKSET_MAX + 1);
	assert_true(markset_complete(s));
	snprintf(key, sizeof(key), "ev-%u", MARKSET_MAX);
	assert_false(markset_may_hold(s, key));
	markset_free(s);
}

/* Answers are kept by key (not by hash), within their room, and leave
 * with the expiry. */
static void
answers_kept_within_their_room(void **state)
{
	struct markset *s = markset_new();
	static char big[MARKSET_ANSWER_BYTES / 2];
	size_t len = 0;
	const char *a;

	memset(big, 'x', sizeof(big));
	assert_true(markset_keep_answer(s, "ev-1", 100, "kept ev-1", 9));
	assert_true(markset_keep_answer(s, "ev-2", 200, "", 0));
	a = markset_answer(s, "ev-1", &len);
	assert_non_null(a);
	assert_int_equal(len, 9);
	assert_memory_equal(a, "kept ev-1", 9);
	a = markset_answer(s, "ev-2", &len);
	assert_non_null(a);
	assert_int_equal(len, 0);
	assert_null(markset_answer(s, "ev-3", &len));
	assert_true(markset_keep_answer(s, "ev-3", 300, big, sizeof(big)));
	/* A second half does not fit beside the first and the two small. */
	assert_false(markset_keep_answer(s, "ev-4", 300, big, sizeof(big)));
	assert_null(markset_answer(s, "ev-4", &len));
	markset_expire(s, 300);
	assert_null(markset_answer(s, "ev-1", &len));
	assert_null(markset_answer(s, "ev-2", &len));
	assert_non_null(markset_answer(s, "ev-3", &len));
	assert_int_equal(len, sizeof(big));
	/* Their room is back. */
	assert_true(markset_keep_answer(s, "ev-4", 300, big, sizeof(big) - 256));
	markset_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(expiry_takes_the_old_alone),
	    cmocka_unit_test(a_key_marked_twice_stays_for_the_newer),
	    cmocka_unit_test(past_the_bound_every_key_may_be_held),
	    cmocka_unit_test(marks_read_newest_first),
	    cmocka_unit_test(answers_kept_within_their_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
