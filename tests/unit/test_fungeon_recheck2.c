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

/* F4: the CJK labels a level joined to its number is known by ("レベル3")
 * are known apart from it too, as "level" is: bare "レベル 3" made a class
 * "レベル", and the refusal of the quoted form proposed exactly that. A
 * label before a word that names no number is a class ("Level Drainer");
 * a label in a language the bot does not read is a class, as free text
 * (rule text line 16). */
static void
f4_a_level_label_is_no_class_in_either_alphabet(void **unused)
{
	struct fgtable *t = fgtable_new(2404);

	(void)unused;
	fgtable_fails_unchanged(
	    t, "b3", "/fungeon join X3 \xe3\x83\xac\xe3\x83\x99\xe3\x83\xab 3",
	    "'\xe3\x83\xac\xe3\x83\x99\xe3\x83\xab' reads as a level's label, not a "
	    "class: a class is any career, such as fighter (/fungeon join X3 "
	    "CLASS 3).");
	fgtable_fails_unchanged(
	    t, "a20", "/fungeon join Vee20 \"\xe3\x83\xac\xe3\x83\x99\xe3\x83\xab 3\"",
	    "'\xe3\x83\xac\xe3\x83\x99\xe3\x83\xab 3' reads as a level, not a class: a "
	    "class is any career, such as fighter, and the level is typed "
	    "after it as a word of its own, in the digits 0 to 9 (/fungeon "
	    "join Vee20 CLASS 3).");
	fgtable_fails_unchanged(
	    t, "b4", "/fungeon join X4 fighter \xe7\xad\x89\xe7\xba\xa7 3",
	    "'\xe7\xad\x89\xe7\xba\xa7' is a level's label, not a class type, and the "
	    "level is 3 already: type the level alone, in the digits 0 to 9 "
	    "(/fungeon join X4 fighter 3), and a class type as a word such as "
	    "fire (type:fire).");
	fgtable_says(t, "b6", "/fungeon join X6 \"Level Drainer\" 2",
	             "b6 joins as X6, level 2 Level Drainer: 10 hits");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f3_a_routed_type_given_again_is_explained),
	    cmocka_unit_test(f4_a_level_label_is_no_class_in_either_alphabet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
