/* Unit tests for rules/hazard and rules/xin: every row of both d6 tables,
 * classic X-in-N, custom tables and their keywords, die sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "rules/procedure/hazard.h"
#include "rules/base/rng.h"
#include "rules/procedure/odds.h"

static const struct odds d6 = {1, 6};

struct expect {
	int roll;
	enum hazard_effect effect;
	const char *text;
};

static void
check_rows(enum hazard_table t, const struct expect *e, size_t n)
{
	struct hazard_view v;

	assert_int_equal(hazard_view(t, d6, NULL, PROC_EXPLORATION, &v), 0);
	assert_int_equal(v.die, 6);
	for (size_t i = 0; i < n; i++) {
		const struct hazard_row *row = &v.rows[hazard_row_of(&v, e[i].roll)];

		assert_true(e[i].roll >= row->lo && e[i].roll <= row->hi);
		assert_int_equal(row->effect, e[i].effect);
		assert_string_equal(row->text, e[i].text);
	}
}

static void
exploration_every_row(void **unused)
{
	static const struct expect e[] = {
	    {1, HZ_ENCOUNTER, "Encounter: a wandering monster appears"},
	    {2, HZ_SIGN, "Sign: noise, smell, tracks or a shadow hint at nearby danger"},
	    {3, HZ_LIGHT, "Light: a torch sputters out or lantern oil runs low"},
	    {4, HZ_FATIGUE_SAVE,
	     "Fatigue: rest 1 turn now, or each character makes a CON save DC 12; on a failure "
	     "gain 1 Fatigue"},
	    {5, HZ_NOTHING, "Nothing: the turn passes"},
	    {6, HZ_NOTHING, "Nothing: the turn passes"},
	};
	struct hazard_view v;

	check_rows(HAZARD_EXPLORATION, e, 6);
	hazard_view(HAZARD_EXPLORATION, d6, NULL, PROC_EXPLORATION, &v);
	assert_int_equal(v.n, 5); /* 5-6 is one row */
	assert_int_equal(v.rows[4].lo, 5);
	assert_int_equal(v.rows[4].hi, 6);
}

static void
delving_every_row(void **unused)
{
	static const struct expect e[] = {
	    {1, HZ_ENCOUNTER,
	     "Encounter, usually from the dungeon's encounter table (reaction, activity, distance, "
	     "surprise are the GM's)"},
	    {2, HZ_FATIGUE_DAMAGE,
	     "Fatigue: each party member takes 1 damage (more where conditions are harsh) unless "
	     "the party rests next turn; ignored while resting"},
	    {3, HZ_BURN, "Burn: lit torches burn out (new ones can be lit from the embers)"},
	    {4, HZ_SHIFT,
	     "Dungeon shift: the environment changes (sounds, temperature, wind, debris, "
	     "apparitions, vermin)"},
	    {5, HZ_SIGN_CREATURE,
	     "Sign: roll an encounter but meet only its sign; the next encounter rolled is that "
	     "creature"},
	    {6, HZ_NOTHING, "Free: no effect"},
	};
	struct hazard_view v;

	check_rows(HAZARD_DELVING, e, 6);
	hazard_view(HAZARD_DELVING, d6, NULL, PROC_DELVING, &v);
	assert_int_equal(v.n, 6);
}

static void
classic_x_in_n(void **unused)
{
	struct hazard_view v;

	assert_int_equal(
	    hazard_view(HAZARD_CLASSIC, (struct odds){2, 6}, NULL, PROC_EXPLORATION, &v), 0);
	assert_int_equal(v.die, 6);
	assert_int_equal(v.n, 2);
	assert_int_equal(v.rows[hazard_row_of(&v, 1)].effect, HZ_ENCOUNTER);
	assert_int_equal(v.rows[hazard_row_of(&v, 2)].effect, HZ_ENCOUNTER);
	assert_int_equal(v.rows[hazard_row_of(&v, 3)].effect, HZ_NOTHING);
	assert_int_equal(v.rows[hazard_row_of(&v, 6)].effect, HZ_NOTHING);
	/* 1-in-20 on a d20 */
	hazard_view(HAZARD_CLASSIC, (struct odds){1, 20}, NULL, PROC_EXPLORATION, &v);
	assert_int_equal(v.die, 20);
	assert_int_equal(v.rows[0].hi, 1);
	assert_int_equal(v.rows[1].lo, 2);
	assert_int_equal(v.rows[1].hi, 20);
	/* N-in-N: one row, always an encounter */
	hazard_view(HAZARD_CLASSIC, (struct odds){6, 6}, NULL, PROC_EXPLORATION, &v);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.rows[0].hi, 6);
}

static void
custom_tables_and_keywords(void **unused)
{
	struct roll_table t;
	struct hazard_view v;
	char err[200];

	assert_int_equal(hazard_view(HAZARD_CUSTOM, d6, NULL, PROC_EXPLORATION, &v), -1);
	assert_int_equal(roll_table_parse("1 Encounter: 1d4 rats; 2-3 Sign; 4 Light; 5 Lights out; "
	                                  "6-7 Fatigue; 8 dripping water",
	                                  1, 8, &t, err, sizeof(err)),
	                 0);
	assert_int_equal(hazard_view(HAZARD_CUSTOM, d6, &t, PROC_EXPLORATION, &v), 0);
	assert_int_equal(v.die, 8);
	assert_int_equal(v.n, 6);
	assert_string_equal(v.rows[0].text, "Encounter: 1d4 rats");
	assert_int_equal(v.rows[0].effect, HZ_ENCOUNTER);
	assert_int_equal(v.rows[hazard_row_of(&v, 3)].effect, HZ_SIGN);
	assert_int_equal(v.rows[hazard_row_of(&v, 4)].effect, HZ_LIGHT);
	assert_int_equal(v.rows[hazard_row_of(&v, 5)].effect, HZ_TEXT);
	assert_int_equal(v.rows[hazard_row_of(&v, 7)].effect, HZ_FATIGUE_SAVE);
	assert_int_equal(v.rows[hazard_row_of(&v, 8)].effect, HZ_TEXT);
	/* the same table kept the delving way */
	hazard_view(HAZARD_CUSTOM, d6, &t, PROC_DELVING, &v);
	assert_int_equal(v.rows[hazard_row_of(&v, 2)].effect, HZ_SIGN_CREATURE);
	assert_int_equal(v.rows[hazard_row_of(&v, 6)].effect, HZ_FATIGUE_DAMAGE);
}

static void
keywords(void **unused)
{
	assert_int_equal(hazard_keyword("burn", PROC_EXPLORATION), HZ_BURN);
	assert_int_equal(hazard_keyword("BURN!", PROC_EXPLORATION), HZ_BURN);
	assert_int_equal(hazard_keyword("Burning oil", PROC_EXPLORATION), HZ_TEXT);
	assert_int_equal(hazard_keyword("Dungeon shift: rubble", PROC_DELVING), HZ_SHIFT);
	assert_int_equal(hazard_keyword("Shift", PROC_DELVING), HZ_SHIFT);
	assert_int_equal(hazard_keyword("Dungeon", PROC_DELVING), HZ_TEXT);
	assert_int_equal(hazard_keyword("Free", PROC_DELVING), HZ_NOTHING);
	assert_int_equal(hazard_keyword("Nothing happens", PROC_DELVING), HZ_NOTHING);
	assert_int_equal(hazard_keyword("Sign-post", PROC_DELVING), HZ_TEXT);
	assert_int_equal(hazard_keyword("", PROC_DELVING), HZ_TEXT);
}

static void
rolls_the_views_die(void **unused)
{
	struct rng *a = rng_new_seeded(42), *b = rng_new_seeded(42);
	struct hazard_view v;
	int seen[7] = {0};

	hazard_view(HAZARD_EXPLORATION, d6, NULL, PROC_EXPLORATION, &v);
	for (int i = 0; i < 600; i++) {
		size_t row;
		int roll = hazard_roll(a, &v, &row);

		assert_int_equal(roll, rng_die(b, 6));
		assert_int_equal(row, hazard_row_of(&v, roll));
		seen[roll]++;
	}
	for (int i = 1; i <= 6; i++)
		assert_true(seen[i] > 0);
	rng_free(a);
	rng_free(b);
}

static void
die_sizes(void **unused)
{
	char err[200];
	int s = 0;

	assert_int_equal(hazard_parse_die("d8", &s, err, sizeof(err)), 0);
	assert_int_equal(s, 8);
	assert_int_equal(hazard_parse_die("D100", &s, err, sizeof(err)), 0);
	assert_int_equal(s, 100);
	assert_int_equal(hazard_parse_die("2", &s, err, sizeof(err)), 0);
	assert_int_equal(s, 2);
	assert_int_equal(hazard_parse_die("d1", &s, err, sizeof(err)), -1);
	assert_string_equal(
	    err, "'d1' is not a die for a hazard table; give d2 to d100 (e.g. d6 or d8).");
	assert_int_equal(hazard_parse_die("d101", &s, err, sizeof(err)), -1);
	assert_int_equal(hazard_parse_die("d", &s, err, sizeof(err)), -1);
	assert_int_equal(hazard_parse_die("d6x", &s, err, sizeof(err)), -1);
	assert_int_equal(hazard_parse_die("d0006", &s, err, sizeof(err)), -1);
	assert_int_equal(s, 2);
}

static void
names(void **unused)
{
	assert_int_equal(hazard_table_parse("Delving"), HAZARD_DELVING);
	assert_int_equal(hazard_table_parse("custom"), HAZARD_CUSTOM);
	assert_int_equal(hazard_table_parse("dungeon"), -1);
	assert_string_equal(hazard_table_name(HAZARD_CLASSIC), "classic");
	assert_int_equal(hazard_procedure_parse("delving"), PROC_DELVING);
	assert_int_equal(hazard_procedure_parse("classic"), -1);
	assert_string_equal(hazard_procedure_name(PROC_EXPLORATION), "exploration");
}

static void
x_in_n(void **unused)
{
	struct odds c = {0, 0};
	char err[200];
	struct rng *a = rng_new_seeded(7), *b = rng_new_seeded(7);

	assert_int_equal(odds_check(7, 6, err, sizeof(err)), -1);
	assert_string_equal(err, "7-in-6 is not a chance; X must be from 1 to 6 on a d6.");
	assert_int_equal(odds_check(0, 6, err, sizeof(err)), -1);
	assert_int_equal(odds_check(1, 1, err, sizeof(err)), -1);
	assert_string_equal(
	    err, "A 1-sided die cannot be used for X-in-N odds; N must be from 2 to 100.");
	assert_int_equal(odds_check(1, 101, err, sizeof(err)), -1);
	assert_int_equal(odds_check(6, 6, err, sizeof(err)), 0);
	assert_int_equal(odds_parse("2-in-6", &c, err, sizeof(err)), 0);
	assert_int_equal(c.x, 2);
	assert_int_equal(c.n, 6);
	assert_int_equal(odds_parse("3in8", &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 8);
	assert_int_equal(odds_parse("1/20", &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 20);
	assert_int_equal(odds_parse("2", &c, err, sizeof(err)), 0);
	assert_int_equal(c.x, 2);
	assert_int_equal(c.n, 6);
	/* recheck3 F11: the texts' "X in N", and X N, as /wander's numbers */
	assert_int_equal(odds_parse("3 in 8", &c, err, sizeof(err)), 0);
	assert_int_equal(c.x, 3);
	assert_int_equal(c.n, 8);
	assert_int_equal(odds_parse(" 1 IN 20 ", &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 20);
	assert_int_equal(odds_parse("4 10", &c, err, sizeof(err)), 0);
	assert_int_equal(c.x, 4);
	assert_int_equal(c.n, 10);
	assert_int_equal(odds_parse("2", &c, err, sizeof(err)), 0);
	assert_int_equal(odds_parse("7-in-6", &c, err, sizeof(err)), -1);
	assert_int_equal(odds_parse("two", &c, err, sizeof(err)), -1);
	assert_string_equal(err, "'two' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 "
	                         "6), or X alone for X-in-6 (2 is 2-in-6).");
	/* recheck5 F2: odds that are odds but for an invisible character
	 * name it (the quote alone reads as right odds) */
	assert_int_equal(odds_parse("2\xe2\x80\x8b", &c, err, sizeof(err)), -1);
	assert_string_equal(err, "'2' with an invisible character U+200B at column 2 is not a "
	                         "chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone "
	                         "for X-in-6 (2 is 2-in-6).");
	assert_int_equal(odds_parse("2 i\xe2\x80\xaen 6", &c, err, sizeof(err)), -1);
	assert_string_equal(err, "'2 in 6' with an invisible character U+202E at column 4 is not "
	                         "a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X "
	                         "alone for X-in-6 (2 is 2-in-6).");
	assert_int_equal(odds_parse("2-of-6", &c, err, sizeof(err)), -1);
	assert_int_equal(odds_parse("1 in", &c, err, sizeof(err)), -1);
	assert_int_equal(odds_parse("1 inch 6", &c, err, sizeof(err)), -1);
	assert_int_equal(odds_parse("1 in6", &c, err, sizeof(err)), -1);
	assert_int_equal(odds_parse("1 6 8", &c, err, sizeof(err)), -1);
	assert_int_equal(odds_parse("2 /6", &c, err, sizeof(err)), -1);
	assert_int_equal(c.x, 2); /* untouched by the errors */
	for (int i = 0; i < 200; i++) {
		bool hit;
		int roll = odds_roll(a, (struct odds){2, 6}, &hit), want = (int)rng_die(b, 6);

		assert_int_equal(roll, want);
		assert_int_equal(hit, want <= 2);
	}
	rng_free(a);
	rng_free(b);
}

/* The shape of odds as one word, which the option parser tells from other
 * words by: whether its numbers make a chance is odds_parse's to say. */
static void
odds_written_as_one_word(void **unused)
{
	(void)unused;
	assert_true(odds_one_word("2/6"));
	assert_true(odds_one_word("2-in-6"));
	assert_true(odds_one_word("2IN6"));
	assert_true(odds_one_word("1000/6"));
	assert_false(odds_one_word("2"));
	assert_false(odds_one_word("2 in 6"));
	assert_false(odds_one_word("2in"));
	assert_false(odds_one_word("in6"));
	assert_false(odds_one_word("2/6x"));
	assert_false(odds_one_word("2-in6"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(exploration_every_row),
	    cmocka_unit_test(delving_every_row),
	    cmocka_unit_test(classic_x_in_n),
	    cmocka_unit_test(odds_written_as_one_word),
	    cmocka_unit_test(custom_tables_and_keywords),
	    cmocka_unit_test(keywords),
	    cmocka_unit_test(rolls_the_views_die),
	    cmocka_unit_test(die_sizes),
	    cmocka_unit_test(names),
	    cmocka_unit_test(x_in_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
