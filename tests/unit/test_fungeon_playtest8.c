/* The eighth independent play-test of Fungeon
 * (notes/playtest-fungeon-8.md) and its re-check (notes/recheck9.md):
 * each finding played at a table as the report found it, with what the
 * rule text (or a Ruling where it is silent) wants instead. */
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

/* T6 (line 16: a class is a career; line 18 sets the level): a level
 * typed where the class goes, in digits or in words, is refused, naming
 * the order; nobody joins. */
static void
t6_a_level_is_no_class(void **unused)
{
	struct fgtable *t = fgtable_new(2506);

	(void)unused;
	fgtable_fails_unchanged(t, "b2", "/fungeon join Bee 3",
	                        "'3' reads as a level, not a class: the class comes first and is "
	                        "any career, such as fighter (/fungeon join Bee CLASS 3).");
	fgtable_fails_unchanged(t, "b2", "/fungeon join Bea three",
	                        "'three' reads as a level, not a class: the class comes first and "
	                        "is any career, such as fighter (/fungeon join Bea CLASS 3).");
	fgtable_fails_unchanged(t, "b2", "/fungeon join Bee 3 2",
	                        "'3' reads as a number, not a class: a class is any career, such "
	                        "as fighter (/fungeon join Bee CLASS 2).");
	fgtable_fails_unchanged(t, "b2", "/fungeon join Bee zero",
	                        "'zero' reads as a number, not a class: a class is any career, "
	                        "such as fighter, and the level after it a whole number from 1 "
	                        "to 60 in the digits 0 to 9.");
	fgtable_says(t, "b2", "/fungeon join Bee \"Thrice-Mad Barbarian\" 2",
	             "b2 joins as Bee, level 2 Thrice-Mad Barbarian: 10 hits");
	fgtable_free(t);
}

/* S8's residuals (line 18: levels; the bot counts them to 60): every
 * level written in words or as an ordinal is refused as a class type,
 * not only one to twenty; one out of range says the range; a level typed
 * besides is named. */
static void
s8_every_level_in_words_is_no_class_type(void **unused)
{
	struct fgtable *t = fgtable_new(2508);

	(void)unused;
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter sixty",
	                        "'sixty' reads as a level written in words, not a class type: a "
	                        "level is a number (/fungeon join Zed fighter 60), a class type a "
	                        "word such as fire (type:fire).");
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter twenty-one",
	                        "'twenty-one' reads as a level written in words, not a class "
	                        "type: a level is a number (/fungeon join Zed fighter 21), a class "
	                        "type a word such as fire (type:fire).");
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter 3rd",
	                        "'3rd' reads as a level, not a class type: a level is a number "
	                        "(/fungeon join Zed fighter 3), a class type a word such as fire "
	                        "(type:fire).");
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter first",
	                        "'first' reads as a level written in words, not a class type: a "
	                        "level is a number (/fungeon join Zed fighter 1), a class type a "
	                        "word such as fire (type:fire).");
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter zero",
	                        "'zero' reads as a level written in words, not a class type: a "
	                        "level is a number from 1 to 60, a class type a word such as fire "
	                        "(type:fire).");
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter three 2",
	                        "'three' reads as a number, not a class type, and the level is 2 "
	                        "already: a class type is a word such as fire (type:fire).");
	fgtable_says(t, "zz", "/fungeon join Zed fighter 2 type:fire",
	             "level 2 fighter (class type fire)");
	fgtable_free(t);
}

/* T5 (line 254: all the dead's treasure is left for the others to
 * plunder; Ruling: one who dies in a hallway leaves it in the room ahead):
 * a party heading back from that hallway never enters that room, so what
 * the dead left there goes back with it into the room it re-enters, and
 * the confirmation says so. */
static void
t5_the_hallway_deads_treasure_goes_back_with_the_party(void **unused)
{
	struct fgtable *t = fgtable_new(2545);
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_rooms_waived(t, 1);
	fgtable_doomed(t, 0, "antidote");
	text = fgtable_said(t, "bo", "/fungeon hallway confirm:true");
	fgtable_holds(text, "Al dies!");
	free(text);
	text = fgtable_said(t, "bo", "/fungeon retreat");
	fgtable_holds(text, "what the dead left in this hallway (antidote) goes back with the "
	                    "party into room 1, to plunder there");
	free(text);
	text = fgtable_said(t, "bo", "/fungeon retreat confirm:true");
	fgtable_holds(text, "What the dead left in the hallway lies in room 1: antidote (/fungeon "
	                    "take ITEM).");
	free(text);
	fgtable_says(t, "bo", "/fungeon take antidote",
	             "Bo plunders antidote (2 points), left by the dead.");
	fgtable_free(t);
}

/* Al (al, a level 3 fighter) alone goes through room 1 and dies in the
 * hallway before room 2: nobody is left to draw, and the hallway waits to
 * run again (playtest8's T8). */
static void
hallway_killed_everyone(struct fgtable *t)
{
	char *text;

	fgtable_fighters(t, 1, 3);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	fgtable_doomed(t, 0, NULL);
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	fgtable_holds(text, "No Fungeoneer is alive to draw a category");
	free(text);
}

/* recheck9 (line 53: whoever died makes a new one before the draw): while
 * the hallway that killed the whole party waits to run again, the room
 * nobody drew for cannot be chosen, made or entered, and each refusal
 * points at the hallway, not at spending or waiving points. */
static void
r9_a_hallway_waiting_to_run_again_points_at_it(void **unused)
{
	static const char want[] = "Nobody drew a category for room 2, the whole party having "
	                           "died in its hallway: once each player whose Fungeoneer died "
	                           "has made a new one, the hallway runs again with /fungeon "
	                           "hallway.";
	struct fgtable *t = fgtable_new(2400);

	(void)unused;
	hallway_killed_everyone(t);
	fgtable_fails_unchanged(t, "al", "/fungeon enter", want);
	fgtable_fails_unchanged(t, "al", "/fungeon pick traps", want);
	fgtable_fails_unchanged(t, "al", "/fungeon trap add pit annoy 2 pain 1 type stone", want);
	fgtable_ok(t, "al", "/fungeon join Al2 fighter");
	fgtable_fails_unchanged(t, "al", "/fungeon enter", want);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_ok(t, "al", "/fungeon trap add pit annoy 2 pain 1 type stone");
	fgtable_free(t);
}

/* recheck9 (Ruling: a room's budgets are counted once, after the hallway's
 * steps 1 and 2): while the hallway waits to run again, /fungeon party
 * shows no budgets of the run nobody drew in, which the run again
 * recounts, but when they are counted. */
static void
r9_the_party_shows_no_budgets_of_a_dead_run(void **unused)
{
	struct fgtable *t = fgtable_new(2400);
	char *text;

	(void)unused;
	hallway_killed_everyone(t);
	fgtable_ok(t, "al", "/fungeon join Al2 fighter");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Room 2's budgets are counted when its hallway runs again, once each "
	                    "player whose Fungeoneer died has made a new one (/fungeon hallway).");
	if (strstr(text, "budget this room") != NULL)
		fail_msg("the dead run's budgets shown: %s", text);
	free(text);
	fgtable_ok(t, "al", "/fungeon hallway");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Traps budget this room: 5 (Party Max 2 + floor 3)");
	free(text);
	fgtable_free(t);
}

/* T4 (line 53: a replacement at floor - 1 is made in the hallway; Ruling:
 * on the way back, where no hallway comes, the new one joins in town, its
 * level the player's to choose): one made in a room before the party
 * turned back is shown joining in town, not in the next hallway, and on
 * arrival its player hears that the level is theirs to choose now. */
static void
t4_a_replacement_made_before_heading_back_joins_in_town(void **unused)
{
	struct fgtable *t = fgtable_new(2504);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_rooms_waived(t, 2);
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-99");
	fgtable_says(t, "al", "/fungeon join Al2 fighter 5",
	             "Level 2 is the only one after a death: floor 3 - 1");
	fgtable_ok(t, "bo", "/fungeon retreat confirm:true");
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Al2 (al): level 2 fighter, joins in town\n");
	free(text);
	c->m[1].nwander = 0; /* whatever Bo's roll gave, no wanderer to build */
	text = fgtable_said(t, "bo", "/fungeon retreat");
	fgtable_holds(text, "Joining the party here: Al2 (al, level 2); in town a new "
	                    "Fungeoneer's level is its player's to choose, and one made anew "
	                    "(/fungeon leave, then /fungeon join NAME CLASS LEVEL) takes the "
	                    "level typed.\n");
	free(text);
	fgtable_ok(t, "al", "/fungeon leave");
	fgtable_says(t, "al", "/fungeon join Al2 fighter 5", "al joins as Al2, level 5 fighter");
	fgtable_free(t);
}

/* T3 (line 53: whoever died makes a new one, then the hallway goes on):
 * once every fallen player has made a new Fungeoneer, the panel no longer
 * asks for new ones first: it says they are made, on to the hallway. */
static void
t3_the_panel_after_every_fallen_one_is_replaced(void **unused)
{
	static const char *const d[] = {"/fungeon monster add ogre level 6", NULL};
	struct fgtable *t = fgtable_new(2503);
	char *text;

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_all_fall(t);
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter 2");
	text = fgtable_said(t, "al", "/panel");
	fgtable_holds(text, " · nobody of the party is in play: new Fungeoneers first, then the "
	                    "hallway\n");
	free(text);
	fgtable_ok(t, "al", "/fungeon join Al2 fighter 2");
	text = fgtable_said(t, "al", "/panel");
	fgtable_holds(text, " · nobody of the party is in play: the new Fungeoneers are made, on "
	                    "to the hallway\n");
	free(text);
	fgtable_free(t);
}

/* playtest10 U8 (line 53: the new ones join in the hallway): once every
 * fallen player has made a new Fungeoneer, combat and heading back no
 * longer ask for new ones: they point at the hallway that brings them in. */
static void
u8_after_every_fallen_one_is_replaced_the_hallway_is_next(void **unused)
{
	static const char *const d[] = {"/fungeon monster add ogre level 6", NULL};
	static const char want[] = "Nobody of the party is in play here until the hallway brings "
	                           "the new Fungeoneers in: any of their players goes on to it "
	                           "(/fungeon hallway).";
	struct fgtable *t = fgtable_new(2538);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_all_fall(t);
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter 2");
	fgtable_ok(t, "al", "/fungeon join Al2 fighter 2");
	fgtable_fails_unchanged(t, "al", "/fungeon combat", want);
	fgtable_fails_unchanged(t, "bo", "/fungeon retreat confirm:true", want);
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_free(t);
}

/* T2 (leave, /help: what it carried stays in the room): a Fungeoneer the
 * GM takes out alive leaves its treasure in the room, named in the reply
 * with the wandering monster it had still to build, and that treasure
 * reads as left by it, not by the dead. */
static void
t2_one_taken_out_alive_is_no_dead(void **unused)
{
	struct fgtable *t = fgtable_new(2502);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = 1;
	c->m[0].wanderer[0] = 6;
	c->m[1].nwander = 0;
	fgtable_give(t, 0, "ring", 1, false);
	fgtable_gm(t, "/fungeon party");
	text = fgtable_said(t, "gm", "/fungeon leave al");
	fgtable_holds(text, "The GM takes al's Al out of the party.\nWhat Al carried stays in "
	                    "room 1 for the others to take: ring. al's wandering monster of 6 "
	                    "points, not built yet, goes with Al.\n");
	free(text);
	fgtable_round_trips(fgtable_fungeon(t));
	text = fgtable_said(t, "bo", "/fungeon treasure list");
	fgtable_holds(text, "left by Al, out of the party");
	free(text);
	fgtable_says(t, "bo", "/fungeon take ring",
	             "Bo plunders ring (1 point), left by Al, out of the party.");
	fgtable_free(t);
}

/* T1 (delver(7): names are compared folded in full): two names saved
 * before they were, which read alike now (ﬁre and FIRE), are each found
 * by their own spelling, and a spelling that is neither is refused,
 * naming both and their players, never taken as the first. */
static void
t1_names_saved_before_folding_are_told_apart(void **unused)
{
	struct fgtable *t = fgtable_new(2501);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "ey", "/fungeon join Ey mage 2");
	fgtable_ok(t, "fy", "/fungeon join Fy mage 2");
	c = fgtable_fungeon(t);
	snprintf(c->m[0].name, sizeof(c->m[0].name), "\xef\xac\x81re"); /* ﬁre, as once saved */
	snprintf(c->m[1].name, sizeof(c->m[1].name), "FIRE");
	text = fgtable_said(t, "ey", "/fungeon sheet FIRE");
	fgtable_holds(text, "FIRE (fy): level 2 mage");
	free(text);
	text = fgtable_said(t, "fy", "/fungeon sheet \xef\xac\x81re");
	fgtable_holds(text, "\xef\xac\x81re (ey): level 2 mage");
	free(text);
	fgtable_fails_unchanged(t, "ey", "/fungeon sheet fire",
	                        "Both ey's \xef\xac\x81re and fy's FIRE read as 'fire' here (names "
	                        "saved before they were compared folded); name one by its player, "
	                        "ey or fy.");
	fgtable_free(t);
}

/* S21's residual (playtest8: /help lists use:, targets: and bonus:
 * alike): an empty use: or targets: on a combat turn is refused before a
 * die is rolled, as bonus: is, not passed over while the turn is played. */
static void
s21_an_empty_option_plays_no_turn(void **unused)
{
	static const char *const d[] = {
	    "/fungeon monster add wolf level 3 ability howl annoy 2 type fear", NULL};
	static const char use[] = "use: needs monster/ability (wolf/howl), monster/none, or none "
	                          "for this turn; without it the monsters use their standing ones.";
	static const char targets[] = "targets: needs who>target (Alba>goblin) for this turn; "
	                              "without it each side aims as its standing orders say.";
	struct fgtable *t = fgtable_new(2521);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_fails_unchanged(t, "al", "/fungeon combat use:", use);
	fgtable_fails_unchanged(t, "al", "/fungeon combat use:,", use);
	fgtable_fails_unchanged(t, "al", "/fungeon combat targets:", targets);
	fgtable_fails_unchanged(t, "al", "/fungeon combat targets:,", targets);
	fgtable_says(t, "al", "/fungeon combat", "Combat turn");
	fgtable_free(t);
}

/* S10's residual (line 86: a stair leads to the next floor; the bot counts
 * floors to 61): on the deepest floor, where Party Min rose but no stair
 * was placed, /fungeon stair says why there is none, not that Party Min
 * did not rise. */
static void
s10_no_stair_on_the_deepest_floor_says_why(void **unused)
{
	struct fgtable *t = fgtable_new(2510);
	char *text;

	(void)unused;
	fgtable_alone_on_floor(t, 61, "/fungeon treasure add gem mundane");
	fgtable_gm(t, "/fungeon adjust Al xp:999999999999");
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	fgtable_holds(text, "no stair leads deeper");
	free(text);
	fgtable_enter_waived(t);
	fgtable_fails_unchanged(
	    t, "al", "/fungeon stair",
	    "Room 2 is on floor 61, the deepest the bot counts, and no downward "
	    "stair leads deeper, whatever Party Min did.");
	fgtable_free(t);
}

/* S5's and S7's residuals (line 53: the fallen make new Fungeoneers
 * first; line 295: wandering monsters before each room on the way back):
 * a refusal that points at the hallway or at heading back, which this
 * party cannot run yet, says what comes first. */
static void
s5_a_pointer_says_what_comes_first(void **unused)
{
	static const char *const d[] = {"/fungeon monster add ogre level 6", NULL};
	struct fgtable *t = fgtable_new(2515);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_all_fall(t);
	fgtable_fails_unchanged(t, "al", "/fungeon pick traps",
	                        "The party is in room 1 on floor 3, and rooms are made in the "
	                        "hallway before them; on to the next with /fungeon hallway, once "
	                        "each player whose Fungeoneer died has made a new one (/fungeon "
	                        "join NAME CLASS).");
	fgtable_fails_unchanged(t, "al", "/fungeon town sell ring",
	                        "Treasure is traded in town, and the party is in room 1 on floor "
	                        "3; head back first with /fungeon retreat, once each player whose "
	                        "Fungeoneer died has made a new one (/fungeon join NAME CLASS) and "
	                        "the hallway has run.");
	fgtable_free(t);

	t = fgtable_new(2516);
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = 1;
	c->m[0].wanderer[0] = 6;
	fgtable_fails_unchanged(t, "al", "/fungeon town sell ring",
	                        "Treasure is traded in town, and the party is still on its way "
	                        "there, in room 1; go on back with /fungeon retreat, once the "
	                        "wandering monsters due in room 1 are built (/fungeon monster add "
	                        "NAME DESIGN) and beaten.");
	fgtable_free(t);
}

/* S21's nits (no name holds a colon): a word with one, where a monster,
 * a target or a Fungeoneer is named, is an option the command does not
 * have, and is refused as that, not looked up as a name. */
static void
s21_an_unknown_option_is_no_name(void **unused)
{
	static const char *const d[] = {"/fungeon monster add ogre level 3", NULL};
	struct fgtable *t = fgtable_new(2522);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_fails_unchanged(t, "al", "/fungeon combat foo:",
	                        "'foo:' reads as an option this command does not have, as no name "
	                        "holds a colon; /help fungeon lists each command's options.");
	fgtable_fails_unchanged(t, "al", "/fungeon orders bonus:",
	                        "'bonus:' reads as an option this command does not have, as no "
	                        "name holds a colon; /help fungeon lists each command's options.");
	fgtable_fails_unchanged(t, "al", "/fungeon sheet x:y",
	                        "'x:y' reads as an option this command does not have, as no name "
	                        "holds a colon; /help fungeon lists each command's options.");
	fgtable_free(t);
}

/* S16's nit: on a channel with no party, what needs one says there is no
 * party yet, as /fungeon party does, not that the party is in town. */
static void
s16_no_party_is_no_party_in_town(void **unused)
{
	static const char want[] = "No party here yet: /fungeon join NAME CLASS LEVEL makes the "
	                           "first Fungeoneer.";
	struct fgtable *t = fgtable_new(2516);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon combat", want);
	fgtable_fails_unchanged(t, "al", "/fungeon monster remove w3", want);
	fgtable_says(t, "al", "/fungeon party",
	             "No party here yet: /fungeon join NAME CLASS LEVEL.");
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "The party is in town, and a fight needs a room: into the dungeon "
	                        "with /fungeon hallway.");
	fgtable_free(t);
}

/* playtest10 U1 (line 254: the dead's treasure is left for the others to
 * plunder): on the way back, going on from a room where the dead left
 * treasure nobody took asks first, as leaving a room does; with nobody
 * left in play to take it, the reply says it stays behind for good. */
static void
u1_the_way_back_names_what_the_dead_leave(void **unused)
{
	struct fgtable *t = fgtable_new(2531);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = c->m[1].nwander = 0;
	fgtable_give(t, 0, "ring", 1, false);
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-99");
	fgtable_says(t, "bo", "/fungeon retreat",
	             "Going on back leaves what the dead left in room 1 (ring) behind for good; "
	             "take it first (/fungeon take ITEM), or go with /fungeon retreat "
	             "confirm:true.");
	assert_int_equal(c->d.phase, FUNGEON_RETREAT);
	fgtable_ok(t, "bo", "/fungeon take ring");
	text = fgtable_said(t, "bo", "/fungeon retreat");
	fgtable_holds(text, "The party leaves the dungeon and is back in town.");
	free(text);
	fgtable_free(t);

	t = fgtable_new(2532);
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = c->m[1].nwander = 0;
	fgtable_give(t, 1, "gem", 1, false);
	fgtable_all_fall(t);
	text = fgtable_said(t, "bo", "/fungeon retreat");
	fgtable_holds(text, "What the dead left in room 1 (gem) stays behind for good.\n");
	fgtable_holds(text, "The party leaves the dungeon and is back in town.");
	free(text);
	fgtable_free(t);
}

/* playtest10 U12 (line 273: every successful Annoy roll against a trap
 * earns its cost, with no exception): rolling off one's own trap's
 * continuous damage in the hallway earns its cost too. */
static void
u12_ones_own_trap_pays_in_the_hallway(void **unused)
{
	struct fgtable *t = fgtable_new(2542);
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_TRAP,
	                           .source = "Needle",
	                           .maker = "console:al",
	                           .annoy = 1,
	                           .pain = 1,
	                           .xp = 8};
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 1, 6);
	c = fgtable_fungeon(t);
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	text = fgtable_said(t, "al", "/fungeon hallway");
	fgtable_holds(text, "succeeds: the effect ends (+8 XP)");
	free(text);
	assert_int_equal(c->m[0].xp, 8);
	fgtable_free(t);
}

/* playtest10 U9 (line 18 sets the level; the bot reads it in the digits
 * 0 to 9): a level in another script's digits (fullwidth, Arabic-Indic)
 * is refused as a class or class type, not taken as one. */
static void
u9_digits_of_another_script_are_no_class(void **unused)
{
	struct fgtable *t = fgtable_new(2539);

	(void)unused;
	fgtable_fails_unchanged(t, "b2", "/fungeon join Bee fighter \xef\xbc\x92",
	                        "'\xef\xbc\x92' reads as a number, not a class type: a level is a "
	                        "whole number from 1 to 60 in the digits 0 to 9, a class type a "
	                        "word such as fire (type:fire).");
	fgtable_fails_unchanged(t, "b2", "/fungeon join Bee \xd9\xa3",
	                        "'\xd9\xa3' reads as a number, not a class: a class is any career, "
	                        "such as fighter, and the level after it a whole number from 1 "
	                        "to 60 in the digits 0 to 9.");
	fgtable_says(t, "b2", "/fungeon join Bee fighter 2", "level 2 fighter");
	fgtable_free(t);
}

/* playtest10 U2, U3, U4 (recheck9's family): while the hallway that killed
 * the whole party waits to run again, its own reply, /fungeon cost and a
 * treasure taken show no budgets of the run nobody drew in and point at the
 * hallway, not at the room. */
static void
u2_u3_u4_a_waiting_hallway_shows_no_dead_budgets(void **unused)
{
	struct fgtable *t = fgtable_new(2400);
	char *text;

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	fgtable_doomed(t, 0, "gem");
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	fgtable_holds(text, "No Fungeoneer is alive to draw a category");
	if (strstr(text, "budget this room") != NULL)
		fail_msg("the dead run's budgets shown: %s", text);
	free(text);
	fgtable_ok(t, "al", "/fungeon join Al2 fighter");
	text = fgtable_said(t, "al", "/fungeon cost trap annoy 2 pain 1 type fire");
	fgtable_holds(text, "Room 2's Traps budget is counted when its hallway runs again "
	                    "(/fungeon hallway).\n");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon take gem",
	                        "Nobody drew a category for room 2, the whole party having died "
	                        "in its hallway: once each player whose Fungeoneer died has made "
	                        "a new one, the hallway runs again with /fungeon hallway.");
	fgtable_free(t);
}

/* playtest10 U8's addendum (line 53: the fallen make new Fungeoneers
 * before the hallway): in town after a party fell, the panel offers no
 * hallway, which would be refused, until they have. */
static void
u8_the_town_panel_waits_for_the_fallen(void **unused)
{
	struct fgtable *t = fgtable_new(2548);
	const struct reply_msg *m;
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = c->m[1].nwander = 0;
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-99");
	fgtable_ok(t, "bo", "/fungeon retreat");
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	free(fgtable_said(t, "bo", "/panel"));
	m = reply_msg(t->last, REPLY_CHANNEL);
	for (size_t i = 0; i < m->nbuttons; i++)
		assert_string_not_equal(m->buttons[i].action, "fungeon hallway");
	fgtable_ok(t, "al", "/fungeon join Al2 fighter 3");
	free(fgtable_said(t, "bo", "/panel"));
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_string_equal(m->buttons[m->nbuttons - 1].action, "fungeon hallway");
	fgtable_free(t);
}

/* playtest10 U5 (Ruling: on the way back the new one joins in town, its
 * level the player's): a dead Fungeoneer's sheet on the way back names no
 * floor - 1 level for the new one. */
static void
u5_a_dead_sheet_on_the_way_back_names_no_level(void **unused)
{
	struct fgtable *t = fgtable_new(2545);
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_heading_back(t);
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-99");
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Dead: al is out until the party reaches town and makes a new one "
	                    "(/fungeon join NAME CLASS).\n");
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(t6_a_level_is_no_class),
	    cmocka_unit_test(s8_every_level_in_words_is_no_class_type),
	    cmocka_unit_test(u9_digits_of_another_script_are_no_class),
	    cmocka_unit_test(t1_names_saved_before_folding_are_told_apart),
	    cmocka_unit_test(t2_one_taken_out_alive_is_no_dead),
	    cmocka_unit_test(t3_the_panel_after_every_fallen_one_is_replaced),
	    cmocka_unit_test(u8_after_every_fallen_one_is_replaced_the_hallway_is_next),
	    cmocka_unit_test(u8_the_town_panel_waits_for_the_fallen),
	    cmocka_unit_test(t4_a_replacement_made_before_heading_back_joins_in_town),
	    cmocka_unit_test(u5_a_dead_sheet_on_the_way_back_names_no_level),
	    cmocka_unit_test(t5_the_hallway_deads_treasure_goes_back_with_the_party),
	    cmocka_unit_test(r9_a_hallway_waiting_to_run_again_points_at_it),
	    cmocka_unit_test(s5_a_pointer_says_what_comes_first),
	    cmocka_unit_test(s10_no_stair_on_the_deepest_floor_says_why),
	    cmocka_unit_test(u1_the_way_back_names_what_the_dead_leave),
	    cmocka_unit_test(u12_ones_own_trap_pays_in_the_hallway),
	    cmocka_unit_test(s16_no_party_is_no_party_in_town),
	    cmocka_unit_test(s21_an_empty_option_plays_no_turn),
	    cmocka_unit_test(s21_an_unknown_option_is_no_name),
	    cmocka_unit_test(r9_the_party_shows_no_budgets_of_a_dead_run),
	    cmocka_unit_test(u2_u3_u4_a_waiting_hallway_shows_no_dead_budgets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
