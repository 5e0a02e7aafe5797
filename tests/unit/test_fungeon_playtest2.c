/* The second independent play-test of Fungeon
 * (notes/playtest-fungeon-2.md), each finding played at a table as the
 * report found it, with what the rule text wants instead: d1..d5 the
 * deviations, o* the docs the bot disagreed with, u* usability. The undo
 * of rolls by a later seat holder is test_undo_policy.c's; the first
 * play-test is test_fungeon_playtest.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "tests/unit/helpers/fgtable.h"

/* Deviation 1 (line 254): a dead Fungeoneer's player is out of the game
 * until the next hallway, so they no more play a combat turn or head back
 * than take treasure; after a total party kill nobody heads back, and the
 * players' replacements go on to that hallway. */
static void
d1_the_dead_do_not_move_the_party(void **unused)
{
	static const char *const m[] = {"/fungeon monster add rat level 6", NULL};
	static const char *const out =
	    "Al is dead: al is out of the game until the next hallway, and the players whose "
	    "Fungeoneers are in play move the party on.";
	struct fgtable *t = fgtable_new(31);
	struct fungeon_channel *c;

	(void)unused;
	c = fgtable_three(t, m);
	fgtable_gm(t, "/fungeon adjust Al hits:-30");
	assert_true(c->m[0].dead);
	fgtable_fails_unchanged(t, "al", "/fungeon combat", out);
	fgtable_fails_unchanged(t, "al", "/fungeon retreat confirm:true", out);
	fgtable_fails_unchanged(t, "al", "/fungeon stair", out);
	fgtable_ok(t, "bo", "/fungeon combat");
	/* the whole party falls */
	fgtable_gm(t, "/fungeon adjust Bo hits:-30");
	fgtable_gm(t, "/fungeon adjust Cy hits:-30");
	fgtable_fails_unchanged(t, "al", "/fungeon retreat confirm:true", out);
	fgtable_fails_unchanged(t, "cy", "/fungeon combat", NULL);
	fgtable_fails_unchanged(t, "al", "/fungeon hallway",
	                        "al's Al died: the new Fungeoneer comes first in the hallway "
	                        "(/fungeon join NAME CLASS, at level 5), or al leaves the party "
	                        "(/fungeon leave).");
	fgtable_ok(t, "al", "/fungeon join Al2 fighter");
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter");
	fgtable_fails_unchanged(t, "bo", "/fungeon retreat confirm:true",
	                        "Bo2 is a replacement and joins the party in the next hallway; "
	                        "until then the players whose Fungeoneers are in play move the "
	                        "party on.");
	fgtable_ok(t, "cy", "/fungeon join Cy2 fighter");
	fgtable_ok(t, "cy", "/fungeon hallway");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	assert_true(fungeon_channel_in_play(c, 0) && fungeon_channel_in_play(c, 2));
	fgtable_free(t);
}

/* Deviation 2 (lines 136, 252): monsters attack on sight and everyone
 * makes the Painful conflict roll: every standing monster fights each
 * turn; whoever made them names the ones that fight only when more stand
 * than a turn holds (test_fungeon_played.c x1). */
static void
d2_every_standing_monster_fights(void **unused)
{
	static const char *const m[] = {"/fungeon monster add rat level 6",
	                                "/fungeon monster add dog level 6",
	                                "/fungeon monster add cat level 6", NULL};
	struct fgtable *t = fgtable_new(32);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_three(t, m);
	fgtable_fails_unchanged(t, "cy", "/fungeon combat rat",
	                        "Every standing monster fights each turn (monsters attack on "
	                        "sight, and everyone makes the Painful conflict roll), and dog, "
	                        "cat stand here too; name monsters only when more stand than a "
	                        "turn holds (/fungeon combat takes them all).");
	c->d.room.p[FUNGEON_MONSTER][2].hits = 0; /* the cat is defeated */
	fgtable_fails_unchanged(t, "cy", "/fungeon combat rat",
	                        "Every standing monster fights each turn (monsters attack on "
	                        "sight, and everyone makes the Painful conflict roll), and dog "
	                        "stands here too; name monsters only when more stand than a turn "
	                        "holds (/fungeon combat takes them all).");
	text = fgtable_said(t, "cy", "/fungeon combat dog rat");
	fgtable_holds(text, "\nrat deals ");
	fgtable_holds(text, "\ndog deals ");
	free(text);
	fgtable_free(t);
}

/* Deviation 3 (line 175): a held Fungeoneer may not act; making the
 * rolls it is made to make is no action. It rolls its dice in the Pain
 * roll of the ability that held it and in the turn's Painful conflict, but
 * a rank it wins deals no damage. On floor 30 the wolf (level 2, a howl of
 * 2 + 22 Annoy dice and 2 + 2 Pain dice, a hold) holds Al (level 1): Al's
 * die is in both Pain rolls, and every conflict names who narrates. */
static void
d3_the_held_roll_but_deal_nothing(void **unused)
{
	struct fgtable *t = fgtable_new(33);
	char *text, *step3;

	(void)unused;
	fgtable_alone_on_floor(
	    t, 30,
	    "/fungeon monster add wolf level 2 ability howl annoy 22 pain 2 hold type "
	    "sound");
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "Al is held and may not act this turn: Al rolls in every Painful "
	                    "conflict, but a rank Al wins deals no damage.\n");
	step3 = strstr(text, "3. Painful conflict\n");
	assert_non_null(step3);
	/* the howl's Pain roll: Al's one die against the wolf's four */
	fgtable_holds(text, "\nAl (al, held: deals no damage): ");
	assert_null(strstr(text, "no dice"));
	/* step 3 too (Al stands at 1 hit); each conflict names who narrates */
	fgtable_holds(step3, "\nAl (al, held: deals no damage): ");
	fgtable_holds(step3, "Narrative control: al (Al), Thwack-O ");
	*step3 = '\0';
	fgtable_holds(text, "Narrative control: al (Al), Thwack-O ");
	free(text);
	fgtable_free(t);
}

/* Deviation 4 (line 171): an ability that may harm the Fungeoneers has
 * Pain dice; Continuous Damage harms, so an ability with it and no Pain
 * die is refused, by cost as by add, as a trap without one is. */
static void
d4_continuous_damage_needs_pain_dice(void **unused)
{
	static const char *const want =
	    "The ability 'goo' has Continuous Damage, so it may harm the Fungeoneers, and an "
	    "ability that may harm them has Pain dice: add pain N (1 point a die).";
	struct fgtable *t = fgtable_new(34);

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon monster add ooze level 2 ability goo annoy 2 continuous type acid",
	    want);
	fgtable_fails_unchanged(
	    t, "al", "/fungeon cost monster level 2 ability goo annoy 2 continuous type acid",
	    want);
	fgtable_ok(t, "al",
	           "/fungeon cost monster level 2 ability goo annoy 2 pain 1 continuous type acid");
	/* a hold that harms nobody needs none */
	fgtable_ok(t, "al", "/fungeon cost monster level 2 ability web annoy 2 hold type silk");
	fgtable_free(t);
}

/* Deviation 5 (lines 18, 53): a Fungeoneer who joins a dungeon under way
 * starts at level floor - 1 (at least 1), as a replacement does, however
 * the player comes (leaving and joining again changes nothing); in town
 * and at the entrance the level is the players' choice. */
static void
d5_joining_a_dungeon_under_way(void **unused)
{
	struct fgtable *t = fgtable_new(35);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Anna fighter 5");
	fgtable_ok(t, "al", "/fungeon entrance");
	fgtable_ok(t, "di", "/fungeon join Dora fighter 5"); /* at the entrance: as in town */
	fgtable_ok(t, "al", "/fungeon hallway");
	c = fgtable_fungeon(t);
	assert_int_equal(c->d.floor, 5);
	fgtable_ok(t, "al", "/fungeon leave");
	fgtable_fails_unchanged(t, "al", "/fungeon join Zork fighter 9",
	                        "A Fungeoneer who joins a dungeon under way starts at level 4 "
	                        "(floor 5 - 1, at least 1), as a replacement does; join at level "
	                        "4.");
	fgtable_fails_unchanged(t, "bo", "/fungeon join Bob fighter 12",
	                        "A Fungeoneer who joins a dungeon under way starts at level 4 "
	                        "(floor 5 - 1, at least 1), as a replacement does; join at level "
	                        "4.");
	text = fgtable_said(t, "al", "/fungeon join Zork fighter");
	assert_string_equal(text,
	                    "al joins as Zork, level 4 fighter: 20 hits, class bonus 2, 0 XP.\n");
	free(text);
	fgtable_ok(t, "bo", "/fungeon join Bob fighter 4");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(d1_the_dead_do_not_move_the_party),
	    cmocka_unit_test(d2_every_standing_monster_fights),
	    cmocka_unit_test(d3_the_held_roll_but_deal_nothing),
	    cmocka_unit_test(d4_continuous_damage_needs_pain_dice),
	    cmocka_unit_test(d5_joining_a_dungeon_under_way),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
