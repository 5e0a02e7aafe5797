/* discord_answer_gm: an answer's message to its GM; see discord_answer_gm.h. */
#include "bot/discord/discord_answer_gm.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_dm.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_rest.h"
#include "bot/log.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

struct discord_answer_gm {
	struct discord *dc;
	char id[24];         /* the interaction's */
	char *followup_path; /* its webhook, to tell the invoker; or NULL */
	char gm_user[24];    /* the GM */
	char gm_name[64];
	char gm_what[96]; /* what the GM's message is, for the invoker: "your secret roll" */
	bool gm_aside;    /* an aside to the answer (reply_gm_aside), not a secret roll */
	bool command;     /* the interaction is a command's (its @original, its answer) */
	char gm_chan[24]; /* where it goes when the GM takes no DMs, or "" */
	char *dm_body;
	char dm_chan[DISCORD_DM_ID]; /* the DM channel the message went to */
	bool dm_cached;              /* that channel id came from dc->dm */
};

struct discord_answer_gm *
discord_answer_gm_take(struct interact_out *out)
{
	struct discord_answer_gm *g;

	if (out->gm_user[0] == '\0') {
		free(out->dm_body);
		out->dm_body = NULL;
		return NULL;
	}
	g = xcalloc(1, sizeof(*g));
	memcpy(g->gm_user, out->gm_user, sizeof(g->gm_user));
	memcpy(g->gm_name, out->gm_name, sizeof(g->gm_name));
	memcpy(g->gm_what, out->gm_what, sizeof(g->gm_what));
	g->gm_aside = out->gm_aside;
	g->command = out->type == DISCORD_INTERACTION_COMMAND;
	memcpy(g->gm_chan, out->gm_chan, sizeof(g->gm_chan));
	g->dm_body = out->dm_body;
	out->dm_body = NULL;
	return g;
}

void
discord_answer_gm_free(struct discord_answer_gm *g)
{
	if (g == NULL)
		return;
	free(g->followup_path);
	free(g->dm_body);
	free(g);
}

/* The GM's message went, or the invoker was told why not: the answer to
 * the interaction is over, and a restart need not replay it
 * (discord_seqs.h). */
static void
gm_over(struct discord_answer_gm *g)
{
	discord_interaction_over(g->dc, strtoull(g->id, NULL, 10));
	discord_answer_gm_free(g);
}

static void dm_start(struct discord_answer_gm *g);
static void dm_send(struct discord_answer_gm *g);

/* Tells the invoker text by an ephemeral follow-up; then the interaction is over. */
static void
tell_invoker(struct discord_answer_gm *g, const char *text)
{
	struct discord *dc = g->dc;
	cJSON *o;
	char *body;

	if (g->followup_path == NULL || dc->rest == NULL) {
		gm_over(g);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "content", text);
	cJSON_AddNumberToObject(o, "flags", 64);
	cJSON_AddArrayToObject(cJSON_AddObjectToObject(o, "allowed_mentions"), "parse");
	body = json_print(o);
	cJSON_Delete(o);
	dc->stats.followups++;
	discord_rest_call(dc->rest, "POST", g->followup_path, body,
	                  REST_INTERACTION | REST_OPTIONAL, NULL, NULL);
	free(body);
	gm_over(g);
}

/* A player's secret roll went to nobody, learnt only once its answer told
 * the channel that the GM sees it: that message (@original, a command's
 * answer, which Discord shows under the roller's use of the command) is
 * edited to say so. An aside's answer is the channel's own and stays. */
static void
untell_channel(struct discord_answer_gm *g)
{
	struct discord *dc = g->dc;
	char path[4200];

	if (g->gm_aside || !g->command || g->followup_path == NULL || dc->rest == NULL ||
	    strlen(g->followup_path) + 32 > sizeof(path))
		return;
	snprintf(path, sizeof(path), "%s/messages/@original", g->followup_path);
	discord_rest_call(dc->rest, "PATCH", path,
	                  "{\"content\":\"This secret roll went to nobody: the GM takes no direct "
	                  "messages from delver.\",\"allowed_mentions\":{\"parse\":[]}}",
	                  REST_INTERACTION | REST_OPTIONAL, NULL, NULL);
}

/* What the GM's channel set with /gm secret-channel receives, as g's
 * messages to the invoker name it: secret rolls, or, for an aside (what
 * a player's command put behind the GM's screen), that. */
static const char *
gm_chan_for(const struct discord_answer_gm *g)
{
	return g->gm_aside ? "what goes behind their screen" : "secret rolls";
}

/* The message to the GM's channel for secret rolls went, or not. */
static void
on_secret_channel(void *ctx, const struct rest_result *res)
{
	struct discord_answer_gm *g = ctx;
	char text[600];

	if (res->status >= 200 && res->status <= 299) {
		g->dc->stats.dms++;
		snprintf(text, sizeof(text),
		         "The GM, %s, takes no direct messages from delver, so %s went to <#%s>, "
		         "where the GM reads %s.",
		         g->gm_name, g->gm_what, g->gm_chan, gm_chan_for(g));
	} else {
		log_warnx("discord: the %s of interaction %s could not go to channel %s, which "
		          "the GM named with /gm secret-channel (%ld%s%.120s)",
		          g->gm_aside ? "message to the GM" : "secret roll", g->id, g->gm_chan,
		          res->status, res->len > 0 ? ": " : "", res->len > 0 ? res->body : "");
		snprintf(
		    text, sizeof(text),
		    "The GM, %s, takes no direct messages from delver, and <#%s>, where the GM "
		    "reads %s, refused delver's message (Discord answered %ld), so nobody saw %s; "
		    "the GM can let delver post there or name another with /gm secret-channel.",
		    g->gm_name, g->gm_chan, gm_chan_for(g), res->status, g->gm_what);
	}
	tell_invoker(g, text);
}

/* Tells the invoker, by an ephemeral follow-up, that the GM's direct
 * message did not go (status: Discord's answer; closed: the GM takes no
 * direct messages from the bot; known: that was known already, nothing
 * was asked); then the interaction is over. When the GM takes none and set a channel
 * for secret rolls, the message goes there instead, and the invoker is
 * told where. */
static void
dm_refused(struct discord_answer_gm *g, long status, bool closed, bool known)
{
	struct discord *dc = g->dc;
	char text[512], path[64];

	if (closed && g->gm_chan[0] != '\0' && dc->rest != NULL) {
		log_debug("discord: the GM of interaction %s takes no direct messages; the "
		          "message goes to channel %s",
		          g->id, g->gm_chan);
		snprintf(path, sizeof(path), "/channels/%s/messages", g->gm_chan);
		discord_rest_call(dc->rest, "POST", path, g->dm_body, 0, on_secret_channel, g);
		return;
	}
	if (known)
		log_debug("discord: the GM of interaction %s takes no direct messages (known); "
		          "not tried",
		          g->id);
	else
		log_warnx("discord: the direct message to the GM for interaction %s failed "
		          "(%ld%s)",
		          g->id, status, closed ? ": the GM takes no direct messages" : "");
	/* Known before, a secret roll is refused (cmd_roll_secret_to): what
	 * comes here known is an aside, whose line never said the GM sees it,
	 * or a roll made just before the refusal was learnt (left as it is). */
	if (closed && !known)
		untell_channel(g);
	if (closed)
		snprintf(text, sizeof(text),
		         "The GM, %s, takes no direct messages from delver, so nobody saw %s; "
		         "they can allow direct messages from this server's members (Privacy "
		         "Settings) or name a channel for %s with /gm secret-channel%s.",
		         g->gm_name, g->gm_what, gm_chan_for(g),
		         g->gm_aside ? "" : ", or you can roll in the open");
	else
		snprintf(text, sizeof(text),
		         "delver could not send %s to the GM, %s (Discord answered %ld), so nobody "
		         "saw it%s.",
		         g->gm_what, g->gm_name, status,
		         g->gm_aside ? "" : "; roll again in a minute");
	tell_invoker(g, text);
}

static void
on_dm_sent(void *ctx, const struct rest_result *res)
{
	struct discord_answer_gm *g = ctx;

	/* A kept DM channel Discord no longer knows (404, code 10003) is
	 * forgotten and opened again, once. */
	if (res->status == 404 && discord_rest_error_code(res) == DISCORD_ERROR_UNKNOWN_CHANNEL) {
		discord_dm_drop(g->dc->dm, g->gm_user, g->dm_chan);
		if (g->dm_cached && g->dc->rest != NULL) {
			g->dm_cached = false;
			dm_start(g);
			return;
		}
	}
	if (res->status < 200 || res->status > 299) {
		bool closed =
		    res->status == 403 && discord_rest_error_code(res) == DISCORD_ERROR_CANNOT_DM;

		if (closed)
			discord_dm_refuse(g->dc->dm, g->gm_user, g->dm_chan,
			                  (int64_t)uv_now(g->dc->loop));
		dm_refused(g, res->status, closed, false);
		return;
	}
	g->dc->stats.dms++;
	gm_over(g);
}

static void
on_dm_channel(void *ctx, const struct rest_result *res)
{
	struct discord_answer_gm *g = ctx;
	struct discord *dc = g->dc;
	cJSON *j = NULL;
	const char *id = NULL;

	if (res->status >= 200 && res->status <= 299 && res->len > 0) {
		j = cJSON_ParseWithLength(res->body, res->len);
		id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "id"));
	}
	if (id == NULL || !discord_dm_snowflake(id) || dc->rest == NULL) {
		cJSON_Delete(j);
		dm_refused(g, res->status,
		           res->status == 403 &&
		               discord_rest_error_code(res) == DISCORD_ERROR_CANNOT_DM,
		           false);
		return;
	}
	snprintf(g->dm_chan, sizeof(g->dm_chan), "%s", id);
	cJSON_Delete(j);
	discord_dm_put(dc->dm, g->gm_user, g->dm_chan);
	dm_send(g);
}

/* Sends the GM's message to the DM channel g->dm_chan. */
static void
dm_send(struct discord_answer_gm *g)
{
	char path[64];

	snprintf(path, sizeof(path), "/channels/%s/messages", g->dm_chan);
	discord_rest_call(g->dc->rest, "POST", path, g->dm_body, 0, on_dm_sent, g);
}

/* Sends the GM's message to the DM channel with the GM: the one kept from
 * an earlier secret roll, else the one Discord opens (or finds: it answers
 * with the same channel each time). */
static void
dm_start(struct discord_answer_gm *g)
{
	char body[64];

	if (discord_dm_refused(g->dc->dm, g->gm_user, (int64_t)uv_now(g->dc->loop))) {
		dm_refused(g, 403, true, true);
		return;
	}
	if (discord_dm_find(g->dc->dm, g->gm_user, g->dm_chan)) {
		g->dm_cached = true;
		dm_send(g);
		return;
	}
	snprintf(body, sizeof(body), "{\"recipient_id\":\"%s\"}", g->gm_user);
	discord_rest_call(g->dc->rest, "POST", "/users/@me/channels", body, 0, on_dm_channel, g);
}

bool
discord_answer_gm_unreachable(const struct origin *o, const char *user_key)
{
	struct discord *dc = o->name_ctx;

	return dc != NULL && strncmp(user_key, "discord:", 8) == 0 &&
	       discord_dm_refused(dc->dm, user_key + 8, (int64_t)uv_now(dc->loop));
}

void
discord_answer_gm_send(struct discord *dc, struct discord_answer_gm *g, const char *id,
                       char *followup_path)
{
	g->dc = dc;
	snprintf(g->id, sizeof(g->id), "%s", id);
	g->followup_path = followup_path;
	dm_start(g);
}
