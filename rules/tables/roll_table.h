/*
 * roll_table: a table of entries over ranges of a die result, written the way
 * GMs write them: "1-4 A lost adventurer; 5-8 1d4 goblins; 9-12 2d4 goblins".
 *
 * Used by the Tension encounter and effect tables (d10 + Tension over
 * 1..20) and by custom hazard tables (1..N). Entries cover the table's whole
 * span with no gap and no overlap, in order. An entry may be struck (a
 * defeated encounter): it stays in the table, and rolling it means nothing
 * happens.
 *
 * A struct roll_table is a plain value (no pointers inside), so it can be
 * copied, compared and embedded in a channel's state.
 */
#ifndef DELVER_ROLL_TABLE_H
#define DELVER_ROLL_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/base/buf.h"

#define ROLL_TABLE_ENTRIES_MAX 40  /* entries in one table */
#define ROLL_TABLE_TEXT_MAX    161 /* bytes of one entry's text, with the NUL */
#define ROLL_TABLE_SPAN_MAX    100 /* the largest table span (hi) */

struct roll_table_entry {
	int lo, hi; /* the results this entry covers, lo <= hi */
	bool struck;
	char text[ROLL_TABLE_TEXT_MAX];
};

struct roll_table {
	int lo, hi; /* the span every table of this kind covers */
	size_t n;
	struct roll_table_entry e[ROLL_TABLE_ENTRIES_MAX];
};

/*
 * Parses text into a table covering lo..hi (1 <= lo <= hi <= ROLL_TABLE_SPAN_MAX).
 * Entries are separated by ';' or newlines; each is "N text" or "N-M text".
 * Returns 0, or -1 with one sentence in err pointing at the bad entry
 * ("entry 3: range 9-8 is reversed") and *out untouched.
 */
int roll_table_parse(const char *text, int lo, int hi, struct roll_table *out, char *err,
                     size_t errlen);

/* The entry covering value (clamped into the table's span). */
const struct roll_table_entry *roll_table_lookup(const struct roll_table *t, int value);

/*
 * Finds an entry by range ("9-12", or any single result it covers: "10")
 * or by text (case-insensitive; an exact match wins, else a unique
 * substring). Returns its index, -1 when nothing matches, or -2 when a
 * name matches several entries.
 */
int roll_table_find(const struct roll_table *t, const char *what);

/* Writes the table back as text roll_table_parse accepts ("1-4 A; 5-8 B"). */
void roll_table_format(const struct roll_table *t, struct buf *out);

/* "5" or "5-8": an entry's range as text. */
void roll_table_range_text(const struct roll_table_entry *e, char *buf, size_t len);

#endif
