/* commands: the tables of command families and channel state modules. */
#include "commands/commands.h"

#include <stddef.h>

#include "commands/proc_state.h"

const struct command *const command_table[] = {

    &cmd_roll,  &cmd_gm,     &cmd_help,    &cmd_hazard,      &cmd_turn,
    &cmd_light, &cmd_rest,   &cmd_wander,  &cmd_surprise,    &cmd_procedure,
    &cmd_safe,  &cmd_vendor, &cmd_bargain, &cmd_encumbrance, NULL,
};

const struct chanmod *const chanmod_table[CHANMOD_COUNT + 1] = {
    [CHANMOD_PROC] = &proc_mod,
    NULL,
};
