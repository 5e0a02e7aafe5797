/* Unit tests for rules/fungeon/fungeon_trap: searching for, triggering and
 * disarming a trap, each outcome decided from seeded dice written out so
 * every expectation can be checked by hand. The first d6 of the seeds:
 *   seed 1: 5 4 4 3 5 1 1 3 6 4
 *   seed 2: 1 5 2 5 5 2 4 2 4 5
 *   seed 5: 2 4 4 5 4 5 4 5 3 3
 * Members roll first, the trap after them; the trap's maker is not in the
 * party here, so nobody's Thwack-O is on it and no tie is re-rolled. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/fungeon/fungeon_trap.h"

static void
party(struct fungeon_member *m, int n, const int *levels)
{
	static const char *const names[] = {"Alba", "Brom", "Cora", "Dirk"};

	for (int i = 0; i < n; i++)
		fungeon_member_init(&m[i], names[i], names[i], names[i], "rogue", levels[i]);
}

static void
unparty(struct fungeon_member *m, int n)
{
	for (int i = 0; i < n; i++)
		fungeon_member_free(&m[i]);
}

/* The pit: Annoy 2, Pain 2, Continuous, spikes: (1 + 2) doubled = 6. */
static void
pit(struct fungeon_piece *t, bool unlimited)
{
	char err[200];
	struct fungeon_price p;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "pit");
	snprintf(t->maker, sizeof(t->maker), "console:carol");
	assert_int_equal(fungeon_cost_parse(FUNGEON_TRAP,
	                                    unlimited
	                                        ? "annoy 2 pain 2 continuous unlimited type spikes"
	                                        : "annoy 2 pain 2 continuous type spikes",
	                                    &t->d, err, sizeof(err)),
	                 0);
	assert_int_equal(fungeon_cost_price(&t->d, &p, err, sizeof(err)), 0);
	t->cost = p.total;
}

/* Issue 25, finding 1: failing the Annoy roll forces the trap's Pain roll
 * at once, against that Fungeoneer alone, and the trap springs once. Seed
 * 2: Alba 1 against the pit's 5 2 -> 5: fails. Pain: Alba 5, pit 5 2;
 * rank 1 ties (no damage), rank 2 the pit's 2 beats her empty die: 1
 * damage. Her continuous damage starts, remembering the trap and its cost;
 * the trap has sprung and cannot be triggered or rolled against again. */
static void
trigger_fails_pain_at_once_and_springs(void **unused)
{
	struct fungeon_member m[1];
	struct fungeon_piece t;
	struct fungeon_trap_out *o = calloc(1, sizeof(*o));
	struct rng *rng = rng_new_seeded(2);
	const int lv[] = {1}, who[] = {0};
	const bool bonus[] = {false};
	char err[200];

	(void)unused;
	assert_non_null(o);
	party(m, 1, lv);
	pit(&t, false);
	assert_int_equal(t.cost, 6);
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, who, 1, err, sizeof(err)),
	                 0);
	assert_int_equal(fungeon_trap_play(rng, m, who, 1, bonus, &t, -1, FUNGEON_TRAP_TRIGGER, o,
	                                   err, sizeof(err)),
	                 0);
	assert_false(o->several);
	assert_true(o->annoyed);
	assert_int_equal(o->annoy.res.best[0], 1);
	assert_int_equal(o->annoy.res.obstacle_best, 5);
	assert_true(o->annoy.fails[0]);
	assert_int_equal(o->npain, 1);
	assert_int_equal(o->pain[0].member, 0);
	assert_int_equal(o->pain[0].roll.res.rank[0].winner, -1);
	assert_int_equal(o->pain[0].roll.res.rank[1].winner, 1);
	assert_int_equal(o->pain[0].roll.res.taken[0], 1);
	assert_int_equal(o->state, FUNGEON_TRAP_SPRUNG);
	assert_int_equal(m[0].hits, 5); /* nothing yet: the outcome is applied below */
	fungeon_trap_apply(m, &t, o);
	assert_int_equal(m[0].hits, 4);
	assert_int_equal(m[0].xp, 0);
	assert_int_equal(m[0].neffects, 1);
	assert_int_equal(m[0].effects[0].from, FUNGEON_FROM_TRAP);
	assert_string_equal(m[0].effects[0].source, "pit");
	assert_string_equal(m[0].effects[0].maker, "console:carol");
	assert_int_equal(m[0].effects[0].xp, 6);
	assert_int_equal(t.state, FUNGEON_TRAP_SPRUNG);
	assert_true(t.passed);
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, who, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err,
	                    "pit has sprung already; a trap without Unlimited Use springs once.");
	unparty(m, 1);
	rng_free(rng);
	free(o);
}

/* Several at once roll one die + level, without the class bonus even
 * where the class fits (that is disarming's). Seed 2: Alba 1 + 1 = 2,
 * Brom 5 + 2 = 7 (8 had his bonus of 1 counted): Brom avoids it. Alba
 * alone makes the Annoy roll, 2 against 5 5: fails; her Pain roll, 2
 * against 4 2: the pit wins both ranks, 2 damage. */
static void
several_trigger_without_class_bonus(void **unused)
{
	struct fungeon_member m[2];
	struct fungeon_piece t;
	struct fungeon_trap_out *o = calloc(1, sizeof(*o));
	struct rng *rng = rng_new_seeded(2);
	const int lv[] = {1, 2}, who[] = {0, 1};
	const bool bonus[] = {true, true};
	char err[200];

	(void)unused;
	assert_non_null(o);
	party(m, 2, lv);
	pit(&t, false);
	assert_int_equal(fungeon_trap_play(rng, m, who, 2, bonus, &t, -1, FUNGEON_TRAP_TRIGGER, o,
	                                   err, sizeof(err)),
	                 0);
	assert_true(o->several);
	assert_int_equal(o->t.total[0], 2);
	assert_int_equal(o->t.total[1], 7);
	assert_true(o->caught[0]);
	assert_false(o->caught[1]);
	assert_int_equal(o->annoy.n, 1);
	assert_int_equal(o->annoy.roll.g[0].n, 1); /* level 1, no bonus */
	assert_int_equal(o->annoy.res.best[0], 2);
	assert_true(o->annoy.fails[0]);
	assert_int_equal(o->npain, 1);
	assert_int_equal(o->pain[0].roll.res.taken[0], 2);
	fungeon_trap_apply(m, &t, o);
	assert_int_equal(m[0].hits, 3);
	assert_int_equal(m[1].hits, 10);
	assert_int_equal(m[1].neffects, 0);
	unparty(m, 2);
	rng_free(rng);
	free(o);
}

/* Text 000, line 260 (a Fire Mage gets her class bonus against a Flaming
 * Column Trap) and "Painful Conflicts" (level plus a class bonus if
 * applicable): triggering counts the class bonus on the Annoy roll and
 * on the Pain roll alike. Brix, a level 4 fire mage (class bonus 2, type
 * fire), stumbles into a fire trap, Annoy 14 / Pain 2. Seed 1: his 4 + 2
 * dice best 5 against the trap's best 6: fails. His Pain roll has 6 dice,
 * 4 3 3 3 3 2 against the trap's 6 3: the trap wins rank 1 and he takes
 * 1. Against the same trap with Universal Damage his Pain roll is his
 * level alone. */
static void
trigger_pain_roll_counts_class_bonus(void **unused)
{
	struct fungeon_member m[1];
	struct fungeon_piece t;
	struct fungeon_price p;
	struct fungeon_trap_out *o = calloc(1, sizeof(*o));
	struct rng *rng = rng_new_seeded(1);
	const int who[] = {0};
	const bool bonus[] = {true};
	char err[200];

	(void)unused;
	assert_non_null(o);
	fungeon_member_init(&m[0], "bo", "bo", "Brix", "fire-mage", 4);
	snprintf(m[0].ctype, sizeof(m[0].ctype), "fire");
	memset(&t, 0, sizeof(t));
	snprintf(t.name, sizeof(t.name), "flame");
	assert_int_equal(
	    fungeon_cost_parse(FUNGEON_TRAP, "annoy 14 pain 2 type fire", &t.d, err, sizeof(err)),
	    0);
	assert_int_equal(fungeon_cost_price(&t.d, &p, err, sizeof(err)), 0);
	t.cost = p.total;
	assert_int_equal(fungeon_trap_play(rng, m, who, 1, bonus, &t, -1, FUNGEON_TRAP_TRIGGER, o,
	                                   err, sizeof(err)),
	                 0);
	assert_int_equal(o->annoy.roll.g[0].n, 6);
	assert_int_equal(o->annoy.res.best[0], 5);
	assert_int_equal(o->annoy.res.obstacle_best, 6);
	assert_int_equal(o->npain, 1);
	assert_int_equal(o->pain[0].roll.roll.g[0].n, 6);
	assert_int_equal(o->pain[0].roll.roll.g[0].v[0], 4);
	assert_int_equal(o->pain[0].roll.roll.g[1].v[0], 6);
	assert_int_equal(o->pain[0].roll.roll.g[1].v[1], 3);
	assert_int_equal(o->pain[0].roll.res.taken[0], 1);
	rng_free(rng);

	t.d.universal = true;
	rng = rng_new_seeded(1);
	assert_int_equal(fungeon_trap_play(rng, m, who, 1, bonus, &t, -1, FUNGEON_TRAP_TRIGGER, o,
	                                   err, sizeof(err)),
	                 0);
	assert_int_equal(o->npain, 1);
	assert_int_equal(o->pain[0].roll.roll.g[0].n, 4);
	fungeon_member_free(&m[0]);
	rng_free(rng);
	free(o);
}

/* Issue 25, finding 6: a trap is found once. Seed 5: Alba 2 and Brom 4
 * against 3 dice (its cost, 3 for this Annoy 2 / Pain 2 trap) 4 5 4 -> 5:
 * both fail and stay unaware (Ruling: they may not search it again). Then
 * Cora, 5 against 4 5 3 -> 5: found, +3 XP. Found, it is not searched for
 * again. */
static void
search_finds_once(void **unused)
{
	struct fungeon_member m[3];
	struct fungeon_piece t;
	struct fungeon_trap_out *o = calloc(1, sizeof(*o));
	struct rng *rng = rng_new_seeded(5);
	const int lv[] = {1, 1, 1}, ab[] = {0, 1}, alba[] = {0}, cora[] = {2};
	const bool bonus[] = {false, false};
	char err[300];

	(void)unused;
	assert_non_null(o);
	party(m, 3, lv);
	pit(&t, false);
	t.d.continuous = false;
	t.cost = 3;
	assert_int_equal(fungeon_trap_play(rng, m, ab, 2, bonus, &t, -1, FUNGEON_TRAP_SEARCH, o,
	                                   err, sizeof(err)),
	                 0);
	assert_int_equal(o->annoy.roll.g[2].n, 3);
	assert_int_equal(o->annoy.res.obstacle_best, 5);
	assert_true(o->annoy.fails[0] && o->annoy.fails[1]);
	fungeon_trap_apply(m, &t, o);
	assert_int_equal(t.state, FUNGEON_TRAP_HIDDEN);
	assert_int_equal(t.unaware, 3u);
	assert_false(t.passed); /* searching triggers nothing */
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_SEARCH, m, alba, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "Alba searched for pit and found nothing; a Fungeoneer who failed "
	                         "stays in blissful ignorance of it (a Ruling).");
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_SEARCH, m, cora, 1, err, sizeof(err)),
	                 0);
	assert_int_equal(fungeon_trap_play(rng, m, cora, 1, bonus, &t, -1, FUNGEON_TRAP_SEARCH, o,
	                                   err, sizeof(err)),
	                 0);
	assert_int_equal(o->annoy.res.best[0], 5);
	assert_false(o->annoy.fails[0]);
	assert_int_equal(o->annoy.xp[0], 3);
	fungeon_trap_apply(m, &t, o);
	assert_int_equal(t.state, FUNGEON_TRAP_FOUND);
	assert_int_equal(m[2].xp, 3);
	assert_int_equal(m[2].neffects, 0);
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_SEARCH, m, cora, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "pit is found already; there is nothing left to search for.");
	unparty(m, 3);
	rng_free(rng);
	free(o);
}

/* Disarming: a Ruling wants the trap found first; the class bonus counts.
 * Seed 1: Cora (level 2, class bonus 1) rolls 3 dice, 5 4 4, against the
 * pit's 3 5 -> 5: disarmed, +6 XP. Seed 2: Alba (level 1) 1 against 5 2:
 * the disarming fails and is a triggering: her Pain roll, and it springs. */
static void
disarm_found_trap(void **unused)
{
	struct fungeon_member m[3];
	struct fungeon_piece t;
	struct fungeon_trap_out *o = calloc(1, sizeof(*o));
	struct rng *rng = rng_new_seeded(1);
	const int lv[] = {1, 1, 2}, alba[] = {0}, cora[] = {2}, two[] = {0, 2};
	const bool yes[] = {true}, no[] = {false};
	char err[300];

	(void)unused;
	assert_non_null(o);
	party(m, 3, lv);
	pit(&t, false);
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_DISARM, m, cora, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "Nobody has found pit yet, and a trap is found before it is "
	                         "disarmed (a Ruling): search for it first.");
	t.state = FUNGEON_TRAP_FOUND;
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_DISARM, m, two, 2, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "One Fungeoneer disarms pit at a time; name one.");
	assert_int_equal(fungeon_trap_play(rng, m, cora, 1, yes, &t, -1, FUNGEON_TRAP_DISARM, o,
	                                   err, sizeof(err)),
	                 0);
	assert_int_equal(o->annoy.roll.g[0].n, 3);
	assert_int_equal(o->annoy.res.best[0], 5);
	assert_false(o->annoy.fails[0]);
	fungeon_trap_apply(m, &t, o);
	assert_int_equal(t.state, FUNGEON_TRAP_DISARMED);
	assert_int_equal(m[2].xp, 6);
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, alba, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "pit is disarmed; it springs no more.");

	pit(&t, false);
	t.state = FUNGEON_TRAP_FOUND;
	rng_seed(rng, 2);
	assert_int_equal(fungeon_trap_play(rng, m, alba, 1, no, &t, -1, FUNGEON_TRAP_DISARM, o, err,
	                                   sizeof(err)),
	                 0);
	assert_true(o->annoy.fails[0]);
	assert_int_equal(o->npain, 1);
	fungeon_trap_apply(m, &t, o);
	assert_int_equal(t.state, FUNGEON_TRAP_SPRUNG);
	assert_int_equal(m[0].hits, 4);
	assert_int_equal(m[0].neffects, 1);
	unparty(m, 3);
	rng_free(rng);
	free(o);
}

/* Unlimited Use: it can always be triggered; once it has sprung it is
 * known (found). */
static void
unlimited_use_triggers_again(void **unused)
{
	struct fungeon_member m[1];
	struct fungeon_piece t;
	struct fungeon_trap_out *o = calloc(1, sizeof(*o));
	struct rng *rng = rng_new_seeded(2);
	const int lv[] = {1}, who[] = {0};
	const bool bonus[] = {false};
	char err[200];

	(void)unused;
	assert_non_null(o);
	party(m, 1, lv);
	pit(&t, true);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(
		    fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, who, 1, err, sizeof(err)), 0);
		assert_int_equal(fungeon_trap_play(rng, m, who, 1, bonus, &t, -1,
		                                   FUNGEON_TRAP_TRIGGER, o, err, sizeof(err)),
		                 0);
		fungeon_trap_apply(m, &t, o);
		assert_int_equal(t.state, FUNGEON_TRAP_FOUND);
		assert_true(t.passed);
	}
	unparty(m, 1);
	rng_free(rng);
	free(o);
}

/* Who may go near a trap: the living, in play, each named once. */
static void
check_refusals(void **unused)
{
	struct fungeon_member m[2];
	struct fungeon_piece t;
	const int lv[] = {1, 1}, twice[] = {0, 0}, brom[] = {1};
	char err[300];

	(void)unused;
	party(m, 2, lv);
	pit(&t, false);
	assert_int_equal(
	    fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, twice, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "Alba is named twice; name each Fungeoneer once.");
	m[1].fresh = true;
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, brom, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "Brom is a replacement: Brom is out until the next hallway, where "
	                         "Brom joins the party.");
	m[1].fresh = false;
	m[1].dead = true;
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, brom, 1, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "Brom is dead: Brom is out of the game until the next hallway.");
	assert_int_equal(fungeon_trap_check(&t, FUNGEON_TRAP_TRIGGER, m, brom, 0, err, sizeof(err)),
	                 -1);
	unparty(m, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(trigger_fails_pain_at_once_and_springs),
	    cmocka_unit_test(several_trigger_without_class_bonus),
	    cmocka_unit_test(trigger_pain_roll_counts_class_bonus),
	    cmocka_unit_test(search_finds_once),
	    cmocka_unit_test(disarm_found_trap),
	    cmocka_unit_test(unlimited_use_triggers_again),
	    cmocka_unit_test(check_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
