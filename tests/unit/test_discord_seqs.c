/* Unit tests for bot/discord/discord_seqs: the gateway's resume point. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bot/discord/discord_seqs.h"

/* Nothing in flight: resume after the last event received. */
static void
idle_resumes_at_the_last(void **unused)
{
	struct seqs *s = discord_seqs_new();

	assert_int_equal(discord_seqs_resume_at(s, 41, 0), 41);
	discord_seqs_free(s);
}

/* The oldest interaction whose answer is not over holds the point just
 * before it, whatever came or finished after it; done in any order. */
static void
oldest_in_flight_holds_the_point(void **unused)
{
	struct seqs *s = discord_seqs_new();

	discord_seqs_add(s, 1001, 10, 0);
	discord_seqs_add(s, 1002, 12, 0);
	discord_seqs_add(s, 1003, 15, 0);
	assert_int_equal(discord_seqs_resume_at(s, 20, 0), 9);
	assert_true(discord_seqs_done(s, 1002));
	assert_int_equal(discord_seqs_resume_at(s, 20, 0), 9);
	assert_true(discord_seqs_done(s, 1001));
	assert_int_equal(discord_seqs_resume_at(s, 20, 0), 14);
	assert_int_equal(discord_seqs_count(s), 1);
	assert_false(discord_seqs_done(s, 9999)); /* unknown: ignored */
	assert_false(discord_seqs_done(s, 1001)); /* done already */
	assert_true(discord_seqs_done(s, 1003));
	assert_int_equal(discord_seqs_resume_at(s, 20, 0), 20);
	assert_int_equal(discord_seqs_count(s), 0);
	discord_seqs_free(s);
}

/* Many in flight (the ring grows), and one stuck past the token's life no
 * longer holds the point. */
static void
grows_and_forgets_the_stale(void **unused)
{
	struct seqs *s = discord_seqs_new();

	discord_seqs_add(s, 1, 1, 0);
	for (uint64_t i = 2; i <= 1000; i++)
		discord_seqs_add(s, i, (int64_t)i, SEQS_STALE_MS);
	for (uint64_t i = 2; i <= 500; i++)
		discord_seqs_done(s, i);
	assert_int_equal(discord_seqs_resume_at(s, 1000, SEQS_STALE_MS), 0);
	assert_int_equal(discord_seqs_resume_at(s, 1000, SEQS_STALE_MS + 1), 500);
	discord_seqs_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(idle_resumes_at_the_last),
	    cmocka_unit_test(oldest_in_flight_holds_the_point),
	    cmocka_unit_test(grows_and_forgets_the_stale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
