/* Unit tests for bot/irc/irc_line: parsing (tags, prefix, params) and building. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_line.h"

/* irc_line_build with the parameters as arguments, ended by NULL (at most
 * IRC_PARAMS_MAX of them). */
static int __attribute__((sentinel)) build(char *out, size_t size, const char *cmd, ...)
{
	const char *params[IRC_PARAMS_MAX];
	size_t n = 0;
	const char *p;
	va_list ap;

	va_start(ap, cmd);
	while ((p = va_arg(ap, const char *)) != NULL) {
		assert_true(n < IRC_PARAMS_MAX);
		params[n++] = p;
	}
	va_end(ap);
	return irc_line_build(out, size, cmd, params, n);
}

static int
parse(struct irc_msg *m, const char *s)
{
	return irc_line_parse(m, s, strlen(s));
}

static void
test_parse_privmsg(void **state)
{
	static struct irc_msg m;

	(void)state;
	assert_int_equal(parse(&m, ":alice!al@example.org PRIVMSG #Dice :!roll 2d6 now"), 0);
	assert_string_equal(m.nick, "alice");
	assert_string_equal(m.user, "al");
	assert_string_equal(m.host, "example.org");
	assert_string_equal(m.command, "PRIVMSG");
	assert_int_equal(m.nparams, 2);
	assert_string_equal(m.params[0], "#Dice");
	assert_string_equal(m.params[1], "!roll 2d6 now");
	assert_true(irc_line_is(&m, "PRIVMSG"));
	assert_string_equal(irc_line_param(&m, 5), "");
}

static void
test_parse_server_numeric(void **state)
{
	static struct irc_msg m;

	(void)state;
	assert_int_equal(parse(&m, ":irc.test 005 bot CASEMAPPING=ascii PREFIX=(ov)@+ :are "
	                           "supported\r"),
	                 0);
	assert_string_equal(m.nick, "irc.test");
	assert_null(m.user);
	assert_null(m.host);
	assert_string_equal(m.command, "005");
	assert_int_equal(m.nparams, 4);
	assert_string_equal(m.params[3], "are supported");
	/* No prefix at all, lower-case command upper-cased. */
	assert_int_equal(parse(&m, "ping :tok en"), 0);
	assert_null(m.nick);
	assert_string_equal(m.command, "PING");
	assert_string_equal(m.params[0], "tok en");
}

static void
test_parse_lenient_spaces(void **state)
{
	static struct irc_msg m;

	(void)state;
	assert_int_equal(parse(&m, ":a!b@c   MODE  #x   +o   bob  "), 0);
	assert_string_equal(m.command, "MODE");
	assert_int_equal(m.nparams, 3);
	assert_string_equal(m.params[2], "bob");
	/* An empty trailing parameter is still a parameter. */
	assert_int_equal(parse(&m, "TOPIC #x :"), 0);
	assert_int_equal(m.nparams, 2);
	assert_string_equal(m.params[1], "");
}

static void
test_parse_fifteen_params(void **state)
{
	static struct irc_msg m;

	(void)state;
	assert_int_equal(parse(&m, "X 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17"), 0);
	assert_int_equal(m.nparams, 15);
	assert_string_equal(m.params[13], "14");
	assert_string_equal(m.params[14], "15 16 17");
}

static void
test_parse_tags_escapes(void **state)
{
	static struct irc_msg m;

	(void)state;
	assert_int_equal(parse(&m,
	                       "@account=al\\sice;time=2024-01-01T00:00:00.000Z;+draft/x=a\\:b\\\\"
	                       "c\\r\\n\\q\\;flag;bad$key=1;account=alice :n!u@h PRIVMSG #a :hi"),
	                 0);
	assert_string_equal(irc_line_tag(&m, "account"), "alice"); /* the last wins */
	assert_string_equal(irc_line_tag(&m, "time"), "2024-01-01T00:00:00.000Z");
	assert_string_equal(irc_line_tag(&m, "+draft/x"), "a;b\\c\r\nq");
	assert_string_equal(irc_line_tag(&m, "flag"), "");
	assert_null(irc_line_tag(&m, "bad$key"));
	assert_null(irc_line_tag(&m, "missing"));
	assert_string_equal(m.nick, "n");
	assert_string_equal(m.params[1], "hi");
}

static void
test_parse_tags_limit(void **state)
{
	static struct irc_msg m;
	static char line[IRC_TAGS_MAX + 64];
	const char *tail = "PING x";
	size_t n;

	(void)state;
	/* "@a=vvvv...v " is exactly IRC_TAGS_MAX bytes: accepted. */
	line[0] = '@';
	line[1] = 'a';
	line[2] = '=';
	n = IRC_TAGS_MAX - 1;
	memset(line + 3, 'v', n - 3);
	line[n] = ' ';
	memcpy(line + n + 1, tail, strlen(tail) + 1);
	assert_int_equal(irc_line_parse(&m, line, strlen(line)), 0);
	assert_int_equal(strlen(irc_line_tag(&m, "a")), IRC_TAGS_MAX - 4);
	assert_string_equal(m.command, "PING");
	/* One byte more is refused. */
	memset(line + 3, 'v', n - 2);
	line[n + 1] = ' ';
	memcpy(line + n + 2, tail, strlen(tail) + 1);
	assert_int_equal(irc_line_parse(&m, line, strlen(line)), IRC_PARSE_TOOLONG);
}

static void
test_parse_rejects(void **state)
{
	static struct irc_msg m;
	static char big[IRC_REST_MAX + 16];

	(void)state;
	assert_int_equal(parse(&m, ""), IRC_PARSE_EMPTY);
	assert_int_equal(parse(&m, "   "), IRC_PARSE_EMPTY);
	assert_int_equal(parse(&m, "@a=b"), IRC_PARSE_BADTAGS);
	assert_int_equal(parse(&m, "@a=b   "), IRC_PARSE_BADTAGS);
	assert_int_equal(parse(&m, ": PING"), IRC_PARSE_BADPREFIX);
	assert_int_equal(parse(&m, ":x!y@z"), IRC_PARSE_BADCMD);
	assert_int_equal(parse(&m, "12 a"), IRC_PARSE_BADCMD);
	assert_int_equal(parse(&m, "1234 a"), IRC_PARSE_BADCMD);
	assert_int_equal(parse(&m, "PRIV-MSG a"), IRC_PARSE_BADCMD);
	assert_int_equal(parse(&m, "PRIVMSG #a :x\ny"), IRC_PARSE_CONTROL);
	assert_int_equal(parse(&m, "PRIVMSG #a :x\ry"), IRC_PARSE_CONTROL);
	assert_int_equal(irc_line_parse(&m, "PING a\0b", 8), IRC_PARSE_CONTROL);
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "PING :", 6);
	assert_int_equal(irc_line_parse(&m, big, IRC_REST_MAX + 1), IRC_PARSE_TOOLONG);
	assert_int_equal(irc_line_parse(&m, big, IRC_REST_MAX), 0);
	assert_non_null(irc_line_strerror(IRC_PARSE_BADCMD));
}

static void
test_build(void **state)
{
	char out[IRC_LINE_MAX + 1];

	(void)state;
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a", "hello there", NULL), 25);
	assert_string_equal(out, "PRIVMSG #a :hello there\r\n");
	assert_int_equal(build(out, sizeof(out), "NICK", "delver", NULL), 13);
	assert_string_equal(out, "NICK delver\r\n");
	build(out, sizeof(out), "PRIVMSG", "#a", ":-)", NULL);
	assert_string_equal(out, "PRIVMSG #a ::-)\r\n");
	build(out, sizeof(out), "PRIVMSG", "#a", "", NULL);
	assert_string_equal(out, "PRIVMSG #a :\r\n");
	build(out, sizeof(out), "CAP", "LS", "302", NULL);
	assert_string_equal(out, "CAP LS 302\r\n");
}

static void
test_build_refuses_injection(void **state)
{
	char out[IRC_LINE_MAX + 1];

	(void)state;
	/* CR or LF anywhere would start a new command: refused, out emptied. */
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a", "hi\r\nQUIT :pwned", NULL), -1);
	assert_string_equal(out, "");
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a", "hi\nJOIN #x", NULL), -1);
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a", "hi\rJOIN #x", NULL), -1);
	/* Middle parameters: no spaces, no leading ':', not empty. */
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a QUIT", "x", NULL), -1);
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", ":#a", "x", NULL), -1);
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "", "x", NULL), -1);
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a\r", "x", NULL), -1);
	/* The command itself must be a word. */
	assert_int_equal(build(out, sizeof(out), "PRIV MSG", "#a", "x", NULL), -1);
	assert_int_equal(build(out, sizeof(out), "privmsg", "#a", "x", NULL), -1);
	assert_int_equal(build(out, sizeof(out), "", "#a", "x", NULL), -1);
	assert_false(irc_line_middle_ok(NULL));
	assert_true(irc_line_middle_ok("#a"));
}

static void
test_build_length(void **state)
{
	char out[IRC_LINE_MAX + 1];
	char text[IRC_LINE_MAX];
	/* No space in the text: no ':' is needed. */
	size_t room = IRC_LINE_MAX - strlen("PRIVMSG #a ") - 2;

	(void)state;
	memset(text, 'x', room);
	text[room] = '\0';
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a", text, NULL), IRC_LINE_MAX);
	text[room] = 'x';
	text[room + 1] = '\0';
	assert_int_equal(build(out, sizeof(out), "PRIVMSG", "#a", text, NULL), -1);
	/* A small output buffer limits the line too. */
	assert_int_equal(build(out, 10, "PRIVMSG", "#a", "hello", NULL), -1);
	assert_int_equal(build(out, 12, "NICK", "abcde", NULL), -1);
	assert_int_equal(build(out, 13, "NICK", "abcde", NULL), 12);
}

static void
test_roundtrip(void **state)
{
	static struct irc_msg m;
	char out[IRC_LINE_MAX + 1];
	int n;

	(void)state;
	n = build(out, sizeof(out), "NOTICE", "bob", ": a:b  c", NULL);
	assert_true(n > 0);
	assert_int_equal(irc_line_parse(&m, out, (size_t)n - 2), 0);
	assert_string_equal(m.params[0], "bob");
	assert_string_equal(m.params[1], ": a:b  c");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_privmsg),
	    cmocka_unit_test(test_parse_server_numeric),
	    cmocka_unit_test(test_parse_lenient_spaces),
	    cmocka_unit_test(test_parse_fifteen_params),
	    cmocka_unit_test(test_parse_tags_escapes),
	    cmocka_unit_test(test_parse_tags_limit),
	    cmocka_unit_test(test_parse_rejects),
	    cmocka_unit_test(test_build),
	    cmocka_unit_test(test_build_refuses_injection),
	    cmocka_unit_test(test_build_length),
	    cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
