/* bot/discord/discord_defer: which held answers are deferred when, on a
 * virtual clock, and the edit that completes a deferral. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_proto.h"
#include "rules/base/mem.h"

#define MS  1000000ull                /* ns */
#define RX0 (1000ull * 1000000000ull) /* a monotonic clock, ns */
#define CB  "/interactions/1/tok/callback"
#define WH  "/webhooks/42/tok"

/* The shedding deadline of an interaction received at rx, age ms old. */
static uint64_t
deadline_of(uint64_t rx, uint64_t age_ms)
{
	return rx + (SHED_WINDOW_MS - SHED_MARGIN_MS - age_ms) * MS;
}

/* Due 2 s after the creation: the receipt less the age the deadline
 * tells; never after 2 s from the receipt. */
static void
due_from_creation(void **unused)
{
	assert_int_equal(discord_defer_due_at(RX0, deadline_of(RX0, 0)), RX0 + 2000 * MS);
	assert_int_equal(discord_defer_due_at(RX0, deadline_of(RX0, 300)), RX0 + 1700 * MS);
	/* Older than 2 s on arrival: due at once (before its receipt). */
	assert_int_equal(discord_defer_due_at(RX0, deadline_of(RX0, 2400)), RX0 - 400 * MS);
	/* A deadline past the window (a clock believed behind): the receipt. */
	assert_int_equal(discord_defer_due_at(RX0, RX0 + 9000 * MS), RX0 + 2000 * MS);
	/* Always before the shedding horizon, with 500 ms to spare. */
	for (uint64_t age = 0; age < 2500; age += 100)
		assert_int_equal(deadline_of(RX0, age) -
		                     discord_defer_due_at(RX0, deadline_of(RX0, age)),
		                 500 * MS);
}

static struct defer_item *
add(struct defer *df, uint64_t id, int type, bool private, uint64_t rx, uint64_t age_ms)
{
	return discord_defer_add(df, id, type, private, CB, WH, rx, deadline_of(rx, age_ms));
}

/* Nothing is due before its time, each item is due once, in order, and
 * the next wake-up is always in the future once the due ones are taken. */
static void
due_once_in_order(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *out[8];

	assert_int_equal(discord_defer_next(df), 0);
	assert_int_equal(discord_defer_take_due(df, RX0, out, 8), 0);
	add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	add(df, 2, DISCORD_INTERACTION_COMMAND, false, RX0 + 10 * MS, 0);
	add(df, 3, DISCORD_INTERACTION_COMMAND, false, RX0 + 20 * MS, 500);  /* older */
	assert_null(add(df, 2, DISCORD_INTERACTION_COMMAND, false, RX0, 0)); /* kept already */
	assert_int_equal(discord_defer_count(df), 3);
	assert_int_equal(discord_defer_next(df), RX0 + 1520 * MS);
	/* 1 ns early: nothing. */
	assert_int_equal(discord_defer_take_due(df, RX0 + 1520 * MS - 1, out, 8), 0);
	assert_int_equal(discord_defer_take_due(df, RX0 + 1520 * MS, out, 8), 1);
	assert_int_equal(out[0]->id, 3);
	assert_int_equal(out[0]->state, DEFER_SENDING);
	assert_int_equal(discord_defer_next(df), RX0 + 2000 * MS);
	/* Hours later, the two others at once, and never again. */
	assert_int_equal(discord_defer_take_due(df, RX0 + 3600000 * MS, out, 8), 2);
	assert_int_equal(out[0]->id, 1);
	assert_int_equal(out[1]->id, 2);
	assert_int_equal(discord_defer_next(df), 0);
	assert_int_equal(discord_defer_take_due(df, RX0 + 7200000 * MS, out, 8), 0);
	assert_int_equal(discord_defer_count(df), 3); /* kept until their answers */
	discord_defer_free(df);
}

/* An answer in time takes its item out: it is never deferred. The wake-up
 * that was set for it finds nothing and moves to the next one. */
static void
answered_in_time_never_deferred(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *out[8];

	add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	add(df, 2, DISCORD_INTERACTION_COMMAND, false, RX0 + 100 * MS, 0);
	discord_defer_remove(df, discord_defer_find(df, 1));
	assert_null(discord_defer_find(df, 1));
	assert_int_equal(discord_defer_next(df), RX0 + 2000 * MS); /* early, allowed */
	assert_int_equal(discord_defer_take_due(df, RX0 + 2000 * MS, out, 8), 0);
	assert_int_equal(discord_defer_next(df), RX0 + 2100 * MS); /* corrected */
	discord_defer_remove(df, discord_defer_find(df, 2));
	assert_int_equal(discord_defer_take_due(df, RX0 + 2100 * MS, out, 8), 0);
	assert_int_equal(discord_defer_next(df), 0);
	discord_defer_free(df);
}

/* More due at once than one call takes: the rest on the next call. */
static void
due_in_batches(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *out[4];

	for (uint64_t i = 1; i <= 10; i++)
		add(df, i, DISCORD_INTERACTION_COMMAND, false, RX0 + i * MS, 0);
	assert_int_equal(discord_defer_take_due(df, RX0 + 5000 * MS, out, 4), 4);
	assert_true(discord_defer_next(df) <= RX0 + 5000 * MS); /* more are due */
	assert_int_equal(discord_defer_take_due(df, RX0 + 5000 * MS, out, 4), 4);
	assert_int_equal(discord_defer_take_due(df, RX0 + 5000 * MS, out, 4), 2);
	assert_int_equal(out[1]->id, 10);
	assert_int_equal(discord_defer_next(df), 0);
	discord_defer_free(df);
}

/* More due than one call takes, added in another order than their dues:
 * the earliest dues go first, equal dues in the order they were added;
 * items answered meanwhile are never taken. */
static void
earliest_due_first(void **unused)
{
	static const uint64_t want[] = {7, 5, 6, 3, 1};
	struct defer *df = discord_defer_new();
	struct defer_item *out[2];
	size_t got = 0, k;

	/* ids 1..8 received 80, 70, ..., 10 ms after RX0; 5 and 6 at once */
	for (uint64_t i = 1; i <= 8; i++)
		add(df, i, DISCORD_INTERACTION_COMMAND, false,
		    RX0 + (i == 6 ? 40 : 90 - 10 * i) * MS, 0);
	discord_defer_remove(df, discord_defer_find(df, 8));
	discord_defer_remove(df, discord_defer_find(df, 4));
	discord_defer_remove(df, discord_defer_find(df, 2));
	while ((k = discord_defer_take_due(df, RX0 + 5000 * MS, out, 2)) > 0)
		for (size_t i = 0; i < k; i++, got++)
			assert_int_equal(out[i]->id, want[got]);
	assert_int_equal(got, 5);
	assert_int_equal(discord_defer_next(df), 0);
	discord_defer_free(df);
}

static void
bodies(void **unused)
{
	struct defer *df = discord_defer_new();

	assert_string_equal(
	    discord_defer_body(add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0)),
	    "{\"type\":5}");
	assert_string_equal(
	    discord_defer_body(add(df, 2, DISCORD_INTERACTION_COMMAND, true, RX0, 0)),
	    "{\"type\":5,\"data\":{\"flags\":64}}");
	assert_string_equal(
	    discord_defer_body(add(df, 3, DISCORD_INTERACTION_COMPONENT, false, RX0, 0)),
	    "{\"type\":6}");
	discord_defer_free(df);
}

/* An answer as discord_interact renders it: a callback with its message,
 * and n follow-ups. */
static void
answer_of(struct interact_out *o, const char *data, size_t n, bool error)
{
	char buf[512];

	memset(o, 0, sizeof(*o));
	snprintf(buf, sizeof(buf), "{\"type\":4,\"data\":%s}", data);
	o->callback_body = xstrdup(buf);
	o->callback_path = xstrdup(CB);
	for (size_t i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "{\"content\":\"part %zu\"}", i + 2);
		o->followups[o->nfollowups++] = xstrdup(buf);
	}
	if (n > 0)
		o->followup_path = xstrdup(WH);
	o->error = error;
}

/* A public answer edits the deferral, its follow-ups after it. */
static void
edit_public(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	struct interact_out o;
	char *patch;

	answer_of(&o, "{\"content\":\"Turn 2\",\"allowed_mentions\":{\"parse\":[]}}", 1, false);
	assert_int_equal(discord_defer_edit(it, &o, &patch), 0);
	assert_string_equal(patch, "{\"content\":\"Turn 2\",\"allowed_mentions\":{\"parse\":[]}}");
	assert_int_equal(o.nfollowups, 1);
	assert_string_equal(o.followups[0], "{\"content\":\"part 2\"}");
	assert_string_equal(o.followup_path, WH);
	free(patch);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* A form (MODAL) cannot open once the interaction was deferred: its
 * message for that case edits the deferral instead. */
static void
edit_of_a_form(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMMAND, true, RX0, 0);
	struct interact_out o;
	char *patch;

	(void)unused;
	memset(&o, 0, sizeof(o));
	o.callback_body = xstrdup("{\"type\":9,\"data\":{\"custom_id\":\"m:x|y\",\"title\":\"t\","
	                          "\"components\":[]}}");
	o.modal_late = xstrdup("{\"type\":4,\"data\":{\"content\":\"The form could not open "
	                       "in time.\",\"flags\":64,\"allowed_mentions\":{\"parse\":[]}}}");
	o.callback_path = xstrdup(CB);
	assert_int_equal(discord_defer_edit(it, &o, &patch), 0);
	assert_string_equal(patch, "{\"content\":\"The form could not open in time.\","
	                           "\"allowed_mentions\":{\"parse\":[]}}");
	free(patch);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* The edit carries no ephemeral flag (the deferral decided); an error
 * edits even a public deferral (errors hide nothing); embeds stay
 * suppressed. */
static void
edit_drops_the_ephemeral_flag(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *priv = add(df, 1, DISCORD_INTERACTION_COMMAND, true, RX0, 0);
	struct defer_item *pub = add(df, 2, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	struct interact_out o;
	char *patch;

	answer_of(&o, "{\"content\":\"psst\",\"flags\":64}", 0, false);
	assert_int_equal(discord_defer_edit(priv, &o, &patch), 0);
	assert_string_equal(patch, "{\"content\":\"psst\"}");
	assert_int_equal(o.nfollowups, 0);
	assert_string_equal(o.followup_path, WH); /* set for what may follow */
	free(patch);
	discord_interact_out_clear(&o);
	answer_of(&o, "{\"content\":\"The disk is full.\",\"flags\":68}", 0, true);
	assert_int_equal(discord_defer_edit(pub, &o, &patch), 0);
	assert_string_equal(patch, "{\"content\":\"The disk is full.\",\"flags\":4}");
	assert_int_equal(o.nfollowups, 0);
	free(patch);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* A private answer to a public deferral never shows in the channel: the
 * deferral says it is private, the answer follows as an ephemeral message
 * before the other parts. */
static void
private_answer_to_public_deferral(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	struct interact_out o;
	char *patch;

	answer_of(&o, "{\"content\":\"psst\",\"flags\":64}", 1, false);
	assert_int_equal(discord_defer_edit(it, &o, &patch), 0);
	assert_string_equal(patch, "{\"content\":\"" DEFER_PRIVATE_NOTE
	                           "\",\"allowed_mentions\":{\"parse\":[]}}");
	assert_int_equal(o.nfollowups, 2);
	assert_string_equal(o.followups[0], "{\"content\":\"psst\",\"flags\":64}");
	assert_string_equal(o.followups[1], "{\"content\":\"part 2\"}");
	free(patch);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* A button's deferral (type 6) updated nothing: the whole answer follows
 * as new messages, the first one as the callback had it. */
static void
button_answer_follows_up(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMPONENT, false, RX0, 0);
	struct interact_out o;
	char *patch = (char *)"unset";

	answer_of(&o, "{\"content\":\"Rolled 7\"}", 2, false);
	assert_int_equal(discord_defer_edit(it, &o, &patch), 0);
	assert_null(patch);
	assert_int_equal(o.nfollowups, 3);
	assert_string_equal(o.followups[0], "{\"content\":\"Rolled 7\"}");
	assert_string_equal(o.followups[2], "{\"content\":\"part 3\"}");
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* A button whose reply replaces its message, deferred (type 6): the
 * update edits @original, which is the pressed message; its other parts
 * follow as before. */
static void
update_answer_edits_the_pressed_message(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMPONENT, false, RX0, 0);
	struct interact_out o;
	char *patch = NULL;

	answer_of(&o, "{\"content\":\"The party is in a safe area\"}", 1, false);
	free(o.callback_body);
	o.callback_body = xstrdup("{\"type\":7,\"data\":{\"content\":\"The party is in a safe "
	                          "area\"}}");
	assert_int_equal(discord_defer_edit(it, &o, &patch), 0);
	assert_non_null(patch);
	assert_string_equal(patch, "{\"content\":\"The party is in a safe area\"}");
	assert_int_equal(o.nfollowups, 1);
	assert_string_equal(o.followups[0], "{\"content\":\"part 2\"}");
	free(patch);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* A press whose answer leaves the pressed message as it is (type 6: the
 * live panel shows what the press did already), deferred: nothing edits
 * @original, the follow-ups are the whole answer, in order. */
static void
unchanged_answer_is_all_follow_ups(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMPONENT, false, RX0, 0);
	struct interact_out o;
	char *patch = (char *)"unset";

	answer_of(&o, "{}", 2, false);
	free(o.callback_body);
	o.callback_body = xstrdup("{\"type\":6}");
	assert_int_equal(discord_defer_edit(it, &o, &patch), 0);
	assert_null(patch);
	assert_int_equal(o.nfollowups, 2);
	assert_string_equal(o.followups[0], "{\"content\":\"part 2\"}");
	assert_string_equal(o.followups[1], "{\"content\":\"part 3\"}");
	assert_string_equal(o.followup_path, WH);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* Not a callback with a message: refused, the answer unchanged. */
static void
edit_refuses_a_bad_body(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	struct interact_out o;
	char *patch;

	memset(&o, 0, sizeof(o));
	o.callback_body = xstrdup("{\"type\":8}");
	assert_int_equal(discord_defer_edit(it, &o, &patch), -1);
	assert_null(patch);
	assert_null(o.followup_path);
	discord_interact_out_clear(&o);
	discord_defer_free(df);
}

/* An item keeps its answer until it is removed or the table freed (the
 * sanitizer build checks nothing leaks). */
static void
kept_answer_freed(void **unused)
{
	struct defer *df = discord_defer_new();
	struct defer_item *it = add(df, 1, DISCORD_INTERACTION_COMMAND, false, RX0, 0);

	answer_of(&it->ready, "{\"content\":\"x\"}", 2, false);
	it->have_ready = true;
	add(df, 2, DISCORD_INTERACTION_COMMAND, false, RX0, 0);
	answer_of(&discord_defer_find(df, 2)->ready, "{\"content\":\"y\"}", 1, false);
	discord_defer_remove(df, it);
	discord_defer_free(df);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(edit_of_a_form),
	    cmocka_unit_test(due_from_creation),
	    cmocka_unit_test(due_once_in_order),
	    cmocka_unit_test(answered_in_time_never_deferred),
	    cmocka_unit_test(due_in_batches),
	    cmocka_unit_test(earliest_due_first),
	    cmocka_unit_test(bodies),
	    cmocka_unit_test(edit_public),
	    cmocka_unit_test(edit_drops_the_ephemeral_flag),
	    cmocka_unit_test(private_answer_to_public_deferral),
	    cmocka_unit_test(button_answer_follows_up),
	    cmocka_unit_test(update_answer_edits_the_pressed_message),
	    cmocka_unit_test(unchanged_answer_is_all_follow_ups),
	    cmocka_unit_test(edit_refuses_a_bad_body),
	    cmocka_unit_test(kept_answer_freed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
