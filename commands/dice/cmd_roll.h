/*
 * cmd_roll: the /roll and /gmroll commands (dice in the full chat notation,
 * the advantage shorthand of rules/dice/dice.h, saved rolls by name). The
 * commands are static data.
 */
#ifndef DELVER_CMD_ROLL_H
#define DELVER_CMD_ROLL_H

#include "commands/core/registry.h"
#include "rules/dice/dice.h"

extern const struct command cmd_roll;
extern const struct command cmd_gmroll;

/*
 * Where a secret roll (a player's blind roll, or the GM's own behind the
 * screen) goes, for every command that rolls in secret: the channel is told
 * who rolls in secret and nothing else, and what the caller adds next goes
 * to the GM seat's holder alone (or, for the GM's own roll, to the invoker
 * alone): commands/gm/gm_screen.h. Returns the key of the one it goes to,
 * or NULL, with an error reply, when nobody holds the seat; the refusal
 * suggests rolling in the open with /roll, or with /table roll TABLE when
 * table (the table a secret table roll was for) is not NULL.
 */
const char *cmd_roll_secret_to(struct invocation *inv, struct reply *out, const char *table);

#endif
