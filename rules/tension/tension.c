/* tension: the Tension track and the tension roll; see tension.h. */
#include "rules/tension/tension.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"
#include "rules/tables/roll_table_dice.h"

static const struct tension_event_info events[TENSION_EV_COUNT] = {
    [TENSION_EV_DOOR] = {"door", +1, "breaking down a stuck or locked door"},
    [TENSION_EV_QUIET_COMBAT] = {"quiet-combat", +1, "quiet, stealthy combat"},
    [TENSION_EV_COMBAT] = {"combat", +2, "normal combat"},
    [TENSION_EV_ENEMY_ESCAPED] = {"enemy-escaped", +4, "combat in which an enemy escaped"},
    [TENSION_EV_TRAP] = {"trap", -1, "disarming or circumventing a trap"},
    [TENSION_EV_SECRET] = {"secret", -1, "discovering a secret"},
    [TENSION_EV_PRISONER] = {"prisoner", -2, "rescuing a prisoner"},
    [TENSION_EV_OBJECTIVE] = {"objective", -3, "achieving a major objective"},
};

static const char *const table_names[TENSION_TABLE_COUNT] = {
    [TENSION_TABLE_ENCOUNTER] = "encounter",
    [TENSION_TABLE_EFFECTS] = "effects",
};

static const char *const table_defaults[TENSION_TABLE_COUNT] = {
    [TENSION_TABLE_ENCOUNTER] = "1-4 a lost adventurer; 5-8 1d4 goblins; 9-12 2d4 goblins; "
                                "13-16 2d6 orcs; 17-20 4d6 orcs",
    [TENSION_TABLE_EFFECTS] =
        "1-2 2d6 hidden gold pieces glimmer in a corner; "
        "3-4 tracks lead toward a pre-set encounter; "
        "5-6 a fresh breeze shows the way to the nearest exit; "
        "7-8 slime tracks on the walls hint at oozes nearby; "
        "9-10 an unnatural draft makes torches flicker; "
        "11-12 a pocket of toxic gas, CON save or 1d6 poison damage; "
        "13-14 a tremor drops roof tiles, DEX save or 1d8 bludgeoning damage; "
        "15-16 a sudden drop in temperature, something approaches; "
        "17-18 gas makes the air unbreathable, everyone must move; "
        "19-20 a structural collapse blocks an exit",
};

const struct tension_event_info *
tension_event_info(enum tension_event e)
{
	return &events[e];
}

int
tension_event_find(const char *name)
{
	for (int i = 0; i < TENSION_EV_COUNT; i++)
		if (strcasecmp(events[i].name, name) == 0)
			return i;
	return -1;
}

void
tension_init(struct tension *t)
{
	memset(t, 0, sizeof(*t));
	t->value = TENSION_START;
}

void
tension_clear(struct tension *t)
{
	for (size_t i = 0; i < t->nhist; i++)
		free(t->hist[i].reason);
	free(t->hist);
	tension_init(t);
}

/* The record that makes way for a new one in a full history: the oldest
 * of the oldest run of records made behind one screen (the same mark,
 * not 0) that holds two or more, else the oldest. A run so keeps at least
 * its newest record, and records outside runs stay as long as runs can
 * shrink: which of them are kept tells nothing of how long a run was. */
static size_t
make_way(const struct tension *t)
{
	for (size_t i = 0; i + 1 < t->nhist; i++)
		if (t->hist[i].screen != 0 && t->hist[i].screen == t->hist[i + 1].screen)
			return i;
	return 0;
}

struct tension_change *
tension_append(struct tension *t, const char *reason)
{
	struct tension_change *c;
	size_t len = utf8_cut(reason, strlen(reason), TENSION_REASON_MAX - 1);

	if (t->nhist == TENSION_HISTORY_MAX) {
		size_t i = make_way(t);

		free(t->hist[i].reason);
		memmove(&t->hist[i], &t->hist[i + 1], (t->nhist - i - 1) * sizeof(t->hist[0]));
		t->nhist--;
	}
	if (t->nhist == t->cap) {
		t->cap = t->cap == 0                        ? 4
		         : t->cap * 2 > TENSION_HISTORY_MAX ? TENSION_HISTORY_MAX
		                                            : t->cap * 2;
		t->hist = xrealloc(t->hist, t->cap * sizeof(t->hist[0]));
	}
	c = &t->hist[t->nhist++];
	memset(c, 0, sizeof(*c));
	c->reason = xmalloc(len + 1);
	memcpy(c->reason, reason, len);
	c->reason[len] = '\0';
	return c;
}

static int
clamp(int v, bool *clamped)
{
	*clamped = v < TENSION_MIN || v > TENSION_MAX;
	if (v < TENSION_MIN)
		return TENSION_MIN;
	if (v > TENSION_MAX)
		return TENSION_MAX;
	return v;
}

/* Appends a change record (dropping the oldest when full) and applies it. */
static const struct tension_change *
record(struct tension *t, enum tension_change_kind kind, int to, int amount, bool clamped,
       const char *reason)
{
	struct tension_change *c = tension_append(t, reason);

	c->kind = kind;
	c->from = t->value;
	c->to = to;
	c->amount = amount;
	c->clamped = clamped;
	t->value = to;
	return c;
}

const struct tension_change *
tension_adjust(struct tension *t, int amount, const char *reason)
{
	bool clamped;
	int to;

	/* amount is bounded by callers; keep the sum clear of overflow anyway */
	if (amount > 100)
		amount = 100;
	if (amount < -100)
		amount = -100;
	to = clamp(t->value + amount, &clamped);
	return record(t, TENSION_CHANGE_ADJUST, to, amount, clamped, reason);
}

const struct tension_change *
tension_event(struct tension *t, enum tension_event e, const char *extra)
{
	char reason[TENSION_REASON_MAX];

	if (extra != NULL && *extra != '\0') {
		/* cut extra on a character boundary so that " (extra)" fits */
		size_t room = sizeof(reason) - strlen(events[e].reason) - 4;
		size_t n = utf8_cut(extra, strlen(extra), room);

		snprintf(reason, sizeof(reason), "%s (%.*s)", events[e].reason, (int)n, extra);
	} else
		utf8_copy_bytes(reason, sizeof(reason), events[e].reason);
	return tension_adjust(t, events[e].amount, reason);
}

const struct tension_change *
tension_set(struct tension *t, int value, const char *reason)
{
	bool clamped;
	int to = clamp(value, &clamped);

	return record(t, TENSION_CHANGE_SET, to, to - t->value, clamped, reason);
}

const struct tension_change *
tension_reset(struct tension *t, const char *reason)
{
	return record(t, TENSION_CHANGE_RESET, TENSION_START, TENSION_START - t->value, false,
	              reason);
}

/* --- the tension roll --- */

enum tension_dungeon_event
tension_dungeon_event_of(int d12)
{
	if (d12 <= 5)
		return TENSION_DE_NOTHING;
	if (d12 == 6)
		return TENSION_DE_LIGHT;
	if (d12 <= 10)
		return TENSION_DE_EFFECT;
	return TENSION_DE_SOUNDS;
}

const char *
tension_dungeon_event_text(enum tension_dungeon_event e)
{
	switch (e) {
	case TENSION_DE_NOTHING:
		return "nothing";
	case TENSION_DE_LIGHT:
		return "a non-magical light source fails";
	case TENSION_DE_EFFECT:
		return "an environmental effect";
	case TENSION_DE_SOUNDS:
		return "enemy or NPC sounds";
	}
	return "?";
}

const char *
tension_dungeon_event_range(enum tension_dungeon_event e)
{
	switch (e) {
	case TENSION_DE_NOTHING:
		return "1-5";
	case TENSION_DE_LIGHT:
		return "6";
	case TENSION_DE_EFFECT:
		return "7-10";
	case TENSION_DE_SOUNDS:
		return "11-12";
	}
	return "?";
}

/* Fills out from a pick, the entry's text as written. */
static void
from_pick(const struct roll_table *table, const struct roll_table_pick *p, struct tension_pick *out)
{
	out->sides = p->sides;
	out->d10 = p->d10;
	out->total = p->result;
	out->ndice = 0;
	out->nested = 0;
	out->index = p->index;
	out->struck = p->struck;
	snprintf(out->text, sizeof(out->text), "%s", p->index >= 0 ? table->e[p->index].text : "");
}

void
tension_pick_at(const struct roll_table *table, int d10, int tension, struct tension_pick *out)
{
	struct roll_table_pick p;

	roll_table_pick_at(table, 0, d10, d10 + tension, &p);
	from_pick(table, &p, out);
}

/* Rolls the dice written in the picked entry, and the tables it names,
 * into p->text. */
static void
roll_dice(struct rng *r, const struct roll_table *table, const struct roll_table_lookup *lk,
          struct tension_pick *p)
{
	struct roll_table_trace trace = {0};
	struct buf b;

	if (p->struck)
		return;
	buf_init(&b, sizeof(p->text) - 4);
	p->ndice = roll_table_expand(r, table, (size_t)p->index, lk, &trace, &b);
	p->nested = (int)trace.n;
	snprintf(p->text, sizeof(p->text), "%s%s", buf_str(&b), b.toobig ? "…" : "");
	buf_free(&b);
}

void
tension_pick(struct rng *r, const struct roll_table *table, int tension,
             const struct roll_table_lookup *lk, struct tension_pick *out)
{
	struct roll_table_pick p;

	roll_table_pick(r, table, tension, &p);
	from_pick(table, &p, out);
	roll_dice(r, table, lk, out);
}

void
tension_roll(struct rng *r, int tension, int exits, bool safe, const struct roll_table *encounters,
             const struct roll_table *effects, const struct roll_table_lookup *lk,
             struct tension_roll *out)
{
	struct roll_table_pick p;

	memset(out, 0, sizeof(*out));
	out->tension = tension;
	out->exits = exits;
	out->safe = safe;
	out->event_d12 = (int)rng_die(r, 12);
	out->event = tension_dungeon_event_of(out->event_d12);
	out->event_happens = out->event != TENSION_DE_NOTHING;
	if (out->event == TENSION_DE_EFFECT) {
		roll_table_pick(r, effects, tension, &p);
		from_pick(effects, &p, &out->effect);
		out->event_happens = !out->effect.struck;
	}
	if (!safe)
		encounter_check(r, exits, tension, &out->check);
	out->encounter_happens = out->check.encounter;
	if (out->check.encounter && encounters != NULL) {
		roll_table_pick(r, encounters, tension, &p);
		from_pick(encounters, &p, &out->encounter);
		out->encounter_happens = !out->encounter.struck;
	}
	if (out->event == TENSION_DE_EFFECT)
		roll_dice(r, effects, lk, &out->effect);
	if (out->check.encounter && encounters != NULL)
		roll_dice(r, encounters, lk, &out->encounter);
}

/* --- default tables --- */

const char *
tension_table_name(enum tension_table k)
{
	return table_names[k];
}

int
tension_table_find(const char *name)
{
	for (int i = 0; i < TENSION_TABLE_COUNT; i++)
		if (strcasecmp(table_names[i], name) == 0)
			return i;
	return -1;
}

const char *
tension_table_default_text(enum tension_table k)
{
	return table_defaults[k];
}

int
tension_table_parse(const char *text, struct roll_table *out, char *err, size_t errlen)
{
	return roll_table_parse(text, TENSION_TABLE_LO, TENSION_TABLE_HI, out, err, errlen);
}

int
tension_table_load(const char *text, struct roll_table *out, char *err, size_t errlen)
{
	return roll_table_load(text, TENSION_TABLE_LO, TENSION_TABLE_HI, out, err, errlen);
}

void
tension_table_default(enum tension_table k, struct roll_table *out)
{
	char err[160];

	/* The defaults are constants that parse; a failure is a programmer
	 * error caught by the unit tests, and leaves an empty table. */
	if (tension_table_parse(table_defaults[k], out, err, sizeof(err)) < 0)
		memset(out, 0, sizeof(*out));
}
