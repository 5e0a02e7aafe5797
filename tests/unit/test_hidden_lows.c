/*
 * Two worlds, one command each: refusals and answers around hidden
 * Tension. The two channels of a test differ only behind the GM's screen
 * (the names and entries of the screened tables, the Tension value); the
 * same lines then run in both, on the console, on IRC and on Discord
 * (through each platform's own layer, tests/unit/helpers/playview.h).
 * What a player sees of their own commands, and the channel of the GM's,
 * must be byte for byte the same in both worlds (the GM's own view is
 * only checked for its words); and each answer must be
 * the right one for what the player may read (the words are checked, so
 * that two worlds alike but wrong fail too).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/log.h"
#include "rules/base/buf.h"
#include "tests/unit/helpers/playview.h"

/* One line of a play: who runs it (typed on the console and IRC; on
 * Discord as the interaction discord, or through the dispatcher unseen
 * when discord is NULL), and the text its view must hold (NULL: none
 * checked; "" with view PLAYVIEW_CHANNEL: the channel reads nothing). */
struct step {
	const char *who;
	const char *line;
	const char *discord;
	enum playview_view view;
	const char *want;
};

/* Runs the world's set-up (the GM's, unseen) and the play on kind, and
 * returns what the play's views showed, each step headed. */
static char *
play_on(enum playview_kind kind, const char *const *setup, const struct step *play)
{
	struct playview *pv = playview_new(kind, 7);
	struct buf all, seen, junk;
	char *out;

	buf_init(&all, 1 << 20);
	buf_init(&junk, 1 << 20);
	for (size_t i = 0; setup[i] != NULL; i++) {
		const char *gm = setup[i];

		junk.len = 0;
		playview_line(pv, strncmp(gm, "alice: ", 7) == 0 ? "alice" : "gm",
		              strncmp(gm, "alice: ", 7) == 0 ? gm + 7 : gm, PLAYVIEW_ALL, &junk);
	}
	for (size_t i = 0; play[i].line != NULL; i++) {
		const struct step *s = &play[i];

		buf_init(&seen, 1 << 16);
		if (kind == PLAYVIEW_DISCORD && s->discord != NULL)
			playview_event(pv, s->who, 2, cJSON_Parse(s->discord), s->view, &seen);
		else if (kind == PLAYVIEW_DISCORD)
			playview_line(pv, s->who, s->line, s->view, &seen);
		else
			playview_line(pv, s->who, s->line, s->view, &seen);
		if (kind == PLAYVIEW_CONSOLE && s->view == PLAYVIEW_CHANNEL) {
			/* the console prints every part: the channel's ends where a
			 * private one begins */
			const char *cut = strstr(buf_str(&seen), "(only ");

			if (cut != NULL)
				seen.len = (size_t)(cut - buf_str(&seen));
		}
		if (s->want != NULL && s->want[0] == '\0' && s->view == PLAYVIEW_CHANNEL &&
		    seen.len > 0 && (kind != PLAYVIEW_DISCORD || s->discord != NULL))
			fail_msg("%s: the channel read '%s' of %s's '%s':\n%.*s",
			         playview_names[kind], "anything", s->who, s->line, (int)seen.len,
			         buf_str(&seen));
		/* (IRC's view drops the lines to the GM: the GM's own are not seen) */
		if (s->want != NULL && s->want[0] != '\0' &&
		    (kind != PLAYVIEW_DISCORD || s->discord != NULL) &&
		    !(kind == PLAYVIEW_IRC && strcmp(s->who, "gm") == 0 &&
		      s->view == PLAYVIEW_INVOKER) &&
		    strstr(buf_str(&seen), s->want) == NULL)
			fail_msg("%s: %s's '%s' did not show '%s':\n%s", playview_names[kind],
			         s->who, s->line, s->want, buf_str(&seen));
		/* the GM's own view is the GM's: only its words are checked */
		if (strcmp(s->who, "gm") != 0 || s->view == PLAYVIEW_CHANNEL)
			buf_addf(&all, "== %s: %s\n%s", s->who, s->line, buf_str(&seen));
		buf_free(&seen);
	}
	out = strdup(buf_str(&all));
	buf_free(&all);
	buf_free(&junk);
	playview_free(pv);
	return out;
}

/* Plays both worlds on every platform; the views must be the same. */
static void
two_worlds(const char *const *a, const char *const *b, const struct step *play)
{
	for (int k = 0; k < PLAYVIEW_NKINDS; k++) {
		char *va = play_on((enum playview_kind)k, a, play);
		char *vb = play_on((enum playview_kind)k, b, play);

		if (strcmp(va, vb) != 0)
			fail_msg("%s: the worlds read apart:\n--- A\n%s\n--- B\n%s",
			         playview_names[k], va, vb);
		free(va);
		free(vb);
	}
}

/* A Discord /table set of name with entries. */
#define TABLE_SET(name, entries)                                                                   \
	"{\"type\":1,\"name\":\"table\",\"options\":[{\"name\":\"set\",\"type\":1,\"options\":"    \
	"[{\"name\":\"name\",\"type\":3,\"value\":\"" name "\"},{\"name\":\"entries\",\"type\":3," \
	"\"value\":\"" entries "\"}]}]}"
#define TABLE_NAMED(sub, name)                                                                     \
	"{\"type\":1,\"name\":\"table\",\"options\":[{\"name\":\"" sub "\",\"type\":1,"            \
	"\"options\":[{\"name\":\"name\",\"type\":3,\"value\":\"" name "\"}]}]}"

/* lоot (a Cyrillic о), gоld likewise. */
#define LOOT_CY "l\xd0\xbeot"
#define GOLD_CY "g\xd0\xbeld"

/*
 * A player, Tension hidden and nobody in the GM seat, names a table whose
 * name looks like that of a table they may read (loot): the answer is the
 * look-alike refusal naming it, as with Tension open, not that no table
 * they may read has the name (which sent them to claim the seat). A name
 * that looks like a screened table's (gоld, in world A only) reads as a
 * name no table has, in both worlds alike.
 */
static void
look_alike_of_a_readable_table(void **unused)
{
	static const char *const a[] = {"gm claim",
	                                "table set loot 1-6: gold",
	                                "tension mode hidden",
	                                "table set encounter 1-6: [[" GOLD_CY "]]",
	                                "table set " GOLD_CY " 1-6: Quillfang",
	                                "gm release",
	                                NULL};
	static const char *const b[] = {"gm claim",
	                                "table set loot 1-6: gold",
	                                "tension mode hidden",
	                                "table set encounter 1-6: [[kin]]",
	                                "table set kin 1-6: Morrowisp",
	                                "gm release",
	                                NULL};
	static const struct step play[] = {
	    {"alice", "table set " LOOT_CY " 1-6: silver", TABLE_SET(LOOT_CY, "1-6: silver"),
	     PLAYVIEW_INVOKER,
	     "The table " LOOT_CY " was not saved: its name looks the same as the table loot's "
	     "but is spelled with a letter of another alphabet; use that table's name, or "
	     "another."},
	    {"alice", "table set gold 1-6: silver", TABLE_SET("gold", "1-6: silver"),
	     PLAYVIEW_INVOKER,
	     "No table you may read here is called gold, and while Tension is hidden only the GM "
	     "makes one"},
	    {"alice", "table set " GOLD_CY " 1-6: silver", TABLE_SET(GOLD_CY, "1-6: silver"),
	     PLAYVIEW_INVOKER, "No table you may read here is called " GOLD_CY},
	    {"alice", "table show gold", TABLE_NAMED("show", "gold"), PLAYVIEW_INVOKER,
	     "No table you may read here is called gold"},
	    {"alice", "table set loot 1-6: silver", TABLE_SET("loot", "1-6: silver"),
	     PLAYVIEW_INVOKER, "Replaced the table "},
	    {NULL, NULL, NULL, 0, NULL},
	};

	(void)unused;
	two_worlds(a, b, play);
}

/*
 * A player who names a table to show, roll or delete by a name that looks
 * like that of a table they may read is told which table that is; one
 * that looks like only a screened table's (gоld, in world A) reads as a
 * name no table has, in both worlds alike.
 */
static void
look_alike_named_to_read(void **unused)
{
	static const char *const a[] = {"gm claim",
	                                "table set loot 1-6: gold",
	                                "tension mode hidden",
	                                "table set encounter 1-6: [[" GOLD_CY "]]",
	                                "table set " GOLD_CY " 1-6: Quillfang",
	                                "gm release",
	                                NULL};
	static const char *const b[] = {"gm claim",
	                                "table set loot 1-6: gold",
	                                "tension mode hidden",
	                                "table set encounter 1-6: [[kin]]",
	                                "table set kin 1-6: Morrowisp",
	                                "gm release",
	                                NULL};
#define ALIKE                                                                                      \
	"No table you may read here is called " LOOT_CY ", a name that looks the same as the "     \
	"table loot's but is spelled with a letter of another alphabet; type loot to name that "   \
	"table."
	static const struct step play[] = {
	    {"alice", "table show " LOOT_CY, TABLE_NAMED("show", LOOT_CY), PLAYVIEW_INVOKER, ALIKE},
	    {"alice", "table roll " LOOT_CY, TABLE_NAMED("roll", LOOT_CY), PLAYVIEW_INVOKER, ALIKE},
	    {"alice", "table delete " LOOT_CY, TABLE_NAMED("delete", LOOT_CY), PLAYVIEW_INVOKER,
	     ALIKE},
	    {"alice", "table show gold", TABLE_NAMED("show", "gold"), PLAYVIEW_INVOKER,
	     "No table you may read here is called gold (while Tension is hidden"},
	    {"alice", "table roll gold", TABLE_NAMED("roll", "gold"), PLAYVIEW_INVOKER,
	     "No table you may read here is called gold (while Tension is hidden"},
	    {NULL, NULL, NULL, 0, NULL},
	};
#undef ALIKE

	(void)unused;
	two_worlds(a, b, play);
}

#define TENSION_MODE(m)                                                                            \
	"{\"type\":1,\"name\":\"tension\",\"options\":[{\"name\":\"mode\",\"type\":1,"             \
	"\"options\":[{\"name\":\"mode\",\"type\":3,\"value\":\"" m "\"}]}]}"

/*
 * The GM's answers about the hidden track are the GM's alone every time:
 * a second /tension mode hidden (already hidden) answers the GM privately
 * (Discord: ephemeral, IRC: a notice), with the value, as the first
 * answered the value; the channel reads nothing of it.
 */
static void
mode_hidden_again_answers_the_gm_alone(void **unused)
{
	static const char *const a[] = {"gm claim", "tension set 3 # quiet", NULL};
	static const char *const b[] = {"gm claim", "tension set 9 # ambush", NULL};
	static const struct step play[] = {
	    {"gm", "tension mode hidden", TENSION_MODE("hidden"), PLAYVIEW_CHANNEL,
	     "Tension is now hidden behind the "},
	    {"gm", "tension mode hidden", TENSION_MODE("hidden"), PLAYVIEW_CHANNEL, ""},
	    {"gm", "tension mode hidden", TENSION_MODE("hidden"), PLAYVIEW_INVOKER,
	     "Tension is already hidden behind the "},
	    {NULL, NULL, NULL, 0, NULL},
	};

	(void)unused;
	two_worlds(a, b, play);
}

#define TENSION_STRIKE(opts)                                                                       \
	"{\"type\":1,\"name\":\"tension\",\"options\":[{\"name\":\"strike\",\"type\":1,"           \
	"\"options\":[" opts "]}]}"

/*
 * /tension strike without an entry says in one sentence what is missing
 * and what an entry may be (not "Missing entry"); a player is answered
 * alike whatever the hidden tables hold, with an entry or without.
 */
static void
strike_without_an_entry(void **unused)
{
	static const char *const a[] = {
	    "gm claim", "tension table set encounter 1-10 Quillfang; 11-20 Gloamjaw",
	    "tension mode hidden", "tension strike Gloamjaw", NULL};
	static const char *const b[] = {"gm claim",
	                                "tension table set encounter 1-4 Morrowisp; 5-20 Ashveil",
	                                "tension mode hidden", "tension set 8 # ambush", NULL};
	static const struct step play[] = {
	    {"alice", "tension strike", TENSION_STRIKE(""), PLAYVIEW_INVOKER,
	     "No value given for entry (a range (9-12), a result (10) or part of the entry's "
	     "text); "
	     "usage: "},
	    {"alice", "tension strike table:effects",
	     TENSION_STRIKE("{\"name\":\"table\",\"type\":3,\"value\":\"effects\"}"),
	     PLAYVIEW_INVOKER,
	     "No value given for entry (a range (9-12), a result (10) or part of the entry's "
	     "text); "
	     "usage: "},
	    {"alice", "tension strike Gloamjaw",
	     TENSION_STRIKE("{\"name\":\"entry\",\"type\":3,\"value\":\"Gloamjaw\"}"),
	     PLAYVIEW_INVOKER, "Only the GM"},
	    {NULL, NULL, NULL, 0, NULL},
	};

	(void)unused;
	two_worlds(a, b, play);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(look_alike_of_a_readable_table),
	    cmocka_unit_test(mode_hidden_again_answers_the_gm_alone),
	    cmocka_unit_test(strike_without_an_entry),
	    cmocka_unit_test(look_alike_named_to_read),
	};

	log_set_level(LOG_LEVEL_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
