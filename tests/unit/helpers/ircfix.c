/* ircfix: see ircfix.h. */
#include "tests/unit/helpers/ircfix.h"

#include <string.h>

#include "rules/base/rng.h"

static void
on_message(void *ctx, const struct irc_msg *m)
{
	struct ircfix *f = ctx;

	irc_bot_message(f->b, m, f->now, 1700000000);
}

static void
on_user(void *ctx, const struct irc_msg *m)
{
	struct ircfix *f = ctx;

	irc_bot_user(f->b, m);
}

const struct irc_conn_hooks ircfix_hooks = {NULL, NULL, on_message, on_user};

void
ircfix_feed(struct ircfix *f, const char *line)
{
	irc_conn_receive(f->c, line, strlen(line), f->now);
	dispatch_poll(f->d);
}

void
ircfix_stop(struct ircfix *f)
{
	irc_bot_free(f->b);
	irc_conn_free(f->c);
	dispatch_free(f->d);
	state_free(f->st);
	rng_free(f->rng);
}
