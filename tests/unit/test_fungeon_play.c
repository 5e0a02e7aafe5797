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
	assert_int_equal(
	    fungeon_play_annoy(rng, m, who, 2, bonus, &pit, 2, NULL, &a, err, sizeof(err)), 0);
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
	assert_int_equal(
	    fungeon_play_annoy(rng, m, who, 2, bonus, &pit, 2, NULL, &a, err, sizeof(err)), 0);
	fungeon_play_annoy_apply(m, &a);
	assert_int_equal(m[0].neffects, 2);
	assert_int_equal(m[0].effects[1].kind, FUNGEON_EFFECT_HOLD);
	unparty(m, 2);
	rng_free(rng);
}

/* How many Thwack-O dice player p has in r. */
static int
thwackos_of(const struct cf_roll *r, int p)
{
	int n = 0;

	for (int i = 0; i < r->ng; i++)
		n += r->g[i].player == p && r->g[i].thwacko >= 0;
	return n;
}

/* Within a combat turn (line 271) Alba and Brom resist the spit of the
 * goblin Brom's player made (step 2), then fight it in step 3: each
 * player rolls one Thwack-O die in the whole turn, in the spit's Annoy
 * roll (Brom's on Brom, not on the spit), and the Painful conflict holds
 * none. Neither roll names a narrator; the turn does, its highest. The
 * next turn rolls new ones, and a roll alone (no turn) holds each
 * player's own once. */
static void
one_thwacko_a_player_in_a_combat_turn(void **unused)
{
	struct fungeon_member m[2];
	const int lv[] = {2, 2}, who[] = {0, 1};
	const bool bonus[] = {false, false};
	struct fungeon_play_obstacle spit = {
	    .label = "goblin/spit", .annoy = 3, .pain = 2, .roller = 1};
	struct fungeon_play_part p[3] = {
	    {.member = 0, .target = -1},
	    {.member = 1, .target = -1},
	    {.member = -1, .dice = 2, .hits = 9, .worth = 2, .player = 1, .target = -1},
	};
	struct fungeon_play_annoy a;
	struct fungeon_play_pain o;
	struct cf_turn turn = {0}, next = {0};
	struct cf_narration nar;
	struct rng *rng = rng_new_seeded(11);
	char err[200];

	(void)unused;
	party(m, 2, lv);
	assert_int_equal(
	    fungeon_play_annoy(rng, m, who, 2, bonus, &spit, 3, &turn, &a, err, sizeof(err)), 0);
	assert_int_equal(thwackos_of(&a.roll, 0), 1);
	assert_int_equal(thwackos_of(&a.roll, 1), 1);
	assert_int_equal(a.roll.g[2].thwacko, -1); /* Brom's is on Brom, not the spit */
	assert_int_equal(a.nar.winner, -1);
	assert_int_equal(turn.value[0], a.roll.g[0].v[0]);
	assert_int_equal(turn.value[1], a.roll.g[1].v[0]);
	assert_int_equal(turn.value[2], 0);
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, &turn, &o, err, sizeof(err)),
	                 0);
	assert_int_equal(thwackos_of(&o.roll, 0), 0);
	assert_int_equal(thwackos_of(&o.roll, 1), 0);
	assert_int_equal(o.nar.winner, -1);
	conflict_turn_narrator(rng, &turn, FUNGEON_DIE, &nar);
	assert_int_equal(nar.value[0], turn.value[0]);
	assert_int_equal(nar.value[1], turn.value[1]);
	assert_true(nar.winner == 0 || nar.winner == 1);
	assert_true(nar.value[nar.winner] >= nar.value[1 - nar.winner]);
	/* the next turn: new ones */
	assert_int_equal(
	    fungeon_play_annoy(rng, m, who, 2, bonus, &spit, 3, &next, &a, err, sizeof(err)), 0);
	assert_int_equal(thwackos_of(&a.roll, 0), 1);
	assert_int_equal(thwackos_of(&a.roll, 1), 1);
	/* alone, each roll holds every player's own */
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, NULL, &o, err, sizeof(err)),
	                 0);
	assert_int_equal(thwackos_of(&o.roll, 0), 1);
	assert_int_equal(thwackos_of(&o.roll, 1), 1);
	assert_int_equal(o.roll.g[2].thwacko, -1);
	assert_true(o.nar.winner >= 0);
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
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, NULL, &o, err, sizeof(err)),
	                 0);
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

/* Play-test 2, deviation 3 (line 175): a held Fungeoneer may not act. It
 * rolls its dice in the Painful conflict (making a roll it is made to
 * make is no action) and can be hurt, but a rank it wins deals no damage.
 * Seed 26: Alba 2, Brom (held) 3, the goblin 2 2. */
static void
held_rolls_but_deals_nothing(void **unused)
{
	struct fungeon_member m[2];
	const int lv[] = {1, 1};
	struct fungeon_play_part p[3] = {
	    {.member = 0, .target = -1},
	    {.member = 1, .target = -1, .held = true},
	    {.member = -1, .dice = 2, .hits = 6, .worth = 2, .player = -1, .target = -1},
	};
	struct fungeon_play_pain o;
	struct rng *rng = rng_new_seeded(26);
	char err[200];

	(void)unused;
	seed_is(26, (const int[]){2, 3, 2, 2}, 4);
	party(m, 2, lv);
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, NULL, &o, err, sizeof(err)),
	                 0);
	assert_int_equal(o.roll.g[1].n, 1); /* held: it rolls all the same */
	assert_int_equal(o.roll.g[1].v[0], 3);
	/* rank 1: Alba 2, Brom 3, goblin 2: Brom wins, but may not act */
	assert_int_equal(o.res.rank[0].winner, 1);
	assert_true(o.res.rank[0].held);
	assert_int_equal(o.res.rank[0].target, -1);
	assert_int_equal(o.res.dealt[1], 0);
	assert_int_equal(o.xp[1], 0);
	/* rank 2: Alba 0, Brom 0, goblin 2: the goblin hits the first lowest */
	assert_int_equal(o.res.rank[1].winner, 2);
	assert_false(o.res.rank[1].held);
	assert_int_equal(o.res.rank[1].target, 0);
	fungeon_play_pain_apply(m, p, &o);
	assert_int_equal(m[0].hits, 4);
	assert_int_equal(m[1].hits, 5);
	/* the held one is hurt when the monster aims at it */
	p[2].target = 1;
	rng_seed(rng, 26);
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, NULL, &o, err, sizeof(err)),
	                 0);
	assert_int_equal(o.res.rank[1].target, 1);
	assert_int_equal(o.res.taken[1], 1);
	unparty(m, 2);
	rng_free(rng);
}

/* Issue 25, finding 10: the winner of a rank applies a point to any other
 * Fungeoneer or monster; a Fungeoneer may hurt a fellow it names as its
 * target. Seed 3: Alba 5, Brom 4, goblin 2 4 -> 4 2; rank 1 Alba's 5
 * wins and, aiming at Brom, hurts him. A participant never hurts itself. */
static void
winner_may_hurt_a_fellow(void **unused)
{
	struct fungeon_member m[2];
	const int lv[] = {1, 1};
	struct fungeon_play_part p[3] = {
	    {.member = 0, .target = 1},
	    {.member = 1, .target = -1},
	    {.member = -1, .dice = 2, .hits = 6, .worth = 2, .player = -1, .target = -1},
	};
	struct fungeon_play_pain o;
	struct rng *rng = rng_new_seeded(3);
	char err[200];

	(void)unused;
	party(m, 2, lv);
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, NULL, &o, err, sizeof(err)),
	                 0);
	assert_int_equal(o.res.rank[0].winner, 0);
	assert_int_equal(o.res.rank[0].target, 1);
	assert_int_equal(o.res.taken[1], 1);
	assert_int_equal(o.xp[0], 0); /* a Fungeoneer is worth no XP */
	/* aiming at itself falls back to the other side's lowest */
	p[0].target = 0;
	rng_seed(rng, 3);
	assert_int_equal(fungeon_play_pain(rng, m, p, 3, "", true, 0, NULL, &o, err, sizeof(err)),
	                 0);
	assert_int_equal(o.res.rank[0].target, 2);
	unparty(m, 2);
	rng_free(rng);
}

/* Alba, level 4, class type fire (class bonus 2), wearing a fire ring
 * (+1 Pain die against fire). */
static void
fire_mage(struct fungeon_member *m)
{
	const int lv[] = {4};
	struct fungeon_item *it;

	party(m, 1, lv);
	snprintf(m->ctype, sizeof(m->ctype), "fire");
	it = fungeon_item_add(m);
	it->d = (struct fungeon_design){.kind = FUNGEON_TREASURE, .fancy = true, .pain = 1};
	snprintf(it->d.type, sizeof(it->d.type), "fire");
}

/* Issue 25, finding 8: Resist dice never add to the monster's roll; they
 * take away a Fungeoneer's dice of their type (class bonus and magic), and
 * against universal damage, where those dice are cancelled already, they
 * do nothing. Alba, level 4, class type fire (bonus 2), carries a fire ring
 * (+1 Pain): against fire she rolls 7; with 2 Resist dice against fire, 5. */
static void
resist_takes_dice_away(void **unused)
{
	struct fungeon_member m;
	struct fungeon_play_part p[2] = {
	    {.member = 0, .target = -1, .bonus = true},
	    {.member = -1, .dice = 5, .hits = -1, .player = -1, .target = -1},
	};
	struct fungeon_play_pain o;
	struct rng *rng = rng_new_seeded(3);
	char err[200];

	(void)unused;
	fire_mage(&m);
	assert_int_equal(
	    fungeon_play_pain(rng, &m, p, 2, "fire", false, 0, NULL, &o, err, sizeof(err)), 0);
	assert_int_equal(o.roll.g[0].n, 7);
	assert_int_equal(o.roll.g[1].n, 5);
	assert_int_equal(
	    fungeon_play_pain(rng, &m, p, 2, "fire", false, 2, NULL, &o, err, sizeof(err)), 0);
	assert_int_equal(o.roll.g[0].n, 5);
	assert_int_equal(o.resisted[0], 2);
	assert_int_equal(o.roll.g[1].n, 5); /* the monster's dice are as they were */
	/* more Resist dice than added dice: down to the level, never below */
	assert_int_equal(
	    fungeon_play_pain(rng, &m, p, 2, "fire", false, 9, NULL, &o, err, sizeof(err)), 0);
	assert_int_equal(o.roll.g[0].n, 4);
	assert_int_equal(o.resisted[0], 3);
	/* universal: nothing added, nothing to resist */
	assert_int_equal(
	    fungeon_play_pain(rng, &m, p, 2, "fire", true, 2, NULL, &o, err, sizeof(err)), 0);
	assert_int_equal(o.roll.g[0].n, 4);
	assert_int_equal(o.resisted[0], 0);
	unparty(&m, 1);
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

/* Magic Annoy dice count "when facing a Trap or Monster" (line 228): not
 * on the way back, against the Dungeon Floor, even of a universal type;
 * a class bonus named for it still counts. A trap of any type meets the
 * universal magic. */
static void
no_magic_against_the_floor(void **unused)
{
	struct fungeon_member m[1];
	const int lv[] = {5}, who[] = {0};
	const bool plain[] = {false}, bonus[] = {true};
	struct fungeon_play_obstacle floor, trap = {.annoy = 2, .type = "fire"};
	struct fungeon_play_retreat r;
	struct rng *rng = rng_new_seeded(3);
	char err[200];

	(void)unused;
	party(m, 1, lv);
	assert_non_null(fungeon_item_add(&m[0]));
	m[0].items[0].d = (struct fungeon_design){
	    .kind = FUNGEON_TREASURE, .fancy = true, .annoy = 2, .universal = true};
	fungeon_play_floor_obstacle(5, &floor);
	assert_int_equal(fungeon_play_annoy_dice(&m[0], false, &floor), 5);
	assert_int_equal(fungeon_play_annoy_dice(&m[0], true, &floor), 7); /* + class bonus 2 */
	assert_int_equal(fungeon_play_annoy_dice(&m[0], false, &trap), 7); /* + magic 2 */
	assert_int_equal(fungeon_play_retreat(rng, m, who, 1, plain, 5, &r, err, sizeof(err)), 0);
	assert_int_equal(r.annoy.roll.g[0].n, 5);
	assert_int_equal(fungeon_play_retreat(rng, m, who, 1, bonus, 5, &r, err, sizeof(err)), 0);
	assert_int_equal(r.annoy.roll.g[0].n, 7);
	unparty(m, 1);
	rng_free(rng);
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
	assert_int_equal(
	    fungeon_play_annoy(rng, m, who, 2, bonus, &none, 0, NULL, &a, err, sizeof(err)), -1);
	assert_string_equal(err, "zap has no Annoy dice, so nobody has to resist it.");
	m[1].dead = true;
	none.annoy = 1;
	assert_int_equal(
	    fungeon_play_annoy(rng, m, who, 2, bonus, &none, 1, NULL, &a, err, sizeof(err)), -1);
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
	    cmocka_unit_test(one_thwacko_a_player_in_a_combat_turn),
	    cmocka_unit_test(pain_outcome_damage_xp_death),
	    cmocka_unit_test(held_rolls_but_deals_nothing),
	    cmocka_unit_test(winner_may_hurt_a_fellow),
	    cmocka_unit_test(resist_takes_dice_away),
	    cmocka_unit_test(retreat_failures_never_pool),
	    cmocka_unit_test(no_magic_against_the_floor),
	    cmocka_unit_test(refusals_roll_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
