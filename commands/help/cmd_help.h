/*
 * cmd_help: the /help command (every command, or one in full, from
 * command_table). The command is static data.
 */
#ifndef DELVER_CMD_HELP_H
#define DELVER_CMD_HELP_H

#include "commands/core/registry.h"

extern const struct command cmd_help;

#endif
