/*
 * Who may undo what (commands/core/undo.h), through the dispatcher.
 *
 * Rolls stand: a change during which the command drew dice (a hazard roll,
 * a bargain, a vendor's stock, a Fungeon hallway) is undone by the GM seat's
 * holder alone, who is answered in the channel with the dice named; its
 * maker, another player and a channel admin who does not hold the seat are
 * each refused with one sentence; with the seat empty nobody can. A change
 * that rolled nothing stays its maker's to undo. The mark is the
 * machinery's (dice drawn while the command ran), kept across a save and a
 * load, and set for every command that rolls.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "commands/core/dispatch.h"
#include "commands/core/undo.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdrun.h"

static char text[8192];

CMDRUN_FIXTURE(11)

/* Runs line as user (a channel admin when admin) in the channel "table";
 * the channel's text (or the error) in text, the invoker's part after it
 * when there is one. */
static const char *
run_as(const char *user, bool admin, const char *line)
{
	struct origin o;
	struct buf b;

	cmdrun_console(&o, "table", user, admin);
	cmdrun_from(&cr, &o, line, 0);
	if (reply_is_error(cr.last)) {
		snprintf(text, sizeof(text), "%s", reply_error_text(cr.last));
		return text;
	}
	buf_init(&b, 1 << 20);
	render_text(reply_msg(cr.last, REPLY_CHANNEL), false, &b);
	if (reply_msg(cr.last, REPLY_INVOKER) != NULL) {
		buf_adds(&b, "(only you) ");
		render_text(reply_msg(cr.last, REPLY_INVOKER), false, &b);
	}
	snprintf(text, sizeof(text), "%s", buf_str(&b));
	buf_free(&b);
	return text;
}

static const char *
run(const char *user, const char *line)
{
	return run_as(user, false, line);
}

static struct channel *
table(void)
{
	return state_channel(cr.st, "console:table");
}

/* The saved form of the newest undo step (caller frees). */
static char *
newest_step(void)
{
	cJSON *o = undo_mod.save(channel_mod_peek(table(), CHANMOD_UNDO));
	cJSON *steps = cJSON_GetObjectItem(o, "steps");
	char *t = cJSON_PrintUnformatted(cJSON_GetArrayItem(steps, cJSON_GetArraySize(steps) - 1));

	cJSON_Delete(o);
	return t;
}

/* Whether the saved form of the newest undo step holds what. */
static bool
newest_holds(const char *what)
{
	char *t = newest_step();
	bool holds = strstr(t, what) != NULL;

	free(t);
	return holds;
}

/* The play-test's reroll: a bargain taken back and tried again until the
 * price is better; and a bad hazard roll taken back by its roller. With
 * nobody in the GM seat, nobody takes them back. */
static void
no_reroll_without_a_gm(void **unused)
{
	(void)unused;
	run("gm", "/vendor Gus");
	run("alice", "/bargain Gus \"lot of pelts\" sell +0");
	assert_string_equal(run("alice", "/undo"),
	                    "Your /bargain Gus \"lot of pelts\" sell +0 rolled dice, and rolls "
	                    "stand: nobody held the GM seat when it was made, so nobody can take "
	                    "it back.");
	assert_string_equal(run_as("gm", true, "/undo"),
	                    "The last change here, alice's /bargain Gus \"lot of pelts\" sell +0, "
	                    "rolled dice, and rolls stand: nobody held the GM seat when it was "
	                    "made, so nobody can take it back.");
	assert_int_equal(undo_depth(table()), 2);
	/* The deal was tried: the vendor never prices that lot again. */
	assert_non_null(
	    strstr(run("alice", "/bargain Gus \"lot of pelts\" sell +0"), "lot of pelts"));
	assert_true(reply_is_error(cr.last));
	run("alice", "/hazard");
	assert_string_equal(run("alice", "/undo"),
	                    "Your /hazard roll rolled dice, and rolls stand: nobody held the GM "
	                    "seat when it was made, so nobody can take it back.");
	assert_int_equal(undo_depth(table()), 3);
}

/* Play-test 2 of Fungeon: bo rolled with the seat empty, then claimed
 * it to undo the roll and roll again. A roll is taken back only by the
 * GM who held the seat when it was rolled (the same mark as the GM's
 * screen), and holds it still: not by whoever claims it afterwards. */
static void
a_later_holder_cannot_undo_rolls(void **unused)
{
	(void)unused;
	run("bo", "/fungeon join Brom fighter 2");
	run("bo", "/fungeon hallway");
	run("bo", "/gm claim");
	assert_string_equal(run("bo", "/undo"),
	                    "Your /fungeon hallway rolled dice, and rolls stand: nobody held the "
	                    "GM seat when it was made, so nobody can take it back.");
	assert_int_equal(undo_depth(table()), 2);
	/* gm held the seat when alice rolled; the seat changes hands */
	run("bo", "/gm release");
	run("gm", "/gm claim");
	run("alice", "/hazard");
	run("gm", "/gm release");
	run("bo", "/gm claim");
	assert_string_equal(run("bo", "/undo"),
	                    "The last change here, alice's /hazard roll, rolled dice, and rolls "
	                    "stand: only the GM who held the seat when it was made may take it "
	                    "back, while holding it.");
	assert_string_equal(run("alice", "/undo"),
	                    "Your /hazard roll rolled dice, and rolls stand: only the GM who held "
	                    "the seat when it was made may take it back, while holding it.");
	run("bo", "/gm release");
	run("gm", "/gm claim");
	assert_string_equal(run("gm", "/undo"),
	                    "Undid alice's /hazard roll and the dice it rolled: dungeon procedure "
	                    "state is as it was before.\nNothing more can be undone here: the next "
	                    "change, bo's /fungeon hallway, rolled dice while nobody held the GM "
	                    "seat, so it stands.\n");
}

/* Play-test 5 (Q6): the count of what is left to undo stops at the first
 * change that stands (one that rolled with the seat empty), as undoing
 * itself does: a roll made with nobody in the seat, then three changes
 * without dice, leaves two to undo after the newest, not four. */
static void
the_count_stops_where_undoing_stops(void **unused)
{
	(void)unused;
	run("alice", "/light add torch");
	run("alice", "/hazard");
	run("alice", "/light add torch");
	run("alice", "/light add lantern");
	run("alice", "/light add torch");
	assert_int_equal(undo_depth(table()), 5);
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /light add torch: dungeon procedure state is as it was "
	                    "before.\n2 more changes can be undone; the next is alice's /light add "
	                    "lantern.\n");
	assert_string_equal(
	    run("alice", "/undo"),
	    "Undid alice's /light add lantern: dungeon procedure state is as it was "
	    "before.\n1 more change can be undone; the next is alice's /light add "
	    "torch.\n");
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /light add torch: dungeon procedure state is as it was "
	                    "before.\nNothing more can be undone here: the next change, alice's "
	                    "/hazard roll, rolled dice while nobody held the GM seat, so it "
	                    "stands.\n");
	assert_int_equal(undo_depth(table()), 2);
}

/* With a GM in the seat: the roller and another player are sent to the
 * GM, a channel admin who is not the GM is refused too; the GM takes the
 * roll back in the open, named with its dice. */
static void
the_gm_takes_a_roll_back(void **unused)
{
	(void)unused;
	run("gm", "/gm claim");
	run("alice", "/hazard");
	assert_string_equal(run("alice", "/undo"),
	                    "Your /hazard roll rolled dice, and rolls stand: ask the GM, gm, to "
	                    "undo it.");
	assert_string_equal(run("bob", "/undo"),
	                    "The last change here, alice's /hazard roll, rolled dice, and rolls "
	                    "stand: ask the GM, gm, to undo it.");
	assert_string_equal(run_as("carol", true, "/undo"),
	                    "The last change here, alice's /hazard roll, rolled dice, and rolls "
	                    "stand: ask the GM, gm, to undo it.");
	assert_int_equal(undo_depth(table()), 1);
	assert_string_equal(run("gm", "/undo"),
	                    "Undid alice's /hazard roll and the dice it rolled: dungeon procedure "
	                    "state is as it was before.\nNothing more can be undone here.\n");
	assert_int_equal(undo_depth(table()), 0);
}

/* A change that rolled nothing stays its maker's, as before. */
static void
a_change_without_dice_stays_undoable(void **unused)
{
	char *step;

	(void)unused;
	run("gm", "/gm claim");
	run("alice", "/light add torch");
	step = newest_step();
	assert_null(strstr(step, "\"rolled\""));
	free(step);
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /light add torch: dungeon procedure state is as it was "
	                    "before.\nNothing more can be undone here.\n");
}

/* The mark comes from the dice drawn, whatever the command: each of these
 * rolls, and is marked; each of those does not, and is not. */
static void
the_machinery_sees_the_dice(void **unused)
{
	static const char *const rolling[] = {
	    "/vendor Gus", "/bargain Gus gem sell +2", "/hazard", "/rest", "/fungeon hallway", NULL,
	};
	static const char *const still[] = {
	    "/light add torch",
	    "/tension raise combat",
	    "/safe on",
	    "/hazard who gm",
	    "/turn move walking",
	    "/turn advance",
	    "/fungeon join Brom fighter 2",
	    NULL,
	};

	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/fungeon join Alba wizard 2");
	for (size_t i = 0; rolling[i] != NULL; i++) {
		size_t depth = undo_depth(table());
		char *step;

		run("gm", rolling[i]);
		if (undo_depth(table()) != depth + 1)
			fail_msg("%s left no step: %s", rolling[i], text);
		step = newest_step();
		if (strstr(step, "\"rolled\":true") == NULL)
			fail_msg("%s rolled dice but its step is not marked: %s", rolling[i], step);
		free(step);
	}
	for (size_t i = 0; still[i] != NULL; i++) {
		char *step;

		size_t depth = undo_depth(table());

		run("gm", still[i]);
		if (undo_depth(table()) != depth + 1 && undo_depth(table()) != UNDO_STEPS)
			fail_msg("%s left no step: %s", still[i], text);
		step = newest_step();
		if (strstr(step, "\"rolled\"") != NULL)
			fail_msg("%s rolled no dice but its step is marked: %s", still[i], step);
		free(step);
	}
}

/* A saved history that must not load, and the reason it gives. */
static void
refused_history(const char *json, const char *why)
{
	cJSON *o = cJSON_Parse(json);
	void *h = undo_mod.create();
	char err[256];

	assert_int_equal(undo_mod.load(h, o, err, sizeof(err)), -1);
	assert_string_equal(err, why);
	undo_mod.destroy(h);
	cJSON_Delete(o);
}

/* The channel's history saved and read back in its place, as a restart
 * does. */
static void
history_reloaded(void)
{
	cJSON *o = undo_mod.save(channel_mod_peek(table(), CHANMOD_UNDO));
	void *h = undo_mod.create();
	char err[256];

	assert_int_equal(undo_mod.load(h, o, err, sizeof(err)), 0);
	channel_mod_set(table(), CHANMOD_UNDO, h);
	cJSON_Delete(o);
}

/* What a player's /undo says after the GM's hidden play: the sign's
 * creature remembered, a player's change, then the GM's line (a hidden
 * tension roll or wandering check, which may meet the creature and so
 * forget it, or not). found says whether it met the creature. */
static const char *
undo_after_hidden(uint64_t seed, const char *gm_line, bool *found)
{
	cmdrun_close(&cr);
	cmdrun_open(&cr, seed);
	run("gm", "/gm claim");
	run("gm", "/tension mode hidden");
	run("gm", "/tension set 5 # s");
	run("gm", "/hazard sign Vexthorn");
	run("alice", "/light add torch");
	run("gm", gm_line);
	*found = strstr(run("gm", "/turn"), "no sign's creature is remembered") != NULL;
	return run("alice", "/undo");
}

/* Hidden play leaves the same trace in the undo history whatever it
 * found: a player's /undo is told that the last change was made behind
 * the screen, after a hidden roll that met the sign's creature (a change)
 * and after one that did not (none), and never which command it was. */
static void
hidden_play_leaves_the_same_trace(void **unused)
{
	static const char *const lines[] = {"/tension roll 0", "/wander tension exits:1"};
	static const char *const want = "The last change here was made behind the GM's screen; "
	                                "only the GM can undo it.";

	(void)unused;
	for (size_t l = 0; l < sizeof(lines) / sizeof(lines[0]); l++) {
		int met = 0, missed = 0;

		for (uint64_t seed = 1; seed <= 12; seed++) {
			bool found;
			const char *said = undo_after_hidden(seed, lines[l], &found);

			if (strcmp(said, want) != 0)
				fail_msg(
				    "%s, seed %llu (%s the creature): a player's /undo said: %s",
				    lines[l], (unsigned long long)seed, found ? "met" : "missed",
				    said);
			met += found;
			missed += !found;
		}
		/* both outcomes were seen: the trace is compared across them */
		assert_true(met > 0);
		assert_true(missed > 0);
	}
}

/* hidden5: a player's wandering check while Tension is hidden that meets
 * the sign's remembered creature forgets it (a change); one that meets
 * anything else changes nothing. The undo history must not tell them
 * apart: with the creature remembered or dropped (/hazard sign none),
 * the same dice leave the same /undo reply. */
static void
a_players_hidden_check_leaves_the_same_trace(void **unused)
{
	char said[2][1024];
	int came = 0;

	(void)unused;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		for (int dropped = 0; dropped < 2; dropped++) {
			cmdrun_close(&cr);
			cmdrun_open(&cr, seed);
			run("gm", "/gm claim");
			run("gm", "/table set encounter 1-6: Quillfang");
			run("gm", "/tension mode hidden");
			/* two screened changes in each world, the last one differing */
			run("gm", "/hazard sign Gloamjaw");
			run("gm", dropped ? "/hazard sign none" : "/hazard sign Vexthorn");
			run("alice", "/light add torch");
			if (strstr(run("alice", "/wander corridor"),
			           "What they are stays behind") != NULL)
				came++;
			snprintf(said[dropped], sizeof(said[dropped]), "%s", run("alice", "/undo"));
		}
		if (strcmp(said[0], said[1]) != 0)
			fail_msg("seed %llu: remembered: %s / dropped: %s",
			         (unsigned long long)seed, said[0], said[1]);
	}
	assert_true(came > 0); /* monsters came on some seeds: the case is tried */
}

/* recheck9 J3: with Tension hidden and no encounter table of the channel,
 * a player's hazard roll whose die says Encounter read "The encounter is
 * behind the GM's screen" when a sign's creature was remembered and
 * "Encounter! A wandering monster appears" when none was: the channel
 * learnt what the GM had behind the screen. The same dice read the same
 * in both worlds. */
static void
a_players_hazard_roll_reads_the_same_whatever_is_remembered(void **unused)
{
	char said[2][4096];
	int met = 0;

	(void)unused;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		for (int forgot = 0; forgot < 2; forgot++) {
			cmdrun_close(&cr);
			cmdrun_open(&cr, seed);
			run("gm", "/gm claim");
			run("gm", "/tension mode hidden");
			/* two screened changes in each world, the last one differing */
			run("gm", "/hazard sign Gloamjaw");
			run("gm", forgot ? "/hazard sign" : "/hazard sign Vexthorn");
			snprintf(said[forgot], sizeof(said[forgot]), "%s",
			         run("alice", "/hazard roll"));
			if (strstr(said[forgot], "The encounter is behind the GM's screen") != NULL)
				met++;
		}
		if (strcmp(said[0], said[1]) != 0)
			fail_msg("seed %llu: remembered:\n%s\nforgotten:\n%s",
			         (unsigned long long)seed, said[0], said[1]);
	}
	assert_true(met > 0); /* the die said Encounter on some seeds */
}

/* hidden6 J1: a hidden roll that changes nothing still leaves its step,
 * and that step is a change of the channel like any (saved with it, seen
 * by a live panel, which edited only when the roll had met the sign's
 * creature: "(edited)" told the players). */
static void
a_screened_step_of_nothing_is_a_change(void **unused)
{
	bool found;
	uint32_t before;

	(void)unused;
	undo_after_hidden(1, "/gm", &found); /* the hidden world, the creature remembered */
	before = channel_changes(table());
	run("gm", "/tension roll 0");
	/* this roll met no creature (it is still remembered): it changed nothing */
	assert_non_null(strstr(run("gm", "/turn"), "the next encounter is Vexthorn"));
	assert_int_equal(channel_changes(table()), before + 1);
}

/* A step made behind the screen that changed nothing is saved, read back
 * and undone by the GM, the channel told only that much. */
static void
a_screened_step_of_nothing_survives_a_restart(void **unused)
{
	bool found = true;

	(void)unused;
	for (uint64_t seed = 1; found; seed++)
		undo_after_hidden(seed, "/tension roll 0", &found);
	history_reloaded();
	assert_string_equal(run("alice", "/undo"),
	                    "The last change here was made behind the GM's screen; only the GM "
	                    "can undo it.");
	assert_string_equal(
	    run("gm", "/undo"),
	    "gm undid a change made behind the GM's screen.\n"
	    /* the channel is told no count of steps with secret ones beneath */
	    "More can be undone; the next is alice's /light add torch.\n"
	    "(only you) Undid gm's /tension roll 0 and the dice it rolled: it had "
	    "changed nothing that is kept.\n"
	    "4 more changes can be undone; the next is alice's /light add torch.\n");
	refused_history("{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\","
	                "\"screened\":1}]}",
	                "An undo step's \"screened\" is not true or false.");
	/* only a step made behind the screen may restore nothing */
	refused_history("{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\","
	                "\"deltas\":{}}]}",
	                "An undo step restores no module.");
}

/* The mark is saved with the step and read back. */
static void
the_mark_survives_a_restart(void **unused)
{
	(void)unused;
	run("gm", "/gm claim");
	run("alice", "/hazard");
	history_reloaded();
	assert_string_equal(run("alice", "/undo"),
	                    "Your /hazard roll rolled dice, and rolls stand: ask the GM, gm, to "
	                    "undo it.");
	refused_history("{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\","
	                "\"rolled\":1,\"deltas\":{\"tension\":null}}]}",
	                "An undo step's \"rolled\" is not true or false.");
}

/* Whether Tension was open once a step was made is saved with it and read
 * back: /undo's count folds the run behind the screen as the next /undo
 * will read it, a change made in the open apart (recheck16 F2). A step
 * saved without it reads as made under Tension's mode now. */
static void
tensions_mode_survives_a_restart(void **unused)
{
	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/light add torch");
	assert_true(newest_holds("\"open\":true"));
	run("gm", "/tension mode hidden");
	run("gm", "/tension raise 1 # x");
	assert_true(newest_holds("\"open\":false"));
	history_reloaded();
	assert_string_equal(run("gm", "/undo"),
	                    "gm undid a change made behind the GM's screen.\n"
	                    "More can be undone; the next is a change made behind the "
	                    "GM's screen.\n"
	                    "(only you) Undid gm's /tension raise 1 # x: Tension state is as it "
	                    "was before.\n"
	                    "2 more changes can be undone; the next is gm's /tension mode "
	                    "hidden.\n");
	refused_history("{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\","
	                "\"open\":1,\"deltas\":{\"tension\":null}}]}",
	                "An undo step's \"open\" is not true or false.");
}

/* recheck20 F4: a GM's change the channel read all of while Tension is
 * hidden (a public /light fail) holds nothing behind the screen: /undo
 * names it to everyone, in the channel's part alone, and its maker's rule
 * holds; the mark is saved with the step. A GM's change to Tension keeps
 * the screen's wording. */
static void
a_public_gm_change_is_named_to_everyone(void **unused)
{
	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/tension mode hidden");
	run("alice", "/light add torch");
	run("gm", "/light fail");
	assert_true(newest_holds("\"public\":true"));
	history_reloaded();
	assert_string_equal(run("alice", "/undo"),
	                    "The last change here is gm's /light fail; only gm or the GM can "
	                    "undo it.");
	assert_string_equal(run("gm", "/undo"),
	                    "Undid gm's /light fail: dungeon procedure state is as it was "
	                    "before.\n"
	                    "More can be undone; the next is alice's /light add torch.\n");
	run("gm", "/tension raise 1 # x");
	assert_false(newest_holds("\"public\""));
	assert_string_equal(run("alice", "/undo"),
	                    "The last change here was made behind the GM's screen; only the GM "
	                    "can undo it.");
	refused_history("{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\","
	                "\"public\":1,\"deltas\":{\"tension\":null}}]}",
	                "An undo step's \"public\" is not true or false.");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(no_reroll_without_a_gm, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_gm_takes_a_roll_back, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_later_holder_cannot_undo_rolls, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_count_stops_where_undoing_stops, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_change_without_dice_stays_undoable, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_machinery_sees_the_dice, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_mark_survives_a_restart, setup, teardown),
	    cmocka_unit_test_setup_teardown(tensions_mode_survives_a_restart, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_public_gm_change_is_named_to_everyone, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(hidden_play_leaves_the_same_trace, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_screened_step_of_nothing_survives_a_restart, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(a_players_hidden_check_leaves_the_same_trace, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(a_screened_step_of_nothing_is_a_change, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(
	        a_players_hazard_roll_reads_the_same_whatever_is_remembered, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
