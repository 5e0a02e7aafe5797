/* /gm: who runs the game in this channel. */
#include "commands/gm/cmd_gm.h"

#include <stdio.h>
#include <string.h>

#include "commands/core/registry.h"
#include "commands/dice/rollchan.h"

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

/* The Discord channel key of "<#id>", "#id" or "id" (a snowflake), into
 * out (KEY_MAX bytes); false when text is none of these. */
static bool
discord_channel(const char *text, char *out)
{
	size_t n = strlen(text);

	if (n >= 3 && text[0] == '<' && text[1] == '#' && text[n - 1] == '>') {
		text += 2;
		n -= 3;
	} else if (n >= 1 && text[0] == '#') {
		text++;
		n--;
	}
	if (n < 15 || n > 20 || strspn(text, "0123456789") < n)
		return false;
	snprintf(out, KEY_MAX, "discord:%.*s", (int)n, text);
	return true;
}

/* /gm secret-channel: where secret rolls go when the GM takes no direct
 * messages (Discord); said to the GM alone. */
static void
gm_secret_channel(struct invocation *inv, struct reply *out)
{
	struct rollchan *rc;
	const char *to = rollchan_secret_to(inv->chan);
	char key[KEY_MAX];

	reply_to(out, REPLY_INVOKER);
	if (strcmp(inv->from->platform, "discord") != 0) {
		reply_line(out, 0,
		           "Here secret rolls always reach the GM (IRC: by NOTICE; the "
		           "console: on this terminal); a channel for them is set on "
		           "Discord, where a GM may take no direct messages.");
		return;
	}
	if (invocation_bool(inv, "off", false)) {
		if (to != NULL) {
			rollchan_set_secret_to(rollchan_of(inv->chan), "");
			channel_touch(inv->chan);
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
	if (!discord_channel(invocation_str(inv, "channel"), key)) {
		reply_error(out,
		            "'%.40s' is not a Discord channel: name it as #channel (a mention) "
		            "or by its id.",
		            invocation_str(inv, "channel"));
		return;
	}
	if (strcmp(key, channel_key(inv->chan)) == 0) {
		reply_error(out, "That is this channel, where everyone would see the secret "
		                 "rolls; name a channel or thread that only the GM reads.");
		return;
	}
	rc = rollchan_of(inv->chan);
	rollchan_set_secret_to(rc, key);
	channel_touch(inv->chan);
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
            "always act as GM.",
    .subs = gm_subs,
    .default_sub = "show",
};
