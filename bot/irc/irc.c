/* irc: commands and replies on IRC; see irc.h. */
#include "bot/irc/irc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "bot/log.h"
#include "bot/irc/render_irc.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define CTCP_ARG_MAX 64 /* bytes of a CTCP PING token echoed back */

struct irc_bot {
	struct dispatch *d;
	const struct config_irc *cfg;
	struct irc_conn *conn;
	int64_t ctcp_next; /* monotonic ms before which CTCPs are not answered */
};

struct irc_bot *
irc_bot_new(struct dispatch *d, const struct config_irc *cfg, struct irc_conn *conn)
{
	struct irc_bot *b = xcalloc(1, sizeof(*b));

	b->d = d;
	b->cfg = cfg;
	b->conn = conn;
	return b;
}

void
irc_bot_free(struct irc_bot *b)
{
	free(b);
}

void
irc_bot_set_config(struct irc_bot *b, const struct config_irc *cfg)
{
	b->cfg = cfg;
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
	char reply[128];
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
	if (now < b->ctcp_next) {
		log_debug("irc %s: not answering a CTCP from %s (rate limit)", b->cfg->network,
		          m->nick);
		return;
	}
	b->ctcp_next = now + CTCP_INTERVAL_MS;
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

/* Fills o for a message from m->nick in target (a channel, or us). Returns
 * -1 when a key would not fit. */
static int
make_origin(struct irc_bot *b, const struct irc_msg *m, const char *chan, struct origin *o)
{
	const char *net = b->cfg->network;
	const char *account = irc_msg_tag(m, "account");
	char who[IRC_NICK_MAX + 1], fold[IRC_CHAN_MAX];
	int n;

	memset(o, 0, sizeof(*o));
	o->platform = "irc";
	if (account_ok(account)) {
		if (irc_conn_casefold(b->conn, account, who, sizeof(who)) < 0)
			return -1;
	} else {
		bool marked = irc_conn_has_cap(b->conn, "account-tag");

		who[0] = '~';
		if (irc_conn_casefold(b->conn, m->nick, who + marked, sizeof(who) - marked) < 0)
			return -1;
	}
	n = snprintf(o->user_key, sizeof(o->user_key), "irc:%s:%s", net, who);
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
	return 0;
}

static void
send_msg(struct irc_bot *b, const struct reply_msg *msg, const char *cmd, const char *target)
{
	struct render_irc_opts ro = {
	    .budget = irc_conn_budget(b->conn, target),
	    .max_lines = b->cfg->max_lines > 0 ? b->cfg->max_lines : 6,
	    .prefix = prefix(b),
	};
	struct irc_lines lines = {0};

	if (msg == NULL)
		return;
	if (ro.budget < IRC_FMT_BUDGET_MIN)
		ro.budget = IRC_FMT_BUDGET_MIN;
	render_irc(msg, &ro, &lines);
	for (size_t i = 0; i < lines.n; i++)
		if (irc_conn_say(b->conn, cmd, target, lines.v[i]) < 0)
			break;
	irc_lines_free(&lines);
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

void
irc_bot_message(struct irc_bot *b, const struct irc_msg *m, int64_t mono_ms, int64_t unix_s)
{
	const char *target = irc_msg_param(m, 0), *text = irc_msg_param(m, 1);
	const char *pre = prefix(b);
	size_t pl = strlen(pre);
	bool direct = !irc_conn_is_channel(b->conn, target);
	struct origin o;
	struct reply *r;

	if (!irc_msg_is(m, "PRIVMSG") || m->nick == NULL)
		return; /* NOTICEs are never answered */
	if (text[0] == '\x01') {
		if (direct)
			ctcp(b, m, text, mono_ms);
		return;
	}
	if (strncmp(text, pre, pl) == 0)
		text += pl;
	else if (!direct)
		return;
	if (!direct && !names_command(text))
		return;
	if (make_origin(b, m, direct ? NULL : target, &o) < 0) {
		log_warnx("irc %s: ignoring a command from %s: its channel or user key is too long",
		          b->cfg->network, m->nick);
		return;
	}
	r = reply_new();
	dispatch_line(b->d, &o, text, strlen(text), unix_s, r);
	if (reply_is_error(r)) {
		send_msg(b, reply_msg(r, REPLY_CHANNEL), "NOTICE", m->nick);
	} else {
		send_msg(b, reply_msg(r, REPLY_CHANNEL), "PRIVMSG", direct ? m->nick : target);
		send_msg(b, reply_msg(r, REPLY_INVOKER), "NOTICE", m->nick);
	}
	reply_free(r);
}
