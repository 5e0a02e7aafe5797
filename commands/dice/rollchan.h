/*
 * rollchan: a channel's dice state (module slot CHANMOD_ROLL): its roll
 * log, its saved rolls and its output settings (/settings).
 *
 * The log keeps the channel's last ROLLCHAN_LOG_MAX rolls (who, what,
 * result, when), oldest dropped first; private and secret rolls are never
 * in it. It is the module's log (struct chanmod): each roll is appended to
 * the store as a row of its own (channel_append), numbered from 1 in the
 * channel, and survives restarts. (delver 0.1 kept the log in the record:
 * such a record still loads, and its entries go to the store's rows when
 * the channel next rolls.) The secret log keeps the last ROLLCHAN_SECRET_MAX
 * secret rolls (/gmroll), each for the GM it was sent to alone (/log
 * secret: a GM who takes the seat later does not see them); it is saved with
 * the channel's record, as is the channel where the GM reads secret rolls
 * when the GM cannot be sent a private message (/gm secret-channel), with
 * the GM who named it.
 *
 * Saved rolls ("/save fireball 8d6 # fire", then "/roll fireball") belong
 * to the channel itself (set by the GM); a player's own live in the user
 * record (commands/core/state.h), and those kept here by older versions are
 * moved there on use (rollchan_adopt).
 * A name is 1 to ROLLCHAN_NAME_CHARS letters of any script, digits, '-' or
 * '_' (shorter than ROLLCHAN_NAME_MAX bytes), starts with a letter other
 * than d, and is not adv or dis: no name can ever read as dice notation.
 * Names are one name whatever their case (utf8_casecmp). Bounded: ROLLCHAN_SAVED_USER per player
 * and ROLLCHAN_SAVED_CHAN for the channel, ROLLCHAN_SAVED_MAX in all. Ownership: the state belongs
 * to its channel record (channel_mod()).
 */
#ifndef DELVER_ROLLCHAN_H
#define DELVER_ROLLCHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/reply.h"
#include "commands/core/state.h"

#define ROLLCHAN_LOG_MAX    20  /* rolls a channel's log keeps */
#define ROLLCHAN_WHAT_MAX   128 /* bytes of a logged roll's text, with the NUL */
#define ROLLCHAN_RESULT_MAX 64  /* bytes of a logged result, with the NUL */
#define ROLLCHAN_NAME_CHARS 24  /* code points of a saved roll's name */
#define ROLLCHAN_NAME_MAX   97  /* bytes of a saved roll's name, with the NUL */
#define ROLLCHAN_ROLL_MAX   201 /* bytes of a saved roll's text, with the NUL */
#define ROLLCHAN_SAVED_USER 20  /* saved rolls of one player in one channel */
#define ROLLCHAN_SAVED_CHAN 30  /* the channel's own saved rolls */
#define ROLLCHAN_SAVED_MAX  200 /* saved rolls in one channel, all owners */
#define ROLLCHAN_SECRET_MAX 20  /* secret rolls the GM's log keeps */

/* A saved roll; owner is a user key, or "" for the channel's own. */
struct rollchan_saved {
	char owner[KEY_MAX];
	char name[ROLLCHAN_NAME_MAX];
	char roll[ROLLCHAN_ROLL_MAX];
};

struct rollchan_entry {
	int64_t when; /* unix seconds */
	char who[NAME_MAX_LEN];
	char what[ROLLCHAN_WHAT_MAX];     /* canonical roll, label included */
	char result[ROLLCHAN_RESULT_MAX]; /* "14", or "14, 9, 12" for several */
};

struct rollchan {
	bool no_natural; /* the channel turned off "Natural 20!" marks */
	bool compact;    /* compact output: only a hazard roll's row, no
	                  * unchanged "Darkness:" line */
	bool dark_shown; /* compact: the last status said "Darkness:" */
	size_t nlog;     /* entries in log, at most ROLLCHAN_LOG_MAX */
	size_t head;     /* index of the oldest entry */
	uint64_t count;  /* rolls ever logged: the newest one's number */
	struct rollchan_entry log[ROLLCHAN_LOG_MAX];
	size_t nsaved;
	struct rollchan_saved *saved; /* nsaved, owned */
	/* The secret rolls and the GM's channel for them: NULL until either
	 * is used (owned). */
	struct rollchan_secret *secret;
};

struct rollchan_secret {
	/* The channel key where the GM reads secret rolls when a private
	 * message cannot reach the GM, or "", and the user key of the GM who
	 * named it: it is that GM's alone, in force while they hold the seat
	 * (a later holder, or a player who once held it, never reads another
	 * GM's secret rolls there). */
	char to[KEY_MAX];
	char to_gm[KEY_MAX];
	size_t n, head; /* the log's entries, and its oldest */
	struct rollchan_entry log[ROLLCHAN_SECRET_MAX];
	/* The user key of the GM each entry went to (as log), "" when not
	 * known (an entry saved before they were kept). */
	char gm[ROLLCHAN_SECRET_MAX][KEY_MAX];
};

extern const struct chanmod rollchan_mod;

/* The channel's dice state, created on first use. */
struct rollchan *rollchan_of(struct channel *ch);

/* Appends a roll to the log, dropping the oldest when full. A text too
 * long to fit, or one that stops being well-formed UTF-8 at some byte (a
 * caller's cut), is cut on a character boundary before that byte and
 * ends in "…": an entry is always one the store can read back. The
 * caller calls channel_append(). A command keeps the roll it made through
 * roll_log_keep() (commands/dice/roll_log.h), which calls this. */
void rollchan_log(struct rollchan *rc, int64_t when, const char *who, const char *what,
                  const char *result);

/* The i-th entry from the newest (0 is the newest), or NULL. */
const struct rollchan_entry *rollchan_entry(const struct rollchan *rc, size_t i);

/* The same for the secret log, whose entries each keep the user key of the
 * GM the roll went to (gm): /log secret shows a GM those alone. */
void rollchan_log_secret(struct rollchan *rc, int64_t when, const char *who, const char *what,
                         const char *result, const char *gm);
const struct rollchan_entry *rollchan_secret_entry(const struct rollchan *rc, size_t i);
/* The key of the GM the i-th entry from the newest went to ("" unknown). */
const char *rollchan_secret_gm(const struct rollchan *rc, size_t i);
size_t rollchan_secret_count(const struct rollchan *rc);

/* The channel key where the seat's holder of ch reads secret rolls (see
 * above): NULL when nobody holds the seat, or its holder named none (one
 * named by someone else, an earlier holder, is not theirs).
 * rollchan_set_secret_to names key ("" for none) for the GM gm (a user
 * key). */
const char *rollchan_secret_to(const struct channel *ch);
void rollchan_set_secret_to(struct rollchan *rc, const char *key, const char *gm);

/* Whether the channel asked for compact output (a fresh channel did not). */
bool rollchan_compact(const struct channel *ch);

/*
 * Whether a turn's status footer shows the "Darkness:" line, dark saying
 * whether nothing is lit: always when dark, except that compact output
 * says it only when the previous footer did not (what /light and /turn
 * show when asked is not a footer: they always say it). Remembers what
 * was shown (touching the channel when that changes).
 */
bool rollchan_show_dark(struct channel *ch, bool dark);

/* Something was lit outside a turn (/light) or a new expedition began
 * (/turn reset): the next footer in the dark says "Darkness:" again. */
void rollchan_dark_forget(struct channel *ch);

/*
 * A command's heading: the message's title, or with compact output the
 * start of the next line ("Hazard die: turn 4 · " and what follows), so
 * that the heading costs no line of its own. The caller writes that next
 * line. The heading is cut at 300 bytes, on a character boundary.
 */
void rollchan_heading(const struct channel *ch, struct reply *out, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether name is allowed for a saved roll (see above). */
bool rollchan_name_ok(const char *name);

/* Into err (errlen bytes), why name, refused by rollchan_name_ok(), is no
 * saved roll's name: the rule it breaks (an invisible character named, with
 * its column), the name quoted (cut, with no control character), the whole
 * rule after. */
void rollchan_name_refusal(const char *name, char *err, size_t errlen);

/* The saved roll of that name (case-insensitive) owned by owner ("" for
 * the channel's), or NULL. */
const struct rollchan_saved *rollchan_find(const struct rollchan *rc, const char *owner,
                                           const char *name);

/* Whether owner keeps any saved roll here. */
bool rollchan_find_owner(const struct rollchan *rc, const char *owner);

/* Saves or replaces a roll; returns 0, or -1 with one sentence in err
 * (a bad name, a roll too long, the owner's or the channel's limit), which
 * may name a command as reply_text's "{/path ...}" (see reply_error_refs). */
int rollchan_save(struct rollchan *rc, const char *owner, const char *name, const char *roll,
                  char *err, size_t errlen);

/* Deletes a saved roll; returns whether there was one. */
bool rollchan_delete(struct rollchan *rc, const char *owner, const char *name);

/*
 * Moves the player's own saved rolls kept in channel ch (as versions
 * before saved rolls followed the player kept them) into the player's user
 * record u, where they are found in every channel. A name the player
 * already keeps there, or one past USER_SAVED_MAX, stays in the channel
 * (still found here, after the player's own). Touches the channel and the
 * user when any moved.
 */
void rollchan_adopt(struct channel *ch, struct user *u);

/*
 * The roll saved as name (ASCII case ignored) for user u in channel ch:
 * u's own (in the user record, or kept in this channel by an older
 * version, moved to the record first, touching both) before the
 * channel's. Returns its text, or NULL; *canon gets the saved name, *mine
 * whether it is u's. The text belongs to the user record or the channel
 * and stays valid until either changes.
 */
const char *rollchan_lookup(struct channel *ch, struct user *u, const char *name,
                            const char **canon, bool *mine);

#endif
