/* Unit tests for commands/core/state: records, GM seat, touch/flush, eviction,
 * the loader of channels not in memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands/core/state.h"
#include "rules/base/buf.h"

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
gm_name_is_bounded(void **unused)
{
	struct state *st = state_new();
	struct channel *c = state_channel(st, "k");
	char name[200];

	memset(name, 'g', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	channel_set_gm(c, "console:g", name);
	assert_int_equal(strlen(channel_gm_name(c)), NAME_MAX_LEN - 1);
	assert_string_equal(channel_gm(c), "console:g");
	/* replacing the GM frees the old seat (the sanitizer run checks) */
	channel_set_gm(c, "console:h", "H");
	assert_string_equal(channel_gm_name(c), "H");
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
	struct thwacko_style s = {.colour = UC_CYAN, .mark = "★"};

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
	struct thwacko_style s = {.colour = UC_RED, .mark = "*"};

	user_set_style(u, &s);
	assert_non_null(user_style(u));
	user_clear_style(u);
	assert_null(user_style(u));
	state_free(st);
}

/* Module id's text now (chanmod_write()), from malloc, its length in
 * *len: a text that may be kept. */
static char *
text_now(struct channel *c, enum chanmod_id id, size_t *len)
{
	struct buf b;

	buf_init(&b, SIZE_MAX);
	assert_int_equal(chanmod_write(chanmod_table[id], channel_mod_peek(c, id), &b), 0);
	*len = b.len;
	return buf_take(&b);
}

/* A module's kept text is there until the channel changes, the module's
 * state is replaced or the record is stored; none is kept for a state the
 * channel does not hold, nor past CHANNEL_TEXT_MAX; a taken text is the
 * taker's. */
static void
kept_texts_last_until_a_change(void **unused)
{
	struct state *st = state_new();
	struct channel *c = state_channel(st, "console:k");
	size_t len = 0, tlen, plen;
	char *t, *tension, *proc;

	(void)unused;
	channel_keep_text(c, CHANMOD_TENSION, strdup("{\"a\":1}"), 7); /* no state: freed */
	assert_null(channel_kept_text(c, CHANMOD_TENSION, &len));
	channel_mod(c, CHANMOD_TENSION);
	channel_mod(c, CHANMOD_PROC);
	tension = text_now(c, CHANMOD_TENSION, &tlen);
	proc = text_now(c, CHANMOD_PROC, &plen);
	channel_keep_text(c, CHANMOD_TENSION, strdup(tension), tlen);
	channel_keep_text(c, CHANMOD_PROC, strdup(proc), plen);
	assert_string_equal(channel_kept_text(c, CHANMOD_TENSION, &len), tension);
	assert_int_equal(len, tlen);
	assert_string_equal(channel_kept_text(c, CHANMOD_PROC, &len), proc);
	channel_touch(c); /* a change: every text goes */
	assert_null(channel_kept_text(c, CHANMOD_TENSION, &len));
	assert_null(channel_kept_text(c, CHANMOD_PROC, &len));
	channel_keep_text(c, CHANMOD_TENSION, strdup(tension), tlen);
	channel_keep_text(c, CHANMOD_PROC, strdup(proc), plen);
	channel_mod_set(c, CHANMOD_PROC, NULL); /* replaced: its text goes, not the others */
	assert_null(channel_kept_text(c, CHANMOD_PROC, &len));
	t = channel_take_text(c, CHANMOD_TENSION, &len);
	assert_string_equal(t, tension);
	assert_null(channel_kept_text(c, CHANMOD_TENSION, &len));
	channel_keep_text(c, CHANMOD_TENSION, t, tlen);
	channel_set_changes_saved(c, channel_changes(c)); /* stored: kept no longer */
	assert_null(channel_kept_text(c, CHANMOD_TENSION, &len));
	t = calloc(1, CHANNEL_TEXT_MAX + 2);
	memset(t, 'x', CHANNEL_TEXT_MAX + 1);
	channel_keep_text(c, CHANMOD_TENSION, t, CHANNEL_TEXT_MAX + 1);
	assert_null(channel_kept_text(c, CHANMOD_TENSION, &len));
	channel_keep_text(c, CHANMOD_TENSION, strdup("{}"), 2);
	free(tension);
	free(proc);
	state_free(st); /* frees what is kept (the sanitizer run checks) */
}

#ifdef DELVER_DEBUG
/* In a DELVER_DEBUG build (SANITIZE) a kept text that is not its state's
 * encoding stops the program where it is used, whether read or taken. */
static void
stale_kept_text_stops_a_debug_build(void **unused)
{
	(void)unused;
	for (int take = 0; take < 2; take++) {
		pid_t pid;
		int status;

		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct state *st = state_new();
			struct channel *c = state_channel(st, "console:k");
			size_t len;

			/* the child's report would read as the test's own */
			if (freopen("/dev/null", "w", stderr) == NULL)
				_exit(2);
			channel_mod(c, CHANMOD_TENSION);
			channel_keep_text(c, CHANMOD_TENSION, strdup("{\"a\":1}"), 7);
			if (take)
				free(channel_take_text(c, CHANMOD_TENSION, &len));
			else
				channel_kept_text(c, CHANMOD_TENSION, &len);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGABRT);
	}
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(records_are_found_by_key),
	    cmocka_unit_test(gm_seat),
	    cmocka_unit_test(gm_name_is_bounded),
	    cmocka_unit_test(touched_records_flush_once),
	    cmocka_unit_test(evicting_a_touched_channel_unlinks_it),
	    cmocka_unit_test(long_names_are_bounded),
	    cmocka_unit_test(many_channels),
	    cmocka_unit_test(test_loader_fills_a_miss),
	    cmocka_unit_test(test_loader_miss_creates_or_finds_nothing),
	    cmocka_unit_test(test_loader_failure_creates_nothing),
	    cmocka_unit_test(test_evict_if_spares_touched_and_young),
	    cmocka_unit_test(test_user_clear_style),
	    cmocka_unit_test(kept_texts_last_until_a_change),
#ifdef DELVER_DEBUG
	    cmocka_unit_test(stale_kept_text_stops_a_debug_build),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
