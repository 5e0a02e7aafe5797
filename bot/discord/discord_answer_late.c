/* discord_answer_late: interactions replayed too late to answer; see
 * discord_answer_late.h. */
#include "bot/discord/discord_answer_late.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_burst.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_shard.h"
#include "bot/discord/discord_shed.h"
#include "bot/log.h"
#include "commands/core/dispatch.h"
#include "commands/core/request.h"
#include "rules/base/mem.h"

/* A replay that came past Discord's 3 s, not worked out (counted as shed
 * unless GET @original tells it was answered). */
struct late {
	struct discord *dc;
	struct discord_shard *s; /* the shard it was replayed on, or NULL */
	char id[24];
	uint64_t n; /* id as a number, in flight on its shard (0: not) */
	enum discord_unanswered_kind kind;
	struct origin o; /* its channel and user, for the store's probe */
	bool have_origin;
};

/* Where the replay d spent its 3 s: made (its id's time, on this clock by
 * the skew known) before this process started, or after. */
static enum discord_unanswered_kind
late_kind(const struct discord *dc, const char *id)
{
	uint64_t n;
	int64_t made;

	if (id == NULL || !discord_json_snowflake(id, &n))
		return DISCORD_UNANSWERED_LATE_DOWN;
	made = (int64_t)(n >> 22) + SHED_DISCORD_EPOCH_MS +
	       (dc->shed != NULL ? discord_shed_skew_ms(dc->shed) : 0);
	return made < dc->start_wall_ms ? DISCORD_UNANSWERED_LATE_DOWN
	                                : DISCORD_UNANSWERED_LATE_START;
}

/* The store's word on a late replay nobody answered: marked (a process
 * before ran it, then died or was too late to answer), or not (nobody ran
 * it; also when the store cannot tell). */
static void
on_late_probe(struct request *req, void *ctx)
{
	struct late *l = ctx;

	if (request_outcome(req) == REQUEST_REPLAYED)
		discord_unanswered_count(l->dc, DISCORD_UNANSWERED_HANDLED, l->n);
	else
		discord_unanswered_count(l->dc, l->kind, l->n);
	request_free(req);
	discord_burst_check_done(l->dc, l->s, false);
	free(l);
}

/* Discord's word on a late replay: an original response (not a deferral
 * left loading) means an earlier process answered it, and it is counted
 * so; anything else means it went unanswered: shed, as ever. */
static void
on_late_original(void *ctx, const struct rest_result *res)
{
	struct late *l = ctx;
	struct discord *dc = l->dc;
	struct discord_shard *s;
	cJSON *j = NULL;
	const cJSON *flags;
	bool answered = false;

	if (res->status >= 200 && res->status <= 299 &&
	    (j = cJSON_ParseWithLength(res->body, res->len)) != NULL &&
	    (flags = cJSON_GetObjectItemCaseSensitive(j, "flags"),
	     !cJSON_IsNumber(flags) || ((unsigned)flags->valueint & DISCORD_FLAG_LOADING) == 0)) {
		dc->stats.replayed_answered++;
		answered = true;
		log_debug("discord: interaction %s, replayed too late to answer, was answered "
		          "before the restart",
		          l->id);
		if (l->n != 0)
			discord_interaction_over(dc, l->n);
	} else if (l->have_origin && dc->d != NULL && !dc->stopped) {
		/* A request that runs nothing: it reads the interaction's mark
		 * (request.h). */
		struct request *req = request_new(&l->o, (int64_t)time(NULL), on_late_probe, l);

		request_set_key(req, l->id, NULL);
		request_set_replayed(req);
		dispatch_submit(dc->d, req);
		cJSON_Delete(j);
		return;
	} else {
		discord_unanswered_count(dc, l->kind, l->n);
	}
	cJSON_Delete(j);
	s = l->s;
	free(l);
	discord_burst_check_done(dc, s, answered);
}

void
discord_answer_late_replay(struct discord *dc, struct discord_shard *s, const struct cJSON *d)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "id"));
	char *hook;
	char path[2200];
	struct late *l;
	uint64_t n = 0;

	if (discord_interact_is_autocomplete(d)) {
		dc->stats.replayed_autocompletes++;
		log_debug("discord: autocomplete %s, replayed past its 3 s, is dropped",
		          id != NULL ? id : "?");
		return;
	}
	/* In flight until counted and told, or found answered. */
	if (s != NULL && id != NULL && discord_json_snowflake(id, &n) &&
	    dc->late_checks < DISCORD_LATE_CHECKS_MAX)
		discord_shard_interaction(s, n);
	else
		n = 0;
	hook = discord_interact_webhook_of(d);
	if (hook == NULL || id == NULL || strlen(id) >= sizeof(l->id) || dc->rest == NULL) {
		free(hook);
		discord_unanswered_count(dc, late_kind(dc, id), n);
		return;
	}
	if (dc->late_checks >= DISCORD_LATE_CHECKS_MAX) {
		free(hook);
		dc->stats.replayed_unknown++;
		dc->late_unchecked++;
		if (!dc->late_cap_said)
			log_warnx(
			    "discord: more than %d interactions were replayed too late to "
			    "answer since the resume; the others are not checked with Discord, "
			    "so whether an earlier process answered them is not known",
			    DISCORD_LATE_CHECKS_MAX);
		dc->late_cap_said = true;
		return;
	}
	dc->late_checks++;
	l = xcalloc(1, sizeof(*l));
	l->dc = dc;
	l->s = s;
	l->kind = late_kind(dc, id);
	l->n = n;
	snprintf(l->id, sizeof(l->id), "%s", id);
	l->have_origin = discord_interact_origin_of(dc->it, d, &l->o);
	snprintf(path, sizeof(path), "%s/messages/@original", hook);
	free(hook);
	dc->stats.replayed++;
	discord_burst_check_start(s);
	discord_rest_call(dc->rest, "GET", path, NULL, REST_INTERACTION | REST_OPTIONAL,
	                  on_late_original, l);
}

void
discord_answer_late_over(struct discord *dc)
{
	if (dc->late_unchecked > 0)
		log_warnx(
		    "discord: %llu interaction%s replayed too late to answer since the resume "
		    "%s not checked with Discord (past the first %d), so whether %s went "
		    "unanswered is not known; %llu since the start",
		    (unsigned long long)dc->late_unchecked, dc->late_unchecked == 1 ? "" : "s",
		    dc->late_unchecked == 1 ? "was" : "were", DISCORD_LATE_CHECKS_MAX,
		    dc->late_unchecked == 1 ? "it" : "they",
		    (unsigned long long)dc->stats.replayed_unknown);
	dc->late_unchecked = 0;
	dc->late_checks = 0;
	dc->late_cap_said = false;
}
