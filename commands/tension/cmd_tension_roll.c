/* /tension roll: the dungeon event and the encounter check, then the tables. */
#include "commands/tension/cmd_tension_roll.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands/dice/rollchan.h"
#include "commands/procedure/cmd_light.h"
#include "commands/procedure/procedure_render.h"
#include "commands/procedure/procedure_state.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/cmd_tension.h"
#include "rules/base/mem.h"

/* One table's roll: "  effects table: d10 6 + Tension 4 = 10 → text", or
 * for the channel's own table "  table effects-2: d6 = 4 → text". */
static void
pick_line(const char *kind, const char *own, const struct roll_table *t,
          const struct tension_pick *p, int tension, const char *nothing, struct reply *out)
{
	const struct roll_table_entry *e = &t->e[p->index];

	if (own[0] != '\0')
		reply_add(out, 0, "  table %s: ", own);
	else
		reply_add(out, 0, "  %s table: ", kind);
	if (p->sides == 0)
		reply_add(out, 0, "d10 %d + Tension %d = ", p->d10, tension);
	else
		reply_add(out, 0, "d%d = ", p->sides);
	reply_add(out, RS_BOLD, "%d", p->total);
	reply_add(out, 0, " → ");
	if (p->struck) {
		reply_add(out, RS_STRUCK, "%s", e->text);
		reply_add(out, RS_DIM, " (struck): %s", nothing);
	} else if (p->ndice > 0 || p->nested > 0) {
		/* "2d4 goblins → 5 goblins (2d4: 3+2)", "[[guards]] → a troll" */
		reply_add(out, 0, "%s → ", e->text);
		reply_add(out, RS_HIGHLIGHT, "%s", p->text);
	} else {
		reply_add(out, RS_HIGHLIGHT, "%s", e->text);
	}
	reply_nl(out);
}

/* With join, the check continues the open line (compact output). */
static void
check_line(const struct encounter_check *c, bool join, struct reply *out)
{
	reply_add(out, 0, join ? " · encounter check: " : "Encounter check: ");
	procedure_render_d12_check(out, c);
	reply_add(out, 0, " → ");
	reply_add(out, c->encounter ? RS_BOLD | RS_BAD : RS_GOOD, "%s",
	          c->encounter ? "encounter" : "no encounter");
	reply_nl(out);
}

/* In a safe area the encounter check is not made. */
static void
safe_line(const struct procedure_state *ps, bool join, struct reply *out)
{
	reply_add(out, 0, join ? " · encounter check: " : "Encounter check: ");
	reply_add(out, RS_GOOD, "none in a safe area");
	reply_add(out, 0, ", where monsters do not go (");
	procedure_render_safe_exit(out, 0, ps);
	reply_add(out, 0, ").");
	reply_nl(out);
}

/* The channel's own table of a kind (encounter, effects) when it has one
 * (its name into own), else Tension's: into *t. */
static void
table_of(struct invocation *inv, struct tension_state *ts, enum tension_table k,
         struct roll_table *t, char *own)
{
	if (!tables_use_kind(inv->chan, tension_table_name(k), t, own))
		*t = *tension_state_get_table(ts, k);
}

/* The encounter is the creature a Sign announced: its line. */
static void
sign_line(const char *creature, int turn, struct reply *out)
{
	reply_add(out, 0, "  It is the creature whose sign the party met on turn %d", turn);
	if (creature[0] != '\0') {
		reply_add(out, 0, ": ");
		reply_add(out, RS_HIGHLIGHT, "%s", creature);
	} else {
		reply_add(out, 0, " (the one the GM rolled for that sign)");
	}
	reply_add(out, 0, ".");
	reply_nl(out);
}

/* Dungeon event 6, a non-magical light source fails, is the hazard die's
 * Light result: the oldest lit source sputters. Behind the screen the
 * roll is the GM's alone and a light going out by itself would tell the
 * players what it rolled, so the GM gives it when they are told. */
static void
light_fails(struct invocation *inv, const struct tension_state *ts, struct reply *out)
{
	if (!ts->hidden) {
		reply_add(out, 0, "  ");
		cmd_light_fails(inv, out);
		return;
	}
	reply_add(out, 0, "  The oldest lit source fails when you tell the players: ");
	reply_cmd(out, 0, "light fail", NULL);
	reply_add(out, 0, " (as the hazard die's Light result).");
	reply_nl(out);
}

void
cmd_tension_roll_run(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	struct roll_table *enc = xmalloc(sizeof(*enc)), *eff = xmalloc(sizeof(*eff));
	char own_enc[ROLL_TABLE_NAME_MAX], own_eff[ROLL_TABLE_NAME_MAX], met[TURN_SIGN_MAX];
	const struct procedure_state *ps = channel_mod_peek(inv->chan, CHANMOD_PROC);
	bool sign = ps != NULL && ps->clock.sign_set;
	struct tables_lookup tl;
	struct tension_roll r;
	const char *event_text;
	bool compact = rollchan_compact(inv->chan), own_line;
	int sign_turn = 0, surprise = procedure_state_surprise(inv->chan, false);
	bool resting = procedure_state_resting(inv->chan);

	table_of(inv, ts, TENSION_TABLE_ENCOUNTER, enc, own_enc);
	table_of(inv, ts, TENSION_TABLE_EFFECTS, eff, own_eff);
	tables_lookup_init(&tl, inv->chan);
	tension_roll(inv->rng, ts->track.value, (int)invocation_int(inv, "exits", 1),
	             procedure_state_safe(inv->chan), sign ? NULL : enc, eff, &tl.lk, &r);
	tables_lookup_clear(&tl);
	/* The next encounter rolled meets the creature a Sign announced. */
	if (sign && r.check.encounter) {
		turn_sign_meet(&procedure_state_of(inv->chan)->clock, met, &sign_turn);
		channel_touch(inv->chan);
	} else {
		sign = false;
	}
	cmd_tension_screen(inv, ts, out,
	                   resting ? "The GM made a tension roll for the party's rest behind the "
	                             "screen."
	                           : "The GM made a tension roll behind the screen.");
	/* Compact output: the heading opens the first line, and the check
	 * follows the event on it unless an effect was rolled between them. */
	if (compact)
		reply_add(out, 0, "Tension roll (Tension %d, exits %d): dungeon event: d12 ",
		          r.tension, r.exits);
	else
		reply_title(out, "Tension roll (Tension %d, exits %d)", r.tension, r.exits);

	event_text = tension_dungeon_event_text(r.event);
	if (!compact)
		reply_add(out, 0, "Dungeon event: d12 ");
	reply_add(out, RS_BOLD, "%d", r.event_d12);
	reply_add(out, 0, " (%s) → ", tension_dungeon_event_range(r.event));
	reply_add(out, r.event == TENSION_DE_NOTHING ? 0 : RS_BOLD, "%s", event_text);
	own_line = r.event == TENSION_DE_EFFECT || r.event == TENSION_DE_LIGHT;
	if (!compact || own_line)
		reply_nl(out);
	if (r.event == TENSION_DE_EFFECT) {
		pick_line("effects", own_eff, eff, &r.effect, r.tension, "no effect", out);
		event_text = r.effect.text;
	}
	if (r.event == TENSION_DE_LIGHT)
		light_fails(inv, ts, out);

	if (r.safe)
		safe_line(ps, compact && !own_line, out);
	else
		check_line(&r.check, compact && !own_line, out);
	if (sign)
		sign_line(met, sign_turn, out);
	else if (r.check.encounter)
		pick_line("encounter", own_enc, enc, &r.encounter, r.tension, "no encounter", out);
	if (r.encounter_happens && surprise != TURN_NOT_SURPRISED) {
		reply_add(out, 0, "  ");
		procedure_render_surprised(out, surprise);
		reply_add(out, 0, ".");
		reply_nl(out);
	} else if (r.encounter_happens && ps != NULL) {
		procedure_render_rest_pace(out, ps, false);
	}

	if (r.event_happens && r.encounter_happens) {
		reply_add(out, 0, "Event and encounter together: ");
		reply_add(out, RS_ITALIC, "%s", event_text);
		reply_add(out, 0, ", and ");
		reply_add(out, RS_ITALIC, "%s",
		          sign ? (met[0] != '\0' ? met : "the sign's creature") : r.encounter.text);
		reply_add(out, 0, "; weave them into one scene.");
		reply_nl(out);
	}
	/* Text 001: a roll is made when the party lingers, resting too, and
	 * Tension is not lowered for resting unseen (the designer's note). */
	if (resting)
		reply_line(out, RS_DIM,
		           "The party is resting this turn: resting lowers no Tension, which "
		           "rewards what the party achieves, not hiding.");
	free(enc);
	free(eff);
}
