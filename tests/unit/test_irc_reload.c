/*
 * Unit tests for bot/irc/irc_reload: which settings a reload changes, what a
 * network does about them (nothing, apply live, reconnect, leave, join)
 * and the log line that says so, never showing a secret.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_reload.h"

#define BASE                                                                                       \
	"[irc.a]\nhost = irc.a\nnick = delver\nalt_nicks = d2\n"                                   \
	"channels = #one #k:secret1 #two\n"

static struct config *
load(const char *text)
{
	char err[512];
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct config *c = config_load_stream(f, "t.conf", CONFIG_SECRETS_NONE, err, sizeof(err));

	fclose(f);
	if (c == NULL)
		fail_msg("%s", err);
	return c;
}

/* The changes between BASE and BASE with extra lines appended. */
static unsigned
diff_with(const char *extra, char *what, size_t size)
{
	char text[1024];
	struct config *a = load(BASE), *b;
	unsigned c;

	snprintf(text, sizeof(text), "%s%s", BASE, extra);
	b = load(text);
	c = irc_reload_diff(&a->irc[0], &b->irc[0]);
	irc_reload_describe(&a->irc[0], &b->irc[0], c, what, size);
	config_free(a);
	config_free(b);
	return c;
}

static void
test_diff_each_setting(void **state)
{
	static const struct {
		const char *extra;
		unsigned want;
		const char *what;
	} cases[] = {
	    {"", 0, "nothing"},
	    {"port = 7000\n", IRC_CHG_PORT, "port"},
	    {"tls = no\n", IRC_CHG_TLS | IRC_CHG_PORT, "port, tls"}, /* the default port follows */
	    {"tls_verify = no\n", IRC_CHG_TLS_VERIFY, "tls_verify"},
	    {"alt_nicks = d3\n", IRC_CHG_ALT_NICKS, "alt_nicks"},
	    {"username = u\n", IRC_CHG_USERNAME, "username"},
	    {"realname = R\n", IRC_CHG_REALNAME, "realname"},
	    {"sasl_user = s\npassword_source = env:P\n",
	     IRC_CHG_SASL_USER | IRC_CHG_PASSWORD_SOURCE, "sasl_user, password_source"},
	    {"prefix = .\n", IRC_CHG_PREFIX, "prefix"},
	    {"flood_burst = 9\n", IRC_CHG_FLOOD_BURST, "flood_burst"},
	    {"flood_interval_ms = 900\n", IRC_CHG_FLOOD_INTERVAL, "flood_interval_ms"},
	    {"max_lines = 9\n", IRC_CHG_MAX_LINES, "max_lines"},
	    {"ping_interval = 9\n", IRC_CHG_PING_INTERVAL, "ping_interval"},
	    {"ping_timeout = 9\n", IRC_CHG_PING_TIMEOUT, "ping_timeout"},
	    {"channels = #three\n", IRC_CHG_CHANNELS, "channels (+#three)"},
	    {"user_burst = 9\n", IRC_CHG_RATE, "command rate limits"},
	    {"channel_interval_ms = 9\n", IRC_CHG_RATE, "command rate limits"},
	    {"formatting = no\n", IRC_CHG_FORMATTING, "formatting"},
	    {"plain_channels = #x\n", IRC_CHG_FORMATTING, "formatting"},
	    {"join_on_invite = yes\n", IRC_CHG_INVITE, "join_on_invite"},
	    {"admins = boss\n", IRC_CHG_ADMINS, "admins"},
	    {"tls_ca_file = /etc/ssl/x.pem\n", IRC_CHG_TLS_TRUST,
	     "tls_ca_file, tls_fingerprint, tls_cert_file or sasl_external"},
	    {"nickserv_password_source = env:P\n", IRC_CHG_NICKSERV, "nickserv_password_source"},
	};
	char what[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned got = diff_with(cases[i].extra, what, sizeof(what));

		if (got != cases[i].want || strcmp(what, cases[i].what) != 0)
			fail_msg("%s: got %#x '%s', want %#x '%s'", cases[i].extra, got, what,
			         cases[i].want, cases[i].what);
	}
}

/* The new connection settings need a new link; the others do not. */
static void
test_which_need_reconnect(void **state)
{
	(void)state;
	assert_true((IRC_CHG_TLS_TRUST & IRC_CHG_RECONNECT) != 0);
	assert_true((IRC_CHG_NICKSERV & IRC_CHG_RECONNECT) != 0);
	assert_int_equal((IRC_CHG_RATE | IRC_CHG_FORMATTING | IRC_CHG_INVITE | IRC_CHG_ADMINS) &
	                     IRC_CHG_RECONNECT,
	                 0);
}

/* host and nick are required once; build those configurations whole. */
static void
test_diff_host_nick_and_secrets(void **state)
{
	struct config *a = load(BASE), *b = load("[irc.a]\nhost = irc.b\nnick = delver2\n"
	                                         "alt_nicks = d2\nprefix = .\n"
	                                         "channels = #one #k:secret2 #three\n");
	char what[256];
	unsigned c;

	(void)state;
	c = irc_reload_diff(&a->irc[0], &b->irc[0]);
	assert_int_equal(c, IRC_CHG_HOST | IRC_CHG_NICK | IRC_CHG_USERNAME | IRC_CHG_PREFIX |
	                        IRC_CHG_CHANNELS);
	assert_true((c & IRC_CHG_RECONNECT) != 0);
	irc_reload_describe(&a->irc[0], &b->irc[0], c, what, sizeof(what));
	assert_string_equal(what, "host, nick, username, prefix, channels (+#three -#two, key "
	                          "of #k)");
	assert_null(strstr(what, "secret"));
	/* A new password behind the same source: named, not shown. */
	config_free(b);
	b = load(BASE);
	a->irc[0].password = "hunter2";
	b->irc[0].password = "hunter3";
	c = irc_reload_diff(&a->irc[0], &b->irc[0]);
	assert_int_equal(c, IRC_CHG_PASSWORD);
	irc_reload_describe(&a->irc[0], &b->irc[0], c, what, sizeof(what));
	assert_string_equal(what, "password (from password_source)");
	a->irc[0].password = b->irc[0].password = NULL;
	/* Only the order of the channels. */
	config_free(b);
	b = load("[irc.a]\nhost = irc.a\nnick = delver\nalt_nicks = d2\n"
	         "channels = #two #one #k:secret1\n");
	c = irc_reload_diff(&a->irc[0], &b->irc[0]);
	irc_reload_describe(&a->irc[0], &b->irc[0], c, what, sizeof(what));
	assert_string_equal(what, "channels (order)");
	assert_int_equal(c & IRC_CHG_RECONNECT, 0);
	config_free(a);
	config_free(b);
}

static void
test_plan(void **state)
{
	struct config *old = load("[irc.a]\nhost = a\nnick = n\n"
	                          "[irc.b]\nhost = b\nnick = n\n"
	                          "[irc.c]\nhost = c\nnick = n\n"
	                          "[irc.d]\nhost = d\nnick = n\n");
	struct config *now = load("[irc.e]\nhost = e\nnick = n\n"
	                          "[irc.d]\nhost = d\nnick = n\n"
	                          "[irc.c]\nhost = c2\nnick = n\n"
	                          "[irc.b]\nhost = b\nnick = n\nprefix = ?\nmax_lines = 2\n"
	                          "[irc.f]\nhost = f\nnick = n\n");
	const struct config_irc *base[4] = {&old->irc[0], &old->irc[1], &old->irc[2], &old->irc[3]};
	struct irc_reload_step steps[4];
	size_t added[CONFIG_IRC_MAX];

	(void)state;
	assert_int_equal(irc_reload_plan(base, 4, now, steps, added), 2);
	assert_int_equal(added[0], 0);                        /* e */
	assert_int_equal(added[1], 4);                        /* f */
	assert_int_equal(steps[0].action, IRC_RELOAD_REMOVE); /* a */
	assert_int_equal(steps[1].action, IRC_RELOAD_APPLY);  /* b */
	assert_int_equal(steps[1].now, 3);
	assert_int_equal(steps[1].changes, IRC_CHG_PREFIX | IRC_CHG_MAX_LINES);
	assert_int_equal(steps[2].action, IRC_RELOAD_RECONNECT); /* c */
	assert_int_equal(steps[2].now, 2);
	assert_int_equal(steps[2].changes, IRC_CHG_HOST);
	assert_int_equal(steps[3].action, IRC_RELOAD_KEEP); /* d */
	assert_int_equal(steps[3].now, 1);
	/* Nothing configured any more: every network leaves. */
	config_free(now);
	now = load("[bot]\n");
	assert_int_equal(irc_reload_plan(base, 4, now, steps, added), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(steps[i].action, IRC_RELOAD_REMOVE);
	/* Nothing running yet: every network is new. */
	assert_int_equal(irc_reload_plan(base, 0, old, steps, added), 4);
	assert_int_equal(added[3], 3);
	config_free(old);
	config_free(now);
}

static void
test_describe_is_cut(void **state)
{
	struct config *a = load(BASE), *b = load("[irc.a]\nhost = irc.b\nnick = delver2\n");
	char what[12];

	(void)state;
	irc_reload_describe(&a->irc[0], &b->irc[0], irc_reload_diff(&a->irc[0], &b->irc[0]), what,
	                    sizeof(what));
	assert_string_equal(what, "host, nick,");
	config_free(a);
	config_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_which_need_reconnect),
	    cmocka_unit_test(test_diff_each_setting),
	    cmocka_unit_test(test_diff_host_nick_and_secrets),
	    cmocka_unit_test(test_plan),
	    cmocka_unit_test(test_describe_is_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
