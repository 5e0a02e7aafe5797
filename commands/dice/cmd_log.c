/*
 * /log: the channel's last rolls (who, what, result, when), and /settings:
 * the channel's output settings. Both live in the channel's roll state
 * (commands/dice/rollchan.h), saved with its record.
 */
#include "commands/dice/cmd_log.h"

#include <stdio.h>
#include <string.h>

#include "commands/dice/rollchan.h"

/* "just now", "5 min ago", "3 h ago", "2 d ago". */
static void
ago(int64_t now, int64_t when, char *buf, size_t len)
{
	int64_t s = now > when ? now - when : 0;

	if (s < 60)
		snprintf(buf, len, "just now");
	else if (s < 3600)
		snprintf(buf, len, "%lld min ago", (long long)(s / 60));
	else if (s < 86400)
		snprintf(buf, len, "%lld h ago", (long long)(s / 3600));
	else
		snprintf(buf, len, "%lld d ago", (long long)(s / 86400));
}

/* The table of the newest n entries of a log (entry gives the i-th). */
static void
log_table(struct invocation *inv, const struct rollchan *rc, size_t n,
          const struct rollchan_entry *(*entry)(const struct rollchan *, size_t), struct reply *out)
{
	static const char *const hdr[] = {"when", "who", "roll", "result"};

	reply_table(out, 4, hdr);
	reply_table_records(out);
	for (size_t i = 0; i < n; i++) {
		const struct rollchan_entry *e = entry(rc, i);
		char when[32];
		const char *cells[4] = {when, e->who, e->what, e->result};

		ago(inv->now, e->when, when, sizeof(when));
		reply_row(out, false, cells);
	}
}

/* /log secret: the secret rolls that went to the invoker (a GM who took
 * the seat later sees none of those sent to the GM before), privately. */
static void
log_secret(struct invocation *inv, struct reply *out, size_t want)
{
	static const char *const hdr[] = {"when", "who", "roll", "result"};
	const struct rollchan *rc = channel_mod_peek(inv->chan, CHANMOD_ROLL);
	size_t have = rollchan_secret_count(rc), mine = 0, n;

	if (!invocation_require_gm(inv, out))
		return;
	reply_to(out, REPLY_INVOKER);
	for (size_t i = 0; i < have; i++)
		mine += strcmp(rollchan_secret_gm(rc, i), inv->from->user_key) == 0;
	if (mine == 0) {
		reply_add(out, 0, "No secret rolls here were sent to you%s; ",
		          have > 0 ? " (those made before you took the seat stay with that GM)"
		                   : "");
		reply_cmd(out, 0, "gmroll", NULL);
		reply_line(out, 0, " rolls in secret.");
		return;
	}
	n = want < mine ? want : mine;
	/* Each transport already says that the reply is the invoker's alone. */
	if (n == 1)
		reply_title(out, "The last secret roll here");
	else
		reply_title(out, "The last %zu secret rolls here, newest first", n);
	reply_table(out, 4, hdr);
	reply_table_records(out);
	for (size_t i = 0, shown = 0; i < have && shown < n; i++) {
		const struct rollchan_entry *e = rollchan_secret_entry(rc, i);
		char when[32];
		const char *cells[4] = {when, e->who, e->what, e->result};

		if (strcmp(rollchan_secret_gm(rc, i), inv->from->user_key) != 0)
			continue;
		ago(inv->now, e->when, when, sizeof(when));
		reply_row(out, false, cells);
		shown++;
	}
}

static void
log_fn(struct invocation *inv, struct reply *out)
{
	const struct rollchan *rc = channel_mod_peek(inv->chan, CHANMOD_ROLL);
	size_t want = (size_t)invocation_int(inv, "count", 10), n;

	if (invocation_has(inv, "kind") && strcmp(invocation_str(inv, "kind"), "secret") == 0) {
		log_secret(inv, out, want);
		return;
	}
	if (inv->from->direct) {
		reply_line(out, 0, "A private conversation with delver keeps no log of its rolls.");
		return;
	}
	if (rc == NULL || rc->nlog == 0) {
		reply_add(out, 0, "No rolls here yet; ");
		reply_cmd(out, 0, "roll", NULL);
		reply_line(out, 0, " rolls dice (private and secret rolls are not in this log).");
		return;
	}
	n = want < rc->nlog ? want : rc->nlog;
	if (n == 1)
		reply_title(out, "The last roll here");
	else
		reply_title(out, "The last %zu rolls here, newest first", n);
	log_table(inv, rc, n, rollchan_entry, out);
}

static const char *const log_kinds[] = {"rolls", "secret", NULL};

static const struct cmd_opt log_opts[] = {
    {.name = "kind",
     .desc = "rolls (the default), or secret: the secret rolls, for the GM alone",
     .type = OPT_STRING,
     .choices = log_kinds},
    {.name = "count",
     .desc = "How many rolls to show (1-20, default 10)",
     .type = OPT_INT,
     .min = 1,
     .max = ROLLCHAN_LOG_MAX},
    {0},
};

const struct command cmd_log = {
    .name = "log",
    .desc = "The channel's last rolls: who rolled what, the result and when",
    .help = "The channel keeps its last 20 roll results, across restarts. Private rolls "
            "are never logged; secret rolls ({/gmroll}) are kept apart, their last 20, and "
            "{/log kind=secret} shows a GM those sent to them (a GM who takes the seat later "
            "does not read those sent to the GM before).",
    .opts = log_opts,
    .fn = log_fn,
};

static void
settings_show(struct invocation *inv, struct reply *out)
{
	const struct rollchan *rc = channel_mod_peek(inv->chan, CHANMOD_ROLL);
	bool natural = rc == NULL || !rc->no_natural, compact = rc != NULL && rc->compact;

	reply_add(out, 0, "Natural 20 and 1 marks on a lone d20: ");
	reply_add(out, RS_BOLD, "%s", natural ? "on" : "off");
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_add(out, 0, "Compact output: ");
	reply_add(out, RS_BOLD, "%s", compact ? "on" : "off");
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_text(out, RS_DIM,
	           "GM: {/settings natural mode=on} or off, {/settings compact mode=on} or off.");
	reply_nl(out);
}

static bool
mode_on(const struct invocation *inv)
{
	return strcmp(invocation_str(inv, "mode"), "on") == 0;
}

static void
settings_natural(struct invocation *inv, struct reply *out)
{
	struct rollchan *rc = rollchan_of(inv->chan);

	rc->no_natural = !mode_on(inv);
	channel_touch(inv->chan);
	reply_line(out, 0, "A lone d20's natural 20 and 1 are %s here.",
	           mode_on(inv) ? "marked" : "no longer marked");
}

static void
settings_compact(struct invocation *inv, struct reply *out)
{
	struct rollchan *rc = rollchan_of(inv->chan);

	rc->compact = mode_on(inv);
	rc->dark_shown = false;
	channel_touch(inv->chan);
	if (rc->compact) {
		reply_text(out, 0,
		           "Compact output: a roll is one line (no Roll again button), a hazard "
		           "roll shows no table (a custom table only its rolled row; {/hazard "
		           "show} has the whole table), a turn, a wandering check, a tension roll "
		           "and an Annoy roll start on their heading's line, a bargain shows its "
		           "rolled row alone, a painful conflict's dice are in its rank table "
		           "only, the Darkness line comes only when it is new, and an empty "
		           "Fungeon step is one line.");
		reply_nl(out);
	} else {
		reply_line(out, 0,
		           "Full output: rolls name who rolls on a line of their own, hazard "
		           "rolls show the whole table, every turn says when nothing is lit, "
		           "and empty Fungeon steps say None.");
	}
}

static const char *const on_off[] = {"on", "off", NULL};

static const struct cmd_opt mode_opts[] = {
    {.name = "mode",
     .desc = "on or off",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = on_off},
    {0},
};

static const struct command settings_subs[] = {
    {.name = "show", .desc = "This channel's settings", .fn = settings_show, .read_only = true},
    {.name = "natural",
     .desc = "Mark a lone d20's natural 20 and 1 (on by default)",
     .role = ROLE_GM,
     .opts = mode_opts,
     .fn = settings_natural},
    {.name = "compact",
     .desc = "Compact output: one line a roll, no hazard table, Darkness only when new (off by "
             "default)",
     .role = ROLE_GM,
     .opts = mode_opts,
     .fn = settings_compact},
    {0},
};

const struct command cmd_settings = {
    .name = "settings",
    .desc = "This channel's settings: show; GM: natural on|off, compact on|off",
    .subs = settings_subs,
    .default_sub = "show",
};
