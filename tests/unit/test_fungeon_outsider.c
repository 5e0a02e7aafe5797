/* The outsider's play of Fungeon against rule text 000 (notes/fun23.md,
 * F1 to F7), each finding played at a table as the report found it, with
 * what the text wants instead. */
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

/* Cuts text after the end of its first line that starts at from; returns
 * from, which must be in text. */
static char *
line_at(char *from)
{
	char *end;

	assert_non_null(from);
	end = strchr(from, '\n');
	if (end != NULL)
		end[1] = '\0';
	return from;
}

/* The part of text from its "3. Painful conflict" line on. */
static char *
step3(char *text)
{
	char *s = strstr(text, "3. Painful conflict\n");

	assert_non_null(s);
	return s;
}

static const char *const rat_room[] = {"/fungeon monster add rat level 6", NULL};

#define BONUS_UNUSED                                                                               \
	"bonus: counts only against a special ability; no monster uses one this turn.\n"

/* F1 (lines 123, 140): a monster's attacks are Universal Damage, so in
 * step 3 nobody adds a class bonus against them: a level 2 fire mage of
 * class type fire rolls 2 dice against a rat of no type, and bonus:
 * naming a Fungeoneer adds no die there either, and with no ability
 * used the turn's reply says so in step 2 (fun25 G2). */
static void
f1_no_class_bonus_against_monster_attacks(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 2 type:fire");
	fgtable_room_made(t, rat_room);
	text = fgtable_said(t, "al", "/fungeon combat");
	assert_string_equal(line_at(strstr(step3(text), "Brix (bo): ")), "Brix (bo): 5 1\n");
	assert_null(strstr(text, BONUS_UNUSED));
	free(text);
	text = fgtable_said(t, "al", "/fungeon combat bonus:Al");
	assert_string_equal(line_at(strstr(step3(text), "Al (al): ")), "Al (al): 6 5\n");
	assert_non_null(strstr(text, "2. Special abilities\nNone.\n" BONUS_UNUSED "3. Painful"));
	free(text);
	fgtable_free(t);
}

static const char *const spark_room[] = {"/fungeon trap add spark annoy 2 pain 1 type fire", NULL};

/* F3 (line 260, the Fire Mage against a Flaming Column Trap): a
 * Fungeoneer whose class is tied to a trap's type counts the class bonus
 * when triggering it: Brix, a level 2 fire mage of class type fire, rolls
 * 2 + 1 dice against a fire trap. */
static void
f3_triggering_counts_the_class_bonus(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 2 type:fire");
	fgtable_room_made(t, spark_room);
	text = fgtable_said(t, "bo", "/fungeon trigger spark");
	fgtable_holds(text, "spark: 2 4 → 4\nBrix (bo): 2 3 1 → 3, fails\n");
	free(text);
	fgtable_free(t);
}

/* F3, the hallway: the re-roll of a trap's continuous damage is its Annoy
 * roll again, so the class bonus counts there too when the class fits:
 * Brix rolls 3 dice against a fire trap's continuous damage. */
static void
f3_hallway_re_roll_counts_the_class_bonus(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_TRAP,
	                           .source = "brand",
	                           .annoy = 2,
	                           .pain = 1,
	                           .type = "fire"};
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "bo", "/fungeon join Brix fire-mage 2 type:fire");
	assert_int_equal(fungeon_effect_add(&fgtable_fungeon(t)->m[1], &e), 0);
	text = fgtable_said(t, "al", "/fungeon hallway");
	fgtable_holds(text, "brand: 3 1 → 3\nBrix (bo): 2 1 2 → 2, fails\n");
	free(text);
	fgtable_free(t);
}

static const char *const dart_room[] = {"/fungeon trap add dart annoy 2 pain 1 type darts", NULL};

/* F5 (line 94, "whoever rolls highest has the dubious honor of avoiding
 * the Trap"): one avoids it; a tie for the highest die + level is
 * re-rolled among the tied, shown, and the others are caught. */
static void
f5_a_tie_to_avoid_a_trap_is_re_rolled(void **unused)
{
	struct fgtable *t = fgtable_new(23);
	char *text;

	(void)unused;
	fgtable_fighters(t, 4, 2);
	fgtable_room_made(t, dart_room);
	text = fgtable_said(t, fgtable_holder(t, FUNGEON_CAT_TRAPS), "/fungeon trigger dart all");
	fgtable_holds(text, "Al (al): 6 + 2 = 8, tied for highest\n"
	                    "Bo (bo): 6 + 2 = 8, tied for highest\n"
	                    "Cy (cy): 2 + 2 = 4, is caught\n"
	                    "Di (di): 2 + 2 = 4, is caught\n"
	                    "Tie at 8, re-rolled: Al 5, Bo 6\n"
	                    "Bo avoids it.\n");
	fgtable_holds(text, "Those caught roll against dart:\ndart: 4 5 → 5\n"
	                    "Al (al): 4 5 → 5, succeeds (+2 XP)\n"
	                    "Cy (cy): 1 3 → 3, fails\nDi (di): 1 1 → 1, fails\n");
	free(text);
	fgtable_free(t);
}

/* The Fungeoneer of user u, one of fgtable_fighters()'s: "al" plays Al. */
static void
fighter_of(const char *u, char *name)
{
	name[0] = (char)(u[0] - 'a' + 'A');
	name[1] = u[1];
	name[2] = '\0';
}

/* Kills the Fungeoneer of user u by its player's own adjustment, and
 * returns the refusal its player gets from then on. */
static void
dies(struct fgtable *t, const char *u, char *want, size_t len)
{
	char line[80], name[3];

	fighter_of(u, name);
	snprintf(line, sizeof(line), "/fungeon adjust %s hits:-10", name);
	fgtable_ok(t, u, line);
	snprintf(want, len, "%s is dead: %s is out of the game until the next hallway.", name, u);
}

/* F4 (line 254: a dead Fungeoneer's player "is out of the game until the
 * party is next in the Hallway"): the maker of a trap and a monster whose
 * Fungeoneer died is refused, for that reason, what they would do with
 * them: triggering it on another or on everyone, renaming it, aiming the
 * monster. The trap still springs when another triggers it. */
static void
f4_a_dead_maker_is_out_of_the_game(void **unused)
{
	static const char *const d[] = {"/fungeon trap add pit annoy 2 pain 1 type spikes",
	                                "/fungeon monster add rat level 2", NULL};
	struct fgtable *t = fgtable_new(1);
	const char *traps, *monsters, *third = NULL;
	char want[120], line[80], name[3];

	(void)unused;
	fgtable_fighters(t, 3, 2);
	fgtable_room_made(t, d);
	traps = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	monsters = fgtable_holder(t, FUNGEON_CAT_MONSTERS);
	for (const char *const *u = (const char *const[]){"al", "bo", "cy", NULL}; *u; u++)
		if (strcmp(*u, traps) != 0 && strcmp(*u, monsters) != 0)
			third = *u;
	assert_non_null(third);
	fighter_of(third, name);
	dies(t, traps, want, sizeof(want));
	snprintf(line, sizeof(line), "/fungeon trigger pit %s", name);
	fgtable_fails_unchanged(t, traps, line, want);
	fgtable_fails_unchanged(t, traps, "/fungeon trigger pit all", want);
	fgtable_fails_unchanged(t, traps, "/fungeon trap rename pit chasm", want);
	dies(t, monsters, want, sizeof(want));
	fgtable_fails_unchanged(t, monsters, "/fungeon monster rename rat mouse", want);
	snprintf(line, sizeof(line), "/fungeon orders targets:rat>%s", name);
	fgtable_fails_unchanged(t, monsters, line, want);
	fgtable_says(t, third, "/fungeon trigger pit", "Triggering pit");
	fgtable_free(t);
}

/* F7: a parse error names the real problem: the word after ability is
 * the ability's name, so "ability annoy 2" leaves the 2 over; a word
 * left over after join's places are filled names the word before it
 * that took the last place (the class type). */
static void
f7_parse_errors_name_the_word_taken(void **unused)
{
	struct fgtable *t = fgtable_new(1);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon cost monster level 2 ability annoy 2 type x",
	                        "'2' is left over: 'annoy' was taken as the ability's name, since "
	                        "the word after ability names it; name it first (ability breath "
	                        "annoy 2).");
	fgtable_fails_unchanged(t, "al", "/fungeon join Alba wizard 2 extra words here",
	                        "Unexpected 'words' ('extra' before it filled type:, the last "
	                        "place); "
	                        "usage: /fungeon join <name> <class> [level] [type]");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f1_no_class_bonus_against_monster_attacks),
	    cmocka_unit_test(f3_triggering_counts_the_class_bonus),
	    cmocka_unit_test(f3_hallway_re_roll_counts_the_class_bonus),
	    cmocka_unit_test(f5_a_tie_to_avoid_a_trap_is_re_rolled),
	    cmocka_unit_test(f4_a_dead_maker_is_out_of_the_game),
	    cmocka_unit_test(f7_parse_errors_name_the_word_taken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
