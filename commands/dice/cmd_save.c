/*
 * /save and /saved: rolls saved under a name, a player's own or (set by
 * the GM) the channel's, then rolled with /roll name. A player's own live
 * in their user record and follow them to every channel of the platform;
 * the channel's live in its roll state (commands/dice/rollchan.h). A player's
 * own win over the channel's of the same name.
 *
 * What a player keeps for themselves is said to them alone (an ephemeral
 * reply on Discord, a NOTICE on IRC): a roll saved for a later /gmroll
 * would tell the table its modifier and label. The channel's saved rolls
 * are everyone's, and the GM's saving or deleting one is said in the open.
 */
#include "commands/dice/cmd_save.h"

#include <stdio.h>
#include <string.h>

#include "commands/dice/roll_words.h"
#include "commands/dice/rollchan.h"
#include "rules/dice/dice.h"

/* The owner a command acts for: the invoker, or "" for the channel. */
static const char *
owner(const struct invocation *inv, bool channel)
{
	return channel ? "" : inv->from->user_key;
}

static bool
gm_check(struct invocation *inv, bool channel, struct reply *out)
{
	if (channel && !inv->is_gm) {
		reply_error(out, "Only the GM saves or deletes the channel's rolls; save your own "
		                 "without channel:true.");
		return false;
	}
	return true;
}

/*
 * /save. A channel:VALUE word in the roll's label is the option the user
 * meant, not label text, as /roll reads a private: word there (roll_fn):
 * the GM's roll saved for the channel must not become the GM's own because
 * the option was typed after the label.
 */
static void
save_fn(struct invocation *inv, struct reply *out)
{
	const char *name = invocation_str(inv, "name"), *roll = invocation_str(inv, "roll"), *chk;
	char err[DICE_ERR_MAX], why[300], adv[DICE_TEXT_MAX + 8], rollbuf[ROLLCHAN_ROLL_MAX];
	char bad[48];
	bool channel = invocation_bool(inv, "channel", false), asked;
	int r;

	r = roll_words_in_label(roll, "channel", &asked, rollbuf, sizeof(rollbuf), bad,
	                        sizeof(bad));
	if (r < 0) {
		roll_words_bad(out, "save", "channel", bad);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (r == 1 && invocation_has(inv, "channel") && asked != channel) {
		roll_words_twice(out, "save", "channel", channel);
		return;
	}
	if (r == 1) {
		channel = asked;
		roll = rollbuf;
	}
	if (!gm_check(inv, channel, out))
		return;
	if (!rollchan_name_ok(name)) {
		rollchan_save(rollchan_of(inv->chan), "", name, "", why, sizeof(why));
		reply_error(out, "%s", why);
		return;
	}
	/* A saved roll must roll: checked now, not when it is used. */
	if ((chk = dice_advantage(roll, adv, sizeof(adv), err, sizeof(err))) == NULL) {
		reply_error(out, "%s", err);
		return;
	}
	if (dice_check(chk, strlen(chk), err, sizeof(err)) != DICE_OK) {
		if (chk != roll)
			dice_advantage_error(roll, err, sizeof(err));
		if (roll_words_typo(inv, roll, out))
			return;
		reply_error(out, "That roll does not parse: %s.", err);
		return;
	}
	if (channel) {
		if (rollchan_save(rollchan_of(inv->chan), "", name, roll, why, sizeof(why)) < 0) {
			reply_error_refs(out, why);
			return;
		}
		channel_touch(inv->chan);
	} else {
		struct rollchan *rc = channel_mod_peek(inv->chan, CHANMOD_ROLL);

		rollchan_adopt(inv->chan, inv->user);
		if (user_save(inv->user, name, roll) < 0) {
			reply_error(out, "You may keep at most %d saved rolls; delete one with ",
			            USER_SAVED_MAX);
			reply_cmd(out, RS_BAD, "saved delete", "name", "NAME", NULL);
			reply_add(out, RS_BAD, " first.");
			return;
		}
		user_touch(inv->user);
		/* One this channel still kept for the player is replaced. */
		if (rc != NULL && rollchan_delete(rc, inv->from->user_key, name))
			channel_touch(inv->chan);
	}
	if (!channel)
		reply_to(out, REPLY_INVOKER);
	reply_add(out, 0, "Saved %s", channel ? "the channel's roll " : "your roll ");
	reply_add(out, RS_CODE, "%s", name);
	reply_add(out, 0, " = ");
	reply_add(out, RS_CODE, "%s", roll);
	reply_add(out, 0, "; roll it with ");
	reply_cmd(out, 0, "roll", "expression", name, NULL);
	reply_add(out, 0, " (more may follow: ");
	snprintf(adv, sizeof(adv), "%s +2", name);
	reply_cmd(out, 0, "roll", "expression", adv, NULL);
	reply_add(out, 0, ").");
	reply_nl(out);
}

static const struct cmd_opt save_opts[] = {
    {.name = "name",
     .desc = "A name: letters, digits, - or _, starting with a letter other than d",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = 4 * ROLLCHAN_NAME_MAX},
    {.name = "roll",
     .desc = "The dice, as for /roll: 8d6 # fireball",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST | OPT_TYPED,
     .max = ROLLCHAN_ROLL_MAX - 1},
    {.name = "channel", .desc = "GM: save it for everyone in this channel", .type = OPT_BOOL},
    {0},
};

const struct command cmd_save = {
    .name = "save",
    .desc = "Save a roll under a name to roll it by that name (the GM: for the whole channel)",
    .help = "Your saved rolls are yours in every channel (on this platform); the channel's "
            "(saved by the GM with channel:true) are everyone's in that channel, and yours "
            "win when both have a name. {/roll expression=\"name +2\"} adds to it, "
            "{/roll expression=\"name # label\"} relabels it. At most 50 of yours and 30 of "
            "the channel's.",
    .opts = save_opts,
    .fn = save_fn,
};

static void
list_owner(struct reply *out, const struct rollchan *rc, const char *who, const char *title)
{
	bool any = false;

	for (size_t i = 0; rc != NULL && i < rc->nsaved; i++) {
		const char *cells[2] = {rc->saved[i].name, rc->saved[i].roll};

		if (strcmp(rc->saved[i].owner, who) != 0)
			continue;
		if (!any) {
			static const char *const hdr[] = {"name", "roll"};

			reply_line(out, RS_BOLD, "%s", title);
			reply_table(out, 2, hdr);
			any = true;
		}
		reply_row(out, false, cells);
	}
	if (!any)
		reply_line(out, RS_DIM, "%s: none.", title);
}

static void
saved_list(struct invocation *inv, struct reply *out)
{
	const struct rollchan *rc;
	static const char *const hdr[] = {"name", "roll"};
	size_t n;

	rollchan_adopt(inv->chan, inv->user);
	rc = channel_mod_peek(inv->chan, CHANMOD_ROLL);
	n = user_nsaved(inv->user);
	reply_to(out, REPLY_INVOKER);
	if (n > 0) {
		reply_line(out, RS_BOLD, "Your saved rolls");
		reply_table(out, 2, hdr);
		for (size_t i = 0; i < n; i++) {
			const struct user_saved *s = user_saved_at(inv->user, i);
			const char *cells[2] = {s->name, s->roll};

			reply_row(out, false, cells);
		}
	}
	/* What could not move to the player's record (a name kept twice). */
	if (n == 0 || (rc != NULL && rollchan_find_owner(rc, inv->from->user_key)))
		list_owner(out, rc, inv->from->user_key,
		           n > 0 ? "Yours kept in this channel only" : "Your saved rolls");
	list_owner(out, rc, "", "The channel's saved rolls");
}

static void
saved_show(struct invocation *inv, struct reply *out)
{
	const char *name = invocation_str(inv, "name"), *canon = NULL, *roll;
	bool mine;

	if ((roll = rollchan_lookup(inv->chan, inv->user, name, &canon, &mine)) == NULL) {
		reply_error(out, "No saved roll is named '%.24s' here; ", name);
		reply_cmd(out, RS_BAD, "saved list", NULL);
		reply_add(out, RS_BAD, " lists them.");
		return;
	}
	if (mine)
		reply_to(out, REPLY_INVOKER);
	reply_add(out, RS_CODE, "%s", canon);
	reply_add(out, 0, " = ");
	reply_add(out, RS_CODE, "%s", roll);
	reply_add(out, RS_DIM, " (%s)", mine ? "yours" : "the channel's");
	reply_nl(out);
}

static void
saved_delete(struct invocation *inv, struct reply *out)
{
	struct rollchan *rc = channel_mod_peek(inv->chan, CHANMOD_ROLL);
	const char *name = invocation_str(inv, "name");
	bool channel = invocation_bool(inv, "channel", false);

	if (!gm_check(inv, channel, out))
		return;
	if (owner(inv, channel)[0] != '\0' && user_saved_delete(inv->user, name)) {
		user_touch(inv->user);
	} else if (rc == NULL || !rollchan_delete(rc, owner(inv, channel), name)) {
		reply_error(out, "%s no saved roll named '%.24s'%s; ",
		            owner(inv, channel)[0] ? "You have" : "The channel has", name,
		            owner(inv, channel)[0] ? "" : " here");
		reply_cmd(out, RS_BAD, "saved list", NULL);
		reply_add(out, RS_BAD, " lists them.");
		return;
	} else {
		channel_touch(inv->chan);
	}
	if (owner(inv, channel)[0] != '\0')
		reply_to(out, REPLY_INVOKER);
	reply_line(out, 0, "Deleted the saved roll %.24s.", name);
}

static const struct cmd_opt name_opts[] = {
    {.name = "name",
     .desc = "The saved roll's name",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = ROLLCHAN_NAME_MAX - 1},
    {0},
};

static const struct cmd_opt delete_opts[] = {
    {.name = "name",
     .desc = "The saved roll's name",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_NAME,
     .max = ROLLCHAN_NAME_MAX - 1},
    {.name = "channel", .desc = "GM: delete the channel's, not yours", .type = OPT_BOOL},
    {0},
};

static const struct command saved_subs[] = {
    {.name = "list",
     .desc = "Your saved rolls and the channel's",
     .fn = saved_list,
     .read_only = true},
    {.name = "show",
     .desc = "What a saved roll rolls",
     .opts = name_opts,
     .fn = saved_show,
     .read_only = true},
    {.name = "delete", .desc = "Delete a saved roll", .opts = delete_opts, .fn = saved_delete},
    {0},
};

const struct command cmd_saved = {
    .name = "saved",
    .desc = "Saved rolls: list, show, delete",
    .subs = saved_subs,
    .default_sub = "list",
};
