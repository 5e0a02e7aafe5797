/*
 * cmd_fungeon_hallway: /fungeon entrance, hallway, pick and enter (into
 * the dungeon, between rooms, who builds what, and into the room built);
 * handlers of the /fungeon table in cmd_fungeon.c. They change the
 * channel's Fungeon state, which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_HALLWAY_H
#define DELVER_CMD_FUNGEON_HALLWAY_H

#include "commands/core/registry.h"

void cmd_fungeon_hallway(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_pick(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_entrance(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_enter(struct invocation *inv, struct reply *out);

#endif
