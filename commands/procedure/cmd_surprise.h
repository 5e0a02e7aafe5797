/*
 * cmd_surprise: the /surprise command (WIS checks DC 12 for both sides).
 * The command is static data.
 */
#ifndef DELVER_CMD_SURPRISE_H
#define DELVER_CMD_SURPRISE_H

#include "commands/core/registry.h"

extern const struct command cmd_surprise;

#endif
