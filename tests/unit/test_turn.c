/* Unit tests for rules/turn: the turn clock and each kind of bookkeeping:
 * the rest reminder at 6 turns, delving Fatigue, lights warning and going
 * out through turns, Light flags and flickers, Burn, signs, safe areas. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/procedure/turn.h"

static struct turn_clock c;
static struct turn_report r;

static void
pass(enum procedure p, enum hazard_effect e, bool resting, bool safe)
{
	struct turn_how how = {.effect = e, .resting = resting, .safe = safe};

	turn_report_init(&r);
	turn_pass(&c, p, &how, &r);
}

/* One turn as e says, its events added to r. */
static void
pass_into(enum procedure p, enum hazard_effect e)
{
	struct turn_how how = {.effect = e};

	turn_pass(&c, p, &how, &r);
}

/* How many events of kind k r kept. */
static size_t
count(enum turn_event_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < r.n; i++)
		n += r.ev[i].kind == k;
	return n;
}

/* The kinds reported by the last pass, in order, ended by -1. */
static void
expect(const int *kinds)
{
	size_t i = 0;

	for (; kinds[i] >= 0; i++) {
		assert_true(i < r.n);
		assert_int_equal(r.ev[i].kind, kinds[i]);
	}
	assert_int_equal(r.n, i);
}

#define EXPECT(...)                                                                                \
	do {                                                                                       \
		static const int k_[] = {__VA_ARGS__, -1};                                         \
		expect(k_);                                                                        \
	} while (0)
#define NONE() assert_int_equal(r.n, 0)

static void
rest_reminder_exploration(void **unused)
{
	turn_clock_init(&c);
	for (int t = 1; t <= 5; t++) {
		pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
		NONE();
	}
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	EXPECT(TE_REST_DUE);
	assert_int_equal(r.ev[0].value, 6);
	assert_int_equal(r.ev[0].turn, 6);
	/* skipped: the CON save, then the count starts again */
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	EXPECT(TE_REST_SKIPPED);
	assert_int_equal(r.ev[0].value, 7);
	for (int t = 8; t <= 12; t++) {
		pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
		NONE();
	}
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	EXPECT(TE_REST_DUE);
	assert_int_equal(r.ev[0].value, 13);
	assert_int_equal(c.since_rest, 13);
	/* a rest starts the clock again */
	pass(PROC_EXPLORATION, HZ_NOTHING, true, false);
	EXPECT(TE_RESTED);
	assert_int_equal(c.since_rest, 0);
	assert_int_equal(c.turn, 14);
	for (int t = 1; t <= 5; t++) {
		pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
		NONE();
	}
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	EXPECT(TE_REST_DUE);
}

static void
rest_reminder_delving(void **unused)
{
	turn_clock_init(&c);
	for (int t = 1; t <= 13; t++) {
		pass(PROC_DELVING, HZ_NOTHING, false, false);
		if (t == 6 || t == 12) {
			EXPECT(TE_REST_DUE);
			assert_int_equal(r.ev[0].value, t);
		} else {
			NONE();
		}
	}
}

static void
delving_fatigue(void **unused)
{
	turn_clock_init(&c);
	pass(PROC_DELVING, HZ_FATIGUE_DAMAGE, false, false);
	EXPECT(TE_FATIGUE_PENDING);
	assert_true(c.fatigue_due);
	/* no rest next turn: the damage */
	pass(PROC_DELVING, HZ_NOTHING, false, false);
	EXPECT(TE_FATIGUE_DAMAGE);
	assert_false(c.fatigue_due);
	pass(PROC_DELVING, HZ_NOTHING, false, false);
	NONE();
	/* rested in time: avoided */
	pass(PROC_DELVING, HZ_FATIGUE_DAMAGE, false, false);
	pass(PROC_DELVING, HZ_NOTHING, true, false);
	EXPECT(TE_FATIGUE_AVOIDED, TE_RESTED);
	/* rolled while resting: ignored, nothing pending */
	pass(PROC_DELVING, HZ_FATIGUE_DAMAGE, true, false);
	EXPECT(TE_FATIGUE_IGNORED, TE_RESTED);
	assert_false(c.fatigue_due);
	/* Fatigue twice: the first is damage, the second pending again */
	pass(PROC_DELVING, HZ_FATIGUE_DAMAGE, false, false);
	pass(PROC_DELVING, HZ_FATIGUE_DAMAGE, false, false);
	EXPECT(TE_FATIGUE_PENDING, TE_FATIGUE_DAMAGE);
	assert_true(c.fatigue_due);
	/* an unrolled turn counts as not resting */
	turn_report_init(&r);
	turn_advance(&c, PROC_DELVING, 1, &r);
	EXPECT(TE_FATIGUE_DAMAGE);
}

static void
exploration_fatigue(void **unused)
{
	turn_clock_init(&c);
	pass(PROC_EXPLORATION, HZ_FATIGUE_SAVE, false, false);
	EXPECT(TE_FATIGUE_CHOICE);
	assert_false(c.fatigue_due);
	assert_int_equal(c.fatigue_asked, 1);
	/* the rest answers the last turn's Fatigue, and this turn's */
	pass(PROC_EXPLORATION, HZ_FATIGUE_SAVE, true, false);
	EXPECT(TE_FATIGUE_RESTING, TE_FATIGUE_AVOIDED, TE_RESTED);
	assert_int_equal(r.ev[1].value, 1);
	assert_int_equal(c.fatigue_asked, 0);
	pass(PROC_EXPLORATION, HZ_NOTHING, true, false);
	EXPECT(TE_RESTED);
}

static void
torches_through_turns(void **unused)
{
	char err[200];

	turn_clock_init(&c);
	light_add(&c.lights, LIGHT_TORCH, 1, "alice", err, sizeof(err));
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false); /* 1 */
	light_add(&c.lights, LIGHT_TORCH, 1, "bob", err, sizeof(err));
	for (int t = 2; t <= 4; t++) {
		pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
		NONE();
	}
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false); /* 5: alice's has 1 left */
	EXPECT(TE_LIGHT_WARN);
	assert_string_equal(r.ev[0].light.who, "alice");
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false); /* 6: out; bob's warned */
	EXPECT(TE_LIGHT_OUT, TE_LIGHT_WARN, TE_REST_DUE);
	assert_string_equal(r.ev[0].light.who, "alice");
	assert_string_equal(r.ev[1].light.who, "bob");
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false); /* 7 */
	EXPECT(TE_LIGHT_OUT, TE_REST_SKIPPED);
	assert_int_equal(c.lights.n, 0);
}

static void
light_result_and_flicker(void **unused)
{
	struct light l;
	char err[200];

	turn_clock_init(&c);
	pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
	EXPECT(TE_FLAG_NONE);
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_NONE);
	light_add(&c.lights, LIGHT_TORCH, 2, NULL, err, sizeof(err));
	/* lit just before this turn: it only flickers, and that is not a
	 * result the GM can take back: it is already a flicker */
	pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
	EXPECT(TE_FLAG_FLICKER);
	assert_int_equal(r.ev[0].light.id, 1);
	assert_int_equal(r.ev[0].light.burned, 1); /* time passed first */
	assert_int_equal(c.lights.n, 2);
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_FLICKERED);
	assert_int_equal(l.id, 1);
	assert_int_equal(l.burned, 1);
	assert_int_equal(c.lights.n, 2);
	pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
	EXPECT(TE_FLAG_OUT);
	assert_int_equal(r.ev[0].light.id, 1);
	assert_int_equal(r.ev[0].light.burned, 2);
	assert_int_equal(c.lights.n, 1);
	/* the GM rules it only flickered */
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_FLAGGED);
	assert_int_equal(l.id, 1);
	assert_int_equal(c.lights.n, 2);
	assert_int_equal(light_left(&c.lights.l[0], PROC_EXPLORATION), 4);
	/* only once: again, it says it is already ruled, unchanged */
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_RULED);
	assert_int_equal(l.id, 1);
	assert_int_equal(c.lights.n, 2);
	assert_int_equal(light_left(&c.lights.l[0], PROC_EXPLORATION), 4);
	/* a flag lasts only its turn */
	pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_NONE);
	/* a lantern runs low to an hour of oil (the default mark), and the
	 * flicker gives its oil back */
	turn_clock_init(&c);
	light_add(&c.lights, LIGHT_LANTERN, 1, NULL, err, sizeof(err));
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
	EXPECT(TE_FLAG_LOW);
	assert_int_equal(r.ev[0].value, 6);
	assert_int_equal(light_left(&r.ev[0].light, PROC_EXPLORATION), 34);
	assert_int_equal(light_left(&c.lights.l[0], PROC_EXPLORATION), 6);
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_FLAGGED);
	assert_int_equal(light_left(&c.lights.l[0], PROC_EXPLORATION), 34);
	/* the channel's own mark (how.lantern_low); unflickered, the low
	 * lantern goes out the next turn */
	{
		struct turn_how how = {.effect = HZ_LIGHT, .lantern_low = 1};

		turn_report_init(&r);
		turn_pass(&c, PROC_EXPLORATION, &how, &r);
		EXPECT(TE_FLAG_LOW);
		assert_int_equal(r.ev[0].value, 1);
	}
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	EXPECT(TE_LIGHT_OUT);
	/* a change to the lights forgets the flag */
	light_add(&c.lights, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
	assert_int_equal(r.ev[0].kind, TE_FLAG_OUT);
	turn_flag_clear(&c);
	assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_NONE);
	/* and a flicker, which also lasts only its turn */
	for (int clear = 0; clear < 2; clear++) {
		turn_clock_init(&c);
		light_add(&c.lights, LIGHT_TORCH, 1, NULL, err, sizeof(err));
		pass(PROC_EXPLORATION, HZ_LIGHT, false, false);
		EXPECT(TE_FLAG_FLICKER);
		if (clear)
			turn_flag_clear(&c);
		else
			pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
		assert_int_equal(turn_flicker(&c, &l), TURN_LIGHT_NONE);
	}
}

static void
burn_result(void **unused)
{
	char err[200];

	turn_clock_init(&c);
	pass(PROC_DELVING, HZ_BURN, false, false);
	EXPECT(TE_BURN_NONE);
	light_add(&c.lights, LIGHT_TORCH, 2, NULL, err, sizeof(err));
	light_add(&c.lights, LIGHT_CANDLE, 1, NULL, err, sizeof(err));
	pass(PROC_DELVING, HZ_BURN, false, false);
	EXPECT(TE_BURN_OUT, TE_BURN_OUT);
	assert_int_equal(c.lights.n, 1);
	assert_int_equal(c.lights.l[0].kind, LIGHT_CANDLE);
	/* the candle lasts the expedition: 48 turns from when it was lit */
	turn_report_init(&r);
	turn_advance(&c, PROC_DELVING, 45, &r);
	assert_int_equal(c.lights.n, 1);
	pass(PROC_DELVING, HZ_NOTHING, false, false); /* 48: 8 x 6 turns unrested */
	EXPECT(TE_LIGHT_WARN, TE_REST_DUE);
	pass(PROC_DELVING, HZ_NOTHING, false, false);
	EXPECT(TE_LIGHT_OUT);
	assert_int_equal(c.turn, 49);
}

static void
signs_and_encounters(void **unused)
{
	char err[200];

	turn_clock_init(&c);
	/* a lantern, so that no encounter here is met in total darkness */
	light_add(&c.lights, LIGHT_LANTERN, 1, NULL, err, sizeof(err));
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_ENCOUNTER);
	pass(PROC_DELVING, HZ_SIGN_CREATURE, false, false);
	EXPECT(TE_SIGN_REMEMBERED);
	assert_true(c.sign_set);
	assert_int_equal(c.sign_turn, 2);
	turn_sign_set(&c, "an owlbear");
	/* a safe area has no encounter and keeps the sign */
	pass(PROC_DELVING, HZ_ENCOUNTER, false, true);
	EXPECT(TE_SAFE_AREA);
	assert_true(c.sign_set);
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_SIGN_MET);
	assert_int_equal(r.ev[0].value, 2);
	assert_string_equal(r.sign, "an owlbear");
	assert_false(c.sign_set);
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_ENCOUNTER);
	/* a newer sign replaces the one remembered */
	pass(PROC_DELVING, HZ_SIGN_CREATURE, false, false);
	turn_sign_set(&c, "rats");
	pass(PROC_DELVING, HZ_SIGN_CREATURE, false, false);
	assert_int_equal(c.sign_turn, 7);
	assert_string_equal(c.sign, "");
	/* naming one with no sign remembers it now; "" forgets */
	turn_sign_set(&c, "");
	assert_false(c.sign_set);
	turn_sign_set(&c, "a ghoul");
	assert_true(c.sign_set);
	assert_int_equal(c.sign_turn, 7);
	/* exploration signs are only hints */
	pass(PROC_EXPLORATION, HZ_SIGN, false, false);
	EXPECT(TE_SIGN_HINT);
	/* ... and a safe area has none, as a rolled Sign finds none there */
	pass(PROC_EXPLORATION, HZ_SIGN, false, true);
	EXPECT(TE_SIGN_SAFE);
	pass(PROC_DELVING, HZ_SHIFT, false, false);
	EXPECT(TE_SHIFT);
}

static void
sign_from_the_encounter_table(void **unused)
{
	struct rng *a = rng_new_seeded(5), *b = rng_new_seeded(5);
	struct turn_how how = {.effect = HZ_SIGN_CREATURE, .tension = 10};
	struct roll_table t;
	char err[200], want[80], name[400];

	assert_int_equal(
	    roll_table_parse("1-10 rats; 11-20 1d4 goblins", 1, 20, &t, err, sizeof(err)), 0);
	how.encounters = &t;
	how.rng = a;
	turn_clock_init(&c);
	turn_report_init(&r);
	turn_pass(&c, PROC_DELVING, &how, &r);
	EXPECT(TE_SIGN_REMEMBERED);
	{
		int d10 = (int)rng_die(b, 10), goblins = (int)rng_die(b, 4);

		assert_int_equal(r.pick.d10, d10);
		assert_int_equal(r.pick.total, d10 + 10);
		snprintf(want, sizeof(want), "%d goblins (1d4: %d)", goblins, goblins);
	}
	assert_string_equal(r.sign, want);
	assert_string_equal(c.sign, want);
	assert_true(c.sign_set);
	/* the goblins were defeated: a struck entry leaves no creature */
	t.e[1].struck = true;
	turn_report_init(&r);
	turn_pass(&c, PROC_DELVING, &how, &r);
	EXPECT(TE_SIGN_STRUCK);
	assert_false(c.sign_set);
	/* a long name is cut on a character boundary */
	memset(name, 0, sizeof(name));
	name[0] = 'x';
	for (int i = 0; i < 100; i++)
		memcpy(name + 1 + 2 * i, "\xc3\xa9", 2); /* é */
	turn_sign_set(&c, name);
	/* 160 bytes would end inside an é: "x" and 79 of them */
	assert_int_equal(strlen(c.sign), 159);
	rng_free(a);
	rng_free(b);
}

/* RULES.md section 2: a delving Encounter rolls the channel's encounter
 * table when it has one (as a Sign does), or meets the creature a Sign
 * announced; a struck entry means no encounter. Exploration's Encounter
 * stays the GM's wandering monster. */
static void
delving_encounter_rolls_the_table(void **unused)
{
	struct rng *a = rng_new_seeded(6), *b = rng_new_seeded(6);
	struct turn_how how = {.effect = HZ_ENCOUNTER, .tension = 1};
	struct roll_table t;
	char err[200];
	int d10;

	assert_int_equal(roll_table_parse("1-20 2 orcs", 1, 20, &t, err, sizeof(err)), 0);
	how.encounters = &t;
	how.rng = a;
	turn_clock_init(&c);
	light_add(&c.lights, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	turn_report_init(&r);
	turn_pass(&c, PROC_DELVING, &how, &r);
	EXPECT(TE_ENCOUNTER_ROLLED);
	d10 = (int)rng_die(b, 10);
	assert_int_equal(r.pick.d10, d10);
	assert_int_equal(r.pick.total, d10 + 1);
	assert_string_equal(r.sign, "2 orcs");
	/* struck: the dungeon's supply is finite */
	t.e[0].struck = true;
	turn_report_init(&r);
	turn_pass(&c, PROC_DELVING, &how, &r);
	EXPECT(TE_ENCOUNTER_STRUCK);
	/* exploration: no table roll */
	turn_report_init(&r);
	turn_pass(&c, PROC_EXPLORATION, &how, &r);
	EXPECT(TE_ENCOUNTER);
	rng_free(a);
	rng_free(b);
}

/* RULES.md section 2: running (a party movement setting) blows candles
 * out: at once when the party starts running, and any lit while it runs
 * at the next turn; torches and lanterns stay lit. */
static void
running_blows_candles_out(void **unused)
{
	struct light out[LIGHT_MAX];
	char err[200];

	turn_clock_init(&c);
	assert_int_equal(light_add(&c.lights, LIGHT_CANDLE, 2, NULL, err, sizeof(err)), 0);
	assert_int_equal(light_add(&c.lights, LIGHT_TORCH, 1, NULL, err, sizeof(err)), 0);
	/* a lantern's case keeps its candle from being blown out */
	assert_int_equal(light_add(&c.lights, LIGHT_LANTERN, 1, NULL, err, sizeof(err)), 0);
	assert_int_equal(turn_set_pace(&c, PACE_RUNNING, PROC_DELVING, out), 2);
	assert_int_equal(out[0].kind, LIGHT_CANDLE);
	assert_int_equal(c.lights.n, 2);
	assert_int_equal(c.lights.l[0].kind, LIGHT_TORCH);
	assert_int_equal(c.lights.l[1].kind, LIGHT_LANTERN);
	assert_int_equal(light_add(&c.lights, LIGHT_CANDLE, 1, NULL, err, sizeof(err)), 0);
	pass(PROC_DELVING, HZ_NOTHING, false, false);
	EXPECT(TE_CANDLE_BLOWN);
	assert_int_equal(c.lights.n, 2);
	assert_int_equal(turn_set_pace(&c, PACE_WALKING, PROC_DELVING, out), 0);
	assert_int_equal(light_add(&c.lights, LIGHT_CANDLE, 1, NULL, err, sizeof(err)), 0);
	pass(PROC_DELVING, HZ_NOTHING, false, false);
	assert_int_equal(c.lights.n, 3);
}

/* F17: the delving text blows candles out at running speed; a turn of rest
 * is no running (003: "Rest means sitting", 002), so it blows no candle
 * out, and the party's pace does not surprise it then (darkness still
 * does). The next turn on the move, the candle goes. */
static void
resting_is_not_running(void **unused)
{
	struct light out[LIGHT_MAX];
	char err[200];

	turn_clock_init(&c);
	assert_int_equal(turn_set_pace(&c, PACE_RUNNING, PROC_DELVING, out), 0);
	assert_int_equal(light_add(&c.lights, LIGHT_CANDLE, 1, NULL, err, sizeof(err)), 0);
	pass(PROC_DELVING, HZ_ENCOUNTER, true, false);
	EXPECT(TE_ENCOUNTER, TE_RESTED);
	assert_int_equal(c.lights.n, 1);
	pass(PROC_DELVING, HZ_NOTHING, false, false);
	EXPECT(TE_CANDLE_BLOWN);
	assert_int_equal(c.lights.n, 0);
	/* in the dark, a rest is surprised all the same */
	pass(PROC_DELVING, HZ_ENCOUNTER, true, false);
	EXPECT(TE_ENCOUNTER, TE_SURPRISED, TE_RESTED);
	assert_int_equal(r.ev[1].value, -1);
}

/* The delving text: walking and running parties, and any party in total
 * darkness, are surprised by all encounters; crawling in the light they
 * are not (the GM rolls surprise as usual). */
static void
delving_encounters_surprise(void **unused)
{
	struct light out[LIGHT_MAX];
	char err[200];

	turn_clock_init(&c);
	assert_int_equal(turn_pace_parse("Walking"), PACE_WALKING);
	assert_int_equal(turn_pace_parse("strolling"), -1);
	assert_string_equal(turn_pace_name(PACE_RUNNING), "running");
	light_add(&c.lights, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_ENCOUNTER);
	turn_set_pace(&c, PACE_WALKING, PROC_DELVING, out);
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_ENCOUNTER, TE_SURPRISED);
	assert_int_equal(r.ev[1].value, PACE_WALKING);
	/* a sign's creature met while running */
	pass(PROC_DELVING, HZ_SIGN_CREATURE, false, false);
	turn_set_pace(&c, PACE_RUNNING, PROC_DELVING, out);
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_SIGN_MET, TE_SURPRISED);
	assert_int_equal(r.ev[1].value, PACE_RUNNING);
	/* crawling in the dark */
	turn_set_pace(&c, PACE_CRAWLING, PROC_DELVING, out);
	light_remove(&c.lights, 0);
	pass(PROC_DELVING, HZ_ENCOUNTER, false, false);
	EXPECT(TE_ENCOUNTER, TE_SURPRISED);
	assert_int_equal(r.ev[1].value, -1);
	/* exploration has no such rule (a rest turn, as the sixth is due one); a
	 * safe area has no encounter */
	pass(PROC_EXPLORATION, HZ_ENCOUNTER, true, false);
	EXPECT(TE_ENCOUNTER, TE_RESTED);
	pass(PROC_DELVING, HZ_ENCOUNTER, false, true);
	EXPECT(TE_SAFE_AREA);
}

static void
advance_reports_each_turn(void **unused)
{
	char err[200];

	turn_clock_init(&c);
	light_add(&c.lights, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	turn_report_init(&r);
	turn_advance(&c, PROC_EXPLORATION, 7, &r);
	EXPECT(TE_LIGHT_WARN, TE_LIGHT_OUT, TE_REST_DUE, TE_REST_SKIPPED);
	assert_int_equal(r.ev[0].turn, 5);
	assert_int_equal(r.ev[1].turn, 6);
	assert_int_equal(r.ev[2].turn, 6);
	assert_int_equal(r.ev[3].turn, 7);
	assert_int_equal(c.turn, 7);
	/* a day: 144 turns; events past the cap are counted, not kept */
	turn_clock_init(&c);
	light_add(&c.lights, LIGHT_LANTERN, 20, NULL, err, sizeof(err));
	turn_report_init(&r);
	turn_advance(&c, PROC_EXPLORATION, TURN_ADVANCE_MAX, &r);
	assert_int_equal(c.turn, 144);
	assert_int_equal(r.n, TURN_EVENTS_MAX);
	/* 20 warnings, 20 outs, 20 reminders (turns 6, 13, ..., 139), 20 skips (7, ..., 140) */
	assert_int_equal(r.n + r.dropped, 20 + 20 + 20 + 20);
	/* what was not kept is reminders: every out and every skip is there */
	assert_int_equal(r.dropped_key, 0);
	assert_int_equal(count(TE_LIGHT_OUT), 20);
	assert_int_equal(count(TE_REST_SKIPPED), 20);
	/* more than a day at once is cut to a day */
	turn_advance(&c, PROC_EXPLORATION, 1000, &r);
	assert_int_equal(c.turn, 288);
}

/* A report full of reminders still keeps every light going out: a
 * report may span several advances (turn_report_init once), here a day
 * unlit (40 rest events) and then a day with 20 lanterns, whose 20
 * warnings and 20 outs (turns 179 and 180) come after the 50th event. */
static void
full_report_keeps_lights_going_out(void **unused)
{
	char err[200];
	size_t i;

	turn_clock_init(&c);
	turn_report_init(&r);
	turn_advance(&c, PROC_EXPLORATION, TURN_ADVANCE_MAX, &r);
	assert_int_equal(r.n, 40);
	assert_int_equal(light_add(&c.lights, LIGHT_LANTERN, 20, NULL, err, sizeof(err)), 0);
	turn_advance(&c, PROC_EXPLORATION, TURN_ADVANCE_MAX, &r);
	assert_int_equal(c.turn, 288);
	assert_int_equal(c.lights.n, 0);
	assert_int_equal(r.n, TURN_EVENTS_MAX);
	assert_int_equal(r.dropped_key, 0);
	assert_int_equal(count(TE_LIGHT_OUT), 20);
	/* 20 skips the first day (turns 7 to 140) and 21 the second (147 to
	 * 287), as many reminders; the reminders and warnings gave their places */
	assert_int_equal(count(TE_REST_SKIPPED), 41);
	assert_int_equal(r.n + r.dropped, 41 + 41 + 20 + 20);
	/* in order of turns still, the outs at turn 180 */
	for (i = 1; i < r.n; i++)
		assert_true(r.ev[i - 1].turn <= r.ev[i].turn);
	for (i = 0; i < r.n; i++)
		if (r.ev[i].kind == TE_LIGHT_OUT)
			assert_int_equal(r.ev[i].turn, 180);
	/* a report whose every event matters loses one that matters, counted */
	turn_clock_init(&c);
	turn_report_init(&r);
	assert_int_equal(light_add(&c.lights, LIGHT_TORCH, 20, NULL, err, sizeof(err)), 0);
	for (i = 0; i < 4; i++) {
		pass_into(PROC_DELVING, HZ_BURN);
		assert_int_equal(light_add(&c.lights, LIGHT_TORCH, 20, NULL, err, sizeof(err)), 0);
	}
	assert_int_equal(r.n, TURN_EVENTS_MAX);
	assert_int_equal(r.dropped, 4 * 20 - TURN_EVENTS_MAX);
	assert_int_equal(r.dropped_key, r.dropped);
}

static void
counter_stops(void **unused)
{
	turn_clock_init(&c);
	c.turn = TURN_MAX;
	c.since_rest = TURN_MAX;
	c.rest_mark = TURN_MAX;
	pass(PROC_EXPLORATION, HZ_NOTHING, false, false);
	assert_int_equal(c.turn, TURN_MAX);
	assert_int_equal(c.since_rest, TURN_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(rest_reminder_exploration),
	    cmocka_unit_test(rest_reminder_delving),
	    cmocka_unit_test(delving_fatigue),
	    cmocka_unit_test(exploration_fatigue),
	    cmocka_unit_test(torches_through_turns),
	    cmocka_unit_test(light_result_and_flicker),
	    cmocka_unit_test(burn_result),
	    cmocka_unit_test(signs_and_encounters),
	    cmocka_unit_test(sign_from_the_encounter_table),
	    cmocka_unit_test(delving_encounter_rolls_the_table),
	    cmocka_unit_test(running_blows_candles_out),
	    cmocka_unit_test(resting_is_not_running),
	    cmocka_unit_test(delving_encounters_surprise),
	    cmocka_unit_test(advance_reports_each_turn),
	    cmocka_unit_test(full_report_keeps_lights_going_out),
	    cmocka_unit_test(counter_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
