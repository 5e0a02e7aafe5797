/* Unit tests for rules/fungeon/fungeon_cost: every worked cost example of RULES.md
 * section 4, the Ruling on odd Annoy counts, the design words and their
 * errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rules/fungeon/fungeon_cost.h"
#include "rules/fungeon/fungeon_name.h"

static int64_t
cost_of(enum fungeon_kind kind, const char *spec)
{
	struct fungeon_design d;
	struct fungeon_price p;
	char err[200] = "";

	if (fungeon_cost_parse(kind, spec, &d, err, sizeof(err)) < 0) {
		fail_msg("parse '%s': %s", spec, err);
		return -1;
	}
	if (fungeon_cost_price(&d, &p, err, sizeof(err)) < 0) {
		fail_msg("price '%s': %s", spec, err);
		return -1;
	}
	assert_int_equal(p.total, p.plain << p.ndoubles);
	return p.total;
}

/* The error sentence for spec, or "" when it parses and prices. */
static const char *
error_of(enum fungeon_kind kind, const char *spec)
{
	static char err[300];
	struct fungeon_design d;
	struct fungeon_price p;

	err[0] = '\0';
	if (fungeon_cost_parse(kind, spec, &d, err, sizeof(err)) == 0 &&
	    fungeon_cost_price(&d, &p, err, sizeof(err)) == 0)
		return "";
	assert_true(err[0] != '\0');
	return err;
}

/* The sentence fungeon_cost_check() gives for spec, or "" when it is complete. */
static const char *
check_of(enum fungeon_kind kind, const char *spec)
{
	static char err[300];
	struct fungeon_design d;

	err[0] = '\0';
	if (fungeon_cost_parse(kind, spec, &d, err, sizeof(err)) < 0)
		fail_msg("parse '%s': %s", spec, err);
	if (fungeon_cost_check(&d, err, sizeof(err)) == 0)
		return "";
	assert_true(err[0] != '\0');
	return err;
}

/* Issue 13 #15: every trap and every special ability has a Type. */
static void
traps_and_abilities_need_a_type(void **unused)
{
	assert_string_equal(check_of(FUNGEON_TRAP, "annoy 2 pain 1"),
	                    "A trap needs a Type (fire, poison, arrows...: type WORD).");
	assert_string_equal(check_of(FUNGEON_TRAP, "annoy 2 pain 1 type arrows"), "");
	assert_string_equal(check_of(FUNGEON_MONSTER, "level 2 ability bite annoy 2 pain 1"),
	                    "The ability 'bite' needs a Type (fire, poison, claws...: type WORD "
	                    "after it).");
	assert_string_equal(
	    check_of(FUNGEON_MONSTER, "level 2 ability bite annoy 2 pain 1 type claws"), "");
	assert_string_equal(check_of(FUNGEON_MONSTER, "level 4"), "");
	assert_string_equal(check_of(FUNGEON_TREASURE, "fancy value 1"), "");
}

/* The play-test's question on traps without Pain dice: a trap has Annoy
 * and Pain dice (line 88) and deals a Type of damage (line 90), so a trap
 * with no Pain die is refused; only Annoy needs a whole point (line 107). */
static void
traps_need_pain_dice(void **unused)
{
	assert_string_equal(check_of(FUNGEON_TRAP, "annoy 2 guards type spikes"),
	                    "A trap has Pain dice as well as Annoy dice and deals damage of its "
	                    "Type: add pain N (1 point a die).");
	assert_string_equal(check_of(FUNGEON_TRAP, "annoy 2 unlimited type blade"),
	                    "A trap has Pain dice as well as Annoy dice and deals damage of its "
	                    "Type: add pain N (1 point a die).");
	assert_string_equal(check_of(FUNGEON_TRAP, "annoy 2 pain 1 guards type spikes"), "");
}

/* Issue 13 #2: a special ability spends at least one point on Annoy dice. */
static void
abilities_need_annoy_dice(void **unused)
{
	assert_string_equal(check_of(FUNGEON_MONSTER, "level 1 ability zap pain 3 type shock"),
	                    "The ability 'zap' needs at least 1 point on Annoy (every special "
	                    "ability spends one: annoy N, 1 point per 2 dice).");
	assert_string_equal(
	    check_of(FUNGEON_MONSTER, "level 1 ability ward resist 2 fire type fire"),
	    "The ability 'ward' needs at least 1 point on Annoy (every special "
	    "ability spends one: annoy N, 1 point per 2 dice).");
	assert_string_equal(
	    check_of(FUNGEON_MONSTER, "level 1 ability zap annoy 1 pain 3 type shock"), "");
}

static void
trap_examples(void **unused)
{
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 2 pain 2"), 3);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 4 pain 2 continuous"), 8);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 2 pain 1"), 2);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 2 pain 1 unlimited"), 4);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 2 pain 1 unlimited universal"), 8);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 2 guards"), 2);
}

static void
odd_annoy_costs_as_next_even(void **unused)
{
	struct fungeon_design d;
	struct fungeon_price p;
	char err[200];

	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 1"), 1);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 3"), 2);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 4"), 2);
	assert_int_equal(cost_of(FUNGEON_TRAP, "annoy 5 pain 1"), 4);
	assert_int_equal(fungeon_cost_parse(FUNGEON_TRAP, "annoy 3 pain 2", &d, err, sizeof(err)),
	                 0);
	assert_int_equal(fungeon_cost_price(&d, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nterms, 2);
	assert_string_equal(p.term[0].what, "annoy 3 as 4");
	assert_int_equal(p.term[0].points, 2);
	assert_string_equal(p.term[1].what, "pain 2");
	assert_int_equal(p.plain, 4);
	assert_int_equal(p.ndoubles, 0);
}

static void
monster_examples(void **unused)
{
	assert_int_equal(
	    cost_of(FUNGEON_MONSTER, "level 3 ability breath annoy 4 pain 2 universal"), 14);
	assert_int_equal(
	    cost_of(FUNGEON_MONSTER, "level 1 ability sting annoy 2 pain 1 continuous"), 6);
	assert_int_equal(cost_of(FUNGEON_MONSTER, "level 4 ability bolt annoy 6 pain 3"), 10);
	assert_int_equal(cost_of(FUNGEON_MONSTER, "level 4"), 4);
	assert_int_equal(fungeon_cost_monster_hits(4), 12);
}

static void
monster_doublings_double_the_whole_sum(void **unused)
{
	struct fungeon_design d;
	struct fungeon_price p;
	char err[200];

	/* 2 + 1 (web annoy 2) + 1 (bite resist 1) = 4 plain, doubled twice */
	assert_int_equal(fungeon_cost_parse(FUNGEON_MONSTER,
	                                    "level 2 ability web annoy 2 hold ability bite "
	                                    "resist 1 fire universal",
	                                    &d, err, sizeof(err)),
	                 0);
	assert_int_equal(fungeon_cost_price(&d, &p, err, sizeof(err)), 0);
	assert_int_equal(p.plain, 4);
	assert_int_equal(p.ndoubles, 2);
	assert_string_equal(p.dbl[0], "web continuous hold");
	assert_string_equal(p.dbl[1], "bite universal damage");
	assert_int_equal(p.total, 16);
}

static void
treasure_examples(void **unused)
{
	assert_int_equal(cost_of(FUNGEON_TREASURE, "fancy heal 1"), 3);
	assert_int_equal(cost_of(FUNGEON_TREASURE, "fancy value 1 pain 1 type fire"), 6);
	assert_int_equal(cost_of(FUNGEON_TREASURE, "fancy pain 3 type fire"), 16);
	/* the ring sells for 3 */
	assert_int_equal(
	    fungeon_cost_sell_credit(cost_of(FUNGEON_TREASURE, "fancy value 1 pain 1 type fire")),
	    3);
	assert_int_equal(cost_of(FUNGEON_TREASURE, "mundane"), 1);
	assert_int_equal(cost_of(FUNGEON_TREASURE, ""), 1);
	assert_int_equal(cost_of(FUNGEON_TREASURE, "mundane value 2"), 3);
	assert_int_equal(cost_of(FUNGEON_TREASURE, "fancy annoy 2 universal"), 8);
	assert_int_equal(cost_of(FUNGEON_TREASURE, "fancy annoy 3 type cold"), 8);
	assert_int_equal(fungeon_cost_sell_credit(3), 1);  /* rounded down, line 297 */
	assert_int_equal(fungeon_cost_sell_credit(11), 5); /* the text's sword */
	assert_int_equal(fungeon_cost_sell_credit(16), 8);
}

static void
design_errors(void **unused)
{
	assert_string_equal(error_of(FUNGEON_TRAP, "pain 2"),
	                    "A trap needs at least 1 point on Annoy: give it annoy N (1 point "
	                    "per 2 dice).");
	assert_string_equal(error_of(FUNGEON_TRAP, "annoy 2 spikes"),
	                    "'spikes' is not a trap feature; the words are annoy N, pain N, "
	                    "guards, unlimited, universal, continuous, type WORD.");
	assert_string_equal(error_of(FUNGEON_TRAP, "annoy 101"),
	                    "'annoy' needs a number from 0 to 100 after it (got '101').");
	assert_string_equal(error_of(FUNGEON_TRAP, "annoy -1"),
	                    "'annoy' needs a number from 0 to 100 after it (got '-1').");
	assert_string_equal(error_of(FUNGEON_TRAP, "annoy"),
	                    "'annoy' needs a number from 0 to 100 after it.");
	assert_string_equal(error_of(FUNGEON_TRAP, "annoy 2 annoy 2"),
	                    "'annoy' is given twice; give each feature once.");
	assert_string_equal(error_of(FUNGEON_TREASURE, "heal 1"),
	                    "Only fancy items may be magic (heal, annoy, pain, universal): add "
	                    "'fancy'.");
	assert_string_equal(error_of(FUNGEON_TREASURE, "fancy pain 1"),
	                    "Magic Annoy or Pain dice need a type ('type fire') or a universal "
	                    "type ('universal').");
	assert_string_equal(error_of(FUNGEON_TREASURE, "fancy mundane"),
	                    "An item is either mundane or fancy, not both.");
	assert_string_equal(error_of(FUNGEON_TREASURE, "fancy pain 30 type fire"),
	                    "That design would cost more than 1000000 points; make it smaller.");
	assert_string_equal(error_of(FUNGEON_MONSTER, "ability bite pain 1"),
	                    "A monster needs its level: level N, from 1 to 60.");
	assert_string_equal(error_of(FUNGEON_MONSTER, "level 61"),
	                    "'level' needs a number from 1 to 60 after it (got '61').");
	assert_string_equal(error_of(FUNGEON_MONSTER, "level 0"),
	                    "'level' needs a number from 1 to 60 after it (got '0').");
	assert_string_equal(error_of(FUNGEON_MONSTER, "level 2 pain 1"),
	                    "'pain' belongs to a special ability: write 'ability NAME' before it.");
	assert_string_equal(error_of(FUNGEON_MONSTER, "level 2 ability bite"),
	                    "The ability 'bite' has no dice: give it annoy N, pain N or resist N "
	                    "TYPE.");
	assert_string_equal(
	    error_of(FUNGEON_MONSTER, "level 2 ability bite pain 1 ability bite pain 1"),
	    "The ability 'bite' is given twice; give each ability a different "
	    "name.");
	assert_string_equal(error_of(FUNGEON_MONSTER, "level 2 ability a:b pain 1"),
	                    "'ability' needs a word after it: 1 to 24 characters with no spaces or "
	                    ": , > / \" #.");
	/* newcomer F25: a word too long says so, quoted cut with a mark */
	assert_string_equal(
	    error_of(FUNGEON_MONSTER, "level 2 ability жжжжжжжжжжжжжжжжжжжжжжжжж pain 1"),
	    "'жжжжжжжжжжжжжжжжжжжжжжжж…' is too long: the word after 'ability' is 1 "
	    "to 24 characters with no spaces or : , > / \" #.");
	assert_string_equal(error_of(FUNGEON_MONSTER,
	                             "level 1 ability a pain 1 ability b pain 1 ability c pain 1 "
	                             "ability d pain 1 ability e pain 1"),
	                    "A monster may have at most 4 special abilities.");
	assert_string_equal(error_of(FUNGEON_MONSTER, "level 1 ability a resist 2"),
	                    "'resist N' needs a word after it: 1 to 16 characters with no spaces "
	                    "or : , > / \" #.");
	assert_string_equal(
	    error_of(FUNGEON_TRAP, "annoy 99999999999999999999"),
	    "'annoy' needs a number from 0 to 100 after it (got '99999999999999999999').");
}

static void
format_round_trips(void **unused)
{
	static const struct {
		enum fungeon_kind kind;
		const char *in, *canon;
	} cases[] = {
	    {FUNGEON_TRAP, "PAIN 2  annoy 3 continuous type fire guards",
	     "annoy 3 pain 2 guards continuous type fire"},
	    {FUNGEON_TRAP, "annoy 2 pain 1 universal unlimited",
	     "annoy 2 pain 1 unlimited universal"},
	    {FUNGEON_MONSTER, "ability breath universal pain 2 annoy 4 level 3",
	     "level 3 ability breath annoy 4 pain 2 universal"},
	    {FUNGEON_MONSTER,
	     "level 2 ability web hold annoy 2 ability hide resist 3 fire type acid",
	     "level 2 ability web annoy 2 hold ability hide resist 3 fire type acid"},
	    {FUNGEON_TREASURE, "pain 1 fancy type fire value 1", "fancy value 1 pain 1 type fire"},
	    {FUNGEON_TREASURE, "", "mundane"},
	    /* found by fuzz_fungeon_cost: zero Resist dice resist nothing */
	    {FUNGEON_MONSTER, "level 2 ability hide resist 0 fire pain 1",
	     "level 2 ability hide pain 1"},
	    /* and a type may be any word, even a feature's */
	    {FUNGEON_TREASURE, "type fancy", "mundane type fancy"},
	    {FUNGEON_MONSTER, "level 1 ability level type level",
	     "level 1 ability level type level"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fungeon_design a, b;
		char err[200], out[FUNGEON_SPEC_MAX + 1], again[FUNGEON_SPEC_MAX + 1];

		assert_int_equal(
		    fungeon_cost_parse(cases[i].kind, cases[i].in, &a, err, sizeof(err)), 0);
		fungeon_cost_format(&a, out, sizeof(out));
		assert_string_equal(out, cases[i].canon);
		assert_int_equal(fungeon_cost_parse(cases[i].kind, out, &b, err, sizeof(err)), 0);
		fungeon_cost_format(&b, again, sizeof(again));
		assert_string_equal(again, out);
		assert_memory_equal(&a, &b, sizeof(a));
	}
}

static void
names(void **unused)
{
	assert_true(fungeon_name_valid("Alba"));
	assert_true(fungeon_name_valid("Brom-2_the'Bold"));
	assert_true(fungeon_name_valid("Élodie"));
	assert_true(fungeon_name_valid("123456789012345678901234"));
	assert_false(fungeon_name_valid("1234567890123456789012345"));
	assert_false(fungeon_name_valid(""));
	assert_false(fungeon_name_valid("two words"));
	assert_false(fungeon_name_valid("a:b"));
	assert_false(fungeon_name_valid("a,b"));
	assert_false(fungeon_name_valid("a>b"));
	assert_false(fungeon_name_valid("a/b"));
	assert_false(fungeon_name_valid("a\tb"));
	assert_false(fungeon_name_valid("a\xc2\xa0"
	                                "b")); /* no-break space */
	assert_false(fungeon_name_valid("a\xc2\x85"
	                                "b")); /* a C1 control */
	assert_false(fungeon_name_valid("\xff"));
}

/* Issue 31: everything a new design lacks is said at once, not one
 * requirement per try. */
static void
all_that_is_missing_at_once(void **unused)
{
	assert_string_equal(
	    check_of(FUNGEON_TRAP, "pain 1"),
	    "A trap needs at least 1 point on Annoy (annoy N, 1 point per 2 dice) and "
	    "a Type (fire, poison, arrows...: type WORD).");
	assert_string_equal(
	    check_of(FUNGEON_MONSTER, "level 2 ability bite pain 1 ability claw "
	                              "annoy 2 ability gaze annoy 1 type eyes"),
	    "The ability 'bite' needs at least 1 point on Annoy (every special "
	    "ability spends one: annoy N, 1 point per 2 dice) and a Type (fire, "
	    "poison, claws...: type WORD after it); the ability 'claw' needs a Type "
	    "(fire, poison, claws...: type WORD after it).");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(traps_and_abilities_need_a_type),
	    cmocka_unit_test(traps_need_pain_dice),
	    cmocka_unit_test(abilities_need_annoy_dice),
	    cmocka_unit_test(all_that_is_missing_at_once),
	    cmocka_unit_test(trap_examples),
	    cmocka_unit_test(odd_annoy_costs_as_next_even),
	    cmocka_unit_test(monster_examples),
	    cmocka_unit_test(monster_doublings_double_the_whole_sum),
	    cmocka_unit_test(treasure_examples),
	    cmocka_unit_test(design_errors),
	    cmocka_unit_test(format_round_trips),
	    cmocka_unit_test(names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
