/*
 * discord_pending: deferrals a killed process left unanswered.
 *
 * A command's deferral (callback type 5, discord_defer.h) shows the user
 * Discord's "thinking..." until the answer edits it; a button's (type 6)
 * shows nothing, and its answer follows as a message of its own or as the
 * edit of the pressed message. A process killed in between (kill -9, a
 * crash) would leave either unanswered for good, and whether a press's
 * change was made unknown to its user. Before a deferral goes, a note of
 * it is written to DIR/discord-deferred/ID (DIR
 * the process's state directory, ID the interaction's): its webhook path
 * (its token: the file and its directory are the service user's alone),
 * its type, and the keys of its channel and user. The note goes once the
 * edit is made (a button's answer that is a message of its own: once its
 * first message went), or can no longer be (the deferral failed, the
 * token is refused). Notes are written without fsync: they outlive the
 * process, not the machine.
 *
 * At start, each note whose token still serves (15 minutes from the
 * interaction's creation, DEFER_TOKEN_MS) is worked out once:
 *  1. GET @original: an answer already there (no LOADING flag; an earlier
 *     edit went before the kill), or none to edit (404, 401): nothing to
 *     do. After a button's type 6, @original is the pressed message,
 *     which cannot show whether the answer went: only 404 and 401 count.
 *  2. Still loading: the store tells whether the command's change was
 *     committed, as for a replay (the mark of the interaction's id,
 *     request.h), and the command is never run again. Committed: the
 *     answer kept with the mark edits the deferral (a button's: the
 *     pressed message, or a message of its own), and its follow-ups and
 *     GM message go, as they would have. Not committed (or it changed
 *     nothing, so left no mark): the deferral is edited with
 *     PENDING_NOTHING_DONE; a button's presser is told
 *     PENDING_NOTHING_DONE_PRESS in a message only they see (the pressed
 *     message stays as it is). A store that cannot tell leaves the note
 *     for the next start.
 * A note past its token's time is removed, and logged. A kill between a
 * button's answer going and its note going sends that answer again at the
 * next start (never the change: the command is not run again).
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h; nothing outside bot/discord/discord*.c includes
 * this header.
 */
#ifndef DELVER_DISCORD_PENDING_H
#define DELVER_DISCORD_PENDING_H

#include <stdint.h>

#define PENDING_DIR "discord-deferred"
#define PENDING_NOTHING_DONE                                                                       \
	"delver restarted before it could answer, and nothing was changed: please run the "        \
	"command again."
#define PENDING_NOTHING_DONE_PRESS                                                                 \
	"delver restarted before it could answer your press of the button, and nothing was "       \
	"changed: please press it again."

struct discord;
struct defer_item;
struct origin;

/* item's deferral is about to go: its note is written (a command's or a
 * form's only; o is its request's origin). */
void discord_pending_note(struct discord *dc, const struct defer_item *item,
                          const struct origin *o);
/* The deferral of interaction id (its digits) is answered, or can no
 * longer be: its note goes, if it has one. */
void discord_pending_done(struct discord *dc, const char *id);
/* At start: the notes a process before this one left, worked out as above. */
void discord_pending_resume(struct discord *dc);

#endif
