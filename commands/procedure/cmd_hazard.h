/* cmd_hazard: the /hazard settings handlers (cmd_hazard_set.c), used by
 * the command table in cmd_hazard.c. */
#ifndef DELVER_CMD_HAZARD_H
#define DELVER_CMD_HAZARD_H

#include "commands/procedure/procedure_state.h"
#include "commands/registry.h"

void hazard_table_fn(struct invocation *inv, struct reply *out);
void hazard_chance_fn(struct invocation *inv, struct reply *out);
void hazard_custom_fn(struct invocation *inv, struct reply *out);
void hazard_procedure_fn(struct invocation *inv, struct reply *out);
void hazard_who_fn(struct invocation *inv, struct reply *out);
void hazard_sign_fn(struct invocation *inv, struct reply *out);

/* The settings as lines: procedure, light lives, classic odds, who rolls. */
void hazard_settings_lines(struct reply *out, const struct procedure_state *s);

#endif
