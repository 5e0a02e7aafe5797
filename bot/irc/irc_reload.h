/*
 * irc_reload: what a reloaded configuration changes for the IRC networks,
 * as a plan the service (bot/irc/irc_service.c) carries out. Pure: it reads two
 * configurations and writes only through its out parameters.
 *
 * A network is known by its section name ([irc.<name>]). For one that is in
 * both configurations every setting is compared: a change to how it
 * connects or who it is (host, port, tls, tls_verify, tls_ca_file,
 * tls_fingerprint, nick, alt_nicks, nickserv_password_source or its secret,
 * username, realname, sasl_user, password_source, or the password that
 * source now gives) needs a new connection; the others (prefix,
 * flood_burst, flood_interval_ms, max_lines, the command rate limits
 * (user_burst, user_interval_ms, channel_burst, channel_interval_ms),
 * formatting, plain_channels, join_on_invite, admins,
 * ping_interval, ping_timeout, channels and their keys) apply on the live
 * one.
 */
#ifndef DELVER_IRC_RELOAD_H
#define DELVER_IRC_RELOAD_H

#include <stddef.h>

#include "bot/config/config.h"

/* One bit per setting that can change. */
enum {
	IRC_CHG_HOST = 1u << 0,
	IRC_CHG_PORT = 1u << 1,
	IRC_CHG_TLS = 1u << 2,
	IRC_CHG_TLS_VERIFY = 1u << 3,
	IRC_CHG_NICK = 1u << 4,
	IRC_CHG_ALT_NICKS = 1u << 5,
	IRC_CHG_USERNAME = 1u << 6,
	IRC_CHG_REALNAME = 1u << 7,
	IRC_CHG_SASL_USER = 1u << 8,
	IRC_CHG_PASSWORD_SOURCE = 1u << 9,
	IRC_CHG_PASSWORD = 1u << 10, /* the secret itself; never shown */
	IRC_CHG_PREFIX = 1u << 11,
	IRC_CHG_FLOOD_BURST = 1u << 12,
	IRC_CHG_FLOOD_INTERVAL = 1u << 13,
	IRC_CHG_MAX_LINES = 1u << 14,
	IRC_CHG_PING_INTERVAL = 1u << 15,
	IRC_CHG_PING_TIMEOUT = 1u << 16,
	IRC_CHG_CHANNELS = 1u << 17,   /* names, order or keys */
	IRC_CHG_RATE = 1u << 18,       /* the command rate limits */
	IRC_CHG_FORMATTING = 1u << 19, /* formatting, plain_channels */
	IRC_CHG_TLS_TRUST =
	    1u << 20,              /* tls_ca_file, tls_fingerprint, tls_cert_file, sasl_external */
	IRC_CHG_INVITE = 1u << 21, /* join_on_invite */
	IRC_CHG_NICKSERV = 1u << 22, /* nickserv_password_source or its secret */
	IRC_CHG_ADMINS = 1u << 23,   /* admins */
	IRC_CHG_PRIVATE = 1u << 24,  /* private_replies */
};

/* The changes that need a new connection. */
#define IRC_CHG_RECONNECT ((IRC_CHG_PREFIX - 1u) | IRC_CHG_TLS_TRUST | IRC_CHG_NICKSERV)

enum irc_reload_action {
	IRC_RELOAD_KEEP,      /* nothing changed */
	IRC_RELOAD_APPLY,     /* changes that apply on the live connection */
	IRC_RELOAD_RECONNECT, /* QUIT, then connect with the new settings */
	IRC_RELOAD_REMOVE,    /* QUIT and stop: the section is gone */
};

struct irc_reload_step {
	enum irc_reload_action action;
	size_t now;       /* the network's index in the new configuration (not REMOVE) */
	unsigned changes; /* IRC_CHG_* */
};

/* The IRC_CHG_* bits for what differs between a and b (same network). */
unsigned irc_reload_diff(const struct config_irc *a, const struct config_irc *b);

/*
 * Plans a reload. old[i] (nold of them) are the settings each running
 * network runs with (or is reconnecting to); steps[i] gets what to do with
 * network i. added[] (room for now->nirc) gets the indices in now->irc of
 * the networks not in old, in file order; their count is returned.
 */
size_t irc_reload_plan(const struct config_irc *const *old, size_t nold, const struct config *now,
                       struct irc_reload_step *steps, size_t *added);

/*
 * One line for the log saying what changed from a to b: the changed keys
 * in the order of the file ("nick, prefix, channels (+#c -#b, key of #k)"),
 * or "nothing" for no change. Secrets are named, never shown: a new
 * password is "password (from password_source)", a new key "key of #k".
 * Cut to size, NUL-terminated.
 */
void irc_reload_describe(const struct config_irc *a, const struct config_irc *b, unsigned changes,
                         char *out, size_t size);

#endif
