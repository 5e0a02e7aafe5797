/* /fungeon find, trigger, disarm: a room's traps. */
#ifndef DELVER_CMD_FUNGEON_TRAP_H
#define DELVER_CMD_FUNGEON_TRAP_H

#include "commands/core/registry.h"

void cmd_fungeon_trap_find(struct invocation *inv, struct reply *out);
void cmd_fungeon_trap_trigger(struct invocation *inv, struct reply *out);
void cmd_fungeon_trap_disarm(struct invocation *inv, struct reply *out);

#endif
