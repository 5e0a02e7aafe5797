/* fake_discord/shard: Discord's rules for starting sessions, after its
 * Gateway documentation (docs/events/gateway.mdx: Identifying, Rate
 * Limiting, Sharding, Max Concurrency, Sharding for Large Bots, Get Gateway
 * Bot, Session Start Limit Object):
 *
 *  - Each shard serves at most 2500 guilds: an IDENTIFY whose share of the
 *    bot's guilds is larger is closed with 4011 (sharding required). A
 *    large bot must run a multiple of the count Discord gave it (4010).
 *  - IDENTIFYs are limited per bucket, rate_limit_key = shard_id %
 *    max_concurrency: one per bucket per 5 s ("If you hit this limit, the
 *    Gateway will respond with an Invalid Session (opcode 9)").
 *  - A daily budget of session starts (session_start_limit: total,
 *    remaining, reset_after ms): "Upon hitting this limit, all active
 *    sessions for the app will be terminated, the bot token will be reset"
 *    (here: every connection is closed with 4004 and the token no longer
 *    works, on the gateway or in REST).
 *  - GET /gateway/bot recommends a shard count and tells the budget and
 *    max_concurrency.
 *
 * The test knob --identify-interval shortens the 5 s; GET /gateway/bot
 * then says so in session_start_limit.identify_interval_ms, a field
 * Discord does not send (delver honours it when present). A clock offset
 * (--clock-offset) moves the fake's wall clock, which its snowflakes and
 * its REST Date headers show.
 */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rules/base/json.h"

#define DAY_MS 86400000LL

int64_t
fake_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + F.clock_offset;
}

void
shard_fake_date(char *out, size_t len)
{
	time_t t = (time_t)(fake_wall_ms() / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

void
shard_fake_gateway_bot(char *body, size_t len)
{
	int64_t left = F.reset_at - fake_now();
	char extra[64] = "";

	if (F.identify_interval != 5000)
		snprintf(extra, sizeof(extra), ",\"identify_interval_ms\":%d", F.identify_interval);
	snprintf(body, len,
	         "{\"url\":\"ws://127.0.0.1:%d\",\"shards\":%d,\"session_start_limit\":"
	         "{\"total\":%d,\"remaining\":%d,\"reset_after\":%" PRId64
	         ",\"max_concurrency\":%d%s}}",
	         F.port, F.shards, F.total, F.remaining > 0 ? F.remaining : 0, left > 0 ? left : 0,
	         F.max_concurrency, extra);
}

void
shard_fake_tick(int64_t now)
{
	if (F.reset_at != 0 && now >= F.reset_at) {
		fprintf(stderr, "fake: the session budget resets (%d of %d were left)\n",
		        F.remaining, F.total);
		F.remaining = F.total;
		F.reset_at = now + DAY_MS;
	}
}

int
shard_fake_budget(int total, int remaining, int64_t reset_after_ms)
{
	if (total < 1 || remaining < 0 || remaining > total || reset_after_ms < 1 ||
	    reset_after_ms > DAY_MS)
		return -1;
	F.total = total;
	F.remaining = remaining;
	F.reset_at = fake_now() + reset_after_ms;
	return 0;
}

static void
log_identify(int shard_id, int shard_count, int bucket, const char *outcome)
{
	cJSON *o = cJSON_CreateObject(), *sh;

	cJSON_AddNumberToObject(o, "t", (double)(fake_now() - F.started));
	sh = cJSON_AddArrayToObject(o, "shard");
	cJSON_AddItemToArray(sh, cJSON_CreateNumber(shard_id));
	cJSON_AddItemToArray(sh, cJSON_CreateNumber(shard_count));
	cJSON_AddNumberToObject(o, "bucket", bucket);
	cJSON_AddStringToObject(o, "outcome", outcome);
	if (cJSON_GetArraySize(F.identify_log) < 10000)
		cJSON_AddItemToArray(F.identify_log, o);
	else
		cJSON_Delete(o);
}

/* The budget is overrun: Discord ends every session and resets the
 * token. */
static void
overrun(void)
{
	fake_violation("IDENTIFY past the daily session budget (%d): Discord ends every "
	               "session and resets the token",
	               F.total);
	F.st.budget_overruns++;
	F.token_reset = true;
	for (int i = 0; i < F.nconns; i++) {
		if (F.conns[i]->s != NULL)
			F.conns[i]->s->invalid = true;
		gw_fake_close(F.conns[i], 4004, "the token was reset");
	}
}

enum shard_verdict
shard_fake_admit(struct conn *c, int shard_id, int shard_count)
{
	int64_t now = fake_now();
	int64_t guilds = F.guild_count > 0 ? F.guild_count : F.guilds;
	int bucket = shard_id % F.max_concurrency;

	if (shard_count % F.shard_multiple != 0) {
		/* A large bot must run a multiple of the count Discord gave it. */
		log_identify(shard_id, shard_count, bucket, "4010");
		gw_fake_close(c, 4010, "invalid shard: not a multiple of the large bot's count");
		return SHARD_CLOSED;
	}
	if ((guilds + shard_count - 1) / shard_count > 2500) {
		F.st.refused_4011++;
		log_identify(shard_id, shard_count, bucket, "4011");
		gw_fake_close(c, 4011, "sharding required");
		return SHARD_CLOSED;
	}
	if (F.remaining <= 0) {
		log_identify(shard_id, shard_count, bucket, "overrun");
		overrun();
		return SHARD_CLOSED;
	}
	F.remaining--;
	F.last_identify = now;
	if (F.bucket_last[bucket] != 0 && now - F.bucket_last[bucket] < F.identify_interval) {
		fake_violation("IDENTIFY of shard %d (bucket %d of max_concurrency %d) %" PRId64
		               " ms after the last of its bucket; Discord allows one per %d ms",
		               shard_id, bucket, F.max_concurrency, now - F.bucket_last[bucket],
		               F.identify_interval);
		F.st.identify_op9++;
		log_identify(shard_id, shard_count, bucket, "op9");
		gw_fake_send(c, "{\"t\":null,\"s\":null,\"op\":9,\"d\":false}");
		return SHARD_INVALID;
	}
	F.bucket_last[bucket] = now;
	log_identify(shard_id, shard_count, bucket, "ready");
	return SHARD_READY;
}

char *
shard_fake_identifies(void)
{
	return json_print(F.identify_log);
}
