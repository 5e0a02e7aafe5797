/* /tension: the D12 Tension track, its mode and the command table. */
#include "commands/tension/cmd_tension.h"

#include <stdio.h>
#include <string.h>

#include "commands/core/complete.h"
#include "commands/tension/cmd_tension_roll.h"
#include "commands/tension/cmd_tension_table.h"

#define SHOW_CHANGES 5 /* changes /tension shows */
#define REASON_MAX   100

void
cmd_tension_bar(struct reply *out, int value)
{
	char bar[TENSION_MAX * 3 + 1];
	size_t n = 0;

	for (int i = 1; i <= TENSION_MAX; i++) {
		memcpy(bar + n, i <= value ? "█" : "░", 3);
		n += 3;
	}
	bar[n] = '\0';
	reply_add(out, 0, "Tension %s ", bar);
	reply_add(out, RS_BOLD, "%d", value);
	reply_add(out, 0, "/%d", TENSION_MAX);
}

/* A line "Tension ████░░░░░░ 4/10". */
static void
tension_cmd_bar(struct reply *out, int value)
{
	cmd_tension_bar(out, value);
	reply_nl(out);
}

void
cmd_tension_screen(struct invocation *inv, const struct tension_state *ts, struct reply *out,
                   const char *what)
{
	if (!ts->hidden)
		return;
	if (what != NULL)
		invocation_screen(inv, out, RS_ITALIC, what);
	else
		reply_to(out, REPLY_INVOKER);
}

static void
change_text(const struct tension_change *c, char *buf, size_t len)
{
	switch (c->kind) {
	case TENSION_CHANGE_ADJUST:
		snprintf(buf, len, "%+d%s", c->amount, c->clamped ? " (clamped)" : "");
		break;
	case TENSION_CHANGE_SET:
		snprintf(buf, len, "set %d", c->to);
		break;
	case TENSION_CHANGE_RESET:
		snprintf(buf, len, "reset");
		break;
	}
}

/* Whether the history row of c is shown in full: made in the open, or
 * behind the screen of viewer, who reads the history privately (NULL when
 * the reply is public: then no change behind a screen is, whoever asks,
 * its maker included). */
static bool
row_shown(const struct tension_state *ts, const struct tension_change *c, const char *viewer)
{
	return c->screen == 0 || (viewer != NULL && tension_state_sees(ts, c, viewer));
}

/* The last changes. Consecutive changes made behind another GM's screen
 * read as one row, counted as one of the rows shown, so that neither how
 * many there were nor how many open rows they push out tells their
 * number. */
static void
show_history(const struct tension_state *ts, const char *viewer, struct reply *out)
{
	static const char *const hdr[] = {"change", "Tension", "why"};
	static const char *const veiled[] = {"-", "-", "made behind another GM's screen"};
	const struct tension *t = &ts->track;
	size_t first = t->nhist, rows = 0;

	if (t->nhist == 0) {
		reply_line(out, RS_DIM, "No changes yet; a new dungeon starts at %d.",
		           TENSION_START);
		return;
	}
	while (first > 0 && rows < SHOW_CHANGES) {
		bool shown = row_shown(ts, &t->hist[first - 1], viewer);

		first--;
		while (!shown && first > 0 && !row_shown(ts, &t->hist[first - 1], viewer))
			first--;
		rows++;
	}
	reply_line(out, RS_DIM, "Last changes, oldest first:");
	reply_table(out, 3, hdr);
	for (size_t i = first; i < t->nhist; i++) {
		const struct tension_change *c = &t->hist[i];
		char what[32], move[32];
		const char *cells[] = {what, move, c->reason};

		if (!row_shown(ts, c, viewer)) {
			reply_row(out, false, veiled);
			while (i + 1 < t->nhist && !row_shown(ts, &t->hist[i + 1], viewer))
				i++;
			continue;
		}
		change_text(c, what, sizeof(what));
		snprintf(move, sizeof(move), "%d → %d", c->from, c->to);
		reply_row(out, false, cells);
	}
}

static void
tension_show(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);

	if (ts->hidden && !inv->is_gm) {
		const char *gm = channel_gm_name(inv->seat);

		reply_line(out, 0, "Tension is hidden behind the GM's screen; only %s sees it.",
		           gm != NULL ? gm : "the GM");
		return;
	}
	cmd_tension_screen(inv, ts, out, NULL);
	tension_cmd_bar(out, ts->track.value);
	if (ts->hidden)
		reply_line(out, RS_DIM, "Mode: hidden (only the GM sees Tension and its rolls).");
	else
		reply_line(out, RS_DIM, "Mode: open (everyone sees Tension and its rolls).");
	/* Hidden, only the GM gets here, and privately. */
	show_history(ts, ts->hidden ? inv->from->user_key : NULL, out);
}

/* The reason option, without the '#' of a "# reason" label, or dflt when
 * none was given. */
static const char *
reason_of(const struct invocation *inv, const char *dflt)
{
	const char *r = invocation_str(inv, "reason");

	if (r == NULL)
		return dflt;
	if (r[0] == '#')
		r++;
	while (*r == ' ' || *r == '\t')
		r++;
	return *r != '\0' ? r : dflt;
}

/* Says what a change did, behind the screen in hidden mode: the channel
 * reads the same line whatever the change (a "reset" would say 1). */
static void
changed(struct invocation *inv, struct tension_state *ts, const struct tension_change *c,
        struct reply *out)
{
	const char *verb = c->kind == TENSION_CHANGE_SET     ? "set"
	                   : c->kind == TENSION_CHANGE_RESET ? "reset"
	                   : c->amount > 0                   ? "raised"
	                                                     : "lowered";

	channel_touch(inv->chan);
	if (ts->hidden)
		tension_state_screened(ts, inv->from->user_key);
	cmd_tension_screen(inv, ts, out, "The GM changed the Tension behind the screen.");
	if (c->from == c->to)
		reply_add(out, 0, "Tension stays at %d", c->to);
	else
		reply_add(out, 0, "Tension %s %d → %d", verb, c->from, c->to);
	if (c->kind == TENSION_CHANGE_ADJUST) {
		reply_add(out, 0, " (");
		reply_add(out, RS_BOLD, "%+d", c->amount);
		if (c->clamped)
			reply_add(out, RS_BAD, ", clamped at %d, the %s it can be",
			          c->amount > 0 ? TENSION_MAX : TENSION_MIN,
			          c->amount > 0 ? "most" : "least");
		reply_add(out, 0, ")");
	}
	reply_add(out, 0, ": %s.", c->reason);
	reply_nl(out);
	tension_cmd_bar(out, c->to);
}

static const char *const raise_events[] = {"door", "quiet-combat", "combat", "enemy-escaped", NULL};
static const char *const lower_events[] = {"trap", "secret", "prisoner", "objective", NULL};

static void
adjust(struct invocation *inv, struct reply *out, int sign)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	const char *ev = invocation_str(inv, "event"), *reason = reason_of(inv, NULL);
	const char *const *names = sign > 0 ? raise_events : lower_events;
	const char *path = sign > 0 ? "tension raise" : "tension lower";
	const struct tension_change *c;

	if (ev != NULL && invocation_has(inv, "amount")) {
		reply_error(out, "Give an event or an amount, not both: ");
		reply_cmd(out, RS_BAD, path, "event", ev, NULL);
		reply_add(out, RS_BAD, ", or ");
		reply_cmd(out, RS_BAD, path, "amount:", "N", "reason:", "why", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (ev == NULL && !invocation_has(inv, "amount")) {
		reply_error(out,
		            "Name what happened (%s, %s, %s or %s) or give an amount with a "
		            "reason: ",
		            names[0], names[1], names[2], names[3]);
		reply_cmd(out, RS_BAD, path, "amount:", "N", "reason:", "why", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (ev == NULL && reason == NULL) {
		char n[24];

		snprintf(n, sizeof(n), "%d", (int)invocation_int(inv, "amount", 1));
		reply_error(out, "A change by an amount needs a reason: ");
		reply_cmd(out, RS_BAD, path, "amount:", n, "reason:", "why", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (ev != NULL)
		c = tension_event(&ts->track, (enum tension_event)tension_event_find(ev), reason);
	else
		c = tension_adjust(&ts->track, sign * (int)invocation_int(inv, "amount", 1),
		                   reason);
	changed(inv, ts, c, out);
}

static void
tension_raise(struct invocation *inv, struct reply *out)
{
	adjust(inv, out, +1);
}

static void
tension_lower(struct invocation *inv, struct reply *out)
{
	adjust(inv, out, -1);
}

static void
tension_set_fn(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);

	changed(inv, ts,
	        tension_set(&ts->track, (int)invocation_int(inv, "value", TENSION_START),
	                    reason_of(inv, "GM's choice")),
	        out);
}

static void
tension_reset_fn(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);

	changed(inv, ts, tension_reset(&ts->track, reason_of(inv, "back to town")), out);
}

static void
tension_mode(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	bool hidden = strcmp(invocation_str(inv, "mode"), "hidden") == 0;

	if (ts->hidden == hidden && !hidden) {
		reply_line(out, 0, "Tension is already open.");
		return;
	}
	if (ts->hidden == hidden) {
		/* An answer about the hidden track is the GM's alone, as the
		 * value after the first was (Discord: ephemeral, IRC: a notice). */
		reply_to(out, REPLY_INVOKER);
		reply_line(out, 0, "Tension is already hidden behind the GM's screen.");
		tension_cmd_bar(out, ts->track.value);
		return;
	}
	ts->hidden = hidden;
	if (!hidden)
		tension_state_reveal(ts, inv->from->user_key);
	channel_touch(inv->chan);
	if (hidden) {
		reply_line(out, 0,
		           "Tension is now hidden behind the GM's screen: its value, changes and "
		           "rolls reach only the GM.");
		reply_to(out, REPLY_INVOKER);
	} else {
		reply_line(out, 0, "Tension is now open: everyone sees it, its changes and rolls.");
	}
	tension_cmd_bar(out, ts->track.value);
}

/* --- the command table --- */

static const char *const modes[] = {"open", "hidden", NULL};
static const char *const kinds[] = {"encounter", "effects", NULL};

#define REASON_OPT(what)                                                                           \
	{                                                                                          \
		.name = "reason", .desc = what, .type = OPT_STRING,                                \
		.flags = OPT_REST | OPT_LABEL | OPT_BLANK_NONE, .max = REASON_MAX                  \
	}

static const struct cmd_opt raise_opts[] = {
    {.name = "event",
     .desc = "What happened: door +1, quiet-combat +1, combat +2, enemy-escaped +4",
     .type = OPT_STRING,
     .choices = raise_events},
    REASON_OPT("Why (needed with amount; added to an event)"),
    {.name = "amount",
     .desc = "Raise by this much instead of an event (give a reason)",
     .type = OPT_INT,
     .min = 1,
     .max = TENSION_MAX - TENSION_MIN},
    {0},
};

static const struct cmd_opt lower_opts[] = {
    {.name = "event",
     .desc = "What happened: trap -1, secret -1, prisoner -2, objective -3",
     .type = OPT_STRING,
     .choices = lower_events},
    REASON_OPT("Why (needed with amount; added to an event)"),
    {.name = "amount",
     .desc = "Lower by this much instead of an event (give a reason)",
     .type = OPT_INT,
     .min = 1,
     .max = TENSION_MAX - TENSION_MIN},
    {0},
};

static const struct cmd_opt set_opts[] = {
    {.name = "value",
     .desc = "The new Tension, 1 to 10",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = TENSION_MIN,
     .max = TENSION_MAX},
    REASON_OPT("Why (default: GM's choice)"),
    {0},
};

static const struct cmd_opt reset_opts[] = {
    REASON_OPT("Why (default: back to town)"),
    {0},
};

static const struct cmd_opt roll_opts[] = {
    {.name = "exits",
     .desc = "Exits and doors of the room, 0 to 20 (default 1)",
     .type = OPT_INT,
     .min = 0,
     .max = 20},
    {0},
};

static const struct cmd_opt mode_opts[] = {
    {.name = "mode",
     .desc = "open: everyone sees Tension; hidden: only the GM does",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = modes},
    {0},
};

static const struct cmd_opt table_show_opts[] = {
    {.name = "kind", .desc = "Which table (default: both)", .type = OPT_STRING, .choices = kinds},
    {0},
};

static const struct cmd_opt table_set_opts[] = {
    {.name = "kind",
     .desc = "Which table",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = kinds},
    {.name = "text",
     .desc = "Entries over 1-20: '1-4 A lost adventurer; 5-8 1d4 goblins; ...'",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST,
     .max = CMD_LINE_MAX - 40},
    {0},
};

static const struct cmd_opt table_reset_opts[] = {
    {.name = "kind",
     .desc = "Which table goes back to its default",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = kinds},
    {0},
};

static const struct cmd_opt strike_opts[] = {
    {.name = "entry",
     .desc = "A range (9-12), a result (10) or part of the entry's text",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST | OPT_AUTOCOMPLETE | OPT_NAME,
     .max = ROLL_TABLE_TEXT_MAX - 1,
     .complete = complete_tension_entry},
    {.name = "table",
     .desc = "Which table (default: encounter)",
     .type = OPT_STRING,
     .choices = kinds},
    {0},
};

static const struct cmd_opt unstrike_opts[] = {
    {.name = "entry",
     .desc = "A struck entry to restore (default: every struck entry)",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_AUTOCOMPLETE,
     .max = ROLL_TABLE_TEXT_MAX - 1,
     .complete = complete_tension_struck},
    {.name = "table",
     .desc = "Which table (default: encounter with an entry, else both)",
     .type = OPT_STRING,
     .choices = kinds},
    {0},
};

static const struct command table_subs[] = {
    {.name = "show",
     .desc = "Show the encounter and effects tables",
     .opts = table_show_opts,
     .fn = cmd_tension_table_show,
     .read_only = true},
    {.name = "set",
     .desc = "Replace a table: ranges covering 1-20, no gaps or overlaps",
     .help = "Entries are separated by ';': '1-4 a lost adventurer; 5-8 1d4 goblins; ...'. "
             "They cover 1 to 20 in order (d10 + Tension gives 2 to 20), from harmless to "
             "deadly. Rulings: entries that are unchanged (same range and text) stay struck; "
             "the bot keeps the entries in the order of their ranges as written and does not "
             "judge their danger.",
     .role = ROLE_GM,
     .opts = table_set_opts,
     .fn = cmd_tension_table_set},
    {.name = "reset",
     .desc = "Put a table back to the default of the rules (nothing struck)",
     .role = ROLE_GM,
     .opts = table_reset_opts,
     .fn = cmd_tension_table_reset},
    {0},
};

static const struct command tension_subs[] = {
    {.name = "show",
     .desc = "Show Tension, its last changes and the mode",
     .fn = tension_show,
     .read_only = true},
    {.name = "raise",
     .desc = "Raise Tension for an event or by an amount with a reason",
     .help = "Events: door +1 (breaking down a stuck or locked door), quiet-combat +1, "
             "combat +2, enemy-escaped +4 (combat in which an enemy escaped); words after the "
             "event are kept with it ({/tension raise event=combat reason=\"goblins at the "
             "bridge\"}). Or {/tension raise amount:N reason:why} (or # why on text). Tension "
             "stops at 10 and the reply says "
             "so; the change is still recorded.",
     .role = ROLE_GM,
     .opts = raise_opts,
     .fn = tension_raise},
    {.name = "lower",
     .desc = "Lower Tension for an event or by an amount with a reason",
     .help = "Events: trap -1 (disarming or circumventing a trap), secret -1 (discovering "
             "a secret), prisoner -2 (rescuing a prisoner), objective -3 (achieving a major "
             "objective); words after the event are kept with it. Or amount:N "
             "reason:\"why\" (or # why). Tension stops at 1 and the reply says so; the "
             "change is still recorded.",
     .role = ROLE_GM,
     .opts = lower_opts,
     .fn = tension_lower},
    {.name = "set",
     .desc = "Set Tension to a value from 1 to 10",
     .role = ROLE_GM,
     .opts = set_opts,
     .fn = tension_set_fn},
    {.name = "reset",
     .desc = "Back to town: Tension returns to 1",
     .help = "For leaving for town for a while (about a week); stepping out and back does "
             "not reset Tension. Ruling: reset returns to 1, where a new dungeon starts; "
             "the history is kept and the tables (with struck entries) are left as they "
             "are.",
     .role = ROLE_GM,
     .opts = reset_opts,
     .fn = tension_reset_fn},
    {.name = "roll",
     .desc = "Tension roll: dungeon event d12 and encounter d12, then the tables",
     .help = "Dungeon event d12: 1-5 nothing; 6 a non-magical light source fails; 7-10 "
             "d10 + Tension on the effects table; 11-12 enemy or NPC sounds. Encounter "
             "d12: an encounter when the roll is at most the exits or at most Tension, then "
             "d10 + Tension on the encounter table. Dice in entries are rolled (2d4 goblins "
             "→ 5 goblins (2d4: 3+2)). A struck entry means no encounter (no effect). "
             "In a safe area ({/safe on}) monsters do not go: no encounter check is made. "
             "On a rest turn ({/rest}) the party lingers: the roll says so, resting lowers no "
             "Tension, and a delving party's pace surprises it no more (darkness still does). "
             "Rulings: exits default to 1 and may be 0 (only Tension can trigger) to 20; "
             "the d12s and d10s are rolled before the dice inside entries; in a safe area "
             "the dungeon event is still rolled; a light source that fails is the oldest lit, "
             "as the hazard die's Light result ({/light flicker} undoes it), and behind the "
             "screen the GM gives it with {/light fail} when the players are told.",
     .role = ROLE_GM,
     .opts = roll_opts,
     .fn = cmd_tension_roll_run},
    {.name = "table",
     .desc = "Show, replace or reset the encounter and effects tables",
     .subs = table_subs,
     .default_sub = "show"},
    {.name = "strike",
     .desc = "Strike a defeated encounter: rolling it means no encounter",
     .help = "Name the entry by range (9-12), by a result it covers (10) or by part of its "
             "text (2d4, when only one entry says so). table:effects strikes an effect "
             "instead: rolling it then means no effect. Struck entries stay struck through "
             "{/tension reset}.",
     .role = ROLE_GM,
     .opts = strike_opts,
     .fn = cmd_tension_table_strike},
    {.name = "unstrike",
     .desc = "Restore a struck entry, or every struck entry",
     .help = "With an entry: that entry of the encounter table (table:effects for the "
             "effects table). Without: every struck entry of the table given, or of both "
             "tables.",
     .role = ROLE_GM,
     .opts = unstrike_opts,
     .fn = cmd_tension_table_unstrike},
    {.name = "mode",
     .desc = "open: everyone sees Tension; hidden: only the GM",
     .help = "Hidden mode sends the value, every change and every roll to the GM alone "
             "(ephemeral on Discord, a private message on IRC, marked private on the "
             "console); the channel only sees that the GM did something, in the same words "
             "whatever it was. Rulings: channels start open; in hidden mode the tables are "
             "shown to the GM alone; a struck entry rolled (by a hazard roll too) is not said "
             "aloud, since players know what they defeated: the GM alone is told.",
     .role = ROLE_GM,
     .opts = mode_opts,
     .fn = tension_mode},
    {0},
};

/* What /help tension points to. */
static const struct help_topic tension_topics[] = {
    {.name = "rulings",
     .desc = "where the rules are silent",
     .text = "the GM makes each tension roll (the bot never rolls one by itself: it cannot see "
             "rooms or lingering); a new dungeon starts at 1 and reset (back to town) returns "
             "to 1; a change past 1 or 10 is clamped and the reply says so; the last 32 "
             "changes are kept with their reasons and {/tension show} shows the last 5; "
             "changes, rolls, strikes and table edits are for the GM; channels start in open "
             "mode."},
    {0},
};

const struct command cmd_tension = {
    .name = "tension",
    .desc = "D12 Tension: the GM's tension track, tension rolls and encounter tables",
    .help = "Tension runs from 1 to 10; the GM raises it for doors and fights, lowers it "
            "for traps, secrets, prisoners and objectives, and makes tension rolls when "
            "the party enters an empty room or lingers.",
    .topics = tension_topics,
    .subs = tension_subs,
    .default_sub = "show",
};
