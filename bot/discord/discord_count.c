/* discord_count: how many shards, and starting them; see discord_count.h. */
#include "bot/discord/discord_count.h"

#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_idq.h"
#include "bot/discord/discord_int.h"
#include "bot/discord/discord_live.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_shard.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define GATEWAY_WAIT 60000 /* ms between GET /gateway/bot tries, at most */

/* What to set when Discord refused a count with code, as a sentence's
 * end. */
static void
what_to_set(const struct discord *dc, int code, char *out, size_t len)
{
	if (code == DISCORD_CLOSE_INVALID_SHARD)
		snprintf(
		    out, len,
		    "set [discord] shard_count = auto, or a multiple of the count Discord gave "
		    "this bot (it recommends %d)",
		    dc->recommended);
	else if (dc->recommended > dc->shard_count)
		snprintf(out, len,
		         "set [discord] shard_count = auto, or at least %d, the count Discord "
		         "recommends",
		         dc->recommended);
	else
		snprintf(out, len,
		         "set [discord] shard_count = auto, or the count Discord recommends (%d)",
		         dc->recommended);
}

void
discord_count_refusal(const struct discord *dc, int code, char *out, size_t len)
{
	const char *s = dc->shard_count == 1 ? "" : "s";
	char set[160];

	what_to_set(dc, code, set, sizeof(set));
	if (dc->cfg_count == 0)
		snprintf(out, len,
		         "Discord refused the %d shard%s it recommended (%d); the next start takes "
		         "the count it recommends then",
		         dc->shard_count, s, code);
	else if (code == DISCORD_CLOSE_SHARDING_REQUIRED)
		snprintf(out, len,
		         "Discord requires more than %d shard%s for this bot's guilds (4011): %s",
		         dc->shard_count, s, set);
	else
		snprintf(out, len,
		         "Discord refused %d shard%s (4010: a large bot must run a multiple of the "
		         "count Discord gave it): %s",
		         dc->shard_count, s, set);
}

static void
on_retry_timer(uv_timer_t *t)
{
	discord_count_fetch(t->data);
}

/* Makes and starts this process's shards, once the count is known. */
static void
start_shards(struct discord *dc)
{
	struct discord_shard_opts so = {.count = dc->shard_count,
	                                .token = dc->token,
	                                .gateway_url = dc->gateway_url,
	                                .intents = dc->intents,
	                                .compress = dc->compress,
	                                .state_dir = dc->state_dir,
	                                .state_root = dc->state_root,
	                                .wsctx = dc->wsctx,
	                                .idq = dc->idq};

	if (dc->first < 0) {
		dc->first = 0;
		dc->last = dc->shard_count - 1;
	}
	dc->nshards = dc->last - dc->first + 1;
	dc->shards = xcalloc((size_t)dc->nshards, sizeof(*dc->shards));
	for (int i = 0; i < dc->nshards; i++) {
		so.id = dc->first + i;
		dc->shards[i] = discord_shard_new(dc, &so);
	}
	dc->started = true;
	discord_live_started(dc);
	if (dc->nshards == 1)
		log_info("discord: running shard %d of %d", dc->first, dc->shard_count);
	else
		log_info("discord: running shards %d-%d of %d", dc->first, dc->last,
		         dc->shard_count);
	for (int i = 0; i < dc->nshards; i++)
		discord_shard_start(dc->shards[i]);
}

/* The ledger holds Discord's numbers: the count is settled, or refused
 * before any IDENTIFY when Discord refused it before. */
static void
on_limits(void *ctx, const struct ledger_result *res)
{
	struct discord *dc = ctx;
	char set[160], line[512];

	if (dc->started || dc->stopping)
		return;
	if (res->status == 0 && dc->cfg_count > 0 && res->refused_count >= dc->shard_count &&
	    ((res->refused_code == DISCORD_CLOSE_SHARDING_REQUIRED &&
	      dc->recommended > dc->shard_count) ||
	     (res->refused_code == DISCORD_CLOSE_INVALID_SHARD &&
	      res->refused_count == dc->shard_count &&
	      res->refused_recommended == dc->recommended))) {
		what_to_set(dc, res->refused_code, set, sizeof(set));
		snprintf(line, sizeof(line),
		         "Discord refused %d shard%s (%d) before, and still recommends %d: %s; not "
		         "connecting",
		         res->refused_count, res->refused_count == 1 ? "" : "s", res->refused_code,
		         dc->recommended, set);
		discord_fatal_stop(dc, res->refused_code, line);
		return;
	}
	if (res->status == 0 && dc->cfg_count == 0 && res->refused_count == dc->shard_count &&
	    res->refused_recommended == dc->recommended &&
	    (res->refused_code == DISCORD_CLOSE_SHARDING_REQUIRED ||
	     res->refused_code == DISCORD_CLOSE_INVALID_SHARD)) {
		/* auto: the count Discord recommends now is the one it refused;
		 * a restart asks again, without an IDENTIFY until it changes. */
		snprintf(line, sizeof(line),
		         "Discord refused the %d shard%s it recommends (%d) before, and still "
		         "recommends it; not connecting (the next start asks Discord again)",
		         dc->shard_count, dc->shard_count == 1 ? "" : "s", res->refused_code);
		discord_fatal_stop(dc, 0, line);
		return;
	}
	if (dc->cfg_count > 0 && dc->recommended > dc->cfg_count)
		log_warnx("discord: Discord recommends %d shards for this bot; running %d as "
		          "[discord] shard_count says",
		          dc->recommended, dc->cfg_count);
	start_shards(dc);
}

/* One line for a GET /gateway/bot that brought no shard count: what
 * failed, and when it is tried again (in wait ms). */
static void
gateway_bot_failed(struct discord *dc, const struct rest_result *res, int64_t wait)
{
	const char *url = dc->rest != NULL ? discord_rest_base(dc->rest) : "Discord";

	if (res->status == 0)
		log_warnx("discord: cannot reach %s/gateway/bot: %s; trying again in %lld s", url,
		          res->error != NULL ? res->error : "no answer", (long long)(wait / 1000));
	else if (res->status != 200)
		log_warnx("discord: GET %s/gateway/bot answered %ld; trying again in %lld s", url,
		          res->status, (long long)(wait / 1000));
	else
		log_warnx("discord: GET %s/gateway/bot answered without a shard count; trying "
		          "again in %lld s",
		          url, (long long)(wait / 1000));
}

static void
on_gateway_bot(void *ctx, const struct rest_result *res)
{
	struct discord *dc = ctx;
	cJSON *j;
	const cJSON *ssl, *shards;
	const char *url;
	int64_t wait;

	if (dc->stopping || res->status == 401) /* REST's fatal hook tells of a 401 */
		return;
	j = res->status == 200 ? cJSON_ParseWithLength(res->body, res->len) : NULL;
	shards = cJSON_GetObjectItemCaseSensitive(j, "shards");
	if (!cJSON_IsObject(j) || !cJSON_IsNumber(shards) || shards->valuedouble < 1 ||
	    shards->valuedouble > 65535) {
		cJSON_Delete(j);
		wait = dc->gateway_tries >= 6 ? GATEWAY_WAIT : 1000LL << dc->gateway_tries;
		dc->gateway_tries++;
		gateway_bot_failed(dc, res, wait);
		uv_timer_start(&dc->retry_timer, on_retry_timer, (uint64_t)wait, 0);
		return;
	}
	dc->gateway_tries = 0;
	url = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "url"));
	if (dc->gateway_url == NULL && url != NULL &&
	    (strncmp(url, "wss://", 6) == 0 || strncmp(url, "ws://", 5) == 0))
		dc->gateway_url = xstrdup(url);
	dc->recommended = shards->valueint;
	if (!dc->started) {
		dc->shard_count = dc->cfg_count > 0 ? dc->cfg_count : dc->recommended;
		log_info("discord: Discord recommends %d shard%s for this bot", dc->recommended,
		         dc->recommended == 1 ? "" : "s");
	}
	ssl = cJSON_GetObjectItemCaseSensitive(j, "session_start_limit");
	{
		const cJSON *total = cJSON_GetObjectItemCaseSensitive(ssl, "total");
		const cJSON *rem = cJSON_GetObjectItemCaseSensitive(ssl, "remaining");
		const cJSON *reset = cJSON_GetObjectItemCaseSensitive(ssl, "reset_after");
		const cJSON *mc = cJSON_GetObjectItemCaseSensitive(ssl, "max_concurrency");
		/* Discord does not send it; our fake does, to space IDENTIFYs less
		 * than 5 s apart in tests. */
		const cJSON *iv = cJSON_GetObjectItemCaseSensitive(ssl, "identify_interval_ms");

		discord_idq_limits(
		    dc->idq,
		    cJSON_IsNumber(total) && total->valuedouble >= 1 ? total->valueint : 1000,
		    cJSON_IsNumber(rem) && rem->valuedouble >= 0 ? rem->valueint : 1000,
		    cJSON_IsNumber(reset) && reset->valuedouble >= 0 &&
		            reset->valuedouble <= 2 * 86400000.0
		        ? (int64_t)reset->valuedouble
		        : 0,
		    cJSON_IsNumber(mc) && mc->valuedouble >= 1 && mc->valuedouble <= 1024
		        ? mc->valueint
		        : 1,
		    cJSON_IsNumber(iv) && iv->valuedouble >= 1 && iv->valuedouble <= 60000
		        ? (int64_t)iv->valuedouble
		        : 0,
		    on_limits, dc);
	}
	cJSON_Delete(j);
}

void
discord_count_fetch(struct discord *dc)
{
	if (dc->rest != NULL && !dc->stopping)
		discord_rest_call(dc->rest, "GET", "/gateway/bot", NULL, REST_ESSENTIAL | REST_ONCE,
		                  on_gateway_bot, dc);
}

void
discord_count_refetch(void *ctx)
{
	discord_count_fetch(ctx);
}
