/* Fungeon's Thwack-O in a combat turn (text 000, lines 242, 246-252, 262,
 * 271): one Thwack-O die a player in the whole turn, in the first roll of
 * the turn they take part in; outside combat, one a player in each roll. */
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

static const char *const wasp_room[] = {
    "/fungeon monster add wasp level 1 ability sting annoy 2 pain 1 type poison",
    "/fungeon trap add pit annoy 2 pain 2 type spikes", NULL};

/* Al and Bo (levels 2), their dice marked ◆ and ■, in the room of the
 * wasp (its sting Annoy 2/Pain 1) and the pit. */
static struct fgtable *
wasp_table(uint64_t seed)
{
	struct fgtable *t = fgtable_new(seed);

	fgtable_ok(t, "al", "/thwacko style red ◆");
	fgtable_ok(t, "bo", "/thwacko style blue ■");
	fgtable_two_in_room(t, 2, wasp_room);
	return t;
}

/* How many times want occurs in text. */
static int
count(const char *text, const char *want)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, want)) != NULL; p += strlen(want))
		n++;
	return n;
}

/* Al and Bo resist the sting in step 2, their Thwack-O dice in that roll
 * (6 each, a tie so far); in step 3 they roll regular dice only, so its
 * table shows no mark; the tie for the turn's highest is re-rolled once
 * the turn is over and bo narrates the turn, named once. The next turn
 * rolls new Thwack-O dice: al's 2 leads it and narrates it. */
static void
one_thwacko_in_a_turn_and_a_new_one_the_next(void **unused)
{
	struct fgtable *t = wasp_table(7);
	char *text, *step3;

	(void)unused;
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "wasp/sting: 1 1 3 → 3\nAl (al): 6 6 → 6, succeeds\n"
	                    "Bo (bo): 6 6 → 6, succeeds\n"
	                    "Narrative control so far this turn: tied between al (Al), Thwack-O "
	                    "6 and bo (Bo), Thwack-O 6 (re-rolled if still tied when the turn "
	                    "ends).\n3. Painful conflict\n");
	step3 = strstr(text, "3. Painful conflict\n");
	assert_non_null(step3);
	fgtable_holds(step3, "Al (al): 4 1\nBo (bo): 6 5\nwasp: 6\n"
	                     "  1 | 4 | 6 | 6 | tie | 0 (tie)\n"
	                     "  2 | 1 | 5 | 0 | Bo | 1 → wasp\n");
	assert_null(strstr(step3, "◆"));
	assert_null(strstr(step3, "■"));
	fgtable_holds(step3, "wasp deals 0 and takes 1: 2/3 hits.\n"
	                     "Thwack-O tie at 6 (al, bo): re-rolled al 3 bo 4\n"
	                     "Narrative control: bo (Bo), Thwack-O 4.\n");
	assert_int_equal(count(text, "Narrative control"), 2);
	assert_int_equal(count(text, "Thwack-O tie"), 1);
	free(text);
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "Al (al): 2 3 → 3, fails\nBo (bo): 1 1 → 1, fails\n"
	                    "Narrative control so far this turn: al (Al), Thwack-O 2.\n");
	/* the sting's Pain roll and step 3: regular dice only */
	fgtable_holds(text, "  1 | 5 | 1 | 4 | Al | 1 → wasp/sting\n");
	fgtable_holds(text, "  1 | 3 | 5 | 6 | wasp | 1 → Al\n");
	assert_null(strstr(text, "◆"));
	assert_null(strstr(text, "■"));
	fgtable_holds(text, "wasp deals 1 and takes 0: 1/3 hits.\n"
	                    "Narrative control: al (Al), Thwack-O 2.\n");
	assert_int_equal(count(text, "Narrative control"), 2);
	free(text);
	fgtable_free(t);
}

/* Outside combat each roll is its own occasion (line 242): al, who made
 * the pit, springs it with Al; al's Thwack-O is in the Annoy roll (4) and
 * again in the Pain roll (◆1, rank 2), each roll naming its narrator. */
static void
a_trap_outside_combat_rolls_one_in_each_roll(void **unused)
{
	struct fgtable *t = wasp_table(1);
	char *text;

	(void)unused;
	assert_string_equal(fgtable_holder(t, FUNGEON_CAT_TRAPS), "al");
	text = fgtable_said(t, "al", "/fungeon trigger pit Al");
	fgtable_holds(text, "pit: 5 1 → 5\nAl (al): 4 3 → 4, fails\n"
	                    "Narrative control: al (Al), Thwack-O 4.\n"
	                    "Al's Pain roll against pit (2 Pain dice):\n");
	fgtable_holds(text, "  1 | 3 | 6 | pit | 1 → Al\n  2 | ◆1 | 4 | pit | 1 → Al\n"
	                    "Al takes 2: 8/10 hits.\nNarrative control: al (Al), Thwack-O 1.\n");
	assert_null(strstr(text, "so far"));
	free(text);
	fgtable_free(t);
}

/* The turn's Thwack-O dice belong to the one command that plays the whole
 * turn, so nothing of them is in the channel's record: a save and load
 * between two turns changes nothing of the next (the same seed plays it
 * alike with and without the reload, new Thwack-O dice and all), and a
 * turn the GM takes back with /undo leaves the record byte for byte as it
 * was, the turn played again rolling every player's Thwack-O afresh. */
static void
save_load_and_undo_keep_the_turns_apart(void **unused)
{
	struct fgtable *kept = wasp_table(7), *reloaded = wasp_table(7);
	char *a, *b, *before, *after;

	(void)unused;
	fgtable_ok(kept, "al", "/fungeon combat");
	fgtable_ok(reloaded, "al", "/fungeon combat");
	fgtable_reload(reloaded);
	a = fgtable_said(kept, "al", "/fungeon combat");
	b = fgtable_said(reloaded, "al", "/fungeon combat");
	assert_string_equal(a, b);
	fgtable_holds(b, "Narrative control so far this turn: al (Al), Thwack-O 2.\n");
	free(a);
	free(b);
	fgtable_free(kept);
	fgtable_free(reloaded);

	kept = wasp_table(7);
	before = fgtable_saved(kept);
	fgtable_gm(kept, "/fungeon combat");
	fgtable_gm(kept, "/undo");
	after = fgtable_saved(kept);
	assert_string_equal(before, after);
	a = fgtable_said(kept, "al", "/fungeon combat");
	assert_int_equal(count(a, "Narrative control so far this turn: "), 1);
	assert_int_equal(count(a, "\nNarrative control: "), 1);
	free(a);
	free(before);
	free(after);
	fgtable_free(kept);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(one_thwacko_in_a_turn_and_a_new_one_the_next),
	    cmocka_unit_test(a_trap_outside_combat_rolls_one_in_each_roll),
	    cmocka_unit_test(save_load_and_undo_keep_the_turns_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
