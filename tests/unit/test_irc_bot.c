/*
 * Unit tests for bot/irc: commands by prefix, private messages, CTCP,
 * identity keys, operators as GM, replies by PRIVMSG or NOTICE, and that
 * nothing a user sends can put a line of its own on the wire.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc.h"
#include "tests/unit/helpers/ircdrain.h"
#include "commands/dispatch.h"
#include "rules/base/rng.h"

struct fixture {
	struct config_irc cfg;
	struct dispatch d;
	struct irc_conn *c;
	struct irc_bot *b;
	int64_t now;
};

static void
on_message(void *ctx, const struct irc_msg *m)
{
	struct fixture *f = ctx;

	irc_bot_message(f->b, m, f->now, 1700000000);
}

static const struct irc_conn_hooks hooks = {NULL, NULL, on_message};
static char *channels[] = {"#a", "#B"};

static void
feed(struct fixture *f, const char *line)
{
	irc_conn_receive(f->c, line, strlen(line), f->now);
}

static const char *
out(struct fixture *f)
{
	return ircdrain(f->c, f->now);
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->cfg.network = "net";
	f->cfg.nick = "delver";
	f->cfg.channels[0] = channels[0];
	f->cfg.channels[1] = channels[1];
	f->cfg.nchannels = 2;
	f->cfg.flood_burst = 1;
	f->cfg.flood_interval_ms = 0;
	f->cfg.prefix = "!";
	f->d.state = state_new();
	f->d.rng = rng_new_seeded(1);
	f->now = 5000;
	f->c = irc_conn_new(&f->cfg, NULL, &hooks, f);
	f->b = irc_bot_new(&f->d, &f->cfg, f->c);
	irc_conn_link_up(f->c, f->now);
	feed(f, ":irc.test 001 delver :Welcome");
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	feed(f, ":delver!~d@127.0.0.1 JOIN #B");
	feed(f, ":irc.test 353 delver = #a :delver @boss alice");
	out(f);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	irc_bot_free(f->b);
	irc_conn_free(f->c);
	state_free(f->d.state);
	rng_free(f->d.rng);
	free(f);
	return 0;
}

static void
test_prefix_commands_in_channels(void **state)
{
	struct fixture *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the GM.\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "alice\x0f is now the GM of this channel.\r\n");
	/* Without the prefix, or an unknown word after it: silence. */
	feed(f, ":alice!a@h PRIVMSG #a :gm claim");
	feed(f, ":alice!a@h PRIVMSG #a :!quote something");
	feed(f, ":alice!a@h PRIVMSG #a :!");
	assert_string_equal(out(f), "");
	/* Each channel keeps its own state; channel names fold by CASEMAPPING. */
	feed(f, ":alice!a@h PRIVMSG #b :!gm");
	assert_string_equal(out(f),
	                    "PRIVMSG #b :Nobody is GM here yet; !gm claim makes you the GM.\r\n");
	feed(f, ":Alice!a@h PRIVMSG #A :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #A :You are already the GM here.\r\n");
	assert_non_null(state_channel_find(f->d.state, "irc:net:#a"));
	assert_non_null(state_channel_find(f->d.state, "irc:net:#b"));
	assert_null(state_channel_find(f->d.state, "irc:net:#A")); /* !r is !roll. */
	feed(f, ":alice!a@h PRIVMSG #a :!r 7 # sneak");
	assert_memory_equal(out(f),
	                    "PRIVMSG #a :\x02"
	                    "alice\x0f rolls\x1d sneak\x0f\r\n",
	                    strlen("PRIVMSG #a :\x02"
	                           "alice\x0f rolls\x1d sneak\x0f\r\n"));
}

/* A reloaded prefix applies to the next message. */
static void
test_prefix_reloaded(void **state)
{
	struct fixture *f = *state;
	struct config_irc next = f->cfg;

	next.prefix = ".";
	irc_bot_set_config(f->b, &next);
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG #a :.gm");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :Nobody is GM here yet; .gm claim makes you the GM.\r\n");
	irc_bot_set_config(f->b, &f->cfg);
}

static void
test_errors_go_by_notice(void **state)
{
	struct fixture *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm dance");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02Unknown subcommand 'dance'; "
	                            "usage: !gm <show|claim|release>\x0f\r\n");
}

static void
test_operator_is_admin(void **state)
{
	struct fixture *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!gm release");
	assert_string_equal(out(f), "NOTICE bob :\x03"
	                            "04\x02\x02Only alice (the GM) or a channel "
	                            "admin can release the GM seat.\x0f\r\n");
	feed(f, ":boss!b@h PRIVMSG #a :!gm release");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "alice\x0f is no longer the GM; anyone may !gm "
	                            "claim.\r\n");
	/* Op rank follows MODE. */
	feed(f, ":boss!b@h MODE #a +o alice");
	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	feed(f, ":boss!b@h MODE #a -o boss");
	feed(f, ":boss!b@h PRIVMSG #a :!gm release");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "alice\x0f is now the GM of this channel.\r\n"
	                            "NOTICE boss :\x03"
	                            "04\x02\x02Only alice (the GM) or a channel "
	                            "admin can release the GM seat.\x0f\r\n");
}

static void
test_private_messages(void **state)
{
	struct fixture *f = *state;
	const char *expect;

	/* No prefix needed, but it is accepted; the conversation is its own
	 * channel, keyed like the user. */
	feed(f, ":alice!a@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "PRIVMSG alice :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\n");
	feed(f, ":alice!a@h PRIVMSG delver :!gm claim");
	assert_string_equal(out(f), "PRIVMSG alice :\x02"
	                            "alice\x0f is now the GM of this "
	                            "channel.\r\n");
	assert_non_null(state_channel_find(f->d.state, "irc:net:alice"));
	/* Unknown words are answered in private. */
	feed(f, ":alice!a@h PRIVMSG delver :hello");
	expect = "NOTICE alice :\x03"
	         "04\x02\x02Unknown command 'hello'; the commands are ";
	assert_memory_equal(out(f), expect, strlen(expect)); /* the list grows */
	/* NOTICEs are never answered. */
	feed(f, ":alice!a@h NOTICE delver :gm");
	feed(f, ":alice!a@h NOTICE #a :!gm");
	assert_string_equal(out(f), "");
}

static void
test_ctcp(void **state)
{
	struct fixture *f = *state;

	feed(f, ":alice!a@h PRIVMSG delver :\x01VERSION\x01");
	assert_string_equal(out(f), "NOTICE alice :\x01VERSION delver " DELVER_VERSION "\x01\r\n");
	/* Rate-limited: a second CTCP within 3 s gets nothing. */
	f->now += 2999;
	feed(f, ":bob!b@h PRIVMSG delver :\x01PING 123\x01");
	assert_string_equal(out(f), "");
	f->now += 1;
	feed(f, ":bob!b@h PRIVMSG delver :\x01PING 123 \x02x\x01");
	assert_string_equal(out(f), "NOTICE bob :\x01PING 123 x\x01\r\n");
	/* Not in channels, not ACTIONs, not unknown CTCPs. */
	f->now += 10000;
	feed(f, ":bob!b@h PRIVMSG #a :\x01VERSION\x01");
	feed(f, ":bob!b@h PRIVMSG delver :\x01"
	        "ACTION waves\x01");
	feed(f, ":bob!b@h PRIVMSG delver :\x01"
	        "FINGER\x01");
	assert_string_equal(out(f), "");
}

static void
test_account_identity(void **state)
{
	struct fixture *f = *state;

	/* Enable account-tag as a server would. */
	irc_conn_link_down(f->c, f->now);
	irc_conn_link_up(f->c, f->now);
	feed(f, ":irc.test CAP * LS :account-tag");
	feed(f, ":irc.test CAP * ACK :account-tag");
	feed(f, ":irc.test 001 delver :Welcome");
	out(f);
	feed(f, "@account=Alice :al!a@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "al\x0f is now the GM of this channel.\r\n");
	/* Same account, another nick: the same user. */
	feed(f, "@account=alice :al2!a@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :You are already the GM here.\r\n");
	/* Someone using the account's name as a nick, not logged in: not her. */
	feed(f, ":alice!x@evil PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02"
	                            "al is already the GM here; "
	                            "they can !gm release first.\x0f\r\n");
	assert_non_null(state_user_find(f->d.state, "irc:net:alice"));
	assert_non_null(state_user_find(f->d.state, "irc:net:~alice"));
}

/* On an rfc7613 network channel and user keys fold Unicode: fullwidth and
 * accented capitals share the records of their lowercase. */
static void
test_rfc7613_keys(void **state)
{
	struct fixture *f = *state;

	feed(f, ":irc.test 005 delver CASEMAPPING=rfc7613 :are supported");
	feed(f, ":delver!~d@127.0.0.1 JOIN #\xc3\xa9t\xc3\xa9");
	out(f);
	feed(f, ":\xc3\x89LODIE!e@h PRIVMSG #\xc3\x89T\xc3\x89 :!gm claim");
	assert_string_equal(out(f),
	                    "PRIVMSG #\xc3\x89T\xc3\x89 :\x02\xc3\x89LODIE\x0f is now the GM "
	                    "of this channel.\r\n");
	/* Fullwidth and decomposed spellings of the same channel and nick. */
	feed(f, ":E\xcc\x81lodie!e@h PRIVMSG #\xef\xbc\xa5\xcc\x81t\xc3\xa9 :!gm claim");
	assert_string_equal(out(f),
	                    "PRIVMSG #\xef\xbc\xa5\xcc\x81t\xc3\xa9 :You are already the GM "
	                    "here.\r\n");
	assert_non_null(state_channel_find(f->d.state, "irc:net:#\xc3\xa9t\xc3\xa9"));
	assert_non_null(state_user_find(f->d.state, "irc:net:\xc3\xa9lodie"));
	assert_null(state_user_find(f->d.state, "irc:net:\xc3\x89lodie"));
	/* Not UTF-8: folded as ASCII, a key of its own. */
	feed(f, ":Z\xff!z@h PRIVMSG #\xc3\xa9t\xc3\xa9 :!gm");
	out(f);
	assert_non_null(state_user_find(f->d.state, "irc:net:z\xff"));
}

static void
test_no_injection(void **state)
{
	struct fixture *f = *state;

	/* A word echoed back in an error: its control bytes are dropped. */
	feed(f, ":alice!a@h PRIVMSG delver :gm x\x01y\x03"
	        "04z");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02Unknown subcommand 'xy04z'; "
	                            "usage: !gm <show|claim|release>\x0f\r\n");
	/* A nick that cannot be a target (a hostile server): no reply at all,
	 * rather than a line the server would read differently. */
	feed(f, "::x!a@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "");
}

/* /undo is !undo on IRC: refused to another player by NOTICE, and the
 * change named as it is typed here. */
static void
test_undo(void **state)
{
	struct fixture *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	feed(f, ":alice!a@h PRIVMSG #a :!tension raise 2 # noise");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!undo");
	assert_string_equal(out(f), "NOTICE bob :\x03"
	                            "04\x02\x02The last change here is alice's !tension raise 2 "
	                            "# noise; only alice or the GM can undo it.\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!undo");
	assert_string_equal(out(f), "PRIVMSG #a :Undid alice's \x02!tension raise 2 # noise\x0f: "
	                            "Tension state is as it was before.\r\n"
	                            "PRIVMSG #a :Nothing more can be undone here.\r\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_prefix_commands_in_channels, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_errors_go_by_notice, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_operator_is_admin, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_private_messages, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ctcp, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_account_identity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rfc7613_keys, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prefix_reloaded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_injection, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undo, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
