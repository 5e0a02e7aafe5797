/* /gm: who runs the game in this channel. */
#include "commands/gm/cmd_gm.h"

#include <string.h>

#include "commands/core/registry.h"

static void
gm_claim(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->chan);

	if (gm != NULL && strcmp(gm, inv->from->user_key) == 0) {
		reply_line(out, 0, "You are already the GM here.");
		return;
	}
	if (gm != NULL) {
		reply_error(out, "%s is already the GM here; they can ",
		            channel_gm_name(inv->chan));
		reply_cmd(out, RS_BAD, "gm release", NULL);
		reply_add(out, RS_BAD, " first.");
		return;
	}
	channel_set_gm(inv->chan, inv->from->user_key, inv->from->user_name);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", inv->from->user_name);
	reply_add(out, 0, " is now the GM of this channel.");
	reply_nl(out);
}

static void
gm_release(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->chan);

	if (gm == NULL) {
		reply_error(out, "Nobody is GM here, so there is nothing to release.");
		return;
	}
	if (strcmp(gm, inv->from->user_key) != 0 && !inv->from->platform_admin) {
		reply_error(out, "Only %s (the GM) or a channel admin can release the GM seat.",
		            channel_gm_name(inv->chan));
		return;
	}
	reply_add(out, RS_BOLD, "%s", channel_gm_name(inv->chan));
	reply_add(out, 0, " is no longer the GM; anyone may ");
	reply_cmd(out, 0, "gm claim", NULL);
	reply_add(out, 0, ".");
	reply_nl(out);
	channel_clear_gm(inv->chan);
	channel_touch(inv->chan);
}

static void
gm_show(struct invocation *inv, struct reply *out)
{
	const char *name = channel_gm_name(inv->chan);

	if (name == NULL) {
		reply_add(out, 0, "Nobody is GM here yet; ");
		reply_cmd(out, 0, "gm claim", NULL);
		reply_line(out, 0, " makes you the GM.");
		return;
	}
	reply_add(out, 0, "The GM here is ");
	reply_add(out, RS_BOLD, "%s", name);
	reply_add(out, 0, ".");
	reply_nl(out);
}

static const struct command gm_subs[] = {
    {.name = "show", .desc = "Show who is GM in this channel", .fn = gm_show, .read_only = true},
    {.name = "claim", .desc = "Become the GM of this channel (when nobody is)", .fn = gm_claim},
    {.name = "release", .desc = "Give up the GM seat", .fn = gm_release},
    {0},
};

const struct command cmd_gm = {
    .name = "gm",
    .desc = "Who is GM in this channel: show, claim, release",
    .help = "The GM of a channel may change its settings (hazard table, Tension, ...). "
            "Anyone may claim the seat while it is empty; the GM or a channel admin "
            "releases it. Channel admins (Discord: Manage Channel; IRC: operators) may "
            "always act as GM.",
    .subs = gm_subs,
    .default_sub = "show",
};
