/* irc: commands and replies on IRC; see irc.h. */
#include "bot/irc/irc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/draft/draft.h"
#include "bot/irc/irc_flood.h"
#include "bot/irc/irc_fmt.h"
#include "bot/irc/irc_ident.h"
#include "bot/irc/irc_int.h"
#include "bot/irc/irc_limit.h"
#include "bot/irc/irc_reply.h"
#include "bot/irc/irc_who.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#define CTCP_ARG_MAX 64 /* bytes of a CTCP PING token echoed back */

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

const char *
irc__prefix(const struct irc_bot *b)
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
	/* an ask opens a draft: the asker's next lines there that are no command */
	drafts_answered(b->drafts, t->chan, t->lane, request_reply(req), t->mono_ms);
	irc_reply_send(b, request_reply(req), t->nick, t->where, t->lane, t->quiet);
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
	irc_conn_say_lane(b->conn, o->user_key, irc_reply_private_cmd(b), nick, text);
	return false;
}

void
irc_bot_set_reload(struct irc_bot *b, void (*reload)(void *ctx), void *ctx)
{
	b->reload = reload;
	b->reload_ctx = ctx;
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
	if (b->cfg->nadmins == 0 || !irc_who_is_admin(b, m))
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
	irc_conn_say(b->conn, irc_reply_private_cmd(b), m->nick, reply);
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

/* Whether the first word of line names a command, also once its invisible
 * characters are left out: such a word is no other bot's (the joiner the
 * nick guard puts into the bot's own hints, copied back), and dispatch
 * refuses it naming the character. */
static bool
names_command(const char *line)
{
	size_t n;

	while (*line == ' ')
		line++;
	if (*line == '/')
		line++;
	n = strcspn(line, " ");
	if (n == 0 || registry_find(line, n) != NULL)
		return n > 0;
	return utf8_valid(line, n) && textsafe_invisible_in(line, n, NULL, NULL) &&
	       registry_find_cleaned(NULL, line, n) != NULL;
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

	if (drafts_count(b->drafts) == 0 || irc_who_origin(b, m, chan, &o) < 0)
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
	irc_reply_send(b, r, m->nick, chan != NULL ? chan : m->nick, o.user_key, false);
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
	                    inv, r) == 0) {
		inv->drafted = true;
		rc = 2;
	}
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
	irc_conn_say_lane(b->conn, o->user_key, irc_reply_private_cmd(b), nick, text);
}

/* A PRIVMSG's text, its formatting codes already removed. */
static void
message(struct irc_bot *b, const struct irc_msg *m, const char *text, int64_t mono_ms,
        int64_t unix_s)
{
	const char *target = irc_line_param(m, 0);
	const char *pre = irc__prefix(b);
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
	if (irc_who_origin(b, m, direct ? NULL : target, &o) < 0) {
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
		irc_reply_send(b, request_reply(req), t->nick, t->where, t->lane, t->quiet);
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
