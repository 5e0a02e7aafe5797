/*
 * cmd_panel: /panel, the channel's state at a glance, with a button for
 * each of the GM's most frequent steps.
 *
 * The panel is at most four lines: the turn and the time in the dungeon,
 * the turns since the last rest (and whether one is due) and the lights
 * with their turns left; Tension (its bar while Tension is open; behind the
 * GM's screen only "hidden", the GM getting a copy with the bar for their
 * eyes alone) and the hazard table in use; for a Fungeon party, where it
 * is, who holds which category and chooses next, a stair to place or take
 * and the wandering monsters of the way back; and the Fungeon party's hits,
 * XP and levels. Under it:
 * Next turn (the hazard die), Rest, Tension +1 (the GM's), Wander and Undo,
 * each the command it names, with that command's own rights and refusals.
 *
 * The reply is marked as the channel's panel (reply_panel) with the id of
 * the message that shows it now: where a transport keeps a message current
 * (Discord), it posts the panel there once and edits it whenever the
 * channel changes; a new /panel moves it. cmd_panel_placed is how that
 * transport records the message it posted: it is in no command table, so
 * nobody types it, finds it in /help or sees it registered.
 */
#ifndef DELVER_CMD_PANEL_H
#define DELVER_CMD_PANEL_H

#include "commands/core/registry.h"

extern const struct command cmd_panel;

/*
 * Records which message shows the channel's panel: option "message" (an
 * id, or "" for none), optionally "server" (the id of the server the
 * channel is in), and, optionally, "was": then the record changes only
 * while it still names that message (a panel found deleted is forgotten
 * unless a newer one took its place meanwhile). The reply is marked as a
 * panel (reply_panel) whose message is the one the record named before
 * ("" none), which the transport deletes when it is not the new one; an
 * id that is not one the record can hold is an error.
 */
extern const struct command cmd_panel_placed;

#endif
