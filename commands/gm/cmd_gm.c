/* /gm: who runs the game in this channel. */
#include "commands/gm/cmd_gm.h"

#include <string.h>

#include "commands/core/registry.h"

/*
 * In a thread (or forum post) the seat in force is inv->seat: the thread's
 * own, or its channel's while it has none. Claiming there, when nobody is
 * GM, takes the channel's seat, for every thread of the channel at once: a
 * forum, where commands run in posts only, gets its GM so. Releasing
 * there gives up the seat in force.
 */
static void
gm_claim(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->seat);
	struct channel *target = inv->chan;

	if (gm != NULL && strcmp(gm, inv->from->user_key) == 0) {
		reply_line(out, 0, "You are already the GM here.");
		return;
	}
	if (gm != NULL) {
		reply_error(
		    out, "%s is already the GM here%s; they can ", channel_gm_name(inv->seat),
		    inv->seat != inv->chan ? ", as the GM of the channel this thread belongs to"
		                           : "");
		reply_cmd(out, RS_BAD, "gm release", NULL);
		reply_add(out, RS_BAD, " first.");
		return;
	}
	if (inv->from->parent_key[0] != '\0' &&
	    (target = state_channel(inv->state, inv->from->parent_key)) == NULL) {
		reply_error(out, "The channel this thread belongs to cannot be read now, so its GM "
		                 "seat cannot be taken; try again in a minute.");
		return;
	}
	channel_set_gm(target, inv->from->user_key, inv->from->user_name);
	channel_touch(target);
	reply_add(out, RS_BOLD, "%s", inv->from->user_name);
	reply_add(out, 0,
	          target != inv->chan
	              ? " is now the GM of the channel this thread belongs to, and of "
	                "each of its threads."
	              : " is now the GM of this channel.");
	reply_nl(out);
}

static void
gm_release(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->seat);

	if (gm == NULL) {
		reply_error(out, "Nobody is GM here, so there is nothing to release.");
		return;
	}
	if (strcmp(gm, inv->from->user_key) != 0 && !inv->from->platform_admin) {
		reply_error(out, "Only %s (the GM) or a channel admin can release the GM seat.",
		            channel_gm_name(inv->seat));
		return;
	}
	reply_add(out, RS_BOLD, "%s", channel_gm_name(inv->seat));
	reply_add(out, 0,
	          inv->seat != inv->chan
	              ? " is no longer the GM of the channel this thread belongs to; anyone may "
	              : " is no longer the GM; anyone may ");
	reply_cmd(out, 0, "gm claim", NULL);
	reply_add(out, 0, ".");
	reply_nl(out);
	channel_clear_gm(inv->seat);
	channel_touch(inv->seat);
}

static void
gm_show(struct invocation *inv, struct reply *out)
{
	const char *name = channel_gm_name(inv->seat);

	if (name == NULL) {
		reply_add(out, 0, "Nobody is GM here yet; ");
		reply_cmd(out, 0, "gm claim", NULL);
		reply_line(out, 0, " makes you the GM.");
		return;
	}
	reply_add(out, 0, "The GM here is ");
	reply_add(out, RS_BOLD, "%s", name);
	reply_add(out, 0,
	          inv->seat != inv->chan ? ", the GM of the channel this thread belongs to." : ".");
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
