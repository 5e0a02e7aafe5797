/*
 * Unit tests for /table (commands/tables) through the dispatcher: every
 * form of /table set and every refusal (one sentence, the state left as it
 * was), the limits, who may change tables, rolls with the rolled row marked
 * and nested rolls shown, secret rolls and the GM's screen, the round trip
 * show -> set -> show, list, delete and /undo, copy between channels, and
 * the module's saved form.
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

#include "bot/console/console_name.h"
#include "bot/console/render_text.h"
#include "bot/discord/discord_interact.h"
#include "bot/draft/draft.h"
#include "bot/irc/irc_who.h"
#include "commands/core/dispatch.h"
#include "commands/core/registry_parse.h"
#include "commands/tables/cmd_table_examples.h"
#include "commands/tables/tables_state.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "rules/tables/roll_table.h"
#include "tests/unit/helpers/cmdrun.h"
#include "tests/unit/helpers/slurp.h"

static struct cmdrun cr;
static const char *text; /* the last reply as plain text */

static int
setup(void **unused)
{
	(void)unused;
	cmdrun_open(&cr, 99);
	text = NULL;
	return 0;
}

static int
teardown(void **unused)
{
	(void)unused;
	cmdrun_close(&cr);
	return 0;
}

/* Runs line as user in channel chan; returns the reply as plain text. */
static const char *
run_in(const char *chan, const char *user, const char *line)
{
	cmdrun_line(&cr, chan, user, line, 1000);
	text = cmdrun_plain(&cr);
	return text;
}

static const char *
run(const char *user, const char *line)
{
	return run_in("table", user, line);
}

/* The channel's tables as saved ("" for none). */
static char *
saved(const char *chan)
{
	char key[KEY_MAX];
	struct channel *ch;
	const struct tables_state *s;
	cJSON *o;
	char *t;

	snprintf(key, sizeof(key), "console:%s", chan);
	ch = state_channel(cr.st, key);
	s = tables_state_peek(ch);
	if (s == NULL)
		return strdup("");
	o = tables_mod.save(s);
	t = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return t;
}

static void
ok(const char *user, const char *line)
{
	run(user, line);
	if (reply_is_error(cr.last))
		fail_msg("'%s' failed: %s", line, reply_error_text(cr.last));
}

/* line is refused with exactly want, and the tables are as they were. */
static void
refused(const char *user, const char *line, const char *want)
{
	char *before = saved("table"), *after;

	run(user, line);
	if (!reply_is_error(cr.last))
		fail_msg("'%s' was not refused: %s", line, text);
	if (strcmp(reply_error_text(cr.last), want) != 0)
		fail_msg("'%s' gave:\n  %s\nnot:\n  %s", line, reply_error_text(cr.last), want);
	after = saved("table");
	assert_string_equal(before, after);
	free(before);
	free(after);
}

/* The tables are as saved in before (which is freed). */
static void
after_is(char *before)
{
	char *after = saved("table");

	assert_string_equal(before, after);
	free(before);
	free(after);
}

/* The plain text contains want. */
static void
has(const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("no '%s' in:\n%s", want, text);
}

static void
hasnt(const char *what)
{
	if (strstr(text, what) != NULL)
		fail_msg("'%s' should not be in:\n%s", what, text);
}

/* Every form of /table set, and the die each names. */
static void
set_every_form(void **unused)
{
	(void)unused;
	ok("al", "table set d4 1: a; 2: b; 3-4: c");
	has("Saved the table d4: d4, 3 entries.");
	ok("al", "table set Loot 1-2 copper; 3-6 silver");
	has("Saved the table loot: d6, 2 entries.");
	ok("al", "table set rumours 11-36: a tale; 41-66: a lie");
	has("Saved the table rumours: d66, 2 entries.");
	ok("al", "table set hoard 01-95: coins; 96-00: a crown");
	has("Saved the table hoard: d100, 2 entries.");
	ok("al", "table set wolves 3x a wolf; 1x the pack leader");
	has("Saved the table wolves: weighted d4, 2 entries.");
	ok("al", "table set order 7-8: c; 1-3: a; 4-6: b");
	has("Saved the table order: d8, 3 entries.");
	ok("al", "table set loot 1-6: gold");
	has("Replaced the table loot: d6, 1 entry.");
	/* a reference to a table not made yet is said, not refused */
	ok("al", "table set chest 1-6: a chest of [[gems]]");
	has("No table here is called [[gems]] yet");
}

/* Every refusal names what is wrong, and where. */
static void
set_every_error(void **unused)
{
	char big[5000], err[200];
	struct buf b;

	(void)unused;
	ok("al", "table set keep 1-6: kept");
	refused("al", "table set bad 1-2: a; 4-6: b",
	        "The table bad was not saved: entry 2: result 3 is not covered by any entry.");
	refused("al", "table set bad 1-3: a; 3-6: b",
	        "The table bad was not saved: entry 2: range 3-6 overlaps entry 1 (1-3): result "
	        "3 is in both.");
	refused("al", "table set bad 1-3: a; six: b",
	        "The table bad was not saved: entry 2: 'six: b' does not start with a range like "
	        "5 or 5-8 followed by text.");
	refused("al", "table set bad 4-1: a",
	        "The table bad was not saved: entry 1: range 4-1 is reversed; write it low-high.");
	refused("al", "table set bad 1-3: a; 4-7: b",
	        "The table bad was not saved: the highest result is 7, which no die gives: the "
	        "ranges end at 4, 6, 8, 10, 12, 20, 66 (d66, numbered 11-66) or 100, or every "
	        "entry is weighted (3x text).");
	refused("al", "table set bad 1-3: a; 2x b",
	        "The table bad was not saved: entry 2 is weighted but entry 1 is a range; write "
	        "every entry with a range (5-8: text) or every one with a weight (3x text).");
	refused("al", "table set bad 1-6: [[bad]]",
	        "The table bad was not saved: the tables would roll each other in a circle (bad → "
	        "bad); a table may not roll itself, even through other tables.");
	refused("al", "table set a;b 1-6: a",
	        "'a;b' is not a table name: a name is 1 to 32 letters (of any alphabet), digits, - "
	        "and _, with no spaces or symbols (loot, encounter-2).");
	/* no entries: the command asks for them (a form, or the lines that
	 * follow), and changes nothing yet */
	{
		const struct reply_ask *ask;
		char *before = saved("table");

		ok("al", "table set bad");
		ask = reply_asked(cr.last);
		assert_non_null(ask);
		assert_string_equal(ask->line, "table set bad");
		assert_string_equal(ask->opt, "entries");
		assert_int_equal(ask->max, TABLES_TEXT_MAX);
		has("Send the entries of the table bad, one a line");
		after_is(before);
	}
	/* too many entries */
	buf_init(&b, 8000);
	buf_adds(&b, "table set bad ");
	for (int i = 1; i <= ROLL_TABLE_ENTRIES_MAX + 1; i++)
		buf_addf(&b, "%dx e;", 1);
	refused("al", buf_str(&b),
	        "The table bad was not saved: a table may have at most 100 entries.");
	buf_free(&b);
	/* an entry too long */
	memset(big, 'x', sizeof(big));
	memcpy(big, "table set bad 1-6: ", 19);
	big[19 + ROLL_TABLE_TEXT_MAX] = '\0';
	refused("al", big,
	        "The table bad was not saved: entry 1 is 161 bytes long; an entry may be at most "
	        "160.");
	/* a table's text too long: the typed line's own limit comes first on text
	 * platforms, so the option is bound as Discord binds it */
	{
		struct invocation inv;
		struct reply *r = reply_new();
		char *long_text = malloc(TABLES_TEXT_MAX + 2);

		memset(&inv, 0, sizeof(inv));
		memset(long_text, 'x', TABLES_TEXT_MAX + 1);
		long_text[TABLES_TEXT_MAX + 1] = '\0';
		assert_int_equal(registry_parse_in(command_table, "table set bad", 13, &inv, r), 0);
		assert_int_equal(registry_parse_bind(&inv, "entries", long_text, r), -1);
		snprintf(err, sizeof(err), "%s", reply_error_text(r));
		assert_non_null(strstr(err, "4000"));
		invocation_clear(&inv);
		reply_free(r);
		free(long_text);
	}
}

/* The limits of a channel: tables, bytes, the depth of references. */
static void
channel_limits(void **unused)
{
	char line[2100];

	(void)unused;
	for (int i = 0; i < TABLES_MAX; i++) {
		snprintf(line, sizeof(line), "table set t%02d 1-6: entry %d", i, i);
		ok("al", line);
	}
	refused("al", "table set one-more 1-6: x",
	        "The table one-more was not saved: this channel has 32 tables, the most it may "
	        "keep; delete one first.");
	/* replacing one is no new table */
	ok("al", "table set t00 1-6: changed");
	for (int i = 0; i < TABLES_MAX; i++) {
		snprintf(line, sizeof(line), "table delete t%02d", i);
		ok("al", line);
	}
	/* bytes: 16 tables of 12 entries of 157 bytes (1934 bytes of text each:
	 * 9 of "N: " and 3 of "NN: ", 11 newlines), then a 17th passes 32000 */
	for (int i = 0; i <= 16; i++) {
		size_t n = (size_t)snprintf(line, sizeof(line), "table set b%02d ", i);

		for (int e = 1; e <= 12; e++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%d: %0157d;", e, e);
		if (i < 16)
			ok("al", line);
	}
	run("al", "table list");
	has("Tables here: 16 of 32, 30944 of 32000 bytes of text");
	refused("al", line,
	        "The table b16 was not saved: this channel's tables would hold 32878 bytes of "
	        "text; they may hold at most 32000 (delete or shorten one).");
}

/* One of channel_limits' tables of 1934 bytes of text, called name. */
static const char *
long_line(char *line, size_t len, const char *name)
{
	size_t n = (size_t)snprintf(line, len, "table set %s ", name);

	for (int e = 1; e <= 12; e++)
		n += (size_t)snprintf(line + n, len - n, "%d: %0157d;", e, e);
	return line;
}

/* hidden8's z (V6): while Tension is hidden and the seat is empty, a
 * player's change is held to the bytes of the tables the player may read;
 * the screened ones count apart, so the refusal's figure says nothing of
 * them. The GM's change counts them all. A channel so past the limit may
 * still be shortened, and loads (an undo) as it is. */
static void
screened_bytes_count_apart(void **unused)
{
	static const char *const screened[] = {"encounter", "effects", "encounter-2", "encounter-3",
	                                       "effects-2"};
	char line[2100], name[16];

	(void)unused;
	ok("gm", "gm claim");
	for (int i = 0; i <= 16; i++) {
		snprintf(name, sizeof(name), "b%02d", i);
		if (i < 10)
			ok("gm", long_line(line, sizeof(line), name));
		else {
			snprintf(line, sizeof(line), "table set %s 1-6: x", name);
			ok("gm", line);
		}
	}
	ok("gm", "tension mode hidden");
	for (size_t i = 0; i < sizeof(screened) / sizeof(screened[0]); i++)
		ok("gm", long_line(line, sizeof(line), screened[i]));
	ok("gm", "gm release");
	/* 10 + 6 of 1934 bytes, 6 bytes of b16: 30950 the players may read */
	for (int i = 10; i < 16; i++) {
		snprintf(name, sizeof(name), "b%02d", i);
		ok("al", long_line(line, sizeof(line), name));
	}
	refused("al", long_line(line, sizeof(line), "b16"),
	        "The table b16 was not saved: the tables you may read here would hold 32878 bytes "
	        "of text; they may hold at most 32000 (delete or shorten one; while Tension is "
	        "hidden, the tables behind the GM's screen count apart).");
	/* 30950 + 5 x 1934 = 40620 in all */
	ok("gm", "gm claim");
	refused("gm", long_line(line, sizeof(line), "b16"),
	        "The table b16 was not saved: this channel's tables would hold 42548 bytes of "
	        "text; they may hold at most 32000 (delete or shorten one).");
	ok("gm", "table set b00 1-6: y");
	ok("gm", "table set b00 1-6: x");
	ok("gm", "undo");
	ok("gm", "undo");
	run("gm", "table list");
	has("Behind your screen (all tables: 40620 of 32000 bytes of text):");
}

static void
references_are_checked(void **unused)
{
	(void)unused;
	ok("al", "table set a 1-6: [[b]]");
	ok("al", "table set b 1-6: [[c]]");
	ok("al", "table set c 1-6: [[d]]");
	/* a fourth is allowed: a chain of 4 */
	ok("al", "table set d 1-6: the end");
	refused("al", "table set d 1-6: [[e]]",
	        "The table d was not saved: the tables would make a chain of 5 (a → b → c → d → "
	        "e); a roll follows at most 4 tables deep.");
	refused("al", "table set c 1-6: [[a]]",
	        "The table c was not saved: the tables would roll each other in a circle (c → a "
	        "→ b → c); a table may not roll itself, even through other tables.");
	/* through Tension's own table, which a GM's table may name */
	ok("al", "table set x 1-6: [[encounter]]");
	ok("gm", "gm claim");
	refused("gm", "tension table set encounter 1-20: [[x]]",
	        "The encounter table was not changed: the tables would roll each other in a "
	        "circle (encounter → x → encounter); a table may not roll itself, even through "
	        "other tables.");
}

/* While someone holds the GM seat, only the GM changes tables. */
static void
the_gm_seat_decides(void **unused)
{
	(void)unused;
	ok("al", "table set mine 1-6: a");
	ok("gm", "gm claim");
	refused("al", "table set mine 1-6: b", "Only the GM, gm, changes the tables here.");
	refused("al", "table delete mine", "Only the GM, gm, changes the tables here.");
	/* refused before asking for entries */
	refused("al", "table set other", "Only the GM, gm, changes the tables here.");
	assert_null(reply_asked(cr.last));
	ok("gm", "table set mine 1-6: c");
	/* anyone still rolls and reads */
	ok("al", "table roll mine");
	ok("al", "table show mine");
	ok("gm", "gm release");
	ok("al", "table set mine 1-6: d");
}

/* The whole table with the rolled row marked, and the roll's result: the
 * expected row and dice come from the same seed. */
static void
roll_marks_the_rolled_row(void **unused)
{
	struct rng *same = rng_new_seeded(7);
	char want[200];
	int r, goblins;

	(void)unused;
	ok("al", "table set foes 1-2: 1d4 goblins; 3-4: an ogre; 5-6: a bat");
	rng_seed(cr.rng, 7);
	r = (int)rng_die(same, 6);
	goblins = (int)rng_die(same, 4);
	ok("al", "table roll foes");
	has("al rolls on the table foes (d6)\n");
	snprintf(want, sizeof(want), "> %s",
	         r <= 2   ? "1-2 | 1d4 goblins"
	         : r <= 4 ? "3-4 | an ogre"
	                  : "5-6 | a bat");
	has(want);
	if (r <= 2)
		snprintf(want, sizeof(want), "Rolled %d on the d6: %d %s (1d4: %d)\n", r, goblins,
		         goblins == 1 ? "goblin" : "goblins", goblins);
	else
		snprintf(want, sizeof(want), "Rolled %d on the d6: %s\n", r,
		         r <= 4 ? "an ogre" : "a bat");
	has(want);
	/* one row only is marked */
	assert_ptr_equal(strchr(text, '>'), strrchr(text, '>'));
	/* the roll is in the channel's log */
	run("al", "log");
	has("table foes");
	rng_free(same);
}

/* A d66 reads two d6 as tens and units; the rolled row is the one covering
 * them. */
static void
d66_roll(void **unused)
{
	struct rng *same = rng_new_seeded(12);
	char want[120];
	int tens, units;

	(void)unused;
	ok("al", "table set rumours 11-33: an old tale; 34-66: a lie");
	rng_seed(cr.rng, 12);
	tens = (int)rng_die(same, 6);
	units = (int)rng_die(same, 6);
	ok("al", "table roll rumours");
	snprintf(want, sizeof(want), "Rolled %d on the d66 (tens %d, units %d): %s\n",
	         10 * tens + units, tens, units, 10 * tens + units <= 33 ? "an old tale" : "a lie");
	has(want);
	rng_free(same);
}

/* A [[reference]] rolls the other table; each nested roll has a line. */
static void
nested_rolls_are_shown(void **unused)
{
	struct rng *same = rng_new_seeded(5);
	char want[200];
	int gem;
	static const char *const gems[] = {"a ruby", "a pearl", "an opal", "a garnet"};

	(void)unused;
	ok("al", "table set chest 1-6: a chest with [[gems]] inside");
	ok("al", "table set gems 1: a ruby; 2: a pearl; 3: an opal; 4: a garnet");
	rng_seed(cr.rng, 5);
	(void)rng_die(same, 6);
	gem = (int)rng_die(same, 4);
	ok("al", "table roll chest");
	snprintf(want, sizeof(want), ": a chest with %s inside\n", gems[gem - 1]);
	has(want);
	snprintf(want, sizeof(want), "↳ gems: d4 %d → %s\n", gem, gems[gem - 1]);
	has(want);
	rng_free(same);
}

/* newcomer F11: a roll whose references outnumber the lines of its
 * breakdown (here 39: 3 deep2, 9 deep3 and 27 deep4, which no table is)
 * says how many it leaves out, as it does those left unrolled. */
static void
cut_breakdown_says_so(void **unused)
{
	(void)unused;
	ok("al", "table set deep1 1-4: [[deep2]] [[deep2]] [[deep2]]");
	ok("al", "table set deep2 1-4: [[deep3]] [[deep3]] [[deep3]]");
	ok("al", "table set deep3 1-4: [[deep4]] [[deep4]] [[deep4]]");
	ok("al", "table roll deep1");
	has("↳ deep2: d4 ");
	has("\n23 more [[references]] not listed: the lines above list at most 16.\n");
	hasnt("left unrolled");
	/* A breakdown that lists every reference says nothing more. */
	ok("al", "table roll deep3");
	hasnt("not listed");
}

/* A struck entry reached through a reference is struck on its own line,
 * the arrow before it not: "↳ encounter: d20 15 → ~~strong orcs~~". */
static void
struck_nested_entry_strikes_its_text_alone(void **unused)
{
	struct buf b;

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set encounter 1-10: weak rats; 11-20: strong orcs");
	ok("gm", "table set wrap 1-6: [[encounter]]");
	ok("gm", "tension strike 11-20");
	for (uint64_t seed = 1;; seed++) {
		assert_true(seed < 1000);
		rng_seed(cr.rng, seed);
		ok("gm", "table roll wrap");
		if (strstr(text, "strong orcs (struck)") != NULL)
			break;
	}
	buf_init(&b, 1 << 16);
	render_text(reply_msg(cr.last, REPLY_CHANNEL), false, &b);
	assert_non_null(strstr(buf_str(&b), " → ~~strong orcs~~ (struck)\n"));
	assert_null(strstr(buf_str(&b), "~~ →"));
	buf_free(&b);
}

/* Runs the entries a user typed line by line as the transport does at
 * "/table end": the asking line and the text bound (draft_bind), then run. */
static void
end_draft(const char *user, const char *line, const char *entries)
{
	struct invocation inv;
	struct origin o;

	memset(&inv, 0, sizeof(inv));
	cmdrun_console(&o, "table", user, false);
	assert_int_equal(
	    draft_bind(dispatch_commands(cr.d), line, "entries", entries, &inv, cmdrun_reply(&cr)),
	    0);
	dispatch_invocation(cr.d, &o, &inv, 1000, cr.last);
	text = cmdrun_plain(&cr);
}

/* check-29 F9: a player starts a table line by line while nobody holds the
 * seat; the GM claims it before the end. The end is refused, and what the
 * player typed comes back on one line for the GM to set, not lost. */
static void
seat_claimed_mid_entry_hands_the_entries_back(void **unused)
{
	(void)unused;
	ok("al", "table set loot");
	has("Send the entries of the table loot");
	ok("gm", "gm claim");
	end_draft("al", "table set loot", "1-3: a rat\n\n4-6: 1d4 goblins");
	assert_true(reply_is_error(cr.last));
	assert_string_equal(reply_error_text(cr.last),
	                    "Only the GM, gm, changes the tables here, so the table was not saved; "
	                    "what you entered, for the GM to set: 1-3: a rat; 4-6: 1d4 goblins");
	{
		char *sv = saved("table");

		assert_string_equal(sv, "");
		free(sv);
	}
	/* the GM sets what came back as it is */
	ok("gm", "table set loot 1-3: a rat; 4-6: 1d4 goblins");
	has("Saved the table loot: d6, 2 entries.");
	/* a one-line set is in the player's own input: not repeated */
	run("al", "table set gems 1-6: a ruby");
	assert_string_equal(text, "Only the GM, gm, changes the tables here.\n");
}

/* secret:true: the channel learns who rolled, the GM alone the result. */
static void
secret_rolls_reach_the_gm_alone(void **unused)
{
	const struct reply_msg *m;
	char *gm;

	(void)unused;
	ok("al", "table set trap 1-6: a hidden pit");
	/* recheck20 item 8: the open roll suggested is the table roll (before, /roll) */
	refused("al", "table roll trap secret:true",
	        "Nobody is GM here, so a secret roll would reach nobody; the GM takes the seat "
	        "with /gm claim, or roll in the open with /table roll trap.");
	ok("gm", "gm claim");
	ok("al", "table roll trap secret:true");
	m = reply_msg(cr.last, REPLY_CHANNEL);
	assert_non_null(m);
	assert_null(reply_msg(cr.last, REPLY_INVOKER));
	assert_non_null(reply_msg(cr.last, REPLY_GM));
	assert_string_equal(reply_gm_key(cr.last), "console:gm");
	gm = strstr(text, "[to the GM, gm]\n");
	assert_non_null(gm);
	/* the channel's part says nothing of the table or its result */
	assert_true(strstr(text, "trap") > gm);
	assert_true(strstr(text, "hidden pit") > gm);
	assert_true(strncmp(text, "al rolls in secret: only the GM, gm, sees the result.\n",
	                    (size_t)(gm - text)) == 0);
	/* not in the open log; in the GM's secret log */
	run("al", "log");
	hasnt("table trap");
	run("gm", "log kind:secret");
	has("table trap");
	/* the GM's own: behind the screen */
	ok("gm", "table roll trap secret:true");
	assert_null(reply_msg(cr.last, REPLY_GM));
	assert_non_null(reply_msg(cr.last, REPLY_INVOKER));
	has("gm (GM) rolls behind the screen.\n[private]\n");
}

/* While Tension is hidden, the tables the procedures roll are the GM's. */
static void
hidden_tension_screens_the_encounter_tables(void **unused)
{
	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set encounter-2 1-6: a basilisk");
	ok("gm", "table set loot 1-6: gold");
	ok("gm", "tension mode hidden");
	/* A table behind the screen reads to a player as a name no table has
	 * (hidden4's H7: else guessed names tell which exist), in a secret
	 * roll too; the GM is told which. */
	refused(
	    "al", "table show encounter-2",
	    "No table you may read here is called encounter-2 (while Tension is hidden, a table "
	    "behind the GM's screen reads as none to the players); /table list shows "
	    "those you may read.");
	refused("al", "table roll encounter",
	        "No table you may read here is called encounter (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	refused(
	    "al", "table roll encounter-2 secret:true",
	    "No table you may read here is called encounter-2 (while Tension is hidden, a table "
	    "behind the GM's screen reads as none to the players); /table list shows "
	    "those you may read.");
	refused("al", "table show nosuch",
	        "No table you may read here is called nosuch (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	refused("al", "table roll nosuch secret:true",
	        "No table you may read here is called nosuch (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	refused("gm", "table show nosuch",
	        "No table here is called nosuch; /table list shows those there are.");
	ok("al", "table roll loot");
	ok("gm", "table roll encounter-2");
	has("The GM rolls on a table behind the screen.\n[private]\n");
	assert_null(strstr(strstr(text, "[private]") == NULL ? text : "", "basilisk"));
	{
		const char *priv = strstr(text, "[private]");

		assert_non_null(priv);
		assert_true(strstr(text, "basilisk") > priv);
	}
	/* not in the open log */
	run("al", "log");
	hasnt("encounter-2");
	/* a change to a table is behind the screen too, and so is its /undo */
	ok("gm", "table set encounter-2 1-6: a wyvern");
	has("The GM changed a table behind the screen.\n[private]\n");
	ok("gm", "undo");
	has("gm undid a change made behind the GM's screen.\n");
	assert_true(strstr(text, "wyvern") > strstr(text, "[private]"));
}

/* While Tension is hidden, the list a player (and the channel, when the GM
 * lists) reads counts the bytes of the tables open to all, the same
 * whatever the screened ones hold; the GM alone reads the channel's
 * total (hidden4 H9). */
static void
hidden_list_counts_open_bytes(void **unused)
{
	char first[2000];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set encounter 1-6: a basilisk");
	ok("gm", "table set loot 1-6: gold");
	ok("gm", "tension mode hidden");
	ok("al", "table list");
	assert_string_equal(text, "Tables here: 2 of 32; 9 bytes of text in the 1 open to all\n"
	                          "  loot | d6 | 1 | \n"
	                          "1 more is behind the GM's screen (Tension is hidden).\n");
	snprintf(first, sizeof(first), "%s", text);
	ok("gm", "table set encounter 1-6: a much longer basilisk than before");
	ok("al", "table list");
	assert_string_equal(text, first);
	ok("gm", "table list");
	has("Tables here: 2 of 32; 9 bytes of text in the 1 open to all\n");
	has("[private]\nBehind your screen (all tables: 48 of 32000 bytes of text):\n");
}

/* With the seat empty and Tension hidden, a player's /table set follows
 * references only through tables the player may read: a screened table
 * counts as a name with no table, so a chain or a circle through one is
 * neither refused nor named (hidden8's V3), and a reference to one is
 * noted alike as to a missing name (V7). (No circle through the screen
 * is made so: a table a screened one names is screened too, and a player
 * makes no table.) */
static void
empty_seat_set_reads_screened_tables_as_none(void **unused)
{
	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set p1 1-6: one");
	ok("gm", "table set p2 1-6: two");
	ok("gm", "table set p3 1-6: three");
	ok("gm", "table set r 1-6: are");
	ok("gm", "tension mode hidden");
	ok("gm", "table set encounter 1-6: [[b2]]");
	ok("gm", "table set b2 1-6: [[c3]]");
	ok("gm", "table set c3 1-6: a troll");
	ok("gm", "table set effects 1-20: the den and [[lair]]");
	ok("gm", "table set encounter-2 1-6: [[visitors]]");
	ok("gm", "table set visitors 1-6: pilgrims");
	ok("gm", "gm release");
	ok("al", "table set p1 1-6: [[encounter]]");
	has("No table you may read here is called [[encounter]] (while Tension is hidden, a "
	    "table behind the GM's screen reads as none to the players); a roll everyone can "
	    "see shows such a reference as written instead of rolling it.\n");
	ok("al", "table set p2 1-6: [[p1]]");
	has("Replaced the table p2: d6, 1 entry.\n");
	hasnt("b2");
	ok("al", "table set p3 1-6: [[effects]]");
	has("Replaced the table p3: d6, 1 entry.\n");
	hasnt("lair");
	hasnt("GM changed");
	ok("al", "table set r 1-6: [[visitors]] or [[ghosts]]");
	has("No table you may read here is called [[visitors]], [[ghosts]] (while Tension is "
	    "hidden");
}

/* The GM leaves the seat with Tension hidden: the tables behind the screen
 * stay a GM's to change (check-26 F9). A player may neither replace nor
 * delete one, nor make a new one the procedures would roll, unseen and
 * told to the channel as the GM's; nor make any table: a name with no
 * table reads to a player as one behind the screen does, so both are
 * refused in the same words, saving nothing (hidden8's V4). The tables the
 * player may read stay anyone's while the seat is empty, a player's change
 * to one is theirs to undo, and a player who takes the seat changes the
 * others as GM. */
static void
empty_seat_keeps_the_screen(void **unused)
{
	static const char *const unseen =
	    "No table you may read here is called %s, and while Tension is hidden only the GM "
	    "makes one (a table behind the GM's screen reads as none to the players); nobody is "
	    "GM here yet; /gm claim makes you the GM.";
	static const char *const names[] = {"effects-2", "encounter", "encounter-3", "lair",
	                                    "nosuch"};
	char want[400];

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "tension mode hidden");
	ok("gm", "gm release");
	/* with no table yet, the list does not offer what a player may not do */
	ok("al", "table list");
	has("This channel has no tables of its own yet; while Tension is hidden only the GM "
	    "makes one, and nobody is GM here yet: /gm claim makes you the GM.\n");
	ok("gm", "gm claim");
	ok("gm", "table list");
	has("This channel has no tables of its own yet; /table set");
	ok("gm", "table set loot 1-6: silver");
	ok("gm", "table set effects-2 1-20: the vault floods and [[lair]]");
	ok("gm", "table set lair 1-6: a dragon");
	ok("gm", "gm release");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char line[64];

		snprintf(want, sizeof(want), unseen, names[i]);
		snprintf(line, sizeof(line), "table set %s 1-20: nothing", names[i]);
		refused("al", line, want);
		snprintf(line, sizeof(line), "table set %s", names[i]);
		refused("al", line, want);
	}
	{
		char *before = saved("table"), *after;

		end_draft("al", "table set lair", "1-3: a\n4-6: b");
		assert_true(reply_is_error(cr.last));
		assert_string_equal(reply_error_text(cr.last),
		                    "No table you may read here is called lair, and while Tension "
		                    "is hidden only the GM makes one (a table behind the GM's "
		                    "screen reads as none to the players); nobody is GM here yet, "
		                    "so the table was not saved; what you entered, for the GM to "
		                    "set: 1-3: a; 4-6: b");
		after = saved("table");
		assert_string_equal(before, after);
		free(before);
		free(after);
	}
	refused("al", "table delete effects-2",
	        "No table you may read here is called effects-2 (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	refused("al", "table delete nosuch",
	        "No table you may read here is called nosuch (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	ok("al", "table set loot 1-6: gold");
	hasnt("GM");
	ok("al", "undo");
	has("Undid al's /table set loot 1-6: gold: the channel's tables are as they were "
	    "before.\n");
	ok("al", "gm claim");
	ok("al", "table set effects-2 1-20: nothing");
	has("The GM changed a table behind the screen.\n[private]\n");
	ok("al", "undo");
	has("al undid a change made behind the GM's screen.\n");
}

/* While Tension is hidden, a roll everyone can see leaves a reference to a table
 * behind the screen as written, at any depth, whoever rolls; a secret roll
 * (the GM's eyes alone) rolls it. */
static void
hidden_tables_are_not_rolled_through_references(void **unused)
{
	const char *gm, *private;

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set encounter-2 1-6: a basilisk");
	ok("gm", "table set effects 1-6: a chill");
	ok("gm", "table set loot 1-6: gold and [[encounter-2]]");
	ok("gm", "table set trap 1-6: [[effects]] and [[loot]]");
	ok("gm", "tension mode hidden");
	ok("al", "table roll trap");
	has("Rolled 3 on the d6: [[effects]] and gold and [[encounter-2]]\n"
	    "↳ [[effects]]: behind the GM's screen while Tension is hidden, so not rolled where "
	    "all see it.\n"
	    "↳ loot: d6 4 → gold and [[encounter-2]]\n"
	    "  ↳ [[encounter-2]]: behind the GM's screen while Tension is hidden, so not rolled "
	    "where all see it.\n");
	/* the GM alone gets what they hide, rolled (recheck18 F4) */
	assert_string_equal(reply_gm_key(cr.last), "console:gm");
	assert_true(reply_gm_is_aside(cr.last));
	gm = strstr(text, "[to the GM, gm]\n");
	assert_non_null(gm);
	assert_true(strstr(text, "Behind the screen, [[effects]] (d6): ") > gm);
	assert_true(strstr(text, " → a chill\n") > gm);
	assert_true(strstr(text, "Behind the screen, [[encounter-2]] (d6, named by loot): ") > gm);
	assert_true(strstr(text, " → a basilisk\n") > gm);
	ok("gm", "table roll loot");
	private = strstr(text, "[private]\n");
	assert_non_null(private);
	assert_true(strstr(text, "Behind the screen, [[encounter-2]] (d6): ") > private);
	assert_true(strstr(text, "a basilisk") > private);
	assert_null(reply_msg(cr.last, REPLY_GM));
	/* a table screened through references alone reads as none to the
	 * players: nothing goes behind the screen, so nothing tells of it */
	ok("gm", "table set encounter-2 1-6: [[lair]]");
	ok("gm", "table set lair 1-6: a wyrm");
	ok("gm", "table set den 1-6: [[lair]]");
	ok("al", "table roll den");
	has("↳ [[lair]]: no table here has that name.\n");
	assert_null(reply_msg(cr.last, REPLY_GM));
	hasnt("wyrm");
	hasnt("screen");
	ok("gm", "table roll den");
	assert_true(strstr(text, "Behind the screen, [[lair]] (d6): ") >
	            strstr(text, "[private]\n"));
	ok("gm", "table set encounter-2 1-6: a basilisk");
	run("al", "log");
	hasnt("basilisk");
	ok("al", "table roll loot secret:true");
	assert_true(strstr(text, "gold and a basilisk") > strstr(text, "[private]"));
	/* with Tension open, the same roll rolls them */
	ok("gm", "tension mode open");
	ok("al", "table roll loot");
	has("gold and a basilisk\n");
}

/* show -> set -> show: what show writes, set takes back unchanged, for
 * random tables (seeded). */
static void
show_set_show_round_trips(void **unused)
{
	static const int dies[] = {4, 6, 8, 10, 12, 20, 66, 100};
	static const char *const words[] = {"1d4 goblins", "a [[gems]] box", "an ogre",
	                                    "2d6+1 gp",    "nothing",        "rats, many"};
	struct rng *r = rng_new_seeded(31);

	(void)unused;
	for (int round = 0; round < 40; round++) {
		struct buf line, shown, again;
		int die = dies[rng_die(r, 8) - 1], v = die == 66 ? 11 : 1;
		bool weighted = rng_die(r, 3) == 1;
		const char *body;

		buf_init(&line, 2000);
		buf_init(&shown, 8000);
		buf_init(&again, 8000);
		buf_adds(&line, "table set rt ");
		if (weighted) {
			int n = (int)rng_die(r, 8);

			for (int i = 0; i < n; i++)
				buf_addf(&line, "%dx %s %d; ", (int)rng_die(r, 9),
				         words[rng_die(r, 6) - 1], i);
		} else {
			while (v <= die) {
				int hi = v + (int)rng_die(r, die == 100 ? 30 : 4) - 1;

				if (die == 66 && hi % 10 > 6)
					hi = hi - hi % 10 + 6;
				if (hi > die)
					hi = die;
				buf_addf(&line, "%d-%d: %s; ", v, hi, words[rng_die(r, 6) - 1]);
				v = hi + 1;
				if (die == 66 && v % 10 > 6)
					v += 10 - v % 10 + 1;
			}
		}
		ok("al", buf_str(&line));
		ok("al", "table show rt");
		body = strchr(text, '\n') + 1; /* after the title */
		buf_adds(&shown, body);
		/* the shown lines, as one would paste them back (one a line) */
		{
			struct buf set;

			buf_init(&set, 8000);
			buf_adds(&set, "table set rt2 ");
			for (const char *p = buf_str(&shown); *p;) {
				size_t n = strcspn(p, "\n");

				buf_addf(&set, "%.*s; ", (int)n, p);
				p += n + (p[n] == '\n');
			}
			ok("al", buf_str(&set));
			buf_free(&set);
		}
		ok("al", "table show rt2");
		buf_adds(&again, strchr(text, '\n') + 1);
		assert_string_equal(buf_str(&shown), buf_str(&again));
		buf_free(&line);
		buf_free(&shown);
		buf_free(&again);
	}
	rng_free(r);
}

/* A Tension table shows as text too, which both /table set and /tension
 * table set take. */
static void
tension_tables_show_as_text(void **unused)
{
	(void)unused;
	ok("al", "table show encounter");
	assert_string_equal(text, "Table encounter: d20, 5 entries (Tension's, the channel has "
	                          "none of its own by that name)\n1-4: a lost adventurer\n5-8: "
	                          "1d4 goblins\n9-12: 2d4 goblins\n13-16: 2d6 orcs\n17-20: 4d6 "
	                          "orcs\n");
	ok("gm", "gm claim");
	ok("gm", "tension table set encounter 1-4: a lost adventurer; 5-8: 1d4 goblins; 9-12: 2d4 "
	         "goblins; 13-16: 2d6 orcs; 17-20: a dragon");
	ok("gm", "table show encounter");
	has("17-20: a dragon\n");
}

static void
list_and_delete(void **unused)
{
	(void)unused;
	ok("al", "table list");
	has("This channel has no tables of its own yet; /table set NAME 1-3: text; 4-6: text "
	    "makes one.");
	ok("al", "table set encounter 1-6: a bat");
	ok("al", "table set gems 3x a ruby; 1x a pearl");
	ok("al", "table set hoard 1-6: [[gems]]");
	ok("al", "table list");
	assert_string_equal(text, "Tables here: 3 of 32, 43 of 32000 bytes of text\n"
	                          "  encounter | d6 | 1 | encounters: hazard die, wandering "
	                          "checks, Tension\n"
	                          "  gems | weighted d4 | 2 | \n"
	                          "  hoard | d6 | 1 | \n");
	refused("al", "table delete nothing",
	        "No table here is called nothing; /table list shows those there are.");
	refused("al", "table delete effects",
	        "No table here is called effects of the channel's own (Tension's cannot be "
	        "deleted); /table list shows those there are.");
	ok("al", "table delete gems");
	assert_string_equal(text, "Deleted the table gems; /undo brings it back.\nStill naming "
	                          "[[gems]], which rolls now leave as written: hoard.\n");
	ok("al", "undo");
	has("Undid al's /table delete gems: the channel's tables are as they were before.\n");
	ok("al", "table show gems");
	has("3x a ruby\n1x a pearl\n");
	/* the last table deleted leaves no state */
	ok("al", "table delete gems");
	ok("al", "table delete hoard");
	ok("al", "table delete encounter");
	assert_null(tables_state_peek(state_channel(cr.st, "console:table")));
}

/* Stores a table in the channel "table" as a record saved before the
 * look-alike check may hold it (no check of its name). */
static void
put_unchecked(const char *name, const char *entries)
{
	struct roll_table t;
	char err[300];

	assert_int_equal(roll_table_parse_die(entries, &t, err, sizeof(err)), 0);
	assert_int_equal(tables_state_put(tables_state_of(state_channel(cr.st, "console:table")),
	                                  name, &t, err, sizeof(err)),
	                 0);
}

/* A name that looks like another table's is refused naming that table;
 * to a player (the seat empty, Tension hidden) a screened table is none,
 * so its name is never given that way. (A record saved before the check
 * is how one comes to be.) */
static void
look_alike_names_no_screened_table(void **unused)
{
	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set loot 1-6: gold");
	ok("gm", "tension mode hidden");
	ok("gm", "table set encounter 1-6: [[l\xd0\xbeot]]");
	put_unchecked("l\xd0\xbeot", "1-6: a trap");
	ok("gm", "gm release");
	ok("al", "table set loot 1-6: silver");
	has("Replaced the table loot: d6, 1 entry.\n");
	hasnt("l\xd0\xbeot");
	/* with Tension open the player reads it, and is told */
	ok("gm", "gm claim");
	ok("gm", "tension mode open");
	ok("gm", "gm release");
	refused("al", "table set loot 1-6: copper",
	        "The table loot was not saved: its name looks the same as the table l\xd0\xbeot's "
	        "but is spelled with a letter of another alphabet; use that table's name, or "
	        "another.");
}

/* While Tension is hidden the GM's save of an open table is the
 * channel's to read: its note on [[references]] names those the players
 * may not read, a screened table and none alike, and the GM alone reads
 * which name no table at all (hidden12's F1: the note named only the
 * missing ones, telling the players which screened tables exist). */
static void
gm_open_table_notes_screened_and_missing_alike(void **unused)
{
	static const char players[] =
	    "No table the players may read here is called %s (while Tension is hidden, a "
	    "table behind the GM's screen reads as none to them); a roll everyone can see "
	    "shows such a reference as written instead of rolling it.\n";
	char want[1024], note[512];

	(void)unused;
	run_in("home", "gm", "gm claim");
	run_in("home", "gm", "table set junk 1-6: [[visitors]] or [[guests]]");
	ok("gm", "gm claim");
	ok("gm", "tension mode hidden");
	ok("gm", "table set encounter 1-2: x; 3-4: [[visitors]]");
	ok("gm", "table set visitors 1-2: a; 3-4: b");
	ok("gm", "table set loot 1-2: a; 3-4: [[visitors]]");
	snprintf(note, sizeof(note), players, "[[visitors]]");
	snprintf(want, sizeof(want), "Saved the table loot: d4, 2 entries.\n%s", note);
	assert_string_equal(text, want);
	assert_null(reply_msg(cr.last, REPLY_INVOKER));
	ok("gm", "table set loot 1-2: [[visitors]]; 3-4: [[guests]]");
	snprintf(note, sizeof(note), players, "[[visitors]], [[guests]]");
	snprintf(want, sizeof(want),
	         "Replaced the table loot: d4, 2 entries.\n%s[private]\nNo table here is called "
	         "[[guests]] yet: until one is, rolls leave it as written.\n",
	         note);
	assert_string_equal(text, want);
	assert_non_null(reply_msg(cr.last, REPLY_INVOKER));
	ok("gm", "table copy junk from:#home");
	snprintf(want, sizeof(want),
	         "Copied 1 table from console:home: junk; nothing in them is struck.\n%s"
	         "The players can show and roll junk here: behind the GM's screen are only the "
	         "encounter and effects tables, the tables they name and those put there by "
	         "/table hide.\n[private]\nNo table "
	         "here is called [[guests]] yet: until one is, rolls leave it as written.\n",
	         note);
	assert_string_equal(text, want);
	/* with Tension open the GM is told in the open, as a player is */
	ok("gm", "tension mode open");
	ok("gm", "table set loot 1-2: [[visitors]]; 3-4: [[guests]]");
	assert_string_equal(text, "Replaced the table loot: d4, 2 entries.\nNo table here is "
	                          "called [[guests]] yet: until one is, rolls leave it as "
	                          "written.\n");
}

/* /table copy: from a channel where the invoker holds the seat, into one
 * where the invoker is GM; all or nothing. */
static void
copy_between_channels(void **unused)
{
	(void)unused;
	run_in("home", "gm", "gm claim");
	run_in("home", "gm", "table set loot 1-6: gold");
	run_in("home", "gm", "table set gems 1-4: a ruby");
	run_in("home", "gm", "table set deep 1-6: [[gems]]");
	refused("gm", "table copy loot from:#home",
	        "Only the GM can do that, and nobody is GM here yet; /gm claim makes you the GM.");
	ok("gm", "gm claim");
	refused("gm", "table copy loot from:#nowhere",
	        "You are not the GM of #nowhere: tables are copied from a channel where you hold "
	        "the GM seat.");
	refused("gm", "table copy loot from:#table",
	        "That is this channel; name the channel to copy tables from.");
	refused("gm", "table copy silver from:#home", "#home has no table called silver.");
	ok("gm", "table set loot 1-6: copper");
	ok("gm", "table copy loot from:#home");
	assert_string_equal(text, "Copied 1 table from console:home: loot (replacing loot here); "
	                          "nothing in them is struck.\n");
	ok("gm", "table show loot");
	has("1-6: gold\n");
	ok("gm", "table copy * from:home");
	has("Copied 3 tables from console:home: deep, gems, loot (replacing loot here)");
	/* someone else's channel */
	run_in("other", "bob", "gm claim");
	run_in("other", "bob", "table set bobs 1-6: mine");
	refused("gm", "table copy bobs from:#other",
	        "You are not the GM of #other: tables are copied from a channel where you hold "
	        "the GM seat.");
	/* a reference the copy leaves without a table here is named (check-29 F9) */
	run_in("home", "gm", "table set lone 1-6: [[nothere]] and [[loot]]");
	ok("gm", "table copy lone from:#home");
	assert_string_equal(text, "Copied 1 table from console:home: lone; nothing in them is "
	                          "struck.\nNo table here is called [[nothere]] yet: until one is, "
	                          "rolls leave it as written.\n");
	/* all or nothing: a circle with a table here refuses the whole copy */
	run_in("home", "gm", "table set x 1-6: [[y]]");
	ok("gm", "table set y 1-6: [[x]]");
	refused("gm", "table copy * from:#home",
	        "Nothing was copied: the table x: the tables would roll each other in a circle (x "
	        "→ y → x); a table may not roll itself, even through other tables.");
	/* hidden4 H2: into a channel whose Tension is hidden, the copied
	 * tables the players may still show and roll are named to the GM */
	run_in("home", "gm", "table set encounter 1-6: [[gems]]");
	ok("gm", "tension mode hidden");
	ok("gm", "table copy encounter from:#home");
	assert_string_equal(text, "The GM changed a table behind the screen.\n[private]\nCopied 1 "
	                          "table from console:home: encounter; nothing in them is "
	                          "struck.\n");
	ok("gm", "table copy loot from:#home");
	assert_string_equal(text, "Copied 1 table from console:home: loot (replacing loot here); "
	                          "nothing in them is struck.\nThe players can show and roll loot "
	                          "here: behind the GM's screen are only the encounter and effects "
	                          "tables, the tables they name and those put there by /table "
	                          "hide.\n");
}

/* /table copy refuses a name that looks like another table's here, as
 * /table set does (a copy keeps its name, so that table is named and the
 * way out is to delete it or leave the copy out); a refusal reaches the GM alone (Discord:
 * ephemeral; IRC: a notice), so naming a table behind the screen there
 * tells the players nothing. */
static void
copy_refuses_look_alike_names(void **unused)
{
	(void)unused;
	run_in("home", "gm", "gm claim");
	run_in("home", "gm", "table set l\xd0\xbeot 1-6: a trap");
	run_in("home", "gm", "table set gems 1-4: a ruby");
	ok("gm", "gm claim");
	ok("gm", "table set loot 1-6: gold");
	refused("gm", "table copy l\xd0\xbeot from:#home",
	        "Nothing was copied: the table l\xd0\xbeot: its name looks the same as the table "
	        "loot's here but is spelled with a letter of another alphabet; a copy keeps its "
	        "name, so delete that table here first, or leave this one out.");
	refused("gm", "table copy * from:#home",
	        "Nothing was copied: the table l\xd0\xbeot: its name looks the same as the table "
	        "loot's here but is spelled with a letter of another alphabet; a copy keeps its "
	        "name, so delete that table here first, or leave this one out.");
	/* behind the screen too, to the GM alone */
	ok("gm", "tension mode hidden");
	ok("gm", "table set encounter 1-6: [[loot]]");
	refused("gm", "table copy l\xd0\xbeot from:#home",
	        "Nothing was copied: the table l\xd0\xbeot: its name looks the same as the table "
	        "loot's here but is spelled with a letter of another alphabet; a copy keeps its "
	        "name, so delete that table here first, or leave this one out.");
	ok("gm", "table copy gems from:#home");
}

/* Runs line on platform as user_key in chan_key (both platform-qualified),
 * a private conversation with the bot when direct (IRC's private messages,
 * a Discord DM). */
static const char *
run_from(const char *platform, const char *chan_key, const char *user_key, bool direct,
         const char *line)
{
	struct origin o;

	memset(&o, 0, sizeof(o));
	o.platform = platform;
	o.direct = direct;
	o.channel_named = strcmp(platform, "discord") == 0 ? discord_interact_channel_named
	                  : strcmp(platform, "irc") == 0   ? irc_who_channel_named
	                                                   : console_name_channel;
	snprintf(o.chan_key, sizeof(o.chan_key), "%s", chan_key);
	snprintf(o.user_key, sizeof(o.user_key), "%s", user_key);
	snprintf(o.user_name, sizeof(o.user_name), "gm");
	cmdrun_from(&cr, &o, line, 1000);
	text = cmdrun_plain(&cr);
	return text;
}

static const char *
run_on(const char *platform, const char *chan_key, const char *user_key, const char *line)
{
	return run_from(platform, chan_key, user_key, false, line);
}

static const char *
run_direct(const char *platform, const char *chan_key, const char *user_key, const char *line)
{
	return run_from(platform, chan_key, user_key, true, line);
}

/* /table copy names the source channel as each platform writes a channel:
 * on Discord a mention or its id, on IRC #channel on the same network in
 * any case (and under the rfc1459 case mapping, [ as {). */
static void
copy_names_the_channel_on_each_platform(void **unused)
{
	static const char *const home = "discord:111111111111111111",
	                         *here = "discord:222222222222222222", *gm = "discord:42";

	(void)unused;
	run_on("discord", home, gm, "gm claim");
	run_on("discord", home, gm, "table set loot 1-6: gold");
	run_on("discord", here, gm, "gm claim");
	run_on("discord", here, gm, "table copy loot from:<#111111111111111111>");
	assert_string_equal(text, "Copied 1 table from discord:111111111111111111: loot; "
	                          "nothing in them is struck.\n");
	run_on("discord", here, gm, "table copy * from:111111111111111111");
	assert_string_equal(text, "Copied 1 table from discord:111111111111111111: loot "
	                          "(replacing loot here); nothing in them is struck.\n");
	run_on("discord", here, gm, "table copy loot from:#general");
	assert_true(reply_is_error(cr.last));
	assert_string_equal(reply_error_text(cr.last),
	                    "'#general' is not a channel here: name it as #channel (on Discord a "
	                    "mention or its id).");

	run_on("irc", "irc:net:#home", "irc:net:gm", "gm claim");
	run_on("irc", "irc:net:#home", "irc:net:gm", "table set gems 1-4: a ruby");
	run_on("irc", "irc:net:#a{b}", "irc:net:gm", "gm claim");
	run_on("irc", "irc:net:#a{b}", "irc:net:gm", "table set odd 1-4: a pearl");
	run_on("irc", "irc:net:#here", "irc:net:gm", "gm claim");
	run_on("irc", "irc:net:#here", "irc:net:gm", "table copy gems from:#HOME");
	assert_string_equal(
	    text, "Copied 1 table from irc:net:#home: gems; nothing in them is struck.\n");
	run_on("irc", "irc:net:#here", "irc:net:gm", "table copy odd from:#A[B]");
	assert_string_equal(text,
	                    "Copied 1 table from irc:net:#a{b}: odd; nothing in them is struck.\n");
	/* another network's channel of that name is not this one's */
	run_on("irc", "irc:other:#here", "irc:other:gm", "gm claim");
	run_on("irc", "irc:other:#here", "irc:other:gm", "table copy gems from:#home");
	assert_true(reply_is_error(cr.last));
	assert_string_equal(reply_error_text(cr.last),
	                    "You are not the GM of #home: tables are copied from a channel where "
	                    "you hold the GM seat.");
	run_on("irc", "irc:net:#here", "irc:net:gm", "table copy gems from:home");
	assert_true(reply_is_error(cr.last));
	assert_string_equal(reply_error_text(cr.last),
	                    "'home' is not a channel here: name it as #channel (on Discord a "
	                    "mention or its id).");
}

/* The saved form loads back to the same; a record that cannot be trusted
 * is refused whole. */
static void
saved_form_round_trips(void **unused)
{
	static const char *const bad[] = {
	    "{\"tables\":[{\"name\":\"Loot\",\"text\":\"1-6: a\"}]}",
	    "{\"tables\":[{\"name\":\"b\",\"text\":\"1-6: a\"},{\"name\":\"a\",\"text\":\"1-6: "
	    "a\"}]}",
	    "{\"tables\":[{\"name\":\"a\",\"text\":\"1-5: a\"}]}",
	    "{\"tables\":[{\"name\":\"a\",\"text\":\"1-6: a\",\"struck\":[\"2\"]}]}",
	    "{\"tables\":{}}",
	};
	char *first, *second, err[200];
	cJSON *o;
	void *s;

	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set encounter 1-3: 1d4 goblins; 4-6: an ogre");
	ok("gm", "table set gems 3x a ruby; 1x a pearl");
	ok("gm", "tension strike ogre");
	has("Struck 4-6 an ogre from the table encounter: rolling it now means no encounter.");
	first = saved("table");
	assert_non_null(strstr(first, "\"struck\":[\"4-6\"]"));
	o = cJSON_Parse(first);
	s = tables_mod.create();
	assert_int_equal(tables_mod.load(s, o, err, sizeof(err)), 0);
	cJSON_Delete(o);
	o = tables_mod.save(s);
	second = cJSON_PrintUnformatted(o);
	assert_string_equal(first, second);
	cJSON_Delete(o);
	tables_mod.destroy(s);
	free(first);
	free(second);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = cJSON_Parse(bad[i]);
		s = tables_mod.create();
		err[0] = '\0';
		assert_int_equal(tables_mod.load(s, o, err, sizeof(err)), -1);
		assert_true(strncmp(err, "tables: ", 8) == 0);
		assert_null(strchr(err, '\n'));
		cJSON_Delete(o);
		tables_mod.destroy(s);
	}
}

/* /table examples: one table at least for each of the five rule texts,
 * each parses and sets as it stands, and delver(7) (one entry a line) and
 * README.md (on one line) show the very same tables. */
static void
examples_are_whole_and_documented(void **unused)
{
	size_t n;
	const struct table_example *ex = cmd_table_examples(&n);
	char *man = slurp("bot/man/delver.7.md", NULL), *readme = slurp("README.md", NULL);
	int texts = 0;

	(void)unused;
	for (size_t t = 0; cmd_table_example_texts[t] != NULL; t++) {
		bool found = false;

		for (size_t i = 0; i < n; i++)
			found |= strcmp(ex[i].text, cmd_table_example_texts[t]) == 0;
		assert_true(found);
		texts++;
	}
	assert_int_equal(texts, 5);
	ok("gm", "gm claim");
	for (size_t i = 0; i < n; i++) {
		struct buf block, line;
		struct roll_table t;
		char err[300];

		buf_init(&block, 8192);
		buf_init(&line, 8192);
		if (roll_table_parse_die(ex[i].lines, &t, err, sizeof(err)) != 0)
			fail_msg("the %s example %s: %s", ex[i].text, ex[i].name, err);
		buf_addf(&block, "```\n/table set %s\n%s\n", ex[i].name, ex[i].lines);
		if (strstr(man, buf_str(&block)) == NULL)
			fail_msg("delver(7) lacks the example:\n%s", buf_str(&block));
		buf_addf(&line, "`/table set %s ", ex[i].name);
		for (const char *p = ex[i].lines; *p;) {
			size_t k = strcspn(p, "\n");

			buf_addf(&line, "%.*s%s", (int)k, p, p[k] == '\n' ? "; " : "`");
			p += k + (p[k] == '\n');
		}
		if (strstr(readme, buf_str(&line)) == NULL)
			fail_msg("README.md lacks the example:\n%s", buf_str(&line));
		/* the README's line sets the table as /table examples shows it */
		ok("gm", buf_str(&line) + 2);
		buf_free(&block);
		buf_free(&line);
	}
	ok("al", "table examples fungeon");
	has("/table set rooms\n1: a chapel with the pews piled against one door\n");
	hasnt("shifts");
	free(man);
	free(readme);
}

/* check-29 F7 (brief F4): while Tension is hidden, a table a screened table
 * names, directly or through others, is screened too, and a player's
 * /table list shows no row of a screened table. */
static void
screened_through_references_and_list(void **unused)
{
	(void)unused;
	ok("gm", "gm claim");
	ok("gm", "table set encounter 1-6: an ogre; 7-8: [[visitors]]");
	ok("gm", "table set visitors 1-6: a dragon and [[hoard]]");
	ok("gm", "table set hoard 1-6: a crown");
	ok("gm", "table set loot 1-6: gold");
	ok("gm", "table set wrap 1-6: [[hoard]] or [[loot]]");
	ok("gm", "tension mode hidden");
	refused("al", "table show visitors",
	        "No table you may read here is called visitors (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	refused("al", "table roll hoard",
	        "No table you may read here is called hoard (while Tension is hidden, a table "
	        "behind the GM's screen reads as none to the players); /table list shows "
	        "those you may read.");
	ok("al", "table roll wrap");
	has("[[hoard]]: no table here has that name.\n");
	hasnt("crown");
	ok("al", "table list");
	has("loot");
	has("wrap");
	hasnt("visitors");
	hasnt("hoard");
	hasnt("encounter");
	has("3 more are behind the GM's screen (Tension is hidden).\n");
	ok("gm", "table set hoard 1-6: a sceptre");
	has("The GM changed a table behind the screen.\n[private]\n");
	/* the GM's list is in the channel too: the rows of the tables behind
	 * the screen go to the GM alone */
	ok("gm", "table list");
	has("3 more are behind the GM's screen (Tension is hidden).\n[private]\nBehind your "
	    "screen (all tables: ");
	assert_true(strstr(text, "visitors") > strstr(text, "[private]"));
	assert_true(strstr(text, "hoard") > strstr(text, "[private]"));
	/* with Tension open, all are the players' again */
	ok("gm", "tension mode open");
	ok("al", "table show visitors");
	has("1-6: a dragon and [[hoard]]\n");
}

/* newcomer F19: a private conversation with the bot is its user's: they
 * run GM commands there and copy its tables from:me without claiming its
 * seat; nobody reads another's, and a real channel still asks for the
 * seat. */
static void
private_conversation_is_its_users(void **unused)
{
	static const char *const al = "irc:net:alice", *bob = "irc:net:bob",
	                         *crypt = "irc:net:#crypt";

	(void)unused;
	run_on("irc", crypt, al, "gm claim");
	run_on("irc", crypt, al, "table copy encounter from:me");
	assert_string_equal(reply_error_text(cr.last),
	                    "Your private messages with delver have no tables of their own to "
	                    "copy; make one there first (table set NAME).");
	run_direct("irc", al, al, "gm");
	assert_string_equal(text, "This is your private conversation with delver: you are its GM "
	                          "without claiming the seat.\n");
	run_direct("irc", al, al, "table set encounter 1-10: a rat; 11-20: a dragon");
	assert_non_null(strstr(text, "Saved the table encounter: d20, 2 entries.\n"));
	run_direct("irc", al, al, "tension mode hidden");
	assert_false(reply_is_error(cr.last));
	run_on("irc", crypt, al, "table copy encounter from:ME");
	assert_false(reply_is_error(cr.last));
	assert_string_equal(text,
	                    "Copied 1 table from your private messages: encounter; nothing "
	                    "in them is struck.\nTension is open here, so the players can "
	                    "show and roll encounter; /tension mode hidden puts it behind the "
	                    "GM's screen.\n");
	run_on("irc", crypt, al, "table copy loot from:me");
	assert_string_equal(reply_error_text(cr.last),
	                    "Your private messages with delver have no table called loot.");
	/* bob's from:me is his own conversation, never alice's */
	run_direct("irc", bob, bob, "table set loot 1-6: bob's gold");
	run_on("irc", "irc:net:#bobs", bob, "gm claim");
	run_on("irc", "irc:net:#bobs", bob, "table copy encounter from:me");
	assert_string_equal(reply_error_text(cr.last),
	                    "Your private messages with delver have no table called encounter.");
	/* in a channel, the seat is still claimed first */
	run_on("irc", crypt, bob, "tension mode open");
	assert_string_equal(reply_error_text(cr.last),
	                    "Only the GM can do that here; the GM is gm.");
	run_on("irc", "irc:net:#empty", bob, "tension mode open");
	assert_true(reply_is_error(cr.last));
	/* recheck F6: a seat claimed there before is given up quietly, and its
	 * user stays GM */
	run_on("irc", al, al, "gm claim");
	run_direct("irc", al, al, "gm release");
	assert_string_equal(text, "This is your private conversation with delver: you are its GM "
	                          "without claiming the seat, so there is no seat to release.\n");
	run_direct("irc", al, al, "gm");
	assert_string_equal(text, "This is your private conversation with delver: you are its GM "
	                          "without claiming the seat.\n");
	/* a Discord DM is its user's too */
	run_direct("discord", "discord:333333333333333333", "discord:77", "tension mode hidden");
	assert_false(reply_is_error(cr.last));
}

/* check-29 F13, F12 (brief F3, F6): on IRC the GM writes a screened table in
 * private messages with the bot and copies it from:me; a copy of tables
 * that would be screened into a channel whose Tension is open warns. */
static void
copy_from_private_messages_and_screened_copies(void **unused)
{
	static const char *const gm = "irc:net:gm", *crypt = "irc:net:#crypt",
	                         *tomb = "irc:net:#tomb";

	(void)unused;
	run_on("irc", gm, gm, "gm claim");
	run_on("irc", gm, gm, "table set encounter 1-6: a PM wolf");
	run_on("irc", crypt, gm, "gm claim");
	run_on("irc", crypt, gm, "tension mode hidden");
	run_on("irc", crypt, gm, "table copy encounter from:me");
	assert_false(reply_is_error(cr.last));
	assert_string_equal(text, "The GM changed a table behind the screen.\n[private]\n"
	                          "Copied 1 table from your private messages: encounter; "
	                          "nothing in them is struck.\n");
	run_on("irc", crypt, gm, "table show encounter");
	assert_non_null(strstr(text, "1-6: a PM wolf"));
	/* "me" is no channel on the console or Discord */
	run_in("home", "gm", "gm claim");
	ok("gm", "gm claim");
	run("gm", "table copy encounter from:me");
	assert_true(reply_is_error(cr.last));
	/* recheck F11: and the refusal says so, not "You are not the GM of me" */
	assert_string_equal(reply_error_text(cr.last),
	                    "from:me names your private messages with delver on IRC, which this "
	                    "place does not have; name a channel where you are GM instead "
	                    "(from:#crypt).");
	run_on("discord", "discord:222222222222222222", "discord:42", "gm claim");
	run_on("discord", "discord:222222222222222222", "discord:42", "table copy loot from:me");
	assert_string_equal(reply_error_text(cr.last),
	                    "from:me names your private messages with delver on IRC, which this "
	                    "place does not have; name a channel where you are GM instead "
	                    "(from:#crypt).");
	/* an open channel: the copy warns */
	run_on("irc", tomb, gm, "gm claim");
	run_on("irc", crypt, gm, "table set loot 1-6: gold");
	run_on("irc", crypt, gm, "table set encounter 1-6: an ogre and [[visitors]]");
	run_on("irc", crypt, gm, "table set visitors 1-6: a dragon");
	run_on("irc", tomb, gm, "table copy * from:#crypt");
	assert_string_equal(text,
	                    "Copied 3 tables from irc:net:#crypt: encounter, loot, visitors; "
	                    "nothing in them is struck.\n"
	                    "Tension is open here, so the players can show and roll encounter, "
	                    "visitors; /tension mode hidden puts them behind the GM's screen.\n");
	run_on("irc", tomb, gm, "table copy loot from:#crypt");
	assert_string_equal(text, "Copied 1 table from irc:net:#crypt: loot (replacing loot here); "
	                          "nothing in them is struck.\n");
}

/* check-29 F15 (brief F9): a level's table that no level rolls is refused. */
static void
level_tables_name_a_level(void **unused)
{
	(void)unused;
	refused("gm", "table set encounter-02 1-6: x",
	        "The table encounter-02 was not saved: no dungeon level rolls encounter-02: /turn "
	        "level counts 0 to 99, and the table of level N is encounter-N, written without "
	        "leading zeros (encounter-2).");
	refused("gm", "table set effects-100 1-6: x",
	        "The table effects-100 was not saved: no dungeon level rolls effects-100: /turn "
	        "level counts 0 to 99, and the table of level N is effects-N, written without "
	        "leading zeros (effects-2).");
	refused("gm", "table set encounter-00",
	        "The table encounter-00 was not saved: no dungeon level rolls encounter-00: /turn "
	        "level counts 0 to 99, and the table of level N is encounter-N, written without "
	        "leading zeros (encounter-2).");
	ok("gm", "table set encounter-0 1-6: x");
	ok("gm", "table set encounter-99 1-6: x");
	ok("gm", "table set encounter-10 1-6: x");
	ok("gm", "table set encounters 1-6: x");
}

/* check-29 F11 (brief F5): /table examples says first how to ask for one
 * rule text's alone (IRC shows the first lines of a long reply). */
static void
examples_name_the_one_text_form_first(void **unused)
{
	(void)unused;
	ok("al", "table examples");
	assert_int_equal(strncmp(text,
	                         "A table for each rule text, to enter as it stands\n"
	                         "One rule text's alone: /table examples delving (tension, "
	                         "exploration, delving, safe-areas, fungeon).\n",
	                         strlen("A table for each rule text, to enter as it stands\n"
	                                "One rule text's alone: /table examples delving (tension, "
	                                "exploration, delving, safe-areas, fungeon).\n")),
	                 0);
	ok("al", "table examples delving");
	hasnt("One rule text's alone");
	has("/table set shifts\n");
}

/* check-29 F3 (brief F7): names hold letters of any alphabet, not symbols;
 * capitals of every script are small letters; a name that looks the same
 * as another table's is refused; a table saved under the earlier rule
 * (Äbc, an emoji) loads and is still found by its name. */
static void
names_fold_in_every_script(void **unused)
{
	cJSON *o;
	void *back;
	char err[300] = "";

	(void)unused;
	ok("gm", "table set ÄBC 1-6: x");
	has("Saved the table äbc: d6");
	ok("gm", "table show äbc");
	has("1-6: x\n");
	ok("gm", "table set ЛУТ 1-6: y");
	ok("gm", "table show лут");
	has("1-6: y\n");
	ok("gm", "table set Straße 1-6: z");
	ok("gm", "table show STRASSE");
	has("1-6: z\n");
	refused(
	    "gm", "table set \xf0\x9f\x90\x89 1-6: ok",
	    "'\xf0\x9f\x90\x89' is not a table name: a name is 1 to 32 letters (of any alphabet), "
	    "digits, - and _, with no spaces or symbols (loot, encounter-2).");
	ok("gm", "table set loot 1-6: gold");
	refused(
	    "gm", "table set l\xd0\xbeot 1-6: fake",
	    "The table l\xd0\xbeot was not saved: its name looks the same as the table loot's but "
	    "is spelled with a letter of another alphabet; use that table's name, or another.");
	/* the earlier rule's names */
	o = cJSON_Parse("{\"tables\":[{\"name\":\"\xc3\x84"
	                "bc\",\"text\":\"1-6: old\"},"
	                "{\"name\":\"\xf0\x9f\x90\x89\",\"text\":\"1-6: dragon\"}]}");
	back = tables_mod.create();
	assert_int_equal(tables_mod.load(back, o, err, sizeof(err)), 0);
	cJSON_Delete(o);
	channel_mod_set(state_channel(cr.st, "console:table"), CHANMOD_TABLES, back);
	ok("al", "table show \xf0\x9f\x90\x89");
	has("1-6: dragon\n");
	ok("al", "table show äbc");
	has("1-6: old\n");
}

/* newcomer F25: a name is 32 letters of any alphabet, not 32 bytes; one
 * at that length is saved, read back and rolled through a reference; a
 * longer one is refused as too long, quoted cut with a mark. */
static void
names_count_letters_not_bytes(void **unused)
{
	static const char *const z32 = "жжжжжжжжжжжжжжжжжжжжжжжжжжжжжжжж";
	char line[400], want[400], *first, *second, err[200];
	cJSON *o;
	void *s;

	(void)unused;
	ok("gm", "table set жжжжжжжжжжжжжжжжж 1-4: x");
	has("Saved the table жжжжжжжжжжжжжжжжж: d4");
	snprintf(line, sizeof(line), "table set %s 1-6: [[жжжжжжжжжжжжжжжжж]]", z32);
	ok("gm", line);
	snprintf(line, sizeof(line), "table roll %s", z32);
	ok("gm", line);
	has("x");
	first = saved("table");
	o = cJSON_Parse(first);
	s = tables_mod.create();
	assert_int_equal(tables_mod.load(s, o, err, sizeof(err)), 0);
	cJSON_Delete(o);
	o = tables_mod.save(s);
	second = cJSON_PrintUnformatted(o);
	assert_string_equal(first, second);
	cJSON_Delete(o);
	tables_mod.destroy(s);
	free(first);
	free(second);
	snprintf(line, sizeof(line), "table set %sж 1-6: y", z32);
	snprintf(want, sizeof(want),
	         "'%sж' is too long: a table's name is 1 to 32 letters (of any alphabet), "
	         "digits, - and _ (loot, encounter-2).",
	         z32);
	refused("gm", line, want);
	refused("gm", "table set abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz 1-6: y",
	        "'abcdefghijklmnopqrstuvwxyzabcdefghijklmn…' is too long: a table's name is 1 "
	        "to 32 letters (of any alphabet), digits, - and _ (loot, encounter-2).");
	/* the quote is cut between characters as a reader sees them: not
	 * between an e and its accent (U+0301), which would show a plain e */
	refused("gm", "table set abcdefghijklmnopqrstuvwxyzabcdefghijklme\xcc\x81xyz 1-6: y",
	        "'abcdefghijklmnopqrstuvwxyzabcdefghijklm…' is too long: a table's name is 1 "
	        "to 32 letters (of any alphabet), digits, - and _ (loot, encounter-2).");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(set_every_form, setup, teardown),
	    cmocka_unit_test_setup_teardown(set_every_error, setup, teardown),
	    cmocka_unit_test_setup_teardown(channel_limits, setup, teardown),
	    cmocka_unit_test_setup_teardown(references_are_checked, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_gm_seat_decides, setup, teardown),
	    cmocka_unit_test_setup_teardown(roll_marks_the_rolled_row, setup, teardown),
	    cmocka_unit_test_setup_teardown(d66_roll, setup, teardown),
	    cmocka_unit_test_setup_teardown(nested_rolls_are_shown, setup, teardown),
	    cmocka_unit_test_setup_teardown(cut_breakdown_says_so, setup, teardown),
	    cmocka_unit_test_setup_teardown(struck_nested_entry_strikes_its_text_alone, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(seat_claimed_mid_entry_hands_the_entries_back, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(secret_rolls_reach_the_gm_alone, setup, teardown),
	    cmocka_unit_test_setup_teardown(hidden_tension_screens_the_encounter_tables, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(hidden_list_counts_open_bytes, setup, teardown),
	    cmocka_unit_test_setup_teardown(hidden_tables_are_not_rolled_through_references, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(show_set_show_round_trips, setup, teardown),
	    cmocka_unit_test_setup_teardown(screened_through_references_and_list, setup, teardown),
	    cmocka_unit_test_setup_teardown(private_conversation_is_its_users, setup, teardown),
	    cmocka_unit_test_setup_teardown(copy_from_private_messages_and_screened_copies, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(level_tables_name_a_level, setup, teardown),
	    cmocka_unit_test_setup_teardown(names_fold_in_every_script, setup, teardown),
	    cmocka_unit_test_setup_teardown(names_count_letters_not_bytes, setup, teardown),
	    cmocka_unit_test_setup_teardown(examples_name_the_one_text_form_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(tension_tables_show_as_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(list_and_delete, setup, teardown),
	    cmocka_unit_test_setup_teardown(copy_between_channels, setup, teardown),
	    cmocka_unit_test_setup_teardown(copy_names_the_channel_on_each_platform, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(saved_form_round_trips, setup, teardown),
	    cmocka_unit_test_setup_teardown(empty_seat_keeps_the_screen, setup, teardown),
	    cmocka_unit_test_setup_teardown(screened_bytes_count_apart, setup, teardown),
	    cmocka_unit_test_setup_teardown(look_alike_names_no_screened_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(copy_refuses_look_alike_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(empty_seat_set_reads_screened_tables_as_none, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(gm_open_table_notes_screened_and_missing_alike, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(examples_are_whole_and_documented, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
