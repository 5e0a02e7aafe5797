/*
 * cmd_hazard_set: the /hazard settings subcommands (table, chance, custom,
 * procedure, who, sign, fatigue), used by the command table in cmd_hazard.c. They
 * change the channel's procedure state (commands/procedure/procedure_state.h),
 * which the channel owns.
 */
#ifndef DELVER_CMD_HAZARD_SET_H
#define DELVER_CMD_HAZARD_SET_H

#include "commands/procedure/procedure_state.h"
#include "commands/core/registry.h"

void cmd_hazard_set_table(struct invocation *inv, struct reply *out);
void cmd_hazard_set_chance(struct invocation *inv, struct reply *out);
void cmd_hazard_set_custom(struct invocation *inv, struct reply *out);
void cmd_hazard_set_procedure(struct invocation *inv, struct reply *out);
void cmd_hazard_set_who(struct invocation *inv, struct reply *out);
void cmd_hazard_set_sign(struct invocation *inv, struct reply *out);
void cmd_hazard_set_fatigue(struct invocation *inv, struct reply *out);

/* The settings as lines: procedure, light lives, the Light result's mark
 * (when the table has a Light row), delving Fatigue's damage, classic
 * odds, who rolls. */
void cmd_hazard_set_lines(struct reply *out, const struct procedure_state *s);

#endif
