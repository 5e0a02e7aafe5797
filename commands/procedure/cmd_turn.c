/* /turn: the turn clock: show it, pass time without a roll, start again. */
#include "commands/procedure/cmd_turn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/procedure/cmd_hazard.h"
#include "commands/procedure/procedure_render.h"
#include "commands/dice/rollchan.h"
#include "commands/gm/gm_screen.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/tension_state.h"
#include "rules/base/mem.h"

/* The lit sources as a table: which, carried by, turns left. */
void
cmd_turn_lights_table(struct reply *out, const struct procedure_state *s)
{
	static const char *const hdr[] = {"light", "carried by", "turns left"};
	const struct lights *ls = &s->clock.lights;

	reply_table(out, 3, hdr);
	for (size_t i = 0; i < ls->n; i++) {
		char which[40], left[40];
		const char *cells[3] = {which, ls->l[i].who[0] ? ls->l[i].who : "-", left};
		int n = light_left(&ls->l[i], s->proc);

		snprintf(which, sizeof(which), "#%d %s", ls->l[i].id,
		         light_kind_name(ls->l[i].kind));
		if (n < 0)
			snprintf(left, sizeof(left), "until a Burn");
		else
			snprintf(left, sizeof(left), "%d", n);
		reply_row(out, false, cells);
	}
}

/* What a pace means under procedure proc, after "The party is walking: ".
 * Each procedure has its own text: delving's three speeds, exploration's
 * cautious and rushing movement (crawling is cautious; walking and running
 * rush). */
static const char *
pace_effect(enum turn_pace p, enum procedure proc)
{
	if (proc == PROC_EXPLORATION)
		return p == PACE_CRAWLING
		           ? "cautious, 3x base speed in yards a turn, 90 at normal speed; "
		             "searching and mapping as it goes"
		           : "rushing, double movement, 180 yards a turn at normal speed; no "
		             "searching or mapping, a setback on checks to spot traps or hidden "
		             "features";
	switch (p) {
	case PACE_CRAWLING:
		return "36 m a turn; it detects traps and maps as it goes";
	case PACE_WALKING:
		return "720 m a turn; surprised by every encounter, springing every trap, still "
		       "mapping";
	case PACE_RUNNING:
		return "1.5 km a turn; surprised by every encounter, springing every trap, no map, "
		       "candles blown out";
	default:
		return "?";
	}
}

/* The remembered sign's creature. While Tension is hidden whether one is
 * remembered at all is behind the GM's screen (a struck entry leaves
 * none): the GM alone is told, in a private part. */
static void
sign_line(struct invocation *inv, struct reply *out, const struct turn_clock *c)
{
	if (tension_state_hidden(inv->chan)) {
		if (!inv->is_gm)
			return;
		reply_to(out, REPLY_INVOKER);
		if (!c->sign_set)
			reply_line(out, 0, "Behind the screen: no sign's creature is remembered.");
		else if (c->sign[0] == '\0')
			reply_line(out, 0,
			           "Behind the screen: the next encounter is the creature whose "
			           "sign was met on turn %d (not named yet).",
			           c->sign_turn);
		else
			reply_line(out, 0,
			           "Behind the screen: the next encounter is %s (since turn %d).",
			           c->sign, c->sign_turn);
		reply_to(out, REPLY_CHANNEL);
		return;
	}
	if (!c->sign_set)
		return;
	reply_add(out, 0, "The next encounter is the creature whose sign was met on turn ");
	reply_add(out, RS_BOLD, "%d", c->sign_turn);
	if (c->sign[0] == '\0')
		reply_add(out, 0, ".");
	else
		reply_add(out, 0, ": %s.", c->sign);
	reply_nl(out);
}

static void
turn_show(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const struct turn_clock *c = &s->clock;
	char t[40];

	procedure_render_time_text(c->turn, t, sizeof(t));
	reply_title(out, "Turn %d: %s in the dungeon", c->turn, t);
	reply_add(out, 0, "Procedure: ");
	reply_add(out, RS_BOLD, "%s", hazard_procedure_name(s->proc));
	reply_add(out, 0, "; hazard die: %s%s.", hazard_table_name(s->table),
	          s->safe ? "; the party is in a safe area" : "");
	reply_nl(out);
	if (c->pace != PACE_CRAWLING) {
		reply_add(out, RS_BAD, "The party is %s: %s (", turn_pace_name(c->pace),
		          pace_effect(c->pace, s->proc));
		reply_cmd(out, RS_BAD, "turn move", NULL);
		reply_line(out, RS_BAD, ").");
	}
	if (s->level >= 0)
		reply_line(out, 0, "Dungeon level %d.", s->level);
	if (c->lights.n > 0)
		cmd_turn_lights_table(out, s);
	procedure_render_dim_line(out, s);
	reply_add(out, RS_BOLD, "%d", c->since_rest);
	reply_add(out, 0, " %s since the last rest", c->since_rest == 1 ? "turn" : "turns");
	if (c->since_rest < TURN_REST_DUE)
		reply_add(out, 0, "; a rest is due after %d.", TURN_REST_DUE);
	else if (c->since_rest == TURN_REST_DUE)
		reply_add(out, 0, ": a rest is due now.");
	else
		reply_add(out, 0, ": a rest is overdue (one is due every %d turns).",
		          TURN_REST_DUE);
	reply_nl(out);
	if (c->fatigue_due) {
		reply_add(out, RS_BAD,
		          "Fatigue: each party member takes 1 damage unless the party "
		          "rests this turn (");
		reply_cmd(out, RS_BAD, "rest", NULL);
		reply_line(out, RS_BAD, ").");
	}
	if (c->lights.n == 0)
		procedure_render_darkness(out, s->proc);
	sign_line(inv, out, c);
}

static void
turn_advance_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	int n = (int)invocation_int(inv, "turns", 1);
	struct turn_report rep;

	turn_report_init(&rep);
	turn_advance(&s->clock, s->proc, n, &rep);
	channel_touch(inv->chan);
	rollchan_heading(inv->chan, out, "%d %s pass%s without a hazard roll", n,
	                 n == 1 ? "turn" : "turns", n == 1 ? "es" : "");
	procedure_render_report(out, &rep, s, n > 1, false);
	procedure_render_footer(out, s, rollchan_show_dark(inv->chan, s->clock.lights.n == 0));
}

/* A new expedition. It begins in the safe area, level 0 (text 004: "The
 * party begins it's adventure in a Safe Area that is, effectively Level 0
 * of the dungeon"), where a channel tracks the level; one that tracks none
 * keeps its safe area as it was. */
static void
turn_reset_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	turn_clock_init(&s->clock);
	if (s->level >= 0) {
		s->level = 0;
		s->safe = true;
	}
	channel_touch(inv->chan);
	rollchan_dark_forget(inv->chan);
	reply_line(out, 0,
	           "A new expedition: turn 0, nothing lit, the rest clock and the "
	           "remembered sign cleared. The channel's settings are kept.");
	if (s->level == 0)
		reply_line(out, 0,
		           "The party begins in the safe area of level 0: no wandering monsters, "
		           "no fighting.");
}

/* Which table the level's encounters come from; behind the screen, which
 * levels have a table of their own is the GM's to know: the GM reads it
 * privately, whoever set the level, and with the seat empty nobody does. */
static void
level_table_line(struct invocation *inv, struct reply *out)
{
	struct roll_table *t;
	char name[ROLL_TABLE_NAME_MAX];
	bool hidden = tension_state_hidden(inv->chan);

	t = xmalloc(sizeof(*t));
	if (tables_use_kind(inv->chan, "encounter", t, name) &&
	    (!hidden || gm_screen_to(inv, out) != NULL)) {
		if (hidden && !inv->is_gm)
			reply_gm_aside(out, "which table the level's encounters come from");
		reply_line(out, RS_DIM, "Encounters here come from the table %s.", name);
		reply_to(out, REPLY_CHANNEL);
	}
	free(t);
}

/* Whether the invoker may take the party into (enters) or out of the safe
 * area of level 0: the GM alone, as only the GM declares a safe area with
 * /safe on; otherwise writes the refusal. */
static bool
safe_area_gm(struct invocation *inv, struct reply *out, bool enters)
{
	if (inv->is_gm)
		return true;
	reply_error(out,
	            "Only the GM takes the party %s the safe area of level 0, as only the GM "
	            "declares a safe area (",
	            enters ? "into" : "out of");
	reply_cmd(out, RS_BAD, "safe on", NULL);
	invocation_gm_tail(inv, out, true);
	return false;
}

/* The dungeon level the party is on: shown, set (a number), or no longer
 * tracked ("none"). A level picks the channel's tables for it
 * (encounter-N, commands/tables/tables_use.h). Taking a stair from one
 * tracked level to another takes a turn (text 004), which passes as any
 * turn, with its hazard roll, on the level reached. */
static void
turn_level_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *v = invocation_str(inv, "level");
	struct hazard_view view;
	int level = -1;
	bool left_safe, stair;

	if (v == NULL) {
		if (s->level < 0) {
			reply_add(out, 0, "The dungeon level is not tracked here; ");
			reply_cmd(out, 0, "turn level", "level", "1", NULL);
			reply_line(out, 0, " tracks it.");
		} else {
			reply_line(out, 0, "The party is on dungeon level %d.", s->level);
		}
		return;
	}
	if (strcmp(v, "none") != 0) {
		size_t n = strlen(v);

		if (n == 0 || n > 2 || strspn(v, "0123456789") != n) {
			reply_error(
			    out,
			    "'%.20s' is not a dungeon level: give a number from 0 (the safe "
			    "area above level 1) to %d, or none to stop tracking it.",
			    v, LEVEL_MAX);
			return;
		}
		level = (v[0] - '0') * (n == 2 ? 10 : 1) + (n == 2 ? v[1] - '0' : 0);
	}
	if (!procedure_render_may_pass(inv, s, out, "sets the dungeon level"))
		return;
	left_safe = s->level == 0 && level > 0 && s->safe;
	if (((level == 0 && !s->safe) || left_safe) && !safe_area_gm(inv, out, !left_safe))
		return;
	stair =
	    s->level >= 0 && level >= 0 && level != s->level && invocation_bool(inv, "turn", true);
	if (stair && procedure_render_view(s, s->table, &view, out) < 0)
		return;
	if (s->level != level || (level == 0 && !s->safe) || left_safe) {
		/* level 0 is the safe area (text 004): coming to it enters
		 * the safe area, leaving it for a level leaves it */
		s->safe = level == 0 || (s->safe && !left_safe);
		s->level = level;
		channel_touch(inv->chan);
	}
	if (level < 0) {
		reply_line(out, 0, "The dungeon level is no longer tracked here.");
		return;
	}
	reply_add(out, 0, "The party is on dungeon level ");
	reply_add(out, RS_BOLD, "%d", level);
	reply_add(out, 0, stair ? ": taking the stair takes a turn." : ".");
	reply_nl(out);
	if (level == 0)
		reply_line(out, 0, "Level 0 is the safe area: no wandering monsters, no fighting.");
	else if (left_safe)
		reply_line(out, 0, "The party leaves the safe area of level 0.");
	level_table_line(inv, out);
	if (stair)
		cmd_hazard_turn(inv, out, s, &view, false);
}

/* The party's movement (the delving speeds): what it costs and allows. */
static void
turn_move_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *how = invocation_str(inv, "pace");
	struct light blown[LIGHT_MAX];
	size_t n;

	if (how == NULL) {
		reply_line(out, 0, "The party is %s: %s.", turn_pace_name(s->clock.pace),
		           pace_effect(s->clock.pace, s->proc));
		return;
	}
	if (!procedure_render_may_pass(inv, s, out, "sets the party's pace"))
		return;
	n = turn_set_pace(&s->clock, turn_pace_parse(how), s->proc, blown);
	channel_touch(inv->chan);
	reply_add(out, 0, "The party moves: ");
	reply_add(out, RS_BOLD, "%s", how);
	reply_add(out, 0, " (%s).", pace_effect(s->clock.pace, s->proc));
	reply_nl(out);
	for (size_t i = 0; i < n; i++) {
		char name[100];

		procedure_render_light_name(&blown[i], true, name, sizeof(name));
		reply_line(out, RS_BAD, "%s is blown out.", name);
	}
	if (s->clock.lights.n == 0)
		procedure_render_darkness(out, s->proc);
}

static const char *const move_choices[] = {"crawling", "walking", "running", NULL};

static const struct cmd_opt move_opts[] = {
    {.name = "pace",
     .desc = "crawling, walking or running (delving running blows candles out)",
     .type = OPT_STRING,
     .choices = move_choices},
    {0},
};

static const struct cmd_opt level_opts[] = {
    {.name = "level",
     .desc = "The dungeon level (0-99; 0: the safe area above level 1, entered and left "
             "with it), or none",
     .type = OPT_STRING,
     .max = 8},
    {.name = "turn",
     .desc = "Whether taking the stair passes a turn with its hazard roll (default true; "
             "false: a correction)",
     .type = OPT_BOOL},
    {0},
};

static const struct cmd_opt advance_opts[] = {
    {.name = "turns",
     .desc = "How many turns pass (1-144; 144 is a day)",
     .type = OPT_INT,
     .min = 1,
     .max = TURN_ADVANCE_MAX},
    {0},
};

static const struct command turn_subs[] = {
    {.name = "show",
     .desc = "Turn, time in the dungeon, lit sources, turns since the last rest",
     .fn = turn_show,
     .read_only = true},
    {.name = "advance",
     .desc = "Pass turns without a hazard roll (lights and rest still count)",
     .role = ROLE_GM,
     .opts = advance_opts,
     .fn = turn_advance_fn},
    {.name = "move",
     .desc = "The party's movement: crawling, walking or running",
     .help = "The delving speeds: crawling, 36 m a turn, finds traps and maps as it goes; "
             "walking, 720 m, is surprised by every encounter and springs every trap, still "
             "mapping; running, 1.5 km, is surprised, springs traps, draws no map and blows "
             "candles out, at once and each turn it lasts. A delving Encounter met walking, "
             "running or in total darkness says the party is surprised. A turn of rest "
             "({/rest}) is no moving: it blows no candle out, and only darkness surprises "
             "the party then. Under the exploration procedure each pace means that text's "
             "own: crawling is cautious (3x base speed in yards a turn, searching and "
             "mapping), walking and running rush (double movement, no searching or mapping, "
             "a setback to spot traps or hidden features; no candle is blown out). Without a "
             "pace, says the party's.",
     .opts = move_opts,
     .fn = turn_move_fn},
    {.name = "level",
     .desc = "The dungeon level the party is on (picks the tables encounter-N)",
     .help = "With a level, the channel's table encounter-N (and effects-N) is what the "
             "hazard die, the wandering checks and {/tension roll} roll there, when the "
             "channel has one; else its table encounter, else Tension's. Without a value, "
             "says the level; none stops tracking it. Taking a stair takes a turn (the "
             "safe-areas text): from one tracked level to another a turn passes with its "
             "hazard roll on the level reached (turn:false corrects the level without one). "
             "A new expedition ({/turn reset}) begins on level 0, the safe area. Rulings: "
             "whoever may pass turns ({/hazard who}) sets the level, but only the GM takes "
             "the party into or out of level 0's safe area, as only the GM declares one "
             "({/safe on}); the first level tracked passes no turn.",
     .opts = level_opts,
     .fn = turn_level_fn},
    {.name = "reset",
     .desc = "Start a new expedition: turn 0, no lights, rest clock cleared",
     .help = "The party begins in the safe area, level 0, when the channel tracks the level "
             "({/turn level}); a channel that tracks none keeps its safe area as it was. "
             "Tension, tables, vendors and the channel's settings are kept.",
     .role = ROLE_GM,
     .fn = turn_reset_fn},
    {0},
};

const struct command cmd_turn = {
    .name = "turn",
    .desc = "The turn clock: a turn is 10 minutes",
    .help =
        "Turns pass with {/hazard roll} (a roll), {/rest} (a rest turn) or {/turn advance} (GM, no "
        "roll). After 6 turns without a rest the bot reminds the party. Rulings: in "
        "exploration, a seventh turn without rest calls for the CON save DC " FATIGUE_SAVE_DC_TEXT
        " (1 Fatigue "
        "on a failure) once, and the count starts again; in delving the reminder repeats "
        "every 6 turns and has no cost of its own.",
    .subs = turn_subs,
    .default_sub = "show",
};
