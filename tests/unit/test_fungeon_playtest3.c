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

#include "commands/fungeon/fungeon_channel.h"
#include "tests/unit/helpers/fgtable.h"

/* F3 ("Heading Back to Town": hits heal only through magic treasure during
 * one dungeon): a new dungeon begins with every living Fungeoneer's hits
 * whole (a Ruling), whether it starts at the entrance or in a hallway;
 * in town before it they stay as they were. */
static void
f3_hits_heal_between_dungeons(void **unused)
{
	struct fgtable *t = fgtable_new(5);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "bo", "/fungeon join Bo fighter 2");
	for (int round = 0; round < 2; round++) {
		fgtable_ok(t, "al", "/fungeon hallway");
		fgtable_pick_all(t);
		fgtable_ok(t, "al", "/fungeon enter waive:true");
		fgtable_gm(t, "/fungeon adjust Al hits:-4");
		fgtable_ok(t, "al", "/fungeon retreat confirm:true");
		c = fgtable_fungeon(t);
		assert_int_equal(c->d.phase, FUNGEON_TOWN);
		assert_int_equal(c->m[0].hits, 6);
		assert_int_equal(c->m[1].hits, 10);
		text = fgtable_said(t, "bo", round == 0 ? "/fungeon entrance" : "/fungeon hallway");
		fgtable_holds(text, "Hits heal between dungeons (a Ruling): Al 6 → 10/10.\n");
		assert_null(strstr(text, "Bo 10"));
		free(text);
		assert_int_equal(c->m[0].hits, 10);
		if (round == 0) {
			fgtable_ok(t, "al", "/fungeon retreat confirm:true");
			assert_int_equal(c->d.phase, FUNGEON_TOWN);
		}
	}
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f3_hits_heal_between_dungeons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
