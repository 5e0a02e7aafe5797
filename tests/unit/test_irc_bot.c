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
#include "bot/irc/irc_flood.h"
#include "tests/unit/helpers/ircdrain.h"
#include "tests/unit/helpers/ircfix.h"
#include "commands/core/dispatch.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/dice/rollchan.h"
#include "rules/base/rng.h"
#include "commands/core/memstore.h"
#include "tests/unit/helpers/holdstore.h"

static char *channels[] = {"#a", "#B"};

/* A line from the server, and the answers of the commands it carried
 * (a loop turn's worth: the store in memory answers when polled). */
static void
feed(struct ircfix *f, const char *line)
{
	ircfix_feed(f, line);
}

static const char *
out(struct ircfix *f)
{
	return ircdrain(f->c, f->now);
}

static int
setup(void **state)
{
	struct ircfix *f = calloc(1, sizeof(*f));

	f->cfg.network = "net";
	f->cfg.nick = "delver";
	f->cfg.channels[0] = channels[0];
	f->cfg.channels[1] = channels[1];
	f->cfg.nchannels = 2;
	f->cfg.flood_burst = 1;
	f->cfg.flood_interval_ms = 0;
	f->cfg.prefix = "!";
	f->cfg.formatting = true;
	ircfix_start(f, 1);
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	feed(f, ":delver!~d@127.0.0.1 JOIN #B");
	/* A channel takes commands from its members alone (irc.h). */
	feed(f, ":irc.test 353 delver = #a :delver @boss alice bob carol dave");
	feed(f, ":irc.test 353 delver = #B :delver alice carol");
	out(f);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct ircfix *f = *state;

	ircfix_stop(f);
	free(f);
	return 0;
}

static void
test_prefix_commands_in_channels(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the GM.\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "a\xe2\x80\x8dlice\x0f is now the GM of this channel.\r\n");
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
	assert_non_null(state_channel_find(f->st, "irc:net:#a"));
	assert_non_null(state_channel_find(f->st, "irc:net:#b"));
	assert_null(state_channel_find(f->st, "irc:net:#A"));
	/* !r is !roll (one line on IRC). */
	feed(f, ":alice!a@h PRIVMSG #a :!r 7 # sneak");
	assert_memory_equal(out(f), "PRIVMSG #a :alice: \x1dsneak\x0f · ",
	                    strlen("PRIVMSG #a :alice: \x1dsneak\x0f · "));
}

/* A reloaded prefix applies to the next message. */
static void
test_prefix_reloaded(void **state)
{
	struct ircfix *f = *state;
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
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm dance");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02Unknown subcommand 'dance'; "
	                            "usage: !gm <show|claim|release|secret-channel>\x0f\r\n");
}

/* A table typed line by line: the asker's lines that are no command join
 * it, others' lines and the asker's commands are left alone, !table end
 * saves it; a private conversation works the same; cancel drops it. */
static void
test_table_typed_line_by_line(void **state)
{
	struct ircfix *f = *state;
	const char *o;

	feed(f, ":alice!a@h PRIVMSG #a :!table set loot");
	o = out(f);
	assert_non_null(strstr(o, "PRIVMSG #a :Send the entries of the table loot"));
	feed(f, ":alice!a@h PRIVMSG #a :1-2: a rat");
	feed(f, ":bob!b@h PRIVMSG #a :1-6: a trick of bob's");
	feed(f, ":alice!a@h PRIVMSG #B :elsewhere");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG #a :!r 3");
	assert_non_null(strstr(out(f), "PRIVMSG #a :alice: "));
	feed(f, ":alice!a@h PRIVMSG #a :3-6: 1d4 goblins");
	feed(f, ":bob!b@h PRIVMSG #a :!table end");
	assert_non_null(strstr(out(f), "NOTICE bob :"));
	feed(f, ":alice!a@h PRIVMSG #a :!table end");
	assert_string_equal(out(f), "PRIVMSG #a :Saved the table \x02loot\x0f: d6, 2 "
	                            "entries.\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!table show loot");
	o = out(f);
	assert_non_null(strstr(o, "1-2: a rat"));
	assert_non_null(strstr(o, "3-6: 1d4 goblins"));
	assert_null(strstr(o, "bob"));
	/* in a private conversation: lines that name no command */
	feed(f, ":alice!a@h PRIVMSG delver :table set mine");
	out(f);
	feed(f, ":alice!a@h PRIVMSG delver :1-6: a secret");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG delver :table end");
	assert_non_null(strstr(out(f), "Saved the table \x02mine\x0f: d6, 1 entry."));
	/* cancel */
	feed(f, ":alice!a@h PRIVMSG #a :!table set x");
	out(f);
	feed(f, ":alice!a@h PRIVMSG #a :1-6: y");
	feed(f, ":alice!a@h PRIVMSG #a :!table cancel");
	assert_string_equal(out(f), "PRIVMSG #a :Dropped what you were entering for table "
	                            "set x (1 line).\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!table end");
	assert_non_null(strstr(out(f), "NOTICE alice :"));
}

/* A table set with its entries on the line drops the entries its sender
 * was typing line by line there, for any table, and says so: a later
 * table end finds nothing to put back. */
static void
test_inline_table_drops_open_one(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!table set x");
	out(f);
	feed(f, ":alice!a@h PRIVMSG #a :1-6: old");
	feed(f, ":alice!a@h PRIVMSG #a :!table set y 1-6: new");
	assert_string_equal(out(f), "PRIVMSG #a :Saved the table \x02y\x0f: d6, 1 entry. "
	                            "\xc2\xb7 \x03"
	                            "14\x02\x02What you were entering for table set x was "
	                            "dropped for this.\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!table end");
	assert_non_null(strstr(out(f), "NOTICE alice :"));
	feed(f, ":alice!a@h PRIVMSG #a :!table show x");
	assert_null(strstr(out(f), "old"));
}

/* A table that table end refuses stays open where it was typed (here a
 * private conversation, where a GM enters a table behind the screen):
 * the refusal, the kept lines and the save reach the query alone. */
static void
test_refused_table_stays_open(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG delver :table set encounter");
	out(f);
	feed(f, ":alice!a@h PRIVMSG delver :1-2: a rat");
	feed(f, ":alice!a@h PRIVMSG delver :3-5: the dragon Vermithrax");
	feed(f, ":alice!a@h PRIVMSG delver :table end");
	assert_string_equal(
	    out(f), "NOTICE alice :\x03"
	            "04\x02\x02The table encounter was not saved: the highest result is 5, which "
	            "no die gives: the ranges end at 4, 6, 8, 10, 12, 20, 66 (d66, numbered "
	            "11-66) or 100, or every entry is weighted (3x text). The 2 lines you sent "
	            "are still open: send more, then !table end again; !table cancel drops "
	            "them, and !table set encounter starts afresh.\x0f \xc2\xb7 \x03"
	            "14\x02\x02What you sent, on one line: 1-2: a rat; 3-5: the dragon "
	            "Vermithrax\x0f\r\n");
	/* a line that names no command still joins the table */
	feed(f, ":alice!a@h PRIVMSG delver :6: a gem");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG delver :table end");
	assert_string_equal(out(f), "PRIVMSG alice :Saved the table \x02"
	                            "encounter\x0f: d6, 3 entries. \xc2\xb7 \x03"
	                            "14\x02\x02The channel's encounter rolls now use it (by its "
	                            "own die; Tension's rolls read a table of 1-20 with d10 + "
	                            "Tension).\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG delver :table show encounter");
	assert_string_equal(out(f),
	                    "PRIVMSG alice :\x02Table encounter: d6, 3 entries\x0f \xc2\xb7 "
	                    "1-2: a rat \xc2\xb7 3-5: the dragon Vermithrax \xc2\xb7 6: a "
	                    "gem\r\n");
	/* saved, the table is no longer being entered */
	feed(f, ":alice!a@h PRIVMSG delver :table end");
	assert_non_null(strstr(out(f), "No table is being entered here"));
}

static void
test_operator_is_admin(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!gm release");
	assert_string_equal(out(f), "NOTICE bob :\x03"
	                            "04\x02\x02Only alice (the GM) or a channel "
	                            "admin can release the GM seat.\x0f\r\n");
	feed(f, ":boss!b@h PRIVMSG #a :!gm release");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "a\xe2\x80\x8dlice\x0f is no longer the GM; anyone may !gm "
	                            "claim.\r\n");
	/* Op rank follows MODE. */
	feed(f, ":boss!b@h MODE #a +o alice");
	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	feed(f, ":boss!b@h MODE #a -o boss");
	feed(f, ":boss!b@h PRIVMSG #a :!gm release");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "a\xe2\x80\x8dlice\x0f is now the GM of this channel.\r\n"
	                            "NOTICE boss :\x03"
	                            "04\x02\x02Only alice (the GM) or a channel "
	                            "admin can release the GM seat.\x0f\r\n");
}

static void
test_private_messages(void **state)
{
	struct ircfix *f = *state;
	const char *expect;

	/* No prefix needed, but it is accepted; the conversation is its own
	 * channel, keyed like the user. */
	feed(f, ":alice!a@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "PRIVMSG alice :This is your private conversation with delver: "
	                            "you are its GM without claiming the seat.\r\n");
	/* recheck F6: claim and release agree with gm there */
	feed(f, ":alice!a@h PRIVMSG delver :!gm claim");
	assert_string_equal(out(f), "PRIVMSG alice :This is your private conversation with delver: "
	                            "you are its GM without claiming the seat, so there is no seat "
	                            "to claim.\r\n");
	feed(f, ":alice!a@h PRIVMSG delver :gm release");
	assert_string_equal(out(f), "PRIVMSG alice :This is your private conversation with delver: "
	                            "you are its GM without claiming the seat, so there is no seat "
	                            "to release.\r\n");
	feed(f, ":alice!a@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "PRIVMSG alice :This is your private conversation with delver: "
	                            "you are its GM without claiming the seat.\r\n");
	feed(f, ":alice!a@h PRIVMSG delver :table set loot 1-6: gold");
	assert_string_equal(out(f),
	                    "PRIVMSG alice :Saved the table \x02loot\x0f: d6, 1 entry.\r\n");
	assert_non_null(state_channel_find(f->st, "irc:net:~alice!a@h"));
	/* Unknown words are answered in private. */
	feed(f, ":alice!a@h PRIVMSG delver :hello");
	expect = "NOTICE alice :\x03"
	         "04\x02\x02Unknown command 'hello'; the commands are ";
	assert_memory_equal(out(f), expect, strlen(expect)); /* the list grows */
	/* NOTICEs are never answered. */
	feed(f, ":alice!a@h NOTICE delver :gm");
	feed(f, ":alice!a@h NOTICE #a :!gm");
	assert_string_equal(out(f), "");
	/* A stranger who rolls in private leaves nothing behind: no log (a
	 * private conversation keeps none), so no channel record and no user
	 * record, in memory or for the store (20,000 such strangers used to
	 * leave 20,000 records). */
	feed(f, ":stranger!s@h PRIVMSG delver :roll 1d6");
	expect = "PRIVMSG stranger :stranger rolls";
	assert_memory_equal(out(f), expect, strlen(expect));
	assert_null(state_channel_peek(f->st, "irc:net:~stranger!s@h"));
	assert_null(state_user_peek(f->st, "irc:net:~stranger!s@h"));
	feed(f, ":stranger!s@h PRIVMSG delver :log");
	assert_string_equal(out(f), "PRIVMSG stranger :A private conversation with delver keeps no "
	                            "log of its rolls.\r\n");
	assert_null(state_channel_peek(f->st, "irc:net:~stranger!s@h"));
}

static void
test_ctcp(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG delver :\x01VERSION\x01");
	assert_string_equal(out(f), "NOTICE alice :\x01VERSION delver " DELVER_VERSION "\x01\r\n");
	/* Rate-limited per user: alice's second CTCP within 3 s gets
	 * nothing, and does not use up bob's. */
	f->now += 2999;
	feed(f, ":Alice!a@h PRIVMSG delver :\x01PING 123\x01");
	assert_string_equal(out(f), "");
	feed(f, ":bob!b@h PRIVMSG delver :\x01PING 123 \x02x\x01");
	assert_string_equal(out(f), "NOTICE bob :\x01PING 123 x\x01\r\n");
	f->now += 1;
	feed(f, ":alice!a@h PRIVMSG delver :\x01PING 1\x01");
	assert_string_equal(out(f), "NOTICE alice :\x01PING 1\x01\r\n");
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
	struct ircfix *f = *state;

	/* Enable account-tag as a server would. */
	irc_conn_link_down(f->c, f->now);
	irc_conn_link_up(f->c, f->now);
	feed(f, ":irc.test CAP * LS :account-tag");
	feed(f, ":irc.test CAP * ACK :account-tag");
	feed(f, ":irc.test 001 delver :Welcome");
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	feed(f, ":irc.test 353 delver = #a :delver al al2 alice");
	out(f);
	feed(f, "@account=Alice :al!a@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "a\xe2\x80\x8dl\x0f is now the GM of this channel.\r\n");
	/* Same account, another nick: the same user. */
	feed(f, "@account=alice :al2!a@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :You are already the GM here.\r\n");
	/* Someone using the account's name as a nick, not logged in: not her
	 * (the seat names the nick she last used). */
	feed(f, ":alice!x@evil PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02"
	                            "al2 is already the GM here; "
	                            "they can !gm release first.\x0f\r\n");
	assert_string_equal(channel_gm(state_channel_find(f->st, "irc:net:#a")), "irc:net:alice");
	/* (A user record is kept only when it holds something: a style.) */
	feed(f, ":alice!x@evil PRIVMSG #a :!thwacko style red");
	out(f);
	assert_non_null(state_user_find(f->st, "irc:net:~alice!x@evil"));
}

/* On an rfc7613 network channel and user keys fold Unicode: fullwidth and
 * accented capitals share the records of their lowercase. */
static void
test_rfc7613_keys(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":irc.test 005 delver CASEMAPPING=rfc7613 :are supported");
	feed(f, ":delver!~d@127.0.0.1 JOIN #\xc3\xa9t\xc3\xa9");
	feed(f, ":irc.test 353 delver = #\xc3\xa9t\xc3\xa9 :delver \xc3\x89LODIE Z\xff");
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
	assert_non_null(state_channel_find(f->st, "irc:net:#\xc3\xa9t\xc3\xa9"));
	assert_string_equal(channel_gm(state_channel_find(f->st, "irc:net:#\xc3\xa9t\xc3\xa9")),
	                    "irc:net:~\xc3\xa9lodie!e@h");
	assert_null(state_user_find(f->st, "irc:net:~\xc3\x89lodie!e@h"));
	/* Not UTF-8: folded as ASCII, a key of its own. */
	feed(f, ":Z\xff!z@h PRIVMSG #\xc3\xa9t\xc3\xa9 :!thwacko style red");
	out(f);
	assert_non_null(state_user_find(f->st, "irc:net:~z\xff!z@h"));
}

/* The bot and alice in chan (a JOIN and its NAMES), and alice its GM;
 * with a table gems when gems. */
static void
gm_in(struct ircfix *f, const char *chan, bool gems)
{
	char line[256];

	snprintf(line, sizeof(line), ":delver!~d@127.0.0.1 JOIN %s", chan);
	feed(f, line);
	snprintf(line, sizeof(line), ":irc.test 353 delver = %s :delver alice", chan);
	feed(f, line);
	snprintf(line, sizeof(line), ":alice!a@h PRIVMSG %s :!gm claim", chan);
	feed(f, line);
	snprintf(line, sizeof(line), ":alice!a@h PRIVMSG %s :!table set gems 1-4: a ruby", chan);
	if (gems)
		feed(f, line);
	out(f);
}

/* A channel named in a command folds by the server's CASEMAPPING, as the
 * channel's own messages do: rfc1459 (the default) holds #D[1] and #d{1}
 * one channel; ascii holds them two, and #X[1] names #x[1] only. */
static void
test_channel_named_by_casemapping(void **state)
{
	struct ircfix *f = *state;

	gm_in(f, "#d{1}", true);
	gm_in(f, "#here", false);
	feed(f, ":alice!a@h PRIVMSG #here :!table copy gems from:#D[1]");
	assert_string_equal(out(f), "PRIVMSG #here :Copied 1 table from #d{1}: gems; "
	                            "nothing in them is struck.\r\n");
	feed(f, ":irc.test 005 delver CASEMAPPING=ascii :are supported");
	gm_in(f, "#x{1}", true);
	gm_in(f, "#there", false);
	feed(f, ":alice!a@h PRIVMSG #there :!table copy gems from:#X[1]");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02You are not the GM of #X[1]: tables are copied "
	                            "from a channel where you hold the GM seat.\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #there :!table copy gems from:#X{1}");
	assert_string_equal(out(f), "PRIVMSG #there :Copied 1 table from #x{1}: gems; "
	                            "nothing in them is struck.\r\n");
}

/* Under rfc7613 a channel named in a command folds beyond ASCII. */
static void
test_channel_named_rfc7613(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":irc.test 005 delver CASEMAPPING=rfc7613 :are supported");
	gm_in(f, "#\xc3\xa9t\xc3\xa9", true);
	gm_in(f, "#here", false);
	feed(f, ":alice!a@h PRIVMSG #here :!table copy gems from:#\xc3\x89T\xc3\x89");
	assert_string_equal(out(f), "PRIVMSG #here :Copied 1 table from #\xc3\xa9t\xc3\xa9: "
	                            "gems; nothing in them is struck.\r\n");
}

static void
test_no_injection(void **state)
{
	struct ircfix *f = *state;

	/* A word echoed back in an error: its control bytes are dropped. */
	feed(f, ":alice!a@h PRIVMSG delver :gm x\x01y\x07z");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02Unknown subcommand 'xyz'; "
	                            "usage: !gm <show|claim|release|secret-channel>\x0f\r\n");
	/* A nick that cannot be a target (a hostile server): no reply at all,
	 * rather than a line the server would read differently. */
	feed(f, "::x!a@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "");
}

/* Formatting a client adds (bold, colours, hex colours, reverse...) is
 * not text: the command reads the words its sender sees. */
static void
test_formatting_typed(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!roll 7 # \x02sneak\x02");
	assert_string_equal(out(f), "PRIVMSG #a :alice: \x1dsneak\x0f · \x03"
	                            "10\x02\x02"
	                            "7\x0f: 7 = \x02\x03"
	                            "07\x02\x02"
	                            "7\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :\x03"
	        "04,01!roll\x03 \x1d"
	        "7\x1d # \x04"
	        "ff0000s\x16n\x1f"
	        "e\x11"
	        "ak\x0f");
	assert_string_equal(out(f), "PRIVMSG #a :alice: \x1dsneak\x0f · \x03"
	                            "10\x02\x02"
	                            "7\x0f: 7 = \x02\x03"
	                            "07\x02\x02"
	                            "7\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	out(f);
	feed(f, ":alice!a@h PRIVMSG #a :!tension raise 1 # \x02noise");
	assert_non_null(strstr(out(f), "noise"));
	/* Other control characters are refused, named where they stand. */
	feed(f, ":alice!a@h PRIVMSG #a :!roll 1d6 # é\x07sneak");
	assert_string_equal(out(f), "NOTICE alice :\x03"
	                            "04\x02\x02"
	                            "Expression may not contain control characters (U+0007 at "
	                            "column 8 of it); usage: !roll <expression> [label:text] "
	                            "[private:true|false]\x0f\r\n");
}

/* A user over their rate is told once, then ignored until their bucket
 * refills; the others are not slowed down. */
static void
test_user_rate_limit(void **state)
{
	struct ircfix *f = *state;
	static const char told[] =
	    "NOTICE alice :You are sending commands faster than delver takes "
	    "them from one person (2 at once, then one every 4 s); it "
	    "ignores the extra ones, so slow down.\r\n";

	f->cfg.user_burst = 2;
	f->cfg.user_interval_ms = 4000;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	feed(f, ":alice!a@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\nPRIVMSG alice :This is your private conversation "
	                            "with delver: you are its GM without claiming the seat.\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), told);
	feed(f, ":ALICE!a@h PRIVMSG #a :!gm");
	feed(f, ":alice!a@h PRIVMSG #a :not a command");
	assert_string_equal(out(f), "");
	feed(f, ":bob!b@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\n");
	f->now += 4000;
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\n");
	/* Refused again 25.999 s after the last refusal: not told again. */
	f->now += 21999;
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\nPRIVMSG #a :Nobody is GM here yet; !gm claim makes "
	                            "you the GM.\r\n");
	/* Quiet for 30 s after the last refusal: a new spell is told. */
	f->now += 30000;
	for (int i = 0; i < 2; i++)
		feed(f, ":alice!a@h PRIVMSG #a :!gm");
	out(f);
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), told);
}

/* A channel over its rate: each user whose command it refuses is told
 * once; other channels and private messages go on. */
static void
test_channel_rate_limit(void **state)
{
	struct ircfix *f = *state;

	f->cfg.channel_burst = 2;
	f->cfg.channel_interval_ms = 1000;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	feed(f, ":bob!b@h PRIVMSG #A :!gm");
	out(f);
	feed(f, ":carol!c@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "NOTICE carol :#a is sending commands faster than delver takes "
	                            "them from one channel (2 at once, then one every 1 s); it "
	                            "ignores the extra ones, so slow down.\r\n");
	feed(f, ":carol!c@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "");
	feed(f, ":bob!b@h PRIVMSG #a :!gm");
	assert_memory_equal(out(f), "NOTICE bob :#a is sending", 25);
	feed(f, ":carol!c@h PRIVMSG #b :!gm");
	feed(f, ":carol!c@h PRIVMSG delver :gm");
	assert_string_equal(out(f), "PRIVMSG #b :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\nPRIVMSG carol :This is your private conversation "
	                            "with delver: you are its GM without claiming the seat.\r\n");
	f->now += 1000;
	feed(f, ":carol!c@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\n");
}

static int
count_lines(const char *s, const char *start)
{
	int n = 0;
	size_t len = strlen(start);

	for (const char *p = s; *p != '\0'; p = strchr(p, '\n') + 1) {
		if (strncmp(p, start, len) == 0)
			n++;
		if (strchr(p, '\n') == NULL)
			break;
	}
	return n;
}

/* With the default limits, three flooders each within their own rate, and
 * their lines come in one batch after the bot waited 10 s (their buckets
 * refilled meanwhile): they cannot spend the channel's whole budget
 * between them, and a quiet user is still answered. */
static void
test_channel_rate_fair(void **state)
{
	struct ircfix *f = *state;
	static const char *const flooders[] = {"alice", "bob", "carol"};
	char line[96];
	const char *o;

	f->cfg.user_burst = 5;
	f->cfg.user_interval_ms = 2000;
	f->cfg.channel_burst = 20;
	f->cfg.channel_interval_ms = 1000;
	irc_bot_set_config(f->b, &f->cfg);
	for (int round = 0; round < 2; round++) {
		f->now += round * 10000;
		for (size_t u = 0; u < 3; u++) {
			for (int i = 0; i < 5; i++) {
				snprintf(line, sizeof(line), ":%s!x@h PRIVMSG #a :!gm",
				         flooders[u]);
				feed(f, line);
			}
		}
		o = out(f);
		/* First 15 of the channel's 20; then, of 15 (5 + 10 s), the
		 * flooders take 11: 10 down to the quarter kept, and carol's
		 * first, as quiet then as anyone. */
		assert_int_equal(count_lines(o, "PRIVMSG #a :Nobody is GM"), round == 0 ? 15 : 11);
		assert_int_equal(count_lines(o, "NOTICE carol :#a is sending commands faster"),
		                 round == 0 ? 0 : 1);
	}
	feed(f, ":dave!d@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\n");
	/* 2 s on, alice has one command of her own again, but the channel's
	 * 5 are the quarter kept: she is refused for the channel's rate. */
	f->now += 2000;
	feed(f, ":alice!x@h PRIVMSG #a :!gm");
	assert_memory_equal(out(f), "NOTICE alice :#a is sending", 27);
}

/* Three users, each sending one command every 2 s (their own sustained
 * rate, so each bucket is full again before the next), take 1.5 commands a
 * second from a channel that gives 1: a user who sent nothing for a minute
 * is still answered, not refused for the channel's rate they spent. */
static void
test_channel_rate_steady_users(void **state)
{
	struct ircfix *f = *state;
	static const char *const users[] = {"alice", "bob", "carol"};
	char line[96];

	f->cfg.user_burst = 5;
	f->cfg.user_interval_ms = 2000;
	f->cfg.channel_burst = 20;
	f->cfg.channel_interval_ms = 1000;
	irc_bot_set_config(f->b, &f->cfg);
	for (int t = 0; t < 60000; t += 2000) {
		for (size_t u = 0; u < 3; u++) {
			f->now += u == 0 ? 0 : 666;
			snprintf(line, sizeof(line), ":%s!x@h PRIVMSG #a :!gm", users[u]);
			feed(f, line);
		}
		out(f);
		f->now += 2000 - 2 * 666;
	}
	f->now -= 2000 - 2 * 666;
	feed(f, ":dave!d@h PRIVMSG #a :!gm");
	assert_string_equal(out(f), "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                            "GM.\r\n");
}

/* A reply that does not fit the send queue whole is not sent at all; its
 * user is told by NOTICE. */
static void
test_reply_whole_or_refused(void **state)
{
	struct ircfix *f = *state;
	const char *all;
	size_t gm = 0;

	f->cfg.flood_burst = 4; /* replies of up to 4 lines */
	f->cfg.flood_interval_ms = 60000;
	irc_conn_reconfigure(f->c, &f->cfg, NULL);
	/* 253 one-line replies fill alice's lane but for 3 lines, one of
	 * them kept in reserve. */
	for (int i = 0; i < IRC_FLOOD_TARGET_MAX - 3; i++)
		feed(f, ":alice!a@h PRIVMSG #a :!gm");
	/* Help on /tension takes more than 2 lines: refused whole, and she
	 * is told. */
	feed(f, ":alice!a@h PRIVMSG #a :!help tension");
	/* A one-line reply still fits. */
	feed(f, ":alice!a@h PRIVMSG #a :!roll 1d6");
	f->cfg.flood_interval_ms = 0;
	irc_conn_reconfigure(f->c, &f->cfg, NULL);
	all = out(f);
	for (const char *p = all; (p = strstr(p, "PRIVMSG #a :Nobody is GM")) != NULL; p++)
		gm++;
	assert_int_equal(gm, IRC_FLOOD_TARGET_MAX - 3);
	assert_null(strstr(all, "!tension"));
	assert_non_null(strstr(all, "NOTICE alice :delver has too many replies waiting to be sent, "
	                            "so it dropped its answer to your command; try again in a "
	                            "minute.\r\nPRIVMSG #a :alice: \x03"
	                            "10\x02\x02"
	                            "1d6\x0f: ["));
	/* With room again, help goes whole. */
	feed(f, ":alice!a@h PRIVMSG #a :!help");
	assert_non_null(strstr(out(f), "!roll"));
}

/* A roll is one line however many dice it has: the dice shown are cut to
 * fit (whole entries, then "…") and its total is never left out; rolls
 * that do not fit max_lines keep their totals alone. */
static void
test_roll_totals_kept(void **state)
{
	static const char head[] = "PRIVMSG #a :alice: \x03"
	                           "10\x02\x02"
	                           "1d1000000!>1\x0f: [702922!, 520437!, ";
	struct ircfix *f = *state;
	const char *all, *p;
	size_t lines = 0;

	f->cfg.flood_burst = 4;
	irc_conn_reconfigure(f->c, &f->cfg, NULL);
	/* 101 dice of six digits: the first 46 fit, then how many are left. */
	feed(f, ":alice!a@h PRIVMSG #a :!roll 1d1000000!>1");
	all = out(f);
	assert_true(strncmp(all, head, strlen(head)) == 0);
	assert_non_null(strstr(all, "438130!, \x03"
	                            "14\x02\x02… 55 more\x0f] = \x02\x03"
	                            "07\x02\x02"
	                            "55366821\x0f\r\nPRIVMSG #a :"));
	for (p = all; (p = strstr(p, "\r\n")) != NULL; p += 2)
		lines++;
	assert_int_equal(lines, 2); /* the roll, and the note on its capped die */
	assert_true(strstr(all, "\r\n") - all + 2 <= 512);
	/* Ten rolls of 1000 dice: every total, in one line. */
	feed(f, ":alice!a@h PRIVMSG #a :!roll 10x 1000d6");
	all = out(f);
	assert_string_equal(strstr(all, " 9: "), " 9: \x0f[\x03"
	                                         "14\x02\x02"
	                                         "1000 dice\x0f] = \x02\x03"
	                                         "07\x02\x02"
	                                         "3466\x0f · \x03"
	                                         "14\x02\x02"
	                                         "10: \x0f[\x03"
	                                         "14\x02\x02"
	                                         "1000 dice\x0f] = \x02\x03"
	                                         "07\x02\x02"
	                                         "3484\x0f\r\n");
	for (int r = 1; r <= 10; r++) {
		char want[16];

		snprintf(want, sizeof(want), "%2d: \x0f[", r);
		assert_non_null(strstr(all, want));
	}
	assert_int_equal(strchr(all, '\n') - all + 1, (long)strlen(all));
}

/* Without accounts a player is their nick and user@host: the records
 * follow NICK changes, and someone else taking the nick gets none. */
static void
test_nick_identity(void **state)
{
	struct ircfix *f = *state;
	static const char already[] = "PRIVMSG #a :You are already the GM here.\r\n";
	/* The seat names the nick its holder last used: alice2. */
	static const char taken[] = "NOTICE alice :\x03"
	                            "04\x02\x02"
	                            "alice2 is already the GM here; "
	                            "they can !gm release first.\x0f\r\n";

	feed(f, ":alice!a@Host.example PRIVMSG #a :!gm claim");
	out(f);
	assert_string_equal(channel_gm(state_channel_find(f->st, "irc:net:#a")),
	                    "irc:net:~alice!a@host.example");
	/* A nick change keeps the seat, and so does a second one. */
	feed(f, ":alice!a@host.example NICK :alice_");
	feed(f, ":alice_!a@host.example PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), already);
	feed(f, ":alice_!a@host.example NICK :Alice2");
	feed(f, ":alice2!a@host.example PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), already);
	/* Someone else takes "alice" from another host: not her. */
	feed(f, ":alice!a@evil.example JOIN #a");
	feed(f, ":alice!a@evil.example PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), taken);
	/* Nor from her host under another user name. */
	feed(f, ":alice!b@host.example PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), taken);
	feed(f, ":alice!b@host.example QUIT :gone");
	/* Back to her own nick: still her. */
	feed(f, ":Alice2!a@host.example NICK :alice");
	feed(f, ":alice!a@host.example PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), already);
	/* She quits as alice_; a newcomer with that nick and another host is
	 * someone new, even after taking her alias's nick. */
	feed(f, ":alice!a@host.example NICK :alice_");
	feed(f, ":alice_!a@host.example QUIT :bye");
	feed(f, ":alice_!m@elsewhere JOIN #a");
	feed(f, ":alice_!m@elsewhere PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "NOTICE alice_ :\x03"
	                            "04\x02\x02"
	                            "alice is already the GM here; "
	                            "they can !gm release first.\x0f\r\n");
	/* An alias is only good from the user@host it was made for. */
	feed(f, ":bob!b@h PRIVMSG #a :!roll 1d6");
	out(f);
	feed(f, ":bob!b@h NICK :bob_");
	feed(f, ":bob_!z@other PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "NOTICE bob_ :\x03"
	                            "04\x02\x02"
	                            "alice is already the GM here; "
	                            "they can !gm release first.\x0f\r\n");
	assert_null(state_user_find(f->st, "irc:net:~bob!z@other"));
}

/* formatting = no, or a channel in plain_channels: the same text without
 * codes; dropped dice keep their ~~ mark. */
static void
test_plain_formatting(void **state)
{
	struct ircfix *f = *state;
	static char *plain_chans[] = {"#b"};

	f->cfg.plain_channels[0] = plain_chans[0];
	f->cfg.nplain_channels = 1;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #a :!roll 2d1kh1");
	assert_string_equal(out(f), "PRIVMSG #a :alice: \x03"
	                            "10\x02\x02"
	                            "2d1kh1\x0f: [\x03"
	                            "14\x02\x02~~1~~\x0f, 1] = \x02\x03"
	                            "07\x02\x02"
	                            "1\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #B :!roll 2d1kh1");
	assert_string_equal(out(f), "PRIVMSG #B :alice: 2d1kh1: [~~1~~, 1] = 1\r\n");
	/* recheck15 F6: an error typed in a plain channel comes by NOTICE
	 * plain too, as the channel's replies do */
	feed(f, ":alice!a@h PRIVMSG #B :!gm x");
	assert_string_equal(out(f), "NOTICE alice :Unknown subcommand 'x'; usage: !gm "
	                            "<show|claim|release|secret-channel>\r\n");
	f->cfg.formatting = false;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #a :!roll 2d1kh1");
	feed(f, ":alice!a@h PRIVMSG delver :gm x");
	assert_string_equal(out(f), "PRIVMSG #a :alice: 2d1kh1: [~~1~~, 1] = 1\r\n"
	                            "NOTICE alice :Unknown subcommand 'x'; usage: !gm "
	                            "<show|claim|release|secret-channel>\r\n");
}

/* A combat turn longer than max_lines (4) in a plain channel: whole, in
 * parts of at most 4 lines, each after the first starting "Combat turn
 * (continued) · ", and another user's reply, asked for while the turn
 * waited, goes out between two parts. */
static void
test_combat_turn_in_parts(void **state)
{
	struct ircfix *f = *state;
	static char *plain_chans[] = {"#b"};
	char line[200], first[600], *all, *at;
	int parts = 1, lines = 0, run = 1;

	f->cfg.plain_channels[0] = plain_chans[0];
	f->cfg.nplain_channels = 1;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #B :!fungeon join Alba fighter 60");
	feed(f, ":carol!c@h PRIVMSG #B :!fungeon join Cora fighter 1");
	feed(f, ":alice!a@h PRIVMSG #B :!gm claim");
	feed(f, ":alice!a@h PRIVMSG #B :!fungeon hallway");
	/* whoever the draw puts first takes Monsters (the other's pick is
	 * refused), and makes eight monsters of 7 points */
	for (int k = 0; k < 3; k++) {
		static const char *const cats[] = {"monsters", "traps", "treasure"};

		for (int who = 0; who < 2; who++) {
			snprintf(line, sizeof(line), ":%s PRIVMSG #B :!fungeon pick %s",
			         who ? "carol!c@h" : "alice!a@h", cats[k]);
			feed(f, line);
		}
	}
	for (int i = 0; i < 16; i++) {
		snprintf(
		    line, sizeof(line),
		    ":%s PRIVMSG #B :!fungeon monster add wasp%d level 1 ability sting annoy 9 "
		    "pain 1 type poison",
		    i % 2 ? "carol!c@h" : "alice!a@h", i / 2);
		feed(f, line);
	}
	feed(f, ":alice!a@h PRIVMSG #B :!fungeon enter waive:true");
	out(f);
	feed(f, ":alice!a@h PRIVMSG #B :!fungeon combat");
	/* the turn's first line is out when carol asks */
	assert_true(irc_conn_pop(f->c, f->now, first, sizeof(first)) > 0);
	assert_memory_equal(first, "PRIVMSG #B :Combat turn · ", 26);
	feed(f, ":carol!c@h PRIVMSG #B :!roll 1d1");
	all = strdup(out(f));
	at = strstr(all, "PRIVMSG #B :carol: 1d1: [1] = 1\r\n");
	assert_non_null(at);
	/* after the first part, before the next */
	assert_true(at > all);
	assert_non_null(strstr(at, "PRIVMSG #B :Combat turn (continued) · "));
	assert_null(strstr(all, "PRIVMSG #B :Combat turn (continued) · ") < at
	                ? strstr(all, "PRIVMSG #B :Combat turn (continued) · ")
	                : NULL);
	assert_null(strstr(all, "not shown"));
	assert_null(strchr(all, '\x02'));
	for (char *l = all; *l != '\0'; l = strstr(l, "\r\n") + 2) {
		if (strncmp(l, "PRIVMSG #B :carol:", 18) == 0)
			continue;
		lines++;
		if (strncmp(l, "PRIVMSG #B :Combat turn (continued) · ", 39) == 0) {
			parts++;
			run = 0;
		}
		assert_true(++run <= 4);
	}
	assert_true(parts > 1);
	assert_true(lines > 4);
	free(all);
}

/* "delver: gm" in a channel is a command; help goes to the asker alone. */
static void
test_addressed_and_help(void **state)
{
	struct ircfix *f = *state;
	static const char nobody[] = "PRIVMSG #a :Nobody is GM here yet; !gm claim makes you the "
	                             "GM.\r\n";
	const char *all;

	feed(f, ":alice!a@h PRIVMSG #a :delver: gm");
	assert_string_equal(out(f), nobody);
	feed(f, ":alice!a@h PRIVMSG #a :DELVER, !gm");
	assert_string_equal(out(f), nobody);
	feed(f, ":alice!a@h PRIVMSG #a :delver:");
	feed(f, ":alice!a@h PRIVMSG #a :delver: hello there");
	feed(f, ":alice!a@h PRIVMSG #a :delverx: gm");
	feed(f, ":alice!a@h PRIVMSG #a :delver gm");
	feed(f, ":alice!a@h PRIVMSG #a :I asked delver: gm");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG #a :!help");
	all = out(f);
	assert_memory_equal(all, "NOTICE alice :", 14);
	assert_null(strstr(all, "PRIVMSG"));
	feed(f, ":alice!a@h PRIVMSG #a :delver: help roll");
	all = out(f);
	assert_memory_equal(all, "NOTICE alice :", 14);
	assert_null(strstr(all, "PRIVMSG"));
	/* Help in a private conversation stays a PRIVMSG. */
	feed(f, ":alice!a@h PRIVMSG delver :help");
	assert_memory_equal(out(f), "PRIVMSG alice :", 15);
}

static int reloads;

static void
count_reload(void *ctx)
{
	(void)ctx;
	reloads++;
}

/* Owner commands from admins (a mask or an account), by private message;
 * from anyone else they are unknown commands. */
static void
test_owner_commands(void **state)
{
	struct ircfix *f = *state;
	static char *admins[] = {"*!a@Admin.example", "Boss"};
	const char *all;

	f->cfg.admins[0] = admins[0];
	f->cfg.admins[1] = admins[1];
	f->cfg.nadmins = 2;
	irc_bot_set_config(f->b, &f->cfg);
	irc_bot_set_reload(f->b, count_reload, NULL);
	reloads = 0;
	feed(f, ":alice!a@admin.example PRIVMSG delver :status");
	assert_string_equal(out(f), "NOTICE alice :registered as delver; configured channels "
	                            "joined: #a #B; 0 lines waiting to be sent.\r\n");
	feed(f, ":alice!a@admin.example PRIVMSG delver :!join #new k3y");
	assert_string_equal(out(f), "JOIN #new k3y\r\nNOTICE alice :Joining #new.\r\n");
	feed(f, ":alice!a@admin.example PRIVMSG delver :part #A");
	assert_string_equal(out(f),
	                    "NOTICE alice :#A is in the configuration's channels; remove it "
	                    "there and reload, or the bot rejoins it.\r\n");
	feed(f, ":alice!a@admin.example PRIVMSG delver :part #new");
	assert_string_equal(out(f), "PART #new\r\nNOTICE alice :Leaving #new.\r\n");
	feed(f, ":alice!a@admin.example PRIVMSG delver :join");
	assert_string_equal(out(f), "NOTICE alice :Usage: join <#channel> [key].\r\n");
	feed(f, "@account=BOSS :x!y@z PRIVMSG delver :reload");
	assert_string_equal(out(f), "NOTICE x :Reloading the configuration; the log says what "
	                            "changed.\r\n");
	assert_int_equal(reloads, 1);
	/* Not an admin: another host, an account tag that does not match, a
	 * nick that looks like an account. In a channel: never. */
	feed(f, ":alice!a@evil.example PRIVMSG delver :reload");
	feed(f, "@account=other :boss!y@z PRIVMSG delver :join #x");
	feed(f, ":boss!y@z PRIVMSG delver :status");
	all = out(f);
	assert_null(strstr(all, "JOIN"));
	assert_null(strstr(all, "registered as"));
	assert_non_null(strstr(all, "NOTICE alice :\x03"
	                            "04\x02\x02Unknown command 'reload'"));
	feed(f, ":alice!a@admin.example PRIVMSG #a :!status");
	assert_string_equal(out(f), "");
	assert_int_equal(reloads, 1);
}

/* /undo is !undo on IRC: refused to another player by NOTICE, and the
 * change named as it is typed here. */
static void
test_undo(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	feed(f, ":alice!a@h PRIVMSG #a :!tension raise 2 # noise");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!undo");
	assert_string_equal(out(f), "NOTICE bob :\x03"
	                            "04\x02\x02The last change here is alice's !tension raise 2 "
	                            "# noise; only alice or the GM can undo it.\x0f\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!undo");
	assert_string_equal(
	    out(f), "PRIVMSG #a :Undid a\xe2\x80\x8dlice's \x02!tension raise 2 # noise\x0f: "
	            "Tension state is as it was before. · Nothing more can be "
	            "undone here.\r\n"); /* short: one IRC line */
}

static void
test_reply_held_until_committed(void **state)
{
	struct ircfix *f = *state;
	struct holdstore h = {.st = f->st};

	dispatch_set_store(f->d, &holdstore_ops, &h);
	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	feed(f, ":bob!b@h PRIVMSG #a :!gm");
	assert_int_equal(h.n, 2);
	assert_string_equal(out(f), ""); /* nothing before the commit */
	holdstore_commit(&h, 0, REQUEST_DONE);
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "a\xe2\x80\x8dlice\x0f is now the GM of this channel.\r\n");
	holdstore_commit(&h, 1, REQUEST_DONE);
	assert_string_equal(out(f), "PRIVMSG #a :The GM here is \x02"
	                            "a\xe2\x80\x8dlice\x0f.\r\n");
	/* A reply still held when the bot goes is dropped, not sent. */
	feed(f, ":alice!a@h PRIVMSG #a :!gm release");
	assert_int_equal(h.n, 3);
	irc_bot_free(f->b);
	f->b = NULL;
	holdstore_commit(&h, 2, REQUEST_DONE);
	assert_string_equal(out(f), "");
	dispatch_set_store(f->d, NULL, NULL);
}

/* A command as a version before the nick!user@host binding ran it: the
 * user key of a user without an account was "irc:net:<nick>" (no
 * account-tag on this server). */
static void
legacy_run(struct ircfix *f, const char *line)
{
	struct origin o = {.platform = "irc"};
	struct reply *r = reply_new();

	snprintf(o.chan_key, sizeof(o.chan_key), "irc:net:#a");
	snprintf(o.user_key, sizeof(o.user_key), "irc:net:alice");
	snprintf(o.user_name, sizeof(o.user_name), "alice");
	dispatch_line(f->d, &o, line, strlen(line), f->now, r);
	reply_free(r);
}

static const char *const legacy_key = "irc:net:alice";
static const char *const new_key = "irc:net:~alice!a@host.example";

/* The records the dispatcher handed to persistence after a command. */
static char persisted[256];

static int
note_channel(struct channel *ch, void *ctx)
{
	size_t n = strlen(persisted);

	snprintf(persisted + n, sizeof(persisted) - n, "%s;", channel_key(ch));
	return 0;
}

static int
note_user(struct user *u, void *ctx)
{
	size_t n = strlen(persisted);

	snprintf(persisted + n, sizeof(persisted) - n, "%s;", user_key(u));
	return 0;
}

static void
assert_adopted(struct ircfix *f)
{
	struct channel *ch = state_channel_find(f->st, "irc:net:#a");
	const struct fungeon_channel *c = fungeon_channel_peek(ch);
	const struct rollchan *rc = channel_mod_peek(ch, CHANMOD_ROLL);
	const struct user *u = state_user_find(f->st, new_key);

	assert_string_equal(channel_gm(ch), new_key);
	assert_int_equal(fungeon_channel_member_of(c, new_key), 0);
	assert_int_equal(fungeon_channel_member_of(c, legacy_key), -1);
	/* A player's saved rolls live in the user record, which moved. */
	assert_true(rc == NULL || rollchan_find(rc, legacy_key, "fireball") == NULL);
	assert_non_null(u);
	assert_non_null(user_saved_find(u, "fireball"));
	assert_int_equal(user_nsaved(state_user_find(f->st, legacy_key)), 0);
	assert_non_null(user_style(u));
	assert_string_equal(user_style(u)->mark, "AL");
	assert_null(user_style(state_user_find(f->st, legacy_key)));
}

/* Records made under the legacy key (GM seat, Fungeoneer, Thwack-O style,
 * saved rolls) are adopted by the first command of that user in the
 * channel, and only once: the same nick from another user@host later
 * gets none of them. */
static void
test_legacy_key_adopted(void **state)
{
	struct ircfix *f = *state;
	struct memstore m;

	legacy_run(f, "gm claim");
	legacy_run(f, "fungeon join Alba wizard 2");
	legacy_run(f, "thwacko style red AL");
	legacy_run(f, "save fireball 8d6");
	assert_null(state_user_find(f->st, new_key));

	/* The adoption is made durable with the command: the channel, the new
	 * user record and the emptied legacy one. */
	memstore_init(&m, f->st);
	m.chan_fn = note_channel;
	m.user_fn = note_user;
	dispatch_set_store(f->d, &memstore_ops, &m);
	persisted[0] = '\0';
	feed(f, ":alice!a@Host.example PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), "PRIVMSG #a :You are already the GM here.\r\n");
	assert_adopted(f);
	assert_non_null(strstr(persisted, "irc:net:#a;"));
	assert_non_null(strstr(persisted, ";irc:net:alice;"));
	assert_non_null(strstr(persisted, ";irc:net:~alice!a@host.example;"));

	/* Same nick, another user@host: a new player, who adopts nothing. */
	feed(f, ":alice!x@evil.example PRIVMSG #a :!gm claim");
	assert_memory_equal(out(f), "NOTICE alice :", 14);
	feed(f, ":alice!x@evil.example PRIVMSG #a :!saved");
	out(f);
	assert_adopted(f);
	/* (no record at all: a user is kept only for what it holds) */
	assert_null(state_user_find(f->st, "irc:net:~alice!x@evil.example"));
	dispatch_set_store(f->d, NULL, NULL);
	memstore_clear(&m);
}

/* An undo step made under the legacy key is the adopting player's own. */
static void
test_legacy_undo_adopted(void **state)
{
	struct ircfix *f = *state;

	legacy_run(f, "fungeon join Alba wizard 2");
	feed(f, ":alice!a@host.example PRIVMSG #a :!undo");
	assert_memory_equal(out(f), "PRIVMSG #a :Undid a\xe2\x80\x8dlice's ", 29);
}

/* hidden4 H1: a server relays a channel message from outside it (no +n),
 * and eve, who is not in #a, read its undo history by NOTICE and could
 * claim an empty seat there. A channel takes commands from its members
 * alone; the outsider is told once, and nothing runs. */
static void
test_outsiders_are_refused(void **state)
{
	struct ircfix *f = *state;
	static const char refused[] = "NOTICE eve :You are not in #a, so delver takes no commands "
	                              "for it from you; join it first.\r\n";

	feed(f, ":alice!a@h PRIVMSG #a :!light add torch");
	out(f);
	feed(f, ":eve!e@h PRIVMSG #a :!undo");
	assert_string_equal(out(f), refused);
	feed(f, ":eve!e@h PRIVMSG #a :delver: !gm claim");
	assert_string_equal(out(f), refused);
	assert_null(channel_gm(state_channel_find(f->st, "irc:net:#a")));
	/* Joined, eve is a player like any other; gone again, refused. */
	feed(f, ":eve!e@h JOIN #a");
	feed(f, ":eve!e@h PRIVMSG #a :!undo");
	assert_string_equal(out(f), "NOTICE eve :\x03"
	                            "04\x02\x02"
	                            "The last change here is alice's !light add torch; only alice "
	                            "or the GM can undo it.\x0f\r\n");
	feed(f, ":eve!e@h PART #a");
	feed(f, ":eve!e@h PRIVMSG #a :!gm claim");
	assert_string_equal(out(f), refused);
	assert_null(channel_gm(state_channel_find(f->st, "irc:net:#a")));
	/* Her private conversation with the bot is hers: answered. */
	feed(f, ":eve!e@h PRIVMSG delver :!gm");
	assert_string_equal(out(f),
	                    "PRIVMSG eve :This is your private conversation with delver: you are "
	                    "its GM without claiming the seat.\r\n");
}

/* A player's secret roll: the channel learns who rolls what, the GM's nick
 * alone gets the result by NOTICE, in the same group; with the GM gone
 * from the channel nothing is sent and the player is told. */
static void
test_gmroll(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!gmroll 1d20+5 # stealth");
	assert_string_equal(out(f), "PRIVMSG #a :\x02"
	                            "b\xe2\x80\x8dob\x0f rolls in secret: only the GM, \x02"
	                            "a\xe2\x80\x8dlice\x0f, sees the result.\r\nNOTICE alice :\x02"
	                            "bob\x0f rolls\x1d stealth\x0f in secret · \x03"
	                            "10\x02\x02"
	                            "1d20 + 5\x0f: [15] + 5 = \x02\x03"
	                            "07\x02\x02"
	                            "20\x0f\r\n");
	/* The GM's own: behind the screen, the result by NOTICE to the GM. */
	feed(f, ":alice!a@h PRIVMSG #a :!gmroll 2d6");
	assert_string_equal(
	    out(f), "PRIVMSG #a :\x02"
	            "a\xe2\x80\x8dlice\x0f (GM) rolls behind the screen.\r\nNOTICE alice :\x02"
	            "alice\x0f rolls in secret · \x03"
	            "10\x02\x02"
	            "2d6\x0f: [4, 4] = \x02\x03"
	            "07\x02\x02"
	            "8\x0f\r\n");
	/* The GM changes nick: the result follows the GM (the server said
	 * that same user is alice_ now), and the channel is told the new
	 * nick. */
	feed(f, ":alice!a@h NICK :alice_");
	feed(f, ":bob!b@h PRIVMSG #a :!gmroll 1d1");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :\x02"
	                    "b\xe2\x80\x8dob\x0f rolls in secret: only the GM, \x02"
	                    "a\xe2\x80\x8dlice_\x0f, sees the result.\r\nNOTICE alice_ :\x02"
	                    "bob\x0f rolls in secret · \x03"
	                    "10\x02\x02"
	                    "1d1\x0f: [1] = \x02\x03"
	                    "07\x02\x02"
	                    "1\x0f\r\n");
	feed(f, ":alice_!a@h PART #a");
	feed(f, ":bob!b@h PRIVMSG #a :!gmroll 1d20");
	assert_string_equal(out(f),
	                    "NOTICE bob :The GM, alice_, is not known to be in #a (no command from "
	                    "them there since they left or quit, or since delver connected), so "
	                    "delver did not send your secret roll; once they type a command there "
	                    "(!gm will do), roll again.\r\n");
	/* The GM quits; a stranger takes the nick the GM last used, and is
	 * in the channel: the secret roll does not go to them (check-26 F1). */
	feed(f, ":alice_!a@h JOIN #a");
	feed(f, ":alice_!a@h PRIVMSG #a :!gm");
	out(f);
	feed(f, ":alice_!a@h QUIT :bye");
	feed(f, ":alice_!evil@h JOIN #a");
	feed(f, ":bob!b@h PRIVMSG #a :!gmroll 1d20");
	assert_string_equal(out(f),
	                    "NOTICE bob :The GM, alice_, is not known to be in #a (no command "
	                    "from them there since they left or quit, or since delver "
	                    "connected), so delver did not send your secret roll; once they "
	                    "type a command there (!gm will do), roll again.\r\n");
	/* The stranger's own command does not make them the GM's nick. */
	feed(f, ":alice_!evil@h PRIVMSG #a :!gm");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!gmroll 1d20");
	assert_null(strstr(out(f), "NOTICE alice_"));
	/* The GM back, under another nick, is theirs again at their next
	 * command. */
	feed(f, ":alice!a@h JOIN #a");
	feed(f, ":alice!a@h PRIVMSG #a :!gm");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!gmroll 1d1");
	assert_non_null(strstr(out(f), "\r\nNOTICE alice :"));
}

/* A player's hazard roll while Tension is hidden: the channel reads the
 * roll, the GM alone by NOTICE what the encounter table gave; with the GM
 * gone from the channel the roll still stands and is shown, and the player
 * is told what did not reach the GM. */
static void
test_hazard_behind_the_screen(void **state)
{
	struct ircfix *f = *state;
	const char *o;

	feed(f, ":alice!a@h PRIVMSG #a :!gm claim");
	feed(f, ":alice!a@h PRIVMSG #a :!tension mode hidden");
	feed(f, ":alice!a@h PRIVMSG #a :!hazard table delving");
	feed(f, ":alice!a@h PRIVMSG #a :!hazard custom d2 1-2 Encounter");
	out(f);
	feed(f, ":bob!b@h PRIVMSG #a :!hazard");
	o = out(f);
	assert_memory_equal(o, "PRIVMSG #a :\x02Hazard die: turn 1\x0f", 31);
	assert_non_null(strstr(o, "The encounter is behind the GM's screen: the GM says what the "
	                          "party meets, if anything"));
	assert_non_null(strstr(o, "\r\nNOTICE alice :\x1d"
	                          "Behind the screen: \x0f\x02\x03"
	                          "04\x02\x02"
	                          "Encounter!\x0f From the encounter table (d10 + Tension = "));
	assert_null(strstr(o, "NOTICE bob"));
	feed(f, ":alice!a@h PART #a");
	feed(f, ":bob!b@h PRIVMSG #a :!hazard");
	o = out(f);
	assert_memory_equal(o, "PRIVMSG #a :\x02Hazard die: turn 2\x0f", 31);
	assert_null(strstr(o, "NOTICE alice"));
	assert_null(strstr(o, "Behind the screen"));
	assert_non_null(strstr(o, "\r\nNOTICE bob :The GM, alice, is not known to be in #a (no "
	                          "command from them there since they left or quit, or since "
	                          "delver connected), so delver did not send what your hazard "
	                          "roll put behind the GM's screen.\r\n"));
}

/* Compact output on IRC: the heading starts the hazard roll's line instead
 * of a bold title line, and the table is left out. */
static void
test_compact_heading(void **state)
{
	struct ircfix *f = *state;

	feed(f, ":boss!b@h PRIVMSG #a :!settings compact on");
	out(f);
	feed(f, ":boss!b@h PRIVMSG #a :!hazard roll");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :Hazard die: turn 1 · Rolled \x02\x03"
	                    "07\x02\x02"
	                    "5\x0f on the d6 (exploration): \x02Nothing\x0f. · \x02\x03"
	                    "04\x02\x02"
	                    "Darkness:\x0f nothing is lit. Without light the party is \x02"
	                    "effectively blind\x0f: a setback on all rolls, movement halved, no "
	                    "reading, searching or spotting danger (darkvision sees darkness as "
	                    "dim light); !light add lights a source. · \x03"
	                    "14\x02\x02Turn \x0f\x02"
	                    "1\x0f\x03"
	                    "14\x02\x02 (10 min in the dungeon); \x0f\x02"
	                    "1\x0f\x03"
	                    "14\x02\x02 turn since the last rest.\x0f\r\n");
	feed(f, ":boss!b@h PRIVMSG #a :!wander check");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :Wandering check: corridor leg (1-in-6) · d6: \x02\x03"
	                    "07\x02\x02"
	                    "4\x0f → \x03"
	                    "03\x02\x02no wandering monsters\x0f.\r\n");
	feed(f, ":boss!b@h PRIVMSG #a :!settings compact off");
	out(f);
	feed(f, ":boss!b@h PRIVMSG #a :!wander check");
	assert_string_equal(
	    out(f), "PRIVMSG #a :\x02Wandering check: corridor leg (1-in-6)\x0f · d6: \x02\x03"
	            "07\x02\x02"
	            "4\x0f → \x03"
	            "03\x02\x02no wandering monsters\x0f.\r\n");
}

/* A line or paragraph separator (U+2028, U+2029) or a next-line control
 * (U+0085) in a label, a reason or a table entry reaches the channel as a
 * space, as a bidi control is taken out: nothing a user types breaks the
 * bot's line (hide23 F4). */
static void
test_line_separators_are_spaces(void **state)
{
	struct ircfix *f = *state;

	f->cfg.formatting = false;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #a :!r 1d20 # a\xe2\x80\xa8"
	        "b\xe2\x80\xa9"
	        "c\xc2\x85"
	        "d");
	assert_string_equal(out(f), "PRIVMSG #a :alice: a b c d · 1d20: [15] = 15\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!table set foo 1-6: p\xe2\x80\xa8q");
	assert_non_null(strstr(out(f), "foo"));
	feed(f, ":alice!a@h PRIVMSG #a :!table show foo");
	assert_string_equal(out(f), "PRIVMSG #a :Table foo: d6, 1 entry · 1-6: p q\r\n");
}

/* Issue 15's shortcuts on IRC: adv, the natural 20 mark, /log, "did you
 * mean" for a slip, and a label's bidi override removed. */
static void
test_roll_shortcuts(void **state)
{
	struct ircfix *f = *state;
	char o[512] = "";
	int i;

	f->cfg.formatting = false;
	irc_bot_set_config(f->b, &f->cfg);
	feed(f, ":alice!a@h PRIVMSG #a :!r 1d20+5 adv # sneak");
	assert_string_equal(out(f),
	                    "PRIVMSG #a :alice: sneak · 2d20kh1 + 5: [15, ~~11~~] + 5 = 20\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!r 1d20 # a\xe2\x80\xae"
	        "41");
	assert_string_equal(out(f), "PRIVMSG #a :alice: a41 · 1d20: [12] = 12\r\n");
	/* A slip in a command's name is answered in a private message; in a
	 * channel an unknown word is left alone (other bots may share the
	 * prefix), while a slip in a subcommand or a choice is answered. */
	feed(f, ":alice!a@h PRIVMSG #a :!rol 1d6");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG delver :rol 1d6");
	assert_string_equal(out(f), "NOTICE alice :Unknown command 'rol'; did you mean !roll?\r\n");
	/* !help asked in a channel answers, the closest command named. */
	/* A command's name holding an invisible character (the joiner the
	 * bot puts into a nick-like word of its own hints, copied back) is
	 * no other bot's word: it is refused naming the character. */
	feed(f, ":alice!a@h PRIVMSG #a :!g\xe2\x80\x8dm claim");
	assert_string_equal(out(f),
	                    "NOTICE alice :Unknown command 'gm' with an invisible character "
	                    "U+200D at column 2; the commands are roll, gmroll, gm, tension, "
	                    "table, fungeon, thwacko, xp, hazard, turn, light, rest, wander, "
	                    "surprise, procedure, safe, panel, vendor, bargain, encumbrance, "
	                    "save, saved, log, settings, undo, help (try !help).\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!r\xe2\x80\x8bol 1d6");
	assert_string_equal(out(f), "");
	feed(f, ":alice!a@h PRIVMSG #a :!help rol");
	assert_string_equal(out(f),
	                    "NOTICE alice :There is no command 'rol'; did you mean !roll?\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!hazard tabel");
	assert_string_equal(
	    out(f), "NOTICE alice :Unknown subcommand 'tabel' (did you mean table?); usage: "
	            "!hazard <roll|show|table|chance|custom|procedure|who|sign|fatigue>\r\n");
	feed(f, ":alice!a@h PRIVMSG #a :!log 2");
	/* A table that packs into fewer lines is packed, each row in words. */
	assert_string_equal(out(f),
	                    "PRIVMSG #a :The last 2 rolls here, newest first · just now: who "
	                    "a\xe2\x80\x8dlice, roll 1d20 # a41, result 12 · just now: who "
	                    "a\xe2\x80\x8dlice, roll 2d20kh1 + 5 # sneak, result 20\r\n");
	/* A lone d20's natural 20 or 1 closes its line. */
	for (i = 0; i < 100 && strstr(o, "Natural") == NULL; i++) {
		feed(f, ":alice!a@h PRIVMSG #a :!r d20");
		snprintf(o, sizeof(o), "%s", out(f));
	}
	assert_string_equal(o, "PRIVMSG #a :alice: 1d20: [20] = 20 · Natural 20!\r\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_prefix_commands_in_channels, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_channel_named_by_casemapping, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_channel_named_rfc7613, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_table_typed_line_by_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_inline_table_drops_open_one, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refused_table_stays_open, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_errors_go_by_notice, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_operator_is_admin, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_private_messages, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ctcp, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_account_identity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_outsiders_are_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rfc7613_keys, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prefix_reloaded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_injection, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_formatting_typed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_roll_totals_kept, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_user_rate_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_channel_rate_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_channel_rate_fair, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_channel_rate_steady_users, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reply_whole_or_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_nick_identity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_plain_formatting, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_combat_turn_in_parts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_addressed_and_help, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_owner_commands, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undo, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_legacy_key_adopted, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_legacy_undo_adopted, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gmroll, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hazard_behind_the_screen, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compact_heading, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_roll_shortcuts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_line_separators_are_spaces, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reply_held_until_committed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
