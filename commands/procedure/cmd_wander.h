/*
 * cmd_wander: the /wander command (wandering-monster checks and the
 * back-to-town check). The command is static data.
 */
#ifndef DELVER_CMD_WANDER_H
#define DELVER_CMD_WANDER_H

#include "commands/core/registry.h"

extern const struct command cmd_wander;

#endif
