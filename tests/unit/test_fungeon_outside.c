/* The outside playtest table's low findings on Fungeon: each played at a
 * table as the report found it, with what the rule text (or a Ruling
 * where it is silent) wants instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_render.h"
#include "tests/unit/helpers/fgtable.h"

/* F2 (line 18: a level is a number, "First, Second or Third Level"; the
 * class and its type are words): a level written as a Roman numeral, a
 * superscript, with a label ("L3") or as the label and the number apart
 * ("level 3") is refused where a class or a class type goes, saying that
 * a level is typed in the digits 0 to 9; none becomes a type. */
static void
f2_a_level_is_no_type(void **unused)
{
	struct fgtable *t = fgtable_new(2701);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon join Bee fighter \xe2\x85\xa2",
	                        "'\xe2\x85\xa2' reads as level 3, not a class type: a level is "
	                        "typed alone in the digits 0 to 9 (/fungeon join Bee fighter 3), a "
	                        "class type is a word such as fire (type:fire).");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon join Bee fighter L3",
	    "'L3' reads as level 3, not a class type: a level is typed alone in "
	    "the digits 0 to 9 (/fungeon join Bee fighter 3), a class type is a "
	    "word such as fire (type:fire).");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon join Bee fighter \xc2\xb3",
	    "'\xc2\xb3' reads as a number, not a class type: a level is a whole "
	    "number from 1 to 60 in the digits 0 to 9, a class type a word such "
	    "as fire (type:fire).");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon join Bee fighter 3 type:III",
	    "'III' reads as a second level (the level is 3 already): give the "
	    "level once, alone, in the digits 0 to 9, and a class type as a word "
	    "such as fire (type:fire).");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon join Bee fighter level 3",
	    "'level' is a level's label, not a class type, and the level is 3 "
	    "already: type the level alone, in the digits 0 to 9 (/fungeon join "
	    "Bee fighter 3), and a class type as a word such as fire "
	    "(type:fire).");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon join Bee L3",
	    "'L3' reads as level 3, not a class: the class comes first and is "
	    "any career, such as fighter, and the level after it is typed in the "
	    "digits 0 to 9 (/fungeon join Bee CLASS 3).");
	fgtable_fails_unchanged(t, "al", "/fungeon join Bee \xe2\x85\xa2 3",
	                        "'\xe2\x85\xa2' reads as a level, not a class: a class is any "
	                        "career, such as fighter (/fungeon join Bee CLASS 3).");
	/* a word that only looks like one stays a type */
	fgtable_says(t, "al", "/fungeon join Bee fighter 3 lava",
	             "al joins as Bee, level 3 fighter (class type lava)");
	fgtable_free(t);
}

/* F3 (line 18: a level is a number; delver(7): typed in the digits 0 to
 * 9): a level or XP typed in other numerals, a fullwidth "３" or a Roman
 * "Ⅲ", is refused saying the digits it is typed in; a number out of range
 * is refused as before. */
static void
f3_a_level_is_typed_in_digits(void **unused)
{
	struct fgtable *t = fgtable_new(2702);
	char *said;

	(void)unused;
	said = fgtable_run(t, "al", "/xp \xef\xbc\x93");
	assert_string_equal(said, "Level must be a whole number from 1 to 60 typed in the digits 0 "
	                          "to 9 (got '\xef\xbc\x93'); usage: /xp [level]\n");
	free(said);
	said = fgtable_run(t, "al", "/xp \xe2\x85\xa2");
	assert_string_equal(said, "Level must be a whole number from 1 to 60 typed in the digits 0 "
	                          "to 9 (got '\xe2\x85\xa2'); usage: /xp [level]\n");
	free(said);
	said = fgtable_run(t, "al", "/xp 61");
	assert_string_equal(
	    said, "Level must be a whole number from 1 to 60 (got '61'); usage: /xp [level]\n");
	free(said);
	fgtable_fighters(t, 1, 2);
	fgtable_fails_unchanged(t, "gm", "/fungeon adjust Al xp:\xef\xbc\x95",
	                        "Xp must be a whole number from -9007199254740991 to "
	                        "9007199254740991 typed in the digits 0 to 9 (got '\xef\xbc\x95'); "
	                        "usage: /fungeon adjust <who> [hits] [xp]");
	fgtable_free(t);
}

/* P4 (delver(7): orders in targets: are apart by commas): a second order
 * after a space, which the line puts in use:, is refused naming the
 * separator, not as an ability misnamed; a use: of monster/ability beside
 * it is taken, and a quoted list apart by spaces too. */
static void
p4_orders_are_apart_by_commas(void **unused)
{
	static const char *const d[] = {
	    "/fungeon monster add goblin level 3 ability bite annoy 2 pain 1 type teeth", NULL};
	static const char want[] =
	    "'Bo' is no monster/ability for use: (wolf/howl, or wolf/none); if it is another "
	    "order for targets:, orders there are apart by commas with no space "
	    "(targets:Alba>goblin,Brom>rat), or the whole list is quoted (targets:\"Alba>goblin "
	    "Brom>rat\").";
	struct fgtable *t = fgtable_new(2703);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:goblin Bo", want);
	fgtable_fails_unchanged(t, "gm", "/fungeon orders targets:Al>goblin Bo>goblin",
	                        "'Bo>goblin' is no monster/ability for use: (wolf/howl, or "
	                        "wolf/none); if it is another order for targets:, orders there are "
	                        "apart by commas with no space (targets:Alba>goblin,Brom>rat), or "
	                        "the whole list is quoted (targets:\"Alba>goblin Brom>rat\").");
	fgtable_gm(t, "/fungeon orders targets:Al>goblin,Bo>goblin");
	fgtable_says(t, "gm", "/fungeon orders targets:\"Al>none Bo>none\"",
	             "Bo's won ranks hurt the other side's lowest die again");
	fgtable_free(t);
}

/* T1 (delver(7): no Fungeoneer goes by a name that shows as nothing): a
 * name saved before names had to show, a zero-width space alone, is read
 * as a visible one, Nameless (numbered past one taken), and an aim at it
 * follows; the party shows it and players name it. */
static void
t1_a_saved_name_that_shows_nothing_is_read_visible(void **unused)
{
	struct fgtable *t = fgtable_new(2704);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 3, 3);
	c = fgtable_fungeon(t);
	snprintf(c->m[0].name, sizeof(c->m[0].name), "\xe2\x80\x8b");
	snprintf(c->m[2].name, sizeof(c->m[2].name), "Nameless");
	snprintf(c->m[1].aim, sizeof(c->m[1].aim), "\xe2\x80\x8b");
	c = fgtable_reload(t);
	assert_string_equal(c->m[0].name, "Nameless2");
	assert_string_equal(c->m[1].aim, "Nameless2");
	assert_string_equal(c->m[2].name, "Nameless");
	fgtable_says(t, "bo", "/fungeon sheet Nameless2", "Nameless2 (al): level 3 fighter");
	fgtable_free(t);
}

/* F21 (newcomer; Ruling: no hallway on the way back): on the way back a
 * fight with no monster points on back, to /fungeon retreat, as /fungeon
 * party does, not to /fungeon hallway, which refuses there. */
static void
f21_no_fight_on_the_way_back_points_on_back(void **unused)
{
	struct fgtable *t = fgtable_new(2705);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = c->m[1].nwander = 0;
	fgtable_fails_unchanged(t, "bo", "/fungeon combat",
	                        "No monster is in this room: there is nothing to fight here; go on "
	                        "back (/fungeon retreat).");
	fgtable_free(t);
}

/* F27 (newcomer; delver(7): names of up to 24 characters): a monster
 * named with 24 emoji (96 bytes) shows whole on its dice line, as on
 * the rank table; a label that must be cut (a long name with its
 * player's) ends in a visible "…". */
static void
f27_a_long_name_shows_whole_on_its_dice_line(void **unused)
{
	char name[4 * 24 + 1] = "", line[160], want[120], cut[8];
	struct fgtable *t = fgtable_new(2706);
	char *said;

	(void)unused;
	for (int i = 0; i < 24; i++)
		memcpy(name + 4 * i, "\xf0\x9f\x90\x89", 5); /* a dragon, and the NUL */
	snprintf(line, sizeof(line), "/fungeon monster add %s level 1", name);
	fgtable_alone_on_floor(t, 1, line);
	said = fgtable_said(t, "al", "/fungeon combat");
	snprintf(want, sizeof(want), "\n%s: ", name);
	fgtable_holds(said, want);
	free(said);
	fgtable_free(t);
	fungeon_render_fit_label(cut, sizeof(cut), "abcdefghij");
	assert_string_equal(cut, "abcd\xe2\x80\xa6");
	fungeon_render_fit_label(cut, sizeof(cut), "abcdefg");
	assert_string_equal(cut, "abcdefg");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f2_a_level_is_no_type),
	    cmocka_unit_test(f3_a_level_is_typed_in_digits),
	    cmocka_unit_test(p4_orders_are_apart_by_commas),
	    cmocka_unit_test(t1_a_saved_name_that_shows_nothing_is_read_visible),
	    cmocka_unit_test(f21_no_fight_on_the_way_back_points_on_back),
	    cmocka_unit_test(f27_a_long_name_shows_whole_on_its_dice_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
