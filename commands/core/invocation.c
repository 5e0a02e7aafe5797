/* invocation: a parsed command's values and rights; see invocation.h. */
#include "commands/core/invocation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/channel.h"
#include "commands/core/registry.h"
#include "rules/procedure/odds.h"

void
invocation_clear(struct invocation *inv)
{
	for (int i = 0; i < CMD_MAX_OPTS; i++) {
		free(inv->args[i].s);
		memset(&inv->args[i], 0, sizeof(inv->args[i]));
	}
	free(inv->words);
	inv->words = NULL;
}

static const struct cmd_arg *
arg(const struct invocation *inv, const char *name)
{
	int i = registry_opt_index(inv->cmd, name, strlen(name));

	return i < 0 ? NULL : &inv->args[i];
}

bool
invocation_has(const struct invocation *inv, const char *name)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set;
}

const char *
invocation_str(const struct invocation *inv, const char *name)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set ? a->s : NULL;
}

bool
invocation_odds(const struct invocation *inv, const char *name, struct odds *out)
{
	const struct cmd_arg *a = arg(inv, name);

	if (a == NULL || !a->set || !a->odds_read)
		return false;
	*out = a->odds;
	return true;
}

int64_t
invocation_int(const struct invocation *inv, const char *name, int64_t dflt)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set ? a->i : dflt;
}

bool
invocation_bool(const struct invocation *inv, const char *name, bool dflt)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set ? a->b : dflt;
}

bool
invocation_routed(const struct invocation *inv, const char *name)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set && a->routed;
}

bool
invocation_named(const struct invocation *inv, const char *name)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set && a->named;
}

bool
invocation_quoted(const struct invocation *inv, const char *name)
{
	const struct cmd_arg *a = arg(inv, name);

	return a != NULL && a->set && a->quoted;
}

const char *
invocation_name_now(const struct invocation *inv, const char *user_key)
{
	const struct origin *o = inv->from;

	if (strcmp(user_key, o->user_key) == 0)
		return o->user_name;
	return o->name_now != NULL ? o->name_now(o->name_ctx, user_key) : NULL;
}

void
invocation_seat(struct invocation *inv)
{
	const struct origin *o = inv->from;
	const char *gm;

	inv->seat = inv->chan;
	if ((inv->chan == NULL || channel_gm(inv->chan) == NULL) && o->parent_key[0] != '\0') {
		struct channel *parent = state_channel_find(inv->state, o->parent_key);

		if (parent != NULL && channel_gm(parent) != NULL)
			inv->seat = parent;
	}
	gm = inv->seat != NULL ? channel_gm(inv->seat) : NULL;
	/* A private conversation with the bot is its one user's: they hold
	 * its empty seat without claiming it. */
	inv->is_gm = o->platform_admin || (gm != NULL && strcmp(gm, o->user_key) == 0) ||
	             (gm == NULL && o->direct);
}

bool
invocation_require_gm(struct invocation *inv, struct reply *out)
{
	const char *gm;

	if (inv->is_gm)
		return true;
	gm = inv->seat ? channel_gm_name(inv->seat) : NULL;
	if (gm != NULL)
		reply_error(out, "Only the GM can do that here; the GM is %s.", gm);
	else {
		reply_error(out, "Only the GM can do that, and nobody is GM here yet; ");
		invocation_claim_hint(out);
	}
	return false;
}

void
invocation_gm_tail(const struct invocation *inv, struct reply *out, bool here)
{
	const char *gm = inv->seat != NULL ? channel_gm_name(inv->seat) : NULL;

	if (gm != NULL) {
		reply_add(out, RS_BAD, "); the GM is %s.", gm);
		return;
	}
	reply_add(out, RS_BAD, "), and nobody is GM%s yet; ", here ? " here" : "");
	invocation_claim_hint(out);
}

void
invocation_screen(struct invocation *inv, struct reply *out, unsigned style, const char *what)
{
	reply_line(out, style, "%s", what);
	reply_to(out, REPLY_INVOKER);
	inv->screened = true;
}

void
invocation_claim_hint(struct reply *out)
{
	reply_cmd(out, RS_BAD, "gm claim", NULL);
	reply_add(out, RS_BAD, " makes you the GM.");
}

bool
invocation_channel_named(const struct invocation *inv, const char *text, char *key)
{
	return inv->from->channel_named != NULL && inv->from->channel_named(inv->from, text, key);
}
