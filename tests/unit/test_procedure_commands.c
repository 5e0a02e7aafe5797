/*
 * Unit tests for the procedure commands through the dispatcher: every bad
 * input of issue 3 gets one error sentence and leaves the channel's state
 * exactly as it was; GM-only settings; per-channel state; the hazard roll
 * shows the whole table with one highlighted row.
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

#include "commands/core/dispatch.h"
#include "commands/procedure/procedure_state.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdrun.h"

CMDRUN_FIXTURE(99)

/* Runs line as user in channel; the reply stays in cr.last. */
static const struct reply *
run_in(const char *chan, const char *user, const char *line)
{
	return cmdrun_line(&cr, chan, user, line, 0);
}

static const struct reply *
run(const char *user, const char *line)
{
	return run_in("table", user, line);
}

static char *
state_text(const char *chan)
{
	struct channel *ch = state_channel(cr.st, chan);
	cJSON *o = procedure_state_mod.save(procedure_state_of(ch));
	char *t = cJSON_PrintUnformatted(o);

	cJSON_Delete(o);
	return t;
}

/* line must fail with an error containing want (whole: that is want,
 * exactly), the state unchanged. */
static void
refused_as(const char *user, const char *line, const char *want, bool whole)
{
	char *before = state_text("console:table"), *after;
	const struct reply *r = run(user, line);

	if (!reply_is_error(r) || (whole ? strcmp(reply_error_text(r), want) != 0
	                                 : strcasestr(reply_error_text(r), want) == NULL)) {
		fprintf(stderr, "'%s' gave: %s\n", line,
		        reply_is_error(r) ? reply_error_text(r) : "(no error)");
		fail();
	}
	after = state_text("console:table");
	assert_string_equal(before, after);
	free(before);
	free(after);
}

static void
refused(const char *user, const char *line, const char *want)
{
	refused_as(user, line, want, false);
}

static void
ok(const char *user, const char *line)
{
	const struct reply *r = run(user, line);

	if (reply_is_error(r)) {
		fprintf(stderr, "'%s' failed: %s\n", line, reply_error_text(r));
		fail();
	}
}

static void
bad_input_leaves_state(void **unused)
{
	static const struct {
		const char *line, *want;
	} bad[] = {
	    {"hazard table dungeon", "table must be one of exploration, delving, classic, custom"},
	    {"hazard table custom", "no custom hazard table yet"},
	    {"hazard roll table:custom", "no custom hazard table yet"},
	    {"hazard chance 7 6", "7-in-6 is not a chance; X must be from 1 to 6 on a d6."},
	    {"hazard chance 0 6", "0-in-6 is not a chance; X must be from 1 to 6 on a d6."},
	    {"hazard chance 1 101",
	     "A 101-sided die cannot be used for X-in-N odds; N must be from 2 to 100."},
	    /* recheck3 F11: the forms /wander takes, and an error naming them */
	    {"hazard chance 2 of 6",
	     "'2 of 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone "
	     "for X-in-6 (2 is 2-in-6)."},
	    /* recheck5 F1: the odds are one option, with no n: of their own */
	    {"hazard chance 2-in-6 n:8",
	     "'n:' is no option of this command (its options are odds:); usage: /hazard chance "
	     "<odds>"},
	    /* recheck6 F7: a named odds value of several words, unquoted, is
	     * read whole */
	    {"hazard chance odds:2 in",
	     "'2 in' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone "
	     "for X-in-6 (2 is 2-in-6)."},
	    {"hazard chance odds:7 in 6", "7-in-6 is not a chance; X must be from 1 to 6 on a d6."},
	    /* recheck6 F6: blank odds are none given, not quoted blanks */
	    {"hazard chance odds:\"  \"",
	     "No value given for odds (encounter on X or less on a dN: X-in-N "
	     "(2-in-6, 2 in 6 or 2 6), or X "
	     "alone for X-in-6); usage: /hazard chance <odds>"},
	    {"hazard chance odds:\"\xe2\x80\x8b\"", "No value given for odds"},
	    /* recheck6 F10: a subcommand's name but for an invisible
	     * character is no table of /hazard roll, and no "did you mean"
	     * offers the word shown */
	    {"hazard cha\xe2\x80\x8bnce 2",
	     "Unknown subcommand 'chance' with an invisible character U+200B at column 4; usage: "
	     "/hazard <roll|show|table|chance|custom|procedure|who|sign|fatigue>"},
	    {"hazard cha\xc2\xadnce 2",
	     "Unknown subcommand 'chance' with an invisible character U+00AD at column 4; usage: "
	     "/hazard <roll|show|table|chance|custom|procedure|who|sign|fatigue>"},
	    {"hazard custom d8 \"\"", "the table is empty"},
	    {"hazard custom d8 \"1 a; 3-8 b\"",
	     "The d8 table was not saved: entry 2: result 2 is not covered by any entry."},
	    {"hazard custom d8 \"1-3 a; 3-8 b\"", "entry 2: range 3-8 overlaps"},
	    {"hazard custom d8 \"1-4 a; 5-7 b\"", "result 8 is not covered"},
	    {"hazard custom d6 \"1-4 a; 5-8 b\"", "range 5-8 is outside 1-6"},
	    {"hazard custom d1 \"1 a\"", "'d1' is not a die for a hazard table"},
	    {"hazard custom d1000 \"1 a\"",
	     "'d1000' is not a die for a hazard table; give d2 to d100 (e.g. d6 or d8)."},
	    /* newcomer F16: the die left out, the entries in its place, was "Die
	     * may be at most 8 bytes (got 11)" */
	    {"hazard custom \"1 Encounter\"",
	     "'1 Encounter' is no die: a custom hazard table takes its die first, d2 to d100, "
	     "then its entries (/hazard custom d8 1 Encounter; 2-3 Sign; 4 Light; 5-8 Nothing)."},
	    {"hazard custom die:\"1-8 Encounter\" entries:\"1-8 Encounter\"",
	     "'1-8 Encounter' is no die: a custom hazard table takes its die first"},
	    {"hazard procedure dungeon", "procedure must be one of exploration, delving"},
	    {"hazard who everyone", "who must be one of anyone, gm"},
	    {"hazard sign", "No sign's creature is remembered"},
	    /* recheck4 F5: an empty or blank creature named nothing, and a
	     * blank one was kept and shown */
	    {"hazard sign \"\"",
	     "A blank creature names none; name the creature whose sign was met, or forget the "
	     "one remembered with /hazard sign none."},
	    {"hazard sign \"  \"", "A blank creature names none"},
	    {"hazard sign creature:\"\xe2\x80\x8b \"", "A blank creature names none"},
	    {"hazard frob", "(got 'frob'); usage: /hazard roll"},
	    {"turn advance 100000", "Turns must be a whole number from 1 to 144"},
	    {"turn advance 0", "Turns must be a whole number from 1 to 144"},
	    {"wander hallway", "procedure must be one of corridor, rest, classic, tension"},
	    {"wander rest exits:0",
	     "A resting check needs a way in for the monsters: exits must be from 1 to 20 "
	     "(got 0)."},
	    {"wander tension exits:21",
	     "A tension check takes exits from 0 (a sealed room) to 20 (got 21)."},
	    /* recheck6 F11: the range named is the check's */
	    {"wander tension exits:1000", "Exits must be a whole number from 0 to 20 (got '1000')"},
	    {"wander tension x", "Exits must be a whole number from 0 to 20 (got 'x')"},
	    {"wander rest 1000", "Exits must be a whole number from 1 to 20 (got '1000')"},
	    {"wander tension tension:11", "Tension must be a whole number from 1 to 10"},
	    {"wander classic chance:7-in-6", "7-in-6 is not a chance"},
	    {"wander classic chance:lots", "'lots' is not a chance"},
	    {"wander corridor chance:2",
	     "Chance is for the classic check only; the corridor check has fixed odds."},
	    /* newcomer F15: a number given by name where the check takes none
	     * names the fix */
	    {"wander classic exits:2",
	     "Exits count for the rest and tension checks only, not classic (for classic odds of 2 "
	     "in 6, write chance:2)."},
	    {"wander tension chance:5",
	     "Chance is for the classic check only; the tension check has fixed odds (for a "
	     "Tension of 5, write tension:5)."},
	    /* recheck F9: numbers typed by position that the check has no
	     * place for say what it takes, and how to name another check */
	    {"wander 2",
	     "The corridor check takes no number: its odds are 1 in 6 (got 2); a room's exits are "
	     "for /wander check rest 2, odds of 2 in 6 for /wander check classic 2."},
	    {"wander corridor 2 6",
	     "The corridor check takes no number: its odds are 1 in 6 (got 2 and 6); a room's "
	     "exits are for /wander check rest 2, odds of 2 in 6 for /wander check classic 2."},
	    {"wander rest 3 5", "The rest check takes one number, the room's exits (got 3 and 5)."},
	    /* the classic check's words by position are its odds, one value:
	     * refused whole by the one reader of odds, which names the odds
	     * it read and what follows them (F14: not "write like 2 6") */
	    {"wander classic 2 6 3",
	     "'2 6 3' is the odds 2-in-6 followed by '3', which is no part of them; give the odds "
	     "alone."},
	    /* recheck5 F14: "(got 2 and 6)" dropped the word; a Tension
	     * error for a check that takes none */
	    {"wander classic 2 of 6",
	     "'2 of 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone "
	     "for X-in-6 (2 is 2-in-6)."},
	    {"wander classic 3 2 in 6", "'3 2 in 6' is not a chance; write X-in-N like 2-in-6"},
	    /* recheck5 F5: a word where a check's number goes was called a
	     * chance */
	    {"wander rest x", "Exits must be a whole number from 1 to 20 (got 'x'); usage: "},
	    {"wander tension 3 x",
	     "Tension must be a whole number from 1 to 10 (got 'x'); usage: "},
	    {"wander rest 3 x", "Unexpected 'x' ('3' before it filled exits:, the last place); "
	                        "usage: /wander check"},
	    {"wander tension chance:lots",
	     "Chance is for the classic check only; the tension check has fixed odds."},
	    /* F14: not "takes its odds as ... 2 6" of odds given and a
	     * number after them */
	    {"wander classic chance:2 3",
	     "The classic check takes its odds and no other number: chance:2 gives them, and 3 has "
	     "no place (odds of 2 in 3 are chance:2-in-3)."},
	    /* recheck5 F2/F3b: a number or odds that are one but for an
	     * invisible character name it, whichever check reads them */
	    {"wander classic 2\xe2\x80\x8b",
	     "'2' with an invisible character U+200B at column 2 is not a chance"},
	    {"wander classic 2 i\xe2\x80\x8bn 6",
	     "'2 in 6' with an invisible character U+200B at column 4 is not a chance"},
	    {"wander rest 3\xe2\x80\x8b",
	     "Exits must be a whole number from 1 to 20 (got '3' with an invisible character "
	     "U+200B at column 2)"},
	    {"wander tension 3 5\xe2\x80\x8b",
	     "Tension must be a whole number from 1 to 10 (got '5' with an invisible character "
	     "U+200B at column 2)"},
	    /* recheck3 F11: "in" alone is no odds: the message shows the forms */
	    {"wander classic 1 in", "'1 in' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, "
	                            "or 2 6), or X alone for X-in-6 (2 is 2-in-6)."},
	    {"hazard chance 1 in", "'1 in' is not a chance; write X-in-N like 2-in-6"},
	    {"wander classic 7 6", "7-in-6 is not a chance; X must be from 1 to 6 on a d6."},
	    {"wander tension 3 5 2",
	     "The tension check takes two numbers, the room's exits and then a Tension (got 3, 5 "
	     "and 2)."},
	    {"wander tension exits:3 tension:4 5",
	     "The tension check takes two numbers, the room's exits and then a Tension (got "
	     "exits:3, tension:4 and 5)."},
	    {"wander tension 3 12", "Tension must be a whole number from 1 to 10 (got '12')"},
	    {"wander corridor exits:2", "Exits count for the rest and tension checks only"},
	    {"wander rest tension:3", "The tension option is for the tension check only"},
	    {"wander default retreat", "procedure must be one of corridor, rest"},
	    {"wander default rest chance:2", "Chance is for the classic check only"},
	    {"wander retreat 0 a:1", "Floor must be a whole number from 1 to 20"},
	    {"wander retreat 2 alice", "'alice' is not a player"},
	    {"wander retreat 2",
	     "No value given for players (players as name:level, +N for extra dice: "
	     "alice:2 bob:3+1); usage"},
	    {"light add lamp", "kind must be one of torch, lantern, candle"},
	    {"light add torch 19", "2 sources are lit and 19 more would pass the limit of 20"},
	    {"light add torch 0", "Count must be a whole number from 1 to 20"},
	    {"light out 9", "No lit source is numbered '9'"},
	    {"light out candle", "No candle is lit."},
	    {"light refill 1", "Torch #1 (alice) is not a lantern"},
	    {"light flicker", "There is no Light result this turn"},
	    {"rest exits:0", "Exits must be a whole number from 1 to 20"},
	    /* recheck9 F2: a one-letter option is named as help describes it */
	    {"surprise 21",
	     "Characters checking (n:) must be a whole number from 1 to 20 (got '21'); usage: "
	     "/surprise [n] [mod] [monsters] [forced]"},
	    {"surprise forced:true", "give monsters:N too"},
	    {"bargain Bob ring sell", "There is no vendor 'Bob' here"},
	    {"encumbrance -5 10", "Str must be a whole number from -4 to 10"},
	    {"encumbrance 11 10", "Str must be a whole number from -4 to 10"},
	    {"encumbrance 0 -1", "Weight must be a whole number from 0 to 100000"},
	    {"procedure dungeon",
	     "'dungeon' is no card (exploration, delving or rooms) and no section of one"},
	};

	ok("gm", "gm claim");
	ok("gm", "light add torch 2 alice");
	ok("gm", "turn advance 1");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused("gm", bad[i].line, bad[i].want);
}

static void
gm_only_settings(void **unused)
{
	static const struct {
		const char *line, *want;
	} gms[] = {
	    {"hazard table delving", "Only the GM can do that here; the GM is gm."},
	    {"hazard chance 2 6", "the GM is gm"},
	    {"hazard custom d6 \"1-6 a\"", "the GM is gm"},
	    {"hazard procedure delving", "the GM is gm"},
	    {"hazard who gm", "the GM is gm"},
	    {"hazard sign owlbear", "the GM is gm"},
	    {"turn advance 2", "the GM is gm"},
	    {"turn reset", "the GM is gm"},
	    {"wander default rest", "the GM is gm"},
	    {"safe on", "the GM is gm"},
	    {"light flicker", "the GM is gm"},
	    {"light low 3", "the GM is gm"},
	    {"hazard fatigue 2", "the GM is gm"},
	};

	ok("gm", "gm claim");
	for (size_t i = 0; i < sizeof(gms) / sizeof(gms[0]); i++)
		refused("alice", gms[i].line, gms[i].want);
	/* anyone may roll by default; the GM can keep the die */
	ok("alice", "hazard");
	ok("gm", "hazard who gm");
	refused("alice", "hazard",
	        "Only the GM passes turns in this channel (/hazard who gm); "
	        "the GM is gm.");
	refused("alice", "rest", "Only the GM passes turns");
	ok("gm", "hazard");
	ok("alice", "light add torch");
	ok("alice", "wander");
	/* the GM's die outlives the seat: the refusal says nobody is GM */
	ok("gm", "gm release");
	refused_as("alice", "hazard",
	           "Only the GM passes turns in this channel (/hazard who gm), and nobody is GM "
	           "yet; /gm claim makes you the GM.",
	           true);
	ok("gm", "gm claim");
}

static void
state_is_per_channel(void **unused)
{
	char *other;

	ok("gm", "light add torch");
	ok("gm", "hazard");
	ok("gm", "hazard");
	other = state_text("console:crypt");
	assert_non_null(strstr(other, "\"turn\":0,"));
	assert_non_null(strstr(other, "\"lights\":[]"));
	free(other);
	run_in("crypt", "bob", "light");
	{
		char *text = reply_plain(cr.last);

		assert_non_null(strstr(text, "Darkness"));
		free(text);
	}
	run_in("table", "bob", "turn");
	{
		char *text = reply_plain(cr.last);

		assert_non_null(strstr(text, "Turn 2: 20 min in the dungeon"));
		free(text);
	}
}

static void
roll_shows_whole_table(void **unused)
{
	const struct reply_msg *m;
	size_t tables = 0, hl = 0, rows = 0;

	ok("gm", "hazard # listening at the door");
	m = reply_msg(cr.last, REPLY_CHANNEL);
	assert_non_null(m);
	assert_string_equal(m->title, "Hazard die: turn 1");
	for (size_t i = 0; i < m->nblocks; i++) {
		if (m->blocks[i].kind != RB_TABLE)
			continue;
		tables++;
		rows = m->blocks[i].nrows;
		for (size_t k = 0; k < rows; k++)
			hl += m->blocks[i].rows[k].highlight;
	}
	assert_int_equal(tables, 1);
	assert_int_equal(rows, 5);
	assert_int_equal(hl, 1);
	/* the note, without its '#' */
	assert_int_equal(m->blocks[0].kind, RB_LINE);
	assert_string_equal(m->blocks[0].spans[0].text, "listening at the door");
}

static void
custom_table_is_used(void **unused)
{
	char *text;

	ok("gm", "gm claim");
	ok("gm", "hazard custom d4 \"1 Encounter; 2-4 Nothing\"");
	text = state_text("console:table");
	assert_non_null(strstr(text, "\"table\":\"custom\""));
	assert_non_null(strstr(text, "\"custom\":\"1 Encounter; 2-4 Nothing\""));
	free(text);
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "on the d4 (custom)"));
	free(text);
	/* a rejected table leaves the saved one */
	refused("gm", "hazard custom d4 \"1 a\"", "results 2-4 are not covered");
	ok("gm", "hazard table exploration");
	ok("gm", "hazard table custom");
}

static void
custom_entry_dice_are_rolled(void **unused)
{
	struct rng *twin = rng_new_seeded(99);
	char want[80], *text;

	ok("gm", "gm claim");
	ok("gm", "hazard custom d2 \"1-2 Encounter: 1d4 giant rats\"");
	ok("gm", "hazard");
	/* the same draws as the bot's: the d2 hazard die, then the 1d4 */
	(void)rng_die(twin, 2);
	{
		int rats = (int)rng_die(twin, 4);

		snprintf(want, sizeof(want), "\nEncounter: %d giant rats (1d4: %d)\n", rats, rats);
	}
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, want));
	/* the table itself shows the entry as written */
	assert_non_null(strstr(text, "1-2 | Encounter: 1d4 giant rats"));
	free(text);
	rng_free(twin);
}

/* The lines (not tables) of one audience's message, joined by newlines. */
static void
msg_text(const struct reply *r, enum reply_audience a, char *buf, size_t len)
{
	const struct reply_msg *m = reply_msg(r, a);
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; m != NULL && i < m->nblocks; i++) {
		for (size_t k = 0; m->blocks[i].kind == RB_LINE && k < m->blocks[i].nspans; k++)
			off += (size_t)snprintf(buf + off, len - off, "%s",
			                        m->blocks[i].spans[k].text);
		off += (size_t)snprintf(buf + off, len - off, "\n");
	}
	if (m != NULL && m->title != NULL)
		snprintf(buf + off, len - off, "%s\n", m->title);
}

/* Checks that the channel reads r's screen line want alone, in italics as
 * every line standing for something behind the GM's screen (hide23 F2). */
static void
screen_line(const struct reply *r, const char *want)
{
	const struct reply_msg *m = reply_msg(r, REPLY_CHANNEL);

	assert_non_null(m);
	assert_int_equal(m->nblocks, 1);
	assert_int_equal(m->blocks[0].nspans, 1);
	assert_string_equal(m->blocks[0].spans[0].text, want);
	assert_int_equal(m->blocks[0].spans[0].style, RS_ITALIC);
}

/* recheck10 F9: a custom Encounter entry that names its creature is the
 * encounter, one per result: no table is rolled beside it, and a
 * remembered sign's creature comes instead of it (text 003: the next
 * encounter rolled is that creature). An entry that names none still
 * rolls the table. */
static void
custom_encounter_entry_is_one_encounter(void **unused)
{
	struct rng *twin = rng_new_seeded(99);
	char pub[4000], want[400];
	int rats;

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "hazard procedure delving");
	ok("gm", "tension table set encounter 1-20 an owlbear");
	ok("gm", "hazard custom d2 \"1-2 Encounter: 1d4 giant rats\"");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	(void)rng_die(twin, 2);
	rats = (int)rng_die(twin, 4);
	snprintf(want, sizeof(want),
	         "\nEncounter: %d giant rats (1d4: %d)\nEncounter! A wandering monster appears; "
	         "/surprise checks who is caught off guard.\n",
	         rats, rats);
	assert_non_null(strstr(pub, want));
	assert_null(strstr(pub, "owlbear"));
	ok("gm", "hazard sign a basilisk");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	(void)rng_die(twin, 2);
	rats = (int)rng_die(twin, 4);
	snprintf(want, sizeof(want),
	         "\nEncounter: %d giant rats (1d4: %d)\nEncounter! It is the creature whose sign "
	         "the party met on turn 1: a basilisk. It comes instead of the entry's %d giant "
	         "rats (1d4: %d): one encounter per result.\n",
	         rats, rats, rats, rats);
	assert_non_null(strstr(pub, want));
	assert_null(strstr(pub, "owlbear"));
	ok("alice", "turn");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_null(strstr(pub, "sign"));
	/* the keyword alone, or the built-in wording, names no creature */
	ok("gm", "hazard custom d2 \"1-2 Encounter\"");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, ": an owlbear. "));
	ok("gm", "hazard custom d2 \"1-2 Encounter: a wandering monster appears\"");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, ": an owlbear. "));
	rng_free(twin);
}

/* The channel's public reply to line, as text (checked to be no error). */
static const char *
public_text(const char *user, const char *line, char *buf, size_t len)
{
	ok(user, line);
	msg_text(cr.last, REPLY_CHANNEL, buf, len);
	return buf;
}

/* F5: taking a stair takes a turn (text 004: "It takes one turn to do the
 * following things: ... Going up or down a stair to a new level or safe
 * area."): from one tracked level to another a turn passes with its
 * hazard roll, as any turn; the first level tracked, the same level and
 * turn:false (a correction) pass none. */
static void
stair_takes_a_turn(void **unused)
{
	struct rng *twin = rng_new_seeded(99);
	char pub[4000], want[200];

	(void)unused;
	ok("gm", "gm claim");
	assert_string_equal(public_text("gm", "turn level 1", pub, sizeof(pub)),
	                    "The party is on dungeon level 1.\n");
	public_text("gm", "turn level 2", pub, sizeof(pub));
	snprintf(want, sizeof(want),
	         "The party is on dungeon level 2: taking the stair takes a turn.\n\nRolled %d "
	         "on the d6 (exploration): ",
	         (int)rng_die(twin, 6));
	assert_non_null(strstr(pub, want));
	assert_non_null(strstr(pub, "\nHazard die: turn 1\n")); /* the title */
	assert_string_equal(public_text("gm", "turn level 2", pub, sizeof(pub)),
	                    "The party is on dungeon level 2.\n");
	assert_string_equal(public_text("gm", "turn level 3 turn:false", pub, sizeof(pub)),
	                    "The party is on dungeon level 3.\n");
	assert_non_null(strstr(public_text("gm", "turn", pub, sizeof(pub)), "Turn 1: 10 min"));
	/* to the safe area of level 0, a turn too, where no encounter comes */
	public_text("gm", "turn level 0", pub, sizeof(pub));
	assert_non_null(strstr(pub, "The party is on dungeon level 0: taking the stair takes a "
	                            "turn.\nLevel 0 is the safe area: no wandering monsters, no "
	                            "fighting.\n"));
	assert_non_null(strstr(pub, "\nHazard die: turn 2\n"));
	rng_free(twin);
}

/* F7: a new expedition begins in the safe area, level 0 (text 004: "The
 * party begins it's adventure in a Safe Area that is, effectively Level 0
 * of the dungeon"); /turn reset kept the deep level. A channel that tracks
 * no level keeps its safe area as it was. */
static void
reset_begins_on_level_0(void **unused)
{
	static const char *const reset_line =
	    "A new expedition: turn 0, nothing lit, the rest clock and the remembered sign "
	    "cleared. The channel's settings are kept.\n";
	char pub[4000], want[400];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "turn level 3");
	snprintf(want, sizeof(want),
	         "%sThe party begins in the safe area of level 0: no wandering monsters, no "
	         "fighting.\n",
	         reset_line);
	assert_string_equal(public_text("gm", "turn reset", pub, sizeof(pub)), want);
	assert_string_equal(public_text("gm", "turn level", pub, sizeof(pub)),
	                    "The party is on dungeon level 0.\n");
	assert_non_null(strstr(public_text("gm", "safe", pub, sizeof(pub)),
	                       "The party is in the safe area of level 0"));
	ok("gm", "turn level none");
	ok("gm", "safe off");
	assert_string_equal(public_text("gm", "turn reset", pub, sizeof(pub)), reset_line);
	assert_non_null(
	    strstr(public_text("gm", "safe", pub, sizeof(pub)), "The party is not in a safe area"));
}

/* F4: level 0 is the safe area itself, where /safe off is refused: its
 * hints and its button name the stair (/turn level 1), not /safe off; a
 * safe area elsewhere (a vendor's room) still names /safe off. */
static void
level_0_names_the_stair(void **unused)
{
	static const char *const stair = "the party leaves it by the stair, /turn level 1";
	char pub[4000], action[40];
	const struct reply_msg *m;

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "turn level 0");
	assert_string_equal(public_text("gm", "safe", pub, sizeof(pub)),
	                    "The party is in the safe area of level 0: no wandering monsters, no "
	                    "fighting; the party leaves it by the stair, /turn level 1.\n");
	m = reply_msg(cr.last, REPLY_CHANNEL);
	assert_int_equal(m->nbuttons, 1);
	assert_string_equal(m->buttons[0].label, "Take the stair to level 1");
	assert_string_equal(m->buttons[0].action, "turn level 1");
	snprintf(action, sizeof(action), "%s", m->buttons[0].action);
	assert_non_null(strstr(public_text("gm", "wander", pub, sizeof(pub)), stair));
	assert_non_null(strstr(public_text("gm", "tension roll", pub, sizeof(pub)), stair));
	assert_null(strstr(pub, "safe off"));
	/* no encounter comes there, so nobody is surprised (recheck20 item 8) */
	assert_string_equal(public_text("alice", "surprise 2 monsters:3", pub, sizeof(pub)),
	                    "No surprise check: no encounter comes to a safe area and no "
	                    "fighting happens there (the party leaves it by the stair, /turn "
	                    "level 1).\n");
	/* pressed, the button takes the stair: the party leaves the safe area */
	assert_non_null(strstr(public_text("gm", action, pub, sizeof(pub)),
	                       "The party leaves the safe area of level 0.\n"));
	ok("gm", "safe on");
	assert_non_null(
	    strstr(public_text("gm", "wander", pub, sizeof(pub)), "the GM ends it with /safe off"));
}

/* F20: a player refused /safe on could still /turn level 0 to the same
 * effect. Only the GM takes the party into or out of level 0's safe area,
 * as only the GM declares one; other levels stay open to whoever may pass
 * turns. The state is left as it was. */
static void
level_0_is_the_gms_as_safe_on_is(void **unused)
{
	char pub[4000];

	(void)unused;
	refused("alice", "turn level 0",
	        "Only the GM takes the party into the safe area of level 0, as only the GM "
	        "declares a safe area (/safe on), and nobody is GM here yet; /gm claim makes you "
	        "the GM.");
	ok("gm", "gm claim");
	ok("alice", "turn level 2");
	refused("alice", "safe on", "Only the GM can do that here");
	refused_as("alice", "turn level 0",
	           "Only the GM takes the party into the safe area of level 0, as only the GM "
	           "declares a safe area (/safe on); the GM is gm.",
	           true);
	ok("gm", "turn level 0");
	refused_as("alice", "turn level 1",
	           "Only the GM takes the party out of the safe area of level 0, as only the GM "
	           "declares a safe area (/safe on); the GM is gm.",
	           true);
	refused("alice", "safe off", "Only the GM can do that here");
	assert_non_null(strstr(public_text("alice", "turn level", pub, sizeof(pub)),
	                       "The party is on dungeon level 0."));
}

/* F13: the delving text's "In dim light like candlelight or lantern
 * light, this [searching] takes two turns instead" is said where the light
 * is (/turn, /light list, a Burn that leaves only candles), and /vendor
 * names the dungeon level the channel tracks, at which the text has its
 * hoards generated. */
static void
dim_light_and_the_vendors_level_are_said(void **unused)
{
	static const char *const dim =
	    "Dim light (candles or lanterns, no torch): searching takes 2 turns instead of 1.\n";
	char pub[4000];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "hazard table delving");
	ok("gm", "light add torch");
	ok("gm", "light add candle");
	assert_null(strstr(public_text("gm", "turn", pub, sizeof(pub)), "Dim light"));
	ok("gm", "hazard custom d2 \"1-2 Burn\"");
	assert_non_null(strstr(public_text("gm", "hazard", pub, sizeof(pub)),
	                       "Torch #1 burns out; new ones can be lit from the embers (/light "
	                       "add torch). The light left is dim: searching takes 2 turns "
	                       "instead of 1.\n"));
	assert_non_null(strstr(public_text("gm", "turn", pub, sizeof(pub)), dim));
	assert_non_null(strstr(public_text("gm", "light list", pub, sizeof(pub)), dim));
	/* exploration has no such rule */
	ok("gm", "hazard procedure exploration");
	assert_null(strstr(public_text("gm", "light list", pub, sizeof(pub)), "Dim light"));
	ok("gm", "turn level 2");
	assert_non_null(strstr(public_text("gm", "vendor meet Gus", pub, sizeof(pub)),
	                       ", each generated at the level the dungeon is on (the party is on "
	                       "level 2)\n"));
	/* met again elsewhere, its stock says no level: it was rolled before */
	ok("gm", "turn level 3");
	assert_non_null(strstr(public_text("gm", "vendor meet Gus", pub, sizeof(pub)),
	                       ", each generated at the level the dungeon is on\n"));
}

/* F18: each procedure's own text for the party's pace. The exploration
 * text rushes (002: "Rushing: Double movement, but no searching or
 * mapping. Setback on checks to spot traps or hidden features.") and
 * blows no candle out; the delving text's running does ("Candles are
 * blown out"). */
static void
exploration_pace_is_its_own(void **unused)
{
	char pub[4000];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "light add candle");
	assert_string_equal(public_text("gm", "turn move running", pub, sizeof(pub)),
	                    "The party moves: running (rushing, double movement, 180 yards a turn "
	                    "at normal speed; no searching or mapping, a setback on checks to "
	                    "spot traps or hidden features).\n");
	ok("gm", "hazard");
	assert_string_equal(public_text("gm", "turn move crawling", pub, sizeof(pub)),
	                    "The party moves: crawling (cautious, 3x base speed in yards a turn, "
	                    "90 at normal speed; searching and mapping as it goes).\n");
	{
		char *text;

		ok("gm", "light list");
		text = reply_plain(cr.last);
		assert_non_null(strstr(text, "#1 candle | - | 5\n"));
		free(text);
	}
	ok("gm", "hazard procedure delving");
	assert_string_equal(public_text("gm", "turn move running", pub, sizeof(pub)),
	                    "The party moves: running (1.5 km a turn; surprised by every "
	                    "encounter, springing every trap, no map, candles blown out).\n"
	                    "Candle #1 is blown out.\n"
	                    "Darkness: nothing is lit. In total darkness, -10 to movement and "
	                    "coordination checks, surprised by all encounters, springing all "
	                    "traps, no mapping; /light add lights a source.\n");
}

/* F17, behind the screen and in the resting check: a resting party is
 * not moving, so its pace does not surprise it there either. The veiled
 * line the channel reads of a rest turn's encounter says no surprise for
 * running (it had said one while the GM's line said none), and /wander
 * rest's monsters do not catch a running party out. */
/* recheck20 item 8: in the dark, what an encounter surprises is named */
static void
darkness_surprises_the_party(void **unused)
{
	char pub[4000];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "hazard procedure delving");
	ok("gm", "hazard custom d2 \"1-2 Encounter\"");
	ok("gm", "tension mode hidden");
	public_text("gm", "hazard", pub, sizeof(pub));
	assert_non_null(strstr(pub, "In total darkness, an encounter surprises the party."));
}

static void
resting_party_is_not_caught_by_its_pace(void **unused)
{
	char pub[4000];
	int tries = 0;

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "hazard procedure delving");
	ok("gm", "light add torch");
	ok("gm", "turn move running");
	ok("gm", "hazard custom d2 \"1-2 Encounter\"");
	ok("gm", "tension mode hidden");
	public_text("gm", "rest", pub, sizeof(pub));
	assert_non_null(strstr(pub, "The encounter is behind the GM's screen"));
	assert_null(strstr(pub, "surprises it"));
	public_text("gm", "hazard", pub, sizeof(pub));
	assert_non_null(strstr(pub, "The party is running, so an encounter surprises it."));
	ok("gm", "tension mode open");
	do {
		public_text("gm", "wander rest exits:2", pub, sizeof(pub));
	} while (strstr(pub, "wandering monsters!") == NULL && ++tries < 100);
	assert_non_null(strstr(pub, "wandering monsters!"));
	assert_null(strstr(pub, "is surprised"));
	assert_non_null(strstr(pub, "The party is resting, not running, so it is not surprised by "
	                            "every encounter (total darkness would still do that)."));
	public_text("gm", "wander classic 6", pub, sizeof(pub));
	assert_non_null(strstr(pub, "The party is running, so it is surprised"));
}

/* Numbers under the corridor check (the default), which takes none, and
 * numbers given before the check they are for. */
static const struct {
	const char *line, *want;
} corridor_numbers[] = {
    {"wander 1000", "The corridor check takes no number: its odds are 1 in 6 (got 1000).\n"},
    {"wander -1", "The corridor check takes no number: its odds are 1 in 6 (got -1).\n"},
    {"wander 0", "The corridor check takes no number: its odds are 1 in 6 (got 0).\n"},
    {"wander 7",
     "The corridor check takes no number: its odds are 1 in 6 (got 7); a room's exits are for "
     "/wander check rest 7.\n"},
    {"wander 1000 2",
     "The corridor check takes no number: its odds are 1 in 6 (got 1000 and 2).\n"},
    {"wander exits:1000", "Exits count for the rest and tension checks only, not corridor.\n"},
    {"wander exits:1000 procedure:rest",
     "Exits must be a whole number from 1 to 20 (got '1000'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander exits:-1 procedure:tension",
     "Exits must be a whole number from 0 to 20 (got '-1'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
};

/* recheck F9: numbers typed by position go, in order, to what the check
 * takes (README: a value goes on to the next option that can take it),
 * whichever check runs, the one named or the channel's default; the
 * registry had put them by type alone ("classic 2" in exits, refused). */
static void
wander_numbers_go_where_the_check_takes_them(void **unused)
{
	char pub[4000];

	(void)unused;
	assert_non_null(strstr(public_text("alice", "wander classic 2", pub, sizeof(pub)),
	                       "Wandering check: classic (2-in-6)"));
	assert_non_null(strstr(public_text("alice", "wander classic 2 6", pub, sizeof(pub)),
	                       "Wandering check: classic (2-in-6)"));
	assert_non_null(strstr(public_text("alice", "wander classic 1 8", pub, sizeof(pub)),
	                       "Wandering check: classic (1-in-8)"));
	/* recheck3 F11: the texts' "1 in 8", as /hazard chance takes it */
	assert_non_null(strstr(public_text("alice", "wander classic 1 in 8", pub, sizeof(pub)),
	                       "Wandering check: classic (1-in-8)"));
	assert_non_null(strstr(public_text("alice", "wander classic 3 IN 8", pub, sizeof(pub)),
	                       "Wandering check: classic (3-in-8)"));
	assert_non_null(strstr(public_text("alice", "wander classic 2in6", pub, sizeof(pub)),
	                       "Wandering check: classic (2-in-6)"));
	assert_non_null(strstr(public_text("alice", "wander classic 2/6", pub, sizeof(pub)),
	                       "Wandering check: classic (2-in-6)"));
	/* recheck6 F7: by name too, unquoted */
	assert_non_null(
	    strstr(public_text("alice", "wander classic chance:2 in 8", pub, sizeof(pub)),
	           "Wandering check: classic (2-in-8)"));
	assert_non_null(
	    strstr(public_text("alice", "wander chance:3 IN 8 classic", pub, sizeof(pub)),
	           "Wandering check: classic (3-in-8)"));
	/* odds named before the check are read under it: refused, not
	 * dropped for the default 1-in-6 */
	run("alice", "wander chance:lots classic");
	assert_string_equal(cmdrun_plain(&cr),
	                    "'lots' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 "
	                    "6), or X alone for X-in-6 (2 is 2-in-6).\n");
	run("alice", "wander chance:7in6 classic");
	assert_string_equal(cmdrun_plain(&cr),
	                    "7-in-6 is not a chance; X must be from 1 to 6 on a d6.\n");
	/* under corridor a number is refused as one corridor does not take,
	 * whatever its size, offered to the checks that take it as it is */
	for (size_t i = 0; i < sizeof(corridor_numbers) / sizeof(corridor_numbers[0]); i++) {
		run("alice", corridor_numbers[i].line);
		assert_string_equal(cmdrun_plain(&cr), corridor_numbers[i].want);
	}
	/* recheck6 F6: blank odds are none given */
	assert_non_null(
	    strstr(public_text("alice", "wander classic chance:\"  \"", pub, sizeof(pub)),
	           "Wandering check: classic (1-in-6)"));
	assert_non_null(strstr(public_text("alice", "wander tension 3 5", pub, sizeof(pub)),
	                       "D12 encounter check (exits 3, Tension 5)"));
	assert_non_null(strstr(public_text("alice", "wander tension 5", pub, sizeof(pub)),
	                       "D12 encounter check (exits 5, Tension 1)"));
	assert_non_null(strstr(public_text("alice", "wander tension exits:3 5", pub, sizeof(pub)),
	                       "D12 encounter check (exits 3, Tension 5)"));
	assert_non_null(strstr(public_text("alice", "wander tension tension:4 2", pub, sizeof(pub)),
	                       "D12 encounter check (exits 2, Tension 4)"));
	assert_non_null(strstr(public_text("alice", "wander rest 3", pub, sizeof(pub)),
	                       "Wandering check: resting (1-in-6)"));
	/* the channel's default check takes them as it would by name */
	ok("gm", "gm claim");
	assert_non_null(
	    strstr(public_text("gm", "hazard chance odds:2 in 8", pub, sizeof(pub)), "2-in-8"));
	ok("gm", "wander default classic");
	assert_non_null(strstr(public_text("alice", "wander 2", pub, sizeof(pub)),
	                       "Wandering check: classic (2-in-6)"));
	assert_non_null(strstr(public_text("alice", "wander 3 8", pub, sizeof(pub)),
	                       "Wandering check: classic (3-in-8)"));
	/* odds of several words are one value, also past the exits */
	assert_non_null(strstr(public_text("alice", "wander 1 in 8", pub, sizeof(pub)),
	                       "Wandering check: classic (1-in-8)"));
	assert_non_null(strstr(public_text("alice", "wander 2/8", pub, sizeof(pub)),
	                       "Wandering check: classic (2-in-8)"));
	ok("gm", "wander default classic 3 in 10");
	assert_non_null(strstr(public_text("alice", "wander", pub, sizeof(pub)),
	                       "Wandering check: classic (3-in-10)"));
	ok("gm", "wander default tension");
	/* recheck6 F11: the default check's range */
	refused("alice", "wander 1000", "Exits must be a whole number from 0 to 20 (got '1000')");
	assert_non_null(strstr(public_text("alice", "wander 2 6", pub, sizeof(pub)),
	                       "D12 encounter check (exits 2, Tension 6)"));
}

static void
tension_check_uses_the_channels_tension(void **unused)
{
	char pub[4000], priv[4000];

	ok("gm", "gm claim");
	ok("gm", "tension set 4 a loud fight");
	ok("alice", "wander tension exits:0");  /* a sealed room, as /tension roll 0 */
	ok("alice", "wander tension exits:12"); /* every d12 <= 12: the table is rolled */
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, "D12 encounter check (exits 12, Tension 4)"));
	assert_non_null(strstr(pub, "Encounter table: d10 + Tension = "));
	/* an explicit tension: wins */
	ok("alice", "wander tension exits:12 tension:9");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, "(exits 12, Tension 9)"));
	/* hidden: players may not, the GM's check is private */
	ok("gm", "tension mode hidden");
	refused("alice", "wander tension", "Tension is behind the GM's screen here");
	refused("alice", "wander tension tension:3", "only the GM makes the tension check");
	ok("alice", "wander corridor");
	ok("gm", "wander tension exits:12");
	msg_text(cr.last, REPLY_INVOKER, priv, sizeof(priv));
	screen_line(cr.last, "The GM makes a wandering check (tension) behind the screen.");
	assert_non_null(strstr(priv, "(exits 12, Tension 4)"));
	assert_non_null(strstr(priv, "Encounter table: d10 + Tension = "));
}

static void
sign_rolls_the_encounter_table(void **unused)
{
	char pub[4000], priv[4000];

	ok("gm", "gm claim");
	ok("gm", "hazard procedure delving");
	ok("gm", "hazard custom d2 \"1-2 Sign\"");
	ok("gm", "tension table set encounter 1-20 an owlbear");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, "The party meets only the sign of an owlbear (encounter "
	                            "table, d10 + Tension = "));
	ok("alice", "turn");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, "whose sign was met on turn 1: an owlbear."));
	/* behind the screen: the channel never sees the creature, the GM does */
	ok("gm", "tension mode hidden");
	ok("gm", "tension table set encounter 1-20 a basilisk");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_null(strstr(pub, "basilisk"));
	assert_non_null(strstr(pub, "A sign of danger nearby; what it belongs to is behind the "
	                            "GM's screen, and the GM describes it."));
	assert_null(reply_msg(cr.last, REPLY_INVOKER));
	/* a player rolled it: the GM seat's holder is told, privately */
	assert_string_equal(reply_gm_key(cr.last), "console:gm");
	msg_text(cr.last, REPLY_GM, priv, sizeof(priv));
	assert_non_null(strstr(priv, "Behind the screen: The party meets only the sign of a "
	                             "basilisk (encounter table, d10 + Tension = "));
	ok("alice", "turn");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_null(strstr(pub, "basilisk"));
	assert_null(strstr(pub, "sign"));
	assert_null(reply_msg(cr.last, REPLY_INVOKER));
	ok("gm", "turn");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_null(strstr(pub, "sign"));
	msg_text(cr.last, REPLY_INVOKER, priv, sizeof(priv));
	assert_non_null(
	    strstr(priv, "Behind the screen: the next encounter is a basilisk (since turn 2)."));
	ok("gm", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	msg_text(cr.last, REPLY_INVOKER, priv, sizeof(priv));
	assert_null(strstr(pub, "basilisk"));
	assert_non_null(strstr(priv, "Behind the screen: The party meets only the sign of a "
	                             "basilisk (encounter table, d10 + Tension = "));
	/* naming it is private too, and forgetting it reads the same */
	ok("gm", "hazard sign a cockatrice");
	screen_line(cr.last, "The GM changed the sign's creature behind the screen.");
	ok("gm", "hazard sign none");
	screen_line(cr.last, "The GM changed the sign's creature behind the screen.");
	ok("gm", "hazard sign none");
	screen_line(cr.last, "The GM changed the sign's creature behind the screen.");
	msg_text(cr.last, REPLY_INVOKER, priv, sizeof(priv));
	assert_string_equal(priv, "No sign's creature is remembered, so nothing changed.\n");
	/* "forget" forgets as "none" does: no creature is called that
	 * (hidden6: it named one "forget") */
	ok("gm", "hazard sign a cockatrice");
	ok("gm", "hazard sign Forget");
	msg_text(cr.last, REPLY_INVOKER, priv, sizeof(priv));
	assert_string_equal(priv, "The sign's creature is forgotten; the next encounter is "
	                          "rolled as usual.\n");
	/* a struck entry leaves no sign's creature */
	ok("gm", "tension mode open");
	ok("gm", "tension strike basilisk");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_non_null(strstr(pub, "The sign leads nowhere: the encounter it belongs to was "
	                            "struck (d10 + Tension = "));
}

/* The line of the channel's: an exploration Sign behind the GM's screen
 * reads alike whether the channel has an encounter table (hidden too) to
 * roll its creature on or not, in a safe area too; what it was reaches
 * the GM alone. */
static void
sign_line_of(const char *pub, char *line, size_t len)
{
	const char *a = strstr(pub, "\nA sign");

	if (a == NULL)
		a = strstr(pub, "\nNo sign");
	assert_non_null(a);
	a++;
	snprintf(line, len, "%.*s", (int)strcspn(a, "\n"), a);
}

static void
exploration_sign_reads_alike_behind_the_screen(void **unused)
{
	static const char *const veiled = "A sign of danger nearby; what it belongs to is "
	                                  "behind the GM's screen, and the GM describes it.";
	char pub[4000], priv[4000], line[400];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "hazard procedure exploration");
	ok("gm", "hazard custom d2 \"1-2 Sign\"");
	ok("gm", "tension mode hidden");
	/* no encounter table: a hint, yet read as the veiled line */
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	sign_line_of(pub, line, sizeof(line));
	assert_string_equal(line, veiled);
	assert_string_equal(reply_gm_key(cr.last), "console:gm");
	msg_text(cr.last, REPLY_GM, priv, sizeof(priv));
	assert_non_null(strstr(priv, "Behind the screen: A sign of danger nearby (noise, smell, "
	                             "tracks or a shadow); the GM describes it."));
	/* an encounter table made behind the screen: the same line */
	ok("gm", "table set encounter 1-6: rats");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	assert_null(strstr(pub, "rats"));
	sign_line_of(pub, line, sizeof(line));
	assert_string_equal(line, veiled);
	msg_text(cr.last, REPLY_GM, priv, sizeof(priv));
	assert_non_null(strstr(priv, "Behind the screen: The party meets only the sign of rats"));
	/* in a safe area neither finds a sign */
	ok("gm", "safe on");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	sign_line_of(pub, line, sizeof(line));
	assert_string_equal(line, "No sign: this is a safe area, where no wandering monsters "
	                          "come, so no encounter is rolled for one.");
	ok("gm", "table delete encounter");
	ok("alice", "hazard");
	msg_text(cr.last, REPLY_CHANNEL, pub, sizeof(pub));
	sign_line_of(pub, line, sizeof(line));
	assert_string_equal(line, "No sign: this is a safe area, where no wandering monsters "
	                          "come, so no encounter is rolled for one.");
}

/* The exploration procedure's own facts (RULES.md section 2): light
 * radii, darkvision and, with no light, being effectively blind; the
 * delving -10 belongs to delving only. */
static void
exploration_light_facts(void **unused)
{
	char *text;

	run_in("table", "bob", "procedure exploration");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Torch and lantern: 30 ft bright light and 30 ft dim beyond; "
	                             "candle: 5 ft bright and 5 ft dim."));
	assert_non_null(strstr(text, "Darkvision"));
	assert_non_null(strstr(text, "Effectively blind: a setback on all rolls, movement halved, "
	                             "cannot read, search or spot danger."));
	assert_null(strstr(text, "-10"));
	free(text);
	run_in("table", "bob", "light");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "effectively blind"));
	free(text);
	run_in("table", "bob", "procedure delving");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "-10 to movement and coordination checks"));
	free(text);
}

/* Issue 25 item 13: a Light result cut a lantern with 31 turns of oil to 1.
 * The text: lantern oil runs low, and the result is pressure, not a
 * straitjacket. Low oil keeps at most an hour (6 turns) unless the GM sets
 * another mark; a source lit just before the turn only flickers. */
static void
light_result_and_lantern_oil(void **unused)
{
	char *text, *saved;

	ok("gm", "gm claim");
	ok("gm", "hazard custom d2 \"1-2 Light\"");
	ok("gm", "light add lantern");
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Lantern #1 was just lit, so it only flickers ominously; the "
	                             "GM may still put it out: /light out 1.\n"));
	free(text);
	/* that result was already only a flicker, and the GM is told so */
	saved = state_text("console:table");
	assert_non_null(strstr(saved, "\"flickered\":1"));
	free(saved);
	ok("gm", "light flicker");
	text = reply_plain(cr.last);
	assert_string_equal(text,
	                    "Lantern #1 was just lit, so this turn's Light result already only "
	                    "made it flicker: it keeps burning with 35 turns left; the GM may "
	                    "still put it out: /light out 1.\n");
	free(text);
	ok("gm", "turn advance 4");
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Lantern #1 runs low on oil: 6 turns left (it had 30). The GM "
	                             "may rule it only flickers: /light flicker.\n"));
	free(text);
	ok("gm", "light flicker");
	saved = state_text("console:table");
	assert_non_null(strstr(saved, "\"flickered\":1,\"flicker_ruled\":true"));
	free(saved);
	/* a second ruling says the first stands and changes nothing
	 * (recheck20 item 8: it said there was no Light result) */
	saved = state_text("console:table");
	ok("gm", "light flicker");
	text = reply_plain(cr.last);
	assert_string_equal(text, "The GM already ruled this turn's Light result only a flicker: "
	                          "Lantern #1 keeps burning with 30 turns left, and nothing "
	                          "changes.\n");
	free(text);
	text = state_text("console:table");
	assert_string_equal(text, saved);
	free(text);
	free(saved);
	refused("gm", "light low 0", "Turns must be a whole number from 1 to 48");
	refused("gm", "light low 49", "Turns must be a whole number from 1 to 48");
	ok("gm", "light low 2");
	saved = state_text("console:table");
	assert_non_null(strstr(saved, "\"lantern_low\":2"));
	free(saved);
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Lantern #1 runs low on oil: 2 turns left (it had 29)."));
	free(text);
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Lantern #1 is low on oil: 1 turn left already."));
	free(text);
	ok("gm", "hazard show");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text,
	                       "A Light result leaves a lantern at most 2 turns of oil (/light "
	                       "low); a source lit just before the turn only flickers.\n"));
	free(text);
}

/* The delving text: Fatigue deals 1 damage unless the party rests next
 * turn, more in dungeons with harsh conditions (a channel setting). */
static void
delving_fatigue_damage(void **unused)
{
	char *text, *saved;

	ok("gm", "gm claim");
	ok("gm", "hazard table delving");
	ok("gm", "hazard custom d2 \"1-2 Fatigue\"");
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Each party member takes 1 damage unless the party rests next "
	                             "turn (/rest).\n"));
	free(text);
	refused("gm", "hazard fatigue 0", "Damage must be a whole number from 1 to 20");
	refused("gm", "hazard fatigue 21", "Damage must be a whole number from 1 to 20");
	ok("gm", "hazard fatigue 3");
	saved = state_text("console:table");
	assert_non_null(strstr(saved, "\"fatigue_damage\":3"));
	free(saved);
	ok("gm", "turn advance 1");
	text = reply_plain(cr.last);
	assert_non_null(strstr(
	    text, "The party did not rest after the Fatigue: each member takes 3 damage.\n"));
	free(text);
	ok("gm", "hazard show");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Delving Fatigue: 3 damage to each party member unless the "
	                             "party rests (/hazard fatigue).\n"));
	free(text);
}

/* Text 002: a Fatigue result asks for a rest now or a CON save, and so
 * does the hourly rest. When both come on one turn, one line says how
 * many saves there are and what resting now spares. */
static void
fatigue_on_the_rests_turn_is_one_line(void **unused)
{
	char *text;

	ok("gm", "gm claim");
	ok("gm", "hazard custom d2 \"1-2 Fatigue\"");
	ok("gm", "turn advance 5");
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text,
	                       "\n6 turns without a rest, and Fatigue came up: each character "
	                       "makes a CON save DC 12 for Fatigue, and a second one next turn "
	                       "for the skipped rest, unless the party rests 1 turn now (/rest), "
	                       "which answers both; on each failure gain 1 Fatigue.\n"));
	assert_null(strstr(text, "Rest 1 turn now"));
	assert_null(strstr(text, "rest next turn"));
	free(text);
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text,
	                       "\nThe rest was skipped and Fatigue came up: each character "
	                       "makes a CON save DC 12 now for the skipped rest, and a second "
	                       "one for Fatigue unless the party rests 1 turn now (/rest); on "
	                       "each failure gain 1 Fatigue.\n"));
	assert_null(strstr(text, "Rest 1 turn now"));
	assert_null(strstr(text, "The rest was skipped:"));
	free(text);
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text,
	                       "\nRest 1 turn now (/rest), or each character makes a CON save "
	                       "DC 12; on a failure gain 1 Fatigue.\n"));
	free(text);
	/* a rest next turn says which saves it answered, as delving's does
	 * (recheck20 item 8); only the turn right after the Fatigue */
	ok("gm", "rest hazard:false");
	text = reply_plain(cr.last);
	assert_non_null(
	    strstr(text, "\nThe party rested after the Fatigue: no CON save for it.\n"));
	free(text);
	ok("gm", "rest hazard:false");
	text = reply_plain(cr.last);
	assert_null(strstr(text, "after the Fatigue"));
	free(text);
	ok("gm", "turn advance 5");
	ok("gm", "hazard");
	text = state_text("console:table");
	assert_non_null(strstr(text, "\"fatigue_asked\":2"));
	free(text);
	ok("gm", "rest hazard:false");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "\nThe party rested after the Fatigue: no CON save for it, "
	                             "nor for the hourly rest.\n"));
	free(text);
}

/* The settings a table shows are those its die uses: Fatigue's damage
 * where a row deals it only, the classic odds on the classic die
 * only, the Light result's mark on a table with a Light row only. */
static void
settings_shown_are_the_dies(void **unused)
{
	static const char mark[] = "A Light result leaves a lantern";
	char *text;

	ok("gm", "gm claim");
	ok("gm", "hazard table exploration");
	text = reply_plain(cr.last);
	assert_null(strstr(text, "Delving Fatigue"));
	assert_null(strstr(text, "Classic odds"));
	assert_non_null(strstr(text, mark));
	assert_non_null(strstr(text, "\nWho rolls: anyone.\n"));
	free(text);
	ok("gm", "hazard chance 2 6");
	text = reply_plain(cr.last);
	assert_null(strstr(text, "Delving Fatigue"));
	assert_null(strstr(text, mark));
	assert_non_null(strstr(text, "\nClassic odds: 2-in-6. Who rolls: anyone.\n"));
	free(text);
	ok("gm", "hazard table delving");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "\nDelving Fatigue: 1 damage"));
	assert_null(strstr(text, "Classic odds"));
	assert_null(strstr(text, mark));
	free(text);
	ok("gm", "hazard show");
	text = reply_plain(cr.last);
	assert_null(strstr(text, mark));
	free(text);
	ok("gm", "hazard custom d2 \"1 Burn; 2 Light: the draft\"");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, mark));
	free(text);
	/* recheck20 item 3: Fatigue's damage follows the table shown, not
	 * the procedure. */
	ok("gm", "hazard table classic");
	ok("gm", "hazard procedure delving");
	ok("gm", "hazard show");
	text = reply_plain(cr.last);
	assert_null(strstr(text, "Fatigue"));
	free(text);
	ok("gm", "hazard table delving");
	ok("gm", "hazard fatigue 3");
	ok("gm", "hazard procedure exploration");
	ok("gm", "hazard show");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "\nDelving Fatigue: 3 damage to each party member"));
	free(text);
	ok("gm", "hazard custom d2 \"1-2 Fatigue\"");
	text = reply_plain(cr.last);
	assert_null(strstr(text, "Delving Fatigue"));
	free(text);
	ok("gm", "hazard procedure delving");
	ok("gm", "hazard show");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "\nDelving Fatigue: 3 damage to each party member"));
	free(text);
	ok("gm", "hazard");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Each party member takes 3 damage unless the party rests"));
	free(text);
}

/* RULES.md section 6: the bot rolls the deal against the vendor's skill,
 * remembered per channel, and a second try on an item is refused. */
static void
bargain_once_per_item(void **unused)
{
	char *before;

	ok("gm", "vendor Gus");
	ok("gm", "bargain Gus ring sell +3");
	before = state_text("console:table");
	assert_non_null(strstr(before, "\"vendors\":[{\"name\":\"Gus\""));
	assert_non_null(strstr(before, "\"tried\":[\"ring\"]"));
	free(before);
	refused("gm", "bargain Gus Ring buy 1d20",
	        "Gus has already dealt on ring: a buy or sell of an item or lot is tried once");
	refused("gm", "bargain Gus gem buy 1d20;1d20", "A bargaining roll is one expression");
}

/* newcomer F6: a vendor or an item of several words typed without quotes
 * is read again with the channel's vendors (registry.h, misread): the
 * refusal says to quote it and shows the line so typed, and nothing
 * changes. Where the vendors met here do not read the words so, the
 * registry's refusal stands. */
static void
bargain_says_to_quote_names_of_several_words(void **unused)
{
	(void)unused;
	refused("gm", "bargain Old Gus sword sell",
	        "Deal must be one of sell, buy (got 'sword'); usage: /bargain <vendor> <item> "
	        "<sell|buy> [roll]");
	ok("gm", "vendor Old Gus");
	refused("gm", "bargain Old Gus sword sell",
	        "The vendor 'Old Gus' (met here) is several words; quote it: /bargain \"Old Gus\" "
	        "sword sell.");
	refused("alice", "bargain old gus long sword SELL +3",
	        "The vendor 'old gus' (met here) and the item 'long sword' are several words each; "
	        "quote them: /bargain \"old gus\" \"long sword\" SELL +3.");
	refused("alice", "bargain \"Old Gus\" long sword buy roll:+2",
	        "The item 'long sword' is several words; quote it: /bargain \"Old Gus\" \"long "
	        "sword\" buy +2.");
	/* no sell or buy, a vendor not met, a name given by name, more than
	 * a roll after the deal */
	refused("alice", "bargain Old Gus sword", "Deal must be one of sell, buy (got 'sword')");
	refused("alice", "bargain Young Gus sword sell",
	        "Deal must be one of sell, buy (got 'sword')");
	refused("alice", "bargain vendor:Old Gus sword sell",
	        "Deal must be one of sell, buy (got 'sword')");
	refused("alice", "bargain Old Gus sword sell +3 +4",
	        "Deal must be one of sell, buy (got 'sword')");
	ok("alice", "bargain \"Old Gus\" \"long sword\" sell +3");
}

/* A line the vendors met here do not read better keeps the refusal the
 * registry made of it, whole: an error, the same reply as in a channel
 * that met no vendor. */
static void
bargain_refusal_not_read_better_stands_whole(void **unused)
{
	static const char line[] = "bargain Young Gus sword sell";
	char *here, *elsewhere;

	(void)unused;
	ok("gm", "vendor Old Gus");
	elsewhere = reply_plain(run_in("bazaar", "alice", line));
	here = reply_plain(run("alice", line));
	assert_true(reply_is_error(cr.last));
	assert_string_equal(here, "Deal must be one of sell, buy (got 'sword'); usage: /bargain "
	                          "<vendor> <item> <sell|buy> [roll]\n");
	assert_string_equal(here, elsewhere);
	free(here);
	free(elsewhere);
}

/* recheck3 F4: quotes group a vendor's words alike in /vendor meet, /vendor
 * forget and /bargain ("Old Greta" met quoted is Old Greta, whom /bargain
 * "Old Greta" finds), a name that holds a quote is refused (no command
 * could quote it), and the start of a vendor's name typed bare in /bargain
 * gets the line with the whole name quoted. */
static void
vendor_names_are_quoted_alike(void **unused)
{
	const struct reply *r;
	char *text;

	ok("gm", "gm claim");
	r = run("gm", "vendor meet \"Old Greta\"");
	assert_false(reply_is_error(r));
	text = reply_plain(r);
	assert_non_null(strstr(text, "Old Greta's stock\n"));
	assert_non_null(strstr(text, "Each deal is tried once: /bargain \"Old Greta\" ITEM "
	                             "sell|buy ROLL rolls it against this skill."));
	free(text);
	ok("alice", "bargain \"Old Greta\" \"silver chalice\" sell +2");
	ok("gm", "vendor forget \"Old Greta\"");
	refused("alice", "bargain \"Old Greta\" rope buy",
	        "There is no vendor 'Old Greta' here; /vendor meet Old Greta meets one.");
	refused("gm", "vendor meet Old \"Greta\" x",
	        "A vendor's name is 1 to 24 bytes, words parted by single spaces, with no \" in "
	        "it (quotes group its words, as in /bargain \"Old Greta\" rope buy; got 'Old "
	        "\"Greta\" x').");
	ok("gm", "vendor meet \"Old Greta the Fence\"");
	refused("alice", "bargain Old Greta silver chalice sell",
	        "'Old Greta' is the start of the name of 'Old Greta the Fence', a vendor met "
	        "here; a name of several words is typed whole, in quotes: /bargain \"Old Greta "
	        "the Fence\" \"silver chalice\" sell.");
	refused("alice", "bargain old greta lamp buy +3",
	        "'old greta' is the start of the name of 'Old Greta the Fence', a vendor met "
	        "here; a name of several words is typed whole, in quotes: /bargain \"Old Greta "
	        "the Fence\" lamp buy +3.");
	/* a start two vendors' names share names neither */
	ok("gm", "vendor meet Old Greta the Younger");
	refused("alice", "bargain Old Greta lamp buy",
	        "Deal must be one of sell, buy (got 'lamp')");
	/* recheck6 F13: a name that shows as nothing, or as another's, is
	 * refused naming its invisible character; a blank item is none. */
	refused("gm", "vendor meet \xe2\x80\x8b",
	        "A vendor's name is 1 to 24 bytes, words parted by single spaces, with no \" in "
	        "it (quotes group its words, as in /bargain \"Old Greta\" rope buy; got '' with "
	        "an invisible character U+200B at column 1).");
	refused("gm",
	        "vendor Gr\xe2\x80\x8b"
	        "eta",
	        "A vendor's name is 1 to 24 bytes, words parted by single spaces, with no \" in "
	        "it (quotes group its words, as in /bargain \"Old Greta\" rope buy; got 'Greta' "
	        "with an invisible character U+200B at column 3).");
	refused("alice", "bargain \"Old Greta the Fence\" \"  \" buy",
	        "The item is blank; name the item or lot dealt on, as in /bargain \"Old Greta the "
	        "Fence\" rope buy.");
}

/* recheck3 F5: /bargain's refused roll is a sentence, as /roll's is:
 * capital first, full stop last (the dice engine's text has neither). */
static void
bargain_roll_refusal_is_a_sentence(void **unused)
{
	ok("gm", "vendor meet Gus");
	refused("alice", "bargain Gus lamp buy maybe",
	        "The bargaining roll 'maybe' is no roll: 'maybe' at column 1 is no dice function; "
	        "floor(), ceil(), round() and abs() are; give dice (1d20+3) or a modifier added to "
	        "1d20 (+3).");
	/* refused() ignores case: the whole sentence, exactly */
	assert_string_equal(
	    reply_error_text(run("alice", "bargain Gus lamp buy 1d0")),
	    "The bargaining roll '1d0' is no roll: the dice of the term at column 1 "
	    "must have between 1 and 1000000 sides (got 0); give dice (1d20+3) or a "
	    "modifier added to 1d20 (+3).");
	/* recheck9 F9: the roll is named, and its columns are counted in it as
	 * typed, a modifier's too (read with 1d20 before it, it was faulted
	 * at column 6) */
	assert_string_equal(
	    reply_error_text(run("alice", "bargain Gus lamp buy 99999999999999999999")),
	    "The bargaining roll '99999999999999999999' is no roll: the number at "
	    "column 1 is too large (at most 9223372036854775807); give dice "
	    "(1d20+3) or a modifier added to 1d20 (+3).");
	assert_string_equal(
	    reply_error_text(run("alice", "bargain Gus lamp buy +99999999999999999999")),
	    "The bargaining roll '+99999999999999999999' is no roll: the number at "
	    "column 2 is too large (at most 9223372036854775807); give dice "
	    "(1d20+3) or a modifier added to 1d20 (+3).");
	assert_string_equal(
	    reply_error_text(run("alice", "bargain Gus lamp buy +")),
	    "The bargaining roll '+' is no roll: expected a number or dice at column "
	    "1, not '+'; give dice (1d20+3) or a modifier added to 1d20 (+3).");
}

/* The error of line, typed by user, exactly; the procedure state is
 * left as it was. */
static void
refused_whole(const char *user, const char *line, const char *want)
{
	refused_as(user, line, want, true);
}

/* recheck9 F12: a word shaped like an option given by name that is no
 * option of the command is refused where a name or a roll goes, as it is
 * everywhere else ("/light add torch counts:2" lit a torch carried by
 * "counts:2"); quoted, it is the name. In a reason or a note, where colons
 * are free text, only a word close to one of the options is refused. */
static void
option_shaped_names_are_refused(void **unused)
{
	const struct reply *r;
	char *text;

	ok("gm", "gm claim");
	ok("gm", "vendor meet Gus");
	refused_whole("gm", "light add torch counts:2",
	              "'counts:' is no option of this command (its options are kind:, count: and "
	              "who:); did you mean count:?; usage: /light add <torch|lantern|candle> "
	              "[count] [who]");
	refused_whole("gm", "light add lantern carried:bob",
	              "'carried:' is no option of this command (its options are kind:, count: and "
	              "who:); usage: /light add <torch|lantern|candle> [count] [who]");
	refused_whole("gm", "light add torch 2 hazard:false",
	              "'hazard:' is no option of this command (its options are kind:, count: and "
	              "who:); usage: /light add <torch|lantern|candle> [count] [who]");
	refused_whole("gm", "vendor nmae:Gus",
	              "'nmae:' is no option of this command (its options are name:); did you mean "
	              "name:?; usage: /vendor meet [name]");
	refused_whole("gm", "vendor forget nmae:Gus",
	              "'nmae:' is no option of this command (its options are name:); did you mean "
	              "name:?; usage: /vendor forget <name>");
	refused_whole("gm", "hazard sign critter:orcs",
	              "'critter:' is no option of this command (its options are creature:); usage: "
	              "/hazard sign [creature]");
	refused_whole("gm", "bargain Gus ring sell rol:+3",
	              "'rol:' is no option of this command (its options are vendor:, item:, deal: "
	              "and roll:); did you mean roll:?; usage: /bargain <vendor> <item> <sell|buy> "
	              "[roll]");
	refused_whole("gm", "bargain Gus itme:ring sell",
	              "'itme:' is no option of this command (its options are vendor:, item:, deal: "
	              "and roll:); did you mean item:?; usage: /bargain <vendor> <item> <sell|buy> "
	              "[roll]");
	r = run("gm", "tension raise combat reasn:goblins");
	assert_true(reply_is_error(r));
	assert_string_equal(
	    reply_error_text(r),
	    "'reasn:' is no option of this command (its options are event:, reason: "
	    "and amount:); did you mean reason:?; usage: /tension raise "
	    "[door|quiet-combat|combat|enemy-escaped] [reason] [amount:N]");
	/* free text keeps a colon that is no slip */
	ok("gm", "tension raise combat note: goblins");
	/* the names meant */
	ok("gm", "light add torch count:2");
	ok("gm", "light add torch who:bob");
	ok("gm", "vendor meet \"nmae:Gus\"");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "nmae:Gus's stock"));
	free(text);
	ok("gm", "hazard sign creature:orcs");
	ok("gm", "bargain Gus ring sell roll:+3");
}

/* recheck9 F1: a count written as a word where the count goes is refused
 * with the number in digits ("/light add torch two" lit one torch carried
 * by "two"); by name, or after a count, the word is the carrier. */
static void
number_words_are_no_count(void **unused)
{
	char *text;

	ok("gm", "gm claim");
	refused_whole("gm", "light add torch two",
	              "'two' reads as a count written in words, not who carries it: a count is a "
	              "number (/light add torch 2), a carrier a name (who:two).");
	refused_whole(
	    "gm", "light add candle Twenty",
	    "'Twenty' reads as a count written in words, not who carries it: a count is a "
	    "number (/light add candle 20), a carrier a name (who:Twenty).");
	ok("gm", "light add torch who:two");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Lit 1 torch carried by two;"));
	free(text);
	ok("gm", "light add torch 2 two");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Lit 2 torches carried by two;"));
	free(text);
}

/* recheck9 F3: "/hazard delving table" (the words of "/hazard table
 * delving" swapped) passed a turn with the note "table": a note that is
 * exactly a subcommand's name after a table typed by position is refused,
 * with the command meant; by name it is a note. */
static void
swapped_table_and_subcommand_refused(void **unused)
{
	char *text;

	ok("gm", "gm claim");
	refused_whole("gm", "hazard delving table",
	              "'table' after the table delving is a subcommand of /hazard, not a note; did "
	              "you mean /hazard table delving? (a note that is that word is given by name: "
	              "note:table)");
	refused_whole("gm", "hazard roll exploration Show",
	              "'show' after the table exploration is a subcommand of /hazard, not a note; "
	              "did you mean /hazard show? (a note that is that word is given by name: "
	              "note:show)");
	ok("gm", "hazard delving note:table");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Turn 1 "));
	free(text);
	ok("gm", "hazard delving tables");
}

/* recheck9 F8: a custom hazard die or a Tension table naming a
 * [[table]] the channel has not is saved with the warning /table set
 * gives, so a misspelt name is seen when the table is made. */
static void
custom_tables_warn_of_missing_references(void **unused)
{
	static const char warn[] =
	    "No table here is called [[shfits]] yet: until one is, rolls leave it as written.";
	char *text;

	ok("gm", "gm claim");
	ok("gm", "table set shifts 1-6: distant bells");
	ok("gm", "hazard custom d6 \"1-5 Shift: [[shfits]]; 6 Shift: [[shifts]]\"");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, warn));
	assert_null(strstr(text, "[[shifts]] yet"));
	free(text);
	ok("gm", "tension table set encounter 1-20 [[shfits]]");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, warn));
	free(text);
	ok("gm", "hazard custom d6 \"1-6 Shift: [[shifts]]\"");
	text = reply_plain(cr.last);
	assert_null(strstr(text, "No table here"));
	free(text);
}

/* recheck9 F16: a start shared by several sections of the channel's card
 * is refused with them, not answered from another card, whose rule text
 * differs ("/procedure s" on an exploration table gave delving's
 * Searching); where it starts one section, that one is shown. */
static void
shared_section_start_refused(void **unused)
{
	char *text;

	refused_whole("bob", "procedure s",
	              "'s' starts several sections of the exploration card; did you mean searching "
	              "or surprise?");
	refused_whole("bob", "procedure rooms S",
	              "'S' starts several sections of the rooms card; did you mean safe areas or "
	              "surprise?");
	ok("bob", "procedure se");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Exploration procedure"));
	free(text);
	ok("gm", "gm claim");
	ok("gm", "hazard procedure delving");
	ok("bob", "procedure s");
	text = reply_plain(cr.last);
	assert_non_null(strstr(text, "Delving procedure"));
	free(text);
}

/* The replies of every /wander form delver(7) lists, the check named or
 * the channel's default (corridor when unset, rest, classic, classic 2 in
 * 8, tension), pinned whole: the seed is set again before each line. */
static const struct {
	const char *dflt, *line, *want;
} wander_forms[] = {
    {NULL, "wander corridor",
     "Wandering check: corridor leg (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander rest",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander rest 3",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander rest exits:3",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander rest 0",
     "A resting check needs a way in for the monsters: exits must be from 1 to 20 (got 0).\n"},
    {NULL, "wander rest 25",
     "A resting check needs a way in for the monsters: exits must be from 1 to 20 (got 25).\n"},
    {NULL, "wander rest x",
     "Exits must be a whole number from 1 to 20 (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {NULL, "wander rest 3 5", "The rest check takes one number, the room's exits (got 3 and 5).\n"},
    {NULL, "wander classic",
     "Wandering check: classic (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander classic 2",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2 in 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2-in-6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2in6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2/6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2 IN 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 1-in-100",
     "Wandering check: classic (1-in-100)\nd100: 29 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander classic chance:3/8",
     "Wandering check: classic (3-in-8)\nd8: 3 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander classic 2 of 6",
     "'2 of 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone for "
     "X-in-6 (2 is 2-in-6).\n"},
    {NULL, "wander tension",
     "Wandering check: D12 encounter check (exits 1, Tension 1)\nd12: 4 \xe2\x86\x92 no wandering "
     "monsters.\nd12 4 > exits 1 and > tension 1.\n"},
    {NULL, "wander tension 3",
     "Wandering check: D12 encounter check (exits 3, Tension 1)\nd12: 4 \xe2\x86\x92 no wandering "
     "monsters.\nd12 4 > exits 3 and > tension 1.\n"},
    {NULL, "wander tension 3 5",
     "Wandering check: D12 encounter check (exits 3, Tension 5)\nd12: 4 \xe2\x86\x92 wandering "
     "monsters!\nd12 4 ≤ tension 5.\nEncounter table: d10 + Tension = 7 + 5 = 12: 7 "
     "goblins (2d4: 3+4).\n"},
    {NULL, "wander tension exits:3 tension:5",
     "Wandering check: D12 encounter check (exits 3, Tension 5)\nd12: 4 \xe2\x86\x92 wandering "
     "monsters!\nd12 4 ≤ tension 5.\nEncounter table: d10 + Tension = 7 + 5 = 12: 7 "
     "goblins (2d4: 3+4).\n"},
    {NULL, "wander tension 21",
     "A tension check takes exits from 0 (a sealed room) to 20 (got 21).\n"},
    {NULL, "wander tension 3 x",
     "Tension must be a whole number from 1 to 10 (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {NULL, "wander check classic 2 in 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {NULL, "wander",
     "Wandering check: corridor leg (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {NULL, "wander 2",
     "The corridor check takes no number: its odds are 1 in 6 (got 2); a room's exits are for "
     "/wander check rest 2, odds of 2 in 6 for /wander check classic 2.\n"},
    {NULL, "wander 3 5",
     "The corridor check takes no number: its odds are 1 in 6 (got 3 and 5); a room's exits are "
     "for /wander check rest 3, odds of 3 in 6 for /wander check classic 3.\n"},
    {NULL, "wander 2 6",
     "The corridor check takes no number: its odds are 1 in 6 (got 2 and 6); a room's exits are "
     "for /wander check rest 2, odds of 2 in 6 for /wander check classic 2.\n"},
    {NULL, "wander 2 in 6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander 2-in-6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander 2in6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander 2/6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander 2 IN 6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander 1-in-100",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander 2 of 6",
     "Procedure must be one of corridor, rest, classic, tension (got 'of'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {NULL, "wander x",
     "Procedure must be one of corridor, rest, classic, tension (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {NULL, "wander chance:2-in-6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {NULL, "wander exits:3", "Exits count for the rest and tension checks only, not corridor.\n"},
    {NULL, "wander tension:5", "The tension option is for the tension check only, not corridor.\n"},
    {NULL, "wander 3 5 7",
     "The corridor check takes no number: its odds are 1 in 6 (got 3, 5 and 7); a room's exits are "
     "for /wander check rest 3, odds of 3 in 6 for /wander check classic 3.\n"},
    {NULL, "wander 2 in 6 3",
     "The corridor check takes no number: its odds are 1 in 6 (got 3); a room's exits are for "
     "/wander check rest 3, odds of 3 in 6 for /wander check classic 3.\n"},
    {NULL, "wander check 2",
     "The corridor check takes no number: its odds are 1 in 6 (got 2); a room's exits are for "
     "/wander check rest 2, odds of 2 in 6 for /wander check classic 2.\n"},
    {NULL, "wander check 2 in 6",
     "Chance is for the classic check only; the corridor check has fixed odds.\n"},
    {"wander default rest", "wander",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default rest", "wander 2",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default rest", "wander 3 5",
     "The rest check takes one number, the room's exits (got 3 and 5).\n"},
    {"wander default rest", "wander 2 6",
     "The rest check takes one number, the room's exits (got 2 and 6).\n"},
    {"wander default rest", "wander 2 in 6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander 2-in-6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander 2in6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander 2/6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander 2 IN 6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander 1-in-100",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander 2 of 6",
     "Procedure must be one of corridor, rest, classic, tension (got 'of'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander default rest", "wander x",
     "Procedure must be one of corridor, rest, classic, tension (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander default rest", "wander chance:2-in-6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander exits:3",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default rest", "wander tension:5",
     "The tension option is for the tension check only, not rest.\n"},
    {"wander default rest", "wander 3 5 7",
     "The rest check takes one number, the room's exits (got 3, 5 and 7).\n"},
    {"wander default rest", "wander 2 in 6 3",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default rest", "wander check 2",
     "Wandering check: resting (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default rest", "wander check 2 in 6",
     "Chance is for the classic check only; the rest check has fixed odds.\n"},
    {"wander default classic", "wander",
     "Wandering check: classic (1-in-6)\nd6: 2 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default classic", "wander 2",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 3 5",
     "Wandering check: classic (3-in-5)\nd5: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 2 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 2 in 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 2-in-6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 2in6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 2/6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 2 IN 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander 1-in-100",
     "Wandering check: classic (1-in-100)\nd100: 29 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default classic", "wander 2 of 6",
     "'2 of 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone for "
     "X-in-6 (2 is 2-in-6).\n"},
    {"wander default classic", "wander x",
     "Procedure must be one of corridor, rest, classic, tension (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander default classic", "wander chance:2-in-6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander exits:3",
     "Exits count for the rest and tension checks only, not classic (for classic odds of 3 in 6, "
     "write chance:3).\n"},
    {"wander default classic", "wander tension:5",
     "The tension option is for the tension check only, not classic.\n"},
    {"wander default classic", "wander 3 5 7",
     "'3 5 7' is the odds 3-in-5 followed by '7', which is no part of them; give the odds "
     "alone.\n"},
    {"wander default classic", "wander 2 in 6 3",
     "'2 in 6 3' is the odds 2-in-6 followed by '3', which is no part of them; give the odds "
     "alone.\n"},
    {"wander default classic", "wander check 2",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic", "wander check 2 in 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander",
     "Wandering check: classic (2-in-8)\nd8: 3 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default classic 2 in 8", "wander 2",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 3 5",
     "Wandering check: classic (3-in-5)\nd5: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 2 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 2 in 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 2-in-6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 2in6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 2/6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 2 IN 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander 1-in-100",
     "Wandering check: classic (1-in-100)\nd100: 29 \xe2\x86\x92 no wandering monsters.\n"},
    {"wander default classic 2 in 8", "wander 2 of 6",
     "'2 of 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X alone for "
     "X-in-6 (2 is 2-in-6).\n"},
    {"wander default classic 2 in 8", "wander x",
     "Procedure must be one of corridor, rest, classic, tension (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander default classic 2 in 8", "wander chance:2-in-6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander exits:3",
     "Exits count for the rest and tension checks only, not classic (for classic odds of 3 in 6, "
     "write chance:3).\n"},
    {"wander default classic 2 in 8", "wander tension:5",
     "The tension option is for the tension check only, not classic.\n"},
    {"wander default classic 2 in 8", "wander 3 5 7",
     "'3 5 7' is the odds 3-in-5 followed by '7', which is no part of them; give the odds "
     "alone.\n"},
    {"wander default classic 2 in 8", "wander 2 in 6 3",
     "'2 in 6 3' is the odds 2-in-6 followed by '3', which is no part of them; give the odds "
     "alone.\n"},
    {"wander default classic 2 in 8", "wander check 2",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default classic 2 in 8", "wander check 2 in 6",
     "Wandering check: classic (2-in-6)\nd6: 2 \xe2\x86\x92 wandering monsters!\n"},
    {"wander default tension", "wander",
     "Wandering check: D12 encounter check (exits 1, Tension 1)\nd12: 4 \xe2\x86\x92 no wandering "
     "monsters.\nd12 4 > exits 1 and > tension 1.\n"},
    {"wander default tension", "wander 2",
     "Wandering check: D12 encounter check (exits 2, Tension 1)\nd12: 4 \xe2\x86\x92 no wandering "
     "monsters.\nd12 4 > exits 2 and > tension 1.\n"},
    {"wander default tension", "wander 3 5",
     "Wandering check: D12 encounter check (exits 3, Tension 5)\nd12: 4 \xe2\x86\x92 wandering "
     "monsters!\nd12 4 ≤ tension 5.\nEncounter table: d10 + Tension = 7 + 5 = 12: 7 "
     "goblins (2d4: 3+4).\n"},
    {"wander default tension", "wander 2 6",
     "Wandering check: D12 encounter check (exits 2, Tension 6)\nd12: 4 \xe2\x86\x92 wandering "
     "monsters!\nd12 4 ≤ tension 6.\nEncounter table: d10 + Tension = 7 + 6 = 13: 9 orcs "
     "(2d6: 4+5).\n"},
    {"wander default tension", "wander 2 in 6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander 2-in-6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander 2in6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander 2/6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander 2 IN 6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander 1-in-100",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander 2 of 6",
     "Procedure must be one of corridor, rest, classic, tension (got 'of'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander default tension", "wander x",
     "Procedure must be one of corridor, rest, classic, tension (got 'x'); usage: /wander check "
     "[corridor|rest|classic|tension] [exits] [chance] [tension]\n"},
    {"wander default tension", "wander chance:2-in-6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander exits:3",
     "Wandering check: D12 encounter check (exits 3, Tension 1)\nd12: 4 \xe2\x86\x92 no wandering "
     "monsters.\nd12 4 > exits 3 and > tension 1.\n"},
    {"wander default tension", "wander tension:5",
     "Wandering check: D12 encounter check (exits 1, Tension 5)\nd12: 4 \xe2\x86\x92 wandering "
     "monsters!\nd12 4 ≤ tension 5.\nEncounter table: d10 + Tension = 7 + 5 = 12: 7 "
     "goblins (2d4: 3+4).\n"},
    {"wander default tension", "wander 3 5 7",
     "The tension check takes two numbers, the room's exits and then a Tension (got 3, 5 and "
     "7).\n"},
    {"wander default tension", "wander 2 in 6 3",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
    {"wander default tension", "wander check 2",
     "Wandering check: D12 encounter check (exits 2, Tension 1)\nd12: 4 \xe2\x86\x92 no wandering "
     "monsters.\nd12 4 > exits 2 and > tension 1.\n"},
    {"wander default tension", "wander check 2 in 6",
     "Chance is for the classic check only; the tension check has fixed odds.\n"},
};

/* A C string literal of s, for the table above. */
static void
print_literal(const char *s)
{
	fputc('"', stderr);
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stderr);
		else if (*s == '"' || *s == '\\')
			fprintf(stderr, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			fprintf(stderr, "\\x%02x\"\"", (unsigned char)*s);
		else
			fputc(*s, stderr);
	}
	fputc('"', stderr);
}

static void
wander_forms_replies_pinned(void **unused)
{
	bool same = true;

	(void)unused;
	ok("gm", "gm claim");
	for (size_t i = 0; i < sizeof(wander_forms) / sizeof(wander_forms[0]); i++) {
		const char *got;

		ok("gm",
		   wander_forms[i].dflt != NULL ? wander_forms[i].dflt : "wander default corridor");
		rng_seed(cr.rng, 5);
		run("gm", wander_forms[i].line);
		got = cmdrun_plain(&cr);
		if (strcmp(got, wander_forms[i].want) != 0) {
			same = false;
			fputs("    {", stderr);
			if (wander_forms[i].dflt != NULL)
				print_literal(wander_forms[i].dflt);
			else
				fputs("NULL", stderr);
			fputs(", ", stderr);
			print_literal(wander_forms[i].line);
			fputs(",\n     ", stderr);
			print_literal(got);
			fputs("},\n", stderr);
		}
	}
	assert_true(same);
}

/* A pace belongs to its procedure: exploration's running is its rushing,
 * not delving's flight that blows candles out, so a change of procedure
 * brings a party that was not crawling to crawling, and says so; a
 * candle lit under exploration's running burns on under delving. */
static void
procedure_switch_brings_the_pace_to_crawling(void **unused)
{
	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "light add candle");
	ok("gm", "turn move running");
	ok("gm", "hazard procedure delving");
	assert_non_null(strstr(cmdrun_plain(&cr),
	                       "The party was running under the exploration procedure; under the "
	                       "delving procedure it is crawling now, its usual pace (/turn move "
	                       "sets another).\n"));
	ok("gm", "turn advance");
	assert_null(strstr(cmdrun_plain(&cr), "blown out"));
	ok("gm", "turn move");
	assert_string_equal(cmdrun_plain(&cr),
	                    "The party is crawling: 36 m a turn; it detects traps and maps as it "
	                    "goes.\n");
	ok("gm", "light list");
	assert_non_null(strstr(cmdrun_plain(&cr), "#1 candle"));
	/* the other way, by the hazard table, and no word when nothing changes */
	ok("gm", "turn move walking");
	ok("gm", "hazard table exploration");
	assert_non_null(strstr(cmdrun_plain(&cr),
	                       "The party was walking under the delving procedure; under the "
	                       "exploration procedure it is crawling now, exploring cautiously "
	                       "(/turn move sets another).\n"));
	ok("gm", "turn move running");
	ok("gm", "hazard procedure exploration");
	assert_null(strstr(cmdrun_plain(&cr), "The party was"));
	ok("gm", "turn move");
	assert_non_null(strstr(cmdrun_plain(&cr), "The party is running"));
}

/* A day's /turn advance with 20 lanterns: every lantern going out is told
 * (turn 36), and what the report could not keep is named as reminders. */
static void
long_advance_tells_every_light_out(void **unused)
{
	const char *text;

	(void)unused;
	ok("gm", "gm claim");
	for (int i = 0; i < 20; i++)
		ok("gm", "light add lantern");
	ok("gm", "turn advance 144");
	text = cmdrun_plain(&cr);
	for (int id = 1; id <= 20; id++) {
		char line[64];

		snprintf(line, sizeof(line), "Turn 36: Lantern #%d burns out.", id);
		if (strstr(text, line) == NULL)
			fail_msg("no '%s' in: %s", line, text);
	}
	assert_non_null(strstr(text, "(16 more reminders of rests due or lights' last turns not "
	                             "shown)"));
	assert_null(strstr(text, "more events not shown"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(bad_input_leaves_state, setup, teardown),
	    cmocka_unit_test_setup_teardown(gm_only_settings, setup, teardown),
	    cmocka_unit_test_setup_teardown(state_is_per_channel, setup, teardown),
	    cmocka_unit_test_setup_teardown(exploration_light_facts, setup, teardown),
	    cmocka_unit_test_setup_teardown(light_result_and_lantern_oil, setup, teardown),
	    cmocka_unit_test_setup_teardown(delving_fatigue_damage, setup, teardown),
	    cmocka_unit_test_setup_teardown(settings_shown_are_the_dies, setup, teardown),
	    cmocka_unit_test_setup_teardown(fatigue_on_the_rests_turn_is_one_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(bargain_once_per_item, setup, teardown),
	    cmocka_unit_test_setup_teardown(bargain_says_to_quote_names_of_several_words, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(bargain_refusal_not_read_better_stands_whole, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(vendor_names_are_quoted_alike, setup, teardown),
	    cmocka_unit_test_setup_teardown(bargain_roll_refusal_is_a_sentence, setup, teardown),
	    cmocka_unit_test_setup_teardown(option_shaped_names_are_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(number_words_are_no_count, setup, teardown),
	    cmocka_unit_test_setup_teardown(swapped_table_and_subcommand_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(custom_tables_warn_of_missing_references, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(shared_section_start_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_shows_whole_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(custom_table_is_used, setup, teardown),
	    cmocka_unit_test_setup_teardown(custom_entry_dice_are_rolled, setup, teardown),
	    cmocka_unit_test_setup_teardown(custom_encounter_entry_is_one_encounter, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(stair_takes_a_turn, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_begins_on_level_0, setup, teardown),
	    cmocka_unit_test_setup_teardown(level_0_names_the_stair, setup, teardown),
	    cmocka_unit_test_setup_teardown(level_0_is_the_gms_as_safe_on_is, setup, teardown),
	    cmocka_unit_test_setup_teardown(dim_light_and_the_vendors_level_are_said, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(exploration_pace_is_its_own, setup, teardown),
	    cmocka_unit_test_setup_teardown(darkness_surprises_the_party, setup, teardown),
	    cmocka_unit_test_setup_teardown(resting_party_is_not_caught_by_its_pace, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(wander_numbers_go_where_the_check_takes_them, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(wander_forms_replies_pinned, setup, teardown),
	    cmocka_unit_test_setup_teardown(tension_check_uses_the_channels_tension, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(sign_rolls_the_encounter_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(long_advance_tells_every_light_out, setup, teardown),
	    cmocka_unit_test_setup_teardown(procedure_switch_brings_the_pace_to_crawling, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(exploration_sign_reads_alike_behind_the_screen, setup,
	                                    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
