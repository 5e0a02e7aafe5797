/*
 * irc_who: who sent an IRC message, for irc.c: the keys of its user and
 * channel (see Identity in irc.h), the nick changes followed so that a
 * user keeps their key, and whether the sender is one of the network's
 * admins.
 */
#ifndef DELVER_IRC_WHO_H
#define DELVER_IRC_WHO_H

#include <stdbool.h>

#include "bot/irc/irc_line.h"
#include "commands/core/invocation.h"

struct irc_bot;

/*
 * Fills o for a message from m->nick in chan (a channel, or NULL for a
 * private message). The user key is the account's when the message
 * carries one, else "~nick!user@host" with the nick the user was first
 * seen with (see irc.h). Returns -1 when a key would not fit.
 */
int irc_who_origin(struct irc_bot *b, const struct irc_msg *m, const char *chan, struct origin *o);

/*
 * IRC's channel_named (struct origin): "#channel" or "&channel" on the
 * origin's network, its key "irc:NETWORK:" and the name folded by the
 * server's CASEMAPPING, as irc_who_origin keys a channel (the connection
 * is the origin's name_ctx, a struct irc_bot; without one, rfc1459, IRC's
 * default when a server announces none): the fold is the server's own, so
 * no other key can name the same channel.
 */
bool irc_who_channel_named(const struct origin *o, const char *text, char *key);

/*
 * Whether the sender of m is one of the network's admins: an entry with
 * '!' or '@' is a nick!user@host mask, any other an account name, matched
 * against the message's account tag (by CASEMAPPING).
 */
bool irc_who_is_admin(struct irc_bot *b, const struct irc_msg *m);

#endif
