/* Unit tests for bot/irc/irc_fmt (cleaning, cutting) and bot/irc/render_irc. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "bot/irc/render_irc.h"

static void
collect(void *ctx, const char *piece, size_t len)
{
	render_irc_lines_add(ctx, piece, len);
}

static struct irc_lines
split(const char *s, size_t budget)
{
	struct irc_lines l = {0};

	irc_fmt_split(s, strlen(s), budget, collect, &l);
	return l;
}

static void
test_clean(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 1024);
	irc_fmt_clean(&b, "a\r\nb\x01"
	                  "c\x03"
	                  "04d\x02"
	                  "e\tf\x7f"
	                  "g\x0f\x1e"
	                  "é");
	assert_string_equal(buf_str(&b), "a  bc04de fgé");
	buf_free(&b);
}

/* irc_fmt_split: lines of at most budget bytes, cut at a space when there
 * is one, never inside a character or a colour code, each line going on in
 * the formatting the one before left open. */
static void
test_split(void **state)
{
	static const struct {
		const char *in;
		size_t budget;
		const char *out[3]; /* the lines, then NULL */
	} cases[] = {
	    {"hello world", 100, {"hello world", NULL}},
	    {"", 100, {NULL}},
	    {"aaaa bbbb cccc dddd eeee ffff", 24, {"aaaa bbbb cccc dddd eeee", "ffff", NULL}},
	    /* 20 two-byte characters and no space: cut every 12 characters */
	    {"éééééééééééééééééééé", 25, {"éééééééééééé", "éééééééé", NULL}},
	    /* bold and a colour go on in the next line */
	    {"\x02\x03"
	     "04hello world this is long",
	     24,
	     {"\x02\x03"
	      "04hello world this is",
	      "\x02\x03"
	      "04long",
	      NULL}},
	    /* a reset before the cut: the next line starts plain */
	    {"\x02"
	     "bold\x0f plain words go on here",
	     24,
	     {"\x02"
	      "bold\x0f plain words go on",
	      "here", NULL}},
	    /* the budget ends inside "\x0304,05": the code moves whole */
	    {"abcdefghijklmnopqrstu\x03"
	     "04,05xyz",
	     24,
	     {"abcdefghijklmnopqrstu",
	      "\x03"
	      "04,05xyz",
	      NULL}},
	    /* a line in colour that starts with ",5" gets a guard, so that the
	     * text is not read as a background colour */
	    {"\x03"
	     "04aaaaaaaaaaaaaaaaaaa ,5 gold",
	     24,
	     {"\x03"
	      "04aaaaaaaaaaaaaaaaaaa",
	      "\x03"
	      "04\x02\x02,5 gold",
	      NULL}},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct irc_lines l = split(cases[k].in, cases[k].budget);
		size_t n = 0;

		while (cases[k].out[n] != NULL)
			n++;
		assert_int_equal(l.n, n);
		for (size_t i = 0; i < n; i++)
			assert_string_equal(l.v[i], cases[k].out[i]);
		render_irc_lines_free(&l);
	}
}

static void
test_strip(void **state)
{
	static const char in[] = "\x02"
	                         "a\x0f \x03"
	                         "04,05b\x03 c\x03"
	                         "7d \x1e~~1~~\x0f \x1d\x1f\x11\x16é\x03";
	static const char hex[] = "\x04"
	                          "FF00aaa\x04"
	                          "00ff00,000000b\x04"
	                          "c,12\x04"
	                          "000000d\x04"
	                          "1234z";
	struct buf b;

	(void)state;
	buf_init(&b, 1024);
	irc_fmt_strip(&b, in, strlen(in));
	assert_string_equal(buf_str(&b), "a b cd ~~1~~ é");
	/* Hex colours, as some clients send them: six digits, optionally a
	 * comma and six more; anything shorter is the code alone. */
	buf_reset(&b);
	irc_fmt_strip(&b, hex, strlen(hex));
	assert_string_equal(buf_str(&b), "abc,12d1234z");
	buf_free(&b);
}

static struct reply_msg *
msg(struct reply *r)
{
	return (struct reply_msg *)reply_msg(r, REPLY_CHANNEL);
}

static const struct render_irc_opts opts = {.budget = 400, .max_lines = 6, .prefix = "!"};

/* recheck15 F6: a Thwack-O die in yellow is drawn in mIRC's yellow (08),
 * not its orange (07), which clients show for a die called yellow. */
static void
test_render_yellow_is_yellow(void **state)
{
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_YELLOW, .mark = "●"};
	struct irc_lines l = {0};

	(void)state;
	reply_add_user(r, &us, 0, "6");
	reply_nl(r);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02\x03"
	                            "08\x02\x02●6\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

static void
test_render_spans(void **state)
{
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_BLUE, .mark = "★"};
	struct irc_lines l = {0};

	(void)state;
	reply_title(r, "Thwack-O");
	reply_add(r, 0, "total ");
	reply_add(r, RS_BOLD, "12");
	reply_add(r, 0, " ");
	reply_add_user(r, &us, 0, "6");
	reply_add(r, 0, " ");
	reply_add(r, RS_STRUCK, "1");
	reply_add(r, 0, " ");
	reply_add(r, RS_CRIT, "20");
	reply_add(r, RS_BAD, " fail");
	reply_nl(r);
	render_irc(msg(r), &opts, &l);
	/* Two short lines: packed into one. A struck die is marked one way,
	 * by text every client shows (in grey), never by the strike-through
	 * code irssi cannot show. */
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02Thwack-O\x0f · "
	                            "total \x02"
	                            "12\x0f "
	                            "\x02\x03"
	                            "12\x02\x02★6\x0f "
	                            "\x03"
	                            "14\x02\x02"
	                            "~~1~~\x0f "
	                            "\x02\x03"
	                            "03\x02\x02"
	                            "20\x0f"
	                            "\x03"
	                            "04\x02\x02 fail\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

/* hidden4 H2: a channel span is shown as IRC names it, #gmroom, not by
 * its key. */
static void
test_render_channel_named(void **state)
{
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_add(r, 0, "Copied 1 table from ");
	reply_add(r, RS_CHANNEL, "%s", "irc:t:#gmroom");
	reply_add(r, 0, ": plot");
	reply_nl(r);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "Copied 1 table from #gmroom: plot");
	render_irc_lines_free(&l);
	reply_free(r);
}

/* Help and hints name commands as /roll; IRC users type the network's
 * prefix, so command references are shown with it, and only those. */
static void
test_render_command_prefix(void **state)
{
	struct reply *r = reply_new();
	struct irc_lines l = {0};
	struct render_irc_opts slash = opts;
	const char *cells[2] = {"/gm claim", "take the seat"};

	(void)state;
	reply_title(r, "/help");
	reply_line(r, 0,
	           "Try /help or (/roll 2d6); not 1d20/2, http://x/roll, /rollx, /nosuch, "
	           "/roll-x, a/roll.");
	reply_table(r, 2, NULL);
	reply_row(r, false, cells);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02!help\x0f · Try !help or (!roll 2d6); not 1d20/2, "
	                            "http://x/roll, /rollx, /nosuch, /roll-x, a/roll. · !gm claim  "
	                            "take the seat");
	render_irc_lines_free(&l);
	slash.prefix = "/";
	render_irc(msg(r), &slash, &l);
	assert_memory_equal(l.v[0], "\x02/help\x0f · Try /help or (/roll 2d6)",
	                    strlen("\x02/help\x0f · Try /help or (/roll 2d6)"));
	render_irc_lines_free(&l);
	slash.prefix = "\r\nQUIT :";
	render_irc(msg(r), &slash, &l);
	for (size_t i = 0; i < l.n; i++)
		assert_null(strpbrk(l.v[i], "\r\n"));
	render_irc_lines_free(&l);
	reply_free(r);
}

/* A rolled two-row table (die in hdr, the second row rolled) as IRC shows
 * it: one line, checked against want. */
static void
rolled_two_rows(const char *die, const char *first, const char *second, const char *want)
{
	const char *const hdr[] = {die, "encounter"};
	const char *const r1[] = {"1", first};
	const char *const r2[] = {"2", second};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	reply_table(r, 2, hdr);
	reply_row(r, false, r1);
	reply_row(r, true, r2);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], want);
	render_irc_lines_free(&l);
	reply_free(r);
}

static void
test_render_table_highlight(void **state)
{
	(void)state;
	/* A rolled table is one line: each row's die and the short name of
	 * its entry, the rolled one bold in brackets. */
	rolled_two_rows("d6", "rats", "bats", "1 rats · \x02[2 bats]\x0f");
}

/* A rolled table's entries by their short names (up to ':', ',' or '(',
 * long ones cut), and, when that is longer than a line, its header and
 * the rolled row alone. */
static void
test_render_table_rolled_line(void **state)
{
	static const char *const hdr[] = {"roll", "result"};
	static const char *const r1[] = {"1", "Encounter: a wandering monster appears"};
	static const char *const r2[] = {"2-3", "Sign (noise, smell), nothing more"};
	static const char *const r3[] = {"4",
	                                 "A custom entry far longer than twenty-four characters"};
	static const char *const r4[] = {"5", "Fatigue: rest or a CON save"};
	static const char *const r5[] = {"6", "Free: no effect"};
	struct render_irc_opts narrow = {.budget = 75, .max_lines = 6, .prefix = "!"};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_table(r, 2, hdr);
	reply_row(r, false, r1);
	reply_row(r, false, r2);
	reply_row(r, false, r3);
	reply_row(r, true, r4);
	reply_row(r, false, r5);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "1 Encounter · 2-3 Sign · 4 A custom entry far long… · "
	                            "\x02[5 Fatigue]\x0f · 6 Free");
	render_irc_lines_free(&l);
	/* 81 bytes do not fit 75. */
	render_irc(msg(r), &narrow, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02roll  result\x0f ▶ \x02\x03"
	                            "07\x02\x02"
	                            "5  Fatigue: rest or a CON save\x0f \x03"
	                            "14\x02\x02(row 4 of 5)\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

/* A table whose highlighted row was not rolled (its first column is no
 * die: a party's own member, help's default) is shown whole. */
static void
test_render_table_highlight_not_rolled(void **state)
{
	static const char *const hdr[] = {"player", "level"};
	static const char *const r1[] = {"alice", "2"};
	static const char *const r2[] = {"bob", "3"};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_table(r, 2, hdr);
	reply_row(r, false, r1);
	reply_row(r, true, r2);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_non_null(strstr(l.v[0], " · ▶ \x02\x03"
	                               "07\x02\x02"
	                               "bob: 3\x0f"));
	assert_non_null(strstr(l.v[0], "alice: 2"));
	render_irc_lines_free(&l);
	reply_free(r);
}

/* Packed, a table with a header writes each row in words, as IRC has no
 * columns: the first cell names the row (after its header when it is a
 * number), each other cell follows its header, a cell that says nothing
 * ("-") is left out, and a player's cell keeps the player's colour. */
static void
test_render_table_rows_in_words(void **state)
{
	static const char *const hdr[] = {"level", "total XP", "carried by", "max hits"};
	static const char *const hdr2[] = {"who", "mark"};
	struct thwacko_style us = {.colour = UC_RED, .mark = "*"};
	struct render_irc_opts o = {.budget = 400, .max_lines = 2, .prefix = "!"};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_line(r, 0, "XP by level");
	reply_table(r, 4, hdr);
	for (int i = 1; i <= 6; i++) {
		char lv[8], xp[16];
		const char *cells[] = {lv, xp, i == 2 ? "Alba" : "-", "5"};

		snprintf(lv, sizeof(lv), "%d", i);
		snprintf(xp, sizeof(xp), "%d", 10 * i);
		reply_row(r, false, cells);
	}
	reply_table(r, 2, hdr2);
	reply_row(r, false, (const char *const[]){"alice", "*4"});
	reply_cell_user(r, 1, &us);
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "XP by level · level 1: total XP 10, max hits 5 · level 2: "
	                            "total XP 20, carried by Alba, max hits 5 · level 3: total XP "
	                            "30, max hits 5 · level 4: total XP 40, max hits 5 · level 5: "
	                            "total XP 50, max hits 5 · level 6: total XP 60, max hits 5 · "
	                            "alice: \x02\x03"
	                            "04\x02\x02*4\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

/* newcomer F13: the rows of one table in words read alike: when any of
 * them names its first cell after its header (a number: "when 1 min
 * ago"), all do ("when just now"), as /log's rows. */
static void
test_render_table_rows_alike(void **state)
{
	static const char *const hdr[] = {"when", "who", "roll", "result"};
	struct render_irc_opts o = {.budget = 400, .max_lines = 2, .prefix = "!"};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_line(r, 0, "The last 2 rolls here, newest first");
	reply_table(r, 4, hdr);
	reply_row(r, false, (const char *const[]){"just now", "bob", "8d6", "28"});
	reply_row(r, false, (const char *const[]){"1 min ago", "bob", "1d20", "14"});
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "The last 2 rolls here, newest first · when just now: who bob, "
	                            "roll 8d6, result 28 · when 1 min ago: who bob, roll 1d20, "
	                            "result 14");
	render_irc_lines_free(&l);
	reply_free(r);
}

/* A player's die in a table keeps the player's colour; the padding still
 * counts only the text, and a highlighted row goes on in its style. */
static void
test_render_table_cell_user(void **state)
{
	static const char *const r1[] = {"1", "*4", "2"};
	static const char *const r2[] = {"2", "*3", "1"};
	struct thwacko_style us = {.colour = UC_RED, .mark = "*"};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_table(r, 3, NULL);
	reply_row(r, false, r1);
	reply_cell_user(r, 1, &us);
	reply_row(r, true, r2);
	reply_cell_user(r, 1, &us);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x03"
	                            "14\x02\x02"
	                            "1  \x02\x03"
	                            "04\x02\x02*4\x0f\x03"
	                            "14\x02\x02  2\x0f · ▶ \x02\x03"
	                            "07\x02\x02"
	                            "2  \x02\x03"
	                            "04\x02\x02*3\x0f\x02\x03"
	                            "07\x02\x02  1\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

static void
test_render_injection(void **state)
{
	static const char *const cells[] = {"x\r\nQUIT :a", "\x01VERSION\x01"};
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_RED, .mark = "\r\n"};
	struct irc_lines l = {0};

	(void)state;
	reply_title(r, "t\r\nJOIN #evil");
	reply_add(r, 0, "%s", "label\r\nPRIVMSG NickServ :IDENTIFY x\n");
	reply_add_user(r, &us, 0,
	               "\x03"
	               "04,05x\x0f");
	reply_nl(r);
	reply_table(r, 2, NULL);
	reply_row(r, true, cells);
	reply_button(r, "go\n", "roll\r\n1d6");
	render_irc(msg(r), &opts, &l);
	for (size_t i = 0; i < l.n; i++) {
		assert_null(strpbrk(l.v[i], "\r\n\x01"));
		assert_true(strlen(l.v[i]) <= opts.budget);
	}
	/* Buttons are not shown on IRC; the three short lines pack into one. */
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02t  JOIN #evil\x0f · label  PRIVMSG NickServ :IDENTIFY x "
	                            "\x02\x03"
	                            "04\x02\x02  04,05x\x0f · ▶ \x02\x03"
	                            "07\x02\x02x  QUIT :a  VERSION\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

/* A rolled table's short entry names are cut by the columns they take: a
 * name of wide characters at half as many characters as a Latin one. */
static void
test_render_rolled_line_cuts_by_width(void **state)
{
	(void)state;
	rolled_two_rows("roll", "日本語の長い名前の遭遇がここにありますよね", "rats",
	                "1 日本語の長い名前の遭遇… · \x02[2 rats]\x0f");
}

static bool
alice(void *ctx, const char *word, size_t len)
{
	(void)ctx;
	return len == 5 && memcmp(word, "alice", 5) == 0;
}

/* Columns are padded by the width text takes in a monospaced font, as the
 * console and Discord pad them: a wide character (CJK) two, the zero-width
 * joiner that breaks a nick none, a Cyrillic letter one. */
static void
test_render_table_pads_by_display_width(void **state)
{
	static const char *const hdr[] = {"table", "what is rolled on it, each"};
	static const char *const rows[][2] = {{"loot", "d6 of treasure in the hoard"},
	                                      {"日本", "d8 of treasure in the hoard"},
	                                      {"лут", "d10 of treasure in the hoard"},
	                                      {"alice", "d12 of treasure in the hoard"}};
	struct render_irc_opts o = opts;
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	o.is_nick = alice;
	o.budget = 50; /* no two lines fit in one: the table is padded */
	reply_table(r, 2, hdr);
	for (size_t i = 0; i < 4; i++)
		reply_row(r, false, rows[i]);
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 5);
	assert_string_equal(l.v[0], "\x02table  what is rolled on it, each\x0f");
	assert_string_equal(l.v[1], "loot   d6 of treasure in the hoard");
	assert_string_equal(l.v[2], "日本   d8 of treasure in the hoard");
	assert_string_equal(l.v[3], "лут    d10 of treasure in the hoard");
	assert_string_equal(l.v[4], "a\u200dlice  d12 of treasure in the hoard");
	render_irc_lines_free(&l);
	reply_free(r);
}

static void
test_render_long_line_split(void **state)
{
	struct render_irc_opts o = {.budget = 40, .max_lines = 6, .prefix = "!"};
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	reply_add(r, RS_GOOD, "one two three four five six seven eight nine ten eleven");
	reply_nl(r);
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0], "\x03"
	                            "03\x02\x02one two three four five six seven");
	assert_string_equal(l.v[1], "\x03"
	                            "03eight nine ten eleven\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

static struct reply *
table_of_20(int rolled)
{
	static const char *const hdr[] = {"d20", "what"};
	struct reply *r = reply_new();
	char num[8], what[32];

	reply_line(r, 0, "You rolled 7.");
	reply_table(r, 2, hdr);
	for (int i = 1; i <= 20; i++) {
		const char *cells[] = {num, what};

		snprintf(num, sizeof(num), "%d", i);
		snprintf(what, sizeof(what), "entry %d", i);
		reply_row(r, i == rolled, cells);
	}
	return r;
}

static void
test_render_summarise_packs(void **state)
{
	static const char first[] = "You rolled 7. · d20 1: entry 1 · ";
	struct reply *r = table_of_20(0);
	struct irc_lines l = {0};

	(void)state;
	/* 22 lines do not fit 6: they are packed, every row kept, each in
	 * words (the die's header before a row's number). */
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 1);
	assert_memory_equal(l.v[0], first, strlen(first));
	assert_non_null(strstr(l.v[0], " · d20 7: entry 7 · "));
	assert_true(strlen(l.v[0]) <= opts.budget);
	assert_string_equal(l.v[0] + strlen(l.v[0]) - 20, " · d20 20: entry 20");
	render_irc_lines_free(&l);
	reply_free(r);
}

static void
test_render_summarise_brief(void **state)
{
	struct render_irc_opts o = {.budget = 60, .max_lines = 3, .prefix = "!"};
	struct reply *r = table_of_20(7);
	struct irc_lines l = {0};
	static const char *const hdr[] = {"command", "what"};

	(void)state;
	/* A rolled table is its header and rolled row, whatever the room. */
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0], "You rolled 7.");
	assert_string_equal(l.v[1], "\x02"
	                            "d20  what\x0f ▶ \x02\x03"
	                            "07\x02\x02"
	                            "7  entry 7\x0f \x03"
	                            "14\x02\x02(row 7 of 20)\x0f");
	render_irc_lines_free(&l);
	reply_free(r);

	/* Packed, a table without a rolled row still takes many lines of 60
	 * bytes: it shrinks to its first column. */
	r = reply_new();
	reply_table(r, 2, hdr);
	for (int i = 0; i < 8; i++) {
		char name[16];
		const char *cells[] = {name, "does a great many interesting things"};

		snprintf(name, sizeof(name), "c%d", i);
		reply_row(r, false, cells);
	}
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02"
	                            "command:\x0f c0, c1, c2, c3, c4, c5, c6, c7");
	render_irc_lines_free(&l);
	reply_free(r);

	/* Play-test 2: !help fungeon's subcommands, the default one
	 * highlighted, shrank to that row alone ("▶ party … (row 4 of 25)"):
	 * a table that is not a roll's lists its first column, the
	 * highlighted entry marked. */
	r = reply_new();
	reply_table(r, 2, hdr);
	for (int i = 0; i < 8; i++) {
		char name[16];
		const char *cells[] = {name, "does a great many interesting things"};

		snprintf(name, sizeof(name), "c%d", i);
		reply_row(r, i == 3, cells);
	}
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "\x02"
	                            "command:\x0f c0, c1, c2, \x02\x03"
	                            "07\x02\x02▶ c3\x0f, c4, c5, c6, c7");
	render_irc_lines_free(&l);
	reply_free(r);

	/* recheck3 F10: /log of long rolls shrank to its first column, "when:
	 * just now, just now, ...", naming no roll. A table of records keeps
	 * whole rows, the newest first, and says how much it left out. */
	r = reply_new();
	reply_table(r, 2, (const char *const[]){"when", "roll"});
	reply_table_records(r);
	for (int i = 0; i < 8; i++) {
		char roll[64];
		const char *cells[] = {"just now", roll};

		snprintf(roll, sizeof(roll), "1d20 # a roll with a long label number %d", i);
		reply_row(r, false, cells);
	}
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "just now: 1d20 # a roll with a long label number 0");
	assert_string_equal(l.v[1], "just now: 1d20 # a roll with a long label number 1");
	assert_string_equal(l.v[2], "\x03"
	                            "14… 6 more lines not shown (too long for IRC)\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

static void
test_render_summarise_cut(void **state)
{
	struct reply *r = reply_new();
	struct irc_lines l = {0};
	char text[301];

	struct render_irc_opts two = opts;

	(void)state;
	/* Lines too long to pack: the first four, a note, and the last (the
	 * line that often matters: a turn, a total). */
	memset(text, 'w', 300);
	text[300] = '\0';
	for (int i = 0; i < 10; i++)
		reply_line(r, 0, "%d %s", i, text);
	render_irc(msg(r), &opts, &l);
	assert_int_equal(l.n, 6);
	assert_memory_equal(l.v[3], "3 www", 5);
	assert_string_equal(l.v[4], "\x03"
	                            "14… 5 more lines not shown (too long for IRC)\x0f");
	assert_memory_equal(l.v[5], "9 www", 5);
	assert_int_equal(strlen(l.v[5]), 302);
	render_irc_lines_free(&l);
	/* Two lines: the first (which says what the reply is) and the note. */
	two.max_lines = 2;
	render_irc(msg(r), &two, &l);
	assert_int_equal(l.n, 2);
	assert_memory_equal(l.v[0], "0 www", 5);
	assert_string_equal(l.v[1], "\x03"
	                            "14… 9 more lines not shown (too long for IRC)\x0f");
	render_irc_lines_free(&l);
	reply_free(r);
}

static bool
members(void *ctx, const char *word, size_t len)
{
	(void)ctx;
	return (len == 5 && memcmp(word, "alice", 5) == 0) ||
	       (len == 3 && memcmp(word, "bob", 3) == 0) || (len == 1 && word[0] == 'x');
}

/* In a channel, a roll addresses its roller as IRC bots do, and every nick
 * the reply holds otherwise gets a zero-width joiner, so that no client
 * takes it for a mention: in "[bob]" and "alice_" too, where some clients
 * see the nick as a word of its own ("bobby" is not bob); a one-letter
 * nick cannot be broken. A message that does not open with the roller's
 * name and "rolls" is not addressed. */
static void
test_render_address_and_nicks(void **state)
{
	struct render_irc_opts o = opts;
	struct reply *r = reply_new();
	struct irc_lines l = {0};

	(void)state;
	o.address = "alice";
	o.is_nick = members;
	reply_add(r, RS_BOLD, "alice");
	reply_add(r, 0, " rolls");
	reply_add(r, RS_ITALIC, " bob's trap");
	reply_nl(r);
	reply_add(r, 0, "1d6: [4] = 4; alice, bobby, [bob], x and alice_ look on");
	reply_nl(r);
	render_irc(msg(r), &o, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "alice: \x1d"
	                            "b\xe2\x80\x8d"
	                            "ob's trap\x0f · 1d6: [4] = 4; a\xe2\x80\x8dlice, bobby, "
	                            "[b\xe2\x80\x8d"
	                            "ob], x and a\xe2\x80\x8dlice_ look on");
	render_irc_lines_free(&l);
	reply_free(r);
	/* Not a roll: no address; the name is guarded like any other. */
	r = reply_new();
	reply_add(r, RS_BOLD, "alice");
	reply_add(r, 0, " is now the GM.");
	reply_nl(r);
	render_irc(msg(r), &o, &l);
	assert_string_equal(l.v[0], "\x02"
	                            "a\xe2\x80\x8dlice\x0f is now the GM.");
	render_irc_lines_free(&l);
	reply_free(r);
	/* Without is_nick (a private message) nothing is changed. */
	r = reply_new();
	reply_line(r, 0, "bob and alice");
	render_irc(msg(r), &opts, &l);
	assert_string_equal(l.v[0], "bob and alice");
	render_irc_lines_free(&l);
	reply_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_clean),
	    cmocka_unit_test(test_render_channel_named),
	    cmocka_unit_test(test_strip),
	    cmocka_unit_test(test_render_table_highlight_not_rolled),
	    cmocka_unit_test(test_render_table_rows_in_words),
	    cmocka_unit_test(test_render_table_rows_alike),
	    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_render_spans),
	    cmocka_unit_test(test_render_yellow_is_yellow),
	    cmocka_unit_test(test_render_table_highlight),
	    cmocka_unit_test(test_render_table_rolled_line),
	    cmocka_unit_test(test_render_address_and_nicks),
	    cmocka_unit_test(test_render_table_cell_user),
	    cmocka_unit_test(test_render_injection),
	    cmocka_unit_test(test_render_long_line_split),
	    cmocka_unit_test(test_render_table_pads_by_display_width),
	    cmocka_unit_test(test_render_rolled_line_cuts_by_width),
	    cmocka_unit_test(test_render_summarise_packs),
	    cmocka_unit_test(test_render_summarise_brief),
	    cmocka_unit_test(test_render_summarise_cut),
	    cmocka_unit_test(test_render_command_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
