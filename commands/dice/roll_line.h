/*
 * roll_line: a roll of dice as a line of a reply, for /roll (cmd_roll) and
 * every command that shows a roll of dice given by a user.
 */
#ifndef DELVER_ROLL_LINE_H
#define DELVER_ROLL_LINE_H

#include <stddef.h>

#include "commands/core/reply.h"
#include "rules/dice/dice.h"

/* Repeat r of e as /roll shows it: "1d20 + 5: [15] + 5 = 20" (every die with its marks,
 * long pools summed up, the total), or " 2: ..." when e repeats. */
void roll_line_repeat(struct reply *out, const struct dice_expr *e, size_t r);

#endif
