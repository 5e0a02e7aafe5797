/* The third independent play-test of Fungeon
 * (notes/playtest-fungeon-3.md), each finding played at a table as the
 * report found it, with what the rule text (or a Ruling where it is
 * silent) wants instead. F1, a trap's Pain roll, is test_fungeon_trap.c's
 * trigger_pain_roll_counts_class_bonus. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/render_irc.h"
#include "commands/fungeon/fungeon_channel.h"
#include "tests/unit/helpers/fgtable.h"

/* A newt whose scales resist fire and can do nothing else (F2, F7). */
static const char *const newt[] = {
    "/fungeon monster add newt level 6 ability scales annoy 1 resist 1 fire type fire", NULL};

/* F2, revisited (fun24, lines 123 and 140): a monster's attacks are
 * Universal Damage, so in step 3 a fire mage adds no class bonus and a
 * newt's Resist die against fire has nothing to take away: Brix rolls
 * his level alone, 4 dice, and his line says nothing was resisted. */
static void
f2_resist_dice_idle_against_universal_attacks(void **unused)
{
	struct fgtable *t = fgtable_new(21);
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 4");
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 4 type:fire");
	fgtable_room_made(t, newt);
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "3. Painful conflict");
	assert_null(strstr(text, "resisted"));
	free(text);
	fgtable_free(t);
}

/* Step 3 against a monster's attacks (universal, lines 123 and 140): a
 * level 4 fire mage (class bonus 2) with a fire ring (+1 Pain) rolls her
 * level alone, 4 dice: neither class bonus nor magic counts there. */
static void
step3_rolls_the_level_alone(void **unused)
{
	struct fgtable *t = fgtable_new(21);
	struct fungeon_channel *c;
	char *text, *line, *end;
	int dice = 0;

	(void)unused;
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 4 type:fire");
	c = fgtable_fungeon(t);
	c->m[0].credit = 4;
	fgtable_ok(t, "bo", "/fungeon town buy ring fancy pain 1 type fire");
	assert_int_equal(c->m[0].nitems, 1);
	fgtable_ok(t, "bo", "/fungeon hallway");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add troll level 6");
	fgtable_enter_waived(t);
	text = fgtable_said(t, "bo", "/fungeon combat");
	line = strstr(strstr(text, "3. Painful conflict\n"), "Brix (bo): ");
	assert_non_null(line);
	end = strchr(line, '\n');
	for (const char *p = line + strlen("Brix (bo): "); p < end; p++)
		dice += *p >= '1' && *p <= '6';
	assert_int_equal(dice, 4);
	free(text);
	fgtable_free(t);
}

/* F7: an ability with no Pain dice, hold or continuous damage (one that
 * carries Resist dice only) brings nothing on a failure, so step 2 says so
 * and rolls nothing for it. */
static void
f7_an_ability_that_can_do_nothing_is_not_rolled(void **unused)
{
	struct fgtable *t = fgtable_new(21);
	char *text, *step2, *step3;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 4");
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 4 type:fire");
	fgtable_room_made(t, newt);
	text = fgtable_said(t, "al", "/fungeon combat");
	step2 = strstr(text, "2. Special abilities\n");
	step3 = strstr(text, "3. Painful conflict\n");
	assert_non_null(step2);
	assert_non_null(step3);
	*step3 = '\0';
	assert_string_equal(step2,
	                    "2. Special abilities\nnewt/scales: level + 1 Annoy die, no Pain "
	                    "dice\nIt has no Pain dice, hold or continuous damage: a failure "
	                    "would bring nothing, so it is not rolled (its Resist dice still "
	                    "act).\n");
	free(text);
	fgtable_free(t);
}

/* F3 ("Heading Back to Town": hits heal only through magic treasure
 * "during a game session (or one Dungeon)", which sends the wounded to the
 * healer in town): the Ruling, revisited (fungeon5): hits stay as they
 * are into the next dungeon, whether it starts at the entrance or in a
 * hallway, so the healer has work; a new game session, said in town with
 * /fungeon town session, makes every living Fungeoneer's hits whole, and
 * the healer sells no more than the hits missing. */
static void
f3_hits_heal_between_dungeons(void **unused)
{
	struct fgtable *t = fgtable_new(5);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 2);
	for (int round = 0; round < 2; round++) {
		fgtable_ok(t, "al", "/fungeon hallway");
		fgtable_pick_all(t);
		fgtable_enter_waived(t);
		fgtable_gm(t, "/fungeon adjust Al hits:-4");
		text = fgtable_said(t, "al", "/fungeon retreat confirm:true");
		fgtable_holds(text, "Wounds mend here only by the healer's magic, until a new game "
		                    "session makes every Fungeoneer whole (a Ruling: /fungeon town "
		                    "session, when the table meets again).\n");
		free(text);
		c = fgtable_fungeon(t);
		assert_int_equal(c->d.phase, FUNGEON_TOWN);
		assert_int_equal(c->m[0].hits, 6 - 4 * round);
		assert_int_equal(c->m[1].hits, 10);
		text = fgtable_said(t, "bo", round == 0 ? "/fungeon entrance" : "/fungeon hallway");
		assert_null(strstr(text, "Hits heal"));
		free(text);
		assert_int_equal(c->m[0].hits, 6 - 4 * round); /* no healing by a new dungeon */
		if (round == 0) {
			fgtable_ok(t, "al", "/fungeon retreat confirm:true");
			assert_int_equal(c->d.phase, FUNGEON_TOWN);
		}
	}
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	assert_int_equal(c->m[0].hits, 2);
	c->m[0].credit = 4;
	fgtable_fails_unchanged(t, "al", "/fungeon town healer hits:9",
	                        "Al misses 8 hits of 10, and the healer sells no more healing than "
	                        "that (hits:8 at most).");
	fgtable_ok(t, "al", "/fungeon town healer hits:2");
	assert_int_equal(c->m[0].hits, 4);
	text = fgtable_said(t, "bo", "/fungeon town session");
	assert_string_equal(text, "A new game session begins: hits are whole again, Al 4 → "
	                          "10/10.\n");
	free(text);
	assert_int_equal(c->m[0].hits, 10);
	text = fgtable_said(t, "bo", "/fungeon town session");
	assert_string_equal(text, "A new game session begins: every living Fungeoneer's hits are "
	                          "whole already.\n");
	free(text);
	/* only in town */
	fgtable_ok(t, "al", "/fungeon entrance");
	fgtable_fails_unchanged(t, "al", "/fungeon town session", NULL);
	fgtable_free(t);
}

/* F4 ("Playing Fungeon": you must spend all the points you are given;
 * Ruling: a holder may let go only what no new piece can use, play-test 5
 * Q10): a player waives the points of the categories they hold, never
 * another's, so nobody skips the Monsters player's part of the room; the
 * party goes in once every category's points are spent or waived; the GM
 * may waive any, a correction outside the rules that says so. */
static void
f4_each_holder_waives_their_own(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	struct fungeon_channel *c;
	const char *mon, *trap, *tre;
	char *text, want[200];

	(void)unused;
	c = fgtable_drawn(t, 3, 2);
	mon = fgtable_holder(t, FUNGEON_CAT_MONSTERS);
	trap = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	tre = fgtable_holder(t, FUNGEON_CAT_TREASURE);
	assert_string_not_equal(mon, trap);
	assert_string_not_equal(mon, tre);
	assert_string_not_equal(trap, tre);
	/* Traps 4 (Max 2 + floor 2), Monsters 8, Treasure 4: a trap of 3 leaves
	 * a point no trap can use */
	fgtable_ok(t, trap, "/fungeon trap add pit annoy 2 pain 2 type spikes");
	fgtable_ok(t, tre, "/fungeon treasure add gem mundane value 3");
	fgtable_ok(t, trap, "/fungeon enter waive:true");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	snprintf(want, sizeof(want),
	         "Only a category's holder waives its points (a Ruling; the GM may waive any): "
	         "Monsters 8 (%s).",
	         mon);
	fgtable_fails_unchanged(t, trap, "/fungeon enter waive:true", want);
	fgtable_fails_unchanged(t, mon, "/fungeon enter waive:true",
	                        "Monsters 8 can still buy a new monster (one costs at least 2 "
	                        "here), and the text has every point spent: spend them first; a "
	                        "holder waives only points no new piece can use (a Ruling), and "
	                        "the GM any, outside the rules.");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	snprintf(want, sizeof(want), "/fungeon monster add ogre level 7");
	fgtable_ok(t, mon, want);
	text = fgtable_said(t, mon, "/fungeon enter waive:true");
	snprintf(want, sizeof(want), "%s: Traps 1; %s: Monsters 1", trap, mon);
	fgtable_holds(text, want);
	fgtable_holds(text, "The party enters room 1 on floor 2");
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_ROOM);

	/* the GM waives every category at once, outside the rules, and says so */
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_pick_all(t);
	fgtable_ok(t, "gm", "/gm claim");
	text = fgtable_said(t, "gm", "/fungeon enter waive:true");
	fgtable_holds(text, "The GM lets points go, outside the rules (the text has every point "
	                    "spent): Traps 4 can still buy a new trap (one costs at least 2 here) "
	                    "and Monsters 8 can still buy a new monster (one costs at least 2 "
	                    "here) and Treasure 4 can still buy a new treasure (one costs at least "
	                    "1 here).\nPoints left unspent, waived by gm: Traps 4, Monsters 8, "
	                    "Treasure 4.\n");
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_ROOM);
	fgtable_free(t);
}

/* F5 ("Playing Fungeon": combat is a guaranteed result once the party piles
 * into a room): going on to the next hallway with monsters standing or
 * treasure untaken is asked first, naming what stays behind; with
 * confirm:true the party goes, and the reply names it again. A room left
 * with nothing behind goes on at once. */
static void
f5_going_on_asks_first(void **unused)
{
	static const char *const d[] = {"/fungeon monster add troll level 6",
	                                "/fungeon treasure add ring fancy value 1",
	                                "/fungeon treasure add potion fancy heal 1", NULL};
	struct fgtable *t = fgtable_new(5);
	struct fungeon_channel *c;
	char *text, *before, *after;

	(void)unused;
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	before = fgtable_saved(t);
	text = fgtable_said(t, "al", "/fungeon hallway");
	assert_string_equal(text, "Going on leaves room 1 with 1 monster standing (troll) and 2 "
	                          "treasures untaken (ring, potion) behind for good. Go with "
	                          "/fungeon hallway confirm:true.\n");
	free(text);
	after = fgtable_saved(t);
	assert_string_equal(before, after);
	free(before);
	free(after);
	assert_int_equal(c->d.phase, FUNGEON_ROOM);
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	fgtable_holds(text, "The party leaves room 1 with 1 monster standing (troll) and 2 "
	                    "treasures untaken (ring, potion).\n");
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	fgtable_enter_waived(t);
	text = fgtable_said(t, "al", "/fungeon hallway");
	assert_null(strstr(text, "leaves"));
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	fgtable_free(t);
}

/* F9 ("Playing Fungeon": if the Party Min increased, the Traps player
 * places a downward stair): a rise between two hallways counts too (a
 * Ruling: the Party Min of the room before is the one compared). Al
 * (level 3) and Bo (level 5) count room 1 at Party Min 3; Al leaves in
 * that hallway; room 2's hallway counts Party Min 5, so it has a stair to
 * the floor below, and the party can take it there. */
static void
f9_a_rise_between_hallways_brings_the_stair(void **unused)
{
	struct fgtable *t = fgtable_new(9);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_pair(t, 3, 5);
	fgtable_ok(t, "bo", "/fungeon entrance");
	c = fgtable_fungeon(t);
	assert_int_equal(c->d.floor, 3);
	fgtable_ok(t, "bo", "/fungeon hallway");
	assert_int_equal(c->d.room.party.min, 3);
	assert_false(c->d.room.stair);
	fgtable_ok(t, "al", "/fungeon leave");
	fgtable_pick_all(t);
	fgtable_enter_waived(t);
	text = fgtable_said(t, "bo", "/fungeon hallway");
	fgtable_holds(text, "Party Min rose from 3 to 5: whoever makes the Traps places a downward "
	                    "stair to floor 4 in the room.\n");
	free(text);
	assert_true(c->d.room.stair);
	fgtable_pick_all(t);
	fgtable_enter_waived(t);
	fgtable_ok(t, "bo", "/fungeon stair");
	assert_int_equal(c->d.floor, 4);
	/* counted at 5 now: the next hallway brings no stair */
	text = fgtable_said(t, "bo", "/fungeon hallway");
	assert_null(strstr(text, "Party Min rose"));
	free(text);
	assert_false(c->d.room.stair);
	fgtable_free(t);
}

/* Previous round (IRC): a combat turn's reply fits the channel's
 * max_lines on IRC. Four Fungeoneers against three monsters, one with a
 * continuous sting: at the default 4 lines of 400 bytes every turn fits
 * whole once the working (the dice, the rank tables, what changed
 * nothing) is left out, never cut with "not shown"; each result of the
 * turn's Painful conflict that changed something is there. */
static void
irc_combat_turns_fit_max_lines(void **unused)
{
	static const char *const monsters[] = {
	    "/fungeon monster add newt level 1 ability sting annoy 2 pain 1 continuous type fire",
	    "/fungeon monster add rat level 3",
	    "/fungeon monster add toad level 2 ability tongue annoy 2 pain 2 type slime", NULL};
	struct fgtable *t = fgtable_new(21);
	struct render_irc_opts io = {.budget = 400, .max_lines = 4, .prefix = "!"};

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 3");
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 3 type:fire");
	fgtable_ok(t, "cy", "/fungeon join Cy rogue 3");
	fgtable_ok(t, "di", "/fungeon join Di cleric 3");
	fgtable_room_made(t, monsters);
	for (int turn = 0; turn < 4; turn++) {
		struct irc_lines lines = {0};
		char *text = fgtable_said(t, "al", "/fungeon combat");
		const char *step3 = strstr(text, "3. Painful conflict");

		render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
		assert_true(lines.n <= 4);
		for (size_t i = 0; i < lines.n; i++)
			assert_null(strstr(lines.v[i], "not shown"));
		/* the last line ends with the turn's narrator, so nothing was cut */
		assert_non_null(strstr(lines.v[lines.n - 1], "Narrative control"));
		assert_non_null(step3);
		render_irc_lines_free(&lines);
		free(text);
	}
	fgtable_free(t);
}

/* F10: a mark is what tells the Thwack-O dice apart where colour does not
 * show (plain IRC, screen readers): a mark another player of the party
 * uses is refused in any colour; a mark nobody uses is taken. */
static void
f10_a_mark_is_one_player_s(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	struct thwacko_style st[FUNGEON_PARTY_MAX];
	char line[120], want[300];
	const char *other;

	(void)unused;
	fgtable_ok(t, "bo", "/fungeon join Bo fighter 2");
	fgtable_ok(t, "cy", "/fungeon join Cy rogue 2");
	c = fgtable_fungeon(t);
	fungeon_channel_styles(c, t->st, st);
	other = st[0].colour == UC_BLUE ? "green" : "blue";
	snprintf(line, sizeof(line), "/thwacko style %s %s", other, st[0].mark);
	snprintf(want, sizeof(want),
	         "The mark %s is taken in this party: it is on bo's Thwack-O die (%s); choose "
	         "another mark, so that the dice can be told apart where colour does not show.",
	         st[0].mark, thwacko_style_colour_name(st[0].colour));
	fgtable_fails_unchanged(t, "cy", line, want);
	fgtable_ok(t, "cy",
	           strcmp(st[0].mark, "★") ? "/thwacko style blue ★" : "/thwacko style blue ♣");
	fgtable_free(t);
}

/* F6, revisited by play-test 10's U12 (line 273: every successful Annoy
 * roll against a trap earns its cost, with no exception): the Fungeoneer
 * of the player who made a trap earns it finding and disarming it, as
 * another's does. Both level 6 against the 2 dice of a 1 Annoy / 1 Pain
 * trap (cost 2). */
static void
f6_xp_from_one_s_own_trap_too(void **unused)
{
	static const char *const traps[] = {"/fungeon trap add t1 annoy 1 pain 1 type darts",
	                                    "/fungeon trap add t2 annoy 1 pain 1 type darts", NULL};
	struct fgtable *t = fgtable_new(6);
	struct fungeon_channel *c;
	const char *maker, *other;
	char line[160];
	int mk, ot;

	(void)unused;
	fgtable_fighters(t, 2, 6);
	fgtable_room_made(t, traps);
	maker = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	other = strcmp(maker, "al") ? "al" : "bo";
	mk = strcmp(maker, "al") ? 1 : 0;
	ot = 1 - mk;
	c = fgtable_fungeon(t);
	snprintf(line, sizeof(line), "/fungeon find t1 %s", c->m[mk].name);
	fgtable_ok(t, maker, line);
	assert_int_equal(fungeon_room_find(&c->d.room, FUNGEON_TRAP, "t1")->state,
	                 FUNGEON_TRAP_FOUND);
	assert_int_equal(c->m[mk].xp, 2);
	snprintf(line, sizeof(line), "/fungeon disarm t1 %s", c->m[mk].name);
	fgtable_ok(t, maker, line);
	assert_int_equal(fungeon_room_find(&c->d.room, FUNGEON_TRAP, "t1")->state,
	                 FUNGEON_TRAP_DISARMED);
	assert_int_equal(c->m[mk].xp, 4);
	snprintf(line, sizeof(line), "/fungeon find t2 %s", c->m[ot].name);
	fgtable_ok(t, other, line);
	assert_int_equal(fungeon_room_find(&c->d.room, FUNGEON_TRAP, "t2")->state,
	                 FUNGEON_TRAP_FOUND);
	assert_int_equal(c->m[ot].xp, 2);
	fgtable_free(t);
}

/* F8 (wording): in town the party line names no floor (there is no
 * dungeon), and says the figures are the party's now; a level-up line
 * names the class bonus only when it changes. */
static void
f8_party_and_level_up_words(void **unused)
{
	struct fgtable *t = fgtable_new(8);
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Party now: Min 2 · Max 2 · Total 2 · no floor in town (a new dungeon "
	                    "opens on Party Min) · XP rule: table.\n");
	free(text);
	fgtable_gm(t, "/fungeon adjust Al xp:40");
	text = fgtable_said(t, "al", "/fungeon hallway");
	fgtable_holds(text, "Al level 2 → 3: max hits 10 → 15, hits 10 → 15 (5 per level).\n");
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f2_resist_dice_idle_against_universal_attacks),
	    cmocka_unit_test(f7_an_ability_that_can_do_nothing_is_not_rolled),
	    cmocka_unit_test(step3_rolls_the_level_alone),
	    cmocka_unit_test(f3_hits_heal_between_dungeons),
	    cmocka_unit_test(f4_each_holder_waives_their_own),
	    cmocka_unit_test(f5_going_on_asks_first),
	    cmocka_unit_test(f6_xp_from_one_s_own_trap_too),
	    cmocka_unit_test(f9_a_rise_between_hallways_brings_the_stair),
	    cmocka_unit_test(irc_combat_turns_fit_max_lines),
	    cmocka_unit_test(f10_a_mark_is_one_player_s),
	    cmocka_unit_test(f8_party_and_level_up_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
