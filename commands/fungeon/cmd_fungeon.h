/*
 * cmd_fungeon: the /fungeon command (the masterless dungeon crawl): the
 * command table; the handlers are in cmd_fungeon_*.h. The command is
 * static data; the handlers change the channel's Fungeon state
 * (fungeon_channel.h), which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_H
#define DELVER_CMD_FUNGEON_H

#include "commands/core/registry.h"

extern const struct command cmd_fungeon;

#endif
