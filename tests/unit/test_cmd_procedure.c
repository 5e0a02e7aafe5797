/*
 * Unit tests for /procedure (commands/procedure/cmd_procedure.c): each
 * reference card carries the rules of its text that delver leaves to the
 * table (tests/conformance/002_exploration.md, 003_delving.md and
 * 004_safe_areas.md name these tests), and the card shown by default is the
 * channel's procedure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdrun.h"

CMDRUN_FIXTURE(1)

/* Runs line as the GM gm of the console channel "table"; returns the reply
 * as plain text (valid until the next call). */
static const char *
run(const char *line)
{
	cmdrun_line(&cr, "table", "gm", line, 0);
	return cmdrun_plain(&cr);
}

/* Every string of want (ended by NULL) is in the card. */
static void
card_says(const char *card, const char *const *want)
{
	const char *t = run(card);

	for (size_t i = 0; want[i] != NULL; i++) {
		if (strstr(t, want[i]) == NULL) {
			fprintf(stderr, "%s lacks '%s':\n%s", card, want[i], t);
			fail();
		}
	}
}

static void
exploration_turn_and_hazard(void **unused)
{
	static const char *const want[] = {
	    "Exploration procedure (a turn is 10 minutes)",
	    "The party gives its marching order and actions; the GM says what they see or meet; "
	    "the hazard die is rolled; actions are resolved, the GM choosing when the hazard "
	    "strikes; time is marked and light tracked.",
	    "1d6: 1 Encounter, 2 Sign, 3 Light, 4 Fatigue, 5-6 Nothing. It is pressure, not a "
	    "straitjacket",
	    "Instead: a die of the GM's choice each turn, an encounter on a 1; light and rest kept "
	    "separately (torch 6 turns, lantern 6 hours, a rest each hour).",
	    "Traditional: /hazard chance 1-in-6.",
	    NULL,
	};

	card_says("/procedure exploration", want);
}

static void
exploration_movement(void **unused)
{
	static const char *const want[] = {
	    "Per round: slow 15 ft, normal 30 ft, fast 45 ft. Per turn, cautious (3x base speed in "
	    "yards, checking footing, watching, mapping): 45, 90, 135 yards. Rushing doubles it: "
	    "no searching or mapping, a setback to spot traps or hidden features.",
	    "move cautious; move rushing (setback to spot danger); search (WIS vs concealment); "
	    "force a door (STR vs door); pick a lock (DEX vs lock); listen at a door (WIS); rest.",
	    NULL,
	};

	card_says("/procedure exploration", want);
}

static void
exploration_searching_and_surprise(void **unused)
{
	static const char *const want[] = {
	    "1 turn for a room, passage or feature; a WIS check, DC 8 (a loose flagstone) to DC "
	    "16 (a master-crafted hidden door). Success: the GM shows what is there; failure "
	    "finds nothing, which does not mean nothing is there. Examining one statue, chest or "
	    "stretch of wall may take less time (the GM's call).",
	    "When either side might be caught off guard, a WIS check DC 12 per character; the "
	    "surprised cannot act in the first round, and some may be surprised while others are "
	    "not. Circumstances give Edge or Setback.",
	    NULL,
	};

	card_says("/procedure exploration", want);
}

static void
exploration_light_and_rest(void **unused)
{
	static const char *const want[] = {
	    "Torch 6 turns (1 hour), lantern 36 (6 hours, one flask of oil), candle 6 (1 hour).",
	    "Torch and lantern: 30 ft bright light and 30 ft dim beyond; candle: 5 ft bright and 5 "
	    "ft dim.",
	    "Sees 30 ft in dim light as if bright, and in darkness as if dim, without colour or "
	    "fine detail.",
	    "Effectively blind: a setback on all rolls, movement halved, cannot read, search or "
	    "spot danger.",
	    "1 turn of sitting, eating, drinking and catching breath, nothing strenuous. After 6 "
	    "turns without one, rest or each character makes a CON save DC 12 (1 Fatigue on a "
	    "failure).",
	    NULL,
	};

	card_says("/procedure exploration", want);
}

static void
delving_turn_and_speeds(void **unused)
{
	static const char *const want[] = {
	    "Delving procedure (a turn is 10 minutes)",
	    "10 minutes; most actions (moving, searching, fighting, resting) take one. At its end "
	    "the hazard die: 1 Encounter, 2 Fatigue, 3 Burn, 4 Dungeon shift, 5 Sign, 6 Free.",
	    "36 m per turn, mostly standing still, listening, testing surfaces and mapping: traps "
	    "are found automatically, and the map is drawn.",
	    "720 m per turn: surprised by all encounters, spring all traps, can map; for going "
	    "back through explored parts.",
	    "1.5 km per turn: surprised, spring traps, no map, candles blown out; a last resort, "
	    "when fleeing.",
	    "Usually from the dungeon's encounter table; reaction, activity, distance and surprise "
	    "are the GM's",
	    "A Sign shows the next encounter's creature, or a clue to something hidden.",
	    NULL,
	};

	card_says("/procedure delving", want);
}

static void
delving_light_and_searching(void **unused)
{
	static const char *const want[] = {
	    "1 turn reveals what is not obvious (a statuette in a drawer, a cracked tile) and "
	    "clues to secrets; 2 turns in dim light (candle or lantern).",
	    "Torch: shapes 12 m, details 3 m, lets the party search faster, a whole slot, burns "
	    "out on a Burn (new ones lit from the embers). Candle: shapes 6 m, details 3 m, 8 "
	    "hours (the expedition), 10 to a slot. Lantern: candles in a case, shutters if wanted, "
	    "the expedition, never blown out.",
	    "Total darkness: -10 to movement and coordination checks, surprised by all encounters, "
	    "springing all traps, no mapping.",
	    "Fatigue: 1 damage each (more in harsh dungeons) unless the party rests next turn; "
	    "ignored while resting.",
	    NULL,
	};

	card_says("/procedure delving", want);
}

static void
rooms_safe_areas_and_vendors(void **unused)
{
	static const char *const want[] = {
	    "Room by room: safe areas, vendors, wandering monsters",
	    "Level 0, where the party starts, and vendors' rooms: blessed ground where monsters do "
	    "not go and nobody fights. Parties come back to rest there. Stairs lead from level 0 "
	    "to level 1 and back.",
	    "1d6 hoards at the dungeon's level, 2d6 x 100 rations at 1 gp each, and 1d10 x 10% of "
	    "its coins for salvage; bargaining skill 1d10 + 5. It sells from its hoards and buys "
	    "with the coins it has. Each item or lot is tried once, usually by the best "
	    "bargainer; a rejected price stands for good. No bargaining with anyone using magic "
	    "or gear it knows helps the roll.",
	    NULL,
	};

	card_says("/procedure rooms", want);
}

static void
rooms_turns_and_wandering(void **unused)
{
	static const char *const want[] = {
	    "Move along a corridor to the next room; deal with monsters; deal with a room's "
	    "challenges or other combat; search a room for secrets; rest in a room; pass through "
	    "a clear room; go up or down a stair to a new level or a safe area.",
	    "Entering a corridor leg: 1 in 6, and they appear at its far end. Each turn of rest: 1 "
	    "in 6, and they come in by a random way (a blocked one slows them).",
	    "Wandering: /wander check corridor, /wander check rest.",
	    NULL,
	};

	card_says("/procedure rooms", want);
}

static void
rooms_entering_and_initiative(void **unused)
{
	static const char *const want[] = {
	    "A forced door alerts the room. Otherwise Move Silently against the inhabitants' "
	    "Spot; inhabitants with Hide are busy half the time, else they roll to stay hidden. "
	    "Go on until one side finds the other (surprise) or both fail (combat).",
	    "Wandering monsters try to surprise with Move Silently too; when both sides surprise "
	    "each other, neither does.",
	    "The surprised side only defends in the surprise round. Then a reflex roll: highest "
	    "first; a tie goes to the higher reflex skill, then both act at once. Damage and its "
	    "penalties land after a side has acted.",
	    NULL,
	};

	card_says("/procedure rooms", want);
}

static void
rooms_end_recovery_and_rations(void **unused)
{
	static const char *const want[] = {
	    "It ends when the party leaves by an open door, or starts on a door to leave; "
	    "wanderers, neighbours coming to look, or a chase keep it going until the party "
	    "catches its breath. Then, in order: Grim tests, endurance checks against Fatigue (or "
	    "the Exhaustion trait), advancement checks.",
	    "Carrying capacity by Str: the worse of the load's and the armour's penalties, never "
	    "both; load Fatigue comes at the end of each room (dragging: each round).",
	    "Exhaustion goes only with an extended rest in a safe area. A turn of rest allows a "
	    "healing check that lowers wounds by one (one wound this way). In combat a healing "
	    "check against a dying character's wounds stabilizes them (stop continuing damage "
	    "first). The incapacitated rest at least a day.",
	    "Eaten while resting. A slain monster that can be eaten gives Fort x 5 rations (the GM "
	    "may change that, or rule it inedible).",
	    NULL,
	};

	card_says("/procedure rooms", want);
}

/* Without a name, the card of the channel's procedure. */
static void
default_card_is_the_channels(void **unused)
{
	assert_non_null(strstr(run("/procedure"), "Exploration procedure"));
	run("/gm claim");
	run("/hazard procedure delving");
	assert_non_null(strstr(run("/procedure"), "Delving procedure"));
	assert_non_null(strstr(run("/procedure rooms"), "Room by room"));
	assert_string_equal(run("/procedure dungeon"),
	                    "'dungeon' is no card (exploration, delving or rooms) and no section "
	                    "of one; the delving card's sections are each turn, crawling, walking, "
	                    "running, searching, encounters, light, darkness, rest and one turn "
	                    "each.\n");
}

/* One section alone, named as typed or by the start of its name: of the
 * card named, else of the channel's, else of another card; a section a
 * card lacks is refused with the card's sections. */
static void
one_section(void **unused)
{
	assert_string_equal(run("/procedure light"),
	                    "Exploration procedure (a turn is 10 minutes)\nLight: Torch 6 turns (1 "
	                    "hour), lantern 36 (6 hours, one flask of oil), candle 6 (1 hour). A "
	                    "Light result flags the oldest lit source. Torch and lantern: 30 ft "
	                    "bright light and 30 ft dim beyond; candle: 5 ft bright and 5 ft "
	                    "dim.\n");
	assert_string_equal(
	    run("/procedure delving Light"),
	    "Delving procedure (a turn is 10 minutes)\nLight: Torch: shapes 12 m, "
	    "details 3 m, lets the party search faster, a whole slot, burns out on "
	    "a Burn (new ones lit from the embers). Candle: shapes 6 m, details 3 "
	    "m, 8 hours (the expedition), 10 to a slot. Lantern: candles in a case, "
	    "shutters if wanted, the expedition, never blown out.\n");
	assert_non_null(strstr(run("/procedure quick reference"), "\nQuick reference: 1 turn "
	                                                          "each: move cautious;"));
	assert_non_null(strstr(run("/procedure quick"), "\nQuick reference: 1 turn each"));
	assert_non_null(strstr(run("/procedure vendors"),
	                       "Room by room: safe areas, vendors, "
	                       "wandering monsters\nVendors: 1d6 hoards"));
	assert_non_null(strstr(run("/procedure rooms surprise"), "\nSurprise, initiative: The "
	                                                         "surprised side only defends"));
	assert_non_null(strstr(run("/procedure section:rest"), "\nRest: 1 turn of sitting"));
	/* "s" starts searching and surprise: no guess, and those two named */
	assert_string_equal(run("/procedure exploration s"),
	                    "'s' starts several sections of the exploration card; did you mean "
	                    "searching or surprise?\n");
	assert_string_equal(run("/procedure delving vendors"),
	                    "The delving card has no section 'vendors'; its sections are each "
	                    "turn, crawling, walking, running, searching, encounters, light, "
	                    "darkness, rest and one turn each.\n");
	assert_non_null(strstr(run("/procedure delvng"), "(did you mean delving?)"));
	/* The whole card ends by saying how to ask for one section. */
	assert_non_null(
	    strstr(run("/procedure"), "\nOne section alone: /procedure section:light.\n"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(exploration_turn_and_hazard, setup, teardown),
	    cmocka_unit_test_setup_teardown(exploration_movement, setup, teardown),
	    cmocka_unit_test_setup_teardown(exploration_searching_and_surprise, setup, teardown),
	    cmocka_unit_test_setup_teardown(exploration_light_and_rest, setup, teardown),
	    cmocka_unit_test_setup_teardown(delving_turn_and_speeds, setup, teardown),
	    cmocka_unit_test_setup_teardown(delving_light_and_searching, setup, teardown),
	    cmocka_unit_test_setup_teardown(rooms_safe_areas_and_vendors, setup, teardown),
	    cmocka_unit_test_setup_teardown(rooms_turns_and_wandering, setup, teardown),
	    cmocka_unit_test_setup_teardown(rooms_entering_and_initiative, setup, teardown),
	    cmocka_unit_test_setup_teardown(rooms_end_recovery_and_rations, setup, teardown),
	    cmocka_unit_test_setup_teardown(default_card_is_the_channels, setup, teardown),
	    cmocka_unit_test_setup_teardown(one_section, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
