/*
 * commands: the tables of command families and channel state modules.
 * Each family is a file (or folder) in commands/ that defines one
 * top-level struct command, declared in that file's own header;
 * commands.c lists them in command_table (the order /help shows) and the
 * channel state modules in chanmod_table. Both tables are static data,
 * declared where their readers look for them: command_table in
 * commands/registry.h, chanmod_table in commands/channel.h.
 */
#ifndef DELVER_COMMANDS_H
#define DELVER_COMMANDS_H

#include "commands/channel.h"
#include "commands/registry.h"

#endif
