/* Tests for bot/discord/discord_ratelimit: routes, buckets, 429 locks, the global
 * limit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_ratelimit.h"

static void
test_routes(void **state)
{
	char r[DISCORD_RATELIMIT_ROUTE_MAX];

	discord_ratelimit_route("PUT", "/applications/123456789012345678/commands", r, sizeof(r));
	assert_string_equal(r, "PUT /applications/:id/commands");
	discord_ratelimit_route("PUT", "/applications/1/guilds/22/commands", r, sizeof(r));
	assert_string_equal(r, "PUT /applications/:id/guilds/22/commands");
	discord_ratelimit_route("POST", "/channels/42/messages", r, sizeof(r));
	assert_string_equal(r, "POST /channels/42/messages");
	discord_ratelimit_route("PATCH", "/channels/42/messages/77", r, sizeof(r));
	assert_string_equal(r, "PATCH /channels/42/messages/:id");
	discord_ratelimit_route("POST", "/interactions/9/aToken.x/callback", r, sizeof(r));
	assert_string_equal(r, "POST /interactions/9/aToken.x/callback");
	discord_ratelimit_route("POST", "/webhooks/5/tok/messages/@original?wait=true", r,
	                        sizeof(r));
	assert_string_equal(r, "POST /webhooks/5/tok/messages/@original");
	discord_ratelimit_route("GET", "/gateway/bot", r, sizeof(r));
	assert_string_equal(r, "GET /gateway/bot");
	/* A piece that does not fit is left out whole; the later ones that
	 * fit still go in (here the separators). */
	discord_ratelimit_route("POST", "/interactions/9/aToken.x/callback", r, 24);
	assert_string_equal(r, "POST /interactions/9//");
	discord_ratelimit_route("POST", "/interactions/9/aToken.x/callback", r, 30);
	assert_string_equal(r, "POST /interactions/9/aToken.x");
	discord_ratelimit_route("POST", "/channels/1", r, 1);
	assert_string_equal(r, "");
}

static const char *const CH1 = "POST /channels/1/messages";
static const char *const CH2 = "POST /channels/2/messages";

static void
test_bucket_remaining_and_reset(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	struct discord_ratelimit_headers h = {
	    .bucket = "abc", .limit = 2, .remaining = 1, .reset_after = 1.5};
	int64_t now = 10000;

	/* Unknown routes go at once. */
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now), 0);
	discord_ratelimit_sent(rl, CH1, false, now);
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now);
	/* One left: one may go, a second waits for the reset. */
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now), 0);
	discord_ratelimit_sent(rl, CH1, false, now);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now), 1500);
	h.remaining = 0;
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 10);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 10), 1500);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 1510), 0);
	/* Another channel is another bucket, though the hash is the same. */
	discord_ratelimit_sent(rl, CH2, false, now);
	discord_ratelimit_done(rl, CH2, false, 200, &h, 0, false, now);
	assert_int_equal(discord_ratelimit_wait(rl, CH2, false, now), 1500);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 1510), 0);
	discord_ratelimit_free(rl);
}

static void
test_429_bucket_lock(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	int64_t now = 5000;

	discord_ratelimit_sent(rl, CH1, false, now);
	discord_ratelimit_done(rl, CH1, false, 429, NULL, 0.75, false, now);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now), 750);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 749), 1);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 750), 0);
	assert_int_equal(discord_ratelimit_wait(rl, CH2, false, now), 0);
	discord_ratelimit_free(rl);
}

static void
test_429_global_lock(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	int64_t now = 5000;
	const char *cb = "POST /interactions/9/t/callback";

	discord_ratelimit_sent(rl, CH1, false, now);
	discord_ratelimit_done(rl, CH1, false, 429, NULL, 2.0, true, now);
	assert_int_equal(discord_ratelimit_wait(rl, CH2, false, now + 100), 1900);
	/* Interaction callbacks are exempt from the global limit. */
	assert_int_equal(discord_ratelimit_wait(rl, cb, true, now + 100), 0);
	assert_int_equal(discord_ratelimit_wait(rl, CH2, false, now + 2000), 0);
	discord_ratelimit_free(rl);
}

static void
test_global_rate(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	int64_t now = 100000;
	int went = 0;

	for (int i = 0; i < 200; i++) {
		if (discord_ratelimit_wait(rl, CH1, false, now) == 0) {
			discord_ratelimit_sent(rl, CH1, false, now);
			went++;
		}
	}
	assert_int_equal(went, DISCORD_RATELIMIT_GLOBAL_RATE);
	assert_true(discord_ratelimit_wait(rl, CH1, false, now) > 0);
	assert_true(discord_ratelimit_wait(rl, CH1, false, now) <=
	            1000 / DISCORD_RATELIMIT_GLOBAL_RATE + 1);
	assert_int_equal(discord_ratelimit_wait(rl, "POST /interactions/1/t/callback", true, now),
	                 0);
	/* A second later the bucket is full again. */
	went = 0;
	for (int i = 0; i < 200; i++) {
		if (discord_ratelimit_wait(rl, CH1, false, now + 1000) == 0) {
			discord_ratelimit_sent(rl, CH1, false, now + 1000);
			went++;
		}
	}
	assert_int_equal(went, DISCORD_RATELIMIT_GLOBAL_RATE);
	discord_ratelimit_free(rl);
}

static void
test_interactions_not_learnt_and_swept(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	struct discord_ratelimit_headers h = {
	    .bucket = "cb", .limit = 5, .remaining = 4, .reset_after = 1};
	int64_t now = 1000;
	char route[DISCORD_RATELIMIT_ROUTE_MAX];

	for (int i = 0; i < 5000; i++) {
		snprintf(route, sizeof(route), "POST /interactions/%d/t/callback", i);
		discord_ratelimit_wait(rl, route, true, now);
		discord_ratelimit_sent(rl, route, true, now);
		discord_ratelimit_done(rl, route, true, 204, &h, 0, false, now);
	}
	assert_int_equal(discord_ratelimit_buckets(rl), 0);
	/* A 429 on one is kept, then forgotten once idle. */
	discord_ratelimit_done(rl, "POST /interactions/1/t/callback", true, 429, NULL, 0.5, false,
	                       now);
	assert_int_equal(discord_ratelimit_buckets(rl), 1);
	assert_int_equal(discord_ratelimit_wait(rl, "POST /interactions/1/t/callback", true, now),
	                 500);
	for (int i = 0; i < 1100; i++)
		discord_ratelimit_wait(rl, CH2, true, now + 120000);
	assert_int_equal(discord_ratelimit_buckets(rl), 0);
	/* Once they are forgotten, a new 429 locks its route again. */
	discord_ratelimit_done(rl, "POST /interactions/2/t/callback", true, 429, NULL, 0.25, false,
	                       now + 120000);
	assert_int_equal(
	    discord_ratelimit_wait(rl, "POST /interactions/2/t/callback", true, now + 120000), 250);
	assert_int_equal(
	    discord_ratelimit_wait(rl, "POST /interactions/3/t/callback", true, now + 120000), 0);
	discord_ratelimit_free(rl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_routes),
	    cmocka_unit_test(test_bucket_remaining_and_reset),
	    cmocka_unit_test(test_429_bucket_lock),
	    cmocka_unit_test(test_429_global_lock),
	    cmocka_unit_test(test_global_rate),
	    cmocka_unit_test(test_interactions_not_learnt_and_swept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
