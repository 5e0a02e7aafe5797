/* irc_reply: a command's reply sent on IRC; see irc_reply.h. */
#include "bot/irc/irc_reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "bot/irc/irc_ident.h"
#include "bot/irc/irc_int.h"
#include "bot/irc/render_irc.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

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
 * without text (a part then starts at the next line kept). */
static void
strip_lines(struct irc_lines *l, size_t first)
{
	size_t kept = first, k = 0;
	struct buf t;

	while (k < l->nparts && l->part[k] < first) /* an earlier message's */
		k++;
	for (size_t i = first; i < l->n; i++) {
		for (; k < l->nparts && l->part[k] == i; k++)
			l->part[k] = kept;
		buf_init(&t, IRC_LINE_MAX);
		irc_fmt_strip(&t, l->v[i], strlen(l->v[i]));
		free(l->v[i]);
		l->v[i] = NULL;
		if (t.len > 0 && strspn(buf_str(&t), " ") < t.len)
			l->v[kept++] = xstrdup(buf_str(&t));
		buf_free(&t);
	}
	l->n = kept;
	/* a part left without lines, or starting where another does, is none */
	k = 0;
	for (size_t i = 0; i < l->nparts; i++)
		if (l->part[i] < kept && (k == 0 || l->part[k - 1] < l->part[i]))
			l->part[k++] = l->part[i];
	l->nparts = k;
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
 * can notify anyone. It goes plain where the command was typed (where)
 * takes plain replies, a NOTICE to the one who typed it included.
 */
static void
render_msg(struct irc_bot *b, const struct reply_msg *msg, const char *cmd, const char *target,
           const char *nick, const char *where, struct irc_lines *keep, struct irc_say **v,
           size_t *n)
{
	struct nick_ctx nc = {b, target};
	bool chan = irc_conn_is_channel(b->conn, target);
	struct render_irc_opts ro = {
	    .budget = irc_conn_budget(b->conn, target),
	    .max_lines = reply_lines_max(b),
	    .prefix = irc__prefix(b),
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
	if (plain(b, target) || plain(b, where))
		strip_lines(keep, first);
	/* v holds keep's lines, line for line: a part of keep is one of v */
	*v = xrealloc(*v, (*n + keep->n - first + 1) * sizeof(**v));
	for (size_t i = first; i < keep->n; i++)
		(*v)[(*n)++] = (struct irc_say){cmd, target, keep->v[i]};
}

/* The command for what is for one person alone: NOTICE, or PRIVMSG where
 * the network's private_replies says so. */
const char *
irc_reply_private_cmd(const struct irc_bot *b)
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
void
irc_reply_send(struct irc_bot *b, const struct reply *r, const char *nick, const char *where,
               const char *lane, bool quiet)
{
	struct irc_lines keep = {0};
	struct irc_say *v = NULL;
	size_t n = 0;

	const char *gm_to = reply_msg(r, REPLY_GM) != NULL ? gm_nick(b, r, where) : NULL;
	bool gm_away = reply_msg(r, REPLY_GM) != NULL && gm_to == NULL;
	char text[512];

	if (gm_away) {
		int k = snprintf(text, sizeof(text),
		                 "The GM, %.64s, is not known to be in %.64s (no command from them "
		                 "there since they left or quit, or since delver connected), so "
		                 "delver did not send %.120s",
		                 reply_gm_name(r), where, reply_gm_what(r));

		if (reply_gm_is_aside(r))
			snprintf(text + k, sizeof(text) - (size_t)k, ".");
		else
			snprintf(text + k, sizeof(text) - (size_t)k,
			         "; once they type a command there (%.16sgm will do), roll again.",
			         irc__prefix(b));
	}
	if (reply_is_error(r) || quiet) {
		render_msg(b, reply_msg(r, REPLY_CHANNEL), irc_reply_private_cmd(b), nick, nick,
		           where, &keep, &v, &n);
	} else if (gm_away && !reply_gm_is_aside(r)) {
		/* A secret roll that cannot reach the GM is not made. */
		irc_conn_say_lane(b->conn, lane, irc_reply_private_cmd(b), nick, text);
		return;
	} else {
		render_msg(b, reply_msg(r, REPLY_CHANNEL), "PRIVMSG", where, nick, where, &keep, &v,
		           &n);
		render_msg(b, reply_msg(r, REPLY_INVOKER), irc_reply_private_cmd(b), nick, nick,
		           where, &keep, &v, &n);
		if (reply_msg(r, REPLY_GM) != NULL && !gm_away)
			render_msg(b, reply_msg(r, REPLY_GM), irc_reply_private_cmd(b), gm_to, nick,
			           where, &keep, &v, &n);
	}
	/* A refusal is counted and summed up in the log by the session. */
	if (irc_conn_say_parts(b->conn, lane, v, n, keep.part, keep.nparts, 1) == IRC_SAY_FULL) {
		irc_conn_say_lane(
		    b->conn, lane, irc_reply_private_cmd(b), nick,
		    "delver has too many replies waiting to be sent, so it dropped its "
		    "answer to your command; try again in a minute.");
	}
	/* The rest went: the invoker is told the GM's part did not. */
	if (gm_away && !reply_is_error(r) && !quiet)
		irc_conn_say_lane(b->conn, lane, irc_reply_private_cmd(b), nick, text);
	free(v);
	render_irc_lines_free(&keep);
}
