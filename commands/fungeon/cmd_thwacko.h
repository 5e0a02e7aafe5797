/*
 * cmd_thwacko: the /thwacko command (each player's Thwack-O style, a user
 * preference kept across channels). The command is static data.
 */
#ifndef DELVER_CMD_THWACKO_H
#define DELVER_CMD_THWACKO_H

#include "commands/core/registry.h"

extern const struct command cmd_thwacko;

#endif
