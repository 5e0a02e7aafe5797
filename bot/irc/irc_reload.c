/* irc_reload: what a reload changes for the IRC networks; see irc_reload.h. */
#include "bot/irc/irc_reload.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"

#define DESCRIBE_MAX 1024 /* bytes of a description before it is cut */

/* The settings in the order of the file, for the description. */
static const struct {
	unsigned bit;
	const char *name;
} names[] = {
    {IRC_CHG_HOST, "host"},
    {IRC_CHG_PORT, "port"},
    {IRC_CHG_TLS, "tls"},
    {IRC_CHG_TLS_VERIFY, "tls_verify"},
    {IRC_CHG_NICK, "nick"},
    {IRC_CHG_ALT_NICKS, "alt_nicks"},
    {IRC_CHG_USERNAME, "username"},
    {IRC_CHG_REALNAME, "realname"},
    {IRC_CHG_SASL_USER, "sasl_user"},
    {IRC_CHG_PASSWORD_SOURCE, "password_source"},
    {IRC_CHG_PASSWORD, "password (from password_source)"},
    {IRC_CHG_PREFIX, "prefix"},
    {IRC_CHG_FLOOD_BURST, "flood_burst"},
    {IRC_CHG_FLOOD_INTERVAL, "flood_interval_ms"},
    {IRC_CHG_MAX_LINES, "max_lines"},
    {IRC_CHG_PING_INTERVAL, "ping_interval"},
    {IRC_CHG_PING_TIMEOUT, "ping_timeout"},
    {IRC_CHG_CHANNELS, "channels"},
    {IRC_CHG_RATE, "command rate limits"},
    {IRC_CHG_FORMATTING, "formatting"},
    {IRC_CHG_PRIVATE, "private_replies"},
    {IRC_CHG_TLS_TRUST, "tls_ca_file, tls_fingerprint, tls_cert_file or sasl_external"},
    {IRC_CHG_INVITE, "join_on_invite"},
    {IRC_CHG_NICKSERV, "nickserv_password_source"},
    {IRC_CHG_ADMINS, "admins"},
};

static bool
same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
same_list(char *const *a, size_t na, char *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!same(a[i], b[i]))
			return false;
	return true;
}

unsigned
irc_reload_diff(const struct config_irc *a, const struct config_irc *b)
{
	unsigned c = 0;

	c |= same(a->host, b->host) ? 0 : IRC_CHG_HOST;
	c |= a->port == b->port ? 0 : IRC_CHG_PORT;
	c |= a->tls == b->tls ? 0 : IRC_CHG_TLS;
	c |= a->tls_verify == b->tls_verify ? 0 : IRC_CHG_TLS_VERIFY;
	c |= same(a->tls_ca_file, b->tls_ca_file) && same(a->tls_fingerprint, b->tls_fingerprint) &&
	             same(a->tls_cert_file, b->tls_cert_file) &&
	             a->sasl_external == b->sasl_external
	         ? 0
	         : IRC_CHG_TLS_TRUST;
	c |= same(a->nick, b->nick) ? 0 : IRC_CHG_NICK;
	c |= same_list(a->alt_nicks, a->nalt_nicks, b->alt_nicks, b->nalt_nicks)
	         ? 0
	         : IRC_CHG_ALT_NICKS;
	c |= same(a->username, b->username) ? 0 : IRC_CHG_USERNAME;
	c |= same(a->realname, b->realname) ? 0 : IRC_CHG_REALNAME;
	c |= same(a->sasl_user, b->sasl_user) ? 0 : IRC_CHG_SASL_USER;
	c |= same(a->password_source, b->password_source) ? 0 : IRC_CHG_PASSWORD_SOURCE;
	/* A new secret behind the same source is a change of its own. */
	if (same(a->password_source, b->password_source) && !same(a->password, b->password))
		c |= IRC_CHG_PASSWORD;
	c |= same(a->prefix, b->prefix) ? 0 : IRC_CHG_PREFIX;
	c |= a->flood_burst == b->flood_burst ? 0 : IRC_CHG_FLOOD_BURST;
	c |= a->flood_interval_ms == b->flood_interval_ms ? 0 : IRC_CHG_FLOOD_INTERVAL;
	c |= a->max_lines == b->max_lines ? 0 : IRC_CHG_MAX_LINES;
	c |= a->ping_interval == b->ping_interval ? 0 : IRC_CHG_PING_INTERVAL;
	c |= a->user_burst == b->user_burst && a->user_interval_ms == b->user_interval_ms &&
	             a->channel_burst == b->channel_burst &&
	             a->channel_interval_ms == b->channel_interval_ms
	         ? 0
	         : IRC_CHG_RATE;
	c |= a->ping_timeout == b->ping_timeout ? 0 : IRC_CHG_PING_TIMEOUT;
	c |= a->join_on_invite == b->join_on_invite ? 0 : IRC_CHG_INVITE;
	c |= same_list(a->admins, a->nadmins, b->admins, b->nadmins) ? 0 : IRC_CHG_ADMINS;
	c |= same(a->nickserv_source, b->nickserv_source) &&
	             same(a->nickserv_password, b->nickserv_password)
	         ? 0
	         : IRC_CHG_NICKSERV;
	c |= a->private_replies == b->private_replies ? 0 : IRC_CHG_PRIVATE;
	if (a->formatting != b->formatting || !same_list(a->plain_channels, a->nplain_channels,
	                                                 b->plain_channels, b->nplain_channels))
		c |= IRC_CHG_FORMATTING;
	if (!same_list(a->channels, a->nchannels, b->channels, b->nchannels) ||
	    !same_list(a->channel_keys, a->nchannels, b->channel_keys, b->nchannels))
		c |= IRC_CHG_CHANNELS;
	return c;
}

size_t
irc_reload_plan(const struct config_irc *const *old, size_t nold, const struct config *now,
                struct irc_reload_step *steps, size_t *added)
{
	bool matched[CONFIG_IRC_MAX] = {false};
	size_t nadded = 0;

	for (size_t i = 0; i < nold; i++) {
		steps[i].action = IRC_RELOAD_REMOVE;
		steps[i].now = 0;
		steps[i].changes = 0;
		for (size_t j = 0; j < now->nirc && j < CONFIG_IRC_MAX; j++) {
			unsigned c;

			if (matched[j] || strcmp(old[i]->network, now->irc[j].network) != 0)
				continue;
			matched[j] = true;
			c = irc_reload_diff(old[i], &now->irc[j]);
			steps[i].now = j;
			steps[i].changes = c;
			steps[i].action = c == 0                         ? IRC_RELOAD_KEEP
			                  : (c & IRC_CHG_RECONNECT) != 0 ? IRC_RELOAD_RECONNECT
			                                                 : IRC_RELOAD_APPLY;
			break;
		}
	}
	for (size_t j = 0; j < now->nirc && j < CONFIG_IRC_MAX; j++)
		if (!matched[j])
			added[nadded++] = j;
	return nadded;
}

/* The index of name in list (ASCII case-insensitively, as config.c), or -1. */
static int
find(char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(list[i], name) == 0)
			return (int)i;
	return -1;
}

/* " (+#c -#b, key of #k)": joined, left, new keys; or " (order)". */
static void
describe_channels(const struct config_irc *a, const struct config_irc *b, struct buf *out)
{
	size_t start = out->len;

	buf_adds(out, " (");
	for (size_t i = 0; i < b->nchannels; i++)
		if (find(a->channels, a->nchannels, b->channels[i]) < 0)
			buf_addf(out, "%s+%s", out->len > start + 2 ? " " : "", b->channels[i]);
	for (size_t i = 0; i < a->nchannels; i++)
		if (find(b->channels, b->nchannels, a->channels[i]) < 0)
			buf_addf(out, "%s-%s", out->len > start + 2 ? " " : "", a->channels[i]);
	for (size_t i = 0; i < b->nchannels; i++) {
		int k = find(a->channels, a->nchannels, b->channels[i]);

		if (k >= 0 && !same(a->channel_keys[k], b->channel_keys[i]))
			buf_addf(out, "%skey of %s", out->len > start + 2 ? ", " : "",
			         b->channels[i]);
	}
	if (out->len == start + 2)
		buf_adds(out, "order");
	buf_addc(out, ')');
}

void
irc_reload_describe(const struct config_irc *a, const struct config_irc *b, unsigned changes,
                    char *out, size_t size)
{
	struct buf d;

	if (size == 0)
		return;
	buf_init(&d, DESCRIBE_MAX);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if ((changes & names[i].bit) == 0)
			continue;
		buf_addf(&d, "%s%s", d.len > 0 ? ", " : "", names[i].name);
		if (names[i].bit == IRC_CHG_CHANNELS)
			describe_channels(a, b, &d);
	}
	snprintf(out, size, "%s", d.len > 0 ? buf_str(&d) : "nothing");
	buf_free(&d);
}
