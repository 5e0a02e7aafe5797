/* ircfix: an IRC bot on a session that no socket carries, for unit tests. */
#ifndef DELVER_TEST_IRCFIX_H
#define DELVER_TEST_IRCFIX_H

#include <stdint.h>

#include "bot/config/config.h"
#include "bot/irc/irc.h"
#include "commands/core/dispatch.h"

/* A test's bot: cfg is the test's to fill, now its clock (ms); the rest
 * is ircfix_start's. */
struct ircfix {
	struct config_irc cfg;
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct irc_conn *c;
	struct irc_bot *b;
	int64_t now;
};

/* The session's hooks, with the fixture as their context: messages and
 * users go to f->b at f->now. */
extern const struct irc_conn_hooks ircfix_hooks;

/* Makes f's state, dice (seeded with seed), dispatcher, session on f->cfg
 * (the caller's to fill first) and bot, sets the clock f->now at 5000 ms,
 * and brings the session up as far as the server's welcome (001). */
void ircfix_start(struct ircfix *f, uint64_t seed);

/* Hands one line from the server to the session at f->now, then answers
 * the commands it carried (a loop turn's worth: the store in memory
 * answers when polled). */
void ircfix_feed(struct ircfix *f, const char *line);

/* Frees f's bot, session, dispatcher, state and dice (not f, nor its
 * cfg). */
void ircfix_stop(struct ircfix *f);

#endif
