/* Unit tests for rules/wander: every wandering procedure (corridor, rest,
 * classic, tension, retreat) and surprise, each against a twin RNG. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "rules/base/rng.h"
#include "rules/procedure/wander.h"

static void
corridor(void **unused)
{
	struct rng *a = rng_new_seeded(11), *b = rng_new_seeded(11);
	int hits = 0;

	for (int i = 0; i < 300; i++) {
		struct wander_check w;
		int want = (int)rng_die(b, 6);

		wander_corridor(a, &w);
		assert_int_equal(w.proc, WANDER_CORRIDOR);
		assert_int_equal(w.sides, 6);
		assert_int_equal(w.roll, want);
		assert_int_equal(w.encounter, want == 1);
		hits += w.encounter;
	}
	assert_true(hits > 0 && hits < 300);
	rng_free(a);
	rng_free(b);
}

static void
rest_picks_an_exit(void **unused)
{
	struct rng *a = rng_new_seeded(12), *b = rng_new_seeded(12);
	int hits = 0, seen[5] = {0};

	for (int i = 0; i < 600; i++) {
		struct wander_check w;
		int want = (int)rng_die(b, 6);

		wander_rest(a, 4, &w);
		assert_int_equal(w.roll, want);
		assert_int_equal(w.exits, 4);
		if (want == 1) {
			int entry = (int)rng_die(b, 4);

			assert_true(w.encounter);
			assert_int_equal(w.entry, entry);
			seen[entry]++;
			hits++;
		} else {
			assert_false(w.encounter);
			assert_int_equal(w.entry, 0);
		}
	}
	for (int e = 1; e <= 4; e++)
		assert_true(seen[e] > 0);
	assert_true(hits > 0);
	rng_free(a);
	rng_free(b);
}

static void
classic(void **unused)
{
	struct rng *a = rng_new_seeded(13), *b = rng_new_seeded(13);

	for (int i = 0; i < 300; i++) {
		struct wander_check w;
		int want = (int)rng_die(b, 8);

		wander_classic(a, (struct odds){3, 8}, &w);
		assert_int_equal(w.sides, 8);
		assert_int_equal(w.roll, want);
		assert_int_equal(w.encounter, want <= 3);
	}
	rng_free(a);
	rng_free(b);
}

static void
tension(void **unused)
{
	struct rng *a = rng_new_seeded(14), *b = rng_new_seeded(14);
	bool by_exits = false, by_tension = false, none = false, struck = false;
	struct roll_table t;
	char err[200];

	/* no dice in the entries, so the twin draws only the d12 and the d10 */
	assert_int_equal(
	    roll_table_parse("1-10 rats; 11-14 bats; 15-20 a troll", 1, 20, &t, err, sizeof(err)),
	    0);
	t.e[1].struck = true; /* the bats were defeated */
	for (int i = 0; i < 600; i++) {
		struct wander_check w;
		int want = (int)rng_die(b, 12);

		wander_tension(a, 2, 5, &t, NULL, &w);
		assert_int_equal(w.roll, want);
		assert_int_equal(w.d12.by_exits, want <= 2);
		assert_int_equal(w.d12.by_tension, want <= 5);
		assert_int_equal(w.d12.encounter, want <= 5);
		if (want <= 5) {
			int d10 = (int)rng_die(b, 10);
			const char *who = d10 + 5 <= 10   ? "rats"
			                  : d10 + 5 <= 14 ? "bats"
			                                  : "a troll";

			assert_int_equal(w.pick.d10, d10);
			assert_int_equal(w.pick.total, d10 + 5);
			assert_string_equal(w.pick.text, who);
			/* a struck entry: the check triggered, but no encounter */
			assert_int_equal(w.pick.struck, strcmp(who, "bats") == 0);
			assert_int_equal(w.encounter, strcmp(who, "bats") != 0);
			struck |= w.pick.struck;
		} else {
			assert_false(w.encounter);
			assert_int_equal(w.pick.total, 0);
		}
		by_exits |= w.d12.by_exits;
		by_tension |= w.d12.by_tension && !w.d12.by_exits;
		none |= !w.d12.encounter;
	}
	assert_true(by_exits && by_tension && none && struck);
	/* more exits than Tension: the exits decide */
	{
		struct wander_check w;

		for (int i = 0; i < 100; i++) {
			wander_tension(a, 9, 1, &t, NULL, &w);
			assert_int_equal(w.d12.encounter, w.roll <= 9);
		}
		/* a sealed room: only Tension can trigger */
		for (int i = 0; i < 100; i++) {
			wander_tension(a, 0, 3, &t, NULL, &w);
			assert_false(w.d12.by_exits);
			assert_int_equal(w.d12.encounter, w.roll <= 3);
		}
	}
	rng_free(a);
	rng_free(b);
}

static void
retreat_players(void **unused)
{
	struct retreat_player p[RETREAT_PLAYERS_MAX];
	char err[200];

	assert_int_equal(wander_retreat_parse("alice:2 bob:3+1,carol:1", p, err, sizeof(err)), 3);
	assert_string_equal(p[0].name, "alice");
	assert_int_equal(p[0].level, 2);
	assert_int_equal(p[0].bonus, 0);
	assert_int_equal(p[1].level, 3);
	assert_int_equal(p[1].bonus, 1);
	assert_string_equal(p[2].name, "carol");
	assert_int_equal(wander_retreat_parse("alice", p, err, sizeof(err)), -1);
	assert_string_equal(err, "'alice' is not a player; write name:level, with +N for extra "
	                         "dice (e.g. alice:2 bob:3+1).");
	assert_int_equal(wander_retreat_parse("alice:0", p, err, sizeof(err)), -1);
	assert_string_equal(err, "'alice:0': the level must be from 1 to 20 and the extra dice "
	                         "from 0 to 10.");
	assert_int_equal(wander_retreat_parse("alice:21", p, err, sizeof(err)), -1);
	assert_int_equal(wander_retreat_parse("alice:2+11", p, err, sizeof(err)), -1);
	assert_int_equal(wander_retreat_parse(":2", p, err, sizeof(err)), -1);
	assert_int_equal(wander_retreat_parse("a:2x", p, err, sizeof(err)), -1);
	assert_int_equal(wander_retreat_parse("  ", p, err, sizeof(err)), -1);
	assert_string_equal(err, "Name the players as name:level, e.g. alice:2 bob:3.");
	assert_int_equal(wander_retreat_parse("a:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1 i:1 j:1 k:1", p, err,
	                                      sizeof(err)),
	                 -1);
	assert_string_equal(err, "A back-to-town check takes at most 10 players.");
}

static void
retreat_rolls(void **unused)
{
	struct rng *a = rng_new_seeded(15), *b = rng_new_seeded(15);
	struct retreat_player p = {"alice", 2, 1};
	bool fail = false, tie = false, win = false;

	for (int i = 0; i < 400; i++) {
		struct retreat_obstacle o;
		struct wander_retreat_roll r;
		int obs = 0, mine = 0;

		/* the floor's dice once, then each player's */
		wander_retreat_obstacle_roll(a, 3, &o);
		assert_int_equal(o.floor, 3);
		for (int k = 0; k < 3; k++) {
			int d = (int)rng_die(b, 6);

			assert_int_equal(o.dice[k], d);
			obs = d > obs ? d : obs;
		}
		assert_int_equal(o.high, obs);
		wander_retreat_roll(a, &o, &p, &r);
		assert_int_equal(r.ndice, 3);
		for (int k = 0; k < 3; k++) {
			int d = (int)rng_die(b, 6);

			assert_int_equal(r.dice[k], d);
			mine = d > mine ? d : mine;
		}
		assert_int_equal(r.high, mine);
		assert_int_equal(r.failed, mine < obs);
		/* level + floor points, only on a failure */
		assert_int_equal(r.points, mine < obs ? 2 + 3 : 0);
		fail |= mine < obs;
		tie |= mine == obs;
		win |= mine > obs;
	}
	assert_true(fail && tie && win);
	rng_free(a);
	rng_free(b);
}

static void
surprise(void **unused)
{
	struct rng *a = rng_new_seeded(16), *b = rng_new_seeded(16);
	struct surprise_check s[SURPRISE_MAX];
	bool edge_in = false, edge_out = false;

	for (int i = 0; i < 50; i++) {
		wander_surprise_roll(a, SURPRISE_MAX, 1, s);
		for (int k = 0; k < SURPRISE_MAX; k++) {
			int d = (int)rng_die(b, 20);

			assert_int_equal(s[k].d20, d);
			assert_int_equal(s[k].total, d + 1);
			/* 11 + 1 = 12 meets DC 12: alert; 10 + 1 = 11: surprised */
			assert_int_equal(s[k].surprised, d + 1 < 12);
			edge_in |= d == 11;
			edge_out |= d == 10;
		}
	}
	assert_true(edge_in && edge_out);
	rng_free(a);
	rng_free(b);
}

static void
names(void **unused)
{
	for (int i = 0; i < WANDER_COUNT; i++)
		assert_int_equal(wander_parse(wander_name(i)), i);
	assert_int_equal(wander_parse("Tension"), WANDER_TENSION);
	assert_int_equal(wander_parse("hallway"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(corridor),        cmocka_unit_test(rest_picks_an_exit),
	    cmocka_unit_test(classic),         cmocka_unit_test(tension),
	    cmocka_unit_test(retreat_players), cmocka_unit_test(retreat_rolls),
	    cmocka_unit_test(surprise),        cmocka_unit_test(names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
