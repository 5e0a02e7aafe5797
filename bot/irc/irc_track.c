/* irc_track: ISUPPORT and channel membership; see irc_track.h. */
#include "bot/irc/irc_track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "bot/irc/irc_fold.h"
#include "rules/base/mem.h"

#define FOLD_MAX  128 /* bytes of a folded nick or channel, with the NUL */
#define RANKS_MAX 8

struct member {
	char nick[FOLD_MAX]; /* folded */
	unsigned ranks;      /* bit i: the i-th mode of PREFIX */
	UT_hash_handle hh;
};

struct chan {
	char name[FOLD_MAX]; /* folded */
	struct member *members;
	UT_hash_handle hh;
};

struct irc_track {
	enum irc_casemap cm;
	char prefix_modes[RANKS_MAX + 1]; /* "ov" */
	char prefix_chars[RANKS_MAX + 1]; /* "@+" */
	char chanmodes[4][64];            /* list, always, when set, never */
	char chantypes[16];
	struct chan *chans;
};

static void
defaults(struct irc_track *t)
{
	t->cm = IRC_CM_RFC1459;
	snprintf(t->prefix_modes, sizeof(t->prefix_modes), "ov");
	snprintf(t->prefix_chars, sizeof(t->prefix_chars), "@+");
	snprintf(t->chanmodes[0], sizeof(t->chanmodes[0]), "beI");
	snprintf(t->chanmodes[1], sizeof(t->chanmodes[1]), "k");
	snprintf(t->chanmodes[2], sizeof(t->chanmodes[2]), "l");
	snprintf(t->chanmodes[3], sizeof(t->chanmodes[3]), "imnpst");
	snprintf(t->chantypes, sizeof(t->chantypes), "#&");
}

struct irc_track *
irc_track_new(void)
{
	struct irc_track *t = xcalloc(1, sizeof(*t));

	defaults(t);
	return t;
}

static void
chan_free(struct irc_track *t, struct chan *ch)
{
	struct member *m, *tmp;

	HASH_ITER(hh, ch->members, m, tmp)
	{
		HASH_DEL(ch->members, m);
		free(m);
	}
	HASH_DEL(t->chans, ch);
	free(ch);
}

void
irc_track_reset(struct irc_track *t)
{
	struct chan *ch, *tmp;

	HASH_ITER(hh, t->chans, ch, tmp)
	{
		chan_free(t, ch);
	}
	defaults(t);
}

void
irc_track_free(struct irc_track *t)
{
	if (t == NULL)
		return;
	irc_track_reset(t);
	free(t);
}

static void
set_casemapping(struct irc_track *t, const char *v)
{
	t->cm = irc_fold_casemap(v);
}

/* PREFIX=(qaohv)~&@%+ */
static void
set_prefix(struct irc_track *t, const char *v)
{
	const char *close = strchr(v, ')');
	size_t n;

	if (*v == '\0') {
		t->prefix_modes[0] = t->prefix_chars[0] = '\0';
		return;
	}
	if (*v != '(' || close == NULL)
		return;
	n = (size_t)(close - v - 1);
	if (n > RANKS_MAX || strlen(close + 1) != n)
		return;
	memcpy(t->prefix_modes, v + 1, n);
	t->prefix_modes[n] = '\0';
	memcpy(t->prefix_chars, close + 1, n);
	t->prefix_chars[n] = '\0';
}

/* CHANMODES=A,B,C,D */
static void
set_chanmodes(struct irc_track *t, const char *v)
{
	for (int i = 0; i < 4; i++) {
		const char *comma = strchr(v, ',');
		size_t n = comma != NULL ? (size_t)(comma - v) : strlen(v);

		if (n >= sizeof(t->chanmodes[i]))
			n = sizeof(t->chanmodes[i]) - 1;
		memcpy(t->chanmodes[i], v, n);
		t->chanmodes[i][n] = '\0';
		if (comma == NULL) {
			for (int j = i + 1; j < 4; j++)
				t->chanmodes[j][0] = '\0';
			return;
		}
		v = comma + 1;
	}
}

void
irc_track_isupport(struct irc_track *t, const struct irc_msg *m)
{
	/* params: our nick, tokens..., a trailing "are supported" text */
	for (size_t i = 1; i + 1 < m->nparams; i++) {
		const char *tok = m->params[i];
		const char *eq = strchr(tok, '=');
		const char *v = eq != NULL ? eq + 1 : "";
		size_t kl = eq != NULL ? (size_t)(eq - tok) : strlen(tok);

		if (kl == 11 && strncmp(tok, "CASEMAPPING", kl) == 0)
			set_casemapping(t, v);
		else if (kl == 6 && strncmp(tok, "PREFIX", kl) == 0)
			set_prefix(t, v);
		else if (kl == 9 && strncmp(tok, "CHANMODES", kl) == 0)
			set_chanmodes(t, v);
		else if (kl == 9 && strncmp(tok, "CHANTYPES", kl) == 0)
			snprintf(t->chantypes, sizeof(t->chantypes), "%s", v);
	}
}

int
irc_track_casefold(const struct irc_track *t, const char *in, char *out, size_t size)
{
	return irc_fold(t->cm, in, out, size);
}

bool
irc_track_is_channel(const struct irc_track *t, const char *s)
{
	return s[0] != '\0' && strchr(t->chantypes, s[0]) != NULL;
}

static struct chan *
find_chan(const struct irc_track *t, const char *name)
{
	char key[FOLD_MAX];
	struct chan *ch;

	irc_track_casefold(t, name, key, sizeof(key));
	HASH_FIND_STR(t->chans, key, ch);
	return ch;
}

static struct member *
find_member(const struct chan *ch, const char *nick, const struct irc_track *t)
{
	char key[FOLD_MAX];
	struct member *m;

	irc_track_casefold(t, nick, key, sizeof(key));
	HASH_FIND_STR(ch->members, key, m);
	return m;
}

void
irc_track_joined(struct irc_track *t, const char *chan)
{
	struct chan *ch = find_chan(t, chan);

	if (ch != NULL)
		chan_free(t, ch);
	ch = xcalloc(1, sizeof(*ch));
	irc_track_casefold(t, chan, ch->name, sizeof(ch->name));
	HASH_ADD_STR(t->chans, name, ch);
}

void
irc_track_left(struct irc_track *t, const char *chan)
{
	struct chan *ch = find_chan(t, chan);

	if (ch != NULL)
		chan_free(t, ch);
}

static struct member *
add_member(struct irc_track *t, struct chan *ch, const char *nick)
{
	struct member *m = find_member(ch, nick, t);

	if (m != NULL || *nick == '\0')
		return m;
	m = xcalloc(1, sizeof(*m));
	irc_track_casefold(t, nick, m->nick, sizeof(m->nick));
	HASH_ADD_STR(ch->members, nick, m);
	return m;
}

void
irc_track_join(struct irc_track *t, const char *chan, const char *nick)
{
	struct chan *ch = find_chan(t, chan);

	if (ch != NULL)
		add_member(t, ch, nick);
}

void
irc_track_part(struct irc_track *t, const char *chan, const char *nick)
{
	struct chan *ch = find_chan(t, chan);
	struct member *m = ch != NULL ? find_member(ch, nick, t) : NULL;

	if (m != NULL) {
		HASH_DEL(ch->members, m);
		free(m);
	}
}

void
irc_track_quit(struct irc_track *t, const char *nick)
{
	struct chan *ch, *tmp;

	HASH_ITER(hh, t->chans, ch, tmp)
	{
		irc_track_part(t, ch->name, nick);
	}
}

void
irc_track_nick(struct irc_track *t, const char *from, const char *to)
{
	struct chan *ch, *tmp;

	HASH_ITER(hh, t->chans, ch, tmp)
	{
		struct member *m = find_member(ch, from, t);
		unsigned ranks;

		if (m == NULL)
			continue;
		ranks = m->ranks;
		HASH_DEL(ch->members, m);
		free(m);
		m = add_member(t, ch, to);
		if (m != NULL)
			m->ranks = ranks;
	}
}

void
irc_track_names(struct irc_track *t, const char *chan, const char *names)
{
	struct chan *ch = find_chan(t, chan);
	char nick[FOLD_MAX];

	if (ch == NULL)
		return;
	while (*names != '\0') {
		unsigned ranks = 0;
		size_t n = 0;
		const char *p;
		struct member *m;

		while (*names == ' ')
			names++;
		/* multi-prefix: every rank symbol the member holds */
		while (*names != '\0' && (p = strchr(t->prefix_chars, *names)) != NULL) {
			ranks |= 1u << (p - t->prefix_chars);
			names++;
		}
		while (names[n] != '\0' && names[n] != ' ')
			n++;
		if (n > 0 && n < sizeof(nick)) {
			memcpy(nick, names, n);
			nick[n] = '\0';
			/* userhost-in-names would add "!user@host": keep the nick */
			nick[strcspn(nick, "!")] = '\0';
			m = add_member(t, ch, nick);
			if (m != NULL)
				m->ranks = ranks;
		}
		names += n;
	}
}

static bool
takes_param(const struct irc_track *t, char mode, bool adding)
{
	if (strchr(t->prefix_modes, mode) != NULL || strchr(t->chanmodes[0], mode) != NULL ||
	    strchr(t->chanmodes[1], mode) != NULL)
		return true;
	return adding && strchr(t->chanmodes[2], mode) != NULL;
}

void
irc_track_mode(struct irc_track *t, const struct irc_msg *m)
{
	struct chan *ch = m->nparams >= 2 ? find_chan(t, m->params[0]) : NULL;
	size_t arg = 2;
	bool adding = true;

	if (ch == NULL)
		return;
	for (const char *p = m->params[1]; *p != '\0'; p++) {
		const char *rank;
		const char *who;
		struct member *mem;

		if (*p == '+' || *p == '-') {
			adding = *p == '+';
			continue;
		}
		if (!takes_param(t, *p, adding))
			continue;
		if (arg >= m->nparams)
			return;
		who = m->params[arg++];
		rank = strchr(t->prefix_modes, *p);
		if (rank == NULL)
			continue;
		mem = find_member(ch, who, t);
		if (mem == NULL)
			mem = add_member(t, ch, who);
		if (mem == NULL)
			continue;
		if (adding)
			mem->ranks |= 1u << (rank - t->prefix_modes);
		else
			mem->ranks &= ~(1u << (rank - t->prefix_modes));
	}
}

bool
irc_track_is_op(const struct irc_track *t, const char *chan, const char *nick)
{
	const struct chan *ch = find_chan(t, chan);
	const struct member *m = ch != NULL ? find_member(ch, nick, t) : NULL;
	const char *o = strchr(t->prefix_modes, 'o');
	size_t top;

	if (m == NULL)
		return false;
	/* 'o' and every rank above it; a server without 'o' counts its top rank. */
	top = o != NULL ? (size_t)(o - t->prefix_modes) + 1 : 1;
	return (m->ranks & ((1u << top) - 1)) != 0;
}

bool
irc_track_is_member(const struct irc_track *t, const char *chan, const char *nick)
{
	const struct chan *ch = find_chan(t, chan);

	return ch != NULL && find_member(ch, nick, t) != NULL;
}

size_t
irc_track_count(const struct irc_track *t, const char *chan)
{
	const struct chan *ch = find_chan(t, chan);

	return ch != NULL ? HASH_COUNT(ch->members) : 0;
}
