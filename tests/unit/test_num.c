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

/* A number said in words, cardinal or (with ordinals, as Fungeon levels
 * are: "First, Second or Third Level") ordinal, to 99; anything else is
 * no number. Without ordinals only the cardinals read. */
static void
number_words(void **unused)
{
	static const struct {
		const char *s;
		int n, cardinal; /* with ordinals, and without */
	} cases[] = {{"three", 3, 3},
	             {"Three", 3, 3},
	             {"THIRD", 3, -1},
	             {"3rd", 3, -1},
	             {"zero", 0, 0},
	             {"twenty", 20, 20},
	             {"twenty-one", 21, 21},
	             {"TwentyOne", 21, 21},
	             {"twenty one", 21, 21},
	             {"twenty-first", 21, -1},
	             {"21st", 21, -1},
	             {"11th", 11, -1},
	             {"12th", 12, -1},
	             {"22nd", 22, -1},
	             {"sixtieth", 60, -1},
	             {"ninety-nine", 99, 99},
	             {"ｔｈｒｅｅ", 3, 3},
	             {"fire", -1, -1},
	             {"", -1, -1},
	             {"3", -1, -1},
	             {"twenty-", -1, -1},
	             {"-one", -1, -1},
	             {"3th", -1, -1},
	             {"twentyzero", -1, -1},
	             {"one hundred", -1, -1},
	             {"twenty--one", -1, -1}};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (num_word(cases[i].s, true) != cases[i].n)
			fail_msg("'%s' read as %d, not %d", cases[i].s, num_word(cases[i].s, true),
			         cases[i].n);
		if (num_word(cases[i].s, false) != cases[i].cardinal)
			fail_msg("'%s' read as %d without ordinals, not %d", cases[i].s,
			         num_word(cases[i].s, false), cases[i].cardinal);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(read_numbers),
	    cmocka_unit_test(text_of_numbers),
	    cmocka_unit_test(number_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
