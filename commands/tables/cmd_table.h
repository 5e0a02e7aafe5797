/*
 * cmd_table: the /table command, the channel's own named tables
 * (commands/tables/tables_state.h): set, roll, show, list, delete, copy, hide,
 * reveal.
 * The command is static data.
 */
#ifndef DELVER_CMD_TABLE_H
#define DELVER_CMD_TABLE_H

#include "commands/core/registry.h"
#include "rules/tables/roll_table.h"

extern const struct command cmd_table;

/*
 * Says (in out) which [[references]] in table t name no table of the
 * channel yet, as /table set does when a table is saved: a table made
 * elsewhere (a custom hazard die, a Tension table) warns alike, so a
 * misspelt name is seen when the table is made, not on the turn it comes
 * up. self is the table's own name ("" for none), which a reference may
 * name. The writer is inv's user; while Tension is hidden the note keeps
 * the tables behind the GM's screen from the players.
 */
void cmd_table_missing_refs(struct invocation *inv, const char *self, const struct roll_table *t,
                            struct reply *out);

#endif
