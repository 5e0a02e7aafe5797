/* turn: the turn clock and its bookkeeping; see turn.h. */
#include "rules/procedure/turn.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/utf8.h"

void
turn_clock_init(struct turn_clock *c)
{
	memset(c, 0, sizeof(*c));
	c->lights.next_id = 1;
}

bool
turn_resting(const struct turn_clock *c)
{
	return c->turn > 0 && c->since_rest == 0;
}

static const char *const pace_names[PACE_COUNT] = {
    [PACE_CRAWLING] = "crawling",
    [PACE_WALKING] = "walking",
    [PACE_RUNNING] = "running",
};

const char *
turn_pace_name(enum turn_pace p)
{
	return (unsigned)p < PACE_COUNT ? pace_names[p] : "?";
}

int
turn_pace_parse(const char *name)
{
	for (int i = 0; i < PACE_COUNT; i++)
		if (strcasecmp(name, pace_names[i]) == 0)
			return i;
	return -1;
}

size_t
turn_set_pace(struct turn_clock *c, enum turn_pace pace, enum procedure p, struct light *out)
{
	c->pace = pace;
	return pace == PACE_RUNNING && p == PROC_DELVING ? light_blow_candles(&c->lights, out) : 0;
}

void
turn_report_init(struct turn_report *r)
{
	r->n = 0;
	r->dropped = 0;
	r->dropped_key = 0;
	r->sign[0] = '\0';
	memset(&r->pick, 0, sizeof(r->pick));
	r->table[0] = '\0';
	r->passed[0] = '\0';
}

bool
turn_event_routine(enum turn_event_kind k)
{
	return k == TE_LIGHT_WARN || k == TE_REST_DUE || k == TE_RESTED;
}

/* Makes room in a full report for an event of kind k, as struct
 * turn_report says; returns false when k's event is the one not kept. */
static bool
make_room(struct turn_report *r, enum turn_event_kind k)
{
	size_t i = 0;

	r->dropped++;
	if (turn_event_routine(k))
		return false;
	while (i < r->n && !turn_event_routine(r->ev[i].kind))
		i++;
	if (i == r->n) {
		r->dropped_key++;
		return false;
	}
	memmove(&r->ev[i], &r->ev[i + 1], (r->n - i - 1) * sizeof(r->ev[0]));
	r->n--;
	return true;
}

static void
add(struct turn_report *r, enum turn_event_kind k, int turn, int value, const struct light *l)
{
	struct turn_event *e;

	if (r->n == TURN_EVENTS_MAX && !make_room(r, k))
		return;
	e = &r->ev[r->n++];
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->turn = turn;
	e->value = value;
	if (l != NULL)
		e->light = *l;
}

enum turn_topic
turn_event_topic(enum turn_event_kind k)
{
	switch (k) {
	case TE_ENCOUNTER:
	case TE_SIGN_MET:
	case TE_ENCOUNTER_ROLLED:
	case TE_ENCOUNTER_STRUCK:
	case TE_SAFE_AREA:
	case TE_SURPRISED:
		return TURN_TOPIC_ENCOUNTER;
	case TE_SIGN_HINT:
	case TE_SIGN_REMEMBERED:
	case TE_SIGN_STRUCK:
	case TE_SIGN_SAFE:
		return TURN_TOPIC_SIGN;
	case TE_FLAG_OUT:
	case TE_FLAG_LOW:
	case TE_FLAG_FLICKER:
	case TE_FLAG_NONE:
	case TE_BURN_OUT:
	case TE_BURN_NONE:
	case TE_FATIGUE_CHOICE:
	case TE_FATIGUE_RESTING:
	case TE_FATIGUE_PENDING:
	case TE_FATIGUE_IGNORED:
	case TE_SHIFT:
	case TE_FATIGUE_AVOIDED:
	case TE_FATIGUE_DAMAGE:
	case TE_LIGHT_WARN:
	case TE_LIGHT_OUT:
	case TE_CANDLE_BLOWN:
	case TE_RESTED:
	case TE_REST_DUE:
	case TE_REST_SKIPPED:
	case TE_KIND_COUNT:
		break;
	}
	return TURN_TOPIC_OTHER;
}

int
turn_surprise(const struct turn_clock *c, enum procedure p, bool resting)
{
	if (p != PROC_DELVING)
		return TURN_NOT_SURPRISED;
	if (c->pace != PACE_CRAWLING && !resting)
		return (int)c->pace;
	return c->lights.n == 0 ? -1 : TURN_NOT_SURPRISED;
}

static void
surprised(const struct turn_clock *c, enum procedure p, const struct turn_how *how,
          struct turn_report *r)
{
	int why = turn_surprise(c, p, how->resting);

	if (why != TURN_NOT_SURPRISED)
		add(r, TE_SURPRISED, c->turn, why, NULL);
}

/* An Encounter: the creature a Sign announced, else the one the entry
 * names, else (delving, or the channel's own table) the encounter table's
 * creature, else the GM's wandering monster. */
static void
encounter(struct turn_clock *c, enum procedure p, const struct turn_how *how, struct turn_report *r)
{
	if (how->safe) {
		add(r, TE_SAFE_AREA, c->turn, 0, NULL);
		return;
	}
	if (!c->sign_set && how->creature != NULL) {
		add(r, TE_ENCOUNTER, c->turn, 0, NULL);
		surprised(c, p, how, r);
		return;
	}
	if (!c->sign_set && (p == PROC_DELVING || how->own) && how->encounters != NULL) {
		size_t n;

		tension_pick(how->rng, how->encounters, how->tension, how->lookup, &r->pick);
		snprintf(r->table, sizeof(r->table), "%s", how->table != NULL ? how->table : "");
		if (r->pick.struck) {
			add(r, TE_ENCOUNTER_STRUCK, c->turn, 0, NULL);
			return;
		}
		n = utf8_cut(r->pick.text, strlen(r->pick.text), sizeof(r->sign) - 1);
		memcpy(r->sign, r->pick.text, n);
		r->sign[n] = '\0';
		add(r, TE_ENCOUNTER_ROLLED, c->turn, 0, NULL);
		surprised(c, p, how, r);
		return;
	}
	if (!c->sign_set) {
		add(r, TE_ENCOUNTER, c->turn, 0, NULL);
		surprised(c, p, how, r);
		return;
	}
	add(r, TE_SIGN_MET, c->turn, c->sign_turn, NULL);
	snprintf(r->sign, sizeof(r->sign), "%s", c->sign);
	if (how->creature != NULL) {
		size_t n = utf8_cut(how->creature, strlen(how->creature), sizeof(r->passed) - 1);

		memcpy(r->passed, how->creature, n);
		r->passed[n] = '\0';
	}
	c->sign_set = false;
	c->sign[0] = '\0';
	surprised(c, p, how, r);
}

/* A delving Sign: the creature is rolled on the encounter table when there
 * is one; a newer sign replaces the one remembered. In a safe area, where
 * no wandering monster goes, no encounter is rolled, so no sign is found
 * (the one remembered stays). */
static void
sign(struct turn_clock *c, const struct turn_how *how, struct turn_report *r)
{
	if (how->safe) {
		add(r, TE_SIGN_SAFE, c->turn, 0, NULL);
		return;
	}
	c->sign_set = false;
	c->sign[0] = '\0';
	if (how->encounters != NULL) {
		tension_pick(how->rng, how->encounters, how->tension, how->lookup, &r->pick);
		snprintf(r->table, sizeof(r->table), "%s", how->table != NULL ? how->table : "");
		if (r->pick.struck) {
			add(r, TE_SIGN_STRUCK, c->turn, 0, NULL);
			return;
		}
		turn_sign_set(c, r->pick.text);
		snprintf(r->sign, sizeof(r->sign), "%s", c->sign);
	}
	c->sign_set = true;
	c->sign_turn = c->turn;
	add(r, TE_SIGN_REMEMBERED, c->turn, 0, NULL);
}

static void
burn(struct turn_clock *c, struct turn_report *r)
{
	struct light out[LIGHT_MAX];
	size_t n = light_burn_torches(&c->lights, out);

	if (n == 0)
		add(r, TE_BURN_NONE, c->turn, 0, NULL);
	for (size_t i = 0; i < n; i++)
		add(r, TE_BURN_OUT, c->turn, 0, &out[i]);
}

void
turn_light_fails(struct turn_clock *c, enum procedure p, int low, struct turn_report *r)
{
	struct light was;

	switch (light_flag_oldest(&c->lights, p, low > 0 ? low : LIGHT_LOW_DEFAULT, &was)) {
	case LIGHT_FLAG_NONE:
		add(r, TE_FLAG_NONE, c->turn, 0, NULL);
		return;
	case LIGHT_FLAG_FLICKER:
		add(r, TE_FLAG_FLICKER, c->turn, 0, &was);
		c->light_result = TURN_LIGHT_FLICKERED;
		c->light_was = (struct light){.id = was.id};
		return;
	case LIGHT_FLAG_OUT:
		add(r, TE_FLAG_OUT, c->turn, 0, &was);
		break;
	case LIGHT_FLAG_LOW:
		add(r, TE_FLAG_LOW, c->turn, light_left(&c->lights.l[0], p), &was);
		break;
	}
	c->light_result = TURN_LIGHT_FLAGGED;
	c->light_was = was;
}

/* What the hazard result does this turn. */
static void
effect(struct turn_clock *c, enum procedure p, const struct turn_how *how, struct turn_report *r)
{
	switch (how->effect) {
	case HZ_ENCOUNTER:
		encounter(c, p, how, r);
		break;
	case HZ_SIGN:
		/* A safe area has no sign, rolled creature or hint alike: monsters
		 * do not go there, and an exploration hint read there while a
		 * rolled Sign finds none would tell whether the channel has an
		 * encounter table. */
		if (how->own && how->encounters != NULL)
			sign(c, how, r);
		else if (how->safe)
			add(r, TE_SIGN_SAFE, c->turn, 0, NULL);
		else
			add(r, TE_SIGN_HINT, c->turn, 0, NULL);
		break;
	case HZ_SIGN_CREATURE:
		sign(c, how, r);
		break;
	case HZ_LIGHT:
		turn_light_fails(c, p, how->lantern_low, r);
		break;
	case HZ_BURN:
		burn(c, r);
		break;
	case HZ_FATIGUE_SAVE:
		add(r, how->resting ? TE_FATIGUE_RESTING : TE_FATIGUE_CHOICE, c->turn, 0, NULL);
		break;
	case HZ_FATIGUE_DAMAGE:
		if (how->resting) {
			add(r, TE_FATIGUE_IGNORED, c->turn, 0, NULL);
		} else {
			c->fatigue_due = true;
			add(r, TE_FATIGUE_PENDING, c->turn, 0, NULL);
		}
		break;
	case HZ_SHIFT:
		add(r, TE_SHIFT, c->turn, 0, NULL);
		break;
	case HZ_NOTHING:
	case HZ_TEXT:
		break;
	}
}

static bool
still_lit(const struct lights *ls, int id)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->l[i].id == id)
			return true;
	return false;
}

static void
rest_clock(struct turn_clock *c, enum procedure p, bool resting, struct turn_report *r)
{
	int unrested;

	if (resting) {
		c->since_rest = 0;
		c->rest_mark = 0;
		add(r, TE_RESTED, c->turn, 0, NULL);
		return;
	}
	if (c->since_rest < TURN_MAX)
		c->since_rest++;
	unrested = c->since_rest - c->rest_mark;
	if (unrested == TURN_REST_DUE) {
		add(r, TE_REST_DUE, c->turn, c->since_rest, NULL);
		if (p == PROC_DELVING)
			c->rest_mark = c->since_rest;
	} else if (unrested == TURN_REST_DUE + 1 && p == PROC_EXPLORATION) {
		add(r, TE_REST_SKIPPED, c->turn, c->since_rest, NULL);
		c->rest_mark = c->since_rest;
	} else if (unrested > TURN_REST_DUE) {
		/* The procedure changed since the reminder: start counting again. */
		c->rest_mark = c->since_rest;
	}
}

/* What this turn's exploration Fatigue asks a rest next turn to answer
 * (turn_clock.fatigue_asked), from the events of turn in r. */
static int
fatigue_asked(const struct turn_report *r, int turn)
{
	bool choice = false, due = false;

	for (size_t i = 0; i < r->n; i++) {
		if (r->ev[i].turn != turn)
			continue;
		choice = choice || r->ev[i].kind == TE_FATIGUE_CHOICE;
		due = due || r->ev[i].kind == TE_REST_DUE;
	}
	return choice ? 1 + due : 0;
}

void
turn_pass(struct turn_clock *c, enum procedure p, const struct turn_how *how, struct turn_report *r)
{
	struct light_change ch[LIGHT_MAX];
	size_t nch;
	bool fatigue_was_due = c->fatigue_due;
	int asked = c->fatigue_asked;

	if (c->turn < TURN_MAX)
		c->turn++;
	turn_flag_clear(c);
	c->fatigue_due = false;
	c->fatigue_asked = 0;
	/* Time passes first (the hazard result can flag only what is still
	 * lit), but what the result did is reported first. */
	nch = light_burn(&c->lights, p, ch);
	effect(c, p, how, r);
	/* Running blows candles out (the delving text's; exploration's own
	 * rushing does not); a party that rests is not running. */
	if (c->pace == PACE_RUNNING && p == PROC_DELVING && !how->resting) {
		struct light blown[LIGHT_MAX];
		size_t nb = light_blow_candles(&c->lights, blown);

		for (size_t i = 0; i < nb; i++)
			add(r, TE_CANDLE_BLOWN, c->turn, 0, &blown[i]);
	}
	if (fatigue_was_due)
		add(r, how->resting ? TE_FATIGUE_AVOIDED : TE_FATIGUE_DAMAGE, c->turn, 0, NULL);
	else if (asked > 0 && how->resting)
		add(r, TE_FATIGUE_AVOIDED, c->turn, asked, NULL);
	for (size_t i = 0; i < nch; i++) {
		if (ch[i].out)
			add(r, TE_LIGHT_OUT, c->turn, 0, &ch[i].light);
		else if (still_lit(&c->lights, ch[i].light.id))
			add(r, TE_LIGHT_WARN, c->turn, 0, &ch[i].light);
	}
	rest_clock(c, p, how->resting, r);
	c->fatigue_asked = fatigue_asked(r, c->turn);
}

void
turn_advance(struct turn_clock *c, enum procedure p, int n, struct turn_report *r)
{
	struct turn_how how = {.effect = HZ_NOTHING};

	for (int i = 0; i < n && i < TURN_ADVANCE_MAX; i++)
		turn_pass(c, p, &how, r);
}

enum turn_light_result
turn_flicker(struct turn_clock *c, struct light *l)
{
	struct lights *ls = &c->lights;
	int at = -1;

	if (c->light_result == TURN_LIGHT_NONE)
		return TURN_LIGHT_NONE;
	if (c->light_result != TURN_LIGHT_FLAGGED) {
		for (size_t i = 0; i < ls->n; i++) {
			if (ls->l[i].id == c->light_was.id) {
				*l = ls->l[i];
				return c->light_result;
			}
		}
		return TURN_LIGHT_NONE;
	}
	for (size_t i = 0; i < ls->n; i++) {
		if (ls->l[i].id == c->light_was.id && ls->l[i].kind == c->light_was.kind) {
			at = (int)i;
			ls->l[i] = c->light_was;
			break;
		}
	}
	if (at < 0)
		at = light_restore(ls, &c->light_was);
	if (at < 0)
		return TURN_LIGHT_NONE;
	*l = ls->l[at];
	c->light_result = TURN_LIGHT_RULED;
	c->light_was = (struct light){.id = l->id};
	return TURN_LIGHT_FLAGGED;
}

void
turn_flag_clear(struct turn_clock *c)
{
	c->light_result = TURN_LIGHT_NONE;
	c->light_was = (struct light){0};
}

bool
turn_sign_meet(struct turn_clock *c, char *out, int *sign_turn)
{
	if (!c->sign_set)
		return false;
	snprintf(out, TURN_SIGN_MAX, "%s", c->sign);
	*sign_turn = c->sign_turn;
	c->sign_set = false;
	c->sign[0] = '\0';
	return true;
}

void
turn_sign_set(struct turn_clock *c, const char *name)
{
	size_t n;

	if (name[0] == '\0') {
		c->sign_set = false;
		c->sign[0] = '\0';
		return;
	}
	if (!c->sign_set) {
		c->sign_set = true;
		c->sign_turn = c->turn;
	}
	n = utf8_cut(name, strlen(name), sizeof(c->sign) - 1);
	memcpy(c->sign, name, n);
	c->sign[n] = '\0';
}
