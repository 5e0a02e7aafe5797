/* Unit tests for commands/state: records, GM seat, touch/flush, eviction. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "commands/state.h"

static void
records_are_found_by_key(void **unused)
{
	struct state *st = state_new();
	struct channel *a = state_channel(st, "console:a");

	assert_ptr_equal(state_channel(st, "console:a"), a);
	assert_ptr_equal(state_channel_find(st, "console:a"), a);
	assert_null(state_channel_find(st, "console:b"));
	assert_string_equal(channel_key(a), "console:a");
	assert_ptr_not_equal(state_channel(st, "console:b"), a);
	assert_int_equal(state_nchannels(st), 2);
	assert_null(state_user_find(st, "console:x"));
	{
		struct user *u = state_user(st, "console:x");

		assert_ptr_equal(state_user_find(st, "console:x"), u);
		assert_string_equal(user_key(u), "console:x");
	}
	assert_int_equal(state_nusers(st), 1);
	state_free(st);
}

static void
gm_seat(void **unused)
{
	struct state *st = state_new();
	struct channel *c = state_channel(st, "k");

	assert_null(channel_gm(c));
	assert_null(channel_gm_name(c));
	channel_set_gm(c, "console:alice", "Alice");
	assert_string_equal(channel_gm(c), "console:alice");
	assert_string_equal(channel_gm_name(c), "Alice");
	channel_clear_gm(c);
	assert_null(channel_gm(c));
	state_free(st);
}

static int nch, nus;

static int
count_channel(struct channel *ch, void *ctx)
{
	(void)ch;
	(void)ctx;
	nch++;
	return 0;
}

static int
fail_user(struct user *u, void *ctx)
{
	(void)u;
	(void)ctx;
	nus++;
	return -1;
}

static void
touched_records_flush_once(void **unused)
{
	struct state *st = state_new();
	struct channel *a = state_channel(st, "a"), *b = state_channel(st, "b");
	struct user *u = state_user(st, "u");
	struct ustyle s = {.colour = UC_CYAN, .mark = "★"};

	nch = nus = 0;
	channel_touch(a);
	channel_touch(a);
	channel_touch(b);
	assert_null(user_style(u));
	user_set_style(u, &s);
	user_touch(u);
	assert_true(channel_touched(a));
	assert_int_equal(state_flush(st, count_channel, fail_user, NULL), 1);
	assert_int_equal(nch, 2);
	assert_int_equal(nus, 1);
	assert_false(channel_touched(a));
	assert_false(user_touched(u));
	assert_int_equal(state_flush(st, count_channel, fail_user, NULL), 0);
	assert_int_equal(nch, 2);
	assert_int_equal(user_style(u)->colour, UC_CYAN);
	assert_string_equal(user_style(u)->mark, "★");
	state_free(st);
}

static void
evicting_a_touched_channel_unlinks_it(void **unused)
{
	struct state *st = state_new();
	struct channel *a = state_channel(st, "a"), *b = state_channel(st, "b");

	nch = 0;
	channel_touch(a);
	channel_touch(b);
	state_evict_channel(st, b);
	assert_null(state_channel_find(st, "b"));
	assert_int_equal(state_flush(st, count_channel, NULL, NULL), 0);
	assert_int_equal(nch, 1);
	state_free(st);
}

static void
long_names_are_bounded(void **unused)
{
	struct state *st = state_new();
	struct user *u = state_user(st, "u");
	char name[200];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	user_set_name(u, name);
	assert_int_equal(strlen(user_name(u)), NAME_MAX_LEN - 1);
	state_free(st);
}

static void
many_channels(void **unused)
{
	struct state *st = state_new();
	char key[32];

	for (int i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "discord:%d", i);
		channel_set_last_used(state_channel(st, key), i);
	}
	assert_int_equal(state_nchannels(st), 20000);
	assert_int_equal(channel_last_used(state_channel_find(st, "discord:12345")), 12345);
	state_free(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(records_are_found_by_key),
	    cmocka_unit_test(gm_seat),
	    cmocka_unit_test(touched_records_flush_once),
	    cmocka_unit_test(evicting_a_touched_channel_unlinks_it),
	    cmocka_unit_test(long_names_are_bounded),
	    cmocka_unit_test(many_channels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
