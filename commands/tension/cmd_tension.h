/*
 * cmd_tension: the /tension command family, split by job: cmd_tension.c
 * (the track, the mode and the command table), cmd_tension_roll.c (the
 * tension roll) and cmd_tension_table.c (tables, strike, unstrike). The
 * command is static data; the channel's tension state
 * (commands/tension/tension_state.h) is the channel's.
 */
#ifndef DELVER_CMD_TENSION_H
#define DELVER_CMD_TENSION_H

#include "commands/core/registry.h"
#include "commands/tension/tension_state.h"

extern const struct command cmd_tension;

/*
 * Behind the GM's screen: in hidden mode, tells the channel only what the
 * GM did ("The GM made a tension roll behind the screen.") and directs
 * everything added afterwards to the invoker alone; with what, inv is
 * marked as made behind the screen (invocation_screen). In open mode it
 * does nothing. what may be NULL: nothing is said in the channel.
 */
void cmd_tension_screen(struct invocation *inv, const struct tension_state *ts, struct reply *out,
                        const char *what);

/* "Tension ████░░░░░░ 4/10" on the current line (which stays open). */
void cmd_tension_bar(struct reply *out, int value);

#endif
