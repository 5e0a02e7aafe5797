/*
 * cmd_log: the /log command (the channel's last rolls) and /settings (the
 * channel's output settings), both over the channel's roll state
 * (commands/dice/rollchan.h). The commands are static data.
 */
#ifndef DELVER_CMD_LOG_H
#define DELVER_CMD_LOG_H

#include "commands/core/registry.h"

extern const struct command cmd_log;
extern const struct command cmd_settings;

#endif
