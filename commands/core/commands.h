/*
 * commands: the tables of command families and channel state modules.
 * Each family is a folder of commands/ (beside this one, core/, which
 * holds the machinery) whose files each define one top-level struct
 * command, declared in that file's own header;
 * commands.c lists them in command_table (the order /help shows) and the
 * channel state modules in chanmod_table. Both tables are static data,
 * declared where their readers look for them: command_table in
 * commands/core/registry.h, chanmod_table in commands/core/channel.h.
 */
#ifndef DELVER_COMMANDS_H
#define DELVER_COMMANDS_H

#include "commands/core/channel.h"
#include "commands/core/registry.h"

#endif
