/*
 * Unit tests for bot/irc/irc_conn (and bot/irc/irc_track through it): the session
 * state machine driven by scripted server lines and an injected clock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_conn.h"
#include "bot/irc/irc_flood.h"
#include "tests/unit/helpers/ircdrain.h"
#include "tests/unit/helpers/stderrcap.h"
#include "rules/base/buf.h"

struct fixture {
	struct config_irc cfg;
	struct irc_timing t;
	struct irc_conn *c;
	int wakes;
	int recycles;
	char why[256];
	int messages;
	char last_text[512];
	int64_t now;
};

static void
on_wake(void *ctx)
{
	((struct fixture *)ctx)->wakes++;
}

static void
on_recycle(void *ctx, const char *why)
{
	struct fixture *f = ctx;

	f->recycles++;
	snprintf(f->why, sizeof(f->why), "%s", why);
}

static void
on_message(void *ctx, const struct irc_msg *m)
{
	struct fixture *f = ctx;

	f->messages++;
	snprintf(f->last_text, sizeof(f->last_text), "%s %s %s", m->nick, m->command,
	         irc_line_param(m, 1));
}

static const struct irc_conn_hooks hooks = {on_wake, on_recycle, on_message, NULL};

static char *channels[] = {"#a", "#B"};
static char *alts[] = {"delver2"};

static struct fixture *
setup(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->cfg.network = "test";
	f->cfg.host = "irc.test";
	f->cfg.nick = "delver";
	f->cfg.alt_nicks[0] = alts[0];
	f->cfg.nalt_nicks = 1;
	f->cfg.channels[0] = channels[0];
	f->cfg.channels[1] = channels[1];
	f->cfg.nchannels = 2;
	f->cfg.flood_burst = 4;
	f->cfg.flood_interval_ms = 2000;
	irc_conn_timing_defaults(&f->t);
	f->now = 1000000;
	return f;
}

static void
start(struct fixture *f)
{
	f->c = irc_conn_new(&f->cfg, &f->t, &hooks, f);
	irc_conn_link_up(f->c, f->now);
}

static void
teardown(struct fixture *f)
{
	irc_conn_free(f->c);
	free(f);
}

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

static void
register_plain(struct fixture *f)
{
	start(f);
	assert_string_equal(out(f),
	                    "CAP LS 302\r\nNICK delver\r\nUSER delver 0 * :delver dice bot\r\n");
	feed(f, ":irc.test CAP * LS :multi-prefix server-time away-notify");
	assert_string_equal(out(f), "CAP REQ :multi-prefix server-time\r\n");
	feed(f, ":irc.test CAP delver ACK :multi-prefix server-time");
	assert_string_equal(out(f), "CAP END\r\n");
	feed(f, ":irc.test 001 delver :Welcome");
	feed(f, ":irc.test 005 delver CASEMAPPING=rfc1459 PREFIX=(qaohv)~&@%+ "
	        "CHANMODES=beI,k,l,imnpst :are supported");
	assert_string_equal(out(f), "JOIN #a,#B\r\n");
	assert_true(irc_conn_ready(f->c));
}

/* With a NickServ password: IDENTIFY after 001, and REGAIN when the nick
 * is held by someone else; before the JOINs. */
static void
test_nickserv(void **state)
{
	struct fixture *f = setup();

	(void)state;
	f->cfg.nickserv_password = "pw word";
	start(f);
	out(f);
	feed(f, ":irc.test 433 * delver :Nickname is already in use");
	assert_string_equal(out(f), "NICK delver2\r\n");
	feed(f, ":irc.test CAP * LS :");
	out(f);
	feed(f, ":irc.test 001 delver2 :Welcome");
	assert_string_equal(out(f), "PRIVMSG NickServ :IDENTIFY delver pw word\r\n"
	                            "PRIVMSG NickServ :REGAIN delver pw word\r\n"
	                            "JOIN #a,#B\r\n");
	teardown(f);
	/* Registered with its own nick: IDENTIFY only. */
	f = setup();
	f->cfg.nickserv_password = "pw";
	start(f);
	feed(f, ":irc.test CAP * LS :");
	out(f);
	feed(f, ":irc.test 001 delver :Welcome");
	assert_string_equal(out(f), "PRIVMSG NickServ :IDENTIFY delver pw\r\nJOIN #a,#B\r\n");
	teardown(f);
}

/* SASL EXTERNAL: asked for only when offered, "AUTHENTICATE +" answered
 * with an empty one (the certificate says who), then CAP END. */
static void
test_sasl_external(void **state)
{
	struct fixture *f = setup();

	(void)state;
	f->cfg.sasl_external = true;
	start(f);
	out(f);
	feed(f, ":irc.test CAP * LS :sasl=PLAIN,EXTERNAL server-time");
	assert_string_equal(out(f), "CAP REQ :sasl server-time\r\n");
	feed(f, ":irc.test CAP delver ACK :sasl server-time");
	assert_string_equal(out(f), "AUTHENTICATE EXTERNAL\r\n");
	feed(f, "AUTHENTICATE +");
	assert_string_equal(out(f), "AUTHENTICATE +\r\n");
	feed(f, ":irc.test 900 delver delver!d@h bot :You are now logged in as bot");
	feed(f, ":irc.test 903 delver :SASL authentication successful");
	assert_string_equal(out(f), "CAP END\r\n");
	teardown(f);
	/* Offered without EXTERNAL: not registering without the account. */
	f = setup();
	f->cfg.sasl_external = true;
	start(f);
	out(f);
	feed(f, ":irc.test CAP * LS :sasl=PLAIN");
	assert_int_equal(f->recycles, 1);
	assert_string_equal(f->why, "the server does not offer SASL EXTERNAL, which this "
	                            "network's configuration requires");
	teardown(f);
	/* Refused: says which mechanism. */
	f = setup();
	f->cfg.sasl_external = true;
	start(f);
	feed(f, ":irc.test CAP * LS :sasl");
	feed(f, ":irc.test CAP delver ACK :sasl");
	feed(f, ":irc.test 904 delver :SASL authentication failed");
	assert_string_equal(f->why, "SASL EXTERNAL authentication failed (904: SASL authentication "
	                            "failed)");
	teardown(f);
}

/* INVITE: ignored unless join_on_invite; then the channel is joined. */
static void
test_invite(void **state)
{
	struct fixture *f = setup();

	(void)state;
	register_plain(f);
	feed(f, ":alice!a@h INVITE delver :#new");
	assert_string_equal(out(f), "");
	f->cfg.join_on_invite = true;
	feed(f, ":alice!a@h INVITE delver :#new");
	assert_string_equal(out(f), "JOIN #new\r\n");
	/* Not for us, not a channel, not a channel name IRC can carry. */
	feed(f, ":alice!a@h INVITE bob :#other");
	feed(f, ":alice!a@h INVITE delver :nochan");
	feed(f, ":alice!a@h INVITE delver :#a,#b");
	assert_string_equal(out(f), "");
	teardown(f);
}

static void
test_register_and_join(void **state)
{
	struct fixture *f = setup();

	(void)state;
	register_plain(f);
	assert_true(irc_conn_has_cap(f->c, "server-time"));
	assert_true(irc_conn_has_cap(f->c, "multi-prefix"));
	assert_false(irc_conn_has_cap(f->c, "away-notify"));
	assert_false(irc_conn_has_cap(f->c, "server"));
	assert_int_equal(f->recycles, 0);
	teardown(f);
}

/* A reloaded channel list is applied on the live link: channels no longer
 * listed are left, new ones joined, the rest untouched (casefolded). */
static void
test_channel_list_changes_live(void **state)
{
	struct fixture *f = setup();
	struct config_irc next;

	(void)state;
	register_plain(f);
	feed(f, ":delver!d@h JOIN #a");
	feed(f, ":delver!d@h JOIN #B");
	next = f->cfg;
	next.channels[0] = "#b";
	next.channels[1] = "#c";
	irc_conn_reconfigure(f->c, &next, NULL);
	assert_string_equal(out(f), "PART #a\r\nJOIN #c\r\n");
	feed(f, ":delver!d@h PART #a");
	assert_string_equal(out(f), "");
	/* the same list again changes nothing */
	irc_conn_reconfigure(f->c, &next, NULL);
	assert_string_equal(out(f), "");
	/* a dropped link rejoins the new list only */
	irc_conn_link_down(f->c, f->now);
	irc_conn_link_up(f->c, f->now);
	out(f);
	feed(f, ":irc.test 001 delver :Welcome");
	assert_string_equal(out(f), "JOIN #b,#c\r\n");
	teardown(f);
}

/* Keyed channels are joined first with their keys, in every JOIN: at
 * registration, after a KICK and after a reconnect. */
static void
test_channel_keys(void **state)
{
	struct fixture *f = setup();
	static char *names[] = {"#a", "#k1", "#B", "#k2"};
	static char *keys[] = {NULL, "one", NULL, "two"};
	struct config_irc next;

	(void)state;
	memcpy(f->cfg.channels, names, sizeof(names));
	memcpy(f->cfg.channel_keys, keys, sizeof(keys));
	f->cfg.nchannels = 4;
	start(f);
	out(f);
	feed(f, ":irc.test 001 delver :Welcome");
	assert_string_equal(out(f), "JOIN #k1,#k2,#a,#B one,two\r\n");
	feed(f, ":delver!d@h JOIN #k1");
	feed(f, ":delver!d@h JOIN #a");
	f->now += 10000;
	feed(f, ":op!o@h KICK #K1 delver :out");
	f->now += 5000;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "JOIN #k1 one\r\n");
	/* A wrong key is not retried on this link, nor a missing one. */
	feed(f, ":irc.test 475 delver #k2 :Cannot join channel (+k) -- Wrong channel key");
	feed(f, ":irc.test 475 delver #B :Cannot join channel (+k) -- Wrong channel key");
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 60000); /* the PING, no JOIN */
	f->now += 3600000;
	feed(f, ":irc.test NOTICE delver :still here");
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "");
	/* A changed key is tried at once; an unchanged one is not. */
	next = f->cfg;
	irc_conn_reconfigure(f->c, &next, NULL);
	assert_string_equal(out(f), "");
	next.channel_keys[3] = "three";
	irc_conn_reconfigure(f->c, &next, NULL);
	assert_string_equal(out(f), "JOIN #k2 three\r\n");
	/* A new link tries every channel not joined once more, with its key. */
	irc_conn_link_down(f->c, f->now);
	irc_conn_link_up(f->c, f->now);
	out(f);
	feed(f, ":irc.test 001 delver :Welcome");
	assert_string_equal(out(f), "JOIN #k1,#k2,#a,#B one,three\r\n");
	teardown(f);
}

/* Long lists take several JOINs; each starts with its keyed channels. */
static void
test_channel_keys_split(void **state)
{
	struct fixture *f = setup();
	static char names[7][48];
	char want[1024] = "JOIN ";

	(void)state;
	for (int i = 0; i < 6; i++) {
		snprintf(names[i], sizeof(names[i]), "#%d%044d", i, 0);
		f->cfg.channels[i] = names[i];
		f->cfg.channel_keys[i] = "abcdefghijklmnopqrstuvw"; /* 23 bytes */
	}
	snprintf(names[6], sizeof(names[6]), "#open");
	f->cfg.channels[6] = names[6];
	f->cfg.channel_keys[6] = NULL;
	f->cfg.nchannels = 7;
	f->cfg.flood_burst = 10;
	start(f);
	out(f);
	feed(f, ":irc.test 001 delver :Welcome");
	/* 71 bytes a keyed channel: five fit 400 */
	for (int i = 0; i < 5; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? "," : "",
		         names[i]);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), " %s\r\nJOIN %s,#open %s\r\n",
	         "abcdefghijklmnopqrstuvw,abcdefghijklmnopqrstuvw,abcdefghijklmnopqrstuvw,"
	         "abcdefghijklmnopqrstuvw,abcdefghijklmnopqrstuvw",
	         names[5], "abcdefghijklmnopqrstuvw");
	assert_string_equal(out(f), want);
	teardown(f);
}

static void
test_cap_multiline_and_password(void **state)
{
	struct fixture *f = setup();

	(void)state;
	f->cfg.password = "serverpass";
	f->cfg.username = "bot";
	f->cfg.realname = "Dice";
	start(f);
	assert_string_equal(out(f), "PASS serverpass\r\nCAP LS 302\r\nNICK delver\r\n"
	                            "USER bot 0 * Dice\r\n");
	feed(f, ":irc.test CAP * LS * :account-tag foo sasl=PLAIN");
	assert_string_equal(out(f), "");
	feed(f, ":irc.test CAP * LS :message-tags bar");
	assert_string_equal(out(f), "CAP REQ :account-tag message-tags\r\n");
	feed(f, ":irc.test CAP * NAK :account-tag message-tags");
	assert_string_equal(out(f), "CAP END\r\n");
	teardown(f);
}

static void
sasl_to_plus(struct fixture *f)
{
	start(f);
	out(f);
	feed(f, ":irc.test CAP * LS :sasl=EXTERNAL,PLAIN account-tag");
	assert_string_equal(out(f), "CAP REQ :sasl account-tag\r\n");
	feed(f, ":irc.test CAP * ACK :sasl account-tag");
	assert_string_equal(out(f), "AUTHENTICATE PLAIN\r\n");
	feed(f, "AUTHENTICATE +");
}

static void
test_sasl_success(void **state)
{
	struct fixture *f = setup();

	(void)state;
	f->cfg.sasl_user = "bot";
	f->cfg.password = "secret";
	sasl_to_plus(f);
	/* base64("bot\0bot\0secret"); no PASS line with SASL */
	assert_string_equal(out(f), "AUTHENTICATE Ym90AGJvdABzZWNyZXQ=\r\n");
	feed(f, ":irc.test 900 delver delver!d@h bot :You are now logged in as bot");
	feed(f, ":irc.test 903 delver :SASL authentication successful");
	assert_string_equal(out(f), "CAP END\r\n");
	assert_true(irc_conn_has_cap(f->c, "account-tag"));
	assert_int_equal(f->recycles, 0);
	teardown(f);
}

static void
test_sasl_chunks(void **state)
{
	struct fixture *f = setup();
	char pw[400];
	const char *o;

	(void)state;
	/* "bot\0bot\0" + 292 bytes = 300 bytes = exactly 400 base64 bytes. */
	memset(pw, 'p', 292);
	pw[292] = '\0';
	f->cfg.sasl_user = "bot";
	f->cfg.password = pw;
	sasl_to_plus(f);
	o = out(f);
	assert_int_equal(strlen(o),
	                 strlen("AUTHENTICATE ") + 400 + 2 + strlen("AUTHENTICATE +\r\n"));
	assert_string_equal(o + strlen(o) - 18, "\r\nAUTHENTICATE +\r\n");
	teardown(f);

	/* 293 bytes: 404 base64 bytes, in a 400 and a 4. */
	f = setup();
	memset(pw, 'p', 293);
	pw[293] = '\0';
	f->cfg.sasl_user = "bot";
	f->cfg.password = pw;
	sasl_to_plus(f);
	o = out(f);
	assert_int_equal(strlen(o), 2 * strlen("AUTHENTICATE ") + 404 + 4);
	assert_string_equal(o + strlen(o) - 6, "cA==\r\n");
	teardown(f);
}

static void
test_sasl_failure_recycles(void **state)
{
	struct fixture *f = setup();

	(void)state;
	f->cfg.sasl_user = "bot";
	f->cfg.password = "wrong";
	sasl_to_plus(f);
	out(f);
	feed(f, ":irc.test 904 delver :SASL authentication failed");
	assert_int_equal(f->recycles, 1);
	assert_string_equal(f->why, "SASL authentication as bot failed (904: SASL "
	                            "authentication failed)");
	assert_string_equal(out(f), ""); /* no CAP END: it does not register */
	teardown(f);

	/* A server that does not offer SASL. */
	f = setup();
	f->cfg.sasl_user = "bot";
	f->cfg.password = "pw";
	start(f);
	out(f);
	feed(f, ":irc.test CAP * LS :account-tag");
	assert_int_equal(f->recycles, 1);
	assert_string_equal(out(f), "");
	teardown(f);
}

static void
test_nick_fallback_and_regain(void **state)
{
	struct fixture *f = setup();

	(void)state;
	start(f);
	out(f);
	feed(f, ":irc.test 433 * delver :Nickname already in use");
	assert_string_equal(out(f), "NICK delver2\r\n");
	feed(f, ":irc.test 432 * delver2 :Erroneous nickname");
	assert_string_equal(out(f), "NICK delver_\r\n");
	feed(f, ":irc.test 001 delver_ :Welcome");
	assert_string_equal(irc_conn_nick(f->c), "delver_");
	assert_string_equal(out(f), "JOIN #a,#B\r\n");
	feed(f, ":delver_!~d@127.0.0.1 JOIN #a");
	/* The holder of the primary nick quits: take it back. */
	feed(f, ":DELVER!x@y QUIT :bye");
	assert_string_equal(out(f), "NICK delver\r\n");
	feed(f, ":delver_!~d@127.0.0.1 NICK :delver");
	assert_string_equal(irc_conn_nick(f->c), "delver");
	teardown(f);
}

static void
test_nicks_exhausted(void **state)
{
	struct fixture *f = setup();

	(void)state;
	start(f);
	out(f);
	for (int i = 0; i < 5; i++)
		feed(f, ":irc.test 433 * x :in use");
	assert_string_equal(irc_conn_nick(f->c), "delver____");
	assert_int_equal(f->recycles, 0);
	feed(f, ":irc.test 433 * x :in use");
	assert_int_equal(f->recycles, 1);
	teardown(f);
}

static void
test_pong_bypasses_backlog(void **state)
{
	struct fixture *f = setup();

	(void)state;
	register_plain(f);
	for (int i = 0; i < 10; i++)
		assert_int_equal(irc_conn_say(f->c, "PRIVMSG", "#a", "hello"), 0);
	/* the JOIN took one token, so 3 replies go; the rest wait */
	assert_string_equal(out(f), "PRIVMSG #a hello\r\nPRIVMSG #a hello\r\nPRIVMSG #a hello\r\n");
	feed(f, "PING :irc.test");
	assert_string_equal(out(f), "PONG irc.test\r\n");
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 2000);
	teardown(f);
}

static void
test_silent_server(void **state)
{
	struct fixture *f = setup();

	(void)state;
	register_plain(f);
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 60000);
	f->now += 59999;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "");
	f->now += 1;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "PING delver\r\n");
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 30000);
	/* Any line is a sign of life. */
	f->now += 10000;
	feed(f, ":irc.test PONG irc.test delver");
	f->now += 59999;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "");
	f->now += 1;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "PING delver\r\n");
	f->now += 30000;
	irc_conn_tick(f->c, f->now);
	assert_int_equal(f->recycles, 1);
	assert_string_equal(f->why, "the server has been silent for 90 s");
	/* Once recycling, nothing else happens until the link is down. */
	f->now += 100000;
	irc_conn_tick(f->c, f->now);
	assert_int_equal(f->recycles, 1);
	irc_conn_link_down(f->c, f->now);
	assert_false(irc_conn_ready(f->c));
	assert_int_equal(irc_conn_next(f->c, f->now), -1);
	teardown(f);
}

static void
test_registration_timeout_and_error(void **state)
{
	struct fixture *f = setup();

	(void)state;
	start(f);
	out(f);
	f->now += 30000;
	feed(f, ":irc.test NOTICE * :*** Looking up your hostname");
	f->now += 30000;
	irc_conn_tick(f->c, f->now);
	assert_int_equal(f->recycles, 1);
	assert_string_equal(f->why, "the server did not finish registration within 60 s");
	irc_conn_link_down(f->c, f->now);
	irc_conn_link_up(f->c, f->now);
	feed(f, "ERROR :Closing Link: 127.0.0.1 (Excess Flood)");
	assert_int_equal(f->recycles, 2);
	assert_string_equal(f->why, "the server ended the link: Closing Link: 127.0.0.1 "
	                            "(Excess Flood)");
	teardown(f);
}

static void
test_kick_rejoin_backoff(void **state)
{
	struct fixture *f = setup();

	(void)state;
	register_plain(f);
	f->now += 10000; /* the bucket refills */
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	feed(f, ":op!o@h KICK #A delver :out");
	assert_string_equal(out(f), "");
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 5000);
	f->now += 5000;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "JOIN #a\r\n");
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	f->now += 1000;
	feed(f, ":op!o@h KICK #a delver :again");
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 10000);
	/* A refused JOIN is retried the same way; 403 is not retried. */
	f->now += 10000;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "JOIN #a\r\n");
	feed(f, ":irc.test 474 delver #a :Cannot join channel (+b)");
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 20000);
	feed(f, ":irc.test 403 delver #B :No such channel");
	f->now += 20000;
	irc_conn_tick(f->c, f->now);
	assert_string_equal(out(f), "JOIN #a\r\n");
	teardown(f);
}

static void
test_operator_tracking(void **state)
{
	struct fixture *f = setup();

	(void)state;
	register_plain(f);
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	feed(f, ":irc.test 353 delver = #a :@Alice +bob ~carol dave @+Ed[1] delver");
	feed(f, ":irc.test 366 delver #a :End of NAMES list");
	assert_true(irc_conn_is_op(f->c, "#a", "alice"));
	assert_false(irc_conn_is_op(f->c, "#a", "bob"));
	assert_true(irc_conn_is_op(f->c, "#A", "CAROL")); /* ~ ranks above @ */
	assert_false(irc_conn_is_op(f->c, "#a", "dave"));
	assert_true(irc_conn_is_op(f->c, "#a", "ed{1}"));  /* rfc1459 folding */
	assert_false(irc_conn_is_op(f->c, "#B", "alice")); /* not joined there */
	feed(f, ":alice!a@h MODE #a +o-o dave alice");
	assert_true(irc_conn_is_op(f->c, "#a", "dave"));
	assert_false(irc_conn_is_op(f->c, "#a", "alice"));
	/* +l and +k take a parameter; -l does not; b is a list mode. */
	feed(f, ":dave!d@h MODE #a +lkbo 10 key *!*@bad bob");
	assert_true(irc_conn_is_op(f->c, "#a", "bob"));
	feed(f, ":dave!d@h MODE #a -lo bob");
	assert_false(irc_conn_is_op(f->c, "#a", "bob"));
	feed(f, ":dave!d@h NICK :david");
	assert_true(irc_conn_is_op(f->c, "#a", "david"));
	assert_false(irc_conn_is_op(f->c, "#a", "dave"));
	feed(f, ":david!d@h PART #a :bye");
	assert_false(irc_conn_is_op(f->c, "#a", "david"));
	feed(f, ":zed!z@h JOIN #a");
	assert_true(irc_conn_is_member(f->c, "#a", "ZED"));
	assert_false(irc_conn_is_member(f->c, "#b", "zed"));
	feed(f, ":carol!c@h MODE #a +o zed");
	assert_true(irc_conn_is_op(f->c, "#a", "zed"));
	feed(f, ":zed!z@h QUIT :gone");
	assert_false(irc_conn_is_op(f->c, "#a", "zed"));
	assert_false(irc_conn_is_member(f->c, "#a", "zed"));
	/* A JOIN without a nick or without a channel (found by fuzz_irc_bot)
	 * changes nothing. */
	feed(f, "JOIN #a");
	feed(f, ":yan!y@h JOIN");
	assert_true(irc_conn_is_member(f->c, "#a", "carol"));
	assert_false(irc_conn_is_member(f->c, "#a", "yan"));
	/* Kicked: the channel's members are forgotten. */
	feed(f, ":carol!c@h KICK #a delver :bye");
	assert_false(irc_conn_is_op(f->c, "#a", "carol"));
	teardown(f);
}

static void
test_casemapping(void **state)
{
	struct fixture *f = setup();
	char out1[64];

	(void)state;
	register_plain(f);
	irc_conn_casefold(f->c, "#Dice[]\\~", out1, sizeof(out1));
	assert_string_equal(out1, "#dice{}|^");
	feed(f, ":irc.test 005 delver CASEMAPPING=ascii CHANTYPES=# :are supported");
	irc_conn_casefold(f->c, "#Dice[]\\~", out1, sizeof(out1));
	assert_string_equal(out1, "#dice[]\\~");
	assert_true(irc_conn_is_channel(f->c, "#x"));
	assert_false(irc_conn_is_channel(f->c, "&x"));
	feed(f, ":irc.test 005 delver CASEMAPPING=strict-rfc1459 :are supported");
	irc_conn_casefold(f->c, "#Dice[]\\~", out1, sizeof(out1));
	assert_string_equal(out1, "#dice{}|~");
	/* rfc7613: Unicode, not ASCII alone (bot/irc/irc_fold.h). */
	feed(f, ":irc.test 005 delver CASEMAPPING=rfc7613 :are supported");
	assert_int_equal(irc_conn_casefold(f->c, "#\xef\xbc\xa4ice\xc3\x89[]", out1, sizeof(out1)),
	                 0);
	assert_string_equal(out1, "#dice\xc3\xa9[]");
	feed(f, ":delver!~d@h JOIN #\xc3\x89t\xc3\xa9");
	feed(f, ":irc.test 353 delver = #\xc3\x89t\xc3\xa9 :@\xc3\x89lodie delver");
	assert_true(irc_conn_is_op(f->c, "#E\xcc\x81T\xc3\x89", "\xc3\xa9LODIE"));
	assert_true(irc_conn_is_op(f->c, "#\xc3\xa9t\xc3\xa9", "\xef\xbc\xa5\xcc\x81lodie"));
	assert_false(irc_conn_is_op(f->c, "#\xc3\xa9t\xc3\xa9", "elodie"));
	teardown(f);
}

static void
test_messages_and_budget(void **state)
{
	struct fixture *f = setup();

	(void)state;
	start(f);
	feed(f, ":alice!a@h PRIVMSG #a :!roll early");
	assert_int_equal(f->messages, 0); /* not registered yet */
	feed(f, ":irc.test 001 delver :Welcome");
	feed(f, ":irc.test NOTICE delver :server notice");
	feed(f, ":delver!~d@h PRIVMSG #a :my own echo");
	assert_int_equal(f->messages, 0);
	feed(f, "@account=alice :alice!a@h PRIVMSG #a :!roll 2d6");
	assert_int_equal(f->messages, 1);
	assert_string_equal(f->last_text, "alice PRIVMSG !roll 2d6");
	/* 510 - len(":delver!" + 10 + "@" + 63 + " PRIVMSG #a :") */
	assert_int_equal(irc_conn_budget(f->c, "#a"), 510 - 1 - 6 - 1 - 10 - 1 - 63 - 9 - 2 - 2);
	feed(f, ":delver!~d@127.0.0.1 JOIN #a");
	assert_int_equal(irc_conn_budget(f->c, "#a"),
	                 510 - strlen(":delver!~d@127.0.0.1 PRIVMSG #a :"));
	/* Nothing user-made can add a line. */
	out(f);
	f->now += 60000;
	assert_int_equal(irc_conn_say(f->c, "PRIVMSG", "#a", "x\r\nQUIT :y"), -1);
	assert_int_equal(irc_conn_say(f->c, "PRIVMSG", "#a x", "y"), -1);
	assert_int_equal(irc_conn_say(f->c, "PRIVMSG", "#a", "ok"), 0);
	assert_string_equal(out(f), "PRIVMSG #a ok\r\n");
	irc_conn_quit(f->c, "bye now");
	assert_string_equal(out(f), "QUIT :bye now\r\n");
	teardown(f);
}

/* Lines the log holds that contain what. */
static int
count_in(const char *log, const char *what)
{
	int n = 0;

	for (const char *p = strstr(log, what); p != NULL; p = strstr(p + 1, what))
		n++;
	return n;
}

/* A full send queue is said once, then summed up every 10 s while it lasts
 * (a flood of strangers made one warning per dropped line: 35,905 for
 * 20,000 private messages), and its end is said once. */
static void
test_full_queue_summed_up(void **state)
{
	struct fixture *f = setup();
	static struct stderrcap cap;
	struct irc_say say = {"NOTICE", "someone", "a reply"};
	const char *log;
	int full = 0;

	(void)state;
	register_plain(f);
	out(f);
	assert_int_equal(stderrcap_begin(&cap), 0);
	for (int i = 0; i < 3 * IRC_FLOOD_TOTAL_MAX; i++) {
		char lane[32];

		snprintf(lane, sizeof(lane), "stranger%d", i);
		full += irc_conn_say_group(f->c, lane, &say, 1, 1) == IRC_SAY_FULL;
		full += irc_conn_say(f->c, "NOTICE", lane, "dropped?") < 0;
	}
	f->now += 9999;
	irc_conn_tick(f->c, f->now);
	log = stderrcap_end(&cap);
	/* 1,024 replies and their 1,024 lines fill the 2,048; then 5,120 of
	 * each are refused. */
	assert_int_equal(full, 2 * (3 * IRC_FLOOD_TOTAL_MAX - IRC_FLOOD_TOTAL_MAX / 2));
	assert_int_equal(count_in(log, "\n"), 1);
	assert_int_equal(count_in(log, "warn: irc test: the send queue is full (2048 lines wait): "
	                               "what does not fit is dropped, and counted every 10 s "
	                               "while that lasts"),
	                 1);
	/* The summary is due 10 s after the first refusal. */
	assert_int_equal(irc_conn_next(f->c, f->now), f->now + 1);
	assert_int_equal(stderrcap_begin(&cap), 0);
	f->now += 1;
	irc_conn_tick(f->c, f->now);
	irc_conn_say(f->c, "NOTICE", "late", "one more");
	f->now += 10000;
	irc_conn_tick(f->c, f->now);
	f->now += 10000;
	irc_conn_tick(f->c, f->now);
	f->now += 10000;
	irc_conn_tick(f->c, f->now);
	log = stderrcap_end(&cap);
	assert_string_equal(
	    log + strcspn(log, "w"),
	    "warn: irc test: the send queue stayed full: 5120 replies and 5120 other "
	    "lines were not sent in the last 10 s\n"
	    "warn: irc test: the send queue stayed full: 0 replies and 1 other lines "
	    "were not sent in the last 10 s\n"
	    "info: irc test: the send queue has room again\n");
	teardown(f);
}

static void
test_backoff(void **state)
{
	struct fixture *f = setup();

	(void)state;
	start(f);
	/* rnd 0: half the step; a huge rnd: up to the whole step. */
	assert_int_equal(irc_conn_backoff(f->c, 0), 500);
	assert_int_equal(irc_conn_backoff(f->c, 0), 1000);
	assert_int_equal(irc_conn_backoff(f->c, 1000), 2000 + 1000 % 2001);
	assert_int_equal(irc_conn_backoff(f->c, 4000), 8000);
	for (int i = 0; i < 20; i++)
		irc_conn_backoff(f->c, 0);
	assert_int_equal(irc_conn_backoff(f->c, 0), 150000);
	assert_int_equal(irc_conn_backoff(f->c, 150000), 300000);
	/* A link that stayed registered a minute starts the backoff over. */
	feed(f, ":irc.test 001 delver :Welcome");
	f->now += 60000;
	irc_conn_link_down(f->c, f->now);
	assert_int_equal(irc_conn_backoff(f->c, 0), 500);
	teardown(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_register_and_join),
	    cmocka_unit_test(test_channel_list_changes_live),
	    cmocka_unit_test(test_channel_keys),
	    cmocka_unit_test(test_channel_keys_split),
	    cmocka_unit_test(test_cap_multiline_and_password),
	    cmocka_unit_test(test_sasl_success),
	    cmocka_unit_test(test_sasl_chunks),
	    cmocka_unit_test(test_sasl_failure_recycles),
	    cmocka_unit_test(test_nick_fallback_and_regain),
	    cmocka_unit_test(test_nicks_exhausted),
	    cmocka_unit_test(test_pong_bypasses_backlog),
	    cmocka_unit_test(test_silent_server),
	    cmocka_unit_test(test_registration_timeout_and_error),
	    cmocka_unit_test(test_kick_rejoin_backoff),
	    cmocka_unit_test(test_operator_tracking),
	    cmocka_unit_test(test_casemapping),
	    cmocka_unit_test(test_messages_and_budget),
	    cmocka_unit_test(test_full_queue_summed_up),
	    cmocka_unit_test(test_backoff),
	    cmocka_unit_test(test_invite),
	    cmocka_unit_test(test_sasl_external),
	    cmocka_unit_test(test_nickserv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
