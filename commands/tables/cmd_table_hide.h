/*
 * cmd_table_hide: the subcommands of /table that move the channel's own
 * tables behind the GM's screen and out again.
 */
#ifndef DELVER_CMD_TABLE_HIDE_H
#define DELVER_CMD_TABLE_HIDE_H

#include "commands/core/registry.h"

/* /table hide: marks one of the channel's tables behind the GM's screen,
 * with the tables it names. While Tension is hidden the channel learns only
 * that the GM put a table there (it reads as none to the players now);
 * while it is open, only that the GM changed the marks (and the rest goes to the GM). */
void cmd_table_hide(struct invocation *inv, struct reply *out);
/* /table reveal: takes the mark off one of the channel's tables, unless
 * its name or a marked table's reference keeps it behind the screen.
 * While Tension is hidden the channel reads it (the players may read the
 * table now); while it is open, only that the GM changed the marks. */
void cmd_table_reveal(struct invocation *inv, struct reply *out);

#endif
