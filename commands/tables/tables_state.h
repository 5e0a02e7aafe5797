/*
 * tables_state: a channel's own named tables (module slot CHANMOD_TABLES),
 * the GM's library: wandering monsters per level, loot, rumours.
 *
 * Each table is kept as its text in the form roll_table_write() writes (one
 * entry a line), with the entries struck from it; it is parsed when it is
 * used, so a channel pays memory for the text it holds. Bounded:
 * TABLES_MAX tables of TABLES_TEXT_MAX bytes of text each. A writer is
 * held besides to TABLES_BYTES_MAX bytes of the tables the writer may read
 * (tables_use_room(), checked before a put): while Tension is hidden, a
 * player's tables and those behind the GM's screen count apart, so a
 * channel may then hold more, up to the bound.
 *
 * Behind the GM's screen. A table is marked behind the screen (screened)
 * when a procedure rolls it by its name (tables_state_named_screen) or a
 * table so marked names it by a [[reference]], directly or through others:
 * every change (a put, a load, a mark) spreads the mark so, and a table
 * keeps its mark when the name or the reference that brought it goes (a
 * replaced or deleted encounter): only tables_state_mark() takes it off.
 * A mark means something only while Tension is hidden (commands/tables/
 * tables_use.h reads it); it is kept whatever Tension's mode.
 *
 * Saved as {"tables":[{"name":N,"text":T,"struck":["5-8"],"screened":true}]}
 * (struck left out when empty), names in order. "screened" is written only
 * for a marked table that no table marked by its name reaches by
 * references: load() marks those again, so a record written before marks
 * were kept (format version 4, which had no "screened") loads with the
 * tables then behind the screen marked, and a state that holds no other
 * mark writes the same bytes as then (undo steps made against them still
 * fit). load() checks every table and refuses a record it cannot trust
 * whole.
 *
 * Ownership: the state belongs to its channel record (channel_mod()).
 */
#ifndef DELVER_TABLES_STATE_H
#define DELVER_TABLES_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/state.h"
#include "rules/tables/roll_table.h"

#define TABLES_MAX       32    /* tables in one channel */
#define TABLES_TEXT_MAX  4000  /* bytes of one table's text */
#define TABLES_BYTES_MAX 32000 /* bytes of text one writer's change may bring the tables to */

struct tables_item {
	char name[ROLL_TABLE_NAME_MAX];
	char *text; /* roll_table_write's form, owned */
	size_t len;
	uint8_t struck[(ROLL_TABLE_ENTRIES_MAX + 7) / 8]; /* bit i: entry i is struck */
	bool screened;                                    /* behind the GM's screen (see above) */
};

struct tables_state {
	size_t n;
	struct tables_item *v; /* n items sorted by name, owned */
	size_t bytes;          /* the sum of their lengths */
};

extern const struct chanmod tables_mod;

/* The channel's tables, created on first use (the caller touches the
 * channel after changing them). */
struct tables_state *tables_state_of(struct channel *ch);
/* The channel's tables, or NULL when it never had any. Reads only. */
const struct tables_state *tables_state_peek(const struct channel *ch);

/* The index of the table called name (canonical), or -1. */
int tables_state_find(const struct tables_state *s, const char *name);

/* Table i parsed into *out (the caller's, often on the heap: a struct
 * roll_table is large), with its struck entries. */
void tables_state_get(const struct tables_state *s, size_t i, struct roll_table *out);

/*
 * Stores t under name (canonical), replacing a table of that name (whose
 * mark it keeps), with t's struck entries, and spreads the marks. Returns 0, or -1 with one
 * sentence in err when the table's length or the number of tables would pass its limit (the state
 * is then as it was); the bytes of all the tables are the caller's to
 * check (tables_use_room()).
 */
int tables_state_put(struct tables_state *s, const char *name, const struct roll_table *t,
                     char *err, size_t errlen);

/* Whether a procedure rolls the table called name while Tension is
 * hidden, so that it is marked by its name: "encounter", "effects", and
 * their "-<level>" tables. */
bool tables_state_named_screen(const char *name);

/* Marks table i behind the screen (on) and spreads the marks, or takes
 * its mark off (the caller has checked tables_state_keeper()). */
void tables_state_mark(struct tables_state *s, size_t i, bool on);

/* What keeps table i behind the screen now: "" when its name does
 * (tables_state_named_screen), the name of another marked table that names
 * it by a [[reference]], or NULL when nothing does but its own mark. */
const char *tables_state_keeper(const struct tables_state *s, size_t i);

/* Removes table i (others keep their marks). */
void tables_state_delete(struct tables_state *s, size_t i);

/* Drops the module from ch when it holds no table (a channel keeps state
 * only for what it holds). */
void tables_state_settle(struct channel *ch);

#endif
