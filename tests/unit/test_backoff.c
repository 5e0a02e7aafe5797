/* Unit tests for bot/backoff: the doubling steps, the cap and the jitter's
 * exact bounds. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bot/backoff.h"

static const struct backoff irc = {1000, 300000};
static const struct backoff discord = {1000, 60000};

static void
test_steps_double_to_the_cap(void **state)
{
	(void)state;
	assert_int_equal(backoff_step(&irc, 0), 1000);
	assert_int_equal(backoff_step(&irc, 1), 2000);
	assert_int_equal(backoff_step(&irc, 2), 4000);
	assert_int_equal(backoff_step(&irc, 8), 256000);
	assert_int_equal(backoff_step(&irc, 9), 300000);
	assert_int_equal(backoff_step(&irc, 30), 300000);
	assert_int_equal(backoff_step(&irc, 1000000), 300000); /* no overflow */
	assert_int_equal(backoff_step(&discord, 5), 32000);
	assert_int_equal(backoff_step(&discord, 6), 60000);
}

static void
test_delay_is_half_the_step_plus_jitter(void **state)
{
	(void)state;
	assert_int_equal(backoff_delay(&irc, 0, 0), 500);
	assert_int_equal(backoff_delay(&irc, 0, 500), 1000);
	assert_int_equal(backoff_delay(&irc, 0, 501), 500); /* 501 mod 501 */
	assert_int_equal(backoff_delay(&irc, 1, 1000), 2000);
	assert_int_equal(backoff_delay(&irc, 1, 1234), 1000 + 1234 % 1001);
	assert_int_equal(backoff_delay(&irc, 30, 0), 150000);
	assert_int_equal(backoff_delay(&irc, 30, 150000), 300000);
	assert_int_equal(backoff_delay(&discord, 6, UINT64_MAX), 30000 + UINT64_MAX % 30001);
}

static void
test_odd_and_tiny_ranges(void **state)
{
	static const struct backoff odd = {3, 7};
	static const struct backoff one = {1, 1};

	(void)state;
	assert_int_equal(backoff_step(&odd, 1), 6);
	assert_int_equal(backoff_step(&odd, 2), 7);
	assert_int_equal(backoff_delay(&odd, 2, 3), 6); /* 3 + 3 mod 4 */
	assert_int_equal(backoff_delay(&odd, 2, 4), 3);
	assert_int_equal(backoff_delay(&one, 5, 0), 0);
	assert_int_equal(backoff_delay(&one, 5, 1), 0); /* 0 + 1 mod 1 */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_steps_double_to_the_cap),
	    cmocka_unit_test(test_delay_is_half_the_step_plus_jitter),
	    cmocka_unit_test(test_odd_and_tiny_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
