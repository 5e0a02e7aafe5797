/*
 * cmd_tension_table: /tension table, strike and unstrike (the channel's
 * encounter and effects tables), handlers of the /tension command table in
 * cmd_tension.c. The tables live in the channel's tension state, which the
 * channel owns.
 */
#ifndef DELVER_CMD_TENSION_TABLE_H
#define DELVER_CMD_TENSION_TABLE_H

#include "commands/core/registry.h"

void cmd_tension_table_show(struct invocation *inv, struct reply *out);
void cmd_tension_table_set(struct invocation *inv, struct reply *out);
void cmd_tension_table_reset(struct invocation *inv, struct reply *out);
void cmd_tension_table_strike(struct invocation *inv, struct reply *out);
void cmd_tension_table_unstrike(struct invocation *inv, struct reply *out);

#endif
