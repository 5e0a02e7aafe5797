/*
 * irc_track: what an IRC server said about itself (005 ISUPPORT) and who
 * is in the channels the bot is in, with their channel ranks.
 *
 * ISUPPORT: CASEMAPPING (ascii, rfc1459, strict-rfc1459, rfc7613; others
 * fold ASCII only; see bot/irc/irc_fold.h), PREFIX (e.g. (qaohv)~&@%+), CHANMODES (which modes take
 * a parameter, so MODE lines are read correctly) and CHANTYPES. Until the server says otherwise the
 * RFC 1459 defaults hold. Members are keyed by their case-folded nick; a member is an operator when
 * it holds the 'o' rank or any rank listed before it in PREFIX.
 *
 * Ownership: the tracker owns all of its records.
 */
#ifndef DELVER_IRC_TRACK_H
#define DELVER_IRC_TRACK_H

#include <stdbool.h>
#include <stddef.h>

#include "bot/irc/irc_line.h"

struct irc_track;

struct irc_track *irc_track_new(void);
void irc_track_free(struct irc_track *t);
/* Back to the defaults with no channels (a new link). */
void irc_track_reset(struct irc_track *t);

/* Reads the tokens of a 005 line. */
void irc_track_isupport(struct irc_track *t, const struct irc_msg *m);
/* Folds case into out (at most size - 1 bytes, NUL-terminated, cut on a
 * character). Returns 0, or -1 when the fold did not fit whole. */
int irc_track_casefold(const struct irc_track *t, const char *in, char *out, size_t size);
/* Whether s starts with one of CHANTYPES. */
bool irc_track_is_channel(const struct irc_track *t, const char *s);

/* Membership. Channels come into being when the bot joins them. */
void irc_track_joined(struct irc_track *t, const char *chan); /* the bot joined: empty list */
void irc_track_left(struct irc_track *t, const char *chan);   /* the bot left: forgotten */
void irc_track_join(struct irc_track *t, const char *chan, const char *nick);
void irc_track_part(struct irc_track *t, const char *chan, const char *nick);
void irc_track_quit(struct irc_track *t, const char *nick);
void irc_track_nick(struct irc_track *t, const char *from, const char *to);
/* Reads the names of a 353 reply ("@op +voice plain"). */
void irc_track_names(struct irc_track *t, const char *chan, const char *names);
/* Reads a channel MODE line (params: channel, modes, arguments...). */
void irc_track_mode(struct irc_track *t, const struct irc_msg *m);

bool irc_track_is_op(const struct irc_track *t, const char *chan, const char *nick);
/* Whether nick is known to be in chan. */
bool irc_track_is_member(const struct irc_track *t, const char *chan, const char *nick);
/* Members known in chan (0 when not in it). */
size_t irc_track_count(const struct irc_track *t, const char *chan);

#endif
