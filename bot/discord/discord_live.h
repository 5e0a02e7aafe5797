/*
 * discord_live: the live panels of one Discord transport (issue 30), the
 * calls they make; discord_panel.h decides when.
 *
 * A /panel's reply (reply_panel) is posted to its channel with the bot
 * token (POST /channels/C/messages), not as the interaction's answer, so
 * that it can be edited with no interaction token (which lives 15
 * minutes); the interaction's own answer is the invoker's alone
 * (discord_interact.h). Once posted, the message is recorded in the
 * channel's record through the command road (cmd_panel_placed, bound
 * here), and the message it replaces, if any, is deleted: one panel per
 * channel, however several /panel cross. The post itself, and what the
 * /panel's answer says of it, is discord_live_post.h's.
 *
 * Every change kept on the road in a channel whose record names a panel
 * (dispatch_watch_panels) makes it stale; when discord_panel says so, the
 * panel is rendered through the road (a /panel of the transport's own,
 * answered in the channel's order, after the changes before it) and the
 * message edited (PATCH, REST_OPTIONAL: shed first when Discord answers
 * too many requests 401, 403 or 429). A message Discord says is gone, or
 * the channel out of reach, is forgotten at once: the record is cleared
 * (cmd_panel_placed with was:), with one log line, and nothing is tried
 * again.
 *
 * A press of a panel's button is answered once its command's answer and
 * the panel rendered after it are both there: the press updates the panel
 * (type 7) and what it did follows as a message of its own
 * (discord_interact_render_press); the panel's own edit for that change is
 * then not needed, once Discord took the update (discord_panels_updating,
 * then discord_panels_updated when discord_live_answered says the answer
 * is over). A press whose panel renders to what the message is known to
 * show, with no write to it on its way (a change the panel does not show:
 * hidden Tension raised, a wandering check that met nothing), is answered
 * with type 6 instead, which leaves the message as it is (no "edited"
 * mark, no edit spent), and what it did follows all the same
 * (discord_panels_shows).
 *
 * The transport's own requests answer to this module alone; those that
 * record the panel's message change no game state and make no edit.
 * Everything runs on the transport's loop, on the struct discord of
 * discord_int.h.
 */
#ifndef DELVER_DISCORD_LIVE_H
#define DELVER_DISCORD_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct discord;
struct request;

/* Makes the live panels (their timer on dc's loop) and watches the road. */
void discord_live_start(struct discord *dc);
/* The shards this process runs are known (dc's shard_count, first, last):
 * every panel in memory whose channel is in a guild of those shards (a DM
 * channel's: shard 0's) is checked, PANEL_CHECK_GAP_MS apart, so that
 * after a restart each shows the channel as it is now (a kill may have
 * come before the edit of the last changes), unless it does already; a
 * panel found deleted meanwhile is forgotten. The store loads every
 * channel with a panel at start, however long it was idle (struct
 * chanmod's at_start), so every panel is checked. */
void discord_live_started(struct discord *dc);
/* Stops watching the road and the timer; the timer's handle closes
 * (part_closed counts it). */
void discord_live_close(struct discord *dc, void (*closed)(void *ctx), void *ctx);
void discord_live_free(struct discord *dc);

/* Whether dc's live panels run (started, not closing): a new panel is
 * posted only then. When they do and seq is not NULL, *seq is the count
 * of changes so far (discord_panels_seq), which a panel rendered now
 * shows. */
bool discord_live_running(struct discord *dc, uint64_t *seq);
/* A new panel was posted in channel chan as message msg (server: its
 * guild, "" none), rendered when seq changes were counted, its body's
 * hash body: the channel's record is bound to it through the road, then
 * the message it replaces is deleted and it shows the changes up to seq. */
void discord_live_placed(struct discord *dc, uint64_t chan, const char *msg, const char *server,
                         uint64_t seq, uint64_t body);
/* req, an interaction's request just answered: when it is a press of a
 * panel's button that did something in the channel, it is kept, and
 * answered once the panel is rendered anew (true); else false. */
bool discord_live_press(struct discord *dc, struct request *req);
/* Interaction id's answer is over: landed when Discord took the callback,
 * or the edit of its deferral, that updates the pressed message (the
 * panel, for a press discord_live_press kept); called again for the same
 * id, or for any other interaction, it does nothing. */
void discord_live_answered(struct discord *dc, const char *id, bool landed);

#endif
