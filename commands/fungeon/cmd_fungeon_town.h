/*
 * cmd_fungeon_town: /fungeon take, use and town (treasure carried and
 * used, trading and the healer; the way back is cmd_fungeon_retreat's);
 * handlers and the town subcommand table for the /fungeon table in
 * cmd_fungeon.c. They change the channel's Fungeon state, which the
 * channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_TOWN_H
#define DELVER_CMD_FUNGEON_TOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/registry.h"

extern const struct command cmd_fungeon_town_subs[];

void cmd_fungeon_town_take(struct invocation *inv, struct reply *out);
void cmd_fungeon_town_use(struct invocation *inv, struct reply *out);

/* Points of credit in plain words, the same on every platform: "0
 * points", "1 point", "3 points". Returns buf. */
const char *cmd_fungeon_town_points(int64_t points, char *buf, size_t len);

#endif
