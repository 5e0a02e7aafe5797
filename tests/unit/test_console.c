/*
 * bot/console on a real loop: stdin as a pipe and as a file, read to EOF
 * or to a quit line, stopped and freed; and its console-only lines (/as,
 * /channel, quit) and control characters, line by line. Under ASan the leak checker sees every path
 * that frees a console (the handle's close callback, the file read's callback).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "bot/console/console.h"
#include "bot/console/console_name.h"
#include "rules/base/buf.h"
#include "commands/core/dispatch.h"
#include "rules/base/rng.h"

struct run {
	struct console *c;
	int eofs;
	struct dispatch *d;
	uv_idle_t turn; /* the store in memory answers once a loop turn */
};

/* A loop turn: the store in memory (no loop of its own) answers what it
 * holds, as persist does in its idle turn. */
static void
turn_cb(uv_idle_t *h)
{
	struct run *r = h->data;

	dispatch_poll(r->d);
}

static void
on_eof(void *ctx)
{
	struct run *r = ctx;

	r->eofs++;
	console_stop(r->c);
	uv_close((uv_handle_t *)&r->turn, NULL);
}

/* Runs a console whose stdin is fd until EOF; returns what it printed. */
static char *
run_console(int fd)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "gm", .channel = "t", .ansi = false};
	char out_path[] = "/tmp/delver-console-XXXXXX";
	int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO);
	int out = mkstemp(out_path);
	struct run r = {0};
	uv_loop_t loop;
	char *text = calloc(1, 4096);

	assert_true(out >= 0 && text != NULL);
	assert_int_equal(uv_loop_init(&loop), 0);
	fflush(stdout);
	assert_true(dup2(fd, STDIN_FILENO) >= 0 && dup2(out, STDOUT_FILENO) >= 0);
	close(fd);
	r.d = d;
	uv_idle_init(&loop, &r.turn);
	r.turn.data = &r;
	uv_idle_start(&r.turn, turn_cb);
	r.c = console_start(&loop, d, &o, on_eof, &r);
	assert_non_null(r.c);
	uv_run(&loop, UV_RUN_DEFAULT);
	fflush(stdout);
	assert_true(dup2(saved_in, STDIN_FILENO) >= 0 && dup2(saved_out, STDOUT_FILENO) >= 0);
	close(saved_in);
	close(saved_out);
	assert_int_equal(r.eofs, 1);
	assert_int_equal(uv_loop_close(&loop), 0);
	assert_true(pread(out, text, 4095, 0) > 0);
	close(out);
	unlink(out_path);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
	return text;
}

static const char input[] = "/roll 1d6\n/gm claim\n";

static void
pipe_stdin(void **unused)
{
	int p[2];
	char *text;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], input, strlen(input)), (ssize_t)strlen(input));
	close(p[1]);
	text = run_console(p[0]);
	assert_non_null(strstr(text, "gm rolls"));
	assert_non_null(strstr(text, "gm is now the GM"));
	free(text);
}

static void
file_stdin(void **unused)
{
	char path[] = "/tmp/delver-console-in-XXXXXX";
	int fd = mkstemp(path);
	char *text;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, input, strlen(input)), (ssize_t)strlen(input));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	unlink(path);
	text = run_console(fd);
	assert_non_null(strstr(text, "gm rolls"));
	assert_non_null(strstr(text, "gm is now the GM"));
	free(text);
}

/* A quit line ends the input: what follows it is not read, and on_eof
 * runs once. */
static void
quit_ends_input(void **unused)
{
	static const char *const words[] = {"quit", "exit"};

	for (size_t i = 0; i < 2; i++) {
		char in[64];
		int p[2];
		char *text;
		int n = snprintf(in, sizeof(in), "/roll 1d6\n%s\n/gm claim\n", words[i]);

		assert_int_equal(pipe(p), 0);
		assert_int_equal(write(p[1], in, (size_t)n), n);
		close(p[1]);
		text = run_console(p[0]);
		assert_non_null(strstr(text, "gm rolls"));
		assert_null(strstr(text, "GM"));
		free(text);
	}
}

/* One line through console_handle_line; returns what it printed. */
static char *
say(struct console *c, const char *line, bool *more)
{
	struct buf out;
	char *text;

	buf_init(&out, 1 << 16);
	*more = console_handle_line(c, line, strlen(line), &out);
	text = strdup(out.p != NULL ? out.p : "");
	buf_free(&out);
	return text;
}

/* Checks that line prints want and keeps the console going. */
static void
says(struct console *c, const char *line, const char *want)
{
	bool more;
	char *text = say(c, line, &more);

	assert_string_equal(text, want);
	assert_true(more);
	free(text);
}

static void
as_and_channel(void **unused)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "gm", .channel = "t", .echo = true};
	struct console *c = console_new(d, &o);
	bool more;
	char *text;

	says(c, "/as", "gm> /as\nYou are gm; /as NAME changes it.\n");
	says(c, "/channel  ", "gm> /channel\nYou are in channel t; /channel NAME changes it.\n");
	says(c, "/as alice", "gm> /as alice\nYou are now alice.\n");
	says(c, "/as", "alice> /as\nYou are alice; /as NAME changes it.\n");
	says(c, "/channel crypt", "alice> /channel crypt\nYou are now in channel crypt.\n");
	says(c, "/channel",
	     "alice> /channel\nYou are in channel crypt; /channel NAME changes it.\n");
	says(c, "/as a:b",
	     "alice> /as a:b\n/as NAME: a name is 1 to 63 bytes of UTF-8 with no spaces, colons or "
	     "control characters (got a colon).\n");
	/* "/ask" is not "/as k". */
	text = say(c, "/ask", &more);
	assert_non_null(strstr(text, "Unknown command 'ask'"));
	free(text);
	text = say(c, "quit", &more);
	assert_string_equal(text, "alice> quit\n");
	assert_false(more);
	free(text);
	/* recheck F2: words after quit or exit are refused as such, not as an
	 * unknown command, and the console goes on. */
	says(c, "quit now",
	     "alice> quit now\nquit takes no words after it: type quit alone to leave the "
	     "console.\n");
	says(c, "/Exit now",
	     "alice> /Exit now\nexit takes no words after it: type exit alone to leave the "
	     "console.\n");
	says(c, "!quit please",
	     "alice> !quit please\nquit takes no words after it: type quit alone to leave the "
	     "console.\n");
	/* Only the whole word: "quitter" is a line like any other. */
	text = say(c, "quitter", &more);
	assert_non_null(strstr(text, "Unknown command 'quitter'"));
	assert_true(more);
	free(text);
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
}

/* newcomer F22: the console's own words are read as every command is:
 * after blanks, in any case. */
static void
console_words_in_any_case_after_blanks(void **unused)
{
	static const char *const quits[] = {" quit", "QUIT", "  /Exit", "\t!quit "};
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "gm", .channel = "t", .echo = true};
	struct console *c = console_new(d, &o);

	(void)unused;
	says(c, "  /as bob", "gm>   /as bob\nYou are now bob.\n");
	says(c, "/AS carol", "bob> /AS carol\nYou are now carol.\n");
	says(c, " Channel crypt", "carol>  Channel crypt\nYou are now in channel crypt.\n");
	says(c, "!CHANNEL",
	     "carol> !CHANNEL\nYou are in channel crypt; /channel NAME changes it.\n");
	for (size_t i = 0; i < sizeof(quits) / sizeof(quits[0]); i++) {
		bool more;
		char *text = say(c, quits[i], &more);

		assert_false(more);
		assert_null(strstr(text, "Unknown command"));
		free(text);
	}
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
}

/* Control characters never reach the terminal raw: ESC [ A (an arrow key
 * in a terminal without line editing) comes back as its picture, in the
 * echo and in the error quoting it. */
static void
control_characters_pictured(void **unused)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "gm", .channel = "t", .echo = true};
	struct console *c = console_new(d, &o);
	bool more;
	char *text = say(c, "\033[A\x7f", &more);

	assert_non_null(strstr(text, "gm> \u241b[A\u2421\n"));
	assert_non_null(strstr(text, "'\u241b[A\u2421'"));
	for (const char *p = text; *p != '\0'; p++)
		assert_true((unsigned char)*p >= 0x20 || *p == '\n');
	free(text);
	/* A tab is a space. */
	says(c, "/as\tbob", "gm> /as bob\nYou are now bob.\n");
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
}

/* recheck3 F2: the echo of a line longer than CONSOLE_ECHO_MAX bytes is cut
 * on a character with "…", never silently or inside a character; a line
 * that fits is echoed whole. */
static void
long_line_echo_marked(void **unused)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "gm", .channel = "t", .echo = true};
	struct console *c = console_new(d, &o);
	char line[400], want[500], a150[151], z100[101];
	const char *jp = "日本語のラベル"; /* 7 characters of 3 bytes */
	char *text;
	bool more;

	(void)unused;
	memset(a150, 'a', 150);
	a150[150] = '\0';
	memset(z100, 'Z', 100);
	z100[100] = '\0';
	/* 13 + 150 + 100 = 263 bytes: 197 of them and "…" (3 bytes) are 200. */
	snprintf(line, sizeof(line), "/roll 1d20 # %.150s%.100s", a150, z100);
	snprintf(want, sizeof(want), "gm> /roll 1d20 # %.150s%.34s…\n", a150, z100);
	text = say(c, line, &more);
	assert_true(strncmp(text, want, strlen(want)) == 0);
	free(text);
	/* 13 + 10 x 21 bytes: 61 characters (183 bytes) fit in 197, not 62. */
	snprintf(line, sizeof(line), "/roll 1d20 # %s%s%s%s%s%s%s%s%s%s", jp, jp, jp, jp, jp, jp,
	         jp, jp, jp, jp);
	snprintf(want, sizeof(want), "gm> /roll 1d20 # %s%s%s%s%s%s%s%s日本語のラ…\n", jp, jp, jp,
	         jp, jp, jp, jp, jp);
	text = say(c, line, &more);
	assert_true(strncmp(text, want, strlen(want)) == 0);
	free(text);
	/* 200 bytes exactly: whole. */
	snprintf(line, sizeof(line), "/roll 1d20 # %.150s%.37s", a150, z100);
	snprintf(want, sizeof(want), "gm> %s\n", line);
	text = say(c, line, &more);
	assert_true(strncmp(text, want, strlen(want)) == 0);
	free(text);
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
}

/* Names go through the sanitiser every label goes through: a right-to-left
 * override in /as, /channel or the names given at start is never echoed
 * (it would reorder the line on the terminal); a name too long is refused,
 * never cut, and in the words --user and --channel use. */
static void
names_cleaned(void **unused)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "g\u202em", .channel = "t\u2066\u2069", .echo = true};
	struct console *c = console_new(d, &o);
	char line[100], want[800], cleaned[NAME_MAX_LEN], err[256];
	char *text;
	bool more;

	says(c, "/channel", "gm> /channel\nYou are in channel t; /channel NAME changes it.\n");
	says(c, "/as al\u202eice", "gm> /as alice\nYou are now alice.\n");
	says(c, "/channel cr\u200bypt", "alice> /channel crypt\nYou are now in channel crypt.\n");
	says(c, "/as \u202e",
	     "alice> /as \n/as NAME: a name is 1 to 63 bytes of UTF-8 with no spaces, colons or "
	     "control characters (got only invisible characters).\n");
	/* 63 bytes is a name; 64 is refused as --user refuses it. */
	memset(line, 0, sizeof(line));
	memcpy(line, "/as ", 4);
	memset(line + 4, 'a', 63);
	text = say(c, line, &more);
	snprintf(want, sizeof(want), "alice> %s\nYou are now %s.\n", line, line + 4);
	assert_string_equal(text, want);
	free(text);
	line[4 + 63] = 'a';
	assert_int_equal(console_name_clean("--user", line + 4, 64, cleaned, err, sizeof(err)), -1);
	assert_string_equal(cleaned, "");
	assert_string_equal(err, "--user NAME: a name is 1 to 63 bytes of UTF-8 with no spaces, "
	                         "colons or control characters (got 64 bytes).");
	text = say(c, line, &more);
	snprintf(want, sizeof(want), "%.63s> %s\n/as NAME: %s\n", line + 4, line,
	         err + strlen("--user NAME: "));
	assert_string_equal(text, want);
	free(text);
	/* opcheck5 O1: a control character is refused the same way on the
	 * command line and in /as or /channel (which read it as the console
	 * shows it, a picture): one name never becomes two identities. */
	assert_int_equal(console_name_clean("--user", "p\033q", 3, cleaned, err, sizeof(err)), -1);
	assert_string_equal(err, "--user NAME: a name is 1 to 63 bytes of UTF-8 with no spaces, "
	                         "colons or control characters (got a control character).");
	assert_int_equal(console_name_clean("--channel", "c\177d", 3, cleaned, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "(got a control character)."));
	text = say(c, "/as x\033y", &more);
	assert_string_equal(text,
	                    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa> /as "
	                    "x\u241by\n/as NAME: a name is 1 to 63 bytes of "
	                    "UTF-8 with no spaces, colons or control characters (got a "
	                    "control character).\n");
	free(text);
	text = say(c, "/channel c\001d", &more);
	assert_non_null(strstr(text, "/channel NAME: a name is 1 to 63 bytes"));
	assert_non_null(strstr(text, "(got a control character).\n"));
	free(text);
	/* A C1 control (U+0080-U+009F) is a control character too: refused,
	 * not dropped (U+009B) nor made a space (U+0085, which the sentence
	 * would then call a space). Pictures are known by code point: U+2421
	 * (DEL's) is refused, U+23FF and U+2422 either side of the pictures
	 * are names. */
	assert_int_equal(console_name_clean("--user", "p\xc2\x9bq", 4, cleaned, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "(got a control character)."));
	assert_int_equal(console_name_clean("--user", "p\xc2\x85q", 4, cleaned, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "(got a control character)."));
	assert_int_equal(console_name_clean("--user", "p\u2421", 4, cleaned, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(got a control character)."));
	assert_int_equal(console_name_clean("--user", "p\u2422", 4, cleaned, err, sizeof(err)), 0);
	assert_string_equal(cleaned, "p\u2422");
	assert_int_equal(console_name_clean("--user", "\u23ff\u2422", 6, cleaned, err, sizeof(err)),
	                 0);
	assert_string_equal(cleaned, "\u23ff\u2422");
	/* Invalid UTF-8 and a name far too long are refused without cleaning. */
	assert_int_equal(console_name_clean("--channel", "\xff", 1, cleaned, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(got bytes that are not UTF-8)."));
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(pipe_stdin),
	    cmocka_unit_test(file_stdin),
	    cmocka_unit_test(quit_ends_input),
	    cmocka_unit_test(as_and_channel),
	    cmocka_unit_test(console_words_in_any_case_after_blanks),
	    cmocka_unit_test(control_characters_pictured),
	    cmocka_unit_test(names_cleaned),
	    cmocka_unit_test(long_line_echo_marked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
