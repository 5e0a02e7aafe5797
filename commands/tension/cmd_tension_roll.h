/*
 * cmd_tension_roll: /tension roll (the dungeon event and the encounter
 * check, then the tables), a handler of the /tension command table in
 * cmd_tension.c. It changes the channel's tension state, which the channel
 * owns.
 */
#ifndef DELVER_CMD_TENSION_ROLL_H
#define DELVER_CMD_TENSION_ROLL_H

#include "commands/core/registry.h"

void cmd_tension_roll_run(struct invocation *inv, struct reply *out);

#endif
