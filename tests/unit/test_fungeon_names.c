/* Names at a Fungeon table: a player called as a piece of the room is,
 * standing orders that match the name they hold alone, and renaming a
 * trap, monster or treasure. */
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

static const char *const two_monsters[] = {"/fungeon monster add ooze level 6",
                                           "/fungeon monster add bat level 6", NULL};

/* A player whose name a monster of the room has already joins: the join
 * says so; a command that takes a Fungeoneer or a monster refuses that
 * name in one sentence naming both; one that takes a Fungeoneer alone, or
 * a monster alone, finds its own kind. */
static void
a_player_called_as_a_monster(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	const char *holder = "cy"; /* who made the monsters */
	char *text;

	(void)unused;
	fgtable_three(t, two_monsters);
	text = fgtable_said(t, "ooze", "/fungeon join Slime fighter 6");
	fgtable_holds(text, "ooze is also the name of the room's monster ooze: where a command "
	                    "takes either, say Slime for your Fungeoneer; the monster's maker or "
	                    "the GM may rename it (/fungeon monster rename ooze NEW).");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:Al>ooze",
	                        "'ooze' names both the player ooze and the room's monster ooze; "
	                        "say Slime for the first, and for the second its maker or the GM "
	                        "renames it first (/fungeon monster rename ooze NEW).");
	fgtable_fails_unchanged(t, holder, "/fungeon orders targets:ooze>Al",
	                        "'ooze' names both the player ooze and the room's monster ooze; "
	                        "say Slime for the first, and for the second its maker or the GM "
	                        "renames it first (/fungeon monster rename ooze NEW).");
	fgtable_fails_unchanged(t, holder, "/fungeon combat targets:Al>ooze",
	                        "'ooze' names both the player ooze and the room's monster ooze; "
	                        "say Slime for the first, and for the second its maker or the GM "
	                        "renames it first (/fungeon monster rename ooze NEW).");
	/* one kind alone */
	fgtable_says(t, "al", "/fungeon sheet ooze", "Slime");
	fgtable_says(t, "al", "/fungeon orders targets:Al>Slime",
	             "Al's won ranks hurt Slime in this room's fights.");
	fgtable_says(t, holder, "/fungeon orders use:ooze/none",
	             "ooze uses no special ability in this room's fights.");
	fgtable_free(t);
}

/* A standing order aimed at a monster hits that monster alone: not a
 * Fungeoneer whose player took a name like it (another case, here) after
 * the order was given. */
static void
an_order_hits_the_one_it_names(void **unused)
{
	int hits = 0;

	(void)unused;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct fgtable *t = fgtable_new(seed);
		struct fungeon_channel *c;
		char *text;

		fgtable_three(t, two_monsters);
		fgtable_ok(t, "al", "/fungeon orders targets:Al>ooze");
		c = fgtable_fungeon(t);
		snprintf(c->m[1].player, sizeof(c->m[1].player), "OOZE");
		text = fgtable_said(t, "cy", "/fungeon combat");
		assert_null(strstr(text, "| Al | 1 → Bo"));
		assert_null(strstr(text, "| Al | 2 → Bo"));
		hits += strstr(text, "| Al | 1 → ooze") != NULL;

		free(text);
		fgtable_free(t);
	}
	assert_true(hits > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(a_player_called_as_a_monster),
	    cmocka_unit_test(an_order_hits_the_one_it_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
