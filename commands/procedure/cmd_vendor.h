/*
 * cmd_vendor: the /vendor, /bargain and /encumbrance commands (safe-area
 * trade and carrying capacity). The commands are static data.
 */
#ifndef DELVER_CMD_VENDOR_H
#define DELVER_CMD_VENDOR_H

#include "commands/core/registry.h"

extern const struct command cmd_vendor;
extern const struct command cmd_bargain;
extern const struct command cmd_encumbrance;

#endif
