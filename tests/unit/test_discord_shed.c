/* bot/discord/discord_shed: interaction deadlines from the frame's receipt
 * and the id's timestamp, on virtual clocks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bot/discord/discord_shed.h"

#define MS  1000000ull                /* ns */
#define T0  1764000000000LL           /* a wall clock, ms since 1970 */
#define RX0 (1000ull * 1000000000ull) /* a monotonic clock, ns */

/* The id Discord gives an interaction it creates at wall time ms. */
static uint64_t
id_at(int64_t ms, unsigned seq)
{
	return ((uint64_t)(ms - SHED_DISCORD_EPOCH_MS) << 22) | (seq & 0x3fffffu);
}

/* With both clocks agreeing, the first interaction sets the skew estimate
 * (its delivery time) and later ones are aged against it. */
static void
ages_from_the_id(void **unused)
{
	struct shed *s = discord_shed_new();

	/* Delivered in 4 ms: the fastest delivery seen, so age 0. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 1), T0 + 4, RX0), RX0 + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 4);
	/* 1,004 ms on the way (a backlog): 1,000 ms of the window are gone. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 2), T0 + 1004, RX0 + 1 * MS),
	                 RX0 + 1 * MS + 1500 * MS);
	/* 2,504 ms: nothing left, due at once. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 3), T0 + 2504, RX0 + 2 * MS),
	                 RX0 + 2 * MS);
	/* Older still (replayed after a resume): due at once too. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 4), T0 + 60000, RX0 + 3 * MS),
	                 RX0 + 3 * MS);
	/* Faster than the estimate: it becomes the estimate, age 0. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 5), T0 + 1, RX0 + 4 * MS),
	                 RX0 + 4 * MS + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 1);
	discord_shed_free(s);
}

/* Our clock 4 s behind Discord's: ids look like they come from the
 * future; ages are still right once the skew is seen. */
static void
clock_behind(void **unused)
{
	struct shed *s = discord_shed_new();

	assert_int_equal(discord_shed_deadline(s, id_at(T0, 1), T0 - 4000, RX0), RX0 + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), -4000);
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 2), T0 - 2000, RX0 + 10 * MS),
	                 RX0 + 10 * MS + 500 * MS);
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 3), T0 - 1000, RX0 + 20 * MS),
	                 RX0 + 20 * MS);
	discord_shed_free(s);
}

/* Our clock ahead: believed up to SHED_SKEW_MAX_MS, past it the rest is
 * taken as age (so a backlog cannot pass for skew). */
static void
clock_ahead(void **unused)
{
	struct shed *s = discord_shed_new();

	assert_int_equal(discord_shed_deadline(s, id_at(T0, 1), T0 + 1500, RX0), RX0 + 2000 * MS);
	assert_int_equal(discord_shed_skew_ms(s), SHED_SKEW_MAX_MS);
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 2), T0 + 3600, RX0 + MS), RX0 + MS);
	discord_shed_free(s);
}

/* The estimate forgets a period's minimum after two periods. */
static void
skew_estimate_moves_on(void **unused)
{
	struct shed *s = discord_shed_new();
	uint64_t rx = RX0;

	discord_shed_deadline(s, id_at(T0, 1), T0 - 3000, rx); /* clock behind, then fixed */
	rx += SHED_SKEW_SPAN;
	discord_shed_deadline(s, id_at(T0, 2), T0 + 2, rx);
	assert_int_equal(discord_shed_skew_ms(s), -3000); /* the period before still counts */
	rx += SHED_SKEW_SPAN;
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 3), T0 + 2, rx), rx + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 2);
	/* A silence of two periods forgets everything: the next sets it. */
	rx += 3 * SHED_SKEW_SPAN;
	discord_shed_deadline(s, id_at(T0, 4), T0 + 700, rx);
	assert_int_equal(discord_shed_skew_ms(s), 700);
	discord_shed_free(s);
}

/* The Date of REST answers bounds the skew alone: 3.5 s ahead is beyond
 * the bound, so deadlines count from receipt (an id's age is ignored),
 * said once; a Date that shows the clocks agreeing again (the clock was
 * set) ends it, also once. */
static void
date_beyond_the_bound(void **unused)
{
	struct shed *s = discord_shed_new();
	struct shed_skew k;

	/* Discord's clock reads T0 (whole seconds) while ours reads
	 * T0 + 3500 .. T0 + 3520 around the request. */
	assert_int_equal(discord_shed_date(s, T0 / 1000, T0 + 3500, T0 + 3520, RX0),
	                 SHED_CLOCK_OFF);
	discord_shed_skew(s, &k);
	assert_true(k.date && k.receipt);
	assert_int_equal(k.lo, 2500);
	assert_int_equal(k.hi, 3520);
	/* another answer narrows it, and changes nothing else */
	assert_int_equal(discord_shed_date(s, T0 / 1000 + 1, T0 + 5500, T0 + 5510, RX0 + MS),
	                 SHED_CLOCK_SAME);
	discord_shed_skew(s, &k);
	assert_int_equal(k.lo, 3500);
	assert_int_equal(k.hi, 3520);
	/* an interaction 3.5 s "old" by its id is not old: 2.5 s left */
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 1), T0 + 3504, RX0 + 2 * MS),
	                 RX0 + 2 * MS + 2500 * MS);
	/* the clock set right: the next answer meets nothing kept */
	assert_int_equal(discord_shed_date(s, T0 / 1000 + 10, T0 + 10020, T0 + 10030, RX0 + 3 * MS),
	                 SHED_CLOCK_OK);
	discord_shed_skew(s, &k);
	assert_false(k.receipt);
	assert_int_equal(k.lo, -980);
	assert_int_equal(k.hi, 30);
	discord_shed_free(s);
}

/* Behind by 3.5 s is beyond the bound too; within it nothing changes. */
static void
date_behind_and_within(void **unused)
{
	struct shed *s = discord_shed_new();
	struct shed_skew k;

	assert_int_equal(discord_shed_date(s, T0 / 1000, T0 - 3500, T0 - 3490, RX0),
	                 SHED_CLOCK_OFF);
	discord_shed_skew(s, &k);
	assert_true(k.receipt);
	discord_shed_free(s);
	s = discord_shed_new();
	assert_int_equal(discord_shed_date(s, T0 / 1000, T0 + 300, T0 + 310, RX0), SHED_CLOCK_SAME);
	discord_shed_skew(s, &k);
	assert_false(k.receipt);
	assert_false(k.ids);
	/* ours set back while the request was out: no bound from it */
	assert_int_equal(discord_shed_date(s, T0 / 1000, T0 + 900, T0 + 100, RX0), SHED_CLOCK_SAME);
	discord_shed_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ages_from_the_id),      cmocka_unit_test(clock_behind),
	    cmocka_unit_test(clock_ahead),           cmocka_unit_test(skew_estimate_moves_on),
	    cmocka_unit_test(date_beyond_the_bound), cmocka_unit_test(date_behind_and_within),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
