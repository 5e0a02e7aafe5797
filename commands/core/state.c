/* state: the tables of channel and user records; see state.h. */
#include "commands/core/state.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/state_int.h"
#include "rules/base/mem.h"

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

/* Frees a user record and what it owns. */
static void
user_destroy(struct user *u)
{
	free(u->saved);
	free(u);
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
	channel_drop_texts(ch);
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
		user_destroy(u);
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

/* The user with key: in memory, else from the loader. With none stored,
 * create makes an empty one of the record the loader left as it was given
 * (its contract), else NULL. NULL with *failed when the loader failed. */
static struct user *
user_read(struct state *st, const char *key, bool *failed, bool create)
{
	struct user *u = state_user_peek(st, key);
	int r = 0;

	*failed = false;
	if (u != NULL || (st->load_user == NULL && !create))
		return u;
	u = record_alloc(struct user, key);
	u->owner = st;
	if (st->load_user != NULL)
		r = st->load_user(u, st->load_user_ctx);
	if (r == 1 || (r == 0 && create)) {
		HASH_ADD_STR(st->users, key, u);
		return u;
	}
	*failed = r < 0;
	user_destroy(u);
	return NULL;
}

struct user *
state_user_read(struct state *st, const char *key, bool *failed)
{
	return user_read(st, key, failed, false);
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

	return user_read(st, key, &failed, true);
}

bool
state_release_user(struct state *st, struct user *u)
{
	if (u->touched || !user_is_empty(u) || u->generation != 0)
		return false;
	HASH_DEL(st->users, u);
	user_destroy(u);
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
	user_destroy(u);
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
			user_destroy(u);
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
	if (old != NULL && !user_is_empty(old) && state_user_read(st, to, &failed) == NULL &&
	    !failed && (u = state_user(st, to)) != NULL) {
		user_set_name(u, old->name);
		if (old->style_set)
			user_set_style(u, &old->style);
		user_clear_style(old);
		u->saved = old->saved;
		u->nsaved = old->nsaved;
		old->saved = NULL;
		old->nsaved = 0;
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

bool
state_release_channel(struct state *st, struct channel *ch)
{
	if (ch->touched || ch->gm != NULL || ch->generation != 0)
		return false;
	for (size_t i = 0; i < sizeof(ch->mods) / sizeof(ch->mods[0]); i++)
		if (ch->mods[i] != NULL)
			return false;
	HASH_DEL(st->channels, ch);
	channel_free(ch);
	return true;
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
