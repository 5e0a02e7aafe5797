/*
 * roll_table_roll: rolling a table (rules/tables/roll_table.h): its die, the
 * entry it picks, then that entry's text with the dice in it rolled and
 * each [[name]] in it replaced by a roll on the table of that name, and so
 * on to a bounded depth.
 *
 * How a table is read: by its own die (a d66 as two d6, tens and units; a
 * weighted table on its total weight), or, the D12 way, with d10 + Tension
 * when the caller gives a Tension and the table is ranged over 1..20.
 *
 * Pure: the RNG is the caller's, the tables a reference names come from the
 * caller's lookup, and the text goes into the caller's buffer.
 */
#ifndef DELVER_ROLL_TABLE_ROLL_H
#define DELVER_ROLL_TABLE_ROLL_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/base/buf.h"
#include "rules/tables/roll_table.h"

struct rng;

#define ROLL_TABLE_DEPTH_MAX 4  /* tables in one chain of references, the first included */
#define ROLL_TABLE_ROLLS_MAX 16 /* tables one roll rolls, the first included */

/* Finds the table a [[name]] names (canonical name), or NULL; what it
 * returns stays valid until the roll is over. */
struct roll_table_lookup {
	const struct roll_table *(*find)(void *ctx, const char *name);
	void *ctx;
};

/* What a table's roll picked. */
struct roll_table_pick {
	int sides;   /* 0: d10 + Tension; else the table's die (ROLL_TABLE_D66, or
	                a weighted table's total weight) */
	int d10;     /* sides 0: the d10 */
	int result;  /* the result looked up: d10 + Tension (clamped into the
	                table), the die, or a d66's tens and units (35) */
	int index;   /* the entry, -1 when there is none */
	bool struck; /* the entry is struck, or there is none: nothing happens */
};

/*
 * Rolls t: d10 + tension when tension >= 1 and t is ranged over exactly
 * 1..20, else t's own die. Looks the result up into *out.
 */
void roll_table_pick(struct rng *r, const struct roll_table *t, int tension,
                     struct roll_table_pick *out);
/* Looks result up in t as if sides (0: with d10, for d10 + Tension) had
 * given it: a pick without a roll. */
void roll_table_pick_at(const struct roll_table *t, int sides, int d10, int result,
                        struct roll_table_pick *out);

/* One table rolled for a [[reference]]. */
struct roll_table_step {
	char name[ROLL_TABLE_NAME_MAX];
	int depth;    /* 1: named by the entry first rolled; 2: by that one's; ... */
	bool missing; /* no table has that name: the reference stays as written */
	struct roll_table_pick pick;
	char entry[ROLL_TABLE_TEXT_MAX]; /* the entry picked, as written */
};

struct roll_table_trace {
	size_t n;
	struct roll_table_step step[ROLL_TABLE_ROLLS_MAX];
	/* references left as written: past ROLL_TABLE_DEPTH_MAX tables in a
	 * chain or ROLL_TABLE_ROLLS_MAX rolls in all */
	size_t unrolled;
	/* references rolled or looked up (a missing table's) after step was
	 * full, so not in it */
	size_t unlisted;
};

/*
 * Appends entry index of t to out with the dice in its text rolled
 * (rules/tables/roll_table_dice.h; their notes follow the entry's text) and
 * each [[name]] replaced by the text of a roll on lk's table of that name
 * (by its own die, expanded the same way). A reference to a table lk does
 * not find (or lk NULL), or past the limits, stays as written. The tables
 * rolled are added to trace (which may be NULL), in the order rolled.
 * Returns the dice expressions rolled, at every depth.
 */
int roll_table_expand(struct rng *r, const struct roll_table *t, size_t index,
                      const struct roll_table_lookup *lk, struct roll_table_trace *trace,
                      struct buf *out);

#endif
