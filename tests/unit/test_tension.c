/* Unit tests for rules/tension: events, clamping, history, the tension roll
 * and the default tables of RULES.md section 3. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/tension/tension.h"
#include "rules/base/utf8.h"

/* The events table of RULES.md section 3, row by row. */
static const struct {
	const char *name;
	int amount;
	const char *reason;
} event_rows[] = {
    {"door", +1, "breaking down a stuck or locked door"},
    {"quiet-combat", +1, "quiet, stealthy combat"},
    {"combat", +2, "normal combat"},
    {"enemy-escaped", +4, "combat in which an enemy escaped"},
    {"trap", -1, "disarming or circumventing a trap"},
    {"secret", -1, "discovering a secret"},
    {"prisoner", -2, "rescuing a prisoner"},
    {"objective", -3, "achieving a major objective"},
};

static void
every_event_row(void **unused)
{
	assert_int_equal(sizeof(event_rows) / sizeof(event_rows[0]), TENSION_EV_COUNT);
	for (int i = 0; i < TENSION_EV_COUNT; i++) {
		struct tension t;
		const struct tension_change *c;

		assert_int_equal(tension_event_find(event_rows[i].name), i);
		assert_int_equal(tension_event_info((enum tension_event)i)->amount,
		                 event_rows[i].amount);
		tension_init(&t);
		tension_set(&t, 5, "start");
		c = tension_event(&t, (enum tension_event)i, NULL);
		assert_int_equal(t.value, 5 + event_rows[i].amount);
		assert_int_equal(c->kind, TENSION_CHANGE_ADJUST);
		assert_int_equal(c->from, 5);
		assert_int_equal(c->to, 5 + event_rows[i].amount);
		assert_int_equal(c->amount, event_rows[i].amount);
		assert_false(c->clamped);
		assert_string_equal(c->reason, event_rows[i].reason);
		tension_clear(&t);
	}
	assert_int_equal(tension_event_find("COMBAT"), TENSION_EV_COMBAT);
	assert_int_equal(tension_event_find("fight"), -1);
}

static void
event_with_extra_reason(void **unused)
{
	struct tension t;

	tension_init(&t);
	assert_string_equal(tension_event(&t, TENSION_EV_COMBAT, "goblins at the bridge")->reason,
	                    "normal combat (goblins at the bridge)");
	assert_string_equal(tension_event(&t, TENSION_EV_DOOR, "")->reason,
	                    "breaking down a stuck or locked door");
	tension_clear(&t);
}

static void
new_track_starts_at_one(void **unused)
{
	struct tension t;

	tension_init(&t);
	assert_int_equal(t.value, 1);
	assert_int_equal(t.nhist, 0);
	tension_clear(&t);
}

static void
clamps_at_ten(void **unused)
{
	struct tension t;
	const struct tension_change *c;

	tension_init(&t);
	tension_set(&t, 8, "x");
	c = tension_event(&t, TENSION_EV_COMBAT, NULL); /* 8 + 2 = 10 exactly */
	assert_int_equal(t.value, 10);
	assert_false(c->clamped);
	c = tension_event(&t, TENSION_EV_DOOR, NULL); /* 10 + 1 */
	assert_int_equal(t.value, 10);
	assert_true(c->clamped);
	assert_int_equal(c->from, 10);
	assert_int_equal(c->to, 10);
	assert_int_equal(c->amount, 1);
	tension_set(&t, 9, "x");
	c = tension_event(&t, TENSION_EV_ENEMY_ESCAPED, NULL); /* 9 + 4 */
	assert_int_equal(t.value, 10);
	assert_true(c->clamped);
	assert_int_equal(c->amount, 4);
	c = tension_adjust(&t, 1000, "huge"); /* far past: no overflow */
	assert_int_equal(t.value, 10);
	assert_true(c->clamped);
	c = tension_set(&t, 11, "past");
	assert_int_equal(t.value, 10);
	assert_true(c->clamped);
	tension_clear(&t);
}

static void
clamps_at_one(void **unused)
{
	struct tension t;
	const struct tension_change *c;

	tension_init(&t);
	tension_set(&t, 4, "x");
	c = tension_event(&t, TENSION_EV_OBJECTIVE, NULL); /* 4 - 3 = 1 exactly */
	assert_int_equal(t.value, 1);
	assert_false(c->clamped);
	c = tension_event(&t, TENSION_EV_TRAP, NULL); /* 1 - 1 */
	assert_int_equal(t.value, 1);
	assert_true(c->clamped);
	assert_int_equal(c->amount, -1);
	tension_set(&t, 2, "x");
	c = tension_event(&t, TENSION_EV_OBJECTIVE, NULL); /* 2 - 3 */
	assert_int_equal(t.value, 1);
	assert_true(c->clamped);
	assert_int_equal(c->from, 2);
	c = tension_adjust(&t, -1000, "huge");
	assert_int_equal(t.value, 1);
	assert_true(c->clamped);
	c = tension_set(&t, 0, "below");
	assert_int_equal(t.value, 1);
	assert_true(c->clamped);
	tension_clear(&t);
}

static void
set_and_reset_are_recorded(void **unused)
{
	struct tension t;
	const struct tension_change *c;

	tension_init(&t);
	c = tension_set(&t, 7, "the GM's call");
	assert_int_equal(c->kind, TENSION_CHANGE_SET);
	assert_int_equal(c->from, 1);
	assert_int_equal(c->to, 7);
	assert_int_equal(c->amount, 6);
	c = tension_reset(&t, "back to town");
	assert_int_equal(c->kind, TENSION_CHANGE_RESET);
	assert_int_equal(c->from, 7);
	assert_int_equal(c->to, 1);
	assert_int_equal(t.value, 1);
	assert_int_equal(t.nhist, 2);
	assert_string_equal(t.hist[0].reason, "the GM's call");
	assert_string_equal(t.hist[1].reason, "back to town");
	tension_clear(&t);
	assert_int_equal(t.nhist, 0);
	assert_int_equal(t.value, 1);
}

static void
history_keeps_the_newest(void **unused)
{
	struct tension t;

	tension_init(&t);
	for (int i = 0; i < TENSION_HISTORY_MAX + 8; i++) {
		char r[16];

		snprintf(r, sizeof(r), "change %d", i);
		tension_adjust(&t, i % 2 ? -1 : 1, r);
	}
	assert_int_equal(t.nhist, TENSION_HISTORY_MAX);
	assert_string_equal(t.hist[0].reason, "change 8");
	assert_string_equal(t.hist[TENSION_HISTORY_MAX - 1].reason, "change 39");
	/* each record follows from the one before it */
	for (size_t i = 1; i < t.nhist; i++)
		assert_int_equal(t.hist[i].from, t.hist[i - 1].to);
	assert_int_equal(t.cap, TENSION_HISTORY_MAX);
	tension_clear(&t);
}

/* A full history drops records of a run made behind one screen before any
 * other, down to the run's newest: the records around a run are kept as
 * though the run were one record. */
static void
history_drops_runs_behind_a_screen_first(void **unused)
{
	struct tension t;
	char r[16];

	(void)unused;
	tension_init(&t);
	for (int i = 0; i < 4; i++) {
		snprintf(r, sizeof(r), "open %d", i);
		tension_adjust(&t, 1, r);
	}
	/* two screens' runs, then open records until the runs are one each */
	for (int i = 0; i < 2 * TENSION_HISTORY_MAX; i++) {
		snprintf(r, sizeof(r), "hidden %d", i);
		tension_adjust(&t, i % 2 ? -1 : 1, r);
		t.hist[t.nhist - 1].screen = i < TENSION_HISTORY_MAX ? 1 : 2;
	}
	assert_int_equal(t.nhist, TENSION_HISTORY_MAX);
	assert_string_equal(t.hist[0].reason, "open 0");
	assert_string_equal(t.hist[3].reason, "open 3");
	/* screen 1's run is down to its newest record, screen 2's holds the rest */
	assert_int_equal(t.hist[4].screen, 1);
	assert_string_equal(t.hist[4].reason, "hidden 31");
	assert_int_equal(t.hist[5].screen, 2);
	assert_string_equal(t.hist[TENSION_HISTORY_MAX - 1].reason, "hidden 63");
	for (int i = 0; i < TENSION_HISTORY_MAX; i++) {
		snprintf(r, sizeof(r), "late %d", i);
		tension_adjust(&t, 1, r);
	}
	/* no run is longer than one now: the oldest goes first again */
	assert_int_equal(t.nhist, TENSION_HISTORY_MAX);
	assert_string_equal(t.hist[0].reason, "late 0");
	tension_clear(&t);
}

static void
long_reason_is_cut_on_a_character(void **unused)
{
	struct tension t;
	char reason[400] = "";
	const struct tension_change *c;

	for (int i = 0; i < 150; i++)
		memcpy(reason + 2 * i, "é", 2);
	reason[300] = '\0';
	tension_init(&t);
	c = tension_adjust(&t, 1, reason);
	assert_int_equal(strlen(c->reason), 160);
	assert_true(utf8_valid(c->reason, strlen(c->reason)));
	/* an event's extra is cut so the closing parenthesis stays */
	c = tension_event(&t, TENSION_EV_COMBAT, reason);
	assert_true(strlen(c->reason) <= 160);
	assert_true(utf8_valid(c->reason, strlen(c->reason)));
	assert_int_equal(c->reason[strlen(c->reason) - 1], ')');
	tension_clear(&t);
}

static void
dungeon_event_d12(void **unused)
{
	static const enum tension_dungeon_event want[13] = {
	    0,
	    TENSION_DE_NOTHING,
	    TENSION_DE_NOTHING,
	    TENSION_DE_NOTHING,
	    TENSION_DE_NOTHING,
	    TENSION_DE_NOTHING,
	    TENSION_DE_LIGHT,
	    TENSION_DE_EFFECT,
	    TENSION_DE_EFFECT,
	    TENSION_DE_EFFECT,
	    TENSION_DE_EFFECT,
	    TENSION_DE_SOUNDS,
	    TENSION_DE_SOUNDS,
	};

	for (int d = 1; d <= 12; d++)
		assert_int_equal(tension_dungeon_event_of(d), want[d]);
	assert_string_equal(tension_dungeon_event_text(TENSION_DE_LIGHT),
	                    "a non-magical light source fails");
	assert_string_equal(tension_dungeon_event_text(TENSION_DE_SOUNDS), "enemy or NPC sounds");
	assert_string_equal(tension_dungeon_event_range(TENSION_DE_EFFECT), "7-10");
	assert_string_equal(tension_dungeon_event_range(TENSION_DE_NOTHING), "1-5");
}

static const char *const encounter_rows[21] = {
    NULL,
    "a lost adventurer",
    "a lost adventurer",
    "a lost adventurer",
    "a lost adventurer",
    "1d4 goblins",
    "1d4 goblins",
    "1d4 goblins",
    "1d4 goblins",
    "2d4 goblins",
    "2d4 goblins",
    "2d4 goblins",
    "2d4 goblins",
    "2d6 orcs",
    "2d6 orcs",
    "2d6 orcs",
    "2d6 orcs",
    "4d6 orcs",
    "4d6 orcs",
    "4d6 orcs",
    "4d6 orcs",
};

static const char *const effect_rows[10] = {
    "2d6 hidden gold pieces glimmer in a corner",
    "tracks lead toward a pre-set encounter",
    "a fresh breeze shows the way to the nearest exit",
    "slime tracks on the walls hint at oozes nearby",
    "an unnatural draft makes torches flicker",
    "a pocket of toxic gas, CON save or 1d6 poison damage",
    "a tremor drops roof tiles, DEX save or 1d8 bludgeoning damage",
    "a sudden drop in temperature, something approaches",
    "gas makes the air unbreathable, everyone must move",
    "a structural collapse blocks an exit",
};

static void
every_default_table_row(void **unused)
{
	struct roll_table enc, eff;
	struct tension_pick p;

	tension_table_default(TENSION_TABLE_ENCOUNTER, &enc);
	tension_table_default(TENSION_TABLE_EFFECTS, &eff);
	assert_int_equal(enc.n, 5);
	assert_int_equal(eff.n, 10);
	for (int v = 1; v <= 20; v++) {
		assert_string_equal(roll_table_lookup(&enc, v)->text, encounter_rows[v]);
		assert_string_equal(roll_table_lookup(&eff, v)->text, effect_rows[(v - 1) / 2]);
	}
	/* d10 + Tension spans 2 (1 + 1) to 20 (10 + 10) */
	tension_pick_at(&enc, 1, 1, &p);
	assert_int_equal(p.total, 2);
	assert_int_equal(p.index, 0);
	assert_false(p.struck);
	tension_pick_at(&enc, 10, 10, &p);
	assert_int_equal(p.total, 20);
	assert_int_equal(p.index, 4);
	tension_pick_at(&eff, 3, 6, &p);
	assert_int_equal(p.total, 9);
	assert_string_equal(eff.e[p.index].text, "an unnatural draft makes torches flicker");
	assert_int_equal(tension_table_find("effects"), TENSION_TABLE_EFFECTS);
	assert_int_equal(tension_table_find("Encounter"), TENSION_TABLE_ENCOUNTER);
	assert_int_equal(tension_table_find("monsters"), -1);
}

static void
struck_entries_give_nothing(void **unused)
{
	struct roll_table enc;
	struct tension_pick p;

	tension_table_default(TENSION_TABLE_ENCOUNTER, &enc);
	enc.e[2].struck = true; /* 9-12 2d4 goblins */
	tension_pick_at(&enc, 4, 5, &p);
	assert_int_equal(p.total, 9);
	assert_int_equal(p.index, 2);
	assert_true(p.struck);
	tension_pick_at(&enc, 3, 5, &p); /* 8: 1d4 goblins is not struck */
	assert_int_equal(p.index, 1);
	assert_false(p.struck);
	tension_pick_at(&enc, 8, 5, &p); /* 13: 2d6 orcs */
	assert_false(p.struck);
}

/* Rolls with a fixed seed over the default tables. */
static void
roll(uint64_t seed, int tension, int exits, const struct roll_table *enc, struct tension_roll *out)
{
	struct rng *r = rng_new_seeded(seed);
	struct roll_table def, eff;

	tension_table_default(TENSION_TABLE_ENCOUNTER, &def);
	tension_table_default(TENSION_TABLE_EFFECTS, &eff);
	tension_roll(r, tension, exits, false, enc != NULL ? enc : &def, &eff, NULL, out);
	rng_free(r);
}

static void
check_when_d12_equals_exits(void **unused)
{
	struct tension_roll t;

	/* seed 9: event d12 1, encounter d12 4 */
	roll(9, 1, 4, NULL, &t);
	assert_int_equal(t.event_d12, 1);
	assert_int_equal(t.event, TENSION_DE_NOTHING);
	assert_false(t.event_happens);
	assert_int_equal(t.check.roll, 4);
	assert_true(t.check.by_exits);
	assert_false(t.check.by_tension);
	assert_true(t.check.encounter);
	assert_true(t.encounter_happens);
	assert_int_equal(t.encounter.d10, 2);
	assert_int_equal(t.encounter.total, 3);
	assert_int_equal(t.encounter.index, 0); /* a lost adventurer */
	/* one exit fewer: 4 > 3 and 4 > 1 */
	roll(9, 1, 3, NULL, &t);
	assert_int_equal(t.check.roll, 4);
	assert_false(t.check.encounter);
	assert_false(t.encounter_happens);
}

static void
check_when_d12_equals_tension(void **unused)
{
	struct tension_roll t;

	/* seed 5: event d12 4, encounter d12 8 */
	roll(5, 8, 1, NULL, &t);
	assert_int_equal(t.event_d12, 4);
	assert_int_equal(t.check.roll, 8);
	assert_false(t.check.by_exits);
	assert_true(t.check.by_tension);
	assert_true(t.encounter_happens);
	roll(5, 7, 1, NULL, &t);
	assert_int_equal(t.check.roll, 8);
	assert_false(t.check.encounter);
}

static void
tension_ten_without_exits(void **unused)
{
	struct tension_roll t;

	/* seed 12: encounter d12 10 <= Tension 10 */
	roll(12, 10, 0, NULL, &t);
	assert_int_equal(t.check.roll, 10);
	assert_false(t.check.by_exits);
	assert_true(t.check.by_tension);
	assert_true(t.encounter_happens);
	/* seed 4: encounter d12 11 > 10: even Tension 10 misses */
	roll(4, 10, 0, NULL, &t);
	assert_int_equal(t.check.roll, 11);
	assert_false(t.check.encounter);
	assert_int_equal(t.exits, 0);
}

static void
event_and_encounter_both(void **unused)
{
	struct tension_roll t;
	struct roll_table enc;

	/* seed 3: event d12 9 (effect d10 7), encounter d12 3 (d10 6) */
	roll(3, 5, 3, NULL, &t);
	assert_int_equal(t.event_d12, 9);
	assert_int_equal(t.event, TENSION_DE_EFFECT);
	assert_int_equal(t.effect.d10, 7);
	assert_int_equal(t.effect.total, 12);
	assert_int_equal(t.effect.index, 5); /* 11-12 a pocket of toxic gas */
	assert_true(t.event_happens);
	assert_int_equal(t.check.roll, 3);
	assert_true(t.check.by_exits);
	assert_true(t.check.by_tension);
	assert_int_equal(t.encounter.d10, 6);
	assert_int_equal(t.encounter.total, 11);
	assert_int_equal(t.encounter.index, 2); /* 9-12 2d4 goblins */
	assert_true(t.encounter_happens);
	/* the same roll with 2d4 goblins struck: the check triggers, but the
	 * dungeon has no more of them */
	tension_table_default(TENSION_TABLE_ENCOUNTER, &enc);
	enc.e[2].struck = true;
	roll(3, 5, 3, &enc, &t);
	assert_true(t.check.encounter);
	assert_true(t.encounter.struck);
	assert_false(t.encounter_happens);
	assert_true(t.event_happens);
}

static void
light_and_sounds(void **unused)
{
	struct tension_roll t;

	roll(23, 3, 1, NULL, &t); /* seed 23: event d12 6 */
	assert_int_equal(t.event_d12, 6);
	assert_int_equal(t.event, TENSION_DE_LIGHT);
	assert_true(t.event_happens);
	roll(10, 3, 1, NULL, &t); /* seed 10: event d12 12 */
	assert_int_equal(t.event_d12, 12);
	assert_int_equal(t.event, TENSION_DE_SOUNDS);
	assert_true(t.event_happens);
}

static void
dice_in_entries_are_rolled(void **unused)
{
	struct tension_roll t;
	struct roll_table enc, calm;
	struct tension_pick p;
	struct rng *r;
	char err[200] = "";

	/* seed 3 draws d12 9, d10 7, d12 3, d10 6, then 1d6 3 (toxic gas)
	 * and 2d4 2+1 (goblins) */
	roll(3, 5, 3, NULL, &t);
	assert_int_equal(t.effect.ndice, 1);
	assert_string_equal(t.effect.text,
	                    "a pocket of toxic gas, CON save or 3 poison damage (1d6: 3)");
	assert_int_equal(t.encounter.ndice, 1);
	assert_string_equal(t.encounter.text, "3 goblins (2d4: 2+1)");
	/* a struck entry rolls nothing and keeps its text */
	tension_table_default(TENSION_TABLE_ENCOUNTER, &enc);
	enc.e[2].struck = true;
	roll(3, 5, 3, &enc, &t);
	assert_int_equal(t.encounter.ndice, 0);
	assert_string_equal(t.encounter.text, "2d4 goblins");
	assert_string_equal(t.effect.text,
	                    "a pocket of toxic gas, CON save or 3 poison damage (1d6: 3)");
	/* dice inside the tables never move the d12s: without the effect's
	 * 1d6 the encounter check and its d10 are the same */
	assert_int_equal(tension_table_parse("1-20 calm", &calm, err, sizeof(err)), 0);
	r = rng_new_seeded(3);
	tension_roll(r, 5, 3, false, &enc, &calm, NULL, &t);
	rng_free(r);
	assert_int_equal(t.effect.ndice, 0);
	assert_string_equal(t.effect.text, "calm");
	assert_int_equal(t.check.roll, 3);
	assert_int_equal(t.encounter.d10, 6);
	/* two expressions in one entry; seed 1 draws d10 8, 1d4 3, 1d6 4 */
	assert_int_equal(
	    tension_table_parse("1-20 1d4 goblins and 1d6 rats", &calm, err, sizeof(err)), 0);
	r = rng_new_seeded(1);
	tension_pick(r, &calm, 2, NULL, &p);
	rng_free(r);
	assert_int_equal(p.d10, 8);
	assert_int_equal(p.total, 10);
	assert_int_equal(p.ndice, 2);
	assert_string_equal(p.text, "3 goblins and 4 rats (1d4: 3; 1d6: 4)");
	/* a lookup alone rolls nothing */
	tension_pick_at(&calm, 8, 2, &p);
	assert_int_equal(p.ndice, 0);
	assert_string_equal(p.text, "1d4 goblins and 1d6 rats");
	/* struck entries and entries without dice roll nothing more than the
	 * d10 (seed 1: d10 8, then d10 6) */
	r = rng_new_seeded(1);
	tension_pick(r, &enc, 1, NULL, &p); /* 8 + 1 = 9: the struck 2d4 goblins */
	assert_true(p.struck);
	assert_string_equal(p.text, "2d4 goblins");
	assert_int_equal(rng_draws(r), 1);
	assert_int_equal(tension_table_parse("1-20 a lost adventurer", &calm, err, sizeof(err)), 0);
	tension_pick(r, &calm, 1, NULL, &p);
	assert_int_equal(p.d10, 6);
	assert_false(p.struck);
	assert_int_equal(p.ndice, 0);
	assert_string_equal(p.text, "a lost adventurer");
	assert_int_equal(rng_draws(r), 2);
	rng_free(r);
}

/* Safe areas (where monsters do not go) get the dungeon event but no
 * encounter check: seed 3 at Tension 5 with 3 exits draws event d12 9,
 * effects d10 7 and encounter d12 3 (an encounter) when not safe. */
static void
safe_area_has_no_encounter_check(void **unused)
{
	struct rng *r = rng_new_seeded(3);
	struct roll_table enc, eff;
	struct tension_roll t;

	tension_table_default(TENSION_TABLE_ENCOUNTER, &enc);
	tension_table_default(TENSION_TABLE_EFFECTS, &eff);
	roll(3, 5, 3, NULL, &t);
	assert_true(t.check.encounter);
	assert_true(t.encounter_happens);
	tension_roll(r, 5, 3, true, &enc, &eff, NULL, &t);
	assert_true(t.safe);
	assert_int_equal(t.event_d12, 9);
	assert_int_equal(t.event, TENSION_DE_EFFECT);
	assert_int_equal(t.effect.d10, 7);
	assert_true(t.event_happens);
	assert_int_equal(t.check.roll, 0);
	assert_false(t.check.encounter);
	assert_false(t.encounter_happens);
	/* event d12, effects d10 and the effect's 1d6; no d12 and no d10 for
	 * an encounter */
	assert_int_equal(rng_draws(r), 3);
	rng_free(r);
}

static void
defaults_parse(void **unused)
{
	for (int k = 0; k < TENSION_TABLE_COUNT; k++) {
		struct roll_table t;
		char err[200] = "";

		assert_int_equal(
		    tension_table_parse(tension_table_default_text(k), &t, err, sizeof(err)), 0);
		assert_int_equal(t.lo, 1);
		assert_int_equal(t.hi, 20);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_event_row),
	    cmocka_unit_test(event_with_extra_reason),
	    cmocka_unit_test(new_track_starts_at_one),
	    cmocka_unit_test(clamps_at_ten),
	    cmocka_unit_test(clamps_at_one),
	    cmocka_unit_test(set_and_reset_are_recorded),
	    cmocka_unit_test(history_keeps_the_newest),
	    cmocka_unit_test(history_drops_runs_behind_a_screen_first),
	    cmocka_unit_test(long_reason_is_cut_on_a_character),
	    cmocka_unit_test(dungeon_event_d12),
	    cmocka_unit_test(every_default_table_row),
	    cmocka_unit_test(struck_entries_give_nothing),
	    cmocka_unit_test(check_when_d12_equals_exits),
	    cmocka_unit_test(check_when_d12_equals_tension),
	    cmocka_unit_test(tension_ten_without_exits),
	    cmocka_unit_test(event_and_encounter_both),
	    cmocka_unit_test(light_and_sounds),
	    cmocka_unit_test(dice_in_entries_are_rolled),
	    cmocka_unit_test(safe_area_has_no_encounter_check),
	    cmocka_unit_test(defaults_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
