/*
 * Unit tests for the dice engine (rules/dice.h): every example of
 * shared/NOTATION.md with exact expectations under seeded generators, every
 * limit at its boundary, every error message, and the walking API.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/dice/dice.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/dicesame.h"

/* rng_new_seeded(SEED_2545) makes 4d6 roll 2, 5, 4, 5. */
#define SEED_2545 484
#define SEEDS     300

static struct dice_result *
roll_seeded(const char *text, uint64_t seed)
{
	struct rng *r = rng_new_seeded(seed);
	struct dice_result *res = NULL;
	char err[DICE_ERR_MAX];
	int rc;

	assert_non_null(r);
	rc = dice_roll(text, strlen(text), r, &res, err, sizeof(err));
	if (rc != 0) {
		rng_free(r);
		fail_msg("\"%s\" failed (%d): %s", text, rc, err);
	}
	/* Dice draw only through the generator, one draw per die (a d1
	 * needs none). */
	assert_true(rng_draws(r) <= dice_result_rolled(res));
	if (strstr(text, "d1") == NULL)
		assert_int_equal(rng_draws(r), dice_result_rolled(res));
	rng_free(r);
	return res;
}

static void
expect_error(const char *text, size_t len, int code, const char *msg)
{
	struct rng *r = rng_new_seeded(7);
	struct dice_result *res = (struct dice_result *)&res;
	char err[DICE_ERR_MAX];
	int rc;

	rc = dice_roll(text, len, r, &res, err, sizeof(err));
	if (rc != code || strcmp(err, msg) != 0)
		fail_msg("\"%.*s\": got %d \"%s\", want %d \"%s\"", (int)len, text, rc, err, code,
		         msg);
	assert_null(res);
	rng_free(r);
}

static void
expect_err(const char *text, int code, const char *msg)
{
	expect_error(text, strlen(text), code, msg);
}

static const struct dice_repeat *
repeat(const struct dice_result *res, size_t expr, size_t rep)
{
	const struct dice_expr *x = dice_result_expr(res, expr);

	assert_non_null(x);
	assert_true(rep < x->nrepeats);
	return &x->repeats[rep];
}

/* The n-th group (operands included) of the first roll of expression 0. */
static const struct dice_group *
group(const struct dice_result *res, size_t n)
{
	const struct dice_repeat *rp = repeat(res, 0, 0);

	for (size_t i = 0; i < rp->nitems; i++)
		if (rp->items[i].kind == DICE_ITEM_GROUP && n-- == 0)
			return rp->items[i].group;
	fail_msg("no such group");
	return NULL;
}

static int64_t
total(const struct dice_result *res)
{
	return repeat(res, 0, 0)->total;
}

static bool
counted(const struct dice_die *d)
{
	return !(d->flags & (DICE_DROPPED | DICE_REROLLED));
}

static void
assert_same_dice(const struct dice_group *a, const struct dice_group *b)
{
	assert_int_equal(a->ndice, b->ndice);
	assert_int_equal(a->value, b->value);
	for (size_t i = 0; i < a->ndice; i++) {
		assert_int_equal(a->dice[i].value, b->dice[i].value);
		assert_int_equal(a->dice[i].flags, b->dice[i].flags);
	}
}

static void
expect_canon(const char *text, const char *want)
{
	char out[DICE_CANON_MAX], err[DICE_ERR_MAX], again[DICE_CANON_MAX];

	if (dice_normalize(text, strlen(text), out, sizeof(out), err, sizeof(err)) != 0)
		fail_msg("\"%s\": %s", text, err);
	assert_string_equal(out, want);
	assert_int_equal(dice_normalize(out, strlen(out), again, sizeof(again), err, sizeof(err)),
	                 0);
	assert_string_equal(again, out);
}

static void
test_d20_is_1d20(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 50; s++) {
		struct dice_result *a = roll_seeded("d20", s);
		struct dice_result *b = roll_seeded("1d20", s);

		assert_same_dice(group(a, 0), group(b, 0));
		assert_string_equal(dice_result_expr(a, 0)->source, "1d20");
		assert_int_equal(group(a, 0)->ndice, 1);
		assert_in_range(total(a), 1, 20);
		dice_result_free(a);
		dice_result_free(b);
	}
}

static void
test_keep_drop_equivalences(void **state)
{
	static const char *const kh3[] = {"4d6kh3", "4d6k3", "4d6d1", "4d6dl1", "4D6KH3"};
	static const char *const kl1[] = {"2d20kl1", "2d20dh1"};

	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *r0 = roll_seeded(kh3[0], s);
		const struct dice_group *g = group(r0, 0);
		int64_t min = 7, sum = 0;
		size_t dropped = 0;

		for (size_t i = 1; i < 5; i++) {
			struct dice_result *r = roll_seeded(kh3[i], s);

			assert_same_dice(g, group(r, 0));
			dice_result_free(r);
		}
		for (size_t i = 0; i < g->ndice; i++) {
			sum += g->dice[i].value;
			if (g->dice[i].value < min)
				min = g->dice[i].value;
			if (g->dice[i].flags & DICE_DROPPED) {
				dropped++;
				/* The dropped die is the first lowest. */
				for (size_t j = 0; j < i; j++)
					assert_true(g->dice[j].value > g->dice[i].value);
			}
		}
		assert_int_equal(dropped, 1);
		assert_int_equal(total(r0), sum - min);
		dice_result_free(r0);

		r0 = roll_seeded(kl1[0], s);
		{
			struct dice_result *r = roll_seeded(kl1[1], s);
			const struct dice_group *a = group(r0, 0);

			assert_same_dice(a, group(r, 0));
			assert_int_equal(total(r0), a->dice[0].value < a->dice[1].value
			                                ? a->dice[0].value
			                                : a->dice[1].value);
			dice_result_free(r);
		}
		dice_result_free(r0);
	}
}

static void
test_keep_and_drop_combine(void **state)
{
	struct dice_result *res;

	(void)state;
	for (uint64_t s = 0; s < 50; s++) {
		res = roll_seeded("3d10k1dh1", s);
		assert_int_equal(total(res), 0);
		for (size_t i = 0; i < 3; i++)
			assert_true(group(res, 0)->dice[i].flags & DICE_DROPPED);
		dice_result_free(res);
	}
}

/* The kept dice of group g, in order, as a small number ("55" for two 5s). */
static int64_t
kept(const struct dice_group *g)
{
	int64_t k = 0;

	for (size_t i = 0; i < g->ndice; i++)
		if (!(g->dice[i].flags & DICE_DROPPED))
			k = k * 10 + g->dice[i].value;
	return k;
}

/*
 * Keep and drop each look at the whole pool and the union of what they
 * drop is dropped (rpg-dice-roller). Under SEED_2545 4d6 rolls 2, 5, 4, 5;
 * ranked low to high: 2, 4, the first 5, the second 5.
 */
static void
test_keep_drop_union(void **state)
{
	static const struct {
		const char *text;
		int64_t total, kept;
	} t[] = {
	    {"4d6kh3dl1", 14, 545}, /* both drop the 2 */
	    {"4d6kh3d1", 14, 545},
	    {"4d6dh1dl2", 5, 5},  /* drops the second 5, then 2 and 4 */
	    {"4d6kh3kl1", 0, 0},  /* kh3 drops the 2, kl1 the rest */
	    {"4d6kh2kl3", 5, 5},  /* kh2 drops 2 and 4, kl3 the second 5 */
	    {"4d6kl3dh2", 6, 24}, /* both drop the second 5, dh2 the first too */
	    {"4d6kh1dl1", 5, 5},  /* the highest is not the lowest: kept */
	    {"4d6kh3kl3dl1dh1", 9, 54},
	    {"4d6kh5", 16, 2545}, /* keeping more than were rolled keeps them all */
	    {"4d6kl9dl0", 16, 2545},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct dice_result *res = roll_seeded(t[k].text, SEED_2545);

		if (total(res) != t[k].total || kept(group(res, 0)) != t[k].kept)
			fail_msg("%s: total %lld kept %lld, want %lld kept %lld", t[k].text,
			         (long long)total(res), (long long)kept(group(res, 0)),
			         (long long)t[k].total, (long long)t[k].kept);
		dice_result_free(res);
	}
	/* 3d10k1d1 is the highest die, 4d6kh3dl1 is 4d6kh3, whatever the roll. */
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *a = roll_seeded("3d10k1d1", s);
		struct dice_result *b = roll_seeded("4d6kh3dl1", s);
		struct dice_result *c = roll_seeded("4d6kh3", s);
		const struct dice_group *g = group(a, 0);
		int64_t max = 0;

		for (size_t i = 0; i < g->ndice; i++)
			max = g->dice[i].value > max ? g->dice[i].value : max;
		assert_int_equal(total(a), max);
		assert_same_dice(group(b, 0), group(c, 0));
		assert_int_equal(total(b), total(c));
		dice_result_free(a);
		dice_result_free(b);
		dice_result_free(c);
	}
}

/* Checks that every die added by an explosion follows a die that matched
 * the explode point (lo..hi) and that every matching die exploded. */
static size_t
check_explosions(const char *text, int64_t lo, int64_t hi, uint64_t seed)
{
	struct dice_result *res = roll_seeded(text, seed);
	const struct dice_group *g = group(res, 0);
	size_t added = 0, orig = 0;
	int64_t sum = 0;

	for (size_t i = 0; i < g->ndice; i++) {
		const struct dice_die *d = &g->dice[i];
		bool match = d->value >= lo && d->value <= hi;

		assert_in_range(d->value, 1, 6);
		assert_int_equal(!!(d->flags & DICE_EXPLODED), match);
		if (d->flags & DICE_ADDED) {
			added++;
			assert_true(i > 0);
			assert_true(g->dice[i - 1].flags & DICE_EXPLODED);
			assert_in_range(g->dice[i - 1].value, lo, hi);
		} else {
			orig++;
		}
		if (match)
			assert_true(i + 1 < g->ndice && (g->dice[i + 1].flags & DICE_ADDED));
		sum += d->value;
	}
	assert_int_equal(orig, 3);
	assert_int_equal(total(res), sum);
	assert_int_equal(dice_result_rolled(res), g->ndice);
	dice_result_free(res);
	return added;
}

static void
test_explode(void **state)
{
	size_t a = 0, b = 0, c = 0;

	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		a += check_explosions("3d6!", 6, 6, s);
		b += check_explosions("3d6!>4", 5, 6, s);
		c += check_explosions("3d6!=3", 3, 3, s);
		check_explosions("3d6!3", 3, 3, s);
		check_explosions("3d6!>=5", 5, 6, s);
	}
	/* Each threshold did make dice explode. */
	assert_true(a > 0 && b > a && c > 0);
}

static void
test_compound(void **state)
{
	size_t compounded = 0;

	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *res = roll_seeded("2d6!!", s);
		const struct dice_group *g = group(res, 0);

		assert_int_equal(g->ndice, 2);
		for (size_t i = 0; i < 2; i++) {
			const struct dice_die *d = &g->dice[i];

			if (d->flags & DICE_COMPOUNDED) {
				compounded++;
				assert_true(d->value > 6 && d->value % 6 != 0);
			} else {
				assert_in_range(d->value, 1, 5);
			}
		}
		assert_int_equal(total(res), g->dice[0].value + g->dice[1].value);
		dice_result_free(res);
	}
	assert_true(compounded > 0);
}

static void
test_penetrate(void **state)
{
	size_t pen = 0;

	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *res = roll_seeded("2d6!p", s);
		const struct dice_group *g = group(res, 0);
		int64_t sum = 0;

		for (size_t i = 0; i < g->ndice; i++) {
			const struct dice_die *d = &g->dice[i];

			sum += d->value;
			if (!(d->flags & DICE_ADDED)) {
				assert_in_range(d->value, 1, 6);
				continue;
			}
			pen++;
			assert_true(d->flags & DICE_PENETRATED);
			assert_in_range(d->value, 0, 5);
			/* The die before showed a 6 (a penetrated 6 is 5). */
			assert_true(g->dice[i - 1].flags & DICE_EXPLODED);
			assert_int_equal(g->dice[i - 1].value,
			                 g->dice[i - 1].flags & DICE_PENETRATED ? 5 : 6);
		}
		assert_int_equal(total(res), sum);
		dice_result_free(res);
	}
	assert_true(pen > 0);
}

static void
test_reroll(void **state)
{
	size_t rerolls = 0, once = 0;

	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *res = roll_seeded("d6r", s);
		const struct dice_group *g = group(res, 0);

		for (size_t i = 0; i + 1 < g->ndice; i++) {
			assert_true(g->dice[i].flags & DICE_REROLLED);
			assert_int_equal(g->dice[i].value, 1);
			rerolls++;
		}
		assert_false(g->dice[g->ndice - 1].flags & DICE_REROLLED);
		assert_in_range(total(res), 2, 6);
		dice_result_free(res);

		res = roll_seeded("d6ro", s);
		g = group(res, 0);
		assert_in_range(g->ndice, 1, 2);
		if (g->ndice == 2) {
			once++;
			assert_int_equal(g->dice[0].value, 1);
			assert_true(g->dice[0].flags & DICE_REROLLED);
			assert_int_equal(total(res), g->dice[1].value);
		}
		dice_result_free(res);

		res = roll_seeded("4d10r<=3", s);
		g = group(res, 0);
		{
			size_t live = 0;

			for (size_t i = 0; i < g->ndice; i++) {
				if (!counted(&g->dice[i])) {
					assert_in_range(g->dice[i].value, 1, 3);
					continue;
				}
				live++;
				assert_in_range(g->dice[i].value, 4, 10);
			}
			assert_int_equal(live, 4);
		}
		dice_result_free(res);
	}
	assert_true(rerolls > 0 && once > 0);
}

static void
test_reroll_once_on_every_face(void **state)
{
	struct dice_result *res;

	(void)state;
	res = roll_seeded("d6ro<7", 3);
	assert_int_equal(group(res, 0)->ndice, 2);
	assert_true(group(res, 0)->dice[0].flags & DICE_REROLLED);
	assert_false(group(res, 0)->dice[1].flags & DICE_REROLLED);
	dice_result_free(res);
}

static void
test_successes(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *res = roll_seeded("5d10>=8", s);
		const struct dice_group *g = group(res, 0);
		int64_t n = 0;

		assert_true(g->successes_counted);
		for (size_t i = 0; i < g->ndice; i++) {
			bool ok = g->dice[i].value >= 8;

			n += ok;
			assert_int_equal(!!(g->dice[i].flags & DICE_SUCCESS), ok);
		}
		assert_int_equal(total(res), n);
		assert_int_equal(g->successes, n);
		dice_result_free(res);

		res = roll_seeded("3d10>=6f1", s);
		g = group(res, 0);
		n = 0;
		for (size_t i = 0; i < g->ndice; i++)
			n += (g->dice[i].value >= 6) - (g->dice[i].value == 1);
		assert_int_equal(total(res), n);
		dice_result_free(res);
	}
}

/*
 * Ruling: failures with no success point on a term whose explosion has a
 * compare point count successes at that point ("10d10!>8f1", the attack
 * roll of issue 2): dice above 8 explode and succeed, 1s fail.
 */
static void
test_failure_with_explode_point(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct dice_result *res = roll_seeded("10d10!>8f1 # attack", s);
		const struct dice_group *g = group(res, 0);
		int64_t n = 0, added = 0, exploded = 0;

		assert_true(g->successes_counted);
		for (size_t i = 0; i < g->ndice; i++) {
			int64_t v = g->dice[i].value;

			n += (v > 8) - (v == 1);
			assert_int_equal(!!(g->dice[i].flags & DICE_SUCCESS), v > 8);
			assert_int_equal(!!(g->dice[i].flags & DICE_FAILURE), v == 1);
			assert_int_equal(!!(g->dice[i].flags & DICE_EXPLODED), v > 8);
			added += !!(g->dice[i].flags & DICE_ADDED);
			exploded += !!(g->dice[i].flags & DICE_EXPLODED);
		}
		assert_int_equal(added, exploded);
		assert_int_equal(g->ndice, 10 + added);
		assert_int_equal(total(res), n);
		assert_string_equal(dice_result_label(res), "attack");
		dice_result_free(res);
	}
	/* Without an explode compare point the success point is still needed. */
	expect_error("10d10!f1", 8, DICE_ESYNTAX,
	             "the failure modifier 'f' of the "
	             "term at column 1 needs a success compare point too, as in "
	             "4d6>4f<3");
}

static void
test_success_failure_exact(void **state)
{
	static const int64_t want[] = {2, 5, 4, 5};
	static const unsigned int flags[] = {DICE_FAILURE, DICE_SUCCESS, 0, DICE_SUCCESS};
	static const char *const forms[] = {"4d6>4f<3", "4d6f<3>4"};

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		struct dice_result *res = roll_seeded(forms[f], SEED_2545);
		const struct dice_group *g = group(res, 0);

		assert_int_equal(g->ndice, 4);
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(g->dice[i].value, want[i]);
			assert_int_equal(g->dice[i].flags, flags[i]);
		}
		assert_int_equal(g->successes, 2);
		assert_int_equal(g->failures, 1);
		assert_int_equal(total(res), 1);
		assert_string_equal(g->notation, "4d6>4f<3");
		dice_result_free(res);
	}
}

static void
test_ranges(void **state)
{
	int64_t lo[4] = {1000, 1000, 1000, 1000}, hi[4] = {-1000, -1000, -1000, -1000};
	static const char *const t[] = {"4dF", "4d%", "4d6min3", "8d6max2"};

	(void)state;
	for (uint64_t s = 0; s < 3000; s++) {
		for (size_t k = 0; k < 4; k++) {
			struct dice_result *res = roll_seeded(t[k], s);
			const struct dice_group *g = group(res, 0);
			int64_t v = total(res);

			if (v < lo[k])
				lo[k] = v;
			if (v > hi[k])
				hi[k] = v;
			for (size_t i = 0; i < g->ndice; i++) {
				int64_t d = g->dice[i].value;

				if (k == 0)
					assert_in_range(d + 1, 0, 2);
				if (k == 2) {
					assert_in_range(d, 3, 6);
					if (g->dice[i].flags & DICE_MIN)
						assert_int_equal(d, 3);
				}
				if (k == 3) {
					assert_in_range(d, 1, 2);
					if (g->dice[i].flags & DICE_MAX)
						assert_int_equal(d, 2);
				}
			}
			assert_true(g->fate == (k == 0));
			dice_result_free(res);
		}
	}
	assert_int_equal(lo[0], -4);
	assert_int_equal(hi[0], 4);
	assert_in_range(lo[1], 4, 400);
	assert_in_range(hi[1], 4, 400);
	assert_int_equal(lo[2], 12);
	assert_int_equal(hi[2], 24);
	/* All eight dice at 1 is a 1-in-6561 chance: only bound it. */
	assert_in_range(lo[3], 8, 10);
	assert_int_equal(hi[3], 16);
}

static void
test_arithmetic(void **state)
{
	static const struct {
		const char *text;
		int64_t total;
	} fixed[] = {
	    {"7/2", 3},
	    {"-7/2", -4},
	    {"7/-2", -4},
	    {"-7/-2", 3},
	    {"6/3", 2},
	    {"-6/3", -2},
	    {"1+2*3", 7},
	    {"(1+2)*3", 9},
	    {"10-2-3", 5},
	    {"100/10/5", 2},
	    {"--3", 3},
	    {"2*-3", -6},
	    {"2 - -3", 5},
	    {" 1 +\t2\n* 3 ", 7},
	    {"9223372036854775807", INT64_MAX},
	    {"-9223372036854775807-1", INT64_MIN},
	    {"(-9223372036854775807-1)/1", INT64_MIN},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		struct dice_result *res = roll_seeded(fixed[i].text, 1);

		if (total(res) != fixed[i].total)
			fail_msg("%s = %lld", fixed[i].text, (long long)total(res));
		assert_int_equal(dice_result_rolled(res), 0);
		dice_result_free(res);
	}
	for (uint64_t s = 0; s < 100; s++) {
		struct dice_result *res = roll_seeded("1d6+2*3", s);
		struct dice_result *neg;
		int64_t d = group(res, 0)->value, sum;

		assert_int_equal(total(res), d + 6);
		assert_string_equal(dice_result_expr(res, 0)->source, "1d6 + 2 * 3");
		dice_result_free(res);

		res = roll_seeded("(4-2)d10", s);
		assert_int_equal(group(res, 0)->count, 2);
		assert_int_equal(group(res, 0)->sides, 10);
		assert_int_equal(group(res, 0)->ndice, 2);
		neg = roll_seeded("2d10", s);
		assert_same_dice(group(res, 0), group(neg, 0));
		dice_result_free(neg);
		dice_result_free(res);

		res = roll_seeded("2d10/3", s);
		sum = group(res, 0)->value;
		assert_int_equal(total(res), sum / 3);
		dice_result_free(res);

		res = roll_seeded("-2d10/3", s);
		assert_int_equal(total(res), -((sum + 2) / 3));
		dice_result_free(res);

		res = roll_seeded("-1d20", s);
		assert_int_equal(total(res), -group(res, 0)->value);
		dice_result_free(res);

		res = roll_seeded("2d(3*2)", s);
		assert_int_equal(group(res, 0)->sides, 6);
		assert_int_equal(group(res, 0)->ndice, 2);
		dice_result_free(res);
	}
}

/* floor() ceil() round() abs(): exact division inside, then the function
 * rounds; counts and sides stay whole; items rebuild the canonical text. */
static void
test_functions(void **state)
{
	static const struct {
		const char *text;
		int64_t total;
		const char *source;
	} fixed[] = {
	    {"floor(7/2)", 3, "floor(7 / 2)"},
	    {"ceil(7/2)", 4, "ceil(7 / 2)"},
	    {"CEIL (7/2)", 4, "ceil(7 / 2)"},
	    {"round(5/2)", 3, "round(5 / 2)"},
	    {"round(-5/2)", -2, "round(-5 / 2)"},
	    {"round(-7/2)", -3, "round(-7 / 2)"},
	    {"round(7/3)", 2, "round(7 / 3)"},
	    {"round(-7/3)", -2, "round(-7 / 3)"},
	    {"floor(-7/2)", -4, "floor(-7 / 2)"},
	    {"ceil(-7/2)", -3, "ceil(-7 / 2)"},
	    {"ceil(1/3*3)", 1, "ceil(1 / 3 * 3)"},
	    {"floor(1/3+1/3+1/3)", 1, "floor(1 / 3 + 1 / 3 + 1 / 3)"},
	    {"ceil(2/3-1/6)", 1, "ceil(2 / 3 - 1 / 6)"},
	    {"abs(-7)", 7, "abs(-7)"},
	    {"abs(-7/2)", 3, "abs(-7 / 2)"},                     /* left a fraction: rounded down */
	    {"floor(abs(-7/2)*2)", 7, "floor(abs(-7 / 2) * 2)"}, /* exact within floor */
	    {"abs(-7/2)*2", 6, "abs(-7 / 2) * 2"},
	    {"-abs(-3)", -3, "-abs(-3)"},
	    {"7/2+floor(7/2)", 6, "7 / 2 + floor(7 / 2)"},
	    {"(floor(7/2))d1", 3, "(floor(7 / 2))d1"},
	    {"floor((7/2)d1)", 3, "floor((7 / 2)d1)"}, /* a count inside is whole */
	    {"ceil(9223372036854775807/2)", 4611686018427387904, "ceil(9223372036854775807 / 2)"},
	    {"round(-9223372036854775807/2)", -4611686018427387903,
	     "round(-9223372036854775807 / 2)"},
	};
	char canon[DICE_CANON_MAX], err[DICE_ERR_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		struct dice_result *res = roll_seeded(fixed[i].text, 1);

		if (total(res) != fixed[i].total)
			fail_msg("%s = %lld", fixed[i].text, (long long)total(res));
		assert_string_equal(dice_result_expr(res, 0)->source, fixed[i].source);
		assert_int_equal(dice_normalize(fixed[i].text, strlen(fixed[i].text), canon,
		                                sizeof(canon), err, sizeof(err)),
		                 DICE_OK);
		assert_string_equal(canon, fixed[i].source);
		dice_result_free(res);
	}
	for (uint64_t s = 0; s < 200; s++) {
		struct dice_result *res = roll_seeded("ceil(8d6/2)", s);
		int64_t sum = group(res, 0)->value;

		assert_int_equal(total(res), (sum + 1) / 2);
		dice_result_free(res);
		res = roll_seeded("round(2d10/3)", s);
		sum = group(res, 0)->value;
		assert_int_equal(total(res), (2 * sum + 3) / 6);
		dice_result_free(res);
	}
}

static void
test_subexpression_dice(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 100; s++) {
		struct dice_result *res = roll_seeded("(1d4)d6+1", s);
		const struct dice_repeat *rp = repeat(res, 0, 0);
		const struct dice_group *op = group(res, 0), *g = group(res, 1);

		assert_int_equal(rp->nitems, 4);
		assert_true(op->operand);
		assert_false(g->operand);
		assert_string_equal(op->notation, "1d4");
		assert_string_equal(g->notation, "(1d4)d6");
		assert_int_equal(g->count, op->value);
		assert_int_equal((int64_t)g->ndice, op->value);
		assert_int_equal(rp->total, g->value + 1);
		assert_int_equal(dice_result_rolled(res), 1 + g->ndice);
		assert_string_equal(rp->items[2].text, " + ");
		assert_string_equal(rp->items[3].text, "1");
		dice_result_free(res);
	}
}

/* Concatenating TEXT items and non-operand group notations gives the
 * expression's source. */
static void
test_items_rebuild_source(void **state)
{
	static const char *const t[] = {"1d6+2*3",
	                                "(4-2)d10",
	                                "-(2d6+3)/2",
	                                "((1d4)d6 - 2) * 3d8kh2",
	                                "4dF + 2d(1d6+1)",
	                                "--1d6",
	                                "5",
	                                "10d10>8!f1",
	                                "2d20kl1 + 1d4r",
	                                "ceil(8d6/2) - abs(-1d4)",
	                                "floor((1d4)d6 / round(2d(1d6+1)/3))"};

	(void)state;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct dice_result *res = roll_seeded(t[k], k);
		const struct dice_repeat *rp = repeat(res, 0, 0);
		char buf[512] = "";

		for (size_t i = 0; i < rp->nitems; i++) {
			const struct dice_item *it = &rp->items[i];
			const char *s = it->kind == DICE_ITEM_TEXT ? it->text
			                : it->group->operand       ? ""
			                                           : it->group->notation;

			assert_true(strlen(buf) + strlen(s) < sizeof(buf));
			memcpy(buf + strlen(buf), s, strlen(s) + 1);
		}
		assert_string_equal(buf, dice_result_expr(res, 0)->source);
		dice_result_free(res);
	}
}

/* dice_label_find() finds the label where dice_roll() starts it, in text
 * that parses and in text that is not dice yet, trimmed as the result
 * keeps it. */
static void
test_label_find(void **state)
{
	static const struct {
		const char *text;
		int hash;          /* offset of the '#', -1 for none */
		const char *label; /* its text */
		bool dice;         /* the text rolls, with that label */
	} t[] = {
	    {"1d20+5 # attack", 7, "attack", true},
	    {"2d6[a # b]#c", 10, "c", true},
	    {"2d6 [a#b] + 1 #\t fire \n", 14, "fire", true},
	    {"d20 # @everyone 100d6 [x] ; 1d4", 4, "@everyone 100d6 [x] ; 1d4", true},
	    {"5[str] + d20 #   ", 13, "", true},
	    {"2d6[fire]+1d4[cold]", -1, NULL, true},
	    {"fireball +2 # big label:x", 12, "big label:x", false},
	    {"1d20 [x # y", -1, NULL, false},
	    {"#", 0, "", false},
	    {"", -1, NULL, false},
	};
	struct dice_result *res;
	const char *label, *hash;
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		hash = dice_label_find(t[i].text, &label, &n);
		if (t[i].hash < 0) {
			assert_null(hash);
		} else {
			assert_ptr_equal(hash, t[i].text + t[i].hash);
			assert_int_equal(n, strlen(t[i].label));
			assert_memory_equal(label, t[i].label, n);
			assert_ptr_equal(dice_label_find(t[i].text, NULL, NULL), hash);
		}
		if (!t[i].dice)
			continue;
		res = roll_seeded(t[i].text, 11);
		if (t[i].label != NULL && t[i].label[0] != '\0')
			assert_string_equal(dice_result_label(res), t[i].label);
		else
			assert_null(dice_result_label(res));
		dice_result_free(res);
	}
}

static void
test_labels(void **state)
{
	struct dice_result *res;
	char err[DICE_ERR_MAX];
	struct rng *r;

	(void)state;
	res = roll_seeded("1d20+5 # dex save", 11);
	assert_string_equal(dice_result_label(res), "dex save");
	assert_int_equal(total(res), group(res, 0)->value + 5);
	assert_in_range(total(res), 6, 25);
	dice_result_free(res);

	res = roll_seeded("2d6[fire]+1d4[cold]", 11);
	assert_string_equal(group(res, 0)->label, "fire");
	assert_string_equal(group(res, 1)->label, "cold");
	assert_string_equal(group(res, 0)->notation, "2d6");
	assert_string_equal(dice_result_expr(res, 0)->source, "2d6[fire] + 1d4[cold]");
	assert_null(dice_result_label(res));
	dice_result_free(res);

	/* Label text is never parsed: one die, and the text kept verbatim. */
	res = roll_seeded("d20 # @everyone 100d6 [x] ; 1d4", 11);
	assert_string_equal(dice_result_label(res), "@everyone 100d6 [x] ; 1d4");
	assert_int_equal(dice_result_rolled(res), 1);
	assert_int_equal(dice_result_nexprs(res), 1);
	dice_result_free(res);

	res = roll_seeded("2d6[a # b]#c", 11);
	assert_string_equal(group(res, 0)->label, "a # b");
	assert_string_equal(dice_result_label(res), "c");
	dice_result_free(res);

	res = roll_seeded("5[str] + d20 #   ", 11);
	assert_string_equal(repeat(res, 0, 0)->items[0].label, "str");
	assert_null(dice_result_label(res));
	dice_result_free(res);

	res = roll_seeded("d20 # caf\xc3\xa9", 11);
	assert_string_equal(dice_result_label(res), "caf\xc3\xa9");
	dice_result_free(res);

	/* A term's [label] of blanks alone is no label, as "[]" and "#   "
	 * are (one of invisible characters is refused: test_cmd_roll). */
	res = roll_seeded("1d20[ ] + 3[   ] + 1d4[ a ]", 11);
	assert_null(group(res, 0)->label);
	assert_null(repeat(res, 0, 0)->items[1].label);
	assert_string_equal(group(res, 1)->label, " a ");
	assert_string_equal(dice_result_expr(res, 0)->source, "1d20 + 3 + 1d4[ a ]");
	dice_result_free(res);

	/* "d20 @everyone" pings nobody: an error that does not echo it. */
	r = rng_new_seeded(1);
	assert_int_equal(dice_roll("d20 @everyone", 13, r, &res, err, sizeof(err)), DICE_ESYNTAX);
	assert_null(strstr(err, "everyone"));
	rng_free(r);
}

static void
test_repeat_and_expressions(void **state)
{
	struct dice_result *res;

	(void)state;
	res = roll_seeded("6x 4d6kh3", 5);
	assert_int_equal(dice_result_nexprs(res), 1);
	assert_int_equal(dice_result_expr(res, 0)->nrepeats, 6);
	assert_string_equal(dice_result_expr(res, 0)->source, "4d6kh3");
	for (size_t i = 0; i < 6; i++) {
		const struct dice_repeat *rp = repeat(res, 0, i);

		assert_int_equal(rp->nitems, 1);
		assert_in_range(rp->total, 3, 18);
		assert_int_equal(rp->total, rp->items[0].group->value);
	}
	assert_int_equal(dice_result_rolled(res), 24);
	dice_result_free(res);

	res = roll_seeded("d20+1; 2X d6 ;3", 5);
	assert_int_equal(dice_result_nexprs(res), 3);
	assert_int_equal(dice_result_expr(res, 0)->nrepeats, 1);
	assert_int_equal(dice_result_expr(res, 1)->nrepeats, 2);
	assert_int_equal(repeat(res, 2, 0)->total, 3);
	assert_null(dice_result_expr(res, 3));
	assert_int_equal(dice_result_rolled(res), 3);
	dice_result_free(res);
}

static void
test_sorting(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 100; s++) {
		struct dice_result *plain = roll_seeded("8d6", s);
		struct dice_result *asc = roll_seeded("8d6s", s);
		struct dice_result *desc = roll_seeded("8d6sd", s);
		int counts[7] = {0};

		assert_int_equal(total(plain), total(asc));
		assert_int_equal(total(plain), total(desc));
		for (size_t i = 0; i < 8; i++) {
			counts[group(plain, 0)->dice[i].value]++;
			counts[group(asc, 0)->dice[i].value]--;
			if (i > 0) {
				assert_true(group(asc, 0)->dice[i - 1].value <=
				            group(asc, 0)->dice[i].value);
				assert_true(group(desc, 0)->dice[i - 1].value >=
				            group(desc, 0)->dice[i].value);
			}
		}
		for (int i = 0; i < 7; i++)
			assert_int_equal(counts[i], 0);
		dice_result_free(plain);
		dice_result_free(asc);
		dice_result_free(desc);

		/* A rerolled value stays right before its replacement. */
		asc = roll_seeded("10d6rsd", s);
		for (size_t i = 0; i < group(asc, 0)->ndice; i++) {
			const struct dice_die *d = &group(asc, 0)->dice[i];

			if (d->flags & DICE_REROLLED)
				assert_true(i + 1 < group(asc, 0)->ndice);
		}
		dice_result_free(asc);
	}
}

static void
test_crit_fumble_marks(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 100; s++) {
		struct dice_result *res = roll_seeded("6d6cscf", s);
		struct dice_result *plain = roll_seeded("6d6", s);
		const struct dice_group *g = group(res, 0);

		assert_int_equal(total(res), total(plain));
		for (size_t i = 0; i < g->ndice; i++) {
			assert_int_equal(!!(g->dice[i].flags & DICE_CRIT), g->dice[i].value == 6);
			assert_int_equal(!!(g->dice[i].flags & DICE_FUMBLE), g->dice[i].value == 1);
		}
		dice_result_free(res);
		dice_result_free(plain);

		res = roll_seeded("4d20cs>=19cf<=2", s);
		g = group(res, 0);
		for (size_t i = 0; i < g->ndice; i++)
			assert_int_equal(!!(g->dice[i].flags & DICE_CRIT), g->dice[i].value >= 19);
		dice_result_free(res);
	}
}

static void
test_modifier_order_is_fixed(void **state)
{
	static const char *const pairs[][2] = {
	    {"6d6!r", "6d6r!"},
	    {"8d6kh5dl1", "8d6dl1kh5"},
	    {"5d10>6f1!", "5d10!f1>6"},
	    {"6d6min2max5sd", "6d6sdmax5min2"},
	};

	(void)state;
	for (size_t k = 0; k < 4; k++) {
		for (uint64_t s = 0; s < 50; s++) {
			struct dice_result *a = roll_seeded(pairs[k][0], s);
			struct dice_result *b = roll_seeded(pairs[k][1], s);

			assert_same_dice(group(a, 0), group(b, 0));
			assert_string_equal(group(a, 0)->notation, group(b, 0)->notation);
			dice_result_free(a);
			dice_result_free(b);
		}
	}
}

static void
test_fate(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 100; s++) {
		struct dice_result *res = roll_seeded("4df+1", s);
		const struct dice_group *g = group(res, 0);

		assert_true(g->fate);
		assert_int_equal(g->ndice, 4);
		assert_string_equal(g->notation, "4dF");
		assert_int_equal(total(res), g->value + 1);
		dice_result_free(res);

		res = roll_seeded("4dF>0", s);
		g = group(res, 0);
		{
			int64_t n = 0;

			for (size_t i = 0; i < 4; i++)
				n += g->dice[i].value == 1;
			assert_int_equal(total(res), n);
		}
		dice_result_free(res);
	}
}

static void
test_chain_cap(void **state)
{
	struct dice_result *res;
	const struct dice_group *g;

	(void)state;
	res = roll_seeded("d1000000!>1", 9);
	g = group(res, 0);
	assert_int_equal(g->ndice, 1 + DICE_CHAIN_MAX);
	for (size_t i = 0; i < DICE_CHAIN_MAX; i++)
		assert_true(g->dice[i].flags & DICE_EXPLODED);
	assert_true(g->dice[DICE_CHAIN_MAX].flags & DICE_CAPPED);
	assert_false(g->dice[DICE_CHAIN_MAX].flags & DICE_EXPLODED);
	assert_true(g->capped);
	assert_true(dice_result_capped(res));
	assert_int_equal(dice_result_rolled(res), 1 + DICE_CHAIN_MAX);
	dice_result_free(res);

	res = roll_seeded("d1000000r>1", 9);
	g = group(res, 0);
	assert_int_equal(g->ndice, 1 + DICE_CHAIN_MAX);
	for (size_t i = 0; i < DICE_CHAIN_MAX; i++)
		assert_true(g->dice[i].flags & DICE_REROLLED);
	assert_true(g->dice[DICE_CHAIN_MAX].flags & DICE_CAPPED);
	assert_true(dice_result_capped(res));
	dice_result_free(res);

	res = roll_seeded("d1000000!!>1", 9);
	g = group(res, 0);
	assert_int_equal(g->ndice, 1);
	assert_true(g->dice[0].flags & DICE_CAPPED);
	assert_true(g->dice[0].flags & DICE_COMPOUNDED);
	assert_int_equal(dice_result_rolled(res), 1 + DICE_CHAIN_MAX);
	dice_result_free(res);

	/* A capped chain that is then rerolled still says it was capped. */
	res = roll_seeded("d1000000!!>1ro>1", 9);
	g = group(res, 0);
	assert_int_equal(g->ndice, 2);
	assert_int_equal(g->dice[0].flags, DICE_COMPOUNDED | DICE_CAPPED | DICE_REROLLED);
	assert_int_equal(g->dice[1].flags & DICE_CAPPED, 0);
	assert_true(g->capped);
	assert_int_equal(dice_result_rolled(res), 2 + DICE_CHAIN_MAX);
	assert_int_equal(total(res), g->dice[1].value);
	dice_result_free(res);

	res = roll_seeded("3d6!", 9);
	assert_false(dice_result_capped(res));
	dice_result_free(res);
}

static void
test_limits(void **state)
{
	char text[1024];
	struct dice_result *res;

	(void)state;
	res = roll_seeded("1000d6", 1);
	assert_int_equal(group(res, 0)->ndice, 1000);
	dice_result_free(res);
	expect_err("1001d6", DICE_ELIMIT,
	           "the term at column 1 must roll between 1 and 1000 dice (got 1001)");
	expect_err(
	    "2 + 99999999999999999999d6", DICE_ELIMIT,
	    "the term at column 5 must roll between 1 and 1000 dice (got a number of 20 digits)");

	res = roll_seeded("d1000000", 1);
	dice_result_free(res);
	expect_err(
	    "d1000001", DICE_ELIMIT,
	    "the dice of the term at column 1 must have between 1 and 1000000 sides (got 1000001)");
	expect_err("1+d99999999999999999999", DICE_ELIMIT,
	           "the dice of the term at column 3 must have between 1 and 1000000 sides (got a "
	           "number of 20 digits)");

	res = roll_seeded("20x d6", 1);
	assert_int_equal(dice_result_expr(res, 0)->nrepeats, 20);
	dice_result_free(res);
	expect_err("21x d6", DICE_ELIMIT,
	           "a repeat must be between 1x and 20x (got 21x at column 1)");
	expect_err("d6; 0x d6", DICE_ELIMIT,
	           "a repeat must be between 1x and 20x (got 0x at column 5)");
	expect_err("99999999999999999999x d6", DICE_ELIMIT,
	           "a repeat must be between 1x and 20x (the one at column 1 is far "
	           "larger)");

	res = roll_seeded("1;2;3;4;5;6;7;8;9;10", 1);
	assert_int_equal(dice_result_nexprs(res), 10);
	dice_result_free(res);
	expect_err("1;2;3;4;5;6;7;8;9;10;11", DICE_ELIMIT,
	           "a roll may have at most 10 expressions separated by ';' (the ';' at "
	           "column 21 starts one more)");

	/* 490 zeros and ten ones: a number that fits, written long. */
	memset(text, '0', 490);
	memset(text + 490, '1', 10);
	text[500] = '\0';
	res = roll_seeded(text, 1);
	assert_int_equal(total(res), 1111111111);
	dice_result_free(res);
	text[500] = '1';
	text[501] = '\0';
	expect_err(text, DICE_ELIMIT, "a roll may be at most 500 bytes long (got 501)");

	/* 32 levels of parentheses, then 33. */
	memset(text, '(', 32);
	text[32] = '1';
	memset(text + 33, ')', 32);
	text[65] = '\0';
	res = roll_seeded(text, 1);
	assert_int_equal(total(res), 1);
	dice_result_free(res);
	memset(text, '(', 33);
	text[33] = '1';
	memset(text + 34, ')', 33);
	text[67] = '\0';
	expect_err(text, DICE_ELIMIT,
	           "parentheses may nest at most 32 deep "
	           "(the '(' at column 33 would be level 33)");
	memcpy(text, "2d", 2);
	memset(text + 2, '(', 33);
	text[35] = '6';
	memset(text + 36, ')', 33);
	text[69] = '\0';
	expect_err(text, DICE_ELIMIT,
	           "parentheses may nest at most 32 deep "
	           "(the '(' at column 35 would be level 33)");

	/* 10,000 dice: known before rolling, or met while rolling. */
	res = roll_seeded("10x 1000d6", 1);
	assert_int_equal(dice_result_rolled(res), 10000);
	dice_result_free(res);
	res = roll_seeded("5x 1000d6; 5x 1000d6", 1);
	assert_int_equal(dice_result_rolled(res), 10000);
	dice_result_free(res);
	expect_err("10x 1000d6; d6", DICE_ELIMIT,
	           "a roll may roll at most "
	           "10000 dice in all, counting explosions and rerolls (this one asks "
	           "for 10001)");
	expect_err("10x 1000d6 + d6", DICE_ELIMIT,
	           "a roll may roll at most "
	           "10000 dice in all, counting explosions and rerolls (this one asks "
	           "for 10010)");
	expect_err("9x 1000d2!", DICE_ELIMIT,
	           "a roll may roll at most 10000 dice in all, counting explosions and "
	           "rerolls; the term at column 4 went past it");
	expect_err("20x (1000)d1000000!>1", DICE_ELIMIT,
	           "a roll may roll at most 10000 dice in all, counting explosions and "
	           "rerolls; the term at column 5 went past it");
	expect_err("10x 1000d6r<6", DICE_ELIMIT,
	           "a roll may roll at most 10000 dice in all, counting explosions and "
	           "rerolls; the term at column 5 went past it");

	/* Labels: 200 bytes, not 201. */
	memcpy(text, "d20 # ", 6);
	memset(text + 6, 'a', 200);
	text[206] = '\0';
	res = roll_seeded(text, 1);
	assert_int_equal(strlen(dice_result_label(res)), 200);
	dice_result_free(res);
	text[206] = 'a';
	text[207] = '\0';
	expect_err(text, DICE_ELIMIT, "the label at column 5 is longer than 200 bytes (got 201)");
}

static void
test_notation_errors(void **state)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} t[] = {
	    {"0d6", DICE_ELIMIT, "the term at column 1 must roll between 1 and 1000 dice (got 0)"},
	    {"d0", DICE_ELIMIT,
	     "the dice of the term at column 1 must have between 1 and 1000000 sides (got 0)"},
	    {"1001d6", DICE_ELIMIT,
	     "the term at column 1 must roll between 1 and 1000 dice (got 1001)"},
	    {"d1!", DICE_ELIMIT,
	     "'!' of the term at column 1 explodes on every face of d1, so it "
	     "would never stop; use a compare point that some faces "
	     "miss"},
	    {"d6!>0", DICE_ELIMIT,
	     "'!>0' of the term at column 1 explodes on every face of d6, so "
	     "it would never stop; use a compare point that some faces "
	     "miss"},
	    {"d6r<7", DICE_ELIMIT,
	     "'r<7' of the term at column 1 rerolls every face of d6, so it "
	     "would never stop; use a compare point that some faces "
	     "miss"},
	    {"d6!!<=6", DICE_ELIMIT,
	     "'!!<=6' of the term at column 1 compounds on every face of "
	     "d6, so it would never stop; use a compare point that some "
	     "faces miss"},
	    {"d6!p>=1", DICE_ELIMIT,
	     "'!p>=1' of the term at column 1 penetrates on every face of "
	     "d6, so it would never stop; use a compare point that some "
	     "faces miss"},
	    {"d6min6!", DICE_ELIMIT,
	     "'!' of the term at column 1 explodes on every face of d6min6, "
	     "so it would never stop; use a compare point that some "
	     "faces miss"},
	    {"dF!<>5", DICE_ELIMIT,
	     "'!<>5' of the term at column 1 explodes on every face of dF, "
	     "so it would never stop; use a compare point that some "
	     "faces miss"},
	    {"d1r", DICE_ELIMIT,
	     "'r' of the term at column 1 rerolls every face of d1, so it "
	     "would never stop; use a compare point that some faces "
	     "miss"},
	    {"d(1)!", DICE_ELIMIT,
	     "'!' of the term at column 1 explodes on every face of d1, so "
	     "it would never stop; use a compare point that some faces "
	     "miss"},
	    {"(0)d6", DICE_ELIMIT,
	     "the term at column 1 must roll between 1 and 1000 dice (got 0)"},
	    {"1 + (2-3)d6", DICE_ELIMIT,
	     "the term at column 5 must roll between 1 and 1000 dice (got -1)"},
	    {"d(0)", DICE_ELIMIT,
	     "the dice of the term at column 1 must have between 1 and 1000000 sides (got 0)"},
	    {"1 + d6r<7", DICE_ELIMIT,
	     "'r<7' of the term at column 5 rerolls every face of d6, so it would never stop; "
	     "use a compare point that some faces miss"},
	    {"3 * 2d(1)!", DICE_ELIMIT,
	     "'!' of the term at column 5 explodes on every face of d1, so it would never "
	     "stop; use a compare point that some faces miss"},
	    {"1d20+", DICE_ESYNTAX, "expected a number or dice after '+' at column 6"},
	    {"((1d6)", DICE_ESYNTAX, "expected ')' at column 7 to close the '(' at column 1"},
	    {"(1d6 x)", DICE_ESYNTAX,
	     "expected ')' at column 6 to close "
	     "the '(' at column 1, not 'x'"},
	    {"1d6/0", DICE_EMATH, "division by zero at column 4"},
	    {"1d6/(3-3)", DICE_EMATH, "division by zero at column 4"},
	    {"d20 @everyone", DICE_ESYNTAX,
	     "unexpected '@' at column 5; an "
	     "operator (+ - * /), ';', '# label' or the end may follow a "
	     "term"},
	    {"4d6q", DICE_ESYNTAX,
	     "unexpected 'q' at column 4; a dice "
	     "modifier, an operator (+ - * /), ';', '# label' or the end "
	     "may follow a term"},
	    {"4d6 kh3", DICE_ESYNTAX,
	     "'kh3' at column 5 is a dice modifier, which follows its dice with no blank between "
	     "(4d6kh3, not 4d6 kh3)"},
	    {"2d6; 3d6  r<2 + 1", DICE_ESYNTAX,
	     "'r<2' at column 11 is a dice modifier, which follows its dice with no blank between "
	     "(4d6r<2, not 4d6 r<2)"},
	    {"2d6 + 3 kh1", DICE_ESYNTAX,
	     "unexpected 'k' at column 9; an operator (+ - * /), ';', '# label' or the end may "
	     "follow a term"},
	    {"round(2.5)", DICE_ESYNTAX,
	     "'2.5' at column 7 is not a whole number, and a roll's numbers are whole: / divides "
	     "rounding down, round(7/2) rounds"},
	    {"1.5d6", DICE_ESYNTAX,
	     "'1.5' at column 1 is not a whole number, and a roll's numbers are whole: / divides "
	     "rounding down, round(7/2) rounds"},
	    {"1d20 + 10.25", DICE_ESYNTAX,
	     "'10.25' at column 8 is not a whole number, and a roll's numbers are whole: / "
	     "divides rounding down, round(7/2) rounds"},
	    {"{2d20}kh1", DICE_ESYNTAX,
	     "'{' at column 1 belongs to a Roll20 group, which delver does not read: keep or drop "
	     "within one term (2d20kh1), or roll several with ';'"},
	    {"2d20 + {1d4}", DICE_ESYNTAX,
	     "'{' at column 8 belongs to a Roll20 group, which delver does not read: keep or drop "
	     "within one term (2d20kh1), or roll several with ';'"},
	    {"4d6min7", DICE_ESYNTAX,
	     "'min7' of the term at column 1 is above the highest face of its d6 dice (6); min "
	     "may be 1 to 6"},
	    {"4d6max0", DICE_ESYNTAX,
	     "'max0' of the term at column 1 is below the lowest face of its d6 dice (1); max "
	     "may be 1 to 6"},
	    {"4d6min5max2", DICE_ESYNTAX,
	     "'max2' of the term at column 1 is below its 'min5', so every die would count 2; max "
	     "may not be below min"},
	    {"1 + 4dFmin2", DICE_ESYNTAX,
	     "'min2' of the term at column 5 is above the highest face of its dF dice (1); min "
	     "may be 0 to 1"},
	    {"(1+1)d(2*3)min9", DICE_ESYNTAX,
	     "'min9' of the term at column 1 is above the highest face of its d6 dice (6); min "
	     "may be 1 to 6"},
	    {"2 d6", DICE_ESYNTAX,
	     "unexpected 'd' at column 3; an operator "
	     "(+ - * /), ';', '# label' or the end may follow a term"},
	    {"", DICE_ESYNTAX, "expected a number or dice at column 1"},
	    {"   ", DICE_ESYNTAX, "expected a number or dice at column 4"},
	    {"# hi", DICE_ESYNTAX, "expected a number or dice at column 1, not '#'"},
	    /* recheck4 F3: a character that shows nothing is named, not quoted
	     * as '' (what a reply shows of it) */
	    {"\u200b1d6", DICE_ESYNTAX,
	     "expected a number or dice at column 1, not an invisible character U+200B"},
	    {"\u202e1d6", DICE_ESYNTAX,
	     "expected a number or dice at column 1, not an invisible character U+202E"},
	    {"1d6 + \u200b2", DICE_ESYNTAX,
	     "expected a number or dice after '+' at column 7, not an invisible character U+200B"},
	    /* recheck5 F3: also right after 'd', and inside a word (the
	     * named character, not the letter before it) */
	    {"1d\u200b6", DICE_ESYNTAX,
	     "expected the number of sides, '%' or 'F' after 'd' at column 3, not an invisible "
	     "character U+200B"},
	    {"d\u202e20", DICE_ESYNTAX,
	     "expected the number of sides, '%' or 'F' after 'd' at column 2, not an invisible "
	     "character U+202E"},
	    {"1d20 a\u200bdv", DICE_ESYNTAX,
	     "unexpected invisible character U+200B at column 7; an operator (+ - * /), ';', "
	     "'# label' or the end may follow a term"},
	    {"1d20+*3", DICE_ESYNTAX, "expected a number or dice after '+' at column 6, not '*'"},
	    {"1d20 + # x", DICE_ESYNTAX,
	     "expected a number or dice after '+' at column 8, not '#'"},
	    {"d20;", DICE_ESYNTAX, "expected a number or dice after ';' at column 5"},
	    {"6x", DICE_ESYNTAX, "expected a number or dice after '6x' at column 3"},
	    {"3*-", DICE_ESYNTAX, "expected a number or dice after '-' at column 4"},
	    {"()", DICE_ESYNTAX, "expected a number or dice after '(' at column 2, not ')'"},
	    {"d", DICE_ESYNTAX,
	     "expected the number of sides, '%' or 'F' "
	     "after 'd' at column 2"},
	    {"2dx", DICE_ESYNTAX,
	     "expected the number of sides, '%' or 'F' "
	     "after 'd' at column 3, not 'x'"},
	    {"4d6kh", DICE_ESYNTAX,
	     "expected a number after 'kh' at column "
	     "6"},
	    {"4d6k", DICE_ESYNTAX, "expected a number after 'k' at column 5"},
	    {"4d6dl-1", DICE_ESYNTAX, "expected a number after 'dl' at column 6, not '-'"},
	    /* The second modifier is quoted as typed. */
	    {"4d6kh3k1", DICE_ESYNTAX,
	     "a dice term may have only one keep-highest modifier; 'k1' at column 7 is a second "
	     "one"},
	    {"4d6k3k2", DICE_ESYNTAX,
	     "a dice term may have only one keep-highest modifier; 'k2' at column 6 is a second "
	     "one"},
	    {"4d6d1dl2", DICE_ESYNTAX,
	     "a dice term may have only one drop-lowest modifier; 'dl2' at column 6 is a second "
	     "one"},
	    {"4d6kl1kh3KL2", DICE_ESYNTAX,
	     "a dice term may have only one keep-lowest modifier; 'KL2' at column 10 is a second "
	     "one"},
	    {"4d6dh1dh1", DICE_ESYNTAX,
	     "a dice term may have only one drop-highest modifier; 'dh1' at column 7 is a second "
	     "one"},
	    {"4d6!!!", DICE_ESYNTAX,
	     "a dice term may have only one explode modifier; '!' at column 6 is a second one"},
	    {"4d6!>5!!p<2", DICE_ESYNTAX,
	     "a dice term may have only one explode modifier; '!!p<2' at column 7 is a second "
	     "one"},
	    {"4d6>3<2", DICE_ESYNTAX,
	     "a dice term may have only one success modifier; '<2' at column 6 is a second one"},
	    {"4d6min2min3", DICE_ESYNTAX,
	     "a dice term may have only one min modifier; 'min3' at column 8 is a second one"},
	    {"4d6r1r>=99999999999999999999", DICE_ESYNTAX,
	     "the number at column 9 is too large (at most 9223372036854775807)"},
	    {"4d6r1ro>=999999999999999999", DICE_ESYNTAX,
	     "a dice term may have only one reroll modifier; 'ro>=999999999999999999' at column "
	     "6 is a second one"},
	    {"4d6!2!!p<=-1000000000000000000", DICE_ESYNTAX,
	     "a dice term may have only one explode modifier; '!!p<=-100000000000000000…' at "
	     "column 6 is a second one"},
	    /* Characters are named as typed: a space, not its code. */
	    {"d 20", DICE_ESYNTAX,
	     "expected the number of sides, '%' or 'F' after 'd' at column 2, not a space"},
	    {"2d6min\t2", DICE_ESYNTAX, "expected a number after 'min' at column 7, not a tab"},
	    {"2d6min\n2", DICE_ESYNTAX,
	     "expected a number after 'min' at column 7, not a line break"},
	    {"1d6+\x01", DICE_ESYNTAX,
	     "expected a number or dice after '+' at column 5, not a control character"},
	    {"d20 \x7f", DICE_ESYNTAX,
	     "unexpected control character at column 5; an operator (+ - * /), ';', '# label' "
	     "or the end may follow a term"},
	    /* Functions. */
	    {"flor(2)", DICE_ESYNTAX,
	     "'flor' at column 1 is no dice function; floor(), ceil(), round() and abs() are"},
	    {"1+Sqrt(4)", DICE_ESYNTAX,
	     "'Sqrt' at column 3 is no dice function; floor(), ceil(), round() and abs() are"},
	    {"floor 3", DICE_ESYNTAX, "expected '(' after 'floor' at column 7, not '3'"},
	    {"ceil", DICE_ESYNTAX, "expected '(' after 'ceil' at column 5"},
	    {"x", DICE_ESYNTAX, "expected a number or dice at column 1, not 'x'"},
	    {"round(1d6", DICE_ESYNTAX, "expected ')' at column 10 to close the '(' at column 6"},
	    {"floor(1/0)", DICE_EMATH, "division by zero at column 8"},
	    {"floor(7/(2-2))", DICE_EMATH, "division by zero at column 8"},
	    {"abs(-9223372036854775807-1)", DICE_EMATH,
	     "the result of 'abs' at column 1 does not fit in a 64-bit integer"},
	    {"floor(9223372036854775807/2*3)", DICE_EMATH,
	     "the result of '*' at column 28 does not fit in a 64-bit integer"},
	    {"floor(1/3037000499/3037000499/3)", DICE_EMATH,
	     "the result of '/' at column 30 does not fit in a 64-bit integer"},
	    {"4d6f1", DICE_ESYNTAX,
	     "the failure modifier 'f' of the term at "
	     "column 1 needs a success compare point too, as in "
	     "4d6>4f<3"},
	    {"4d6>4f", DICE_ESYNTAX,
	     "expected a compare point or number "
	     "after 'f' at column 7"},
	    {"4d6>=", DICE_ESYNTAX,
	     "expected a number after '>=' at column "
	     "6"},
	    {"4d6<>x", DICE_ESYNTAX, "expected a number after '<>' at column 6, not 'x'"},
	    {"4d6cx", DICE_ESYNTAX,
	     "expected 's' or 'f' after 'c' at column "
	     "5, not 'x' (cs marks criticals, cf fumbles)"},
	    {"d6m3", DICE_ESYNTAX, "expected 'min' or 'max' at column 3"},
	    {"d6min", DICE_ESYNTAX, "expected a number after 'min' at column 6"},
	    {"2d6[fire", DICE_ESYNTAX, "expected ']' to close the label at column 4"},
	    {"2d6  [fire", DICE_ESYNTAX, "expected ']' to close the label at column 6"},
	    {"2d6[a] [b]", DICE_ESYNTAX,
	     "unexpected '[' at column 8; an operator (+ - * /), ';', '# label' or the end may "
	     "follow a term"},
	    {"1d6)", DICE_ESYNTAX,
	     "unexpected ')' at column 4; a dice "
	     "modifier, an operator (+ - * /), ';', '# label' or the end "
	     "may follow a term"},
	    {"9223372036854775808", DICE_ESYNTAX,
	     "the number at column 1 "
	     "is too large (at most 9223372036854775807)"},
	    {"d20 \xc3\xa9", DICE_ESYNTAX,
	     "unexpected '\xc3\xa9' at column "
	     "5; an operator (+ - * /), ';', '# label' or the end may "
	     "follow a term"},
	    {"2d6[\xc3\xa9] +", DICE_ESYNTAX, "expected a number or dice after '+' at column 9"},
	    {"d20 \xff", DICE_ESYNTAX,
	     "unexpected byte 0xFF at column 5; an "
	     "operator (+ - * /), ';', '# label' or the end may follow a "
	     "term"},
	    {"d20 # a\x01z", DICE_ESYNTAX, "the label at column 5 holds a control character"},
	    {"d20 # \xc3", DICE_ESYNTAX, "the label at column 5 is not valid UTF-8 text"},
	    {"d20[\xed\xa0\x80]", DICE_ESYNTAX, "the label at column 4 is not valid UTF-8 text"},
	    {"9223372036854775807+1", DICE_EMATH,
	     "the result of '+' at "
	     "column 20 does not fit in a 64-bit integer"},
	    {"-9223372036854775807-2", DICE_EMATH,
	     "the result of '-' at "
	     "column 21 does not fit in a 64-bit integer"},
	    {"4294967296*4294967296", DICE_EMATH,
	     "the result of '*' at "
	     "column 11 does not fit in a 64-bit integer"},
	    {"(-9223372036854775807-1)/-1", DICE_EMATH,
	     "the result of '/' "
	     "at column 25 does not fit in a 64-bit integer"},
	    {"-(-9223372036854775807-1)", DICE_EMATH,
	     "the negation at "
	     "column 1 does not fit in a 64-bit integer"},
	    /* min above the faces is refused before its sum could overflow. */
	    {"2d6min9223372036854775807", DICE_ESYNTAX,
	     "'min9223372036854775807' of the term at column 1 is above the highest face of its "
	     "d6 dice (6); min may be 1 to 6"},
	    {"1000d1000000*1000000000000", DICE_EMATH,
	     "the result of '*' at "
	     "column 13 does not fit in a 64-bit integer"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_err(t[i].text, t[i].code, t[i].msg);
	/* A NUL byte inside the text is just an unexpected byte. */
	expect_error("d20\0+1", 6, DICE_ESYNTAX,
	             "unexpected control character at "
	             "column 4; a dice modifier, an operator (+ - * /), ';', '# label' "
	             "or the end may follow a term");
}

static void
test_overflow_always(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 20; s++) {
		struct rng *r = rng_new_seeded(s);
		struct dice_result *res;
		char err[DICE_ERR_MAX];
		const char *t = "1000d1000000*1000000000000";

		assert_int_equal(dice_roll(t, strlen(t), r, &res, err, sizeof(err)), DICE_EMATH);
		rng_free(r);
	}
}

static void
test_error_buffers(void **state)
{
	struct rng *r = rng_new_seeded(1);
	struct dice_result *res;
	char small[8];

	(void)state;
	memset(small, 'x', sizeof(small));
	assert_int_equal(dice_roll("1d20+", 5, r, &res, small, sizeof(small)), DICE_ESYNTAX);
	assert_string_equal(small, "expecte");
	assert_int_equal(dice_roll("1d20+", 5, r, &res, NULL, 0), DICE_ESYNTAX);
	assert_int_equal(dice_roll(NULL, 0, r, &res, small, sizeof(small)), DICE_ESYNTAX);
	assert_int_equal(dice_roll(NULL, 3, r, &res, NULL, 0), DICE_EINVAL);
	assert_int_equal(dice_roll("d6", 2, NULL, &res, NULL, 0), DICE_EINVAL);
	assert_int_equal(dice_roll("d6", 2, r, NULL, NULL, 0), DICE_EINVAL);
	/* The text need not be NUL-terminated: only len bytes are read. */
	assert_int_equal(dice_roll("d6+junk", 2, r, &res, NULL, 0), 0);
	assert_int_equal(dice_result_rolled(res), 1);
	dice_result_free(res);
	dice_result_free(NULL);
	assert_int_equal(dice_result_nexprs(NULL), 0);
	assert_null(dice_result_expr(NULL, 0));
	rng_free(r);
}

static void
test_check(void **state)
{
	char err[DICE_ERR_MAX];

	(void)state;
	assert_int_equal(dice_check("10x 1000d6", 10, err, sizeof(err)), 0);
	assert_int_equal(dice_check("1001d6", 6, err, sizeof(err)), DICE_ELIMIT);
	assert_string_equal(err,
	                    "the term at column 1 must roll between 1 and 1000 dice (got 1001)");
	assert_int_equal(dice_check("1d20+", 5, err, sizeof(err)), DICE_ESYNTAX);
	assert_string_equal(err, "expected a number or dice after '+' at column 6");
	/* Math and sub-expression limits need a roll. */
	assert_int_equal(dice_check("1d6/0", 5, err, sizeof(err)), 0);
	assert_int_equal(dice_check("(0)d6", 5, err, sizeof(err)), 0);
}

static void
test_normalize(void **state)
{
	char out[8], err[DICE_ERR_MAX];

	(void)state;
	expect_canon("d20", "1d20");
	expect_canon("4d6k3", "4d6kh3");
	expect_canon("4d6d1", "4d6dl1");
	expect_canon("4D6KH3", "4d6kh3");
	expect_canon("4d10dl2dh1", "4d10dh1dl2");
	/* A bracket label may follow its term after spaces (rpg-dice-roller). */
	expect_canon("2d10 [fire]", "2d10[fire]");
	expect_canon("2d10\t [fire] + 3  [flat] - (1d4)d6 [x]",
	             "2d10[fire] + 3[flat] - (1d4)d6[x]");
	expect_canon("4d6kl1k3", "4d6kh3kl1");
	expect_canon("4d6d1dh1kl3kh2", "4d6kh2kl3dh1dl1");
	expect_canon("d%", "1d100");
	expect_canon("4df", "4dF");
	expect_canon("3d6!=3", "3d6!3");
	expect_canon("3d6!!=3", "3d6!!3");
	expect_canon("3d6!>=5", "3d6!>=5");
	expect_canon("4d6>4!", "4d6>4!");
	expect_canon("4d6!>4", "4d6!>4");
	expect_canon("4d6!!p", "4d6!!p");
	expect_canon("d6r=1", "1d6r1");
	expect_canon("d6r!=3", "1d6r<>3");
	expect_canon("4dFr=-1", "4dFr=-1");
	expect_canon("4d6f<3>4sa", "4d6>4f<3s");
	expect_canon("4d6sdcf1cs", "4d6cscf1sd");
	expect_canon("8d6max5min2", "8d6min2max5");
	expect_canon("1d6r-1", "1d6r - 1");
	expect_canon("  6X d20+0005 ;d6 *(2-1)#  hi there ",
	             "6x 1d20 + 5; 1d6 * (2 - 1) # hi there");
	expect_canon("--1d6/-(2)", "--1d6 / -(2)");
	expect_canon("(1d4)d(2*3)[x]", "(1d4)d(2 * 3)[x]");
	expect_canon("5[str]+d20kl1", "5[str] + 1d20kl1");
	assert_int_equal(dice_normalize("4d6kh3", 6, out, 6, err, sizeof(err)), DICE_EINVAL);
	assert_string_equal(out, "");
	assert_int_equal(dice_normalize("4d6kh3", 6, out, 7, err, sizeof(err)), 0);
	assert_string_equal(out, "4d6kh3");
	assert_int_equal(dice_normalize("1d20+", 5, out, sizeof(out), err, sizeof(err)),
	                 DICE_ESYNTAX);
}

static void
test_draws_only_through_rng(void **state)
{
	struct rng *r = rng_new_seeded(3);
	struct dice_result *res;
	const char *t = "3d6!+4dF+2d10r<3+d%kh1";

	(void)state;
	assert_int_equal(dice_roll(t, strlen(t), r, &res, NULL, 0), 0);
	assert_int_equal(rng_draws(r), dice_result_rolled(res));
	dice_result_free(res);
	/* d1 needs no draw, yet counts as a die rolled. */
	assert_int_equal(dice_roll("5d1", 3, r, &res, NULL, 0), 0);
	assert_int_equal(dice_result_rolled(res), 5);
	assert_int_equal(total(res), 5);
	dice_result_free(res);
	rng_free(r);
}

/* Asserts that the parser's fast path takes text (or not, per want) and,
 * when it does, builds what the grammar builds. */
static void
expect_plain(const char *text, size_t len, bool want)
{
	char why[128];
	bool fast;

	if (!dicesame(text, len, &fast, why, sizeof(why)))
		fail_msg("\"%.40s\": %s", text, why);
	if (fast != want)
		fail_msg("\"%.40s\": the fast path %s it", text, fast ? "took" : "missed");
}

static void
test_fast_path_agrees(void **state)
{
	static const char *const counts[] = {"", "0", "1", "01", "4", "1000", "1001", "10000"};
	static const char *const sides[] = {"",        "0",       "1", "06", "20",
	                                    "1000000", "1000001", "%", "F"};
	static const char *const mods[] = {"",
	                                   "kh3",
	                                   "kl1",
	                                   "dh0",
	                                   "dl2",
	                                   "k3",
	                                   "KH3",
	                                   "kh03",
	                                   "kh",
	                                   "kh3kl1",
	                                   "!",
	                                   "kh999999999999999999",
	                                   "kh9999999999999999999"};
	static const char *const tails[] = {"",
	                                    "+5",
	                                    "-5",
	                                    " + 5",
	                                    "  -  0",
	                                    "+05",
	                                    "+-5",
	                                    "+5 ",
	                                    " ",
	                                    "+5d6",
	                                    "+5[x]",
	                                    "*2",
	                                    " # x",
	                                    "+5+1",
	                                    "\t+5",
	                                    "+",
	                                    "[a]",
	                                    " [a]",
	                                    "+999999999999999999",
	                                    "+9999999999999999999"};
	char text[128], spaces[DICE_TEXT_MAX + 8];
	int n;

	(void)state;
	expect_plain("4d6kh3", 6, true);
	expect_plain("d20", 3, true);
	expect_plain("1d20+5", 6, true);
	expect_plain("2d6 - 1", 7, true);
	expect_plain("100d6", 5, true);
	expect_plain("4d6 kh3", 7, false);
	expect_plain("4D6", 3, false);
	expect_plain("1d20+5 # attack", 15, false);
	/* Spaces alone cannot make a plain term longer than a roll may be. */
	memset(spaces, ' ', sizeof(spaces));
	memcpy(spaces, "4d6kh3", 6);
	expect_plain(spaces, DICE_TEXT_MAX, true);
	expect_plain(spaces, DICE_TEXT_MAX + 1, false);
	memcpy(spaces + DICE_TEXT_MAX - 2, "+5", 2);
	expect_plain(spaces, DICE_TEXT_MAX, true);
	expect_plain(spaces, DICE_TEXT_MAX + 1, false);
	/* Every combination of near misses agrees with the grammar. */
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (size_t d = 0; d < sizeof(sides) / sizeof(sides[0]); d++)
			for (size_t m = 0; m < sizeof(mods) / sizeof(mods[0]); m++)
				for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
					char why[128];

					n = snprintf(text, sizeof(text), "%sd%s%s%s", counts[c],
					             sides[d], mods[m], tails[t]);
					assert_true(n > 0 && (size_t)n < sizeof(text));
					if (!dicesame(text, (size_t)n, NULL, why, sizeof(why)))
						fail_msg("\"%s\": %s", text, why);
				}
}

/* The advantage shorthand rewrites the first plain d20 of each roll that
 * ends in adv or dis and nothing else; the rest of the text is kept byte
 * for byte, but the blank and the word. */
static void
test_advantage(void **state)
{
	char buf[DICE_TEXT_MAX + 1], small[11], longer[DICE_TEXT_MAX + 1], err[DICE_ERR_MAX];
	const char *r;
	static const char plain[] = "1d20+5", inlabel[] = "d20 # adv", glued[] = "d20adv",
	                  word[] = "1d20 advantage", toolong[] = "d20+100 adv",
	                  inbracket[] = "1d20[adv] + 2";
	static const struct {
		const char *in, *out;
	} rewrites[] = {
	    {"1d20+5 adv", "2d20kh1+5"},
	    {"d20 dis # save", "2d20kl1 # save"},
	    {"D20+1d20 ADV", "2d20kh1+1d20"},
	    {"4d6 + d20 adv", "4d6 + 2d20kh1"},
	    {"(d20+2)*2 dis", "(2d20kl1+2)*2"},
	    {"1d20[hit] adv\t", "2d20kh1[hit]\t"},
	    {"d20 adv #   ", "2d20kh1 #   "},
	    {"11d20+d20 adv", "11d20+2d20kh1"},
	    /* each roll of a ';' list has its own */
	    {"1d20+5 adv; 2d6+3 # attack", "2d20kh1+5; 2d6+3 # attack"},
	    {"1d20 adv; 1d20 dis", "2d20kh1; 2d20kl1"},
	    {"2d6+3; 1d20+5 adv", "2d6+3; 2d20kh1+5"},
	    {"d20[a;b] adv ;d20 dis", "2d20kh1[a;b] ;2d20kl1"},
	    {"3x 1d20+2 adv; 1d20", "3x 2d20kh1+2; 1d20"},
	    /* a term's [label] holds '#' and ';' as text */
	    {"d20[a#b;c] adv; d20[;] dis # e;f", "2d20kh1[a#b;c]; 2d20kl1[;] # e;f"},
	    /* an unclosed '[' holds the rest of the text, ';' and '#' too (the
	     * dice parser then refuses it) */
	    {"d20[x; d20 adv", "2d20kh1[x; d20"},
	    {"d20[x# d20 adv", "2d20kh1[x# d20"},
	    /* a d20 or the word in a [label] is text: the next one counts */
	    {"1d6[d20] + d20 adv", "1d6[d20] + 2d20kh1"},
	    {"1d6[1d20]+1d20 dis", "1d6[1d20]+2d20kl1"},
	    {"2d6[adv x] + 1d20 adv", "2d6[adv x] + 2d20kh1"},
	    {"1d20[a adv] adv", "2d20kh1[a adv]"},
	    {"d4[a][dis] + d20[b] dis; d20 adv", "d4[a][dis] + 2d20kl1[b]; 2d20kh1"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rewrites) / sizeof(rewrites[0]); i++) {
		r = dice_advantage(rewrites[i].in, buf, sizeof(buf), err, sizeof(err));
		assert_ptr_equal(r, buf);
		assert_string_equal(r, rewrites[i].out);
	}
	/* Neither word last (a label does not count): the text itself. */
	assert_ptr_equal(dice_advantage(plain, buf, sizeof(buf), err, sizeof(err)), plain);
	assert_ptr_equal(dice_advantage(inlabel, buf, sizeof(buf), err, sizeof(err)), inlabel);
	assert_ptr_equal(dice_advantage(glued, buf, sizeof(buf), err, sizeof(err)), glued);
	assert_ptr_equal(dice_advantage(word, buf, sizeof(buf), err, sizeof(err)), word);
	assert_ptr_equal(dice_advantage(inbracket, buf, sizeof(buf), err, sizeof(err)), inbracket);
	/* No plain d20 to double: refused with a sentence. */
	assert_null(dice_advantage("2d6 adv", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "Adv rolls a plain d20 twice and this roll has none; write it as "
	                         "in 1d20+5 adv.");
	assert_null(dice_advantage("11d20 dis", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "Dis rolls a plain d20 twice and this roll has none; write it as "
	                         "in 1d20+5 dis.");
	assert_null(dice_advantage("d200 adv", buf, sizeof(buf), err, sizeof(err)));
	assert_null(dice_advantage("2d20 adv", buf, sizeof(buf), err, sizeof(err)));
	assert_null(dice_advantage("1d20 adv; 2d6 dis; 3d6", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "Dis rolls a plain d20 twice and roll 2 of this list has none; "
	                         "write it as in 1d20+5 dis; 2d6.");
	/* The word anywhere but last in its roll. */
	assert_null(dice_advantage("1d20 adv + 2", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "The word 'adv' at column 6 must come last in its roll (before "
	                         "any ';' or '# label'), as in 1d20+5 adv; 2d6.");
	assert_null(dice_advantage("1d20 + 2 ; é DIS 1d20", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "The word 'DIS' at column 14 must come last in its roll (before "
	                         "any ';' or '# label'), as in 1d20+5 adv; 2d6.");
	assert_null(dice_advantage("1d20 adv adv", buf, sizeof(buf), err, sizeof(err)));
	/* past a [label], the word still counts where it stands */
	assert_null(dice_advantage("1d20[x] adv [y] + 2", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "The word 'adv' at column 9 must come last in its roll (before "
	                         "any ';' or '# label'), as in 1d20+5 adv; 2d6.");
	/* a d20 only in a [label], or after an unclosed '[', is none */
	assert_null(dice_advantage("2d6[d20] adv", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "Adv rolls a plain d20 twice and this roll has none; write it as "
	                         "in 1d20+5 adv.");
	assert_null(dice_advantage("2d6[x d20 adv", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err, "Adv rolls a plain d20 twice and this roll has none; write it as "
	                         "in 1d20+5 adv.");
	/* recheck5 F3b: an invisible character after the word is named */
	assert_null(dice_advantage("1d20 adv\u200b", buf, sizeof(buf), err, sizeof(err)));
	assert_string_equal(err,
	                    "Unexpected invisible character U+200B at column 9, after the "
	                    "word 'adv'; the end, ';' or '# label' may follow it, as in 1d20+5 "
	                    "adv; 2d6.");
	/* A buffer shorter than the text gives the text back; the rewrite is
	 * never longer than the text. */
	assert_ptr_equal(dice_advantage(toolong, small, sizeof(small), err, sizeof(err)), toolong);
	assert_string_equal(dice_advantage("d20+10 adv", small, sizeof(small), err, sizeof(err)),
	                    "2d20kh1+10");
	memset(longer, '1', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	memcpy(longer, "d20+", 4);
	memcpy(longer + sizeof(longer) - 5, " adv", 4);
	assert_ptr_equal(dice_advantage(longer, buf, sizeof(buf), err, sizeof(err)), buf);
	assert_int_equal(strlen(buf), DICE_TEXT_MAX);
	assert_memory_equal(buf, "2d20kh1+111", 11);
	/* Errors of a rewritten roll name the columns typed. */
	snprintf(err, sizeof(err), "untouched");
	dice_advantage_error("d20 + x adv", err, sizeof(err));
	assert_string_equal(err, "expected a number or dice after '+' at column 7, not 'x'");
	snprintf(err, sizeof(err), "untouched");
	dice_advantage_error("1d20 adv; 1d6+1", err, sizeof(err));
	assert_string_equal(err, "untouched");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_d20_is_1d20),
	    cmocka_unit_test(test_label_find),
	    cmocka_unit_test(test_keep_drop_equivalences),
	    cmocka_unit_test(test_keep_and_drop_combine),
	    cmocka_unit_test(test_keep_drop_union),
	    cmocka_unit_test(test_explode),
	    cmocka_unit_test(test_compound),
	    cmocka_unit_test(test_penetrate),
	    cmocka_unit_test(test_reroll),
	    cmocka_unit_test(test_reroll_once_on_every_face),
	    cmocka_unit_test(test_successes),
	    cmocka_unit_test(test_success_failure_exact),
	    cmocka_unit_test(test_failure_with_explode_point),
	    cmocka_unit_test(test_ranges),
	    cmocka_unit_test(test_arithmetic),
	    cmocka_unit_test(test_functions),
	    cmocka_unit_test(test_subexpression_dice),
	    cmocka_unit_test(test_items_rebuild_source),
	    cmocka_unit_test(test_labels),
	    cmocka_unit_test(test_repeat_and_expressions),
	    cmocka_unit_test(test_sorting),
	    cmocka_unit_test(test_crit_fumble_marks),
	    cmocka_unit_test(test_modifier_order_is_fixed),
	    cmocka_unit_test(test_fate),
	    cmocka_unit_test(test_chain_cap),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_notation_errors),
	    cmocka_unit_test(test_overflow_always),
	    cmocka_unit_test(test_error_buffers),
	    cmocka_unit_test(test_check),
	    cmocka_unit_test(test_normalize),
	    cmocka_unit_test(test_draws_only_through_rng),
	    cmocka_unit_test(test_fast_path_agrees),
	    cmocka_unit_test(test_advantage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
