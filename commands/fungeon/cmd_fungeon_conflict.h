/*
 * cmd_fungeon_conflict: /fungeon annoy, find, trigger and pain, the
 * conflicts, every player rolling with their Thwack-O die; handlers of the
 * /fungeon table in cmd_fungeon.c. They change the channel's Fungeon state,
 * which the channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_CONFLICT_H
#define DELVER_CMD_FUNGEON_CONFLICT_H

#include "commands/core/registry.h"

void cmd_fungeon_conflict_annoy(struct invocation *inv, struct reply *out);
void cmd_fungeon_conflict_find(struct invocation *inv, struct reply *out);
void cmd_fungeon_conflict_trigger(struct invocation *inv, struct reply *out);
void cmd_fungeon_conflict_pain(struct invocation *inv, struct reply *out);

#endif
