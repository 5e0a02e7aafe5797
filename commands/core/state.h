/*
 * state: every channel's and user's record, in memory.
 *
 * A channel record is keyed by a platform-qualified channel key
 * ("console:<name>", "discord:<channel id>", "irc:<network>:<#channel>"), a
 * user record by a user key ("console:<name>", "discord:<user id>",
 * "irc:<network>:<account or nick>"). Lookups are O(1) (uthash).
 *
 * A record's own accessors are in channel.h (channel_*, with the module
 * slots each game keeps its state in) and user.h (user_*); this header
 * includes both.
 *
 * Every change to a record must be followed by channel_touch() or
 * user_touch(): the dispatcher makes touched records durable (journal)
 * before the reply that acknowledges the change is sent.
 *
 * Ownership: the store owns every record; pointers to records stay valid
 * until state_free(), or the eviction or release of that record.
 */
#ifndef DELVER_STATE_H
#define DELVER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/channel.h"
#include "commands/core/reply.h"
#include "commands/core/user.h"

#define KEY_MAX      128 /* channel and user keys, with the NUL */
#define NAME_MAX_LEN 64  /* display names, with the NUL */

struct state;

struct state *state_new(void);
void state_free(struct state *st);

/* The channel with this key, created empty on first use. A key longer than
 * KEY_MAX - 1 bytes is a programmer error (transports bound their keys).
 * With a loader set, a channel not in memory is first asked of the loader;
 * NULL is returned only when the loader failed (the record exists but cannot
 * be read now: the caller refuses the command, so nothing overwrites it). */
struct channel *state_channel(struct state *st, const char *key);
/* Adds an empty channel with this key, which must not be in memory (for
 * loading from a store whose keys are unique: no lookup, no loader). */
struct channel *state_channel_new(struct state *st, const char *key);
/* The channel with this key in memory, or NULL (never asks the loader). */
struct channel *state_channel_peek(const struct state *st, const char *key);
/* The channel with this key (asking the loader on a miss), or NULL. */
struct channel *state_channel_find(struct state *st, const char *key);
/* The same, telling why there is none: *failed is set when the loader could
 * not read the record (it exists but cannot be used now), cleared when
 * there is no record. Never creates one. */
struct channel *state_channel_read(struct state *st, const char *key, bool *failed);

/*
 * Sets the loader of channels that are not in memory (evicted or not yet
 * loaded; persistence sets it). On a miss, load gets a fresh empty channel
 * with the key and fills it through the setters below; it returns 1 when it
 * found the record (the channel joins the store), 0 when there is none, -1
 * when it could not read it. It must not call the state_ functions.
 */
void state_set_loader(struct state *st, int (*load)(struct channel *fresh, void *ctx), void *ctx);
/*
 * Users: the same for user records. state_user returns the user with this
 * key, asking the user loader on a miss and creating an empty one when
 * there is none; NULL only when the loader failed (the caller refuses the
 * command). state_user_find never creates one; state_user_read tells a
 * loader failure (*failed) from no record; state_user_peek looks in memory
 * only. The loader has the channel loader's contract (1 found, 0 none, -1
 * failed), leaves fresh as it was given when it returns 0 (state_user
 * keeps that record as the new empty user), and must not call the state_
 * functions.
 */
void state_set_user_loader(struct state *st, int (*load)(struct user *fresh, void *ctx), void *ctx);
struct user *state_user(struct state *st, const char *key);
struct user *state_user_find(struct state *st, const char *key);
struct user *state_user_read(struct state *st, const char *key, bool *failed);
struct user *state_user_peek(const struct state *st, const char *key);
/* Forgets u when it holds nothing to keep (user_is_empty), is not touched
 * and has no stored row (generation 0; a row still to delete keeps it until
 * persistence has deleted it): a user is kept in memory only for what it
 * holds, so keys that come and go (an IRC user cycling nicks) leave nothing
 * behind. Returns true when u was freed (u must not be used then). */
bool state_release_user(struct state *st, struct user *u);
/* Forgets a user record (memory only: persistence keeps it). */
void state_evict_user(struct state *st, struct user *u);
/* Forgets every user for which evict returns true, touched ones never;
 * returns how many (memory only: persistence keeps them). */
size_t state_evict_users_if(struct state *st, bool (*evict)(const struct user *, void *),
                            void *ctx);

/*
 * Adoption of records kept under a user's legacy key (IRC users without an
 * account were "irc:<net>:~nick" before they became
 * "irc:<net>:~nick!user@host"): when there is no user record under to, the
 * record under from (its style and saved rolls) moves to it (from keeps an empty record, so no one
 * else adopts it); in ch, the GM seat and every module's references move
 * (see struct chanmod's rekey). Touched records are made durable by the
 * dispatcher. Returns how many references moved (0: nothing to adopt).
 */
int state_adopt(struct state *st, struct channel *ch, const char *from, const char *to);

size_t state_nchannels(const struct state *st);
size_t state_nusers(const struct state *st);

/* Calls fn for every record, in no particular order; fn must not add or
 * remove records. */
void state_each_channel(struct state *st, void (*fn)(struct channel *, void *), void *ctx);
void state_each_user(struct state *st, void (*fn)(struct user *, void *), void *ctx);

/* Hands every record touched since the last call to fn (channels first),
 * and clears their touched marks. Returns the number of records for which
 * fn returned non-zero (changes that could not be made durable). */
int state_flush(struct state *st, int (*chan_fn)(struct channel *, void *),
                int (*user_fn)(struct user *, void *), void *ctx);

/* Forgets a record (memory only: persistence keeps it). */
void state_evict_channel(struct state *st, struct channel *ch);
/* Forgets ch when it holds nothing to keep (no GM, no module state), is
 * not touched and has no stored row, as state_release_user does for users.
 * Returns true when ch was freed (ch must not be used then). */
bool state_release_channel(struct state *st, struct channel *ch);
/* Forgets every channel for which evict returns true, touched ones never;
 * returns how many. evict must not add or remove records. */
size_t state_evict_channels_if(struct state *st, bool (*evict)(const struct channel *, void *),
                               void *ctx);

#endif
