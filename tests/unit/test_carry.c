/* Unit tests for rules/procedure/carry: the carrying-capacity table and its
 * load bands at their boundaries. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/procedure/carry.h"

static void
band(int str, int weight, enum carry_band want)
{
	const struct carry_row *row = carry_row_of(str);

	assert_non_null(row);
	assert_int_equal(carry_band_of(row, weight), want);
}

static void
carrying_capacity(void **unused)
{
	/* the whole table as RULES.md gives it */
	static const int rows[15][4] = {
	    {-4, 6, 13, 20},    {-3, 13, 26, 40},    {-2, 20, 40, 60},      {-1, 26, 53, 80},
	    {0, 33, 66, 100},   {1, 43, 86, 130},    {2, 58, 116, 175},     {3, 76, 153, 230},
	    {4, 100, 200, 300}, {5, 133, 266, 400},  {6, 173, 346, 520},    {7, 233, 466, 700},
	    {8, 306, 613, 920}, {9, 400, 800, 1200}, {10, 500, 1000, 1600},
	};

	for (int i = 0; i < 15; i++) {
		const struct carry_row *r = carry_row_of(rows[i][0]);

		assert_int_equal(r->str, rows[i][0]);
		assert_int_equal(r->light_max, rows[i][1]);
		assert_int_equal(r->medium_max, rows[i][2]);
		assert_int_equal(r->heavy_max, rows[i][3]);
	}
	assert_null(carry_row_of(-5));
	assert_null(carry_row_of(11));
	/* Str -4: 6 / 7-13 / 14-20 */
	band(-4, 0, CARRY_UNENCUMBERED);
	band(-4, 6, CARRY_UNENCUMBERED);
	band(-4, 7, CARRY_MEDIUM);
	band(-4, 13, CARRY_MEDIUM);
	band(-4, 14, CARRY_HEAVY);
	band(-4, 20, CARRY_HEAVY);
	band(-4, 21, CARRY_OVER);
	/* Str +10: 500 / 501-1000 / 1001-1600 */
	band(10, 500, CARRY_UNENCUMBERED);
	band(10, 501, CARRY_MEDIUM);
	band(10, 1000, CARRY_MEDIUM);
	band(10, 1001, CARRY_HEAVY);
	band(10, 1600, CARRY_HEAVY);
	band(10, 1601, CARRY_OVER);
	band(0, 33, CARRY_UNENCUMBERED);
	band(0, 34, CARRY_MEDIUM);
	band(0, 67, CARRY_HEAVY);
	band(0, 101, CARRY_OVER);
	assert_string_equal(carry_band_name(CARRY_HEAVY), "heavy (max)");
	assert_string_equal(carry_band_name(CARRY_OVER), "dragging (over heavy)");
	assert_string_equal(carry_penalty(CARRY_UNENCUMBERED), "No penalty.");
	/* the safe-areas text's penalties (RULES.md section 6, our reading) */
	assert_string_equal(carry_penalty(CARRY_MEDIUM),
	                    "Movement -5 ft, Encumbrance 3 (offsets Dex), 1 Fatigue at the end of "
	                    "each room.");
	assert_string_equal(carry_penalty(CARRY_HEAVY),
	                    "Movement 5 ft, Dex incapacitated, 3 Fatigue at the end of each room.");
	assert_string_equal(carry_penalty(CARRY_OVER),
	                    "Movement 5 ft, Dex incapacitated, 1 Fatigue per round.");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(carrying_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
