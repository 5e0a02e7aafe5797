/*
 * Unit tests for how the words of a typed line are read (outside testers'
 * findings): a text option given by name ends at the next option given by
 * name; option-shaped words are refused where a name goes; quoted means
 * text. Every expectation is a reply's whole text, with a seeded RNG.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "tests/unit/helpers/cmdrun.h"

static struct cmdrun cr;
/* whether a line of the running test gave other than it should (each is
 * shown, as a C string to compare with, and the test fails at its end) */
static bool mismatched;

/* Shows what line gave, as text and as a C string. */
static void
mismatch(const char *line, const char *got)
{
	fprintf(stderr, "'%s' gave:\n%s\nC: \"", line, got);
	for (const char *q = got; *q != '\0'; q++)
		if (*q == '\n')
			fprintf(stderr, "\\n\"\n\"");
		else if (*q == '"' || *q == '\\')
			fprintf(stderr, "\\%c", *q);
		else
			fputc(*q, stderr);
	fprintf(stderr, "\"\n");
	mismatched = true;
}

static int
setup(void **unused)
{
	(void)unused;
	cmdrun_open(&cr, 99);
	mismatched = false;
	return 0;
}

static int
teardown(void **unused)
{
	(void)unused;
	cmdrun_close(&cr);
	assert_false(mismatched);
	return 0;
}

/* Runs line as user in channel "table"; its reply must be no error and
 * read want, exactly. */
static void
said(const char *user, const char *line, const char *want)
{
	const struct reply *r = cmdrun_line(&cr, "table", user, line, 0);
	const char *got = reply_is_error(r) ? reply_error_text(r) : cmdrun_plain(&cr);

	if (reply_is_error(r) || strcmp(got, want) != 0)
		mismatch(line, got);
}

/* Runs line as user in channel "table"; its reply must be no error and
 * begin with want (the lines that follow are pinned elsewhere). */
static void
began(const char *user, const char *line, const char *want)
{
	const struct reply *r = cmdrun_line(&cr, "table", user, line, 0);
	const char *got = reply_is_error(r) ? reply_error_text(r) : cmdrun_plain(&cr);

	if (reply_is_error(r) || strncmp(got, want, strlen(want)) != 0)
		mismatch(line, got);
}

/* Runs line as user; it must be refused with want, exactly. */
static void
refused(const char *user, const char *line, const char *want)
{
	const struct reply *r = cmdrun_line(&cr, "table", user, line, 0);

	if (!reply_is_error(r) || strcmp(reply_error_text(r), want) != 0)
		mismatch(line, reply_is_error(r) ? reply_error_text(r) : cmdrun_plain(&cr));
}

/* F2: a text option given by name (reason:, note:) took every later word,
 * options given by name too: "/tension raise reason:because amount:1" was
 * refused, and "/hazard note:hi table:delving" rolled the exploration die
 * with the note "hi table:delving". The text ends at the next option given
 * by name; words that name no option stay text. */
static void
named_text_ends_at_the_next_option(void **unused)
{
	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	said("gm", "tension raise reason:because amount:1",
	     "Tension raised 1 → 2 (+1): because.\n"
	     "Tension ██░░░░░░░░ 2/10\n");
	said(
	    "gm", "hazard note:hi table:delving",
	    "Hazard die: turn 1\n"
	    "hi\n"
	    "  1 | Encounter, usually from the dungeon's encounter table (reaction, activity, "
	    "distance, surprise are the GM's)\n"
	    "  2 | Fatigue: each party member takes 1 damage (more where conditions are harsh) "
	    "unless the party rests next turn; ignored while resting\n"
	    "> 3 | Burn: lit torches burn out (new ones can be lit from the embers)\n"
	    "  4 | Dungeon shift: the environment changes (sounds, temperature, wind, debris, "
	    "apparitions, vermin)\n"
	    "  5 | Sign: roll an encounter but meet only its sign; the next encounter rolled is "
	    "that creature\n"
	    "  6 | Free: no effect\n"
	    "Rolled 3 on the d6 (delving): Burn.\n"
	    "No torch is lit, so none burns out.\n"
	    "Darkness: nothing is lit. Without light the party is effectively blind: a setback on "
	    "all rolls, movement halved, no reading, searching or spotting danger (darkvision sees "
	    "darkness as dim light); /light add lights a source.\n"
	    "Turn 1 (10 min in the dungeon); 1 turn since the last rest.\n");
	/* a word that names no option is text; words typed by position
	 * after the option go on with it, as after a text typed by position */
	said("gm", "tension raise reason:see http://x ratio:3 amount:2 at once",
	     "Tension raised 2 → 4 (+2): see http://x ratio:3 at once.\n"
	     "Tension ████░░░░░░ 4/10\n");
	/* after a lone #, all is label text, an option's name too */
	refused("gm", "tension raise reason:why # lbl amount:1",
	        "Name what happened (door, quiet-combat, combat or enemy-escaped) or give an "
	        "amount with a reason: /tension raise amount:N reason:why.");
	said("gm", "tension raise amount:1 reason:why # lbl amount:2",
	     "Tension raised 4 → 5 (+1): why # lbl amount:2.\n"
	     "Tension █████░░░░░ 5/10\n");
	/* quoted, the option's name is text */
	refused("gm", "tension raise reason:\"a amount:1\"",
	        "Name what happened (door, quiet-combat, combat or enemy-escaped) or give an "
	        "amount with a reason: /tension raise amount:N reason:why.");
	refused(
	    "gm", "hazard note:hi table:dungeon",
	    "Table must be one of exploration, delving, classic, custom (got 'dungeon'); usage: "
	    "/hazard roll [exploration|delving|classic|custom] [note]");
}

/* F15: where a name, a class, a table, an entry or a channel is typed by
 * position, a word shaped like an option given by name that is no option
 * of the command was taken as that text ("/fungeon join Bob counts:2" made
 * a Fungeoneer of the class "counts:2"); it is refused with the command's
 * options and the closest of them, as elsewhere. Quoted, it is the text. */
static void
option_shaped_words_are_refused(void **unused)
{
	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	refused("gm", "fungeon join Bob counts:2",
	        "'counts:' is no option of this command (its options are name:, class:, level: and "
	        "type:); usage: /fungeon join <name> <class> [level] [type]");
	refused("gm", "fungeon join Bob clas:fighter",
	        "'clas:' is no option of this command (its options are name:, class:, level: and "
	        "type:); did you mean class:?; usage: /fungeon join <name> <class> [level] [type]");
	refused("gm", "tension strike entr:9-12",
	        "'entr:' is no option of this command (its options are entry: and table:); did you "
	        "mean entry:?; usage: /tension strike <entry> [table:encounter|effects]");
	refused("gm", "saved delete nmae:x",
	        "'nmae:' is no option of this command (its options are name: and channel:); did "
	        "you mean name:?; usage: /saved delete <name> [channel]");
	refused("gm", "table copy nme:loot from:#x",
	        "'nme:' is no option of this command (its options are name: and from:); did you "
	        "mean name:?; usage: /table copy <name> <from>");
	refused("gm", "table copy loot frm:#x",
	        "'frm:' is no option of this command (its options are name: and from:); did you "
	        "mean from:?; usage: /table copy <name> <from>");
	refused("gm", "thwacko style red mrk:X",
	        "'mrk:' is no option of this command (its options are colour: and mark:); did you "
	        "mean mark:?; usage: /thwacko style <gray|red|green|yellow|blue|pink|cyan|white> "
	        "[mark]");
	refused("gm", "gm secret-channel chanel:#gm",
	        "'chanel:' is no option of this command (its options are channel: and off:); did "
	        "you mean channel:?; usage: /gm secret-channel [channel] [off]");
	/* quoted, the word is the text */
	refused(
	    "gm", "tension strike \"counts:2\"",
	    "No encounter entry matches 'counts:2'; name a range like 9-12, a result like 10 or "
	    "part of an entry's text (/tension table show encounter).");
	said("gm", "fungeon join Bob \"counts:2\"",
	     "gm joins as Bob, level 1 counts:2: 5 hits, class bonus 0, 0 XP.\n");
}

/* F13: "/light add candle \"two\"" was refused as a count in words,
 * where quotes make a name elsewhere: quoted, the word is the carrier. */
static void
quoted_number_word_is_a_name(void **unused)
{
	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	said("gm", "light add candle \"two\"",
	     "Lit 1 candle carried by two; it lasts 6 turns.\n"
	     "  #1 candle | two | 6\n");
	refused("gm", "light add candle two",
	        "'two' reads as a count written in words, not who carries it: a count is a number "
	        "(/light add candle 2), a carrier a name (who:two).");
}

/* F11: "/bargain Gus ring sell 3" rolled no d20 ("3" was read as a
 * constant roll), where the help says a modifier is added to 1d20: a
 * number without a sign there is that modifier (rules 004: the player
 * rolls against the vendor's skill). */
static void
bargain_number_is_a_modifier(void **unused)
{
	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	said("gm", "vendor meet Gus",
	     "Gus's stock\n"
	     "Hoards of goods: 1d6 = 3, each generated at the level the dungeon is on\n"
	     "Rations: 2d6 x 100 = (4 + 3) x 100 = 700, at 1 gp each\n"
	     "Trades for salvage: 1d10 x 10% = 9 x 10% = 90% of its coins\n"
	     "Bargaining skill: 1d10 + 5 = 8 + 5 = 13\n"
	     "Each deal is tried once: /bargain Gus ITEM sell|buy ROLL rolls it against this "
	     "skill.\n"
	     "A vendor's room is a safe area: the GM marks it with /safe on.\n");
	said("gm", "bargain Gus ring sell 3",
	     "Bargaining with Gus: selling ring\n"
	     "gm rolls 1d20 + 3: [5] + 3 = 8 against Gus's skill 13: margin -5.\n"
	     "  -30 or less | 10% | 1000%\n"
	     "  -29 to -25 | 20% | 700%\n"
	     "  -24 to -20 | 30% | 500%\n"
	     "  -19 to -15 | 40% | 350%\n"
	     "  -14 to -10 | 50% | 250%\n"
	     "> -9 to -5 | 60% | 200%\n"
	     "  -4 to 0 | 70% | 150%\n"
	     "  +1 to +5 | 80% | 125%\n"
	     "  +6 to +10 | 90% | 110%\n"
	     "  +11 to +15 | 100% | 100%\n"
	     "  +16 to +20 | 125% | 90%\n"
	     "  +21 to +25 | 150% | 80%\n"
	     "  +26 to +30 | 175% | 65%\n"
	     "  +31 or more | 200% | 50%\n"
	     "The price: 60% of the item's value. This is the one try on ring with Gus; a rejected "
	     "price ends the deal for good.\n");
	/* given by name too */
	began("gm", "bargain Gus cup sell roll:0",
	      "Bargaining with Gus: selling cup\n"
	      "gm rolls 1d20 + 0: [6] + 0 = 6 against Gus's skill 13: margin -7.\n");
	refused(
	    "gm", "bargain Gus lamp buy 99999999999999999999",
	    "The bargaining roll '99999999999999999999' is no roll: the number at column 1 is "
	    "too large (at most 9223372036854775807); give dice (1d20+3) or a modifier added to "
	    "1d20 (+3).");
}

/* F3: README's rule on option-shaped words in a reason or a note, as it
 * now says it: only a near miss of an option is refused in the text; an
 * option's name is read in any case; the first word where an event or a
 * table goes is read as one, never as the text. */
static void
colon_words_in_a_reason_as_the_readme_says(void **unused)
{
	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	said("gm", "tension raise combat time: noon",
	     "Tension raised 1 → 3 (+2): normal combat (time: noon).\n"
	     "Tension ███░░░░░░░ 3/10\n");
	said("gm", "tension raise combat Note: goblins",
	     "Tension raised 3 → 5 (+2): normal combat (Note: goblins).\n"
	     "Tension █████░░░░░ 5/10\n");
	refused("gm", "tension raise combat reasn: goblins",
	        "'reasn:' is no option of this command (its options are event:, reason: and "
	        "amount:); did you mean reason:?; usage: /tension raise "
	        "[door|quiet-combat|combat|enemy-escaped] [reason] [amount:N]");
	began("gm", "hazard Note: quiet", "Hazard die: turn 1\nquiet\n");
	refused("gm", "hazard time: noon",
	        "'time:' is no option of this command (its options are table: and note:); usage: "
	        "/hazard roll [exploration|delving|classic|custom] [note]");
	refused("gm", "hazard noon",
	        "Table must be one of exploration, delving, classic, custom (got 'noon'); usage: "
	        "/hazard roll [exploration|delving|classic|custom] [note]");
	began("gm", "hazard exploration time: noon", "Hazard die: turn 2\ntime: noon\n");
	began("gm", "hazard note:time: noon", "Hazard die: turn 3\ntime: noon\n");
}

/* F7: a column in a dice error counted a run of spaces typed between
 * words as one ("/roll 2d6   3d" faulted the 3 at column 5); it is the
 * column typed. A name keeps single spaces between its words. */
static void
error_columns_are_typed_columns(void **unused)
{
	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	refused("gm", "roll 2d6   3d",
	        "Unexpected '3' at column 7; an operator (+ - * /), ';', '# label' or the end may "
	        "follow a term.");
	refused("gm", "roll 1d6 +   x",
	        "Expected a number or dice after '+' at column 9, not 'x'.");
	refused("gm", "gmroll 2d6   3d",
	        "Unexpected '3' at column 7; an operator (+ - * /), ';', '# label' or the end may "
	        "follow a term.");
	refused("gm", "save f 1d6  +  x",
	        "That roll does not parse: expected a number or dice after '+' at column 9, not "
	        "'x'.");
	began("gm", "vendor meet Old   Gus", "Old Gus's stock\n");
}

/* F8: "/roll \"atk\" adv" (a saved roll's name quoted, then adv) read
 * the quoted name as dice ("Adv rolls a plain d20 twice and this roll has
 * none"); quoted, a name is the name, here as anywhere, and a fault after
 * it is named at the column typed. */
static void
quoted_saved_roll_name(void **unused)
{
	(void)unused;
	said("alice", "save atk 1d20+5",
	     "[private]\n"
	     "Saved your roll atk = 1d20+5; roll it with /roll atk (more may follow: /roll atk "
	     "+2).\n");
	/* the better of two d20s kept (the worse is struck, which plain
	 * text does not show) */
	said("alice", "roll \"atk\" adv",
	     "alice rolls\n"
	     "2d20kh1 + 5: [7, 12] + 5 = 17\n");
	said("alice", "roll \"atk\" +2",
	     "alice rolls\n"
	     "1d20 + 5 + 2: [8] + 5 + 2 = 15\n");
	refused("alice", "roll \"atk\" +x",
	        "Expected a number or dice after '+' at column 8, not 'x'.");
	refused("alice", "roll \"nope\" adv",
	        "'nope' is neither dice nor a saved roll here; /saved list lists the saved rolls, "
	        "/help roll the notation.");
}

/* F12: "/procedure su" in a delving channel found no such section on the
 * delving card and showed exploration's Surprise, another procedure's
 * rule; it is the delving card's Encounters, which says how surprise goes
 * there. Exploration's is still its own. */
static void
procedure_section_of_the_channels_card(void **unused)
{
	static const char encounters[] =
	    "Delving procedure (a turn is 10 minutes)\n"
	    "Encounters: Usually from the dungeon's encounter table; reaction, activity, distance "
	    "and surprise are the GM's (a WIS check DC 12 when wanted). A Sign shows the next "
	    "encounter's creature, or a clue to something hidden.\n";

	(void)unused;
	said("gm", "gm claim", "gm is now the GM of this channel.\n");
	began("gm", "procedure su", "Exploration procedure (a turn is 10 minutes)\nSurprise: ");
	began("gm", "hazard procedure delving", "");
	said("gm", "procedure su", encounters);
	said("gm", "procedure delving surprise", encounters);
	/* a name the card has still goes first: s is searching */
	began("gm", "procedure s", "Delving procedure (a turn is 10 minutes)\nSearching: ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(named_text_ends_at_the_next_option, setup, teardown),
	    cmocka_unit_test_setup_teardown(option_shaped_words_are_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(quoted_number_word_is_a_name, setup, teardown),
	    cmocka_unit_test_setup_teardown(bargain_number_is_a_modifier, setup, teardown),
	    cmocka_unit_test_setup_teardown(colon_words_in_a_reason_as_the_readme_says, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(error_columns_are_typed_columns, setup, teardown),
	    cmocka_unit_test_setup_teardown(quoted_saved_roll_name, setup, teardown),
	    cmocka_unit_test_setup_teardown(procedure_section_of_the_channels_card, setup,
	                                    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
