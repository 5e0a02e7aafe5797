/* discord_live_post: a /panel's new panel posted; see discord_live_post.h. */
#include "bot/discord/discord_live_post.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/discord/discord_live.h"
#include "bot/discord/discord_panel.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_rest.h"
#include "bot/log.h"
#include "commands/core/reply.h"
#include "commands/core/request.h"
#include "rules/base/mem.h"

struct discord_live_post {
	struct discord *dc;
	uint64_t chan;
	uint64_t seq;              /* the changes counted when it was rendered */
	char *body;                /* the message to post */
	uint64_t hash;             /* its hash (discord_panel_hash) */
	char server[PANEL_ID_MAX]; /* the guild it is in, "" none */
	bool thread;               /* the channel is a thread */
	bool absent;               /* the bot user is not in the conversation */
	uint64_t perms;            /* the bot's permissions in the channel, when have_perms */
	bool have_perms;
	void (*done)(void *ctx, const char *refusal); /* told what became of it */
	void *done_ctx;
};

/* Why a panel was not posted. The _TOLD causes: no post was tried, the
 * interaction's own data said Discord would refuse it; the others are
 * what Discord, or the road to it, answered a post. */
enum refusal_cause {
	REFUSED_SHED,              /* held back: Discord refused many requests lately */
	REFUSED_UNREACHED,         /* Discord could not be reached, or delver is stopping */
	REFUSED_STATUS,            /* Discord answered another error status */
	REFUSED_CONVERSATION,      /* outside any server: Missing Access */
	REFUSED_CONVERSATION_TOLD, /* outside any server: the bot user is not in it */
	REFUSED_SERVER_TOLD,       /* a server the bot was not added to */
	REFUSED_ACCESS,            /* in a server: Missing Access */
	REFUSED_ACCESS_TOLD,       /* in a server: its permissions lack View Channel */
	REFUSED_SEND,              /* Missing Permissions (or another 403) */
	REFUSED_SEND_TOLD,         /* its permissions lack Send Messages (in Threads) */
};

/* The cause of Discord's answer to p's post: status with JSON error code
 * (0 none); shed: the post was held back. */
static enum refusal_cause
refusal_answered(const struct discord_live_post *p, long status, int code, bool shed)
{
	if (shed)
		return REFUSED_SHED;
	if (status == 0)
		return REFUSED_UNREACHED;
	if (status == 403 && code == DISCORD_ERROR_MISSING_ACCESS)
		return p->server[0] == '\0' ? REFUSED_CONVERSATION : REFUSED_ACCESS;
	return status == 403 ? REFUSED_SEND : REFUSED_STATUS;
}

/* Why the panel could not be posted in p's channel, as one sentence into
 * why; status is Discord's answer, for REFUSED_STATUS. */
static void
refusal(const struct discord_live_post *p, enum refusal_cause cause, long status, char *why,
        size_t len)
{
	const char *send = p->thread ? "Send Messages in Threads" : "Send Messages";

	switch (cause) {
	case REFUSED_SHED:
		snprintf(why, len,
		         "Discord refused many of delver's requests lately, so delver holds back "
		         "and the panel was not posted; run /panel again in a few minutes.");
		break;
	case REFUSED_CONVERSATION:
	case REFUSED_CONVERSATION_TOLD:
		snprintf(
		    why, len,
		    "delver may not post in this conversation (%s), so the panel was not posted: "
		    "it can post only in its own direct messages and in the channels of servers "
		    "it was added to.",
		    cause == REFUSED_CONVERSATION_TOLD ? "it was not added to it"
		                                       : "Discord answered Missing Access");
		break;
	case REFUSED_SERVER_TOLD:
		snprintf(
		    why, len,
		    "delver may not post in this server (it was not added to it), so the panel "
		    "was not posted: it can post only in its own direct messages and in the "
		    "channels of servers it was added to.");
		break;
	case REFUSED_ACCESS:
	case REFUSED_ACCESS_TOLD:
		snprintf(
		    why, len,
		    "delver cannot see this channel (%s), so the panel was not posted: the bot "
		    "must be in this server and have the View Channel and %s permissions here.",
		    cause == REFUSED_ACCESS_TOLD ? "its permissions here lack View Channel"
		                                 : "Discord answered Missing Access",
		    send);
		break;
	case REFUSED_SEND:
	case REFUSED_SEND_TOLD:
		snprintf(why, len,
		         "delver may not post in this channel (%s), so the panel was not posted: "
		         "it needs the %s permission here, as well as View Channel.",
		         cause == REFUSED_SEND_TOLD
		             ? (p->thread ? "its permissions here lack Send Messages in Threads"
		                          : "its permissions here lack Send Messages")
		             : "Discord answered Missing Permissions",
		         send);
		break;
	case REFUSED_UNREACHED:
		snprintf(why, len,
		         "Discord could not be reached, so the panel was not posted; run /panel "
		         "again in a minute.");
		break;
	case REFUSED_STATUS:
		snprintf(why, len,
		         "Discord did not take the panel (it answered %ld), so it was not posted; "
		         "run /panel again in a minute.",
		         status);
		break;
	}
}

static void
on_posted(void *ctx, const struct rest_result *res)
{
	struct discord_live_post *p = ctx;
	cJSON *j = NULL;
	const char *id = NULL;
	char why[400];

	if (res->status >= 200 && res->status <= 299) {
		j = cJSON_ParseWithLength(res->body, res->len);
		id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "id"));
	}
	if (id != NULL && strlen(id) < PANEL_ID_MAX && id[0] != '\0' &&
	    strspn(id, "0123456789") == strlen(id)) {
		discord_live_placed(p->dc, p->chan, id, p->server, p->seq, p->hash);
		p->done(p->done_ctx, NULL);
	} else {
		int code = res->status >= 400 ? discord_rest_error_code(res) : 0;

		if (res->status == 403)
			log_info("discord: the panel could not be posted in channel %" PRIu64
			         " (403, code %d)",
			         p->chan, code);
		else if (!res->shed && res->status != 0)
			log_warnx("discord: the panel could not be posted in channel %" PRIu64
			          " (%ld)",
			          p->chan, res->status);
		refusal(p, refusal_answered(p, res->status, code, res->shed), res->status, why,
		        sizeof(why));
		p->done(p->done_ctx, why);
	}
	cJSON_Delete(j);
	discord_live_post_drop(p);
}

struct discord_live_post *
discord_live_post_new(struct discord *dc, struct request *req)
{
	const struct reply *r = request_reply(req);
	uint64_t chan = discord_panel_chan(request_origin(req)->chan_key), seq;
	struct discord_live_post *p;
	char *body;

	if (!discord_live_running(dc, &seq) || reply_panel_message(r) == NULL ||
	    reply_is_error(r) || chan == 0 ||
	    (body = discord_interact_render_panel(dc->it, r)) == NULL)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->dc = dc;
	p->chan = chan;
	p->seq = seq;
	p->body = body;
	p->hash = discord_panel_hash(body, strlen(body));
	snprintf(p->server, sizeof(p->server), "%s", discord_interact_guild(req));
	p->have_perms = discord_interact_app_permissions(req, &p->perms, &p->thread);
	p->absent = discord_interact_bot_absent(req);
	return p;
}

int
discord_live_post_send(struct discord *dc, struct discord_live_post *p,
                       void (*done)(void *ctx, const char *refusal), void *ctx, char *why,
                       size_t len)
{
	char path[64];
	uint64_t need =
	    DISCORD_PERM_VIEW_CHANNEL |
	    (p->thread ? DISCORD_PERM_SEND_MESSAGES_IN_THREADS : DISCORD_PERM_SEND_MESSAGES);

	if (!discord_live_running(dc, NULL) || dc->rest == NULL) {
		refusal(p, REFUSED_UNREACHED, 0, why, len);
		discord_live_post_drop(p);
		return -1;
	}
	/* Where the bot user is not (a user install's conversation), Create
	 * Message answers 403 Missing Access: not tried, as an invalid request
	 * counts toward Discord's limit. */
	if (p->absent) {
		refusal(p, p->server[0] == '\0' ? REFUSED_CONVERSATION_TOLD : REFUSED_SERVER_TOLD,
		        0, why, len);
		log_info("discord: the panel is not posted in channel %" PRIu64
		         ": the bot was not added there",
		         p->chan);
		discord_live_post_drop(p);
		return -1;
	}
	/* In a server, Discord says what the bot may do in the channel: a post
	 * it would refuse (403, an invalid request) is not tried. Outside any
	 * server app_permissions does not tell. */
	if (p->have_perms && p->server[0] != '\0' && (p->perms & need) != need) {
		refusal(p,
		        (p->perms & DISCORD_PERM_VIEW_CHANNEL) == 0 ? REFUSED_ACCESS_TOLD
		                                                    : REFUSED_SEND_TOLD,
		        0, why, len);
		log_info("discord: the panel is not posted in channel %" PRIu64
		         ": the bot's permissions there lack %s",
		         p->chan,
		         (p->perms & DISCORD_PERM_VIEW_CHANNEL) == 0 ? "View Channel"
		         : p->thread                                 ? "Send Messages in Threads"
		                                                     : "Send Messages");
		discord_live_post_drop(p);
		return -1;
	}
	p->done = done;
	p->done_ctx = ctx;
	snprintf(path, sizeof(path), "/channels/%" PRIu64 "/messages", p->chan);
	discord_rest_call(dc->rest, "POST", path, p->body, 0, on_posted, p);
	free(p->body); /* the call keeps its own copy */
	p->body = NULL;
	return 0;
}

void
discord_live_post_drop(struct discord_live_post *p)
{
	if (p == NULL)
		return;
	free(p->body);
	free(p);
}
