/*
 * cmd_fungeon_design: /fungeon cost, trap, monster, treasure, take, use and
 * town: designs priced against the room's budget, stored by name, and
 * treasure carried. The subcommand tables are static data for the /fungeon
 * table in cmd_fungeon.c; the designs belong to the channel's Fungeon
 * state.
 */
#ifndef DELVER_CMD_FUNGEON_DESIGN_H
#define DELVER_CMD_FUNGEON_DESIGN_H

#include "commands/core/registry.h"

extern const struct command cmd_fungeon_design_cost_subs[];
extern const struct command cmd_fungeon_design_trap_subs[];
extern const struct command cmd_fungeon_design_monster_subs[];
extern const struct command cmd_fungeon_design_treasure_subs[];
extern const struct command cmd_fungeon_design_town_subs[];

void cmd_fungeon_design_take(struct invocation *inv, struct reply *out);
void cmd_fungeon_design_use(struct invocation *inv, struct reply *out);

#endif
