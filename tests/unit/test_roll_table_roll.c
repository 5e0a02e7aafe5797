/* Unit tests for rules/tables/roll_table_roll: how a table is read (its die,
 * d66, weights, d10 + Tension), the distribution of its results, and the
 * tables its entries name. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/tables/roll_table.h"
#include "rules/tables/roll_table_roll.h"

static struct roll_table *
table(const char *text)
{
	struct roll_table *t = malloc(sizeof(*t));
	char err[300] = "";

	if (roll_table_parse_die(text, t, err, sizeof(err)) != 0)
		fail_msg("'%s': %s", text, err);
	return t;
}

/* Pearson's chi-square of counts against expected counts. */
static double
chi_square(const long *got, const double *want, size_t n)
{
	double x = 0;

	for (size_t i = 0; i < n; i++)
		x += (got[i] - want[i]) * (got[i] - want[i]) / want[i];
	return x;
}

/* A d66 of 36 single results: each comes up 1 time in 36, the tens and the
 * units each a d6 (chi-square, 35 degrees of freedom, against the 0.1%
 * critical value 66.62; the seed is fixed, so the run is the same each
 * time). */
static void
d66_is_uniform(void **unused)
{
	struct buf b;
	struct roll_table *t;
	struct rng *r = rng_new_seeded(66);
	long got[36] = {0};
	double want[36];
	const long rolls = 36000;

	(void)unused;
	buf_init(&b, 8192);
	for (int tens = 1; tens <= 6; tens++)
		for (int units = 1; units <= 6; units++)
			buf_addf(&b, "%d: r%d%d\n", 10 * tens + units, tens, units);
	t = table(buf_str(&b));
	assert_int_equal(t->die, ROLL_TABLE_D66);
	assert_int_equal(t->n, 36);
	for (long i = 0; i < rolls; i++) {
		struct roll_table_pick p;

		roll_table_pick(r, t, 0, &p);
		assert_int_equal(p.sides, ROLL_TABLE_D66);
		assert_true(p.result / 10 >= 1 && p.result / 10 <= 6);
		assert_true(p.result % 10 >= 1 && p.result % 10 <= 6);
		assert_true(p.index >= 0);
		assert_int_equal(t->e[p.index].lo, p.result);
		got[p.index]++;
	}
	for (int i = 0; i < 36; i++)
		want[i] = rolls / 36.0;
	assert_true(chi_square(got, want, 36) < 66.62);
	/* and the test can fail: a d6 read twice as the same digit is not a d66 */
	{
		long skew[36] = {0};

		for (long i = 0; i < rolls; i++) {
			int d = (int)rng_die(r, 6);

			skew[(d - 1) * 6 + (d - 1)]++;
		}
		assert_true(chi_square(skew, want, 36) > 66.62);
	}
	buf_free(&b);
	free(t);
	rng_free(r);
}

/* A weighted table: "1x; 2x; 3x; 4x" comes up 1, 2, 3 and 4 times in 10
 * (chi-square, 3 degrees of freedom, 0.1% critical value 16.27). */
static void
weights_are_honoured(void **unused)
{
	struct roll_table *t = table("1x one; 2x two\n3x three; 4x four");
	struct rng *r = rng_new_seeded(7);
	long got[4] = {0};
	const double want[4] = {1000, 2000, 3000, 4000};

	(void)unused;
	assert_int_equal(t->die, 10);
	for (int i = 0; i < 10000; i++) {
		struct roll_table_pick p;

		roll_table_pick(r, t, 0, &p);
		assert_int_equal(p.sides, 10);
		got[p.index]++;
	}
	assert_true(chi_square(got, want, 4) < 16.27);
	/* a table rolled evenly instead would be caught */
	{
		const long even[4] = {2500, 2500, 2500, 2500};

		assert_true(chi_square(even, want, 4) > 16.27);
	}
	free(t);
	rng_free(r);
}

/* A Tension table is read with d10 + Tension; any other table, or no
 * Tension given, by its own die. */
static void
tension_or_own_die(void **unused)
{
	struct roll_table *twenty = table("1-4: a; 5-8: b; 9-12: c; 13-16: d; 17-20: e");
	struct roll_table *six = table("1-3: low; 4-6: high");
	struct rng *r = rng_new_seeded(5), *same = rng_new_seeded(5);
	struct roll_table_pick p;
	int d10, d6, d20;

	(void)unused;
	d10 = (int)rng_die(same, 10);
	roll_table_pick(r, twenty, 7, &p);
	assert_int_equal(p.sides, 0);
	assert_int_equal(p.d10, d10);
	assert_int_equal(p.result, d10 + 7);
	d6 = (int)rng_die(same, 6);
	roll_table_pick(r, six, 7, &p);
	assert_int_equal(p.sides, 6);
	assert_int_equal(p.result, d6);
	assert_string_equal(six->e[p.index].text, d6 <= 3 ? "low" : "high");
	d20 = (int)rng_die(same, 20);
	roll_table_pick(r, twenty, 0, &p);
	assert_int_equal(p.sides, 20);
	assert_int_equal(p.result, d20);
	/* d10 + 10 reaches 20 at most; d10 + Tension is clamped into the table */
	roll_table_pick_at(twenty, 0, 10, 25, &p);
	assert_int_equal(p.result, 20);
	assert_string_equal(twenty->e[p.index].text, "e");
	free(twenty);
	free(six);
	rng_free(r);
	rng_free(same);
}

/* The tables a lookup knows, by name. */
struct library {
	const char *names[4];
	struct roll_table *t[4];
	int asked;
};

static const struct roll_table *
find(void *ctx, const char *name)
{
	struct library *l = ctx;

	l->asked++;
	for (int i = 0; i < 4 && l->names[i] != NULL; i++)
		if (strcmp(l->names[i], name) == 0)
			return l->t[i];
	return NULL;
}

/* Nested rolls with a fixed seed: the expected dice come from the same
 * seed drawn in the same order (loot's d6, its entry's dice, gems' d4, the
 * gem's dice, coins' d6), so the test checks the wiring exactly. */
static void
nested_rolls_with_a_fixed_seed(void **unused)
{
	struct library l = {.names = {"gems", "coins"}};
	struct roll_table *loot = table("1-6: 1d4 guards and a chest of [[gems]] and [[coins]]");
	struct roll_table_lookup lk = {find, &l};
	struct roll_table_trace tr = {0};
	struct rng *r = rng_new_seeded(42), *same = rng_new_seeded(42);
	struct roll_table_pick p;
	struct buf out;
	char want[400];
	int guards, gem, pearls, coin, gp;
	static const char *const gem_text[] = {"a ruby", "a pearl", "pearls", "a sapphire"};

	(void)unused;
	l.t[0] = table("1: a ruby; 2: a pearl; 3: 2d6 pearls; 4: a sapphire");
	l.t[1] = table("1-6: 3d6 gp");
	buf_init(&out, 4096);
	roll_table_pick(r, loot, 0, &p);
	assert_int_equal(p.result, (int)rng_die(same, 6));
	/* the draws in the order they are made */
	guards = (int)rng_die(same, 4);
	gem = (int)rng_die(same, 4);
	pearls = gem == 3 ? (int)rng_die(same, 6) + (int)rng_die(same, 6) : 0;
	coin = (int)rng_die(same, 6);
	gp = (int)rng_die(same, 6);
	gp += (int)rng_die(same, 6);
	gp += (int)rng_die(same, 6);
	(void)coin;
	assert_int_equal(roll_table_expand(r, loot, (size_t)p.index, &lk, &tr, &out),
	                 gem == 3 ? 3 : 2);
	if (gem == 3)
		snprintf(want, sizeof(want), "%d %s and a chest of %d pearls (2d6: ", guards,
		         guards == 1 ? "guard" : "guards", pearls);
	else
		snprintf(want, sizeof(want), "%d %s and a chest of %s and ", guards,
		         guards == 1 ? "guard" : "guards", gem_text[gem - 1]);
	assert_true(strncmp(buf_str(&out), want, strlen(want)) == 0);
	snprintf(want, sizeof(want), "%d gp (3d6: ", gp);
	assert_non_null(strstr(buf_str(&out), want));
	snprintf(want, sizeof(want), " (1d4: %d)", guards);
	assert_true(strlen(buf_str(&out)) > strlen(want));
	assert_string_equal(buf_str(&out) + strlen(buf_str(&out)) - strlen(want), want);
	/* the trace names each table rolled, in order, and its result */
	assert_int_equal(tr.n, 2);
	assert_string_equal(tr.step[0].name, "gems");
	assert_int_equal(tr.step[0].depth, 1);
	assert_int_equal(tr.step[0].pick.result, gem);
	assert_string_equal(tr.step[0].entry, l.t[0]->e[gem - 1].text);
	assert_string_equal(tr.step[1].name, "coins");
	assert_int_equal(tr.step[1].pick.sides, 6);
	assert_int_equal(tr.unrolled, 0);
	/* the same seed gives the same text */
	{
		struct rng *again = rng_new_seeded(42);
		struct buf b2;

		buf_init(&b2, 4096);
		roll_table_pick(again, loot, 0, &p);
		roll_table_expand(again, loot, (size_t)p.index, &lk, NULL, &b2);
		assert_string_equal(buf_str(&b2), buf_str(&out));
		buf_free(&b2);
		rng_free(again);
	}
	buf_free(&out);
	free(loot);
	free(l.t[0]);
	free(l.t[1]);
	rng_free(r);
	rng_free(same);
}

/* References stop at the depth limit and at the rolls limit, and a name no
 * table has stays as written; nothing loops even on a lookup that would. */
static void
references_are_bounded(void **unused)
{
	struct library l = {.names = {"self", "wide"}};
	struct roll_table_lookup lk = {find, &l};
	struct roll_table_trace tr = {0};
	struct rng *r = rng_new_seeded(1);
	struct buf out;

	(void)unused;
	l.t[0] = table("1-4: x[[self]]");
	l.t[1] = table("1-4: [[wide]] [[wide]] [[wide]]");
	buf_init(&out, 1 << 16);
	roll_table_expand(r, l.t[0], 0, &lk, &tr, &out);
	/* a chain of ROLL_TABLE_DEPTH_MAX tables, the last reference kept */
	assert_string_equal(buf_str(&out), "xxxx[[self]]");
	assert_int_equal(tr.n, ROLL_TABLE_DEPTH_MAX - 1);
	assert_int_equal(tr.unrolled, 1);
	memset(&tr, 0, sizeof(tr));
	l.asked = 0;
	buf_reset(&out);
	roll_table_expand(r, l.t[1], 0, &lk, &tr, &out);
	assert_true(l.asked <= ROLL_TABLE_ROLLS_MAX);
	assert_int_equal(tr.n, (size_t)l.asked);
	assert_true(tr.unrolled > 0);
	/* a table nobody has */
	memset(&tr, 0, sizeof(tr));
	buf_reset(&out);
	{
		struct roll_table *t = table("1-6: a [[nowhere]] door");

		roll_table_expand(r, t, 0, &lk, &tr, &out);
		assert_string_equal(buf_str(&out), "a [[nowhere]] door");
		assert_int_equal(tr.n, 1);
		assert_true(tr.step[0].missing);
		buf_reset(&out);
		roll_table_expand(r, t, 0, NULL, NULL, &out);
		assert_string_equal(buf_str(&out), "a [[nowhere]] door");
		free(t);
	}
	buf_free(&out);
	free(l.t[0]);
	free(l.t[1]);
	rng_free(r);
}

/* A struck entry of a table a reference rolls is shown as written. */
static void
struck_nested_entry_is_not_expanded(void **unused)
{
	struct library l = {.names = {"foes"}};
	struct roll_table_lookup lk = {find, &l};
	struct roll_table_trace tr = {0};
	struct rng *r = rng_new_seeded(3);
	struct roll_table *t = table("1-6: [[foes]]");
	struct buf out;

	(void)unused;
	l.t[0] = table("1-4: 1d4 goblins");
	l.t[0]->e[0].struck = true;
	buf_init(&out, 4096);
	roll_table_expand(r, t, 0, &lk, &tr, &out);
	assert_string_equal(buf_str(&out), "1d4 goblins");
	assert_true(tr.step[0].pick.struck);
	buf_free(&out);
	free(t);
	free(l.t[0]);
	rng_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(d66_is_uniform),
	    cmocka_unit_test(weights_are_honoured),
	    cmocka_unit_test(tension_or_own_die),
	    cmocka_unit_test(nested_rolls_with_a_fixed_seed),
	    cmocka_unit_test(references_are_bounded),
	    cmocka_unit_test(struck_nested_entry_is_not_expanded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
