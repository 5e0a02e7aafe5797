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
ircfix_start(struct ircfix *f, uint64_t seed)
{
	f->st = state_new();
	f->rng = rng_new_seeded(seed);
	f->d = dispatch_new(&(struct dispatch_opts){.state = f->st, .rng = f->rng});
	f->now = 5000;
	f->c = irc_conn_new(&f->cfg, NULL, &ircfix_hooks, f);
	f->b = irc_bot_new(f->d, &f->cfg, f->c);
	irc_conn_link_up(f->c, f->now);
	ircfix_feed(f, ":irc.test 001 delver :Welcome");
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
