/*
 * cmd_fungeon_party: /fungeon sheet, party, floor, stair, adjust and
 * xp-rule (the party as it stands and corrections to it by hand; join and
 * leave are cmd_fungeon_join's); handlers of the /fungeon table in
 * cmd_fungeon.c. They change the channel's Fungeon state, which the
 * channel owns.
 */
#ifndef DELVER_CMD_FUNGEON_PARTY_H
#define DELVER_CMD_FUNGEON_PARTY_H

#include "commands/core/registry.h"

void cmd_fungeon_sheet(struct invocation *inv, struct reply *out);
void cmd_fungeon_party(struct invocation *inv, struct reply *out);
void cmd_fungeon_floor(struct invocation *inv, struct reply *out);
void cmd_fungeon_stair(struct invocation *inv, struct reply *out);
void cmd_fungeon_adjust(struct invocation *inv, struct reply *out);
void cmd_fungeon_xprule(struct invocation *inv, struct reply *out);

#endif
