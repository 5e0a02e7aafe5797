/*
 * irc_ident: the nick at which each identity (a user key, bot/irc/irc.h:
 * an account, or "~nick!user@host") can be reached now, as the bot saw it
 * on this link: bound when that identity sends a command, followed
 * through its own NICK changes, forgotten when it quits, when another
 * identity sends from that nick, and when the link goes down (whatever
 * happened meanwhile was not seen). What only the GM may read goes to the
 * nick bound to the GM's key, never to whoever has the nick the GM last
 * used.
 *
 * Bounded: IRC_IDENT_MAX identities, the oldest bound forgotten first.
 * Ownership: the table owns its entries.
 */
#ifndef DELVER_IRC_IDENT_H
#define DELVER_IRC_IDENT_H

#include <stddef.h>
#include <stdint.h>

#define IRC_IDENT_MAX 1024

struct irc_ident;

struct irc_ident *irc_ident_new(void);
void irc_ident_free(struct irc_ident *t);

/* key sent a command as nick (fold: nick case-folded) on link number
 * link; any other key bound to that nick is forgotten. */
void irc_ident_seen(struct irc_ident *t, const char *key, const char *nick, const char *fold,
                    uint64_t link);
/* The user now known as fold (folded) is nick now (to_fold folded). */
void irc_ident_nick(struct irc_ident *t, const char *fold, const char *nick, const char *to_fold);
/* The user known as fold (folded) quit. */
void irc_ident_quit(struct irc_ident *t, const char *fold);
/* The nick key is bound to on link number link, or NULL. */
const char *irc_ident_find(const struct irc_ident *t, const char *key, uint64_t link);

#endif
