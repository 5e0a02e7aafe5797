/* The second outside recheck's findings on Fungeon's join (F3, F4): each
 * played at a table as the report found it, with what the rule text (line
 * 16: a class is any career, "Shadow Mage or Drazzorian Puddle Thumper";
 * line 18: a level is a number) and delver(7) want instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/helpers/fgtable.h"

/* F3: a word typed where the level goes becomes the class type; when the
 * type is then given by name too, the refusal says which word became the
 * type and how to quote a class of several words, rather than that type:
 * was typed twice (the player typed it once). */
static void
f3_a_routed_type_given_again_is_explained(void **unused)
{
	struct fgtable *t = fgtable_new(2403);

	(void)unused;
	fgtable_fails_unchanged(t, "b5", "/fungeon join X5 Shadow Mage 3 type:fire",
	                        "'Mage' stands where the level goes, so it was taken as the type, "
	                        "and type:fire gives the type again; if \"Shadow Mage\" is one "
	                        "class, quote it (/fungeon join X5 \"Shadow Mage\" 3 type:fire).");
	fgtable_fails_unchanged(t, "b5", "/fungeon join X5 Thrice-Mad Barbarian type:fire",
	                        "'Barbarian' stands where the level goes, so it was taken as the "
	                        "type, and type:fire gives the type again; if \"Thrice-Mad "
	                        "Barbarian\" is one class, quote it (/fungeon join X5 \"Thrice-Mad "
	                        "Barbarian\" type:fire).");
	/* the corrected command joins */
	fgtable_says(t, "b5", "/fungeon join X5 \"Shadow Mage\" 3 type:fire",
	             "b5 joins as X5, level 3 Shadow Mage (class type fire): 15 hits");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f3_a_routed_type_given_again_is_explained),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
