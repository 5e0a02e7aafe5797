/* commands: the tables of command families and channel state modules. */
#include "commands/core/commands.h"

#include <stddef.h>

#include "commands/gm/cmd_gm.h"
#include "commands/help/cmd_help.h"
#include "commands/dice/cmd_log.h"
#include "commands/dice/cmd_roll.h"
#include "commands/dice/cmd_save.h"
#include "commands/fungeon/cmd_fungeon.h"
#include "commands/fungeon/cmd_thwacko.h"
#include "commands/fungeon/cmd_xp.h"
#include "commands/fungeon/fungeon_save.h"
#include "commands/panel/cmd_panel.h"
#include "commands/panel/panel_state.h"
#include "commands/procedure/cmd_hazard.h"
#include "commands/procedure/cmd_light.h"
#include "commands/procedure/cmd_procedure.h"
#include "commands/procedure/cmd_rest.h"
#include "commands/procedure/cmd_safe.h"
#include "commands/procedure/cmd_surprise.h"
#include "commands/procedure/cmd_turn.h"
#include "commands/procedure/cmd_vendor.h"
#include "commands/procedure/cmd_wander.h"
#include "commands/procedure/procedure_state.h"
#include "commands/dice/rollchan.h"
#include "commands/tension/cmd_tension.h"
#include "commands/tables/cmd_table.h"
#include "commands/tables/tables_state.h"
#include "commands/tension/tension_state.h"
#include "commands/core/undo.h"

/* One family per line, so that each new family adds one line. */
/* clang-format off */
const struct command *const command_table[] = {

    &cmd_roll,
    &cmd_gmroll,
    &cmd_gm,
    &cmd_tension,
    &cmd_table,
    &cmd_fungeon,
    &cmd_thwacko,
    &cmd_xp,
    &cmd_hazard,
    &cmd_turn,
    &cmd_light,
    &cmd_rest,
    &cmd_wander,
    &cmd_surprise,
    &cmd_procedure,
    &cmd_safe,
    &cmd_panel,
    &cmd_vendor,
    &cmd_bargain,
    &cmd_encumbrance,
    &cmd_save,
    &cmd_saved,
    &cmd_log,
    &cmd_settings,
    &cmd_undo,
    &cmd_help,
    NULL,
};
/* clang-format on */

const struct console_line console_lines[] = {
    {"as", "/as NAME", "Play as NAME; with no name, say who you are (console)"},
    {"channel", "/channel NAME", "Move to channel NAME; with no name, say which (console)"},
    {"quit", "quit", "Leave delver; exit and Ctrl-D too (console)"},
    {0},
};

/* clang-format off */
const struct chanmod *const chanmod_table[CHANMOD_COUNT + 1] = {
    [CHANMOD_TENSION] = &tension_chanmod,
    [CHANMOD_FUNGEON] = &fungeon_mod,
    [CHANMOD_PROC] = &procedure_state_mod,
    [CHANMOD_ROLL] = &rollchan_mod,
    [CHANMOD_UNDO] = &undo_mod,
    [CHANMOD_TABLES] = &tables_mod,
    [CHANMOD_PANEL] = &panel_mod,
};
/* clang-format on */
