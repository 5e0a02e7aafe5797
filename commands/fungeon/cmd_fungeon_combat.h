/*
 * cmd_fungeon_combat: /fungeon combat (a combat turn in its three steps);
 * a handler of the /fungeon table in cmd_fungeon.c. It changes the
 * channel's Fungeon state, which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_COMBAT_H
#define DELVER_CMD_FUNGEON_COMBAT_H

#include "commands/core/registry.h"

void cmd_fungeon_combat(struct invocation *inv, struct reply *out);

#endif
