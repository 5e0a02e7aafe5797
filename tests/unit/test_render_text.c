/* Unit tests for bot/console/render_text: wrapping at the terminal's width. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "bot/console/render_text.h"

/* Wraps s at width and checks the result is want. */
static void
wraps(const char *s, size_t width, const char *want)
{
	struct buf b;

	buf_init(&b, 1 << 16);
	render_text_wrap(s, strlen(s), width, &b);
	assert_string_equal(b.p != NULL ? b.p : "", want);
	buf_free(&b);
}

static void
short_lines_stay(void **unused)
{
	wraps("gm rolls\n1d6: [5] = 5\n", 20, "gm rolls\n1d6: [5] = 5\n");
	/* A last line without a newline gets one. */
	wraps("one line", 20, "one line\n");
	wraps("", 20, "");
	/* Exactly the width fits. */
	wraps("abcdefghij abcdefghi\n", 20, "abcdefghij abcdefghi\n");
}

static void
breaks_at_the_last_space(void **unused)
{
	wraps("the quick brown fox jumps over the lazy dog\n", 20,
	      "the quick brown fox\njumps over the lazy\ndog\n");
	/* Spaces at the break are dropped, not carried to the next line. */
	wraps("aaaa bbbb cccc dddd    eeee\n", 20, "aaaa bbbb cccc dddd\neeee\n");
	/* A break exactly at the width. */
	wraps("abcdefghij abcdefghij klm\n", 21, "abcdefghij abcdefghij\nklm\n");
}

static void
cuts_a_word_longer_than_the_line(void **unused)
{
	wraps("x 0123456789012345678901234 y\n", 20, "x\n01234567890123456789\n01234 y\n");
}

/* A table row's text stays in its column: the lines it wraps into are
 * indented to where the last cell begins. */
static void
hangs_under_the_last_cell(void **unused)
{
	wraps("/fungeon  Fungeon: masterless dungeon crawling\n", 30,
	      "/fungeon  Fungeon: masterless\n          dungeon crawling\n");
	/* Past half the width, no hanging indent. */
	wraps("a very long first cell  and then some words\n", 30,
	      "a very long first cell  and\nthen some words\n");
}

static void
escapes_take_no_column(void **unused)
{
	wraps("\033[1mbold\033[0m words that fit in twenty\n", 20,
	      "\033[1mbold\033[0m words that fit\nin twenty\n");
	/* Multibyte characters count once. */
	wraps("éééé éééé éééé éééé éééé\n", 20, "éééé éééé éééé éééé\néééé\n");
}

/* A wide character takes two columns, a combining mark none. */
static void
wide_characters_take_two_columns(void **unused)
{
	assert_int_equal(render_text_columns("日本", strlen("日本")), 4);
	assert_int_equal(render_text_columns("e\u0301", strlen("e\u0301")), 1);
	assert_int_equal(render_text_columns("\033[1;33m▶\033[0m", strlen("\033[1;33m▶\033[0m")),
	                 1);
	assert_int_equal(render_text_columns("\xff", 1), 1);
	wraps("日本語 日本語 日本語 日本語\n", 20, "日本語 日本語 日本語\n日本語\n");
	/* A word of wide characters is cut between two of them. */
	wraps("日本語日本語日本語日本語\n", 20, "日本語日本語日本語日\n本語\n");
	/* but a line does not start with closing punctuation */
	wraps("日本語日本語日本語日。本語\n", 20, "日本語日本語日本語\n日。本語\n");
	wraps("日本語日本語日本語「日本語」\n", 20, "日本語日本語日本語\n「日本語」\n");
}

/* check-29 F16: a table row whose text has no spaces (Japanese, a long
 * address) keeps it in its column: the first line is filled, not broken
 * between the cells, and the rest hangs under the text. */
static void
text_without_spaces_stays_in_its_column(void **unused)
{
	wraps("▶ 1-6   短い日本語の文章です。短い日本語の文章です。\n", 30,
	      "▶ 1-6   短い日本語の文章です。\n        短い日本語の文章です。\n");
	wraps("1-6   https://example.org/a/very/long/path/without/spaces\n", 30,
	      "1-6   https://example.org/a/ve\n      ry/long/path/without/spa\n      ces\n");
	/* words with spaces still break at a space, under the column */
	wraps("1-6   a goblin and two wolves and a troll\n", 30,
	      "1-6   a goblin and two wolves\n      and a troll\n");
}

static void
narrow_width_leaves_text(void **unused)
{
	wraps("the quick brown fox jumps\n", 10, "the quick brown fox jumps\n");
}

/* Renders a table of the party (as /fungeon party shows it) for a
 * terminal of cols columns, wrapped there as the console does. */
static void
party_at(size_t cols, const char *want)
{
	static const char *const hdr[] = {"Fungeoneer", "player", "class", "level",
	                                  "hits",       "XP",     "bonus"};
	static const char *const al[] = {"龍之介", "龍之介", "魔法使い", "2", "10/10", "0", "1"};
	static const char *const bo[] = {"Bo", "bo", "fighter", "3", "12/15", "40", ""};
	struct reply *r = reply_new();
	struct buf b, w;

	reply_table(r, 7, hdr);
	reply_row(r, true, al);
	reply_row(r, false, bo);
	buf_init(&b, 1 << 16);
	buf_init(&w, 1 << 16);
	render_text_width(reply_msg(r, REPLY_CHANNEL), false, cols, &b);
	render_text_wrap(buf_str(&b), b.len, cols != 0 ? cols : 1000, &w);
	assert_string_equal(buf_str(&w), want);
	buf_free(&b);
	buf_free(&w);
	reply_free(r);
}

/* Newcomer F14: a table wider than the terminal is laid out in parts, the
 * first column and as many others as fit, so that no cell lands under
 * another column's header (at 50 columns, bonus went on under class). */
static void
a_wide_table_comes_in_parts(void **unused)
{
	party_at(0, "  Fungeoneer  player  class     level  hits   XP  bonus\n"
	            "▶ 龍之介      龍之介  魔法使い  2      10/10  0   1\n"
	            "  Bo          bo      fighter   3      12/15  40\n");
	party_at(50, "  Fungeoneer  player  class     level  hits   XP\n"
	             "▶ 龍之介      龍之介  魔法使い  2      10/10  0\n"
	             "  Bo          bo      fighter   3      12/15  40\n"
	             "  Fungeoneer  bonus\n"
	             "▶ 龍之介      1\n"
	             "  Bo\n");
	party_at(30, "  Fungeoneer  player  class\n"
	             "▶ 龍之介      龍之介  魔法使い\n"
	             "  Bo          bo      fighter\n"
	             "  Fungeoneer  level  hits   XP\n"
	             "▶ 龍之介      2      10/10  0\n"
	             "  Bo          3      12/15  40\n"
	             "  Fungeoneer  bonus\n"
	             "▶ 龍之介      1\n"
	             "  Bo\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(short_lines_stay),
	    cmocka_unit_test(breaks_at_the_last_space),
	    cmocka_unit_test(cuts_a_word_longer_than_the_line),
	    cmocka_unit_test(hangs_under_the_last_cell),
	    cmocka_unit_test(escapes_take_no_column),
	    cmocka_unit_test(wide_characters_take_two_columns),
	    cmocka_unit_test(narrow_width_leaves_text),
	    cmocka_unit_test(text_without_spaces_stays_in_its_column),
	    cmocka_unit_test(a_wide_table_comes_in_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
