/* state: in-memory channel and user records; see state.h. */
#include "commands/state.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/*
 * Records are sized to what they hold: a server may keep a hundred
 * thousand channels in memory, most with no GM and no game state, so the
 * key is allocated with the record and the GM's key and name only when
 * there is a GM.
 */
struct channel {
	UT_hash_handle hh;
	struct state *owner;
	struct channel *next_touched;
	void *mods[CHANMOD_COUNT + 1];
	int64_t last_used;
	char *gm; /* the GM's key, NUL, the GM's name; or NULL */
	bool touched;
	char key[]; /* at most KEY_MAX bytes with the NUL */
};

struct user {
	UT_hash_handle hh;
	struct state *owner;
	struct user *next_touched;
	struct ustyle style;
	int64_t last_used;
	bool style_set;
	bool touched;
	char name[NAME_MAX_LEN];
	char key[]; /* at most KEY_MAX bytes with the NUL */
};

struct state {
	struct channel *channels;
	struct user *users;
	struct channel *touched_channels;
	struct user *touched_users;
	int (*load)(struct channel *fresh, void *ctx);
	void *load_ctx;
	int (*load_user)(struct user *fresh, void *ctx);
	void *load_user_ctx;
};

static void
copy_bounded(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A zeroed record of type T whose flexible key member gets key (cut to
 * KEY_MAX - 1 bytes). The key starts at offsetof, which may lie inside
 * sizeof's trailing padding. */
#define record_alloc(T, k) ((T *)record_alloc_at(offsetof(T, key), sizeof(T), (k)))

static void *
record_alloc_at(size_t off, size_t size, const char *key)
{
	size_t n = strlen(key);
	char *r;

	if (n >= KEY_MAX)
		n = KEY_MAX - 1;
	r = xcalloc(1, off + n + 1 > size ? off + n + 1 : size);
	memcpy(r + off, key, n);
	return r;
}

struct state *
state_new(void)
{
	return xcalloc(1, sizeof(struct state));
}

static void
channel_free(struct channel *ch)
{
	for (int i = 0; i < CHANMOD_COUNT; i++)
		if (ch->mods[i] != NULL && chanmod_table[i] != NULL)
			chanmod_table[i]->destroy(ch->mods[i]);
	free(ch->gm);
	free(ch);
}

void
state_free(struct state *st)
{
	struct channel *ch, *ctmp;
	struct user *u, *utmp;

	if (st == NULL)
		return;
	HASH_ITER(hh, st->channels, ch, ctmp)
	{
		HASH_DEL(st->channels, ch);
		channel_free(ch);
	}
	HASH_ITER(hh, st->users, u, utmp)
	{
		HASH_DEL(st->users, u);
		free(u);
	}
	free(st);
}

void
state_set_loader(struct state *st, int (*load)(struct channel *, void *), void *ctx)
{
	st->load = load;
	st->load_ctx = ctx;
}

/* The channel in memory or from the loader; *failed tells a loader error
 * from a record that does not exist. */
static struct channel *
channel_lookup(struct state *st, const char *key, bool *failed)
{
	struct channel *ch = NULL;
	int r;

	*failed = false;
	HASH_FIND_STR(st->channels, key, ch);
	if (ch != NULL || st->load == NULL)
		return ch;
	ch = record_alloc(struct channel, key);
	ch->owner = st;
	r = st->load(ch, st->load_ctx);
	if (r == 1) {
		HASH_ADD_STR(st->channels, key, ch);
		return ch;
	}
	*failed = r < 0;
	channel_free(ch);
	return NULL;
}

struct channel *
state_channel_peek(const struct state *st, const char *key)
{
	struct channel *ch = NULL;

	HASH_FIND_STR(st->channels, key, ch);
	return ch;
}

struct channel *
state_channel_find(struct state *st, const char *key)
{
	bool failed;

	return channel_lookup(st, key, &failed);
}

struct channel *
state_channel_read(struct state *st, const char *key, bool *failed)
{
	return channel_lookup(st, key, failed);
}

struct channel *
state_channel(struct state *st, const char *key)
{
	bool failed;
	struct channel *ch = channel_lookup(st, key, &failed);

	if (ch != NULL || failed)
		return ch;
	ch = record_alloc(struct channel, key);
	ch->owner = st;
	HASH_ADD_STR(st->channels, key, ch);
	return ch;
}

void
state_set_user_loader(struct state *st, int (*load)(struct user *, void *), void *ctx)
{
	st->load_user = load;
	st->load_user_ctx = ctx;
}

struct channel *
state_channel_new(struct state *st, const char *key)
{
	struct channel *ch = record_alloc(struct channel, key);

	ch->owner = st;
	HASH_ADD_STR(st->channels, key, ch);
	return ch;
}

struct user *
state_user_peek(const struct state *st, const char *key)
{
	struct user *u = NULL;

	HASH_FIND_STR(st->users, key, u);
	return u;
}

struct user *
state_user_read(struct state *st, const char *key, bool *failed)
{
	struct user *u = state_user_peek(st, key);
	int r;

	*failed = false;
	if (u != NULL || st->load_user == NULL)
		return u;
	u = record_alloc(struct user, key);
	u->owner = st;
	r = st->load_user(u, st->load_user_ctx);
	if (r == 1) {
		HASH_ADD_STR(st->users, key, u);
		return u;
	}
	*failed = r < 0;
	free(u);
	return NULL;
}

struct user *
state_user_find(struct state *st, const char *key)
{
	bool failed;

	return state_user_read(st, key, &failed);
}

struct user *
state_user(struct state *st, const char *key)
{
	bool failed;
	struct user *u = state_user_read(st, key, &failed);

	if (u != NULL || failed)
		return u;
	u = record_alloc(struct user, key);
	u->owner = st;
	HASH_ADD_STR(st->users, key, u);
	return u;
}

bool
state_release_user(struct state *st, struct user *u)
{
	if (u->touched || u->style_set)
		return false;
	HASH_DEL(st->users, u);
	free(u);
	return true;
}

void
state_evict_user(struct state *st, struct user *u)
{
	if (u->touched) {
		struct user **pp = &st->touched_users;

		while (*pp != NULL && *pp != u)
			pp = &(*pp)->next_touched;
		if (*pp == u)
			*pp = u->next_touched;
	}
	HASH_DEL(st->users, u);
	free(u);
}

size_t
state_evict_users_if(struct state *st, bool (*evict)(const struct user *, void *), void *ctx)
{
	struct user *u, *tmp;
	size_t n = 0;

	HASH_ITER(hh, st->users, u, tmp)
	{
		if (!u->touched && evict(u, ctx)) {
			HASH_DEL(st->users, u);
			free(u);
			n++;
		}
	}
	return n;
}

int
state_adopt(struct state *st, struct channel *ch, const char *from, const char *to)
{
	bool failed = false;
	struct user *old = state_user_find(st, from);
	const char *gm = channel_gm(ch);
	int moved = 0;
	struct user *u = NULL;

	/* A record under to that cannot be read now is not overwritten. */
	if (old != NULL && old->style_set && state_user_read(st, to, &failed) == NULL && !failed &&
	    (u = state_user(st, to)) != NULL) {
		user_set_name(u, old->name);
		user_set_style(u, &old->style);
		user_clear_style(old);
		user_touch(u);
		user_touch(old);
		moved++;
	}
	if (gm != NULL && strcmp(gm, from) == 0) {
		channel_set_gm(ch, to, channel_gm_name(ch));
		moved++;
	}
	for (int id = 0; id < CHANMOD_COUNT; id++) {
		const struct chanmod *m = chanmod_table[id];
		void *mod = channel_mod_peek(ch, (enum chanmod_id)id);

		if (m != NULL && m->rekey != NULL && mod != NULL)
			moved += m->rekey(mod, from, to);
	}
	if (moved > 0)
		channel_touch(ch);
	return moved;
}

size_t
state_nchannels(const struct state *st)
{
	return HASH_COUNT(st->channels);
}

size_t
state_nusers(const struct state *st)
{
	return HASH_COUNT(st->users);
}

void
state_each_channel(struct state *st, void (*fn)(struct channel *, void *), void *ctx)
{
	struct channel *ch, *tmp;

	HASH_ITER(hh, st->channels, ch, tmp)
	{
		fn(ch, ctx);
	}
}

void
state_each_user(struct state *st, void (*fn)(struct user *, void *), void *ctx)
{
	struct user *u, *tmp;

	HASH_ITER(hh, st->users, u, tmp)
	{
		fn(u, ctx);
	}
}

int
state_flush(struct state *st, int (*chan_fn)(struct channel *, void *),
            int (*user_fn)(struct user *, void *), void *ctx)
{
	int failed = 0;

	while (st->touched_channels != NULL) {
		struct channel *ch = st->touched_channels;

		st->touched_channels = ch->next_touched;
		ch->next_touched = NULL;
		ch->touched = false;
		if (chan_fn != NULL && chan_fn(ch, ctx) != 0)
			failed++;
	}
	while (st->touched_users != NULL) {
		struct user *u = st->touched_users;

		st->touched_users = u->next_touched;
		u->next_touched = NULL;
		u->touched = false;
		if (user_fn != NULL && user_fn(u, ctx) != 0)
			failed++;
	}
	return failed;
}

void
state_evict_channel(struct state *st, struct channel *ch)
{
	if (ch->touched) {
		struct channel **pp = &st->touched_channels;

		while (*pp != NULL && *pp != ch)
			pp = &(*pp)->next_touched;
		if (*pp == ch)
			*pp = ch->next_touched;
	}
	HASH_DEL(st->channels, ch);
	channel_free(ch);
}

size_t
state_evict_channels_if(struct state *st, bool (*evict)(const struct channel *, void *), void *ctx)
{
	struct channel *ch, *tmp;
	size_t n = 0;

	HASH_ITER(hh, st->channels, ch, tmp)
	{
		if (!ch->touched && evict(ch, ctx)) {
			HASH_DEL(st->channels, ch);
			channel_free(ch);
			n++;
		}
	}
	return n;
}

const char *
channel_key(const struct channel *ch)
{
	return ch->key;
}

const char *
channel_gm(const struct channel *ch)
{
	return ch->gm;
}

const char *
channel_gm_name(const struct channel *ch)
{
	return ch->gm != NULL ? ch->gm + strlen(ch->gm) + 1 : NULL;
}

void
channel_set_gm(struct channel *ch, const char *user_key, const char *name)
{
	size_t kl = strlen(user_key), nl = strlen(name);
	char *gm;

	if (kl >= KEY_MAX)
		kl = KEY_MAX - 1;
	if (nl >= NAME_MAX_LEN)
		nl = NAME_MAX_LEN - 1;
	gm = xmalloc(kl + nl + 2);
	memcpy(gm, user_key, kl);
	gm[kl] = '\0';
	memcpy(gm + kl + 1, name, nl);
	gm[kl + 1 + nl] = '\0';
	free(ch->gm);
	ch->gm = gm;
}

void
channel_clear_gm(struct channel *ch)
{
	free(ch->gm);
	ch->gm = NULL;
}

void *
channel_mod(struct channel *ch, enum chanmod_id id)
{
	if (ch->mods[id] == NULL)
		ch->mods[id] = chanmod_table[id]->create();
	return ch->mods[id];
}

void *
channel_mod_peek(const struct channel *ch, enum chanmod_id id)
{
	return ch->mods[id];
}

void
channel_mod_set(struct channel *ch, enum chanmod_id id, void *mod)
{
	if (ch->mods[id] != NULL)
		chanmod_table[id]->destroy(ch->mods[id]);
	ch->mods[id] = mod;
}

void
channel_touch(struct channel *ch)
{
	if (ch->touched)
		return;
	ch->touched = true;
	ch->next_touched = ch->owner->touched_channels;
	ch->owner->touched_channels = ch;
}

bool
channel_touched(const struct channel *ch)
{
	return ch->touched;
}

int64_t
channel_last_used(const struct channel *ch)
{
	return ch->last_used;
}

void
channel_set_last_used(struct channel *ch, int64_t when)
{
	ch->last_used = when;
}

const char *
user_key(const struct user *u)
{
	return u->key;
}

const char *
user_name(const struct user *u)
{
	return u->name;
}

void
user_set_name(struct user *u, const char *name)
{
	copy_bounded(u->name, sizeof(u->name), name);
}

const struct ustyle *
user_style(const struct user *u)
{
	return u->style_set ? &u->style : NULL;
}

void
user_set_style(struct user *u, const struct ustyle *style)
{
	u->style = *style;
	u->style.mark[USTYLE_MARK_MAX - 1] = '\0';
	u->style_set = true;
}

void
user_clear_style(struct user *u)
{
	memset(&u->style, 0, sizeof(u->style));
	u->style_set = false;
}

void
user_touch(struct user *u)
{
	if (u->touched)
		return;
	u->touched = true;
	u->next_touched = u->owner->touched_users;
	u->owner->touched_users = u;
}

bool
user_touched(const struct user *u)
{
	return u->touched;
}

bool
user_is_empty(const struct user *u)
{
	return !u->style_set;
}

int64_t
user_last_used(const struct user *u)
{
	return u->last_used;
}

void
user_set_last_used(struct user *u, int64_t when)
{
	u->last_used = when;
}
