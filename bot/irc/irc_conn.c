/* irc_conn: the IRC session state machine; see irc_conn.h. */
#include "bot/irc/irc_conn.h"
#include "bot/irc/irc_conn_int.h"
#include "bot/irc/irc_join.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/backoff.h"
#include "bot/log.h"
#include "rules/base/mem.h"

void
irc_conn_timing_defaults(struct irc_timing *t)
{
	t->ping_idle = CONFIG_IRC_PING_INTERVAL * 1000;
	t->ping_timeout = CONFIG_IRC_PING_TIMEOUT * 1000;
	t->register_max = 60000;
	t->rejoin = 5000;
	t->rejoin_max = 600000;
	t->nick_retry = 120000;
	t->backoff_min = 1000;
	t->backoff_max = 300000;
	t->stable = 60000;
	t->connect = 20000;
	t->handshake = 30000;
}

const char *
irc_conn__net(const struct irc_conn *c)
{
	return c->cfg->network != NULL ? c->cfg->network : "?";
}

struct irc_conn *
irc_conn_new(const struct config_irc *cfg, const struct irc_timing *t,
             const struct irc_conn_hooks *h, void *ctx)
{
	struct irc_conn *c = xcalloc(1, sizeof(*c));

	c->cfg = cfg;
	if (t != NULL)
		c->t = *t;
	else
		irc_conn_timing_defaults(&c->t);
	c->h = *h;
	c->ctx = ctx;
	c->flood = irc_flood_new(cfg->flood_burst > 0 ? cfg->flood_burst : CONFIG_IRC_FLOOD_BURST,
	                         cfg->flood_interval_ms >= 0 ? cfg->flood_interval_ms
	                                                     : CONFIG_IRC_FLOOD_INTERVAL_MS);
	c->track = irc_track_new();
	for (size_t i = 0; i < cfg->nchannels && i < CONFIG_CHANNELS_MAX; i++) {
		c->chans[c->nchans].name = cfg->channels[i];
		c->chans[c->nchans++].key = cfg->channel_keys[i];
	}
	snprintf(c->nick, sizeof(c->nick), "%s", cfg->nick);
	return c;
}

void
irc_conn_free(struct irc_conn *c)
{
	if (c == NULL)
		return;
	irc_flood_free(c->flood);
	irc_track_free(c->track);
	free(c);
}

/* A refusal of the send queue: a reply (whole) or a single line. */
static void
drops_note(struct irc_conn *c, bool reply)
{
	if (!c->drops.open) {
		c->drops.open = true;
		c->drops.until = c->now + IRC_DROPS_EVERY_MS;
		log_warnx("irc %s: the send queue is full (%zu lines wait): what does not fit is "
		          "dropped, and counted every %d s while that lasts",
		          irc_conn__net(c), irc_flood_pending(c->flood), IRC_DROPS_EVERY_MS / 1000);
	}
	if (reply)
		c->drops.replies++;
	else
		c->drops.lines++;
}

/* The summary of the refusals, when due; the spell ends after a period
 * with none. */
static void
drops_summary(struct irc_conn *c, int64_t now)
{
	if (!c->drops.open || now < c->drops.until)
		return;
	if (c->drops.replies == 0 && c->drops.lines == 0) {
		c->drops.open = false;
		log_info("irc %s: the send queue has room again", irc_conn__net(c));
		return;
	}
	log_warnx("irc %s: the send queue stayed full: %llu replies and %llu other lines were "
	          "not sent in the last %d s",
	          irc_conn__net(c), (unsigned long long)c->drops.replies,
	          (unsigned long long)c->drops.lines, IRC_DROPS_EVERY_MS / 1000);
	c->drops.replies = c->drops.lines = 0;
	c->drops.until = now + IRC_DROPS_EVERY_MS;
}

void
irc_conn_refuse_reply(struct irc_conn *c)
{
	drops_note(c, true);
}

int
irc_conn__send(struct irc_conn *c, bool urgent, const char *target, const char *cmd,
               const char *const *p, size_t n)
{
	char line[IRC_LINE_MAX + 1];
	int len = irc_line_build(line, sizeof(line), cmd, p, n);
	int r;

	if (len < 0) {
		log_warnx("irc %s: not sending a %s line that IRC cannot carry", irc_conn__net(c),
		          cmd);
		return -1;
	}
	if (urgent)
		r = irc_flood_push_urgent(c->flood, line, (size_t)len);
	else
		r = irc_flood_push(c->flood, target, line, (size_t)len);
	if (r < 0) {
		drops_note(c, false);
		return -1;
	}
	if (c->h.wake != NULL)
		c->h.wake(c->ctx);
	return 0;
}

void
irc_conn__recycle(struct irc_conn *c, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (c->recycling)
		return;
	c->recycling = true;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	log_warnx("irc %s: %s; reconnecting", irc_conn__net(c), why);
	if (c->h.recycle != NULL)
		c->h.recycle(c->ctx, why);
}

static bool
same_nick(const struct irc_conn *c, const char *a, const char *b)
{
	char fa[IRC_NICK_MAX], fb[IRC_NICK_MAX];

	irc_track_casefold(c->track, a, fa, sizeof(fa));
	irc_track_casefold(c->track, b, fb, sizeof(fb));
	return strcmp(fa, fb) == 0;
}

static bool
is_me(const struct irc_conn *c, const char *nick)
{
	return nick != NULL && same_nick(c, nick, c->nick);
}

struct chanrec *
irc_conn__chan(struct irc_conn *c, const char *name)
{
	char want[IRC_CHAN_MAX], have[IRC_CHAN_MAX];

	irc_track_casefold(c->track, name, want, sizeof(want));
	for (size_t i = 0; i < c->nchans; i++) {
		irc_track_casefold(c->track, c->chans[i].name, have, sizeof(have));
		if (strcmp(want, have) == 0)
			return &c->chans[i];
	}
	return NULL;
}

/* --- registration --- */

void
irc_conn_link_up(struct irc_conn *c, int64_t now)
{
	irc_conn_link_down(c, now);
	c->st = ST_REG;
	c->link_at = c->last_rx = c->now = now;
	log_info("irc %s: connected; registering as %s", irc_conn__net(c), c->cfg->nick);
	irc_reg_start(c);
}

void
irc_conn_link_down(struct irc_conn *c, int64_t now)
{
	if (c->st == ST_READY && now - c->ready_at >= c->t.stable)
		c->stable = true;
	c->st = ST_DOWN;
	c->links++;
	c->recycling = false;
	c->quitting = false;
	irc_flood_clear(c->flood);
	irc_track_reset(c->track);
	snprintf(c->nick, sizeof(c->nick), "%s", c->cfg->nick);
	c->self_user[0] = c->self_host[0] = '\0';
	c->nick_try = 0;
	c->want[0] = c->caps[0] = '\0';
	c->sasl_pending = c->cap_ended = false;
	c->ping_at = c->ready_at = c->nick_retry_at = 0;
	for (size_t i = 0; i < c->nchans; i++) {
		c->chans[i].joined = false;
		c->chans[i].badkey = false; /* one more try on the next link */
		c->chans[i].rejoin_at = 0;
	}
}

void
irc_conn_reconfigure(struct irc_conn *c, const struct config_irc *cfg, const struct irc_timing *t)
{
	c->cfg = cfg;
	if (t != NULL)
		c->t = *t;
	irc_flood_set_rate(
	    c->flood, cfg->flood_burst > 0 ? cfg->flood_burst : CONFIG_IRC_FLOOD_BURST,
	    cfg->flood_interval_ms >= 0 ? cfg->flood_interval_ms : CONFIG_IRC_FLOOD_INTERVAL_MS);
	irc_join_set(c, cfg->channels, cfg->channel_keys, cfg->nchannels);
}

/* With a NickServ password: IDENTIFY as the configured nick and, when
 * another holds it, REGAIN it (Atheme, as on Libera and OFTC). */
static void
nickserv(struct irc_conn *c)
{
	char text[400];
	int n;

	if (c->cfg->nickserv_password == NULL)
		return;
	n = snprintf(text, sizeof(text), "IDENTIFY %s %s", c->cfg->nick, c->cfg->nickserv_password);
	if (n > 0 && (size_t)n < sizeof(text))
		irc_conn__send(c, false, "", "PRIVMSG", (const char *[]){"NickServ", text}, 2);
	if (same_nick(c, c->nick, c->cfg->nick)) {
		explicit_bzero(text, sizeof(text));
		return;
	}
	log_info("irc %s: asking NickServ to regain %s", irc_conn__net(c), c->cfg->nick);
	n = snprintf(text, sizeof(text), "REGAIN %s %s", c->cfg->nick, c->cfg->nickserv_password);
	if (n > 0 && (size_t)n < sizeof(text))
		irc_conn__send(c, false, "", "PRIVMSG", (const char *[]){"NickServ", text}, 2);
	explicit_bzero(text, sizeof(text));
}

static void
on_welcome(struct irc_conn *c, const struct irc_msg *m, int64_t now)
{
	c->st = ST_READY;
	c->ready_at = now;
	snprintf(c->nick, sizeof(c->nick), "%s", irc_line_param(m, 0));
	c->sasl_pending = false;
	c->cap_ended = true;
	log_info("irc %s: registered as %s", irc_conn__net(c), c->nick);
	if (!same_nick(c, c->nick, c->cfg->nick))
		c->nick_retry_at = now + c->t.nick_retry;
	nickserv(c);
	irc_join_all(c);
}

/* --- channels --- */

static void
learn_self(struct irc_conn *c, const struct irc_msg *m)
{
	if (m->user != NULL)
		snprintf(c->self_user, sizeof(c->self_user), "%s", m->user);
	if (m->host != NULL)
		snprintf(c->self_host, sizeof(c->self_host), "%s", m->host);
}

static void
on_join(struct irc_conn *c, const struct irc_msg *m)
{
	const char *chan = irc_line_param(m, 0);
	struct chanrec *ch;

	/* A JOIN names who joined (its prefix) and where; without both it
	 * says nothing. */
	if (chan == NULL || m->nick == NULL)
		return;
	if (!is_me(c, m->nick)) {
		irc_track_join(c->track, chan, m->nick);
		return;
	}
	learn_self(c, m);
	irc_track_joined(c->track, chan);
	ch = irc_conn__chan(c, chan);
	if (ch != NULL) {
		ch->joined = true;
		ch->rejoin_at = 0;
	}
	log_info("irc %s: joined %s", irc_conn__net(c), chan);
}

static void
regain_nick(struct irc_conn *c, const char *gone)
{
	if (c->st == ST_READY && same_nick(c, gone, c->cfg->nick) &&
	    !same_nick(c, c->nick, c->cfg->nick))
		SEND(c, false, "NICK", c->cfg->nick);
}

static void
on_kick(struct irc_conn *c, const struct irc_msg *m, int64_t now)
{
	const char *chan = irc_line_param(m, 0), *victim = irc_line_param(m, 1);

	if (!is_me(c, victim)) {
		irc_track_part(c->track, chan, victim);
		return;
	}
	log_warnx("irc %s: kicked from %s by %s (%s)", irc_conn__net(c), chan,
	          m->nick ? m->nick : "?", irc_line_param(m, 2));
	irc_join_lost(c, chan, now);
}

static void
on_nick(struct irc_conn *c, const struct irc_msg *m)
{
	const char *to = irc_line_param(m, 0);

	if (m->nick == NULL || *to == '\0')
		return;
	irc_track_nick(c->track, m->nick, to);
	if (is_me(c, m->nick)) {
		snprintf(c->nick, sizeof(c->nick), "%s", to);
		log_info("irc %s: now known as %s", irc_conn__net(c), to);
		return;
	}
	if (c->h.user != NULL)
		c->h.user(c->ctx, m);
	regain_nick(c, m->nick);
}

/* An INVITE to the bot: joined when join_on_invite is on. The channel is
 * not added to the configured ones: it is not rejoined after a kick or a
 * reconnect. */
static void
on_invite(struct irc_conn *c, const struct irc_msg *m)
{
	const char *chan = irc_line_param(m, 1);

	if (c->st != ST_READY || !is_me(c, irc_line_param(m, 0)))
		return;
	if (!c->cfg->join_on_invite) {
		log_info("irc %s: %s invited the bot to %s; not joining (join_on_invite is off)",
		         irc_conn__net(c), m->nick != NULL ? m->nick : "?", chan);
		return;
	}
	if (!irc_track_is_channel(c->track, chan) || !irc_join_item_ok(chan))
		return;
	log_info("irc %s: %s invited the bot to %s; joining", irc_conn__net(c),
	         m->nick != NULL ? m->nick : "?", chan);
	SEND(c, false, "JOIN", chan);
}

/* --- input --- */

static void
on_numeric(struct irc_conn *c, int num, const struct irc_msg *m, int64_t now)
{
	switch (num) {
	case 1:
		on_welcome(c, m, now);
		break;
	case 5:
		irc_track_isupport(c->track, m);
		break;
	case 353:
		irc_track_names(c->track, irc_line_param(m, 2), irc_line_param(m, m->nparams - 1));
		break;
	case 396:
		snprintf(c->self_host, sizeof(c->self_host), "%s", irc_line_param(m, 1));
		break;
	case 432:
	case 433:
	case 436:
	case 437:
		if (num == 437 && irc_track_is_channel(c->track, irc_line_param(m, 1)))
			irc_join_refused(c, num, m, now);
		else
			irc_reg_nick_refused(c, num, m);
		break;
	case 403:
	case 405:
	case 471:
	case 473:
	case 474:
	case 475:
	case 477:
		irc_join_refused(c, num, m, now);
		break;
	case 900:
	case 902:
	case 903:
	case 904:
	case 905:
	case 906:
	case 907:
		irc_reg_sasl_numeric(c, num, m);
		break;
	default:
		break;
	}
}

static void
dispatch(struct irc_conn *c, const struct irc_msg *m, int64_t now)
{
	const char *cmd = m->command;

	if (cmd[0] >= '0' && cmd[0] <= '9') {
		on_numeric(c, atoi(cmd), m, now);
	} else if (strcmp(cmd, "PING") == 0) {
		SEND(c, true, "PONG", irc_line_param(m, 0));
	} else if (strcmp(cmd, "ERROR") == 0) {
		if (c->quitting)
			log_info("irc %s: left the server", irc_conn__net(c));
		else
			irc_conn__recycle(c, "the server ended the link: %s", irc_line_param(m, 0));
	} else if (strcmp(cmd, "CAP") == 0) {
		irc_reg_cap(c, m);
	} else if (strcmp(cmd, "AUTHENTICATE") == 0) {
		irc_reg_authenticate(c, m);
	} else if (strcmp(cmd, "PRIVMSG") == 0 || strcmp(cmd, "NOTICE") == 0) {
		if (c->st == ST_READY && m->nick != NULL && m->user != NULL && !is_me(c, m->nick) &&
		    m->nparams == 2 && c->h.message != NULL)
			c->h.message(c->ctx, m);
	} else if (strcmp(cmd, "JOIN") == 0) {
		on_join(c, m);
	} else if (strcmp(cmd, "PART") == 0) {
		if (is_me(c, m->nick))
			irc_join_lost(c, irc_line_param(m, 0), now);
		else if (m->nick != NULL)
			irc_track_part(c->track, irc_line_param(m, 0), m->nick);
	} else if (strcmp(cmd, "KICK") == 0) {
		on_kick(c, m, now);
	} else if (strcmp(cmd, "QUIT") == 0) {
		if (m->nick != NULL) {
			irc_track_quit(c->track, m->nick);
			regain_nick(c, m->nick);
			if (!is_me(c, m->nick) && c->h.user != NULL)
				c->h.user(c->ctx, m);
		}
	} else if (strcmp(cmd, "NICK") == 0) {
		on_nick(c, m);
	} else if (strcmp(cmd, "INVITE") == 0) {
		on_invite(c, m);
	} else if (strcmp(cmd, "MODE") == 0) {
		if (irc_track_is_channel(c->track, irc_line_param(m, 0)))
			irc_track_mode(c->track, m);
	}
}

void
irc_conn_receive(struct irc_conn *c, const char *line, size_t len, int64_t now)
{
	static struct irc_msg m; /* large; the loop is single-threaded */
	int r;

	if (c->st == ST_DOWN)
		return;
	c->last_rx = c->now = now;
	c->ping_at = 0;
	r = irc_line_parse(&m, line, len);
	if (r != IRC_PARSE_OK) {
		log_debug("irc %s: ignoring a line from the server: %s", irc_conn__net(c),
		          irc_line_strerror(r));
		return;
	}
	dispatch(c, &m, now);
}

/* --- time --- */

void
irc_conn_tick(struct irc_conn *c, int64_t now)
{
	c->now = now;
	drops_summary(c, now);
	if (c->st == ST_DOWN || c->recycling)
		return;
	if (c->st == ST_REG && now - c->link_at >= c->t.register_max) {
		irc_conn__recycle(c, "the server did not finish registration within %d s",
		                  c->t.register_max / 1000);
		return;
	}
	if (c->ping_at == 0 && now - c->last_rx >= c->t.ping_idle) {
		c->ping_at = now;
		SEND(c, true, "PING", "delver");
	} else if (c->ping_at != 0 && now - c->ping_at >= c->t.ping_timeout) {
		irc_conn__recycle(c, "the server has been silent for %d s",
		                  (int)((now - c->last_rx) / 1000));
		return;
	}
	if (c->st != ST_READY)
		return;
	irc_join_due(c, now);
	if (c->nick_retry_at != 0 && now >= c->nick_retry_at) {
		if (same_nick(c, c->nick, c->cfg->nick)) {
			c->nick_retry_at = 0;
		} else {
			c->nick_retry_at = now + c->t.nick_retry;
			SEND(c, false, "NICK", c->cfg->nick);
		}
	}
}

static void
earliest(int64_t *best, int64_t t)
{
	if (t >= 0 && (*best < 0 || t < *best))
		*best = t;
}

int64_t
irc_conn_next(struct irc_conn *c, int64_t now)
{
	int64_t flood = irc_flood_next(c->flood, now), best = -1;

	/* Output that may go now waits for the writable socket, not for a
	 * timer; only a dry bucket sets a time. */
	if (flood > now)
		best = flood;
	if (c->drops.open)
		earliest(&best, c->drops.until);

	if (c->st == ST_DOWN || c->recycling)
		return best;
	if (c->st == ST_REG)
		earliest(&best, c->link_at + c->t.register_max);
	if (c->ping_at == 0)
		earliest(&best, c->last_rx + c->t.ping_idle);
	else
		earliest(&best, c->ping_at + c->t.ping_timeout);
	if (c->st == ST_READY) {
		for (size_t i = 0; i < c->nchans; i++)
			if (c->chans[i].rejoin_at != 0)
				earliest(&best, c->chans[i].rejoin_at);
		if (c->nick_retry_at != 0)
			earliest(&best, c->nick_retry_at);
	}
	return best < now && best >= 0 ? now : best;
}

size_t
irc_conn_pop(struct irc_conn *c, int64_t now, char *out, size_t size)
{
	c->now = now;
	return irc_flood_pop(c->flood, now, out, size);
}

int64_t
irc_conn_backoff(struct irc_conn *c, uint64_t rnd)
{
	struct backoff b = {c->t.backoff_min, c->t.backoff_max};
	int attempt;

	if (c->stable) {
		c->attempts = 0;
		c->stable = false;
	}
	attempt = c->attempts;
	if (c->attempts < 30)
		c->attempts++;
	return backoff_delay(&b, attempt, rnd);
}

/* --- for the bot --- */

int
irc_conn_say(struct irc_conn *c, const char *cmd, const char *target, const char *text)
{
	const char *p[] = {target, text};

	if (c->st != ST_READY || !irc_line_middle_ok(target))
		return -1;
	return irc_conn__send(c, false, target, cmd, p, 2);
}

int
irc_conn_say_lane(struct irc_conn *c, const char *lane, const char *cmd, const char *target,
                  const char *text)
{
	const char *p[] = {target, text};

	if (c->st != ST_READY || !irc_line_middle_ok(target))
		return -1;
	return irc_conn__send(c, false, lane, cmd, p, 2);
}

int
irc_conn_say_group(struct irc_conn *c, const char *lane, const struct irc_say *v, size_t n,
                   size_t reserve)
{
	return irc_conn_say_parts(c, lane, v, n, NULL, 0, reserve);
}

int
irc_conn_say_parts(struct irc_conn *c, const char *lane, const struct irc_say *v, size_t n,
                   const size_t *starts, size_t nstarts, size_t reserve)
{
	char(*buf)[IRC_LINE_MAX + 1];
	const char **lines;
	int r = IRC_SAY_OK;

	if (c->st != ST_READY)
		return IRC_SAY_BAD;
	if (n == 0)
		return IRC_SAY_OK;
	buf = xcalloc(n, sizeof(*buf));
	lines = xcalloc(n, sizeof(*lines));
	for (size_t i = 0; i < n && r == IRC_SAY_OK; i++) {
		const char *p[] = {v[i].target, v[i].text};

		if (!irc_line_middle_ok(v[i].target) ||
		    irc_line_build(buf[i], sizeof(buf[i]), v[i].cmd, p, 2) < 0)
			r = IRC_SAY_BAD;
		lines[i] = buf[i];
	}
	if (r == IRC_SAY_OK &&
	    irc_flood_push_parts(c->flood, lane, lines, n, starts, nstarts, reserve) < 0) {
		r = IRC_SAY_FULL;
		drops_note(c, true);
	}
	free(lines);
	free(buf);
	if (r == IRC_SAY_BAD)
		log_warnx("irc %s: not sending a reply that IRC cannot carry", irc_conn__net(c));
	else if (r == IRC_SAY_OK && c->h.wake != NULL)
		c->h.wake(c->ctx);
	return r;
}

int
irc_conn_join(struct irc_conn *c, const char *channel, const char *key)
{
	if (c->st != ST_READY || !irc_track_is_channel(c->track, channel) ||
	    !irc_join_item_ok(channel) || (key != NULL && !irc_join_item_ok(key)))
		return -1;
	if (key != NULL)
		return SEND(c, false, "JOIN", channel, key);
	return SEND(c, false, "JOIN", channel);
}

int
irc_conn_part(struct irc_conn *c, const char *channel)
{
	if (c->st != ST_READY || !irc_track_is_channel(c->track, channel) ||
	    !irc_join_item_ok(channel))
		return -1;
	return SEND(c, false, "PART", channel);
}

bool
irc_conn_configured(struct irc_conn *c, const char *channel)
{
	return irc_conn__chan(c, channel) != NULL;
}

void
irc_conn_status(struct irc_conn *c, char *out, size_t size)
{
	size_t n;
	int r;

	if (size == 0)
		return;
	r = snprintf(out, size, "%s as %s; configured channels joined:",
	             c->st == ST_READY ? "registered" : "not registered", c->nick);
	n = r > 0 && (size_t)r < size ? (size_t)r : size - 1;
	for (size_t i = 0; i < c->nchans && n < size - 1; i++) {
		if (!c->chans[i].joined)
			continue;
		r = snprintf(out + n, size - n, " %s", c->chans[i].name);
		n = r > 0 && (size_t)r < size - n ? n + (size_t)r : size - 1;
	}
	snprintf(out + n, size - n, "; %zu lines waiting to be sent.", irc_conn_pending(c));
}

void
irc_conn_quit(struct irc_conn *c, const char *reason)
{
	if (c->st == ST_DOWN)
		return;
	c->quitting = true;
	/* A reply half written is finished first: never cut by QUIT. */
	irc_flood_finish(c->flood);
	SEND(c, true, "QUIT", reason);
}

size_t
irc_conn_pending(const struct irc_conn *c)
{
	return irc_flood_pending(c->flood);
}

bool
irc_conn_ready(const struct irc_conn *c)
{
	return c->st == ST_READY;
}

uint64_t
irc_conn_link(const struct irc_conn *c)
{
	return c->links;
}

const char *
irc_conn_nick(const struct irc_conn *c)
{
	return c->nick;
}

bool
irc_conn_has_cap(const struct irc_conn *c, const char *cap)
{
	char word[CAPS_MAX];

	snprintf(word, sizeof(word), " %s ", cap);
	return strstr(c->caps, word) != NULL;
}

bool
irc_conn_is_channel(const struct irc_conn *c, const char *target)
{
	return irc_track_is_channel(c->track, target);
}

bool
irc_conn_is_op(const struct irc_conn *c, const char *channel, const char *nick)
{
	return irc_track_is_op(c->track, channel, nick);
}

bool
irc_conn_is_member(const struct irc_conn *c, const char *channel, const char *nick)
{
	return irc_track_is_member(c->track, channel, nick);
}

int
irc_conn_casefold(const struct irc_conn *c, const char *in, char *out, size_t size)
{
	return irc_track_casefold(c->track, in, out, size);
}

size_t
irc_conn_budget(const struct irc_conn *c, const char *target)
{
	/* Until our own JOIN shows it, assume the longest user and host. */
	size_t user = c->self_user[0] != '\0' ? strlen(c->self_user) : 10;
	size_t host = c->self_host[0] != '\0' ? strlen(c->self_host) : 63;
	size_t over = 1 + strlen(c->nick) + 1 + user + 1 + host + strlen(" PRIVMSG ") +
	              strlen(target) + strlen(" :");

	return over < IRC_LINE_MAX - 2 ? IRC_LINE_MAX - 2 - over : 0;
}
