/* Issue 25's findings for Fungeon, each played at a table as the report
 * found it (the console commands it names), with what the rule text wants
 * instead. One test per finding; the rules' own tests are in
 * test_fungeon*.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "tests/unit/helpers/fgtable.h"

/* Finding 1: a sprung trap can still hurt. The Pain roll is the
 * consequence of a failed Annoy roll, made in the same command; there is
 * no Pain roll of a trap by hand; the trap springs once. */
static void
f01_a_sprung_trap_hurts_no_more(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add Needle annoy 4 pain 2 continuous type poison", NULL};
	struct fgtable *t = fgtable_new(2);
	const struct fungeon_channel *c;
	char *text;
	int hits;

	(void)unused;
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	text = fgtable_said(t, "al", "/fungeon trigger Needle Al");
	assert_non_null(strstr(text, "Needle has sprung: without Unlimited Use it springs no "
	                             "more.\n"));
	/* a failure brings the Pain roll at once; a success none */
	assert_int_equal(strstr(text, "Al's Pain roll against Needle") != NULL,
	                 c->m[0].hits < 30 || c->m[0].neffects > 0);
	free(text);
	hits = c->m[0].hits;
	fgtable_fails_unchanged(t, "al", "/fungeon trigger Needle Al",
	                        "Needle has sprung already; a trap without Unlimited Use springs "
	                        "once.");
	fgtable_fails_unchanged(t, "al", "/fungeon pain Needle Al", NULL);
	assert_int_equal(c->m[0].hits, hits);
	fgtable_free(t);
}

/* Finding 2: a trap's continuous damage is rolled in each hallway, not in
 * combat step 1, which is for continuous monster features; ending it with
 * a successful Annoy roll earns the trap's cost. */
static void
f02_trap_continuous_damage_waits_for_the_hallway(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 6", NULL};
	struct fgtable *t = fgtable_new(4);
	struct fungeon_channel *c;
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_TRAP,
	                           .source = "Needle",
	                           .annoy = 1,
	                           .pain = 1,
	                           .xp = 8};
	char *text;
	int rounds = 0;

	(void)unused;
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	text = fgtable_said(t, "al", "/fungeon combat");
	assert_non_null(strstr(text, "1. Continuous monster features\nNone.\n"));
	assert_null(strstr(text, "Needle"));
	free(text);
	assert_int_equal(c->m[0].neffects, 1);
	/* the hallway rolls it; with level 6 against one die it ends at once */
	while (c->m[0].neffects > 0 && rounds++ < 5) {
		int64_t xp = c->m[0].xp;

		if (c->d.phase == FUNGEON_HALLWAY)
			fgtable_enter_waived(t);
		text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
		assert_non_null(
		    strstr(text, "3. Continuous damage\nContinuous damage: Needle on Al\n"));
		if (c->m[0].neffects == 0) {
			assert_non_null(strstr(text, "succeeds: the effect ends (+8 XP)"));
			assert_int_equal(c->m[0].xp, xp + 8);
		}
		free(text);
	}
	assert_int_equal(c->m[0].neffects, 0);
	fgtable_free(t);
}

/* Finding 3: earlier rooms stay live. Each hallway makes a new room; the
 * troll, the trap and the treasure of room 1 are not in room 2. */
static void
f03_earlier_rooms_are_left_behind(void **unused)
{
	static const char *const d[] = {"/fungeon monster add Troll level 6",
	                                "/fungeon trap add Dart annoy 1 pain 1 type darts",
	                                "/fungeon treasure add Gem mundane", NULL};
	struct fgtable *t = fgtable_new(5);

	(void)unused;
	fgtable_into_room(t, 6, d);
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_enter_waived(t);
	fgtable_fails_unchanged(t, "al", "/fungeon combat Troll",
	                        "There is no monster 'Troll' here; the room's monsters are none.");
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "No monster is in this room: there is nothing to fight here; go "
	                        "on (/fungeon hallway).");
	fgtable_fails_unchanged(t, "al", "/fungeon trigger Dart Al",
	                        "There is no trap 'Dart' here; the room's traps are none.");
	fgtable_fails_unchanged(t, "al", "/fungeon take Gem",
	                        "There is no treasure 'Gem' here (the party is in room 2 on floor "
	                        "6), and none is left to take.");
	fgtable_free(t);
}

/* Finding 4: healing by fiat. There is no heal command; an adjustment by
 * hand says plainly that it is outside the rules; magic heals. */
static void
f04_no_healing_by_fiat(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add Potion fancy heal 4", NULL};
	struct fgtable *t = fgtable_new(6);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_into_room(t, 3, d);
	c = fgtable_fungeon(t);
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-10");
	fgtable_fails_unchanged(t, "al", "/fungeon heal Al 50", NULL);
	text = fgtable_said(t, "al", "/fungeon adjust Al hits:+3");
	assert_string_equal(text, "Adjusted by hand, outside the rules (in a dungeon only magic "
	                          "treasure and levelling up heal; /undo takes back a mistake):\n"
	                          "Al's hits 5 → 8 of 15.\n");
	free(text);
	fgtable_ok(t, "al", "/fungeon take Potion");
	text = fgtable_said(t, "al", "/fungeon use Potion");
	assert_string_equal(text, "Al heals 4 with Al's Potion, used up: 12/15 hits.\n");
	free(text);
	assert_int_equal(c->m[0].nitems, 0);
	fgtable_free(t);
}

/* Finding 5: treasure is traded once the party has left the dungeon. */
static void
f05_trading_is_in_town(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add Gem mundane value 5", NULL};
	struct fgtable *t = fgtable_new(7);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_into_room(t, 3, d);
	c = fgtable_fungeon(t);
	fgtable_ok(t, "al", "/fungeon take Gem");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon town sell Gem",
	    "Treasure is traded in town, and the party is in room 1 on floor 3; "
	    "head back first with /fungeon retreat.");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon town buy Ring fancy",
	    "Treasure is traded in town, and the party is in room 1 on floor 3; "
	    "head back first with /fungeon retreat.");
	text = fgtable_said(t, "al", "/fungeon retreat confirm:true"); /* room 1: out */
	assert_non_null(strstr(text, "The party leaves the dungeon and is back in town."));
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	text = fgtable_said(t, "al", "/fungeon town sell Gem");
	assert_string_equal(text, "Al sells Gem (6 points): what Al gave up in this visit, 6 "
	                          "points, gives half, rounded down once over it all, so this "
	                          "sale adds 3 points: credit 3 points.\n");
	free(text);
	fgtable_free(t);
}

/* Finding 6: a trap is found once, for its XP once; the trap list shows
 * each trap's state. */
static void
f06_a_trap_is_found_once(void **unused)
{
	static const char *const d[] = {"/fungeon trap add Dart annoy 1 pain 1 type darts",
	                                "/fungeon trap add Pit annoy 2 pain 1 type spikes", NULL};
	struct fgtable *t = fgtable_new(8);
	const struct fungeon_channel *c;
	char *text;
	int tries = 0;

	(void)unused;
	fgtable_ok(t, "bo", "/fungeon join Bo rogue 6");
	fgtable_ok(t, "cy", "/fungeon join Cy rogue 6");
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	/* search until someone finds it: each one who fails is out */
	while (c->d.room.p[FUNGEON_TRAP][0].state == FUNGEON_TRAP_HIDDEN && tries++ < 3) {
		static const char *const who[] = {"al", "bo", "cy"};

		fgtable_ok(t, who[tries - 1], "/fungeon find Dart");
	}
	assert_int_equal(c->d.room.p[FUNGEON_TRAP][0].state, FUNGEON_TRAP_FOUND);
	fgtable_fails_unchanged(t, "cy", "/fungeon find Dart",
	                        "Dart is found already; there is nothing left to search for.");
	fgtable_ok(t, "al", "/fungeon trigger Pit Al");
	text = fgtable_said(t, "al", "/fungeon trap list");
	{
		char want[120];

		snprintf(want, sizeof(want),
		         "  Dart | annoy 1 pain 1 type darts | 2 | found (made by %s)\n",
		         fgtable_holder(t, FUNGEON_CAT_TRAPS));
		assert_non_null(strstr(text, want));
		snprintf(want, sizeof(want),
		         "  Pit | annoy 2 pain 1 type spikes | 2 | sprung (made by %s)\n",
		         fgtable_holder(t, FUNGEON_CAT_TRAPS));
		assert_non_null(strstr(text, want));
	}
	free(text);
	fgtable_free(t);
}

/* Finding 7: a held Fungeoneer may not act, but it is in the Painful
 * conflict and can be hurt; play-test 2 (deviation 3): it rolls its dice
 * there, and a rank it wins deals no damage. On floor 30 the spider
 * (level 6, a web of 6 + 18 Annoy dice: (6 + 9) doubled = 30) holds Al
 * (level 1, seed 9); in the Painful conflict its 6 dice take at least
 * ranks 2 to 6 against Al's one die, and Al, at 5 hits, falls. */
static void
f07_the_held_can_be_hurt(void **unused)
{
	struct fgtable *t = fgtable_new(9);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_alone_on_floor(
	    t, 30, "/fungeon monster add spider level 6 ability web annoy 18 hold type silk");
	c = fgtable_fungeon(t);
	text = fgtable_said(t, "al", "/fungeon combat");
	assert_non_null(strstr(text, "Al is held and may not act this turn: Al rolls in every "
	                             "Painful conflict, but a rank Al wins deals no damage.\n3. "
	                             "Painful conflict\nAl (al, held: deals no damage): "));
	assert_null(strstr(text, "no dice\n"));
	assert_non_null(strstr(text, "Al deals 0 and takes 5: 0/5 hits."));
	assert_true(c->m[0].dead);
	free(text);
	fgtable_free(t);
}

/* Finding 8: a Resist die never adds to a monster's attack, and it must be
 * against a type a Fungeoneer has (a class type or magic). */
static void
f08_resist_dice(void **unused)
{
	struct fgtable *t = fgtable_new(10);
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al mage 6 type:fire");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_fails_unchanged(
	    t, "al",
	    "/fungeon monster add ice level 5 ability chill annoy 1 resist 1 cold type cold",
	    "No Fungeoneer of the party has cold as a class type or a magic type, so chill's "
	    "Resist "
	    "dice would resist nothing; resist a type one of them has.");
	fgtable_ok(
	    t, "al",
	    "/fungeon monster add ice level 5 ability chill annoy 1 resist 3 fire type cold");
	fgtable_enter_waived(t);
	text = fgtable_said(t, "al", "/fungeon combat use:none");
	/* the ice's attacks roll its level, 5 dice, and not 8 */
	assert_non_null(strstr(text, "\nice: "));
	{
		const char *line = strstr(text, "\nice: ") + 6;
		int dice = 1;

		for (const char *p = line; *p && *p != '\n'; p++)
			dice += *p == ' ';
		assert_int_equal(dice, 5);
	}
	free(text);
	fgtable_free(t);
}

/* Finding 9: the Traps player alone makes traps, and so on; a player
 * without a category makes nothing; a lone player holds all three. */
static void
f09_categories_belong_to_their_holders(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	const struct fungeon_channel *c;
	static const char *const kinds[] = {"trap add X annoy 1 pain 1 type darts",
	                                    "monster add X level 1", "treasure add X mundane"};

	(void)unused;
	for (int i = 0; i < 4; i++) {
		static const char *const joins[] = {"/fungeon join Al a 1", "/fungeon join Bo b 1",
		                                    "/fungeon join Cy c 1", "/fungeon join Di d 1"};
		static const char *const users[] = {"al", "bo", "cy", "di"};

		fgtable_ok(t, users[i], joins[i]);
	}
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	c = fgtable_fungeon(t);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		int h = fungeon_channel_holder(c, (enum fungeon_category)k);
		char line[80];

		snprintf(line, sizeof(line), "/fungeon %s", kinds[k]);
		line[strlen(line) - strlen(strchr(line, 'X'))] = '\0';
		for (int m = 0; m < c->n; m++) {
			char full[96];

			snprintf(full, sizeof(full), "%s%s%d %s", line, "P", m,
			         strchr(kinds[k], 'X') + 2);
			if (m == h)
				continue;
			fgtable_fails_unchanged(t, c->m[m].player, full, NULL);
		}
	}
	/* the one who got no category */
	for (int m = 0; m < c->n; m++) {
		bool holds = false;

		for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
			holds |= fungeon_channel_holder(c, (enum fungeon_category)k) == m;
		if (!holds) {
			char want[200];

			snprintf(
			    want, sizeof(want),
			    "Traps are %s's to make in room 1: the player who holds a category "
			    "alone makes its pieces.",
			    fgtable_holder(t, FUNGEON_CAT_TRAPS));
			fgtable_fails_unchanged(t, c->m[m].player,
			                        "/fungeon trap add Y annoy 1 pain 1 type darts",
			                        want);
		}
	}
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add Z annoy 1 pain 1 type darts");
	fgtable_free(t);
}

/* Finding 10: the winner of a rank may hurt a fellow Fungeoneer it names
 * as its target. The rat aims at Al, so every point Be takes is one of
 * Al's won ranks; turns go on until Al has won one. */
static void
f10_a_winner_may_hurt_a_fellow(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 6", NULL};
	struct fgtable *t = fgtable_new(12);
	const struct fungeon_channel *c;
	int to_be = 0, turns = 0;

	(void)unused;
	fgtable_ok(t, "be", "/fungeon join Be fighter 6");
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon orders targets:rat>Al");
	while (to_be == 0 && turns++ < 10) {
		int before = c->m[0].hits, n = 0;
		char *text = fgtable_said(t, "al", "/fungeon combat targets:Al>Be");

		assert_null(strstr(text, "same side"));
		for (const char *p = strstr(text, "1 → Be"); p != NULL; p = strstr(p + 1, "1 → Be"))
			n++;
		assert_int_equal(before - c->m[0].hits, n);
		to_be += n;
		free(text);
	}
	assert_true(to_be > 0);
	fgtable_free(t);
}

/* Finding 11: no level cap. A replacement on floor 40 joins at level 39;
 * 12,000,000 XP make level 21 in the hallway. */
static void
f11_no_level_cap(void **unused)
{
	struct fgtable *t = fgtable_new(13);
	const struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 20);
	fgtable_ok(t, "al", "/fungeon entrance");
	fgtable_gm(t, "/fungeon floor 40");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_enter_waived(t);
	c = fgtable_fungeon(t);
	fgtable_ok(t, "bo", "/fungeon adjust Bo hits:-100");
	fgtable_ok(t, "bo", "/fungeon join Cid rogue");
	assert_int_equal(c->m[1].level, 39);
	fgtable_ok(t, "al", "/fungeon adjust Al xp:12000000");
	fgtable_ok(t, "al", "/fungeon hallway");
	assert_int_equal(c->m[0].level, 21);
	fgtable_fails_unchanged(t, "al", "/fungeon floor 62", NULL);
	fgtable_free(t);
}

/* Finding 14: a Fungeoneer who died in this hallway's continuous-damage
 * step is out until the next hallway: its player draws no category. */
static void
f14_dead_in_the_hallway_draws_nothing(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 3, 1);
	c = fgtable_fungeon(t);
	fgtable_doomed(t, 1, NULL);
	text = fgtable_said(t, "al", "/fungeon hallway");
	assert_true(c->m[1].dead);
	assert_non_null(strstr(text, "Bo died in this hallway: bo is out until the next one and "
	                             "draws no category.\n"));
	assert_null(strstr(text, "\nbo: "));
	assert_int_equal(c->d.room.picks.n, 2);
	free(text);
	fgtable_free(t);
}

/* Finding 15, the smaller ones: a class may not be empty; an adjustment
 * takes away at most the XP there are ("loses 50 XP: 0 in all"); a
 * player's default Thwack-O style stays when another leaves; one die is
 * "1 Annoy die". The budget labels are in test_fungeon_table.c
 * (room_budgets_and_unspent_points). */
static void
f15_smaller_ones(void **unused)
{
	static const char *const d[] = {"/fungeon trap add Dart annoy 1 pain 1 type darts", NULL};
	struct fgtable *t = fgtable_new(14);
	struct fungeon_channel *c;
	struct thwacko_style before[FUNGEON_PARTY_MAX], after[FUNGEON_PARTY_MAX];
	char *text;

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon join Al \" \" 2",
	                        "A Fungeoneer needs a class, any career at all (Warrior, Shadow "
	                        "Mage); the class may not be empty.");
	for (int i = 0; i < 6; i++) {
		char user[8], line[64];

		snprintf(user, sizeof(user), "p%d", i);
		snprintf(line, sizeof(line), "/fungeon join P%d fighter 3", i);
		fgtable_ok(t, user, line);
	}
	c = fgtable_fungeon(t);
	fungeon_channel_styles(c, t->st, before);
	fgtable_ok(t, "p1", "/fungeon leave");
	fungeon_channel_styles(c, t->st, after);
	for (int i = 2; i < 6; i++) {
		assert_int_equal(after[i - 1].colour, before[i].colour);
		assert_string_equal(after[i - 1].mark, before[i].mark);
	}
	while (c->n > 1)
		fgtable_ok(t, c->m[1].player, "/fungeon leave");
	fgtable_ok(t, "p0", "/fungeon adjust P0 xp:30");
	fgtable_fails_unchanged(t, "p0", "/fungeon adjust P0 xp:-50",
	                        "P0 has 30 XP, so an adjustment takes away at most 30.");
	fgtable_ok(t, "p0", "/fungeon hallway");
	for (int i = 0; d[i] != NULL; i++)
		fgtable_ok(t, "p0", d[i]);
	fgtable_enter_waived(t);
	text = fgtable_said(t, "p0", "/fungeon trigger Dart P0");
	assert_non_null(strstr(text, "Triggering Dart: an Annoy roll against its 1 Annoy die\n"));
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f01_a_sprung_trap_hurts_no_more),
	    cmocka_unit_test(f02_trap_continuous_damage_waits_for_the_hallway),
	    cmocka_unit_test(f03_earlier_rooms_are_left_behind),
	    cmocka_unit_test(f04_no_healing_by_fiat),
	    cmocka_unit_test(f05_trading_is_in_town),
	    cmocka_unit_test(f06_a_trap_is_found_once),
	    cmocka_unit_test(f07_the_held_can_be_hurt),
	    cmocka_unit_test(f08_resist_dice),
	    cmocka_unit_test(f09_categories_belong_to_their_holders),
	    cmocka_unit_test(f10_a_winner_may_hurt_a_fellow),
	    cmocka_unit_test(f11_no_level_cap),
	    cmocka_unit_test(f14_dead_in_the_hallway_draws_nothing),
	    cmocka_unit_test(f15_smaller_ones),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
