/*
 * Tests for bot/discord/discord_answer_late.c: a replay that came past its
 * 3 s is logged as one of the time delver was down only when it was made
 * before this process started; one made after waited out its 3 s in this
 * process's own start and queue, and the line says so (an operator's
 * finding: after a kill -9 every late replay was said to be of the
 * downtime, when some had waited for the start itself). A struct discord
 * with no REST and no shards, its process started at START_MS.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_answer_late.h"
#include "bot/discord/discord_int.h"
#include "bot/discord/discord_shed.h"
#include "tests/unit/helpers/stderrcap.h"

#define START_MS 1750000000000LL

/* The data of an interaction made at ms (ms since 1970), replayed. */
static cJSON *
made_at(int64_t ms)
{
	char json[200];

	snprintf(json, sizeof(json), "{\"id\":\"%llu\",\"type\":2,\"data\":{\"name\":\"turn\"}}",
	         (unsigned long long)((uint64_t)(ms - SHED_DISCORD_EPOCH_MS) << 22));
	return cJSON_Parse(json);
}

/* Replays the interaction made at ms; returns what was logged. */
static const char *
replay(struct discord *dc, int64_t ms)
{
	static struct stderrcap cap;
	cJSON *d = made_at(ms);

	assert_int_equal(stderrcap_begin(&cap), 0);
	discord_answer_late_replay(dc, NULL, d);
	cJSON_Delete(d);
	return stderrcap_end(&cap);
}

static void
late_replays_say_where_they_waited(void **state)
{
	uv_loop_t loop;
	struct discord dc;

	(void)state;
	uv_loop_init(&loop);
	memset(&dc, 0, sizeof(dc));
	dc.loop = &loop;
	dc.start_wall_ms = START_MS;
	uv_timer_init(&loop, &dc.late_timer);
	uv_timer_init(&loop, &dc.summary_timer);
	dc.late_timer.data = dc.summary_timer.data = &dc;
	assert_string_equal(replay(&dc, START_MS - 5000),
	                    "warn: discord: 1 interaction replayed after the restart had waited "
	                    "out Discord's 3 s while delver was down and went unanswered; 1 "
	                    "since the start\n");
	/* the next ones of the burst are summed up */
	assert_string_equal(replay(&dc, START_MS + 1000), "");
	assert_string_equal(replay(&dc, START_MS + 1500), "");
	assert_string_equal(replay(&dc, START_MS - 100), "");
	dc.stopped = true;
	{
		struct stderrcap cap;

		assert_int_equal(stderrcap_begin(&cap), 0);
		discord_answer_summary(&dc);
		assert_string_equal(stderrcap_end(&cap),
		                    "warn: discord: 1 interaction replayed after the restart had "
		                    "waited out Discord's 3 s while delver was down and went "
		                    "unanswered in the last 1 s; 2 since the start\n"
		                    "warn: discord: 2 interactions replayed after the restart "
		                    "waited out Discord's 3 s in this process's start and queue "
		                    "(made after it started) and went unanswered in the last 1 s; "
		                    "2 since the start\n");
	}
	/* the first of a kind after the stop is said at once, alone */
	assert_string_equal(replay(&dc, START_MS + 9000),
	                    "warn: discord: 1 interaction replayed after the restart waited out "
	                    "Discord's 3 s in this process's start and queue (made after it "
	                    "started) and went unanswered; 3 since the start\n");
	assert_int_equal(dc.stats.shed, 5);
	assert_int_equal(dc.unanswered.since[DISCORD_UNANSWERED_LATE_DOWN], 2);
	assert_int_equal(dc.unanswered.since[DISCORD_UNANSWERED_LATE_START], 3);
	uv_close((uv_handle_t *)&dc.late_timer, NULL);
	uv_close((uv_handle_t *)&dc.summary_timer, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&loop), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(late_replays_say_where_they_waited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
