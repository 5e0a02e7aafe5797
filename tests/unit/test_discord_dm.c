/* Unit tests for bot/discord/discord_dm: the DM channels kept by user, an
 * LRU map bounded in size. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_dm.h"

static void
find_put_replace(void **unused)
{
	struct discord_dm *dm = discord_dm_new(4);
	char chan[DISCORD_DM_ID];

	(void)unused;
	assert_false(discord_dm_find(dm, "1400000000000000001", chan));
	discord_dm_put(dm, "1400000000000000001", "1500000000000000000");
	assert_true(discord_dm_find(dm, "1400000000000000001", chan));
	assert_string_equal(chan, "1500000000000000000");
	discord_dm_put(dm, "1400000000000000001", "1500000000000000007");
	assert_true(discord_dm_find(dm, "1400000000000000001", chan));
	assert_string_equal(chan, "1500000000000000007");
	assert_int_equal(discord_dm_count(dm), 1);
	discord_dm_free(dm);
}

/* The least recently used entry goes first; a find counts as a use. */
static void
least_recently_used_goes(void **unused)
{
	struct discord_dm *dm = discord_dm_new(3);
	char chan[DISCORD_DM_ID];

	(void)unused;
	discord_dm_put(dm, "1", "11");
	discord_dm_put(dm, "2", "12");
	discord_dm_put(dm, "3", "13");
	assert_true(discord_dm_find(dm, "1", chan)); /* 2 is now the oldest */
	discord_dm_put(dm, "4", "14");
	assert_int_equal(discord_dm_count(dm), 3);
	assert_false(discord_dm_find(dm, "2", chan));
	assert_true(discord_dm_find(dm, "1", chan));
	assert_string_equal(chan, "11");
	discord_dm_put(dm, "3", "23"); /* a replacement is a use too */
	discord_dm_put(dm, "5", "15");
	assert_false(discord_dm_find(dm, "4", chan));
	assert_true(discord_dm_find(dm, "3", chan));
	assert_string_equal(chan, "23");
	assert_true(discord_dm_find(dm, "5", chan));
	discord_dm_free(dm);
}

/* Dropping forgets only the channel Discord said is unknown. */
static void
drop_only_that_channel(void **unused)
{
	struct discord_dm *dm = discord_dm_new(2);
	char chan[DISCORD_DM_ID];

	(void)unused;
	discord_dm_put(dm, "1", "11");
	discord_dm_drop(dm, "1", "99");
	assert_true(discord_dm_find(dm, "1", chan));
	discord_dm_drop(dm, "1", "11");
	assert_false(discord_dm_find(dm, "1", chan));
	assert_int_equal(discord_dm_count(dm), 0);
	discord_dm_drop(dm, "2", "12"); /* nothing kept: nothing happens */
	discord_dm_free(dm);
}

/* Only snowflakes are kept, and many users stay bounded. */
static void
snowflakes_only_and_bounded(void **unused)
{
	struct discord_dm *dm = discord_dm_new(DISCORD_DM_MAX);
	char chan[DISCORD_DM_ID], user[DISCORD_DM_ID], id[DISCORD_DM_ID];

	(void)unused;
	discord_dm_put(dm, "", "11");
	discord_dm_put(dm, "1", "");
	discord_dm_put(dm, "1a", "11");
	discord_dm_put(dm, "1", "123456789012345678901"); /* 21 digits */
	discord_dm_put(dm, "123456789012345678901", "1");
	assert_int_equal(discord_dm_count(dm), 0);
	discord_dm_put(dm, "12345678901234567890", "1"); /* 20 digits */
	assert_true(discord_dm_find(dm, "12345678901234567890", chan));
	for (int i = 0; i < 10 * DISCORD_DM_MAX; i++) {
		snprintf(user, sizeof(user), "%d", 1000 + i);
		snprintf(id, sizeof(id), "%d", 5000 + i);
		discord_dm_put(dm, user, id);
	}
	assert_int_equal(discord_dm_count(dm), DISCORD_DM_MAX);
	snprintf(user, sizeof(user), "%d", 1000 + 10 * DISCORD_DM_MAX - 1);
	assert_true(discord_dm_find(dm, user, chan));
	snprintf(id, sizeof(id), "%d", 5000 + 10 * DISCORD_DM_MAX - 1);
	assert_string_equal(chan, id);
	assert_false(discord_dm_find(dm, "1000", chan));
	discord_dm_free(dm);
}

/* A refusal (403, code 50007) is believed for 10 minutes, for that user
 * alone; a channel opened again (another id) starts afresh. */
static void
refusal_remembered(void **unused)
{
	struct discord_dm *dm = discord_dm_new(8);
	int64_t t = 7000000;

	discord_dm_put(dm, "1400000000000000001", "1500000000000000001");
	discord_dm_put(dm, "1400000000000000002", "1500000000000000002");
	assert_false(discord_dm_refused(dm, "1400000000000000001", t));
	discord_dm_refuse(dm, "1400000000000000001", "1500000000000000001", t);
	assert_true(discord_dm_refused(dm, "1400000000000000001", t));
	assert_true(discord_dm_refused(dm, "1400000000000000001", t + DISCORD_DM_REFUSED_MS - 1));
	assert_false(discord_dm_refused(dm, "1400000000000000001", t + DISCORD_DM_REFUSED_MS));
	assert_false(discord_dm_refused(dm, "1400000000000000002", t));
	/* A refusal of a channel no longer kept for the user changes nothing. */
	discord_dm_refuse(dm, "1400000000000000002", "1500000000000000009", t);
	assert_false(discord_dm_refused(dm, "1400000000000000002", t));
	/* Unknown users are not refused. */
	assert_false(discord_dm_refused(dm, "1400000000000000003", t));
	/* Kept again (opened again): believed to take messages. */
	discord_dm_put(dm, "1400000000000000001", "1500000000000000007");
	assert_false(discord_dm_refused(dm, "1400000000000000001", t));
	discord_dm_free(dm);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(find_put_replace),       cmocka_unit_test(least_recently_used_goes),
	    cmocka_unit_test(drop_only_that_channel), cmocka_unit_test(snowflakes_only_and_bounded),
	    cmocka_unit_test(refusal_remembered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
