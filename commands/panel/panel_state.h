/*
 * panel_state: which message shows a channel's panel (module slot
 * CHANMOD_PANEL), so that a transport keeps editing it after a restart.
 *
 * The state is the platform's id of that message: at most
 * PANEL_MESSAGE_MAX - 1 bytes of printable ASCII without spaces (a
 * Discord message id is up to 20 digits). A channel without a panel has no
 * module state at all. The panel is a view: /undo never takes the panel's
 * message back (undo.h restores the game modules alone).
 *
 * Saved as {"message": "<id>"} ("" in a fresh state); load() refuses
 * anything else.
 */
#ifndef DELVER_PANEL_STATE_H
#define DELVER_PANEL_STATE_H

#include <stdbool.h>

#include "commands/core/channel.h"

#define PANEL_MESSAGE_MAX 33 /* bytes of a message id, with the NUL */

extern const struct chanmod panel_mod;

/* Whether id is a message id the state can hold. */
bool panel_state_id_valid(const char *id);

/* The id of the message showing ch's panel, or "" when none does. */
const char *panel_state_message(const struct channel *ch);

/* Records that message id shows ch's panel ("": none does any more) and
 * touches ch when that changed. id must pass panel_state_id_valid (or be
 * ""). Returns whether anything changed. */
bool panel_state_set(struct channel *ch, const char *id);

#endif
