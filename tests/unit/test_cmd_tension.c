/*
 * Unit tests for /tension (commands/cmd_tension*.c) and its channel state
 * (commands/tension_state.c): replies, GM enforcement, hidden mode, tables,
 * strikes, errors that leave the state unchanged, and the save/load round
 * trip.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands/core/dispatch.h"
#include "commands/core/memstore.h"
#include "commands/tension/cmd_tension.h"
#include "commands/tension/tension_state.h"
#include "rules/base/rng.h"

struct fx {
	struct dispatch *d;
	struct state *st;
	struct rng *rng;
	struct memstore mem;
	struct reply *out;
	struct channel *ch;
	char *text;    /* the last reply as plain text */
	int persisted; /* channel records handed to persistence */
};

static int
persist(struct channel *ch, void *ctx)
{
	struct fx *f = ctx;

	(void)ch;
	f->persisted++;
	return 0;
}

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->st = state_new();
	f->rng = rng_new_seeded(3);
	memstore_init(&f->mem, f->st);
	f->mem.chan_fn = persist;
	f->mem.ctx = f;
	f->d = dispatch_new(&(struct dispatch_opts){.state = f->st, .rng = f->rng});
	dispatch_set_store(f->d, &memstore_ops, &f->mem);
	f->out = reply_new();
	f->ch = state_channel(f->st, "test:chan");
	channel_set_gm(f->ch, "test:gm", "Greta");
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	free(f->text);
	reply_free(f->out);
	dispatch_free(f->d);
	memstore_clear(&f->mem);
	rng_free(f->rng);
	state_free(f->st);
	free(f);
	return 0;
}

/* Runs line as user (the GM is "gm") and returns the reply as plain text:
 * the channel message, then "[private]" and the invoker's. */
static const char *
run(struct fx *f, const char *user, const char *line)
{
	struct origin o = {.platform = "test"};

	snprintf(o.chan_key, sizeof(o.chan_key), "test:chan");
	snprintf(o.user_key, sizeof(o.user_key), "test:%s", user);
	/* The GM (test:gm) is Greta, as the seat says. */
	snprintf(o.user_name, sizeof(o.user_name), "%s", strcmp(user, "gm") == 0 ? "Greta" : user);
	reply_clear(f->out);
	dispatch_line(f->d, &o, line, strlen(line), 1000, f->out);
	free(f->text);
	f->text = reply_plain(f->out);
	return f->text;
}

/* The channel's line for a change to the Tension tables behind the screen. */
#define EDITED_LINE "The GM changed the Tension tables behind the screen.\n"

static const struct tension_state *
ts(struct fx *f)
{
	return channel_mod_peek(f->ch, CHANMOD_TENSION);
}

static char *saved_text(const struct tension_state *s);

static void
fresh_channel_reads_one(void **state)
{
	struct fx *f = *state;
	struct roll_table t;

	assert_int_equal(tension_state_value(f->ch), 1);
	assert_false(tension_state_hidden(f->ch));
	tension_state_table(f->ch, TENSION_TABLE_ENCOUNTER, &t);
	assert_string_equal(t.e[0].text, "a lost adventurer");
	/* reading created nothing */
	assert_null(ts(f));
	assert_string_equal(run(f, "ann", "/tension"),
	                    "Tension █░░░░░░░░░ 1/10\n"
	                    "Mode: open (everyone sees Tension and its rolls).\n"
	                    "No changes yet; a new dungeon starts at 1.\n");
}

static void
raise_by_event_and_clamp(void **state)
{
	struct fx *f = *state;

	assert_string_equal(run(f, "gm", "/tension raise combat"),
	                    "Tension raised 1 → 3 (+2): normal combat.\n"
	                    "Tension ███░░░░░░░ 3/10\n");
	assert_int_equal(f->persisted, 1);
	assert_int_equal(tension_state_value(f->ch), 3);
	assert_string_equal(run(f, "gm", "/tension raise enemy-escaped the goblin ran"),
	                    "Tension raised 3 → 7 (+4): combat in which an enemy escaped (the "
	                    "goblin ran).\n"
	                    "Tension ███████░░░ 7/10\n");
	assert_string_equal(run(f, "gm", "/tension raise enemy-escaped"),
	                    "Tension raised 7 → 10 (+4, clamped at 10, the most it can be): "
	                    "combat in which an enemy escaped.\n"
	                    "Tension ██████████ 10/10\n");
	assert_string_equal(run(f, "gm", "/tension raise door"),
	                    "Tension stays at 10 (+1, clamped at 10, the most it can be): "
	                    "breaking down a stuck or locked door.\n"
	                    "Tension ██████████ 10/10\n");
	assert_string_equal(run(f, "gm", "/tension set 2"), "Tension set 10 → 2: GM's choice.\n"
	                                                    "Tension ██░░░░░░░░ 2/10\n");
	assert_string_equal(run(f, "gm", "/tension lower objective"),
	                    "Tension lowered 2 → 1 (-3, clamped at 1, the least it can be): "
	                    "achieving a major objective.\n"
	                    "Tension █░░░░░░░░░ 1/10\n");
	assert_string_equal(
	    run(f, "gm", "/tension raise amount:2 reason:\"the bridge creaks\""),
	    "Tension raised 1 → 3 (+2): the bridge creaks.\nTension ███░░░░░░░ 3/10\n");
	assert_string_equal(run(f, "gm", "/tension lower amount:1 # a quiet hour"),
	                    "Tension lowered 3 → 2 (-1): a quiet hour.\n"
	                    "Tension ██░░░░░░░░ 2/10\n");
	assert_string_equal(run(f, "gm", "/tension reset"), "Tension reset 2 → 1: back to town.\n"
	                                                    "Tension █░░░░░░░░░ 1/10\n");
	assert_string_equal(run(f, "ann", "/tension"),
	                    "Tension █░░░░░░░░░ 1/10\n"
	                    "Mode: open (everyone sees Tension and its rolls).\n"
	                    "Last changes, oldest first:\n"
	                    "  set 2 | 10 → 2 | GM's choice\n"
	                    "  -3 (clamped) | 2 → 1 | achieving a major objective\n"
	                    "  +2 | 1 → 3 | the bridge creaks\n"
	                    "  -1 | 3 → 2 | a quiet hour\n"
	                    "  reset | 2 → 1 | back to town\n");
	/* recheck F13: a reason after # is counted alone, without the "# " */
	{
		char line[200], want[300];
		const char *z100 =
		    "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
		    "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";

		snprintf(line, sizeof(line), "/tension raise 1 # %s", z100);
		snprintf(want, sizeof(want),
		         "Tension raised 1 → 2 (+1): %s.\nTension ██░░░░░░░░ 2/10\n", z100);
		assert_string_equal(run(f, "gm", line), want);
		snprintf(line, sizeof(line), "/tension set 3 #  %sz", z100);
		assert_string_equal(run(f, "gm", line),
		                    "Reason is too long: at most 100 bytes (got 101); usage: "
		                    "/tension set <value> [reason]\n");
		snprintf(line, sizeof(line), "/tension set 3 # %s", z100);
		snprintf(want, sizeof(want), "Tension set 2 → 3: %s.\nTension ███░░░░░░░ 3/10\n",
		         z100);
		assert_string_equal(run(f, "gm", line), want);
	}
}

/* Every change refused leaves the history exactly as it was. */
static void
refused_changes_change_nothing(void **state)
{
	struct fx *f = *state;
	char *before, *after;

	run(f, "gm", "/tension raise combat");
	before = saved_text(ts(f));
	assert_string_equal(run(f, "ann", "/tension raise combat"),
	                    "Only the GM can do that here; the GM is Greta.\n");
	assert_string_equal(run(f, "gm", "/tension raise combat amount:2"),
	                    "Give an event or an amount, not both: /tension raise combat, or "
	                    "/tension raise amount:N reason:why.\n");
	assert_string_equal(run(f, "gm", "/tension lower"),
	                    "Name what happened (trap, secret, prisoner or objective) or give an "
	                    "amount with a reason: /tension lower amount:N reason:why.\n");
	assert_string_equal(run(f, "gm", "/tension raise amount:3"),
	                    "A change by an amount needs a reason: /tension raise amount:3 "
	                    "reason:why.\n");
	assert_string_equal(run(f, "gm", "/tension raise amount:3 #"),
	                    "A change by an amount needs a reason: /tension raise amount:3 "
	                    "reason:why.\n");
	/* recheck4 F5: a reason of blanks and characters a reply shows as
	 * nothing is no reason ("Tension stays at 1:   .") */
	assert_string_equal(
	    run(f, "gm", "/tension raise amount:3 reason:\" \xe2\x80\xae\xe2\x80\x8b \""),
	    "A change by an amount needs a reason: /tension raise amount:3 "
	    "reason:why.\n");
	assert_string_equal(run(f, "gm", "/tension raise amount:3 # \xe2\x80\x8b"),
	                    "A change by an amount needs a reason: /tension raise amount:3 "
	                    "reason:why.\n");
	assert_non_null(strstr(run(f, "gm", "/tension raise trap"), "Event must be one of door, "
	                                                            "quiet-combat, combat, "
	                                                            "enemy-escaped (got 'trap')"));
	assert_non_null(strstr(run(f, "gm", "/tension set 0"),
	                       "Value must be a whole number from 1 to 10 (got '0')"));
	assert_non_null(strstr(run(f, "gm", "/tension raise amount:10 reason:x"),
	                       "Amount must be a whole number from 1 to 9 (got '10')"));
	after = saved_text(ts(f));
	assert_string_equal(after, before);
	free(before);
	free(after);
}

static void
roll_open(void **state)
{
	struct fx *f = *state;

	run(f, "gm", "/tension set 5");
	/* seed 3: event d12 9, effect d10 7, encounter d12 3, encounter d10 6,
	 * then the dice in the entries: 1d6 3, 2d4 2+1 */
	rng_seed(f->rng, 3);
	assert_string_equal(
	    run(f, "gm", "/tension roll exits:3"),
	    "Tension roll (Tension 5, exits 3)\n"
	    "Dungeon event: d12 9 (7-10) → an environmental effect\n"
	    "  effects table: d10 7 + Tension 5 = 12 → a pocket of toxic gas, CON save or 1d6 "
	    "poison damage → a pocket of toxic gas, CON save or 3 poison damage (1d6: 3)\n"
	    "Encounter check: d12 3 ≤ exits 3 and ≤ tension 5 → encounter\n"
	    "  encounter table: d10 6 + Tension 5 = 11 → 2d4 goblins → 3 goblins (2d4: 2+1)\n"
	    "Event and encounter together: a pocket of toxic gas, CON save or 3 poison damage "
	    "(1d6: 3), and 3 goblins (2d4: 2+1); weave them into one scene.\n");
	/* a roll changes nothing (only the set was saved) */
	assert_int_equal(f->persisted, 1);
	/* the same dice with 2d4 goblins struck */
	assert_string_equal(run(f, "gm", "/tension strike 2d4"),
	                    "Struck 9-12 2d4 goblins from the encounter table: rolling it now "
	                    "means no encounter.\n");
	rng_seed(f->rng, 3);
	assert_string_equal(
	    run(f, "gm", "/tension roll 3"),
	    "Tension roll (Tension 5, exits 3)\n"
	    "Dungeon event: d12 9 (7-10) → an environmental effect\n"
	    "  effects table: d10 7 + Tension 5 = 12 → a pocket of toxic gas, CON save or 1d6 "
	    "poison damage → a pocket of toxic gas, CON save or 3 poison damage (1d6: 3)\n"
	    "Encounter check: d12 3 ≤ exits 3 and ≤ tension 5 → encounter\n"
	    "  encounter table: d10 6 + Tension 5 = 11 → 2d4 goblins (struck): no encounter\n");
	/* seed 9 (d12 4) with 4 exits and Tension 1; seed 5 (d12 8) at Tension 8 */
	run(f, "gm", "/tension set 1");
	rng_seed(f->rng, 9);
	assert_non_null(strstr(run(f, "gm", "/tension roll 4"),
	                       "Dungeon event: d12 1 (1-5) → nothing\n"
	                       "Encounter check: d12 4 ≤ exits 4 → encounter\n"));
	rng_seed(f->rng, 9);
	assert_non_null(strstr(run(f, "gm", "/tension roll 3"),
	                       "Encounter check: d12 4 > exits 3 and > tension 1 → no "
	                       "encounter\n"));
	run(f, "gm", "/tension set 8");
	rng_seed(f->rng, 5);
	assert_non_null(strstr(run(f, "gm", "/tension roll"),
	                       "Encounter check: d12 8 ≤ tension 8 → encounter\n"));
	/* seed 23: a light fails; seed 10: sounds */
	rng_seed(f->rng, 23);
	assert_non_null(strstr(run(f, "gm", "/tension roll"),
	                       "Dungeon event: d12 6 (6) → a non-magical light source fails\n"));
	rng_seed(f->rng, 10);
	assert_non_null(strstr(run(f, "gm", "/tension roll"),
	                       "Dungeon event: d12 12 (11-12) → enemy or NPC sounds\n"));
}

/* A tension roll on a rest turn (the turn just passed was /rest): the
 * resting party is not moving, so delving's walking no longer surprises
 * it (text 003: walking and running are paces; a rest is no pace), and,
 * as text 001's designer's note has it, resting lowers no Tension; both
 * the GM's lines and, behind the screen, the channel's line say so. */
static void
roll_on_a_rest_turn(void **state)
{
	struct fx *f = *state;
	const char *walking = "  The party is walking, so it is surprised by this encounter.\n";
	const char *spared = "The party is resting, not walking, so it is not surprised by "
	                     "every encounter (total darkness would still do that).\n";
	const char *rests = "The party is resting this turn: resting lowers no Tension, which "
	                    "rewards what the party achieves, not hiding.\n";
	const char *said;

	run(f, "gm", "/hazard table delving");
	run(f, "gm", "/light add torch");
	run(f, "gm", "/turn move walking");
	said = run(f, "gm", "/tension roll exits:12");
	assert_non_null(strstr(said, walking));
	assert_null(strstr(said, rests));
	run(f, "gm", "/rest hazard:false");
	said = run(f, "gm", "/tension roll exits:12");
	assert_null(strstr(said, walking));
	assert_non_null(strstr(said, spared));
	assert_non_null(strstr(said, rests));
	run(f, "gm", "/tension mode hidden");
	said = run(f, "gm", "/tension roll exits:12");
	assert_memory_equal(said,
	                    "The GM made a tension roll for the party's rest behind the screen.\n"
	                    "[private]\n",
	                    strlen("The GM made a tension roll for the party's rest behind the "
	                           "screen.\n[private]\n"));
	assert_non_null(strstr(said, spared));
	assert_non_null(strstr(said, rests));
	/* the next turn ends the rest: walking surprises the party again */
	run(f, "gm", "/turn advance");
	said = run(f, "gm", "/tension roll exits:12");
	assert_memory_equal(said, "The GM made a tension roll behind the screen.\n[private]\n",
	                    strlen("The GM made a tension roll behind the screen.\n[private]\n"));
	assert_non_null(strstr(said, walking));
	assert_null(strstr(said, rests));
}

/* Text 001's dungeon event 6, "non-magical light source fails", is the
 * hazard die's Light result in the same words: the oldest lit source
 * sputters out, a lantern's oil runs low, the GM may rule it a flicker
 * (recheck9 F6: the roll left the tracked lights alone). Behind the
 * screen the GM gives it with /light fail when the players are told. */
static void
roll_light_fails(void **state)
{
	struct fx *f = *state;

	run(f, "gm", "/light add torch");
	run(f, "gm", "/light add lantern");
	run(f, "gm", "/turn advance 2");
	/* seed 23: dungeon event d12 6 */
	rng_seed(f->rng, 23);
	assert_string_equal(
	    run(f, "gm", "/tension roll"),
	    "Tension roll (Tension 1, exits 1)\n"
	    "Dungeon event: d12 6 (6) → a non-magical light source fails\n"
	    "  Torch #1 sputters out. The GM may rule it only flickers: /light flicker.\n"
	    "Encounter check: d12 5 > exits 1 and > tension 1 → no encounter\n");
	assert_string_equal(run(f, "gm", "/light list"),
	                    "Lit sources (exploration procedure)\n  #2 lantern | - | 34\n");
	assert_string_equal(run(f, "gm", "/light flicker"),
	                    "Torch #1 only flickers: it keeps burning with 4 turns left.\n");
	rng_seed(f->rng, 23);
	run(f, "gm", "/tension roll");
	rng_seed(f->rng, 23);
	assert_string_equal(run(f, "gm", "/tension roll"),
	                    "Tension roll (Tension 1, exits 1)\n"
	                    "Dungeon event: d12 6 (6) → a non-magical light source fails\n"
	                    "  Lantern #2 runs low on oil: 6 turns left (it had 34). The GM may "
	                    "rule it only flickers: /light flicker.\n"
	                    "Encounter check: d12 5 > exits 1 and > tension 1 → no encounter\n");
	/* behind the screen the lights wait for the GM, who gives the
	 * failure when the players are told */
	run(f, "gm", "/tension mode hidden");
	run(f, "gm", "/light add torch");
	run(f, "gm", "/turn advance 2");
	rng_seed(f->rng, 23);
	assert_string_equal(run(f, "gm", "/tension roll"),
	                    "The GM made a tension roll behind the screen.\n"
	                    "[private]\n"
	                    "Tension roll (Tension 1, exits 1)\n"
	                    "Dungeon event: d12 6 (6) → a non-magical light source fails\n"
	                    "  The oldest lit source fails when you tell the players: /light "
	                    "fail (as the hazard die's Light result).\n"
	                    "Encounter check: d12 5 > exits 1 and > tension 1 → no encounter\n");
	assert_string_equal(run(f, "alice", "/light list"),
	                    "Lit sources (exploration procedure)\n  #2 lantern | - | 4\n"
	                    "  #3 torch | - | 4\n");
	assert_string_equal(run(f, "alice", "/light fail"),
	                    "Only the GM can do that here; the GM is Greta.\n");
	assert_string_equal(run(f, "gm", "/light fail"),
	                    "Lantern #2 is low on oil: 4 turns left already. The GM may rule it "
	                    "only flickers: /light flicker.\n");
}

/* Compact output: the heading opens the first line and the check follows
 * the event on it, unless an effect was rolled between them. */
static void
roll_compact(void **state)
{
	struct fx *f = *state;

	run(f, "gm", "/settings compact on");
	run(f, "gm", "/tension set 5");
	rng_seed(f->rng, 3);
	assert_string_equal(
	    run(f, "gm", "/tension roll exits:3"),
	    "Tension roll (Tension 5, exits 3): dungeon event: d12 9 (7-10) → an environmental "
	    "effect\n"
	    "  effects table: d10 7 + Tension 5 = 12 → a pocket of toxic gas, CON save or 1d6 "
	    "poison damage → a pocket of toxic gas, CON save or 3 poison damage (1d6: 3)\n"
	    "Encounter check: d12 3 ≤ exits 3 and ≤ tension 5 → encounter\n"
	    "  encounter table: d10 6 + Tension 5 = 11 → 2d4 goblins → 3 goblins (2d4: 2+1)\n"
	    "Event and encounter together: a pocket of toxic gas, CON save or 3 poison damage "
	    "(1d6: 3), and 3 goblins (2d4: 2+1); weave them into one scene.\n");
	run(f, "gm", "/tension set 1");
	rng_seed(f->rng, 9);
	assert_string_equal(run(f, "gm", "/tension roll 3"),
	                    "Tension roll (Tension 1, exits 3): dungeon event: d12 1 (1-5) → "
	                    "nothing · encounter check: d12 4 > exits 3 and > tension 1 → no "
	                    "encounter\n");
}

static void
roll_bad_exits(void **state)
{
	struct fx *f = *state;

	assert_string_equal(run(f, "gm", "/tension roll exits:-1"),
	                    "Exits must be a whole number from 0 to 20 (got '-1'); usage: "
	                    "/tension roll [exits]\n");
	assert_string_equal(run(f, "gm", "/tension roll 1000"),
	                    "Exits must be a whole number from 0 to 20 (got '1000'); usage: "
	                    "/tension roll [exits]\n");
	assert_string_equal(run(f, "ann", "/tension roll"),
	                    "Only the GM can do that here; the GM is Greta.\n");
}

/* Issue 25 item 12: in a safe area (where monsters do not go) the tension
 * roll makes no encounter check, as /wander says there; the dungeon event
 * is still rolled. Seed 3 at Tension 5 with 3 exits finds 3 goblins when
 * the party is not in a safe area (roll_open). */
static void
roll_in_a_safe_area(void **state)
{
	struct fx *f = *state;

	run(f, "gm", "/tension set 5");
	run(f, "gm", "/safe on");
	rng_seed(f->rng, 3);
	assert_string_equal(
	    run(f, "gm", "/tension roll exits:3"),
	    "Tension roll (Tension 5, exits 3)\n"
	    "Dungeon event: d12 9 (7-10) → an environmental effect\n"
	    "  effects table: d10 7 + Tension 5 = 12 → a pocket of toxic gas, CON save or 1d6 "
	    "poison damage → a pocket of toxic gas, CON save or 2 poison damage (1d6: 2)\n"
	    "Encounter check: none in a safe area, where monsters do not go (the GM ends it "
	    "with /safe off).\n");
	assert_string_equal(run(f, "gm", "/wander tension exits:3"),
	                    "No wandering monsters: the party is in a safe area (the GM ends it "
	                    "with /safe off).\n");
	run(f, "gm", "/settings compact on");
	rng_seed(f->rng, 9);
	assert_string_equal(run(f, "gm", "/tension roll 3"),
	                    "Tension roll (Tension 5, exits 3): dungeon event: d12 1 (1-5) → "
	                    "nothing · encounter check: none in a safe area, where monsters do "
	                    "not go (the GM ends it with /safe off).\n");
	run(f, "gm", "/settings compact off");
	run(f, "gm", "/safe off");
	rng_seed(f->rng, 3);
	assert_non_null(strstr(run(f, "gm", "/tension roll exits:3"),
	                       "Encounter check: d12 3 ≤ exits 3 and ≤ tension 5 → encounter\n"));
}

/* Hidden mode: the channel learns only that the GM did something; the
 * value and the dice reach the GM alone. */
static void
hidden_mode(void **state)
{
	struct fx *f = *state;
	const struct reply_msg *m;

	run(f, "gm", "/tension set 6");
	assert_string_equal(run(f, "gm", "/tension mode hidden"),
	                    "Tension is now hidden behind the GM's screen: its value, changes "
	                    "and rolls reach only the GM.\n"
	                    "[private]\n"
	                    "Tension ██████░░░░ 6/10\n");
	rng_seed(f->rng, 3);
	assert_string_equal(
	    run(f, "gm", "/tension roll 3"),
	    "The GM made a tension roll behind the screen.\n"
	    "[private]\n"
	    "Tension roll (Tension 6, exits 3)\n"
	    "Dungeon event: d12 9 (7-10) → an environmental effect\n"
	    "  effects table: d10 7 + Tension 6 = 13 → a tremor drops roof tiles, DEX save or "
	    "1d8 bludgeoning damage → a tremor drops roof tiles, DEX save or 4 bludgeoning "
	    "damage (1d8: 4)\n"
	    "Encounter check: d12 3 ≤ exits 3 and ≤ tension 6 → encounter\n"
	    "  encounter table: d10 6 + Tension 6 = 12 → 2d4 goblins → 3 goblins (2d4: 2+1)\n"
	    "Event and encounter together: a tremor drops roof tiles, DEX save or 4 "
	    "bludgeoning damage (1d8: 4), and 3 goblins (2d4: 2+1); weave them into one "
	    "scene.\n");
	/* the channel message holds no number at all */
	m = reply_msg(f->out, REPLY_CHANNEL);
	assert_int_equal(m->nblocks, 1);
	assert_null(m->title);
	assert_null(strpbrk(m->blocks[0].spans[0].text, "0123456789"));
	assert_string_equal(run(f, "gm", "/tension raise combat"),
	                    "The GM changed the Tension behind the screen.\n"
	                    "[private]\n"
	                    "Tension raised 6 → 8 (+2): normal combat.\n"
	                    "Tension ████████░░ 8/10\n");
	assert_string_equal(run(f, "gm", "/tension reset"),
	                    "The GM changed the Tension behind the screen.\n"
	                    "[private]\n"
	                    "Tension reset 8 → 1: back to town.\n"
	                    "Tension █░░░░░░░░░ 1/10\n");
	assert_string_equal(run(f, "gm", "/tension strike orcs"),
	                    "The GM changed the Tension tables behind the screen.\n"
	                    "[private]\n"
	                    "'orcs' matches several encounter entries (13-16 2d6 orcs, 17-20 4d6 "
	                    "orcs), so nothing changed; name one by its range.\n");
	assert_string_equal(run(f, "gm", "/tension strike 13"),
	                    "The GM changed the Tension tables behind the screen.\n"
	                    "[private]\n"
	                    "Struck 13-16 2d6 orcs from the encounter table: rolling it now means "
	                    "no encounter.\n");
	/* players see that it is hidden, never the value or the tables */
	assert_string_equal(run(f, "ann", "/tension"),
	                    "Tension is hidden behind the GM's screen; only Greta sees it.\n");
	assert_string_equal(run(f, "ann", "/tension table"),
	                    "The Tension tables are behind the GM's screen (hidden mode).\n");
	/* the GM's own /tension is private and says nothing in the channel */
	run(f, "gm", "/tension");
	assert_null(reply_msg(f->out, REPLY_CHANNEL));
	assert_non_null(strstr(f->text,
	                       "[private]\nTension █░░░░░░░░░ 1/10\n"
	                       "Mode: hidden (only the GM sees Tension and its rolls).\n"));
	/* and so is its answer that Tension is hidden already */
	assert_string_equal(run(f, "gm", "/tension mode hidden"),
	                    "[private]\nTension is already hidden behind the GM's screen.\n"
	                    "Tension █░░░░░░░░░ 1/10\n");
	assert_null(reply_msg(f->out, REPLY_CHANNEL));
	assert_string_equal(run(f, "gm", "/tension mode open"),
	                    "Tension is now open: everyone sees it, its changes and rolls.\n"
	                    "Tension █░░░░░░░░░ 1/10\n");
}

static void
tables_set_show_reset(void **state)
{
	struct fx *f = *state;
	struct roll_table before;

	run(f, "gm", "/tension strike 9-12");
	before = *tension_state_get_table(ts(f), TENSION_TABLE_ENCOUNTER);
	assert_string_equal(run(f, "gm", "/tension table set encounter 1-4 a; 5-8 b; 9-8 c"),
	                    "The encounter table was not changed: entry 3: range 9-8 is "
	                    "reversed; write it low-high.\n");
	assert_string_equal(run(f, "gm", "/tension table set encounter 1-4 a; 6-20 b"),
	                    "The encounter table was not changed: entry 2: result 5 is not "
	                    "covered by any entry.\n");
	assert_string_equal(run(f, "gm", "/tension table set encounter 1-4 a; 5-19 b"),
	                    "The encounter table was not changed: result 20 is not covered; "
	                    "the entries must reach 20.\n");
	assert_string_equal(run(f, "ann", "/tension table set encounter 1-20 a"),
	                    "Only the GM can do that here; the GM is Greta.\n");
	assert_memory_equal(tension_state_get_table(ts(f), TENSION_TABLE_ENCOUNTER), &before,
	                    sizeof(before));
	/* an unchanged entry keeps its strike */
	assert_string_equal(
	    run(f, "gm", "/tension table set encounter 1-8 rats; 9-12 2d4 goblins; 13-20 a troll"),
	    "The encounter table now has 3 entries; 1 unchanged entry is still struck.\n"
	    "Encounter table (d10 + Tension)\n"
	    "  1-8 | rats\n"
	    "  9-12 | 2d4 goblins (struck)\n"
	    "  13-20 | a troll\n");
	assert_true(tension_state_get_table(ts(f), TENSION_TABLE_ENCOUNTER)->e[1].struck);
	assert_string_equal(run(f, "ann", "/tension table encounter"),
	                    "Encounter table (d10 + Tension)\n"
	                    "  1-8 | rats\n"
	                    "  9-12 | 2d4 goblins (struck)\n"
	                    "  13-20 | a troll\n");
	/* issue 25, finding 15: one entry is "1 entry" */
	assert_non_null(strstr(run(f, "gm", "/tension table set encounter 1-20 a troll"),
	                       "The encounter table now has 1 entry.\n"));
	assert_string_equal(run(f, "gm", "/tension table reset encounter"),
	                    "The encounter table is back to its default; nothing in it is struck.\n"
	                    "Encounter table (d10 + Tension)\n"
	                    "  1-4 | a lost adventurer\n"
	                    "  5-8 | 1d4 goblins\n"
	                    "  9-12 | 2d4 goblins\n"
	                    "  13-16 | 2d6 orcs\n"
	                    "  17-20 | 4d6 orcs\n");
	/* the effects table shows its ten rows after a title */
	assert_non_null(strstr(run(f, "ann", "/tension table effects"),
	                       "Effects table (d10 + Tension)\n"
	                       "  1-2 | 2d6 hidden gold pieces glimmer in a corner\n"));
}

/* Behind the screen a strike or restore that changes nothing reads to the
 * channel as one that does, and is a step of its own that /undo takes
 * back (on IRC the GM's command line is seen by all). */
static void
strikes_read_alike_behind_the_screen(void **state)
{
	struct fx *f = *state;
	const char *undone;

	run(f, "gm", "/tension mode hidden");
	assert_string_equal(run(f, "gm", "/tension strike 1"),
	                    EDITED_LINE "[private]\nStruck 1-4 a lost adventurer from the "
	                                "encounter table: rolling it now means no encounter.\n");
	assert_string_equal(run(f, "gm", "/tension strike 1"),
	                    EDITED_LINE "[private]\n1-4 a lost adventurer was already struck from "
	                                "the encounter table, so nothing changed; /tension "
	                                "unstrike 1-4 a lost adventurer restores it.\n");
	assert_string_equal(run(f, "gm", "/tension unstrike 5-8"),
	                    EDITED_LINE "[private]\n5-8 1d4 goblins is not struck from the "
	                                "encounter table, so nothing changed.\n");
	/* naming no entry, or several, reads to the channel alike too */
	assert_string_equal(run(f, "gm", "/tension strike trolls"),
	                    EDITED_LINE "[private]\nNo encounter entry matches 'trolls', so "
	                                "nothing changed; name a range like 9-12, a result like "
	                                "10 or part of an entry's text (/tension table show "
	                                "encounter).\n");
	assert_string_equal(run(f, "gm", "/tension unstrike table:effects entry:trolls"),
	                    EDITED_LINE "[private]\nNo effects entry matches 'trolls', so "
	                                "nothing changed; name a range like 9-12, a result like "
	                                "10 or part of an entry's text (/tension table show "
	                                "effects).\n");
	undone = run(f, "gm", "/undo");
	assert_non_null(strstr(undone, "/tension unstrike table:effects entry:trolls"));
	assert_string_equal(run(f, "gm", "/tension unstrike"),
	                    EDITED_LINE "[private]\nRestored 1 struck entry: 1-4 a lost "
	                                "adventurer.\n");
	run(f, "ann", "/roll 1d20");
	assert_string_equal(run(f, "gm", "/tension unstrike"),
	                    EDITED_LINE "[private]\nNothing is struck.\n");
	undone = run(f, "gm", "/undo");
	assert_null(strstr(undone, "roll"));
	assert_non_null(strstr(undone, "/tension unstrike"));
}

static void
strike_and_unstrike(void **state)
{
	struct fx *f = *state;

	assert_string_equal(
	    run(f, "gm", "/tension strike trolls"),
	    "No encounter entry matches 'trolls'; name a range like 9-12, a result "
	    "like 10 or part of an entry's text (/tension table show encounter).\n");
	assert_string_equal(run(f, "gm", "/tension strike lost adventurer"),
	                    "Struck 1-4 a lost adventurer from the encounter table: rolling it now "
	                    "means no encounter.\n");
	assert_string_equal(run(f, "gm", "/tension strike 3"),
	                    "1-4 a lost adventurer is already struck from the encounter table; "
	                    "/tension unstrike 1-4 a lost adventurer restores it.\n");
	assert_string_equal(run(f, "gm", "/tension strike collapse table:effects"),
	                    "Struck 19-20 a structural collapse blocks an exit from the effects "
	                    "table: rolling it now means no effect.\n");
	assert_string_equal(run(f, "gm", "/tension unstrike 5-8"),
	                    "5-8 1d4 goblins is not struck from the encounter table.\n");
	assert_string_equal(
	    run(f, "gm", "/tension unstrike table:effects"),
	    "Restored 1 struck entry: 19-20 a structural collapse blocks an exit.\n");
	assert_string_equal(run(f, "gm", "/tension unstrike table:effects"),
	                    "Nothing is struck in the effects table.\n");
	run(f, "gm", "/tension strike 17");
	assert_string_equal(run(f, "gm", "/tension unstrike 1-4"),
	                    "Restored 1-4 a lost adventurer to the encounter table.\n");
	run(f, "gm", "/tension strike 1");
	assert_string_equal(run(f, "gm", "/tension unstrike"),
	                    "Restored 2 struck entries: 1-4 a lost adventurer, 17-20 4d6 orcs.\n");
	assert_string_equal(run(f, "gm", "/tension unstrike"), "Nothing is struck.\n");
	assert_string_equal(run(f, "ann", "/tension strike 1"),
	                    "Only the GM can do that here; the GM is Greta.\n");
}

/* The D12 text: three goblin patrols are three entries of the table, so
 * striking the one defeated leaves the others to be met. */
static void
each_patrol_its_own_entry(void **state)
{
	struct fx *f = *state;

	run(f, "gm",
	    "/tension table set encounter 1-6 a goblin patrol; 7-13 a goblin patrol; 14-20 a "
	    "goblin patrol");
	assert_string_equal(run(f, "gm", "/tension strike goblin patrol"),
	                    "'goblin patrol' matches several encounter entries (1-6 a goblin "
	                    "patrol, 7-13 a goblin patrol, 14-20 a goblin patrol); name one by its "
	                    "range.\n");
	assert_string_equal(run(f, "gm", "/tension strike 7-13"),
	                    "Struck 7-13 a goblin patrol from the encounter table: rolling it now "
	                    "means no encounter.\n");
	/* 12 exits: every encounter d12 triggers; Tension 1 */
	rng_seed(f->rng, 3);
	assert_non_null(strstr(run(f, "gm", "/tension roll 12"),
	                       "  encounter table: d10 6 + Tension 1 = 7 → a goblin patrol "
	                       "(struck): no encounter\n"));
	rng_seed(f->rng, 9);
	assert_non_null(strstr(run(f, "gm", "/tension roll 12"),
	                       "  encounter table: d10 2 + Tension 1 = 3 → a goblin patrol\n"));
}

/* The D12 text: Tension is lowered for accomplishments, never for resting
 * or hiding, and only a real return to town resets it: stepping into a
 * safe area or starting a new expedition's clock does not. */
static void
only_deeds_and_town_change_tension(void **state)
{
	struct fx *f = *state;
	const char *want = "Tension ██████░░░░ 6/10\n";

	run(f, "gm", "/tension set 6");
	run(f, "gm", "/rest");
	run(f, "gm", "/rest hazard:false");
	run(f, "gm", "/turn advance 12");
	run(f, "gm", "/safe on");
	run(f, "gm", "/safe off");
	run(f, "gm", "/turn reset");
	assert_non_null(strstr(run(f, "gm", "/tension"), want));
	assert_int_equal(ts(f)->track.nhist, 1);
	assert_string_equal(run(f, "gm", "/tension reset"), "Tension reset 6 → 1: back to town.\n"
	                                                    "Tension █░░░░░░░░░ 1/10\n");
}

static char *
saved_text(const struct tension_state *s)
{
	cJSON *j = tension_chanmod.save(s);
	char *text = cJSON_PrintUnformatted(j);

	cJSON_Delete(j);
	return text;
}

static void
save_load_round_trip(void **state)
{
	struct fx *f = *state;
	struct tension_state *copy = tension_chanmod.create();
	char *a, *b, err[200] = "";
	cJSON *j;

	run(f, "gm", "/tension raise enemy-escaped a goblin ran «off»");
	run(f, "gm", "/tension raise combat");
	run(f, "gm", "/tension raise combat");
	run(f, "gm", "/tension raise combat");
	run(f, "gm", "/tension mode hidden");
	run(f, "gm", "/tension table set effects 1-10 calm; 11 \"quoted\" \\ text; 12-20 storm");
	run(f, "gm", "/tension strike 11 table:effects");
	run(f, "gm", "/tension strike 5-8");
	a = saved_text(ts(f));
	j = cJSON_Parse(a);
	assert_int_equal(tension_chanmod.load(copy, j, err, sizeof(err)), 0);
	cJSON_Delete(j);
	b = saved_text(copy);
	assert_string_equal(a, b);
	assert_int_equal(copy->track.value, 10);
	assert_false(copy->track.hist[2].clamped);
	assert_true(copy->track.hist[3].clamped);
	assert_true(copy->hidden);
	assert_true(tension_state_get_table(copy, TENSION_TABLE_EFFECTS)->e[1].struck);
	assert_true(tension_state_get_table(copy, TENSION_TABLE_ENCOUNTER)->e[1].struck);
	assert_int_equal(copy->track.nhist, ts(f)->track.nhist);
	free(a);
	free(b);
	tension_chanmod.destroy(copy);
}

static void
load_rejects_bad_records(void **state)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
	    {"{\"value\":11}", "tension: 'value' must be a whole number from 1 to 10."},
	    {"{\"value\":2.5}", "tension: 'value' must be a whole number from 1 to 10."},
	    {"{\"value\":2,\"mode\":\"secret\"}", "tension: 'mode' must be open or hidden."},
	    {"{\"value\":2,\"mode\":\"open\",\"history\":{}}",
	     "tension: 'history' must be a list of at most 32 changes."},
	    {"{\"value\":2,\"mode\":\"open\",\"history\":[{\"kind\":\"bump\"}]}",
	     "tension: unknown history kind 'bump'."},
	    {"{\"value\":2,\"mode\":\"open\",\"history\":[]}",
	     "tension: the encounter table lacks its text or struck list."},
	    {"{\"value\":2,\"mode\":\"open\",\"history\":[],\"encounter\":{\"text\":\"1-4 "
	     "a\",\"struck\":[]}}",
	     "tension: the encounter table does not parse: results 5-20 are not covered; the "
	     "entries must reach 20."},
	    {"{\"value\":2,\"mode\":\"open\",\"history\":[],\"encounter\":{\"text\":\"1-20 "
	     "a\",\"struck\":[\"1-4\"]}}",
	     "tension: the encounter table has no entry to strike at 1-4."},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tension_state *s = tension_chanmod.create();
		cJSON *j = cJSON_Parse(bad[i].json);
		char err[200] = "";

		assert_non_null(j);
		assert_int_equal(tension_chanmod.load(s, j, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i].err);
		cJSON_Delete(j);
		tension_chanmod.destroy(s);
	}
}

/*
 * A channel's Tension holds what it uses: default tables are shared until
 * the channel changes one (and again once it is back to the default), and
 * the history grows with its changes. A channel with Tension and ten
 * changes stays under 2 KB of heap (it held 19.6 KB: two 6.9 KB table
 * copies and room for 32 changes of 180 bytes).
 */
static void
memory_follows_content(void **state)
{
	struct fx *f = *state;
	struct mallinfo2 m0, m1;
	struct state *st;
	char line[200];

	run(f, "gm", "/tension raise combat");
	assert_null(ts(f)->tables[TENSION_TABLE_ENCOUNTER]);
	assert_null(ts(f)->tables[TENSION_TABLE_EFFECTS]);
	run(f, "gm", "/tension strike 9-12");
	assert_non_null(ts(f)->tables[TENSION_TABLE_ENCOUNTER]);
	assert_null(ts(f)->tables[TENSION_TABLE_EFFECTS]);
	run(f, "gm", "/tension unstrike");
	assert_null(ts(f)->tables[TENSION_TABLE_ENCOUNTER]);
	run(f, "gm", "/tension table set effects 1-20 calm");
	assert_non_null(ts(f)->tables[TENSION_TABLE_EFFECTS]);
	run(f, "gm", "/tension table reset effects");
	assert_null(ts(f)->tables[TENSION_TABLE_EFFECTS]);

	/* 100 channels, each with Tension and ten changes with reasons. */
	m0 = mallinfo2();
	st = state_new();
	for (int c = 0; c < 100; c++) {
		char key[32];
		struct tension_state *t;

		snprintf(key, sizeof(key), "test:chan%d", c);
		t = channel_mod(state_channel(st, key), CHANMOD_TENSION);
		for (int i = 0; i < 10; i++) {
			snprintf(line, sizeof(line), "the party opened door number %d", i);
			tension_adjust(&t->track, i % 2 ? 1 : -1, line);
		}
		assert_int_equal(t->track.nhist, 10);
	}
	m1 = mallinfo2();
	state_free(st);
	if (m1.uordblks == m0.uordblks)
		skip(); /* a sanitizer's allocator: mallinfo2 does not see it */
	assert_in_range((m1.uordblks - m0.uordblks) / 100, 1, 2047);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(fresh_channel_reads_one, setup, teardown),
	    cmocka_unit_test_setup_teardown(raise_by_event_and_clamp, setup, teardown),
	    cmocka_unit_test_setup_teardown(refused_changes_change_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_open, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_compact, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_on_a_rest_turn, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_light_fails, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_bad_exits, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_in_a_safe_area, setup, teardown),
	    cmocka_unit_test_setup_teardown(hidden_mode, setup, teardown),
	    cmocka_unit_test_setup_teardown(tables_set_show_reset, setup, teardown),
	    cmocka_unit_test_setup_teardown(strike_and_unstrike, setup, teardown),
	    cmocka_unit_test_setup_teardown(strikes_read_alike_behind_the_screen, setup, teardown),
	    cmocka_unit_test_setup_teardown(each_patrol_its_own_entry, setup, teardown),
	    cmocka_unit_test_setup_teardown(only_deeds_and_town_change_tension, setup, teardown),
	    cmocka_unit_test_setup_teardown(save_load_round_trip, setup, teardown),
	    cmocka_unit_test_setup_teardown(memory_follows_content, setup, teardown),
	    cmocka_unit_test(load_rejects_bad_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
