/* discord_cmds: registration JSON from the command table; see discord_cmds.h. */
#include "bot/discord/discord_cmds.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_proto.h"
#include "rules/base/json.h"
#include "rules/base/utf8.h"

#define DESC_MAX        100
#define CHOICES_MAX     25
#define STRING_LEN_MAX  6000
#define DISCORD_INT_MAX 9007199254740991LL /* 2^53 - 1 */

static void
add_desc(cJSON *o, const char *desc, const char *name)
{
	char d[DESC_MAX + 1];
	const char *s = desc != NULL && *desc != '\0' ? desc : name;
	size_t n = utf8_cut(s, strlen(s), DESC_MAX);

	snprintf(d, sizeof(d), "%.*s", (int)n, s);
	cJSON_AddStringToObject(o, "description", d);
}

static int64_t
clamp(int64_t v)
{
	return v > DISCORD_INT_MAX ? DISCORD_INT_MAX : v < -DISCORD_INT_MAX ? -DISCORD_INT_MAX : v;
}

static cJSON *
option_json(const struct cmd_opt *o)
{
	cJSON *j = cJSON_CreateObject();
	size_t nchoices = 0;

	if (o->choices != NULL)
		while (o->choices[nchoices] != NULL)
			nchoices++;
	cJSON_AddStringToObject(j, "name", o->name);
	add_desc(j, o->desc, o->name);
	switch (o->type) {
	case OPT_INT:
		cJSON_AddNumberToObject(j, "type", DISCORD_OPTION_INTEGER);
		cJSON_AddNumberToObject(j, "min_value", (double)clamp(o->min));
		cJSON_AddNumberToObject(j, "max_value", (double)clamp(o->max));
		break;
	case OPT_BOOL:
		cJSON_AddNumberToObject(j, "type", DISCORD_OPTION_BOOLEAN);
		break;
	case OPT_USER:
		cJSON_AddNumberToObject(j, "type", DISCORD_OPTION_USER);
		break;
	case OPT_STRING:
	default:
		cJSON_AddNumberToObject(j, "type", DISCORD_OPTION_STRING);
		cJSON_AddNumberToObject(j, "max_length",
		                        o->max > 0 && o->max <= STRING_LEN_MAX ? (double)o->max
		                        : o->max > 0                           ? STRING_LEN_MAX
		                                                               : OPT_STRING_MAX);
		break;
	}
	if (o->flags & OPT_REQUIRED)
		cJSON_AddTrueToObject(j, "required");
	if (o->type == OPT_STRING && nchoices > 0 && nchoices <= CHOICES_MAX &&
	    !(o->flags & OPT_AUTOCOMPLETE)) {
		cJSON *arr = cJSON_AddArrayToObject(j, "choices");

		for (size_t i = 0; i < nchoices; i++) {
			cJSON *c = cJSON_CreateObject();

			cJSON_AddStringToObject(c, "name", o->choices[i]);
			cJSON_AddStringToObject(c, "value", o->choices[i]);
			cJSON_AddItemToArray(arr, c);
		}
	} else if (o->type == OPT_STRING && (nchoices > 0 || (o->flags & OPT_AUTOCOMPLETE))) {
		cJSON_AddTrueToObject(j, "autocomplete");
	}
	return j;
}

/* The options of node c: its subcommands, or its own options with the
 * required ones first. */
static void
node_options(const struct command *c, cJSON *parent)
{
	cJSON *arr = cJSON_AddArrayToObject(parent, "options");

	if (c->subs != NULL) {
		for (const struct command *s = c->subs; s->name != NULL; s++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "name", s->name);
			add_desc(o, s->desc, s->name);
			cJSON_AddNumberToObject(o, "type",
			                        s->subs != NULL ? DISCORD_OPTION_SUB_COMMAND_GROUP
			                                        : DISCORD_OPTION_SUB_COMMAND);
			node_options(s, o);
			cJSON_AddItemToArray(arr, o);
		}
		return;
	}
	if (c->opts == NULL)
		return;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; c->opts[i].name != NULL && i < CMD_MAX_OPTS; i++) {
			bool req = (c->opts[i].flags & OPT_REQUIRED) != 0;

			if (req == (pass == 0))
				cJSON_AddItemToArray(arr, option_json(&c->opts[i]));
		}
	}
}

/* Whether only GMs may use c: it is GM-only, or every leaf beneath it is. */
static bool
gm_only(const struct command *c)
{
	if (c->role == ROLE_GM)
		return true;
	if (c->subs == NULL)
		return false;
	for (const struct command *s = c->subs; s->name != NULL; s++)
		if (!gm_only(s))
			return false;
	return true;
}

/* Where o may be used, for a global registration. */
static void
add_reach(cJSON *o, enum discord_cmds_reach reach)
{
	static const int types[] = {DISCORD_INSTALL_GUILD, DISCORD_INSTALL_USER};
	static const int contexts[] = {DISCORD_CONTEXT_GUILD, DISCORD_CONTEXT_BOT_DM,
	                               DISCORD_CONTEXT_PRIVATE_CHANNEL};
	bool user = reach == DISCORD_REACH_USER;

	if (reach == DISCORD_REACH_GUILD)
		return;
	cJSON_AddItemToObject(o, "integration_types", cJSON_CreateIntArray(types, user ? 2 : 1));
	cJSON_AddItemToObject(o, "contexts", cJSON_CreateIntArray(contexts, user ? 3 : 2));
}

cJSON *
discord_cmds_json(const struct command *const *table, enum discord_cmds_reach reach)
{
	cJSON *arr = cJSON_CreateArray();

	if (table == NULL)
		table = command_table;
	for (size_t i = 0; table[i] != NULL; i++) {
		const struct command *c = table[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", c->name);
		cJSON_AddNumberToObject(o, "type", DISCORD_COMMAND_CHAT_INPUT);
		add_desc(o, c->desc, c->name);
		if (gm_only(c))
			cJSON_AddStringToObject(o, "default_member_permissions",
			                        DISCORD_GM_PERMISSIONS);
		add_reach(o, reach);
		node_options(c, o);
		cJSON_AddItemToArray(arr, o);
		/* A short name (/r for /roll) is a command of its own on
		 * Discord, with the same options. */
		if (c->alias != NULL) {
			cJSON *a = cJSON_Duplicate(o, 1);

			cJSON_ReplaceItemInObjectCaseSensitive(a, "name",
			                                       cJSON_CreateString(c->alias));
			cJSON_AddItemToArray(arr, a);
		}
	}
	return arr;
}

char *
discord_cmds_body(const struct command *const *table, enum discord_cmds_reach reach)
{
	cJSON *j = discord_cmds_json(table, reach);
	char *s = json_print(j);

	cJSON_Delete(j);
	return s;
}

void
discord_cmds_hash(const char *body, const char *scope, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = scope; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL; /* separates scope from body */
	for (const char *p = body; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	snprintf(out, 17, "%016" PRIx64, h);
}

/* Fields Discord fills in itself, whatever was registered. */
static bool
discord_owned(const char *key)
{
	static const char *const keys[] = {
	    "id",
	    "application_id",
	    "version",
	    "guild_id",
	    "dm_permission",
	    "default_permission",
	    "contexts",
	    "integration_types",
	    "name_localizations",
	    "description_localizations",
	    "handler",
	    NULL,
	};

	for (size_t i = 0; keys[i] != NULL; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

/* A value Discord may send for a field that was not registered. */
static bool
is_default(const cJSON *v)
{
	return cJSON_IsNull(v) || cJSON_IsFalse(v) ||
	       (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 0) ||
	       (cJSON_IsString(v) && v->valuestring[0] == '\0');
}

static bool same_value(const cJSON *want, const cJSON *have);

/* Whether every member of a is in b (arrays of numbers). */
static bool
within(const cJSON *a, const cJSON *b)
{
	const cJSON *x, *y;

	cJSON_ArrayForEach(x, a)
	{
		bool found = false;

		cJSON_ArrayForEach(y, b) found = found || (cJSON_IsNumber(x) && cJSON_IsNumber(y) &&
		                                           x->valuedouble == y->valuedouble);
		if (!found)
			return false;
	}
	return true;
}

/* The fields Discord treats as sets. */
static bool
same_set(const cJSON *want, const cJSON *have)
{
	return cJSON_IsArray(want) && cJSON_IsArray(have) && within(want, have) &&
	       within(have, want);
}

/* Every field of want equal in have; have's other fields Discord's own or
 * at their default. */
static bool
same_object(const cJSON *want, const cJSON *have)
{
	const cJSON *f;

	if (!cJSON_IsObject(have))
		return false;
	cJSON_ArrayForEach(f, want)
	{
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, f->string);
		bool set = strcmp(f->string, "contexts") == 0 ||
		           strcmp(f->string, "integration_types") == 0;

		if (h == NULL          ? !is_default(f)
		    : set && h != NULL ? !same_set(f, h)
		                       : !same_value(f, h))
			return false;
	}
	cJSON_ArrayForEach(f, have)
	{
		if (cJSON_GetObjectItemCaseSensitive(want, f->string) == NULL &&
		    !discord_owned(f->string) && !is_default(f))
			return false;
	}
	return true;
}

static bool
same_value(const cJSON *want, const cJSON *have)
{
	const cJSON *w, *h;

	if (cJSON_IsObject(want))
		return same_object(want, have);
	if (cJSON_IsArray(want)) {
		if (!cJSON_IsArray(have) || cJSON_GetArraySize(want) != cJSON_GetArraySize(have))
			return false;
		for (w = want->child, h = have->child; w != NULL; w = w->next, h = h->next)
			if (!same_value(w, h))
				return false;
		return true;
	}
	if (cJSON_IsString(want))
		return cJSON_IsString(have) && strcmp(want->valuestring, have->valuestring) == 0;
	if (cJSON_IsNumber(want))
		return cJSON_IsNumber(have) && want->valuedouble == have->valuedouble;
	if (cJSON_IsBool(want))
		return cJSON_IsBool(have) && cJSON_IsTrue(want) == cJSON_IsTrue(have);
	return cJSON_IsNull(want) ? is_default(have) : false;
}

bool
discord_cmds_same(const cJSON *want, const cJSON *have)
{
	const cJSON *w;

	if (!cJSON_IsArray(want) || !cJSON_IsArray(have) ||
	    cJSON_GetArraySize(want) != cJSON_GetArraySize(have))
		return false;
	cJSON_ArrayForEach(w, want)
	{
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "name"));
		const cJSON *h, *match = NULL;

		cJSON_ArrayForEach(h, have)
		{
			const char *hn =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(h, "name"));

			if (name != NULL && hn != NULL && strcmp(name, hn) == 0)
				match = h;
		}
		if (match == NULL || !same_object(w, match))
			return false;
	}
	return true;
}
