/* cmdrun: the unit tests' dispatcher; see cmdrun.h. */
#include "tests/unit/helpers/cmdrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/console_name.h"
#include "rules/base/rng.h"

void
cmdrun_open(struct cmdrun *cr, uint64_t seed)
{
	memset(cr, 0, sizeof(*cr));
	cr->st = state_new();
	cr->rng = rng_new_seeded(seed);
	cr->d = dispatch_new(&(struct dispatch_opts){.state = cr->st, .rng = cr->rng});
}

void
cmdrun_close(struct cmdrun *cr)
{
	free(cr->plain);
	reply_free(cr->last);
	dispatch_free(cr->d);
	state_free(cr->st);
	rng_free(cr->rng);
	memset(cr, 0, sizeof(*cr));
}

void
cmdrun_console(struct origin *o, const char *chan, const char *user, bool admin)
{
	memset(o, 0, sizeof(*o));
	o->platform = "console";
	o->channel_named = console_name_channel;
	o->platform_admin = admin;
	snprintf(o->chan_key, sizeof(o->chan_key), "console:%s", chan);
	snprintf(o->user_key, sizeof(o->user_key), "console:%s", user);
	snprintf(o->user_name, sizeof(o->user_name), "%s", user);
}

struct reply *
cmdrun_reply(struct cmdrun *cr)
{
	free(cr->plain);
	cr->plain = NULL;
	reply_free(cr->last);
	cr->last = reply_new();
	return cr->last;
}

const struct reply *
cmdrun_from(struct cmdrun *cr, const struct origin *o, const char *line, int64_t now)
{
	dispatch_line(cr->d, o, line, strlen(line), now, cmdrun_reply(cr));
	return cr->last;
}

const struct reply *
cmdrun_line(struct cmdrun *cr, const char *chan, const char *user, const char *line, int64_t now)
{
	struct origin o;

	cmdrun_console(&o, chan, user, false);
	return cmdrun_from(cr, &o, line, now);
}

const char *
cmdrun_plain(struct cmdrun *cr)
{
	if (cr->plain == NULL)
		cr->plain = reply_plain(cr->last);
	return cr->plain;
}
