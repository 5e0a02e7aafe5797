/*
 * cmd_procedure: the /procedure command (a compact reference card of the
 * turn procedure). The command is static data.
 */
#ifndef DELVER_CMD_PROCEDURE_H
#define DELVER_CMD_PROCEDURE_H

#include "commands/core/registry.h"

extern const struct command cmd_procedure;

#endif
