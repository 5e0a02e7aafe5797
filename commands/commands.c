/* commands: the tables of command families and channel state modules. */
#include "commands/commands.h"

#include <stddef.h>

const struct command *const command_table[] = {

    &cmd_roll,
    &cmd_gm,
    &cmd_help,
    NULL,
};

const struct chanmod *const chanmod_table[CHANMOD_COUNT + 1] = {
    NULL,
};
