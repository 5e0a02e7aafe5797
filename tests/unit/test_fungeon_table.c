/* Fungeon played at a table, command by command (the console's lines, as
 * the players type them): combat turns, death and a replacement, the
 * room's budgets, guarded treasure and plunder, a monster's least cost on
 * a floor, the healer in town, and a class type's bonus dice. */
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

/* A combat turn offers the next turn while a monster of the fight stands;
 * once none does, fighting again says there is nothing to fight. */
static void
combat_offers_next_turn(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	int turns;

	fgtable_adventurers(t, 3, 3, 0);
	fgtable_ok(t, "alice", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add goblin level 3");
	fgtable_enter_waived(t);
	for (turns = 0; turns < 60; turns++) {
		const struct reply_msg *m;

		fgtable_ok(t, "alice", "/fungeon combat goblin");
		m = reply_msg(t->last, REPLY_CHANNEL);
		if (fungeon_room_standing(&fgtable_fungeon(t)->d.room) == 0) {
			assert_int_equal(m->nbuttons, 0);
			break;
		}
		assert_int_equal(m->nbuttons, 1);
		assert_string_equal(m->buttons[0].label, "Next combat turn");
		assert_string_equal(m->buttons[0].action, "fungeon combat goblin");
	}
	assert_true(turns > 0 && turns < 60);
	fgtable_fails_unchanged(t, "alice", "/fungeon combat goblin",
	                        "goblin is already defeated; name a monster with hits left.");
	fgtable_fails_unchanged(t, "alice", "/fungeon combat",
	                        "No monster of this room has hits left: there is nothing to fight "
	                        "here; go on (/fungeon hallway).");
	fgtable_free(t);
}

/* Into room 1 on floor 4 with alice and bob at level 5 (the entrance
 * opens on Party Min, 5; the floor is then set to 4), every point waived. */
static void
into_room_on_floor_4(struct fgtable *t)
{
	fgtable_adventurers(t, 5, 5, 0);
	fgtable_ok(t, "bob", "/fungeon entrance");
	fgtable_gm(t, "/fungeon floor 4");
	fgtable_ok(t, "bob", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_enter_waived(t);
}

/* A dead Fungeoneer's player joins again at level floor - 1 (at least 1);
 * the new one waits for the next hallway, which reports it. */
static void
death_and_replacement_by_join(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	const struct fungeon_channel *c;
	char *text;

	into_room_on_floor_4(t);
	c = fgtable_fungeon(t);
	text = fgtable_run(t, "bob", "/fungeon adjust Brom hits:-30");
	assert_string_equal(text, "Adjusted by hand, outside the rules (/undo takes back a "
	                          "mistake):\n"
	                          "Brom's hits 25 → 0 of 25. Brom dies! bob is out until the next "
	                          "hallway.\n");
	free(text);
	assert_true(c->m[1].dead);
	text = fgtable_said(t, "bob", "/fungeon join Bram fighter 5");
	assert_string_equal(text, "bob makes a new Fungeoneer: Bram, level 3 fighter: 15 hits, "
	                          "class bonus 1, 0 XP. Level 3 is the only one after a death: "
	                          "floor 4 - 1, at least 1, for the rest of this dungeon. Bram "
	                          "joins the party in the next hallway.\n");
	free(text);
	assert_int_equal(c->n, 2);
	assert_string_equal(c->m[1].name, "Bram");
	assert_int_equal(c->m[1].level, 3);
	assert_int_equal(c->m[1].hits, 15);
	assert_false(c->m[1].dead);
	assert_true(c->m[1].fresh);
	/* Bram waits: alice, in play, moves the party on */
	fgtable_fails_unchanged(t, "bob", "/fungeon hallway",
	                        "Bram waits to join the party in the next hallway; "
	                        "until then the players whose Fungeoneers are in play move the "
	                        "party on.");
	text = fgtable_run(t, "alice", "/fungeon hallway");
	assert_non_null(strstr(text, "1. Replacements\nbob's new Fungeoneer Bram (level 3) joins "
	                             "the party.\n2. Level-ups\n"));
	free(text);
	assert_false(c->m[1].fresh);
	fgtable_free(t);
}

/* Leaving and joining again does not bypass the replacement level; the
 * hallway waits for the replacement, so its budgets count it. */
static void
replacement_level_survives_leave_and_join(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	const struct fungeon_channel *c;
	char *text;

	into_room_on_floor_4(t);
	c = fgtable_fungeon(t);
	fgtable_ok(t, "bob", "/fungeon adjust Brom hits:-30");
	fgtable_fails_unchanged(t, "alice", "/fungeon hallway",
	                        "bob's Brom died: the new Fungeoneer comes first in the hallway "
	                        "(/fungeon join NAME CLASS, at level 3), or bob leaves the party "
	                        "(/fungeon leave).");
	fgtable_ok(t, "bob", "/fungeon leave");
	fgtable_ok(t, "bob", "/fungeon join Bram fighter 5"); /* taken at 3 */
	assert_int_equal(c->m[1].level, 3);
	assert_true(c->m[1].fresh);
	/* the new one counts in the hallway's budgets: Max 5, Total 8, Min 3 */
	text = fgtable_run(t, "alice", "/fungeon hallway");
	assert_non_null(strstr(text, "bob's new Fungeoneer Bram (level 3) joins the party."));
	assert_non_null(strstr(text, "Traps budget this room: 9 (Party Max 5 + floor 4)"));
	assert_non_null(strstr(text, "Monsters budget this room: 12 (Party Total 8 + floor 4)"));
	assert_non_null(strstr(text, "Treasure budget this room: 7 (Party Min 3 + floor 4)"));
	free(text);
	/* alive, leaving and joining again still gives level 3 in this dungeon */
	fgtable_ok(t, "bob", "/fungeon leave");
	fgtable_ok(t, "bob", "/fungeon join Bram fighter");
	assert_int_equal(c->m[1].level, 3);
	fgtable_free(t);
}

/* The budgets are fixed in the hallway; a death in the room changes
 * nothing, and the budget line keeps the figures the hallway used (issue
 * 25, finding 15: "Party Total 1 + floor 6" for a budget of 8). Points
 * left unspent keep the party out of the room until they are spent, or
 * waived where no new piece can use them (Ruling; play-test 5, Q10), and a
 * waiver is recorded and shown. */
static void
room_budgets_and_unspent_points(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	const struct fungeon_channel *c;
	char *text, *json, line[120];

	fgtable_adventurers(t, 2, 3, 0);
	fgtable_ok(t, "alice", "/fungeon hallway");
	c = fgtable_fungeon(t);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_MONSTER), 5 + 2);
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit annoy 2 pain 3 type spikes");
	fgtable_fails_unchanged(t, "alice", "/fungeon enter",
	                        "Room 1's points are not all spent (left: Traps 1 (alice), "
	                        "Monsters 7 (bob), Treasure 4 (alice)), and the text says every "
	                        "point is spent; each holder spends theirs, or lets go what no new "
	                        "piece can use with /fungeon enter waive:true.");
	fgtable_fails_unchanged(t, "alice", "/fungeon enter waive:true",
	                        "Treasure 4 can still buy a new treasure (one costs at least 1 "
	                        "here), and the text has every point spent: spend them first, then "
	                        "Traps 1 may go; a holder waives only points no new piece can use "
	                        "(a Ruling), and the GM any, outside the rules.");
	fgtable_ok(t, "alice", "/fungeon treasure add gem mundane value 3");
	text = fgtable_said(t, "alice", "/fungeon enter waive:true");
	assert_string_equal(text, "Points left unspent, waived by alice: Traps 1.\n"
	                          "The party goes in once the rest is spent or waived by its "
	                          "holders (left: Monsters 7 (bob)) with /fungeon enter "
	                          "waive:true.\n");
	free(text);
	fgtable_ok(t, "bob", "/fungeon monster add ogre level 6");
	text = fgtable_said(t, "bob", "/fungeon enter waive:true");
	assert_non_null(
	    strstr(text, "Points left unspent, waived by alice: Traps 1; bob: Monsters 1.\n"));
	free(text);
	json = fgtable_saved(t);
	assert_non_null(strstr(json, "\"waived\":\"room 1: points left unspent, waived by alice: "
	                             "Traps 1; bob: Monsters 1\""));
	free(json);
	fgtable_ok(t, "bob", "/fungeon adjust Brom hits:-15");
	assert_true(c->m[1].dead);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_MONSTER), 7);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_TRAP), 5);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_TREASURE), 4);
	text = fgtable_run(t, "alice", "/fungeon party");
	snprintf(line, sizeof(line),
	         "Monsters budget this room: 7 (Party Total 5 as the hallway counted it + floor "
	         "2)");
	assert_non_null(strstr(text, line));
	assert_non_null(strstr(text,
	                       "Traps budget this room: 5 (Party Max 3 as the hallway counted "
	                       "it + floor 2)"));
	free(text);
	fgtable_free(t);
}

/* Guarded treasure waits for its trap; a dead Fungeoneer's treasure stays
 * in the room for the living to plunder; a replacement waits. */
static void
guarded_treasure_and_plunder(void **unused)
{
	struct fgtable *t = fgtable_new(5);
	struct fungeon_channel *c;
	char *text, who[40];
	const char *trapper;

	fgtable_adventurers(t, 3, 3, 3);
	fgtable_ok(t, "alice", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_TRAPS,
	             "/fungeon trap add pit annoy 2 guards pain 1 type darts");
	fgtable_make(t, FUNGEON_CAT_TREASURE, "/fungeon treasure add ring fancy value 1");
	fgtable_enter_waived(t);
	c = fgtable_fungeon(t);
	trapper = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	fgtable_fails_unchanged(t, "alice", "/fungeon take ring",
	                        "pit guards the treasure and is not found yet: trigger it or get "
	                        "past it (/fungeon trigger pit), or find it (/fungeon find pit) to "
	                        "disarm it, before taking any.");
	fgtable_ok(t, trapper, "/fungeon trigger pit Alba");
	text = fgtable_run(t, "alice", "/fungeon take ring");
	assert_string_equal(text, "Alba takes ring (3 points).\n");
	free(text);
	fgtable_ok(t, "alice", "/fungeon adjust Alba hits:-15");
	assert_int_equal(c->m[0].nitems, 0);
	/* the room's own ring lies there again */
	assert_int_equal(c->d.room.n[FUNGEON_TREASURE], 1);
	assert_true(c->d.room.p[FUNGEON_TREASURE][0].left);
	assert_string_equal(c->d.room.p[FUNGEON_TREASURE][0].taken, "");
	fgtable_ok(t, "bob", "/fungeon adjust Brom hits:-15");
	fgtable_ok(t, "bob", "/fungeon join Bram fighter");
	/* the replacement is out until the next hallway */
	fgtable_fails_unchanged(t, "bob", "/fungeon take ring",
	                        "Bram is a replacement: bob is out until the next hallway, where "
	                        "Bram joins the party.");
	fgtable_fails_unchanged(t, "bob", "/fungeon find pit Bram", NULL);
	text = fgtable_run(t, "carol", "/fungeon take ring");
	assert_string_equal(text, "Cora plunders ring (3 points), left by the dead.\n");
	free(text);
	snprintf(who, sizeof(who), "%s", "Cora");
	assert_string_equal(c->m[2].items[0].name, "ring");
	assert_string_equal(c->m[2].name, who);
	fgtable_free(t);
}

/* Every monster costs at least the floor; a Fungeoneer joins at Party Min
 * unless a level is given. */
static void
monster_costs_at_least_the_floor(void **unused)
{
	struct fgtable *t = fgtable_new(4);

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 3");
	fgtable_ok(t, "bo", "/fungeon join Bo fighter");
	assert_int_equal(fgtable_fungeon(t)->m[1].level, 3); /* Party Min */
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ogre level 3");
	fgtable_fails_unchanged(
	    t, fgtable_holder(t, FUNGEON_CAT_MONSTERS), "/fungeon monster add imp level 2",
	    "imp costs 2 but every monster on floor 3 costs at least 3 points.");
	fgtable_free(t);
}

/* The healer: hits heal only through magic treasure bought in town (a
 * fancy item with Heal N, 2 + N points), paid with the credit of treasure
 * sold at half its points; taking treasure earns no XP. */
static void
healer_in_town(void **unused)
{
	struct fgtable *t = fgtable_new(4);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 3");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_ok(t, "al", "/fungeon treasure add Crown mundane value 5");
	fgtable_enter_waived(t);
	c = fgtable_fungeon(t);
	fgtable_ok(t, "al", "/fungeon take Crown");
	assert_int_equal(c->m[0].xp, 0); /* nobody gets XP for treasure */
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-4");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon town healer",
	    "The healer is found only in town, and the party is in room 1 on floor 3; "
	    "head back first with /fungeon retreat.");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	fgtable_ok(t, "al", "/fungeon town sell Crown"); /* 6 points: 3 of credit */
	assert_int_equal(c->m[0].credit, 3);
	fgtable_fails_unchanged(
	    t, "al", "/fungeon town healer",
	    "Healing 4 hits costs 6 points (a fancy item, 2, with Heal 4) but Al "
	    "has 3 points of credit: it buys Heal 1 (/fungeon town healer hits:1).");
	text = fgtable_run(t, "al", "/fungeon town healer hits:1");
	assert_string_equal(text,
	                    "Al pays the healer 3 points (a fancy item, 2, with Heal 1; credit "
	                    "left 0 points).\nAl heals 1 with the healer's magic: 12/15 hits.\n");
	free(text);
	fgtable_free(t);
}

/* A class type brings the class bonus by itself against its own type: a
 * Fire Mage disarming a fire trap rolls level + bonus (4 + 2); against
 * another type, or universal damage, the level alone. */
static void
class_type_brings_the_bonus(void **unused)
{
	struct fgtable *t = fgtable_new(4);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al \"Fire Mage\" 4 type:fire");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_ok(t, "al", "/fungeon trap add column annoy 2 pain 1 type fire");
	fgtable_ok(t, "al", "/fungeon trap add spear annoy 2 pain 1 type iron");
	fgtable_enter_waived(t);
	c = fgtable_fungeon(t);
	c->d.room.p[FUNGEON_TRAP][0].state = FUNGEON_TRAP_FOUND;
	c->d.room.p[FUNGEON_TRAP][1].state = FUNGEON_TRAP_FOUND;
	text = fgtable_run(t, "al", "/fungeon disarm column");
	{
		const char *line = strstr(text, "\nAl (al): ") + 10;
		int dice = 1;

		for (const char *p = line; *p != '\n' && strncmp(p, " →", 4) != 0; p++)
			dice += *p == ' ';
		assert_int_equal(dice, 6);
	}
	free(text);
	text = fgtable_run(t, "al", "/fungeon disarm spear");
	{
		const char *line = strstr(text, "\nAl (al): ") + 10;
		int dice = 1;

		for (const char *p = line; *p != '\n' && strncmp(p, " →", 4) != 0; p++)
			dice += *p == ' ';
		assert_int_equal(dice, 4);
	}
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(combat_offers_next_turn),
	    cmocka_unit_test(death_and_replacement_by_join),
	    cmocka_unit_test(replacement_level_survives_leave_and_join),
	    cmocka_unit_test(room_budgets_and_unspent_points),
	    cmocka_unit_test(guarded_treasure_and_plunder),
	    cmocka_unit_test(monster_costs_at_least_the_floor),
	    cmocka_unit_test(healer_in_town),
	    cmocka_unit_test(class_type_brings_the_bonus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
