/* bot/discord/discord_opstats: the counters, the handling-time histogram
 * and the stats line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_opstats.h"

static int
reset(void **unused)
{
	discord_opstats_reset();
	return 0;
}

static void
no_times(void **unused)
{
	struct discord_opstats_times t;

	discord_opstats_times(&t);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.p50_us, 0);
	assert_int_equal(t.p99_us, 0);
	assert_int_equal(t.max_us, 0);
}

/* Below 16 us every microsecond has its bucket: percentiles are exact. */
static void
small_times_exact(void **unused)
{
	struct discord_opstats_times t;

	for (uint64_t us = 1; us <= 10; us++)
		for (int k = 0; k < 10; k++)
			discord_opstats_time(us * 1000 + 999); /* ns below the next microsecond */
	discord_opstats_times(&t);
	assert_int_equal(t.n, 100);
	assert_int_equal(t.p50_us, 5);  /* the 50th of 100 */
	assert_int_equal(t.p99_us, 10); /* the 99th */
	assert_int_equal(t.max_us, 10);
}

/* Above, a percentile is its bucket's top: never below the true value,
 * at most 12.5% above it, and never above the maximum. */
static void
large_times_bounded(void **unused)
{
	struct discord_opstats_times t;

	for (uint64_t us = 1; us <= 1000; us++)
		discord_opstats_time(us * 1000);
	discord_opstats_time(5000000000ull); /* one 5 s outlier */
	discord_opstats_times(&t);
	assert_int_equal(t.n, 1001);
	assert_true(t.p50_us >= 501 && t.p50_us <= 501 + 501 / 8);
	assert_true(t.p99_us >= 991 && t.p99_us <= 991 + 991 / 8);
	assert_int_equal(t.max_us, 5000000);
	/* A time past the last bucket lands in it, and the max stays exact. */
	discord_opstats_time(UINT64_MAX);
	discord_opstats_times(&t);
	assert_int_equal(t.max_us, UINT64_MAX / 1000);
	assert_true(t.p50_us >= 501 && t.p50_us <= 501 + 501 / 8);
}

/* The line names every counter; the times start afresh after it, the
 * counters do not. */
static void
the_line(void **unused)
{
	char line[512];
	struct discord_opstats_times t;
	int n;

	for (int i = 0; i < 7; i++)
		discord_opstats_add(OPSTATS_ANSWERED);
	for (int i = 0; i < 3; i++)
		discord_opstats_add(OPSTATS_SHED);
	discord_opstats_add(OPSTATS_FAILED);
	discord_opstats_add(OPSTATS_DEFERRED);
	discord_opstats_add(OPSTATS_DEFERRED);
	discord_opstats_add(OPSTATS_RESUMES);
	discord_opstats_add(OPSTATS_RESUMES);
	discord_opstats_add(OPSTATS_IDENTIFIES);
	for (int i = 0; i < 4; i++)
		discord_opstats_add(OPSTATS_REST_429);
	for (int i = 0; i < 5; i++)
		discord_opstats_add(OPSTATS_REST_5XX);
	for (int i = 0; i < 6; i++)
		discord_opstats_invalid(1000000);
	discord_opstats_add(OPSTATS_REST_SHED);
	for (int i = 0; i < 8; i++)
		discord_opstats_add(OPSTATS_CALLBACKS_OWN);
	for (int i = 0; i < 9; i++)
		discord_opstats_add(OPSTATS_CALLBACKS_CURL);
	discord_opstats_time(120000);
	discord_opstats_time(250000);
	n = discord_opstats_line(line, sizeof(line), 1000000);
	assert_int_equal(n, (int)strlen(line));
	assert_string_equal(
	    line, "discord stats: interactions answered 7, shed 3, failed 1; deferred 2; gateway "
	          "resumes 2, identifies 1; REST 429s 4, 5xx 5, invalid in the last 10 min 6, "
	          "shed 1; callbacks answered on own connections 8, through libcurl 9; "
	          "handling time over 2 interactions since the "
	          "last line: p50 127 us, p99 250 us, max 250 us");
	discord_opstats_times(&t);
	assert_int_equal(t.n, 0);
	assert_int_equal(discord_opstats_get(OPSTATS_ANSWERED), 7);
	/* Cut to fit a short buffer, with the length it needed. */
	/* Cut to fit a short buffer, with the length it needed: three
	 * three-digit times are now 0. */
	assert_int_equal(discord_opstats_line(line, 16, 1000000), n - 6);
	assert_string_equal(line, "discord stats: ");
	/* Interactions left to another process of the fleet: said only when
	 * there are any. */
	discord_opstats_add(OPSTATS_ELSEWHERE);
	discord_opstats_add(OPSTATS_ELSEWHERE);
	discord_opstats_line(line, sizeof(line), 1000000);
	assert_non_null(strstr(line, "answered 7, shed 3, failed 1, handled by another process 2; "
	                             "deferred 2; "));
}

/* Invalid requests are counted over the last 10 minutes, in steps of 10
 * seconds: an answer leaves the count between 9 min 50 s and 10 minutes
 * after it came, and a slot is reused for a later step without adding the
 * earlier one's. */
static void
invalid_window(void **unused)
{
	int64_t t0 = 5000000; /* ms; a step starts at each multiple of 10 s */

	assert_int_equal(discord_opstats_invalid_recent(t0), 0);
	for (int i = 0; i < 3; i++)
		discord_opstats_invalid(t0);
	discord_opstats_invalid(t0 + 9999);  /* the same step */
	discord_opstats_invalid(t0 + 10000); /* the next */
	assert_int_equal(discord_opstats_invalid_recent(t0 + 10000), 5);
	/* 9 min 50 s later the first step is still counted... */
	assert_int_equal(discord_opstats_invalid_recent(t0 + 590000 + 9999), 5);
	/* ...and no more 10 minutes after it began. */
	assert_int_equal(discord_opstats_invalid_recent(t0 + 600000), 1);
	assert_int_equal(discord_opstats_invalid_recent(t0 + 610000), 0);
	/* The ring's slot of step t0 serves step t0 + 10 min: it starts at 0. */
	discord_opstats_invalid(t0 + 600000);
	assert_int_equal(discord_opstats_invalid_recent(t0 + 600000), 2);
	/* An earlier time (no clock goes back, but the count never adds a
	 * step from the future). */
	assert_int_equal(discord_opstats_invalid_recent(t0), 0);
	/* 12,000 in one step: the counts are not bounded by anything small. */
	for (int i = 0; i < 12000; i++)
		discord_opstats_invalid(t0 + 700000);
	assert_int_equal(discord_opstats_invalid_recent(t0 + 700000), 12001);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(no_times, reset),
	    cmocka_unit_test_setup(small_times_exact, reset),
	    cmocka_unit_test_setup(large_times_bounded, reset),
	    cmocka_unit_test_setup(the_line, reset),
	    cmocka_unit_test_setup(invalid_window, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
