/*
 * discord_defer: held answers that would miss Discord's 3 s, deferred.
 *
 * A command's answer is held until the store has committed what it changed,
 * and a command whose records are being read waits for them
 * (commands/core/dispatch.h). With the store slow (a PostgreSQL failover, a
 * lock, a slow fsync) such an answer may be ready only after Discord's 3 s
 * window for the interaction's callback has closed; answering then fails
 * and the answer is lost. So an interaction whose answer is not ready
 * DEFER_AFTER_MS after it was created gets a deferral instead, in time:
 * callback type 5 (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, Discord's
 * "thinking..."; flags 64 when the answer is known to be private), or for
 * a button type 6 (DEFERRED_UPDATE_MESSAGE: a button's answer is a new
 * message, so nothing is updated and the answer follows as follow-up
 * messages; the answer of a button whose reply replaces its message, type
 * 7 when in time, then edits that message, which is @original after a
 * type 6). When the answer is ready it edits the deferral (PATCH
 * /webhooks/APP/TOKEN/messages/@original) and its other parts follow as
 * follow-up messages, in order, within the token's 15 minutes. An
 * interaction gets either its normal callback or a deferral, never both.
 *
 * This module keeps the held interactions (each an item, owned by the
 * table), tells which are due for their deferral on a clock given as an
 * argument, and writes the deferral and the edit; the transport (discord.c)
 * makes the calls. Nothing here does I/O or reads a clock.
 */
#ifndef DELVER_DISCORD_DEFER_H
#define DELVER_DISCORD_DEFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_shed.h"
#include "commands/core/request.h"

/*
 * A held answer not ready this long after its interaction was created
 * (estimated as discord_shed.h does; or after its frame was received,
 * when that is older) is deferred. Discord's window is 3000 ms and a
 * callback must begin to go out by the shedding horizon, 2500 ms: at
 * 2000 ms the deferral has 500 ms before the horizon (a backlog of answers
 * ahead of it, the loop's own delays) and a second before Discord's window
 * closes, while an answer a store delays by a few hundred milliseconds
 * (a group commit) still goes out whole as a normal callback.
 */
#define DEFER_AFTER_MS 2000
/* The interaction token serves the edit and the follow-ups this long after
 * the interaction's creation (15 min), less a margin for the trip. */
#define DEFER_TOKEN_MS (15 * 60 * 1000 - 10 * 1000)

_Static_assert(DEFER_AFTER_MS < SHED_WINDOW_MS - SHED_MARGIN_MS,
               "a deferral must be due before the shedding horizon");

/* The note a public deferral is edited with when the answer turns out to
 * be private (not an error): the answer follows as an ephemeral message. */
#define DEFER_PRIVATE_NOTE                                                                         \
	"The answer to this command is private: only the person who ran it sees it."

enum defer_state {
	DEFER_WAITING, /* held, no deferral sent */
	DEFER_SENDING, /* the deferral is on its way */
	DEFER_SENT,    /* Discord took the deferral: the answer edits it */
	DEFER_LOST,    /* the deferral failed or came too late: the answer is dropped */
};

/* One held interaction. Its strings are owned by it. */
struct defer_item {
	uint64_t id;         /* the interaction's id */
	int type;            /* the interaction's type (discord_proto.h) */
	bool private;        /* the deferral is ephemeral */
	char *callback_path; /* "/interactions/ID/TOKEN/callback" */
	char *webhook_path;  /* "/webhooks/APP/TOKEN" */
	uint64_t rx_ns;      /* its frame's receipt */
	uint64_t deadline;   /* the shedding deadline (discord_shed.h) */
	uint64_t due;        /* when it is deferred unless answered */
	enum defer_state state;
	/* The answer, kept while the deferral is on its way (have_ready). */
	struct interact_out ready;
	bool have_ready;
	void *ctx; /* the caller's */
	/* The request of the interaction while it is on its way (the caller
	 * sets it, and clears it when the request is answered), or NULL. */
	struct request *req;
};

struct defer;

struct defer *discord_defer_new(void);
/* Frees every item, with the answers they keep. */
void discord_defer_free(struct defer *df);

/* When an interaction received at rx_ns, whose shedding deadline is
 * deadline (both ns on one clock), is due for its deferral. */
uint64_t discord_defer_due_at(uint64_t rx_ns, uint64_t deadline);

/*
 * Keeps a held interaction (state DEFER_WAITING; the strings are copied).
 * Returns the item, or NULL when one with that id is kept already.
 */
struct defer_item *discord_defer_add(struct defer *df, uint64_t id, int type, bool private,
                                     const char *callback_path, const char *webhook_path,
                                     uint64_t rx_ns, uint64_t deadline);
struct defer_item *discord_defer_find(struct defer *df, uint64_t id);
/* Forgets an item and frees it (with the answer it keeps). */
void discord_defer_remove(struct defer *df, struct defer_item *item);
size_t discord_defer_count(const struct defer *df);

/*
 * Up to max waiting items due at now_ns, the earliest due first (equal
 * dues in the order they were added), into out; each becomes
 * DEFER_SENDING. Returns how many. When it returns less than max, no
 * waiting item is due at now_ns. Its cost grows with how many it takes, not
 * with how many are held.
 */
size_t discord_defer_take_due(struct defer *df, uint64_t now_ns, struct defer_item **out,
                              size_t max);
/*
 * A time at or before the earliest due of a waiting item, or 0 when none
 * waits. Right after discord_defer_take_due returned less than max at
 * now_ns, it is exactly that earliest due, and after now_ns.
 */
uint64_t discord_defer_next(const struct defer *df);

/* The deferral's callback body (static). */
const char *discord_defer_body(const struct defer_item *item);

/*
 * Turns an answer rendered for a normal callback (ans, as discord_interact
 * fills it) into the calls that complete the deferral of item: *patch (owned
 * by the caller) becomes the body of the PATCH of @original, or NULL when
 * there is none (a button's type 6: the answer is all follow-ups, unless it
 * updates the pressed message: that is the PATCH; an answer that is a
 * type 6 itself, with follow-ups, leaves the message as it is), and
 * ans->followups the follow-ups to send after it, in order; ans->followup_path
 * is set. The edit carries no flags (the deferral decided whether the
 * message is private); a private answer (not an error) to a public
 * deferral edits it with DEFER_PRIVATE_NOTE and follows as an ephemeral
 * message, so it is never shown to the channel. Returns 0, or -1 when
 * the answer's body is not a callback with a message (ans unchanged).
 */
int discord_defer_edit(const struct defer_item *item, struct interact_out *ans, char **patch);

#endif
