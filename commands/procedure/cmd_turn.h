/*
 * cmd_turn: the /turn command (the turn clock) and the table of lit
 * sources /light shares. The command is static data; the channel's
 * procedure state is the caller's.
 */
#ifndef DELVER_CMD_TURN_H
#define DELVER_CMD_TURN_H

#include "commands/procedure/procedure_state.h"
#include "commands/core/registry.h"

extern const struct command cmd_turn;

/* The lit sources as a table: which, carried by, turns left. */
void cmd_turn_lights_table(struct reply *out, const struct procedure_state *s);

#endif
