/*
 * cmd_fungeon_combat: /fungeon combat (a combat turn in its three steps)
 * and retreat (the back-to-town check); handlers of the /fungeon table in
 * cmd_fungeon.c. They change the channel's Fungeon state, which the
 * channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_COMBAT_H
#define DELVER_CMD_FUNGEON_COMBAT_H

#include "commands/core/registry.h"

void cmd_fungeon_combat(struct invocation *inv, struct reply *out);
void cmd_fungeon_combat_retreat(struct invocation *inv, struct reply *out);

#endif
