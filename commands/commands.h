/*
 * commands: the command families. Each family is one file in commands/ that
 * defines one top-level struct command; commands.c lists them in
 * command_table (the order /help shows) and the channel state modules in
 * chanmod_table.
 */
#ifndef DELVER_COMMANDS_H
#define DELVER_COMMANDS_H

#include "commands/registry.h"

extern const struct command cmd_roll;
extern const struct command cmd_help;
extern const struct command cmd_gm;
extern const struct command cmd_tension;

#endif
