/* Tests for bot/discord/discord_panel: when live panels are edited
 * (coalesced, paced, one at a time), a press's update, a panel gone. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bot/discord/discord_panel.h"

#define CH  1300000000000000000ull
#define MSG "1600000000000000001"

/* Runs the clock from `from` to `to` ms: each due refresh is taken and,
 * trip ms later, done with oc. Records when each refresh was taken into
 * at[] (at most max); returns how many were taken. */
static size_t
run(struct discord_panels *p, int64_t from, int64_t to, int64_t trip, enum discord_panel_outcome oc,
    int64_t *at, size_t max)
{
	size_t n = 0;
	int64_t done_at = -1;

	for (int64_t t = from; t < to; t++) {
		uint64_t chan;

		if (done_at == t) {
			discord_panels_done(p, CH, oc, t);
			done_at = -1;
		}
		if (discord_panels_take_due(p, t, &chan, 1) == 1) {
			assert_int_equal(chan, CH);
			if (n < max)
				at[n] = t;
			n++;
			done_at = t + trip;
		}
	}
	return n;
}

/* A busy channel on the clock from 0 to `to` ms: 50 changes in 5 s (one
 * each 100 ms), each refresh taken when due (old: of a message older than
 * an hour) and done 80 ms later. Records when each refresh was taken into
 * at[] (64 at most), the newest change counted at the last one into *seq;
 * returns how many were taken. */
static size_t
busy(struct discord_panels *p, bool old, int64_t to, int64_t *at, uint64_t *seq)
{
	size_t n = 0;

	for (int64_t t = 0; t < to; t++) {
		uint64_t chan;

		if (t < 5000 && t % 100 == 0)
			discord_panels_changed(p, CH, MSG, t);
		if (n > 0 && t == at[n - 1] + 80)
			discord_panels_done(p, CH, PANEL_EDITED, t);
		if (n < 64 && discord_panels_take_due(p, t, &chan, 1) == 1) {
			at[n++] = t;
			*seq = discord_panels_seq(p);
			if (old)
				discord_panels_old(p, CH);
		}
	}
	return n;
}

/* 50 changes in 5 s (one each 100 ms), in a channel whose panel message
 * is new and in one whose message is older than an hour: a handful of
 * edits, the first after the burst's wait (PANEL_COALESCE_MS), then each
 * PANEL_EDIT_MS after the one before (at most 5 in any 5 s) or, for the
 * old message, PANEL_OLD_EDIT_MS (at most 3 in any 6 s); the last edit
 * began after the last change (at 4900 ms), so it shows all fifty. Then
 * the entry is gone, and a message found old while not on its way changes
 * nothing. */
static void
test_busy_channels_are_coalesced_and_paced(void **state)
{
	static const struct {
		bool old;
		int64_t until; /* ms the channel is watched */
		size_t edits;
		int64_t gap;   /* ms between two edits */
		size_t most;   /* edits at most ... */
		int64_t in_ms; /* ... in any window this long */
	} cases[] = {
	    /* the sixth edit covers the last two changes */
	    {false, 8000, 6, PANEL_EDIT_MS, 5, 5000},
	    {true, 12000, 4, PANEL_OLD_EDIT_MS, 3, 6000},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct discord_panels *p = discord_panels_new();
		int64_t at[64] = {0};
		uint64_t seq = 0;
		size_t n = busy(p, cases[k].old, cases[k].until, at, &seq);

		assert_int_equal(n, cases[k].edits);
		assert_int_equal(at[0], PANEL_COALESCE_MS);
		for (size_t i = 1; i < n; i++)
			assert_int_equal(at[i] - at[i - 1], cases[k].gap);
		for (size_t i = cases[k].most; i < n; i++)
			assert_true(at[i] - at[i - cases[k].most] >= cases[k].in_ms);
		assert_true(at[n - 1] > 4900);
		assert_int_equal(seq, 50);
		assert_int_equal(discord_panels_count(p), 0);
		discord_panels_old(p, CH);
		assert_int_equal(discord_panels_count(p), 0);
		discord_panels_free(p);
	}
}

/* One change: one edit, PANEL_COALESCE_MS later; nothing stays. */
static void
test_one_change_one_edit(void **state)
{
	struct discord_panels *p = discord_panels_new();
	int64_t at[4];

	(void)state;
	discord_panels_changed(p, CH, MSG, 1000);
	assert_int_equal(discord_panels_next(p), 1000 + PANEL_COALESCE_MS);
	assert_string_equal(discord_panels_message_of(p, CH), MSG);
	assert_int_equal(run(p, 1000, 5000, 50, PANEL_EDITED, at, 4), 1);
	assert_int_equal(at[0], 1000 + PANEL_COALESCE_MS);
	assert_int_equal(discord_panels_count(p), 0);
	assert_int_equal(discord_panels_next(p), INT64_MAX);
	discord_panels_free(p);
}

/* Changes while a refresh is on its way: one more edit after it covers
 * them, paced from the one before. */
static void
test_changes_during_a_refresh_make_one_more(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan;

	(void)state;
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	discord_panels_changed(p, CH, MSG, 310);
	discord_panels_changed(p, CH, MSG, 320);
	/* Nothing else is due while it is on its way. */
	assert_int_equal(discord_panels_take_due(p, 2000, &chan, 1), 0);
	discord_panels_done(p, CH, PANEL_EDITED, 2000);
	/* Paced out already (300 + 1100 < 2000): due at once. */
	assert_int_equal(discord_panels_next(p), 2000);
	assert_int_equal(discord_panels_take_due(p, 2000, &chan, 1), 1);
	discord_panels_done(p, CH, PANEL_EDITED, 2050);
	assert_int_equal(discord_panels_take_due(p, 5000, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 0);
	discord_panels_free(p);
}

/* A message someone deleted: forgotten after one answer, not tried again
 * for the changes that still name it; a new panel is edited as usual. */
static void
test_a_deleted_panel_is_forgotten(void **state)
{
	struct discord_panels *p = discord_panels_new();
	int64_t at[8];

	(void)state;
	assert_int_equal(discord_panel_outcome(404, 10008), PANEL_GONE);
	assert_int_equal(discord_panel_outcome(404, 10003), PANEL_GONE);
	assert_int_equal(discord_panel_outcome(403, 50001), PANEL_GONE);
	assert_int_equal(discord_panel_outcome(403, 50013), PANEL_GONE);
	assert_int_equal(discord_panel_outcome(200, 0), PANEL_EDITED);
	assert_int_equal(discord_panel_outcome(429, 0), PANEL_FAILED);
	assert_int_equal(discord_panel_outcome(400, 50035), PANEL_FAILED);
	assert_int_equal(discord_panel_outcome(0, 0), PANEL_UNSURE);
	assert_int_equal(discord_panel_outcome(404, 0), PANEL_FAILED);
	assert_int_equal(discord_panel_outcome(500, 0), PANEL_UNSURE);
	assert_int_equal(discord_panel_outcome(503, 0), PANEL_UNSURE);
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(run(p, 0, 1000, 20, PANEL_GONE, at, 8), 1);
	for (int64_t t = 1000; t < 5000; t += 100)
		discord_panels_changed(p, CH, MSG, t);
	assert_int_equal(run(p, 1000, 20000, 20, PANEL_EDITED, at, 8), 0);
	assert_string_equal(discord_panels_message_of(p, CH), "");
	/* Remembered for a while, then the entry goes. */
	assert_int_equal(discord_panels_count(p), 1);
	assert_int_equal(run(p, 20000, 70000, 20, PANEL_EDITED, at, 8), 0);
	assert_int_equal(discord_panels_count(p), 0);
	/* A new panel there: its changes edit it. */
	discord_panels_changed(p, CH, "1600000000000000002", 70000);
	assert_int_equal(run(p, 70000, 72000, 20, PANEL_EDITED, at, 8), 1);
	assert_int_equal(discord_panels_count(p), 0);
	discord_panels_free(p);
}

/* Another failure (a 5xx, a 429 past its retries, no answer) is tried
 * again PANEL_RETRY_MS later, once. */
static void
test_a_failed_edit_is_tried_again(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan;

	(void)state;
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	discord_panels_done(p, CH, PANEL_FAILED, 400);
	assert_int_equal(discord_panels_next(p), 400 + PANEL_RETRY_MS);
	assert_int_equal(discord_panels_take_due(p, 400 + PANEL_RETRY_MS - 1, &chan, 1), 0);
	assert_int_equal(discord_panels_take_due(p, 400 + PANEL_RETRY_MS, &chan, 1), 1);
	discord_panels_done(p, CH, PANEL_EDITED, 400 + PANEL_RETRY_MS + 30);
	assert_int_equal(discord_panels_take_due(p, 60000, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 0);
	discord_panels_free(p);
}

/* Failures in a row: tried again 5, 10, 20 s later, then given up until
 * the next change (which starts afresh); a success between resets the
 * count. */
static void
test_failures_are_given_up(void **state)
{
	struct discord_panels *p = discord_panels_new();
	int64_t t = 300, wait = PANEL_RETRY_MS;
	uint64_t chan;

	(void)state;
	discord_panels_changed(p, CH, MSG, 0);
	for (int i = 1; i < PANEL_RETRIES; i++) {
		assert_int_equal(discord_panels_take_due(p, t, &chan, 1), 1);
		assert_false(discord_panels_done(p, CH, PANEL_FAILED, t + 10));
		assert_int_equal(discord_panels_next(p), t + 10 + wait);
		t += 10 + wait;
		wait *= 2;
	}
	assert_int_equal(t, 300 + 3 * 10 + 5000 + 10000 + 20000);
	assert_int_equal(discord_panels_take_due(p, t, &chan, 1), 1);
	assert_true(discord_panels_done(p, CH, PANEL_FAILED, t + 10));
	assert_int_equal(discord_panels_count(p), 0);
	assert_int_equal(discord_panels_next(p), INT64_MAX);
	/* The next change: a refresh as any, its failures counted afresh. */
	discord_panels_changed(p, CH, MSG, 100000);
	assert_int_equal(discord_panels_take_due(p, 100000 + PANEL_COALESCE_MS, &chan, 1), 1);
	assert_false(discord_panels_done(p, CH, PANEL_FAILED, 100400));
	assert_int_equal(discord_panels_take_due(p, 100400 + PANEL_RETRY_MS, &chan, 1), 1);
	assert_false(discord_panels_done(p, CH, PANEL_EDITED, 105500));
	discord_panels_changed(p, CH, MSG, 106000);
	/* Paced from the refresh before (taken at 105400). */
	assert_int_equal(discord_panels_take_due(p, 105400 + PANEL_EDIT_MS, &chan, 1), 1);
	assert_false(discord_panels_done(p, CH, PANEL_FAILED, 106600));
	assert_int_equal(discord_panels_next(p), 106600 + PANEL_RETRY_MS);
	discord_panels_free(p);
}

/* A press showed the panel anew (type 7) after the change it made: no edit
 * repeats it, and none starts while its update is on its way; a change
 * after the render still gets its edit. */
static void
test_a_press_that_showed_the_panel_saves_the_edit(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan, seq;

	(void)state;
	discord_panels_changed(p, CH, MSG, 0); /* the press's change, committed */
	seq = discord_panels_seq(p);           /* the panel's render is asked */
	discord_panels_updating(p, CH, MSG);
	assert_int_equal(discord_panels_take_due(p, 1000, &chan, 1), 0);
	assert_int_equal(discord_panels_next(p), INT64_MAX);
	discord_panels_updated(p, CH, seq, 0, true, 1000);
	assert_int_equal(discord_panels_take_due(p, 3000, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 0);
	/* A change comes while the press's render is on its way. */
	discord_panels_changed(p, CH, MSG, 4000);
	seq = discord_panels_seq(p);
	discord_panels_changed(p, CH, MSG, 4010);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, seq, 0, true, 4050);
	assert_int_equal(discord_panels_take_due(p, 4000 + PANEL_COALESCE_MS, &chan, 1), 1);
	discord_panels_done(p, CH, PANEL_EDITED, 4400);
	assert_int_equal(discord_panels_take_due(p, 9000, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 0);
	/* A render asked before the channel's entry went and came back: its
	 * number is older than any change counted since, which still gets
	 * its edit. */
	seq = discord_panels_seq(p);
	discord_panels_changed(p, CH, MSG, 10000);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, seq, 0, true, 10050);
	assert_int_equal(discord_panels_take_due(p, 10000 + PANEL_COALESCE_MS, &chan, 1), 1);
	discord_panels_free(p);
}

/* A press answered while a refresh is on its way (its edit, or a check's
 * read of the message): which write lands last is not known, so the
 * panel counts as showing the older one's changes, and the refresh after
 * them sends what it renders, whatever the message was known to show. */
static void
test_a_press_during_a_refresh_is_edited_in_after_it(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan, seq, a = discord_panel_hash("panel A", 7),
	                    b = discord_panel_hash("panel B", 7);

	(void)state;
	/* An edit, panel A, on its way; a press changes the channel and its
	 * answer shows panel B; the edit lands, then the answer. */
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, a));
	discord_panels_changed(p, CH, MSG, 310);
	seq = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_done(p, CH, PANEL_EDITED, 350);
	discord_panels_updated(p, CH, seq, b, true, 360);
	assert_int_equal(discord_panels_take_due(p, 300 + PANEL_EDIT_MS - 1, &chan, 1), 0);
	assert_int_equal(discord_panels_take_due(p, 300 + PANEL_EDIT_MS, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, b));
	discord_panels_done(p, CH, PANEL_EDITED, 1450);
	assert_int_equal(discord_panels_take_due(p, 9000, &chan, 1), 0);
	discord_panels_free(p);

	/* After a start: the check's read on its way; a press's answer lands
	 * before the read's, which shows panel A, as rendered. */
	p = discord_panels_new();
	discord_panels_check(p, CH, MSG, 10000);
	assert_int_equal(discord_panels_take_due(p, 10000, &chan, 1), 1);
	assert_true(discord_panels_checking(p, CH));
	assert_false(discord_panels_same(p, CH, a));
	discord_panels_changed(p, CH, MSG, 10010);
	seq = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, seq, b, true, 10020);
	discord_panels_done(p, CH, PANEL_EDITED, 10050);
	assert_int_equal(discord_panels_take_due(p, 10000 + PANEL_EDIT_MS, &chan, 1), 1);
	assert_false(discord_panels_checking(p, CH));
	assert_false(discord_panels_same(p, CH, b));
	discord_panels_free(p);
}

/* Two presses' updates on their way at once (a replayed press's answer
 * waits for Discord's word on it) land in an order not known: the panel
 * counts as showing the older one's changes, and a refresh follows. An
 * update that did not land (its answer failed, or went as follow-ups
 * only) shows nothing: its change gets an edit. */
static void
test_updates_on_their_way_together_are_edited_in_after(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan, one, two, a = discord_panel_hash("panel A", 7),
	                         b = discord_panel_hash("panel B", 7);

	(void)state;
	discord_panels_changed(p, CH, MSG, 0);
	one = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_changed(p, CH, MSG, 100);
	two = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, two, b, true, 200);
	assert_int_equal(discord_panels_next(p), INT64_MAX); /* one's is on its way */
	discord_panels_updated(p, CH, one, a, true, 250);
	assert_int_equal(discord_panels_take_due(p, 250, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, b));
	discord_panels_done(p, CH, PANEL_EDITED, 300);
	assert_int_equal(discord_panels_take_due(p, 5000, &chan, 1), 0);
	/* An update that did not land. */
	discord_panels_changed(p, CH, MSG, 6000);
	one = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, one, a, false, 6100);
	assert_int_equal(discord_panels_take_due(p, 6000 + PANEL_COALESCE_MS, &chan, 1), 1);
	discord_panels_free(p);
}

/* The render names the message (a newer /panel moved it) or none. */
static void
test_the_render_names_the_message(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan;

	(void)state;
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	discord_panels_message(p, CH, "1600000000000000007");
	assert_string_equal(discord_panels_message_of(p, CH), "1600000000000000007");
	discord_panels_done(p, CH, PANEL_EDITED, 350);
	discord_panels_changed(p, CH, "1600000000000000007", 400);
	assert_int_equal(discord_panels_take_due(p, 2000, &chan, 1), 1);
	discord_panels_message(p, CH, "");
	discord_panels_done(p, CH, PANEL_NONE, 2010);
	assert_int_equal(discord_panels_count(p), 0);
	discord_panels_free(p);
}

/* A refresh that renders what the message shows already sends nothing. */
static void
test_the_same_body_is_not_sent_again(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan, a = discord_panel_hash("panel A", 7), b = discord_panel_hash("panel B", 7);

	(void)state;
	assert_true(a != b && a != 0);
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 350);
	discord_panels_changed(p, CH, MSG, 2000); /* a roll: the panel is the same */
	assert_int_equal(discord_panels_take_due(p, 2300, &chan, 1), 1);
	assert_true(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 2300);
	discord_panels_changed(p, CH, MSG, 4000);
	assert_int_equal(discord_panels_take_due(p, 4300, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, b));
	/* The edit was refused: the message still shows a. */
	discord_panels_done(p, CH, PANEL_FAILED, 4350);
	assert_int_equal(discord_panels_take_due(p, 4350 + PANEL_RETRY_MS, &chan, 1), 1);
	assert_true(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 9400);
	/* An edit of b with no answer (or a 5xx) may have landed: a later
	 * render of a is sent, not taken as what the message shows. */
	discord_panels_changed(p, CH, MSG, 20000);
	assert_int_equal(discord_panels_take_due(p, 20300, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, b));
	discord_panels_done(p, CH, discord_panel_outcome(0, 0), 20350);
	assert_false(discord_panels_shows(p, CH, MSG, a));
	assert_int_equal(discord_panels_take_due(p, 20350 + PANEL_RETRY_MS, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 25400);
	assert_true(discord_panels_shows(p, CH, MSG, a));
	discord_panels_free(p);
}

/* recheck5 F10: a press whose panel renders to what the message is known
 * to show (hidden Tension raised) needs no update of it, and its change
 * no edit; whenever a write to the message is on its way, or what it
 * shows is not known (writes crossed, a check after a start, another
 * message), the press updates it as before. */
static void
test_a_press_that_changes_nothing_shown_needs_no_update(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan, seq, a = discord_panel_hash("panel A", 7),
	                    b = discord_panel_hash("panel B", 7);

	(void)state;
	discord_panels_check(p, CH, MSG, 100); /* after a start: not known */
	assert_false(discord_panels_shows(p, CH, MSG, a));
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, a));
	assert_false(discord_panels_shows(p, CH, MSG, a)); /* the edit is on its way */
	discord_panels_done(p, CH, PANEL_EDITED, 350);
	assert_true(discord_panels_shows(p, CH, MSG, a));
	assert_false(discord_panels_shows(p, CH, MSG, b));
	assert_false(discord_panels_shows(p, CH, "1600000000000000002", a));
	assert_false(discord_panels_shows(p, CH + 1, MSG, a));
	assert_false(discord_panels_shows(p, CH, MSG, 0));
	/* The press's hidden change, committed; its panel renders to a: no
	 * update, and the refresh of the change sends nothing. */
	discord_panels_changed(p, CH, MSG, 2000);
	assert_true(discord_panels_shows(p, CH, MSG, a));
	assert_int_equal(discord_panels_take_due(p, 2300, &chan, 1), 1);
	assert_true(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 2300);
	assert_true(discord_panels_shows(p, CH, MSG, a));
	/* A press's update on its way: not known until it is over. */
	discord_panels_changed(p, CH, MSG, 4000);
	seq = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	assert_false(discord_panels_shows(p, CH, MSG, a));
	assert_false(discord_panels_shows(p, CH, MSG, b));
	discord_panels_updated(p, CH, seq, b, true, 4100);
	assert_true(discord_panels_shows(p, CH, MSG, b));
	assert_false(discord_panels_shows(p, CH, MSG, a));
	/* Two updates that crossed: which landed last is not known. */
	discord_panels_changed(p, CH, MSG, 6000);
	seq = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, seq, a, true, 6100);
	discord_panels_updated(p, CH, seq, b, true, 6150);
	assert_false(discord_panels_shows(p, CH, MSG, a));
	assert_false(discord_panels_shows(p, CH, MSG, b));
	discord_panels_free(p);
}

/* delver(8): a change the panel does not show (a roll) sends no edit,
 * also when it comes after the panel went quiet and its pacing is over:
 * an entry that knows what its message shows (an edit's body, a posted
 * panel's, a press's update's) stays PANEL_KEEP_MS, then goes. */
static void
test_a_quiet_panel_remembers_what_it_shows(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t chan, seq, a = discord_panel_hash("panel A", 7),
	                    b = discord_panel_hash("panel B", 7);
	int64_t t;

	(void)state;
	discord_panels_changed(p, CH, MSG, 0);
	assert_int_equal(discord_panels_take_due(p, 300, &chan, 1), 1);
	assert_false(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 350);
	/* paced out: the timer finds nothing to do, and the entry stays */
	assert_int_equal(discord_panels_take_due(p, 300 + PANEL_EDIT_MS, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 1);
	assert_int_equal(discord_panels_next(p), 350 + PANEL_KEEP_MS);
	discord_panels_changed(p, CH, MSG, 5000); /* a roll */
	assert_int_equal(discord_panels_take_due(p, 5000 + PANEL_COALESCE_MS, &chan, 1), 1);
	assert_true(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, 5300);
	/* quiet for PANEL_KEEP_MS: the entry goes */
	t = 5300 + PANEL_KEEP_MS;
	assert_int_equal(discord_panels_take_due(p, t - 1, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 1);
	assert_int_equal(discord_panels_take_due(p, t, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 0);
	/* a panel posted: its body is known too */
	discord_panels_shown(p, CH, MSG, discord_panels_seq(p), a, t);
	assert_int_equal(discord_panels_take_due(p, t + PANEL_EDIT_MS, &chan, 1), 0);
	discord_panels_changed(p, CH, MSG, t + 2000);
	assert_int_equal(discord_panels_take_due(p, t + 2000 + PANEL_COALESCE_MS, &chan, 1), 1);
	assert_true(discord_panels_same(p, CH, a));
	discord_panels_done(p, CH, PANEL_EDITED, t + 2400);
	/* a press's update: its body is known too, and a hidden change (a
	 * secret roll, the hidden Tension raised) after it sends nothing */
	discord_panels_changed(p, CH, MSG, t + 5000);
	seq = discord_panels_seq(p);
	discord_panels_updating(p, CH, MSG);
	discord_panels_updated(p, CH, seq, b, true, t + 5050);
	assert_int_equal(discord_panels_take_due(p, t + 8000, &chan, 1), 0);
	assert_int_equal(discord_panels_count(p), 1);
	discord_panels_changed(p, CH, MSG, t + 9000);
	assert_int_equal(discord_panels_take_due(p, t + 9000 + PANEL_COALESCE_MS, &chan, 1), 1);
	assert_true(discord_panels_same(p, CH, b));
	discord_panels_free(p);
}

/* Many channels: each paced on its own; taken earliest first, max at a
 * time. */
static void
test_channels_are_apart(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t out[8];

	(void)state;
	discord_panels_changed(p, 3, MSG, 20);
	discord_panels_changed(p, 1, MSG, 0);
	discord_panels_changed(p, 2, MSG, 10);
	assert_int_equal(discord_panels_take_due(p, 1000, out, 2), 2);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 2);
	assert_int_equal(discord_panels_take_due(p, 1000, out, 8), 1);
	assert_int_equal(out[0], 3);
	discord_panels_free(p);
}

/* Checks after a start: each due at the time given, taken as a check
 * (the message is read first); one that shows the panel already ends with
 * no edit, its entry kept PANEL_KEEP_MS with what it shows; a channel with
 * a change pending is left as it is. */
static void
test_a_check_reads_first(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t out[4];

	(void)state;
	discord_panels_check(p, 1, MSG, 1000);
	discord_panels_check(p, 2, MSG, 1000 + PANEL_CHECK_GAP_MS);
	assert_int_equal(discord_panels_next(p), 1000);
	assert_int_equal(discord_panels_take_due(p, 1000, out, 4), 1);
	assert_int_equal(out[0], 1);
	assert_true(discord_panels_checking(p, 1));
	assert_false(discord_panels_checking(p, 2)); /* not on its way */
	assert_string_equal(discord_panels_message_of(p, 1), MSG);
	/* It showed the panel: an edit is not sent (the body is known now). */
	assert_false(discord_panels_same(p, 1, 77));
	discord_panels_done(p, 1, PANEL_EDITED, 1050);
	assert_false(discord_panels_checking(p, 1));
	assert_int_equal(discord_panels_take_due(p, 1000 + PANEL_CHECK_GAP_MS - 1, out, 4), 0);
	assert_int_equal(discord_panels_take_due(p, 1000 + PANEL_CHECK_GAP_MS, out, 4), 1);
	assert_int_equal(out[0], 2);
	discord_panels_done(p, 2, PANEL_EDITED, 1300);
	/* Both current: 2's entry goes once paced out; 1's, which knows what
	 * its message shows, PANEL_KEEP_MS after its check. */
	assert_int_equal(discord_panels_take_due(p, 5000, out, 4), 0);
	assert_int_equal(discord_panels_count(p), 1);
	assert_int_equal(discord_panels_next(p), 1050 + PANEL_KEEP_MS);
	/* A change pending: the check leaves it as it is. */
	discord_panels_changed(p, 3, MSG, 6000);
	discord_panels_check(p, 3, MSG, 9000);
	assert_int_equal(discord_panels_next(p), 6000 + PANEL_COALESCE_MS);
	assert_int_equal(discord_panels_take_due(p, 6000 + PANEL_COALESCE_MS, out, 4), 1);
	assert_false(discord_panels_checking(p, 3));
	discord_panels_free(p);
}

/* A change to a channel whose check waits for its turn brings it forward
 * as an ordinary refresh, coalesced (its edit shows the change; nothing
 * is read). */
static void
test_a_change_turns_a_check_into_a_refresh(void **state)
{
	struct discord_panels *p = discord_panels_new();
	uint64_t out[2];

	(void)state;
	discord_panels_check(p, CH, MSG, 30000);
	discord_panels_changed(p, CH, MSG, 1000);
	assert_int_equal(discord_panels_next(p), 1000 + PANEL_COALESCE_MS);
	assert_int_equal(discord_panels_take_due(p, 1000 + PANEL_COALESCE_MS, out, 2), 1);
	assert_false(discord_panels_checking(p, CH));
	discord_panels_done(p, CH, PANEL_EDITED, 1400);
	assert_int_equal(discord_panels_take_due(p, 40000, out, 2), 0);
	assert_int_equal(discord_panels_count(p), 0);
	/* A check found gone: forgotten as an edit's 404 is. */
	discord_panels_check(p, 5, MSG, 50000);
	assert_int_equal(discord_panels_take_due(p, 50000, out, 2), 1);
	assert_true(discord_panels_checking(p, 5));
	discord_panels_done(p, 5, PANEL_GONE, 50010);
	discord_panels_changed(p, 5, MSG, 50020);
	assert_int_equal(discord_panels_take_due(p, 59000, out, 2), 0);
	discord_panels_free(p);
}

/* A Discord channel key names its channel's id; any other key none. */
static void
test_a_channel_key_names_its_id(void **state)
{
	(void)state;
	assert_int_equal(discord_panel_chan("discord:1300000000000000000"), CH);
	assert_int_equal(discord_panel_chan("discord:7"), 7);
	assert_int_equal(discord_panel_chan("discord:"), 0);
	assert_int_equal(discord_panel_chan("discord:12x"), 0);
	assert_int_equal(discord_panel_chan("discord:-5"), 0);
	/* past 64 bits: no channel (not a saturated id) */
	assert_int_equal(discord_panel_chan("discord:18446744073709551616"), 0);
	assert_int_equal(discord_panel_chan("discord:123456789012345678901"), 0);
	assert_int_equal(discord_panel_chan("irc:net:#chan"), 0);
	assert_int_equal(discord_panel_chan("console:main"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_busy_channels_are_coalesced_and_paced),
	    cmocka_unit_test(test_one_change_one_edit),
	    cmocka_unit_test(test_changes_during_a_refresh_make_one_more),
	    cmocka_unit_test(test_a_deleted_panel_is_forgotten),
	    cmocka_unit_test(test_a_failed_edit_is_tried_again),
	    cmocka_unit_test(test_failures_are_given_up),
	    cmocka_unit_test(test_a_press_that_showed_the_panel_saves_the_edit),
	    cmocka_unit_test(test_a_press_during_a_refresh_is_edited_in_after_it),
	    cmocka_unit_test(test_updates_on_their_way_together_are_edited_in_after),
	    cmocka_unit_test(test_the_render_names_the_message),
	    cmocka_unit_test(test_the_same_body_is_not_sent_again),
	    cmocka_unit_test(test_a_quiet_panel_remembers_what_it_shows),
	    cmocka_unit_test(test_a_press_that_changes_nothing_shown_needs_no_update),
	    cmocka_unit_test(test_channels_are_apart),
	    cmocka_unit_test(test_a_check_reads_first),
	    cmocka_unit_test(test_a_change_turns_a_check_into_a_refresh),
	    cmocka_unit_test(test_a_channel_key_names_its_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
