/*
 * cmd_fungeon_retreat: /fungeon retreat, heading back to town from the
 * dungeon and going on back room by room; its handler for the /fungeon
 * table in cmd_fungeon.c. It changes the channel's Fungeon state, which
 * the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_RETREAT_H
#define DELVER_CMD_FUNGEON_RETREAT_H

#include "commands/core/registry.h"

void cmd_fungeon_retreat(struct invocation *inv, struct reply *out);

#endif
