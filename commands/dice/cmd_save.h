/*
 * cmd_save: the /save and /saved commands (rolls saved under a name, a
 * player's own or the channel's; rollchan_lookup finds them). The
 * commands are static data.
 */
#ifndef DELVER_CMD_SAVE_H
#define DELVER_CMD_SAVE_H

#include "commands/core/registry.h"

extern const struct command cmd_save;
extern const struct command cmd_saved;

#endif
