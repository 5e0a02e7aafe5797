/*
 * The independent play-test of texts 001-004 (round 1), each usability
 * finding played as the report found it, with what a player should read
 * instead. D1 is tests/unit/test_undo_policy.c; L1, L2 and G1 are
 * test_hidden.c's differential walk, test_procedure_commands.c and
 * test_irc_bot.c; L3 is test_screen.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/procedure/procedure_state.h"
#include "tests/unit/helpers/fgtable.h"

/* Checks that line, run by user, answers with text holding want. */
static void
holds(struct fgtable *t, const char *user, const char *line, const char *want)
{
	char *text = fgtable_run(t, user, line);

	fgtable_holds(text, want);
	free(text);
}

/* Checks that line, run by user, is refused with exactly want. */
static void
refused(struct fgtable *t, const char *user, const char *line, const char *want)
{
	char *text = fgtable_run(t, user, line);

	if (!reply_is_error(t->last))
		fail_msg("'%s' was not refused: %s", line, text);
	assert_string_equal(reply_error_text(t->last), want);
	free(text);
}

static struct procedure_state *
proc(struct fgtable *t)
{
	return procedure_state_of(state_channel(t->st, "console:t"));
}

/* U1: a bargaining roll of many dice is shown as /roll shows it: every
 * entry of the list closed, long pools summed up, runs merged. */
static void
u1_bargain_dice_as_roll_shows_them(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	char *text;

	(void)unused;
	fgtable_ok(t, "gm", "/vendor Gus");
	text = fgtable_said(t, "alice", "/bargain Gus gem3 sell 1000d6");
	assert_non_null(strstr(text, "alice rolls 1000d6: ["));
	assert_non_null(strstr(text, " more] = "));
	assert_null(strstr(text, ",  ="));
	free(text);
	text = fgtable_said(t, "alice", "/bargain Gus gem4 sell 30d6");
	assert_non_null(strstr(text, "alice rolls 30d6: ["));
	assert_non_null(strstr(text, "x3"));
	free(text);
	holds(t, "alice", "/bargain Gus gem5 sell +3", "alice rolls 1d20 + 3: [");
	fgtable_free(t);
}

/* U2: a bare number or name goes to the option that can take it. */
static void
u2_bare_values_find_their_option(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	const struct reply_msg *m;

	(void)unused;
	fgtable_ok(t, "alice", "/rest 3");
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_int_equal(m->nbuttons, 1);
	assert_string_equal(m->buttons[0].action, "wander rest exits:3");
	holds(t, "alice", "/wander rest 3", "of 3 (d3)");
	refused(t, "alice", "/wander 3",
	        "The corridor check takes no number: its odds are 1 in 6 (got 3); a room's exits "
	        "are for /wander check rest 3, odds of 3 in 6 for /wander check classic 3.");
	holds(t, "alice", "/light add lantern bob", "Lit 1 lantern carried by bob;");
	holds(t, "alice", "/light add torch 2 carol", "Lit 2 torches carried by carol;");
	/* recheck4 F5: a blank carrier is none, not one shown as blanks */
	holds(t, "alice", "/light add torch who:\"  \"", "Lit 1 torch; it lasts");
	holds(t, "alice", "/light add torch 1 \"\xe2\x80\x8b\"", "Lit 1 torch; it lasts");
	/* a slip in a choice is still one */
	refused(t, "alice", "/light add torches",
	        "Kind must be one of torch, lantern, candle (got 'torches'; did you mean "
	        "torch?); usage: /light add <torch|lantern|candle> [count] [who]");
	fgtable_free(t);
}

/* U3: the refusals say what is wrong and what works. */
static void
u3_refusals_that_help(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/hazard who gm");
	refused(t, "alice", "/turn move running",
	        "Only the GM sets the party's pace in this channel (/hazard who gm); the GM is "
	        "gm.");
	refused(t, "gm", "/turn move flying",
	        "Pace must be one of crawling, walking, running (got 'flying'); usage: /turn "
	        "move [crawling|walking|running]");
	refused(t, "gm", "/wander rest exits:21",
	        "A resting check needs a way in for the monsters: exits must be from 1 to 20 "
	        "(got 21).");
	refused(t, "gm", "/wander tension exits:21",
	        "A tension check takes exits from 0 (a sealed room) to 20 (got 21).");
	refused(t, "alice", "/bargain \"Old Gus\" ring sell",
	        "There is no vendor 'Old Gus' here; /vendor meet Old Gus meets one.");
	fgtable_ok(t, "gm", "/vendor meet Old Gus");
	holds(t, "alice", "/bargain \"Old Gus\" ring sell",
	      "Bargaining with Old Gus: selling ring");
	refused(t, "alice", "/gmroll 1d20 private:true",
	        "A secret roll takes no private option: it already goes to the GM alone (/roll "
	        "1d20 private:true is a roll only you see).");
	holds(t, "alice", "/gmroll 1d20 # private:label", "rolls in secret");
	fgtable_free(t);
}

/* U4: /turn says a rest is due, due now, or overdue. */
static void
u4_an_overdue_rest_reads_overdue(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/turn advance 5");
	holds(t, "gm", "/turn", "5 turns since the last rest; a rest is due after 6.\n");
	fgtable_ok(t, "gm", "/turn advance");
	holds(t, "gm", "/turn", "6 turns since the last rest: a rest is due now.\n");
	fgtable_ok(t, "gm", "/turn advance 144");
	holds(t, "gm", "/turn",
	      "150 turns since the last rest: a rest is overdue (one is due every 6 turns).\n");
	fgtable_free(t);
}

/* U5: vendors are listed, forgotten by the GM, folded in every script,
 * and "list" is no vendor's name. */
static void
u5_vendors_listed_forgotten_folded(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	char line[64];

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	holds(t, "alice", "/vendor list", "No vendor met here yet;");
	assert_int_equal(proc(t)->nvendors, 0);
	fgtable_ok(t, "gm", "/vendor Émile");
	holds(t, "alice", "/bargain émile x sell", "Bargaining with Émile: selling x");
	holds(t, "alice", "/bargain ÉMILE X sell", "Émile has already dealt on x");
	for (int i = 1; i < 16; i++) {
		snprintf(line, sizeof(line), "/vendor V%d", i);
		fgtable_ok(t, "gm", line);
	}
	refused(t, "gm", "/vendor Seventeen",
	        "This channel remembers 16 vendors already, the most it can; the GM forgets one "
	        "with /vendor forget NAME.");
	holds(t, "alice", "/vendor list", "Vendors met here (16 of at most 16)");
	refused(t, "alice", "/vendor forget V1", "Only the GM can do that here; the GM is gm.");
	holds(t, "gm", "/vendor forget v1", "V1 is forgotten, with its stock and its deals;");
	assert_int_equal(proc(t)->nvendors, 15);
	holds(t, "gm", "/vendor Seventeen", "Seventeen's stock");
	refused(t, "gm", "/vendor forget nobody",
	        "There is no vendor 'nobody' here to forget; /vendor list shows those met.");
	fgtable_free(t);
}

/* U6: dice in a table's entry roll in the full notation. */
static void
u6_entry_dice_roll_the_full_notation(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	char *text, *line;
	size_t n;

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/hazard custom d2 1-2 20d6!! zombies, 2d4.");
	text = fgtable_said(t, "gm", "/hazard");
	/* the rolled line: "N zombies, M. (20d6!!: ...; 2d4: ...)", no "!!"
	 * left over after the total */
	line = strstr(text, "(20d6!!: ");
	assert_non_null(line);
	while (line > text && line[-1] != '\n')
		line--;
	n = strspn(line, "0123456789");
	assert_true(n >= 2);
	assert_memory_equal(line + n, " zombies, ", 10);
	assert_non_null(strstr(line, "; 2d4: "));
	free(text);
	fgtable_free(t);
}

/* U7: switching procedure puts out the sources whose life is spent. */
static void
u7_spent_lights_go_out_on_a_switch(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/light add torch");
	fgtable_ok(t, "gm", "/light add candle");
	fgtable_ok(t, "gm", "/turn advance 3");
	fgtable_ok(t, "gm", "/hazard table delving");
	fgtable_ok(t, "gm", "/turn advance 5");
	holds(t, "gm", "/hazard table exploration",
	      "Torch #1 and candle #2 have already burned longer than the exploration procedure "
	      "lets them last: they go out.\n");
	assert_int_equal(proc(t)->clock.lights.n, 0);
	fgtable_free(t);
}

/* U8: a burned-out lantern, a Sign in a safe area, a sign named first. */
static void
u8_lanterns_signs_and_safe_areas(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/light add lantern");
	fgtable_ok(t, "gm", "/turn advance 36");
	refused(t, "gm", "/light refill 1",
	        "No lit lantern is numbered '1' (a lantern that burned out leaves /light list); "
	        "/light add lantern lights one again with a fresh flask.");
	refused(t, "gm", "/light refill lantern",
	        "No lantern is lit (a lantern that burned out leaves /light list); /light add "
	        "lantern lights one again with a fresh flask.");
	fgtable_ok(t, "gm", "/turn reset");
	holds(t, "gm", "/hazard sign Wolf",
	      "The next encounter is Wolf (named by the GM before the first turn).\n");
	fgtable_ok(t, "gm", "/hazard table delving");
	fgtable_ok(t, "gm", "/hazard custom d2 1-2 Sign");
	fgtable_ok(t, "gm", "/safe on");
	holds(t, "gm", "/hazard",
	      "No sign: this is a safe area, where no wandering monsters come, so no encounter "
	      "is rolled for one.\n");
	/* the creature named before stays the next encounter */
	assert_string_equal(proc(t)->clock.sign, "Wolf");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(u1_bargain_dice_as_roll_shows_them),
	    cmocka_unit_test(u2_bare_values_find_their_option),
	    cmocka_unit_test(u3_refusals_that_help),
	    cmocka_unit_test(u4_an_overdue_rest_reads_overdue),
	    cmocka_unit_test(u5_vendors_listed_forgotten_folded),
	    cmocka_unit_test(u6_entry_dice_roll_the_full_notation),
	    cmocka_unit_test(u7_spent_lights_go_out_on_a_switch),
	    cmocka_unit_test(u8_lanterns_signs_and_safe_areas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
