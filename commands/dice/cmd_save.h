/*
 * cmd_save: the /save and /saved commands (rolls saved under a name, a
 * player's own or the channel's) and the lookup /roll name uses. The
 * commands are static data; the text cmd_save_find returns belongs to the
 * user record or the channel and stays valid until either changes.
 */
#ifndef DELVER_CMD_SAVE_H
#define DELVER_CMD_SAVE_H

#include <stdbool.h>

#include "commands/core/registry.h"

extern const struct command cmd_save;
extern const struct command cmd_saved;

/* The roll saved as name (ASCII case ignored) for the invoker: their own
 * (in their user record, or kept in this channel by an older version,
 * moved to the record first) before the channel's. Returns its text, or
 * NULL; *canon gets the saved name, *mine whether it is the invoker's. */
const char *cmd_save_find(struct invocation *inv, const char *name, const char **canon, bool *mine);

#endif
