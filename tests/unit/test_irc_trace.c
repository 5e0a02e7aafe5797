/* Unit tests for bot/irc/irc_trace: escaped control bytes, secrets cut off, and
 * nothing below the debug level. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/irc/irc_trace.h"
#include "bot/log.h"
#include "tests/unit/helpers/stderrcap.h"

/* What reached stderr while sent (or received) line was traced. */
static const char *
traced(bool sent, const char *line)
{
	static struct stderrcap c;

	assert_int_equal(stderrcap_begin(&c), 0);
	if (sent)
		irc_trace_sent("net", line, strlen(line));
	else
		irc_trace_received("net", line, strlen(line));
	return stderrcap_end(&c);
}

static void
test_escape(void **state)
{
	char out[32];

	(void)state;
	irc_trace_escape(out, sizeof(out), "a\x1b[1m\\", 6);
	assert_string_equal(out, "a\\x1b[1m\\\\");
	irc_trace_escape(out, 16, "0123456789abcdef", 16);
	assert_string_equal(out, "01234567...");
}

static void
test_secrets_cut_off(void **state)
{
	(void)state;
	log_set_level(LOG_LEVEL_DEBUG);
	assert_string_equal(traced(true, "PRIVMSG #a :hi\r\n"),
	                    "debug: irc net: -> PRIVMSG #a :hi\n");
	assert_string_equal(traced(true, "PASS hunter2\r\n"), "debug: irc net: -> PASS\n");
	assert_string_equal(traced(true, "PRIVMSG NickServ :IDENTIFY hunter2\r\n"),
	                    "debug: irc net: -> PRIVMSG NickServ \n");
	assert_string_equal(traced(true, "AUTHENTICATE PLAIN\r\n"),
	                    "debug: irc net: -> AUTHENTICATE PLAIN\n");
	assert_string_equal(traced(true, "AUTHENTICATE ZGVsdmVy\r\n"),
	                    "debug: irc net: -> AUTHENTICATE\n");
	assert_string_equal(traced(true, "JOIN #a,#b k1,k2\r\n"),
	                    "debug: irc net: -> JOIN #a,#b (keys not shown)\n");
	assert_string_equal(traced(false, ":irc 904 delver :failed ZGVs"),
	                    "debug: irc net: <- :irc 904 (SASL: the rest not shown)\n");
	assert_string_equal(traced(false, "AUTHENTICATE +"),
	                    "debug: irc net: <- AUTHENTICATE (SASL: the rest not shown)\n");
	assert_string_equal(traced(false, ":a!b@c PRIVMSG #x :\x03"
	                                  "4red"),
	                    "debug: irc net: <- :a!b@c PRIVMSG #x :\\x034red\n");
	log_set_level(LOG_LEVEL_INFO);
	assert_string_equal(traced(true, "PRIVMSG #a :hi\r\n"), "");
	assert_string_equal(traced(false, "PING :x"), "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),
	    cmocka_unit_test(test_secrets_cut_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
