/*
 * tables_use: the tables a channel's rolls use, by name.
 *
 * A name resolves to the channel's own table of that name
 * (commands/tables/tables_state.h) or, for "encounter" and "effects" when
 * the channel has none of its own, to its Tension table of that kind
 * (commands/tension/tension_state.h): so [[encounter]] in a table, or
 * /table show encounter, always finds the table the channel's procedures
 * use.
 *
 * A procedure (the hazard die's Encounter and Sign, a wandering check, a
 * tension roll) asks tables_use_kind() for the table of its kind: the
 * channel's "encounter-<level>" when the channel tracks the dungeon level
 * (/turn level) and has one, else its "encounter", else none (and the
 * procedure keeps to Tension's table, as before the channel had tables).
 *
 * A struct tables_lookup is a struct roll_table_lookup (its first member)
 * whose tables are parsed on first use and kept until tables_lookup_clear();
 * it reads the channel and changes nothing. A roll whose text everyone sees
 * while Tension is hidden sets screen: the tables behind the GM's screen
 * (tables_use_screened_in) are then not found, so a [[reference]] to one stays
 * as written, and tables_lookup_withheld() tells it from a missing table.
 */
#ifndef DELVER_TABLES_USE_H
#define DELVER_TABLES_USE_H

#include <stdbool.h>

#include "commands/core/state.h"
#include "rules/tables/roll_table_roll.h"
#include "rules/tension/tension.h"

struct tables_lookup {
	struct roll_table_lookup lk; /* pass &tl.lk to the rules */
	const struct channel *ch;
	bool screen; /* withhold the tables behind the GM's screen */
	size_t n;
	struct {
		char name[ROLL_TABLE_NAME_MAX];
		struct roll_table *t; /* owned, NULL: no such table */
	} seen[ROLL_TABLE_ROLLS_MAX + 2];
};

void tables_lookup_init(struct tables_lookup *tl, const struct channel *ch);
/* The table called name (canonical) as above, or NULL. */
const struct roll_table *tables_lookup_find(struct tables_lookup *tl, const char *name);
void tables_lookup_clear(struct tables_lookup *tl);
/* Whether a reference to name was left as written because the table is
 * behind the GM's screen (screen set), not because there is none. */
bool tables_lookup_withheld(const struct tables_lookup *tl, const char *name);

/* Another of the channel's tables whose name looks the same as name (a
 * letter of another alphabet for a Latin one), or NULL; it lives as long
 * as the channel's tables are unchanged. With screen set (a reader who may
 * not read the tables behind the GM's screen) and Tension hidden, those
 * are not looked at, so the answer tells nothing of them. */
const char *tables_use_look_alike(const struct channel *ch, const char *name, bool screen);

/* Whether the channel has a table of its own called name. */
bool tables_use_own(const struct channel *ch, const char *name);

/*
 * The channel's own table a procedure rolls for kind ("encounter",
 * "effects"), as above: its name goes to name (ROLL_TABLE_NAME_MAX bytes)
 * and the table, parsed, to *t. Returns false (name "") when the channel
 * has neither.
 */
bool tables_use_kind(const struct channel *ch, const char *kind, struct roll_table *t, char *name);

/*
 * Checks that the channel's tables, with a table called name whose text is
 * text (roll_table_write's form) stored among them, hold no cycle of
 * [[references]] through that table (a table rolling itself, directly or
 * through others) and no chain through it of more than ROLL_TABLE_DEPTH_MAX
 * tables. A name with no table counts as a table without references (it
 * is checked when it is made). With screen set (a writer who may not read
 * the tables behind the GM's screen) and Tension hidden, references are
 * followed only through tables the writer may read: a screened table
 * counts as a name with no table, so the check and its sentence say
 * nothing of what is behind the screen. Returns 0, or -1 with one sentence
 * in err naming the tables of the cycle or the chain.
 */
int tables_use_check(const struct channel *ch, const char *name, const char *text, bool screen,
                     char *err, size_t errlen);

/*
 * Whether a table called name whose text is len bytes (roll_table_write's
 * form) may be stored: the tables the writer may read would then hold at
 * most TABLES_BYTES_MAX bytes of text, or the change adds none (so a
 * channel past the limit can still be shortened). With screen set (a
 * writer who may not read the tables behind the GM's screen) and Tension
 * hidden, those are not counted, so neither the answer nor its figure
 * tells how long they are. Returns 0, or -1 with one sentence in err.
 */
int tables_use_room(const struct channel *ch, const char *name, size_t len, bool screen, char *err,
                    size_t errlen);

/*
 * How a procedure's roll on a table reads, for its reply: "encounter
 * table, d10 + Tension = 3 + 4 = 7" for Tension's table of kind ("" table),
 * "table encounter-2, d6: 4" for the channel's own (a d66's tens and units
 * as 35, a weighted table's die as the sum of its weights).
 */
void tables_use_pick_text(const struct tension_pick *p, const char *table, const char *kind,
                          char *buf, size_t len);

/* Checks that a level's table ("encounter-<digits>", "effects-<digits>")
 * names a level /turn level can set: 0 to LEVEL_MAX, no leading zero.
 * Returns 0 (any other name too), or -1 with one sentence in err. */
int tables_use_level_ok(const char *name, char *err, size_t errlen);

/* Whether the channel's table called name stays behind the GM's screen
 * while Tension is hidden: screened by its name, as above, or one of the
 * channel's tables marked behind the screen (commands/tables/tables_state.h:
 * a table such a table names by a [[reference]], directly or through
 * others, is marked, and keeps its mark when the reference goes, until
 * the GM's /table reveal). */
bool tables_use_screened_in(const struct channel *ch, const char *name);

#endif
