/* The /hazard settings: table, chance, custom, procedure, who, sign,
 * fatigue. */
#include "commands/procedure/cmd_hazard_set.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/core/registry_parse.h"
#include "commands/procedure/procedure_render.h"
#include "commands/tables/cmd_table.h"
#include "commands/tension/tension_state.h"
#include "rules/base/mem.h"

/* Whether the channel's hazard table has a row with effect e. */
static bool
has_row(const struct procedure_state *s, enum hazard_effect e)
{
	struct hazard_view v;

	if (hazard_view(s->table, s->chance, s->custom, s->proc, &v) < 0)
		return false;
	for (size_t i = 0; i < v.n; i++)
		if (v.rows[i].effect == e)
			return true;
	return false;
}

void
cmd_hazard_set_lines(struct reply *out, const struct procedure_state *s)
{
	reply_add(out, 0, "Light and rest follow the ");
	reply_add(out, RS_BOLD, "%s", hazard_procedure_name(s->proc));
	if (s->proc == PROC_EXPLORATION)
		reply_add(out, 0, " procedure: torch 6 turns, lantern 36, candle 6.");
	else
		reply_add(out, 0,
		          " procedure: torches last until a Burn, candles and lanterns %d "
		          "turns (the expedition).",
		          LIGHT_EXPEDITION);
	reply_nl(out);
	if (has_row(s, HZ_LIGHT)) {
		reply_add(out, 0, "A Light result leaves a lantern at most ");
		reply_add(out, RS_BOLD, "%d", s->lantern_low);
		reply_add(out, 0, " %s of oil (", s->lantern_low == 1 ? "turn" : "turns");
		reply_cmd(out, 0, "light low", NULL);
		reply_add(out, 0, "); a source lit just before the turn only flickers.");
		reply_nl(out);
	}
	/* Fatigue's damage matters only where a Fatigue row deals damage
	 * (the delving table, or a custom one read under the delving
	 * procedure), the classic odds only to the classic die. */
	if (has_row(s, HZ_FATIGUE_DAMAGE)) {
		reply_add(out, 0, "Delving Fatigue: ");
		reply_add(out, RS_BOLD, "%d", s->fatigue_damage);
		reply_add(out, 0, " damage to each party member unless the party rests (");
		reply_cmd(out, 0, "hazard fatigue", NULL);
		reply_add(out, 0, ").");
		reply_nl(out);
	}
	if (s->table == HAZARD_CLASSIC) {
		reply_add(out, 0, "Classic odds: ");
		reply_add(out, RS_BOLD, "%d-in-%d", s->chance.x, s->chance.n);
		reply_add(out, 0, ". ");
	}
	reply_add(out, 0, "Who rolls: %s.", s->gm_rolls ? "the GM only" : "anyone");
	reply_nl(out);
}

/* Shows the table the channel now uses, after a change. */
static void
show_new_table(struct reply *out, const struct procedure_state *s)
{
	struct hazard_view v;

	if (hazard_view(s->table, s->chance, s->custom, s->proc, &v) < 0)
		return;
	reply_add(out, 0, "The hazard die here is now ");
	reply_add(out, RS_BOLD, "%s", hazard_table_name(s->table));
	reply_add(out, 0, " (d%d).", v.die);
	reply_nl(out);
	procedure_render_hazard_table(out, &v, -1, false);
	cmd_hazard_set_lines(out, s);
}

/* A pace belongs to the procedure it was set under (exploration's
 * walking and running are its rushing; delving's running is a flight
 * that blows candles out): on a change of procedure a party that was not
 * crawling crawls, each text's usual pace (cautious exploring; delving's
 * crawl, where "PCs spend most of this time"), and the reply says so. */
static void
pace_to_default(struct reply *out, struct procedure_state *s, enum procedure was, enum procedure p)
{
	enum turn_pace pace = s->clock.pace;
	struct light none[LIGHT_MAX];

	if (pace == PACE_CRAWLING || was == p)
		return;
	(void)turn_set_pace(&s->clock, PACE_CRAWLING, p, none);
	reply_add(out, 0, "The party was %s under the %s procedure; under the %s procedure it is ",
	          turn_pace_name(pace), hazard_procedure_name(was), hazard_procedure_name(p));
	reply_add(out, RS_BOLD, "crawling");
	reply_add(out, 0, " now, %s (",
	          p == PROC_DELVING ? "its usual pace" : "exploring cautiously");
	reply_cmd(out, 0, "turn move", NULL);
	reply_add(out, 0, " sets another).");
	reply_nl(out);
}

/* Light and rest follow procedure p from now on. The party's pace goes
 * back to crawling (pace_to_default). A source whose life under p is
 * spent already goes out at once. The reply says what changed. */
static void
switch_procedure(struct reply *out, struct procedure_state *s, enum procedure p)
{
	struct light gone[LIGHT_MAX];
	enum procedure was = s->proc;
	size_t n;

	s->proc = p;
	pace_to_default(out, s, was, p);
	n = light_spent(&s->clock.lights, p, gone);
	if (n == 0)
		return;
	turn_flag_clear(&s->clock);
	for (size_t i = 0; i < n; i++) {
		char name[100];

		procedure_render_light_name(&gone[i], i == 0, name, sizeof(name));
		reply_add(out, 0, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", name);
	}
	reply_add(out, 0, " %s already burned longer than the %s procedure lets %s last: ",
	          n == 1 ? "has" : "have", hazard_procedure_name(p), n == 1 ? "it" : "them");
	reply_add(out, RS_BAD, "%s out", n == 1 ? "it goes" : "they go");
	reply_add(out, 0, ".");
	reply_nl(out);
}

void
cmd_hazard_set_table(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	int t = hazard_table_parse(invocation_str(inv, "table"));
	struct hazard_view v;

	if (procedure_render_view(s, t, &v, out) < 0)
		return;
	s->table = t;
	if (t == HAZARD_EXPLORATION)
		switch_procedure(out, s, PROC_EXPLORATION);
	else if (t == HAZARD_DELVING)
		switch_procedure(out, s, PROC_DELVING);
	channel_touch(inv->chan);
	show_new_table(out, s);
}

void
cmd_hazard_set_chance(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	struct odds c;

	if (!invocation_odds(inv, "odds", &c))
		return; /* the option is required: the registry refused */
	s->chance = c;
	s->table = HAZARD_CLASSIC;
	channel_touch(inv->chan);
	show_new_table(out, s);
}

/* Copies text without one pair of surrounding double quotes. */
static void
unquote(const char *text, char *buf, size_t len)
{
	size_t n = strlen(text);

	if (n >= 2 && text[0] == '"' && text[n - 1] == '"')
		snprintf(buf, len, "%.*s", (int)(n - 2), text + 1);
	else
		snprintf(buf, len, "%s", text);
}

void
cmd_hazard_set_custom(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	char text[CMD_LINE_MAX + 1], err[200];
	struct roll_table t;
	int die;

	if (hazard_parse_die(invocation_str(inv, "die"), &die, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return;
	}
	unquote(invocation_str(inv, "entries"), text, sizeof(text));
	if (roll_table_parse(text, 1, die, &t, err, sizeof(err)) < 0) {
		reply_error(out, "The d%d table was not saved: %s", die, err);
		return;
	}
	if (s->custom == NULL)
		s->custom = xmalloc(sizeof(*s->custom));
	*s->custom = t;
	s->table = HAZARD_CUSTOM;
	channel_touch(inv->chan);
	show_new_table(out, s);
	cmd_table_missing_refs(inv, "", &t, out);
}

void
cmd_hazard_set_procedure(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	switch_procedure(out, s, hazard_procedure_parse(invocation_str(inv, "procedure")));
	channel_touch(inv->chan);
	cmd_hazard_set_lines(out, s);
}

void
cmd_hazard_set_who(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	s->gm_rolls = strcmp(invocation_str(inv, "who"), "gm") == 0;
	channel_touch(inv->chan);
	if (s->gm_rolls)
		reply_line(out, 0,
		           "Only the GM rolls the hazard die and rests the party here now.");
	else
		reply_line(out, 0, "Anyone may roll the hazard die and rest the party here now.");
}

/* "(its sign was met on turn 4)", or, for a creature the GM names when
 * no sign was met, when. */
static void
sign_when(struct reply *out, const struct turn_clock *c, bool met)
{
	if (met)
		reply_add(out, 0, " (its sign was met on turn %d).", c->sign_turn);
	else if (c->sign_turn == 0)
		reply_add(out, 0, " (named by the GM before the first turn).");
	else
		reply_add(out, 0, " (named by the GM on turn %d).", c->sign_turn);
}

/*
 * /hazard sign: names the creature of the sign met (or, with none,
 * "none" or "forget", forgets it). While Tension is hidden the channel reads one line whatever
 * the GM did (whether a sign's creature was remembered at all depends on
 * what the encounter table gave, behind the screen), and the GM the rest.
 */
void
cmd_hazard_set_sign(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *creature = invocation_str(inv, "creature");
	/* "forget" is what the GM means, as "none" is: no creature is
	 * called either. */
	bool forget = creature == NULL || strcasecmp(creature, "none") == 0 ||
	              strcasecmp(creature, "forget") == 0;
	bool hidden = tension_state_hidden(inv->chan), met = s->clock.sign_set;

	if (creature != NULL && registry_parse_blank(creature)) {
		reply_error(out,
		            "A blank creature names none; name the creature whose sign was met, "
		            "or forget the one remembered with ");
		reply_cmd(out, RS_BAD, "hazard sign", "creature", "none", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (hidden)
		invocation_screen(inv, out, RS_ITALIC,
		                  "The GM changed the sign's creature behind the screen.");
	if (forget && !met) {
		if (!hidden) {
			reply_error(out, "No sign's creature is remembered, so there is nothing "
			                 "to forget; name one with ");
			reply_cmd(out, RS_BAD, "hazard sign", "creature", "<creature>", NULL);
			reply_add(out, RS_BAD, ".");
			return;
		}
		reply_line(out, 0, "No sign's creature is remembered, so nothing changed.");
		return;
	}
	turn_sign_set(&s->clock, forget ? "" : creature);
	channel_touch(inv->chan);
	if (forget) {
		reply_line(out, 0,
		           "The sign's creature is forgotten; the next encounter is rolled "
		           "as usual.");
		return;
	}
	reply_add(out, 0, "The next encounter is ");
	reply_add(out, RS_BOLD, "%s", s->clock.sign);
	sign_when(out, &s->clock, met);
	reply_nl(out);
}

void
cmd_hazard_set_fatigue(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	s->fatigue_damage = (int)invocation_int(inv, "damage", 1);
	channel_touch(inv->chan);
	reply_add(out, 0, "A delving Fatigue now deals ");
	reply_add(out, RS_BOLD, "%d", s->fatigue_damage);
	reply_add(out, 0, " damage to each party member unless the party rests next turn.");
	reply_nl(out);
}
