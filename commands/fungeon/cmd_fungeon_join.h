/*
 * cmd_fungeon_join: /fungeon join and leave, who is in the party; handlers
 * of the /fungeon table in cmd_fungeon.c. They change the channel's
 * Fungeon state, which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_JOIN_H
#define DELVER_CMD_FUNGEON_JOIN_H

#include "commands/core/registry.h"

void cmd_fungeon_join(struct invocation *inv, struct reply *out);
void cmd_fungeon_leave(struct invocation *inv, struct reply *out);

#endif
