/*
 * cmd_fungeon_hallway: /fungeon entrance, hallway, pick and enter (into
 * the dungeon, between rooms, who builds what, and into the room built);
 * handlers of the /fungeon table in cmd_fungeon.c. They change the
 * channel's Fungeon state, which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_HALLWAY_H
#define DELVER_CMD_FUNGEON_HALLWAY_H

#include <stddef.h>

#include "commands/core/registry.h"
#include "commands/fungeon/fungeon_channel.h"

void cmd_fungeon_hallway(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_pick(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_entrance(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_enter(struct invocation *inv, struct reply *out);

/* After a piece of kind k was made or unmade for the room in the hallway:
 * a holder's waiver of its category stands while the points left are
 * ones no new piece can use (out says so), and lapses otherwise (out says
 * so when points are left). The GM's waiver stands as made. */
void cmd_fungeon_hallway_waiver_check(struct fungeon_channel *c, enum fungeon_kind k,
                                      struct reply *out);
/* Writes "di: Traps 1; bo: Monsters 2" for the waivers standing now into
 * buf; returns how many categories they cover. */
int cmd_fungeon_hallway_waived(const struct fungeon_channel *c, char *buf, size_t len);

#endif
