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

	char route[DISCORD_RATELIMIT_ROUTE_MAX];

	/* Each to a channel of its own: one route sends one request at a
	 * time until its first answer (test_unknown_route_one_at_a_time). */
	for (int i = 0; i < 200; i++) {
		snprintf(route, sizeof(route), "POST /channels/%d/messages", 100 + i);
		if (discord_ratelimit_wait(rl, route, false, now) == 0) {
			discord_ratelimit_sent(rl, route, false, now);
			went++;
		}
	}
	assert_int_equal(went, DISCORD_RATELIMIT_GLOBAL_RATE);
	/* Any second holds at most 50: the 51st waits until the first is a
	 * second old. */
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now), 1000);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 999), 1);
	assert_int_equal(discord_ratelimit_wait(rl, "POST /interactions/1/t/callback", true, now),
	                 0);
	/* A second later 50 more may go. */
	went = 0;
	for (int i = 0; i < 200; i++) {
		snprintf(route, sizeof(route), "POST /channels/%d/messages", 300 + i);
		if (discord_ratelimit_wait(rl, route, false, now + 1000) == 0) {
			discord_ratelimit_sent(rl, route, false, now + 1000);
			went++;
		}
	}
	assert_int_equal(went, DISCORD_RATELIMIT_GLOBAL_RATE);
	discord_ratelimit_free(rl);
}

/* Requests spread over time: 50 in any second, never 51, even when they
 * are spaced so that a refilling bucket would allow more. */
static void
test_global_sliding(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	int64_t sent[400];
	size_t n = 0;
	char route[DISCORD_RATELIMIT_ROUTE_MAX];

	for (int64_t t = 0; t < 3000 && n < 400; t++) {
		for (;;) {
			snprintf(route, sizeof(route), "POST /channels/%zu/messages", 100 + n);
			if (n == 400 || discord_ratelimit_wait(rl, route, false, t) != 0)
				break;
			discord_ratelimit_sent(rl, route, false, t);
			sent[n++] = t;
		}
	}
	assert_int_equal(n, 150); /* 50 at 0, 50 at 1000, 50 at 2000 */
	for (size_t i = DISCORD_RATELIMIT_GLOBAL_RATE; i < n; i++)
		assert_true(sent[i] - sent[i - DISCORD_RATELIMIT_GLOBAL_RATE] >= 1000);
	discord_ratelimit_free(rl);
}

/* Callbacks whose answers leave their bucket requests allocate nothing. */
static void
test_interactions_kept_only_when_they_constrain(void **state)
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

#define FOLLOWUP  "POST /webhooks/1100000000000000001/aW50ZXJhY3Rpb24"
#define EDIT_ORIG "PATCH /webhooks/1100000000000000001/aW50ZXJhY3Rpb24/messages/@original"
#define OTHER_FU  "POST /webhooks/1100000000000000001/b3RoZXIgdG9rZW4"

/*
 * Eleven follow-ups of one interaction, one after the other as the bot
 * sends them, against Discord's 5 per 2 s per interaction token (answers
 * as the fake gives them): none goes while the bucket is empty, each
 * window takes five, and once the last answer is in nothing is kept.
 */
static void
test_followups_learnt(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	int64_t t = 50000, window_end = 0;
	int remaining = 0, windows = 0;

	for (int i = 0; i < 11; i++) {
		struct discord_ratelimit_headers h = {.bucket = "41d9fa3c7e0b6a12", .limit = 5};
		int64_t w = discord_ratelimit_wait(rl, i == 0 ? EDIT_ORIG : FOLLOWUP, true, t);

		/* The server's own window: the bot must never send into an
		 * empty one. */
		if (t >= window_end) {
			window_end = t + 2000;
			remaining = 5;
			windows++;
		}
		if (remaining == 0) {
			assert_int_equal(w, window_end - t);
			t += w;
			window_end = t + 2000;
			remaining = 5;
			windows++;
			w = discord_ratelimit_wait(rl, FOLLOWUP, true, t);
		}
		assert_int_equal(w, 0);
		/* Another interaction's follow-ups are not held by these. */
		assert_int_equal(discord_ratelimit_wait(rl, OTHER_FU, true, t), 0);
		discord_ratelimit_sent(rl, i == 0 ? EDIT_ORIG : FOLLOWUP, true, t);
		remaining--;
		t += 30; /* the answer's trip */
		h.remaining = remaining;
		h.reset_after = (double)(window_end - t) / 1000.0;
		discord_ratelimit_done(rl, i == 0 ? EDIT_ORIG : FOLLOWUP, true, 200, &h, 0, false,
		                       t);
		/* Kept exactly while the next one must wait for it. */
		assert_int_equal(discord_ratelimit_buckets(rl), remaining == 0 ? 1 : 0);
	}
	assert_int_equal(windows, 3); /* 5 + 5 + 1 */
	discord_ratelimit_free(rl);
}

/*
 * A channel's messages against Discord's 5 per 5 s, the server played here
 * as the fake plays it (its window starts with its first request; a
 * request into an empty window is a 429). Forty messages are queued at
 * once, as forty secret rolls to one GM's DM channel are; answers take
 * 30 ms, and those due at once are read newest first (HTTP answers on
 * several connections come back in any order: the one saying 4 left may
 * come after the one saying none). The bot must never send into an empty
 * window: after a reset it may send five, and the sixth waits for their
 * answers, which tell the new window. (It did not: with five in flight
 * past the reset the sixth went at once, and an answer read late raised
 * the count again.) Before anything is known of the route, one request
 * goes at a time, so the first answer teaches the bucket before a burst
 * can meet a 429.
 */
static void
test_channel_burst_meets_no_429(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	enum {
		N = 40,
		LIMIT = 5,
		PER = 5000,
		TRIP = 30
	};
	int64_t answer_at[N], window_end = -1, last = 0;
	int served = 0, answered = 0, queued = N, remaining = 0, r429 = 0, sent = 0;
	int got_remaining[N];
	int64_t got_reset[N];
	bool done[N] = {false};

	for (int64_t t = 0; answered < N && t < 200000; t++) {
		/* Answers due now, newest first. */
		for (int i = sent - 1; i >= 0; i--) {
			struct discord_ratelimit_headers h = {
			    .bucket = "80c17d2f10b5ab2d",
			    .limit = LIMIT,
			    .remaining = got_remaining[i],
			    .reset_after = (double)(got_reset[i] - t) / 1000.0,
			    .reset = 1700000000.0 + (double)got_reset[i] / 1000.0};

			if (done[i] || answer_at[i] > t)
				continue;
			discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, t);
			done[i] = true;
			answered++;
		}
		while (queued > 0 && discord_ratelimit_wait(rl, CH1, false, t) == 0) {
			/* The server takes it halfway through the trip. */
			int64_t at = t + TRIP / 2;

			discord_ratelimit_sent(rl, CH1, false, t);
			if (window_end <= at) {
				window_end = at + PER;
				remaining = LIMIT;
			}
			if (remaining == 0)
				r429++;
			else
				remaining--;
			got_remaining[sent] = remaining;
			got_reset[sent] = window_end;
			answer_at[sent++] = t + TRIP;
			queued--;
			served++;
			last = t;
		}
	}
	assert_int_equal(r429, 0);
	assert_int_equal(served, N);
	assert_int_equal(answered, N);
	/* Eight windows of five: the last five go when the eighth opens, a
	 * little after 35 s (each window opens when its first request is
	 * taken, the bot sends once its known reset passed). */
	assert_true(last >= 7 * PER && last < 8 * PER);
	discord_ratelimit_free(rl);
}

/* Answers of one window read out of order: the lowest count holds; an
 * answer of a window already over changes nothing; a new window's is
 * believed. */
static void
test_window_answers_out_of_order(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	struct discord_ratelimit_headers h = {
	    .bucket = "b", .limit = 3, .remaining = 1, .reset_after = 1.0, .reset = 1700000001.0};
	int64_t now = 20000;

	discord_ratelimit_sent(rl, CH1, false, now);
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 5);
	for (int i = 0; i < 2; i++)
		discord_ratelimit_sent(rl, CH1, false, now + 5);
	/* The third request's answer (none left) is read before the
	 * second's (one left): none is left. A server may round one
	 * window's reset differently from one answer to the next. */
	h.remaining = 0;
	h.reset = 1700000000.999;
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 6);
	h.remaining = 1;
	h.reset = 1700000001.001;
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 7);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 7), 998);
	h.reset = 1700000001.0;
	discord_ratelimit_free(rl);
	/* Past a reset with one request of the old window still out: the
	 * refilled count less the one in flight may go. */
	rl = discord_ratelimit_new();
	h.remaining = 2;
	discord_ratelimit_sent(rl, CH1, false, now);
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 5);
	discord_ratelimit_sent(rl, CH1, false, now + 5);
	discord_ratelimit_sent(rl, CH1, false, now + 5);
	h.remaining = 0;
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 6);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 6), 999);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 1005), 0);
		discord_ratelimit_sent(rl, CH1, false, now + 1005);
	}
	assert_true(discord_ratelimit_wait(rl, CH1, false, now + 1005) > 0);
	/* The old window's late answer changes nothing but what is in
	 * flight: one more may go. */
	h.remaining = 1;
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 1006);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 1006), 0);
	/* The new window's answer is believed: one left, one in flight. */
	h.reset = 1700000002.0;
	h.remaining = 1;
	discord_ratelimit_done(rl, CH1, false, 200, &h, 0, false, now + 1010);
	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 1010), 1000);
	discord_ratelimit_free(rl);
}

/* A route nothing is known of: the first request goes, the next waits
 * for its answer; an answer that names no bucket leaves the route
 * unlimited, as before. */
static void
test_unknown_route_one_at_a_time(void **state)
{
	struct discord_ratelimit *rl = discord_ratelimit_new();
	int64_t now = 7000;

	assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now), 0);
	discord_ratelimit_sent(rl, CH1, false, now);
	assert_true(discord_ratelimit_wait(rl, CH1, false, now) > 0);
	assert_int_equal(discord_ratelimit_wait(rl, CH2, false, now), 0);
	discord_ratelimit_done(rl, CH1, false, 200, NULL, 0, false, now + 20);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(discord_ratelimit_wait(rl, CH1, false, now + 20), 0);
		discord_ratelimit_sent(rl, CH1, false, now + 20);
	}
	/* A request that got no answer at all teaches nothing. */
	discord_ratelimit_sent(rl, CH2, false, now);
	discord_ratelimit_done(rl, CH2, false, 0, NULL, 0, false, now + 20);
	discord_ratelimit_sent(rl, CH2, false, now + 20);
	assert_true(discord_ratelimit_wait(rl, CH2, false, now + 20) > 0);
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
	    cmocka_unit_test(test_global_sliding),
	    cmocka_unit_test(test_interactions_kept_only_when_they_constrain),
	    cmocka_unit_test(test_followups_learnt),
	    cmocka_unit_test(test_channel_burst_meets_no_429),
	    cmocka_unit_test(test_window_answers_out_of_order),
	    cmocka_unit_test(test_unknown_route_one_at_a_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
