/* Unit tests for bot/draft: a long text typed line by line, interleaved
 * with other users' lines and commands, ended, dropped, outgrown and
 * abandoned. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/draft/draft.h"

static const struct reply_ask loot = {
    .line = "table set loot", .opt = "entries", .label = "l", .sample = "s", .max = 64};

static enum draft_feed
feed(struct drafts *ds, const char *chan, const char *user, const char *text, int64_t t)
{
	return drafts_feed(ds, chan, user, text, strlen(text), t, NULL);
}

/* Lines join the draft of their user in their channel only, in order. */
static void
lines_of_one_user_here(void **unused)
{
	struct drafts *ds = drafts_new();
	char replaced[64];
	struct draft *d;

	(void)unused;
	assert_int_equal(feed(ds, "c", "alice", "1-3: a", 0), DRAFT_NONE);
	drafts_open(ds, "c", "alice", &loot, 0, replaced, sizeof(replaced));
	assert_string_equal(replaced, "");
	assert_int_equal(drafts_count(ds), 1);
	assert_int_equal(feed(ds, "c", "alice", "1-3: a rat", 10), DRAFT_TAKEN);
	assert_int_equal(feed(ds, "c", "bob", "hello everyone", 11), DRAFT_NONE);
	assert_int_equal(feed(ds, "other", "alice", "elsewhere", 12), DRAFT_NONE);
	assert_int_equal(feed(ds, "c", "alice", "4-6: a bat", 13), DRAFT_TAKEN);
	/* the words: only this user's, here, and only end or cancel */
	assert_int_equal(drafts_word(ds, "c", "bob", "table end", 14), DRAFT_WORD_NONE);
	assert_int_equal(drafts_word(ds, "c", "alice", "roll 1d6", 14), DRAFT_WORD_NONE);
	assert_int_equal(drafts_word(ds, "c", "alice", "tables end", 14), DRAFT_WORD_NONE);
	assert_int_equal(drafts_word(ds, "c", "alice", " table  end ", 14), DRAFT_WORD_END);
	assert_int_equal(drafts_word(ds, "c", "alice", "table cancel", 14), DRAFT_WORD_CANCEL);
	d = drafts_take(ds, "c", "alice", 15);
	assert_non_null(d);
	assert_string_equal(draft_line(d), "table set loot");
	assert_string_equal(draft_opt(d), "entries");
	assert_string_equal(draft_text(d), "1-3: a rat\n4-6: a bat");
	assert_int_equal(draft_lines(d), 2);
	draft_free(d);
	assert_int_equal(drafts_count(ds), 0);
	assert_null(drafts_take(ds, "c", "alice", 16));
	drafts_free(ds);
}

/* An ask with a text (a refused draft kept open) opens holding it: the
 * next lines join it, and its count of lines goes on from there. */
static void
kept_text_reopens(void **unused)
{
	struct drafts *ds = drafts_new();
	struct reply_ask again = loot;
	char replaced[64];
	struct draft *d;

	(void)unused;
	again.text = "1-2: a\n4-6: b";
	drafts_open(ds, "c", "alice", &again, 0, replaced, sizeof(replaced));
	assert_string_equal(replaced, "");
	assert_int_equal(feed(ds, "c", "alice", "3: c", 1), DRAFT_TAKEN);
	d = drafts_take(ds, "c", "alice", 2);
	assert_string_equal(draft_text(d), "1-2: a\n4-6: b\n3: c");
	assert_int_equal(draft_lines(d), 3);
	draft_free(d);
	drafts_free(ds);
}

/* Opening another draft there drops the first; others' are kept. */
static void
another_draft_replaces(void **unused)
{
	struct drafts *ds = drafts_new();
	struct reply_ask gems = loot;
	char replaced[64];
	struct draft *d;

	(void)unused;
	gems.line = "table set gems";
	drafts_open(ds, "c", "alice", &loot, 0, replaced, sizeof(replaced));
	drafts_open(ds, "c", "bob", &loot, 0, replaced, sizeof(replaced));
	feed(ds, "c", "alice", "1-6: gold", 1);
	drafts_open(ds, "c", "alice", &gems, 2, replaced, sizeof(replaced));
	assert_string_equal(replaced, "table set loot");
	assert_int_equal(drafts_count(ds), 2);
	d = drafts_take(ds, "c", "alice", 3);
	assert_string_equal(draft_line(d), "table set gems");
	assert_string_equal(draft_text(d), "");
	draft_free(d);
	assert_non_null(d = drafts_take(ds, "c", "bob", 3));
	draft_free(d);
	drafts_free(ds);
}

/* A text past the ask's limit, or too many lines, drops the draft; a
 * spent one takes the rest of the paste until its end word. */
static void
outgrown_drafts_are_dropped(void **unused)
{
	struct drafts *ds = drafts_new();
	char replaced[64], line[80];

	(void)unused;
	drafts_open(ds, "c", "alice", &loot, 0, replaced, sizeof(replaced));
	memset(line, 'x', 40);
	line[40] = '\0';
	assert_int_equal(feed(ds, "c", "alice", line, 1), DRAFT_TAKEN);
	/* 40 + a line break + 40 passes 64: the dropped draft comes back */
	{
		struct draft *d;

		assert_int_equal(drafts_feed(ds, "c", "alice", line, 40, 2, &d), DRAFT_TOO_BIG);
		assert_non_null(d);
		assert_string_equal(draft_line(d), "table set loot");
		assert_int_equal(draft_lines(d), 1);
		assert_int_equal(draft_max(d), 64);
		draft_free(d);
	}
	/* the rest of the paste goes to the spent draft left in its place:
	 * taken, never kept, never a command; its end or cancel drops it */
	assert_int_equal(drafts_count(ds), 1);
	assert_int_equal(feed(ds, "c", "alice", "roll 1d6", 3), DRAFT_TAKEN);
	assert_int_equal(feed(ds, "c", "bob", "1", 3), DRAFT_NONE);
	assert_int_equal(drafts_word(ds, "c", "alice", "table end", 4), DRAFT_WORD_CANCEL);
	{
		struct draft *d = drafts_take(ds, "c", "alice", 4);

		assert_non_null(d);
		assert_string_equal(draft_line(d), "table set loot");
		assert_int_equal(draft_lines(d), 3);
		assert_string_equal(draft_text(d), "");
		draft_free(d);
	}
	assert_int_equal(drafts_count(ds), 0);
	assert_int_equal(feed(ds, "c", "alice", "1", 5), DRAFT_NONE);
	/* a spent draft idle for DRAFT_IDLE_MS is gone as any other */
	drafts_open(ds, "c", "alice", &loot, 10, replaced, sizeof(replaced));
	assert_int_equal(feed(ds, "c", "alice", line, 11), DRAFT_TAKEN);
	assert_int_equal(feed(ds, "c", "alice", line, 12), DRAFT_TOO_BIG);
	assert_int_equal(feed(ds, "c", "alice", "x", 13), DRAFT_TAKEN);
	assert_int_equal(feed(ds, "c", "alice", "x", 13 + DRAFT_IDLE_MS + 1), DRAFT_NONE);
	assert_int_equal(drafts_count(ds), 0);
	/* lines */
	{
		struct reply_ask big = loot;

		big.max = 100000;
		drafts_open(ds, "c", "alice", &big, 0, replaced, sizeof(replaced));
		for (int i = 0; i < DRAFT_LINES; i++)
			assert_int_equal(feed(ds, "c", "alice", "x", 4), DRAFT_TAKEN);
		assert_int_equal(feed(ds, "c", "alice", "x", 4), DRAFT_TOO_BIG);
	}
	drafts_free(ds);
}

/* A draft with no line for DRAFT_IDLE_MS is gone; a line keeps it. */
static void
abandoned_drafts_expire(void **unused)
{
	struct drafts *ds = drafts_new();
	char replaced[64];

	(void)unused;
	drafts_open(ds, "c", "alice", &loot, 0, replaced, sizeof(replaced));
	assert_int_equal(feed(ds, "c", "alice", "1-3: a", DRAFT_IDLE_MS), DRAFT_TAKEN);
	assert_int_equal(drafts_word(ds, "c", "alice", "table end", 2 * DRAFT_IDLE_MS),
	                 DRAFT_WORD_END);
	assert_int_equal(drafts_word(ds, "c", "alice", "table end", 3 * DRAFT_IDLE_MS + 1),
	                 DRAFT_WORD_NONE);
	assert_int_equal(drafts_count(ds), 0);
	drafts_free(ds);
}

/* At most DRAFT_MAX at once: the one idle longest makes way. */
static void
drafts_are_bounded(void **unused)
{
	struct drafts *ds = drafts_new();
	char replaced[64], user[16];

	(void)unused;
	for (int i = 0; i < DRAFT_MAX + 5; i++) {
		snprintf(user, sizeof(user), "u%d", i);
		drafts_open(ds, "c", user, &loot, i, replaced, sizeof(replaced));
		assert_true(drafts_count(ds) <= DRAFT_MAX);
	}
	assert_int_equal(drafts_count(ds), DRAFT_MAX);
	assert_int_equal(feed(ds, "c", "u0", "x", 100), DRAFT_NONE);
	assert_int_equal(feed(ds, "c", "u4", "x", 100), DRAFT_NONE);
	assert_int_equal(feed(ds, "c", "u5", "x", 100), DRAFT_TAKEN);
	drafts_free(ds);
}

static void
replies_say_why(void **unused)
{
	struct reply *r = reply_new();
	char *t;

	(void)unused;
	draft_reply_dropped(r, "table set loot", 3, 4000, DRAFT_CANCELLED);
	t = reply_plain(r);
	assert_string_equal(t, "Dropped what you were entering for table set loot (3 lines).\n");
	free(t);
	reply_clear(r);
	draft_reply_dropped(r, "table set loot", 3, 4000, DRAFT_BIG);
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "What you were entering for table set loot was dropped: it passed 4000 "
	                    "bytes (or 200 lines), the most it takes; the lines you send here "
	                    "until /table end are dropped with it, never run.");
	reply_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lines_of_one_user_here),
	    cmocka_unit_test(kept_text_reopens),
	    cmocka_unit_test(another_draft_replaces),
	    cmocka_unit_test(outgrown_drafts_are_dropped),
	    cmocka_unit_test(abandoned_drafts_expire),
	    cmocka_unit_test(drafts_are_bounded),
	    cmocka_unit_test(replies_say_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
