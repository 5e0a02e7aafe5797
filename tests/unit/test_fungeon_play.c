/* Unit tests for rules/fungeon/fungeon_play: each conflict's outcome decided from the
 * party and seeded dice, with the dice written out so every expectation
 * can be checked by hand. The first d6 of the seeds used:
 *   seed 2: 1 5 2 5 5 2 4 2 4 5
 *   seed 3: 5 4 2 4 3 3 2 5 6 2
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/fungeon_play.h"
#include "rules/base/rng.h"

static void
party(struct fungeon_member *m, int n, const int *levels)
{
	static const char *const names[] = {"Alba", "Brom", "Cora", "Dirk"};

	for (int i = 0; i < n; i++)
		fungeon_member_init(&m[i], names[i], names[i], names[i], "wizard", levels[i]);
}

static void
unparty(struct fungeon_member *m, int n)
{
	for (int i = 0; i < n; i++)
		fungeon_member_free(&m[i]);
}

/* The seed's first dice, so a test can show the roll it expects. */
static void
seed_is(uint64_t seed, const int *want, int n)
{
	struct rng *r = rng_new_seeded(seed);

	for (int i = 0; i < n; i++)
		assert_int_equal(rng_die(r, 6), want[i]);
	rng_free(r);
}

/* Issue 13 #1: against a universal obstacle nobody adds a class bonus or
 * magic, on the Annoy roll as on the Pain roll. */
static void
universal_annoy_has_no_bonus_or_magic(void **unused)
{
	struct fungeon_member m;
	struct fungeon_item *it;
	struct fungeon_play_obstacle fire = {.label = "breath", .annoy = 4, .type = "fire"};
	struct fungeon_play_obstacle uni = fire;
	const int lv[] = {3};

	party(&m, 1, lv);
	it = fungeon_item_add(&m);
	it->d = (struct fungeon_design){
	    .kind = FUNGEON_TREASURE, .fancy = true, .annoy = 2, .universal = true};
	uni.universal = true;
	assert_int_equal(fungeon_play_annoy_dice(&m, true, &fire), 3 + 1 + 2);
	assert_int_equal(fungeon_play_annoy_dice(&m, false, &fire), 3 + 2);
	assert_int_equal(fungeon_play_annoy_dice(&m, true, &uni), 3);
	assert_int_equal(fungeon_annoy_dice(&m, true, "fire", true, NULL), 3);
	assert_int_equal(fungeon_pain_dice(&m, true, "fire", true, NULL), 3);
	unparty(&m, 1);
}

/* seed 2: Alba 1, Brom 5, pit 2 5 -> 5. Alba is lower and fails (and the
 * continuous damage starts on her); Brom's 5 equals it and succeeds,
 * earning the trap's cost. Thwack-O: alice 1, bob 5: bob narrates. */
static void
annoy_outcome_and_apply(void **unused)
{
	static const int dice[] = {1, 5, 2, 5};
	struct fungeon_member m[2];
	const int lv[] = {1, 1}, who[] = {0, 1};
	const bool bonus[] = {false, false};
	struct fungeon_play_obstacle pit = {
	    .label = "pit", .annoy = 2, .pain = 1, .continuous = true, .xp = 3, .roller = -1};
	struct fungeon_play_annoy a;
	struct rng *rng = rng_new_seeded(2);
	char err[200];

	seed_is(2, dice, 4);
	party(m, 2, lv);
	assert_int_equal(fungeon_play_annoy(rng, m, who, 2, bonus, &pit, 2, &a, err, sizeof(err)),
	                 0);
	assert_int_equal(a.res.obstacle_best, 5);
	assert_int_equal(a.roll.g[2].v[0], 2);
	assert_int_equal(a.roll.g[2].v[1], 5);
	assert_true(a.fails[0]);
	assert_false(a.fails[1]);
	assert_int_equal(a.xp[0], 0);
	assert_int_equal(a.xp[1], 3);
	assert_true(a.effect[0]);
	assert_false(a.effect[1]);
	assert_int_equal(a.nar.winner, 1);
	/* nothing changed until applied */
	assert_int_equal(m[1].xp, 0);
	assert_int_equal(m[0].neffects, 0);
	fungeon_play_annoy_apply(m, &a);
	assert_int_equal(m[1].xp, 3);
	assert_int_equal(m[0].neffects, 1);
	assert_int_equal(m[0].effects[0].kind, FUNGEON_EFFECT_DAMAGE);
	assert_string_equal(m[0].effects[0].source, "pit");
	/* a hold that is also continuous damage brings both */
	pit.hold = true;
	rng_seed(rng, 2);
	assert_int_equal(fungeon_play_annoy(rng, m, who, 2, bonus, &pit, 2, &a, err, sizeof(err)),
	                 0);
	fungeon_play_annoy_apply(m, &a);
	assert_int_equal(m[0].neffects, 2);
	assert_int_equal(m[0].effects[1].kind, FUNGEON_EFFECT_HOLD);
	unparty(m, 2);
	rng_free(rng);
}

/* seed 3: Alba 5, Brom 4, goblin (level 2) 2 4, sorted 4 2. Rank 1: Alba's
 * 5 is highest and hits the goblin (6 -> 5 hits), earning its worth 2.
 * Rank 2: Alba and Brom have run out (0), the goblin's 2 is highest and
 * hits the lowest there, the first listed: Alba, at 1 hit, dies. */
static void
pain_outcome_damage_xp_death(void **unused)
{
	static const int dice[] = {5, 4, 2, 4};
	struct fungeon_member m[2];
	const int lv[] = {1, 1};
	struct fungeon_play_part p[3] = {
	    {.member = 0, .target = -1},
	    {.member = 1, .target = -1},
	    {.member = -1, .dice = 2, .hits = 6, .worth = 2, .player = -1, .target = -1},
	};
	struct fungeon_play_pain o;
	struct rng *rng = rng_new_seeded(3);
	char err[200];

	seed_is(3, dice, 4);
	party(m, 2, lv);
	m[0].hits = 1;
	m[1].hits = 1;
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, &o, err, sizeof(err)), 0);
	assert_int_equal(o.res.nranks, 2);
	assert_int_equal(o.res.rank[0].winner, 0);
	assert_int_equal(o.res.rank[0].target, 2);
	assert_int_equal(o.res.rank[1].winner, 2);
	assert_int_equal(o.res.rank[1].target, 0);
	assert_int_equal(o.xp[0], 2);
	assert_int_equal(o.xp[1], 0);
	assert_true(o.died[0]);
	assert_false(o.died[1]);
	assert_int_equal(o.hits[2], 5);
	assert_false(o.defeated[2]);
	assert_int_equal(o.nar.winner, 0);
	assert_false(m[0].dead); /* not yet applied */
	fungeon_play_pain_apply(m, p, &o);
	assert_true(m[0].dead);
	assert_int_equal(m[0].xp, 2);
	assert_int_equal(m[1].hits, 1);
	unparty(m, 2);
	rng_free(rng);
}

/* Issue 13 #5: one Fungeoneer triggering a trap makes an Annoy roll against
 * the trap's Annoy dice (seed 2: Alba 1 against 5 2 -> 5: caught, fails);
 * it does not roll one die + level against nothing. #7: the trap then has
 * sprung, unless it has Unlimited Use. */
static void
lone_trigger_is_an_annoy_roll(void **unused)
{
	struct fungeon_member m;
	const int lv[] = {1}, who[] = {0};
	const bool bonus[] = {false};
	struct fungeon_play_obstacle pit = {
	    .label = "pit", .annoy = 2, .pain = 1, .xp = 2, .roller = -1};
	struct fungeon_play_trigger t;
	struct rng *rng = rng_new_seeded(2);
	char err[200];

	party(&m, 1, lv);
	assert_int_equal(
	    fungeon_play_trigger(rng, &m, who, 1, bonus, &pit, false, &t, err, sizeof(err)), 0);
	assert_false(t.several);
	assert_true(t.annoyed);
	assert_true(t.caught[0]);
	assert_int_equal(t.annoy.roll.g[1].n, 2);
	assert_int_equal(t.annoy.res.best[0], 1);
	assert_int_equal(t.annoy.res.obstacle_best, 5);
	assert_true(t.annoy.fails[0]);
	assert_true(t.sprung);
	rng_seed(rng, 2);
	assert_int_equal(
	    fungeon_play_trigger(rng, &m, who, 1, bonus, &pit, true, &t, err, sizeof(err)), 0);
	assert_false(t.sprung);
	unparty(&m, 1);
	rng_free(rng);
}

/* Several at once: one die + level each (seed 2: Alba 1 + 1 = 2, Brom
 * 5 + 2 = 7); Brom avoids it, Alba is caught and makes the Annoy roll (2
 * against 5 5 -> 5: fails). */
static void
several_trigger_then_annoy(void **unused)
{
	struct fungeon_member m[2];
	const int lv[] = {1, 2}, who[] = {0, 1};
	const bool bonus[] = {false, false};
	struct fungeon_play_obstacle pit = {
	    .label = "pit", .annoy = 2, .pain = 1, .xp = 2, .roller = -1};
	struct fungeon_play_trigger t;
	struct rng *rng = rng_new_seeded(2);
	char err[200];

	party(m, 2, lv);
	assert_int_equal(
	    fungeon_play_trigger(rng, m, who, 2, bonus, &pit, false, &t, err, sizeof(err)), 0);
	assert_true(t.several);
	assert_int_equal(t.t.total[0], 2);
	assert_int_equal(t.t.total[1], 7);
	assert_true(t.caught[0]);
	assert_false(t.caught[1]);
	assert_int_equal(t.draw_nar.winner, 1);
	assert_int_equal(t.annoy.n, 1);
	assert_int_equal(t.annoy_of[0], 0);
	assert_int_equal(t.annoy_of[1], -1);
	assert_int_equal(t.annoy.res.best[0], 2);
	assert_int_equal(t.annoy.res.obstacle_best, 5);
	assert_true(t.annoy.fails[0]);
	unparty(m, 2);
	rng_free(rng);
}

/* Issue 13 #9: each failure on the way back builds its own wandering
 * monster of Level + floor points; failures never pool. Seed 2, floor 2:
 * Alba (level 1) 1, Brom (level 2) 5 2, the floor 5 5 -> 5: Alba fails
 * (3 points), Brom's 5 succeeds. */
static void
retreat_failures_never_pool(void **unused)
{
	struct fungeon_member m[2];
	const int lv[] = {1, 2}, who[] = {0, 1};
	const bool bonus[] = {false, false};
	struct fungeon_play_retreat r;
	struct rng *rng = rng_new_seeded(2);
	char err[200];

	party(m, 2, lv);
	for (int k = 0; k < 2; k++) {
		rng_seed(rng, 2);
		assert_int_equal(
		    fungeon_play_retreat(rng, m, who, 2, bonus, 2, &r, err, sizeof(err)), 0);
		assert_true(r.annoy.fails[0]);
		assert_false(r.annoy.fails[1]);
		assert_int_equal(r.wander[0], 3);
		assert_int_equal(r.wander[1], 0);
		fungeon_play_retreat_apply(m, &r);
	}
	assert_int_equal(m[0].nwander, 2);
	assert_int_equal(m[0].wanderer[0], 3);
	assert_int_equal(m[0].wanderer[1], 3);
	assert_int_equal(m[1].nwander, 0);
	unparty(m, 2);
	rng_free(rng);
}

/* Issue 13 #6: treasure guarded by a trap waits for that trap to be
 * triggered, disarmed or sidestepped; otherwise it is found when the
 * room's monsters are dead. */
static void
treasure_gate(void **unused)
{
	const bool none_passed[] = {false, false}, one_passed[] = {true, false};
	const bool all_passed[] = {true, true};
	int which = -1;

	assert_int_equal(fungeon_play_treasure_gate(none_passed, 2, 0, &which),
	                 FGP_TREASURE_GUARDED);
	assert_int_equal(which, 0);
	assert_int_equal(fungeon_play_treasure_gate(one_passed, 2, 0, &which),
	                 FGP_TREASURE_GUARDED);
	assert_int_equal(which, 1);
	/* guarded treasure, once its traps are passed, does not wait for monsters */
	assert_int_equal(fungeon_play_treasure_gate(all_passed, 2, 3, &which), FGP_TREASURE_OPEN);
	assert_int_equal(fungeon_play_treasure_gate(NULL, 0, 1, &which), FGP_TREASURE_MONSTERS);
	assert_int_equal(fungeon_play_treasure_gate(NULL, 0, 0, &which), FGP_TREASURE_OPEN);
}

/* Bad input is an error sentence, and nothing is rolled. */
static void
refusals_roll_nothing(void **unused)
{
	struct fungeon_member m[2];
	const int lv[] = {1, 1}, who[] = {0, 1};
	const bool bonus[] = {false, false};
	struct fungeon_play_obstacle none = {.label = "zap", .roller = -1};
	struct fungeon_play_annoy a;
	struct rng *rng = rng_new_seeded(2);
	char err[200];

	party(m, 2, lv);
	assert_int_equal(fungeon_play_annoy(rng, m, who, 2, bonus, &none, 0, &a, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "zap has no Annoy dice, so nobody has to resist it.");
	m[1].dead = true;
	none.annoy = 1;
	assert_int_equal(fungeon_play_annoy(rng, m, who, 2, bonus, &none, 1, &a, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "Brom is dead and rolls no more.");
	assert_int_equal(rng_draws(rng), 0);
	unparty(m, 2);
	rng_free(rng);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(universal_annoy_has_no_bonus_or_magic),
	    cmocka_unit_test(annoy_outcome_and_apply),
	    cmocka_unit_test(pain_outcome_damage_xp_death),
	    cmocka_unit_test(lone_trigger_is_an_annoy_roll),
	    cmocka_unit_test(several_trigger_then_annoy),
	    cmocka_unit_test(retreat_failures_never_pool),
	    cmocka_unit_test(refusals_roll_nothing),
	    cmocka_unit_test(treasure_gate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
