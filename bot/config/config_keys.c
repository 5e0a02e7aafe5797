/* config_keys: the table of every configuration key; see config_keys.h. */
#include "bot/config/config_keys.h"

#include <string.h>

#include "bot/config/config.h"
#include "bot/config/config_value.h"

static const char *const fsync_choices[] = {"everysec", "always", "no", NULL};
static const char *const level_choices[] = {"error", "warn", "info", "debug", NULL};
static const char *const compress_choices[] = {"zlib-stream", "none", NULL};
static const char *const backend_choices[] = {"sqlite", "postgresql", NULL};
static const char *const private_choices[] = {"notice", "privmsg", NULL};

_Static_assert(sizeof(enum fsync_policy) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(enum log_level) == sizeof(int), "enums are stored as int");
_Static_assert(FSYNC_EVERYSEC == 0 && FSYNC_ALWAYS == 1 && FSYNC_NO == 2, "fsync_choices");
_Static_assert(LOG_LEVEL_ERROR == 0 && LOG_LEVEL_DEBUG == 3, "level_choices");
_Static_assert(sizeof(enum discord_compress) == sizeof(int), "enums are stored as int");
_Static_assert(DISCORD_COMPRESS_ZLIB == 0 && DISCORD_COMPRESS_NONE == 1, "compress_choices");
_Static_assert(sizeof(enum store_engine) == sizeof(int), "enums are stored as int");
_Static_assert(STORE_ENGINE_SQLITE == 0 && STORE_ENGINE_POSTGRESQL == 1, "backend_choices");
_Static_assert(sizeof(enum irc_private) == sizeof(int), "enums are stored as int");
_Static_assert(IRC_PRIVATE_NOTICE == 0 && IRC_PRIVATE_PRIVMSG == 1, "private_choices");

#define B(f) offsetof(struct config_bot, f)
static const struct key bot_keys[] = {
    {"state_dir", KEY_STRING, B(state_dir), 0, 0, 0, 0, "a directory path", config_value_text, NULL,
     KEY_OPTIONAL},
    {"snapshot_interval", KEY_INT, B(snapshot_interval), 0, 0, 1, 86400,
     "a whole number of seconds", NULL, NULL, 0},
    {"snapshot_keep", KEY_INT, B(snapshot_keep), 0, 0, 1, 10000, "a whole number of snapshot files",
     NULL, NULL, 0},
    {"fsync", KEY_CHOICE, B(fsync), 0, 0, 0, 0, NULL, NULL, fsync_choices, 0},
    {"evict_after", KEY_INT, B(evict_after), 0, 0, 0, 31536000,
     "a whole number of seconds (0: never)", NULL, NULL, 0},
    {"log_level", KEY_CHOICE, B(log_level), 0, 0, 0, 0, NULL, NULL, level_choices, 0},
    {"gm_role", KEY_STRING, B(gm_role), 0, 0, 0, 0, "a role name of 1 to 200 characters",
     config_value_text, NULL, KEY_OPTIONAL},
};
#undef B

#define D(f) offsetof(struct config_discord, f)
static const struct key discord_keys[] = {
    {"token_source", KEY_SOURCE, D(token_source), 0, 0, 0, 0, CONFIG_SOURCE_ALLOWED, NULL, NULL,
     KEY_REQUIRED},
    {"application_id", KEY_STRING, D(application_id), 0, 0, 0, 0, "a Discord id (1 to 20 digits)",
     config_value_snowflake, NULL, KEY_OPTIONAL},
    {"gateway_url", KEY_STRING, D(gateway_url), 0, 0, 0, 0, "a wss:// or ws:// URL",
     config_value_ws_url, NULL, KEY_OPTIONAL},
    {"rest_url", KEY_STRING, D(rest_url), 0, 0, 0, 0, "an https:// or http:// URL",
     config_value_http_url, NULL, 0},
    {"shard_count", KEY_INT, D(shard_count), 0, 0, 1, 65535, "auto or a whole number", NULL, NULL,
     KEY_AUTO},
    {"shards", KEY_RANGE, D(shard_first), 0, D(shard_last), 0, 65534,
     "a shard id or a range FIRST-LAST of shard ids", NULL, NULL, KEY_OPTIONAL},
    {"dev_guild", KEY_STRING, D(dev_guild), 0, 0, 0, 0, "a Discord id (1 to 20 digits)",
     config_value_snowflake, NULL, KEY_OPTIONAL},
    {"user_install", KEY_BOOL, D(user_install), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"intents", KEY_U64, D(intents), 0, 0, 0, 0,
     "a whole number, the sum of the gateway intent bits", NULL, NULL, 0},
    {"tls_verify", KEY_BOOL, D(tls_verify), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"tls_ca_file", KEY_STRING, D(tls_ca_file), 0, 0, 0, 0,
     "the path of a PEM file of CA certificates (1 to 200 characters)", config_value_text, NULL,
     KEY_OPTIONAL},
    {"compress", KEY_CHOICE, D(compress), 0, 0, 0, 0, NULL, NULL, compress_choices, 0},
    {"stats_interval", KEY_INT, D(stats_interval), 0, 0, 0, 86400,
     "a whole number of seconds (0: no periodic stats line)", NULL, NULL, 0},
};
#undef D

#define NICK_ALLOWED                                                                               \
	"an IRC nick (an ASCII letter or one of []\\`_^{|}, then also digits and '-'; 1 to 30 "    \
	"characters)"
#define I(f) offsetof(struct config_irc, f)
static const struct key irc_keys[] = {
    {"host", KEY_STRING, I(host), 0, 0, 0, 0, "a host name or IP address", config_value_host, NULL,
     KEY_REQUIRED},
    {"port", KEY_INT, I(port), 0, 0, 1, 65535, "a whole number", NULL, NULL, 0},
    {"tls", KEY_BOOL, I(tls), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"tls_verify", KEY_BOOL, I(tls_verify), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"tls_ca_file", KEY_STRING, I(tls_ca_file), 0, 0, 0, 0,
     "the path of a PEM file of CA certificates (1 to 200 characters)", config_value_text, NULL,
     KEY_OPTIONAL},
    {"tls_cert_file", KEY_STRING, I(tls_cert_file), 0, 0, 0, 0,
     "the path of a PEM file with the client certificate and its private key (1 to 200 "
     "characters)",
     config_value_text, NULL, KEY_OPTIONAL},
    {"sasl_external", KEY_BOOL, I(sasl_external), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"tls_fingerprint", KEY_STRING, I(tls_fingerprint), 0, 0, 0, 0,
     "a SHA-256 fingerprint: 64 hex digits, in pairs that may be separated by ':'",
     config_value_sha256, NULL, KEY_OPTIONAL},
    {"nick", KEY_STRING, I(nick), 0, 0, 0, 0, NICK_ALLOWED, config_value_nick, NULL, KEY_REQUIRED},
    {"alt_nicks", KEY_LIST, I(alt_nicks), I(nalt_nicks), 0, 0, CONFIG_NICKS_MAX,
     "IRC nicks separated by spaces or commas", config_value_nick, NULL, 0},
    {"username", KEY_STRING, I(username), 0, 0, 0, 0, "a word of 1 to 64 characters",
     config_value_word, NULL, KEY_OPTIONAL},
    {"realname", KEY_STRING, I(realname), 0, 0, 0, 0, "text of 1 to 200 characters",
     config_value_text, NULL, 0},
    {"sasl_user", KEY_STRING, I(sasl_user), 0, 0, 0, 0, "a word of 1 to 64 characters",
     config_value_word, NULL, KEY_OPTIONAL},
    {"password_source", KEY_SOURCE, I(password_source), 0, 0, 0, 0, CONFIG_SOURCE_ALLOWED, NULL,
     NULL, KEY_OPTIONAL},
    {"nickserv_password_source", KEY_SOURCE, I(nickserv_source), 0, 0, 0, 0, CONFIG_SOURCE_ALLOWED,
     NULL, NULL, KEY_OPTIONAL},
    {"channels", KEY_CHANNELS, I(channels), I(nchannels), I(channel_keys), 0, CONFIG_CHANNELS_MAX,
     "channel names (#, &, + or ! and up to 49 more characters), each with an optional key "
     "after ':' (#name:key), separated by spaces or commas",
     config_value_channel, NULL, 0},
    {"prefix", KEY_STRING, I(prefix), 0, 0, 0, 0, "1 to 4 characters without spaces",
     config_value_prefix, NULL, 0},
    {"flood_burst", KEY_INT, I(flood_burst), 0, 0, 1, 100, "a whole number of lines", NULL, NULL,
     0},
    {"flood_interval_ms", KEY_INT, I(flood_interval_ms), 0, 0, 100, 60000,
     "a whole number of milliseconds", NULL, NULL, 0},
    {"max_lines", KEY_INT, I(max_lines), 0, 0, 1, 100, "a whole number of lines", NULL, NULL, 0},
    {"formatting", KEY_BOOL, I(formatting), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"private_replies", KEY_CHOICE, I(private_replies), 0, 0, 0, 0, NULL, NULL, private_choices, 0},
    {"join_on_invite", KEY_BOOL, I(join_on_invite), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"admins", KEY_LIST, I(admins), I(nadmins), 0, 0, CONFIG_CHANNELS_MAX,
     "account names or nick!user@host masks (* and ? as wildcards), separated by spaces or "
     "commas",
     config_value_word, NULL, 0},
    {"plain_channels", KEY_LIST, I(plain_channels), I(nplain_channels), 0, 0, CONFIG_CHANNELS_MAX,
     "channel names separated by spaces or commas", config_value_channel, NULL, 0},
    {"user_burst", KEY_INT, I(user_burst), 0, 0, 1, 100, "a whole number of commands", NULL, NULL,
     0},
    {"user_interval_ms", KEY_INT, I(user_interval_ms), 0, 0, 0, 600000,
     "a whole number of milliseconds (0: no limit)", NULL, NULL, 0},
    {"channel_burst", KEY_INT, I(channel_burst), 0, 0, 1, 1000, "a whole number of commands", NULL,
     NULL, 0},
    {"channel_interval_ms", KEY_INT, I(channel_interval_ms), 0, 0, 0, 600000,
     "a whole number of milliseconds (0: no limit)", NULL, NULL, 0},
    {"ping_interval", KEY_INT, I(ping_interval), 0, 0, 1, 3600, "a whole number of seconds", NULL,
     NULL, 0},
    {"ping_timeout", KEY_INT, I(ping_timeout), 0, 0, 1, 600, "a whole number of seconds", NULL,
     NULL, 0},
};
#undef I

#define S(f) offsetof(struct config_store, f)
static const struct key store_keys[] = {
    {"backend", KEY_CHOICE, S(backend), 0, 0, 0, 0, NULL, NULL, backend_choices, 0},
    {"conninfo", KEY_STRING, S(conninfo), 0, 0, 0, 0,
     "a PostgreSQL connection string (libpq's key=value pairs or a postgresql:// URI, 1 to 900 "
     "characters) without a password: give that with password_source",
     config_value_conninfo, NULL, KEY_OPTIONAL | KEY_UNQUOTED},
    {"password_source", KEY_SOURCE, S(password_source), 0, 0, 0, 0, CONFIG_SOURCE_ALLOWED, NULL,
     NULL, KEY_OPTIONAL},
};
#undef S

#define C(f) offsetof(struct config_console, f)
static const struct key console_keys[] = {
    {"enabled", KEY_BOOL, C(enabled), 0, 0, 0, 0, NULL, NULL, NULL, 0},
    {"user", KEY_STRING, C(user), 0, 0, 0, 0,
     "a name of 1 to 63 bytes without spaces, colons or controls", config_value_name, NULL,
     KEY_OPTIONAL},
    {"channel", KEY_STRING, C(channel), 0, 0, 0, 0,
     "a name of 1 to 63 bytes without spaces, colons or controls", config_value_name, NULL, 0},
};
#undef C

#define KIND(n, k)                                                                                 \
	{                                                                                          \
		n, k, sizeof(k) / sizeof(k[0])                                                     \
	}
const struct section_kind config_kinds[KIND_COUNT] = {
    [KIND_BOT] = KIND("bot", bot_keys),
    [KIND_DISCORD] = KIND("discord", discord_keys),
    [KIND_IRC] = KIND("irc", irc_keys),
    [KIND_STORE] = KIND("store", store_keys),
    [KIND_CONSOLE] = KIND("console", console_keys),
};
#undef KIND

_Static_assert(sizeof(bot_keys) / sizeof(bot_keys[0]) <= CONFIG_KEYS_MAX, "CONFIG_KEYS_MAX");
_Static_assert(sizeof(discord_keys) / sizeof(discord_keys[0]) <= CONFIG_KEYS_MAX,
               "CONFIG_KEYS_MAX");
_Static_assert(sizeof(irc_keys) / sizeof(irc_keys[0]) <= CONFIG_KEYS_MAX, "CONFIG_KEYS_MAX");
_Static_assert(sizeof(store_keys) / sizeof(store_keys[0]) <= CONFIG_KEYS_MAX, "CONFIG_KEYS_MAX");
_Static_assert(sizeof(console_keys) / sizeof(console_keys[0]) <= CONFIG_KEYS_MAX,
               "CONFIG_KEYS_MAX");

int
config_keys_find(const struct section_kind *kind, const char *name)
{
	for (size_t i = 0; i < kind->nkeys; i++)
		if (strcmp(kind->keys[i].name, name) == 0)
			return (int)i;
	return -1;
}

void
config_keys_each(void (*fn)(const char *, const char *, void *), void *ctx)
{
	for (size_t i = 0; i < KIND_COUNT; i++)
		for (size_t j = 0; j < config_kinds[i].nkeys; j++)
			fn(config_kinds[i].name, config_kinds[i].keys[j].name, ctx);
}
