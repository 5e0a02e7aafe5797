/* discord_roles: the GM role's ids per guild; see discord_roles.h. */
#include "bot/discord/discord_roles.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uthash.h>

#include "bot/discord/discord_json.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#define ROLE_IDS_MAX 8

struct guild_roles {
	uint64_t guild;
	size_t n;
	uint64_t ids[ROLE_IDS_MAX];
	UT_hash_handle hh;
};

struct roles {
	char *name;       /* the role name, or NULL */
	uint64_t role_id; /* the configured role id, or 0 */
	struct guild_roles *guilds;
};

static uint64_t
id_of(const cJSON *j)
{
	uint64_t v;

	return discord_json_snowflake(cJSON_GetStringValue(j), &v) ? v : 0;
}

struct roles *
discord_roles_new(const char *gm_role)
{
	struct roles *r = xcalloc(1, sizeof(*r));
	size_t n = gm_role != NULL ? strlen(gm_role) : 0;

	if (n > 0 && n <= 20 && strspn(gm_role, "0123456789") == n)
		r->role_id = strtoull(gm_role, NULL, 10);
	else if (n > 0)
		r->name = xstrdup(gm_role);
	return r;
}

void
discord_roles_free(struct roles *r)
{
	struct guild_roles *g, *tmp;

	if (r == NULL)
		return;
	HASH_ITER(hh, r->guilds, g, tmp)
	{
		HASH_DEL(r->guilds, g);
		free(g);
	}
	free(r->name);
	free(r);
}

static struct guild_roles *
guild(struct roles *r, uint64_t id, bool create)
{
	struct guild_roles *g;

	HASH_FIND(hh, r->guilds, &id, sizeof(id), g);
	if (g == NULL && create) {
		g = xcalloc(1, sizeof(*g));
		g->guild = id;
		HASH_ADD(hh, r->guilds, guild, sizeof(g->guild), g);
	}
	return g;
}

static void
forget(struct roles *r, uint64_t gid, uint64_t role)
{
	struct guild_roles *g = guild(r, gid, false);

	if (g == NULL)
		return;
	for (size_t i = 0; i < g->n; i++) {
		if (g->ids[i] == role) {
			g->ids[i] = g->ids[--g->n];
			break;
		}
	}
	if (g->n == 0) {
		HASH_DEL(r->guilds, g);
		free(g);
	}
}

/* Adds or removes one role by whether its name is the GM role's. */
static void
learn(struct roles *r, uint64_t gid, const cJSON *role)
{
	uint64_t id = id_of(cJSON_GetObjectItemCaseSensitive(role, "id"));
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(role, "name"));
	struct guild_roles *g;

	if (id == 0 || gid == 0)
		return;
	forget(r, gid, id);
	if (name == NULL || strcasecmp(name, r->name) != 0)
		return;
	g = guild(r, gid, true);
	if (g->n < ROLE_IDS_MAX)
		g->ids[g->n++] = id;
}

void
discord_roles_event(struct roles *r, const char *t, const cJSON *d)
{
	uint64_t gid;
	const cJSON *role;

	if (r->name == NULL)
		return;
	if (strcmp(t, "GUILD_CREATE") == 0 || strcmp(t, "GUILD_UPDATE") == 0 ||
	    strcmp(t, "GUILD_DELETE") == 0) {
		struct guild_roles *g;

		gid = id_of(cJSON_GetObjectItemCaseSensitive(d, "id"));
		if ((g = guild(r, gid, false)) != NULL) {
			HASH_DEL(r->guilds, g);
			free(g);
		}
		if (t[6] == 'D')
			return;
		cJSON_ArrayForEach(role, cJSON_GetObjectItemCaseSensitive(d, "roles"))
		    learn(r, gid, role);
	} else if (strcmp(t, "GUILD_ROLE_CREATE") == 0 || strcmp(t, "GUILD_ROLE_UPDATE") == 0) {
		gid = id_of(cJSON_GetObjectItemCaseSensitive(d, "guild_id"));
		learn(r, gid, cJSON_GetObjectItemCaseSensitive(d, "role"));
	} else if (strcmp(t, "GUILD_ROLE_DELETE") == 0) {
		gid = id_of(cJSON_GetObjectItemCaseSensitive(d, "guild_id"));
		forget(r, gid, id_of(cJSON_GetObjectItemCaseSensitive(d, "role_id")));
	}
}

int
discord_roles_export(const struct roles *r, char *out, size_t cap)
{
	cJSON *root, *guilds;
	const struct guild_roles *g, *tmp;
	char *text;
	bool fits;

	if (cap > 0)
		out[0] = '\0';
	if (r->name == NULL || cap == 0)
		return -1;
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", r->name);
	guilds = cJSON_AddObjectToObject(root, "guilds");
	HASH_ITER(hh, r->guilds, g, tmp)
	{
		char key[24], id[24];
		cJSON *ids = cJSON_CreateArray();

		snprintf(key, sizeof(key), "%" PRIu64, g->guild);
		for (size_t i = 0; i < g->n; i++) {
			snprintf(id, sizeof(id), "%" PRIu64, g->ids[i]);
			cJSON_AddItemToArray(ids, cJSON_CreateString(id));
		}
		cJSON_AddItemToObject(guilds, key, ids);
		text = json_print(root);
		fits = strlen(text) < cap;
		free(text);
		if (!fits) {
			cJSON_DeleteItemFromObjectCaseSensitive(guilds, key);
			break;
		}
	}
	text = json_print(root);
	snprintf(out, cap, "%s", strlen(text) < cap ? text : "");
	free(text);
	cJSON_Delete(root);
	return 0;
}

void
discord_roles_import(struct roles *r, const cJSON *saved)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(saved, "name"));
	const cJSON *g, *id;

	if (r->name == NULL || name == NULL || strcasecmp(name, r->name) != 0)
		return;
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(saved, "guilds"))
	{
		cJSON key = {.valuestring = g->string, .type = cJSON_String};
		uint64_t gid = id_of(&key);
		struct guild_roles *gr;

		if (gid == 0 || guild(r, gid, false) != NULL)
			continue;
		cJSON_ArrayForEach(id, g)
		{
			uint64_t rid = id_of(id);

			if (rid == 0)
				continue;
			gr = guild(r, gid, true);
			if (gr->n < ROLE_IDS_MAX)
				gr->ids[gr->n++] = rid;
		}
	}
}

bool
discord_roles_member_is_gm(const struct roles *r, uint64_t gid, const cJSON *member_roles)
{
	const struct guild_roles *g = NULL;
	const cJSON *role;

	if (r->role_id == 0) {
		if (r->name == NULL)
			return false;
		HASH_FIND(hh, r->guilds, &gid, sizeof(gid), g);
		if (g == NULL)
			return false;
	}
	cJSON_ArrayForEach(role, member_roles)
	{
		uint64_t id = id_of(role);

		if (id == 0)
			continue;
		if (r->role_id != 0 && id == r->role_id)
			return true;
		for (size_t i = 0; g != NULL && i < g->n; i++)
			if (g->ids[i] == id)
				return true;
	}
	return false;
}
