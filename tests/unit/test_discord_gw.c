/* Tests for bot/discord/discord_gw: the gateway protocol with an injected clock. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_gw.h"
#include "bot/log.h"
#include "rules/base/rng.h"

#define TOKEN         "test.token-value"
#define BACKOFF_LIMIT 70000 /* ms: past any reconnect wait (backoff 60 s, jitter) */
#define SIM_SPACING   5500  /* ms between the slots the simulated coordinator grants */

/* What the session asked the transport to do. */
struct world {
	struct discord_gw *g;
	struct rng *rng;
	int64_t now;
	int connects;
	char url[600];
	int closes, close_code;
	int writes;
	int fatals;
	char fatal[300];
	int fatal_code;
	int events;
	char last_event[64];
	int connect_result;
	/* identify slots (a world made with slots): asked for, given back,
	 * IDENTIFYs written */
	int wants, unused, identified;
};

static int
h_connect(void *ctx, const char *url)
{
	struct world *w = ctx;

	w->connects++;
	snprintf(w->url, sizeof(w->url), "%s", url);
	return w->connect_result;
}

static void
h_close(void *ctx, int code)
{
	struct world *w = ctx;

	w->closes++;
	w->close_code = code;
}

static void
h_want_write(void *ctx)
{
	((struct world *)ctx)->writes++;
}

static void
h_event(void *ctx, const char *t, const cJSON *d)
{
	struct world *w = ctx;

	w->events++;
	snprintf(w->last_event, sizeof(w->last_event), "%s", t);
}

static void
h_fatal(void *ctx, int code, const char *msg)
{
	struct world *w = ctx;

	w->fatal_code = code;
	w->fatals++;
	snprintf(w->fatal, sizeof(w->fatal), "%s", msg);
}

static void
h_want_identify(void *ctx)
{
	((struct world *)ctx)->wants++;
}

static void
h_slot_unused(void *ctx)
{
	((struct world *)ctx)->unused++;
}

static void
h_identified(void *ctx)
{
	((struct world *)ctx)->identified++;
}

static struct world *
world_new_with(bool compress, bool slots)
{
	struct world *w = calloc(1, sizeof(*w));
	struct discord_gw_opts o = {.token = TOKEN,
	                            .gateway_url = "wss://gateway.discord.gg/",
	                            .intents = 1,
	                            .shard_id = 0,
	                            .shard_count = 1,
	                            .compress = compress};
	struct discord_gw_hooks h = {.ctx = w,
	                             .connect = h_connect,
	                             .close = h_close,
	                             .want_write = h_want_write,
	                             .event = h_event,
	                             .fatal = h_fatal,
	                             .identified = h_identified,
	                             .want_identify = slots ? h_want_identify : NULL,
	                             .slot_unused = slots ? h_slot_unused : NULL};

	log_set_level(LOG_LEVEL_ERROR);
	w->rng = rng_new_seeded(7);
	w->g = discord_gw_new(&o, &h, w->rng);
	w->now = 1000000;
	return w;
}

static struct world *
world_new(bool compress)
{
	return world_new_with(compress, false);
}

static int
setup(void **state)
{
	*state = world_new(false);
	return 0;
}

static int
setup_slots(void **state)
{
	*state = world_new_with(false, true);
	return 0;
}

static int
setup_compress(void **state)
{
	*state = world_new(true);
	return 0;
}

static int
teardown(void **state)
{
	struct world *w = *state;

	discord_gw_free(w->g);
	rng_free(w->rng);
	free(w);
	return 0;
}

static void
msg(struct world *w, const char *json)
{
	discord_gw_message(w->g, json, strlen(json), w->now);
}

/* Runs the clock to the session's next wakeup (at most to limit). */
static void
advance(struct world *w, int64_t limit)
{
	int64_t t = discord_gw_next_wakeup(w->g, w->now);

	assert_true(t != INT64_MAX);
	assert_true(t <= limit);
	if (t > w->now)
		w->now = t;
	discord_gw_tick(w->g, w->now);
}

/* The next frame, parsed; NULL when none. */
static cJSON *
frame(struct world *w)
{
	size_t len;
	char *s = discord_gw_next_frame(w->g, w->now, &len);
	cJSON *j;

	if (s == NULL)
		return NULL;
	assert_int_equal(strlen(s), len);
	assert_true(len <= DISCORD_GW_SEND_MAX);
	j = cJSON_Parse(s);
	assert_non_null(j);
	free(s);
	return j;
}

static int
op_of(const cJSON *j)
{
	return cJSON_GetObjectItem(j, "op")->valueint;
}

/* start, connect, HELLO, IDENTIFY, READY. */
static void
to_ready(struct world *w)
{
	cJSON *j;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	assert_int_equal(w->connects, 1);
	assert_string_equal(w->url, "wss://gateway.discord.gg/?v=10&encoding=json");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250},\"s\":null,\"t\":null}");
	j = frame(w);
	assert_int_equal(op_of(j), 2);
	cJSON_Delete(j);
	msg(w, "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"v\":10,\"session_id\":\"sess1\","
	       "\"resume_gateway_url\":\"wss://resume.example/\",\"application\":{\"id\":"
	       "\"111122223333444455\"},\"user\":{\"id\":\"9\",\"username\":\"delver\"}}}");
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
}

static void
test_identify_payload(void **state)
{
	struct world *w = *state;
	cJSON *j, *d;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_IDENTIFYING);
	j = frame(w);
	d = cJSON_GetObjectItem(j, "d");
	assert_int_equal(op_of(j), 2);
	assert_string_equal(cJSON_GetObjectItem(d, "token")->valuestring, TOKEN);
	assert_int_equal(cJSON_GetObjectItem(d, "intents")->valueint, 1);
	assert_string_equal(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(d, "properties"), "os")->valuestring, "linux");
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(d, "shard"), 0)->valueint, 0);
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(d, "shard"), 1)->valueint, 1);
	cJSON_Delete(j);
	assert_null(frame(w));
	/* The first heartbeat is jittered within one interval. */
	assert_true(discord_gw_next_wakeup(w->g, w->now) >= w->now &&
	            discord_gw_next_wakeup(w->g, w->now) < w->now + 41250);
}

static void
test_ready_and_heartbeats(void **state)
{
	struct world *w = *state;
	int64_t first;
	cJSON *j;

	to_ready(w);
	assert_string_equal(discord_gw_session_id(w->g), "sess1");
	assert_string_equal(discord_gw_application_id(w->g), "111122223333444455");
	assert_string_equal(w->last_event, "READY");
	msg(w, "{\"op\":0,\"s\":5,\"t\":\"GUILD_CREATE\",\"d\":{\"id\":\"1\"}}");
	assert_string_equal(w->last_event, "GUILD_CREATE");
	assert_int_equal(discord_gw_seq(w->g), 5);
	advance(w, w->now + 41250);
	first = w->now;
	j = frame(w);
	assert_int_equal(op_of(j), 1);
	assert_int_equal(cJSON_GetObjectItem(j, "d")->valueint, 5);
	cJSON_Delete(j);
	w->now += 30;
	msg(w, "{\"op\":11}");
	assert_int_equal(discord_gw_stats(w->g)->last_ack_ms, 30);
	/* The rhythm: exactly one interval after the first beat. */
	assert_int_equal(discord_gw_next_wakeup(w->g, w->now), first + 41250);
	advance(w, first + 41250);
	j = frame(w);
	assert_int_equal(op_of(j), 1);
	cJSON_Delete(j);
	/* A heartbeat asked for by the server goes at once. */
	msg(w, "{\"op\":11}");
	msg(w, "{\"op\":1,\"d\":null}");
	j = frame(w);
	assert_int_equal(op_of(j), 1);
	cJSON_Delete(j);
	assert_int_equal(discord_gw_stats(w->g)->heartbeats, 3);
}

static void
test_zombie_resumes(void **state)
{
	struct world *w = *state;
	cJSON *j, *d;

	to_ready(w);
	msg(w, "{\"op\":0,\"s\":7,\"t\":\"X\",\"d\":{}}");
	advance(w, w->now + 41250); /* first heartbeat */
	cJSON_Delete(frame(w));
	advance(w, w->now + 41250); /* no ACK came: zombie */
	assert_int_equal(w->closes, 1);
	assert_int_equal(w->close_code, 4000);
	assert_int_equal(discord_gw_stats(w->g)->zombies, 1);
	assert_null(frame(w));
	discord_gw_closed(w->g, -1, w->now);
	advance(w, w->now + 250);
	assert_int_equal(w->connects, 2);
	assert_string_equal(w->url, "wss://resume.example/?v=10&encoding=json");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	d = cJSON_GetObjectItem(j, "d");
	assert_int_equal(op_of(j), 6);
	assert_string_equal(cJSON_GetObjectItem(d, "session_id")->valuestring, "sess1");
	assert_int_equal(cJSON_GetObjectItem(d, "seq")->valueint, 7);
	assert_string_equal(cJSON_GetObjectItem(d, "token")->valuestring, TOKEN);
	cJSON_Delete(j);
	/* Replayed events flow before RESUMED. */
	msg(w, "{\"op\":0,\"s\":8,\"t\":\"INTERACTION_CREATE\",\"d\":{}}");
	assert_string_equal(w->last_event, "INTERACTION_CREATE");
	msg(w, "{\"op\":0,\"s\":null,\"t\":\"RESUMED\",\"d\":{}}");
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	assert_int_equal(discord_gw_seq(w->g), 8);
}

/* A sequence past what 15 significant digits hold goes back to Discord
 * digit for digit in RESUME (cJSON's printer wrote 7777777770499381 as
 * 7.77777777049938e+15, which reads back as ...380). */
static void
test_resume_seq_exact(void **state)
{
	struct world *w = *state;
	char *s;
	size_t len;

	to_ready(w);
	msg(w, "{\"op\":0,\"s\":7777777770499381,\"t\":\"X\",\"d\":{}}");
	assert_true(discord_gw_seq(w->g) == INT64_C(7777777770499381));
	advance(w, w->now + 41250);
	cJSON_Delete(frame(w));
	advance(w, w->now + 41250); /* no ACK: a zombie, resumed */
	discord_gw_closed(w->g, -1, w->now);
	advance(w, w->now + 250);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	s = discord_gw_next_frame(w->g, w->now, &len);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"op\":6,"));
	assert_non_null(strstr(s, "\"seq\":7777777770499381}"));
	free(s);
}

/* A heartbeat the transport never takes (a socket that cannot write):
 * at the next beat the connection is dropped and resumed, as when an ACK
 * is missing. */
static void
test_unwritten_heartbeat_reconnects(void **state)
{
	struct world *w = *state;

	to_ready(w);
	advance(w, w->now + 41250); /* the first heartbeat is queued, never taken */
	assert_int_equal(w->closes, 0);
	advance(w, w->now + 41250);
	assert_int_equal(w->closes, 1);
	assert_int_equal(w->close_code, DISCORD_GW_ZOMBIE_CODE);
	assert_int_equal(discord_gw_stats(w->g)->zombies, 1);
	assert_int_equal(discord_gw_stats(w->g)->heartbeats, 0);
}

/* With compression, every URL asks for it: the first, a resume's and a
 * new session's. */
static void
test_compress_in_every_url(void **state)
{
	struct world *w = *state;
	cJSON *j;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	assert_string_equal(w->url,
	                    "wss://gateway.discord.gg/?v=10&encoding=json&compress=zlib-stream");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	cJSON_Delete(frame(w));
	msg(w, "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"session_id\":\"sess1\","
	       "\"resume_gateway_url\":\"wss://resume.example/\"}}");
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	discord_gw_closed(w->g, -1, w->now);
	advance(w, w->now + 1000);
	assert_int_equal(w->connects, 2);
	assert_string_equal(w->url,
	                    "wss://resume.example/?v=10&encoding=json&compress=zlib-stream");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	assert_int_equal(op_of(j), 6);
	cJSON_Delete(j);
	discord_gw_closed(w->g, 4009, w->now); /* session timed out: a new one */
	advance(w, w->now + 60000);
	assert_int_equal(w->connects, 3);
	assert_string_equal(w->url,
	                    "wss://gateway.discord.gg/?v=10&encoding=json&compress=zlib-stream");
}

static void
test_reconnect_op7(void **state)
{
	struct world *w = *state;

	to_ready(w);
	msg(w, "{\"op\":7,\"d\":null}");
	assert_int_equal(w->close_code, 4000);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_CLOSING);
	/* Whatever code the close carries, the plan was to resume. */
	discord_gw_closed(w->g, 1000, w->now);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_WAIT_CONNECT);
	advance(w, w->now + 250);
	assert_string_equal(w->url, "wss://resume.example/?v=10&encoding=json");
}

static void
test_invalid_session(void **state)
{
	struct world *w = *state;
	int64_t closed_at;
	cJSON *j;

	to_ready(w);
	msg(w, "{\"op\":9,\"d\":true}");
	discord_gw_closed(w->g, -1, w->now);
	advance(w, w->now + 250);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	assert_int_equal(op_of(j), 6);
	cJSON_Delete(j);
	/* d false: a new session after 1-5 s, at the gateway URL. */
	msg(w, "{\"op\":9,\"d\":false}");
	assert_null(discord_gw_session_id(w->g));
	discord_gw_closed(w->g, -1, w->now);
	closed_at = w->now;
	assert_true(discord_gw_next_wakeup(w->g, w->now) >= closed_at + 1000);
	assert_true(discord_gw_next_wakeup(w->g, w->now) <= closed_at + 5000 + 5000);
	advance(w, closed_at + 10000);
	assert_string_equal(w->url, "wss://gateway.discord.gg/?v=10&encoding=json");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	assert_int_equal(op_of(j), 2);
	cJSON_Delete(j);
	assert_int_equal(discord_gw_stats(w->g)->identifies, 2);
}

/* A new session asks for a slot before it connects, and identifies at
 * HELLO with it; the IDENTIFY's write is told (the coordinator's spacing
 * counts from it). */
static void
test_slot_before_connect(void **state)
{
	struct world *w = *state;
	cJSON *j;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	assert_int_equal(w->wants, 1);
	assert_int_equal(w->connects, 0);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_WAIT_SLOT);
	assert_int_equal(discord_gw_next_wakeup(w->g, w->now), INT64_MAX); /* it waits */
	w->now += 7000;
	discord_gw_grant(w->g, w->now);
	assert_int_equal(w->connects, 1);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	assert_int_equal(w->identified, 0);
	j = frame(w);
	assert_int_equal(op_of(j), 2);
	cJSON_Delete(j);
	assert_int_equal(w->identified, 1);
	assert_int_equal(w->wants, 1);
	assert_int_equal(w->unused, 0);
}

/* A slot granted longer ago than its lease (minus the margin) when HELLO
 * comes is given back and another asked for; the connection waits for it,
 * heartbeating. */
static void
test_slot_expired_at_hello(void **state)
{
	struct world *w = *state;
	cJSON *j;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	discord_gw_grant(w->g, w->now);
	w->now += DISCORD_GW_SLOT_LEASE - DISCORD_GW_SLOT_MARGIN + 1;
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	assert_null(frame(w));
	assert_int_equal(w->unused, 1);
	assert_int_equal(w->wants, 2);
	discord_gw_grant(w->g, w->now);
	j = frame(w);
	assert_int_equal(op_of(j), 2);
	cJSON_Delete(j);
	assert_int_equal(w->identified, 1);
}

/* A connection lost before its IDENTIFY gives the slot back; the next
 * attempt asks again. A grant nobody waits for any more (stopped) is
 * given back at once. A RESUME needs no slot. */
static void
test_slot_given_back(void **state)
{
	struct world *w = *state;
	cJSON *j;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	discord_gw_grant(w->g, w->now);
	discord_gw_closed(w->g, -1, w->now);
	assert_int_equal(w->unused, 1);
	advance(w, w->now + BACKOFF_LIMIT);
	assert_int_equal(w->wants, 2);
	discord_gw_grant(w->g, w->now);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	cJSON_Delete(frame(w));
	msg(w, "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"session_id\":\"s1\"}}");
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	/* a resume: no slot asked for */
	discord_gw_closed(w->g, 4000, w->now);
	advance(w, w->now + 1000);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	assert_int_equal(op_of(j), 6);
	cJSON_Delete(j);
	assert_int_equal(w->wants, 2);
	/* stopped while a slot was asked for: the grant goes back */
	discord_gw_closed(w->g, 4009, w->now);
	advance(w, w->now + BACKOFF_LIMIT);
	assert_int_equal(w->wants, 3);
	discord_gw_stop(w->g, false);
	discord_gw_grant(w->g, w->now);
	assert_int_equal(w->unused, 2);
	assert_int_equal(w->identified, 1);
}

/* After a close: runs the clock to the reconnect (at most to limit), opens
 * the connection, says HELLO and returns the op of the client's answer. */
static int
reconnect_op(struct world *w, int64_t limit)
{
	cJSON *j;
	int op;

	discord_gw_closed(w->g, DISCORD_GW_ZOMBIE_CODE, w->now);
	advance(w, limit);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	op = op_of(j);
	cJSON_Delete(j);
	return op;
}

/* An abort resumes; the same abort again before any new event means the
 * replay carries what broke the connection, so a new session starts. */
static void
test_repeated_abort_starts_new_session(void **state)
{
	struct world *w = *state;
	const char *why = "the gateway sent a message over 8388608 bytes";

	to_ready(w);
	discord_gw_abort(w->g, why, w->now);
	assert_int_equal(reconnect_op(w, w->now + 1000), 6); /* RESUME */
	assert_string_equal(w->url, "wss://resume.example/?v=10&encoding=json");
	/* Progress (an event) in between: still a resume. */
	msg(w, "{\"op\":0,\"s\":2,\"t\":\"RESUMED\",\"d\":{}}");
	discord_gw_abort(w->g, why, w->now);
	assert_int_equal(reconnect_op(w, w->now + 1000), 6);
	assert_string_equal(discord_gw_session_id(w->g), "sess1");
	/* The replay breaks it again at the same sequence: a new session. */
	discord_gw_abort(w->g, why, w->now);
	assert_null(discord_gw_session_id(w->g));
	assert_int_equal(reconnect_op(w, w->now + BACKOFF_LIMIT), 2); /* IDENTIFY */
	assert_string_equal(w->url, "wss://gateway.discord.gg/?v=10&encoding=json");
}

static void
test_fatal_codes(void **state)
{
	static const int fatal[] = {4004, 4010, 4011, 4012, 4013, 4014};

	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct world *w;

		setup((void **)&w);
		to_ready(w);
		discord_gw_closed(w->g, fatal[i], w->now);
		assert_int_equal(discord_gw_state(w->g), DISCORD_GW_STOPPED);
		assert_null(discord_gw_session_id(w->g)); /* not to be resumed after a restart */
		assert_int_equal(w->fatals, 1);
		assert_string_equal(w->fatal, discord_gw_fatal_reason(fatal[i]));
		assert_int_equal(w->fatal_code, fatal[i]);
		assert_int_equal(discord_gw_next_wakeup(w->g, w->now), INT64_MAX);
		teardown((void **)&w);
	}
	assert_string_equal(discord_gw_fatal_reason(4004),
	                    "token rejected (4004): check the token [discord] token_source names");
	assert_null(discord_gw_fatal_reason(4000));
	assert_null(discord_gw_fatal_reason(4007));
}

static void
test_resumable_codes(void **state)
{
	static const int codes[] = {-1, 1000, 1001, 1006, 4000, 4001, 4002, 4003, 4005, 4008};

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		struct world *w;

		setup((void **)&w);
		to_ready(w);
		discord_gw_closed(w->g, codes[i], w->now);
		assert_int_equal(w->fatals, 0);
		advance(w, w->now + 1000);
		assert_string_equal(w->url, "wss://resume.example/?v=10&encoding=json");
		teardown((void **)&w);
	}
}

static void
test_backoff_grows(void **state)
{
	struct world *w = *state;
	int64_t prev_max = 0;

	to_ready(w);
	discord_gw_closed(w->g, -1, w->now);
	for (int attempt = 0; attempt < 9; attempt++) {
		int64_t closed_at, wait, lo, hi;

		advance(w, w->now + 60000);
		discord_gw_closed(w->g, -1, w->now); /* failed before READY */
		closed_at = w->now;
		wait = discord_gw_next_wakeup(w->g, w->now) - closed_at;
		hi = attempt >= 6 ? 60000 : (int64_t)1000 << attempt;
		lo = hi / 2;
		assert_true(wait >= lo && wait <= hi);
		assert_true(hi >= prev_max);
		prev_max = hi;
	}
}

static void
test_send_budget(void **state)
{
	struct world *w = *state;
	int sent = 0;
	char *s;
	size_t len;

	to_ready(w);
	/* The server asks for 200 heartbeats at once: 120 go out. */
	for (int i = 0; i < 200; i++) {
		msg(w, "{\"op\":1}");
		while ((s = discord_gw_next_frame(w->g, w->now, &len)) != NULL) {
			sent++;
			free(s);
		}
	}
	assert_int_equal(sent, DISCORD_GW_BUDGET - 1); /* the IDENTIFY used one */
	/* The budget refills as the window slides; the wakeup says when. */
	msg(w, "{\"op\":1}");
	assert_null(discord_gw_next_frame(w->g, w->now, &len));
	assert_true(discord_gw_next_wakeup(w->g, w->now) <= w->now + DISCORD_GW_BUDGET_WINDOW);
	w->now += DISCORD_GW_BUDGET_WINDOW;
	s = discord_gw_next_frame(w->g, w->now, &len);
	assert_non_null(s);
	free(s);
}

/*
 * A Discord that answers at once, on the virtual clock, for a session's
 * whole life over hours. It drives the session as discord_ws does: the
 * timer runs discord_gw_tick() at discord_gw_next_wakeup() and re-arms from there, before
 * any write; frames are taken only after a want_write. Right after every
 * tick the next wakeup must lie in the future: a wakeup at or before now is
 * a timer armed at 0 from its own callback, the spin that made the bot deaf
 * once a connection was older than the send window.
 */
struct sim {
	struct world *w;
	int connects_seen, closes_seen, writes_seen;
	bool refuse;     /* connections fail at once */
	bool silent;     /* no HELLO */
	bool ack;        /* heartbeats are ACKed */
	int64_t seq;     /* the server's last sequence */
	int64_t last_hb; /* this connection's last heartbeat, or -1 */
	int64_t min_gap, max_gap;
	int heartbeats, identifies, resumes, hellos;
	int64_t last_identify_at;
	/* the coordinator's part: slots asked for are granted SIM_SPACING
	 * after the last one */
	int wants_seen;
	int64_t grant_at, last_grant;
	long wakeups;
	int64_t sends[DISCORD_GW_BUDGET + 1]; /* ring of send times, to check the budget */
	size_t nsends;
};

static void
sim_budget_check(struct sim *s, int64_t now)
{
	/* The 121st send back must be a full window old. */
	size_t k = s->nsends % (DISCORD_GW_BUDGET + 1);

	if (s->nsends > DISCORD_GW_BUDGET)
		assert_true(now - s->sends[k] >= DISCORD_GW_BUDGET_WINDOW);
	s->sends[k] = now;
	s->nsends++;
}

static void
sim_event(struct sim *s, const char *t)
{
	char m[160];

	s->seq++;
	snprintf(m, sizeof(m), "{\"op\":0,\"s\":%lld,\"t\":\"%s\",\"d\":{}}", (long long)s->seq, t);
	msg(s->w, m);
}

/* The server's answer to one frame from the client. */
static void
sim_frame(struct sim *s, const cJSON *j)
{
	struct world *w = s->w;

	switch (op_of(j)) {
	case 1:
		s->heartbeats++;
		if (s->last_hb >= 0) {
			int64_t gap = w->now - s->last_hb;

			if (s->min_gap < 0 || gap < s->min_gap)
				s->min_gap = gap;
			if (gap > s->max_gap)
				s->max_gap = gap;
		}
		s->last_hb = w->now;
		if (s->ack)
			msg(w, "{\"op\":11}");
		break;
	case 2:
		s->identifies++;
		if (s->last_identify_at > INT64_MIN)
			assert_true(w->now - s->last_identify_at >= 5000);
		s->last_identify_at = w->now;
		s->seq = 0;
		s->seq++;
		msg(w, "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"session_id\":\"sim\","
		       "\"resume_gateway_url\":\"wss://resume.example\",\"application\":{\"id\":"
		       "\"1\"}}}");
		break;
	case 6:
		s->resumes++;
		assert_int_equal(
		    (int64_t)cJSON_GetObjectItem(cJSON_GetObjectItem(j, "d"), "seq")->valuedouble,
		    s->seq);
		sim_event(s, "RESUMED");
		break;
	default:
		fail_msg("unexpected op %d", op_of(j));
	}
}

/* What the transport does after any call into the session. */
static void
sim_react(struct sim *s)
{
	struct world *w = s->w;
	bool more = true;

	while (more) {
		more = false;
		if (w->closes > s->closes_seen) {
			s->closes_seen = w->closes;
			discord_gw_closed(w->g, w->close_code, w->now);
			more = true;
		}
		if (w->connects > s->connects_seen) {
			s->connects_seen = w->connects;
			s->last_hb = -1;
			s->nsends = 0; /* the budget is per connection */
			if (s->refuse) {
				discord_gw_closed(w->g, -1, w->now);
			} else {
				discord_gw_opened(w->g, w->now);
				if (!s->silent) {
					s->hellos++;
					msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
				}
			}
			more = true;
		}
		if (w->writes > s->writes_seen) {
			cJSON *j;

			s->writes_seen = w->writes;
			while ((j = frame(w)) != NULL) {
				sim_budget_check(s, w->now);
				sim_frame(s, j);
				cJSON_Delete(j);
			}
			more = true;
		}
	}
}

/* A slot asked for: granted SIM_SPACING after the last one. */
static void
sim_want(struct sim *s)
{
	struct world *w = s->w;

	if (w->wants > s->wants_seen) {
		s->wants_seen = w->wants;
		s->grant_at = s->last_grant == INT64_MIN || w->now >= s->last_grant + SIM_SPACING
		                  ? w->now
		                  : s->last_grant + SIM_SPACING;
	}
}

/* Runs the session's timer up to until (not past it). */
static void
sim_run(struct sim *s, int64_t until)
{
	struct world *w = s->w;

	sim_react(s);
	sim_want(s);
	for (;;) {
		int64_t t = discord_gw_next_wakeup(w->g, w->now);

		if (s->grant_at < t)
			t = s->grant_at;
		/* Due already (a connect right after a close): runs at once. */
		if (t > until)
			break;
		if (t > w->now)
			w->now = t;
		if (t == s->grant_at) {
			s->grant_at = INT64_MAX;
			s->last_grant = w->now;
			discord_gw_grant(w->g, w->now);
			sim_react(s);
			sim_want(s);
			continue;
		}
		s->wakeups++;
		discord_gw_tick(w->g, w->now);
		/* discord_ws re-arms here, before the socket is writable. */
		assert_true(discord_gw_next_wakeup(w->g, w->now) > w->now);
		sim_react(s);
		sim_want(s);
	}
	w->now = until;
}

static void
sim_init(struct sim *s, struct world *w)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->ack = true;
	s->last_hb = -1;
	s->min_gap = -1;
	s->last_identify_at = INT64_MIN;
	s->grant_at = INT64_MAX;
	s->last_grant = INT64_MIN;
	discord_gw_start(w->g, w->now);
	sim_run(s, w->now + 1);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
}

/* Hours of a quiet connection with an event every 5 s: every heartbeat is
 * exactly one interval after the last, the timer wakes for nothing else. */
static void
test_wakeups_quiet_hours(void **state)
{
	struct world *w = *state;
	struct sim s;
	int64_t end;

	sim_init(&s, w);
	end = w->now + 4 * 3600 * 1000LL;
	while (w->now < end) {
		sim_run(&s, w->now + 5000);
		sim_event(&s, "MESSAGE_CREATE");
	}
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	assert_int_equal(s.min_gap, 41250);
	assert_int_equal(s.max_gap, 41250);
	assert_true(s.heartbeats >= 4 * 3600 * 1000LL / 41250 - 1);
	assert_true(s.wakeups <= s.heartbeats + 1);
	assert_int_equal(s.identifies, 1);
	assert_int_equal(discord_gw_stats(w->g)->zombies, 0);
}

/* The send budget on a connection hours old: the server asks for a
 * heartbeat every 100 ms for two minutes. 120 sends per 60 s go and no
 * more; a held-back frame wakes the timer exactly when the oldest send that
 * counts leaves the window, and the write is asked for then. */
static void
test_wakeups_budget_on_old_connection(void **state)
{
	struct world *w = *state;
	struct sim s;
	int before;
	long wake_before;

	sim_init(&s, w);
	sim_run(&s, w->now + 2 * 3600 * 1000LL);
	before = s.heartbeats;
	wake_before = s.wakeups;
	for (int i = 0; i < 1200; i++) {
		msg(w, "{\"op\":1}");
		sim_run(&s, w->now + 100);
	}
	sim_run(&s, w->now + 60000);
	/* Two minutes of requests (queued ones beyond the outbox are dropped):
	 * at most 120 in any window (sim_budget_check), and the budget is
	 * used, not left idle. */
	assert_true(s.heartbeats - before >= 2 * DISCORD_GW_BUDGET);
	assert_true(s.heartbeats - before <= 3 * DISCORD_GW_BUDGET + 3);
	/* Each wakeup let a frame go or was a heartbeat due. */
	assert_true(s.wakeups - wake_before <= s.heartbeats - before + 10);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
}

/* A frame held back by a spent budget: the wakeup is the moment the
 * 115th-last other send leaves the window, never now or before. */
static void
test_budget_wakeup_exact(void **state)
{
	struct world *w = *state;
	int64_t t0;
	size_t len;
	char *f;

	to_ready(w); /* the IDENTIFY went at now */
	w->now += 3 * 3600 * 1000LL;
	discord_gw_tick(w->g, w->now); /* one heartbeat queued (age: hours) */
	free(discord_gw_next_frame(w->g, w->now, &len));
	msg(w, "{\"op\":11}");
	t0 = w->now;
	/* 118 more server-asked heartbeats, one per 10 ms: 119 sends so far in
	 * this window, plus the IDENTIFY hours ago. */
	for (int i = 0; i < 118; i++) {
		w->now += 10;
		msg(w, "{\"op\":1}");
		f = discord_gw_next_frame(w->g, w->now, &len);
		assert_non_null(f);
		free(f);
		msg(w, "{\"op\":11}");
		assert_int_equal(discord_gw_next_wakeup(w->g, w->now), t0 + 41250);
	}
	/* The 120th goes; the 121st waits for the first of them to age out. */
	w->now += 10;
	msg(w, "{\"op\":1}");
	free(discord_gw_next_frame(w->g, w->now, &len));
	msg(w, "{\"op\":11}");
	w->now += 10;
	msg(w, "{\"op\":1}");
	assert_null(discord_gw_next_frame(w->g, w->now, &len));
	assert_int_equal(discord_gw_next_wakeup(w->g, w->now),
	                 t0 + DISCORD_GW_BUDGET_WINDOW < t0 + 41250 ? t0 + DISCORD_GW_BUDGET_WINDOW
	                                                            : t0 + 41250);
	/* At the heartbeat (41.25 s) the budget is still spent: the beat waits
	 * too, and the next wakeup is when the window frees. */
	w->now = t0 + 41250;
	w->writes = 0;
	discord_gw_tick(w->g, w->now);
	assert_null(discord_gw_next_frame(w->g, w->now, &len));
	assert_int_equal(discord_gw_next_wakeup(w->g, w->now), t0 + DISCORD_GW_BUDGET_WINDOW);
	w->now = t0 + DISCORD_GW_BUDGET_WINDOW;
	w->writes = 0;
	discord_gw_tick(w->g, w->now);
	assert_true(w->writes > 0); /* the transport is asked to write */
	f = discord_gw_next_frame(w->g, w->now, &len);
	assert_non_null(f);
	assert_non_null(strstr(f, "\"op\":1"));
	free(f);
	assert_true(discord_gw_next_wakeup(w->g, w->now) > w->now);
}

/* The reconnect paths on a session hours old: a zombie resumes, a 4009
 * identifies once the (simulated) coordinator grants a slot, failed
 * connections back off up to 60 s, a silent server times out, op 9 false
 * identifies after 1-5 s. Every wakeup is in the future. */
static void
test_wakeups_reconnects_after_hours(void **state)
{
	struct world *w = *state;
	struct sim s;
	int64_t t;

	sim_init(&s, w);
	sim_run(&s, w->now + 3 * 3600 * 1000LL);
	sim_event(&s, "X");

	/* a zombie: resume */
	s.ack = false;
	sim_run(&s, w->now + 2 * 41250 + 1000);
	s.ack = true;
	assert_int_equal(discord_gw_stats(w->g)->zombies, 1);
	assert_int_equal(s.resumes, 1);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);

	/* 4009 twice: a new session at once (the last IDENTIFY is hours
	 * old), the second one 5.5 s after the first */
	sim_run(&s, w->now + 3600 * 1000LL);
	discord_gw_closed(w->g, 4009, w->now);
	sim_run(&s, w->now + 1000);
	assert_int_equal(s.identifies, 2);
	t = w->now;
	discord_gw_closed(w->g, 4009, w->now);
	sim_run(&s, w->now + 5000);
	assert_int_equal(s.identifies, 2);
	sim_run(&s, t + SIM_SPACING + 1000);
	assert_int_equal(s.identifies, 3);

	/* failed connections: backoff up to 60 s, then a resume */
	sim_run(&s, w->now + 3600 * 1000LL);
	s.refuse = true;
	discord_gw_closed(w->g, -1, w->now);
	sim_run(&s, w->now + 10 * 60 * 1000LL);
	assert_true(w->connects - 1 >= 10 && w->connects < 40);
	s.refuse = false;
	sim_run(&s, w->now + 61000);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	assert_int_equal(s.resumes, 2);

	/* a server that never says HELLO: the 20 s timeout, then backoff */
	sim_run(&s, w->now + 3600 * 1000LL);
	s.silent = true;
	discord_gw_closed(w->g, -1, w->now);
	sim_run(&s, w->now + 5 * 60 * 1000LL);
	assert_true(w->closes >= 3);
	s.silent = false;
	sim_run(&s, w->now + 61000);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);

	/* op 9 false: identify after 1-5 s */
	sim_run(&s, w->now + 3600 * 1000LL);
	t = w->now;
	msg(w, "{\"op\":9,\"d\":false}");
	sim_run(&s, t + 999);
	assert_int_equal(s.identifies, 3);
	sim_run(&s, t + 5000 + 1000);
	assert_int_equal(s.identifies, 4);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	assert_true(w->now - 1000000 > 7 * 3600 * 1000LL); /* the clock covered hours */
}

/* What the watchdog asks: waiting is progress; a deadline long past, a
 * frame never taken, or silence past two intervals is a stall. */
static void
test_stalled(void **state)
{
	struct world *w = *state;
	char why[200];
	int64_t due;

	discord_gw_start(w->g, w->now);
	assert_null(discord_gw_stalled(w->g, w->now, why, sizeof(why)));
	/* connect due, never ticked */
	assert_null(discord_gw_stalled(w->g, w->now + DISCORD_GW_STALL_MS, why, sizeof(why)));
	assert_non_null(
	    discord_gw_stalled(w->g, w->now + DISCORD_GW_STALL_MS + 1, why, sizeof(why)));
	assert_non_null(strstr(why, "overdue"));
	advance(w, w->now);
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	/* IDENTIFY queued, the transport never takes it */
	assert_null(discord_gw_stalled(w->g, w->now + DISCORD_GW_STALL_MS, why, sizeof(why)));
	assert_non_null(
	    discord_gw_stalled(w->g, w->now + DISCORD_GW_STALL_MS + 1, why, sizeof(why)));
	assert_non_null(strstr(why, "waited"));
	cJSON_Delete(frame(w));
	msg(w, "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"session_id\":\"s\"}}");
	/* the heartbeat's deadline, never ticked */
	due = discord_gw_next_wakeup(w->g, w->now);
	assert_null(discord_gw_stalled(w->g, due + DISCORD_GW_STALL_MS, why, sizeof(why)));
	assert_non_null(discord_gw_stalled(w->g, due + DISCORD_GW_STALL_MS + 1, why, sizeof(why)));
	/* backoff of a minute: waiting, not stalled */
	discord_gw_closed(w->g, 4009, w->now);
	assert_null(discord_gw_stalled(w->g, w->now + 5000, why, sizeof(why)));
}

/* A session saved by the last process: the first connection resumes it
 * where it left off; Discord refusing it (op 9 false) starts a new one. A
 * stop that keeps the session closes with 4000, not 1000. */
static void
test_restored_session_resumes_first(void **state)
{
	struct world *w = *state;
	cJSON *j, *d;

	discord_gw_restore(w->g, "saved1", "wss://resume.example", 77);
	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	assert_string_equal(w->url, "wss://resume.example/?v=10&encoding=json");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	d = cJSON_GetObjectItem(j, "d");
	assert_int_equal(op_of(j), 6);
	assert_string_equal(cJSON_GetObjectItem(d, "session_id")->valuestring, "saved1");
	assert_int_equal(cJSON_GetObjectItem(d, "seq")->valueint, 77);
	cJSON_Delete(j);
	assert_int_equal(discord_gw_stats(w->g)->identifies, 0);
	/* the session expired at Discord */
	msg(w, "{\"op\":9,\"d\":false}");
	assert_null(discord_gw_session_id(w->g));
	assert_int_equal(w->closes, 1);
	discord_gw_closed(w->g, DISCORD_GW_ZOMBIE_CODE, w->now);
	advance(w, w->now + 6000);
	assert_string_equal(w->url, "wss://gateway.discord.gg/?v=10&encoding=json");
	discord_gw_opened(w->g, w->now);
	msg(w, "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}");
	j = frame(w);
	assert_int_equal(op_of(j), 2);
	cJSON_Delete(j);
	msg(w, "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"session_id\":\"new1\","
	       "\"resume_gateway_url\":\"wss://r2.example/\"}}");
	assert_string_equal(discord_gw_session_id(w->g), "new1");
	assert_string_equal(discord_gw_resume_url(w->g), "wss://r2.example");
	discord_gw_stop(w->g, true);
	assert_int_equal(w->close_code, DISCORD_GW_ZOMBIE_CODE);
}

static void
test_garbage_ignored(void **state)
{
	struct world *w = *state;
	static const char *const junk[] = {
	    "not json",
	    "[]",
	    "{\"op\":\"1\"}",
	    "{}",
	    "{\"op\":10,\"d\":{}}",
	    "{\"op\":0,\"d\":{}}",
	    "{\"op\":99}",
	    "",
	    "{\"op\":0,\"t\":\"READY\",\"d\":{}}",
	};

	to_ready(w);
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		msg(w, junk[i]);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_READY);
	assert_int_equal(discord_gw_stats(w->g)->ignored, 9);
	assert_string_equal(discord_gw_session_id(w->g), "sess1");
}

static void
test_hello_timeout(void **state)
{
	struct world *w = *state;

	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	discord_gw_opened(w->g, w->now);
	advance(w, w->now + 20000);
	assert_int_equal(w->closes, 1);
	discord_gw_closed(w->g, -1, w->now);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_WAIT_CONNECT);
}

static void
test_connect_failure_retries(void **state)
{
	struct world *w = *state;

	w->connect_result = -1;
	discord_gw_start(w->g, w->now);
	advance(w, w->now);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_WAIT_CONNECT);
	assert_true(discord_gw_next_wakeup(w->g, w->now) > w->now);
}

static void
test_stop(void **state)
{
	struct world *w = *state;

	to_ready(w);
	discord_gw_stop(w->g, false);
	assert_int_equal(w->close_code, 1000);
	discord_gw_closed(w->g, 1000, w->now);
	assert_int_equal(discord_gw_state(w->g), DISCORD_GW_STOPPED);
	assert_int_equal(discord_gw_next_wakeup(w->g, w->now), INT64_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_identify_payload, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ready_and_heartbeats, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_zombie_resumes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_seq_exact, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unwritten_heartbeat_reconnects, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compress_in_every_url, setup_compress, teardown),
	    cmocka_unit_test_setup_teardown(test_reconnect_op7, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_invalid_session, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_slot_before_connect, setup_slots, teardown),
	    cmocka_unit_test_setup_teardown(test_slot_expired_at_hello, setup_slots, teardown),
	    cmocka_unit_test_setup_teardown(test_slot_given_back, setup_slots, teardown),
	    cmocka_unit_test_setup_teardown(test_repeated_abort_starts_new_session, setup,
	                                    teardown),
	    cmocka_unit_test(test_fatal_codes),
	    cmocka_unit_test(test_resumable_codes),
	    cmocka_unit_test_setup_teardown(test_backoff_grows, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_send_budget, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wakeups_quiet_hours, setup_slots, teardown),
	    cmocka_unit_test_setup_teardown(test_wakeups_budget_on_old_connection, setup_slots,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_budget_wakeup_exact, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wakeups_reconnects_after_hours, setup_slots,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_stalled, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_restored_session_resumes_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_garbage_ignored, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hello_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_connect_failure_retries, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stop, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
