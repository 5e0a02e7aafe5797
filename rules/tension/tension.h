/*
 * tension: the D12 dungeon crawl's Tension track and tension roll
 * (RULES.md section 3).
 *
 * A channel's Tension is a value from 1 to 10, changed by the GM for named
 * events (breaking down a door +1, normal combat +2, rescuing a prisoner -2,
 * ...) or by a chosen amount with a reason; every change is clamped to
 * 1..10 and recorded, with its reason and whether it was clamped, in a
 * bounded history (the oldest records make way for new ones; records made
 * behind one screen, one after another, make way first, down to one).
 *
 * A tension roll is two d12: the dungeon event (1-5 nothing, 6 a
 * non-magical light fails, 7-10 an environmental effect, 11-12 enemy or NPC
 * sounds) and the encounter check of rules/tension/encounter.h (d12 <= exits or <=
 * Tension). An environmental effect and an encounter each roll d10 +
 * Tension on their table (rules/tables/roll_table.h, entries over 1..20); a struck
 * entry means nothing happens.
 *
 * Everything here is a plain value without pointers inside (it can be
 * copied and embedded); nothing allocates.
 */
#ifndef DELVER_TENSION_H
#define DELVER_TENSION_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/tension/encounter.h"
#include "rules/tables/roll_table.h"
#include "rules/tables/roll_table_roll.h"

struct rng;

#define TENSION_MIN         1
#define TENSION_MAX         10
#define TENSION_START       1   /* Ruling: a new dungeon starts at 1 */
#define TENSION_HISTORY_MAX 32  /* changes kept; older ones are dropped */
#define TENSION_REASON_MAX  161 /* bytes of one reason, with the NUL */
#define TENSION_TABLE_LO    1   /* tables are written over 1..20 */
#define TENSION_TABLE_HI    20

/* The named events of RULES.md section 3, raising ones first. */
enum tension_event {
	TENSION_EV_DOOR,
	TENSION_EV_QUIET_COMBAT,
	TENSION_EV_COMBAT,
	TENSION_EV_ENEMY_ESCAPED,
	TENSION_EV_TRAP,
	TENSION_EV_SECRET,
	TENSION_EV_PRISONER,
	TENSION_EV_OBJECTIVE,
	TENSION_EV_COUNT
};

struct tension_event_info {
	const char *name;   /* the command's choice: "quiet-combat" */
	int amount;         /* +1, -3, ... */
	const char *reason; /* "quiet, stealthy combat" */
};

/* The event's name, amount and reason (e in range). */
const struct tension_event_info *tension_event_info(enum tension_event e);
/* The event with this name (case-insensitive), or -1. */
int tension_event_find(const char *name);

enum tension_change_kind {
	TENSION_CHANGE_ADJUST, /* raised or lowered by an amount */
	TENSION_CHANGE_SET,    /* set to a value */
	TENSION_CHANGE_RESET,  /* back to town */
};

struct tension_change {
	enum tension_change_kind kind;
	int from, to; /* the value before and after */
	int amount;   /* ADJUST: the change asked (+2, -3); else to - from */
	bool clamped; /* the change asked would have left 1..10 */
	int screen;   /* the caller's mark of whose screen it was made behind (0: none) */
	char *reason; /* at most TENSION_REASON_MAX - 1 bytes; owned by the track */
};

/* The history grows as it is used (a channel pays for the changes it
 * keeps, not for TENSION_HISTORY_MAX of them). A track owns its history:
 * tension_clear() frees it, and a struct copy shares it (read-only). */
struct tension {
	int value; /* TENSION_MIN..TENSION_MAX */
	size_t nhist, cap;
	struct tension_change *hist; /* oldest first */
};

/* A fresh track: value TENSION_START, no history. */
void tension_init(struct tension *t);
/* Frees the history; t is then as after tension_init(). */
void tension_clear(struct tension *t);
/* Appends a change record as it was saved (when the history is full,
 * dropping the oldest but one of the oldest run of records with the same
 * screen mark, or else the oldest) without applying it: reason is copied
 * (cut as above). Returns the record, to be filled by the caller. */
struct tension_change *tension_append(struct tension *t, const char *reason);

/*
 * Changes the value by amount (clamped to 1..10) and records the change
 * with reason (cut to TENSION_REASON_MAX - 1 bytes on a UTF-8 boundary).
 * Returns the record just added; it stays valid until the next change.
 */
const struct tension_change *tension_adjust(struct tension *t, int amount, const char *reason);
/* The same for a named event, with the event's reason, followed by
 * " (extra)" when extra is neither NULL nor "". */
const struct tension_change *tension_event(struct tension *t, enum tension_event e,
                                           const char *extra);
/* Sets the value (clamped to 1..10) and records it. */
const struct tension_change *tension_set(struct tension *t, int value, const char *reason);
/* Back to town: the value returns to TENSION_START; the change is recorded
 * (the history is kept). */
const struct tension_change *tension_reset(struct tension *t, const char *reason);

/* --- the tension roll --- */

enum tension_dungeon_event {
	TENSION_DE_NOTHING, /* 1-5 */
	TENSION_DE_LIGHT,   /* 6: a non-magical light source fails */
	TENSION_DE_EFFECT,  /* 7-10: roll on the environmental effects table */
	TENSION_DE_SOUNDS,  /* 11-12: enemy or NPC sounds */
};

/* What the dungeon event d12 means, and the range of d12 results that
 * mean it ("7-10"). */
enum tension_dungeon_event tension_dungeon_event_of(int d12);
const char *tension_dungeon_event_text(enum tension_dungeon_event e);
const char *tension_dungeon_event_range(enum tension_dungeon_event e);

/* An entry with its dice rolled and its references expanded: the
 * entry's text (at most ROLL_TABLE_TEXT_MAX - 1 bytes) plus the notes of
 * roll_table_dice_roll_text (at most ROLL_TABLE_NOTES_MAX), the same for the
 * entries its [[references]] rolled, cut beyond (ending in "…"). */
#define TENSION_ROLLED_MAX 2400

/* A lookup on a table: d10 + Tension, or the table's own die. */
struct tension_pick {
	int sides;   /* 0: d10 + Tension; else the table's own die (roll_table_roll.h) */
	int d10;     /* sides 0: the d10 */
	int total;   /* the result looked up: d10 + Tension (2..20), or the die's */
	int index;   /* the entry in the table */
	bool struck; /* the entry was struck: nothing happens */
	int ndice;   /* dice expressions rolled inside the entry's text */
	int nested;  /* tables its [[references]] rolled */
	/* the entry's text with its dice rolled ("5 goblins (2d4: 3+2)") and
	 * references expanded; as written when it holds neither, is struck, or
	 * was only looked up */
	char text[TENSION_ROLLED_MAX];
};

/* Looks d10 + tension up in table (the total is clamped into the table's
 * span). Rolls nothing: text is the entry as written. */
void tension_pick_at(const struct roll_table *table, int d10, int tension,
                     struct tension_pick *out);
/* Rolls the table (d10 + tension when tension >= 1 and the table covers
 * 1..20, else its own die: roll_table_roll.h), looks the result up and,
 * unless the entry is struck, rolls the dice written in it and the tables
 * its [[references]] name (found through lk, which may be NULL). */
void tension_pick(struct rng *r, const struct roll_table *table, int tension,
                  const struct roll_table_lookup *lk, struct tension_pick *out);

struct tension_roll {
	int tension, exits;
	bool safe; /* a safe area: no encounter check was made */
	int event_d12;
	enum tension_dungeon_event event;
	struct tension_pick effect;    /* meaningful when event is TENSION_DE_EFFECT */
	struct encounter_check check;  /* all zero (no roll) in a safe area */
	struct tension_pick encounter; /* meaningful when check.encounter */
	bool event_happens;            /* an event other than nothing (and not a struck effect) */
	bool encounter_happens;        /* the check triggered and the entry is not struck */
};

/*
 * Makes a tension roll: the dungeon event d12 (and d10 + Tension on effects
 * for 7-10), then the encounter check d12 against exits and Tension (and
 * d10 + Tension on encounters when it triggers), in that order; then the
 * dice inside the effect's text and the encounter's text (not of struck
 * entries). The d12s and d10s come first so that dice inside a table never
 * change whether an encounter happens. In a safe area (safe) monsters do
 * not go, so the encounter check is not rolled at all; the dungeon event
 * still is. tension is 1..10, exits >= 0. A table over 1..20 is read with
 * d10 + Tension, any other by its own die (tension_pick); lk finds the
 * tables the entries' [[references]] name (NULL: none). With encounters
 * NULL (the encounter is already known: a sign's creature) no encounter
 * table is rolled.
 */
void tension_roll(struct rng *r, int tension, int exits, bool safe,
                  const struct roll_table *encounters, const struct roll_table *effects,
                  const struct roll_table_lookup *lk, struct tension_roll *out);

/* --- default tables (RULES.md section 3) --- */

enum tension_table {
	TENSION_TABLE_ENCOUNTER,
	TENSION_TABLE_EFFECTS,
	TENSION_TABLE_COUNT
};

/* "encounter" / "effects", and the reverse (-1 for an unknown name). */
const char *tension_table_name(enum tension_table k);
int tension_table_find(const char *name);
/* The default table's text, as roll_table_parse takes it. */
const char *tension_table_default_text(enum tension_table k);
/* Fills *out with the default table (never fails). */
void tension_table_default(enum tension_table k, struct roll_table *out);
/* Parses a table of kind k over 1..20 being set; see roll_table_parse. */
int tension_table_parse(const char *text, struct roll_table *out, char *err, size_t errlen);
/* The same for a table's saved text; see roll_table_load. */
int tension_table_load(const char *text, struct roll_table *out, char *err, size_t errlen);

#endif
