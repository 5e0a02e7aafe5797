/* Unit tests for commands/core/reply and bot/console/render_text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "commands/core/reply.h"
#include "commands/core/reply_fmt.h"
#include "rules/base/buf.h"

static char *
render(const struct reply *r, enum reply_audience a, bool ansi)
{
	struct buf b;

	buf_init(&b, 1 << 16);
	render_text(reply_msg(r, a), ansi, &b);
	return buf_take(&b);
}

/* hidden4 H2: a channel span is its key in the model; the console shows
 * the channel's name, never the key (console:crypt, irc:net:#gmroom). */
static void
a_channel_is_named_not_keyed(void **unused)
{
	struct reply *r = reply_new();
	char *s;

	(void)unused;
	reply_add(r, 0, "Copied from ");
	reply_add(r, RS_CHANNEL, "%s", "console:home");
	reply_add(r, 0, " and ");
	reply_add(r, RS_CHANNEL, "%s", "irc:net:#gmroom");
	reply_nl(r);
	s = render(r, REPLY_CHANNEL, false);
	assert_string_equal(s, "Copied from home and #gmroom\n");
	free(s);
	reply_free(r);
}

static void
lines_spans_and_private_part(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;
	char *s;

	assert_null(reply_msg(r, REPLY_CHANNEL));
	reply_title(r, "Roll %d", 1);
	reply_add(r, 0, "4d6kh3: [");
	reply_add(r, RS_STRUCK, "%d", 1);
	reply_add(r, 0, ", 6] = ");
	reply_add(r, RS_BOLD, "%d", 6);
	reply_nl(r);
	reply_to(r, REPLY_INVOKER);
	reply_line(r, 0, "secret");
	m = reply_msg(r, REPLY_CHANNEL);
	assert_non_null(m);
	assert_string_equal(m->title, "Roll 1");
	assert_int_equal(m->nblocks, 1);
	assert_int_equal(m->blocks[0].nspans, 4);
	assert_int_equal(m->blocks[0].spans[1].style, RS_STRUCK);
	s = reply_plain(r);
	assert_string_equal(s, "Roll 1\n4d6kh3: [1, 6] = 6\n[private]\nsecret\n");
	free(s);
	s = render(r, REPLY_CHANNEL, false);
	assert_string_equal(s, "Roll 1\n4d6kh3: [~~1~~, 6] = 6\n");
	free(s);
	s = render(r, REPLY_CHANNEL, true);
	assert_string_equal(s, "\033[1mRoll 1\033[0m\n4d6kh3: [\033[0;9m1\033[0m, 6] = "
	                       "\033[0;1m6\033[0m\n");
	free(s);
	reply_free(r);
}

static void
user_style_carries_mark_and_colour(void **unused)
{
	struct reply *r = reply_new();
	struct thwacko_style us = {.colour = UC_PINK, .mark = "◆"};
	char *s;

	reply_add(r, 0, "alice ");
	reply_add_user(r, &us, RS_BOLD, "%d", 5);
	reply_nl(r);
	s = render(r, REPLY_CHANNEL, false);
	assert_string_equal(s, "alice ◆5\n");
	free(s);
	s = render(r, REPLY_CHANNEL, true);
	assert_string_equal(s, "alice \033[0;1;35;4m◆5\033[0m\n");
	free(s);
	reply_free(r);
}

static void
table_with_highlighted_row(void **unused)
{
	struct reply *r = reply_new();
	static const char *const hdr[] = {"roll", "result"};
	static const char *const a[] = {"1", "Encounter"}, *const b[] = {"5-6", "Nothing"};
	char *s;

	reply_table(r, 2, hdr);
	reply_row(r, false, a);
	reply_row(r, true, b);
	s = render(r, REPLY_CHANNEL, false);
	assert_string_equal(s, "  roll  result\n"
	                       "  1     Encounter\n"
	                       "▶ 5-6   Nothing\n");
	free(s);
	s = render(r, REPLY_CHANNEL, true);
	assert_string_equal(s, "  \033[1mroll  result\033[0m\n"
	                       "  \033[2m1     Encounter\033[0m\n"
	                       "▶ \033[1;33m5-6   Nothing\033[0m\n");
	free(s);
	reply_free(r);
}

static void
error_replaces_everything(void **unused)
{
	struct reply *r = reply_new();
	char *s;

	reply_line(r, 0, "half a reply");
	reply_to(r, REPLY_INVOKER);
	reply_line(r, 0, "private half");
	reply_error(r, "That is wrong; %s is allowed.", "this");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r), "That is wrong; this is allowed.");
	assert_null(reply_msg(r, REPLY_INVOKER));
	s = reply_plain(r);
	assert_string_equal(s, "That is wrong; this is allowed.\n");
	free(s);
	s = render(r, REPLY_CHANNEL, false);
	assert_string_equal(s, "That is wrong; this is allowed.\n");
	free(s);
	reply_free(r);
}

/* An error from a module's sentence: its {/...} become references, a
 * brace without a slash stays text, and a sentence without any is one span. */
static void
error_with_references(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;

	reply_error_refs(r, "Full {x}; delete one with {/saved delete name=NAME} first.");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "Full {x}; delete one with /saved delete NAME first.");
	m = reply_msg(r, REPLY_CHANNEL);
	assert_int_equal(m->nblocks, 1);
	assert_int_equal(m->blocks[0].nspans, 3);
	assert_string_equal(m->blocks[0].spans[0].text, "Full {x}; delete one with ");
	assert_int_equal(m->blocks[0].spans[1].style, RS_BAD | RS_CMD);
	assert_string_equal(m->blocks[0].spans[1].cmd->path, "saved delete");
	assert_string_equal(m->blocks[0].spans[1].cmd->opts[0].value, "NAME");
	assert_int_equal(m->blocks[0].spans[2].style, RS_BAD);
	assert_string_equal(m->blocks[0].spans[2].text, " first.");
	reply_error_refs(r, "No brace at all.");
	assert_string_equal(reply_error_text(r), "No brace at all.");
	assert_int_equal(reply_msg(r, REPLY_CHANNEL)->blocks[0].nspans, 1);
	reply_free(r);
}

static void
buttons_and_long_spans(void **unused)
{
	struct reply *r = reply_new();
	char *big = malloc(10000), *s;

	memset(big, 'x', 9999);
	big[9999] = '\0';
	reply_line(r, 0, "%s", big);
	reply_button(r, "Roll again", "roll 4d6kh3");
	s = render(r, REPLY_CHANNEL, false);
	/* an over-long span is replaced by an ellipsis, never cut mid-character */
	assert_string_equal(s, "…\n[Roll again: /roll 4d6kh3]\n");
	free(s);
	free(big);
	reply_free(r);
}

/* Plain text after plain text joins one span, also past a chunk's end (a
 * new span then), and the joined text is exactly the pieces in order. */
static void
plain_spans_join(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;
	struct buf want, got;

	buf_init(&want, 1 << 20);
	buf_init(&got, 1 << 20);
	for (int round = 0; round < 2; round++) { /* the second reuses the arena */
		reply_clear(r);
		buf_reset(&want);
		buf_reset(&got);
		reply_add(r, RS_BOLD, "bold");
		for (int i = 0; i < 3000; i++) {
			reply_add(r, 0, "%d,", i);
			buf_addf(&want, "%d,", i);
		}
		reply_add(r, RS_DIM, "dim");
		reply_add(r, 0, "a");
		reply_add(r, 0, "b");
		reply_nl(r);
		m = reply_msg(r, REPLY_CHANNEL);
		assert_int_equal(m->nblocks, 1);
		assert_string_equal(m->blocks[0].spans[0].text, "bold");
		assert_true(m->blocks[0].nspans >= 5);
		assert_true(m->blocks[0].nspans < 10); /* one per arena chunk or so */
		for (size_t i = 1; i + 2 < m->blocks[0].nspans; i++) {
			assert_int_equal(m->blocks[0].spans[i].style, 0);
			assert_int_equal(m->blocks[0].spans[i].len,
			                 strlen(m->blocks[0].spans[i].text));
			buf_adds(&got, m->blocks[0].spans[i].text);
		}
		assert_string_equal(buf_str(&got), buf_str(&want));
		assert_string_equal(m->blocks[0].spans[m->blocks[0].nspans - 2].text, "dim");
		assert_string_equal(m->blocks[0].spans[m->blocks[0].nspans - 1].text, "ab");
		assert_int_equal(m->blocks[0].spans[m->blocks[0].nspans - 1].len, 2);
	}
	buf_free(&want);
	buf_free(&got);
	reply_free(r);
}

/* Formats the quick path takes and those it leaves to printf agree. */
static void
formats(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;
	char big[700];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	reply_add(r, RS_BOLD, "%d|%zu|%lld|%s|100%%", -42, (size_t)7, -9223372036854775807LL - 1,
	          "s");
	reply_add(r, RS_DIM, "%3d|%.2s|%x", 5, "abc", 255);
	reply_add(r, RS_BOLD, "<%s>", big);
	reply_add(r, RS_DIM, "%zu", (size_t)-1);
	m = reply_msg(r, REPLY_CHANNEL);
	assert_string_equal(m->blocks[0].spans[0].text, "-42|7|-9223372036854775808|s|100%");
	assert_string_equal(m->blocks[0].spans[1].text, "  5|ab|ff");
	assert_int_equal(m->blocks[0].spans[2].len, 701);
	assert_int_equal(m->blocks[0].spans[2].text[700], '>');
	assert_string_equal(m->blocks[0].spans[3].text, "18446744073709551615");
	reply_free(r);
}

/* A precision cuts on a character boundary; text that is not UTF-8 all
 * the same (a name cut badly elsewhere) is repaired with U+FFFD. */
static void
always_utf8(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;

	reply_add(r, RS_BOLD, "'%.3s'", "aéb");
	reply_add(r, RS_DIM, "'%.2s'", "aéb");
	reply_add(r, RS_BOLD, "'%.*s' %d", 2, "aéb", 7);
	reply_add(r, RS_DIM, "%.9s|", "ab");
	reply_add(r, RS_BOLD, "%s", "x\xC3");
	reply_add(r, RS_DIM, "<%s>", "\xE2\x96");
	m = reply_msg(r, REPLY_CHANNEL);
	assert_string_equal(m->blocks[0].spans[0].text, "'aé'");
	assert_string_equal(m->blocks[0].spans[1].text, "'a'");
	assert_string_equal(m->blocks[0].spans[2].text, "'a' 7");
	assert_string_equal(m->blocks[0].spans[3].text, "ab|");
	assert_string_equal(m->blocks[0].spans[4].text, "x\xEF\xBF\xBD");
	assert_int_equal(m->blocks[0].spans[4].len, 4);
	assert_string_equal(m->blocks[0].spans[5].text, "<\xEF\xBF\xBD\xEF\xBF\xBD>");
	reply_error(r, "Unknown '%.2s'; also %s.", "aé", "\xC3");
	assert_string_equal(reply_error_text(r), "Unknown 'a'; also \xEF\xBF\xBD.");
	reply_free(r);
}

/* Every character textsafe removes, one per string, each between 'a' and
 * 'b': bidi controls, breaks, C0 and C1 controls, zero-width characters. */
static const char *const unsafe[] = {"\xE2\x80\xAE", "\xE2\x80\xAA",
                                     "\xE2\x80\xAB", "\xE2\x80\xAC",
                                     "\xE2\x80\xAD", "\xE2\x81\xA6",
                                     "\xE2\x81\xA7", "\xE2\x81\xA8",
                                     "\xE2\x81\xA9", "\xE2\x80\x8E",
                                     "\xE2\x80\x8F", "\xD8\x9C",
                                     "\xC2\x85",     "\xE2\x80\xA8",
                                     "\xE2\x80\xA9", "\xE2\x80\x8B",
                                     "\xE2\x80\x8C", "\xE2\x80\x8D",
                                     "\xE2\x81\xA0", "\xEF\xBB\xBF",
                                     "\x01",         "\x1B",
                                     "\x7F",         "\xC2\x9B",
                                     "\xC2\xAD",     "\xF3\xA0\x80\x81"};

/* User text reaches a reply through spans, titles, cells, buttons, errors
 * and marks; none of them lets a control or invisible character through. */
static void
user_text_is_made_safe(void **unused)
{
	for (size_t i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++) {
		struct reply *r = reply_new();
		const struct reply_msg *m;
		const char *cells[1];
		char text[32], *plain;
		/* Breaks become a space; everything else goes. */
		const char *want = strcmp(unsafe[i], "\xC2\x85") == 0 ||
		                           strcmp(unsafe[i], "\xE2\x80\xA8") == 0 ||
		                           strcmp(unsafe[i], "\xE2\x80\xA9") == 0
		                       ? "a b"
		                       : "ab";
		struct thwacko_style us = {UC_RED, ""};

		snprintf(text, sizeof(text), "a%sb", unsafe[i]);
		memcpy(us.mark, text, strlen(text) + 1); /* at most 7 bytes */
		cells[0] = text;
		reply_title(r, "%s", text);
		reply_add(r, RS_BOLD, "%s", text);
		reply_add(r, RS_ITALIC, " %s ", text);
		reply_add_user(r, &us, 0, "%s", text);
		reply_table(r, 1, cells);
		reply_row(r, true, cells);
		reply_button(r, text, text);
		m = reply_msg(r, REPLY_CHANNEL);
		assert_string_equal(m->title, want);
		assert_string_equal(m->blocks[0].spans[0].text, want);
		assert_int_equal(m->blocks[0].spans[0].len, strlen(want));
		assert_string_equal(m->blocks[0].spans[2].text, want);
		assert_string_equal(m->blocks[0].spans[2].user.mark, want);
		assert_string_equal(m->blocks[1].header[0], want);
		assert_string_equal(m->blocks[1].rows[0].cells[0], want);
		assert_string_equal(m->buttons[0].label, want);
		assert_string_equal(m->buttons[0].action, want);
		plain = reply_plain(r);
		assert_null(strstr(plain, unsafe[i]));
		free(plain);
		reply_error(r, "Bad %s.", text);
		assert_string_equal(reply_error_text(r),
		                    strcmp(want, "ab") == 0 ? "Bad ab." : "Bad a b.");
		reply_free(r);
	}
}

/* Text is checked eight ASCII bytes at a time: an unsafe character at any
 * offset of a longer line is still found and removed. */
static void
unsafe_at_every_offset(void **unused)
{
	static const char plain[] = "abcdefghijklmnopqrstu"; /* 21 bytes */

	for (size_t i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++) {
		bool is_break = strcmp(unsafe[i], "\xC2\x85") == 0 ||
		                strcmp(unsafe[i], "\xE2\x80\xA8") == 0 ||
		                strcmp(unsafe[i], "\xE2\x80\xA9") == 0;

		for (size_t at = 0; at <= sizeof(plain) - 1; at++) {
			struct reply *r = reply_new();
			const char *cells[1];
			char text[64], want[64];

			snprintf(text, sizeof(text), "%.*s%s%s", (int)at, plain, unsafe[i],
			         plain + at);
			snprintf(want, sizeof(want), "%.*s%s%s", (int)at, plain,
			         is_break ? " " : "", plain + at);
			cells[0] = text;
			reply_table(r, 1, NULL);
			reply_row(r, false, cells);
			assert_string_equal(reply_msg(r, REPLY_CHANNEL)->blocks[0].rows[0].cells[0],
			                    want);
			reply_free(r);
		}
	}
}

/* Tab and newline inside text become spaces: a span stays on its line. */
static void
breaks_become_spaces(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;

	reply_add(r, RS_BOLD, "x\ty\nz\r");
	reply_add(r, RS_DIM, "%s|%d", "1\n2", 3);
	m = reply_msg(r, REPLY_CHANNEL);
	assert_string_equal(m->blocks[0].spans[0].text, "x y z ");
	assert_string_equal(m->blocks[0].spans[1].text, "1 2|3");
	reply_free(r);
}

/* A zero-width joiner between emoji joins them and stays; so do a flag's
 * tag characters, a non-joiner between two Persian letters, a joiner
 * after a virama, and text with no unsafe character is left as it is. */
static void
emoji_sequences_stay(void **unused)
{
	static const char *const keep[] = {
	    "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x94\xAC",             /* woman scientist */
	    "\xF0\x9F\x8F\xB3\xEF\xB8\x8F\xE2\x80\x8D\xF0\x9F\x8C\x88", /* rainbow flag */
	    "\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xB3\xF3\xA0\x81\xA3"
	    "\xF3\xA0\x81\xB4\xF3\xA0\x81\xBF", /* Scotland */
	    "caf\xC3\xA9 \xE2\x80\x94 \xE2\x80\xA6 \xE2\x86\x92 \xD8\xB3\xD9\x84\xD8\xA7\xD9\x85",
	    "\xD8\xB9\xD9\x84\xDB\x8C\xE2\x80\x8C\xD8\xB1\xD8\xB6\xD8\xA7", /* Persian ZWNJ */
	    "\xE0\xA4\x95\xE0\xA5\x8D\xE2\x80\x8D\xE0\xA4\xB7", /* half form after a virama */
	};
	struct reply *r = reply_new();
	const struct reply_msg *m;

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		reply_add(r, RS_BOLD, "%s", keep[i]);
	reply_add(r, RS_BOLD, "a\xE2\x80\x8D\xF0\x9F\x94\xAC"); /* joiner after a letter */
	m = reply_msg(r, REPLY_CHANNEL);
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		assert_string_equal(m->blocks[0].spans[i].text, keep[i]);
	assert_string_equal(m->blocks[0].spans[sizeof(keep) / sizeof(keep[0])].text,
	                    "a\xF0\x9F\x94\xAC");
	reply_free(r);
}

/* Arrays grow past several doublings and keep every item. */
static void
many_spans_rows_and_blocks(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;
	char cell[16];
	const char *cells[1] = {cell};

	for (int i = 0; i < 1000; i++)
		reply_add(r, i % 2 ? RS_BOLD : RS_DIM, "%d,", i);
	reply_nl(r);
	for (int i = 0; i < 100; i++) {
		snprintf(cell, sizeof(cell), "row %d", i);
		reply_row(r, i == 57, cells);
	}
	for (int i = 0; i < 70; i++)
		reply_line(r, 0, "line %d", i);
	for (int i = 0; i < 20; i++)
		reply_button(r, "b", "help");
	m = reply_msg(r, REPLY_CHANNEL);
	assert_int_equal(m->nblocks, 72);
	assert_int_equal(m->blocks[0].nspans, 1000);
	assert_string_equal(m->blocks[0].spans[999].text, "999,");
	assert_string_equal(m->blocks[0].spans[8].text, "8,");
	assert_int_equal(m->blocks[1].nrows, 100);
	assert_string_equal(m->blocks[1].rows[99].cells[0], "row 99");
	assert_true(m->blocks[1].rows[57].highlight);
	assert_false(m->blocks[1].rows[58].highlight);
	assert_string_equal(m->blocks[71].spans[0].text, "line 69");
	assert_int_equal(m->nbuttons, 20);
	reply_free(r);
}

/* The GM's message: its own audience, its recipient named (the name made
 * safe as all user text), dropped by reply_clear and by an error. */
static void
test_gm_audience(void **state)
{
	struct reply *r = reply_new();
	char *t;

	(void)state;
	assert_null(reply_gm_key(r));
	reply_line(r, 0, "al rolls in secret.");
	reply_to_gm(r, "console:bo", "b\xe2\x80\xaeo");
	reply_line(r, 0, "= 7");
	assert_string_equal(reply_gm_key(r), "console:bo");
	assert_string_equal(reply_gm_name(r), "bo");
	assert_null(reply_msg(r, REPLY_INVOKER));
	assert_int_equal(reply_msg(r, REPLY_GM)->nblocks, 1);
	t = reply_plain(r);
	assert_string_equal(t, "al rolls in secret.\n[to the GM, bo]\n= 7\n");
	free(t);
	reply_clear(r);
	assert_null(reply_gm_key(r));
	assert_null(reply_msg(r, REPLY_GM));
	reply_to_gm(r, "console:bo", "bo");
	reply_line(r, 0, "= 7");
	reply_error(r, "Wrong.");
	assert_null(reply_msg(r, REPLY_GM));
	assert_null(reply_gm_name(r));
	reply_free(r);
}

/* A lower-level module's words open an error: a capital first, in the one
 * span of the error; a sentence gets its full stop once. */
static void
error_capital_and_sentence(void **unused)
{
	struct reply *r = reply_new();
	const struct reply_msg *m;

	(void)unused;
	reply_error_capital(r, "%s; usage: ", "a subcommand is needed");
	assert_string_equal(reply_error_text(r), "A subcommand is needed; usage: ");
	m = reply_msg(r, REPLY_CHANNEL);
	assert_int_equal(m->blocks[0].nspans, 1);
	assert_string_equal(m->blocks[0].spans[0].text, "A subcommand is needed; usage: ");
	reply_error_capital(r, "'%s' is no word", "x");
	assert_string_equal(reply_error_text(r), "'x' is no word");
	reply_error_sentence(r, "expected a number at column 3");
	assert_string_equal(reply_error_text(r), "Expected a number at column 3.");
	reply_error_sentence(r, "Already one.");
	assert_string_equal(reply_error_text(r), "Already one.");
	reply_free(r);
}

/* A list written item by item: "a", "a or b", "a, b or c". */
static void
list_separators(void **unused)
{
	static const char *const words[] = {"a", "b", "c", "d"};
	static const char *const want[] = {"", "a", "a or b", "a, b or c", "a, b, c and d"};

	(void)unused;
	for (size_t n = 1; n <= 4; n++) {
		char text[32] = "";

		for (size_t i = 0; i < n; i++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s",
			         reply_list_sep(i, n, n == 4 ? " and " : " or "), words[i]);
		assert_string_equal(text, want[n]);
	}
}

static size_t
quick(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = reply_fmt_quick(out, size, fmt, ap);
	va_end(ap);
	return n;
}

/* reply_fmt_quick copies literal text a run at a time: runs before,
 * between and after conversions, "%%", and the text that exactly fills
 * the buffer or is one byte too long for it (printf's turn then). */
static void
quick_formats_literal_runs(void **unused)
{
	char out[16];

	assert_int_equal(quick(out, sizeof(out), "Tension %s %d/%d", "up", 4, 10), 15);
	assert_string_equal(out, "Tension up 4/10");
	assert_int_equal(quick(out, sizeof(out), "100%% sure"), 9);
	assert_string_equal(out, "100% sure");
	assert_int_equal(quick(out, sizeof(out), "%s", "plain"), 5);
	assert_string_equal(out, "plain");
	assert_int_equal(quick(out, sizeof(out), "abcdefghijklmno"), 15);
	assert_string_equal(out, "abcdefghijklmno");
	assert_int_equal(quick(out, sizeof(out), "abcdefghijklmnop"), SIZE_MAX);
	assert_int_equal(quick(out, sizeof(out), "abcdefghijklm%d", 12), 15);
	assert_string_equal(out, "abcdefghijklm12");
	assert_int_equal(quick(out, sizeof(out), "abcdefghijklmn%d", 12), SIZE_MAX);
	assert_int_equal(quick(out, sizeof(out), "%dabcdefghijklmn", 1), 15);
	assert_string_equal(out, "1abcdefghijklmn");
	assert_int_equal(quick(out, sizeof(out), "%x", 1), SIZE_MAX);
	assert_int_equal(quick(out, sizeof(out), ""), 0);
	assert_string_equal(out, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lines_spans_and_private_part),
	    cmocka_unit_test(a_channel_is_named_not_keyed),
	    cmocka_unit_test(user_style_carries_mark_and_colour),
	    cmocka_unit_test(table_with_highlighted_row),
	    cmocka_unit_test(error_replaces_everything),
	    cmocka_unit_test(error_with_references),
	    cmocka_unit_test(buttons_and_long_spans),
	    cmocka_unit_test(many_spans_rows_and_blocks),
	    cmocka_unit_test(plain_spans_join),
	    cmocka_unit_test(formats),
	    cmocka_unit_test(always_utf8),
	    cmocka_unit_test(user_text_is_made_safe),
	    cmocka_unit_test(unsafe_at_every_offset),
	    cmocka_unit_test(breaks_become_spaces),
	    cmocka_unit_test(emoji_sequences_stay),
	    cmocka_unit_test(test_gm_audience),
	    cmocka_unit_test(list_separators),
	    cmocka_unit_test(error_capital_and_sentence),
	    cmocka_unit_test(quick_formats_literal_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
