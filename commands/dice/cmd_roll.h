/*
 * cmd_roll: the /roll and /gmroll commands (dice in the full chat notation,
 * the advantage shorthand of rules/dice/dice.h, saved rolls by name). The
 * commands are static data.
 */
#ifndef DELVER_CMD_ROLL_H
#define DELVER_CMD_ROLL_H

#include "commands/core/registry.h"

extern const struct command cmd_roll;
extern const struct command cmd_gmroll;

#endif
