/* Unit tests for commands/state.c: the loader hook and eviction. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "commands/state.h"

struct fake_disk {
	int calls;
	int result; /* what the loader answers for "console:disk" */
};

/* Knows one channel, "console:disk", whose GM is "console:ann". */
static int
fake_load(struct channel *fresh, void *ctx)
{
	struct fake_disk *d = ctx;

	d->calls++;
	if (strcmp(channel_key(fresh), "console:disk") != 0)
		return 0;
	if (d->result == 1) {
		channel_set_gm(fresh, "console:ann", "ann");
		channel_set_last_used(fresh, 77);
	}
	return d->result;
}

static void
test_loader_fills_a_miss(void **state)
{
	struct state *st = state_new();
	struct fake_disk d = {.result = 1};
	struct channel *ch;

	state_set_loader(st, fake_load, &d);
	ch = state_channel_find(st, "console:disk");
	assert_non_null(ch);
	assert_string_equal(channel_gm(ch), "console:ann");
	assert_int_equal(channel_last_used(ch), 77);
	assert_false(channel_touched(ch));
	/* Now in memory: the loader is not asked again. */
	assert_ptr_equal(state_channel(st, "console:disk"), ch);
	assert_int_equal(d.calls, 1);
	assert_int_equal(state_nchannels(st), 1);
	state_free(st);
}

static void
test_loader_miss_creates_or_finds_nothing(void **state)
{
	struct state *st = state_new();
	struct fake_disk d = {.result = 1};
	struct channel *ch;

	state_set_loader(st, fake_load, &d);
	assert_null(state_channel_find(st, "console:new"));
	assert_int_equal(state_nchannels(st), 0);
	ch = state_channel(st, "console:new");
	assert_non_null(ch);
	assert_null(channel_gm(ch));
	assert_int_equal(state_nchannels(st), 1);
	assert_int_equal(d.calls, 2);
	state_free(st);
}

static void
test_loader_failure_creates_nothing(void **state)
{
	struct state *st = state_new();
	struct fake_disk d = {.result = -1};

	state_set_loader(st, fake_load, &d);
	/* A channel that exists but cannot be read must not be replaced by a new one. */
	assert_null(state_channel(st, "console:disk"));
	assert_null(state_channel_find(st, "console:disk"));
	assert_int_equal(state_nchannels(st), 0);
	state_free(st);
}

static bool
older_than_10(const struct channel *ch, void *ctx)
{
	(*(int *)ctx)++;
	return channel_last_used(ch) < 10;
}

static void
test_evict_if_spares_touched_and_young(void **state)
{
	struct state *st = state_new();
	struct channel *a = state_channel(st, "console:a");
	struct channel *b = state_channel(st, "console:b");
	struct channel *c = state_channel(st, "console:c");
	int asked = 0;

	channel_set_last_used(a, 5);
	channel_set_last_used(b, 5);
	channel_set_last_used(c, 50);
	channel_touch(b); /* not yet persisted: never evicted */
	assert_int_equal(state_evict_channels_if(st, older_than_10, &asked), 1);
	assert_int_equal(asked, 2);
	assert_null(state_channel_find(st, "console:a"));
	assert_ptr_equal(state_channel_find(st, "console:b"), b);
	assert_ptr_equal(state_channel_find(st, "console:c"), c);
	assert_int_equal(state_nchannels(st), 2);
	state_free(st);
}

static void
test_user_clear_style(void **state)
{
	struct state *st = state_new();
	struct user *u = state_user(st, "console:ann");
	struct ustyle s = {.colour = UC_RED, .mark = "*"};

	user_set_style(u, &s);
	assert_non_null(user_style(u));
	user_clear_style(u);
	assert_null(user_style(u));
	state_free(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loader_fills_a_miss),
	    cmocka_unit_test(test_loader_miss_creates_or_finds_nothing),
	    cmocka_unit_test(test_loader_failure_creates_nothing),
	    cmocka_unit_test(test_evict_if_spares_touched_and_young),
	    cmocka_unit_test(test_user_clear_style),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
