/*
 * state_int: the records' layout, shared by state.c (the tables), channel.c
 * and user.c (the records' accessors). Nothing outside those three files
 * includes it: everyone else sees the opaque structs of state.h.
 */
#ifndef DELVER_STATE_INT_H
#define DELVER_STATE_INT_H

#include <stdint.h>
#include <stdlib.h>

#include <uthash.h>

#include "commands/core/state.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/*
 * Records are sized to what they hold: a server may keep a hundred
 * thousand channels in memory, most with no GM and no game state, so the
 * key is allocated with the record and the GM's key and name only when
 * there is a GM.
 */
/* The module texts kept with a channel (channel.h, channel_text): a text
 * is there while it is valid, NULL otherwise. */
struct channel_texts {
	char *text[CHANMOD_COUNT];
	size_t len[CHANMOD_COUNT];
};

struct channel {
	UT_hash_handle hh;
	struct state *owner;
	struct channel *next_touched;
	void *mods[CHANMOD_COUNT + 1];
	int64_t last_used;
	uint64_t generation;         /* the store's row generation (bot/store/store_backend.h) */
	uint64_t log_saved;          /* the newest log entry the store holds (channel.h) */
	char *gm;                    /* the GM's key, NUL, the GM's name; or NULL */
	struct channel_texts *texts; /* kept module texts, or NULL when none ever was */
	uint32_t changes;            /* channel_touch() calls, and those the store holds */
	uint32_t changes_saved;
	bool touched; /* on the state's list of touched channels */
	char key[];   /* at most KEY_MAX bytes with the NUL */
};

struct user {
	UT_hash_handle hh;
	struct state *owner;
	struct user *next_touched;
	struct thwacko_style style;
	uint64_t generation; /* the store's row generation */
	int64_t last_used;
	bool style_set;
	bool touched;
	char name[NAME_MAX_LEN];
	size_t nsaved;
	struct user_saved *saved; /* nsaved, owned */
	char key[];               /* at most KEY_MAX bytes with the NUL */
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

/* Frees ch's kept module texts (channel.c). */
void channel_drop_texts(struct channel *ch);

#endif
