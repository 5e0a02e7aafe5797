/* Tests for bot/discord/discord_budget: the sliding-window send budget. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bot/discord/discord_budget.h"

/* An unspent budget allows any time; a spent one allows the oldest
 * counted send plus the window, exactly. */
static void
test_fills_and_slides(void **state)
{
	struct budget *b = discord_budget_new(3, 60000);

	assert_true(discord_budget_allows_at(b, 3) == INT64_MIN);
	discord_budget_spend(b, 1000);
	discord_budget_spend(b, 2000);
	assert_true(discord_budget_allows_at(b, 3) == INT64_MIN);
	assert_int_equal(discord_budget_allows_at(b, 2), 61000); /* a lower limit is spent first */
	discord_budget_spend(b, 5000);
	assert_int_equal(discord_budget_allows_at(b, 3), 61000);
	assert_int_equal(discord_budget_allows_at(b, 1), 65000);
	/* the ring drops the oldest send: the window slides */
	discord_budget_spend(b, 61000);
	assert_int_equal(discord_budget_allows_at(b, 3), 62000);
	discord_budget_free(b);
}

/* The answer depends only on the sends: hours later it is the same time,
 * long past, never a time computed from a clock. */
static void
test_old_sends_mean_now(void **state)
{
	struct budget *b = discord_budget_new(120, 60000);

	for (int i = 0; i < 120; i++)
		discord_budget_spend(b, 10000 + i);
	assert_int_equal(discord_budget_allows_at(b, 120), 70000);
	assert_int_equal(discord_budget_allows_at(b, 115), 70005);
	discord_budget_reset(b);
	assert_true(discord_budget_allows_at(b, 1) == INT64_MIN);
	discord_budget_free(b);
}

/* Sends recorded out of order (a clock that stepped back) still give the
 * limit-th latest send. */
static void
test_unordered_sends(void **state)
{
	struct budget *b = discord_budget_new(4, 1000);

	discord_budget_spend(b, 400);
	discord_budget_spend(b, 100);
	discord_budget_spend(b, 300);
	discord_budget_spend(b, 200);
	assert_int_equal(discord_budget_allows_at(b, 4), 1100);
	assert_int_equal(discord_budget_allows_at(b, 2), 1300);
	/* a limit out of range means the whole budget */
	assert_int_equal(discord_budget_allows_at(b, 0), 1100);
	assert_int_equal(discord_budget_allows_at(b, 9), 1100);
	discord_budget_free(b);
	discord_budget_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fills_and_slides),
	    cmocka_unit_test(test_old_sends_mean_now),
	    cmocka_unit_test(test_unordered_sends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
