/*
 * cmd_xp: the /xp command (the Fungeon level thresholds under this
 * channel's XP rule). The command is static data.
 */
#ifndef DELVER_CMD_XP_H
#define DELVER_CMD_XP_H

#include "commands/core/registry.h"

extern const struct command cmd_xp;

#endif
