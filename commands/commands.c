/* commands: the tables of command families and channel state modules. */
#include "commands/commands.h"

#include <stddef.h>

/* One entry a line, so that each family's line merges on its own. */
/* clang-format off */
const struct command *const command_table[] = {

    &cmd_roll,
    &cmd_gm,
    &cmd_fungeon,
    &cmd_thwacko,
    &cmd_xp,
    &cmd_help,
    NULL,
};
/* clang-format on */

const struct chanmod *const chanmod_table[CHANMOD_COUNT + 1] = {
    [CHANMOD_FUNGEON] = &fungeon_mod,
};
