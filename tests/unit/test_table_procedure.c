/*
 * Unit tests for the channel's own tables in the dungeon procedures: the
 * hazard die's Encounter and Sign on both hazard tables (exploration and
 * delving) roll the channel's encounter table (encounter-N on a tracked
 * level), the sign's creature is the next encounter, the wandering checks
 * and /tension roll do likewise, and Tension's tables stay in use when the
 * channel has none. Every die a test expects comes from the same seed,
 * drawn in the order the command draws it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands/core/channel.h"
#include "commands/core/dispatch.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdrun.h"

static struct cmdrun cr;
static const char *text;

static int
setup(void **unused)
{
	(void)unused;
	cmdrun_open(&cr, 1);
	text = NULL;
	return 0;
}

static int
teardown(void **unused)
{
	(void)unused;
	cmdrun_close(&cr);
	return 0;
}

/* Runs line as user in the dungeon channel into cr.last and text. */
static void
dispatch_as(const char *user, const char *line)
{
	cmdrun_line(&cr, "dungeon", user, line, 1000);
	text = cmdrun_plain(&cr);
}

static const char *
run(const char *user, const char *line)
{
	dispatch_as(user, line);
	if (reply_is_error(cr.last))
		fail_msg("'%s' failed: %s", line, reply_error_text(cr.last));
	return text;
}

/* line is refused with exactly want. */
static void
refused_with(const char *line, const char *want)
{
	dispatch_as("gm", line);
	if (!reply_is_error(cr.last))
		fail_msg("'%s' was not refused", line);
	assert_string_equal(reply_error_text(cr.last), want);
}

static void
has(const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("no '%s' in:\n%s", want, text);
}

static void
hasnt(const char *what)
{
	if (strstr(text, what) != NULL)
		fail_msg("'%s' should not be in:\n%s", what, text);
}

/* A seed whose first die of the given sides comes up want; the
 * dispatcher's RNG is seeded with it and *same is a twin already past that
 * first die, for the draws after it. */
static void
first_die(int sides, int want, struct rng **same)
{
	for (uint64_t seed = 1; seed < 10000; seed++) {
		struct rng *r = rng_new_seeded(seed);

		if (rng_die(r, sides) == want) {
			rng_seed(cr.rng, seed);
			*same = r;
			return;
		}
		rng_free(r);
	}
	fail_msg("no seed gives %d on a d%d", want, sides);
}

/* "K goblins (1d4: K)" from the twin's next two draws on a "1-6: 1d4
 * goblins" table: its d6, then the d4. */
static void
goblins(struct rng *same, int *d6, char *buf, size_t len)
{
	int k;

	*d6 = (int)rng_die(same, 6);
	k = (int)rng_die(same, 4);
	snprintf(buf, len, "%d %s (1d4: %d)", k, k == 1 ? "goblin" : "goblins", k);
}

/* The hazard die's Encounter (a 1 on both tables) rolls the channel's
 * table by its die; without one, exploration's Encounter stays a wandering
 * monster for the GM. */
static void
hazard_encounter_on_both_tables(void **unused)
{
	static const char *const tables[] = {"exploration", "delving"};
	struct rng *same;
	char want[300], foes[100];
	int d6;

	(void)unused;
	run("gm", "gm claim");
	first_die(6, 1, &same);
	run("gm", "hazard roll");
	has("A wandering monster appears");
	rng_free(same);
	run("gm", "table set encounter 1-6: 1d4 goblins");
	for (int t = 0; t < 2; t++) {
		snprintf(want, sizeof(want), "hazard table %s", tables[t]);
		run("gm", want);
		first_die(6, 1, &same);
		goblins(same, &d6, foes, sizeof(foes));
		run("gm", "hazard roll");
		snprintf(want, sizeof(want), "Encounter! From the table encounter, d6: %d: %s.", d6,
		         foes);
		has(want);
		hasnt("d10 + Tension");
		rng_free(same);
	}
	/* a tracked level picks its own table */
	run("gm", "table set encounter-3 1-6: 1d4 goblins");
	run("gm", "turn level 3");
	first_die(6, 1, &same);
	goblins(same, &d6, foes, sizeof(foes));
	run("gm", "hazard roll");
	snprintf(want, sizeof(want), "From the table encounter-3, d6: %d: %s.", d6, foes);
	has(want);
	rng_free(same);
	/* a level without a table of its own falls back to encounter */
	run("gm", "turn level 4 turn:false");
	first_die(6, 1, &same);
	goblins(same, &d6, foes, sizeof(foes));
	run("gm", "hazard roll");
	snprintf(want, sizeof(want), "From the table encounter, d6: %d: %s.", d6, foes);
	has(want);
	rng_free(same);
}

/* The Sign (exploration's 2, delving's 5) rolls the channel's table and
 * meets only the sign; the next Encounter is that creature. */
static void
hazard_sign_on_both_tables(void **unused)
{
	static const struct {
		const char *table;
		int sign;
	} cases[] = {{"exploration", 2}, {"delving", 5}};
	char want[300], foes[100];

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: 1d4 goblins");
	for (int c = 0; c < 2; c++) {
		struct rng *same;
		int d6;

		snprintf(want, sizeof(want), "hazard table %s", cases[c].table);
		run("gm", want);
		first_die(6, cases[c].sign, &same);
		goblins(same, &d6, foes, sizeof(foes));
		run("gm", "hazard roll");
		snprintf(want, sizeof(want),
		         "The party meets only the sign of %s (table encounter, d6: %d); that "
		         "creature is the next encounter.",
		         foes, d6);
		has(want);
		rng_free(same);
		first_die(6, 1, &same);
		run("gm", "hazard roll");
		snprintf(want, sizeof(want),
		         "It is the creature whose sign the party met on turn ");
		has(want);
		snprintf(want, sizeof(want), ": %s.", foes);
		has(want);
		rng_free(same);
	}
}

/* Without a table of its own, delving keeps Tension's (d10 + Tension) and
 * exploration's Sign stays a hint. */
static void
tensions_table_without_ones_own(void **unused)
{
	struct rng *same;

	(void)unused;
	run("gm", "gm claim");
	first_die(6, 2, &same);
	run("gm", "hazard roll");
	has("A sign of danger nearby");
	rng_free(same);
	run("gm", "hazard table delving");
	first_die(6, 1, &same);
	run("gm", "hazard roll");
	has("From the encounter table (d10 + Tension = ");
	rng_free(same);
}

/* A corridor check's monsters come from the channel's table, by its die. */
static void
wandering_checks_roll_the_table(void **unused)
{
	struct rng *same;
	char want[300], foes[100];
	int d6;

	(void)unused;
	run("al", "table set encounter 1-6: 1d4 goblins");
	first_die(6, 1, &same);
	goblins(same, &d6, foes, sizeof(foes));
	run("al", "wander");
	has("wandering monsters!");
	snprintf(want, sizeof(want), "From the table encounter, d6: %d: %s.", d6, foes);
	has(want);
	rng_free(same);
	/* a struck entry: no encounter after all */
	run("gm", "gm claim");
	run("gm", "tension strike goblins");
	first_die(6, 1, &same);
	run("al", "wander");
	has("is struck, so no encounter");
	rng_free(same);
	/* the tension check reads a table of 1-20 with d10 + Tension */
	run("gm", "tension unstrike");
	run("gm", "table set encounter 1-10: a bat; 11-20: an ogre");
	run("gm", "tension set 6");
	run("al", "wander tension exits:12");
	has("From the table encounter, d10 + Tension = ");
}

/* A creature whose sign was met is what the next wandering check (or
 * tension roll) meets, and it is forgotten then. */
static void
sign_creature_meets_the_next_check(void **unused)
{
	struct rng *same;

	(void)unused;
	run("gm", "gm claim");
	run("gm", "hazard table delving");
	run("gm", "table set encounter 1-6: 1d4 goblins");
	run("gm", "hazard sign a basilisk");
	first_die(6, 1, &same);
	run("al", "wander");
	has("They are the creature whose sign the party met on turn 0: a basilisk.");
	hasnt("From the table");
	rng_free(same);
	run("al", "turn");
	hasnt("basilisk");
	/* /undo gives it back */
	run("gm", "undo");
	run("al", "turn");
	has("basilisk");
	/* a tension roll meets it too */
	run("gm", "tension roll exits:12");
	has("It is the creature whose sign the party met on turn 0: a basilisk.");
	run("al", "turn");
	hasnt("basilisk");
}

/* While Tension is hidden, a player's corridor check says monsters come;
 * what they are reaches the GM alone. */
static void
hidden_wandering_roll_goes_to_the_gm(void **unused)
{
	struct rng *same;
	char foes[100];
	const char *gm;
	int d6;

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: 1d4 goblins");
	run("gm", "tension mode hidden");
	first_die(6, 1, &same);
	goblins(same, &d6, foes, sizeof(foes));
	run("al", "wander");
	gm = strstr(text, "[to the GM, gm]");
	assert_non_null(gm);
	has("What they are stays behind the GM's screen.");
	assert_true(strstr(text, foes) > gm);
	rng_free(same);
}

/* The wandering checks the channel may make, who makes them (a player,
 * the GM in the channel) and where each one's private part starts. */
static const char *const checks[] = {"wander corridor", "wander rest", "wander classic"};
static const char *const checker[] = {"al", "gm"};
static const char *const private_part[] = {"[to the GM, gm]", "[private]"};

/* Runs check c as checker u with its d6 coming up 1 (monsters come); the
 * channel's part of the reply into buf (len bytes), and the private part
 * (NULL when there is none) into *rest. */
static void
hit_as(size_t u, size_t c, char *buf, size_t len, const char **rest)
{
	struct rng *same;
	const char *at;
	size_t n;

	first_die(6, 1, &same);
	rng_free(same);
	run(checker[u], checks[c]);
	at = strstr(text, private_part[u]);
	n = at != NULL ? (size_t)(at - text) : strlen(text);
	snprintf(buf, len, "%.*s", (int)n, text);
	*rest = at;
}

/* While Tension is hidden the creature whose sign the party met stays
 * behind the GM's screen when a wandering check meets it, whoever checks
 * (a player, or the GM in the channel) and whichever check: the channel
 * reads that monsters come, in the same words as when no sign's creature
 * is remembered, and the GM alone what they are. */
static void
hidden_sign_creature_reaches_the_gm_alone(void **unused)
{
	char pub[2000], plain_pub[2000];
	const char *rest;

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: 1d4 goblins");
	run("gm", "tension mode hidden");
	for (size_t c = 0; c < sizeof(checks) / sizeof(checks[0]); c++)
		for (size_t u = 0; u < 2; u++) {
			run("gm", "hazard sign Vexthorn");
			hit_as(u, c, pub, sizeof(pub), &rest);
			if (strstr(pub, "Vexthorn") != NULL || strstr(pub, "sign") != NULL)
				fail_msg("%s by %s names the sign's creature to the channel:\n%s",
				         checks[c], checker[u], text);
			if (strstr(pub, "wandering monsters!") == NULL ||
			    strstr(pub, "What they are stays behind the GM's screen.") == NULL)
				fail_msg("%s by %s: the channel reads\n%s", checks[c], checker[u],
				         pub);
			if (rest == NULL ||
			    strstr(rest, "They are the creature whose sign the party met on turn "
			                 "0: Vexthorn.") == NULL)
				fail_msg("%s by %s: the GM is not told the creature:\n%s",
				         checks[c], checker[u], text);
			/* Met, it is forgotten: the same die now rolls the table,
			 * and the channel reads the very same words. */
			hit_as(u, c, plain_pub, sizeof(plain_pub), &rest);
			assert_string_equal(plain_pub, pub);
			assert_non_null(rest);
			assert_non_null(strstr(rest, "From the table encounter, d6: "));
		}
}

/* While Tension is hidden, a wandering check whose die says monsters come
 * says so in public whether the entry it rolls is struck or not, whoever
 * checks and whichever check; that none come after all reaches the GM
 * alone. */
static void
hidden_struck_entry_reaches_the_gm_alone(void **unused)
{
	char pub[2000], struck_pub[2000];
	const char *rest;

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: Quillfang");
	run("gm", "tension mode hidden");
	for (size_t c = 0; c < sizeof(checks) / sizeof(checks[0]); c++)
		for (size_t u = 0; u < 2; u++) {
			hit_as(u, c, pub, sizeof(pub), &rest);
			assert_non_null(strstr(pub, "wandering monsters!"));
			assert_non_null(rest);
			assert_non_null(strstr(rest, "Quillfang."));
			run("gm", "tension strike Quillfang");
			hit_as(u, c, struck_pub, sizeof(struck_pub), &rest);
			if (strcmp(pub, struck_pub) != 0)
				fail_msg(
				    "%s by %s: the channel reads, not struck:\n%s\nstruck:\n%s",
				    checks[c], checker[u], pub, struck_pub);
			if (rest == NULL ||
			    strstr(rest, "is struck, so no encounter (the dungeon's supply is "
			                 "finite).") == NULL)
				fail_msg("%s by %s: the GM is not told it is struck:\n%s",
				         checks[c], checker[u], text);
			run("gm", "tension unstrike Quillfang");
		}
}

/* While Tension is hidden, /turn level tells a player nothing of which
 * levels have an encounter table of their own (hidden4 H6), nor the
 * channel when the GM sets the level; the GM reads it privately, whoever
 * sets it. */
static void
hidden_level_tables_are_the_gms(void **unused)
{
	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter-3 1-6: a basilisk");
	run("gm", "tension mode hidden");
	run("al", "turn level 4");
	assert_string_equal(text, "The party is on dungeon level 4.\n");
	/* recheck20 item 6: the GM is told which table a player's level
	 * uses, as a hazard roll's hidden part reaches the GM */
	run("al", "turn level 3 turn:false");
	assert_string_equal(text, "The party is on dungeon level 3.\n[to the GM, gm]\n"
	                          "Encounters here come from the table encounter-3.\n");
	run("gm", "gm release");
	run("al", "turn level 4 turn:false");
	assert_string_equal(text, "The party is on dungeon level 4.\n");
	run("gm", "gm claim");
	run("gm", "turn level 3 turn:false");
	assert_string_equal(text, "The party is on dungeon level 3.\n[private]\nEncounters here "
	                          "come from the table encounter-3.\n");
	run("gm", "tension mode open");
	run("al", "turn level 3");
	has("Encounters here come from the table encounter-3.");
}

/* /tension roll: the channel's effects and encounter tables. */
static void
tension_roll_uses_the_channels_tables(void **unused)
{
	char want[200];

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: a bat");
	run("gm", "table set effects 1-6: a chill");
	for (int i = 0; i < 40; i++) {
		run("gm", "tension roll exits:12");
		has("  table encounter: d6 = ");
		if (strstr(text, "Dungeon event: d12 ") != NULL && strstr(text, "(7-10)") != NULL)
			has("  table effects: d6 = ");
	}
	/* a table of 1-20 is read with d10 + Tension */
	run("gm", "table set encounter 1-10: a bat; 11-20: an ogre");
	run("gm", "tension roll exits:12");
	snprintf(want, sizeof(want), "  table encounter: d10 ");
	has(want);
	has(" + Tension 1 = ");
	/* the channel's own table is said where Tension's tables are shown */
	run("gm", "tension table show encounter");
	has("The channel's own table encounter is rolled instead of this one");
}

/* Saves module id of the dungeon channel, writes each eight-dice run in
 * it as a nine-dice one (what a state saved before entries were limited to
 * eight could hold), loads that into a fresh module and puts it in place:
 * the load must take it. */
static void
resave_with_nine_dice(enum chanmod_id id)
{
	static const char *const eight = "1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6";
	struct channel *ch = state_channel(cr.st, "console:dungeon");
	const struct chanmod *m = chanmod_table[id];
	cJSON *o = m->save(channel_mod_peek(ch, id));
	char *json = cJSON_PrintUnformatted(o), err[300] = "";
	struct buf b;
	void *fresh = m->create();
	int n = 0;

	cJSON_Delete(o);
	buf_init(&b, 1 << 20);
	for (const char *p = json, *at; *p != '\0'; p = at + strlen(eight)) {
		if ((at = strstr(p, eight)) == NULL) {
			buf_adds(&b, p);
			break;
		}
		buf_add(&b, p, (size_t)(at - p));
		buf_addf(&b, "%s 1d6", eight);
		n++;
	}
	assert_true(n >= 1);
	o = cJSON_Parse(buf_str(&b));
	if (m->load(fresh, o, err, sizeof(err)) != 0)
		fail_msg("the %s module saved with nine dice an entry did not load: %s", m->name,
		         err);
	channel_mod_set(ch, id, fresh);
	cJSON_Delete(o);
	buf_free(&b);
	free(json);
}

/* An entry saved with more dice than an entry may now be set with (the
 * channel's own table, Tension's, a custom hazard die's) loads and rolls:
 * its first eight, and a word that the rest were not rolled. Setting such
 * an entry is refused with the limit named, on each of those tables. */
static void
entries_saved_past_a_limit_load_and_roll(void **unused)
{
	static const char *const note = "1d6 (not rolled, nor any dice after it: an entry rolls "
	                                "at most 8 dice expressions) gems";

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set old 1-6: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems");
	run("gm", "tension table set encounter 1-20: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems");
	run("gm", "hazard custom d6 \"1-6 Encounter: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems\"");
	resave_with_nine_dice(CHANMOD_TABLES);
	resave_with_nine_dice(CHANMOD_TENSION);
	resave_with_nine_dice(CHANMOD_PROC);
	run("gm", "table roll old");
	has(note);
	run("gm", "table roll encounter");
	has("> 1-20 | 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems\n");
	has(note);
	run("gm", "hazard");
	has(note);
	run("gm", "table show old");
	has("1-6: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems");
	refused_with("table set old2 1-6: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems",
	             "The table old2 was not saved: entry 1: '1d6' is dice expression 9; an "
	             "entry rolls at most 8.");
	refused_with("tension table set encounter 1-20: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems",
	             "The encounter table was not changed: entry 1: '1d6' is dice expression 9; "
	             "an entry rolls at most 8.");
	refused_with("hazard custom d6 \"1-6 Encounter: 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems\"",
	             "The d6 table was not saved: entry 1: '1d6' is dice expression 9; an entry "
	             "rolls at most 8.");
}

/* A custom hazard entry's line is for all to see: while Tension is hidden
 * the tables behind the screen it names stay as written, at any depth. */
static void
hazard_entry_keeps_hidden_tables_behind_the_screen(void **unused)
{
	const char *gm;

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: a basilisk");
	run("gm", "table set effects-1 1-6: a chill");
	run("gm", "table set trap 1-6: a pit and [[encounter]]");
	run("gm", "hazard custom d6 \"1-6 Shift: [[trap]] and [[effects-1]]\"");
	run("gm", "tension mode hidden");
	run("al", "hazard");
	has("Shift: a pit and [[encounter]] and [[effects-1]]\n"
	    "↳ trap: d6 4 → a pit and [[encounter]]\n"
	    "  ↳ [[encounter]]: behind the GM's screen while Tension is hidden, so not rolled "
	    "where all see it.\n"
	    "↳ [[effects-1]]: behind the GM's screen while Tension is hidden, so not rolled "
	    "where all see it.\n");
	/* the GM alone gets them, rolled (recheck18 F4) */
	gm = strstr(text, "[to the GM, gm]\n");
	assert_non_null(gm);
	has("\n[to the GM, gm]\nBehind the screen, [[encounter]] (d6, named by trap): 4 → a "
	    "basilisk\n"
	    "Behind the screen, [[effects-1]] (d6): 3 → a chill\n");
	assert_true(strstr(text, "basilisk") > gm && strstr(text, "chill") > gm);
	run("gm", "tension mode open");
	run("al", "hazard");
	has("Shift: a pit and a basilisk and a chill\n");
	hasnt("behind the GM's screen");
}

/* One table behind the screen named twice in a custom hazard entry,
 * directly and through an open table: the channel reads each reference
 * as /table roll gives it, the open table's roll too, and the GM gets
 * each rolled (recheck20 item 5; before, one expansion for the GM and no
 * line for the open table). */
static void
hazard_entry_names_a_hidden_table_twice(void **unused)
{
	const char *gm = NULL;

	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: a basilisk");
	run("gm", "table set vault 1-6: a gem");
	run("gm", "table set loot 1-6: [[vault]]");
	run("gm", "table hide vault");
	run("gm", "hazard custom d2 \"1-2 Shift: [[vault]] and [[loot]]\"");
	run("gm", "tension mode hidden");
	run("gm", "hazard");
	has("\nShift: [[vault]] and [[vault]]\n↳ [[vault]]: no table here has that name.\n"
	    "↳ loot: d6 4 → [[vault]]\n  ↳ [[vault]]: no table here has that name.\n");
	gm = strstr(text, "[private]\n");
	assert_non_null(gm);
	assert_string_equal(gm, "[private]\nBehind the screen, [[vault]] (d6): 4 → a gem\n"
	                        "Behind the screen, [[vault]] (d6, named by loot): 3 → a gem\n");
	assert_true(strstr(text, "a gem") > gm);
}

/* A custom hazard entry naming a table screened only through references
 * reads as one naming no table: the channel is not told that the
 * encounter table names it (hidden8's V7). */
static void
hazard_entry_reads_a_referenced_screened_table_as_none(void **unused)
{
	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set encounter 1-6: [[kin]]");
	run("gm", "table set kin 1-6: a basilisk");
	run("gm", "hazard custom d6 \"1-6 Shift: [[kin]] and [[ghosts]]\"");
	run("gm", "tension mode hidden");
	run("al", "hazard");
	has("Shift: [[kin]] and [[ghosts]]\n");
	hasnt("basilisk");
	hasnt("behind the GM's screen while Tension is hidden");
	assert_null(reply_msg(cr.last, REPLY_GM));
}

/* /tension roll shows what an entry's [[reference]] rolled, as the other
 * procedures do, whether or not the entry holds dice. */
static void
tension_roll_shows_nested_rolls(void **unused)
{
	(void)unused;
	run("gm", "gm claim");
	run("gm", "table set guards 1-4: a troll");
	run("gm", "table set encounter 1-6: [[guards]]");
	run("gm", "tension roll exits:12");
	has("  table encounter: d6 = ");
	has(" → [[guards]] → a troll\n");
	run("gm", "table set encounter 1-6: 1d1 bats and [[guards]]");
	run("gm", "tension roll exits:12");
	has(" → 1d1 bats and [[guards]] → 1 bat and a troll (1d1: 1)\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(hazard_entry_reads_a_referenced_screened_table_as_none,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(hazard_encounter_on_both_tables, setup, teardown),
	    cmocka_unit_test_setup_teardown(hazard_sign_on_both_tables, setup, teardown),
	    cmocka_unit_test_setup_teardown(tensions_table_without_ones_own, setup, teardown),
	    cmocka_unit_test_setup_teardown(wandering_checks_roll_the_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(sign_creature_meets_the_next_check, setup, teardown),
	    cmocka_unit_test_setup_teardown(hidden_wandering_roll_goes_to_the_gm, setup, teardown),
	    cmocka_unit_test_setup_teardown(hidden_sign_creature_reaches_the_gm_alone, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(hidden_struck_entry_reaches_the_gm_alone, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(hidden_level_tables_are_the_gms, setup, teardown),
	    cmocka_unit_test_setup_teardown(tension_roll_uses_the_channels_tables, setup, teardown),
	    cmocka_unit_test_setup_teardown(tension_roll_shows_nested_rolls, setup, teardown),
	    cmocka_unit_test_setup_teardown(entries_saved_past_a_limit_load_and_roll, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(hazard_entry_keeps_hidden_tables_behind_the_screen,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(hazard_entry_names_a_hidden_table_twice, setup,
	                                    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
