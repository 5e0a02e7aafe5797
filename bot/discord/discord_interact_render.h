/*
 * discord_interact_render: a request's reply as the bodies that answer its
 * interaction (discord_interact.h made the request).
 *
 * The reply goes into the body of the interaction callback (type 4
 * message, type 7 for a button that updates the pressed message, type 9
 * for a form). A reply longer than one message is sent in parts
 * (render_discord_parts): the first answers the callback, the others
 * follow as follow-up messages, in order. When a reply has both a channel
 * part and a private part, the private part follows as ephemeral
 * follow-up messages; a reply that is only private, or an error, is
 * ephemeral (flags 64). A reply's GM part (a player's secret roll) goes to
 * the GM seat's holder as a direct message, headed by the channel it came
 * from (see interact_out): an ephemeral message cannot be shown to anyone
 * but the invoker, and a GM known only by role or permission is not a
 * recipient (Discord names a role's members to a bot only with the
 * privileged GUILD_MEMBERS intent), so with several GMs the one who holds
 * the seat (/gm claim) gets it.
 *
 * Every body is owned by the caller (interact_out's, freed by
 * discord_interact_out_clear; the others with free()). Nothing here does
 * I/O.
 */
#ifndef DELVER_DISCORD_INTERACT_RENDER_H
#define DELVER_DISCORD_INTERACT_RENDER_H

#include "bot/discord/discord_interact.h"

/* The answer to a request discord_interact made, answered (its answer
 * function calls it): out is filled as an autocomplete's is, with the
 * request's interaction id, type, callback path, rx_ns and deadline. A
 * replayed request's (REQUEST_REPLAYED) is the answer kept with its mark;
 * -1 when that cannot be read (out then has nothing to send), else 0. */
int discord_interact_render(struct interact *it, struct request *req, struct interact_out *out);

/* The answer kept with a request's mark (bytes, len: what the request's
 * keep function wrote; NULL for none) into out (emptied before), its
 * webhook path webhook ("/webhooks/APP/TOKEN", or NULL when not known).
 * Returns 0, or -1 when the bytes are no such answer (out then has
 * nothing to send). */
int discord_interact_render_kept(const char *bytes, size_t len, const char *webhook,
                                 struct interact_out *out);

/*
 * The live panel (discord_live.h). A /panel's reply (reply_panel) renders
 * as the invoker's alone: PANEL_NOTE, then for the GM behind the screen
 * PANEL_COPY_NOTE and their copy (its private part); its channel message is the panel, posted by
 * the transport: discord_interact_render_panel writes it as a message's body (NULL when the reply
 * has no channel message). Its buttons are those whose line the custom_id carries (a line long
 * enough to be stored would expire at a restart, which the panel outlives): every message of the
 * panel, posted, edited or updated by a press, is these bytes, so that a hash of them
 * (discord_panel_hash) says what the message shows. A press of a panel's
 * button (discord_interact_pressed), once the panel is rendered anew after
 * it (panel: the body discord_interact_render_panel wrote, taken and freed
 * here; NULL none), updates the pressed message with the panel (type 7)
 * and posts what the press did as messages of its own, its private part
 * ephemeral (discord_interact_render_press, filling out as
 * discord_interact_render does, true). Without update (the message shows
 * that panel already: a change the panel does not show) it is answered
 * with type 6 (DEFERRED_UPDATE_MESSAGE), which changes nothing there, and
 * the messages of its own, unless it has none: then it updates all the
 * same. Returns whether the answer updates the pressed message; an error,
 * or a press with no channel message, is answered as any press, false; a
 * replay answered before is not pressed again: its answer is the one
 * kept, discord_answer_request.
 */
/* Which message is the panel, in words true whichever came first: the
 * answer goes after the post, unless the interaction was deferred before
 * it (the deferral's message then comes first). */
#define PANEL_NOTE                                                                                 \
	"Panel posted: it is the bot's message that begins with the turn, and it stays current "   \
	"as the game changes."
/* With Tension hidden, what heads the GM's copy of the panel, after
 * PANEL_NOTE. */
#define PANEL_COPY_NOTE                                                                            \
	"Your copy, with the Tension the screen hides, is for your eyes alone and is not kept "    \
	"current:"
char *discord_interact_render_panel(struct interact *it, const struct reply *r);
bool discord_interact_render_press(struct interact *it, struct request *press, char *panel,
                                   bool update, struct interact_out *out);

/* A callback body (type 4) answering with text, to the invoker alone and
 * pinging nobody. */
char *discord_interact_render_note(struct interact *it, const char *text);

#endif
