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

/* With both clocks agreeing (a Date just read says so, and the wall
 * clock moves with the monotonic one), the first interaction sets the skew
 * estimate (its delivery time) and later ones are aged against it. */
static void
ages_from_the_id(void **unused)
{
	struct shed *s = discord_shed_new();

	assert_int_equal(discord_shed_date(s, T0 / 1000, T0, T0, RX0), SHED_CLOCK_SAME);
	/* Delivered in 4 ms: the fastest delivery seen, so age 0. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 4, 1), T0, RX0, SHED_LIVE),
	                 RX0 + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 4);
	/* 1,004 ms on the way (a backlog): 1,000 ms of the window are gone. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 + 1 - 1004, 2), T0 + 1, RX0 + 1 * MS, SHED_LIVE),
	    RX0 + 1 * MS + 1500 * MS);
	/* 2,504 ms: nothing left, due at once. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 + 2 - 2504, 3), T0 + 2, RX0 + 2 * MS, SHED_LIVE),
	    RX0 + 2 * MS);
	/* Older still (replayed after a resume): due at once too. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 + 3 - 60000, 4), T0 + 3, RX0 + 3 * MS, SHED_LIVE),
	    RX0 + 3 * MS);
	/* Faster than the estimate: it becomes the estimate, age 0. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 + 4 - 1, 5), T0 + 4, RX0 + 4 * MS, SHED_LIVE),
	    RX0 + 4 * MS + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 1);
	/* Shedding checked no clock: the Date vouched for it. */
	assert_false(discord_shed_probe(s));
	discord_shed_free(s);
}

/* Our clock 4 s behind Discord's: ids look like they come from the
 * future; ages are still right once the skew is seen. */
static void
clock_behind(void **unused)
{
	struct shed *s = discord_shed_new();

	assert_int_equal(discord_shed_deadline(s, id_at(T0, 1), T0 - 4000, RX0, SHED_LIVE),
	                 RX0 + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), -4000);
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0, 2), T0 - 2000, RX0 + 10 * MS, SHED_LIVE),
	    RX0 + 10 * MS + 500 * MS);
	/* 3 s old by its id, but no Date ever vouched for the clock: a
	 * check is asked and it counts from receipt meanwhile. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0, 3), T0 - 1000, RX0 + 20 * MS, SHED_LIVE),
	    RX0 + 20 * MS + 2500 * MS);
	assert_true(discord_shed_probe(s));
	discord_shed_free(s);
}

/* Our clock ahead: believed up to SHED_SKEW_MAX_MS, past it the rest is
 * taken as age (so a backlog cannot pass for skew) while a Date vouches
 * for the clock. */
static void
clock_ahead(void **unused)
{
	struct shed *s = discord_shed_new();

	assert_int_equal(discord_shed_date(s, T0 / 1000, T0, T0, RX0), SHED_CLOCK_SAME);
	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 1500, 1), T0, RX0, SHED_LIVE),
	                 RX0 + 2000 * MS);
	assert_int_equal(discord_shed_skew_ms(s), SHED_SKEW_MAX_MS);
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 + 1 - 3600, 2), T0 + 1, RX0 + MS, SHED_LIVE),
	    RX0 + MS);
	assert_false(discord_shed_probe(s));
	discord_shed_free(s);
}

/* The clock set 3.5 s ahead while running, after the last Date (which no
 * answer brings while everything is shed): an interaction late by its id
 * asks for a clock check, once, and counts from its receipt while the
 * check is out; the check's Date then shows the skew, and deadlines count
 * from receipt. Without the check, every interaction from then on was
 * shed. */
static void
clock_set_ahead_while_running(void **unused)
{
	struct shed *s = discord_shed_new();
	uint64_t rx = RX0;
	int64_t wall = T0;
	struct shed_skew k;

	assert_int_equal(discord_shed_date(s, wall / 1000, wall, wall, rx), SHED_CLOCK_SAME);
	assert_int_equal(discord_shed_deadline(s, id_at(wall - 5, 1), wall, rx, SHED_LIVE),
	                 rx + 2500 * MS);
	/* 10 s later (the Date is stale), our clock 3.5 s ahead. */
	rx += 10000 * MS;
	wall += 10000 + 3500;
	assert_int_equal(discord_shed_deadline(s, id_at(wall - 3500 - 5, 2), wall, rx, SHED_LIVE),
	                 rx + 2500 * MS);
	assert_true(discord_shed_probe(s));
	assert_false(discord_shed_probe(s)); /* asked once */
	/* The next one, the check still out: from receipt, no new check. */
	assert_int_equal(discord_shed_deadline(s, id_at(wall + 100 - 3500 - 5, 3), wall + 100,
	                                       rx + 100 * MS, SHED_LIVE),
	                 rx + 100 * MS + 2500 * MS);
	assert_false(discord_shed_probe(s));
	/* The check's Date: Discord's clock reads wall - 3500. */
	assert_int_equal(
	    discord_shed_date(s, (wall - 3500) / 1000, wall + 150, wall + 160, rx + 160 * MS),
	    SHED_CLOCK_OFF);
	discord_shed_skew(s, &k);
	assert_true(k.receipt);
	assert_int_equal(discord_shed_deadline(s, id_at(wall + 200 - 3500 - 5, 4), wall + 200,
	                                       rx + 200 * MS, SHED_LIVE),
	                 rx + 200 * MS + 2500 * MS);
	assert_false(discord_shed_probe(s));
	discord_shed_free(s);
}

/* A check whose answer brings no Date (or none that helps) does not make
 * shedding stop for good: past SHED_PROBE_WAIT_MS late ones are shed
 * again, and the next check is asked SHED_PROBE_EVERY_MS after the last. */
static void
clock_check_is_paced(void **unused)
{
	struct shed *s = discord_shed_new();
	uint64_t rx = RX0;

	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 5000, 1), T0, rx, SHED_LIVE),
	                 rx + 2500 * MS);
	assert_true(discord_shed_probe(s));
	rx += SHED_PROBE_WAIT_MS * MS;
	assert_int_equal(discord_shed_deadline(s, id_at(T0 + SHED_PROBE_WAIT_MS - 5000, 2),
	                                       T0 + SHED_PROBE_WAIT_MS, rx, SHED_LIVE),
	                 rx);
	assert_false(discord_shed_probe(s));
	rx = RX0 + SHED_PROBE_EVERY_MS * MS;
	assert_int_equal(discord_shed_deadline(s, id_at(T0 + SHED_PROBE_EVERY_MS - 5000, 3),
	                                       T0 + SHED_PROBE_EVERY_MS, rx, SHED_LIVE),
	                 rx + 2500 * MS);
	assert_true(discord_shed_probe(s));
	discord_shed_free(s);
}

/* Our wall clock set since the last Date (it moved 3.5 s more than the
 * monotonic clock): that Date vouches for nothing, however recent. */
static void
clock_step_voids_the_date(void **unused)
{
	struct shed *s = discord_shed_new();

	assert_int_equal(discord_shed_date(s, T0 / 1000, T0, T0, RX0), SHED_CLOCK_SAME);
	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 5, 1), T0, RX0, SHED_LIVE),
	                 RX0 + 2500 * MS);
	assert_int_equal(discord_shed_deadline(s, id_at(T0 + 100 - 5, 2), T0 + 100 + 3500,
	                                       RX0 + 100 * MS, SHED_LIVE),
	                 RX0 + 100 * MS + 2500 * MS);
	assert_true(discord_shed_probe(s));
	discord_shed_free(s);
}

/* The estimate forgets a period's minimum after two periods. */
static void
skew_estimate_moves_on(void **unused)
{
	struct shed *s = discord_shed_new();
	uint64_t rx = RX0;

	discord_shed_deadline(s, id_at(T0, 1), T0 - 3000, rx,
	                      SHED_LIVE); /* clock behind, then fixed */
	rx += SHED_SKEW_SPAN;
	discord_shed_deadline(s, id_at(T0, 2), T0 + 2, rx, SHED_LIVE);
	assert_int_equal(discord_shed_skew_ms(s), -3000); /* the period before still counts */
	rx += SHED_SKEW_SPAN;
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 3), T0 + 2, rx, SHED_LIVE),
	                 rx + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 2);
	/* A silence of two periods forgets everything: the next sets it. */
	rx += 3 * SHED_SKEW_SPAN;
	discord_shed_deadline(s, id_at(T0, 4), T0 + 700, rx, SHED_LIVE);
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
	assert_int_equal(discord_shed_deadline(s, id_at(T0, 1), T0 + 3504, RX0 + 2 * MS, SHED_LIVE),
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

/* A process started 3 s after the last one stopped: Discord replays what
 * came meanwhile (2.9 to 3.3 s old) before any Date is read. Counted as
 * skew (as live events would be), the youngest replay made the others
 * look up to SHED_SKEW_MAX_MS younger: run, then answered past Discord's
 * 3 s. Replays feed no estimate and are late by their ids. */
static void
replays_after_a_restart_are_aged_by_their_ids(void **unused)
{
	struct shed *s = discord_shed_new(), *live = discord_shed_new();

	/* The youngest replay first, then an older one. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 2900, 1), T0, RX0, SHED_REPLAY), RX0);
	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 3300, 2), T0, RX0 + MS, SHED_REPLAY),
	                 RX0 + MS);
	/* Aged 2,495 ms: 5 ms left, too few for a replay's commit and its
	 * question to Discord; it is due at once. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 2495, 3), T0, RX0 + 2 * MS, SHED_REPLAY),
	    RX0 + 2 * MS);
	/* Aged 2,050 ms: 450 ms left, less than SHED_REPLAY_MS: due at once. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 2050, 6), T0, RX0 + 3 * MS, SHED_REPLAY),
	    RX0 + 3 * MS);
	/* Sent 1.5 s before the restart: 1,000 ms are left of its window, more
	 * than SHED_REPLAY_MS, and its answer may use all of them (a deadline
	 * cut by SHED_REPLAY_MS would drop the answer of a change committed
	 * in its last 500 ms). */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 1500, 5), T0, RX0 + 3 * MS, SHED_REPLAY),
	    RX0 + 3 * MS + 1000 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 0);
	assert_false(discord_shed_probe(s));
	/* The first live one after RESUMED sets the estimate. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 + 10 - 6, 4), T0 + 10, RX0 + 10 * MS, SHED_LIVE),
	    RX0 + 10 * MS + 2500 * MS);
	assert_int_equal(discord_shed_skew_ms(s), 6);
	/* The same two taken as live events: the first passes for 1 s of skew
	 * and the 3.3 s old one gets 200 ms it does not have. */
	discord_shed_deadline(live, id_at(T0 - 2900, 1), T0, RX0, SHED_LIVE);
	assert_int_equal(discord_shed_skew_ms(live), SHED_SKEW_MAX_MS);
	assert_int_equal(discord_shed_deadline(live, id_at(T0 - 3300, 2), T0, RX0 + MS, SHED_LIVE),
	                 RX0 + MS + 200 * MS);
	discord_shed_free(s);
	discord_shed_free(live);
}

/* A replayed autocomplete is answered as soon as it is worked out, with
 * nothing committed and nothing asked of Discord first: any of its window
 * left will do, where a replayed command needs SHED_REPLAY_MS to spare.
 * (Before, replayed autocompletes 2 to 2.5 s old were dropped though
 * their answer could still go out in time.) */
static void
replayed_autocompletes_need_only_their_window(void **unused)
{
	struct shed *s = discord_shed_new();

	/* Aged 2,050 ms: 450 ms left, less than SHED_REPLAY_MS. */
	assert_int_equal(discord_shed_deadline(s, id_at(T0 - 2050, 1), T0, RX0, SHED_REPLAY), RX0);
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 2050, 2), T0, RX0 + MS, SHED_REPLAY_AT_ONCE),
	    RX0 + MS + 450 * MS);
	/* Aged 2,495 ms: 5 ms left, all its answer may use. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 2495, 3), T0, RX0 + 2 * MS, SHED_REPLAY_AT_ONCE),
	    RX0 + 2 * MS + 5 * MS);
	/* Aged 2,500 ms and more: its window (less the margin) is over. */
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 2500, 4), T0, RX0 + 3 * MS, SHED_REPLAY_AT_ONCE),
	    RX0 + 3 * MS);
	assert_int_equal(
	    discord_shed_deadline(s, id_at(T0 - 3300, 5), T0, RX0 + 4 * MS, SHED_REPLAY_AT_ONCE),
	    RX0 + 4 * MS);
	/* Replays feed no skew estimate, and ask for no clock check. */
	assert_int_equal(discord_shed_skew_ms(s), 0);
	assert_false(discord_shed_probe(s));
	discord_shed_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ages_from_the_id),
	    cmocka_unit_test(replays_after_a_restart_are_aged_by_their_ids),
	    cmocka_unit_test(replayed_autocompletes_need_only_their_window),
	    cmocka_unit_test(clock_behind),
	    cmocka_unit_test(clock_ahead),
	    cmocka_unit_test(skew_estimate_moves_on),
	    cmocka_unit_test(date_beyond_the_bound),
	    cmocka_unit_test(date_behind_and_within),
	    cmocka_unit_test(clock_set_ahead_while_running),
	    cmocka_unit_test(clock_check_is_paced),
	    cmocka_unit_test(clock_step_voids_the_date),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
