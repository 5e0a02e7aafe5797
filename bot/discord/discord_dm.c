/* discord_dm: the DM channels the bot opened, an LRU map; see
 * discord_dm.h. */
#include "bot/discord/discord_dm.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

struct entry {
	char user[DISCORD_DM_ID];
	char chan[DISCORD_DM_ID];
	int64_t refused_at; /* ms; 0: never refused */
	bool refused;
	UT_hash_handle hh;
};

/* uthash keeps insertion order: the head is the least recently used, and
 * a found entry is moved to the tail by deleting and adding it again. */
struct discord_dm {
	struct entry *map;
	size_t max;
};

bool
discord_dm_snowflake(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < DISCORD_DM_ID - 3 && strspn(s, "0123456789") == n;
}

struct discord_dm *
discord_dm_new(size_t max)
{
	struct discord_dm *dm = xcalloc(1, sizeof(*dm));

	dm->max = max > 0 ? max : 1;
	return dm;
}

void
discord_dm_free(struct discord_dm *dm)
{
	struct entry *e, *t;

	if (dm == NULL)
		return;
	HASH_ITER(hh, dm->map, e, t)
	{
		HASH_DEL(dm->map, e);
		free(e);
	}
	free(dm);
}

static struct entry *
lookup(struct discord_dm *dm, const char *user)
{
	struct entry *e = NULL;

	HASH_FIND_STR(dm->map, user, e);
	return e;
}

bool
discord_dm_find(struct discord_dm *dm, const char *user, char chan[DISCORD_DM_ID])
{
	struct entry *e = lookup(dm, user);

	if (e == NULL)
		return false;
	HASH_DEL(dm->map, e);
	HASH_ADD_STR(dm->map, user, e);
	memcpy(chan, e->chan, DISCORD_DM_ID);
	return true;
}

void
discord_dm_put(struct discord_dm *dm, const char *user, const char *chan)
{
	struct entry *e;

	if (!discord_dm_snowflake(user) || !discord_dm_snowflake(chan))
		return;
	e = lookup(dm, user);
	if (e != NULL) {
		HASH_DEL(dm->map, e);
	} else {
		if (HASH_COUNT(dm->map) >= dm->max) {
			struct entry *old = dm->map;

			HASH_DEL(dm->map, old);
			free(old);
		}
		e = xcalloc(1, sizeof(*e));
		memcpy(e->user, user, strlen(user) + 1);
	}
	memcpy(e->chan, chan, strlen(chan) + 1);
	e->refused = false;
	HASH_ADD_STR(dm->map, user, e);
}

void
discord_dm_refuse(struct discord_dm *dm, const char *user, const char *chan, int64_t now_ms)
{
	struct entry *e = lookup(dm, user);

	if (e == NULL || strcmp(e->chan, chan) != 0)
		return;
	e->refused = true;
	e->refused_at = now_ms;
}

bool
discord_dm_refused(struct discord_dm *dm, const char *user, int64_t now_ms)
{
	struct entry *e = lookup(dm, user);

	return e != NULL && e->refused && now_ms - e->refused_at < DISCORD_DM_REFUSED_MS;
}

void
discord_dm_drop(struct discord_dm *dm, const char *user, const char *chan)
{
	struct entry *e = lookup(dm, user);

	if (e == NULL || strcmp(e->chan, chan) != 0)
		return;
	HASH_DEL(dm->map, e);
	free(e);
}

size_t
discord_dm_count(const struct discord_dm *dm)
{
	return HASH_COUNT(dm->map);
}
