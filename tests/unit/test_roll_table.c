/* Unit tests for rules/tables/roll_table: parsing, errors, lookup, find, round trip. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/dice/dice.h"
#include "rules/tables/roll_table.h"
#include "rules/tables/roll_table_name.h"
#include "rules/tables/roll_table_dice.h"

static const char *const encounter =
    "1-4 a lost adventurer; 5-8 1d4 goblins; 9-12 2d4 goblins; 13-16 2d6 orcs; 17-20 4d6 orcs";

static void
parses_default_encounters(void **unused)
{
	struct roll_table t;
	char err[200] = "";

	assert_int_equal(roll_table_parse(encounter, 1, 20, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 5);
	assert_int_equal(t.e[1].lo, 5);
	assert_int_equal(t.e[1].hi, 8);
	assert_string_equal(t.e[1].text, "1d4 goblins");
	assert_string_equal(roll_table_lookup(&t, 1)->text, "a lost adventurer");
	assert_string_equal(roll_table_lookup(&t, 4)->text, "a lost adventurer");
	assert_string_equal(roll_table_lookup(&t, 5)->text, "1d4 goblins");
	assert_string_equal(roll_table_lookup(&t, 20)->text, "4d6 orcs");
	/* results outside the span are clamped to it */
	assert_string_equal(roll_table_lookup(&t, 0)->text, "a lost adventurer");
	assert_string_equal(roll_table_lookup(&t, 21)->text, "4d6 orcs");
}

static void
single_results_and_newlines(void **unused)
{
	struct roll_table t;
	char err[200] = "";

	assert_int_equal(roll_table_parse("1 Encounter\n2 Sign\n3-4 Light\n5-6 Nothing", 1, 6, &t,
	                                  err, sizeof(err)),
	                 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(roll_table_lookup(&t, 2)->text, "Sign");
	assert_string_equal(roll_table_lookup(&t, 6)->text, "Nothing");
}

/* A refusal: rc -1, or -2 where more entries could mend the text. */
static void
expect_refusal(const char *text, int lo, int hi, int rc, const char *msg)
{
	struct roll_table t;
	char err[200] = "";

	memset(&t, 0x5a, sizeof(t));
	assert_int_equal(roll_table_parse(text, lo, hi, &t, err, sizeof(err)), rc);
	assert_string_equal(err, msg);
	/* *out is untouched on error */
	assert_int_equal(((unsigned char *)&t)[0], 0x5a);
}

static void
expect_error(const char *text, int lo, int hi, const char *msg)
{
	expect_refusal(text, lo, hi, -1, msg);
}

/* A gap, which entries added could fill. */
static void
expect_gap(const char *text, int lo, int hi, const char *msg)
{
	expect_refusal(text, lo, hi, -2, msg);
}

static void
errors_name_the_entry(void **unused)
{
	expect_error("1-4 a; 5-8 b; 9-8 c; 9-20 d", 1, 20,
	             "entry 3: range 9-8 is reversed; write it low-high.");
	expect_error("1-4 a; 4-8 b; 9-20 c", 1, 20,
	             "entry 2: range 4-8 overlaps entry 1 (1-4): result 4 is in both.");
	expect_gap("1-4 a; 6-20 b", 1, 20, "entry 2: result 5 is not covered by any entry.");
	expect_gap("1-4 a; 7-20 b", 1, 20, "entry 2: results 5-6 are not covered by any entry.");
	expect_gap("1-4 a; 5-19 b", 1, 20, "result 20 is not covered; the entries must reach 20.");
	expect_gap("1-4 a; 5-18 b", 1, 20,
	           "results 19-20 are not covered; the entries must reach 20.");
	expect_error("1-4 a; 5-21 b", 1, 20, "entry 2: range 5-21 is outside 1-20.");
	expect_error("1-4 a; 5-20", 1, 20, "entry 2 has a range but no text.");
	expect_error(
	    "1-4 a; five b", 1, 20,
	    "entry 2: 'five b' does not start with a range like 5 or 5-8 followed by text.");
	expect_error(
	    "1-4a b", 1, 20,
	    "entry 1: '1-4a b' does not start with a range like 5 or 5-8 followed by text.");
	expect_error("  ;  ; ", 1, 20,
	             "the table is empty; give entries like '1-4: text; 5-8: text'.");
	expect_error("1 a\x01; 2-20 b", 1, 20, "entry 1 contains a control character.");
	expect_error("1 \xff; 2-20 b", 1, 20, "entry 1 is not valid UTF-8 text.");
	/* fuzz_table: a C1 control (U+0080, U+008A) that the sanitiser
	 * removes, or a next-line (U+0085) it turns into a space, beside a
	 * middle dot leaves " \xc2\xb7 " in the text made safe: the entries
	 * part there, as the kept text shows them (so "b" stands alone, and
	 * "1-4:" is left with no text) */
	expect_error("1-4 a \xc2\x80\xc2\xb7 b; 5-20 c", 1, 20,
	             "entry 2: 'b' does not start with a range like 5 or 5-8 followed by text.");
	expect_error("1-4 a \xc2\xb7\xc2\x85"
	             "b; 5-20 c",
	             1, 20,
	             "entry 2: 'b' does not start with a range like 5 or 5-8 followed by text.");
	expect_error("1-4:  \xc2\x8a\xc2\xb7 3x; 5-20 c", 1, 20,
	             "entry 1 has a range but no text.");
	/* text that starts with "\xc2\xb7 " would part from its range once shown
	 * after "1-4: " */
	expect_error("1-4:\xc2\xb7 a; 5-20 c", 1, 20,
	             "entry 1 starts with '\xc2\xb7' and a space, which would part it from "
	             "its range when the table is shown; leave out the space after the dot.");
	/* issue 25, finding 15: dice an entry could never roll are refused */
	expect_error("1 1d1000000000 bats; 2-20 b", 1, 20,
	             "entry 1: in '1d1000000000', the dice of the term at column 1 must have "
	             "between 1 and 1000000 sides (got 1000000000).");
	expect_error("1-19 a; 20 1000000d6 gold.", 1, 20,
	             "entry 2: in '1000000d6', the term at column 1 must roll between 1 and "
	             "1000 dice (got 1000000).");
	expect_error(
	    "9999 a", 1, 20,
	    "entry 1: '9999 a' does not start with a range like 5 or 5-8 followed by text.");
}

static void
entry_limits(void **unused)
{
	char text[8192], err[200];
	struct roll_table t;
	size_t off = 0;

	for (int i = 1; i <= ROLL_TABLE_ENTRIES_MAX; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off, "%d e%d;", i, i);
	assert_int_equal(roll_table_parse(text, 1, ROLL_TABLE_ENTRIES_MAX, &t, err, sizeof(err)),
	                 0);
	assert_int_equal(t.n, ROLL_TABLE_ENTRIES_MAX);
	snprintf(text + off, sizeof(text) - off, "%d too many", ROLL_TABLE_ENTRIES_MAX + 1);
	assert_int_equal(
	    roll_table_parse(text, 1, ROLL_TABLE_ENTRIES_MAX + 1, &t, err, sizeof(err)), -1);
	assert_string_equal(err, "a table may have at most 100 entries.");

	memset(text, 'x', sizeof(text));
	memcpy(text, "1-20 ", 5);
	text[5 + ROLL_TABLE_TEXT_MAX] = '\0'; /* text of 161 bytes: one too many */
	assert_int_equal(roll_table_parse(text, 1, 20, &t, err, sizeof(err)), -1);
	assert_string_equal(err, "entry 1 is 161 bytes long; an entry may be at most 160.");
	text[5 + ROLL_TABLE_TEXT_MAX - 1] = '\0';
	assert_int_equal(roll_table_parse(text, 1, 20, &t, err, sizeof(err)), 0);
}

static void
find_by_range_or_name(void **unused)
{
	struct roll_table t;
	char err[200];

	assert_int_equal(roll_table_parse(encounter, 1, 20, &t, err, sizeof(err)), 0);
	assert_int_equal(roll_table_find(&t, "9-12"), 2);
	assert_int_equal(roll_table_find(&t, "10"), 2);
	assert_int_equal(roll_table_find(&t, "9-11"), -1);
	assert_int_equal(roll_table_find(&t, "2d6 ORCS"), 3);
	assert_int_equal(roll_table_find(&t, "adventurer"), 0);
	assert_int_equal(roll_table_find(&t, "goblins"), -2);
	assert_int_equal(roll_table_find(&t, "dragon"), -1);
	assert_int_equal(roll_table_find(&t, "21"), -1);
}

static void
format_round_trips(void **unused)
{
	struct roll_table t, u;
	struct buf b;
	char err[200];

	assert_int_equal(roll_table_parse(encounter, 1, 20, &t, err, sizeof(err)), 0);
	buf_init(&b, 4096);
	roll_table_format(&t, &b);
	assert_string_equal(buf_str(&b), encounter);
	assert_int_equal(roll_table_parse(buf_str(&b), 1, 20, &u, err, sizeof(err)), 0);
	assert_memory_equal(&t, &u, sizeof(t));
	buf_free(&b);
}

/* A range's text: "lo-hi", "n" for one result, "wx" for a weight; cut to
 * the room given, as snprintf cuts. */
static void
range_texts(void **unused)
{
	struct roll_table_entry ranged = {.lo = 10, .hi = 20}, one = {.lo = 7, .hi = 7},
	                        weighted = {.lo = 4, .hi = 6, .weight = 3},
	                        big = {.lo = -2147483647 - 1, .hi = 2147483647};
	char r[32];

	roll_table_range_text(&ranged, r, sizeof(r));
	assert_string_equal(r, "10-20");
	roll_table_range_text(&one, r, sizeof(r));
	assert_string_equal(r, "7");
	roll_table_range_text(&weighted, r, sizeof(r));
	assert_string_equal(r, "3x");
	roll_table_range_text(&big, r, sizeof(r));
	assert_string_equal(r, "-2147483648-2147483647");
	roll_table_range_text(&ranged, r, 3);
	assert_string_equal(r, "10");
	roll_table_range_text(&ranged, r, 1);
	assert_string_equal(r, "");
}

/* A table whose die comes from its text; fails the test on an error. */
static void
parse_die(const char *text, struct roll_table *t)
{
	char err[300] = "";

	if (roll_table_parse_die(text, t, err, sizeof(err)) != 0)
		fail_msg("'%s' did not parse: %s", text, err);
}

static void
expect_die_refusal(const char *text, int rc, const char *msg)
{
	struct roll_table t;
	char err[300] = "";

	memset(&t, 0x5a, sizeof(t));
	assert_int_equal(roll_table_parse_die(text, &t, err, sizeof(err)), rc);
	assert_string_equal(err, msg);
	assert_int_equal(((unsigned char *)&t)[0], 0x5a);
}

static void
expect_die_error(const char *text, const char *msg)
{
	expect_die_refusal(text, -1, msg);
}

/* What entries added could mend: a gap, a largest number short of a die. */
static void
expect_die_gap(const char *text, const char *msg)
{
	expect_die_refusal(text, -2, msg);
}

/* Every way of writing an entry, and the die each table's numbers name. */
static void
every_form_and_its_die(void **unused)
{
	static const struct {
		const char *text;
		int die, lo, hi;
		size_t n;
	} cases[] = {
	    {"1: a; 2: b; 3: c; 4: d", 4, 1, 4, 4},
	    {"1-3: a\n4-6: b", 6, 1, 6, 2},
	    {"1-3 a; 4-6 b", 6, 1, 6, 2},  /* the colon is optional */
	    {"1..4 a; 5–8 b", 8, 1, 8, 2}, /* "..", an en dash */
	    {"1-5: a; 6-10: b", 10, 1, 10, 2},
	    {"1-6: a; 7-12: b", 12, 1, 12, 2},
	    {"1-10: a; 11-20: b", 20, 1, 20, 2},
	    {"01-50: a; 51-00: b", 100, 1, 100, 2}, /* "00" is 100 */
	    {"11-36: a; 41-66: b", 66, 11, 66, 2},
	    {"3x a; 1x b", 4, 1, 4, 2}, /* weights: the die is their sum */
	    {"2× a; 5x: b; 1x c", 8, 1, 8, 3},
	    {"1-2: a · 3-6: b", 6, 1, 6, 2}, /* as IRC joins lines */
	};
	struct roll_table t;

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_die(cases[i].text, &t);
		assert_int_equal(t.die, cases[i].die);
		assert_int_equal(t.lo, cases[i].lo);
		assert_int_equal(t.hi, cases[i].hi);
		assert_int_equal(t.n, cases[i].n);
		assert_string_equal(t.e[0].text, "a");
	}
	/* weights become ranges over their sum, in the order written */
	parse_die("2× a; 5x: b; 1x c", &t);
	assert_true(t.weighted);
	assert_int_equal(t.e[1].lo, 3);
	assert_int_equal(t.e[1].hi, 7);
	assert_int_equal(t.e[1].weight, 5);
	assert_string_equal(roll_table_lookup(&t, 8)->text, "c");
	/* ranges in any order are kept sorted */
	parse_die("5-8: b; 1-4: a", &t);
	assert_string_equal(t.e[0].text, "a");
	assert_int_equal(t.e[1].lo, 5);
	/* a d66 reads tens and units: 17 is no result */
	parse_die("11-36: a; 41-66: b", &t);
	assert_non_null(roll_table_lookup(&t, 36));
	assert_null(roll_table_lookup(&t, 17));
	assert_string_equal(roll_table_lookup(&t, 41)->text, "b");
	assert_true(roll_table_result_ok(&t, 66));
	assert_false(roll_table_result_ok(&t, 60));
}

/* Every refusal of a table with a die of its own, each naming what and
 * where (a gap or an overlap by its numbers). */
static void
die_errors_name_the_numbers(void **unused)
{
	(void)unused;
	expect_die_gap("1-2: a; 4-6: b", "entry 2: result 3 is not covered by any entry.");
	expect_die_error("1-2: a; 2-6: b",
	                 "entry 2: range 2-6 overlaps entry 1 (1-2): result 2 is in both.");
	expect_die_error("1-4: a; 2-3: b; 5-6: c",
	                 "entry 2: range 2-3 overlaps entry 1 (1-4): results 2-3 are in both.");
	expect_die_gap("1-3: a; 4-5: b",
	               "the highest result is 5, which no die gives: the ranges end at 4, 6, 8, "
	               "10, 12, 20, 66 (d66, numbered 11-66) or 100, or every entry is weighted "
	               "(3x text).");
	expect_die_gap("11-16: a; 31-66: b",
	               "entry 2: results 21-26 are not covered by any entry.");
	expect_die_error("11-17: a; 21-66: b",
	                 "entry 1: 17 is not a d66 result; a d66 reads two d6 as tens and units, "
	                 "11 to 66.");
	expect_die_error("1-10: a; 11-66: b", "entry 1: range 1-10 is outside 11-66.");
	expect_die_error("0: a; 1-6: b", "entry 1: result 0 is outside 1-6.");
	expect_die_gap("2-6: a", "entry 1: result 1 is not covered by any entry.");
	expect_die_error("1-3: a; 4-6: b; 4-6: c",
	                 "entry 3: range 4-6 overlaps entry 2 (4-6): results 4-6 are in both.");
	/* past every die: no entry added could end at one */
	expect_die_error(
	    "1-101: a", "the highest result is 101, which no die gives: the ranges end at 4, 6, 8, "
	                "10, 12, 20, 66 (d66, numbered 11-66) or 100, or every entry is weighted "
	                "(3x text).");
	expect_die_error("1-3: a; 3x b",
	                 "entry 2 is weighted but entry 1 is a range; write every entry with a "
	                 "range (5-8: text) or every one with a weight (3x text).");
	expect_die_error("0x a", "entry 1: a weight must be from 1 to 100, not 0.");
	expect_die_error("101x a", "entry 1: a weight must be from 1 to 100, not 101.");
	expect_die_error("3xa", "entry 1: '3xa' does not start with a range like 5 or 5-8 "
	                        "followed by text.");
	expect_die_error("1-6: a [[gems",
	                 "entry 1: '[[gems' is not a reference to a table; write [[name]], a "
	                 "name of letters, digits, - and _.");
	expect_die_error("1-6: a [[two words]]",
	                 "entry 1: '[[two words]]' is not a reference to a table; write [[name]], "
	                 "a name of letters, digits, - and _.");
	expect_die_error("1-6: [[a]] [[b]] [[c]] [[d]]",
	                 "entry 1 names more than 3 tables; an entry may roll at most 3.");
	expect_die_error("1-6: 1d7000000 bats",
	                 "entry 1: in '1d7000000', the dice of the term at column 1 must have "
	                 "between 1 and 1000000 sides (got 7000000).");
	expect_die_error("1-6:", "entry 1 has a range but no text.");
	/* the weighted form is the GM's tables' alone */
	{
		struct roll_table t;
		char err[200];

		assert_int_equal(roll_table_parse("1x a; 19x b", 1, 20, &t, err, sizeof(err)), -1);
		assert_string_equal(err,
		                    "entry 1 is weighted; this table's entries are ranges over "
		                    "1-20.");
	}
}

/* A table's text is bounded before it is read. */
static void
input_is_bounded(void **unused)
{
	char *big = malloc(ROLL_TABLE_INPUT_MAX + 2);
	char want[120];

	(void)unused;
	memset(big, ' ', ROLL_TABLE_INPUT_MAX + 1);
	big[ROLL_TABLE_INPUT_MAX + 1] = '\0';
	snprintf(want, sizeof(want), "the table's text is %d bytes long; at most %d are read.",
	         ROLL_TABLE_INPUT_MAX + 1, ROLL_TABLE_INPUT_MAX);
	expect_die_error(big, want);
	free(big);
}

/* Entry text is kept safe: bidi controls and invisible characters go, and
 * a reference is written with the table's canonical name. */
static void
text_is_made_safe(void **unused)
{
	struct roll_table t;

	(void)unused;
	parse_die("1-3: a\xe2\x80\xae"
	          "evil; 4-6: roll [[Gem\xe2\x80\x8bStones]] twice",
	          &t);
	assert_string_equal(t.e[0].text, "aevil");
	assert_string_equal(t.e[1].text, "roll [[gemstones]] twice");
	/* Entries part where the text made safe shows " \xc2\xb7 " (IRC's
	 * form): a zero-width space or a line separator (U+2028, made a space)
	 * beside the dot neither hides it nor parts the kept text unseen. */
	parse_die("1-3: a \xe2\x80\x8b\xc2\xb7 4-5: b\xe2\x80\xa8\xc2\xb7 6: c", &t);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.e[0].text, "a");
	assert_string_equal(t.e[1].text, "b");
	assert_string_equal(t.e[2].text, "c");
}

static int
collect(const char *name, void *ctx)
{
	struct buf *b = ctx;

	buf_addf(b, "%s,", name);
	return 0;
}

static void
names_and_references(void **unused)
{
	char c[ROLL_TABLE_NAME_MAX];
	struct buf b;

	(void)unused;
	assert_int_equal(roll_table_name("Encounter-2", 11, c), 0);
	assert_string_equal(c, "encounter-2");
	assert_int_equal(roll_table_name("trésor_1", strlen("trésor_1"), c), 0);
	assert_string_equal(c, "trésor_1");
	assert_int_equal(roll_table_name("two words", 9, c), -1);
	assert_int_equal(roll_table_name("a;b", 3, c), -1);
	assert_int_equal(roll_table_name("[x]", 3, c), -1);
	assert_int_equal(roll_table_name("", 0, c), -1);
	assert_int_equal(roll_table_name("\xe2\x80\x8b", 3, c), -1); /* nothing but invisible */
	assert_int_equal(roll_table_name("abcdefghijklmnopqrstuvwxyz0123456", 33, c), -2);
	/* newcomer F25: 32 letters, not 32 bytes; counted folded (ß is ss) */
	assert_int_equal(roll_table_name("жжжжжжжжжжжжжжжжжжжжжжжжжжжжжжжж", 64, c), 0);
	assert_string_equal(c, "жжжжжжжжжжжжжжжжжжжжжжжжжжжжжжжж");
	assert_int_equal(roll_table_name("жжжжжжжжжжжжжжжжжжжжжжжжжжжжжжжжж", 66, c), -2);
	assert_int_equal(roll_table_name("ßßßßßßßßßßßßßßßß", 32, c), 0);
	assert_int_equal(roll_table_name("ßßßßßßßßßßßßßßßßß", 34, c), -2);
	assert_int_equal(roll_table_name("abcdefghijklmnopqrstuvwxyz012345", 32, c), 0);
	assert_int_equal(roll_table_name("\xff", 1, c), -1);
	/* letters of every script, folded; no symbols (check-29 F3) */
	assert_int_equal(roll_table_name("\xc3\x84"
	                                 "BC",
	                                 4, c),
	                 0);
	assert_string_equal(c, "\xc3\xa4"
	                       "bc");
	assert_int_equal(roll_table_name("A\xcc\x88"
	                                 "bc",
	                                 5, c),
	                 0); /* A + combining diaeresis */
	assert_string_equal(c, "\xc3\xa4"
	                       "bc");
	assert_int_equal(roll_table_name("\xd0\x9b\xd0\xa3\xd0\xa2", 6, c), 0);
	assert_string_equal(c, "\xd0\xbb\xd1\x83\xd1\x82");
	assert_int_equal(roll_table_name("\xf0\x9f\x90\x89", 4, c), -1); /* an emoji */
	assert_int_equal(roll_table_name("\xcc\x88"
	                                 "a",
	                                 3, c),
	                 -1); /* a mark first */
	assert_int_equal(roll_table_name("a\xc2\xb7"
	                                 "b",
	                                 4, c),
	                 -1); /* a middle dot */
	buf_init(&b, 200);
	assert_int_equal(roll_table_each_ref("[[a]] and [[b-2]], [not] [[c", collect, &b), 0);
	assert_string_equal(buf_str(&b), "a,b-2,");
	buf_free(&b);
}

/* show -> set -> show: what roll_table_write() writes parses back into the
 * same table, for random tables of every die and form (seeded). */
static void
write_round_trips_random_tables(void **unused)
{
	static const int dies[] = {4, 6, 8, 10, 12, 20, 66, 100};
	static const char *const words[] = {"goblins",   "1d4 rats", "a [[gems]] chest", "2d6+1 gp",
	                                    "ÿ ünïcode", "nothing",  "3 orcs, loud",     "an ooze"};
	struct rng *r = rng_new_seeded(29);
	struct roll_table *t = malloc(sizeof(*t)), *u = malloc(sizeof(*u));

	(void)unused;
	for (int round = 0; round < 500; round++) {
		struct buf in, once, twice;
		char err[300];
		bool weighted = rng_die(r, 4) == 1;
		int die = dies[rng_die(r, 8) - 1], lo = die == 66 ? 11 : 1, v = lo;
		size_t n = 0;

		buf_init(&in, ROLL_TABLE_INPUT_MAX);
		buf_init(&once, 1 << 16);
		buf_init(&twice, 1 << 16);
		if (weighted) {
			int k = (int)rng_die(r, 12);

			for (int i = 0; i < k; i++)
				buf_addf(&in, "%s%dx %s %d",
				         i ? (rng_die(r, 2) == 1 ? ";" : "\n") : "",
				         (int)rng_die(r, ROLL_TABLE_WEIGHT_MAX),
				         words[rng_die(r, 8) - 1], i);
		} else {
			while (v <= die && n < ROLL_TABLE_ENTRIES_MAX) {
				int w = (int)rng_die(r, 10), hi = v;

				for (int i = 1; i < w && hi < die; i++) {
					hi++;
					if (die == 66 && hi % 10 > 6)
						hi += 10 - hi % 10 + 1;
				}
				if (hi > die)
					hi = die;
				buf_addf(&in, "%s%d%s%d%s %s", n ? "; " : "", v, "-", hi,
				         rng_die(r, 2) == 1 ? ":" : "", words[rng_die(r, 8) - 1]);
				n++;
				v = hi + 1;
				if (die == 66 && v % 10 > 6)
					v += 10 - v % 10 + 1;
			}
		}
		if (roll_table_parse_die(buf_str(&in), t, err, sizeof(err)) != 0)
			fail_msg("round %d: '%s': %s", round, buf_str(&in), err);
		roll_table_write(t, &once);
		if (roll_table_parse_die(buf_str(&once), u, err, sizeof(err)) != 0)
			fail_msg("round %d: written '%s' does not parse: %s", round, buf_str(&once),
			         err);
		assert_memory_equal(t, u, sizeof(*t));
		roll_table_write(u, &twice);
		assert_string_equal(buf_str(&once), buf_str(&twice));
		buf_free(&in);
		buf_free(&once);
		buf_free(&twice);
	}
	free(t);
	free(u);
	rng_free(r);
}

static char *
expand(const char *text, uint64_t seed, int *rolled)
{
	struct rng *r = rng_new_seeded(seed);
	struct buf b;

	buf_init(&b, 4096);
	*rolled = roll_table_dice_roll_text(text, r, &b);
	rng_free(r);
	return buf_take(&b);
}

/* The expected dice come from the same seed through rng_die directly, so
 * the test checks the wiring, not a recorded output. */
static void
dice_in_entries_are_rolled(void **unused)
{
	struct rng *r = rng_new_seeded(9);
	int64_t a = rng_die(r, 4), b = rng_die(r, 4), c = rng_die(r, 6);
	char want[200], *got;
	int n;

	snprintf(want, sizeof(want), "%lld goblins and %lld %s, (2d4: %lld+%lld; 1d6: %lld)",
	         (long long)(a + b), (long long)c, c == 1 ? "wolf" : "wolves", (long long)a,
	         (long long)b, (long long)c);
	got = expand("2d4 goblins and 1d6 wolves,", 9, &n);
	assert_int_equal(n, 2);
	assert_string_equal(got, want);
	free(got);
	rng_free(r);
}

static void
words_that_are_not_dice_are_kept(void **unused)
{
	int n;
	char *got = expand("a dead drake, dd d and 3 doors (d)", 1, &n);

	assert_int_equal(n, 0);
	assert_string_equal(got, "a dead drake, dd d and 3 doors (d)");
	free(got);
	/* arithmetic inside one word is part of the expression */
	got = expand("CON save or 1d1+2 damage.", 1, &n);
	assert_int_equal(n, 1);
	assert_string_equal(got, "CON save or 3 damage. (1d1+2: 1)");
	free(got);
}

/* Issue 25, finding 15: a count that comes out as 1 is followed by the
 * noun in the singular ("1 goblin", not "1 goblins"). */
static void
one_is_followed_by_a_singular(void **unused)
{
	static const char *const cases[][2] = {
	    {"1d1 goblins", "1 goblin (1d1: 1)"},
	    {"1d1 Wolves attack.", "1 Wolf attack. (1d1: 1)"},
	    {"1d1 mummies", "1 mummy (1d1: 1)"},
	    {"1d1 zombies", "1 zombie (1d1: 1)"},
	    {"1d1 witches", "1 witch (1d1: 1)"},
	    {"1d1 lizardmen", "1 lizardman (1d1: 1)"},
	    {"1d1 orcs, 1d1+1 rats", "1 orc, 2 rats (1d1: 1; 1d1+1: 1)"},
	    {"1d1 undead", "1 undead (1d1: 1)"},
	    {"1d1 boss", "1 boss (1d1: 1)"},
	    {"1d1 dice", "1 die (1d1: 1)"},
	    {"1d1, bats", "1, bats (1d1: 1)"},
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n;
		char *got = expand(cases[i][0], 1, &n);

		assert_string_equal(got, cases[i][1]);
		free(got);
	}
}

/* A list of dice too long for the notes ends in an ellipsis, not silently. */
static void
long_dice_notes_are_marked(void **unused)
{
	int n;
	char *got = expand("1000d6 coins", 3, &n);
	size_t len = strlen(got);

	assert_int_equal(n, 1);
	assert_true(len > 6);
	assert_string_equal(got + len - 5, " …)");
	free(got);
}

/* check-29 F1: "00:" alone is the d100's 100, as in "96-99: x; 00: y". */
static void
double_zero_alone_is_a_hundred(void **unused)
{
	struct roll_table t;
	char err[300] = "";

	assert_int_equal(roll_table_parse_die("1-50: a; 51-99: b; 00: c", &t, err, sizeof(err)), 0);
	assert_int_equal(t.die, 100);
	assert_int_equal(t.e[2].lo, 100);
	assert_int_equal(t.e[2].hi, 100);
	assert_string_equal(roll_table_lookup(&t, 100)->text, "c");
	assert_int_equal(roll_table_parse_die("00: a; 1-99: b", &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[1].text, "a");
	assert_int_equal(t.e[1].lo, 100);
	/* 00 at the start of a range is still 100, and 100-50 is reversed */
	assert_int_equal(roll_table_parse_die("1-49: a; 00-50: b", &t, err, sizeof(err)), -1);
	assert_string_equal(err, "entry 2: range 100-50 is reversed; write it low-high.");
}

/* check-29 F2: what /table show writes, its heading included, is read back
 * as the same table; on IRC the heading is bold and joined by " · ". */
static void
shown_heading_is_taken_back(void **unused)
{
	struct roll_table t;
	struct buf b;
	char err[300] = "";

	buf_init(&b, 4096);
	assert_int_equal(roll_table_parse_die(
	                     "Table rt: d6, 2 entries; struck: 4-6\n1-3: a rat\n4-6: 1d4 goblins",
	                     &t, err, sizeof(err)),
	                 0);
	roll_table_write(&t, &b);
	assert_string_equal(buf_str(&b), "1-3: a rat\n4-6: 1d4 goblins");
	assert_int_equal(
	    roll_table_parse_die("\x02Table loot: d6, 2 entries\x0f \xc2\xb7 1-3: a rat "
	                         "\xc2\xb7 4-6: 1d4 goblins",
	                         &t, err, sizeof(err)),
	    0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.e[0].text, "a rat");
	assert_int_equal(
	    roll_table_parse_die("Table w: weighted d4, 2 entries (Tension's, the "
	                         "channel has none of its own by that name)\n3x a; 1x b",
	                         &t, err, sizeof(err)),
	    0);
	assert_true(t.weighted);
	/* a heading alone is an empty table; other words are still refused */
	assert_int_equal(roll_table_parse_die("Table x: d6, 1 entry", &t, err, sizeof(err)), -1);
	assert_string_equal(err, "the table is empty; give entries like '1-4: text; 5-8: text'.");
	assert_int_equal(roll_table_parse_die("Tables: d6\n1-6: a", &t, err, sizeof(err)), -1);
	/* a Tension or hazard table (a given span) has no heading */
	assert_int_equal(
	    roll_table_parse("Table x: d6, 1 entry\n1-6: a", 1, 6, &t, err, sizeof(err)), -1);
	buf_free(&b);
}

/* check-29 F4/F14 (brief F8): an entry's dice are /roll's notation, adv and
 * dis too; what cannot be rolled is refused when the table is set. */
static void
entry_dice_are_the_full_notation(void **unused)
{
	struct rng *r = rng_new_seeded(5);
	int64_t a = rng_die(r, 20), b = rng_die(r, 20), best = a > b ? a : b;
	struct roll_table t;
	char want[200], err[300] = "", *got;
	int n;

	(void)unused;
	snprintf(want, sizeof(want), "%lld to hit, (1d20 adv: %lld)", (long long)best,
	         (long long)best);
	got = expand("1d20 adv to hit,", 5, &n);
	assert_int_equal(n, 1);
	assert_string_equal(got, want);
	free(got);
	rng_free(r);
	/* a word that is no dice before "dis" stays a word */
	got = expand("a dread dis", 5, &n);
	assert_int_equal(n, 0);
	assert_string_equal(got, "a dread dis");
	free(got);
	assert_int_equal(roll_table_parse_die("1-6: 2d6 adv", &t, err, sizeof(err)), -1);
	assert_string_equal(err, "entry 1: in '2d6 adv', adv rolls a plain d20 twice and this roll "
	                         "has none; write it as in 1d20+5 adv.");
	assert_int_equal(
	    roll_table_parse_die("1-6: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 2d6", &t, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "entry 1: '2d6' is dice expression 9; an entry rolls at most 8.");
	assert_int_equal(roll_table_parse_die("1-6: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 dwarves", &t,
	                                      err, sizeof(err)),
	                 0);
}

/* A table typed by hand may have spaces around a range's dash and before
 * its colon (check-29 F5: "1 - 3 : a" was read as "1: - 3 : a"); what
 * /table show writes still reads back the same, and saved text is read as
 * it was written. A refused entry is quoted up to a whole word. */
static void
spaces_in_ranges_as_typed(void **unused)
{
	struct roll_table t, u;
	struct buf b;
	char err[300] = "";

	(void)unused;
	assert_int_equal(roll_table_parse_die("1 - 3 : a ; 4 - 6 : b", &t, err, sizeof(err)), 0);
	assert_int_equal(t.die, 6);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.e[0].lo, 1);
	assert_int_equal(t.e[0].hi, 3);
	assert_string_equal(t.e[0].text, "a");
	assert_string_equal(t.e[1].text, "b");
	assert_int_equal(roll_table_parse_die("1-3 :a; 4-6 : b", &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[0].text, "a");
	assert_string_equal(t.e[1].text, "b");
	assert_int_equal(roll_table_parse_die("1 -3: a; 4- 6: b", &t, err, sizeof(err)), 0);
	assert_int_equal(t.e[1].lo, 4);
	assert_int_equal(t.e[1].hi, 6);
	/* a dash after spaces with no number after it is the text's */
	assert_int_equal(roll_table_parse_die("1-4: a; 5 - a rat; 6: c", &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[1].text, "- a rat");
	/* texts that start with what a range could be written with come back */
	assert_int_equal(roll_table_parse_die("1-3: - 3 x; 4: : b; 5-6: :c", &t, err, sizeof(err)),
	                 0);
	buf_init(&b, 4096);
	roll_table_write(&t, &b);
	assert_int_equal(roll_table_parse_die(buf_str(&b), &u, err, sizeof(err)), 0);
	assert_memory_equal(&t, &u, sizeof(t));
	assert_string_equal(u.e[0].text, "- 3 x");
	assert_string_equal(u.e[1].text, ": b");
	assert_string_equal(u.e[2].text, ":c");
	buf_free(&b);
	/* saved text keeps its reading: "1 - 3" there is "1: - 3" */
	assert_int_equal(roll_table_load_die("1 - 3 : a; 2-6: b", &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[0].text, "- 3 : a");
	/* the quote of a refused entry ends on a whole word */
	assert_int_equal(
	    roll_table_parse_die("a long first entry with words; 1-6: b", &t, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "entry 1: 'a long first entry with…' does not start with a range "
	                         "like 5 or 5-8 followed by text.");
}

/* A table saved before its entries' limits were checked at set (more
 * than ROLL_TABLE_DICE_WORDS_MAX dice expressions, more than
 * ROLL_TABLE_REFS_MAX references, a [[...]] naming no table, dice no roll
 * can make) loads as it was: the limits refuse it only when it is set. Its
 * entry rolls its first 8 expressions and says the rest were not rolled. */
static void
saved_tables_load_past_set_limits(void **unused)
{
	static const char *const nine = "1-6: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 2d6 orcs";
	static const char *const more = "1-6: [[a]] [[b]] [[c]] [[d]] [[🐉]] 1d1000000000 gems";
	struct roll_table t;
	char err[300] = "", *got;
	int n;

	(void)unused;
	assert_int_equal(roll_table_parse_die(nine, &t, err, sizeof(err)), -1);
	assert_int_equal(roll_table_load_die(nine, &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[0].text, "1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 2d6 orcs");
	assert_int_equal(roll_table_parse(nine, 1, 6, &t, err, sizeof(err)), -1);
	assert_int_equal(roll_table_load(nine, 1, 6, &t, err, sizeof(err)), 0);
	assert_int_equal(roll_table_parse_die(more, &t, err, sizeof(err)), -1);
	assert_int_equal(roll_table_load_die(more, &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[0].text, "[[a]] [[b]] [[c]] [[d]] [[🐉]] 1d1000000000 gems");
	/* an entry saved with " · " before it parted entries keeps it */
	assert_int_equal(roll_table_parse_die("1-3: a \xc2\xb7 b\n4-6: c", &t, err, sizeof(err)),
	                 -1);
	assert_int_equal(roll_table_load_die("1-3: a \xc2\xb7 b\n4-6: c", &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[0].text, "a \xc2\xb7 b");
	assert_int_equal(roll_table_load("1-3 a \xc2\xb7 b; 4-6 c", 1, 6, &t, err, sizeof(err)), 0);
	assert_string_equal(t.e[0].text, "a \xc2\xb7 b");
	/* what makes a table is still checked */
	assert_int_equal(roll_table_load_die("1-5: a", &t, err, sizeof(err)), -2);
	assert_string_equal(err, "the highest result is 5, which no die gives: the ranges end at "
	                         "4, 6, 8, 10, 12, 20, 66 (d66, numbered 11-66) or 100, or every "
	                         "entry is weighted (3x text).");
	/* the eight rolls from the same seed through rng_die directly */
	{
		struct rng *r = rng_new_seeded(3);
		struct buf want, notes;

		buf_init(&want, 4096);
		buf_init(&notes, 4096);
		for (int i = 0; i < 8; i++) {
			long long v = (long long)rng_die(r, 6);

			buf_addf(&want, "%lld ", v);
			buf_addf(&notes, "%s1d6: %lld", i ? "; " : "", v);
		}
		buf_addf(&want,
		         "2d6 (not rolled, nor any dice after it: an entry rolls at most 8 dice "
		         "expressions) and 1d4 orcs (%s)",
		         buf_str(&notes));
		got = expand("1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 2d6 and 1d4 orcs", 3, &n);
		assert_int_equal(n, 8);
		assert_string_equal(got, buf_str(&want));
		free(got);
		buf_free(&want);
		buf_free(&notes);
		rng_free(r);
	}
}

/* One roll rolls at most DICE_ROLLED_MAX dice, as /roll: the parts of one
 * roll share the count, and the first expression past it is left as
 * written with a note. */
static void
entry_dice_share_roll_limit(void **unused)
{
	static const char *const part = "1000d6 1000d6 1000d6 1000d6 1000d6 1000d6 1000d6 1000d6";
	struct rng *r = rng_new_seeded(5);
	struct buf out, notes;
	int64_t left = DICE_ROLLED_MAX;
	int words = ROLL_TABLE_DICE_WORDS_MAX;

	(void)unused;
	buf_init(&out, 65536);
	buf_init(&notes, ROLL_TABLE_NOTES_MAX);
	assert_int_equal(
	    roll_table_dice_roll_part(part, strlen(part), r, &left, &words, &out, &notes), 8);
	assert_int_equal(left, DICE_ROLLED_MAX - 8000);
	buf_reset(&out);
	words = ROLL_TABLE_DICE_WORDS_MAX;
	assert_int_equal(
	    roll_table_dice_roll_part(part, strlen(part), r, &left, &words, &out, &notes), 2);
	assert_int_equal(left, -1);
	assert_non_null(strstr(buf_str(&out),
	                       " 1000d6 (not rolled, nor any dice after it: one roll "
	                       "rolls at most 10000 dice) 1000d6 1000d6 1000d6 1000d6 "
	                       "1000d6"));
	buf_reset(&out);
	words = ROLL_TABLE_DICE_WORDS_MAX;
	assert_int_equal(
	    roll_table_dice_roll_part(part, strlen(part), r, &left, &words, &out, &notes), 0);
	assert_string_equal(buf_str(&out), part);
	buf_free(&out);
	buf_free(&notes);
	rng_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parses_default_encounters),
	    cmocka_unit_test(single_results_and_newlines),
	    cmocka_unit_test(errors_name_the_entry),
	    cmocka_unit_test(entry_limits),
	    cmocka_unit_test(find_by_range_or_name),
	    cmocka_unit_test(format_round_trips),
	    cmocka_unit_test(range_texts),
	    cmocka_unit_test(dice_in_entries_are_rolled),
	    cmocka_unit_test(words_that_are_not_dice_are_kept),
	    cmocka_unit_test(long_dice_notes_are_marked),
	    cmocka_unit_test(one_is_followed_by_a_singular),
	    cmocka_unit_test(every_form_and_its_die),
	    cmocka_unit_test(die_errors_name_the_numbers),
	    cmocka_unit_test(input_is_bounded),
	    cmocka_unit_test(text_is_made_safe),
	    cmocka_unit_test(names_and_references),
	    cmocka_unit_test(write_round_trips_random_tables),
	    cmocka_unit_test(double_zero_alone_is_a_hundred),
	    cmocka_unit_test(shown_heading_is_taken_back),
	    cmocka_unit_test(entry_dice_are_the_full_notation),
	    cmocka_unit_test(saved_tables_load_past_set_limits),
	    cmocka_unit_test(spaces_in_ranges_as_typed),
	    cmocka_unit_test(entry_dice_share_roll_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
