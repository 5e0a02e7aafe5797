/*
 * roll_table: a table of entries over the results of a die, written the way
 * GMs write them: "1-4: A lost adventurer; 5-8: 1d4 goblins; 9-12: 2d4
 * goblins", one entry a line or separated by ';'.
 *
 * One engine for every table the bot keeps: the Tension encounter and
 * effects tables (d10 + Tension over 1..20), custom hazard tables (1..N),
 * and the GM's own named tables (commands/tables), whose die comes from
 * their numbers.
 *
 * Entries are separated by ';', line breaks or " · " (a middle dot between
 * spaces: IRC shows a reply's lines joined so). An entry is "N: text" or
 * "N-M: text" (the colon may be left out: "5-8 text"), or, for a whole
 * table of them, a weight "3x text": a weighted
 * table is rolled on the sum of its weights, each entry covering as many
 * results as its weight. A d66 table is numbered 11..66, tens and units
 * each 1..6 (two d6 read as digits). Ranges cover every result of the die
 * exactly once; they may be written in any order and are kept sorted.
 *
 * Text may hold dice ("1d4 goblins", rolled when the entry comes up:
 * rules/tables/roll_table_dice.h) and references to other tables
 * ("[[gems]]", rolled in turn: rules/tables/roll_table_roll.h). Entry text
 * is made safe on the way in (rules/base/textsafe.h), so the text kept is
 * the text shown.
 *
 * An entry may be struck (a defeated encounter): it stays in the table, and
 * rolling it means nothing happens.
 *
 * A struct roll_table is a plain value (no pointers inside), so it can be
 * copied, compared and embedded in a channel's state.
 */
#ifndef DELVER_ROLL_TABLE_H
#define DELVER_ROLL_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/base/buf.h"

#define ROLL_TABLE_ENTRIES_MAX 100  /* entries in one table */
#define ROLL_TABLE_TEXT_MAX    161  /* bytes of one entry's text, with the NUL */
#define ROLL_TABLE_SPAN_MAX    100  /* the largest span of a ranged table (hi) */
#define ROLL_TABLE_WEIGHT_MAX  100  /* the weight of one weighted entry */
#define ROLL_TABLE_INPUT_MAX   8000 /* bytes of text one parse reads */
#define ROLL_TABLE_REFS_MAX    3    /* [[references]] in one entry */
#define ROLL_TABLE_NAME_CHARS  32   /* code points of a table's name */
#define ROLL_TABLE_NAME_MAX    129  /* bytes of a table's name, with the NUL */
#define ROLL_TABLE_D66         66   /* the die of a d66 table */

struct roll_table_entry {
	int lo, hi; /* the results this entry covers, lo <= hi */
	int weight; /* a weighted table's "3x": hi - lo + 1; 0 in a ranged table */
	bool struck;
	char text[ROLL_TABLE_TEXT_MAX];
};

struct roll_table {
	int lo, hi;    /* the span its entries cover */
	int die;       /* what is rolled: a dN (N = hi), ROLL_TABLE_D66, or a
	                  weighted table's total weight (N = hi) */
	bool weighted; /* entries written "3x text" */
	size_t n;
	struct roll_table_entry e[ROLL_TABLE_ENTRIES_MAX];
};

/*
 * Parses text into a ranged table covering lo..hi (1 <= lo <= hi <=
 * ROLL_TABLE_SPAN_MAX): a Tension table (1..20) or a hazard table (1..N).
 * Returns 0, or -1 with one sentence in err pointing at the bad entry
 * ("entry 3: range 9-8 is reversed; write it low-high.") and *out
 * untouched; -2 instead when entries added to the text could mend it (a
 * result no entry covers).
 */
int roll_table_parse(const char *text, int lo, int hi, struct roll_table *out, char *err,
                     size_t errlen);

/*
 * Parses a table whose die comes from its text: the largest number of its
 * ranges names it (4, 6, 8, 10, 12, 20, 66 for a d66 numbered 11..66, or
 * 100, which may be written 00), or its entries are all weighted ("3x
 * text"). Returns 0, or -1 or -2 as roll_table_parse does (-2 also for a
 * largest number that no die ends at but a larger one would).
 */
int roll_table_parse_die(const char *text, struct roll_table *out, char *err, size_t errlen);

/*
 * The same for text that was saved: a table read back from a channel's
 * state, which a parse of the same text must accept whatever limits came
 * since it was set. What a table needs to be a table is checked as above
 * (ranges, coverage, UTF-8, lengths); the limits of what an entry asks for
 * (how many dice and references, dice that can be rolled, references that
 * name a table) are checked only when a table is set, by the two above, and
 * so are the forms of typing (spaces in a range, " · " between entries,
 * which saved text never uses: an entry saved with one keeps it).
 */
int roll_table_load(const char *text, int lo, int hi, struct roll_table *out, char *err,
                    size_t errlen);
int roll_table_load_die(const char *text, struct roll_table *out, char *err, size_t errlen);

/* The entry covering value (clamped into the table's span; a d66 value
 * that no die gives, such as 17, finds nothing), or NULL. */
const struct roll_table_entry *roll_table_lookup(const struct roll_table *t, int value);

/* Whether value is a result of the table's die (d66: both digits 1..6). */
bool roll_table_result_ok(const struct roll_table *t, int value);

/*
 * Finds an entry by range ("9-12", or any single result it covers: "10")
 * or by text (case-insensitive; an exact match wins, else a unique
 * substring). Returns its index, -1 when nothing matches, or -2 when a
 * name matches several entries.
 */
int roll_table_find(const struct roll_table *t, const char *what);

/* Writes the table back on one line as text roll_table_parse accepts
 * ("1-4 A; 5-8 B"), the form saved with a channel's Tension and hazard
 * tables. */
void roll_table_format(const struct roll_table *t, struct buf *out);

/* Writes the table as its owner writes it, one entry a line ("1-4: A",
 * "3x B"), the text roll_table_parse_die() turns back into the same table. */
void roll_table_write(const struct roll_table *t, struct buf *out);

/* "5", "5-8" or, in a weighted table, "3x": an entry as it is named. */
void roll_table_range_text(const struct roll_table_entry *e, char *buf, size_t len);

/* "d20", "d66", or for a weighted table "weighted d7". */
void roll_table_die_text(const struct roll_table *t, char *buf, size_t len);

/*
 * Calls fn for each [[name]] in text, in order, with the canonical name.
 * Stops and returns fn's value when it is not 0; else returns 0.
 */
int roll_table_each_ref(const char *text, int (*fn)(const char *name, void *ctx), void *ctx);

#endif
