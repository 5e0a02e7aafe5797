/*
 * discord_panel: when the live panels of one Discord transport are edited,
 * without I/O.
 *
 * A channel's panel (/panel, commands/panel/cmd_panel.h) is a message of
 * the bot's that shows the channel's state; the channel's record names it.
 * Each change to the channel committed on the command road makes the panel
 * stale (discord_panels_changed); this module decides when the transport
 * refreshes it (renders the panel through the command road, then edits the
 * message with the bot token, PATCH /channels/C/messages/M):
 *  - coalesced: a refresh is due PANEL_COALESCE_MS after the first change
 *    it covers, so a burst of changes is one edit;
 *  - paced: a channel's refreshes start at least PANEL_EDIT_MS apart, under
 *    Discord's limit on one channel's message edits (5 per 5 s); those
 *    that edit a message older than an hour (discord_panels_old) at least
 *    PANEL_OLD_EDIT_MS apart, under Discord's stricter limit on such
 *    edits (3 per 6 s in a channel, refused with code 30046, announced by
 *    no header);
 *  - one at a time: while a channel's refresh is on its way, changes only
 *    count; when it is over, one more refresh covers them all;
 *  - an edit that went marks the panel as showing every change counted
 *    when its refresh was taken, in the body it sent; a press of one of
 *    its buttons that showed the panel anew (an interaction's type 7, or
 *    the edit of its deferral: discord_panels_updating, then
 *    discord_panels_updated), and a new panel posted (discord_panels_shown)
 *    do the same with the panel they rendered, so no edit repeats it; a
 *    press whose panel renders to what the message is known to show, with
 *    no write on its way, updates nothing (discord_panels_shows), and its
 *    change then counts as shown (discord_panels_shown): no refresh
 *    renders it again;
 *  - writes to one message land in an order nobody knows (a press is
 *    answered while an edit is on its way; the answer to a press Discord
 *    replayed waits for Discord's word on it): a refresh does not start
 *    while a press's update is on its way, and after two or more writes on
 *    their way at once the message counts as showing the changes up to
 *    the oldest of theirs, in a body not known, so the next refresh edits
 *    it; what a write shows is what it was rendered from, never what
 *    changed while it was on its way;
 *  - a refresh that renders what the message shows already (a roll added
 *    to the channel's log, a setting the panel does not show) sends no
 *    edit (discord_panels_same);
 *  - a panel checked (discord_panels_check: after a start, when nothing
 *    says what the message shows) is refreshed at the time given, and that
 *    refresh first reads the message (discord_panels_checking) and edits
 *    it only when it shows something else; a change before then makes it
 *    an ordinary refresh, coalesced as any;
 *  - an edit Discord answers with the message or channel gone or out of
 *    the bot's reach (discord_panel_outcome) forgets the panel at once: it
 *    is not tried again (the caller also clears the channel's record);
 *    another failure is tried again PANEL_RETRY_MS later, then twice and
 *    four times that, and after PANEL_RETRIES failures in a row the
 *    refresh is given up (discord_panels_done says so) until the next
 *    change: a message Discord keeps refusing (an archived thread's, one
 *    the limits shed) is not tried forever.
 * A channel's entry goes when its panel shows every change and its pacing
 * is over, or, when the entry knows what the message shows (the hash of an
 * edit's body, a posted panel's or a press's update's), PANEL_KEEP_MS after
 * that: a change in a channel in play that the panel does not show (a
 * roll) finds it and sends nothing. So memory follows the panels in use,
 * not every panel there is. Times are milliseconds on the caller's clock.
 *
 * Ownership: the struct is the caller's (discord_panels_new/_free); ids are
 * copied.
 */
#ifndef DELVER_DISCORD_PANEL_H
#define DELVER_DISCORD_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PANEL_COALESCE_MS 300
#define PANEL_EDIT_MS     1100
#define PANEL_OLD_EDIT_MS 2100
/* A message this old counts as older than an hour (Discord's clock may be
 * minutes off the host's). */
#define PANEL_OLD_AFTER_MS (55 * 60 * 1000)
/* How long an entry that knows what its message shows stays after the
 * panel showed every change. */
#define PANEL_KEEP_MS  (60 * 60 * 1000)
#define PANEL_RETRY_MS 5000
#define PANEL_RETRIES  4
#define PANEL_ID_MAX   24 /* bytes of a message id, with the NUL */
/* Checks after a start go this far apart: 5 a second, a tenth of
 * Discord's global limit of 50 requests a second, so that answers to
 * interactions never wait behind them. */
#define PANEL_CHECK_GAP_MS 200

/* What became of a refresh. */
enum discord_panel_outcome {
	PANEL_EDITED, /* the message shows the panel rendered */
	PANEL_GONE,   /* the message is gone or out of reach: forget the panel */
	PANEL_FAILED, /* refused, so not applied: try again later */
	PANEL_UNSURE, /* no answer or a server error: it may have been applied
	               * all the same, so what the message shows is not known;
	               * try again later */
	PANEL_NONE,   /* the channel has no panel (its record names none) */
};

struct discord_panels;

struct discord_panels *discord_panels_new(void);
void discord_panels_free(struct discord_panels *p);

/* A change to channel chan was committed at now; msg is the id of the
 * message its record names as its panel (a message id of digits). */
void discord_panels_changed(struct discord_panels *p, uint64_t chan, const char *msg, int64_t now);

/* chan's panel, message msg, is to be checked at due (see above). A
 * channel with an entry already (a change made it stale) is left as it
 * is: its refresh edits. */
void discord_panels_check(struct discord_panels *p, uint64_t chan, const char *msg, int64_t due);
/* Whether chan's refresh on its way is a check: it reads the message
 * first. */
bool discord_panels_checking(const struct discord_panels *p, uint64_t chan);

/*
 * Up to max channels whose refresh is due at now, into out (earliest
 * first); each is then on its way until discord_panels_done. Returns how
 * many; fewer than max means no other is due at now.
 */
size_t discord_panels_take_due(struct discord_panels *p, int64_t now, uint64_t *out, size_t max);
/* When the next refresh is due (an entry may also go then), or INT64_MAX
 * when none is. */
int64_t discord_panels_next(const struct discord_panels *p);

/* The message to edit for chan's refresh: the id its record names, as the
 * panel rendered for it says (authoritative: a newer /panel may have moved
 * it). "" ends the refresh as PANEL_NONE. */
void discord_panels_message(struct discord_panels *p, uint64_t chan, const char *msg);
/* chan's message id as known ("" when unknown or no entry). */
const char *discord_panels_message_of(const struct discord_panels *p, uint64_t chan);

/* chan's refresh on its way edits a message older than an hour: the next
 * one starts PANEL_OLD_EDIT_MS after it began. */
void discord_panels_old(struct discord_panels *p, uint64_t chan);

/* chan's refresh is over at now, with outcome. Returns true when that
 * gave the refresh up (PANEL_RETRIES failures in a row). */
bool discord_panels_done(struct discord_panels *p, uint64_t chan, enum discord_panel_outcome oc,
                         int64_t now);

/* The number of the newest change counted (in any channel): a render of
 * a channel's panel asked now shows every change of it up to there. */
uint64_t discord_panels_seq(const struct discord_panels *p);
/* Message msg of chan shows the panel rendered when discord_panels_seq
 * said seq (a new panel posted, or a press whose panel it showed already),
 * its body hashed to body (discord_panel_hash), at now: no refresh is due
 * for the changes up to seq. */
void discord_panels_shown(struct discord_panels *p, uint64_t chan, const char *msg, uint64_t seq,
                          uint64_t body, int64_t now);

/* A press of chan's panel is answered by an update of message msg that
 * shows the panel anew (an interaction's type 7, or the edit of its
 * deferral): it is on its way until discord_panels_updated, which each
 * such call is followed by, once. */
void discord_panels_updating(struct discord_panels *p, uint64_t chan, const char *msg);
/* That update is over at now: landed (Discord took it) or not; it showed
 * the panel rendered when discord_panels_seq said seq, its body hashed to
 * body (discord_panel_hash of the body an edit would send; 0 unknown). */
void discord_panels_updated(struct discord_panels *p, uint64_t chan, uint64_t seq, uint64_t body,
                            bool landed, int64_t now);

/* Whether chan's message msg shows a body of this hash (discord_panel_hash)
 * with no write to it on its way (a refresh, a press's update): then a
 * press whose panel renders to that body has nothing to update. */
bool discord_panels_shows(const struct discord_panels *p, uint64_t chan, const char *msg,
                          uint64_t body);

/* For chan's refresh on its way: whether the message shows a body of
 * this hash already (then the refresh ends as PANEL_EDITED, unsent); else
 * the hash is what the message shows once the edit went. */
bool discord_panels_same(struct discord_panels *p, uint64_t chan, uint64_t body);
/* The hash of a body (never 0). */
uint64_t discord_panel_hash(const char *s, size_t n);

/* The channel id of a channel key "discord:<digits>", or 0 for any other
 * key. */
uint64_t discord_panel_chan(const char *key);

/* What an answer to an edit (its HTTP status, its JSON error code) means
 * for the panel. */
enum discord_panel_outcome discord_panel_outcome(long status, int code);

/* Channels with an entry (tests, stats). */
size_t discord_panels_count(const struct discord_panels *p);

#endif
