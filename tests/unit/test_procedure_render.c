/*
 * procedure_render: what the channel reads of a turn's events while
 * Tension is hidden. Every encounter or sign event is veiled unless it is
 * one of the few listed as public, so a kind added later cannot tell the
 * channel what the GM's screen keeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "bot/discord/render_discord.h"
#include "commands/core/reply.h"
#include "commands/procedure/procedure_render.h"
#include "rules/base/buf.h"

#define SIGN_VEILED                                                                                \
	"A sign of danger nearby; what it belongs to is behind the GM's screen, and the GM "       \
	"describes it.\n"
#define ENCOUNTER_VEILED                                                                           \
	"The encounter is behind the GM's screen: the GM says what the party meets, if "           \
	"anything (/surprise checks who is caught off guard).\n"

/* The encounter and sign kinds the channel reads as they are. */
static bool
public_kind(enum turn_event_kind k)
{
	return k == TE_SAFE_AREA || k == TE_SIGN_SAFE || k == TE_SURPRISED;
}

/* Renders a report of the one event k (turn 3) as the channel reads it
 * with Tension hidden or not, into out. */
static void
render_one(enum turn_event_kind k, bool hidden, struct buf *out)
{
	struct procedure_state s;
	struct turn_report r;
	struct reply *rep = reply_new();

	memset(&s, 0, sizeof(s));
	turn_clock_init(&s.clock);
	s.proc = PROC_EXPLORATION;
	turn_report_init(&r);
	r.ev[0].kind = k;
	r.ev[0].turn = 3;
	r.n = 1;
	snprintf(r.sign, sizeof(r.sign), "%s", "a gelatinous cube");
	procedure_render_report(rep, &r, &s, false, hidden);
	buf_reset(out);
	render_text(reply_msg(rep, REPLY_CHANNEL), false, out);
	reply_free(rep);
}

/* Each encounter or sign kind not listed as public reads the veiled line of
 * its topic alone under hidden Tension, and procedure_render_veils() says
 * so; the public ones and every other kind are not veiled. */
static void
unlisted_kinds_are_veiled(void **unused)
{
	struct buf b;
	int veiled = 0;

	(void)unused;
	buf_init(&b, 4096);
	for (int i = 0; i < TE_KIND_COUNT; i++) {
		enum turn_event_kind k = (enum turn_event_kind)i;
		enum turn_topic topic = turn_event_topic(k);
		struct turn_report r;

		turn_report_init(&r);
		r.ev[0].kind = k;
		r.n = 1;
		if (topic == TURN_TOPIC_OTHER || public_kind(k)) {
			if (procedure_render_veils(&r))
				fail_msg("kind %d is veiled, but is not an encounter or sign kind "
				         "or is public",
				         i);
			continue;
		}
		if (!procedure_render_veils(&r))
			fail_msg("kind %d (an encounter or sign kind) is not veiled", i);
		render_one(k, true, &b);
		if (strcmp(buf_str(&b),
		           topic == TURN_TOPIC_SIGN ? SIGN_VEILED : ENCOUNTER_VEILED) != 0)
			fail_msg("kind %d reads under hidden Tension: %s", i, buf_str(&b));
		veiled++;
	}
	/* encounter, sign met, rolled, struck; sign hint, remembered, struck (a kind
	 * added to these topics counts here too) */
	assert_int_equal(veiled, 7);
	buf_free(&b);
}

/* A veiled kind read with Tension in the open says what it is. */
static void
open_tension_reads_the_event(void **unused)
{
	struct buf b;

	(void)unused;
	buf_init(&b, 4096);
	render_one(TE_SIGN_HINT, false, &b);
	assert_string_equal(buf_str(&b), "A sign of danger nearby (noise, smell, tracks or a "
	                                 "shadow); the GM describes it.\n");
	render_one(TE_SIGN_HINT, true, &b);
	assert_string_equal(buf_str(&b), SIGN_VEILED);
	render_one(TE_SAFE_AREA, true, &b);
	assert_string_equal(buf_str(&b), "No encounter: this is a safe area, where no wandering "
	                                 "monsters come.\n");
	buf_free(&b);
}

/* newcomer F5's kin: the events a report could not keep are counted in
 * words that agree with their number; when all were routine reminders,
 * the line says so (nothing that matters was lost). */
static void
dropped_events_counted(void **unused)
{
#define SAFE "No encounter: this is a safe area, where no wandering monsters come.\n"
	static const struct {
		size_t dropped, key;
		const char *want;
	} cases[] = {
	    {1, 1, SAFE "(1 more event not shown)\n"},
	    {2, 1, SAFE "(2 more events not shown)\n"},
	    {1, 0, SAFE "(1 more reminder of rests due or lights' last turns not shown)\n"},
	    {2, 0, SAFE "(2 more reminders of rests due or lights' last turns not shown)\n"},
	};
#undef SAFE
	struct procedure_state s;
	struct turn_report r;
	struct buf b;

	(void)unused;
	memset(&s, 0, sizeof(s));
	turn_clock_init(&s.clock);
	s.proc = PROC_EXPLORATION;
	buf_init(&b, 4096);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct reply *rep = reply_new();

		turn_report_init(&r);
		r.ev[0].kind = TE_SAFE_AREA;
		r.n = 1;
		r.dropped = cases[i].dropped;
		r.dropped_key = cases[i].key;
		procedure_render_report(rep, &r, &s, false, false);
		buf_reset(&b);
		render_text(reply_msg(rep, REPLY_CHANNEL), false, &b);
		reply_free(rep);
		assert_string_equal(buf_str(&b), cases[i].want);
	}
	buf_free(&b);
}

/* recheck9 F19: the folded rest lines are working, the line that stands
 * for them brief: the console, reply_plain and Discord show every
 * reminder and no brief line. */
static void
folded_rests_whole_elsewhere(void **unused)
{
	static const char whole[] =
	    "Turn 6: 6 turns without a rest: rest next turn (/rest), or each character makes a CON "
	    "save DC 12; on a failure gain 1 Fatigue.\n"
	    "Turn 7: The rest was skipped: each character makes a CON save DC 12; on a failure "
	    "gain 1 Fatigue.\n"
	    "Turn 13: 13 turns without a rest: rest next turn (/rest), or each character makes a "
	    "CON save DC 12; on a failure gain 1 Fatigue.\n"
	    "Turn 14: The rest was skipped: each character makes a CON save DC 12; on a failure "
	    "gain 1 Fatigue.\n"
	    "Turn 20: 20 turns without a rest: rest next turn (/rest), or each character makes a "
	    "CON save DC 12; on a failure gain 1 Fatigue.\n";
	struct procedure_state s;
	struct turn_report r;
	struct reply *rep = reply_new();
	const struct reply_msg *m;
	struct buf b;
	char *d, *plain;
	size_t brief = 0, working = 0;

	(void)unused;
	memset(&s, 0, sizeof(s));
	turn_clock_init(&s.clock);
	s.proc = PROC_EXPLORATION;
	turn_report_init(&r);
	turn_advance(&s.clock, s.proc, 20, &r);
	procedure_render_report(rep, &r, &s, true, false);
	m = reply_msg(rep, REPLY_CHANNEL);
	for (size_t i = 0; i < m->nblocks; i++) {
		brief += m->blocks[i].brief;
		working += m->blocks[i].working;
	}
	assert_int_equal(brief, 1);
	assert_int_equal(working, 4);
	buf_init(&b, 4096);
	render_text(m, false, &b);
	assert_string_equal(buf_str(&b), whole);
	plain = reply_plain(rep);
	assert_string_equal(plain, whole);
	d = render_discord(m, false, NULL);
	assert_non_null(strstr(d, "Turn 20: "));
	assert_null(strstr(d, "not shown"));
	free(d);
	free(plain);
	buf_free(&b);
	reply_free(rep);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(unlisted_kinds_are_veiled),
	    cmocka_unit_test(open_tension_reads_the_event),
	    cmocka_unit_test(dropped_events_counted),
	    cmocka_unit_test(folded_rests_whole_elsewhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
