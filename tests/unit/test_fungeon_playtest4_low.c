/* The fourth independent play-test of Fungeon (notes/playtest-fungeon-4.md),
 * its findings P3, P4, P6, P9 and P10 (P2 and P5 are test_fungeon_f8.c's;
 * P1, P7, P8 and P11 test_fungeon_playtest4.c's), each played at a table
 * as the report found it. */
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

/* P3: a level mistyped as "2.5" was taken as the class type; a class type
 * that reads as a number is refused, naming both. */
static void
p3_a_number_is_no_class_type(void **unused)
{
	struct fgtable *t = fgtable_new(7);

	(void)unused;
	fgtable_fails_unchanged(t, "di", "/fungeon join Dee cleric 2.5",
	                        "'2.5' is no level (a level is a whole number from 1 to 60) and no "
	                        "class type (a word, such as fire).");
	fgtable_fails_unchanged(t, "di", "/fungeon join Dee cleric 2 -3", NULL);
	fgtable_says(t, "di", "/fungeon join Dee cleric 2 light", "(class type light)");
	fgtable_free(t);
}

/* P4: heading back from a room names what it leaves behind, as going on
 * to the hallway does, before asking for confirm:true. */
static void
p4_retreat_names_what_stays(void **unused)
{
	static const char *const d[] = {"/fungeon monster add troll level 6",
	                                "/fungeon treasure add ring fancy value 1", NULL};
	struct fgtable *t = fgtable_new(5);
	char *text;

	(void)unused;
	fgtable_into_room(t, 6, d);
	text = fgtable_said(t, "al", "/fungeon retreat");
	assert_string_equal(text, "Heading back from here leaves the dungeon at once, for town; it "
	                          "leaves room 1 with 1 monster standing (troll) and 1 treasure "
	                          "untaken (ring) behind for good. Go with /fungeon retreat "
	                          "confirm:true.\n");
	free(text);
	fgtable_free(t);
}

/* P6 (Ruling): a monster's maker earns XP hurting it, as the text gives
 * every point of damage dealt to a monster its cost (unlike one's own
 * trap, whose place and working the maker knows): a lone player, who makes
 * every monster, would otherwise never earn any from a fight. */
static void
p6_own_monster_gives_xp(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	int64_t xp = 0;

	(void)unused;
	c = fgtable_alone_on_floor(t, 1, "/fungeon monster add rat level 1");
	for (int turn = 0; turn < 20 && c->d.room.p[FUNGEON_MONSTER][0].hits > 0 && !c->m[0].dead;
	     turn++)
		fgtable_ok(t, "al", "/fungeon combat");
	xp = (int64_t)(3 - c->d.room.p[FUNGEON_MONSTER][0].hits) * 1; /* cost 1 a point */
	assert_true(xp > 0);
	assert_int_equal(c->m[0].xp, xp);
	fgtable_free(t);
}

/* P9 (Ruling): continuous damage follows its sufferer out of the dungeon
 * and into the next one's first hallway, through a new game session too:
 * the text ends it only by an Annoy success or magic. */
static void
p9_continuous_damage_outlives_the_dungeon(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add needle annoy 10 pain 1 continuous type poison", NULL};
	struct fgtable *t = fgtable_new(1);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_into_room(t, 6, d);
	fgtable_ok(t, "al", "/fungeon trigger needle Al");
	assert_int_equal(c->m[0].neffects, 1);
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	fgtable_ok(t, "al", "/fungeon town session");
	assert_int_equal(c->m[0].neffects, 1);
	text = fgtable_said(t, "al", "/fungeon hallway");
	fgtable_holds(text, "3. Continuous damage\nContinuous damage: needle on Al\n");
	free(text);
	fgtable_free(t);
}

/* P10, the small ones: own trap found earns its cost (line 273, as
 * play-test 10's U12 read it: no exception for the maker); an unknown
 * treasure to take names only what is left to take, and in town says
 * where treasure is taken; a lone player's second pick says they hold the
 * whole room. */
static void
p10_small_messages(void **unused)
{
	static const char *const d[] = {"/fungeon trap add t1 annoy 1 pain 1 type darts",
	                                "/fungeon treasure add gem mundane", NULL};
	struct fgtable *t = fgtable_new(6);
	char *text;

	(void)unused;
	fgtable_into_room(t, 6, d);
	text = fgtable_said(t, "al", "/fungeon find t1 Al");
	fgtable_holds(text, "succeeds (+2 XP)\n");
	free(text);
	fgtable_ok(t, "al", "/fungeon take gem");
	fgtable_fails_unchanged(t, "al", "/fungeon take zzz",
	                        "There is no treasure 'zzz' here (the party is in room 1 on floor "
	                        "6), and none is left to take.");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	fgtable_fails_unchanged(t, "al", "/fungeon take zzz",
	                        "There is no treasure 'zzz' to take in town: treasure is taken in "
	                        "a dungeon's rooms, and in town sold and bought (/fungeon town "
	                        "sell ITEM).");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_fails_unchanged(t, "al", "/fungeon pick traps",
	                        "al holds every category of this room: a lone player makes the "
	                        "whole room.");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(p3_a_number_is_no_class_type),
	    cmocka_unit_test(p4_retreat_names_what_stays),
	    cmocka_unit_test(p6_own_monster_gives_xp),
	    cmocka_unit_test(p9_continuous_damage_outlives_the_dungeon),
	    cmocka_unit_test(p10_small_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
