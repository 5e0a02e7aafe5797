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
#include "commands/fungeon/fungeon_rights.h"
#include "tests/unit/helpers/fgtable.h"

/* Deviation 1 (line 254): a dead Fungeoneer's player is out of the game
 * until the next hallway, so they no more play a combat turn or head back
 * than take treasure; after a total party kill nobody heads back, each
 * hears what to do next (play-test 6 R5), and the players' replacements go
 * on to that hallway. */
static void
d1_the_dead_do_not_move_the_party(void **unused)
{
	static const char *const m[] = {"/fungeon monster add rat level 6", NULL};
	static const char *const out =
	    "Al is dead: al is out of the game until the next hallway, and the players whose "
	    "Fungeoneers are in play move the party on.";
	static const char *const nobody =
	    "Nobody of the party is in play here: each player whose Fungeoneer died makes a "
	    "new one (/fungeon join NAME CLASS, level 5), then any of them goes on to the "
	    "hallway (/fungeon hallway).";
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
	fgtable_fails_unchanged(t, "al", "/fungeon retreat confirm:true", nobody);
	fgtable_fails_unchanged(t, "cy", "/fungeon combat", nobody);
	fgtable_fails_unchanged(t, "al", "/fungeon hallway",
	                        "al's Al, bo's Bo and cy's Cy died: each new Fungeoneer comes "
	                        "first in the hallway (/fungeon join NAME CLASS, at level 5), or "
	                        "its player leaves the party (/fungeon leave).");
	fgtable_ok(t, "al", "/fungeon join Al2 fighter");
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter");
	fgtable_fails_unchanged(t, "bo", "/fungeon retreat confirm:true", nobody);
	fgtable_ok(t, "cy", "/fungeon join Cy2 fighter");
	fgtable_ok(t, "cy", "/fungeon hallway confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	assert_true(fungeon_rights_in_play(c, 0) && fungeon_rights_in_play(c, 2));
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
 * die is in both Pain rolls. al's one Thwack-O of the turn (line 271) is
 * in the howl's Annoy roll, which names al narrating so far; the turn ends
 * naming al its narrator. */
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
	/* step 3 too (Al stands at 1 hit) */
	fgtable_holds(step3, "\nAl (al, held: deals no damage): ");
	fgtable_holds(step3, "\nNarrative control: al (Al), Thwack-O 1.\n");
	*step3 = '\0';
	fgtable_holds(text, "Al (al): 1 → 1, fails\n"
	                    "Narrative control so far this turn: al (Al), Thwack-O 1.\n"
	                    "Al is held");
	assert_null(strstr(text, "\nNarrative control: "));
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
	/* the one level allowed is taken for any other typed, and said
	 * (play-test 3, F8) */
	text = fgtable_said(t, "al", "/fungeon join Zork fighter 9");
	assert_string_equal(text, "al joins as Zork, level 4 fighter: 20 hits, class bonus 2, 0 "
	                          "XP. Level 4 is the only one for whoever joins a dungeon under "
	                          "way: floor 5 - 1, at least 1, as a replacement.\n");
	free(text);
	text = fgtable_said(t, "bo", "/fungeon join Bob fighter");
	assert_string_equal(text,
	                    "bo joins as Bob, level 4 fighter: 20 hits, class bonus 2, 0 XP.\n");
	free(text);
	assert_int_equal(c->n, 3); /* Dora, Zork, Bob */
	assert_int_equal(c->m[1].level, 4);
	assert_int_equal(c->m[2].level, 4);
	fgtable_free(t);
}

/* Docs 3: names are limited in characters, as the manual says, whatever
 * their bytes: 13 Å (26 bytes) make a name, 24 of them too, 25 do not; a
 * type is 16 characters, a class 40. Newcomer F25: a name too long is
 * said to be, quoted cut with a mark. */
static void
o3_names_count_characters(void **unused)
{
	static const char *const too_long =
	    "'ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ…' is too long: a Fungeoneer's name is 1 to 24 characters "
	    "with no spaces or : , > / \" #.";
	struct fgtable *t = fgtable_new(43);
	char *text;

	(void)unused;
	text = fgtable_said(t, "al", "/fungeon join ÅÅÅÅÅÅÅÅÅÅÅÅÅ fighter 2");
	assert_string_equal(text, "al joins as ÅÅÅÅÅÅÅÅÅÅÅÅÅ, level 2 fighter: 10 hits, class "
	                          "bonus 1, 0 XP.\n");
	free(text);
	fgtable_fails_unchanged(t, "bo", "/fungeon join ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ fighter 2",
	                        too_long);
	fgtable_fails_unchanged(t, "bo", "/fungeon join Bo fighter 2 type:ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ",
	                        "'ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ…' is too long: a class type is one word of 1 "
	                        "to 16 characters (fire, frost, poison) with no spaces or : , > / "
	                        "\" #.");
	fgtable_fails_unchanged(t, "bo",
	                        "/fungeon join Bo \"Ålder Puddle Thumper of the Seventh Swamp "
	                        "Guild\" 2",
	                        "'Ålder Puddle Thumper of the Seventh Swam…' is too long: a class "
	                        "is at most 40 characters "
	                        "(Drazzorian Puddle Thumper fits).");
	fgtable_ok(t, "bo",
	           "/fungeon join ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ \"Ålder Puddle Thumper\" 2 "
	           "type:ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ");
	fgtable_free(t);
}

/* A name or type that breaks its rule, short enough, is refused with the
 * rule alone, made a sentence: its capital and its full stop. */
static void
bad_words_refused_as_sentences(void **unused)
{
	struct fgtable *t = fgtable_new(43);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon join a,b fighter 2",
	                        "A Fungeoneer's name is 1 to 24 characters with no spaces or : , "
	                        "> / \" #.");
	fgtable_fails_unchanged(t, "al", "/fungeon join Al fighter 2 type:a>b",
	                        "A class type is one word of 1 to 16 characters (fire, frost, "
	                        "poison) with no spaces or : , > / \" #.");
	fgtable_drawn(t, 2, 2);
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_TRAPS),
	                        "/fungeon trap add p/t annoy 2 pain 1 type acid",
	                        "A name is 1 to 24 characters with no spaces or : , > / \" #.");
	fgtable_free(t);
}

/* Docs 5: "monster/none" in a combat turn's use: is read as in orders:
 * the monster uses no ability this turn (it still fights); and whether the
 * invoker directs the monster is asked before its abilities are looked
 * at. */
static void
o5_a_monster_uses_none_in_its_turn(void **unused)
{
	static const char *const m[] = {
	    "/fungeon monster add spider level 6 ability bite annoy 2 pain 1 type fangs", NULL};
	struct fgtable *t = fgtable_new(45);
	char *text;

	(void)unused;
	fgtable_three(t, m);
	fgtable_fails_unchanged(t, "al", "/fungeon combat use:spider/none",
	                        "spider is cy's to direct: whoever made a monster directs it (the "
	                        "GM may direct any).");
	fgtable_fails_unchanged(t, "al", "/fungeon combat use:spider/bit",
	                        "spider is cy's to direct: whoever made a monster directs it (the "
	                        "GM may direct any).");
	text = fgtable_said(t, "cy", "/fungeon combat use:spider/none");
	fgtable_holds(text, "\n2. Special abilities\nNone.\n3. Painful conflict\n");
	fgtable_holds(text, "\nspider deals ");
	free(text);
	fgtable_free(t);
}

/* Usability 2: a defeated monster's hold ends, but the continuous damage
 * of the same ability goes on as a trap's does (line 177: it works like
 * the trap feature), and the line says so rather than "free of" it all. */
static void
u2_a_hold_ends_its_damage_goes_on(void **unused)
{
	struct fungeon_effect e = {.from = FUNGEON_FROM_MONSTER,
	                           .source = "hag/curse",
	                           .maker = "console:al",
	                           .annoy = 2,
	                           .pain = 1,
	                           .type = "hex"};
	struct fgtable *t = fgtable_new(52);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_alone_on_floor(
	    t, 31,
	    "/fungeon monster add hag level 6 ability curse annoy 2 pain 1 hold "
	    "continuous type hex");
	e.kind = FUNGEON_EFFECT_HOLD;
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	e.kind = FUNGEON_EFFECT_DAMAGE;
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	text = fgtable_said(t, "gm", "/gm claim");
	free(text);
	fgtable_says(t, "gm", "/fungeon adjust hag hits:-18",
	             "\nAl is free of hag/curse's hold: hag is defeated. Its continuous "
	             "damage goes on until a successful Annoy roll or magic ends it.\n");
	assert_int_equal(c->m[0].neffects, 1);
	assert_int_equal(c->m[0].effects[0].kind, FUNGEON_EFFECT_DAMAGE);
	fgtable_free(t);
}

/* Usability 3: a death in a combat turn's first step (continuous damage)
 * says what a death says elsewhere: out until the next hallway, and where
 * the treasure stays; in the hallway's step 3, that it lies in the room
 * ahead (the Ruling on dying in a hallway). */
static void
u3_a_death_by_continuous_damage_says_what_follows(void **unused)
{
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_MONSTER,
	                           .source = "rat/bite",
	                           .annoy = 30,
	                           .pain = 30,
	                           .type = "teeth"};
	struct fgtable *t = fgtable_new(56);
	struct fungeon_channel *c;

	(void)unused;
	c = fgtable_alone_on_floor(t, 1, "/fungeon monster add rat level 1");
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	c->m[0].hits = 1;
	fgtable_give(t, 0, "coin", 1, false);
	fgtable_says(t, "al", "/fungeon combat",
	             "Al takes 1: 0/5 hits. Al dies! al is out until the next hallway, "
	             "and Al's treasure stays here to plunder.\n");
	fgtable_free(t);

	t = fgtable_new(54);
	c = fgtable_alone_on_floor(t, 1, "/fungeon monster add rat level 1");
	e.from = FUNGEON_FROM_TRAP;
	snprintf(e.source, sizeof(e.source), "pit");
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	c->m[0].hits = 1;
	c->d.room.p[FUNGEON_MONSTER][0].hits = 0;
	fgtable_give(t, 0, "coin", 1, false);
	fgtable_says(t, "al", "/fungeon hallway",
	             "Al takes 1: 0/5 hits. Al dies! al is out until the next hallway, "
	             "and Al's treasure lies in the room ahead, to plunder.\n");
	fgtable_free(t);
}

/* Usability 4: after the whole party fell, no button offers the next
 * combat turn, and the party's line does not count the dead as levels of
 * 0. */
static void
u4_after_a_total_party_kill(void **unused)
{
	struct fgtable *t = fgtable_new(55);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_alone_on_floor(t, 30, "/fungeon monster add rat level 30");
	c->m[0].hits = 1;
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "Al dies!");
	assert_null(strstr(text, "Next combat turn"));
	free(text);
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "\nNo Fungeoneer lives (no Party Min, Max or Total) · floor 30 · XP "
	                    "rule: table.\n");
	assert_null(strstr(text, "Min 0"));
	free(text);
	fgtable_free(t);
}

/* Usability 5..8: the reminder of how hits come back only when a
 * Fungeoneer's hits go up; a design over budget says by how much rather
 * than "left -4"; a waiver shown only in its own room; a credit of 1 is "1
 * point" (left over from play-test 1). */
static void
u5_replies_say_what_fits(void **unused)
{
	static const char *const heal = "in a dungeon only magic treasure and levelling up heal";
	struct fgtable *t = fgtable_new(57);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	c = fgtable_fungeon(t);
	c->m[0].credit = 1;
	fgtable_fails_unchanged(t, "al", "/fungeon town buy charm fancy heal 1",
	                        "charm costs 3 but Al has 1 point of credit.");
	text = fgtable_said(t, "al", "/fungeon adjust Al xp:+5");
	assert_null(strstr(text, heal));
	free(text);
	text = fgtable_said(t, "al", "/fungeon adjust Al hits:-3");
	assert_null(strstr(text, heal));
	free(text);
	fgtable_says(t, "al", "/fungeon adjust Al hits:+2", heal);
	text = fgtable_said(t, "al", "/fungeon cost monster level 9");
	fgtable_holds(text, "Monsters budget of a room now: 4 (Party Total 2 + floor 2); spent 0, "
	                    "this design 9, over budget by 5.\n");
	assert_null(strstr(text, "left -"));
	free(text);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	fgtable_says(t, "al", "/fungeon party", "\nWaived: room 1: ");
	fgtable_ok(t, "al", "/fungeon hallway");
	text = fgtable_said(t, "al", "/fungeon party");
	assert_null(strstr(text, "Waived"));
	free(text);
	fgtable_ok(t, "al", "/fungeon retreat confirm:true"); /* back into room 1 */
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "heading back to town, in room 1");
	assert_null(strstr(text, "Waived"));
	free(text);
	fgtable_free(t);
}

/* Usability 9: on the way back no hallway comes before town, so whoever
 * waits to join, or is dead, is told town is where they come back. */
static void
u9_on_the_way_back_town_comes_next(void **unused)
{
	struct fgtable *t = fgtable_new(59);
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	text = fgtable_said(t, "bo", "/fungeon join Bob fighter");
	fgtable_holds(text, "Bob joins the party when it reaches town (no hallway comes on the "
	                    "way back).\n");
	assert_null(strstr(text, "next hallway"));
	free(text);
	fgtable_fails_unchanged(t, "bo", "/fungeon combat",
	                        "Bob waits to join the party when it reaches town; until then the "
	                        "players whose Fungeoneers are in play move the party on.");
	/* with Al dead nobody is in play: the way on is town (play-test 4, P8) */
	fgtable_gm(t, "/fungeon adjust Al hits:-10");
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "Nobody of the party is in play on the way back, so nobody fights "
	                        "or rolls there: any of its players takes it on to town (/fungeon "
	                        "retreat).");
	fgtable_free(t);
}

/* Usability 10 (XP farming): line 273 pays a trap's cost for every
 * successful Annoy roll against it, and an Unlimited trap can always be
 * triggered (line 121): the Ruling keeps the text's words, so each
 * sidestep pays again. Al (level 6) sidesteps a 1-Annoy-die trap twice. */
static void
u10_each_sidestep_of_an_unlimited_trap_pays(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add gate annoy 1 pain 1 unlimited type spikes", NULL};
	struct fgtable *t = fgtable_new(61);
	struct fungeon_channel *c;
	const char *who;
	int i;
	char line[160];

	(void)unused;
	fgtable_ok(t, "bo", "/fungeon join Bo fighter 6");
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	/* the one who did not make it */
	who = strcmp(fgtable_holder(t, FUNGEON_CAT_TRAPS), "al") ? "al" : "bo";
	i = strcmp(who, "al") ? 0 : 1;
	snprintf(line, sizeof(line), "/fungeon trigger gate %s", c->m[i].name);
	fgtable_says(t, who, line, "succeeds");
	assert_int_equal(c->m[i].xp, 4); /* (1 as 2 Annoy: 1, + 1 Pain) doubled */
	fgtable_says(t, who, line, "succeeds");
	assert_int_equal(c->m[i].xp, 8);
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
	    cmocka_unit_test(o3_names_count_characters),
	    cmocka_unit_test(bad_words_refused_as_sentences),
	    cmocka_unit_test(o5_a_monster_uses_none_in_its_turn),
	    cmocka_unit_test(u2_a_hold_ends_its_damage_goes_on),
	    cmocka_unit_test(u3_a_death_by_continuous_damage_says_what_follows),
	    cmocka_unit_test(u4_after_a_total_party_kill),
	    cmocka_unit_test(u5_replies_say_what_fits),
	    cmocka_unit_test(u9_on_the_way_back_town_comes_next),
	    cmocka_unit_test(u10_each_sidestep_of_an_unlimited_trap_pays),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
