/*
 * /hazard: the hazard die of the turn procedure. /hazard (roll) passes a
 * turn with a roll; the settings subcommands live in cmd_hazard_set.c.
 */
#include "commands/procedure/cmd_hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/procedure/cmd_hazard_set.h"
#include "commands/procedure/procedure_render.h"
#include "commands/dice/rollchan.h"
#include "commands/gm/gm_screen.h"
#include "commands/tables/tables_state.h"
#include "commands/tables/tables_use.h"
#include "commands/tables/cmd_table_show.h"
#include "commands/tension/tension_state.h"
#include "rules/base/mem.h"
#include "rules/base/buf.h"
#include "rules/procedure/hazard.h"
#include "rules/tables/roll_table.h"
#include "rules/tables/roll_table_roll.h"

/* The short name of a row: its text up to the first ':' ',' or '(' . */
static void
row_label(const char *text, char *buf, size_t len)
{
	size_t n = strcspn(text, ":,(");

	while (n > 0 && text[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, text);
}

static bool
has_event(const struct turn_report *r, enum turn_event_kind k)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == k)
			return true;
	return false;
}

/* A custom entry rolled: its dice ("1d4 giant rats") and the tables it
 * names ("[[shifts]]"). */
struct entry_roll {
	struct roll_table_trace tr;
	struct tables_lookup tl;
	struct buf b;
	bool shown; /* something was rolled: the entry gets its own line */
};

static void
entry_roll(struct invocation *inv, const struct roll_table *t, size_t row, struct entry_roll *e)
{
	memset(&e->tr, 0, sizeof(e->tr));
	tables_lookup_init(&e->tl, inv->chan);
	e->tl.screen = true; /* the entry's line is for all to see */
	buf_init(&e->b, 4096);
	e->shown = roll_table_expand(inv->rng, t, row, &e->tl.lk, &e->tr, &e->b) > 0 || e->tr.n > 0;
}

/* The entry's own line with what was rolled in it: "3 giant rats (1d4:
 * 3)"; frees e. */
static void
entry_line(struct invocation *inv, struct reply *out, struct entry_roll *e)
{
	if (e->shown)
		reply_line(out, RS_BOLD, "%s%s", buf_str(&e->b), e->b.toobig ? "…" : "");
	cmd_table_trace_lines(out, &e->tr, &e->tl);
	cmd_table_behind(inv, &e->tl, &e->tr, "what your hazard roll put behind the GM's screen",
	                 out);
	buf_free(&e->b);
	tables_lookup_clear(&e->tl);
}

/* Behind the GM's screen: what the encounter table decided, to whoever is
 * behind it (the roller when GM, else the seat's holder, privately), or,
 * with nobody in the seat, a word that it reached no one. */
static void
behind_screen(struct invocation *inv, struct reply *out, const struct turn_report *r,
              const struct procedure_state *s)
{
	if (!gm_screen_aside(inv, out, "what your hazard roll put behind the GM's screen"))
		return;
	procedure_render_behind(out, r, s);
	reply_to(out, REPLY_CHANNEL);
}

void
cmd_hazard_turn(struct invocation *inv, struct reply *out, struct procedure_state *s,
                const struct hazard_view *v, bool resting)
{
	struct turn_report rep;
	struct turn_how how = {.resting = resting, .safe = s->safe, .lantern_low = s->lantern_low};
	struct roll_table *encounters = xmalloc(sizeof(*encounters));
	struct tables_lookup tl;
	bool hidden = tension_state_hidden(inv->chan);
	char label[ROLL_TABLE_TEXT_MAX], own[ROLL_TABLE_NAME_MAX];
	struct entry_roll *er = NULL;
	size_t row;
	int roll = hazard_roll(inv->rng, v, &row);
	/* An Encounter entry that names its creature is the encounter: rolled
	 * first, as no table is; any other entry after the turn's tables. */
	bool names = v->table == HAZARD_CUSTOM && v->rows[row].effect == HZ_ENCOUNTER &&
	             hazard_entry_creature(v->rows[row].text) != NULL;

	/* An Encounter's or a Sign's creature comes from the channel's own
	 * encounter table, by its die, on either procedure's die; else, on the
	 * delving die, from Tension's (d10 + Tension). */
	tables_lookup_init(&tl, inv->chan);
	how.own = tables_use_kind(inv->chan, "encounter", encounters, own);
	if (!how.own) {
		tension_state_table(inv->chan, TENSION_TABLE_ENCOUNTER, encounters);
		how.tension = tension_state_value(inv->chan);
	}
	how.encounters = encounters;
	how.table = own;
	how.lookup = &tl.lk;
	how.rng = inv->rng;
	how.effect = v->rows[row].effect;
	if (v->table == HAZARD_CUSTOM)
		er = xmalloc(sizeof(*er));
	if (names) {
		entry_roll(inv, s->custom, row, er);
		how.creature = hazard_entry_creature(buf_str(&er->b));
	}
	turn_report_init(&rep);
	turn_pass(&s->clock, s->proc, &how, &rep);
	if (er != NULL && !names)
		entry_roll(inv, s->custom, row, er);
	tables_lookup_clear(&tl);
	free(encounters);
	channel_touch(inv->chan);

	/* Compact output: the heading opens the Rolled line, and a built-in
	 * table's rolled row is said by the lines below it (what was rolled,
	 * then what happens), so no table; a custom table's entry is the GM's
	 * own text, so its row follows the Rolled line. */
	rollchan_heading(inv->chan, out, "%s: turn %d", resting ? "Rest" : "Hazard die",
	                 s->clock.turn);
	if (!rollchan_compact(inv->chan))
		procedure_render_hazard_table(out, v, (int)row, false);
	row_label(v->rows[row].text, label, sizeof(label));
	reply_add(out, 0, "Rolled ");
	reply_add(out, RS_BOLD | RS_HIGHLIGHT, "%d", roll);
	reply_add(out, 0, " on the d%d (%s): ", v->die, hazard_table_name(v->table));
	reply_add(out, RS_BOLD, "%s", label);
	reply_add(out, 0, ".");
	reply_nl(out);
	if (rollchan_compact(inv->chan) && v->table == HAZARD_CUSTOM)
		procedure_render_hazard_table(out, v, (int)row, true);
	if (er != NULL) {
		entry_line(inv, out, er);
		free(er);
	}
	procedure_render_report(out, &rep, s, false, hidden);
	procedure_render_footer(out, s, rollchan_show_dark(inv->chan, s->clock.lights.n == 0));
	if (hidden && procedure_render_veils(&rep))
		behind_screen(inv, out, &rep, s);
	if (has_event(&rep, TE_FATIGUE_CHOICE) || has_event(&rep, TE_FATIGUE_PENDING))
		reply_button(out, "Rest now", "rest");
	/* Behind the screen a struck encounter gets the button too: its
	 * absence would tell. */
	if (has_event(&rep, TE_ENCOUNTER) || has_event(&rep, TE_SIGN_MET) ||
	    has_event(&rep, TE_ENCOUNTER_ROLLED) ||
	    (hidden && has_event(&rep, TE_ENCOUNTER_STRUCK)))
		reply_button(out, "Surprise check", "surprise");
}

/*
 * Whether the note of a roll whose table was typed by position is exactly
 * the name of one of /hazard's subcommands: the words swapped ("/hazard
 * delving table" for "/hazard table delving") passed a turn with the note
 * "table" (recheck9 F3). Then refuses it (in out), giving the command
 * meant and how such a note is given (by name, note:table, it is one).
 */
static bool
swapped_sub(struct invocation *inv, const char *tname, const char *note, struct reply *out)
{
	const struct command *sub;
	char path[48];

	if (tname == NULL || note == NULL || inv->path[0] == NULL ||
	    invocation_named(inv, "table") || invocation_named(inv, "note"))
		return false;
	sub = registry_find_sub(inv->path[0], note, strlen(note));
	if (sub == NULL)
		return false;
	reply_error(out,
	            "'%s' after the table %s is a subcommand of /hazard, not a note; did you mean ",
	            sub->name, tname);
	snprintf(path, sizeof(path), "hazard %s", sub->name);
	if (strcmp(sub->name, "table") == 0)
		reply_cmd(out, RS_BAD, path, "table", tname, NULL);
	else
		reply_cmd(out, RS_BAD, path, NULL);
	reply_add(out, RS_BAD, "? (a note that is that word is given by name: note:%s)", sub->name);
	return true;
}

static void
hazard_roll_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *tname = invocation_str(inv, "table"), *note = invocation_str(inv, "note");
	struct hazard_view v;

	if (swapped_sub(inv, tname, note, out) ||
	    !procedure_render_may_pass(inv, s, out, "passes turns"))
		return;
	if (procedure_render_view(s, tname != NULL ? hazard_table_parse(tname) : (int)s->table, &v,
	                          out) < 0)
		return;
	/* A note given as "# text" keeps its '#': drop it. */
	while (note != NULL && (*note == '#' || *note == ' '))
		note++;
	if (note != NULL && *note != '\0')
		reply_line(out, RS_ITALIC, "%s", note);
	cmd_hazard_turn(inv, out, s, &v, false);
}

static void
hazard_show_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	struct hazard_view v;

	if (procedure_render_view(s, s->table, &v, out) < 0)
		return;
	reply_title(out, "Hazard die here: %s (d%d)", hazard_table_name(s->table), v.die);
	procedure_render_hazard_table(out, &v, -1, false);
	cmd_hazard_set_lines(out, s);
}

static const char *const table_choices[] = {"exploration", "delving", "classic", "custom", NULL};

static const struct cmd_opt roll_opts[] = {
    {.name = "table",
     .desc = "Roll this table once instead of the channel's",
     .type = OPT_STRING,
     .choices = table_choices},
    {.name = "note",
     .desc = "What the party is doing this turn",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_LABEL | OPT_BLANK_NONE},
    {0},
};

static const struct cmd_opt table_opts[] = {
    {.name = "table",
     .desc = "exploration, delving, classic (X-in-N) or custom",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = table_choices},
    {0},
};

static const struct cmd_opt chance_opts[] = {
    {.name = "odds",
     .desc = "Encounter on X or less on a dN: X-in-N (2-in-6, 2 in 6 or 2 6), or X alone for "
             "X-in-6",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_ODDS | OPT_BLANK_NONE,
     .max = 16},
    {0},
};

/* The die of /hazard custom. A value that does not read as a die at all
 * (the die left out, the entries typed in its place) is told that the
 * die comes first, and how; a die out of range gets the rules' refusal. */
static int
die_check(struct invocation *inv, const char *value, struct reply *out)
{
	const char *p = value + (*value == 'd' || *value == 'D');
	char err[200];
	int sides;

	(void)inv;
	if (hazard_parse_die(value, &sides, err, sizeof(err)) == 0)
		return 0;
	if (*p != '\0' && strspn(p, "0123456789") == strlen(p)) {
		reply_error(out, "%s", err);
		return -1;
	}
	reply_error(out,
	            "'%.20s' is no die: a custom hazard table takes its die first, d2 to d%d, "
	            "then its entries (",
	            value, ROLL_TABLE_SPAN_MAX);
	reply_cmd(out, RS_BAD, "hazard custom", "die", "d8", "entries",
	          "1 Encounter; 2-3 Sign; 4 Light; 5-8 Nothing", NULL);
	reply_add(out, RS_BAD, ").");
	return -1;
}

static const struct cmd_opt custom_opts[] = {
    {.name = "die",
     .desc = "The die: d2 to d100",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = 8,
     .check = die_check},
    {.name = "entries",
     .desc = "Entries like \"1 Encounter; 2-3 Sign; 4-6 Nothing\"",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST,
     .max = 1900},
    {0},
};

static const char *const proc_choices[] = {"exploration", "delving", NULL};

static const struct cmd_opt procedure_opts[] = {
    {.name = "procedure",
     .desc = "How light and rest are kept: exploration or delving",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = proc_choices},
    {0},
};

static const char *const who_choices[] = {"anyone", "gm", NULL};

static const struct cmd_opt who_opts[] = {
    {.name = "who",
     .desc = "Who may roll the hazard die and rest: anyone or gm",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = who_choices},
    {0},
};

static const struct cmd_opt sign_opts[] = {
    {.name = "creature",
     .desc = "The creature whose sign was met (none: forget it)",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_NAME,
     .max = TURN_SIGN_MAX - 1},
    {0},
};

static const struct cmd_opt fatigue_opts[] = {
    {.name = "damage",
     .desc = "Damage to each party member (1-20; default 1)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = 1,
     .max = FATIGUE_DAMAGE_MAX},
    {0},
};

static const struct command hazard_subs[] = {
    {.name = "roll",
     .desc = "Roll the hazard die: a turn passes",
     .help = "Shows the whole table with the rolled row highlighted, what the result does, "
             "then the bookkeeping: light burning down or out, rest due, delving Fatigue, the "
             "sign's creature. An Encounter meets the creature a Sign announced, or rolls "
             "the channel's own table encounter (encounter-N on the level {/turn level} "
             "tracks) by its die, on either die; without one, a delving Encounter rolls "
             "Tension's encounter table (d10 + Tension). A struck entry means no encounter; "
             "while Tension is hidden, which it was (or that it was struck) goes to the GM "
             "alone, whoever rolled. A turn is 10 minutes. Rulings: time passes before the "
             "result "
             "is applied (sources burn down, then a Light result flags the oldest one still "
             "lit); table: changes only the table rolled this once, light and rest still "
             "follow the channel's procedure; an Encounter in a safe area does not happen, "
             "nor does a delving Sign find a sign there (no encounter is rolled for it); a "
             "Dungeon shift is the GM's to describe (the text's list of shifts is not part "
             "of it).",
     .opts = roll_opts,
     .fn = hazard_roll_fn},
    {.name = "show",
     .desc = "Show the channel's hazard table and settings",
     .fn = hazard_show_fn,
     .read_only = true},
    {.name = "table",
     .desc = "Choose the channel's hazard die",
     .help = "exploration and delving also set how light and rest are kept ({/hazard "
             "procedure}); classic and custom keep the procedure the channel has.",
     .role = ROLE_GM,
     .opts = table_opts,
     .fn = cmd_hazard_set_table},
    {.name = "chance",
     .desc = "Classic die: encounter on X or less on a dN (and use it)",
     .role = ROLE_GM,
     .opts = chance_opts,
     .fn = cmd_hazard_set_chance},
    {.name = "custom",
     .desc = "Define the channel's own dN hazard table (and use it)",
     .help =
         "Entries cover 1..N without gap or overlap, separated by ';': {/hazard custom "
         "die=d8 entries=\"1 Encounter; 2-3 Sign; 4 Light; 5-8 Nothing\"}. An entry starting with "
         "Encounter, Sign, Light, Burn, Fatigue, Shift, Nothing or Free gets that result's "
         "bookkeeping (Sign and Fatigue as the channel's procedure means them); any other "
         "entry is shown as written. Dice in an entry are rolled when it comes up: "
         "\"1d4 giant rats\" gives \"3 giant rats (1d4: 3)\". An Encounter entry that "
         "names its creature is that encounter, with no table rolled beside it; a "
         "remembered Sign's creature comes instead (one encounter per result).",
     .role = ROLE_GM,
     .opts = custom_opts,
     .fn = cmd_hazard_set_custom},
    {.name = "procedure",
     .desc = "Keep light and rest the exploration or the delving way",
     .help = "exploration: torch 6 turns, lantern 36, candle 6; skipping a due rest costs a "
             "CON save DC " FATIGUE_SAVE_DC_TEXT
             " per character. delving: torches last until a Burn, candles and "
             "lanterns the expedition (48 turns); Fatigue is damage unless the party rests. "
             "Rulings: a source keeps the turns it burned, so one that burned longer than the "
             "new procedure lets it last goes out at the switch; a pace belongs to its "
             "procedure, so a party not crawling crawls after the switch ({/turn move}).",
     .role = ROLE_GM,
     .opts = procedure_opts,
     .fn = cmd_hazard_set_procedure},
    {.name = "who",
     .desc = "Who may roll the hazard die and rest here: anyone or gm",
     .role = ROLE_GM,
     .opts = who_opts,
     .fn = cmd_hazard_set_who},
    {.name = "sign",
     .desc = "Name the creature whose sign was met (the next encounter)",
     .help = "A delving Sign (and an exploration Sign when the channel has a table "
             "encounter of its own) rolls the channel's encounter table (its own by its die, "
             "else Tension's with d10 + Tension) and remembers that creature as the next "
             "encounter; this names another (or, "
             "without a creature, or with none or forget, forgets it). Rulings: a newer Sign "
             "replaces the creature "
             "remembered; a struck entry leaves no sign's creature; when Tension is hidden "
             "the creature, or that the entry was struck, stays behind the GM's screen "
             "(whoever rolled, the GM is told privately), and so does the creature met; a GM "
             "who reveals a clue to something hidden instead forgets the creature with "
             "{/hazard sign creature=none}.",
     .role = ROLE_GM,
     .opts = sign_opts,
     .fn = cmd_hazard_set_sign},
    {.name = "fatigue",
     .desc = "Delving Fatigue's damage here (harsh dungeons deal more than 1)",
     .help = "The delving text: a Fatigue result deals each party member 1 damage unless "
             "they rest the next turn, more in dungeons with harsh conditions. This sets how "
             "much, for this channel.",
     .role = ROLE_GM,
     .opts = fatigue_opts,
     .fn = cmd_hazard_set_fatigue},
    {0},
};

const struct command cmd_hazard = {
    .name = "hazard",
    .desc = "Roll the hazard die (a turn passes); GM: choose and define tables",
    .help = "Tables: exploration (default), delving, classic (encounter on X-in-N, default "
            "1-in-6) or the channel's custom dN table. Ruling: anyone may roll the hazard die "
            "(and rest the party) until the GM keeps it with {/hazard who who=gm}.",
    .subs = hazard_subs,
    .default_sub = "roll",
};
