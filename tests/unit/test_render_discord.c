/* Tests for bot/discord/render_discord: markdown, the ansi block, limits, buttons. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_buttons.h"
#include "bot/discord/render_discord.h"
#include "rules/base/buf.h"

/* Renders the channel message of r and returns the parsed object. */
static cJSON *
render(struct reply *r, bool eph, struct discord_buttons *bs)
{
	char *s = render_discord(reply_msg(r, REPLY_CHANNEL), eph, bs);
	cJSON *back = cJSON_Parse(s); /* it must be valid JSON */

	assert_non_null(back);
	free(s);
	return back;
}

static const char *
content(const cJSON *m)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(m, "content"));
}

static void
assert_no_mentions(const cJSON *m)
{
	const cJSON *am = cJSON_GetObjectItem(m, "allowed_mentions");
	const cJSON *parse = cJSON_GetObjectItem(am, "parse");

	assert_true(cJSON_IsArray(parse));
	assert_int_equal(cJSON_GetArraySize(parse), 0);
}

/* Text that is not UTF-8 (a label cut mid-character) is repaired, never
 * sent as is: Discord would refuse the whole message. */
static void
test_invalid_utf8_repaired(void **state)
{
	struct reply *r = reply_new();
	cJSON *m;

	(void)state;
	reply_add(r, RS_BOLD, "Ann\xC3");
	reply_add(r, 0, " rolls \xE2\x96");
	reply_nl(r);
	m = render(r, false, NULL);
	assert_string_equal(content(m), "**Ann\xEF\xBF\xBD** rolls \xEF\xBF\xBD\xEF\xBF\xBD");
	cJSON_Delete(m);
	reply_free(r);
}

static void
test_plain_markdown(void **state)
{
	struct reply *r = reply_new();
	cJSON *m;

	reply_add(r, RS_BOLD, "Alice");
	reply_add(r, 0, " is now the GM.");
	reply_nl(r);
	reply_line(r, RS_ITALIC, " flavour ");
	m = render(r, false, NULL);
	assert_string_equal(content(m), "**Alice** is now the GM.\n *flavour* ");
	assert_null(cJSON_GetObjectItem(m, "flags"));
	assert_null(cJSON_GetObjectItem(m, "components"));
	assert_no_mentions(m);
	cJSON_Delete(m);
	reply_free(r);
}

/* A span's blanks stay outside its markdown, and what they surround is
 * escaped as any text. */
static void
test_span_blanks_outside_markdown(void **state)
{
	struct reply *r = reply_new();
	cJSON *m;

	(void)state;
	reply_add(r, RS_BOLD, "  a_b\t ");
	reply_add(r, RS_ITALIC, "c*d");
	reply_add(r, 0, " \t ");
	reply_add(r, RS_BOLD, " \t");
	reply_add(r, RS_ITALIC, "#1. e ");
	reply_nl(r);
	reply_add(r, RS_ITALIC, " 2. f\tg ");
	m = render(r, false, NULL);
	assert_string_equal(content(m), "  **a\\_b**  *c\\*d*     *#1. e* \n *2\\. f g* ");
	cJSON_Delete(m);
	reply_free(r);
}

static void
test_escapes_user_text(void **state)
{
	struct reply *r = reply_new();
	cJSON *m;

	reply_title(r, "# big");
	reply_line(r, 0, "*x* _y_ `z` ~~w~~ <@123> [a](b) |s| @everyone");
	reply_line(r, 0, "> quote");
	reply_line(r, 0, "1. list");
	m = render(r, true, NULL);
	assert_string_equal(content(m), "**\\# big**\n"
	                                "\\*x\\* \\_y\\_ \\`z\\` \\~\\~w\\~\\~ \\<@123> \\[a\\](b) "
	                                "\\|s\\| @everyone\n"
	                                "\\> quote\n"
	                                "1\\. list");
	assert_int_equal(cJSON_GetObjectItem(m, "flags")->valueint, 64);
	assert_no_mentions(m);
	cJSON_Delete(m);
	reply_free(r);
}

static void
test_dice_line_fenced(void **state)
{
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_BLUE, .mark = "*"};
	cJSON *m;

	reply_line(r, 0, "Stealth");
	reply_add(r, 0, "4d6kh3: ");
	reply_add(r, RS_CRIT, "6");
	reply_add(r, 0, " ");
	reply_add(r, RS_STRUCK, "1");
	reply_add(r, 0, " = ");
	reply_add(r, RS_BOLD, "13");
	reply_nl(r);
	reply_add_user(r, &us, 0, "d8 `3`");
	reply_nl(r);
	reply_line(r, 0, "after");
	m = render(r, false, NULL);
	assert_string_equal(
	    content(m), "Stealth\n"
	                "```ansi\n"
	                "4d6kh3: \033[1;32m6\033[0m \033[0;30m1\xcc\xb6\033[0m = \033[1m13\033[0m\n"
	                "\033[1;4;34m*d8 `\xe2\x80\x8b"
	                "3`\xe2\x80\x8b\033[0m\n"
	                "```\n"
	                "after");
	cJSON_Delete(m);
	reply_free(r);
}

/* Inside the ansi block every backtick is followed by a zero-width space,
 * wherever it stands in a span (first, last, side by side, next to UTF-8),
 * and the text between backticks is copied whole. (Control characters are
 * removed by the reply model before they reach a renderer.) */
static void
test_fenced_backticks(void **state)
{
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_BLUE, .mark = "*"};
	cJSON *m;

	reply_add_user(r, &us, 0, "`A``\xc3\xa9 d6`");
	reply_nl(r);
	m = render(r, false, NULL);
	assert_string_equal(content(m), "```ansi\n"
	                                "\033[1;4;34m*`\xe2\x80\x8b"
	                                "A`\xe2\x80\x8b`\xe2\x80\x8b\xc3\xa9 d6`\xe2\x80\x8b"
	                                "\033[0m\n"
	                                "```");
	cJSON_Delete(m);
	reply_free(r);
}

static void
test_table_highlight(void **state)
{
	static const char *const hdr[] = {"d6", "result"};
	static const char *const r1[] = {"1-3", "nothing"};
	static const char *const r2[] = {"4-6", "a rat"};
	struct reply *r = reply_new();
	cJSON *m;

	reply_table(r, 2, hdr);
	reply_row(r, false, r1);
	reply_row(r, true, r2);
	m = render(r, false, NULL);
	assert_string_equal(content(m), "```ansi\n"
	                                "  \033[1md6   result\033[0m\n"
	                                "  \033[30m1-3  nothing\033[0m\n"
	                                "\xe2\x96\xb6 \033[1;33m4-6  a rat\033[0m\n"
	                                "```");
	cJSON_Delete(m);
	reply_free(r);
}

/* Every line of the content is one of the lines given, or a fence, or a
 * "not shown" marker: nothing was cut in the middle. */
static void
assert_whole_lines(const char *text, char **lines, size_t n)
{
	char *copy = strdup(text), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l != NULL; l = strtok_r(NULL, "\n", &save)) {
		bool ok = strcmp(l, "```ansi") == 0 || strcmp(l, "```") == 0 ||
		          strstr(l, "not shown") != NULL;

		for (size_t i = 0; i < n && !ok; i++)
			ok = strcmp(l, lines[i]) == 0;
		if (!ok)
			fail_msg("line cut or unknown: '%s'", l);
	}
	free(copy);
}

static void
test_long_table_summarised(void **state)
{
	struct reply *r = reply_new();
	char *lines[300];
	cJSON *m;
	const char *c;

	reply_table(r, 2, NULL);
	for (int i = 0; i < 300; i++) {
		char a[16], b[64];
		const char *cells[] = {a, b};

		snprintf(a, sizeof(a), "%d", i + 1);
		snprintf(b, sizeof(b), "entry number %d of the long table", i + 1);
		reply_row(r, i == 150, cells);
		lines[i] = malloc(128);
		if (i == 150)
			snprintf(lines[i], 128, "\xe2\x96\xb6 \033[1;33m%-3s  %s\033[0m", a, b);
		else
			snprintf(lines[i], 128, "  \033[30m%-3s  %s\033[0m", a, b);
	}
	m = render(r, false, NULL);
	c = content(m);
	assert_true(render_discord_len(c) <= DISCORD_CONTENT_MAX);
	assert_true(render_discord_len(c) > DISCORD_CONTENT_MAX - 200); /* not over-eager */
	assert_non_null(strstr(c, lines[150]));
	assert_non_null(strstr(c, lines[149]));
	assert_non_null(strstr(c, lines[151]));
	assert_null(strstr(c, lines[0]));
	assert_null(strstr(c, lines[299]));
	assert_non_null(strstr(c, "more rows not shown"));
	assert_whole_lines(c, lines, 300);
	for (int i = 0; i < 300; i++)
		free(lines[i]);
	cJSON_Delete(m);
	reply_free(r);
}

static void
test_long_lines_dropped_from_end(void **state)
{
	struct reply *r = reply_new();
	char *lines[100];
	cJSON *m;
	const char *c;

	reply_title(r, "Many lines");
	for (int i = 0; i < 100; i++) {
		lines[i] = malloc(64);
		snprintf(lines[i], 64, "line %d with some words in it", i);
		reply_line(r, 0, "%s", lines[i]);
	}
	m = render(r, false, NULL);
	c = content(m);
	assert_true(render_discord_len(c) <= DISCORD_CONTENT_MAX);
	assert_true(strncmp(c, "**Many lines**\nline 0 with", 26) == 0);
	assert_null(strstr(c, lines[98]));
	assert_non_null(strstr(c, "more lines not shown*"));
	/* The last line (a total, the narrator) stays, after the marker. */
	assert_non_null(strstr(c, "more lines not shown*\nline 99 with some words in it"));
	for (int i = 0; i < 100; i++)
		free(lines[i]);
	cJSON_Delete(m);
	reply_free(r);
}

/* Renders the channel message of r in parts; returns how many, each parsed
 * back from its JSON text into parts[]. */
static size_t
render_parts(struct reply *r, bool eph, struct discord_buttons *bs, cJSON **parts, size_t max)
{
	char *texts[2 * DISCORD_PARTS_MAX];
	size_t n = render_discord_parts(reply_msg(r, REPLY_CHANNEL), eph, bs, NULL, texts, max);

	assert_true(n >= 1 && n <= max);
	for (size_t i = 0; i < n; i++) {
		char *s = texts[i];

		parts[i] = cJSON_Parse(s);
		assert_non_null(parts[i]);
		free(s);
		assert_true(render_discord_len(content(parts[i])) <= DISCORD_CONTENT_MAX);
		assert_no_mentions(parts[i]);
	}
	return n;
}

static void
free_parts(cJSON **parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(parts[i]);
}

/* How often needle occurs in s. */
static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* A line longer than a message is cut at words into lines; one message
 * shows the first and says how many more there were, parts show them all,
 * each piece in the line's style. */
static void
test_huge_line_cut(void **state)
{
	struct reply *r = reply_new();
	cJSON *m, *parts[DISCORD_PARTS_MAX];
	size_t n, words = 0;
	const char *c;
	struct buf b;

	buf_init(&b, 100000);
	for (int i = 0; i < 1500; i++)
		buf_adds(&b, "word ");
	reply_line(r, RS_CRIT, "%s", buf_str(&b));
	m = render(r, false, NULL);
	c = content(m);
	assert_true(render_discord_len(c) <= DISCORD_CONTENT_MAX);
	assert_true(strncmp(c, "```ansi\n\033[1;32mword word", 24) == 0);
	/* The first and the last of the 6 lines it became. */
	assert_non_null(strstr(c, "word\033[0m\n\xe2\x80\xa6 4 more lines not shown\n"
	                          "\033[1;32mword"));
	assert_true(strlen(c) > 13 && strcmp(c + strlen(c) - 13, "word \033[0m\n```") == 0);
	cJSON_Delete(m);

	n = render_parts(r, false, NULL, parts, DISCORD_PARTS_MAX);
	assert_int_equal(n, 5); /* 7,500 characters: 6 lines, the last short */
	for (size_t i = 0; i < n; i++) {
		c = content(parts[i]);
		assert_true(strncmp(c, "```ansi\n\033[1;32mword", 19) == 0);
		assert_null(strstr(c, "not shown"));
		words += count(c, "word");
	}
	assert_int_equal(words, 1500);
	free_parts(parts, n);
	buf_free(&b);
	reply_free(r);
}

/* A reply longer than a message goes out whole, in order, in parts cut
 * between lines; only the last part has the buttons. */
static void
test_parts_keep_everything(void **state)
{
	struct reply *r = reply_new();
	cJSON *parts[DISCORD_PARTS_MAX];
	struct buf all;
	const char *at;
	size_t n;

	reply_title(r, "Many lines");
	for (int i = 0; i < 150; i++)
		reply_line(r, 0, "line %d with some words in it", i);
	reply_button(r, "Again", "roll d6");
	n = render_parts(r, true, NULL, parts, DISCORD_PARTS_MAX);
	assert_int_equal(n, 3);
	buf_init(&all, 1 << 20);
	for (size_t i = 0; i < n; i++) {
		const cJSON *flags = cJSON_GetObjectItem(parts[i], "flags");

		assert_true(cJSON_IsNumber(flags) && flags->valueint == DISCORD_FLAG_EPHEMERAL);
		assert_true((cJSON_GetObjectItem(parts[i], "components") != NULL) == (i == n - 1));
		assert_null(strstr(content(parts[i]), "not shown"));
		buf_addf(&all, "%s\n", content(parts[i]));
	}
	assert_true(strncmp(content(parts[0]), "**Many lines**\nline 0 with", 26) == 0);
	at = buf_str(&all);
	for (int i = 0; i < 150; i++) {
		char line[64];

		snprintf(line, sizeof(line), "\nline %d with some words in it\n", i);
		at = strstr(at, line);
		assert_non_null(at); /* every line, in order */
	}
	buf_free(&all);
	free_parts(parts, n);
	reply_free(r);
}

/* What max parts cannot hold is summarised in the last part. */
static void
test_parts_bounded(void **state)
{
	struct reply *r = reply_new();
	cJSON *parts[3];
	size_t n;

	for (int i = 0; i < 1000; i++)
		reply_line(r, 0, "line %d with some words in it", i);
	n = render_parts(r, false, NULL, parts, 3);
	assert_int_equal(n, 3);
	assert_null(strstr(content(parts[1]), "not shown"));
	assert_non_null(strstr(content(parts[2]), "more lines not shown"));
	free_parts(parts, n);
	reply_free(r);
}

/* A table cut between parts repeats its header; a table that fits in the
 * next part is not cut at all. */
static void
test_parts_tables(void **state)
{
	struct reply *r = reply_new();
	static const char *const head[] = {"rank", "entry"};
	cJSON *parts[DISCORD_PARTS_MAX];
	size_t n;

	for (int i = 0; i < 60; i++)
		reply_line(r, 0, "line %d with some words in it", i);
	reply_table(r, 2, head);
	for (int i = 0; i < 30; i++) {
		char a[16], b[64];
		const char *cells[] = {a, b};

		snprintf(a, sizeof(a), "%d", i + 1);
		snprintf(b, sizeof(b), "small table row %d", i + 1);
		reply_row(r, false, cells);
	}
	reply_table(r, 2, head);
	for (int i = 0; i < 150; i++) {
		char a[16], b[64];
		const char *cells[] = {a, b};

		snprintf(a, sizeof(a), "%d", i + 1);
		snprintf(b, sizeof(b), "big table row %d", i + 1);
		reply_row(r, false, cells);
	}
	n = render_parts(r, false, NULL, parts, DISCORD_PARTS_MAX);
	assert_int_equal(n, 4);
	/* The small table moved whole to the second part. */
	assert_null(strstr(content(parts[0]), "small table"));
	assert_non_null(strstr(content(parts[1]), "small table row 1\n"));
	assert_non_null(strstr(content(parts[1]), "small table row 30\n"));
	/* The big one starts a part and is cut: each of its parts starts with
	 * the header. */
	assert_null(strstr(content(parts[1]), "big table"));
	for (size_t i = 2; i < n; i++)
		assert_true(strncmp(content(parts[i]), "```ansi\n\033[1mrank  entry", 23) == 0);
	assert_int_equal(count(content(parts[3]), "big table row"),
	                 150 - count(content(parts[1]), "big table row") -
	                     count(content(parts[2]), "big table row"));
	free_parts(parts, n);
	reply_free(r);
}

/* A player's die in a table keeps the player's colour; the row goes on in
 * its own style after it. */
static void
test_table_cell_user(void **state)
{
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_CYAN, .mark = "\xe2\x96\xb2"};
	static const char *const a[] = {"1",
	                                "\xe2\x96\xb2"
	                                "4",
	                                "2"},
	                         *const b[] = {"2", "3", "1"};
	cJSON *m;

	reply_table(r, 3, NULL);
	reply_row(r, false, a);
	reply_cell_user(r, 1, &us);
	reply_row(r, true, b);
	m = render(r, false, NULL);
	assert_string_equal(content(m), "```ansi\n"
	                                "  \033[30m1  \033[1;4;36m\xe2\x96\xb2"
	                                "4\033[0m\033[30m  2\033[0m\n"
	                                "\xe2\x96\xb6 \033[1;33m2  3   1\033[0m\n"
	                                "```");
	cJSON_Delete(m);
	reply_free(r);
}

/* Plain lines between dice lines join the block: one block, not three. */
static void
test_one_block(void **state)
{
	struct reply *r = reply_new();
	cJSON *m;

	reply_title(r, "Turn");
	reply_add(r, 0, "a: ");
	reply_add(r, RS_CRIT, "6");
	reply_nl(r);
	reply_line(r, RS_BOLD, "Round 2");
	reply_add(r, 0, "b: ");
	reply_add(r, RS_STRUCK, "1");
	reply_nl(r);
	m = render(r, false, NULL);
	assert_string_equal(content(m), "**Turn**\n"
	                                "```ansi\n"
	                                "a: \033[1;32m6\033[0m\n"
	                                "\033[1mRound 2\033[0m\n"
	                                "b: \033[0;30m1\xcc\xb6\033[0m\n"
	                                "```");
	cJSON_Delete(m);
	reply_free(r);
}

static void
test_utf16_length(void **state)
{
	assert_int_equal(render_discord_len("abc"), 3);
	assert_int_equal(render_discord_len("\xc3\xa9"), 1);         /* é */
	assert_int_equal(render_discord_len("\xe2\x96\xb6"), 1);     /* ▶ */
	assert_int_equal(render_discord_len("\xf0\x9f\x8e\xb2"), 2); /* 🎲 */
}

static void
test_emoji_message_fits(void **state)
{
	struct reply *r = reply_new();
	struct buf b;
	cJSON *m;

	buf_init(&b, 100000);
	for (int i = 0; i < 60; i++) {
		buf_reset(&b);
		for (int k = 0; k < 20; k++)
			buf_adds(&b, "\xf0\x9f\x8e\xb2"); /* 🎲: 2 UTF-16 units, 4 bytes */
		reply_line(r, 0, "%s", buf_str(&b));
	}
	m = render(r, false, NULL);
	assert_true(render_discord_len(content(m)) <= DISCORD_CONTENT_MAX);
	assert_true(render_discord_len(content(m)) > 1800);
	buf_free(&b);
	cJSON_Delete(m);
	reply_free(r);
}

/* A message of exactly DISCORD_CONTENT_MAX UTF-16 units, ASCII and emoji
 * across every eight-byte word, is sent whole; one unit more is not. */
static void
test_message_at_the_limit(void **state)
{
	struct buf line, all;
	struct reply *r;
	cJSON *m;

	buf_init(&line, 1000);
	buf_init(&all, 100000);
	for (int k = 0; k < 11; k++)
		buf_adds(&line, "aaaaaaa\xf0\x9f\x8e\xb2"); /* 9 units in 11 bytes */
	for (int extra = 0; extra < 2; extra++) {
		r = reply_new();
		buf_reset(&all);
		for (int i = 0; i < 20; i++) { /* 20 x 99 units, 19 newlines, 1 or 2 more */
			const char *tail = i == 0 ? (extra ? "aa" : "a") : "";

			reply_line(r, 0, "%s%s", buf_str(&line), tail);
			buf_addf(&all, "%s%s%s", i ? "\n" : "", buf_str(&line), tail);
		}
		assert_int_equal(render_discord_len(buf_str(&all)), DISCORD_CONTENT_MAX + extra);
		m = render(r, false, NULL);
		if (extra == 0)
			assert_string_equal(content(m), buf_str(&all));
		else
			assert_true(render_discord_len(content(m)) <= DISCORD_CONTENT_MAX);
		cJSON_Delete(m);
		reply_free(r);
	}
	buf_free(&line);
	buf_free(&all);
}

static void
test_buttons(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4, 1);
	struct reply *r = reply_new();
	char long_action[200], long_label[200];
	const cJSON *rows, *b;
	cJSON *m;

	memset(long_action, 'x', sizeof(long_action) - 1);
	long_action[sizeof(long_action) - 1] = '\0';
	memcpy(long_action, "roll ", 5);
	memset(long_label, 'L', sizeof(long_label) - 1);
	long_label[sizeof(long_label) - 1] = '\0';
	reply_line(r, 0, "rolled");
	reply_button(r, "Roll again", "roll 1d6");
	reply_button(r, long_label, long_action);
	for (int i = 0; i < 30; i++)
		reply_button(r, "More", "help");
	m = render(r, false, bs);
	rows = cJSON_GetObjectItem(m, "components");
	assert_int_equal(cJSON_GetArraySize(rows), 5);
	for (int i = 0; i < 5; i++) {
		const cJSON *row = cJSON_GetArrayItem(rows, i);

		assert_int_equal(cJSON_GetObjectItem(row, "type")->valueint, 1);
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(row, "components")), 5);
	}
	b = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "components"), 0);
	assert_string_equal(cJSON_GetObjectItem(b, "custom_id")->valuestring, "a:roll 1d6");
	assert_string_equal(cJSON_GetObjectItem(b, "label")->valuestring, "Roll again");
	assert_int_equal(cJSON_GetObjectItem(b, "type")->valueint, 2);
	assert_string_equal(discord_buttons_action(bs, "a:roll 1d6", NULL), "roll 1d6");
	b = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "components"), 1);
	assert_string_equal(cJSON_GetObjectItem(b, "custom_id")->valuestring, "b:1");
	assert_int_equal(strlen(cJSON_GetObjectItem(b, "label")->valuestring), 80);
	assert_string_equal(discord_buttons_action(bs, "b:1", NULL), long_action);
	assert_null(discord_buttons_action(bs, "b:2", NULL));
	assert_null(discord_buttons_action(bs, "b:zz", NULL));
	assert_null(discord_buttons_action(bs, "x:1", NULL));
	cJSON_Delete(m);
	/* The store keeps the last 4 long lines: the first expires. */
	for (int i = 0; i < 4; i++) {
		free(render_discord(reply_msg(r, REPLY_CHANNEL), false, bs));
	}
	assert_null(discord_buttons_action(bs, "b:1", NULL));
	assert_string_equal(discord_buttons_action(bs, "b:5", NULL), long_action);
	reply_free(r);
	discord_buttons_free(bs);
}

static void
test_empty_message(void **state)
{
	struct reply *r = reply_new();
	cJSON *m;

	reply_nl(r);
	m = render(r, false, NULL);
	assert_string_equal(content(m), "(nothing to show)");
	cJSON_Delete(m);
	reply_free(r);
}

/* The message texts, byte for byte: each is the JSON text the renderer
 * wrote through a cJSON tree before it wrote the text directly (pinned from
 * that code: the long ones by length and FNV-1a sum), quotes and
 * backslashes escaped, the key order content, flags, allowed_mentions,
 * components, buttons in rows of five, the GM's head put before a content
 * it fits with and left off one it does not. */
static uint32_t
fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Renders r's channel part (freed here) in at most max parts; checks part
 * i against want[i] (its text, or NULL: its length and sum). */
static void
want_parts(struct reply *r, bool eph, struct discord_buttons *bs, size_t max, const char *head,
           const char *const *want, const size_t *len, const uint32_t *sum, size_t nwant)
{
	static const struct reply_msg empty = {0};
	const struct reply_msg *m = reply_msg(r, REPLY_CHANNEL);
	char *parts[2 * DISCORD_PARTS_MAX];
	size_t n = render_discord_parts(m != NULL ? m : &empty, eph, bs, head, parts, max);

	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++) {
		if (want[i] != NULL)
			assert_string_equal(parts[i], want[i]);
		assert_int_equal(strlen(parts[i]), len[i]);
		assert_int_equal(fnv1a(parts[i]), sum[i]);
		free(parts[i]);
	}
	reply_free(r);
}

static void
test_message_bytes(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(16, 1);
	struct reply *r;

	(void)state;
	r = reply_new();
	reply_line(r, 0, "Say \"hi\" \\ back\ttab \x01 and caf\xc3\xa9");
	want_parts(r, false, NULL, 1, NULL,
	           (const char *const[]){"{\"content\":\"Say \\\"hi\\\" \\\\\\\\ back tab  and "
	                                 "caf\xc3\xa9\",\"allowed_mentions\":{\"parse\":[]}}"},
	           (const size_t[]){81}, (const uint32_t[]){0xd68b3022u}, 1);
	r = reply_new();
	reply_line(r, RS_BOLD, "Secret **stuff** <@123>");
	want_parts(r, true, NULL, 1, NULL,
	           (const char *const[]){"{\"content\":\"**Secret \\\\*\\\\*stuff\\\\*\\\\* "
	                                 "\\\\<@123>**\",\"flags\":64,\"allowed_mentions\":{"
	                                 "\"parse\":[]}}"},
	           (const size_t[]){94}, (const uint32_t[]){0x07b80bb0u}, 1);
	r = reply_new();
	reply_line(r, 0, "Pick one:");
	for (int i = 0; i < 7; i++) {
		char label[16], action[32];

		snprintf(label, sizeof(label), "A\"%d", i);
		if (i == 3) /* an empty label reads "Run" */
			label[0] = '\0';
		snprintf(action, sizeof(action), "roll 1d%d", i + 4);
		if (i == 5)
			reply_button_update(r, label, action);
		else
			reply_button(r, label, action);
	}
	want_parts(
	    r, false, bs, 1, NULL,
	    (const char *const[]){
	        "{\"content\":\"Pick one:\",\"allowed_mentions\":{\"parse\":[]},\"components\":[{"
	        "\"type\":1,\"components\":[{\"type\":2,\"style\":1,\"label\":\"A\\\"0\","
	        "\"custom_id\":\"a:roll 1d4\"},{\"type\":2,\"style\":2,\"label\":\"A\\\"1\","
	        "\"custom_id\":\"a:roll 1d5\"},{\"type\":2,\"style\":2,\"label\":\"A\\\"2\","
	        "\"custom_id\":\"a:roll 1d6\"},{\"type\":2,\"style\":2,\"label\":\"Run\","
	        "\"custom_id\":\"a:roll 1d7\"},{\"type\":2,\"style\":2,\"label\":\"A\\\"4\","
	        "\"custom_id\":\"a:roll 1d8\"}]},{\"type\":1,\"components\":[{\"type\":2,"
	        "\"style\":2,\"label\":\"A\\\"5\",\"custom_id\":\"u:roll 1d9\"},{\"type\":2,"
	        "\"style\":2,\"label\":\"A\\\"6\",\"custom_id\":\"a:roll 1d10\"}]}]}"},
	    (const size_t[]){549}, (const uint32_t[]){0xd527758fu}, 1);
	r = reply_new();
	reply_button(r, "Again", "roll 1d6");
	want_parts(r, true, bs, 1, NULL,
	           (const char *const[]){
	               "{\"content\":\"\",\"flags\":64,\"allowed_mentions\":{\"parse\":[]},"
	               "\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,"
	               "\"label\":\"Again\",\"custom_id\":\"a:roll 1d6\"}]}]}"},
	           (const size_t[]){160}, (const uint32_t[]){0xd1ed4a6bu}, 1);
	want_parts(reply_new(), false, bs, 1, NULL,
	           (const char *const[]){"{\"content\":\"(nothing to show)\",\"allowed_mentions\":{"
	                                 "\"parse\":[]}}"},
	           (const size_t[]){63}, (const uint32_t[]){0xa0d7c0c9u}, 1);
	r = reply_new();
	reply_line(r, 0, "To the GM alone.");
	want_parts(r, false, bs, 1, "From <#4242>:\n",
	           (const char *const[]){"{\"content\":\"From <#4242>:\\nTo the GM alone.\","
	                                 "\"allowed_mentions\":{\"parse\":[]}}"},
	           (const size_t[]){77}, (const uint32_t[]){0xa00eb45du}, 1);
	r = reply_new();
	for (int i = 0; i < 120; i++)
		reply_line(r, 0, "Line %d of a long answer that needs several messages to be shown",
		           i);
	reply_button(r, "More", "help");
	want_parts(r, false, bs, 3, NULL, (const char *const[]){NULL, NULL, NULL},
	           (const size_t[]){2014, 2024, 2022},
	           (const uint32_t[]){0xd6dcb890u, 0xd7b177b6u, 0xf52e53d7u}, 3);
	r = reply_new();
	for (int i = 0; i < 120; i++)
		reply_line(r, 0, "Line %d of a long answer that needs several messages to be shown",
		           i);
	want_parts(r, true, bs, 1, "From <#4242>:\n", (const char *const[]){NULL},
	           (const size_t[]){2006}, (const uint32_t[]){0xebd16631u}, 1);
	discord_buttons_free(bs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain_markdown),
	    cmocka_unit_test(test_span_blanks_outside_markdown),
	    cmocka_unit_test(test_escapes_user_text),
	    cmocka_unit_test(test_dice_line_fenced),
	    cmocka_unit_test(test_fenced_backticks),
	    cmocka_unit_test(test_table_highlight),
	    cmocka_unit_test(test_long_table_summarised),
	    cmocka_unit_test(test_long_lines_dropped_from_end),
	    cmocka_unit_test(test_huge_line_cut),
	    cmocka_unit_test(test_parts_keep_everything),
	    cmocka_unit_test(test_parts_bounded),
	    cmocka_unit_test(test_parts_tables),
	    cmocka_unit_test(test_one_block),
	    cmocka_unit_test(test_table_cell_user),
	    cmocka_unit_test(test_utf16_length),
	    cmocka_unit_test(test_emoji_message_fits),
	    cmocka_unit_test(test_message_at_the_limit),
	    cmocka_unit_test(test_buttons),
	    cmocka_unit_test(test_empty_message),
	    cmocka_unit_test(test_invalid_utf8_repaired),
	    cmocka_unit_test(test_message_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
