/* /gm: who runs the game in this channel. */
#include "commands/gm/cmd_gm.h"

#include <stdio.h>
#include <string.h>

#include "commands/core/registry.h"
#include "commands/dice/rollchan.h"
#include "commands/tension/tension_state.h"

/* What /gm says in a private conversation with the bot (IRC private
 * messages, a Discord DM), whose one user holds its empty seat
 * (invocation_seat). */
#define PRIVATE_GM                                                                                 \
	"This is your private conversation with delver: you are its GM without claiming the seat"

/* Tells the new holder of seat, privately, where the secret rolls sent to
 * them go (Discord: a direct message, else the channel they named for it,
 * if any: one an earlier holder named is not theirs). */
static void
secret_road(struct invocation *inv, struct channel *seat, struct reply *out)
{
	const char *to = rollchan_secret_to(seat);

	if (strcmp(inv->from->platform, "discord") != 0)
		return;
	reply_to(out, REPLY_INVOKER);
	if (to != NULL) {
		reply_add(out, 0,
		          "Secret rolls reach you by direct message; when you take none, in ");
		reply_add(out, RS_CHANNEL, "%s", to);
		reply_add(out, 0, ", the channel you named for them.");
	} else {
		reply_add(out, 0,
		          "Secret rolls reach you by direct message; if you take none from "
		          "delver, ");
		reply_cmd(out, 0, "gm secret-channel", "channel:", "#channel", NULL);
		reply_add(out, 0, " names a channel or thread only you read for them.");
	}
	reply_nl(out);
	reply_to(out, REPLY_CHANNEL);
}

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

	if (inv->from->direct && (gm == NULL || strcmp(gm, inv->from->user_key) == 0)) {
		/* recorded, as it is theirs anyway */
		channel_set_gm(inv->chan, inv->from->user_key, inv->from->user_name);
		channel_touch(inv->chan);
		reply_line(out, 0, PRIVATE_GM ", so there is no seat to claim.");
		return;
	}
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
	secret_road(inv, target, out);
}

/* The reminder, to the GM leaving the seat, that whoever claims it next
 * reads what is behind their screen; the "/gm claim" that takes it back
 * is said after it by the caller. */
static void
release_reminder(struct reply *out)
{
	reply_add(out, 0,
	          " whoever claims the seat next reads its value, the tables behind the screen "
	          "and a Sign's creature still to come, and runs the game from them (the changes, "
	          "secret rolls and undo history behind your screen stay yours); ");
	reply_cmd(out, 0, "gm claim", NULL);
	reply_add(out, 0, " takes the seat back while nobody has.");
	reply_nl(out);
}

/*
 * Tension is hidden and the seat of gm (its holder's key) is being
 * released: its holder is told, privately, what the next holder will read
 * and how to take the seat back. A GM releasing their own seat reads it in
 * their reply; when a channel admin releases it, it goes to the GM as what
 * is behind the screen goes (gm_screen.h: a direct message, a NOTICE, the
 * GM's channel for secret rolls), and the admin reads what the next holder
 * reads, not the GM's own words.
 */
static void
release_warning(struct invocation *inv, const char *gm, struct reply *out)
{
	const char *fallback = rollchan_secret_to(inv->seat);

	reply_to(out, REPLY_INVOKER);
	reply_add(out, RS_BAD, "Tension is behind the GM's screen here:");
	if (strcmp(gm, inv->from->user_key) == 0) {
		release_reminder(out);
		reply_to(out, REPLY_CHANNEL);
		return;
	}
	reply_add(out, 0,
	          " whoever claims the seat next reads its value, the tables behind the screen "
	          "and a Sign's creature still to come; the changes, secret rolls and undo "
	          "history behind ");
	reply_add(out, RS_BOLD, "%s", channel_gm_name(inv->seat));
	reply_add(out, 0, "'s screen stay theirs.");
	reply_nl(out);
	reply_to_gm(out, gm, channel_gm_name(inv->seat));
	if (fallback != NULL && strcmp(fallback, channel_key(inv->chan)) != 0)
		reply_gm_fallback(out, fallback);
	reply_gm_aside(out, "the warning that whoever claims the seat next reads what is behind "
	                    "their screen");
	reply_add(out, RS_BOLD, "%s", inv->from->user_name);
	reply_add(out, RS_BAD, " released your GM seat while Tension is behind your screen:");
	release_reminder(out);
	reply_to(out, REPLY_CHANNEL);
}

static void
gm_release(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->seat);

	/* The user stays GM of their own conversation: the seat recorded
	 * there as theirs goes quietly. */
	if (inv->from->direct && (gm == NULL || strcmp(gm, inv->from->user_key) == 0)) {
		if (gm != NULL) {
			channel_clear_gm(inv->seat);
			channel_touch(inv->seat);
		}
		reply_line(out, 0, PRIVATE_GM ", so there is no seat to release.");
		return;
	}
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
	/* What stays behind the screen, and what the next GM reads: said to
	 * the GM whose screen it is, privately, whoever released the seat. */
	if (tension_state_hidden(inv->chan) || tension_state_hidden(inv->seat))
		release_warning(inv, gm, out);
	channel_clear_gm(inv->seat);
	channel_touch(inv->seat);
}

static void
gm_show(struct invocation *inv, struct reply *out)
{
	const char *name = channel_gm_name(inv->seat);

	if (inv->from->direct &&
	    (name == NULL || strcmp(channel_gm(inv->seat), inv->from->user_key) == 0)) {
		reply_line(out, 0, PRIVATE_GM ".");
		return;
	}
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

/* /gm secret-channel: where secret rolls go when the GM takes no direct
 * messages (Discord); said to the GM alone. */
static void
gm_secret_channel(struct invocation *inv, struct reply *out)
{
	struct rollchan *rc;
	const char *to = rollchan_secret_to(inv->seat);
	char key[KEY_MAX];

	reply_to(out, REPLY_INVOKER);
	if (strcmp(inv->from->platform, "discord") != 0) {
		reply_line(out, 0,
		           "Here secret rolls always reach the GM (IRC: by NOTICE; the "
		           "console: on this terminal); a channel for them is set on "
		           "Discord, where a GM may take no direct messages.");
		return;
	}
	/* The channel is the seat holder's own (rollchan.h): a channel admin
	 * who does not hold the seat may read it, not name it for them. */
	if ((invocation_has(inv, "channel") || invocation_has(inv, "off")) &&
	    (channel_gm(inv->seat) == NULL ||
	     strcmp(channel_gm(inv->seat), inv->from->user_key) != 0)) {
		if (channel_gm(inv->seat) != NULL) {
			reply_error(
			    out, "Only the GM, %s, names where the secret rolls sent to them go.",
			    channel_gm_name(inv->seat));
			return;
		}
		reply_error(out, "Nobody is GM here, so no secret rolls go anywhere; take the "
		                 "seat with ");
		reply_cmd(out, RS_BAD, "gm claim", NULL);
		reply_add(out, RS_BAD, " first.");
		return;
	}
	if (invocation_bool(inv, "off", false)) {
		if (to != NULL) {
			rollchan_set_secret_to(rollchan_of(inv->seat), "", "");
			channel_touch(inv->seat);
		}
		reply_line(out, 0,
		           "Secret rolls go to the GM by direct message only; when the GM "
		           "takes none, the roller is told nobody saw the roll.");
		return;
	}
	if (!invocation_has(inv, "channel")) {
		if (to == NULL) {
			reply_add(out, 0, "Secret rolls go to the GM by direct message only; ");
			reply_cmd(out, 0, "gm secret-channel", "channel:", "#channel", NULL);
			reply_line(out, 0,
			           " names a channel or thread where the GM reads them when "
			           "the GM takes no direct messages.");
		} else {
			reply_add(out, 0,
			          "Secret rolls go to the GM by direct message; when the GM "
			          "takes none, to ");
			reply_add(out, RS_CHANNEL, "%s", to);
			reply_add(out, 0, ".");
			reply_nl(out);
		}
		return;
	}
	if (!invocation_channel_named(inv, invocation_str(inv, "channel"), key)) {
		reply_error(out,
		            "'%.40s' is not a Discord channel: name it as #channel (a mention) "
		            "or by its id.",
		            invocation_str(inv, "channel"));
		return;
	}
	if (strcmp(key, channel_key(inv->chan)) == 0 || strcmp(key, channel_key(inv->seat)) == 0) {
		reply_error(out, "That is this channel, where everyone would see the secret "
		                 "rolls; name a channel or thread that only the GM reads.");
		return;
	}
	/* Kept with the seat: a thread's secret rolls go where its channel's do. */
	rc = rollchan_of(inv->seat);
	rollchan_set_secret_to(rc, key, inv->from->user_key);
	channel_touch(inv->seat);
	reply_add(out, 0,
	          "Secret rolls go to the GM by direct message; when the GM takes none, to ");
	reply_add(out, RS_CHANNEL, "%s", key);
	reply_add(out, 0, ", and the roller is told so. Make sure only the GM can read it.");
	reply_nl(out);
}

static const struct cmd_opt secret_channel_opts[] = {
    {.name = "channel",
     .desc = "A channel or thread only the GM reads: #channel, or its id",
     .type = OPT_STRING,
     .flags = OPT_NAME,
     .max = 40},
    {.name = "off", .desc = "Send secret rolls by direct message only", .type = OPT_BOOL},
    {0},
};

static const struct command gm_subs[] = {
    {.name = "show", .desc = "Show who is GM in this channel", .fn = gm_show, .read_only = true},
    {.name = "claim", .desc = "Become the GM of this channel (when nobody is)", .fn = gm_claim},
    {.name = "release", .desc = "Give up the GM seat", .fn = gm_release},
    {.name = "secret-channel",
     .desc = "Where secret rolls go when the GM takes no direct messages (Discord)",
     .role = ROLE_GM,
     .opts = secret_channel_opts,
     .fn = gm_secret_channel},
    {0},
};

const struct command cmd_gm = {
    .name = "gm",
    .desc = "Who is GM in this channel: show, claim, release, secret-channel",
    .help = "The GM of a channel may change its settings (hazard table, Tension, ...). "
            "Anyone may claim the seat while it is empty; the GM or a channel admin "
            "releases it. Channel admins (Discord: Manage Channel; IRC: operators) may "
            "always act as GM. The screen is each GM's own: the next holder reads hidden "
            "Tension's value, not the changes, secret rolls or undo history behind the "
            "earlier GM's screen.",
    .subs = gm_subs,
    .default_sub = "show",
};
