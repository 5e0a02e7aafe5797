/* The fifth independent play-test of Fungeon
 * (notes/playtest-fungeon-5.md), its findings each played at a table as
 * the report found it, with what the rule text (or a Ruling where it
 * is silent or says two things) wants instead. */
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

/* Q1 (line 242: whenever dice are rolled, each player's Thwack-O is in
 * them; line 271: only one Thwack-O, even for several rolls "this
 * turn"; Ruling: one a player in each roll, a combat turn holding
 * several): cy's ogre holds Al and Bo, so in one turn cy's Thwack-O is
 * in each of step 1's two rolls, in step 2's roll against Cy and in step
 * 3's conflict, each roll with its narrator; /help fungeon says so. */
static void
q1_one_thwacko_a_player_in_each_roll(void **unused)
{
	static const char *const m[] = {
	    "/fungeon monster add ogre level 2 ability grab annoy 2 hold type crush", NULL};
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_HOLD,
	                           .from = FUNGEON_FROM_MONSTER,
	                           .source = "ogre/grab",
	                           .maker = "console:cy",
	                           .annoy = 4,
	                           .type = "crush"};
	struct fgtable *t = fgtable_new(20);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_three(t, m);
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	assert_int_equal(fungeon_effect_add(&c->m[1], &e), 0);
	text = fgtable_said(t, "bo", "/fungeon combat");
	fgtable_holds(text, "Continuous hold: ogre/grab on Al\nogre/grab: 4 4 5 6 → 6\n"
	                    "Al (al): 3 2 1 6 4 1 → 6, succeeds: the effect ends\n"
	                    "Narrative control: cy (Cy), Thwack-O 4.\n"
	                    "Continuous hold: ogre/grab on Bo\nogre/grab: 6 3 5 4 → 6\n"
	                    "Bo (bo): 6 5 5 4 6 4 → 6, succeeds: the effect ends\n"
	                    "Thwack-O tie at 6 (bo, cy): re-rolled bo 1 cy 4\n"
	                    "Narrative control: cy (Cy), Thwack-O 4.\n"
	                    "2. Special abilities\n");
	fgtable_holds(text, "Cy (cy): 5 6 6 4 5 3 → 6, succeeds\n"
	                    "Narrative control: cy (Cy), Thwack-O 5.\n3. Painful conflict\n");
	fgtable_holds(strstr(text, "3. Painful conflict\n"),
	              "\nNarrative control: cy (Cy), Thwack-O 4.\n");
	free(text);
	text = fgtable_said(t, "bo", "/help fungeon");
	fgtable_holds(text, "Ruling (the text says both \"whenever dice are rolled\" and \"only "
	                    "one Thwack-O this turn\"): one Thwack-O a player in each roll, even "
	                    "one made for their Fungeoneer and their trap or monster at once, and "
	                    "a combat turn is several rolls (each step-1 roll, each ability, the "
	                    "Painful conflict), each with its own Thwack-O dice and narrator.");
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(q1_one_thwacko_a_player_in_each_roll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
