/*
 * panel_state: which message shows a channel's panel (module slot
 * CHANMOD_PANEL), so that a transport keeps editing it after a restart.
 *
 * The state is the platform's id of that message and, where the platform
 * has them, the id of the server the channel is in (a Discord guild: it
 * tells which of a fleet's processes keeps the panel current after a
 * start), each at most PANEL_MESSAGE_MAX - 1 bytes of printable ASCII
 * without spaces (Discord's ids are up to 20 digits). A channel without a
 * panel has no module state at all. The panel is a view: /undo never takes
 * the panel's message back (undo.h restores the game modules alone).
 *
 * Saved as {"message": "<id>"} ("" in a fresh state), with "server":
 * "<id>" beside it when there is one; load() refuses anything else. A
 * channel whose message is not "" is loaded at every start (struct
 * chanmod's at_start), however long it was idle.
 */
#ifndef DELVER_PANEL_STATE_H
#define DELVER_PANEL_STATE_H

#include <stdbool.h>

#include "commands/core/channel.h"
#include "commands/core/state.h"

#define PANEL_MESSAGE_MAX 33 /* bytes of a message id, with the NUL */

extern const struct chanmod panel_mod;

/* Whether id is a message id the state can hold. */
bool panel_state_id_valid(const char *id);

/* The id of the message showing ch's panel, or "" when none does. */
const char *panel_state_message(const struct channel *ch);

/* The id of the server ch's panel was posted in, or "" (none recorded:
 * a channel outside any server, or no panel). */
const char *panel_state_server(const struct channel *ch);

/* Records that message id shows ch's panel ("": none does any more), in
 * server ("" or NULL: none), and touches ch when that changed. id and a
 * non-empty server must pass panel_state_id_valid. Returns whether
 * anything changed. */
bool panel_state_set(struct channel *ch, const char *id, const char *server);

/* Calls fn for each channel in st's memory whose record names a panel
 * (its key, message and server, "" for none), in no particular order; fn
 * must not add or remove records. Channels not in memory are not seen. */
void panel_state_each(struct state *st,
                      void (*fn)(const char *chan_key, const char *message, const char *server,
                                 void *ctx),
                      void *ctx);

#endif
