/* The rest of the third play-test's F8 (notes/playtest-fungeon-3.md, low:
 * usability and wording), each played at a table as the report found it:
 * tie re-rolls shown by group and only where they decide something, a "Go
 * on" step on the way back, /fungeon party naming what is pending, credit
 * in plain words, join taking the one level allowed (test_fungeon_table.c
 * and test_fungeon_playtest2.c), a treasure priced without "mundane" or
 * "fancy" said so, and take's hint for a guarding trap not found yet
 * (test_cmdref.c for the three platforms). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/reply.h"
#include "commands/fungeon/fungeon_channel.h"
#include "tests/unit/helpers/fgtable.h"

/* The entrance: only the highest describes, so a tie below it is not
 * re-rolled (delver(7)'s Ruling speaks of a tie for the highest). */
static void
entrance_re_rolls_only_the_top(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	char *text;

	(void)unused;
	fgtable_fighters(t, 5, 1);
	text = fgtable_said(t, "al", "/fungeon entrance");
	assert_string_equal(text, "The entrance: each player rolls, the highest describes it\n"
	                          "al: 5\nbo: 4\ncy: 4\ndi: 3\ned: 5\n"
	                          "Tie at 5, re-rolled: al 1, ed 1\n"
	                          "Tie at 1, re-rolled: al 3, ed 6\n"
	                          "Describes the entrance: ed (Ed), Thwack-O 6. The entrance "
	                          "opens on floor 1 (Party Min).\n");
	free(text);
	fgtable_free(t);
}

/* The category draw: the first three places choose, so each tied group
 * that reaches into them is re-rolled, shown as its own group in order
 * (the best placed first), and a tie wholly below them stays as it fell;
 * the order names who gets no category. */
static void
draw_shows_groups_in_order(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	char *text, *draw;

	(void)unused;
	fgtable_fighters(t, 5, 1);
	text = fgtable_said(t, "al", "/fungeon hallway");
	draw = strstr(text, "4. Category draw\n");
	assert_non_null(draw);
	*strstr(draw, "Traps budget") = '\0';
	assert_string_equal(draw, "4. Category draw\nal: 5\nbo: 4\ncy: 4\ndi: 3\ned: 5\n"
	                          "Tie at 5, re-rolled: al 1, ed 6 · tie at 4: bo 1, cy 3\n"
	                          "Choosing order: 1. ed, 2. al, 3. cy; no category: bo, di\n");
	free(text);
	fgtable_free(t);

	/* a tie at 1 among the 4th and 5th places decides nothing */
	t = fgtable_new(9);
	fgtable_fighters(t, 5, 1);
	text = fgtable_said(t, "al", "/fungeon hallway");
	draw = strstr(text, "4. Category draw\n");
	assert_non_null(draw);
	*strstr(draw, "Traps budget") = '\0';
	assert_string_equal(draw, "4. Category draw\nal: 1\nbo: 2\ncy: 1\ndi: 5\ned: 6\n"
	                          "Choosing order: 1. ed, 2. di, 3. bo; no category: al, cy\n");
	free(text);
	fgtable_free(t);
}

/* Whether the last reply carries a button that runs action. */
static bool
has_button(const struct fgtable *t, const char *label, const char *action)
{
	const struct reply_msg *m = reply_msg(t->last, REPLY_CHANNEL);

	for (size_t i = 0; m != NULL && i < m->nbuttons; i++)
		if (!strcmp(m->buttons[i].label, label) && !strcmp(m->buttons[i].action, action))
			return true;
	return false;
}

/* The way back: each step that leaves nothing to build or fight says how
 * to go on, with a "Go on" button on Discord, as combat and the hallway do;
 * a step that brings wandering monsters does not, and the last one beaten
 * brings it. /fungeon party says what the way back waits for. */
static void
retreat_steps_go_on(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 1);
	c = fgtable_rooms_waived(t, 3);
	/* bo fails the roll before room 2: a wanderer to build, no "Go on" */
	text = fgtable_said(t, "al", "/fungeon retreat confirm:true");
	fgtable_holds(text, "bo builds one wandering monster of 2 points");
	assert_null(strstr(text, "Go on"));
	assert_false(has_button(t, "Go on", "fungeon retreat"));
	free(text);
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Heading back to town: room 2 re-entered.\nbo builds a wandering "
	                    "monster of 2 points: /fungeon monster add NAME DESIGN.\n");
	free(text);
	fgtable_ok(t, "bo", "/fungeon monster add rat level 1 ability squeak annoy 1 type noise");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Heading back to town: room 2 re-entered.\n1 wandering monster "
	                    "stands: /fungeon combat before going on back.\n");
	free(text);
	while (c->d.room.p[FUNGEON_MONSTER][0].hits > 0) {
		text = fgtable_said(t, "al", "/fungeon combat");
		if (c->d.room.p[FUNGEON_MONSTER][0].hits > 0) {
			assert_null(strstr(text, "Go on back"));
			assert_false(has_button(t, "Go on", "fungeon retreat"));
		} else {
			fgtable_holds(text,
			              "Go on back with /fungeon retreat: the rolls before room "
			              "1.\n");
			assert_true(has_button(t, "Go on", "fungeon retreat"));
		}
		free(text);
	}
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Heading back to town: room 2 re-entered.\nGo on back with /fungeon "
	                    "retreat: the rolls before room 1.\n");
	free(text);
	/* both succeed before room 1: go on at once */
	text = fgtable_said(t, "al", "/fungeon retreat");
	fgtable_holds(text, "Room 1 is the last before the entrance.\n");
	fgtable_holds(text, "Go on back with /fungeon retreat: out of the dungeon, to town.\n");
	assert_true(has_button(t, "Go on", "fungeon retreat"));
	free(text);
	text = fgtable_said(t, "al", "/fungeon retreat");
	fgtable_holds(text, "The party leaves the dungeon and is back in town.");
	assert_false(has_button(t, "Go on", "fungeon retreat"));
	free(text);
	fgtable_free(t);
}

/* /fungeon party names a downward stair to be placed (in the hallway) and
 * one not taken yet (in the room). */
static void
party_names_the_stair(void **unused)
{
	struct fgtable *t = fgtable_new(9);
	char *text;

	(void)unused;
	fgtable_pair(t, 3, 5);
	fgtable_ok(t, "bo", "/fungeon entrance");
	fgtable_ok(t, "bo", "/fungeon hallway");
	fgtable_ok(t, "al", "/fungeon leave");
	fgtable_pick_all(t);
	fgtable_enter_waived(t);
	fgtable_ok(t, "bo", "/fungeon hallway");
	text = fgtable_said(t, "bo", "/fungeon party");
	fgtable_holds(text, "Party Min rose: whoever makes the Traps places a downward stair to "
	                    "floor 4 in room 2.\n");
	free(text);
	fgtable_pick_all(t);
	fgtable_enter_waived(t);
	text = fgtable_said(t, "bo", "/fungeon party");
	fgtable_holds(text, "A downward stair in room 2 leads on to floor 4, not taken: /fungeon "
	                    "stair before the next hallway.\n");
	free(text);
	fgtable_ok(t, "bo", "/fungeon stair");
	text = fgtable_said(t, "bo", "/fungeon party");
	assert_null(strstr(text, "stair"));
	free(text);
	fgtable_free(t);
}

/* Credit in plain words on every platform: a 3-point sale gives half its
 * points rounded down (fcheck F3, line 297), said so, with no half point. */
static void
credit_in_words(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add ring fancy value 1", NULL};
	struct fgtable *t = fgtable_new(18);
	char *text;

	(void)unused;
	fgtable_into_room(t, 3, d);
	fgtable_ok(t, "al", "/fungeon take ring");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	text = fgtable_said(t, "al", "/fungeon town sell ring");
	assert_string_equal(text, "Al sells ring (3 points): what Al gave up in this visit, 3 "
	                          "points, gives half, rounded down once over it all, so this "
	                          "sale adds 1 point: credit 1 point.\n");
	free(text);
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Town credit 1 point.\n");
	free(text);
	fgtable_free(t);
}

/* A treasure priced without "mundane" or "fancy" is a mundane item, and
 * the reply says so; with either word named it says nothing more. */
static void
treasure_kind_unnamed_is_said(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	char *text;

	(void)unused;
	text = fgtable_said(t, "al", "/fungeon cost treasure value 3");
	assert_string_equal(text, "Treasure: mundane value 3\n"
	                          "Plain: mundane item (1) + value +3 (3) = 4\n"
	                          "Cost: 4 points. Sells in town for 2 points.\n"
	                          "Neither mundane nor fancy was named, so this is priced as a "
	                          "mundane item (1 point); a fancy one costs 2 and only it may be "
	                          "magic.\n");
	free(text);
	text = fgtable_said(t, "al", "/fungeon cost treasure mundane value 3");
	assert_null(strstr(text, "Neither"));
	free(text);
	fgtable_free(t);
}

/* take's hint: a guarding trap not found yet cannot be disarmed (a trap is
 * found before it is disarmed), so the hint offers finding it; once found,
 * disarming. */
static void
take_hint_follows_the_trap(void **unused)
{
	static const char *const d[] = {"/fungeon trap add pit annoy 2 pain 1 guards type darts",
	                                "/fungeon treasure add gem mundane", NULL};
	struct fgtable *t = fgtable_new(5);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_into_room(t, 3, d);
	fgtable_fails_unchanged(t, "al", "/fungeon take gem",
	                        "pit guards the treasure and is not found yet: trigger it or get "
	                        "past it (/fungeon trigger pit), or find it (/fungeon find pit) to "
	                        "disarm it, before taking any.");
	c = fgtable_fungeon(t);
	c->d.room.p[FUNGEON_TRAP][0].state = FUNGEON_TRAP_FOUND;
	fgtable_fails_unchanged(t, "al", "/fungeon take gem",
	                        "pit guards the treasure: trigger it, disarm it or get past it "
	                        "(/fungeon trigger pit or /fungeon disarm pit) before taking any.");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(entrance_re_rolls_only_the_top),
	    cmocka_unit_test(draw_shows_groups_in_order),
	    cmocka_unit_test(retreat_steps_go_on),
	    cmocka_unit_test(party_names_the_stair),
	    cmocka_unit_test(credit_in_words),
	    cmocka_unit_test(treasure_kind_unnamed_is_said),
	    cmocka_unit_test(take_hint_follows_the_trap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
