/*
 * libFuzzer target for bot/irc (with bot/irc/irc_conn and bot/irc/irc_limit): the
 * input is lines from the server to a registered session in two channels,
 * one line per '\n'. Whatever users send (commands, addressing by nick,
 * owner commands, nick changes, CTCP), every line the bot would write must
 * be one IRC line: at most 512 bytes, ending in CRLF, with no other CR, LF
 * or NUL.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc.h"
#include "commands/core/dispatch.h"
#include "rules/base/rng.h"

static struct config_irc cfg;
static struct dispatch *d;
static struct irc_conn *conn;
static struct irc_bot *bot;
static int64_t now;

static void
on_message(void *ctx, const struct irc_msg *m)
{
	(void)ctx;
	irc_bot_message(bot, m, now, 1700000000);
}

static void
on_user(void *ctx, const struct irc_msg *m)
{
	(void)ctx;
	irc_bot_user(bot, m);
}

static const struct irc_conn_hooks hooks = {NULL, NULL, on_message, on_user};

static void
feed(const char *line, size_t len)
{
	irc_conn_receive(conn, line, len, now);
}

/* Takes every line the session may write and checks each. */
static void
drain(void)
{
	char out[IRC_LINE_MAX + 8];
	size_t n;

	while ((n = irc_conn_pop(conn, now, out, sizeof(out))) > 0) {
		if (n > IRC_LINE_MAX || n < 2 || out[n - 2] != '\r' || out[n - 1] != '\n' ||
		    memchr(out, '\r', n - 2) != NULL || memchr(out, '\n', n - 1) != NULL ||
		    memchr(out, '\0', n) != NULL)
			abort();
	}
}

static void
setup(void)
{
	static char *channels[] = {"#a", "#b"};
	static char *admins[] = {"*!a@admin", "boss"};
	static const char *const start[] = {
	    ":srv 001 delver :Welcome",
	    ":srv 005 delver CASEMAPPING=rfc1459 PREFIX=(ov)@+ CHANTYPES=# :ok",
	    ":delver!~d@127.0.0.1 JOIN #a",
	    ":delver!~d@127.0.0.1 JOIN #b",
	    ":srv 353 delver = #a :delver @boss alice",
	};

	cfg.network = "net";
	cfg.nick = "delver";
	cfg.channels[0] = channels[0];
	cfg.channels[1] = channels[1];
	cfg.nchannels = 2;
	cfg.admins[0] = admins[0];
	cfg.admins[1] = admins[1];
	cfg.nadmins = 2;
	cfg.plain_channels[0] = channels[1];
	cfg.nplain_channels = 1;
	cfg.formatting = true;
	cfg.join_on_invite = true;
	cfg.flood_burst = 1;
	cfg.flood_interval_ms = 0;
	cfg.user_burst = 5;
	cfg.user_interval_ms = 2000;
	cfg.channel_burst = 20;
	cfg.channel_interval_ms = 1000;
	cfg.prefix = "!";
	d = dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	conn = irc_conn_new(&cfg, NULL, &hooks, NULL);
	bot = irc_bot_new(d, &cfg, conn);
	irc_conn_link_up(conn, 0);
	for (size_t i = 0; i < sizeof(start) / sizeof(start[0]); i++)
		feed(start[i], strlen(start[i]));
	drain();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	if (conn == NULL)
		setup();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		now += 250;
		feed(p, len);
		dispatch_poll(d); /* a loop turn: the commands' answers */
		drain();
		p += len + (nl != NULL);
	}
	return 0;
}
