/*
 * cmd_fungeon_design: /fungeon cost, trap, monster and treasure: designs
 * priced against the room's budget and made for the room. The subcommand
 * tables are static data for the /fungeon table in cmd_fungeon.c; the
 * pieces belong to the channel's Fungeon state.
 */
#ifndef DELVER_CMD_FUNGEON_DESIGN_H
#define DELVER_CMD_FUNGEON_DESIGN_H

#include "commands/core/registry.h"
#include "rules/fungeon/fungeon_cost.h"

extern const struct command cmd_fungeon_design_cost_subs[];
extern const struct command cmd_fungeon_design_trap_subs[];
extern const struct command cmd_fungeon_design_monster_subs[];
extern const struct command cmd_fungeon_design_treasure_subs[];

/* Parses, prices and bounds the design of kind k in the "design" option.
 * Returns 0, or -1 with an error reply. */
int cmd_fungeon_design_of(struct invocation *inv, enum fungeon_kind k, struct fungeon_design *d,
                          struct fungeon_price *p, struct reply *out);

/* Whether text the invoker gives now shows as it is typed
 * (fungeon_name_shows()); else an error reply that starts with what
 * ("A name", "A class") and false. */
bool cmd_fungeon_design_shows(const char *what, const char *text, struct reply *out);
/* Whether a new name reads one way only (fungeon_name_reserved());
 * else an error reply and false. */
bool cmd_fungeon_design_name_free(const char *name, struct reply *out);

#endif
