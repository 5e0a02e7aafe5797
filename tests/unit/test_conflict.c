/* Unit tests for rules/conflict: Thwack-O placement across dice groups,
 * narrative control with tie re-rolls (seeded), Annoying, triggering and
 * Painful conflicts over dice given directly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/conflict.h"
#include "rules/base/rng.h"

static struct cf_roll *
new_roll(void)
{
	struct cf_roll *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	return r;
}

static void
set_group(struct cf_roll *r, int i, int player, int n, const int *v)
{
	r->g[i].player = player;
	r->g[i].n = n;
	for (int k = 0; k < n && v != NULL; k++)
		r->g[i].v[k] = v[k];
	if (i >= r->ng)
		r->ng = i + 1;
}

/* One Thwack-O per player per roll, on the player's first group with dice,
 * even when the player rolls a Fungeoneer and a trap at once. */
static void
thwacko_placement_in_multi_group_rolls(void **unused)
{
	struct cf_roll *r = new_roll();

	set_group(r, 0, 1, 0, NULL);  /* player 1's Fungeoneer: no dice */
	set_group(r, 1, 0, 3, NULL);  /* player 0's Fungeoneer */
	set_group(r, 2, -1, 4, NULL); /* a trap nobody rolls */
	set_group(r, 3, 0, 2, NULL);  /* the trap player 0 rolls */
	set_group(r, 4, 1, 2, NULL);  /* the monster player 1 rolls */
	set_group(r, 5, 2, 1, NULL);
	set_group(r, 6, 2, 5, NULL);
	conflict_place_thwacko(r);
	assert_int_equal(r->g[0].thwacko, -1);
	assert_int_equal(r->g[1].thwacko, 0);
	assert_int_equal(r->g[2].thwacko, -1);
	assert_int_equal(r->g[3].thwacko, -1);
	assert_int_equal(r->g[4].thwacko, 0);
	assert_int_equal(r->g[5].thwacko, 0);
	assert_int_equal(r->g[6].thwacko, -1);
	free(r);
}

/* A combat turn's Thwack-O dice (line 271): the first roll of the turn a
 * player takes part in holds theirs; in a later roll of the turn their
 * die is a regular one. The leader so far counts a tie without rolling. */
static void
thwacko_once_a_turn(void **unused)
{
	static const int a[] = {4, 2}, b[] = {6, 1}, c[] = {6, 6, 3};
	struct cf_roll *r = new_roll();
	struct cf_turn t = {0};
	int tied;

	(void)unused;
	assert_int_equal(conflict_turn_leader(&t, &tied), -1);
	assert_int_equal(tied, 0);
	set_group(r, 0, 0, 2, a);
	set_group(r, 1, -1, 2, b);
	conflict_place_thwacko(r);
	assert_int_equal(conflict_turn_take(&t, r), 1);
	assert_int_equal(r->g[0].thwacko, 0);
	assert_int_equal(t.value[0], 4);
	/* the next roll: player 0 again, and player 1 for the first time */
	memset(r, 0, sizeof(*r));
	set_group(r, 0, 0, 2, b);
	set_group(r, 1, 1, 3, c);
	conflict_place_thwacko(r);
	assert_int_equal(conflict_turn_take(&t, r), 1);
	assert_int_equal(r->g[0].thwacko, -1);
	assert_int_equal(r->g[1].thwacko, 0);
	assert_int_equal(t.value[0], 4);
	assert_int_equal(t.value[1], 6);
	assert_int_equal(conflict_turn_leader(&t, &tied), 1);
	assert_int_equal(tied, 1);
	t.value[3] = 6;
	assert_int_equal(conflict_turn_leader(&t, &tied), 1);
	assert_int_equal(tied, 2);
	free(r);
}

/* conflict_roll draws exactly one d6 per die, in group order, and the
 * Thwack-O die is one of them (counted like any die). */
static void
roll_draws_every_die_once(void **unused)
{
	struct cf_roll *r = new_roll();
	struct rng *a = rng_new_seeded(7), *b = rng_new_seeded(7);

	set_group(r, 0, 0, 3, NULL);
	set_group(r, 1, -1, 2, NULL);
	set_group(r, 2, 0, 4, NULL);
	conflict_roll(a, r, 6);
	assert_int_equal(rng_draws(a), 9);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < r->g[i].n; k++)
			assert_int_equal(r->g[i].v[k], rng_die(b, 6));
	assert_int_equal(r->g[0].thwacko, 0);
	assert_int_equal(r->g[2].thwacko, -1);
	rng_free(a);
	rng_free(b);
	free(r);
}

static void
sort_keeps_the_thwacko_mark(void **unused)
{
	struct cf_group g = {.player = 0, .n = 5, .v = {3, 6, 1, 3, 5}, .thwacko = 0};

	conflict_sort(&g);
	assert_int_equal(g.v[0], 6);
	assert_int_equal(g.v[1], 5);
	assert_int_equal(g.v[2], 3);
	assert_int_equal(g.v[3], 3);
	assert_int_equal(g.v[4], 1);
	assert_int_equal(g.v[g.thwacko], 3);
	assert_int_equal(g.thwacko, 2);
}

static void
narrator_without_tie(void **unused)
{
	struct cf_roll *r = new_roll();
	struct rng *rng = rng_new_seeded(1);
	struct cf_narration n;

	set_group(r, 0, 0, 2, (const int[]){2, 6});
	set_group(r, 1, 1, 2, (const int[]){4, 1});
	set_group(r, 2, -1, 1, (const int[]){6});
	conflict_place_thwacko(r);
	conflict_narrator(rng, r, 6, &n);
	assert_int_equal(n.value[0], 2);
	assert_int_equal(n.value[1], 4);
	assert_int_equal(n.nrounds, 0);
	assert_int_equal(n.winner, 1);
	assert_int_equal(rng_draws(rng), 0);
	rng_free(rng);
	free(r);
}

/* A tie for highest Thwack-O: only the tied re-roll, each round recorded,
 * until one is highest. The expected values are the seeded generator's. */
static void
narrator_tie_rerolls_the_tied(void **unused)
{
	struct cf_roll *r = new_roll();
	struct rng *rng = rng_new_seeded(3), *check = rng_new_seeded(3);
	struct cf_narration n;
	int a, b, c, rounds = 0;

	set_group(r, 0, 0, 1, (const int[]){5});
	set_group(r, 1, 1, 1, (const int[]){2});
	set_group(r, 2, 2, 1, (const int[]){5});
	set_group(r, 3, 3, 1, (const int[]){5});
	conflict_place_thwacko(r);
	conflict_narrator(rng, r, 6, &n);
	/* replay: players 0, 2 and 3 re-roll until one is highest */
	do {
		a = (int)rng_die(check, 6);
		b = (int)rng_die(check, 6);
		c = (int)rng_die(check, 6);
		assert_int_equal(n.round[rounds][0], a);
		assert_int_equal(n.round[rounds][1], 0);
		assert_int_equal(n.round[rounds][2], b);
		assert_int_equal(n.round[rounds][3], c);
		rounds++;
	} while ((a == b && a >= c) || (a == c && a >= b) || (b == c && b >= a));
	assert_int_equal(n.nrounds, rounds);
	assert_int_equal(n.winner, a > b && a > c ? 0 : b > c ? 2 : 3);
	/* what seed 3 gives, so that a change to the draws shows */
	assert_int_equal(n.nrounds, 1);
	assert_int_equal(n.round[0][0], 5);
	assert_int_equal(n.round[0][2], 4);
	assert_int_equal(n.round[0][3], 2);
	assert_int_equal(n.winner, 0);
	rng_free(rng);
	rng_free(check);
	free(r);
}

/* Only a tie at the top is re-rolled. */
static void
narrator_tie_below_the_top_is_kept(void **unused)
{
	struct cf_roll *r = new_roll();
	struct rng *rng = rng_new_seeded(9);
	struct cf_narration n;

	set_group(r, 0, 0, 1, (const int[]){3});
	set_group(r, 1, 1, 1, (const int[]){3});
	set_group(r, 2, 2, 1, (const int[]){4});
	conflict_place_thwacko(r);
	conflict_narrator(rng, r, 6, &n);
	assert_int_equal(n.nrounds, 0);
	assert_int_equal(n.winner, 2);
	assert_int_equal(rng_draws(rng), 0);
	rng_free(rng);
	free(r);
}

static void
narrator_with_no_player(void **unused)
{
	struct cf_roll *r = new_roll();
	struct rng *rng = rng_new_seeded(1);
	struct cf_narration n;

	set_group(r, 0, -1, 3, (const int[]){1, 2, 3});
	conflict_place_thwacko(r);
	conflict_narrator(rng, r, 6, &n);
	assert_int_equal(n.winner, -1);
	rng_free(rng);
	free(r);
}

/* Only the places that count are re-rolled (play-test 3, F8): with the
 * first three counting, a tie among the 4th and 5th stays as it fell (party
 * order) while a tie reaching into 3rd place re-rolls whole; with only the
 * first counting, a tie below it is not rolled at all. */
static void
ranking_re_rolls_only_the_places_that_count(void **unused)
{
	struct rng *rng = rng_new_seeded(5);
	struct cf_ranking k;
	const int low[] = {6, 5, 4, 2, 2}, mid[] = {6, 5, 3, 3, 1}, top[] = {5, 4, 4, 1};

	(void)unused;
	conflict_rank(rng, low, 5, 3, 6, &k);
	assert_int_equal(k.nrounds, 0);
	assert_int_equal(k.order[3], 3);
	assert_int_equal(k.order[4], 4);
	conflict_rank(rng, mid, 5, 3, 6, &k);
	assert_true(k.nrounds >= 1);
	assert_int_equal(k.group[0][2], 1);
	assert_int_equal(k.group[0][3], 1);
	assert_int_equal(k.group[0][0] + k.group[0][1] + k.group[0][4], 0);
	conflict_rank(rng, top, 4, 1, 6, &k);
	assert_int_equal(k.nrounds, 0);
	assert_int_equal(k.order[1], 1);
	assert_int_equal(k.order[2], 2);
	rng_free(rng);
}

/* The full ranking of the category draw: every tied group re-rolls. */
static void
ranking_breaks_every_tie(void **unused)
{
	struct rng *rng = rng_new_seeded(5), *check = rng_new_seeded(5);
	struct cf_ranking k;
	const int values[] = {4, 6, 4, 2, 2};

	conflict_rank(rng, values, 5, 5, 6, &k);
	assert_int_equal(k.n, 5);
	assert_int_equal(k.order[0], 1);
	assert_true(k.nrounds >= 1);
	/* round 1: players 0, 2 (tied at 4) and 3, 4 (tied at 2) re-roll */
	assert_int_equal(k.round[0][0], rng_die(check, 6));
	assert_int_equal(k.round[0][1], 0);
	assert_int_equal(k.round[0][2], rng_die(check, 6));
	assert_int_equal(k.round[0][3], rng_die(check, 6));
	assert_int_equal(k.round[0][4], rng_die(check, 6));
	/* players 0 and 2 stay 2nd and 3rd, 3 and 4 last, in some order */
	assert_true((k.order[1] == 0 && k.order[2] == 2) || (k.order[1] == 2 && k.order[2] == 0));
	assert_true((k.order[3] == 3 && k.order[4] == 4) || (k.order[3] == 4 && k.order[4] == 3));
	/* the seeded outcome */
	assert_int_equal(k.nrounds, 1);
	assert_int_equal(k.round[0][0], 2);
	assert_int_equal(k.round[0][2], 4);
	assert_int_equal(k.order[1], 2);
	assert_int_equal(k.round[0][3], 4);
	assert_int_equal(k.round[0][4], 5);
	assert_int_equal(k.order[3], 4);
	/* the groups, the best placed first */
	assert_int_equal(k.group[0][0], 1);
	assert_int_equal(k.group[0][1], 0);
	assert_int_equal(k.group[0][2], 1);
	assert_int_equal(k.group[0][3], 2);
	assert_int_equal(k.group[0][4], 2);
	rng_free(rng);
	rng_free(check);
}

static void
annoy_lower_fails_equal_succeeds(void **unused)
{
	struct cf_roll *r = new_roll();
	struct cf_annoy a;

	set_group(r, 0, -1, 2, (const int[]){3, 5});
	set_group(r, 1, 0, 2, (const int[]){5, 1});
	set_group(r, 2, 1, 3, (const int[]){4, 4, 2});
	set_group(r, 3, 2, 1, (const int[]){6});
	conflict_annoy(r, 0, &a);
	assert_int_equal(a.obstacle_best, 5);
	assert_false(a.fails[0]);
	assert_false(a.fails[1]);
	assert_true(a.fails[2]);
	assert_false(a.fails[3]);
	assert_int_equal(a.best[2], 4);
	free(r);
}

static void
trigger_highest_avoids(void **unused)
{
	struct cf_roll *r = new_roll();
	struct cf_trigger t;
	const int levels[] = {1, 3, 2, 1};

	set_group(r, 0, 0, 1, (const int[]){6});
	set_group(r, 1, 1, 1, (const int[]){4});
	set_group(r, 2, 2, 1, (const int[]){2});
	set_group(r, 3, 3, 1, (const int[]){5});
	conflict_trigger(r, levels, &t);
	assert_int_equal(t.total[0], 7);
	assert_int_equal(t.total[1], 7);
	assert_int_equal(t.total[2], 4);
	assert_true(t.avoids[0] && t.avoids[1]);
	assert_false(t.avoids[2] || t.avoids[3]);
	free(r);
}

/* Uneven dice counts: a roll that ran out counts 0 at later ranks. */
static void
pain_uneven_counts(void **unused)
{
	struct cf_group a = {.player = 0, .n = 3, .v = {6, 4, 2}, .thwacko = 0};
	struct cf_group m = {.player = -1, .n = 2, .v = {5, 5}, .thwacko = -1};
	struct cf_pain_part p[] = {
	    {.g = &a, .side = 0, .hits = 10, .target = -1},
	    {.g = &m, .side = 1, .hits = 6, .target = -1},
	};
	struct cf_pain out;

	assert_int_equal(conflict_pain(p, 2, &out), 0);
	assert_int_equal(out.nranks, 3);
	assert_int_equal(out.rank[0].winner, 0);
	assert_int_equal(out.rank[0].target, 1);
	assert_int_equal(out.rank[1].winner, 1);
	assert_int_equal(out.rank[1].target, 0);
	assert_int_equal(out.rank[2].value[0], 2);
	assert_int_equal(out.rank[2].value[1], 0);
	assert_int_equal(out.rank[2].winner, 0);
	assert_int_equal(out.dealt[0], 2);
	assert_int_equal(out.dealt[1], 1);
	assert_int_equal(out.hits[0], 9);
	assert_int_equal(out.hits[1], 4);
}

/* Line 254 (at zero hits, at any time, death), Ruling: the ranks are
 * dealt in turn, so one taken to 0 hits at a rank is dead from the next:
 * its dice count 0 there, as a roll that ran out, and win nothing more;
 * the living compare theirs. A trap (no hits) never falls. */
static void
pain_the_fallen_roll_no_more(void **unused)
{
	struct cf_group a = {.player = 0, .n = 3, .v = {5, 5, 5}, .thwacko = 0};
	struct cf_group m = {.player = 1, .n = 3, .v = {4, 6, 3}, .thwacko = 0};
	struct cf_group t = {.player = -1, .n = 3, .v = {1, 1, 4}, .thwacko = -1};
	struct cf_pain_part p[] = {
	    {.g = &a, .side = 0, .hits = 1, .target = -1},
	    {.g = &m, .side = 1, .hits = 10, .target = -1},
	    {.g = &t, .side = 1, .hits = -1, .target = -1},
	};
	struct cf_pain out;

	(void)unused;
	assert_int_equal(conflict_pain(p, 3, &out), 0);
	assert_int_equal(out.rank[0].winner, 0);
	assert_int_equal(out.rank[0].target, 1);
	assert_int_equal(out.rank[1].winner, 1);
	assert_int_equal(out.rank[1].target, 0);
	assert_false(out.rank[1].fallen[0]);
	/* rank 3: the dead one's 5 is gone; the trap's 4 wins, with no one
	 * left on the other side to hurt */
	assert_true(out.rank[2].fallen[0]);
	assert_false(out.rank[2].fallen[1] || out.rank[2].fallen[2]);
	assert_int_equal(out.rank[2].value[0], 0);
	assert_int_equal(out.rank[2].winner, 2);
	assert_int_equal(out.rank[2].target, -1);
	assert_int_equal(out.dealt[0], 1);
	assert_int_equal(out.hits[0], 0);
	assert_int_equal(out.hits[1], 9);
	assert_int_equal(out.hits[2], -1);
}

/* Ruling: a tie for highest at a rank deals no damage. */
static void
pain_ties_deal_nothing(void **unused)
{
	struct cf_group a = {.n = 3, .v = {5, 3, 1}, .thwacko = -1};
	struct cf_group b = {.n = 4, .v = {5, 3, 2, 1}, .thwacko = -1};
	struct cf_group c = {.n = 1, .v = {4}, .thwacko = -1};
	struct cf_pain_part p[] = {
	    {.g = &a, .side = 0, .hits = 5, .target = -1},
	    {.g = &b, .side = 1, .hits = 5, .target = -1},
	    {.g = &c, .side = 1, .hits = 5, .target = -1},
	};
	struct cf_pain out;

	assert_int_equal(conflict_pain(p, 3, &out), 0);
	assert_int_equal(out.nranks, 4);
	assert_int_equal(out.rank[0].winner, -1); /* 5 5 4 */
	assert_int_equal(out.rank[0].target, -1);
	assert_int_equal(out.rank[1].winner, -1); /* 3 3 0 */
	assert_int_equal(out.rank[2].winner, 1);  /* 1 2 0: b hits a */
	assert_int_equal(out.rank[2].target, 0);
	assert_int_equal(out.rank[3].winner, 1); /* 0 1 0 */
	assert_int_equal(out.dealt[0] + out.dealt[1] + out.dealt[2], 2);
	assert_int_equal(out.hits[0], 3);
	assert_int_equal(out.hits[1], 5);
	assert_int_equal(out.hits[2], 5);
}

/* Targets: a chosen target when it can take damage, else the opposing
 * participant with the lowest die at that rank; the fallen are skipped;
 * traps deal but never take damage. */
static void
pain_targets(void **unused)
{
	struct cf_group f1 = {.n = 3, .v = {6, 6, 6}, .thwacko = -1};
	struct cf_group f2 = {.n = 1, .v = {1}, .thwacko = -1};
	struct cf_group m1 = {.n = 2, .v = {2, 1}, .thwacko = -1};
	struct cf_group m2 = {.n = 3, .v = {3, 2, 1}, .thwacko = -1};
	struct cf_group trap = {.n = 1, .v = {1}, .thwacko = -1};
	struct cf_pain_part p[] = {
	    {.g = &f1, .side = 0, .hits = 10, .target = 3},
	    {.g = &f2, .side = 0, .hits = 10, .target = -1},
	    {.g = &m1, .side = 1, .hits = 5, .target = -1},
	    {.g = &m2, .side = 1, .hits = 2, .target = -1},
	    {.g = &trap, .side = 1, .hits = -1, .target = -1},
	};
	struct cf_pain out;

	assert_int_equal(conflict_pain(p, 5, &out), 0);
	/* ranks 1 and 2 go to m2 as chosen; m2 falls to 0; rank 3 to the
	 * lowest die left that can take damage: m1 (0), not m2 or the trap */
	assert_int_equal(out.rank[0].target, 3);
	assert_int_equal(out.rank[1].target, 3);
	assert_int_equal(out.rank[2].target, 2);
	assert_int_equal(out.hits[3], 0);
	assert_int_equal(out.hits[2], 4);
	assert_int_equal(out.hits[4], -1);
	assert_int_equal(out.dealt[0], 3);

	/* a Fungeoneer winning against a trap alone hurts no one */
	{
		struct cf_pain_part q[] = {
		    {.g = &f1, .side = 0, .hits = 10, .target = -1},
		    {.g = &trap, .side = 1, .hits = -1, .target = -1},
		};

		assert_int_equal(conflict_pain(q, 2, &out), 0);
		assert_int_equal(out.rank[0].winner, 0);
		assert_int_equal(out.rank[0].target, -1);
		assert_int_equal(out.dealt[0], 0);
		assert_int_equal(out.hits[1], -1);
	}
	/* issue 25, finding 10: a chosen target of the winner's own side is
	 * hurt too (one other Fungeoneer's or Monster's hits); the winner
	 * itself never is */
	{
		struct cf_pain_part q[] = {
		    {.g = &f1, .side = 0, .hits = 10, .target = 1},
		    {.g = &f2, .side = 0, .hits = 10, .target = -1},
		    {.g = &m1, .side = 1, .hits = 5, .target = -1},
		};

		assert_int_equal(conflict_pain(q, 3, &out), 0);
		assert_int_equal(out.rank[0].target, 1);
		assert_int_equal(out.hits[1], 7); /* each rank f1 wins */
		q[0].target = 0;
		assert_int_equal(conflict_pain(q, 3, &out), 0);
		assert_int_equal(out.rank[0].target, 2); /* not itself: the default */
	}
	assert_int_equal(conflict_pain(p, 0, &out), -1);
	assert_int_equal(conflict_pain(p, CF_PARTS_MAX + 1, &out), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(thwacko_placement_in_multi_group_rolls),
	    cmocka_unit_test(thwacko_once_a_turn),
	    cmocka_unit_test(roll_draws_every_die_once),
	    cmocka_unit_test(sort_keeps_the_thwacko_mark),
	    cmocka_unit_test(narrator_without_tie),
	    cmocka_unit_test(narrator_tie_rerolls_the_tied),
	    cmocka_unit_test(narrator_tie_below_the_top_is_kept),
	    cmocka_unit_test(narrator_with_no_player),
	    cmocka_unit_test(ranking_breaks_every_tie),
	    cmocka_unit_test(ranking_re_rolls_only_the_places_that_count),
	    cmocka_unit_test(annoy_lower_fails_equal_succeeds),
	    cmocka_unit_test(trigger_highest_avoids),
	    cmocka_unit_test(pain_uneven_counts),
	    cmocka_unit_test(pain_the_fallen_roll_no_more),
	    cmocka_unit_test(pain_ties_deal_nothing),
	    cmocka_unit_test(pain_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
