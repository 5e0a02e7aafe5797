/* The outside recheck15's findings on Fungeon over IRC (F1-F6): each
 * played at a table as the report found it, with the reply it wants. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"
#include "bot/irc/render_irc.h"
#include "rules/base/buf.h"
#include "rules/fungeon/fungeon.h"
#include "tests/unit/helpers/fgtable.h"

/* The IRC budget of a bot whose nick has 30 characters: 510 bytes less
 * ":" nick "!" user "@" host " PRIVMSG #big :" (user 9, host 20). */
#define LONG_NICK_BUDGET (510 - (1 + 30 + 1 + 9 + 1 + 20 + 15))

/* The IRC lines as one text, a line each, the formatting stripped. */
static char *
joined(const struct irc_lines *l)
{
	struct buf b;
	char *s;

	buf_init(&b, 16384);
	for (size_t i = 0; i < l->n; i++) {
		irc_fmt_strip(&b, l->v[i], strlen(l->v[i]));
		buf_adds(&b, "\n");
	}
	s = strdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/* Eight players of 30-character nicks, two of level 60 and six of level 1,
 * in a room of 24 monsters of 24-character names; the first five have the
 * abilities abilities[0..4] (NULL: none); the rng seeded with seed. */
static struct fgtable *
big_room(const char *const abilities[5], uint64_t seed)
{
	struct fgtable *t = fgtable_new(seed);
	char *designs[25], line[300], nick[40];

	for (int i = 0; i < 8; i++) {
		snprintf(nick, sizeof(nick), "playerlongnick_%02d_abcdefghijklm", i + 1);
		snprintf(line, sizeof(line), "/fungeon join HeroWithALongName%07d fighter %d",
		         i + 1, i < 2 ? 60 : 1);
		fgtable_ok(t, nick, line);
	}
	for (int i = 0; i < 24; i++) {
		snprintf(line, sizeof(line),
		         "/fungeon monster add MMMMMMMMMMMMMMMMMMMMMM%02d level 1%s", i,
		         i < 5 && abilities[i] != NULL ? abilities[i] : "");
		designs[i] = strdup(line);
	}
	designs[24] = NULL;
	fgtable_room_made_by(t, "playerlongnick_01_abcdefghijklm", (const char *const *)designs);
	for (int i = 0; i < 24; i++)
		free(designs[i]);
	return t;
}

/* Fails unless every result of the turn's Painful conflict (step 3) that
 * changed something, its defeats and its XP, and the turn's last line are
 * in irc. */
static void
results_kept(const char *text, const char *irc)
{
	const char *p = strstr(text, "3. Painful conflict");
	char line[600], *flat = strdup(irc);

	/* a line cut where it was full broke it at a space */
	for (char *q = flat; *q != '\0'; q++)
		if (*q == '\n')
			*q = ' ';
	assert_non_null(p);
	while ((p = strchr(p, '\n')) != NULL && p[1] != '\0') {
		size_t n = strcspn(++p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		if (strstr(line, " Thwack-O ") != NULL) /* its die marked on IRC only */
			strstr(line, " Thwack-O ")[9] = '\0';
		if (strstr(line, "defeated") != NULL || strstr(line, " XP") != NULL ||
		    (strstr(line, " deals ") != NULL &&
		     strstr(line, " deals 0 and takes 0") == NULL) ||
		    strncmp(line, "Narrative control", 17) == 0) {
			if (strstr(flat, line) == NULL) {
				fprintf(stderr, "on IRC:\n%s\n", irc);
				fail_msg("'%s' is not on IRC", line);
			}
		}
	}
	free(flat);
}

/* Fails unless l is in parts of at most max lines, each after the first
 * starting "Combat turn (continued) · ", and every line fits budget;
 * returns how many parts. */
static size_t
in_parts(const struct irc_lines *l, size_t max, size_t budget)
{
	size_t from = 0;

	for (size_t k = 0; k <= l->nparts; k++) {
		size_t to = k < l->nparts ? l->part[k] : l->n;
		struct buf b;

		assert_true(to > from && to - from <= max);
		buf_init(&b, 600);
		irc_fmt_strip(&b, l->v[from], strlen(l->v[from]));
		if (k > 0)
			assert_int_equal(strncmp(buf_str(&b), "Combat turn (continued) · ", 27), 0);
		else
			assert_null(strstr(buf_str(&b), "(continued)"));
		buf_free(&b);
		from = to;
	}
	for (size_t i = 0; i < l->n; i++)
		assert_true(strlen(l->v[i]) <= budget);
	return l->nparts + 1;
}

/* F1: a combat turn's results stay on IRC whatever the size. 8 players,
 * 24 monsters of 24-character names and a bot of a 30-character nick: the
 * 19 monsters sitting the turn out are told by their count where the names
 * would not fit, and a turn still longer than max_lines goes whole, in
 * parts of max_lines lines. */
static void
f1_a_combat_turn_keeps_its_results(void **unused)
{
	static const char *const four[5] = {
	    " ability a1 annoy 2 pain 1 type t ability a2 annoy 2 pain 1 type t ability a3 "
	    "annoy 2 pain 1 type t ability a4 annoy 2 pain 1 type t"};
	static const char *const strong[5] = {
	    " ability s annoy 9 pain 1 type t", " ability s annoy 9 pain 1 type t",
	    " ability s annoy 9 pain 1 type t", " ability s annoy 9 pain 1 type t",
	    " ability s annoy 9 pain 1 type t"};
	const char *const *rooms[] = {four, strong};
	struct render_irc_opts io = {.budget = LONG_NICK_BUDGET, .max_lines = 4, .prefix = "!"};
	int parts = 0;

	(void)unused;
	for (int room = 0; room < 2; room++) {
		struct fgtable *t = big_room(rooms[room], 1501);

		for (int turn = 0; turn < 2; turn++) {
			struct irc_lines lines = {0};
			char *text =
			    fgtable_said(t, "playerlongnick_01_abcdefghijklm", "/fungeon combat");
			char *irc;

			render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
			irc = joined(&lines);
			parts += in_parts(&lines, 4, LONG_NICK_BUDGET) > 1;
			assert_null(strstr(irc, "not shown"));
			results_kept(text, irc);
			if (room == 0 && turn == 0) {
				assert_null(strstr(irc, "not shown"));
				fgtable_holds(irc,
				              "Combat turn · 19 monsters stay out of this turn (a "
				              "turn takes at most 13): !fungeon monster list names "
				              "them. · ");
			}
			/* the console keeps every name */
			if (turn == 0)
				fgtable_holds(
				    text, "MMMMMMMMMMMMMMMMMMMMMM22 and MMMMMMMMMMMMMMMMMMMMMM23 "
				          "stay out of this turn: a turn takes at most 13 "
				          "participants");
			free(irc);
			render_irc_lines_free(&lines);
			free(text);
		}
		fgtable_free(t);
	}
	assert_true(parts > 0); /* a turn too long for one reply was seen */
}

/* F1: !help fungeon, from a bot of a 30-character nick, ends where a
 * sentence does: the rulings have a page of their own, which it names, and
 * nothing is left out. */
static void
f1_help_fungeon_ends_whole(void **unused)
{
	struct fgtable *t = fgtable_new(1502);
	struct render_irc_opts io = {.budget = LONG_NICK_BUDGET, .max_lines = 4, .prefix = "!"};
	struct irc_lines lines = {0};
	char *text = fgtable_said(t, "playerlongnick_01_abcdefghijklm", "/help fungeon"), *irc;

	(void)unused;
	render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
	irc = joined(&lines);
	assert_true(lines.n <= 4);
	assert_null(strstr(irc, "not shown"));
	fgtable_holds(irc, "!help fungeon rulings");
	assert_int_equal(irc[strlen(irc) - 2], '.');
	free(irc);
	render_irc_lines_free(&lines);
	free(text);
	text = fgtable_said(t, "al", "/help fungeon rulings");
	render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
	irc = joined(&lines);
	assert_true(lines.n <= 4);
	assert_null(strstr(irc, "not shown"));
	fgtable_holds(irc, "Ruling: every Fungeon die is a d6.");
	free(irc);
	render_irc_lines_free(&lines);
	free(text);
	fgtable_free(t);
}

/* F2: !fungeon monster list on IRC, 24 monsters of which 15 are
 * defeated: where the table does not fit, the standing ones with their
 * hits, then how many are defeated, rather than every name alike. */
static void
f2_a_long_monster_list_keeps_its_state(void **unused)
{
	static const char *const none[5] = {NULL};
	struct fgtable *t = big_room(none, 1501);
	struct render_irc_opts io = {.budget = LONG_NICK_BUDGET, .max_lines = 4, .prefix = "!"};
	struct irc_lines lines = {0};
	struct fungeon_channel *c = fgtable_fungeon(t);
	char *text, *irc;

	(void)unused;
	for (int i = 0; i < 15; i++)
		c->d.room.p[FUNGEON_MONSTER][i].hits = 0;
	c->d.room.p[FUNGEON_MONSTER][16].hits = 2;
	text = fgtable_said(t, "playerlongnick_01_abcdefghijklm", "/fungeon monster list");
	render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
	irc = joined(&lines);
	assert_true(lines.n <= 4);
	assert_null(strstr(irc, "not shown"));
	fgtable_holds(irc,
	              "Standing (hits): MMMMMMMMMMMMMMMMMMMMMM15 3/3, MMMMMMMMMMMMMMMMMMMMMM16 "
	              "2/3, MMMMMMMMMMMMMMMMMMMMMM17 3/3, ");
	fgtable_holds(irc, ", MMMMMMMMMMMMMMMMMMMMMM23 3/3; 15 defeated.");
	assert_null(strstr(irc, "MMMMMMMMMMMMMMMMMMMMMM14"));
	/* the console keeps the table and has no such line */
	fgtable_holds(text, "defeated (made by ");
	assert_null(strstr(text, "Standing (hits)"));
	free(irc);
	render_irc_lines_free(&lines);
	free(text);
	fgtable_free(t);
}

/* F3: the IRC summary of a special ability says what the monster rolled,
 * how many resisted (everyone, when all did), and, its roll being the
 * turn's first, who narrates the turn so far. */
static void
f3_an_ability_summary_shows_its_roll(void **unused)
{
	static const char *const spit[5] = {" ability spit annoy 2 pain 1 type t"};
	struct render_irc_opts io = {.budget = LONG_NICK_BUDGET, .max_lines = 10, .prefix = "!"};
	bool all = false, some = false;

	(void)unused;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct fgtable *t = big_room(spit, seed);
		struct irc_lines lines = {0};
		char *text = fgtable_said(t, "playerlongnick_01_abcdefghijklm", "/fungeon combat");
		char *irc, want[200];
		const char *best = strstr(text, "MMMMMMMMMMMMMMMMMMMMMM00/spit: "), *arrow;
		int fails = 0;

		render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
		irc = joined(&lines);
		for (const char *p = text; (p = strstr(p, ", fails\n")) != NULL; p++)
			fails++;
		best = strstr(best, "\n") + 1; /* its roll line after the design */
		arrow = strstr(best, "→ ");
		assert_non_null(arrow);
		if (fails == 0)
			snprintf(want, sizeof(want),
			         "MMMMMMMMMMMMMMMMMMMMMM00/spit → %d: everyone resists.",
			         atoi(arrow + 4));
		else
			snprintf(want, sizeof(want),
			         "MMMMMMMMMMMMMMMMMMMMMM00/spit → %d: %d of 8 resist",
			         atoi(arrow + 4), 8 - fails);
		all |= fails == 0;
		some |= fails > 0;
		fgtable_holds(irc, want);
		fgtable_holds(irc, "Narrative control so far this turn: ");
		/* the console's lines of each roll stay as they were */
		assert_null(strstr(text, "resist."));
		free(irc);
		render_irc_lines_free(&lines);
		free(text);
		fgtable_free(t);
	}
	assert_true(some);
	(void)all;
	/* two level 60 Fungeoneers meet 61 dice with 60, a 6 each: they resist */
	{
		static const char *const d[] = {
		    "/fungeon monster add boss level 60 ability spit annoy 1 pain 1 type t", NULL};
		struct fgtable *t = fgtable_new(1503);
		struct irc_lines lines = {0};
		char *text, *irc;

		fgtable_pair(t, 60, 60);
		fgtable_room_made(t, d);
		text = fgtable_said(t, "al", "/fungeon combat");
		render_irc(reply_msg(t->last, REPLY_CHANNEL), &io, &lines);
		irc = joined(&lines);
		fgtable_holds(irc, "boss/spit → ");
		fgtable_holds(irc,
		              ": everyone resists. · Narrative control so far this turn: bo (Bo), "
		              "Thwack-O ◆6. · 3. Painful conflict · ");
		fgtable_holds(irc, "\nNarrative control: bo (Bo), Thwack-O ◆6.");
		free(irc);
		render_irc_lines_free(&lines);
		free(text);
		fgtable_free(t);
	}
}

/* F4: with nobody in the GM seat a player sets the XP rule in town only,
 * the reply naming who set it and what it was; in the dungeon it is
 * refused, saying when it can be set; the GM sets it at any time. */
static void
f4_the_party_sets_the_xp_rule_in_town(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 1", NULL};
	struct fgtable *t = fgtable_new(1504);
	const struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 1);
	c = fgtable_fungeon(t);
	fgtable_says(t, "bo", "/fungeon xp-rule formula",
	             "bo sets the XP rule (it was table). XP rule here: formula (level up when XP "
	             ">= 10 x 2^(current level - 1): level 3 at 20).\n");
	fgtable_room_made(t, d);
	fgtable_fails_unchanged(t, "al", "/fungeon xp-rule table",
	                        "With nobody in the GM seat, a player of the party sets the XP "
	                        "rule only in town, between dungeons, and the party is in room 1 "
	                        "on floor 1.");
	assert_int_equal(c->xp_rule, FUNGEON_XP_FORMULA);
	fgtable_gm(t, "/fungeon xp-rule table");
	assert_int_equal(c->xp_rule, FUNGEON_XP_TABLE);
	fgtable_free(t);
}

/* F5: a class, a name or a type may not hold the characters the replies
 * set their parts apart with (" · " on IRC, " | " on the console, "→",
 * "▶"), so that nobody's free text reads as a part of the bot's reply. */
static void
f5_free_names_hold_no_separator(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 1", NULL};
	struct fgtable *t = fgtable_new(1505);

	(void)unused;
	fgtable_fails_unchanged(t, "x2", "/fungeon join Bee \"fighter · Narrative control\" 2",
	                        "A class may not hold ·, which the bot's replies set their parts "
	                        "apart with (as they do · | → and ▶).");
	fgtable_fails_unchanged(t, "x2", "/fungeon join Bee \"fighter | bard\" 2",
	                        "A class may not hold |, which the bot's replies set their parts "
	                        "apart with (as they do · | → and ▶).");
	fgtable_fails_unchanged(t, "x2", "/fungeon join B→e fighter 2",
	                        "A Fungeoneer's name may not hold →, which the bot's replies set "
	                        "their parts apart with (as they do · | → and ▶).");
	fgtable_fighters(t, 2, 1);
	fgtable_room_made(t, d);
	fgtable_fails_unchanged(t, "zz", "/fungeon join Bee \"fighter ▶\" 2",
	                        "A class may not hold ▶, which the bot's replies set their parts "
	                        "apart with (as they do · | → and ▶).");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f1_a_combat_turn_keeps_its_results),
	    cmocka_unit_test(f1_help_fungeon_ends_whole),
	    cmocka_unit_test(f2_a_long_monster_list_keeps_its_state),
	    cmocka_unit_test(f3_an_ability_summary_shows_its_roll),
	    cmocka_unit_test(f4_the_party_sets_the_xp_rule_in_town),
	    cmocka_unit_test(f5_free_names_hold_no_separator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
