/* irc_join: the channels a session keeps joined; see irc_join.h. */
#include "bot/irc/irc_join.h"

#include <string.h>

#include "bot/log.h"

#define JOIN_LISTS_MAX 400 /* bytes of channels and keys in one JOIN line */

bool
irc_join_item_ok(const char *s)
{
	return irc_line_middle_ok(s) && strchr(s, ',') == NULL;
}

/* Whether ch is to be joined now. */
static bool
wanted(const struct chanrec *ch)
{
	return !ch->joined && !ch->dead && !ch->badkey && irc_join_item_ok(ch->name) &&
	       (ch->key == NULL || irc_join_item_ok(ch->key));
}

/* Queues the JOIN of ch (with its key, if any). */
static void
join_one(struct irc_conn *c, const struct chanrec *ch)
{
	if (ch->key != NULL)
		SEND(c, false, "JOIN", ch->name, ch->key);
	else
		SEND(c, false, "JOIN", ch->name);
}

static void
send_joins(struct irc_conn *c, char *names, char *keys)
{
	if (names[0] == '\0')
		return;
	if (keys[0] != '\0')
		SEND(c, false, "JOIN", names, keys);
	else
		SEND(c, false, "JOIN", names);
	names[0] = keys[0] = '\0';
}

static void
list_add(char *list, const char *item)
{
	size_t len = strlen(list), n = strlen(item);

	if (len > 0)
		list[len++] = ',';
	memcpy(list + len, item, n + 1);
}

void
irc_join_all(struct irc_conn *c)
{
	char names[JOIN_LISTS_MAX + 2] = "", keys[JOIN_LISTS_MAX + 2] = "";

	for (int keyed = 1; keyed >= 0; keyed--) {
		for (size_t i = 0; i < c->nchans; i++) {
			const struct chanrec *ch = &c->chans[i];
			size_t more;

			if (!wanted(ch) || (ch->key != NULL) != (keyed == 1))
				continue;
			more = strlen(ch->name) + 1 + (ch->key != NULL ? strlen(ch->key) + 1 : 0);
			if (strlen(names) + strlen(keys) + more > JOIN_LISTS_MAX)
				send_joins(c, names, keys);
			list_add(names, ch->name);
			if (ch->key != NULL)
				list_add(keys, ch->key);
		}
	}
	send_joins(c, names, keys);
}

static bool
same_key(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

void
irc_join_set(struct irc_conn *c, char *const *names, char *const *keys, size_t n)
{
	struct chanrec next[CONFIG_CHANNELS_MAX];
	bool fresh[CONFIG_CHANNELS_MAX], rekeyed[CONFIG_CHANNELS_MAX];
	size_t nn = 0;

	if (n > CONFIG_CHANNELS_MAX)
		n = CONFIG_CHANNELS_MAX;
	for (size_t i = 0; i < n; i++) {
		struct chanrec *old = irc_conn__chan(c, names[i]);

		fresh[nn] = old == NULL;
		rekeyed[nn] = old != NULL && !same_key(old->key, keys[i]);
		if (old != NULL)
			next[nn] = *old;
		else
			memset(&next[nn], 0, sizeof(next[nn]));
		if (rekeyed[nn])
			next[nn].badkey = false;
		next[nn].key = keys[i];
		next[nn++].name = names[i];
	}
	for (size_t i = 0; i < c->nchans; i++) {
		char have[IRC_CHAN_MAX], want[IRC_CHAN_MAX];
		bool kept = false;

		irc_track_casefold(c->track, c->chans[i].name, have, sizeof(have));
		for (size_t k = 0; k < n && !kept; k++) {
			irc_track_casefold(c->track, names[k], want, sizeof(want));
			kept = strcmp(have, want) == 0;
		}
		if (!kept && c->chans[i].joined && c->st == ST_READY)
			SEND(c, false, "PART", c->chans[i].name);
	}
	memcpy(c->chans, next, nn * sizeof(next[0]));
	c->nchans = nn;
	for (size_t i = 0; i < nn && c->st == ST_READY; i++) {
		if ((fresh[i] || rekeyed[i]) && wanted(&c->chans[i])) {
			c->chans[i].rejoin_at = 0;
			join_one(c, &c->chans[i]);
		}
	}
}

/* Sets when ch is joined again: after the first delay, which doubles while
 * the troubles go on (a kick or a refusal within the longest delay of the
 * last one), up to the longest. */
static void
schedule_rejoin(struct irc_conn *c, struct chanrec *ch, int64_t now)
{
	if (ch->trouble == 0 || now - ch->trouble > c->t.rejoin_max || ch->delay == 0)
		ch->delay = c->t.rejoin;
	else if (ch->delay < c->t.rejoin_max)
		ch->delay = ch->delay * 2 > c->t.rejoin_max ? c->t.rejoin_max : ch->delay * 2;
	ch->trouble = now;
	ch->rejoin_at = now + ch->delay;
}

void
irc_join_lost(struct irc_conn *c, const char *chan, int64_t now)
{
	struct chanrec *ch = irc_conn__chan(c, chan);

	irc_track_left(c->track, chan);
	if (ch == NULL)
		return;
	ch->joined = false;
	schedule_rejoin(c, ch, now);
}

void
irc_join_refused(struct irc_conn *c, int num, const struct irc_msg *m, int64_t now)
{
	struct chanrec *ch = irc_conn__chan(c, irc_line_param(m, 1));

	if (ch == NULL)
		return;
	if (num == 475) {
		/* Retrying a wrong key only repeats the refusal. */
		ch->badkey = true;
		if (ch->key != NULL)
			log_warnx("irc %s: cannot join %s: the server refused its key (475); not "
			          "retrying until the key changes in the configuration (SIGHUP) or "
			          "the bot reconnects",
			          irc_conn__net(c), ch->name);
		else
			log_warnx(
			    "irc %s: cannot join %s: it needs a key (475, mode +k); give it in "
			    "channels as %s:KEY and reload (SIGHUP)",
			    irc_conn__net(c), ch->name, ch->name);
		return;
	}
	log_warnx("irc %s: cannot join %s (%d: %s)", irc_conn__net(c), ch->name, num,
	          irc_line_param(m, m->nparams - 1));
	if (num == 403) {
		ch->dead = true;
		return;
	}
	schedule_rejoin(c, ch, now);
}

void
irc_join_due(struct irc_conn *c, int64_t now)
{
	for (size_t i = 0; i < c->nchans; i++) {
		struct chanrec *ch = &c->chans[i];

		if (ch->rejoin_at != 0 && now >= ch->rejoin_at) {
			ch->rejoin_at = 0;
			if (wanted(ch))
				join_one(c, ch);
		}
	}
}
