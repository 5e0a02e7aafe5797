/* Unit tests for rules/vendor: the vendor's stock, the bargain table and
 * the carrying-capacity table at their boundaries. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "rules/base/rng.h"
#include "rules/procedure/vendor.h"

static void
stock(void **unused)
{
	struct rng *a = rng_new_seeded(21), *b = rng_new_seeded(21);

	for (int i = 0; i < 200; i++) {
		struct vendor_stock v;
		int h = (int)rng_die(b, 6), r1 = (int)rng_die(b, 6), r2 = (int)rng_die(b, 6);
		int coin = (int)rng_die(b, 10), skill = (int)rng_die(b, 10);

		vendor_roll(a, &v);
		assert_int_equal(v.hoards, h);
		assert_int_equal(v.rations_d[0], r1);
		assert_int_equal(v.rations_d[1], r2);
		assert_int_equal(v.rations, (r1 + r2) * 100);
		assert_int_equal(v.coin_d10, coin);
		assert_int_equal(v.coin_percent, coin * 10);
		assert_int_equal(v.skill_d10, skill);
		assert_int_equal(v.skill, skill + 5);
	}
	rng_free(a);
	rng_free(b);
}

static void
bargain(int margin, int sell, int buy)
{
	size_t n;
	const struct bargain_row *t = bargain_table(&n);
	size_t i = bargain_row_of(margin);

	assert_true(i < n);
	assert_int_equal(t[i].sell_percent, sell);
	assert_int_equal(t[i].buy_percent, buy);
}

static void
bargain_boundaries(void **unused)
{
	size_t n;
	const struct bargain_row *t = bargain_table(&n);

	assert_int_equal(n, 14);
	bargain(-999, 10, 1000);
	bargain(-31, 10, 1000);
	bargain(-30, 10, 1000);
	bargain(-29, 20, 700);
	bargain(-25, 20, 700);
	bargain(-24, 30, 500);
	bargain(-20, 30, 500);
	bargain(-19, 40, 350);
	bargain(-15, 40, 350);
	bargain(-14, 50, 250);
	bargain(-10, 50, 250);
	bargain(-9, 60, 200);
	bargain(-5, 60, 200);
	bargain(-4, 70, 150);
	bargain(0, 70, 150);
	bargain(1, 80, 125);
	bargain(5, 80, 125);
	bargain(6, 90, 110);
	bargain(10, 90, 110);
	bargain(11, 100, 100);
	bargain(15, 100, 100);
	bargain(16, 125, 90);
	bargain(20, 125, 90);
	bargain(21, 150, 80);
	bargain(25, 150, 80);
	bargain(26, 175, 65);
	bargain(30, 175, 65);
	bargain(31, 200, 50);
	bargain(999, 200, 50);
	/* the rows cover every margin, in order, without gaps */
	for (size_t i = 1; i < n; i++)
		assert_int_equal(t[i].lo, t[i - 1].hi + 1);
}

static void
band(int str, int weight, enum load_band want)
{
	const struct carry_row *row = carry_row_of(str);

	assert_non_null(row);
	assert_int_equal(load_band_of(row, weight), want);
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
	band(-4, 0, LOAD_UNENCUMBERED);
	band(-4, 6, LOAD_UNENCUMBERED);
	band(-4, 7, LOAD_MEDIUM);
	band(-4, 13, LOAD_MEDIUM);
	band(-4, 14, LOAD_HEAVY);
	band(-4, 20, LOAD_HEAVY);
	band(-4, 21, LOAD_OVER);
	/* Str +10: 500 / 501-1000 / 1001-1600 */
	band(10, 500, LOAD_UNENCUMBERED);
	band(10, 501, LOAD_MEDIUM);
	band(10, 1000, LOAD_MEDIUM);
	band(10, 1001, LOAD_HEAVY);
	band(10, 1600, LOAD_HEAVY);
	band(10, 1601, LOAD_OVER);
	band(0, 33, LOAD_UNENCUMBERED);
	band(0, 34, LOAD_MEDIUM);
	band(0, 67, LOAD_HEAVY);
	band(0, 101, LOAD_OVER);
	assert_string_equal(load_band_name(LOAD_HEAVY), "heavy (max)");
	assert_string_equal(load_band_name(LOAD_OVER), "dragging (over heavy)");
	assert_string_equal(load_penalty(LOAD_UNENCUMBERED), "No penalty.");
	/* the safe-areas text's penalties (RULES.md section 6, our reading) */
	assert_string_equal(load_penalty(LOAD_MEDIUM),
	                    "Movement -5 ft, Encumbrance 3 (offsets Dex), 1 Fatigue at the end of "
	                    "each room.");
	assert_string_equal(load_penalty(LOAD_HEAVY),
	                    "Movement 5 ft, Dex incapacitated, 3 Fatigue at the end of each room.");
	assert_string_equal(load_penalty(LOAD_OVER),
	                    "Movement 5 ft, Dex incapacitated, 1 Fatigue per round.");
}

/* RULES.md section 6: the bot rolls the deal against the vendor's skill,
 * rolled once and remembered; each item or lot is tried once. */
static void
remembered_vendor_and_one_try(void **unused)
{
	struct vendor v = {.stock = {.skill_d10 = 3, .skill = 8}};
	struct bargain b;
	char err[200];

	snprintf(v.name, sizeof(v.name), "Gus");
	vendor_bargain(&v, 17, &b);
	assert_int_equal(b.skill, 8);
	assert_int_equal(b.margin, 9);
	assert_int_equal(bargain_table(&(size_t){0})[b.row].sell_percent, 90);
	vendor_bargain(&v, 8, &b);
	assert_int_equal(b.margin, 0);
	assert_int_equal(bargain_table(&(size_t){0})[b.row].buy_percent, 150);
	assert_false(vendor_tried(&v, "ring"));
	assert_int_equal(vendor_try(&v, "ring", err, sizeof(err)), 0);
	assert_true(vendor_tried(&v, "RING"));
	assert_int_equal(vendor_try(&v, "Ring", err, sizeof(err)), -1);
	assert_string_equal(err, "Gus has already dealt on ring: a buy or sell of an item or lot "
	                         "is tried once, and a rejected price ends it for good.");
	for (int i = 1; i < VENDOR_TRIED_MAX; i++) {
		char item[16];

		snprintf(item, sizeof(item), "lot%d", i);
		assert_int_equal(vendor_try(&v, item, err, sizeof(err)), 0);
	}
	assert_int_equal(vendor_try(&v, "one-more", err, sizeof(err)), -1);
	assert_string_equal(err, "Gus has dealt on 32 items or lots, the most the bot remembers "
	                         "for one vendor.");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(stock),
	    cmocka_unit_test(bargain_boundaries),
	    cmocka_unit_test(carrying_capacity),
	    cmocka_unit_test(remembered_vendor_and_one_try),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
