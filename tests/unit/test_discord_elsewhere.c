/*
 * Tests for bot/discord/discord_answer.c's handling of a command handled by
 * another process of the fleet (REQUEST_HANDLED_ELSEWHERE): the process
 * that saved the event second does not answer it (the other one does), counts
 * it once in its stats line, and says so in one debug line; unless Discord
 * took this process's deferral already, when the deferral is edited to say
 * so. A struct discord with no shards, its REST queue pointed at a port
 * nothing answers and never run: what an answer sends stays queued there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_int.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_opstats.h"
#include "bot/discord/discord_rest.h"
#include "bot/log.h"
#include "commands/gm/cmd_gm.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/holdstore.h"
#include "tests/unit/helpers/stderrcap.h"

static const struct command *const cmds[] = {&cmd_gm, NULL};

struct fixture {
	uv_loop_t loop;
	struct discord dc;
	struct state *st;
	struct rng *rng;
	struct holdstore h;
};

static void
fixture_open(struct fixture *f)
{
	struct rest_opts ro = {
	    .base_url = "http://127.0.0.1:1", .token = "t", .h1_conns = -1, .timeout_ms = 100};
	struct interact_opts io = {.answer = discord_answer_request, .answer_ctx = &f->dc};

	memset(f, 0, sizeof(*f));
	uv_loop_init(&f->loop);
	f->st = state_new();
	f->rng = rng_new_seeded(1);
	f->dc.loop = &f->loop;
	f->dc.d =
	    dispatch_new(&(struct dispatch_opts){.state = f->st, .rng = f->rng, .commands = cmds});
	io.d = f->dc.d;
	f->dc.it = discord_interact_new(&io);
	f->dc.rest = discord_rest_new(&f->loop, &ro);
	f->dc.defer = discord_defer_new();
	uv_timer_init(&f->loop, &f->dc.summary_timer);
	uv_timer_init(&f->loop, &f->dc.defer_timer);
	f->dc.summary_timer.data = f->dc.defer_timer.data = &f->dc;
	f->h.st = f->st;
	dispatch_set_store(f->dc.d, &holdstore_ops, &f->h);
	discord_opstats_reset();
}

static void
rest_closed(void *ctx)
{
	*(bool *)ctx = true;
}

static void
fixture_close(struct fixture *f)
{
	bool closed = false;

	discord_rest_close(f->dc.rest, rest_closed, &closed);
	while (!closed)
		uv_run(&f->loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&f->dc.summary_timer, NULL);
	uv_close((uv_handle_t *)&f->dc.defer_timer, NULL);
	dispatch_set_store(f->dc.d, NULL, NULL);
	discord_defer_free(f->dc.defer);
	discord_interact_free(f->dc.it);
	dispatch_free(f->dc.d);
	state_free(f->st);
	rng_free(f->rng);
	uv_run(&f->loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&f->loop), 0);
}

/* Interaction id's /gm claim, submitted: held by the store. */
static void
claim(struct fixture *f, const char *id)
{
	char json[600];
	struct interact_out out = {0};
	struct request *req = NULL;
	cJSON *d;

	snprintf(json, sizeof(json),
	         "{\"id\":\"%s\",\"application_id\":\"42\",\"type\":2,\"token\":\"tok-%s\","
	         "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":{"
	         "\"user\":{\"id\":\"111\",\"username\":\"alice\"},\"roles\":[],"
	         "\"permissions\":\"8\"},\"data\":{\"name\":\"gm\",\"options\":[{\"name\":"
	         "\"claim\",\"type\":1}]}}",
	         id, id);
	d = cJSON_Parse(json);
	assert_int_equal(
	    discord_interact_event(f->dc.it, "INTERACTION_CREATE", d, 1000, &out, &req, 7, 0, 8),
	    INTERACT_REQUEST);
	cJSON_Delete(d);
	discord_interact_out_clear(&out);
	dispatch_submit(f->dc.d, req);
}

/* Left to the process that handled it: nothing sent, counted once, one
 * debug line; an interaction this process handled itself is answered. */
static void
handled_elsewhere_is_left_to_its_handler(void **state)
{
	struct fixture f;
	struct stderrcap cap;
	const char *err;
	char line[512];

	(void)state;
	fixture_open(&f);
	log_set_level(LOG_LEVEL_DEBUG);
	claim(&f, "5001");
	claim(&f, "5002");
	assert_int_equal(f.h.n, 2);
	assert_int_equal(stderrcap_begin(&cap), 0);
	holdstore_commit(&f.h, 0, REQUEST_HANDLED_ELSEWHERE);
	err = stderrcap_end(&cap);
	assert_string_equal(err, "debug: discord: interaction 5001 was handled by another delver "
	                         "process; it answers it\n");
	assert_int_equal(discord_rest_pending(f.dc.rest), 0);
	assert_int_equal(discord_opstats_get(OPSTATS_ELSEWHERE), 1);
	assert_int_equal(discord_opstats_line(line, sizeof(line), 0) > 0, 1);
	assert_non_null(strstr(line, ", handled by another process 1;"));
	/* the other one, handled here, is answered */
	holdstore_commit(&f.h, 1, REQUEST_DONE);
	assert_int_equal(discord_rest_pending(f.dc.rest), 1);
	assert_int_equal(discord_opstats_get(OPSTATS_ELSEWHERE), 1);
	log_set_level(LOG_LEVEL_INFO);
	fixture_close(&f);
}

/* Deferred already (Discord took this process's acknowledgement, so the
 * other's answer is refused): the deferral is edited to say the change was
 * made by another process; not counted as left to it. */
static void
handled_elsewhere_after_a_deferral_edits_it(void **state)
{
	struct fixture f;
	struct defer_item *item;

	(void)state;
	fixture_open(&f);
	claim(&f, "5003");
	item = discord_defer_add(f.dc.defer, 5003, 2, false, "/interactions/5003/tok-5003/callback",
	                         "/webhooks/42/tok-5003", uv_hrtime(), uv_hrtime() + 2500000000ull);
	assert_non_null(item);
	item->state = DEFER_SENT;
	holdstore_commit(&f.h, 0, REQUEST_HANDLED_ELSEWHERE);
	assert_int_equal(discord_opstats_get(OPSTATS_ELSEWHERE), 0);
	assert_int_equal(discord_rest_pending(f.dc.rest), 1);
	fixture_close(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(handled_elsewhere_is_left_to_its_handler),
	    cmocka_unit_test(handled_elsewhere_after_a_deferral_edits_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
