/*
 * cmd_safe: the /safe command (whether the party is in a safe area). The
 * command is static data.
 */
#ifndef DELVER_CMD_SAFE_H
#define DELVER_CMD_SAFE_H

#include "commands/core/registry.h"

extern const struct command cmd_safe;

#endif
