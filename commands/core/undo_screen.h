/*
 * undo_screen: which changes of a channel's undo history stay behind the
 * GM's screen.
 *
 * While Tension is hidden, only the GM sees its value, its changes, its
 * rolls and its tables. A change in the undo history (commands/undo.h) is
 * then behind the screen when it changed Tension, or when its command is
 * the GM's (a GM-only command or subcommand: a table edit, a strike, the
 * creature of a sign), or a change to the channel's own tables made while
 * someone held the GM seat (/table, whose encounter tables are the GM's
 * while Tension is hidden; a player changes tables only while nobody
 * holds it, and then only those the player may read), or when
 * the GM made it behind the screen (a hidden tension roll or wandering
 * check, whatever its command's role): what /undo says of it to the
 * channel or to a player names neither the command nor what it changed;
 * the GM alone is told. A GM's change the channel read all of when it
 * was made (a public /light fail: no part for the GM alone, not made
 * behind the screen, Tension and the tables untouched; the undo step's
 * UNDO_PUBLIC) holds nothing hidden and is named to everyone. A change to which tables go behind
 * the screen
 * (/table hide, /table reveal) is behind it with Tension open too: the
 * GM alone reads those marks (commands/tables/cmd_table.c).
 */
#ifndef DELVER_UNDO_SCREEN_H
#define DELVER_UNDO_SCREEN_H

#include <stdbool.h>

#include "commands/core/state.h"

/* What undo_screen decides from: a change as its undo step keeps it. */
struct undo_screen_step {
	const char *path;     /* its command path, "tension set" */
	bool changed_tension; /* it changed Tension */
	bool screened;        /* the GM made it behind the screen */
	bool seated;          /* someone held the GM seat or acted as GM when it was made */
	bool public;          /* the channel read all of it (UNDO_PUBLIC) */
};

/* Whether the change s is behind the screen in ch now. */
bool undo_screen_hides(const struct channel *ch, const struct undo_screen_step *s);
/* The same with Tension hidden (hidden true) or open, whatever it is now:
 * as it will be when /undo reaches a step deeper in the history. */
bool undo_screen_hides_when(bool hidden, const struct undo_screen_step *s);

#endif
