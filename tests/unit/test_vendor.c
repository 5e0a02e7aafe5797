/* Unit tests for rules/procedure/vendor: the vendor's stock and the
 * bargain table at its boundaries. */
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
	const struct vendor_bargain_row *t = vendor_bargain_table(&n);
	size_t i = vendor_bargain_row_of(margin);

	assert_true(i < n);
	assert_int_equal(t[i].sell_percent, sell);
	assert_int_equal(t[i].buy_percent, buy);
}

static void
bargain_boundaries(void **unused)
{
	size_t n;
	const struct vendor_bargain_row *t = vendor_bargain_table(&n);

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

/* RULES.md section 6: the bot rolls the deal against the vendor's skill,
 * rolled once and remembered; each item or lot is tried once. */
static void
remembered_vendor_and_one_try(void **unused)
{
	struct vendor v = {.stock = {.skill_d10 = 3, .skill = 8}};
	struct vendor_deal b;
	char err[200];

	snprintf(v.name, sizeof(v.name), "Gus");
	vendor_bargain(&v, 17, &b);
	assert_int_equal(b.skill, 8);
	assert_int_equal(b.margin, 9);
	assert_int_equal(vendor_bargain_table(&(size_t){0})[b.row].sell_percent, 90);
	vendor_bargain(&v, 8, &b);
	assert_int_equal(b.margin, 0);
	assert_int_equal(vendor_bargain_table(&(size_t){0})[b.row].buy_percent, 150);
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

/* Issue 25, finding 15: a margin past the table's last row is shown as
 * it is (a roll of 5000 against skill 10 is +4990), not as a cap. */
static void
margin_is_not_capped(void **unused)
{
	struct vendor v = {.stock = {.skill_d10 = 5, .skill = 10}};
	struct vendor_deal b;

	(void)unused;
	vendor_bargain(&v, 5000, &b);
	assert_int_equal(b.margin, 4990);
	assert_int_equal(vendor_bargain_table(&(size_t){0})[b.row].sell_percent, 200);
	vendor_bargain(&v, -5000, &b);
	assert_int_equal(b.margin, -5010);
	assert_int_equal(vendor_bargain_table(&(size_t){0})[b.row].sell_percent, 10);
	vendor_bargain(&v, INT64_MIN, &b);
	assert_true(b.margin == INT64_MIN);
	assert_int_equal(vendor_bargain_table(&(size_t){0})[b.row].sell_percent, 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(stock),
	    cmocka_unit_test(bargain_boundaries),
	    cmocka_unit_test(remembered_vendor_and_one_try),
	    cmocka_unit_test(margin_is_not_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
