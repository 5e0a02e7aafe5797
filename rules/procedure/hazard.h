/*
 * hazard: the hazard die of the turn procedure (RULES.md section 2).
 *
 * Four kinds of table: the two built-in d6 tables (exploration, delving) as
 * const data, the classic X-in-N die (encounter on X or less, else nothing),
 * and a channel's custom dN table (a roll_table). Whatever the kind, a table is
 * looked at through a struct hazard_view: its die and its rows, each with
 * the text shown and the effect the bookkeeping applies (rules/turn.h).
 *
 * A custom entry gets an effect from its first word (Encounter, Sign, Light,
 * Burn, Fatigue, Shift, Nothing, Free); any other entry is text only. Sign
 * and Fatigue mean what they mean in the channel's procedure (delving: the
 * sign's creature is remembered, Fatigue is damage unless the party rests).
 *
 * Views point into const data and into the custom table given: they live
 * as long as that table does.
 */
#ifndef DELVER_HAZARD_H
#define DELVER_HAZARD_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/tables/roll_table.h"
#include "rules/procedure/odds.h"

struct rng;

/* The time-keeping a channel follows: how long light lasts, what Fatigue
 * means, what skipping a rest costs. */
enum procedure {
	PROC_EXPLORATION = 0,
	PROC_DELVING,
	PROC_COUNT
};

enum hazard_table {
	HAZARD_EXPLORATION = 0,
	HAZARD_DELVING,
	HAZARD_CLASSIC,
	HAZARD_CUSTOM,
	HAZARD_TABLE_COUNT
};

/* The exploration Fatigue's CON save (a due rest skipped, a Fatigue
 * result): its DC, as a number and as text for the help and table texts. */
#define FATIGUE_SAVE_DC      12
#define FATIGUE_SAVE_DC_TEXT HAZARD_STR(FATIGUE_SAVE_DC)
#define HAZARD_STR_(x)       #x
#define HAZARD_STR(x)        HAZARD_STR_(x)

enum hazard_effect {
	HZ_NOTHING = 0,    /* the turn passes */
	HZ_ENCOUNTER,      /* a wandering monster (or the remembered sign's creature) */
	HZ_SIGN,           /* exploration: a hint of nearby danger */
	HZ_SIGN_CREATURE,  /* delving: meet a creature's sign; it is the next encounter */
	HZ_LIGHT,          /* exploration: the oldest lit source sputters or runs low */
	HZ_BURN,           /* delving: lit torches burn out */
	HZ_FATIGUE_SAVE,   /* exploration: rest now, or CON save per character */
	HZ_FATIGUE_DAMAGE, /* delving: 1 damage each unless the party rests next turn */
	HZ_SHIFT,          /* delving: the environment changes */
	HZ_TEXT,           /* a custom entry with no bookkeeping */
};

struct hazard_row {
	int lo, hi; /* the results of the die this row covers */
	enum hazard_effect effect;
	const char *text; /* what the table shows */
};

struct hazard_view {
	enum hazard_table table;
	int die; /* the die's sides: the rows cover 1..die */
	size_t n;
	struct hazard_row rows[ROLL_TABLE_ENTRIES_MAX];
};

/* "exploration", "delving", "classic", "custom"; and back (-1: unknown). */
const char *hazard_table_name(enum hazard_table t);
int hazard_table_parse(const char *name);
/* "exploration", "delving"; and back (-1: unknown). */
const char *hazard_procedure_name(enum procedure p);
int hazard_procedure_parse(const char *name);

/*
 * Fills *v with the rows of table t. chance is used by the classic table;
 * custom (may be NULL) by the custom table, whose keywords are read in
 * procedure p. Returns 0, or -1 when t is HAZARD_CUSTOM and custom is NULL.
 */
int hazard_view(enum hazard_table t, struct odds chance, const struct roll_table *custom,
                enum procedure p, struct hazard_view *v);

/* The effect a custom entry's text asks for in procedure p. */
enum hazard_effect hazard_keyword(const char *text, enum procedure p);

/* The creature an Encounter entry names after its keyword ("Encounter: 3
 * giant rats" names "3 giant rats"), pointing into text; NULL for any
 * other entry, for the keyword alone, and for the built-in tables' own
 * Encounter wording, which names none. */
const char *hazard_entry_creature(const char *text);

/* Rolls the view's die. Returns the roll; *row is the index of its row. */
int hazard_roll(struct rng *r, const struct hazard_view *v, size_t *row);

/* The row covering result roll (1..die). */
size_t hazard_row_of(const struct hazard_view *v, int roll);

/*
 * Parses a die size for a custom table: "d8", "D8" or "8", from 2 to
 * ROLL_TABLE_SPAN_MAX sides. Returns 0, or -1 with one sentence in err.
 */
int hazard_parse_die(const char *s, int *sides, char *err, size_t errlen);

#endif
