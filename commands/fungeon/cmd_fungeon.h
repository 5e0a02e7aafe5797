/*
 * cmd_fungeon: the /fungeon command (the masterless dungeon crawl): the
 * command table and the party's own subcommands; the others are in
 * cmd_fungeon_*.h. The command is static data; the handlers change the
 * channel's Fungeon state (fungeon_channel.h), which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_H
#define DELVER_CMD_FUNGEON_H

#include "commands/core/registry.h"

extern const struct command cmd_fungeon;

void cmd_fungeon_join(struct invocation *inv, struct reply *out);
void cmd_fungeon_leave(struct invocation *inv, struct reply *out);
void cmd_fungeon_sheet(struct invocation *inv, struct reply *out);
void cmd_fungeon_party(struct invocation *inv, struct reply *out);
void cmd_fungeon_floor(struct invocation *inv, struct reply *out);
void cmd_fungeon_damage(struct invocation *inv, struct reply *out);
void cmd_fungeon_heal(struct invocation *inv, struct reply *out);
void cmd_fungeon_xp(struct invocation *inv, struct reply *out);
void cmd_fungeon_xprule(struct invocation *inv, struct reply *out);

#endif
