/* rules/num: reading short numbers and writing any 64-bit one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "rules/base/num.h"

static void
read_numbers(void **unused)
{
	const char *p = "42x", *q = "1234", *r = "x";
	int v = -1;

	assert_int_equal(num_read(&p, &v), 0);
	assert_int_equal(v, 42);
	assert_string_equal(p, "x");
	assert_int_equal(num_read(&q, &v), -1);
	assert_int_equal(num_read(&r, &v), -1);
}

/* num_text agrees with printf across the range, the extremes included. */
static void
text_of_numbers(void **unused)
{
	static const long long v[] = {0,         1,         -1,           9,         10,
	                              -10,       99,        100,          123456789, -987654321,
	                              LLONG_MAX, LLONG_MIN, LLONG_MIN + 1};
	char got[NUM_TEXT_MAX], want[32];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = num_text(v[i], got);

		snprintf(want, sizeof(want), "%lld", v[i]);
		assert_string_equal(got, want);
		assert_int_equal(n, strlen(want));
	}
	assert_int_equal(num_text(LLONG_MIN, got), NUM_TEXT_MAX - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(read_numbers),
	    cmocka_unit_test(text_of_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
