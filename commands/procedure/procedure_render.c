/* procedure_render: showing turns and their bookkeeping; see
 * procedure_render.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "commands/procedure/procedure_render.h"
#include "commands/tables/tables_use.h"

bool
procedure_render_may_pass(struct invocation *inv, const struct procedure_state *s,
                          struct reply *out, const char *what)
{
	if (!s->gm_rolls || inv->is_gm)
		return true;
	reply_error(out, "Only the GM %s in this channel (", what);
	reply_cmd(out, RS_BAD, "hazard who", "who", "gm", NULL);
	invocation_gm_tail(inv, out, false);
	return false;
}

void
procedure_render_light_name(const struct light *l, bool cap, char *buf, size_t len)
{
	if (l->who[0] != '\0')
		snprintf(buf, len, "%s #%d (%s)", light_kind_name(l->kind), l->id, l->who);
	else
		snprintf(buf, len, "%s #%d", light_kind_name(l->kind), l->id);
	if (cap && len > 0)
		buf[0] = (char)toupper((unsigned char)buf[0]);
}

void
procedure_render_time_text(int turns, char *buf, size_t len)
{
	long min = (long)turns * TURN_MINUTES;

	if (min < 60)
		snprintf(buf, len, "%ld min", min);
	else if (min % 60 == 0)
		snprintf(buf, len, "%ld h", min / 60);
	else
		snprintf(buf, len, "%ld h %ld min", min / 60, min % 60);
}

/* "Torch #1 (alice) and torch #3": the torches of the TE_BURN_OUT run
 * starting at ev[i]. Returns the index after the run. */
static size_t
burned_torches(struct reply *out, const struct turn_report *r, size_t i, bool dim)
{
	size_t j = i;

	for (; j < r->n && r->ev[j].kind == TE_BURN_OUT; j++) {
		char name[100];

		procedure_render_light_name(&r->ev[j].light, j == i, name, sizeof(name));
		if (j > i)
			reply_add(out, 0,
			          j + 1 < r->n && r->ev[j + 1].kind == TE_BURN_OUT ? ", "
			                                                           : " and ");
		reply_add(out, 0, "%s", name);
	}
	reply_add(out, 0, " %s out; new ones can be lit from the embers (",
	          j - i > 1 ? "burn" : "burns");
	reply_cmd(out, 0, "light add", "kind", "torch", NULL);
	reply_add(out, 0, ").");
	if (dim)
		reply_add(out, 0, " The light left is dim: searching takes 2 turns instead of 1.");
	return j;
}

/* "each character makes a CON save DC 12; on a failure gain 1 Fatigue." */
static void
con_save(struct reply *out)
{
	reply_add(out, 0, "each character makes a CON save DC ");
	reply_add(out, RS_BOLD, "%d", FATIGUE_SAVE_DC);
	reply_add(out, 0, "; on a failure gain ");
	reply_add(out, RS_BOLD, "1");
	reply_add(out, 0, " Fatigue.");
}

static void
rest_due(struct reply *out, const struct turn_event *e, enum procedure p)
{
	reply_add(out, RS_BOLD, "%d", e->value);
	if (p == PROC_EXPLORATION) {
		reply_add(out, 0, " turns without a rest: rest next turn (");
		reply_cmd(out, 0, "rest", NULL);
		reply_add(out, 0, "), or ");
		con_save(out);
	} else {
		reply_add(out, 0, " turns without a rest: the party should rest (");
		reply_cmd(out, 0, "rest", NULL);
		reply_add(out, 0, ").");
	}
}

/* Exploration Fatigue on the turn the hourly rest falls due or is skipped
 * (e, the rest's event): both ask for a rest or a CON save, so one line
 * says how many saves there are and which a rest now spares. */
static void
fatigue_and_rest(struct reply *out, const struct turn_event *e)
{
	if (e->kind == TE_REST_SKIPPED) {
		reply_add(out, RS_BAD, "The rest was skipped");
		reply_add(out, 0, " and Fatigue came up: each character makes a CON save DC ");
		reply_add(out, RS_BOLD, "12");
		reply_add(out, 0,
		          " now for the skipped rest, and a second one for Fatigue unless "
		          "the party rests 1 turn now (");
	} else {
		reply_add(out, RS_BOLD, "%d", e->value);
		reply_add(out, 0,
		          " turns without a rest, and Fatigue came up: each character makes "
		          "a CON save DC ");
		reply_add(out, RS_BOLD, "12");
		reply_add(out, 0,
		          " for Fatigue, and a second one next turn for the skipped rest, "
		          "unless the party rests 1 turn now (");
	}
	reply_cmd(out, 0, "rest", NULL);
	reply_add(out, 0, ")%s; on each failure gain ",
	          e->kind == TE_REST_SKIPPED ? "" : ", which answers both");
	reply_add(out, RS_BOLD, "1");
	reply_add(out, 0, " Fatigue.");
}

/* A delving Sign: the creature rolled on the encounter table, or left to
 * the GM. */
static void
sign_line(struct reply *out, const struct turn_report *r, bool struck)
{
	const struct tension_pick *p = &r->pick;

	char how[160];

	tables_use_pick_text(p, r->table, "encounter", how, sizeof(how));
	if (struck) {
		reply_add(out, 0, "The sign leads nowhere: the encounter it belongs to was struck");
		if (r->table[0] != '\0')
			reply_add(out, 0, " (%s)", how);
		else
			reply_add(out, 0, " (d10 + Tension = %d)", p->total);
		reply_add(out, 0, ", so no creature is remembered.");
		return;
	}
	if (p->total == 0) {
		reply_add(out, 0,
		          "The GM rolls an encounter and shows only its sign; that creature "
		          "is the next encounter (");
		reply_cmd(out, 0, "hazard sign", "creature", "<creature>", NULL);
		reply_add(out, 0, " records it).");
		return;
	}
	reply_add(out, 0, "The party meets only the sign of ");
	reply_add(out, RS_BOLD, "%s", r->sign);
	if (r->table[0] != '\0') {
		reply_add(out, 0, " (%s); that creature is the next encounter.", how);
		return;
	}
	reply_add(out, 0, " (encounter table, d10 + Tension = %d + %d = ", p->d10,
	          p->total - p->d10);
	reply_add(out, RS_BOLD, "%d", p->total);
	reply_add(out, 0, "); that creature is the next encounter.");
}

/* The encounter and sign events whose lines the channel reads as they are
 * while Tension is hidden: a safe area is the channel's own setting, the
 * same whatever the dice said, and a surprise goes with the veiled line of
 * its encounter (procedure_render_report). */
static bool
public_behind_screen(enum turn_event_kind k)
{
	return k == TE_SAFE_AREA || k == TE_SIGN_SAFE || k == TE_SURPRISED;
}

/* Whether what an event tells is behind the GM's screen while Tension is
 * hidden: every encounter or sign event (turn_event_topic()) that is not
 * public_behind_screen(). So whatever the encounter table's d10 + Tension
 * decided (the entry, or that it was struck), the sign's creature met, an
 * encounter or a sign with neither (which would read otherwise, and so
 * tell whether a creature is remembered, or whether the channel has an
 * encounter table behind the screen), and a kind added later, are veiled
 * until listed as public. */
static bool
veiled(enum turn_event_kind k)
{
	return turn_event_topic(k) != TURN_TOPIC_OTHER && !public_behind_screen(k);
}

bool
procedure_render_veils(const struct turn_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (veiled(r->ev[i].kind))
			return true;
	return false;
}

/* Whether the party rested on turn t. */
static bool
rested_on(const struct turn_report *r, int t)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == TE_RESTED && r->ev[i].turn == t)
			return true;
	return false;
}

/* What the channel reads of a veiled event of r, the same whatever is
 * behind the screen (a struck entry said aloud would bound Tension). */
static void
veiled_line(struct reply *out, const struct turn_report *r, const struct turn_event *e,
            const struct procedure_state *s)
{
	int why = turn_surprise(&s->clock, s->proc, rested_on(r, e->turn));

	if (turn_event_topic(e->kind) == TURN_TOPIC_SIGN) {
		reply_add(out, 0,
		          "A sign of danger nearby; what it belongs to is behind the GM's screen, "
		          "and the GM describes it.");
		return;
	}
	reply_add(out, 0,
	          "The encounter is behind the GM's screen: the GM says what the party "
	          "meets, if anything (");
	reply_cmd(out, 0, "surprise", NULL);
	reply_add(out, 0, " checks who is caught off guard).");
	if (why == TURN_NOT_SURPRISED)
		return;
	reply_nl(out);
	if (why < 0) {
		reply_add(out, 0, "In total darkness, an encounter ");
		reply_add(out, RS_BAD, "surprises the party");
	} else {
		reply_add(out, 0, "The party is %s, so an encounter ", turn_pace_name(why));
		reply_add(out, RS_BAD, "surprises it");
	}
	reply_add(out, 0, ".");
}

void
procedure_render_surprised(struct reply *out, int why)
{
	if (why < 0)
		reply_add(out, 0, "In total darkness the party ");
	else
		reply_add(out, 0, "The party is %s, so it ", turn_pace_name(why));
	reply_add(out, RS_BAD, "is surprised");
	reply_add(out, 0, " by this encounter");
}

void
procedure_render_rest_pace(struct reply *out, const struct procedure_state *s, bool resting)
{
	const struct turn_clock *c = &s->clock;

	if (!(resting || turn_resting(c)) || s->proc != PROC_DELVING || c->pace == PACE_CRAWLING ||
	    c->lights.n == 0)
		return;
	reply_line(out, 0,
	           "The party is resting, not %s, so it is not surprised by every encounter "
	           "(total darkness would still do that).",
	           turn_pace_name(c->pace));
}

/* Whether a source burned out on turn t (time passes before the result). */
static bool
burned_out_on(const struct turn_report *r, int t)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == TE_LIGHT_OUT && r->ev[i].turn == t)
			return true;
	return false;
}

/* Writes the line of one event, or of a run starting there; returns the
 * index after it. */
static size_t
event_line(struct reply *out, const struct turn_report *r, size_t i,
           const struct procedure_state *s)
{
	const struct turn_event *e = &r->ev[i];
	enum procedure p = s->proc;
	char name[100], how[160];

	procedure_render_light_name(&e->light, true, name, sizeof(name));
	switch (e->kind) {
	case TE_ENCOUNTER:
		reply_add(out, RS_BOLD | RS_BAD, "Encounter!");
		reply_add(out, 0, " A wandering monster appears; ");
		reply_cmd(out, 0, "surprise", NULL);
		reply_add(out, 0, " checks who is caught off guard.");
		break;
	case TE_SIGN_MET:
		reply_add(out, RS_BOLD | RS_BAD, "Encounter!");
		reply_add(out, 0, " It is the creature whose sign the party met on turn ");
		reply_add(out, RS_BOLD, "%d", e->value);
		if (r->sign[0] != '\0')
			reply_add(out, 0, ": %s.", r->sign);
		else
			reply_add(out, 0, " (the one the GM rolled for that sign).");
		if (r->passed[0] != '\0')
			reply_add(out, 0,
			          " It comes instead of the entry's %s: one encounter "
			          "per result.",
			          r->passed);
		break;
	case TE_ENCOUNTER_ROLLED:
		reply_add(out, RS_BOLD | RS_BAD, "Encounter!");
		if (r->table[0] != '\0') {
			tables_use_pick_text(&r->pick, r->table, "encounter", how, sizeof(how));
			reply_add(out, 0, " From the %s: ", how);
		} else {
			reply_add(out, 0, " From the encounter table (d10 + Tension = %d + %d = ",
			          r->pick.d10, r->pick.total - r->pick.d10);
			reply_add(out, RS_BOLD, "%d", r->pick.total);
			reply_add(out, 0, "): ");
		}
		reply_add(out, RS_BOLD, "%s", r->sign);
		reply_add(out, 0, ". ");
		reply_cmd(out, 0, "surprise", NULL);
		reply_add(out, 0, " checks who is caught off guard.");
		break;
	case TE_ENCOUNTER_STRUCK:
		reply_add(out, RS_GOOD, "No encounter after all:");
		reply_add(out, 0, " the encounter table's roll");
		tables_use_pick_text(&r->pick, r->table, "encounter", how, sizeof(how));
		if (r->table[0] != '\0')
			reply_add(out, 0, " (%s)", how);
		else
			reply_add(out, 0, " (d10 + Tension = %d)", r->pick.total);
		reply_add(out, 0, " is struck (defeated), and the dungeon's supply is finite.");
		break;
	case TE_CANDLE_BLOWN:
		reply_add(out, 0, "%s ", name);
		reply_add(out, RS_BAD, "is blown out");
		reply_add(out, 0, ": the party is running (");
		reply_cmd(out, 0, "turn move", NULL);
		reply_add(out, 0, ").");
		break;
	case TE_SURPRISED:
		procedure_render_surprised(out, e->value);
		reply_add(out, 0, ".");
		break;
	case TE_SAFE_AREA:
		reply_add(out, RS_GOOD,
		          "No encounter: this is a safe area, where no wandering "
		          "monsters come.");
		break;
	case TE_SIGN_SAFE:
		reply_add(out, RS_GOOD,
		          "No sign: this is a safe area, where no wandering monsters come, so no "
		          "encounter is rolled for one.");
		break;
	case TE_SIGN_HINT:
		reply_add(out, 0,
		          "A sign of danger nearby (noise, smell, tracks or a shadow); the "
		          "GM describes it.");
		break;
	case TE_SIGN_REMEMBERED:
	case TE_SIGN_STRUCK:
		sign_line(out, r, e->kind == TE_SIGN_STRUCK);
		break;
	case TE_FLAG_OUT:
	case TE_FLAG_LOW:
		reply_add(out, 0, "%s ", name);
		if (e->kind == TE_FLAG_OUT) {
			reply_add(out, RS_BAD, "sputters out");
		} else {
			int had = light_left(&e->light, p);

			reply_add(out, RS_BAD,
			          had > e->value ? "runs low on oil" : "is low on oil");
			reply_add(out, 0, ": ");
			reply_add(out, RS_BOLD, "%d", e->value);
			reply_add(out, 0, " %s left", e->value == 1 ? "turn" : "turns");
			if (had > e->value)
				reply_add(out, 0, " (it had %d)", had);
			else
				reply_add(out, 0, " already");
		}
		reply_add(out, 0, ". The GM may rule it only flickers: ");
		reply_cmd(out, 0, "light flicker", NULL);
		reply_add(out, 0, ".");
		break;
	case TE_FLAG_FLICKER: {
		char id[16];

		snprintf(id, sizeof(id), "%d", e->light.id);
		reply_add(out, 0, "%s was just lit, so it only ", name);
		reply_add(out, RS_BAD, "flickers ominously");
		reply_add(out, 0, "; the GM may still put it out: ");
		reply_cmd(out, 0, "light out", "which", id, NULL);
		reply_add(out, 0, ".");
		break;
	}
	case TE_FLAG_NONE:
		if (burned_out_on(r, e->turn))
			reply_add(out, 0,
			          "The last light burns out this turn, so nothing "
			          "is left to sputter.");
		else
			reply_add(out, 0, "Nothing is lit, so nothing sputters.");
		break;
	case TE_BURN_OUT:
		return burned_torches(out, r, i, procedure_render_dim(s));
	case TE_BURN_NONE:
		reply_add(out, 0, "No torch is lit, so none burns out.");
		break;
	case TE_FATIGUE_CHOICE:
		if (i + 1 < r->n && r->ev[i + 1].turn == e->turn &&
		    (r->ev[i + 1].kind == TE_REST_SKIPPED || r->ev[i + 1].kind == TE_REST_DUE)) {
			fatigue_and_rest(out, &r->ev[i + 1]);
			return i + 2;
		}
		reply_add(out, 0, "Rest 1 turn now (");
		reply_cmd(out, 0, "rest", NULL);
		reply_add(out, 0, "), or ");
		con_save(out);
		break;
	case TE_FATIGUE_RESTING:
		reply_add(out, RS_GOOD,
		          "The party is resting this turn, which is the rest Fatigue "
		          "asks for: no save.");
		break;
	case TE_FATIGUE_PENDING:
		reply_add(out, 0, "Each party member takes ");
		reply_add(out, RS_BOLD, "%d", s->fatigue_damage);
		reply_add(out, 0, " damage unless the party rests next turn (");
		reply_cmd(out, 0, "rest", NULL);
		reply_add(out, 0, ").");
		break;
	case TE_FATIGUE_IGNORED:
		reply_add(out, RS_GOOD, "Fatigue is ignored while resting.");
		break;
	case TE_SHIFT:
		reply_add(out, 0,
		          "The dungeon shifts (sounds, temperature, wind, debris, "
		          "apparitions or vermin); the GM describes it.");
		break;
	case TE_FATIGUE_AVOIDED:
		reply_add(out, RS_GOOD, "The party rested after the Fatigue: %s",
		          e->value == 0   ? "no damage."
		          : e->value == 1 ? "no CON save for it."
		                          : "no CON save for it, nor for the hourly rest.");
		break;
	case TE_FATIGUE_DAMAGE:
		reply_add(out, RS_BAD, "The party did not rest after the Fatigue:");
		reply_add(out, 0, " each member takes ");
		reply_add(out, RS_BOLD, "%d", s->fatigue_damage);
		reply_add(out, 0, " damage.");
		break;
	case TE_LIGHT_WARN:
		reply_add(out, 0, "%s has ", name);
		reply_add(out, RS_BOLD, "1");
		reply_add(out, 0, " turn left: it goes out at the end of the next turn.");
		break;
	case TE_LIGHT_OUT:
		reply_add(out, 0, "%s ", name);
		reply_add(out, RS_BAD, "burns out");
		reply_add(out, 0, ".");
		break;
	case TE_RESTED:
		reply_add(out, RS_GOOD, "The party rests this turn:");
		reply_add(out, 0, " the rest clock starts again.");
		break;
	case TE_REST_DUE:
		rest_due(out, e, p);
		break;
	case TE_REST_SKIPPED:
		reply_add(out, RS_BAD, "The rest was skipped:");
		reply_add(out, 0, " ");
		con_save(out);
		break;
	case TE_KIND_COUNT: /* not a kind */
		break;
	}
	return i + 1;
}

static bool
rest_event(enum turn_event_kind k)
{
	return k == TE_REST_DUE || k == TE_REST_SKIPPED;
}

/* The brief line for the rest events of r before its last one (folded,
 * more than one): "Turns 6-28: 7 rest lines not shown; the rest was
 * skipped 4 times (turns 7 to 28): each time, each character makes ...". */
static void
rest_folded(struct reply *out, const struct turn_report *r, size_t last)
{
	size_t folded = 0;
	int first = -1, to = 0, skips = 0, skip_first = 0, skip_last = 0;

	for (size_t i = 0; i < last; i++) {
		if (!rest_event(r->ev[i].kind))
			continue;
		folded++;
		if (first < 0)
			first = r->ev[i].turn;
		to = r->ev[i].turn;
		if (r->ev[i].kind == TE_REST_SKIPPED) {
			if (skips++ == 0)
				skip_first = r->ev[i].turn;
			skip_last = r->ev[i].turn;
		}
	}
	reply_add(out, RS_DIM, "Turns %d-%d: ", first, to);
	reply_add(out, 0, "%zu rest lines not shown", folded);
	if (skips == 0) {
		reply_add(out, 0, " (a rest is due every %d turns).", TURN_REST_DUE);
	} else {
		if (skips == 1)
			reply_add(out, 0, "; the rest was skipped once (turn %d): ", skip_first);
		else
			reply_add(out, 0,
			          "; the rest was skipped %d times (turns %d to %d): ", skips,
			          skip_first, skip_last);
		reply_add(out, 0, "each time, ");
		con_save(out);
	}
	reply_nl(out);
	reply_brief(out);
}

void
procedure_render_report(struct reply *out, const struct turn_report *r,
                        const struct procedure_state *s, bool turn_prefix, bool hidden)
{
	size_t i = 0, rests = 0, last_rest = 0;

	for (size_t j = 0; j < r->n; j++)
		if (rest_event(r->ev[j].kind)) {
			rests++;
			last_rest = j;
		}
	while (i < r->n) {
		bool fold = rests > 2 && rest_event(r->ev[i].kind) && i < last_rest;

		if (rests > 2 && i == last_rest)
			rest_folded(out, r, last_rest);
		/* Behind the screen, the surprise goes with the veiled line. */
		if (hidden && r->ev[i].kind == TE_SURPRISED && procedure_render_veils(r)) {
			i++;
			continue;
		}
		if (turn_prefix)
			reply_add(out, RS_DIM, "Turn %d: ", r->ev[i].turn);
		if (hidden && veiled(r->ev[i].kind)) {
			veiled_line(out, r, &r->ev[i], s);
			i++;
		} else {
			i = event_line(out, r, i, s);
		}
		reply_nl(out);
		if (fold)
			reply_working(out);
	}
	if (r->dropped > 0 && r->dropped_key == 0)
		reply_line(out, RS_DIM,
		           "(%zu more reminder%s of rests due or lights' last turns not shown)",
		           r->dropped, r->dropped == 1 ? "" : "s");
	else if (r->dropped > 0)
		reply_line(out, RS_DIM, "(%zu more event%s not shown)", r->dropped,
		           r->dropped == 1 ? "" : "s");
}

void
procedure_render_behind(struct reply *out, const struct turn_report *r,
                        const struct procedure_state *s)
{
	for (size_t i = 0; i < r->n; i++) {
		if (!veiled(r->ev[i].kind))
			continue;
		reply_add(out, RS_ITALIC, "Behind the screen: ");
		event_line(out, r, i, s);
		reply_nl(out);
	}
}

void
procedure_render_d12_check(struct reply *out, const struct encounter_check *c)
{
	reply_add(out, 0, "d12 ");
	reply_add(out, RS_BOLD, "%d", c->roll);
	if (c->by_exits && c->by_tension)
		reply_add(out, 0, " ≤ exits %d and ≤ tension %d", c->exits, c->tension);
	else if (c->by_exits)
		reply_add(out, 0, " ≤ exits %d", c->exits);
	else if (c->by_tension)
		reply_add(out, 0, " ≤ tension %d", c->tension);
	else
		reply_add(out, 0, " > exits %d and > tension %d", c->exits, c->tension);
}

bool
procedure_render_dim(const struct procedure_state *s)
{
	const struct lights *ls = &s->clock.lights;

	if (s->proc != PROC_DELVING || ls->n == 0)
		return false;
	for (size_t i = 0; i < ls->n; i++)
		if (ls->l[i].kind == LIGHT_TORCH)
			return false;
	return true;
}

void
procedure_render_dim_line(struct reply *out, const struct procedure_state *s)
{
	if (!procedure_render_dim(s))
		return;
	reply_add(out, 0, "Dim light (candles or lanterns, no torch): searching takes ");
	reply_add(out, RS_BOLD, "2");
	reply_add(out, 0, " turns instead of 1.");
	reply_nl(out);
}

void
procedure_render_safe_exit(struct reply *out, unsigned style, const struct procedure_state *s)
{
	if (s->level == 0) {
		reply_add(out, style, "the party leaves it by the stair, ");
		reply_cmd(out, style, "turn level", "level", "1", NULL);
		return;
	}
	reply_add(out, style, "the GM ends it with ");
	reply_cmd(out, style, "safe off", NULL);
}

void
procedure_render_darkness(struct reply *out, enum procedure proc)
{
	reply_add(out, RS_BOLD | RS_BAD, "Darkness:");
	if (proc == PROC_DELVING) {
		reply_add(out, 0, " nothing is lit. In total darkness, ");
		reply_add(out, RS_BOLD, "-10");
		reply_add(out, 0,
		          " to movement and coordination checks, surprised by all encounters, "
		          "springing all traps, no mapping; ");
	} else {
		reply_add(out, 0, " nothing is lit. Without light the party is ");
		reply_add(out, RS_BOLD, "effectively blind");
		reply_add(out, 0,
		          ": a setback on all rolls, movement halved, no reading, searching or "
		          "spotting danger (darkvision sees darkness as dim light); ");
	}
	reply_cmd(out, 0, "light add", NULL);
	reply_add(out, 0, " lights a source.");
	reply_nl(out);
}

void
procedure_render_footer(struct reply *out, const struct procedure_state *s, bool show_dark)
{
	const struct turn_clock *c = &s->clock;
	char t[40];

	if (show_dark)
		procedure_render_darkness(out, s->proc);
	procedure_render_time_text(c->turn, t, sizeof(t));
	reply_add(out, RS_DIM, "Turn ");
	reply_add(out, RS_BOLD, "%d", c->turn);
	reply_add(out, RS_DIM, " (%s in the dungeon); ", t);
	reply_add(out, RS_BOLD, "%d", c->since_rest);
	reply_add(out, RS_DIM, " %s since the last rest.", c->since_rest == 1 ? "turn" : "turns");
	reply_nl(out);
}

void
procedure_render_hazard_table(struct reply *out, const struct hazard_view *v, int hl, bool only_hl)
{
	static const char *const hdr[] = {"roll", "result"};

	reply_table(out, 2, hdr);
	for (size_t i = 0; i < v->n; i++) {
		char range[16];
		const char *cells[2] = {range, v->rows[i].text};

		if (only_hl && (int)i != hl)
			continue;
		if (v->rows[i].lo == v->rows[i].hi)
			snprintf(range, sizeof(range), "%d", v->rows[i].lo);
		else
			snprintf(range, sizeof(range), "%d-%d", v->rows[i].lo, v->rows[i].hi);
		reply_row(out, (int)i == hl, cells);
	}
}

int
procedure_render_view(const struct procedure_state *s, enum hazard_table t, struct hazard_view *v,
                      struct reply *out)
{
	if (hazard_view(t, s->chance, s->custom, s->proc, v) == 0)
		return 0;
	reply_error(out, "This channel has no custom hazard table yet; the GM defines one with ");
	reply_cmd(out, RS_BAD, "hazard custom", "die", "d6", "entries",
	          "1 Encounter; 2 Sign; 3-6 Nothing", NULL);
	reply_add(out, RS_BAD, ".");
	return -1;
}
