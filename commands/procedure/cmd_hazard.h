/*
 * cmd_hazard: the /hazard command (the hazard die of the turn procedure)
 * and the hazard turn /rest shares. The command is static data; the
 * settings subcommands are in cmd_hazard_set.h. The channel's state is
 * the caller's (commands/procedure/procedure_state.h).
 */
#ifndef DELVER_CMD_HAZARD_H
#define DELVER_CMD_HAZARD_H

#include <stdbool.h>

#include "commands/procedure/procedure_state.h"
#include "commands/core/registry.h"
#include "rules/procedure/hazard.h"

extern const struct command cmd_hazard;

/*
 * Passes one turn with a roll of hazard table t (resting or not): rolls,
 * applies the bookkeeping and shows the whole table with the rolled row
 * highlighted, the result and the bookkeeping. The caller checked the
 * invoker's right and the table; touches the channel.
 */
void cmd_hazard_turn(struct invocation *inv, struct reply *out, struct procedure_state *s,
                     const struct hazard_view *v, bool resting);

#endif
