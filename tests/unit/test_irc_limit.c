/* Unit tests for bot/irc/irc_limit: per-key command buckets and the one notice
 * per throttled spell. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "bot/irc/irc_limit.h"

static void
test_burst_then_interval(void **state)
{
	struct irc_limit *l = irc_limit_new(3, 4000);

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_true(irc_limit_take(l, "alice", 1000));
	assert_false(irc_limit_ready(l, "alice", 1000));
	assert_false(irc_limit_take(l, "alice", 4999));
	assert_true(irc_limit_take(l, "bob", 1000)); /* keys are separate */
	assert_true(irc_limit_ready(l, "alice", 5000));
	assert_true(irc_limit_take(l, "alice", 5000));
	assert_false(irc_limit_take(l, "alice", 5000));
	/* A long silence buys the burst, no more. */
	for (int i = 0; i < 3; i++)
		assert_true(irc_limit_take(l, "alice", 3600000));
	assert_false(irc_limit_take(l, "alice", 3600000));
	irc_limit_free(l);
}

/* Whether a command can be spent while some are kept back, and whether a
 * bucket is full. */
static void
test_keeping_and_full(void **state)
{
	struct irc_limit *l = irc_limit_new(4, 1000), *none = irc_limit_new(1, 0);

	(void)state;
	assert_true(irc_limit_full(l, "alice", 0)); /* new: full */
	assert_true(irc_limit_ready_keeping(l, "alice", 3, 0));
	assert_false(irc_limit_ready_keeping(l, "alice", 4, 0));
	assert_true(irc_limit_take(l, "alice", 0));
	assert_false(irc_limit_full(l, "alice", 0));
	assert_false(irc_limit_ready_keeping(l, "alice", 3, 0));
	assert_true(irc_limit_ready_keeping(l, "alice", 2, 0));
	assert_true(irc_limit_ready_keeping(l, "alice", -1, 0)); /* as 0 */
	assert_false(irc_limit_full(l, "alice", 999));
	assert_true(irc_limit_full(l, "alice", 1000));
	assert_true(irc_limit_ready_keeping(none, "bob", 100, 0));
	assert_true(irc_limit_full(none, "bob", 0));
	irc_limit_free(l);
	irc_limit_free(none);
}

static void
test_no_limit_and_new_rate(void **state)
{
	struct irc_limit *l = irc_limit_new(1, 0);

	(void)state;
	for (int i = 0; i < 1000; i++)
		assert_true(irc_limit_take(l, "alice", 0));
	irc_limit_set_rate(l, 2, 1000);
	assert_true(irc_limit_take(l, "carol", 0));
	assert_true(irc_limit_take(l, "carol", 0));
	assert_false(irc_limit_take(l, "carol", 0));
	irc_limit_set_rate(l, 1, 500); /* keeps at most the new burst */
	assert_true(irc_limit_take(l, "carol", 1000));
	assert_false(irc_limit_take(l, "carol", 1499));
	irc_limit_free(l);
}

static void
test_tell_once_per_spell(void **state)
{
	struct irc_limit *l = irc_limit_new(1, 1000);

	(void)state;
	assert_true(irc_limit_tell(l, "alice", 0));
	assert_false(irc_limit_tell(l, "alice", 29999));
	assert_false(irc_limit_tell(l, "alice", 59998)); /* each refusal extends it */
	assert_true(irc_limit_tell(l, "bob", 59998));
	assert_true(irc_limit_tell(l, "alice", 89998));
	irc_limit_free(l);
}

/* With every slot taken, a new key replaces an idle one, never one in a
 * throttled spell while an idle one exists. */
static void
test_eviction(void **state)
{
	struct irc_limit *l = irc_limit_new(1, 1000);
	char key[32];

	(void)state;
	assert_false(irc_limit_take(l, "flooder", 0) && irc_limit_take(l, "flooder", 0));
	assert_true(irc_limit_tell(l, "flooder", 0));
	for (int i = 1; i < IRC_LIMIT_KEYS; i++) {
		snprintf(key, sizeof(key), "u%d", i);
		assert_true(irc_limit_ready(l, key, 0));
	}
	for (int i = 0; i < 10; i++) {
		snprintf(key, sizeof(key), "new%d", i);
		assert_true(irc_limit_take(l, key, 500));
	}
	assert_false(irc_limit_take(l, "flooder", 500));
	assert_false(irc_limit_tell(l, "flooder", 500));
	irc_limit_free(l);
}

/* When a key last spent, with no limit too; a new key replaces the free
 * entry that spent least recently, not merely the first free one. */
static void
test_last_spent(void **state)
{
	struct irc_limit *l = irc_limit_new(2, 1000), *none = irc_limit_new(1, 0);
	int64_t last = 0;
	char key[32];

	(void)state;
	assert_int_equal(irc_limit_count(l, "alice", 100, &last), 2);
	assert_true(last == IRC_LIMIT_NEVER);
	assert_true(irc_limit_take(l, "alice", 200));
	assert_int_equal(irc_limit_count(l, "alice", 700, &last), 1);
	assert_true(last == 200);
	assert_true(irc_limit_take(none, "bob", 300));
	assert_int_equal(irc_limit_count(none, "bob", 400, &last), IRC_LIMIT_NONE);
	assert_true(last == 300);
	/* Every key full (bob, then u511, spent longest ago: u511 takes
	 * bob's place); "u0" spent last, u1 first of the others. */
	for (int i = 0; i < IRC_LIMIT_KEYS; i++) {
		snprintf(key, sizeof(key), "u%d", i);
		assert_true(irc_limit_take(none, key, i == 0 ? 10000 : 1000 + i));
	}
	assert_true(irc_limit_take(none, "new", 20000));
	assert_int_equal(irc_limit_count(none, "u0", 20000, &last), IRC_LIMIT_NONE);
	assert_true(last == 10000); /* kept: u1, the stalest, went */
	assert_int_equal(irc_limit_count(none, "u2", 20000, &last), IRC_LIMIT_NONE);
	assert_true(last == 1002);
	assert_int_equal(irc_limit_count(none, "u1", 20000, &last), IRC_LIMIT_NONE);
	assert_true(last == IRC_LIMIT_NEVER);
	irc_limit_free(l);
	irc_limit_free(none);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_burst_then_interval),
	    cmocka_unit_test(test_keeping_and_full),
	    cmocka_unit_test(test_no_limit_and_new_rate),
	    cmocka_unit_test(test_tell_once_per_spell),
	    cmocka_unit_test(test_eviction),
	    cmocka_unit_test(test_last_spent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
