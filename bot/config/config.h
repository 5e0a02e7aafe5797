/*
 * config: delver's configuration, read from one INI file
 * (/etc/delver/delver.conf by default, --config PATH) with libinih.
 *
 * Secrets (the Discord token, IRC passwords) are never in the file itself:
 * a *_source key names where to read them: "env:NAME", "file:/path" (refused
 * when group- or world-readable) or "credential:NAME"
 * ($CREDENTIALS_DIRECTORY/NAME under systemd's LoadCredential=).
 *
 * Ownership: config_load() returns a struct config the caller frees with
 * config_free(); every string in it is owned by it.
 */
#ifndef DELVER_CONFIG_H
#define DELVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bot/log.h"

#define CONFIG_IRC_MAX      8  /* [irc.<network>] sections */
#define CONFIG_CHANNELS_MAX 32 /* channels per IRC network */
#define CONFIG_NICKS_MAX    4  /* alternate nicks */
#define CONFIG_CHANKEY_MAX  23 /* bytes of a channel key (RFC 2812) */

enum fsync_policy {
	FSYNC_EVERYSEC = 0, /* default: fsync the journal once a second */
	FSYNC_ALWAYS,       /* fsync before every acknowledging reply */
	FSYNC_NO,           /* leave it to the kernel */
};

struct config_bot {
	char *state_dir;          /* NULL: $STATE_DIRECTORY, else ./state */
	char *state_root;         /* set by app_config: the root every process of
	                             the bot shares, when state_dir became this
	                             process's own part of it (bot/store/shard_dirs.h) */
	int snapshot_interval;    /* seconds, default 60 */
	int snapshot_keep;        /* snapshot files kept, 1 to 10000; default 24 */
	enum fsync_policy fsync;  /* default everysec */
	int evict_after;          /* idle seconds before a channel leaves memory;
	                             0: never; default 86400 */
	enum log_level log_level; /* default info */
	char *gm_role;            /* Discord role name that acts as GM, or NULL */
};

enum discord_compress {
	DISCORD_COMPRESS_ZLIB = 0, /* default: compress=zlib-stream */
	DISCORD_COMPRESS_NONE,     /* plain JSON text frames */
};

struct config_discord {
	bool enabled;                   /* the section is present */
	char *token_source;             /* env:NAME | file:PATH | credential:NAME */
	char *token;                    /* resolved secret; never logged */
	char *application_id;           /* snowflake as text, or NULL (from READY) */
	char *gateway_url;              /* default: from GET /gateway/bot */
	char *rest_url;                 /* default https://discord.com/api/v10 */
	int shard_count;                /* 0: auto (Discord's recommendation, the default) */
	int shard_first, shard_last;    /* the shards this process runs ("shards", or its
	                                   older name "shard_id"); -1, -1: all (default) */
	char *dev_guild;                /* register commands here (instant), or NULL */
	bool user_install;              /* commands offered to user installs too; default no */
	uint64_t intents;               /* default 1 (GUILDS) */
	bool tls_verify;                /* default true */
	char *tls_ca_file;              /* CA certificates for REST calls instead of the system's */
	enum discord_compress compress; /* gateway transport compression, default zlib */
	int stats_interval;             /* seconds between stats lines, default 300; 0: none */
};

/*
 * The defaults of an [irc.<network>] section: the one table that
 * config_irc_init() and the IRC code's fallbacks (bot/irc) both read.
 */
#define CONFIG_IRC_FLOOD_BURST         4    /* lines */
#define CONFIG_IRC_FLOOD_INTERVAL_MS   2000 /* then one line every this many ms */
#define CONFIG_IRC_MAX_LINES           4    /* reply lines before summarising */
#define CONFIG_IRC_USER_BURST          5    /* commands */
#define CONFIG_IRC_USER_INTERVAL_MS    2000
#define CONFIG_IRC_CHANNEL_BURST       20 /* commands */
#define CONFIG_IRC_CHANNEL_INTERVAL_MS 1000
#define CONFIG_IRC_PING_INTERVAL       60 /* seconds of silence before a PING */
#define CONFIG_IRC_PING_TIMEOUT        30 /* then seconds before the link is recycled */

/* How the replies meant for one person go ([irc.NETWORK] private_replies). */
enum irc_private {
	IRC_PRIVATE_NOTICE = 0, /* default: no client answers a NOTICE */
	IRC_PRIVATE_PRIVMSG,    /* a private message: a query window, a notification */
};

struct config_irc {
	char *network; /* from the section name [irc.<network>] */
	char *host;
	int port;              /* default 6697 with TLS, 6667 without */
	bool tls;              /* default true */
	bool tls_verify;       /* default true; false only for test servers */
	char *tls_ca_file;     /* CA certificates to trust instead of the system's, or NULL */
	char *tls_fingerprint; /* SHA-256 pin of the server's certificate, or NULL */
	char *tls_cert_file;   /* the client certificate and its key (PEM), or NULL */
	bool sasl_external;    /* log in with SASL EXTERNAL (the client certificate) */
	char *nick;
	char *alt_nicks[CONFIG_NICKS_MAX];
	size_t nalt_nicks;
	char *username;                      /* default: nick */
	char *realname;                      /* default: "delver dice bot" */
	char *sasl_user;                     /* NULL: no SASL */
	char *password_source;               /* env:/file:/credential: */
	char *password;                      /* resolved secret; never logged */
	char *nickserv_source;               /* env:/file:/credential: of the NickServ password */
	char *nickserv_password;             /* resolved secret; never logged */
	char *channels[CONFIG_CHANNELS_MAX]; /* names, without keys */
	char *channel_keys[CONFIG_CHANNELS_MAX]; /* channels[i]'s key (+k), or NULL;
	                                            a secret-lite: never logged */
	size_t nchannels;
	char *prefix;                      /* default "!" */
	int flood_burst;                   /* default 4 */
	int flood_interval_ms;             /* default 2000 */
	int max_lines;                     /* reply lines before summarising, default 4 */
	bool formatting;                   /* mIRC formatting in replies, default true */
	enum irc_private private_replies;  /* how what is for one person goes, default NOTICE */
	bool join_on_invite;               /* join a channel the bot is invited to, default false */
	char *admins[CONFIG_CHANNELS_MAX]; /* accounts or nick!user@host masks */
	size_t nadmins;
	char *plain_channels[CONFIG_CHANNELS_MAX]; /* channels without formatting */
	size_t nplain_channels;
	int user_burst;          /* commands a user may send at once, default 5 */
	int user_interval_ms;    /* then one every this many ms, default 2000 */
	int channel_burst;       /* commands a channel may send at once, default 20 */
	int channel_interval_ms; /* then one every this many ms, default 1000 */
	int ping_interval;       /* seconds of silence before delver PINGs, default 60 */
	int ping_timeout;        /* then seconds before the link is recycled, default 30 */
};

enum store_engine {
	STORE_ENGINE_SQLITE = 0, /* default: one database file in the state directory */
	STORE_ENGINE_POSTGRESQL, /* a server a fleet of shard processes shares */
};

struct config_store {
	enum store_engine backend; /* default sqlite */
	char *conninfo;            /* postgresql: libpq's conninfo (no password in it), or NULL */
	char *password_source;     /* env:/file:/credential: of its password, or NULL */
	char *password;            /* resolved secret; never logged */
};

struct config_console {
	bool enabled;  /* default: true when nothing else is configured */
	char *user;    /* NULL: $USER */
	char *channel; /* default "table" */
};

struct config {
	char *path; /* the file it was read from, or NULL */
	struct config_bot bot;
	struct config_discord discord;
	struct config_irc irc[CONFIG_IRC_MAX];
	size_t nirc;
	struct config_store store;
	struct config_console console;
};

/* A config with every default and no file: the console alone. Its discord
 * member holds the [discord] defaults with enabled false. */
struct config *config_defaults(void);

/* Fills irc with the defaults of an [irc.<network>] section named network
 * (copied) before its keys are read; the port is 0 until the section is
 * complete (then 6697 with TLS, 6667 without). Free with config_irc_clear(). */
void config_irc_init(struct config_irc *irc, const char *network);
/* A deep copy of src into dst, freed with config_irc_clear(). */
void config_irc_copy(struct config_irc *dst, const struct config_irc *src);
void config_irc_clear(struct config_irc *irc);

/*
 * Reads path. Returns a config, or NULL with one sentence in err naming the
 * file, line, section, key and what is allowed (e.g. "delver.conf:12:
 * [bot] snapshot_interval must be a whole number of seconds from 1 to
 * 86400 (got 'soon')"). Unknown sections and keys are errors. The secrets
 * of the networks in secrets are resolved (and registered with log_secret);
 * the others stay unread (a Discord shard other than 0 runs no IRC, so it
 * need not have IRC's secrets).
 */
enum config_secrets {
	CONFIG_SECRETS_NONE = 0,
	CONFIG_SECRETS_DISCORD = 1, /* [discord] token_source */
	CONFIG_SECRETS_IRC = 2,     /* each [irc.NAME] password_source */
	CONFIG_SECRETS_STORE = 4,   /* [store] password_source */
	CONFIG_SECRETS_ALL = 7,
};
struct config *config_load(const char *path, unsigned secrets, char *err, size_t errlen);

/* config_load() from an open stream; name stands for the file in messages
 * and in c->path. The caller keeps f. */
struct config *config_load_stream(FILE *f, const char *name, unsigned secrets, char *err,
                                  size_t errlen);

/* Registers every resolved secret of c, and every channel key, with
 * log_secret() (config_load does it; a reload calls it again after
 * log_forget_secrets()). */
void config_log_secrets(const struct config *c);

void config_free(struct config *c);

#endif
