/*
 * cmd_light: the /light command (the party's light sources). The command
 * is static data, listed in command_table (commands/core/commands.c).
 */
#ifndef DELVER_CMD_LIGHT_H
#define DELVER_CMD_LIGHT_H

#include "commands/core/registry.h"

extern const struct command cmd_light;

#endif
