/* Unit tests for commands/procedure/procedure_state: the save/load round trip of a
 * channel's procedure state, and loads that must be refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/procedure/procedure_state.h"

static char *
save_text(const struct procedure_state *s)
{
	cJSON *o = procedure_state_mod.save(s);
	char *text = cJSON_PrintUnformatted(o);

	cJSON_Delete(o);
	return text;
}

/* Loads text into a fresh state: 0, or -1 with err filled. */
static int
load_text(const char *text, struct procedure_state **out, char *err, size_t errlen)
{
	cJSON *o = cJSON_Parse(text);
	struct procedure_state *s = procedure_state_mod.create();
	int r;

	assert_non_null(o);
	r = procedure_state_mod.load(s, o, err, errlen);
	cJSON_Delete(o);
	if (r < 0) {
		procedure_state_mod.destroy(s);
		*out = NULL;
	} else {
		*out = s;
	}
	return r;
}

static void
round_trip(const struct procedure_state *s)
{
	char *a = save_text(s), *b, err[200] = "";
	struct procedure_state *t;

	assert_int_equal(load_text(a, &t, err, sizeof(err)), 0);
	b = save_text(t);
	assert_string_equal(a, b);
	free(a);
	free(b);
	procedure_state_mod.destroy(t);
}

static void
fresh_state(void **unused)
{
	struct procedure_state *s = procedure_state_mod.create();
	char *text = save_text(s);

	assert_int_equal(s->table, HAZARD_EXPLORATION);
	assert_int_equal(s->proc, PROC_EXPLORATION);
	assert_int_equal(s->chance.x, 1);
	assert_int_equal(s->chance.n, 6);
	assert_false(s->gm_rolls);
	assert_string_equal(text,
	                    "{\"turn\":0,\"since_rest\":0,\"rest_mark\":0,\"fatigue_due\":false,"
	                    "\"lights\":[],\"next_light\":1,\"table\":\"exploration\","
	                    "\"procedure\":\"exploration\",\"chance\":[1,6],\"who\":\"anyone\","
	                    "\"wander\":\"corridor\",\"wander_chance\":[1,6],\"safe\":false}");
	free(text);
	round_trip(s);
	procedure_state_mod.destroy(s);
}

static void
full_state(void **unused)
{
	struct procedure_state *s = procedure_state_mod.create();
	struct turn_report r;
	struct turn_how how = {.effect = HZ_LIGHT};
	char err[200];

	light_add(&s->clock.lights, LIGHT_TORCH, 2, "alice", err, sizeof(err));
	light_add(&s->clock.lights, LIGHT_LANTERN, 1, "bob \"the bold\"", err, sizeof(err));
	turn_report_init(&r);
	turn_advance(&s->clock, PROC_EXPLORATION, 8, &r);
	how.effect = HZ_FATIGUE_DAMAGE;
	turn_pass(&s->clock, PROC_DELVING, &how, &r);
	how.effect = HZ_LIGHT;
	turn_pass(&s->clock, PROC_EXPLORATION, &how, &r); /* a flag to keep */
	s->clock.fatigue_due = true;
	turn_sign_set(&s->clock, "a gelatinous cube");
	s->custom = malloc(sizeof(*s->custom));
	assert_int_equal(roll_table_parse("1 Encounter: 1d4 rats; 2-3 Sign; 4-8 Nothing", 1, 8,
	                                  s->custom, err, sizeof(err)),
	                 0);
	s->table = HAZARD_CUSTOM;
	s->proc = PROC_DELVING;
	s->chance = (struct odds){2, 8};
	s->gm_rolls = true;
	s->wander = WANDER_TENSION;
	s->wander_chance = (struct odds){3, 10};
	s->safe = true;
	s->lantern_low = 3;
	s->clock.pace = PACE_WALKING;
	s->fatigue_damage = 4;
	assert_int_equal(s->clock.light_result, TURN_LIGHT_FLAGGED);
	assert_true(s->clock.fatigue_due);
	round_trip(s);
	{
		/* the GM's ruling of a flicker is kept too */
		struct procedure_state *t;
		struct light l, was = s->clock.light_was;
		char *text;

		assert_int_equal(turn_flicker(&s->clock, &l), TURN_LIGHT_FLAGGED);
		round_trip(s);
		text = save_text(s);
		assert_int_equal(load_text(text, &t, err, sizeof(err)), 0);
		assert_int_equal(turn_flicker(&t->clock, &l), TURN_LIGHT_RULED);
		free(text);
		procedure_state_mod.destroy(t);
		s->clock.light_result = TURN_LIGHT_FLAGGED;
		s->clock.light_was = was;
	}
	{
		char *text = save_text(s);
		struct procedure_state *t;

		assert_int_equal(load_text(text, &t, err, sizeof(err)), 0);
		assert_int_equal(t->clock.turn, 10);
		assert_int_equal(t->clock.lights.n, 1);
		assert_string_equal(t->clock.lights.l[0].who, "bob \"the bold\"");
		assert_string_equal(t->clock.sign, "a gelatinous cube");
		assert_int_equal(t->custom->n, 3);
		assert_string_equal(t->custom->e[0].text, "Encounter: 1d4 rats");
		assert_int_equal(t->wander, WANDER_TENSION);
		assert_true(t->safe);
		assert_int_equal(t->lantern_low, 3);
		assert_int_equal(t->clock.pace, PACE_WALKING);
		assert_int_equal(t->fatigue_damage, 4);
		free(text);
		procedure_state_mod.destroy(t);
	}
	procedure_state_mod.destroy(s);
}

/* The Light result's state as procedure records saved before it was one
 * enum hold it (copied from records the bot wrote): flagged, only
 * flickered (just lit), and ruled a flicker by the GM. Each loads as
 * that state, saves back byte for byte, and /light flicker reads it as
 * it did (turn_flicker's 0, 1 and 2 then). */
static void
light_results_saved_before_load_the_same(void **unused)
{
	static const char *const head =
	    "{\"turn\":2,\"since_rest\":2,\"rest_mark\":0,\"fatigue_due\":false,\"lights\":";
	static const char *const tail =
	    "\"table\":\"exploration\",\"procedure\":\"exploration\",\"chance\":[1,6],\"who\":"
	    "\"anyone\",\"wander\":\"corridor\",\"wander_chance\":[1,6],\"safe\":false}";
	static const struct {
		const char *mid;
		enum turn_light_result result, rules, after;
	} saved[] = {
	    {"[],\"next_light\":2,\"flagged\":{\"id\":1,\"kind\":\"torch\",\"burned\":2,\"who\":"
	     "\"\"},",
	     TURN_LIGHT_FLAGGED, TURN_LIGHT_FLAGGED, TURN_LIGHT_RULED},
	    {"[{\"id\":1,\"kind\":\"torch\",\"burned\":0,\"who\":\"\"}],\"next_light\":2,"
	     "\"flickered\":1,",
	     TURN_LIGHT_FLICKERED, TURN_LIGHT_FLICKERED, TURN_LIGHT_FLICKERED},
	    {"[{\"id\":1,\"kind\":\"torch\",\"burned\":2,\"who\":\"\"}],\"next_light\":2,"
	     "\"flickered\":1,\"flicker_ruled\":true,",
	     TURN_LIGHT_RULED, TURN_LIGHT_RULED, TURN_LIGHT_RULED},
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(saved) / sizeof(saved[0]); i++) {
		char text[1024], err[200] = "", *again;
		struct procedure_state *t;
		struct light l;

		snprintf(text, sizeof(text), "%s%s%s", head, saved[i].mid, tail);
		assert_int_equal(load_text(text, &t, err, sizeof(err)), 0);
		assert_int_equal(t->clock.light_result, saved[i].result);
		again = save_text(t);
		assert_string_equal(again, text);
		free(again);
		assert_int_equal(turn_flicker(&t->clock, &l), saved[i].rules);
		assert_int_equal(l.id, 1);
		assert_int_equal(t->clock.light_result, saved[i].after);
		procedure_state_mod.destroy(t);
	}
}

/* Vendors at every limit the commands allow (a name of VENDOR_NAME_MAX bytes,
 * in one-byte and in multi-byte letters, VENDOR_TRIED_MAX items of
 * VENDOR_ITEM_MAX bytes) load back: a record the bot writes it must read. */
static void
vendors_at_their_limits(void **unused)
{
	static const char *names[] = {"abcdefghijklmnopqrstuvwx", /* 24 bytes */
	                              "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	                              "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"};
	struct procedure_state *s = procedure_state_mod.create();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct vendor *v = procedure_state_vendor_add(s);

		assert_int_equal(strlen(names[i]), VENDOR_NAME_MAX);
		snprintf(v->name, sizeof(v->name), "%s", names[i]);
		v->stock = (struct vendor_stock){
		    .hoards = 6, .rations_d = {6, 6}, .coin_d10 = 10, .skill_d10 = 10};
		for (int j = 0; j < VENDOR_TRIED_MAX; j++) {
			char item[VENDOR_ITEM_MAX + 1];

			memset(item, 'a' + j % 26, VENDOR_ITEM_MAX);
			item[0] = (char)('A' + j % 26);
			item[VENDOR_ITEM_MAX - 1] = (char)('0' + j / 26);
			item[VENDOR_ITEM_MAX] = '\0';
			snprintf(v->tried[v->ntried++], sizeof(v->tried[0]), "%s", item);
		}
	}
	round_trip(s);
	procedure_state_mod.destroy(s);
}

/* Replaces the first "from" in the fresh state's text by "to" and checks
 * the load is refused with msg. */
static void
refused(const char *from, const char *to, const char *msg)
{
	struct procedure_state *s = procedure_state_mod.create(), *t;
	char *text = save_text(s), buf[1000], err[200] = "";
	const char *at = strstr(text, from);

	assert_non_null(at);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	assert_int_equal(load_text(buf, &t, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
	free(text);
	procedure_state_mod.destroy(s);
}

static void
bad_records(void **unused)
{
	refused("\"turn\":0", "\"turn\":-1",
	        "procedure state: 'turn' must be a whole number from 0 to 1000000.");
	refused("\"turn\":0", "\"turn\":1.5",
	        "procedure state: 'turn' must be a whole number from 0 to 1000000.");
	refused("\"fatigue_due\":false", "\"fatigue_due\":0",
	        "procedure state: 'fatigue_due' must be true or false.");
	refused("\"table\":\"exploration\"", "\"table\":\"dungeon\"",
	        "procedure state: 'table' has an unknown value 'dungeon'.");
	refused("\"table\":\"exploration\"", "\"table\":\"custom\"",
	        "procedure state: the table is custom but none is saved.");
	refused("\"chance\":[1,6]", "\"chance\":[7,6]",
	        "procedure state: 'chance' must be a valid [X, N] chance.");
	refused("\"who\":\"anyone\"", "\"who\":\"nobody\"",
	        "procedure state: 'wander' or 'who' has a value not allowed.");
	refused("\"wander\":\"corridor\"", "\"wander\":\"retreat\"",
	        "procedure state: 'wander' or 'who' has a value not allowed.");
	refused("\"lights\":[]",
	        "\"lights\":[{\"id\":1,\"kind\":\"lamp\",\"burned\":0,\"who\":\"\"}]",
	        "procedure state: 'kind' has an unknown value 'lamp'.");
	refused("\"lights\":[]",
	        "\"lights\":[{\"id\":1,\"kind\":\"torch\",\"burned\":0,\"who\":\"\"}]",
	        "procedure state: light ids must rise and stay below next_light.");
	refused("\"lights\":[]", "\"lights\":{}",
	        "procedure state: 'lights' must be a list of at most 20.");
	refused("\"safe\":false", "\"safe\":false,\"custom_die\":6,\"custom\":\"1 a; 3-6 b\"",
	        "procedure state: the custom table: entry 2: result 2 is not covered by any "
	        "entry.");
	refused("\"safe\":false", "\"safe\":false,\"pace\":\"strolling\"",
	        "procedure state: 'pace' has an unknown value 'strolling'.");
	refused("\"safe\":false", "\"safe\":false,\"fatigue_damage\":21",
	        "procedure state: 'fatigue_damage' must be a whole number from 1 to 20.");
	refused("\"safe\":false", "\"safe\":false,\"lantern_low\":0",
	        "procedure state: 'lantern_low' must be a whole number from 1 to 48.");
	/* a number past int's range is refused before it is cast (fuzz_record's
	 * finding in a Fungeon reader; the sanitized unit build checks casts) */
	refused("\"safe\":false",
	        "\"safe\":false,\"vendors\":[{\"name\":\"Mo\",\"dice\":[1e52,1,1,1,1],"
	        "\"tried\":[]}]",
	        "procedure state: a vendor's die is out of range.");
	refused("\"safe\":false", "\"safe\":false,\"sign\":{\"turn\":0}",
	        "procedure state: 'creature' must be text of at most 160 bytes.");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fresh_state),
	    cmocka_unit_test(full_state),
	    cmocka_unit_test(light_results_saved_before_load_the_same),
	    cmocka_unit_test(vendors_at_their_limits),
	    cmocka_unit_test(bad_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
