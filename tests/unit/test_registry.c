/*
 * Unit tests for commands/core/registry and commands/core/dispatch: text parsing
 * (positional, name:value, quotes, rest-of-line, # label), value checks,
 * subcommands and defaults, usage, GM enforcement, persistence hooks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "commands/core/memstore.h"
#include "commands/core/registry_parse.h"
#include "commands/dice/rollchan.h"
#include "rules/base/rng.h"
#include "rules/procedure/odds.h"

static const char *const colours[] = {"red", "green", NULL};
static int ran;

static void
noop(struct invocation *inv, struct reply *out)
{
	ran++;
	reply_line(out, 0, "ran %s", inv->cmd->name);
}

static void
mutate(struct invocation *inv, struct reply *out)
{
	ran++;
	channel_touch(inv->chan);
	reply_line(out, 0, "changed");
}

static const struct cmd_opt say_opts[] = {
    {.name = "text", .desc = "what to say", .type = OPT_STRING, .flags = OPT_REQUIRED | OPT_REST},
    {.name = "loud", .desc = "shout it", .type = OPT_BOOL},
    {.name = "times", .desc = "how often", .type = OPT_INT, .min = 1, .max = 5},
    {0},
};

static const struct cmd_opt paint_opts[] = {
    {.name = "colour",
     .desc = "a colour",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = colours},
    {.name = "coats", .desc = "how many", .type = OPT_INT, .min = 1, .max = 3},
    {.name = "note", .desc = "a note", .type = OPT_STRING, .max = 10},
    {0},
};

static const struct command set_subs[] = {
    {.name = "paint", .desc = "paint", .opts = paint_opts, .fn = noop},
    {.name = "wipe", .desc = "wipe", .role = ROLE_GM, .fn = mutate},
    {0},
};

static const struct command room_subs[] = {
    {.name = "look", .desc = "look around", .fn = noop},
    {.name = "set", .desc = "settings", .subs = set_subs},
    {0},
};

static const struct command say = {.name = "say", .desc = "say", .opts = say_opts, .fn = noop};
static const struct command room = {
    .name = "room", .desc = "room", .subs = room_subs, .default_sub = "look"};
static const struct command gmonly = {
    .name = "secret", .desc = "gm only", .role = ROLE_GM, .fn = mutate};
static const struct command *const table[] = {&say, &room, &gmonly, NULL};

struct fixture {
	struct invocation inv;
	struct reply *out;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->out = reply_new();
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	invocation_clear(&f->inv);
	reply_free(f->out);
	free(f);
	return 0;
}

static int
parse(struct fixture *f, const char *line)
{
	invocation_clear(&f->inv);
	reply_clear(f->out);
	return registry_parse_in(table, line, strlen(line), &f->inv, f->out);
}

static void
positional_named_and_rest(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "say hello there friend loud:yes times:3"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "hello there friend");
	assert_true(invocation_bool(&f->inv, "loud", false));
	assert_int_equal(invocation_int(&f->inv, "times", 0), 3);
	/* named options may come first, and the command name is case-insensitive */
	assert_int_equal(parse(f, "SAY times:2 hi"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "hi");
	assert_false(invocation_has(&f->inv, "loud"));
	assert_false(invocation_bool(&f->inv, "loud", false));
}

/* A rest-of-line option named with name: takes the rest of the line. */
static void
named_rest_takes_the_line(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "say times:2 text:the bridge creaks"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "the bridge creaks");
	assert_int_equal(invocation_int(&f->inv, "times", 0), 2);
	assert_int_equal(parse(f, "say text:\"quoted words\""), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "quoted words");
	/* up to a # label, which is never parsed */
	assert_int_equal(parse(f, "say text:a b # c times:3"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "a b # c times:3");
}

static void
hash_label_is_never_parsed(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "say 4d6kh3 # Stealth times:9 \"x"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "4d6kh3 # Stealth times:9 \"x");
	assert_false(invocation_has(&f->inv, "times"));
	/* a # inside a word is not a label marker */
	assert_int_equal(parse(f, "say a#b"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "a#b");
}

/* A "[label]" is one piece of the text wherever it stands: neither a lone
 * # in it nor a word in it written as an option is taken as one, typed
 * unquoted as quoted; after its ']' options are read again. */
static void
bracket_label_is_text(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "say 1d1[a# loud:maybe] times:2"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "1d1[a# loud:maybe]");
	assert_false(invocation_has(&f->inv, "loud"));
	assert_int_equal(invocation_int(&f->inv, "times", 0), 2);
	assert_int_equal(parse(f, "say 2d6 [a # times:3 b] # c times:4"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "2d6 [a # times:3 b] # c times:4");
	assert_false(invocation_has(&f->inv, "times"));
	assert_int_equal(parse(f, "say 1d1[a b] loud:yes"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "1d1[a b]");
	assert_true(invocation_bool(&f->inv, "loud", false));
	/* in quotes a bracket is a quoted word's */
	assert_int_equal(parse(f, "say x \"[\" loud:yes"), 0);
	assert_true(invocation_bool(&f->inv, "loud", false));
}

static void
quotes_group_words(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "room set paint green note:\"two words\""), 0);
	assert_string_equal(invocation_str(&f->inv, "note"), "two words");
	assert_int_equal(parse(f, "room set paint \"red\""), 0);
	assert_string_equal(invocation_str(&f->inv, "colour"), "red");
}

static void
choices_are_canonical(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "room set paint GREEN 2"), 0);
	assert_string_equal(invocation_str(&f->inv, "colour"), "green");
	assert_int_equal(invocation_int(&f->inv, "coats", 0), 2);
	assert_ptr_equal(f->inv.cmd, &set_subs[0]);
	assert_ptr_equal(f->inv.path[0], &room);
	assert_ptr_equal(f->inv.path[1], &room_subs[1]);
	assert_ptr_equal(f->inv.path[2], &set_subs[0]);
}

/* A value the next option cannot take goes to the next one that can: a
 * word past a number to the text, a number past a choice to the number;
 * a word that is no choice stays a slip. */
static void
values_go_where_they_fit(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "room set paint red shiny"), 0);
	assert_false(invocation_has(&f->inv, "coats"));
	assert_string_equal(invocation_str(&f->inv, "note"), "shiny");
	invocation_clear(&f->inv);
	assert_int_equal(parse(f, "say hi there"), 0);
	assert_string_equal(invocation_str(&f->inv, "text"), "hi there");
	invocation_clear(&f->inv);
	/* a number past the colour is the coats: the colour is still asked */
	assert_int_equal(parse(f, "room set paint 2"), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "No value given for colour (a colour); usage: /room set paint "
	                    "<red|green> [coats] [note]");
}

/* A command whose options apply by its first one (struct cmd_opt's when),
 * one of them odds. */
static const char *const draw_kinds[] = {"count", "odds", "both", NULL};
static const char *const count_when[] = {"count", "both", NULL};
static const char *const odds_when[] = {"odds", "both", NULL};
static const struct cmd_opt draw_opts[] = {
    {.name = "kind", .desc = "what to draw", .type = OPT_STRING, .choices = draw_kinds},
    {.name = "n", .desc = "how many", .type = OPT_INT, .min = 1, .max = 9, .when = count_when},
    {.name = "odds",
     .desc = "the odds",
     .type = OPT_STRING,
     .flags = OPT_ODDS,
     .max = 16,
     .when = odds_when},
    {0},
};
static const struct command draw = {.name = "draw", .desc = "draw", .opts = draw_opts, .fn = noop};
static const struct command *const draw_table[] = {&draw, NULL};

static int
parse_draw(struct fixture *f, const char *line)
{
	invocation_clear(&f->inv);
	reply_clear(f->out);
	return registry_parse_in(draw_table, line, strlen(line), &f->inv, f->out);
}

/* Odds typed by position are one value of one or several words, checked
 * by the one reader of odds; an option the first one's value does not
 * take is passed by (recheck5 F14, F5: /wander put the words of "2 in 6"
 * in three options and put them back together itself). */
static void
odds_are_one_value(void **state)
{
	struct fixture *f = *state;
	struct odds o = {0, 0};

	assert_int_equal(parse_draw(f, "draw odds 2 in 6"), 0);
	assert_true(invocation_odds(&f->inv, "odds", &o));
	assert_int_equal(o.x, 2);
	assert_int_equal(o.n, 6);
	assert_int_equal(parse_draw(f, "draw odds 3 8"), 0);
	assert_true(invocation_odds(&f->inv, "odds", &o));
	assert_int_equal(o.x * 100 + o.n, 308);
	assert_false(invocation_has(&f->inv, "n"));
	assert_int_equal(parse_draw(f, "draw odds 4"), 0);
	assert_true(invocation_odds(&f->inv, "odds", &o));
	assert_int_equal(o.x * 100 + o.n, 406);
	/* with no kind given, odds that are only odds pass the number option */
	assert_int_equal(parse_draw(f, "draw 1 IN 20"), 0);
	assert_true(invocation_odds(&f->inv, "odds", &o));
	assert_int_equal(o.x * 100 + o.n, 120);
	assert_int_equal(parse_draw(f, "draw 2/6"), 0);
	assert_false(invocation_has(&f->inv, "n"));
	assert_int_equal(parse_draw(f, "draw 5"), 0);
	assert_int_equal(invocation_int(&f->inv, "n", 0), 5);
	assert_false(invocation_has(&f->inv, "odds"));
	assert_int_equal(parse_draw(f, "draw both 3 1in6"), 0);
	assert_int_equal(invocation_int(&f->inv, "n", 0), 3);
	assert_true(invocation_odds(&f->inv, "odds", &o));
	assert_int_equal(o.x * 100 + o.n, 106);
	assert_int_equal(parse_draw(f, "draw count 3"), 0);
	assert_int_equal(invocation_int(&f->inv, "n", 0), 3);
	/* refused whole, in the reader's one sentence */
	assert_int_equal(parse_draw(f, "draw odds 2 of 6"), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "'2 of 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 "
	                    "6), or X alone for X-in-6 (2 is 2-in-6).");
	assert_int_equal(parse_draw(f, "draw odds 3 2 in 6"), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "'3 2 in 6' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 "
	                    "6), or X alone for X-in-6 (2 is 2-in-6).");
	assert_int_equal(parse_draw(f, "draw odds 7 6"), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "7-in-6 is not a chance; X must be from 1 to 6 on a d6.");
	/* a word where the count goes is no odds */
	assert_int_equal(parse_draw(f, "draw count x"), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "How many (n:) must be a whole number from 1 to 9 (got 'x'); usage: "
	                    "/draw [count|odds|both] [n] [odds]");
	assert_int_equal(parse_draw(f, "draw count 3 x"), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "Unexpected 'x' ('3' before it filled n:, the last place); usage: "
	                    "/draw [count|odds|both] [n] [odds]");
	/* named, as Discord gives it: one text */
	invocation_clear(&f->inv);
	reply_clear(f->out);
	f->inv.cmd = &draw;
	f->inv.path[0] = &draw;
	assert_int_equal(registry_parse_bind(&f->inv, "odds", "2 in 6", f->out), 0);
	assert_true(invocation_odds(&f->inv, "odds", &o));
	assert_int_equal(o.x * 100 + o.n, 206);
	assert_int_equal(registry_parse_bind(&f->inv, "odds", "two", f->out), -1);
	assert_string_equal(reply_error_text(f->out),
	                    "'two' is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 "
	                    "6), or X alone for X-in-6 (2 is 2-in-6).");
}

/* The channel's default kind of draw, for a channel the test never makes. */
static const char *
kind_here(const struct channel *ch)
{
	(void)ch;
	return "odds";
}

/* draw again, as a subcommand whose first option takes the channel's
 * default, beside one without. */
static const struct cmd_opt chdraw_opts[] = {
    {.name = "kind",
     .desc = "what to draw",
     .type = OPT_STRING,
     .choices = draw_kinds,
     .channel_default = kind_here},
    {.name = "n", .desc = "how many", .type = OPT_INT, .min = 1, .max = 9, .when = count_when},
    {.name = "odds",
     .desc = "the odds",
     .type = OPT_STRING,
     .flags = OPT_ODDS,
     .max = 16,
     .when = odds_when},
    {0},
};
static const struct command deck_subs[] = {
    {.name = "draw", .desc = "draw", .opts = chdraw_opts, .fn = noop},
    {.name = "cut", .desc = "cut", .opts = draw_opts, .fn = noop},
    {0},
};
static const struct command deck = {
    .name = "deck", .desc = "deck", .subs = deck_subs, .default_sub = "draw"};
static const struct command *const deck_table[] = {&deck, &draw, NULL};

/* A line typed before its channel is known: a command whose first option
 * takes the channel's default is named and nothing of it bound (it is
 * read once, with the channel); any other is read whole. */
static void
channel_default_read_once(void **state)
{
	struct fixture *f = *state;
	static const char *const later[] = {"deck 2 in 6", "deck draw count 3 x", "deck draw"};

	for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
		invocation_clear(&f->inv);
		reply_clear(f->out);
		assert_int_equal(registry_parse_before_channel(deck_table, later[i],
		                                               strlen(later[i]), &f->inv, f->out),
		                 1);
		assert_ptr_equal(f->inv.cmd, &deck_subs[0]);
		assert_ptr_equal(f->inv.path[0], &deck);
		assert_ptr_equal(f->inv.path[1], &deck_subs[0]);
		for (int k = 0; k < CMD_MAX_OPTS; k++)
			assert_false(f->inv.args[k].set);
		assert_false(reply_is_error(f->out));
	}
	invocation_clear(&f->inv);
	assert_int_equal(
	    registry_parse_before_channel(deck_table, "deck cut count 3", 16, &f->inv, f->out), 0);
	assert_int_equal(invocation_int(&f->inv, "n", 0), 3);
	invocation_clear(&f->inv);
	assert_int_equal(registry_parse_before_channel(deck_table, "draw 1in6", 9, &f->inv, f->out),
	                 0);
	assert_true(invocation_has(&f->inv, "odds"));
	invocation_clear(&f->inv);
	assert_int_equal(
	    registry_parse_before_channel(deck_table, "deck cut count x", 16, &f->inv, f->out), -1);
	assert_string_equal(
	    reply_error_text(f->out),
	    "How many (n:) must be a whole number from 1 to 9 (got 'x'); usage: /deck cut "
	    "[count|odds|both] [n] "
	    "[odds]");
	/* with the channel, the same line is read whole */
	invocation_clear(&f->inv);
	assert_int_equal(registry_parse_in(deck_table, "deck 2 in 6", 11, &f->inv, f->out), 0);
	assert_true(invocation_has(&f->inv, "odds"));
}

/* The words a line named before its channel keeps are bound later as
 * registry_parse_in() binds the line: the same values, or the same
 * refusal; the words are then gone. */
static void
channel_default_bound_later(void **state)
{
	struct fixture *f = *state;
	static const char *const lines[] = {
	    "deck 2 in 6",  "deck draw count 3 x",  "deck draw",
	    "deck count 4", "deck \"2 in 6\" # hi", "deck draw count 12"};
	struct invocation whole;
	struct reply *out = reply_new();

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		size_t len = strlen(lines[i]);
		int r;

		memset(&whole, 0, sizeof(whole));
		reply_clear(out);
		r = registry_parse_in(deck_table, lines[i], len, &whole, out);
		invocation_clear(&f->inv);
		reply_clear(f->out);
		assert_int_equal(
		    registry_parse_before_channel(deck_table, lines[i], len, &f->inv, f->out), 1);
		assert_non_null(f->inv.words);
		assert_int_equal(registry_parse_later(&f->inv, f->out), r);
		assert_null(f->inv.words);
		assert_int_equal(reply_is_error(f->out), reply_is_error(out));
		if (r < 0) {
			assert_string_equal(reply_error_text(f->out), reply_error_text(out));
			continue;
		}
		for (int k = 0; k < CMD_MAX_OPTS; k++) {
			assert_int_equal(f->inv.args[k].set, whole.args[k].set);
			assert_int_equal(f->inv.args[k].i, whole.args[k].i);
			assert_int_equal(f->inv.args[k].named, whole.args[k].named);
			assert_int_equal(f->inv.args[k].quoted, whole.args[k].quoted);
			if (whole.args[k].s != NULL)
				assert_string_equal(f->inv.args[k].s, whole.args[k].s);
		}
		invocation_clear(&whole);
	}
	reply_free(out);
}

static void
expect_error(struct fixture *f, const char *line, const char *msg)
{
	assert_int_equal(parse(f, line), -1);
	assert_true(reply_is_error(f->out));
	assert_string_equal(reply_error_text(f->out), msg);
}

/* recheck4 F3: a value holding a character the reply shows as nothing
 * (U+200B, U+202E) was quoted as if right ("got '2'"; the reply removes the
 * character): the error names it. */
static void
invisible_characters_are_named(void **state)
{
	struct fixture *f = *state;

	expect_error(f,
	             "room set paint red coats:\xe2\x80\x8b"
	             "2",
	             "Coats must be a whole number from 1 to 3 (got '2' with an "
	             "invisible character U+200B at column 1); usage: /room set paint <red|green> "
	             "[coats] [note]");
	expect_error(f,
	             "room set paint re\xe2\x80\xae"
	             "d",
	             "Colour must be one of red, green (got 'red' with an invisible "
	             "character U+202E at column 3); usage: /room set paint <red|green> [coats] "
	             "[note]");
	/* recheck5 F4: no "did you mean red?" for the word the reply shows */
	expect_error(f,
	             "room set paint gre\xc2\xad"
	             "en",
	             "Colour must be one of red, green (got 'green' with an invisible "
	             "character U+00AD at column 4); usage: /room set paint <red|green> [coats] "
	             "[note]");
	expect_error(f, "say loud:\xe2\x80\x8byes hi",
	             "Loud must be true or false, yes or no, on or off, 1 or 0 (got "
	             "'yes' with an invisible character U+200B at column 1); usage: "
	             "/say <text> [loud:true|false] [times:N]");
	/* recheck6 F9: a word with no place that shows as nothing is the
	 * character it holds, not "Unexpected ''" */
	expect_error(f, "room look \xe2\x80\x8b",
	             "Unexpected invisible character U+200B; usage: /room look");
	expect_error(f, "room look \xef\xbb\xbf\xe2\x80\xae",
	             "Unexpected invisible character U+FEFF; usage: /room look");
	expect_error(f, "room look x\xe2\x80\x8b",
	             "Unexpected 'x' with an invisible character U+200B at column 2; usage: "
	             "/room look");
}

/* recheck5 F8: a word typed where a number goes that is a number but for
 * an invisible character was passed on to the text option after it
 * ("/light add torch 2<U+200B>" lit one torch carried by "2"): it is
 * refused, naming the character. A word that is text either way stays
 * text. */
static void
invisible_character_keeps_a_number_a_number(void **state)
{
	struct fixture *f = *state;

	expect_error(f, "room set paint red 2\xe2\x80\x8b",
	             "Coats must be a whole number from 1 to 3 (got '2' with an "
	             "invisible character U+200B at column 2); usage: /room set paint <red|green> "
	             "[coats] [note]");
	assert_int_equal(parse(f, "room set paint red b\xe2\x80\x8bob"), 0);
	assert_string_equal(invocation_str(&f->inv, "note"), "b\xe2\x80\x8bob");
}

static void
errors_say_what_is_allowed(void **state)
{
	struct fixture *f = *state;

	expect_error(f, "room set paint blue",
	             "Colour must be one of red, green (got 'blue'); usage: /room set paint "
	             "<red|green> [coats] [note]");
	expect_error(f, "room set paint red 4",
	             "Coats must be a whole number from 1 to 3 (got '4'); usage: /room set paint "
	             "<red|green> [coats] [note]");
	/* x stands where the coats go, and y finds only coats left: x, no
	 * number, is the slip (not y, which fits the note) */
	expect_error(f, "room set paint red x y",
	             "Coats must be a whole number from 1 to 3 (got 'x'); usage: /room set paint "
	             "<red|green> [coats] [note]");
	expect_error(
	    f, "room set paint red 1 elevenbytes",
	    "Note is too long: at most 10 bytes (got 11); usage: /room set paint <red|green> "
	    "[coats] [note]");
	expect_error(f, "room set paint red 1 ok extra",
	             "Unexpected 'extra' ('ok' before it filled note:, the last place); usage: "
	             "/room set paint <red|green> [coats] [note]");
	/* hidden12: a misspelt option name was blamed on the next option's
	 * value ("Secret must be true or false (got 'private:true')"). */
	expect_error(f, "room set paint red 1 ok coat:2",
	             "'coat:' is no option of this command (its options are colour:, coats: and "
	             "note:); did you mean coats:?; usage: /room set paint <red|green> [coats] "
	             "[note]");
	expect_error(f, "room set paint color:red",
	             "'color:' is no option of this command (its options are colour:, coats: and "
	             "note:); did you mean colour:?; usage: /room set paint <red|green> [coats] "
	             "[note]");
	expect_error(f, "room look at:door",
	             "'at:' is no option of this command, which takes none; usage: /room look");
	/* A word with a colon is still a value where an option takes text. */
	assert_int_equal(parse(f, "room set paint red 1 a:b"), 0);
	assert_string_equal(invocation_str(&f->inv, "note"), "a:b");
	invocation_clear(&f->inv);
	expect_error(f, "room set paint",
	             "No value given for colour (a colour); usage: /room set paint <red|green> "
	             "[coats] [note]");
	/* play-test 2: type:fire type:ice kept ice without a word */
	expect_error(f, "room set paint red coats:1 coats:2",
	             "The option coats: is given twice (the second: coats:2); give each option "
	             "once; usage: /room set paint <red|green> [coats] [note]");
	expect_error(f, "room set paint red 2 coats:3 # x",
	             "The option coats: is given twice (the second: coats:3); give each option "
	             "once; usage: /room set paint <red|green> [coats] [note]");
	expect_error(
	    f, "say loud:maybe hi",
	    "Loud must be true or false, yes or no, on or off, 1 or 0 (got 'maybe'); usage: /say "
	    "<text> [loud:true|false] [times:N]");
	expect_error(f, "say",
	             "No value given for text (what to say); usage: /say <text> [loud:true|false] "
	             "[times:N]");
	expect_error(f, "room set", "A subcommand is needed; usage: /room set <paint|wipe>");
	expect_error(f, "room set fly", "Unknown subcommand 'fly'; usage: /room set <paint|wipe>");
	expect_error(f, "room dance", "Unknown subcommand 'dance'; usage: /room <look|set>");
	expect_error(f, "dance",
	             "Unknown command 'dance'; the commands are say, room, secret (try "
	             "/help).");
	expect_error(f, "   ", "No command given; try /help.");
	expect_error(f, "room set paint red # label",
	             "This command takes no '# label'; usage: "
	             "/room set paint <red|green> [coats] [note]");
}

/* newcomer F4: a yes/no option's refusal said "true or false" while yes,
 * no, on, off, 1 and 0 were taken too. Every value the refusal names is
 * taken, in any case, with the meaning its place in the pair gives; a
 * value it does not name is refused. */
static void
yes_no_refusal_names_what_is_taken(void **state)
{
	struct fixture *f = *state;
	const char *prefix = "Loud must be ", *text, *end;
	char word[16], line[64];
	size_t nwords = 0;

	assert_int_equal(parse(f, "say loud:maybe hi"), -1);
	text = reply_error_text(f->out);
	assert_memory_equal(text, prefix, strlen(prefix));
	text += strlen(prefix);
	end = strstr(text, " (got 'maybe')");
	assert_non_null(end);
	/* "true or false, yes or no, ...": each pair's yes, then its no */
	while (text < end) {
		size_t n = strcspn(text, " ,");
		bool yes = nwords % 2 == 0;

		assert_true(n > 0 && n < sizeof(word));
		snprintf(word, sizeof(word), "%.*s", (int)n, text);
		for (int upper = 0; upper < 2; upper++) {
			for (size_t i = 0; upper && word[i] != '\0'; i++)
				word[i] = (char)toupper((unsigned char)word[i]);
			snprintf(line, sizeof(line), "say hi loud:%s", word);
			assert_int_equal(parse(f, line), 0);
			assert_true(invocation_has(&f->inv, "loud"));
			assert_true(invocation_bool(&f->inv, "loud", !yes) == yes);
		}
		nwords++;
		text += n;
		text += strncmp(text, " or ", 4) == 0 ? 4 : strncmp(text, ", ", 2) == 0 ? 2 : 0;
	}
	assert_int_equal(nwords, 8);
	expect_error(f, "say hi loud:y",
	             "Loud must be true or false, yes or no, on or off, 1 or 0 (got 'y'); usage: "
	             "/say <text> [loud:true|false] [times:N]");
	expect_error(f, "say hi loud:2",
	             "Loud must be true or false, yes or no, on or off, 1 or 0 (got '2'); usage: "
	             "/say <text> [loud:true|false] [times:N]");
}

static void
default_subcommand(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse(f, "room"), 0);
	assert_ptr_equal(f->inv.cmd, &room_subs[0]);
}

static void
too_many_words(void **state)
{
	struct fixture *f = *state;
	char line[1024] = "say";
	size_t len = 3;

	for (int i = 0; i < 130; i++, len += 2)
		memcpy(line + len, " w", 3);
	expect_error(f, line, "That command has more than 128 words; shorten it.");
}

static void
usage_text(void **state)
{
	const struct command *path[3] = {&say, NULL, NULL};
	char buf[200];

	registry_usage_of(path, buf, sizeof(buf));
	assert_string_equal(buf, "/say <text> [loud:true|false] [times:N]");
	path[0] = &room;
	registry_usage_of(path, buf, sizeof(buf));
	assert_string_equal(buf, "/room <look|set>");
	/* a short buffer is cut, never overrun */
	registry_usage_of(path, buf, 6);
	assert_string_equal(buf, "/room");
}

/* --- dispatch --- */

static int persisted, fail_persist;

static int
persist(struct channel *ch, void *ctx)
{
	(void)ch;
	(void)ctx;
	persisted++;
	return fail_persist ? -1 : 0;
}

/* The store of a dispatcher made with persistence counted (tdispatch). */
static struct memstore counted;

/* A dispatcher over o's fresh state (and RNG, if any); with count set,
 * the channel records its commands touch are handed to persist(). */
static struct dispatch *
tdispatch(struct dispatch_opts o, bool count)
{
	struct dispatch *d = dispatch_new(&o);

	if (count) {
		memstore_init(&counted, o.state);
		counted.chan_fn = persist;
		dispatch_set_store(d, &memstore_ops, &counted);
	}
	return d;
}

/* Frees d with its state and RNG. */
static void
tfree(struct dispatch *d)
{
	struct state *st = dispatch_state(d);
	struct rng *rng = dispatch_rng(d);

	dispatch_free(d);
	memstore_clear(&counted);
	state_free(st);
	rng_free(rng);
}

static void
run(struct dispatch *d, const char *user, bool admin, const char *line, struct reply *out)
{
	struct origin o = {.platform = "test"};

	snprintf(o.chan_key, sizeof(o.chan_key), "test:chan");
	snprintf(o.user_key, sizeof(o.user_key), "test:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	o.platform_admin = admin;
	reply_clear(out);
	dispatch_line(d, &o, line, strlen(line), 1000, out);
}

/* run(), then the reply's plain text (the caller's to free). */
static char *
run_plain(struct dispatch *d, const char *user, bool admin, const char *line, struct reply *out)
{
	run(d, user, admin, line, out);
	return reply_plain(out);
}

static void
gm_only_is_enforced(void **state)
{
	struct dispatch *d =
	    tdispatch((struct dispatch_opts){.state = state_new(), .commands = table}, false);
	struct reply *out = reply_new();
	struct channel *ch;

	ran = 0;
	run(d, "bob", false, "/secret", out);
	assert_int_equal(ran, 0);
	assert_string_equal(reply_error_text(out), "Only the GM can do that, and nobody is GM here "
	                                           "yet; /gm claim makes you the GM.");
	ch = state_channel(dispatch_state(d), "test:chan");
	channel_set_gm(ch, "test:alice", "Alice");
	run(d, "bob", false, "secret", out);
	assert_int_equal(ran, 0);
	assert_string_equal(reply_error_text(out),
	                    "Only the GM can do that here; the GM is Alice.");
	/* a GM-only node deep in the path is enforced too */
	run(d, "bob", false, "room set wipe", out);
	assert_int_equal(ran, 0);
	run(d, "alice", false, "room set wipe", out);
	assert_int_equal(ran, 1);
	/* platform admins act as GM */
	run(d, "carol", true, "secret", out);
	assert_int_equal(ran, 2);
	reply_free(out);
	tfree(d);
}

static void
touched_records_are_persisted_before_reply(void **state)
{
	struct dispatch *d =
	    tdispatch((struct dispatch_opts){.state = state_new(), .commands = table}, true);
	struct reply *out = reply_new();
	char *text;

	persisted = fail_persist = 0;
	run(d, "alice", true, "say hi", out);
	assert_int_equal(persisted, 0); /* nothing changed, nothing written */
	run(d, "alice", true, "secret", out);
	assert_int_equal(persisted, 1);
	text = reply_plain(out);
	assert_string_equal(text, "changed\n");
	free(text);
	fail_persist = 1;
	run(d, "alice", true, "secret", out);
	assert_int_equal(persisted, 2);
	text = reply_plain(out);
	assert_string_equal(text, "changed\nWarning: this change could not be saved yet and may "
	                          "be lost if the bot restarts.\n");
	free(text);
	reply_free(out);
	tfree(d);
}

static void
bad_bytes_are_refused(void **state)
{
	struct dispatch *d =
	    tdispatch((struct dispatch_opts){.state = state_new(), .commands = table}, false);
	struct reply *out = reply_new();
	struct origin o = {.platform = "test", .chan_key = "c", .user_key = "u", .user_name = "u"};
	char big[2002];

	ran = 0;
	dispatch_line(d, &o, "say a\0b", 7, 0, out);
	assert_string_equal(reply_error_text(out),
	                    "That message contains a NUL byte; send plain text.");
	reply_clear(out);
	dispatch_line(d, &o, "say \xc3\x28", 6, 0, out);
	assert_string_equal(reply_error_text(out),
	                    "That message is not valid UTF-8 text; send plain text.");
	reply_clear(out);
	memset(big, 'a', sizeof(big));
	dispatch_line(d, &o, big, 2001, 0, out);
	assert_string_equal(
	    reply_error_text(out),
	    "That message is 2001 bytes long; a command may be at most 2000 bytes.");
	reply_clear(out);
	dispatch_line(d, &o, "say \x01", 5, 0, out);
	assert_true(reply_is_error(out));
	assert_int_equal(ran, 0);
	assert_int_equal(state_nchannels(dispatch_state(d)), 0);
	reply_free(out);
	tfree(d);
}

/* Game state made by a command that changed nothing is not kept. */
static void
read_only_commands_keep_no_game_state(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	struct channel *ch;

	run(d, "alice", false, "/tension", out);
	run(d, "alice", false, "/fungeon party", out);
	run(d, "alice", false, "/turn", out);
	ch = state_channel_find(dispatch_state(d), "test:chan");
	assert_non_null(ch);
	for (int i = 0; i < CHANMOD_COUNT; i++)
		assert_null(channel_mod_peek(ch, (enum chanmod_id)i));
	/* a change keeps the state it made */
	run(d, "alice", true, "/tension raise combat", out);
	assert_false(reply_is_error(out));
	assert_non_null(channel_mod_peek(ch, CHANMOD_TENSION));
	run(d, "alice", false, "/tension", out);
	assert_non_null(channel_mod_peek(ch, CHANMOD_TENSION));
	reply_free(out);
	tfree(d);
}

/* A label with a right-to-left override before "+ 0 = 14" would show the
 * total as 41: the override never reaches the reply. */
static void
roll_label_cannot_reorder_the_total(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	char *plain;

	run(d, "alice", false,
	    "/roll 1d20[\xE2\x80\xAE"
	    "fire] + 0 # \xE2\x81\xA7x\xE2\x80\x8B\xC2\x85y",
	    out);
	assert_false(reply_is_error(out));
	plain = reply_plain(out);
	assert_string_equal(plain, "alice rolls x y\n1d20[fire] + 0: [15] fire + 0 = 15\n");
	free(plain);
	reply_free(out);
	tfree(d);
}

/* recheck4 F3: "/help <U+200B>roll" said there is no command 'roll', then
 * listed roll; a command, subcommand or help topic name holding an
 * invisible character is refused naming it. */
static void
invisible_character_in_a_name(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	static const char *const commands =
	    "; the commands are roll, gmroll, gm, tension, table, fungeon, thwacko, xp, hazard, "
	    "turn, light, rest, wander, surprise, procedure, safe, panel, vendor, bargain, "
	    "encumbrance, save, saved, log, settings, undo, help";
	char want[600];

	(void)state;
	run(d, "alice", false, "/help \xe2\x80\x8broll", out);
	snprintf(want, sizeof(want),
	         "There is no command 'roll' with an invisible character U+200B at column 1%s.",
	         commands);
	assert_string_equal(reply_error_text(out), want);
	run(d, "alice", false, "/r\xe2\x80\xaeoll 1d6", out);
	snprintf(want, sizeof(want),
	         "Unknown command 'roll' with an invisible character U+202E at column 2%s (try "
	         "/help).",
	         commands);
	assert_string_equal(reply_error_text(out), want);
	run(d, "alice", false, "/help roll ma\xe2\x80\x8brks", out);
	assert_string_equal(
	    reply_error_text(out),
	    "There is no topic 'marks' with an invisible character U+200B at "
	    "column 3 in the help on /roll; its topics are notation, marks, rulings "
	    "and limits.");
	run(d, "alice", false,
	    "/light a\xe2\x80\x8b"
	    "dd torch",
	    out);
	assert_string_equal(reply_error_text(out),
	                    "Unknown subcommand 'add' with an invisible character U+200B at column "
	                    "2; usage: /light <list|add|out|flicker|fail|low|refill>");
	reply_free(out);
	tfree(d);
}

/* On the console an unknown name may be a slip for one of the console's
 * own lines (as, channel, quit), and the list of commands names them;
 * elsewhere they are neither guessed nor listed. */
static void
console_lines_in_unknown(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	struct origin o = {.platform = "console"};
	static const char *const lines[] = {"/qiut", "/help qiut"};
	static const char *const want[] = {
	    /* newcomer F3: the suggestion alone */
	    "Unknown command 'qiut'; did you mean /quit?",
	    "There is no command 'qiut'; did you mean /quit?",
	};

	snprintf(o.chan_key, sizeof(o.chan_key), "console:table");
	snprintf(o.user_key, sizeof(o.user_key), "console:gm");
	snprintf(o.user_name, sizeof(o.user_name), "gm");
	for (size_t i = 0; i < 2; i++) {
		reply_clear(out);
		dispatch_line(d, &o, lines[i], strlen(lines[i]), 1000, out);
		assert_true(reply_is_error(out));
		assert_string_equal(reply_error_text(out), want[i]);
	}
	run(d, "alice", false, "/qiut", out);
	assert_string_equal(reply_error_text(out),
	                    "Unknown command 'qiut'; the commands are roll, gmroll, gm, tension, "
	                    "table, fungeon, thwacko, xp, hazard, turn, light, rest, wander, "
	                    "surprise, procedure, safe, panel, vendor, bargain, encumbrance, save, "
	                    "saved, log, settings, undo, help (try /help).");
	reply_free(out);
	tfree(d);
}

/* /r is /roll; a slip in a command, subcommand or choice names the word
 * meant; a bare number goes to the one amount a command takes. */
static void
shortcuts_and_suggestions(void **state)
{
	static const struct {
		const char *line, *error;
	} t[] = {
	    {"/rol 2d6", "Unknown command 'rol'; did you mean /roll?"},
	    {"/hazard tabel", "Unknown subcommand 'tabel' (did you mean table?); usage: /hazard "},
	    {"/light add torches", "Kind must be one of torch, lantern, candle (got 'torches'; did "
	                           "you mean torch?); usage: "},
	    {"/fungeon jion", "Unknown subcommand 'jion' (did you mean join?); usage: "},
	    {"/lihgt", "Unknown command 'lihgt'; did you mean /light?"},
	    /* /help names the closest command as the command line does. */
	    {"/help rol", "There is no command 'rol'; did you mean /roll?"},
	    {"/help zzz", "There is no command 'zzz'; the commands are roll, gmroll, gm, "},
	    {"/help hazard tabel", "There is no subcommand 'tabel' of /hazard; did you mean "
	                           "/hazard table? Its subcommands are roll, show, table, chance, "
	                           "custom, procedure, who, sign and fatigue."},
	    {"/help gm zzz", "There is no subcommand 'zzz' of /gm; its subcommands are show, "
	                     "claim, release and secret-channel."},
	    {"/help xp x", "There is no subcommand 'x' of /xp, which has none; /help xp explains "
	                   "it."},
	    {"/help roll mraks", "There is no topic 'mraks' in the help on /roll; did you mean "
	                         "/help roll marks? Its topics are notation, marks, rulings and "
	                         "limits."},
	    /* Too far from anything, or as close to two: no guess. */
	    {"/zzz", "Unknown command 'zzz'; the commands are "},
	};
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	char *plain;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(d, "alice", true, t[i].line, out);
		assert_true(reply_is_error(out));
		if (strncmp(reply_error_text(out), t[i].error, strlen(t[i].error)) != 0)
			fail_msg("%s: got \"%s\"", t[i].line, reply_error_text(out));
	}
	run(d, "alice", false, "/r 2d6 # fire", out);
	assert_false(reply_is_error(out));
	plain = reply_plain(out);
	assert_string_equal(plain, "alice rolls fire\n2d6: [5, 4] = 9\n");
	free(plain);
	run(d, "alice", true, "/tension raise 2 # noise", out);
	assert_false(reply_is_error(out));
	plain = reply_plain(out);
	assert_non_null(strstr(plain, "Tension raised 1 → 3 (+2): noise."));
	free(plain);
	/* A word that is a value of the default subcommand stays one. */
	run(d, "alice", false, "/hazard delving", out);
	assert_false(reply_is_error(out));
	assert_string_equal(registry_suggest("tabel", (const char *const[]){"table", "cable"}, 2),
	                    "table");
	assert_null(registry_suggest("tble", (const char *const[]){"table", "tale"}, 2));
	assert_null(registry_suggest("x", (const char *const[]){"roll"}, 1));
	/* recheck F10: a tie goes to the one candidate the word begins */
	assert_string_equal(registry_suggest("of", (const char *const[]){"on", "off"}, 2), "off");
	assert_null(registry_suggest("ab", (const char *const[]){"abc", "abd"}, 2));
	reply_free(out);
	tfree(d);
}

/* recheck2 F9: the start of a command, subcommand, option or choice is
 * typed for it (as /procedure takes a section by its start), so it gets
 * the "did you mean" a slip gets; a start that several share names each
 * of them; a word within a slip of two names none, as before. */
static void
f9_the_start_of_a_word_is_suggested(void **state)
{
	static const struct {
		const char *line, *error;
	} t[] = {
	    {"/hazard table explor", "Table must be one of exploration, delving, classic, custom "
	                             "(got 'explor'; did you mean exploration?); usage: /hazard "
	                             "table <exploration|delving|classic|custom>"},
	    {"/tension mode hid", "Mode must be one of open, hidden (got 'hid'; did you mean "
	                          "hidden?); usage: /tension mode <open|hidden>"},
	    {"/gm cl", "Unknown subcommand 'cl' (did you mean claim?); usage: /gm "
	               "<show|claim|release|secret-channel>"},
	    {"/light add t", "Kind must be one of torch, lantern, candle (got 't'; did you mean "
	                     "torch?); usage: /light add <torch|lantern|candle> [count] [who]"},
	    {"/hazard table c", "Table must be one of exploration, delving, classic, custom (got "
	                        "'c'; did you mean classic or custom?); usage: /hazard table "
	                        "<exploration|delving|classic|custom>"},
	    {"/gm s", "Unknown subcommand 's' (did you mean show or secret-channel?); usage: /gm "
	              "<show|claim|release|secret-channel>"},
	    {"/thw", "Unknown command 'thw'; did you mean /thwacko?"},
	    {"/t", "Unknown command 't'; did you mean /tension, /table, /thwacko or /turn?"},
	    {"/help hazard c", "There is no subcommand 'c' of /hazard; did you mean /hazard chance "
	                       "or /hazard custom? Its subcommands are roll, show, table, chance, "
	                       "custom, procedure, who, sign and fatigue."},
	    {"/tension raise 1 rea:x",
	     "'rea:' is no option of this command (its options are event:, reason: and amount:); "
	     "did you mean reason:?; usage: /tension raise "
	     "[door|quiet-combat|combat|enemy-escaped] [reason] [amount:N]"},
	    {"/settings natural onf", "Mode must be one of on, off (got 'onf'); usage: /settings "
	                              "natural <on|off>"},
	};
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	const char *found[2];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(d, "alice", true, t[i].line, out);
		assert_true(reply_is_error(out));
		if (strcmp(reply_error_text(out), t[i].error) != 0)
			fail_msg("%s: got \"%s\"", t[i].line, reply_error_text(out));
	}
	/* the word itself alone, each shared start once, and no more than
	 * asked for are written */
	assert_int_equal(
	    registry_suggest_all("On", (const char *const[]){"one", "on"}, 2, found, 2), 1);
	assert_string_equal(found[0], "on");
	assert_int_equal(
	    registry_suggest_all("a", (const char *const[]){"ab", "AB", "ac"}, 3, found, 1), 2);
	assert_string_equal(found[0], "ab");
	assert_string_equal(registry_suggest("cl", (const char *const[]){"claim", "release"}, 2),
	                    "claim");
	assert_null(registry_suggest("", (const char *const[]){"claim"}, 1));
	reply_free(out);
	tfree(d);
}

/* recheck3 F4: a rest-of-line text typed as one quoted word is that text
 * without its quotes, as it is given by name: the command the private:
 * refusal of /roll shows ("/roll "1d20 # insight" private:true") rolls;
 * quotes among other words stay. */
static void
quoted_rest_is_its_text(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	char *plain;

	(void)state;
	run(d, "alice", false, "/roll \"1d20 # insight\" private:true", out);
	assert_false(reply_is_error(out));
	plain = reply_plain(out);
	assert_string_equal(plain, "[private]\nalice rolls insight\n1d20: [15] = 15\n");
	free(plain);
	plain = run_plain(d, "alice", false, "/roll 1d20 # \"a\" b", out);
	assert_string_equal(plain, "alice rolls \"a\" b\n1d20: [11] = 11\n");
	free(plain);
	reply_free(out);
	tfree(d);
}

/* adv and dis double the plain d20 and keep the better or the worse;
 * a lone d20's natural 20 and 1 are marked, and nothing else is. */
static void
advantage_and_naturals(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	int n20 = 0, n1 = 0;
	char *plain;

	plain = run_plain(d, "alice", false, "/roll 1d20+5 adv # attack", out);
	assert_string_equal(plain, "alice rolls attack\n2d20kh1 + 5: [15, 11] + 5 = 20\n");
	free(plain);
	assert_string_equal(reply_msg(out, REPLY_CHANNEL)->buttons[0].action,
	                    "roll 1d20+5 adv # attack");
	plain = run_plain(d, "alice", false, "/r 3 + D20 DIS", out);
	assert_string_equal(plain, "alice rolls\n3 + 2d20kl1: 3 + [12, 8] = 11\n");
	free(plain);
	run(d, "alice", false, "/roll 2d6 adv", out);
	assert_string_equal(reply_error_text(out), "Adv rolls a plain d20 twice and this roll has "
	                                           "none; write it as in 1d20+5 adv.");
	run(d, "alice", false, "/roll 11d20 dis", out);
	assert_true(reply_is_error(out));
	/* "advantage" is not the word adv: the dice engine refuses it. */
	run(d, "alice", false, "/roll d20 advantage", out);
	assert_true(reply_is_error(out));
	for (int i = 0; i < 200; i++) {
		plain =
		    run_plain(d, "alice", false, i % 2 == 0 ? "/roll d20+4" : "/roll d20+d4", out);
		if (i % 2 == 1)
			assert_null(strstr(plain, "Natural"));
		else if (strstr(plain, "[20]") != NULL && ++n20)
			assert_non_null(strstr(plain, "\nNatural 20!\n"));
		else if (strstr(plain, "[1]") != NULL && ++n1)
			assert_non_null(strstr(plain, "\nNatural 1.\n"));
		else
			assert_null(strstr(plain, "Natural"));
		free(plain);
	}
	/* Seed 1 rolls both within these rolls. */
	assert_int_equal(n20, 1);
	assert_int_equal(n1, 5);
	reply_free(out);
	tfree(d);
}

/* /log shows the channel's last rolls, newest first, never a private one;
 * it keeps ROLLCHAN_LOG_MAX. /settings natural off is the GM's and stops the
 * natural marks. */
static void
roll_log_and_settings(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	struct channel *ch;
	char *plain;

	plain = run_plain(d, "alice", false, "/log", out);
	assert_string_equal(plain, "No rolls here yet; /roll rolls dice (private and secret rolls "
	                           "are not in this log).\n");
	free(plain);
	run(d, "alice", false, "/roll d20+2 # attack", out);
	run(d, "bob", false, "/roll d20 private:true", out);
	run(d, "bob", false, "/r 3x 2d6; 1", out);
	plain = run_plain(d, "alice", false, "/log", out);
	assert_string_equal(plain, "The last 2 rolls here, newest first\n"
	                           "  just now | bob | 3x 2d6; 1 | 7, 6, 4, 1\n"
	                           "  just now | alice | 1d20 + 2 # attack | 17\n");
	free(plain);
	for (int i = 0; i < 30; i++)
		run(d, "alice", false, "/roll 1", out);
	ch = state_channel_find(dispatch_state(d), "test:chan");
	assert_int_equal(((struct rollchan *)channel_mod_peek(ch, CHANMOD_ROLL))->nlog,
	                 ROLLCHAN_LOG_MAX);
	run(d, "bob", false, "/settings natural off", out);
	assert_true(reply_is_error(out));
	run(d, "alice", true, "/settings natural off", out);
	assert_false(reply_is_error(out));
	for (int i = 0; i < 60; i++) {
		plain = run_plain(d, "alice", false, "/roll d20", out);
		assert_null(strstr(plain, "Natural"));
		free(plain);
	}
	plain = run_plain(d, "alice", false, "/settings", out);
	assert_string_equal(plain,
	                    "Natural 20 and 1 marks on a lone d20: off.\nCompact output: off.\n"
	                    "GM: /settings natural on or off, /settings compact on or off.\n");
	free(plain);
	reply_free(out);
	tfree(d);
}

/* Counts the lines of the plain reply that start with prefix. */
static int
lines_with(const char *plain, const char *prefix)
{
	int n = 0;

	for (const char *p = plain; p != NULL && *p;
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += strncmp(p, prefix, strlen(prefix)) == 0;
	return n;
}

/* Compact output: a hazard roll shows its rolled row alone, and the
 * Darkness line only when it is new; full output shows both every time. */
static void
compact_output(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	char *plain;

	plain = run_plain(d, "gm", true, "/hazard roll", out);
	assert_int_equal(lines_with(plain, "  "), 4); /* four rows not rolled */
	assert_int_equal(lines_with(plain, "> "), 1);
	assert_int_equal(lines_with(plain, "Darkness:"), 1);
	free(plain);
	run(d, "bob", false, "/settings compact on", out);
	assert_true(reply_is_error(out));
	run(d, "gm", true, "/settings compact on", out);
	assert_false(reply_is_error(out));
	for (int i = 0; i < 3; i++) {
		plain = run_plain(d, "gm", true, "/hazard roll", out);
		/* No table: the Rolled line says what the row said, and opens
		 * with the heading. */
		assert_int_equal(lines_with(plain, "  "), 0);
		assert_int_equal(lines_with(plain, "> "), 0);
		assert_int_equal(lines_with(plain, "Hazard die: turn "), 1);
		assert_non_null(strstr(plain, " · Rolled "));
		assert_int_equal(lines_with(plain, "Darkness:"), i == 0);
		free(plain);
	}
	/* A roll is one line, who rolls first; repeats one line each; no
	 * button. */
	plain = run_plain(d, "gm", true, "/roll 1d20+5 # attack", out);
	assert_string_equal(plain, "gm rolls attack · 1d20 + 5: [14] + 5 = 19\n");
	assert_int_equal(reply_msg(out, REPLY_CHANNEL)->nbuttons, 0);
	free(plain);
	plain = run_plain(d, "gm", true, "/roll 2d6", out);
	assert_string_equal(plain, "gm rolls 2d6: [1, 1] = 2\n");
	free(plain);
	/* A natural 20 or 1 closes the roll's line. */
	for (int i = 0; i < 100; i++) {
		plain = run_plain(d, "gm", true, "/roll 1d20", out);
		if (strstr(plain, "Natural") != NULL)
			break;
		free(plain);
		plain = NULL;
	}
	assert_non_null(plain);
	assert_true(strcmp(plain, "gm rolls 1d20: [20] = 20 · Natural 20!\n") == 0 ||
	            strcmp(plain, "gm rolls 1d20: [1] = 1 · Natural 1.\n") == 0);
	free(plain);
	run(d, "gm", true, "/roll 2x d4; d6 # both", out);
	plain = reply_plain(out);
	assert_string_equal(plain,
	                    "gm rolls both · 2x 1d4\n 1: [4] = 4\n 2: [3] = 3\n1d6: [4] = 4\n");
	free(plain);
	run(d, "gm", true, "/hazard show", out); /* the whole table stays here */
	plain = reply_plain(out);
	assert_int_equal(lines_with(plain, "  "), 5);
	free(plain);
	/* A turn with light, then dark again: the Darkness line is new once
	 * more in the next turn's footer. */
	run(d, "gm", true, "/light add candle", out);
	plain = run_plain(d, "gm", true, "/rest", out);
	assert_int_equal(lines_with(plain, "Darkness:"), 0);
	free(plain);
	run(d, "gm", true, "/light out all", out);
	plain = run_plain(d, "gm", true, "/rest", out);
	assert_int_equal(lines_with(plain, "Darkness:"), 1);
	free(plain);
	plain = run_plain(d, "gm", true, "/rest", out);
	assert_int_equal(lines_with(plain, "Darkness:"), 0);
	free(plain);
	reply_free(out);
	tfree(d);
}

/* Saved rolls: a player's own and the channel's (the GM's), rolled by
 * name with more after it; names never read as dice; bounded. */
static void
saved_rolls(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	char *plain, line[64];

	run(d, "alice", false, "/save fireball 8d6 # fire", out);
	assert_false(reply_is_error(out));
	plain = run_plain(d, "alice", false, "/roll fireball +2", out);
	assert_string_equal(plain,
	                    "alice rolls fire\n8d6 + 2: [5, 4, 4, 3, 5, 1, 1, 3] + 2 = 28\n");
	free(plain);
	plain = run_plain(d, "alice", false, "/r Fireball # big", out);
	assert_string_equal(plain, "alice rolls big\n8d6: [6, 4, 6, 6, 6, 5, 4, 6] = 43\n");
	free(plain);
	/* Bob has no fireball; the channel's is everyone's, a player's wins. */
	run(d, "bob", false, "/roll fireball", out);
	assert_string_equal(reply_error_text(out),
	                    "'fireball' is neither dice nor a saved roll "
	                    "here; /saved list lists the saved rolls, /help roll "
	                    "the notation.");
	run(d, "bob", false, "/save fireball 1 channel:true", out);
	assert_string_equal(reply_error_text(out), "Only the GM saves or deletes the channel's "
	                                           "rolls; save your own without channel:true.");
	run(d, "gm", true, "/save fireball 1 channel:true", out);
	assert_false(reply_is_error(out));
	plain = run_plain(d, "bob", false, "/roll fireball", out);
	assert_string_equal(plain, "bob rolls\n1: 1 = 1\n");
	free(plain);
	plain = run_plain(d, "alice", false, "/saved show fireball", out);
	assert_string_equal(plain, "[private]\nfireball = 8d6 # fire (yours)\n");
	free(plain);
	/* Names that could read as dice, and rolls that do not parse. */
	run(d, "alice", false, "/save d6 1d6", out);
	assert_true(reply_is_error(out));
	run(d, "alice", false, "/save adv 1d6", out);
	assert_string_equal(reply_error_text(out),
	                    "'adv' means advantage in a roll, so it cannot name a saved roll; pick "
	                    "another name.");
	/* newcomer F2: the refusal names the name and the rule it broke */
	run(d, "alice", false, "/save dagger 1d4+1", out);
	assert_string_equal(reply_error_text(out),
	                    "'dagger' starts with d, as dice do (d6), so it cannot name a saved "
	                    "roll; start it with another letter (e.g. my-dagger).");
	run(d, "alice", false, "/save 9lives 1d6", out);
	assert_string_equal(
	    reply_error_text(out),
	    "'9lives' does not start with a letter: a saved roll's name is 1 to 24 "
	    "letters (of any alphabet), digits, '-' or '_', starting with a letter other "
	    "than d.");
	run(d, "alice", false, "/save \"fire ball\" 1d6", out);
	assert_string_equal(reply_error_text(out),
	                    "'fire ball' holds a character other than those allowed: a saved "
	                    "roll's name is 1 to 24 letters (of any alphabet), digits, '-' or '_', "
	                    "starting with a letter other than d.");
	run(d, "alice", false, "/save atk 1d20+5 adv", out);
	assert_false(reply_is_error(out));
	plain = run_plain(d, "alice", false, "/roll atk # sword", out);
	assert_non_null(strstr(plain, "alice rolls sword\n2d20kh1 + 5: ["));
	free(plain);
	plain = run_plain(d, "alice", false, "/roll atk +2", out);
	assert_non_null(strstr(plain, "alice rolls\n2d20kh1 + 5 + 2: ["));
	free(plain);
	/* Its adv stays with its own roll in a ';' list. */
	run(d, "alice", false, "/roll atk +2; 2d6 # both", out);
	plain = reply_plain(out);
	assert_non_null(strstr(plain, "alice rolls both\n2d20kh1 + 5 + 2: ["));
	assert_non_null(strstr(plain, "\n2d6: ["));
	free(plain);
	run(d, "alice", false, "/save big 1d20 adv + 2", out);
	assert_string_equal(reply_error_text(out),
	                    "The word 'adv' at column 6 must come last in its roll (before any ';' "
	                    "or '# label'), as in 1d20+5 adv; 2d6.");
	run(d, "alice", false, "/saved delete atk", out);
	run(d, "alice", false, "/save x2 1d6+", out);
	assert_string_equal(reply_error_text(out),
	                    "That roll does not parse: expected a number or dice after '+' at "
	                    "column 5.");
	/* A player's own are bounded across channels. */
	for (int i = 0; i < USER_SAVED_MAX - 1; i++) {
		snprintf(line, sizeof(line), "/save r%d %d", i, i);
		run(d, "alice", false, line, out);
		assert_false(reply_is_error(out));
	}
	run(d, "alice", false, "/save one-more 1", out);
	assert_string_equal(reply_error_text(out),
	                    "You may keep at most 50 saved rolls; delete one with /saved delete "
	                    "NAME first.");
	run(d, "alice", false, "/saved delete fireball", out);
	assert_false(reply_is_error(out));
	run(d, "alice", false, "/save one-more 1", out);
	assert_false(reply_is_error(out));
	run(d, "alice", false, "/roll fireball", out); /* the channel's now */
	plain = reply_plain(out);
	assert_string_equal(plain, "alice rolls\n1: 1 = 1\n");
	free(plain);
	reply_free(out);
	tfree(d);
}

/* newcomer F25: a saved roll's name is 1 to 24 letters of any alphabet
 * (not 24 ASCII bytes), one name in capitals or small letters; a longer
 * one is refused as too long, quoted cut with a mark. */
static void
saved_names_of_any_alphabet(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)}, false);
	struct reply *out = reply_new();
	char *plain;

	run(d, "alice", false, "/save éclair 1d6", out);
	assert_false(reply_is_error(out));
	plain = run_plain(d, "alice", false, "/roll ÉCLAIR +1", out);
	assert_non_null(strstr(plain, "alice rolls\n1d6 + 1: ["));
	free(plain);
	run(d, "bob", false, "/roll éclair", out);
	assert_string_equal(reply_error_text(out),
	                    "'éclair' is neither dice nor a saved roll here; /saved list lists the "
	                    "saved rolls, /help roll the notation.");
	run(d, "gm", true, "/save жжжжжжжжжжжжжжжжжжжжжжжж 2d6 channel:true", out);
	assert_false(reply_is_error(out));
	plain = run_plain(d, "bob", false, "/roll ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ", out);
	assert_non_null(strstr(plain, "bob rolls\n2d6: ["));
	free(plain);
	run(d, "alice", false, "/save жжжжжжжжжжжжжжжжжжжжжжжжж 1d6", out);
	assert_string_equal(
	    reply_error_text(out),
	    "'жжжжжжжжжжжжжжжжжжжжжжжж…' is too long: a saved roll's name is 1 to 24 letters (of "
	    "any alphabet), digits, '-' or '_', starting with a letter other than "
	    "d.");
	run(d, "alice", false, "/save é-🐉 1d6", out);
	assert_string_equal(reply_error_text(out),
	                    "'é-🐉' holds a character other than those allowed: a saved roll's "
	                    "name is 1 to 24 letters (of any alphabet), digits, '-' or '_', "
	                    "starting with a letter other than d.");
	reply_free(out);
	tfree(d);
}

/* Compact output folds an empty step of a Fungeon hallway or combat turn
 * into one line; full output keeps the heading and its "None.". */
static void
compact_folds_empty_steps(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(2)}, false);
	struct reply *out = reply_new();
	char *plain;

	run(d, "gm", true, "/fungeon join Alba wizard 3", out);
	plain = run_plain(d, "gm", true, "/fungeon hallway", out);
	assert_non_null(strstr(plain, "\n1. Replacements\nNone.\n2. Level-ups\nNone.\n"));
	free(plain);
	run(d, "gm", true, "/fungeon monster add goblin level 3", out);
	run(d, "gm", true, "/fungeon enter waive:true", out);
	plain = run_plain(d, "gm", true, "/fungeon combat goblin", out);
	assert_non_null(strstr(plain, "1. Continuous monster features\nNone.\n2. Special "
	                              "abilities\nNone.\n3. Painful conflict\nAlba (gm): "));
	free(plain);
	run(d, "gm", true, "/settings compact on", out);
	plain = run_plain(d, "gm", true, "/fungeon combat goblin", out);
	assert_non_null(strstr(plain, "1. Continuous monster features: none.\n2. Special "
	                              "abilities: none.\n3. Painful conflict\n  1 | "));
	assert_null(strstr(plain, "None."));
	/* a Painful conflict's dice are in its rank table alone */
	assert_null(strstr(plain, "Alba (gm): "));
	free(plain);
	reply_free(out);
	tfree(d);
}

/* Compact output: a source lit with /light (not in a turn's footer), or a
 * new expedition, makes the next footer in the dark say Darkness again. */
static void
compact_darkness_after_light(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(3)}, false);
	struct reply *out = reply_new();
	char *plain;

	run(d, "gm", true, "/settings compact on", out);
	plain = run_plain(d, "gm", true, "/hazard roll", out);
	assert_int_equal(lines_with(plain, "Darkness:"), 1);
	free(plain);
	run(d, "gm", true, "/light add torch", out);
	plain = run_plain(d, "gm", true, "/turn advance 7", out);
	assert_non_null(strstr(plain, ": Torch #1 burns out.\n"));
	assert_int_equal(lines_with(plain, "Darkness:"), 1);
	free(plain);
	plain = run_plain(d, "gm", true, "/hazard roll", out);
	assert_int_equal(lines_with(plain, "Darkness:"), 0);
	free(plain);
	run(d, "gm", true, "/turn reset", out);
	plain = run_plain(d, "gm", true, "/hazard roll", out);
	assert_int_equal(lines_with(plain, "Darkness:"), 1);
	free(plain);
	reply_free(out);
	tfree(d);
}

/* Compact output: a turn, a wandering check and an Annoy roll start on
 * their heading's line (the heading is no title); a source lit with /light
 * makes the next dark footer say Darkness again. */
static void
compact_headings(void **state)
{
	struct dispatch *d = tdispatch(
	    (struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(3)}, false);
	struct reply *out = reply_new();
	char *plain;

	run(d, "gm", true, "/settings compact on", out);
	run(d, "gm", true, "/hazard roll", out);
	assert_null(reply_msg(out, REPLY_CHANNEL)->title);
	plain = reply_plain(out);
	assert_string_equal(
	    plain, "Hazard die: turn 1 · Rolled 5 on the d6 (exploration): Nothing.\n"
	           "Darkness: nothing is lit. Without light the party is effectively blind: a "
	           "setback on all rolls, movement halved, no reading, searching or spotting "
	           "danger (darkvision sees darkness as dim light); /light add lights a source.\n"
	           "Turn 1 (10 min in the dungeon); 1 turn since the last rest.\n");
	free(plain);
	run(d, "gm", true, "/rest hazard:false", out);
	assert_null(reply_msg(out, REPLY_CHANNEL)->title);
	plain = reply_plain(out);
	assert_string_equal(
	    plain, "Rest: turn 2 · The party rests this turn: the rest clock starts again.\n"
	           "Turn 2 (20 min in the dungeon); 0 turns since the last rest.\n");
	free(plain);
	run(d, "gm", true, "/light add torch", out);
	plain = run_plain(d, "gm", true, "/turn advance 7", out);
	assert_string_equal(
	    plain, "7 turns pass without a hazard roll · Turn 7: Torch #1 has 1 turn left: it goes "
	           "out at the end of the next turn.\n"
	           "Turn 8: Torch #1 burns out.\n"
	           "Turn 8: 6 turns without a rest: rest next turn (/rest), or each character "
	           "makes a CON save DC 12; on a failure gain 1 Fatigue.\n"
	           "Turn 9: The rest was skipped: each character makes a CON save DC 12; on a "
	           "failure gain 1 Fatigue.\n"
	           "Darkness: nothing is lit. Without light the party is effectively blind: a "
	           "setback on all rolls, movement halved, no reading, searching or spotting "
	           "danger (darkvision sees darkness as dim light); /light add lights a source.\n"
	           "Turn 9 (1 h 30 min in the dungeon); 7 turns since the last rest.\n");
	free(plain);
	plain = run_plain(d, "gm", true, "/wander check tension exits:2", out);
	assert_string_equal(plain, "Wandering check: D12 encounter check (exits 2, Tension 1) · "
	                           "d12: 8 → no wandering monsters.\n"
	                           "d12 8 > exits 2 and > tension 1.\n");
	free(plain);
	run(d, "gm", true, "/fungeon join Alba wizard 3", out);
	run(d, "gm", true, "/fungeon hallway", out);
	run(d, "gm", true, "/fungeon trap add spikes annoy 2 pain 1 type iron unlimited", out);
	run(d, "gm", true, "/fungeon enter waive:true", out);
	run(d, "gm", true, "/fungeon trigger spikes", out);
	assert_null(reply_msg(out, REPLY_CHANNEL)->title);
	plain = reply_plain(out);
	assert_string_equal(
	    plain, "Triggering spikes: an Annoy roll against its 2 Annoy dice · spikes: 2 5 "
	           "→ 5\n"
	           "Alba (gm): 4 3 3 → 4, fails\n"
	           "Narrative control: gm (Alba), Thwack-O 4.\n"
	           "Alba's Pain roll against spikes (1 Pain die):\n"
	           "  1 | ♣6 | 5 | Alba | 0 (no one it can hurt)\n"
	           "  2 | 6 | 0 | Alba | 0 (no one it can hurt)\n"
	           "  3 | 2 | 0 | Alba | 0 (no one it can hurt)\n"
	           "Alba takes 0: 15/15 hits.\n"
	           "Narrative control: gm (Alba), Thwack-O 6.\n"
	           "spikes has Unlimited Use: it can be triggered again.\n");
	free(plain);
	run(d, "gm", true, "/settings compact off", out);
	run(d, "gm", true, "/wander check", out);
	assert_string_equal(reply_msg(out, REPLY_CHANNEL)->title,
	                    "Wandering check: corridor leg (1-in-6)");
	plain = reply_plain(out);
	assert_string_equal(plain, "Wandering check: corridor leg (1-in-6)\n"
	                           "d6: 4 → no wandering monsters.\n");
	free(plain);
	reply_free(out);
	tfree(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(positional_named_and_rest, setup, teardown),
	    cmocka_unit_test_setup_teardown(channel_default_read_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(channel_default_bound_later, setup, teardown),
	    cmocka_unit_test_setup_teardown(named_rest_takes_the_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(bracket_label_is_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(hash_label_is_never_parsed, setup, teardown),
	    cmocka_unit_test_setup_teardown(quotes_group_words, setup, teardown),
	    cmocka_unit_test_setup_teardown(choices_are_canonical, setup, teardown),
	    cmocka_unit_test_setup_teardown(values_go_where_they_fit, setup, teardown),
	    cmocka_unit_test_setup_teardown(errors_say_what_is_allowed, setup, teardown),
	    cmocka_unit_test_setup_teardown(invisible_character_keeps_a_number_a_number, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(invisible_characters_are_named, setup, teardown),
	    cmocka_unit_test_setup_teardown(odds_are_one_value, setup, teardown),
	    cmocka_unit_test_setup_teardown(yes_no_refusal_names_what_is_taken, setup, teardown),
	    cmocka_unit_test_setup_teardown(default_subcommand, setup, teardown),
	    cmocka_unit_test_setup_teardown(too_many_words, setup, teardown),
	    cmocka_unit_test(usage_text),
	    cmocka_unit_test(gm_only_is_enforced),
	    cmocka_unit_test(touched_records_are_persisted_before_reply),
	    cmocka_unit_test(bad_bytes_are_refused),
	    cmocka_unit_test(read_only_commands_keep_no_game_state),
	    cmocka_unit_test(roll_label_cannot_reorder_the_total),
	    cmocka_unit_test(shortcuts_and_suggestions),
	    cmocka_unit_test(f9_the_start_of_a_word_is_suggested),
	    cmocka_unit_test(quoted_rest_is_its_text),
	    cmocka_unit_test(console_lines_in_unknown),
	    cmocka_unit_test(invisible_character_in_a_name),
	    cmocka_unit_test(advantage_and_naturals),
	    cmocka_unit_test(roll_log_and_settings),
	    cmocka_unit_test(saved_rolls),
	    cmocka_unit_test(saved_names_of_any_alphabet),
	    cmocka_unit_test(compact_output),
	    cmocka_unit_test(compact_folds_empty_steps),
	    cmocka_unit_test(compact_darkness_after_light),
	    cmocka_unit_test(compact_headings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
