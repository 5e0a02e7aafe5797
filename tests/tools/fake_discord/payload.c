/*
 * fake_discord/payload: where an interaction happens, and the fields of
 * INTERACTION_CREATE that depend on it, as Discord sends them
 * (docs/interactions/receiving-and-responding, "Interaction Object").
 *
 * A template's "where" says the place (default "guild"):
 *   guild           a text channel of a server that installed the bot
 *   thread          a public thread of such a channel (type 11), its own
 *                   channel id, parent_id the channel's
 *   private_thread  the same, private (type 12)
 *   forum_post      a post of a forum channel (a thread, type 11, whose
 *                   parent is a GUILD_FORUM channel, type 15)
 *   bot_dm          the DM with the bot user (also "dm": true)
 *   group_dm        a group DM (type 3): only a user install reaches it
 *   user_dm         a DM between the invoker and another user: only a
 *                   user install reaches it
 *   foreign         a text channel of a server that never installed the
 *                   bot: only a user install reaches it
 * and "install" how the app is installed there: "guild" (the default
 * where a server install reaches), "user", or "both". A DM or a group DM
 * has no guild_id, no member, a user; its context is 1 (BOT_DM) or 2
 * (PRIVATE_CHANNEL); authorizing_integration_owners has "0" (the guild id,
 * or "0" in the bot's DM) for a server install and "1" (the user's id) for
 * a user install, each only when the command supports that installation
 * (its integration_types). app_permissions in (group) DMs are those the
 * documentation gives. "locale" sets the user's language (en-US).
 *
 * Channel ids: channel n of a stream is 1300000000000000000 + n; its
 * thread 1310000000000000000 + n and private thread 1311000000000000000 + n
 * (parent: the channel), a forum post 1312000000000000000 + n in forum
 * 1320000000000000000 + n; a group DM
 * 1330000000000000000 + n, a DM between users 1340000000000000000 + n, a
 * channel of a foreign server 1350000000000000000 + n (in guild number
 * FOREIGN_GUILD, whose id no READY names), the DM with the bot
 * 1380000000000000000 + n.
 *
 * A command or autocomplete interaction is sent only where Discord would
 * offer the command (payload_fake_offered): registered in the scope the
 * interaction is in (a guild's commands only in that guild's channels),
 * for one of the installations that reach the place (integration_types,
 * default [0]) and for its context (contexts, default every one). A name
 * the registration lacks is still sent, as a client whose command list is
 * stale sends it.
 */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOREIGN_GUILD 900
/* ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE in (group) DMs with other
 * users; USE_EXTERNAL_EMOJIS too in the DM with the bot. */
#define PERMS_PRIVATE "180224"
#define PERMS_BOT_DM  "442368"
#define PERMS_GUILD   "2248473465835073"

static const struct {
	const char *name;
	int kind;
} places[] = {
    {"guild", WHERE_GUILD},
    {"thread", WHERE_THREAD},
    {"private_thread", WHERE_PRIVATE_THREAD},
    {"forum_post", WHERE_FORUM_POST},
    {"bot_dm", WHERE_BOT_DM},
    {"group_dm", WHERE_GROUP_DM},
    {"user_dm", WHERE_USER_DM},
    {"foreign", WHERE_FOREIGN},
};

static bool
server_install_reaches(int kind)
{
	return kind != WHERE_GROUP_DM && kind != WHERE_USER_DM && kind != WHERE_FOREIGN;
}

int
payload_fake_check(const cJSON *t, char *err, size_t errlen)
{
	struct where w;

	return payload_fake_where(t, 1, 1, 0, &w, err, errlen);
}

int
payload_fake_where(const cJSON *t, int channels, int guilds, uint64_t k, struct where *w, char *err,
                   size_t errlen)
{
	const char *where = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "where"));
	const char *install = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "install"));
	const char *locale = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "locale"));
	const cJSON *chan = cJSON_GetObjectItemCaseSensitive(t, "channel");
	uint64_t n = k % (uint64_t)(channels > 0 ? channels : 1);
	size_t i;

	/* "channel": N puts it in channel N whatever its place in the stream. */
	if (cJSON_IsNumber(chan) && chan->valuedouble >= 0 && chan->valuedouble < 100000)
		n = (uint64_t)chan->valuedouble;
	memset(w, 0, sizeof(*w));
	w->kind = WHERE_GUILD;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "dm")))
		w->kind = WHERE_BOT_DM;
	if (where != NULL) {
		for (i = 0; i < sizeof(places) / sizeof(places[0]); i++)
			if (strcmp(places[i].name, where) == 0)
				break;
		if (i == sizeof(places) / sizeof(places[0])) {
			snprintf(err, errlen, "unknown \"where\": %.40s", where);
			return -1;
		}
		w->kind = places[i].kind;
	}
	if (install == NULL || strcmp(install, "guild") == 0) {
		w->guild_install = install != NULL || server_install_reaches(w->kind);
		w->user_install = install == NULL && !server_install_reaches(w->kind);
	} else if (strcmp(install, "user") == 0) {
		w->user_install = true;
	} else if (strcmp(install, "both") == 0) {
		w->guild_install = w->user_install = true;
	} else {
		snprintf(err, errlen, "unknown \"install\": %.40s", install);
		return -1;
	}
	if (w->guild_install && !server_install_reaches(w->kind) && !w->user_install) {
		snprintf(err, errlen,
		         "a server install does not reach a %s: Discord sends no such "
		         "interaction",
		         where);
		return -1;
	}
	if (!server_install_reaches(w->kind))
		w->guild_install = false;
	snprintf(w->locale, sizeof(w->locale), "%s",
	         locale != NULL && strlen(locale) < sizeof(w->locale) ? locale : "en-US");
	w->chan = 1300000000000000000ull + n;
	w->guild = (int)(n % (uint64_t)(guilds > 0 ? guilds : 1));
	switch (w->kind) {
	case WHERE_THREAD:
		w->parent = w->chan;
		w->chan = 1310000000000000000ull + n;
		break;
	case WHERE_PRIVATE_THREAD:
		w->parent = w->chan;
		w->chan = 1311000000000000000ull + n;
		break;
	case WHERE_FORUM_POST:
		w->parent = 1320000000000000000ull + n;
		w->chan = 1312000000000000000ull + n;
		break;
	case WHERE_BOT_DM:
		w->guild = -1;
		w->chan = 1380000000000000000ull + n;
		break;
	case WHERE_GROUP_DM:
		w->guild = -1;
		w->chan = 1330000000000000000ull + n;
		break;
	case WHERE_USER_DM:
		w->guild = -1;
		w->chan = 1340000000000000000ull + n;
		break;
	case WHERE_FOREIGN:
		w->guild = FOREIGN_GUILD;
		w->chan = 1350000000000000000ull + n;
		break;
	default:
		break;
	}
	w->context = w->kind == WHERE_BOT_DM                                 ? 1
	             : w->kind == WHERE_GROUP_DM || w->kind == WHERE_USER_DM ? 2
	                                                                     : 0;
	return 0;
}

/* Whether the list arr (a command's integration_types or contexts) holds
 * v; a missing or null list holds dflt's values (-1: every value). */
static bool
holds(const cJSON *arr, int v, int dflt)
{
	const cJSON *e;

	if (arr == NULL || cJSON_IsNull(arr))
		return dflt < 0 || v == dflt;
	cJSON_ArrayForEach(e, arr)
	{
		if (cJSON_IsNumber(e) && e->valueint == v)
			return true;
	}
	return false;
}

bool
payload_fake_offered(const cJSON *t, int type, struct where *w)
{
	const char *name = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "data"), "name"));
	const cJSON *cmds = rest_fake_commands(F.commands_scope), *c, *found = NULL;
	const char *guilds = strstr(F.commands_scope, "/guilds/");

	if (type == DISCORD_INTERACTION_COMPONENT || type == DISCORD_INTERACTION_MODAL_SUBMIT)
		return true; /* pressed on a message, or a form, the bot sent there */
	cJSON_ArrayForEach(c, cmds)
	{
		const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));

		if (n != NULL && name != NULL && strcmp(n, name) == 0)
			found = c;
	}
	if (found == NULL)
		return true; /* a command list a client has not refreshed yet */
	if (guilds != NULL) {
		/* A guild's commands: in that guild's channels, by its install. */
		uint64_t gid = strtoull(guilds + 8, NULL, 10);

		w->user_install = false;
		return w->guild_install && w->guild >= 0 &&
		       gw_fake_guild_snowflake(w->guild) == gid;
	}
	if (!holds(cJSON_GetObjectItemCaseSensitive(found, "integration_types"), 0, 0))
		w->guild_install = false;
	if (!holds(cJSON_GetObjectItemCaseSensitive(found, "integration_types"), 1, 0))
		w->user_install = false;
	return (w->guild_install || w->user_install) &&
	       holds(cJSON_GetObjectItemCaseSensitive(found, "contexts"), w->context, -1);
}

static const char *
channel_type(int kind)
{
	switch (kind) {
	case WHERE_THREAD:
	case WHERE_FORUM_POST:
		return "11";
	case WHERE_PRIVATE_THREAD:
		return "12";
	case WHERE_BOT_DM:
	case WHERE_USER_DM:
		return "1";
	case WHERE_GROUP_DM:
		return "3";
	default:
		return "0";
	}
}

void
payload_fake_write(struct buf *b, const struct where *w, const char *who, uint64_t user,
                   const char *perms, bool gm_role)
{
	char gid[24] = "";
	bool dm = w->guild < 0;
	const char *sep = "";

	if (!dm)
		snprintf(gid, sizeof(gid), "%" PRIu64, gw_fake_guild_snowflake(w->guild));
	buf_addf(b, "\"context\":%d,\"locale\":\"%s\",\"authorizing_integration_owners\":{",
	         w->context, w->locale);
	if (w->guild_install) {
		buf_addf(b, "\"0\":\"%s\"", dm ? "0" : gid);
		sep = ",";
	}
	if (w->user_install)
		buf_addf(b, "%s\"1\":\"%" PRIu64 "\"", sep, user);
	buf_addf(b, "},\"app_permissions\":\"%" PRIu64 "\",",
	         msgs_fake_app_permissions(w->chan, strtoull(w->kind == WHERE_BOT_DM ? PERMS_BOT_DM
	                                                     : dm                    ? PERMS_PRIVATE
	                                                                             : PERMS_GUILD,
	                                                     NULL, 10)));
	/* The channel, as the partial channel object of the interaction. */
	buf_addf(b, "\"channel\":{\"id\":\"%" PRIu64 "\",\"type\":%s", w->chan,
	         channel_type(w->kind));
	if (!dm)
		buf_addf(b, ",\"guild_id\":\"%s\",\"name\":\"%s\",\"nsfw\":false,\"flags\":0", gid,
		         w->parent != 0 ? "a thread" : "table");
	if (w->parent != 0)
		buf_addf(
		    b,
		    ",\"parent_id\":\"%" PRIu64 "\",\"owner_id\":\"%" PRIu64
		    "\",\"thread_metadata\":{\"archived\":false,\"auto_archive_duration\":1440,"
		    "\"locked\":false,\"archive_timestamp\":\"2024-01-01T00:00:00.000000+00:00\"}",
		    w->parent, user);
	if (w->kind == WHERE_GROUP_DM)
		buf_addf(b, ",\"name\":\"the party\",\"owner_id\":\"%" PRIu64 "\",\"icon\":null",
		         user);
	if (dm)
		buf_addf(b, ",\"last_message_id\":null,\"flags\":0,\"recipients\":[%s]", who);
	buf_adds(b, "},");
	if (dm) {
		buf_addf(b, "\"user\":%s}", who);
		return;
	}
	buf_addf(b,
	         "\"guild_id\":\"%s\",\"guild_locale\":\"en-US\",\"guild\":{\"id\":\"%s\","
	         "\"locale\":\"en-US\",\"features\":[]},\"member\":{\"user\":%s,\"roles\":[",
	         gid, gid, who);
	if (gm_role && w->guild_install)
		buf_addf(b, "\"%" PRIu64 "\"", gw_fake_gm_role_of(w->guild));
	buf_addf(b,
	         "],\"premium_since\":null,\"permissions\":\"%s\",\"pending\":false,\"nick\":null,"
	         "\"mute\":false,\"joined_at\":\"2024-01-01T00:00:00.000000+00:00\",\"flags\":0,"
	         "\"deaf\":false}}",
	         perms != NULL ? perms : "1024");
}
