/* irc_who: who sent an IRC message; see irc_who.h. */
#include "bot/irc/irc_who.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bot/irc/irc_fold.h"
#include "bot/irc/irc_ident.h"
#include "bot/irc/irc_int.h"

/* Whether a tag value could be an account name. */
static bool
account_ok(const char *a)
{
	if (a == NULL || *a == '\0' || strcmp(a, "*") == 0 || strlen(a) >= IRC_NICK_MAX)
		return false;
	for (; *a != '\0'; a++)
		if ((unsigned char)*a <= ' ' || *a == 0x7f)
			return false;
	return true;
}

/* "user@host" of m, the host in lowercase; -1 when it does not fit. */
static int
make_mask(const struct irc_msg *m, char *out, size_t size)
{
	int n = snprintf(out, size, "%s@%s", m->user != NULL ? m->user : "",
	                 m->host != NULL ? m->host : "");

	if (n < 0 || (size_t)n >= size)
		return -1;
	for (char *p = strchr(out, '@'); p != NULL && *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return 0;
}

/* The alias of folded nick, or NULL. */
static struct alias *
find_alias(struct irc_bot *b, const char *nick)
{
	for (size_t i = 0; i < ALIASES_MAX; i++)
		if (b->aliases[i].nick[0] != '\0' && strcmp(b->aliases[i].nick, nick) == 0)
			return &b->aliases[i];
	return NULL;
}

/*
 * The nick m->nick (folded into fold) stands for: the nick its user had
 * when first seen, if they changed nick since and still come from the same
 * user@host, else the nick itself. Returns -1 when something does not fit.
 */
static int
identity_nick(struct irc_bot *b, const struct irc_msg *m, char *fold, size_t size)
{
	char mask[MASK_MAX];
	struct alias *a;

	if (irc_conn_casefold(b->conn, m->nick, fold, size) < 0 ||
	    make_mask(m, mask, sizeof(mask)) < 0)
		return -1;
	a = find_alias(b, fold);
	if (a == NULL)
		return 0;
	if (strcmp(a->mask, mask) != 0) {
		a->nick[0] = '\0'; /* someone else has that nick now */
		return 0;
	}
	snprintf(fold, size, "%s", a->orig);
	return 0;
}

void
irc_bot_user(struct irc_bot *b, const struct irc_msg *m)
{
	char old[IRC_NICK_MAX], now[IRC_NICK_MAX], orig[IRC_NICK_MAX], mask[MASK_MAX];
	struct alias *a;

	if (m->nick == NULL || identity_nick(b, m, orig, sizeof(orig)) < 0 ||
	    irc_conn_casefold(b->conn, m->nick, old, sizeof(old)) < 0)
		return;
	a = find_alias(b, old);
	if (a != NULL)
		a->nick[0] = '\0';
	if (!irc_line_is(m, "NICK") ||
	    irc_conn_casefold(b->conn, irc_line_param(m, 0), now, sizeof(now)) < 0 ||
	    make_mask(m, mask, sizeof(mask)) < 0) {
		irc_ident_quit(b->idents, old);
		return;
	}
	irc_ident_nick(b->idents, old, irc_line_param(m, 0), now);
	a = find_alias(b, now);
	if (a != NULL)
		a->nick[0] = '\0';
	if (strcmp(now, orig) == 0)
		return; /* back to the nick they were first seen with */
	a = &b->aliases[b->next_alias];
	b->next_alias = (b->next_alias + 1) % ALIASES_MAX;
	snprintf(a->nick, sizeof(a->nick), "%s", now);
	snprintf(a->orig, sizeof(a->orig), "%s", orig);
	snprintf(a->mask, sizeof(a->mask), "%s", mask);
}

/*
 * The key versions before the nick!user@host binding gave a user without
 * an account: "irc:<net>:~<nick>" when the server offered account-tag, else
 * "irc:<net>:<nick>", with the current nick folded. Records under it are
 * adopted on use (state_adopt). Left "" when it cannot be made.
 */
static void
legacy_key(struct irc_bot *b, const struct irc_msg *m, struct origin *o)
{
	char nick[IRC_NICK_MAX];
	const char *mark = irc_conn_has_cap(b->conn, "account-tag") ? "~" : "";
	int n;

	if (irc_conn_casefold(b->conn, m->nick, nick, sizeof(nick)) < 0)
		return;
	n = snprintf(o->legacy_user_key, sizeof(o->legacy_user_key), "irc:%s:%s%s", b->cfg->network,
	             mark, nick);
	if (n < 0 || (size_t)n >= sizeof(o->legacy_user_key))
		o->legacy_user_key[0] = '\0';
}

/* The nick at which the identity key can be reached on this link now, or
 * NULL (the origin's name_now: the GM seat follows its holder's NICK). */
static const char *
nick_now(void *ctx, const char *key)
{
	struct irc_bot *b = ctx;

	return irc_ident_find(b->idents, key, irc_conn_link(b->conn));
}

bool
irc_who_channel_named(const struct origin *o, const char *text, char *key)
{
	const struct irc_bot *b = o->name_ctx;
	const char *here = o->chan_key, *net = strchr(here, ':'), *end;
	char fold[IRC_CHAN_MAX];
	size_t n = strlen(text);
	int rc;

	if (net == NULL || (end = strchr(net + 1, ':')) == NULL || n < 2 || n > 64 ||
	    strchr("#&", text[0]) == NULL || strpbrk(text, " ,\a") != NULL)
		return false;
	rc = b != NULL ? irc_conn_casefold(b->conn, text, fold, sizeof(fold))
	               : irc_fold(IRC_CM_RFC1459, text, fold, sizeof(fold));
	if (rc < 0)
		return false;
	rc = snprintf(key, KEY_MAX, "%.*s%s", (int)(end - here) + 1, here, fold);
	return rc > 0 && rc < KEY_MAX;
}

/*
 * Fills o for a message from m->nick in target (a channel, or us). The
 * user key is the account's when the message carries one, else
 * "~nick!user@host" with the nick the user was first seen with (see
 * irc.h). Returns -1 when a key would not fit.
 */
int
irc_who_origin(struct irc_bot *b, const struct irc_msg *m, const char *chan, struct origin *o)
{
	const char *net = b->cfg->network;
	const char *account = irc_line_tag(m, "account");
	char who[IRC_NICK_MAX], mask[MASK_MAX], fold[IRC_CHAN_MAX];
	int n;

	memset(o, 0, sizeof(*o));
	o->platform = "irc";
	if (account_ok(account)) {
		if (irc_conn_casefold(b->conn, account, who, sizeof(who)) < 0)
			return -1;
		n = snprintf(o->user_key, sizeof(o->user_key), "irc:%s:%s", net, who);
	} else {
		if (identity_nick(b, m, who, sizeof(who)) < 0 ||
		    make_mask(m, mask, sizeof(mask)) < 0)
			return -1;
		n = snprintf(o->user_key, sizeof(o->user_key), "irc:%s:~%s!%s", net, who, mask);
		legacy_key(b, m, o);
	}
	if (n < 0 || (size_t)n >= sizeof(o->user_key))
		return -1;
	if (chan != NULL) {
		if (irc_conn_casefold(b->conn, chan, fold, sizeof(fold)) < 0)
			return -1;
		n = snprintf(o->chan_key, sizeof(o->chan_key), "irc:%s:%s", net, fold);
		o->platform_admin = irc_conn_is_op(b->conn, chan, m->nick);
	} else {
		n = snprintf(o->chan_key, sizeof(o->chan_key), "%s", o->user_key);
		o->direct = true;
	}
	if (n < 0 || (size_t)n >= sizeof(o->chan_key))
		return -1;
	snprintf(o->user_name, sizeof(o->user_name), "%s", m->nick);
	if (irc_conn_casefold(b->conn, m->nick, who, sizeof(who)) == 0)
		irc_ident_seen(b->idents, o->user_key, m->nick, who, irc_conn_link(b->conn));
	o->name_now = nick_now;
	o->channel_named = irc_who_channel_named;
	o->name_ctx = b;
	return 0;
}

/* Whether s matches the glob pattern p ('*' any run, '?' one byte),
 * ignoring ASCII case. */
static bool
glob_match(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s != '\0') {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == '?' || (*p != '\0' && tolower((unsigned char)*p) ==
		                                           tolower((unsigned char)*s))) {
			p++;
			s++;
		} else if (star != NULL) {
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/*
 * Whether the sender of m is one of the network's admins: an entry with
 * '!' or '@' is a nick!user@host mask, any other an account name, matched
 * against the message's account tag (by CASEMAPPING).
 */
bool
irc_who_is_admin(struct irc_bot *b, const struct irc_msg *m)
{
	const char *account = irc_line_tag(m, "account");
	char mask[IRC_NICK_MAX + MASK_MAX], fa[IRC_NICK_MAX], fe[IRC_NICK_MAX];
	int n = snprintf(mask, sizeof(mask), "%s!%s@%s", m->nick, m->user != NULL ? m->user : "",
	                 m->host != NULL ? m->host : "");

	if (n < 0 || (size_t)n >= sizeof(mask))
		return false;
	for (size_t i = 0; i < b->cfg->nadmins; i++) {
		const char *e = b->cfg->admins[i];

		if (strpbrk(e, "!@") != NULL) {
			if (glob_match(e, mask))
				return true;
		} else if (account_ok(account) &&
		           irc_conn_casefold(b->conn, account, fa, sizeof(fa)) == 0 &&
		           irc_conn_casefold(b->conn, e, fe, sizeof(fe)) == 0 &&
		           strcmp(fa, fe) == 0) {
			return true;
		}
	}
	return false;
}
