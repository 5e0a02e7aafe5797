/* irc: commands and replies on IRC; see irc.h. */
#include "bot/irc/irc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/draft/draft.h"
#include "bot/irc/irc_flood.h"
#include "bot/irc/irc_fmt.h"
#include "bot/irc/irc_ident.h"
#include "bot/irc/irc_limit.h"
#include "bot/log.h"
#include "bot/irc/render_irc.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define CTCP_ARG_MAX 64  /* bytes of a CTCP PING token echoed back */
#define ALIASES_MAX  512 /* nick changes remembered */
#define MASK_MAX     320 /* bytes of "user@host", with the NUL */

/* Someone now called nick was first seen as orig, from user@host mask. */
struct alias {
	char nick[IRC_NICK_MAX]; /* folded; "" for a free slot */
	char orig[IRC_NICK_MAX]; /* folded */
	char mask[MASK_MAX];
};

struct irc_bot {
	struct dispatch *d;
	const struct config_irc *cfg;
	struct irc_conn *conn;
	struct irc_limit *users;   /* commands per user key */
	struct irc_limit *chans;   /* commands per channel key */
	struct irc_limit *seen;    /* when a user last had a command taken, per channel */
	struct irc_limit *ctcp;    /* CTCP answers per nick */
	void (*reload)(void *ctx); /* asks the app to reload (SIGHUP); may be NULL */
	void *reload_ctx;
	struct alias *aliases;    /* ALIASES_MAX, used as a ring */
	size_t next_alias;        /* the slot the next new alias takes */
	size_t in_flight;         /* commands submitted and not answered yet */
	struct drafts *drafts;    /* long texts typed line by line (bot/draft/draft.h) */
	struct irc_ident *idents; /* the nick each identity has now */
};

/* Commands submitted and not answered yet, at most: hundreds of seconds of
 * answers at IRC's pace, and a few MB held. */
#define IRC_IN_FLIGHT_MAX 512

/* Where a command's answer goes: kept with its request until answered. */
struct answer_to {
	char *nick, *where;
	char lane[KEY_MAX];
	char chan[KEY_MAX]; /* the channel key the command came from */
	int64_t mono_ms;    /* when it came */
	bool quiet;
};

static void
set_rates(struct irc_bot *b)
{
	irc_limit_set_rate(b->users, b->cfg->user_burst, b->cfg->user_interval_ms);
	irc_limit_set_rate(b->chans, b->cfg->channel_burst, b->cfg->channel_interval_ms);
}

struct irc_bot *
irc_bot_new(struct dispatch *d, const struct config_irc *cfg, struct irc_conn *conn)
{
	struct irc_bot *b = xcalloc(1, sizeof(*b));

	b->d = d;
	b->cfg = cfg;
	b->conn = conn;
	b->users = irc_limit_new(1, 0);
	b->chans = irc_limit_new(1, 0);
	b->seen = irc_limit_new(1, 0);
	b->ctcp = irc_limit_new(1, CTCP_INTERVAL_MS);
	b->aliases = xcalloc(ALIASES_MAX, sizeof(*b->aliases));
	b->drafts = drafts_new();
	b->idents = irc_ident_new();
	set_rates(b);
	return b;
}

void
irc_bot_free(struct irc_bot *b)
{
	if (b == NULL)
		return;
	/* Commands still on their way run and are kept, unanswered. */
	dispatch_cancel(b->d, b);
	irc_limit_free(b->users);
	irc_limit_free(b->chans);
	irc_limit_free(b->seen);
	irc_limit_free(b->ctcp);
	drafts_free(b->drafts);
	irc_ident_free(b->idents);
	free(b->aliases);
	free(b);
}

void
irc_bot_set_config(struct irc_bot *b, const struct config_irc *cfg)
{
	b->cfg = cfg;
	set_rates(b);
}

static const char *
prefix(const struct irc_bot *b)
{
	return b->cfg->prefix != NULL && b->cfg->prefix[0] != '\0' ? b->cfg->prefix : "!";
}

/* Answers "\x01VERB args\x01" sent to the bot: VERSION and PING only. */
static void
ctcp(struct irc_bot *b, const struct irc_msg *m, const char *text, int64_t now)
{
	size_t vl = strcspn(text + 1, " \x01");
	const char *args = text + 1 + vl;
	char reply[128], who[IRC_NICK_MAX];
	struct buf clean;

	if (vl == 7 && strncmp(text + 1, "VERSION", 7) == 0) {
		snprintf(reply, sizeof(reply), "\x01VERSION delver %s\x01", DELVER_VERSION);
	} else if (vl == 4 && strncmp(text + 1, "PING", 4) == 0) {
		buf_init(&clean, CTCP_ARG_MAX);
		while (*args == ' ')
			args++;
		irc_fmt_clean(&clean, args); /* drops the closing \x01 too */
		snprintf(reply, sizeof(reply), "\x01PING %.*s\x01", CTCP_ARG_MAX,
		         clean.toobig ? "" : buf_str(&clean));
		buf_free(&clean);
	} else {
		return;
	}
	if (irc_conn_casefold(b->conn, m->nick, who, sizeof(who)) < 0)
		return;
	if (!irc_limit_take(b->ctcp, who, now)) {
		log_debug("irc %s: not answering a CTCP from %s (rate limit)", b->cfg->network,
		          m->nick);
		return;
	}
	irc_conn_say(b->conn, "NOTICE", m->nick, reply);
}

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

/*
 * Fills o for a message from m->nick in target (a channel, or us). The
 * user key is the account's when the message carries one, else
 * "~nick!user@host" with the nick the user was first seen with (see
 * irc.h). Returns -1 when a key would not fit.
 */
static int
make_origin(struct irc_bot *b, const struct irc_msg *m, const char *chan, struct origin *o)
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
	o->name_ctx = b;
	return 0;
}

/* Whether replies to target go without formatting: the network's
 * formatting is off, or target is one of its plain_channels. */
static bool
plain(struct irc_bot *b, const char *target)
{
	char want[IRC_CHAN_MAX], have[IRC_CHAN_MAX];

	if (!b->cfg->formatting)
		return true;
	if (!irc_conn_is_channel(b->conn, target) ||
	    irc_conn_casefold(b->conn, target, want, sizeof(want)) < 0)
		return false;
	for (size_t i = 0; i < b->cfg->nplain_channels; i++)
		if (irc_conn_casefold(b->conn, b->cfg->plain_channels[i], have, sizeof(have)) ==
		        0 &&
		    strcmp(want, have) == 0)
			return true;
	return false;
}

/* Removes the formatting codes of l->v[first..], dropping lines left
 * without text. */
static void
strip_lines(struct irc_lines *l, size_t first)
{
	size_t kept = first;
	struct buf t;

	for (size_t i = first; i < l->n; i++) {
		buf_init(&t, IRC_LINE_MAX);
		irc_fmt_strip(&t, l->v[i], strlen(l->v[i]));
		free(l->v[i]);
		l->v[i] = NULL;
		if (t.len > 0 && strspn(buf_str(&t), " ") < t.len)
			l->v[kept++] = xstrdup(buf_str(&t));
		buf_free(&t);
	}
	l->n = kept;
}

/* What is_nick needs: the channel whose members a mention would notify. */
struct nick_ctx {
	struct irc_bot *b;
	const char *chan;
};

static bool
is_member_nick(void *ctx, const char *word, size_t len)
{
	const struct nick_ctx *n = ctx;
	char nick[IRC_NICK_MAX];

	if (len >= sizeof(nick))
		return false;
	memcpy(nick, word, len);
	nick[len] = '\0';
	return irc_conn_is_member(n->b->conn, n->chan, nick);
}

/* The lines a reply may take: max_lines, and, when lines are paced, never
 * more than the flood burst, so that a reply goes out at once when the
 * bucket is full. */
static int
reply_lines_max(const struct irc_bot *b)
{
	int max = b->cfg->max_lines > 0 ? b->cfg->max_lines : CONFIG_IRC_MAX_LINES;
	int burst = b->cfg->flood_burst > 0 ? b->cfg->flood_burst : CONFIG_IRC_FLOOD_BURST;

	return b->cfg->flood_interval_ms > 0 && burst < max ? burst : max;
}

/*
 * Renders msg (NULL: nothing) for target and adds its lines to v. In a
 * channel the reply addresses nick (who asked), and no other nick in it
 * can notify anyone.
 */
static void
render_msg(struct irc_bot *b, const struct reply_msg *msg, const char *cmd, const char *target,
           const char *nick, struct irc_lines *keep, struct irc_say **v, size_t *n)
{
	struct nick_ctx nc = {b, target};
	bool chan = irc_conn_is_channel(b->conn, target);
	struct render_irc_opts ro = {
	    .budget = irc_conn_budget(b->conn, target),
	    .max_lines = reply_lines_max(b),
	    .prefix = prefix(b),
	    .address = chan ? nick : NULL,
	    .is_nick = chan ? is_member_nick : NULL,
	    .nick_ctx = &nc,
	};
	size_t first = keep->n;

	if (msg == NULL)
		return;
	if (ro.budget < IRC_FMT_BUDGET_MIN)
		ro.budget = IRC_FMT_BUDGET_MIN;
	render_irc(msg, &ro, keep);
	if (plain(b, target))
		strip_lines(keep, first);
	*v = xrealloc(*v, (*n + keep->n - first + 1) * sizeof(**v));
	for (size_t i = first; i < keep->n; i++)
		(*v)[(*n)++] = (struct irc_say){cmd, target, keep->v[i]};
}

/* The command for what is for one person alone: NOTICE, or PRIVMSG where
 * the network's private_replies says so. */
static const char *
private_cmd(const struct irc_bot *b)
{
	return b->cfg->private_replies == IRC_PRIVATE_PRIVMSG ? "PRIVMSG" : "NOTICE";
}

/*
 * The nick the GM message of r may go to by NOTICE, or NULL: the nick at
 * which the GM seat's holder (reply_gm_key, the identity the GM-only
 * commands check) was last seen on this link and still is, in the channel
 * where the command was made. Whoever merely has the nick the GM last
 * used does not get it.
 */
static const char *
gm_nick(struct irc_bot *b, const struct reply *r, const char *where)
{
	const char *key = reply_gm_key(r), *nick;

	if (key == NULL || (nick = irc_ident_find(b->idents, key, irc_conn_link(b->conn))) == NULL)
		return NULL;
	return irc_conn_is_channel(b->conn, where) && irc_conn_is_member(b->conn, where, nick)
	           ? nick
	           : NULL;
}

/*
 * Sends every line of r as one group in the invoker's lane: all of it or,
 * when the send queue has no room, none of it and a NOTICE saying so.
 */
static void
send_reply(struct irc_bot *b, const struct reply *r, const char *nick, const char *where,
           const char *lane, bool quiet)
{
	struct irc_lines keep = {0};
	struct irc_say *v = NULL;
	size_t n = 0;

	const char *gm_to = reply_msg(r, REPLY_GM) != NULL ? gm_nick(b, r, where) : NULL;
	bool gm_away = reply_msg(r, REPLY_GM) != NULL && gm_to == NULL;
	char text[512];

	if (gm_away)
		snprintf(text, sizeof(text),
		         "The GM, %.64s, is not known to be in %.64s (no command from them "
		         "there since they left or quit, or since delver connected), so delver "
		         "did not send %.120s%s",
		         reply_gm_name(r), where, reply_gm_what(r),
		         reply_gm_is_aside(r) ? "." : "; roll again once they are back.");
	if (reply_is_error(r) || quiet) {
		render_msg(b, reply_msg(r, REPLY_CHANNEL), private_cmd(b), nick, nick, &keep, &v,
		           &n);
	} else if (gm_away && !reply_gm_is_aside(r)) {
		/* A secret roll that cannot reach the GM is not made. */
		irc_conn_say_lane(b->conn, lane, private_cmd(b), nick, text);
		return;
	} else {
		render_msg(b, reply_msg(r, REPLY_CHANNEL), "PRIVMSG", where, nick, &keep, &v, &n);
		render_msg(b, reply_msg(r, REPLY_INVOKER), private_cmd(b), nick, nick, &keep, &v,
		           &n);
		if (reply_msg(r, REPLY_GM) != NULL && !gm_away)
			render_msg(b, reply_msg(r, REPLY_GM), private_cmd(b), gm_to, nick, &keep,
			           &v, &n);
	}
	/* A refusal is counted and summed up in the log by the session. */
	if (irc_conn_say_group(b->conn, lane, v, n, 1) == IRC_SAY_FULL) {
		irc_conn_say_lane(
		    b->conn, lane, private_cmd(b), nick,
		    "delver has too many replies waiting to be sent, so it dropped its "
		    "answer to your command; try again in a minute.");
	}
	/* The rest went: the invoker is told the GM's part did not. */
	if (gm_away && !reply_is_error(r) && !quiet)
		irc_conn_say_lane(b->conn, lane, private_cmd(b), nick, text);
	free(v);
	render_irc_lines_free(&keep);
}

/* A reply that asks for a long text (reply_ask) opens a draft for the
 * asker there: their next lines that are no command, until "<word> end". */
static void
asked(struct irc_bot *b, struct reply *r, const char *chan, const char *user, int64_t mono_ms)
{
	const struct reply_ask *ask = reply_asked(r);
	char replaced[CMD_LINE_MAX + 1];

	if (ask == NULL)
		return;
	drafts_open(b->drafts, chan, user, ask, mono_ms, replaced, sizeof(replaced));
	if (replaced[0] != '\0')
		draft_reply_dropped(r, replaced, 0, 0, DRAFT_REPLACED);
}

static void
answer_to_free(void *p)
{
	struct answer_to *t = p;

	free(t->nick);
	free(t->where);
	free(t);
}

/* A command's answer came (ctx: the bot; the request keeps where it goes). */
static void
answered(struct request *req, void *ctx)
{
	struct irc_bot *b = ctx;
	struct answer_to *t = request_tag(req);

	b->in_flight--;
	asked(b, request_reply(req), t->chan, t->lane, t->mono_ms);
	send_reply(b, request_reply(req), t->nick, t->where, t->lane, t->quiet);
	request_free(req);
}

/* " then one every N s" for a rate. */
static void
rate_text(char *out, size_t size, int burst, int interval_ms)
{
	if (interval_ms % 1000 == 0)
		snprintf(out, size, "%d at once, then one every %d s", burst, interval_ms / 1000);
	else
		snprintf(out, size, "%d at once, then one every %d ms", burst, interval_ms);
}

/*
 * Whether the command of o (from nick, in chan or privately) is within the
 * user's and the channel's rate limits; it is then counted against both.
 * A refused command's user is told once per throttled spell, by NOTICE.
 */
static bool
admit(struct irc_bot *b, const struct origin *o, const char *nick, const char *chan, int64_t now)
{
	/* A quarter of a channel's burst (one at least, from a burst of 2) is
	 * kept for its quiet users: those who had no command taken there for
	 * as long as their own burst takes to come back (the channel's, with
	 * no limit per user). Everyone else leaves it, however far within
	 * their own rate: users who each keep to it can between them spend
	 * the channel's faster than it refills, and would otherwise leave
	 * someone who sent nothing refused. */
	int burst = b->cfg->channel_burst, reserve = burst < 2 ? 0 : burst < 8 ? 1 : burst / 4;
	int64_t window = (int64_t)b->cfg->user_burst * b->cfg->user_interval_ms, last = 0;
	bool user_ok = irc_limit_ready(b->users, o->user_key, now), quiet = true, chan_ok = true;
	char seen[2 * KEY_MAX], rate[96], text[400];

	if (window <= 0)
		window = (int64_t)b->cfg->channel_burst * b->cfg->channel_interval_ms;
	if (chan != NULL) {
		snprintf(seen, sizeof(seen), "%s %s", o->chan_key, o->user_key);
		irc_limit_count(b->seen, seen, now, &last);
		quiet = last == IRC_LIMIT_NEVER || now - last >= window;
		chan_ok = irc_limit_ready_keeping(b->chans, o->chan_key, quiet ? 0 : reserve, now);
	}
	if (user_ok && chan_ok) {
		irc_limit_take(b->users, o->user_key, now);
		if (chan != NULL) {
			irc_limit_take(b->chans, o->chan_key, now);
			irc_limit_take(b->seen, seen, now);
		}
		return true;
	}
	log_debug("irc %s: ignoring a command from %s: %s rate limit", b->cfg->network, nick,
	          user_ok ? "the channel's" : "the user's");
	if (!irc_limit_tell(b->users, o->user_key, now))
		return false;
	if (!user_ok) {
		rate_text(rate, sizeof(rate), b->cfg->user_burst, b->cfg->user_interval_ms);
		snprintf(text, sizeof(text),
		         "You are sending commands faster than delver takes them from one person "
		         "(%s); it ignores the extra ones, so slow down.",
		         rate);
	} else {
		rate_text(rate, sizeof(rate), b->cfg->channel_burst, b->cfg->channel_interval_ms);
		snprintf(text, sizeof(text),
		         "%.64s is sending commands faster than delver takes them from one channel "
		         "(%s); it ignores the extra ones, so slow down.",
		         chan, rate);
	}
	irc_conn_say_lane(b->conn, o->user_key, private_cmd(b), nick, text);
	return false;
}

void
irc_bot_set_reload(struct irc_bot *b, void (*reload)(void *ctx), void *ctx)
{
	b->reload = reload;
	b->reload_ctx = ctx;
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
static bool
is_admin(struct irc_bot *b, const struct irc_msg *m)
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

/*
 * An owner's command in a private message (join, part, reload, status),
 * answered by NOTICE. Returns false when text is none of them, or the
 * sender is not an admin: it is then an ordinary command.
 */
static bool
owner_command(struct irc_bot *b, const struct irc_msg *m, const char *text)
{
	char word[16], chan[IRC_CHAN_MAX], key[64], reply[400];
	const char *p = text;
	size_t n;

	while (*p == ' ')
		p++;
	n = strcspn(p, " ");
	if (n == 0 || n >= sizeof(word))
		return false;
	memcpy(word, p, n);
	word[n] = '\0';
	if (strcmp(word, "join") != 0 && strcmp(word, "part") != 0 && strcmp(word, "reload") != 0 &&
	    strcmp(word, "status") != 0)
		return false;
	if (b->cfg->nadmins == 0 || !is_admin(b, m))
		return false;
	p += n;
	while (*p == ' ')
		p++;
	n = strcspn(p, " ");
	snprintf(chan, sizeof(chan), "%.*s", (int)(n < sizeof(chan) ? n : 0), p);
	p += n;
	while (*p == ' ')
		p++;
	snprintf(key, sizeof(key), "%.*s", (int)strcspn(p, " "), p);
	log_info("irc %s: owner %s!%s@%s: %s %s", b->cfg->network, m->nick,
	         m->user != NULL ? m->user : "", m->host != NULL ? m->host : "", word, chan);
	if (strcmp(word, "status") == 0) {
		irc_conn_status(b->conn, reply, sizeof(reply));
	} else if (strcmp(word, "reload") == 0) {
		if (b->reload != NULL)
			b->reload(b->reload_ctx);
		snprintf(reply, sizeof(reply),
		         "Reloading the configuration; the log says what "
		         "changed.");
	} else if (chan[0] == '\0' || !irc_conn_is_channel(b->conn, chan)) {
		snprintf(reply, sizeof(reply), "Usage: %s <#channel>%s.", word,
		         strcmp(word, "join") == 0 ? " [key]" : "");
	} else if (strcmp(word, "part") == 0 && irc_conn_configured(b->conn, chan)) {
		snprintf(
		    reply, sizeof(reply),
		    "%s is in the configuration's channels; remove it there and reload, or the "
		    "bot rejoins it.",
		    chan);
	} else if ((strcmp(word, "join") == 0
	                ? irc_conn_join(b->conn, chan, key[0] != '\0' ? key : NULL)
	                : irc_conn_part(b->conn, chan)) < 0) {
		snprintf(reply, sizeof(reply), "%s cannot be sent to the server as a channel name.",
		         chan);
	} else {
		snprintf(reply, sizeof(reply), "%s %s.",
		         strcmp(word, "join") == 0 ? "Joining" : "Leaving", chan);
	}
	explicit_bzero(key, sizeof(key));
	irc_conn_say(b->conn, private_cmd(b), m->nick, reply);
	return true;
}

/* Whether the first word of line is w. */
static bool
first_word_is(const char *line, const char *w)
{
	size_t n = strlen(w);

	while (*line == ' ')
		line++;
	if (*line == '/')
		line++;
	return strncmp(line, w, n) == 0 && (line[n] == '\0' || line[n] == ' ');
}

/*
 * Whether text starts by addressing the bot by nick ("delver: roll 1d6",
 * "delver, roll"; the nick compared by CASEMAPPING); *rest is then what
 * follows the ':' or ',' and its spaces.
 */
static bool
addressed(struct irc_bot *b, const char *text, const char **rest)
{
	const char *me = irc_conn_nick(b->conn);
	size_t n = strcspn(text, ":, ");
	char word[IRC_NICK_MAX], fw[IRC_NICK_MAX], fme[IRC_NICK_MAX];

	if (n == 0 || n >= sizeof(word) || (text[n] != ':' && text[n] != ','))
		return false;
	memcpy(word, text, n);
	word[n] = '\0';
	if (irc_conn_casefold(b->conn, word, fw, sizeof(fw)) < 0 ||
	    irc_conn_casefold(b->conn, me, fme, sizeof(fme)) < 0 || strcmp(fw, fme) != 0)
		return false;
	text += n + 1;
	while (*text == ' ')
		text++;
	*rest = text;
	return true;
}

/* Whether the first word of line names a command. */
static bool
names_command(const char *line)
{
	size_t n;

	while (*line == ' ')
		line++;
	if (*line == '/')
		line++;
	n = strcspn(line, " ");
	return n > 0 && registry_find(line, n) != NULL;
}

/*
 * A line that is no command, from someone entering a long text here (a
 * draft, bot/draft/draft.h): it joins their draft. Returns whether it did
 * (or dropped the draft, past its limit, and said so).
 */
static bool
drafted(struct irc_bot *b, const struct irc_msg *m, const char *chan, const char *text,
        int64_t mono_ms)
{
	struct origin o;
	struct draft *d;
	struct reply *r;

	if (drafts_count(b->drafts) == 0 || make_origin(b, m, chan, &o) < 0)
		return false;
	switch (drafts_feed(b->drafts, o.chan_key, o.user_key, text, strlen(text), mono_ms, &d)) {
	case DRAFT_NONE:
		return false;
	case DRAFT_TAKEN:
		return true;
	case DRAFT_TOO_BIG:
		break;
	}
	r = reply_new();
	draft_reply_dropped(r, draft_line(d), draft_lines(d), draft_max(d), DRAFT_BIG);
	send_reply(b, r, m->nick, chan != NULL ? chan : m->nick, o.user_key, false);
	reply_free(r);
	draft_free(d);
	return true;
}

/*
 * "<word> end" or "<word> cancel" of the invoker's draft here: the draft is
 * taken; its text bound to inv (returns 2), or a reply said why not, or
 * that it was dropped (returns 1). Returns 0 for any other command.
 */
static int
draft_word(struct irc_bot *b, const struct origin *o, const char *text, int64_t mono_ms,
           struct reply *r, struct invocation *inv)
{
	enum draft_word w;
	struct draft *d;
	int rc = 1;

	if (drafts_count(b->drafts) == 0 || (w = drafts_word(b->drafts, o->chan_key, o->user_key,
	                                                     text, mono_ms)) == DRAFT_WORD_NONE)
		return 0;
	d = drafts_take(b->drafts, o->chan_key, o->user_key, mono_ms);
	if (w == DRAFT_WORD_CANCEL)
		draft_reply_dropped(r, draft_line(d), draft_lines(d), 0, DRAFT_CANCELLED);
	else if (draft_bind(dispatch_commands(b->d), draft_line(d), draft_opt(d), draft_text(d),
	                    inv, r) == 0)
		rc = 2;
	draft_free(d);
	return rc;
}

/*
 * A command sent to chan by nick, who is not in it: a server relays a
 * message from outside a channel that is not +n (ngircd's default), and
 * the sender would act on a channel they cannot read, answered privately
 * about it (its undo history, an empty GM seat, hidden Tension for a GM
 * so made). Nothing runs; the sender is told once, within their own rate
 * (the channel's is not spent by outsiders).
 */
static void
outsider(struct irc_bot *b, const struct origin *o, const char *nick, const char *chan,
         int64_t mono_ms)
{
	char text[200];

	log_debug("irc %s: ignoring a command from %s to %s: not in the channel", b->cfg->network,
	          nick, chan);
	if (!admit(b, o, nick, NULL, mono_ms))
		return;
	snprintf(text, sizeof(text),
	         "You are not in %.64s, so delver takes no commands for it from you; join it "
	         "first.",
	         chan);
	irc_conn_say_lane(b->conn, o->user_key, private_cmd(b), nick, text);
}

/* A PRIVMSG's text, its formatting codes already removed. */
static void
message(struct irc_bot *b, const struct irc_msg *m, const char *text, int64_t mono_ms,
        int64_t unix_s)
{
	const char *target = irc_line_param(m, 0);
	const char *pre = prefix(b);
	size_t pl = strlen(pre);
	bool direct = !irc_conn_is_channel(b->conn, target);
	struct origin o;
	struct request *req;
	struct answer_to *t;

	if (!irc_line_is(m, "PRIVMSG") || m->nick == NULL)
		return; /* NOTICEs are never answered */
	if (text[0] == '\x01') {
		if (direct)
			ctcp(b, m, text, mono_ms);
		return;
	}
	if (strncmp(text, pre, pl) == 0) {
		text += pl;
	} else if (!direct && addressed(b, text, &text)) {
		if (strncmp(text, pre, pl) == 0)
			text += pl; /* "delver: !roll 1d6" */
		if (*text == '\0')
			return;
	} else if (!direct) {
		drafted(b, m, target, text, mono_ms);
		return;
	}
	/* In a private conversation every line is a command: while a draft is
	 * open there, one naming no command is the draft's. */
	if (direct && !names_command(text) && drafted(b, m, NULL, text, mono_ms))
		return;
	if (!direct && !names_command(text))
		return;
	if (make_origin(b, m, direct ? NULL : target, &o) < 0) {
		log_warnx("irc %s: ignoring a command from %s: its channel or user key is too long",
		          b->cfg->network, m->nick);
		return;
	}
	if (!direct && !irc_conn_is_member(b->conn, target, m->nick)) {
		outsider(b, &o, m->nick, target, mono_ms);
		return;
	}
	if (!admit(b, &o, m->nick, direct ? NULL : target, mono_ms))
		return;
	if (direct && owner_command(b, m, text))
		return;
	/* Every command answers with a line at least: one whose answer could
	 * not be queued behind those of the commands in flight and the lines
	 * waiting is not run, and counts as a reply the send queue refused;
	 * so is one past IRC_IN_FLIGHT_MAX commands in flight (each holds its
	 * reply until answered). A flood faster than IRC lets the bot answer
	 * so holds little. */
	if (b->in_flight >= IRC_IN_FLIGHT_MAX ||
	    b->in_flight + irc_conn_pending(b->conn) >= IRC_FLOOD_TOTAL_MAX) {
		irc_conn_refuse_reply(b->conn);
		return;
	}
	t = xcalloc(1, sizeof(*t));
	t->nick = xstrdup(m->nick);
	t->where = xstrdup(direct ? m->nick : target);
	snprintf(t->lane, sizeof(t->lane), "%s", o.user_key);
	snprintf(t->chan, sizeof(t->chan), "%s", o.chan_key);
	t->mono_ms = mono_ms;
	/* Help is long and for the asker: by NOTICE, not to the channel. */
	t->quiet = !direct && first_word_is(text, "help");
	req = request_new(&o, unix_s, answered, b);
	request_set_tag(req, t, answer_to_free);
	switch (draft_word(b, &o, text, mono_ms, request_reply(req), request_invocation(req))) {
	case 1: /* the draft was ended or dropped: its reply says so */
		send_reply(b, request_reply(req), t->nick, t->where, t->lane, t->quiet);
		request_free(req);
		return;
	case 2: /* the draft's end: its invocation is bound */
		break;
	default:
		request_set_line(req, text, strlen(text));
		break;
	}
	b->in_flight++;
	dispatch_submit(b->d, req);
}

void
irc_bot_message(struct irc_bot *b, const struct irc_msg *m, int64_t mono_ms, int64_t unix_s)
{
	const char *text = irc_line_param(m, 1);
	struct buf typed;

	/* Bold, colours and the like that a client adds are not words: a
	 * command reads the text its sender sees ("!roll 1d6 # ^Bsneak" is
	 * "!roll 1d6 # sneak"). */
	buf_init(&typed, IRC_RX_MAX);
	irc_fmt_strip(&typed, text, strlen(text));
	message(b, m, buf_str(&typed), mono_ms, unix_s);
	buf_free(&typed);
}
