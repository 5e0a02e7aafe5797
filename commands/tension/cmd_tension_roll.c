/* /tension roll: the dungeon event and the encounter check, then the tables. */
#include "commands/tension/cmd_tension_roll.h"

#include <stdbool.h>
#include <stdio.h>

#include "commands/dice/rollchan.h"
#include "commands/procedure/procedure_state.h"
#include "commands/tension/cmd_tension.h"

/* One d10 + Tension lookup: "  effects table: d10 6 + Tension 4 = 10 → text". */
static void
pick_line(const char *table_name, const struct roll_table *t, const struct tension_pick *p,
          int tension, const char *nothing, struct reply *out)
{
	const struct roll_table_entry *e = &t->e[p->index];

	reply_add(out, 0, "  %s table: d10 %d + Tension %d = ", table_name, p->d10, tension);
	reply_add(out, RS_BOLD, "%d", p->total);
	reply_add(out, 0, " → ");
	if (p->struck) {
		reply_add(out, RS_STRUCK, "%s", e->text);
		reply_add(out, RS_DIM, " (struck): %s", nothing);
	} else if (p->ndice > 0) {
		/* "2d4 goblins → 5 goblins (2d4: 3+2)" */
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
	reply_add(out, 0, join ? " · encounter check: d12 " : "Encounter check: d12 ");
	reply_add(out, RS_BOLD, "%d", c->roll);
	if (c->by_exits && c->by_tension)
		reply_add(out, 0, " ≤ exits %d and ≤ tension %d → ", c->exits, c->tension);
	else if (c->by_exits)
		reply_add(out, 0, " ≤ exits %d → ", c->exits);
	else if (c->by_tension)
		reply_add(out, 0, " ≤ tension %d → ", c->tension);
	else
		reply_add(out, 0, " > exits %d and > tension %d → ", c->exits, c->tension);
	reply_add(out, c->encounter ? RS_BOLD | RS_BAD : RS_GOOD, "%s",
	          c->encounter ? "encounter" : "no encounter");
	reply_nl(out);
}

/* In a safe area the encounter check is not made. */
static void
safe_line(bool join, struct reply *out)
{
	reply_add(out, 0, join ? " · encounter check: " : "Encounter check: ");
	reply_add(out, RS_GOOD, "none in a safe area");
	reply_add(out, 0, ", where monsters do not go (the GM ends it with ");
	reply_cmd(out, 0, "safe off", NULL);
	reply_add(out, 0, ").");
	reply_nl(out);
}

void
cmd_tension_roll_run(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	const struct roll_table *enc = tension_state_get_table(ts, TENSION_TABLE_ENCOUNTER);
	const struct roll_table *eff = tension_state_get_table(ts, TENSION_TABLE_EFFECTS);
	struct tension_roll r;
	const char *event_text;
	bool compact = rollchan_compact(inv->chan);

	tension_roll(inv->rng, ts->track.value, (int)invocation_int(inv, "exits", 1),
	             procedure_state_safe(inv->chan), enc, eff, &r);
	cmd_tension_screen(ts, out, "The GM made a tension roll behind the screen.");
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
	if (!compact || r.event == TENSION_DE_EFFECT)
		reply_nl(out);
	if (r.event == TENSION_DE_EFFECT) {
		pick_line("effects", eff, &r.effect, r.tension, "no effect", out);
		event_text = r.effect.text;
	}

	if (r.safe)
		safe_line(compact && r.event != TENSION_DE_EFFECT, out);
	else
		check_line(&r.check, compact && r.event != TENSION_DE_EFFECT, out);
	if (r.check.encounter)
		pick_line("encounter", enc, &r.encounter, r.tension, "no encounter", out);

	if (r.event_happens && r.encounter_happens) {
		reply_add(out, 0, "Event and encounter together: ");
		reply_add(out, RS_ITALIC, "%s", event_text);
		reply_add(out, 0, ", and ");
		reply_add(out, RS_ITALIC, "%s", r.encounter.text);
		reply_add(out, 0, "; weave them into one scene.");
		reply_nl(out);
	}
}
