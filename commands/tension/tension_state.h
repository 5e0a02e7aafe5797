/*
 * tension_state: a channel's Tension (the CHANMOD_TENSION module slot).
 *
 * Holds the track (value and history of changes), the mode (open, or
 * hidden behind the GM's screen) and the channel's encounter and effects
 * tables with their struck entries. The channel record owns the state;
 * pointers returned here stay valid as long as the channel record.
 *
 * Other features read a channel's Tension through tension_state_value()
 * and tension_state_table() (the procedure feature's /wander tension).
 */
#ifndef DELVER_TENSION_STATE_H
#define DELVER_TENSION_STATE_H

#include <stdbool.h>

#include "commands/core/state.h"
#include "rules/tension/tension.h"

struct tension_state {
	struct tension track;
	bool hidden; /* behind the GM's screen; default open */
	/* The GM's screen the changes are made behind while hidden: screen
	 * counts the GMs who held one here, screen_gm (owned, NULL before any)
	 * is the user key of the one behind it now. A change made behind it is
	 * marked with screen (struct tension_change): a GM sees the changes of
	 * their own screen only, so one who takes the seat later reads the
	 * value, not what was done before. */
	int screen;
	char *screen_gm;
	/* NULL: the kind's default table with nothing struck, shared (most
	 * channels); a table of the channel's own once set or struck. Read
	 * with tension_state_get_table, change with tension_state_edit_table. */
	struct roll_table *tables[TENSION_TABLE_COUNT];
};

/* Table k as the channel has it (never NULL). */
const struct roll_table *tension_state_get_table(const struct tension_state *ts,
                                                 enum tension_table k);
/* Table k to change in place: the channel's own, copied from the default
 * on first use. Call tension_state_edited() once the change is made. */
struct roll_table *tension_state_edit_table(struct tension_state *ts, enum tension_table k);
/* Drops tables that are back to their default with nothing struck. */
void tension_state_edited(struct tension_state *ts);

/* Marks the newest change as made behind the screen of gm (a user key),
 * whose screen it becomes when it was another's. */
void tension_state_screened(struct tension_state *ts, const char *gm);
/* Whether the user viewer may read change c (made in the open, or behind
 * the viewer's own screen, the one in force). */
bool tension_state_sees(const struct tension_state *ts, const struct tension_change *c,
                        const char *viewer);
/* Opening the screen: the changes made behind viewer's screen become the
 * channel's to read; those behind an earlier GM's stay theirs. */
void tension_state_reveal(struct tension_state *ts, const char *viewer);

/* The module: fresh state is Tension 1, open, the default tables. */
extern const struct chanmod tension_chanmod;

/* The channel's Tension state, created on first use (the caller touches
 * the channel after changing it). */
struct tension_state *tension_state_of(struct channel *ch);

/* The channel's Tension, 1..10: TENSION_START when the channel never used
 * Tension. Reads only; creates nothing. */
int tension_state_value(const struct channel *ch);

/* Whether the channel keeps Tension hidden behind the GM's screen. */
bool tension_state_hidden(const struct channel *ch);

/* Copies the channel's table of that kind (with its struck entries) into
 * *out, or the default table when the channel never used Tension. */
void tension_state_table(const struct channel *ch, enum tension_table k, struct roll_table *out);

#endif
