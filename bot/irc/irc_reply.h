/*
 * irc_reply: a command's reply sent back on IRC, for irc.c: rendered by
 * render_irc within the target's line budget and the network's max_lines,
 * stripped of formatting where the network or channel wants it plain, and
 * queued whole in the invoker's lane (see Replies in irc.h).
 */
#ifndef DELVER_IRC_REPLY_H
#define DELVER_IRC_REPLY_H

#include <stdbool.h>

#include "commands/core/reply.h"

struct irc_bot;

/* The command for what is for one person alone: NOTICE, or PRIVMSG where
 * the network's private_replies says so. */
const char *irc_reply_private_cmd(const struct irc_bot *b);

/*
 * Sends every line of r, a reply to nick's command in where, as one group
 * in lane: all of it or, when the send queue has no room, none of it and a
 * NOTICE saying so. quiet: everything goes to nick alone.
 */
void irc_reply_send(struct irc_bot *b, const struct reply *r, const char *nick, const char *where,
                    const char *lane, bool quiet);

#endif
