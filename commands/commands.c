/* commands: the tables of command families and channel state modules. */
#include "commands/commands.h"

#include <stddef.h>

#include "commands/tension_state.h"

/* One family per line, so that each new family adds one line. */
/* clang-format off */
const struct command *const command_table[] = {

    &cmd_roll,
    &cmd_gm,
    &cmd_tension,
    &cmd_help,
    NULL,
};
/* clang-format on */

const struct chanmod *const chanmod_table[CHANMOD_COUNT + 1] = {
    [CHANMOD_TENSION] = &tension_chanmod,
};
