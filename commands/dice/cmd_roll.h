/*
 * cmd_roll: the /roll and /gmroll commands (dice in the full chat notation)
 * and the advantage shorthand /save shares. The commands are static data;
 * cmd_roll_advantage writes into the caller's buffer and allocates nothing.
 */
#ifndef DELVER_CMD_ROLL_H
#define DELVER_CMD_ROLL_H

#include <stddef.h>

#include "commands/core/registry.h"

extern const struct command cmd_roll;
extern const struct command cmd_gmroll;

/* "1d20+5 adv" as "2d20kh1+5" (dis: kl1), written into buf (len bytes,
 * DICE_TEXT_MAX + 8 is enough); expr itself when it ends in neither word;
 * NULL with *err set (a sentence) when it has no plain d20. */
const char *cmd_roll_advantage(const char *expr, char *buf, size_t len, const char **err);

#endif
