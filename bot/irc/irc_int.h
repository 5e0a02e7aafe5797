/*
 * irc_int: the inside of struct irc_bot, shared by irc.c (messages,
 * commands, rate limits, owner commands), irc_who.c (who sent a message)
 * and irc_reply.c (a reply sent back). Nothing else includes it: everyone
 * else sees the opaque struct of irc.h.
 */
#ifndef DELVER_IRC_INT_H
#define DELVER_IRC_INT_H

#include <stddef.h>

#include "bot/irc/irc.h"
#include "bot/irc/irc_line.h"

#define ALIASES_MAX 512 /* nick changes remembered */
#define MASK_MAX    320 /* bytes of "user@host", with the NUL */

/* Someone now called nick was first seen as orig, from user@host mask. */
struct alias {
	char nick[IRC_NICK_MAX]; /* folded; "" for a free slot */
	char orig[IRC_NICK_MAX]; /* folded */
	char mask[MASK_MAX];
};

struct irc_bot {
	struct dispatch *d;
	const struct config_irc *cfg;
	struct irc_conn *conn;
	struct irc_limit *users;   /* commands per user key */
	struct irc_limit *chans;   /* commands per channel key */
	struct irc_limit *seen;    /* when a user last had a command taken, per channel */
	struct irc_limit *ctcp;    /* CTCP answers per nick */
	void (*reload)(void *ctx); /* asks the app to reload (SIGHUP); may be NULL */
	void *reload_ctx;
	struct alias *aliases;    /* ALIASES_MAX, used as a ring */
	size_t next_alias;        /* the slot the next new alias takes */
	size_t in_flight;         /* commands submitted and not answered yet */
	struct drafts *drafts;    /* long texts typed line by line (bot/draft/draft.h) */
	struct irc_ident *idents; /* the nick each identity has now */
};

/* The command prefix of the network ("!" when none is configured). */
const char *irc__prefix(const struct irc_bot *b);

#endif
