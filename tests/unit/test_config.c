/* Unit tests for bot/config/config.c and config_set.c: parsing, every error
 * message, and defaults. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/config/config.h"
#include "bot/config/config_value.h"

static char err[1024];

/* Loads text as a file named "t.conf" (secrets not resolved). */
static struct config *
load(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct config *c;

	assert_non_null(f);
	err[0] = '\0';
	c = config_load_stream(f, "t.conf", CONFIG_SECRETS_NONE, err, sizeof(err));
	fclose(f);
	return c;
}

/* Asserts that text is refused with exactly the message want. */
static void
refused(const char *text, const char *want)
{
	struct config *c = load(text);

	if (c != NULL)
		fail_msg("accepted: %s", text);
	assert_string_equal(err, want);
}

static void
test_defaults(void **state)
{
	struct config *c = config_defaults();

	assert_null(c->path);
	assert_null(c->bot.state_dir);
	assert_int_equal(c->bot.snapshot_interval, 60);
	assert_int_equal(c->bot.snapshot_keep, 24);
	assert_int_equal(c->bot.fsync, FSYNC_EVERYSEC);
	assert_int_equal(c->bot.log_level, LOG_LEVEL_INFO);
	assert_null(c->bot.gm_role);
	assert_false(c->discord.enabled);
	assert_string_equal(c->discord.rest_url, "https://discord.com/api/v10");
	assert_int_equal(c->discord.shard_first, -1); /* every shard */
	assert_int_equal(c->discord.shard_last, -1);
	assert_int_equal(c->discord.shard_count, 0); /* auto */
	assert_int_equal(c->discord.intents, 1);
	assert_true(c->discord.tls_verify);
	assert_int_equal(c->discord.compress, DISCORD_COMPRESS_ZLIB);
	assert_int_equal(c->nirc, 0);
	assert_true(c->console.enabled);
	assert_null(c->console.user);
	assert_string_equal(c->console.channel, "table");
	config_free(c);
}

static void
test_empty_file_is_the_console(void **state)
{
	struct config *c = load("; nothing here\n\n# nor here\n");

	assert_non_null(c);
	assert_string_equal(c->path, "t.conf");
	assert_true(c->console.enabled);
	assert_false(c->discord.enabled);
	config_free(c);
}

static void
test_full_file(void **state)
{
	struct config *c = load("[bot]\n"
	                        "state_dir = /var/lib/delver\n"
	                        "snapshot_interval = 30 ; half a minute\n"
	                        "fsync = always\n"
	                        "log_level = debug\n"
	                        "gm_role = Dungeon Master\n"
	                        "[discord]\n"
	                        "token_source = env:TOKEN\n"
	                        "application_id = 123456789012345678\n"
	                        "gateway_url = ws://127.0.0.1:9000\n"
	                        "rest_url = http://127.0.0.1:9000/api/v10\n"
	                        "shard_id = 1\n"
	                        "shard_count = 2\n"
	                        "dev_guild = 42\n"
	                        "intents = 513\n"
	                        "tls_verify = off\n"
	                        "compress = none\n"
	                        "[irc.libera]\n"
	                        "host = irc.libera.chat\n"
	                        "tls = false\n"
	                        "nick = delver\n"
	                        "alt_nicks = delver_,\n"
	                        "  delver__\n"
	                        "channels = #dungeon, #crawl\n"
	                        "  #not-a-channel-but-a-comment\n"
	                        "channels = #third\n"
	                        "channels = &local\n"
	                        "prefix = .\n"
	                        "flood_burst = 2\n"
	                        "flood_interval_ms = 500\n"
	                        "max_lines = 3\n"
	                        "ping_interval = 2\n"
	                        "ping_timeout = 5\n"
	                        "sasl_user = delverbot\n"
	                        "password_source = file:/etc/delver/irc-pass\n"
	                        "[irc.oftc]\n"
	                        "host = 127.0.0.1\n"
	                        "port = 6668\n"
	                        "nick = d\n"
	                        "username = dice\n"
	                        "realname = The Dice\n"
	                        "[console]\n"
	                        "user = alice\n"
	                        "channel = den\n");

	assert_non_null(c);
	assert_string_equal(c->bot.state_dir, "/var/lib/delver");
	assert_int_equal(c->bot.snapshot_interval, 30);
	assert_int_equal(c->bot.fsync, FSYNC_ALWAYS);
	assert_int_equal(c->bot.log_level, LOG_LEVEL_DEBUG);
	assert_string_equal(c->bot.gm_role, "Dungeon Master");
	assert_true(c->discord.enabled);
	assert_string_equal(c->discord.token_source, "env:TOKEN");
	assert_null(c->discord.token); /* not resolved */
	assert_string_equal(c->discord.application_id, "123456789012345678");
	assert_string_equal(c->discord.gateway_url, "ws://127.0.0.1:9000");
	assert_string_equal(c->discord.rest_url, "http://127.0.0.1:9000/api/v10");
	assert_int_equal(c->discord.shard_first, 1);
	assert_int_equal(c->discord.shard_last, 1);
	assert_int_equal(c->discord.shard_count, 2);
	assert_string_equal(c->discord.dev_guild, "42");
	assert_int_equal(c->discord.intents, 513);
	assert_false(c->discord.tls_verify);
	assert_int_equal(c->discord.compress, DISCORD_COMPRESS_NONE);
	assert_int_equal(c->nirc, 2);
	assert_string_equal(c->irc[0].network, "libera");
	assert_string_equal(c->irc[0].host, "irc.libera.chat");
	assert_false(c->irc[0].tls);
	assert_int_equal(c->irc[0].port, 6667); /* the default without TLS */
	assert_true(c->irc[0].tls_verify);
	assert_string_equal(c->irc[0].nick, "delver");
	assert_int_equal(c->irc[0].nalt_nicks, 2);
	assert_string_equal(c->irc[0].alt_nicks[1], "delver__");
	assert_string_equal(c->irc[0].username, "delver"); /* the nick */
	assert_string_equal(c->irc[0].realname, "delver dice bot");
	assert_int_equal(c->irc[0].nchannels, 4);
	assert_string_equal(c->irc[0].channels[0], "#dungeon");
	assert_string_equal(c->irc[0].channels[2], "#third");
	assert_string_equal(c->irc[0].channels[3], "&local");
	assert_string_equal(c->irc[0].prefix, ".");
	assert_int_equal(c->irc[0].flood_burst, 2);
	assert_int_equal(c->irc[0].flood_interval_ms, 500);
	assert_int_equal(c->irc[0].max_lines, 3);
	assert_int_equal(c->irc[0].ping_interval, 2);
	assert_int_equal(c->irc[0].ping_timeout, 5);
	assert_int_equal(c->irc[1].ping_interval, 60); /* the defaults */
	assert_int_equal(c->irc[1].ping_timeout, 30);
	assert_string_equal(c->irc[0].sasl_user, "delverbot");
	assert_string_equal(c->irc[0].password_source, "file:/etc/delver/irc-pass");
	assert_string_equal(c->irc[1].network, "oftc");
	assert_int_equal(c->irc[1].port, 6668);
	assert_true(c->irc[1].tls);
	assert_string_equal(c->irc[1].username, "dice");
	assert_string_equal(c->irc[1].realname, "The Dice");
	assert_null(c->irc[1].sasl_user);
	assert_int_equal(c->irc[1].nchannels, 0);
	assert_false(c->console.enabled); /* something else is configured */
	assert_string_equal(c->console.user, "alice");
	assert_string_equal(c->console.channel, "den");
	config_free(c);
}

static void
test_irc_port_default_with_tls(void **state)
{
	struct config *c = load("[irc.x]\nhost = h\nnick = n\n");

	assert_non_null(c);
	assert_int_equal(c->irc[0].port, 6697);
	assert_false(c->console.enabled);
	config_free(c);
}

static void
test_console_enabled_explicitly(void **state)
{
	struct config *c = load("[irc.x]\nhost = h\nnick = n\n[console]\nenabled = yes\n");

	assert_non_null(c);
	assert_true(c->console.enabled);
	config_free(c);
	c = load("[console]\nenabled = no\n");
	assert_non_null(c);
	assert_false(c->console.enabled);
	config_free(c);
}

static void
test_empty_optional_value_unsets(void **state)
{
	struct config *c = load("[bot]\ngm_role =\nstate_dir=\n[console]\nuser =\n");

	assert_non_null(c);
	assert_null(c->bot.gm_role);
	assert_null(c->bot.state_dir);
	assert_null(c->console.user);
	config_free(c);
}

/* One test per class of bad value, each with its exact message. */
static void
test_bad_integer(void **state)
{
	refused("[bot]\nsnapshot_interval = soon\n",
	        "t.conf:2: [bot] snapshot_interval must be a whole number of seconds from 1 to "
	        "86400 (got 'soon')");
	refused("[bot]\nsnapshot_interval = 1e3\n",
	        "t.conf:2: [bot] snapshot_interval must be a whole number of seconds from 1 to "
	        "86400 (got '1e3')");
	refused("[discord]\ntoken_source = env:T\nintents = -1\n",
	        "t.conf:3: [discord] intents must be a whole number, the sum of the gateway intent "
	        "bits (got '-1')");
}

static void
test_out_of_range(void **state)
{
	refused("[bot]\nsnapshot_keep = 0\n",
	        "t.conf:2: [bot] snapshot_keep must be a whole number of snapshot files from 1 to "
	        "10000 (got '0')");
	refused("[bot]\nsnapshot_interval = 0\n",
	        "t.conf:2: [bot] snapshot_interval must be a whole number of seconds from 1 to "
	        "86400 (got '0')");
	refused("[irc.libera]\nhost = h\nnick = n\nport = 70000\n",
	        "t.conf:4: [irc.libera] port must be a whole number from 1 to 65535 (got '70000')");
	refused("[bot]\nsnapshot_interval = 99999999999999999999\n",
	        "t.conf:2: [bot] snapshot_interval must be a whole number of seconds from 1 to "
	        "86400 (got '99999999999999999999')");
	refused("[discord]\ntoken_source = env:T\nshard_count = 2\nshard_id = 2\n",
	        "t.conf:4: [discord] shard_id must lie below shard_count (2) (got '2')");
}

/* shard_count takes auto; shards takes one id or a range, which must lie
 * below a count set beside it; shard_id is the older name of shards. */
static void
test_shards(void **state)
{
	struct config *c;

	c = load("[discord]\ntoken_source = env:T\nshard_count = auto\n");
	assert_non_null(c);
	assert_int_equal(c->discord.shard_count, 0);
	assert_int_equal(c->discord.shard_first, -1);
	config_free(c);
	c = load("[discord]\ntoken_source = env:T\nshard_count = 16\nshards = 4-7\n");
	assert_non_null(c);
	assert_int_equal(c->discord.shard_count, 16);
	assert_int_equal(c->discord.shard_first, 4);
	assert_int_equal(c->discord.shard_last, 7);
	config_free(c);
	c = load("[discord]\ntoken_source = env:T\nshard_count = 4\nshards =\n");
	assert_non_null(c);
	assert_int_equal(c->discord.shard_first, -1);
	config_free(c);
	refused("[discord]\ntoken_source = env:T\nshards = 0-3\n",
	        "t.conf:3: [discord] shards needs shard_count set to the fleet's number of shards "
	        "(auto could differ between processes)");
	refused("[discord]\ntoken_source = env:T\nshard_count = 4\nshards = 2-4\n",
	        "t.conf:4: [discord] shards must lie below shard_count (4) (got '2-4')");
	refused("[discord]\ntoken_source = env:T\nshard_count = 4\nshards = 3-2\n",
	        "t.conf:4: [discord] shards must be a shard id or a range FIRST-LAST of shard ids, "
	        "from 0 to 65534 (got '3-2')");
	refused("[discord]\ntoken_source = env:T\nshard_count = 4\nshards = 1--2\n",
	        "t.conf:4: [discord] shards must be a shard id or a range FIRST-LAST of shard ids, "
	        "from 0 to 65534 (got '1--2')");
	refused("[discord]\ntoken_source = env:T\nshard_count = 4\nshards = 1\nshard_id = 1\n",
	        "t.conf:5: [discord] shard_id and shards both name this process's shards; keep "
	        "shards");
	refused("[discord]\ntoken_source = env:T\nshard_count = many\n",
	        "t.conf:3: [discord] shard_count must be auto or a whole number from 1 to 65535 "
	        "(got 'many')");
}

static void
test_bad_enum(void **state)
{
	refused("[bot]\nfsync = sometimes\n",
	        "t.conf:2: [bot] fsync must be everysec, always or no (got 'sometimes')");
	refused("[bot]\nlog_level = verbose\n",
	        "t.conf:2: [bot] log_level must be error, warn, info or debug (got 'verbose')");
	refused("[irc.n]\ntls = maybe\n", "t.conf:2: [irc.n] tls must be yes or no (got 'maybe')");
	refused("[discord]\ntoken_source = env:T\ncompress = zlib\n",
	        "t.conf:3: [discord] compress must be zlib-stream or none (got 'zlib')");
}

static void
test_bad_text(void **state)
{
	refused("[irc.n]\nhost = h\nnick = 9lives\n",
	        "t.conf:3: [irc.n] nick must be an IRC nick (an ASCII letter or one of []\\`_^{|}, "
	        "then "
	        "also digits and '-'; 1 to 30 characters) (got '9lives')");
	refused("[irc.n]\nchannels = #ok dungeon\n",
	        "t.conf:2: [irc.n] channels must be channel names (#, &, + or ! and up to 49 more "
	        "characters), each with an optional key after ':' (#name:key), separated by spaces "
	        "or commas (got 'dungeon')");
	refused("[discord]\ntoken_source = env:T\nrest_url = ftp://x\n",
	        "t.conf:3: [discord] rest_url must be an https:// or http:// URL (got 'ftp://x')");
	refused("[console]\nuser = a:b\n",
	        "t.conf:2: [console] user must be a name of 1 to 63 bytes without spaces, colons "
	        "or controls (got 'a:b')");
}

/* "#name:key": keys go beside the names; a bad key is named, never shown. */
static void
test_channel_keys(void **state)
{
	struct config *c = load("[irc.n]\nhost = h\nnick = n\n"
	                        "channels = #open #secret:hunter2,&b:k!~x\n"
	                        "channels = #more\n");

	assert_non_null(c);
	assert_int_equal(c->irc[0].nchannels, 4);
	assert_string_equal(c->irc[0].channels[1], "#secret");
	assert_string_equal(c->irc[0].channel_keys[1], "hunter2");
	assert_string_equal(c->irc[0].channels[2], "&b");
	assert_string_equal(c->irc[0].channel_keys[2], "k!~x");
	assert_null(c->irc[0].channel_keys[0]);
	assert_null(c->irc[0].channel_keys[3]);
	config_free(c);
	refused("[irc.n]\nchannels = #a #secret:\n",
	        "t.conf:2: [irc.n] channels: the key of #secret must be 1 to 23 printable ASCII "
	        "characters other than ',' and ':' (the key is not shown)");
	refused("[irc.n]\nchannels = #secret:hunter2:x\n",
	        "t.conf:2: [irc.n] channels: the key of #secret must be 1 to 23 printable ASCII "
	        "characters other than ',' and ':' (the key is not shown)");
	refused("[irc.n]\nchannels = #secret:abcdefghijklmnopqrstuvwx\n",
	        "t.conf:2: [irc.n] channels: the key of #secret must be 1 to 23 printable ASCII "
	        "characters other than ',' and ':' (the key is not shown)");
	refused("[irc.n]\nchannels = #secret:s\xc3\xa9same\n",
	        "t.conf:2: [irc.n] channels: the key of #secret must be 1 to 23 printable ASCII "
	        "characters other than ',' and ':' (the key is not shown)");
	refused("[irc.n]\nchannels = secret:hunter2\n",
	        "t.conf:2: [irc.n] channels must be channel names (#, &, + or ! and up to 49 more "
	        "characters), each with an optional key after ':' (#name:key), separated by spaces "
	        "or commas (got 'secret')");
	refused("[irc.n]\nchannels = #a:one\nchannels = #b #A:two\n",
	        "t.conf:3: [irc.n] channels lists #A twice");
	refused("[irc.n]\nchannels = #b:x #b\n", "t.conf:2: [irc.n] channels lists #b twice");
}

static void
test_long_value_is_cut_in_message(void **state)
{
	refused(
	    "[bot]\nlog_level = "
	    "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijXYZ"
	    "\n",
	    "t.conf:2: [bot] log_level must be error, warn, info or debug (got "
	    "'abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij."
	    "..')");
}

static void
test_too_many_list_items(void **state)
{
	refused("[irc.n]\nalt_nicks = a b c\nalt_nicks = d e\n",
	        "t.conf:3: [irc.n] alt_nicks may list at most 4");
}

/* recheck5 F12: a value, key or section holding an invisible or bidi
 * character was quoted raw: it read as a right value ("got 'no'") and a
 * U+202E turned the rest of the line around on a terminal. It is named,
 * never written. */
static void
test_invisible_characters_named(void **state)
{
	(void)state;
	refused("[console]\nenabled = no\xe2\x80\x8b\n",
	        "t.conf:2: [console] enabled must be yes or no (got 'no' with an invisible "
	        "character U+200B at column 3)");
	refused("[bot]\nsnapshot_interval = 6\xe2\x80\x8b"
	        "0\n",
	        "t.conf:2: [bot] snapshot_interval must be a whole number of seconds from 1 to "
	        "86400 (got '60' with an invisible character U+200B at column 2)");
	refused("[bot]\nfsync = al\xe2\x80\xaeways\n",
	        "t.conf:2: [bot] fsync must be everysec, always or no (got 'always' with an "
	        "invisible character U+202E at column 3)");
	refused("[bot]\nfs\xe2\x80\xaeync = always\n",
	        "t.conf:2: [bot] has no key 'fsync' with an invisible character U+202E at column "
	        "3; its keys are state_dir, snapshot_interval, snapshot_keep, fsync, evict_after, "
	        "log_level, gm_role");
	refused("[b\xe2\x80\x8bot]\n",
	        "t.conf:1: unknown section 'bot' with an invisible character U+200B at column 2; "
	        "sections are [bot], [discord], [irc.<network>], [store] and [console]");
	/* recheck6 F12: an IRC prefix or channel holding one passed, then every
	 * !roll went unseen or the bot joined a look-alike channel. */
	refused("[irc.n]\nprefix = !\xe2\x80\x8b\n",
	        "t.conf:2: [irc.n] prefix must be 1 to 4 characters without spaces (got '!' with "
	        "an invisible character U+200B at column 2)");
	assert_false(config_value_channel("#d\xe2\x80\x8bun"));
	/* recheck6 F1: a byte-order mark first in the file is skipped; an
	 * invisible character starting a line is named on its line. */
	refused("\xef\xbb\xbf[bot]\nlog_level = loud\n",
	        "t.conf:2: [bot] log_level must be error, warn, info or debug (got 'loud')");
	refused("\xe2\x80\x8b[bot]\nlog_level = info\n",
	        "t.conf:1: the line starts with an invisible character U+200B at column 1; remove "
	        "it (a line holds 'key = value', a [section] header or a comment)");
	refused("[bot]\n  \xef\xbb\xbflog_level = info\n",
	        "t.conf:2: the line starts with an invisible character U+FEFF at column 3; remove "
	        "it (a line holds 'key = value', a [section] header or a comment)");
	assert_false(config_value_prefix("\xef\xbb\xbf!"));
	assert_true(config_value_prefix("\xc2\xa7"));
	assert_true(config_value_channel("#d\xc3\xa9s"));
}

static void
test_unknown_key(void **state)
{
	refused("[bot]\nlog_level = info\ncolour = red\n",
	        "t.conf:3: [bot] has no key 'colour'; its keys are state_dir, snapshot_interval, "
	        "snapshot_keep, fsync, evict_after, log_level, gm_role");
	/* A slip of the fingers gets the key it meant. */
	refused("[irc.n]\nhost = h\nnick = n\nchanels = #a\n",
	        "t.conf:4: [irc.n] has no key 'chanels'; did you mean channels?");
	refused("[bot]\nlog_levle = info\n",
	        "t.conf:2: [bot] has no key 'log_levle'; did you mean log_level?");
	/* A key of another section says where it belongs (recheck9 F14: the
	 * section's own keys were listed, the list cut short) ... */
	refused("[discord]\nport = 6667\n",
	        "t.conf:2: [discord] has no key 'port'; it is a key of [irc.<network>]: move the "
	        "line there");
	refused("[bot]\nenabled = yes\n",
	        "t.conf:2: [bot] has no key 'enabled'; it is a key of [console]: move the line "
	        "there");
	/* ... and a section's keys are listed whole, the longest too. */
	refused(
	    "[irc.n]\nhost = h\nzzz = 1\n",
	    "t.conf:3: [irc.n] has no key 'zzz'; its keys are host, port, tls, tls_verify, "
	    "tls_ca_file, tls_cert_file, sasl_external, tls_fingerprint, nick, alt_nicks, "
	    "username, realname, sasl_user, password_source, nickserv_password_source, "
	    "channels, prefix, flood_burst, flood_interval_ms, max_lines, formatting, "
	    "private_replies, join_on_invite, admins, plain_channels, user_burst, "
	    "user_interval_ms, channel_burst, channel_interval_ms, ping_interval, ping_timeout");
	/* A key that was removed says what replaced it. */
	refused("[bot]\nplayers_roll_hazard = no\n",
	        "t.conf:2: [bot] players_roll_hazard is no longer a key: the GM chooses who rolls "
	        "the hazard die in each channel with /hazard who anyone or /hazard who gm; remove "
	        "the line");
	refused("log_level = info\n",
	        "t.conf:1: key 'log_level' is outside any section; put it under [bot], [discord], "
	        "[irc.<network>], [store] or [console]");
}

/* [store]: the backend, a conninfo that may not carry a password (never
 * quoted back), and postgresql without a server named. */
static void
test_store_section(void **state)
{
	struct config *c;

	(void)state;
	c = load("[bot]\n");
	assert_non_null(c);
	assert_int_equal(c->store.backend, STORE_ENGINE_SQLITE);
	assert_null(c->store.conninfo);
	config_free(c);
	c = load("[store]\nbackend = postgresql\nconninfo = host=/run/postgresql dbname=delver\n");
	assert_non_null(c);
	assert_int_equal(c->store.backend, STORE_ENGINE_POSTGRESQL);
	assert_string_equal(c->store.conninfo, "host=/run/postgresql dbname=delver");
	config_free(c);
	refused("[store]\nbackend = postgres\n",
	        "t.conf:2: [store] backend must be sqlite or postgresql (got 'postgres')");
	refused("[store]\nbackend = postgresql\n",
	        "t.conf:1: [store] backend = postgresql needs conninfo (the server to use, e.g. "
	        "host=/run/postgresql dbname=delver)");
	assert_null(load("[store]\nconninfo = host=db password=Hunter2Hunter2\n"));
	assert_non_null(strstr(err, "t.conf:2: [store] conninfo must be a PostgreSQL connection"));
	assert_non_null(strstr(err, "(the value is not shown)"));
	assert_null(strstr(err, "Hunter2"));
	assert_null(load("[store]\nconninfo = postgresql://u:Hunter2Hunter2@db/delver\n"));
	assert_null(strstr(err, "Hunter2"));
	assert_null(load("[store]\nconninfo = host='unclosed\n"));
	assert_non_null(strstr(err, "[store] conninfo must be"));
}

static void
test_unknown_section(void **state)
{
	refused("[bot]\n\n[discrod]\n",
	        "t.conf:3: unknown section [discrod]; sections are [bot], [discord], "
	        "[irc.<network>], [store] and [console]");
	refused("[irc.]\n",
	        "t.conf:1: [irc.] needs a network name after 'irc.': 1 to 32 ASCII letters, "
	        "digits, '-' or '_'");
	refused("[bot]\n[console]\n[BOT]\n", "t.conf:3: unknown section [BOT]; sections are [bot], "
	                                     "[discord], [irc.<network>], [store] and [console]");
	refused("[irc.a]\nhost=h\nnick=n\n[irc.A]\n",
	        "t.conf:4: section [irc.A] appears twice (first on line 1)");
}

static void
test_too_many_networks(void **state)
{
	char text[2048] = "";
	size_t used = 0;

	for (int i = 0; i <= CONFIG_IRC_MAX; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
		                         "[irc.n%d]\nhost = h\nnick = n\n", i);
	refused(text, "t.conf:25: [irc.n8] is one [irc.<network>] section too many; at most 8");
}

static void
test_missing_required_key(void **state)
{
	refused("[bot]\n[discord]\nshard_count = 1\n",
	        "t.conf:2: [discord] is missing token_source (env:NAME, file:PATH or "
	        "credential:NAME)");
	refused("[irc.libera]\nhost = irc.libera.chat\n",
	        "t.conf:1: [irc.libera] is missing nick (an IRC nick (an ASCII letter or one of "
	        "[]\\`_^{|}, then also digits and '-'; 1 to 30 characters))");
	refused("[irc.libera]\nhost = h\nnick = n\nsasl_user = me\n",
	        "t.conf:4: [irc.libera] sasl_user needs password_source too (env:NAME, file:PATH "
	        "or credential:NAME)");
	refused(
	    "[irc.libera]\nhost = h\nnick = n\nsasl_external = yes\n",
	    "t.conf:4: [irc.libera] sasl_external needs tls = yes and tls_cert_file (the client "
	    "certificate the server identifies the bot by)");
	refused("[irc.libera]\nhost = h\nnick = n\ntls_fingerprint = AB:CD\n",
	        "t.conf:4: [irc.libera] tls_fingerprint must be a SHA-256 fingerprint: 64 hex "
	        "digits, in pairs that may be separated by ':' (got 'AB:CD')");
}

static void
test_duplicates(void **state)
{
	refused("[bot]\nfsync = no\n\nfsync = always\n",
	        "t.conf:4: [bot] fsync is set twice (first on line 2)");
	refused("[bot]\nfsync = no\n  always\n",
	        "t.conf:3: [bot] fsync takes one line: an indented line continues the key above "
	        "it, which only lists (channels, alt_nicks) allow");
	refused("[bot]\n[console]\n[bot]\n", "t.conf:3: section [bot] appears twice (first on line "
	                                     "1)");
}

static void
test_syntax(void **state)
{
	refused("[bot]\nfsync always\n",
	        "t.conf:2: expected 'key = value', a [section] header or a comment");
	refused("[bot\n", "t.conf:1: a section header needs a closing ']'");
	refused("[bot] x\n", "t.conf:1: a section header must end at its ']'");
	refused("[bot]\n  [console]\n",
	        "t.conf:2: a section header must start at the beginning of its line");
}

static void
test_long_line(void **state)
{
	char text[600] = "[bot]\ngm_role = ";
	size_t n = strlen(text);

	memset(text + n, 'x', 300);
	memcpy(text + n + 300, "\n", 2);
	refused(text,
	        "t.conf:2: the line is longer than 198 characters; give a long list on several "
	        "lines, repeating its key");
	/* A line of exactly 198 characters is fine. */
	memset(text + n, 'x', 198 - n);
	memcpy(text + 198, "\n", 2);
	config_free(load(text));
	assert_string_equal(err, "");
}

/* A source that does not parse is never repeated: it may be the secret. */
static void
test_bad_source_is_not_echoed(void **state)
{
	refused("[discord]\ntoken_source = MTIzNDU2Nzg5.GhIjKl.mnopqrstuvwxyz\n",
	        "t.conf:2: [discord] token_source must be env:NAME, file:PATH or credential:NAME; "
	        "the secret itself never goes in this file");
	refused("[discord]\ntoken_source = env:MTIz.Gh\n",
	        "t.conf:2: [discord] token_source must name a variable after env: (letters, digits "
	        "and '_')");
	refused("[discord]\ntoken_source = file:relative\n",
	        "t.conf:2: [discord] token_source must give an absolute path after file:");
	refused("[irc.n]\npassword_source = credential:../x\n",
	        "t.conf:2: [irc.n] password_source must name a credential after credential: "
	        "(letters, digits, '.', '-' and '_')");
}

static void
test_missing_file(void **state)
{
	assert_null(config_load("/nonexistent/delver.conf", CONFIG_SECRETS_NONE, err, sizeof(err)));
	assert_string_equal(err, "cannot read /nonexistent/delver.conf: No such file or directory");
}

/* config_value_* edge cases the messages above do not reach. */
static void
test_values(void **state)
{
	long long v;
	bool b;

	assert_int_equal(config_value_int("-0", -5, 5, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(config_value_int("+5", 0, 9, &v), -1);
	assert_int_equal(config_value_int(" 5", 0, 9, &v), -1);
	assert_int_equal(config_value_int("5 ", 0, 9, &v), -1);
	assert_int_equal(config_value_int("", 0, 9, &v), -1);
	assert_int_equal(config_value_bool("on", &b), 0);
	assert_true(b);
	assert_int_equal(config_value_bool("0", &b), 0);
	assert_false(b);
	assert_int_equal(config_value_bool("Yes", &b), -1);
	assert_true(config_value_nick("[away]_"));
	assert_true(config_value_nick("a-1"));
	assert_false(config_value_nick("-a"));
	assert_false(config_value_nick("abcdefghijabcdefghijabcdefghijX"));
	assert_true(config_value_channel("#a"));
	assert_false(config_value_channel("#"));
	assert_false(config_value_channel("#a,b"));
	assert_true(config_value_host("::1"));
	assert_true(config_value_host("irc.example_net.org"));
	assert_false(config_value_host("a b"));
	assert_false(config_value_host("a/b"));
	assert_false(config_value_snowflake("123456789012345678901"));
	assert_false(config_value_ws_url("wss://"));
	assert_true(config_value_ws_url("wss://gateway.discord.gg"));
	assert_false(config_value_http_url("https://a b"));
	assert_false(config_value_prefix("!!!!!"));
	assert_false(config_value_network("a.b"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_empty_file_is_the_console),
	    cmocka_unit_test(test_full_file),
	    cmocka_unit_test(test_irc_port_default_with_tls),
	    cmocka_unit_test(test_console_enabled_explicitly),
	    cmocka_unit_test(test_empty_optional_value_unsets),
	    cmocka_unit_test(test_bad_integer),
	    cmocka_unit_test(test_out_of_range),
	    cmocka_unit_test(test_bad_enum),
	    cmocka_unit_test(test_shards),
	    cmocka_unit_test(test_bad_text),
	    cmocka_unit_test(test_channel_keys),
	    cmocka_unit_test(test_long_value_is_cut_in_message),
	    cmocka_unit_test(test_too_many_list_items),
	    cmocka_unit_test(test_unknown_key),
	    cmocka_unit_test(test_unknown_section),
	    cmocka_unit_test(test_store_section),
	    cmocka_unit_test(test_too_many_networks),
	    cmocka_unit_test(test_missing_required_key),
	    cmocka_unit_test(test_duplicates),
	    cmocka_unit_test(test_syntax),
	    cmocka_unit_test(test_long_line),
	    cmocka_unit_test(test_bad_source_is_not_echoed),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_invisible_characters_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
