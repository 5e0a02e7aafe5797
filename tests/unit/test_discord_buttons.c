/* Tests for bot/discord/discord_buttons: custom_ids, the store of long
 * lines and its eviction. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bot/discord/discord_buttons.h"
#include "bot/discord/discord_proto.h"

/* A command line of n bytes: "roll " then x's. */
static void
long_line(char *out, size_t n, char fill)
{
	memset(out, fill, n);
	memcpy(out, "roll ", 5);
	out[n] = '\0';
}

/* A line that fits in 100 characters with "a:" is carried in the id, with
 * or without a store. */
static void
test_short_line_in_id(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[DISCORD_CUSTOM_ID_MAX];

	assert_int_equal(discord_buttons_id(bs, "roll 1d6", id, sizeof(id)), 0);
	assert_string_equal(id, "a:roll 1d6");
	assert_string_equal(discord_buttons_action(bs, id), "roll 1d6");
	assert_string_equal(discord_buttons_action(NULL, id), "roll 1d6");
	long_line(line, 98, 'x'); /* "a:" + 98 = 100: still fits */
	assert_int_equal(discord_buttons_id(NULL, line, id, sizeof(id)), 0);
	assert_int_equal(strlen(id), 100);
	assert_string_equal(discord_buttons_action(NULL, id), line);
	discord_buttons_free(bs);
}

/* A longer line is stored and referred to by number, in hexadecimal;
 * without a store it cannot be addressed. */
static void
test_long_line_stored(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(32);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[200];

	long_line(line, 99, 'y'); /* "a:" + 99 = 101: too long */
	assert_int_equal(discord_buttons_id(NULL, line, id, sizeof(id)), -1);
	assert_int_equal(discord_buttons_id(bs, line, id, sizeof(id)), 0);
	assert_string_equal(id, "b:1");
	assert_string_equal(discord_buttons_action(bs, "b:1"), line);
	assert_null(discord_buttons_action(NULL, "b:1"));
	for (int i = 2; i <= 26; i++)
		assert_int_equal(discord_buttons_id(bs, line, id, sizeof(id)), 0);
	assert_string_equal(id, "b:1a");
	assert_string_equal(discord_buttons_action(bs, "b:1a"), line);
	assert_null(discord_buttons_action(bs, "b:1b")); /* not made yet */
	discord_buttons_free(bs);
}

/* The store keeps the cap most recent long lines: older ids expire. */
static void
test_eviction(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[6][150];

	for (int i = 0; i < 6; i++) {
		long_line(line[i], 120 + i, (char)('a' + i));
		assert_int_equal(discord_buttons_id(bs, line[i], id, sizeof(id)), 0);
	}
	assert_null(discord_buttons_action(bs, "b:1"));
	assert_null(discord_buttons_action(bs, "b:2"));
	assert_string_equal(discord_buttons_action(bs, "b:3"), line[2]);
	assert_string_equal(discord_buttons_action(bs, "b:6"), line[5]);
	discord_buttons_free(bs);
	/* A store of capacity 0 keeps one line. */
	bs = discord_buttons_new(0);
	assert_int_equal(discord_buttons_id(bs, line[0], id, sizeof(id)), 0);
	assert_int_equal(discord_buttons_id(bs, line[1], id, sizeof(id)), 0);
	assert_null(discord_buttons_action(bs, "b:1"));
	assert_string_equal(discord_buttons_action(bs, "b:2"), line[1]);
	discord_buttons_free(bs);
}

/* Ids that are not ours are unknown. */
static void
test_foreign_ids(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[150];

	long_line(line, 140, 'z');
	assert_int_equal(discord_buttons_id(bs, line, id, sizeof(id)), 0);
	assert_null(discord_buttons_action(bs, "a:"));
	assert_null(discord_buttons_action(bs, "b:"));
	assert_null(discord_buttons_action(bs, "b:0"));
	assert_null(discord_buttons_action(bs, "b:zz"));
	assert_null(discord_buttons_action(bs, "b:1 "));
	assert_null(discord_buttons_action(bs, "x:1"));
	assert_null(discord_buttons_action(bs, ""));
	discord_buttons_free(bs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_short_line_in_id),
	    cmocka_unit_test(test_long_line_stored),
	    cmocka_unit_test(test_eviction),
	    cmocka_unit_test(test_foreign_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
