/*
 * cmd_table: the /table command, the channel's own named tables
 * (commands/tables/tables_state.h): set, roll, show, list, delete, copy.
 * The command is static data.
 */
#ifndef DELVER_CMD_TABLE_H
#define DELVER_CMD_TABLE_H

#include "commands/core/registry.h"

extern const struct command cmd_table;

#endif
