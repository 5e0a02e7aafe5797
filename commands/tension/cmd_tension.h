/*
 * cmd_tension: the /tension command family, split by job:
 * cmd_tension.c (the track, the mode and the command table),
 * cmd_tension_roll.c (the tension roll) and cmd_tension_table.c (tables,
 * strike, unstrike). These are the pieces they share.
 */
#ifndef DELVER_CMD_TENSION_H
#define DELVER_CMD_TENSION_H

#include "commands/commands.h"
#include "commands/tension/tension_state.h"

void cmd_tension_roll_run(struct invocation *inv, struct reply *out);
void cmd_tension_table_show(struct invocation *inv, struct reply *out);
void cmd_tension_table_set(struct invocation *inv, struct reply *out);
void cmd_tension_table_reset(struct invocation *inv, struct reply *out);
void cmd_tension_table_strike(struct invocation *inv, struct reply *out);
void cmd_tension_table_unstrike(struct invocation *inv, struct reply *out);

/*
 * Behind the GM's screen: in hidden mode, tells the channel only what the
 * GM did ("The GM made a tension roll behind the screen.") and directs
 * everything added afterwards to the invoker alone. In open mode it does
 * nothing. what may be NULL: nothing is said in the channel.
 */
void cmd_tension_screen(const struct tension_state *ts, struct reply *out, const char *what);

#endif
