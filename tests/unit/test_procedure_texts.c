/*
 * Unit tests holding the dungeon procedure to rule texts 001 (Tension),
 * 003 (delving) and 004 (safe areas and vendors), through the dispatcher:
 * each test names the sentence of the text it follows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdrun.h"

CMDRUN_FIXTURE(4)

/* Runs line as the GM; returns the reply's plain text (valid until the
 * next line), failing on an error. */
static const char *
gm(const char *line)
{
	const struct reply *r = cmdrun_line(&cr, "table", "gm", line, 0);

	if (reply_is_error(r)) {
		fprintf(stderr, "'%s' failed: %s\n", line, reply_error_text(r));
		fail();
	}
	return cmdrun_plain(&cr);
}

/* Fails unless text holds want, showing text. */
static void
holds(const char *text, const char *want)
{
	if (strstr(text, want) == NULL) {
		fprintf(stderr, "wanted '%s' in:\n%s\n", want, text);
		fail();
	}
}

static void
lacks(const char *text, const char *unwanted)
{
	if (strstr(text, unwanted) != NULL) {
		fprintf(stderr, "did not want '%s' in:\n%s\n", unwanted, text);
		fail();
	}
}

/* 003: "Walking speed ... PCs are surprised by all encounters", the same
 * running and in total darkness ("PCs will be surprised by all
 * encounters"). Every encounter the bot finds says so, as the hazard die's
 * does, and /surprise rolls no WIS check for the party then. */
static void
delving_party_surprised_by_every_encounter(void **unused)
{
	static const char walking[] = "The party is walking, so it is surprised by this encounter.";
	static const char dark[] = "In total darkness the party is surprised by this encounter.";
	(void)unused;
	gm("gm claim");
	gm("hazard table delving");
	gm("light add torch");
	gm("turn move walking");
	holds(gm("wander classic 6"), walking);
	holds(gm("wander tension exits:20"), walking);
	holds(gm("tension roll exits:20"), walking);
	assert_string_equal(gm("surprise 3 monsters:2"),
	                    "Surprise: WIS check DC 12 (d20), the monsters only\n"
	                    "The party is walking, so any encounter surprises it, and it makes no "
	                    "check.\n"
	                    "  1 | 1 surprised\n"
	                    "  2 | 7 surprised\n"
	                    "Party: 3 of 3 surprised.\n"
	                    "Monsters: 2 of 2 surprised.\n"
	                    "The surprised cannot act in the first round of combat.\n");
	assert_string_equal(gm("surprise 2"),
	                    "Surprise\n"
	                    "The party is walking, so any encounter surprises it, and it makes no "
	                    "check (/surprise monsters:N checks the monsters).\n"
	                    "Party: 2 of 2 surprised.\n"
	                    "The surprised cannot act in the first round of combat.\n");
	gm("turn move running");
	holds(gm("wander classic 6"), "The party is running, so it is surprised");
	/* Crawling in the light: the party may be alert. */
	gm("turn move crawling");
	lacks(gm("wander classic 6"), "surprised by this encounter");
	lacks(gm("tension roll exits:20"), "surprised by this encounter");
	holds(gm("surprise 2"), "Surprise: WIS check DC 12 (d20)\n  1 | ");
	gm("light out all");
	holds(gm("wander classic 6"), dark);
	holds(gm("tension roll exits:20"), dark);
	holds(gm("surprise 1"),
	      "In total darkness any encounter surprises the party, and it makes no check");
}

/* 003's walking and running are paces, and a party resting is not moving:
 * on a rest turn (the turn just passed was /rest) only total darkness
 * surprises it by every encounter, for /surprise, a tension roll and
 * every wandering check alike (a rest turn's hazard die already read it
 * so); each says why. The next turn passed ends the rest. */
static void
delving_party_resting_is_not_walking(void **unused)
{
	static const char walking[] = "The party is walking, so it is surprised by this encounter.";
	static const char spared[] = "The party is resting, not walking, so it is not surprised by "
	                             "every encounter (total darkness would still do that).\n";
	(void)unused;
	gm("gm claim");
	gm("hazard table delving");
	gm("light add torch");
	gm("turn move walking");
	gm("rest hazard:false");
	assert_string_equal(gm("surprise 2"), "Surprise: WIS check DC 12 (d20)\n"
	                                      "  1 | 6 surprised\n"
	                                      "  2 | 19 alert\n"
	                                      "Party: 1 of 2 surprised.\n"
	                                      "The surprised cannot act in the first round of "
	                                      "combat.\n"
	                                      "The party is resting, not walking, so it is not "
	                                      "surprised by every encounter (total darkness would "
	                                      "still do that).\n");
	lacks(gm("wander classic 6"), walking);
	holds(gm("wander classic 6"), spared);
	holds(gm("wander tension exits:20"), spared);
	holds(gm("tension roll exits:20"), spared);
	gm("light out all");
	holds(gm("surprise 1"),
	      "In total darkness any encounter surprises the party, and it makes no check");
	holds(gm("tension roll exits:20"),
	      "In total darkness the party is surprised by this encounter.");
	gm("light add torch");
	gm("turn advance");
	holds(gm("surprise 1"), "The party is walking, so any encounter surprises it");
	holds(gm("tension roll exits:20"), walking);
}

/* The exploration procedure has no such rule: a wandering check leaves
 * surprise to the check. */
static void
exploration_party_may_be_alert(void **unused)
{
	(void)unused;
	gm("gm claim");
	gm("turn move walking");
	lacks(gm("wander classic 6"), "surprised by this encounter");
	lacks(gm("tension roll exits:20"), "surprised by this encounter");
	holds(gm("surprise 2"), "Surprise: WIS check DC 12 (d20)\n  1 | ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(delving_party_surprised_by_every_encounter, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(delving_party_resting_is_not_walking, setup, teardown),
	    cmocka_unit_test_setup_teardown(exploration_party_may_be_alert, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
