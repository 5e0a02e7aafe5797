/* The outside check's findings (fcheck) on the rule texts at the table:
 * each played as the report found it, with what the text (000 Fungeon,
 * 004 safe areas) wants instead. */
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

/* F6 (text 000, line 136: the Monsters player is "required to have them
 * attack the Players"): a monster's standing order and its aim of the
 * turn name a Fungeoneer; one aimed at a monster is refused, saying whom
 * it may aim at. A Fungeoneer may still aim at another Fungeoneer. */
static void
f6_a_monster_attacks_the_party(void **unused)
{
	struct fgtable *t = fgtable_new(135);

	(void)unused;
	fgtable_three(t, two_monsters);
	fgtable_fails_unchanged(t, "cy", "/fungeon orders targets:ooze>bat",
	                        "ooze is a monster, and its maker is required to have it attack "
	                        "the players: aim it at Al, Bo or Cy, not at bat.");
	fgtable_fails_unchanged(t, "cy", "/fungeon combat targets:bat>ooze",
	                        "bat is a monster, and its maker is required to have it attack "
	                        "the players: aim it at Al, Bo or Cy, not at ooze.");
	fgtable_says(t, "cy", "/fungeon orders targets:ooze>Bo",
	             "ooze's won ranks hurt Bo in this room's fights.");
	fgtable_says(t, "al", "/fungeon orders targets:Al>Bo",
	             "Al's won ranks hurt Bo in this room's fights.");
	fgtable_free(t);
}

/* F6: a standing order of a monster at a monster saved before the rule
 * leaves the default in the fight (no monster hurts another). */
static void
f6_an_old_order_at_a_monster_is_the_default(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_three(t, two_monsters);
	c = fgtable_fungeon(t);
	snprintf(c->d.room.p[FUNGEON_MONSTER][0].aim, sizeof(c->d.room.p[FUNGEON_MONSTER][0].aim),
	         "bat");
	snprintf(c->d.room.p[FUNGEON_MONSTER][1].aim, sizeof(c->d.room.p[FUNGEON_MONSTER][1].aim),
	         "ooze");
	text = fgtable_said(t, "cy", "/fungeon combat");
	fgtable_holds(text, "| ooze | 1 → Cy\n");
	fgtable_holds(text, "| bat | 1 → Al\n");
	assert_null(strstr(text, "| ooze | 1 → bat"));
	assert_null(strstr(text, "| bat | 1 → ooze"));
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f6_a_monster_attacks_the_party),
	    cmocka_unit_test(f6_an_old_order_at_a_monster_is_the_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
