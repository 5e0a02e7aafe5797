/*
 * cmd_rest: the /rest command (the party spends a turn resting). The
 * command is static data.
 */
#ifndef DELVER_CMD_REST_H
#define DELVER_CMD_REST_H

#include "commands/core/registry.h"

extern const struct command cmd_rest;

#endif
