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
 * the GM alone is told. A change to which tables go behind the screen
 * (/table hide, /table reveal) is behind it with Tension open too: the
 * GM alone reads those marks (commands/tables/cmd_table.c).
 */
#ifndef DELVER_UNDO_SCREEN_H
#define DELVER_UNDO_SCREEN_H

#include <stdbool.h>

#include "commands/core/state.h"

/* Whether the change (its command path as /undo keeps it, "tension set";
 * whether it changed Tension; whether the GM made it behind the screen;
 * whether someone held the GM seat or acted as GM when it was made) is
 * behind the screen in ch now. */
bool undo_screen_hides(const struct channel *ch, const char *path, bool changed_tension,
                       bool screened, bool seated);
/* The same with Tension hidden (hidden true) or open, whatever it is now:
 * as it will be when /undo reaches a step deeper in the history. */
bool undo_screen_hides_when(bool hidden, const char *path, bool changed_tension, bool screened,
                            bool seated);

#endif
