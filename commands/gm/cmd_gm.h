/*
 * cmd_gm: the /gm command family (who runs the game in this channel).
 * The command is static data, listed in command_table (commands/core/commands.c).
 */
#ifndef DELVER_CMD_GM_H
#define DELVER_CMD_GM_H

#include "commands/core/registry.h"

extern const struct command cmd_gm;

#endif
