/* The tenth independent play-test of Fungeon
 * (notes/playtest-fungeon-10.md), its low findings: each played at a
 * table as the report found it, with what the rule text (or a Ruling
 * where it is silent) wants instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "rules/fungeon/fungeon_cost.h"
#include "tests/unit/helpers/fgtable.h"

/* U7 (line 299: the healer is in town; Ruling: a new game session begins
 * in town): the healer and a new session, asked for in the dungeon, are
 * refused naming what they are, not the trade of treasure. */
static void
u7_the_healer_and_a_session_are_in_town(void **unused)
{
	struct fgtable *t = fgtable_new(2607);

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_rooms_waived(t, 1);
	fgtable_fails_unchanged(
	    t, "al", "/fungeon town healer",
	    "The healer is found only in town, and the party is in room 1 on floor 3; "
	    "head back first with /fungeon retreat.");
	fgtable_fails_unchanged(t, "al", "/fungeon town session",
	                        "No new game session begins outside town, and the party is in "
	                        "room 1 on floor 3; head back first with /fungeon retreat.");
	fgtable_fails_unchanged(t, "al", "/fungeon town sell gem",
	                        "Treasure is traded in town, and the party is in room 1 on floor "
	                        "3; head back first with /fungeon retreat.");
	fgtable_free(t);

	t = fgtable_new(2608);
	fgtable_fighters(t, 2, 3);
	fgtable_heading_back(t);
	fgtable_fungeon(t)->m[0].nwander = fgtable_fungeon(t)->m[1].nwander = 0;
	fgtable_fails_unchanged(
	    t, "al", "/fungeon town healer hits:1",
	    "The healer is found only in town, and the party is still on its way there, "
	    "in room 1; go on back with /fungeon retreat.");
	fgtable_free(t);
}

/* U11, revisited (fun24; line 260: the class bonus counts against a trap
 * when the class is tied to it): bonus: given to a triggering names those
 * whose class fits, as for disarming: Al, a level 3 fighter, rolls 3 + 1
 * dice against the spiked pit. */
static void
u11_triggering_takes_bonus(void **unused)
{
	static const char *const d[] = {"/fungeon trap add pit annoy 2 pain 1 type spikes", NULL};
	struct fgtable *t = fgtable_new(2611);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_says(t, "al", "/fungeon trigger pit Al bonus:Al",
	             "pit: 6 3 → 6\nAl (al): 6 4 3 4 → 6, succeeds (+2 XP)\n");
	fgtable_free(t);
}

/* U10 (line 254: all your treasure is left behind to plunder): a death
 * speaks of the dead's treasure only when it carried some; a room made
 * with no monster says so when a fight is asked for, not that its
 * monsters have no hits left. */
static void
u10_no_treasure_no_word_of_it(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add gem mundane", NULL};
	struct fgtable *t = fgtable_new(2610);
	char *text;

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "No monster is in this room: there is nothing to fight here; take "
	                        "its treasure (/fungeon take ITEM) or go on (/fungeon hallway).");
	text = fgtable_said(t, "al", "/fungeon adjust Al hits:-99");
	fgtable_holds(text, "Al dies! al is out until the next hallway.\n");
	free(text);
	fgtable_give(t, 1, "ring", 1, false);
	text = fgtable_said(t, "bo", "/fungeon adjust Bo hits:-99");
	fgtable_holds(text, "Bo dies! bo is out until the next hallway, and Bo's treasure stays "
	                    "to plunder.\n");
	free(text);
	fgtable_free(t);

	t = fgtable_new(2545);
	fgtable_fighters(t, 2, 3);
	fgtable_rooms_waived(t, 1);
	fgtable_doomed(t, 0, NULL);
	text = fgtable_said(t, "bo", "/fungeon hallway");
	fgtable_holds(text, "Al dies! al is out until the next hallway.\n");
	free(text);
	fgtable_free(t);
}

/* U6 (line 254: at zero hits, death; the Ruling that one taken to 0 at a
 * rank is dead from the next, its dice counting 0): the rank table shows
 * the dice a Fungeoneer dead from an earlier rank rolled beside the 0
 * they count, as its dice line does, so no die it rolled goes unseen;
 * past its last die it shows 0 (dead) alone. */
static void
u6_the_deads_dice_stay_in_sight(void **unused)
{
	struct fgtable *t = fgtable_new(2545);
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_rooms_waived(t, 1);
	fgtable_doomed(t, 0, NULL);
	text = fgtable_said(t, "bo", "/fungeon hallway");
	fgtable_holds(text, "Al (al): 4 1 1\n"
	                    "  1 | 4 | 6 | Needle | 1 → Al\n"
	                    "  2 | 0 (dead, rolled ♥1) | 6 | Needle | 0 (no one it can hurt)\n"
	                    "  3 | 0 (dead, rolled 1) | 6 | Needle | 0 (no one it can hurt)\n"
	                    "  4 | 0 (dead) | 6 | Needle | 0 (no one it can hurt)\n");
	free(text);
	fgtable_free(t);
}

/* T7 (playtest8; delver(7): names are compared by what shows): a joiner
 * that changes what shows is part of a name, so a family emoji (one
 * glyph) and its three members side by side, or a Persian name spelt
 * with its non-joiner and the same letters joined, are two names; one
 * that shows nothing, between Latin letters, still makes a look-alike
 * that is refused. */
static void
t7_a_joiner_that_shows_tells_names_apart(void **unused)
{
	static const char family[] = "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d"
	                             "\xf0\x9f\x91\xa7";
	static const char three[] = "\xf0\x9f\x91\xa8\xf0\x9f\x91\xa9\xf0\x9f\x91\xa7";
	static const char apart[] = "\xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1\xd8\xb6\xd8\xa7";
	static const char joined[] = "\xd8\xb9\xd9\x84\xdb\x8c\xd8\xb1\xd8\xb6\xd8\xa7";
	struct fgtable *t = fgtable_new(2617);
	char line[160];

	(void)unused;
	snprintf(line, sizeof(line), "/fungeon join %s bard 2", family);
	fgtable_ok(t, "e1", line);
	snprintf(line, sizeof(line), "/fungeon join %s bard 2", three);
	fgtable_ok(t, "e2", line);
	snprintf(line, sizeof(line), "/fungeon join %s bard 2", apart);
	fgtable_ok(t, "e3", line);
	snprintf(line, sizeof(line), "/fungeon join %s bard 2", joined);
	fgtable_ok(t, "e4", line);
	snprintf(line, sizeof(line), "/fungeon sheet %s", joined);
	fgtable_says(t, "e1", line, "(e4): level 2 bard");
	snprintf(line, sizeof(line), "/fungeon sheet %s", family);
	fgtable_says(t, "e4", line, "(e1): level 2 bard");
	fgtable_ok(t, "e5", "/fungeon join Alba bard 2");
	/* the black bird joins a bird to a square that is a pictograph too */
	fgtable_ok(t, "e7", "/fungeon join \xf0\x9f\x90\xa6\xe2\x80\x8d\xe2\xac\x9b bard 2");
	fgtable_fails_unchanged(t, "e6",
	                        "/fungeon join Al\xe2\x80\x8d"
	                        "ba bard 2",
	                        "A Fungeoneer's name shows as it is typed: this one holds an "
	                        "invisible character or a control, or an accent with no letter "
	                        "under it.");
	fgtable_free(t);
}

/* The eleventh play-test (notes/playtest-fungeon-11.md). F5 (line 125:
 * continuous damage ends only by an Annoy success or a magical treasure;
 * the healer's is one): a Fungeoneer at full hits who suffers continuous
 * damage buys the cheapest magic, Heal 1 (a fancy item, 2, plus 1), and
 * the damage ends; asked for more than that, the healer says 1 at most. */
static void
f5_the_healer_ends_continuous_damage(void **unused)
{
	struct fgtable *t = fgtable_new(2611);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 2);
	c = fgtable_fungeon(t);
	c->m[0].credit = 2;
	assert_int_equal(
	    fungeon_effect_add(&c->m[0], &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
	                                                          .source = "needle",
	                                                          .annoy = 2,
	                                                          .pain = 1,
	                                                          .type = "poison"}),
	    0);
	fgtable_fails_unchanged(t, "al", "/fungeon town healer hits:2",
	                        "Al misses 0 hits of 10, and the healer sells no more healing "
	                        "than that (hits:1 at most).");
	fgtable_fails_unchanged(t, "al", "/fungeon town healer",
	                        "Ending Al's continuous damage costs 3 points (a fancy item, 2, "
	                        "with Heal 1) but Al has 2 points of credit, and nothing to sell.");
	c->m[0].credit = 5;
	fgtable_says(t, "al", "/fungeon town healer",
	             "Al pays the healer 3 points (a fancy item, 2, with Heal 1; credit left 2 "
	             "points).\nAl heals 0 with the healer's magic: 10/10 hits. The magic ends "
	             "Al's continuous damage.");
	assert_int_equal(c->m[0].neffects, 0);
	fgtable_fails_unchanged(t, "al", "/fungeon town healer",
	                        "Al has all 10 hits and no continuous damage: the healer has "
	                        "nothing to heal.");
	fgtable_free(t);
}

/* P1 (Ruling: a new game session begins in town): asked for outside town,
 * a new session's refusal reads as one from its first words, not as the
 * success reply's "A new game session begins"; so does the healer's. */
static void
p1_a_refusal_reads_as_one(void **unused)
{
	struct fgtable *t = fgtable_new(2612);

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_heading_back(t);
	fgtable_fungeon(t)->m[0].nwander = fgtable_fungeon(t)->m[1].nwander = 0;
	fgtable_fails_unchanged(t, "al", "/fungeon town session",
	                        "No new game session begins outside town, and the party is still "
	                        "on its way there, in room 1; go on back with /fungeon retreat.");
	fgtable_fails_unchanged(t, "al", "/fungeon town healer",
	                        "The healer is found only in town, and the party is still on its "
	                        "way there, in room 1; go on back with /fungeon retreat.");
	fgtable_free(t);
}

/* P2 (line 254: the dead are out until the next hallway): a dead player,
 * asking for the healer in a room, is told that the players in play head
 * back, not to head back themself, which they may not. */
static void
p2_the_dead_are_told_what_they_may_do(void **unused)
{
	struct fgtable *t = fgtable_new(2613);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_rooms_waived(t, 1);
	c->m[0].dead = true;
	c->m[0].hits = 0;
	fgtable_fails_unchanged(t, "al", "/fungeon town healer hits:2",
	                        "The healer is found only in town, and the party is in room 1 on "
	                        "floor 3; al is out of the game until the next hallway, and the "
	                        "players whose Fungeoneers are in play head back (/fungeon "
	                        "retreat).");
	fgtable_fails_unchanged(t, "bo", "/fungeon town session",
	                        "No new game session begins outside town, and the party is in "
	                        "room 1 on floor 3; head back first with /fungeon retreat.");
	fgtable_free(t);
}

/* F1 (line 18: a Fungeoneer has one Level): a level in another script's
 * digits, before a class type, is the word refused, not the type after
 * it; and a level typed twice is refused as that, not as "no level". */
static void
f1_join_names_the_wrong_word(void **unused)
{
	struct fgtable *t = fgtable_new(2614);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon join Bee fighter \xd9\xa3 fire",
	                        "Level must be a whole number from 1 to 60 typed in the digits 0 "
	                        "to 9 (got '\xd9\xa3'); "
	                        "usage: /fungeon join <name> <class> [level] [type]");
	fgtable_fails_unchanged(t, "al", "/fungeon join Bee fighter three fire",
	                        "Level must be a whole number from 1 to 60 (got 'three'); if "
	                        "\"fighter three fire\" is one class, quote it; usage: /fungeon "
	                        "join <name> <class> [level] [type]");
	fgtable_fails_unchanged(t, "al", "/fungeon join Bee fighter 3 3",
	                        "'3' reads as a second level (the level is 3 already): give the "
	                        "level once, and a class type as a word such as fire (type:fire).");
	fgtable_says(t, "al", "/fungeon join Bee fighter fire 3",
	             "al joins as Bee, level 3 fighter (class type fire)");
	fgtable_free(t);
}

/* P3: at full hits with no continuous damage, asked for some hits, the
 * healer says there is nothing to heal, not "hits:0 at most" (a value
 * hits: refuses). */
static void
p3_nothing_to_heal_names_no_refused_value(void **unused)
{
	struct fgtable *t = fgtable_new(2615);

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_fungeon(t)->m[0].credit = 5;
	fgtable_fails_unchanged(t, "al", "/fungeon town healer hits:1",
	                        "Al has all 15 hits and no continuous damage: the healer has "
	                        "nothing to heal.");
	fgtable_fungeon(t)->m[0].hits = 12;
	fgtable_fails_unchanged(t, "al", "/fungeon town healer hits:4",
	                        "Al misses 3 hits of 15, and the healer sells no more healing "
	                        "than that (hits:3 at most).");
	fgtable_free(t);
}

/* F4 (delver(7) Limits: a name that holds an invisible character is
 * refused): a joiner inside a Latin name shows nothing and is refused, as
 * at either end, for a Fungeoneer and for a piece; one that changes what
 * shows (Persian's non-joiner in a name such as Alireza) stays part of the name. */
static void
f4_a_joiner_that_shows_nothing_is_refused(void **unused)
{
	static const char refused[] =
	    "A Fungeoneer's name shows as it is typed: this one holds an invisible character or "
	    "a control, or an accent with no letter under it.";
	struct fgtable *t = fgtable_new(2616);

	(void)unused;
	fgtable_fails_unchanged(t, "ca", "/fungeon join Ca\xe2\x80\x8dra rogue 2", refused);
	fgtable_fails_unchanged(t, "da", "/fungeon join Da\xe2\x80\x8cve rogue 2", refused);
	fgtable_says(t, "fa",
	             "/fungeon join \xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1\xd8\xb6"
	             "\xd8\xa7 rogue 2",
	             "fa joins as \xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1\xd8\xb6"
	             "\xd8\xa7, level 2 rogue");
	fgtable_free(t);
}

/* P5 (line 96: searching and disarming are each player's own): the Traps
 * player, searching with another's Fungeoneer, is not told of a right to
 * name who stumbles in, which is only for /fungeon trigger. */
static void
p5_the_traps_player_searches_for_their_own(void **unused)
{
	static const char *const m[] = {"/fungeon monster add rat level 6", NULL};
	struct fgtable *t = fgtable_new(2618);
	struct fungeon_channel *c = fgtable_three(t, m);
	struct fungeon_piece *pit = fungeon_room_add(&c->d.room, FUNGEON_TRAP);

	(void)unused;
	snprintf(pit->name, sizeof(pit->name), "pit");
	snprintf(pit->maker, sizeof(pit->maker), "console:cy");
	assert_int_equal(
	    fungeon_cost_parse(FUNGEON_TRAP, "annoy 2 pain 1 type spikes", &pit->d, NULL, 0), 0);
	pit->cost = 3;
	fgtable_fails_unchanged(
	    t, "cy", "/fungeon disarm pit Bo",
	    "Bo is bo's Fungeoneer, and each player disarms for their own (the "
	    "Traps player names who stumbles in only with /fungeon trigger; the "
	    "GM may for anyone).");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(t7_a_joiner_that_shows_tells_names_apart),
	    cmocka_unit_test(u6_the_deads_dice_stay_in_sight),
	    cmocka_unit_test(u7_the_healer_and_a_session_are_in_town),
	    cmocka_unit_test(u10_no_treasure_no_word_of_it),
	    cmocka_unit_test(u11_triggering_takes_bonus),
	    cmocka_unit_test(f5_the_healer_ends_continuous_damage),
	    cmocka_unit_test(p1_a_refusal_reads_as_one),
	    cmocka_unit_test(p2_the_dead_are_told_what_they_may_do),
	    cmocka_unit_test(f1_join_names_the_wrong_word),
	    cmocka_unit_test(p3_nothing_to_heal_names_no_refused_value),
	    cmocka_unit_test(f4_a_joiner_that_shows_nothing_is_refused),
	    cmocka_unit_test(p5_the_traps_player_searches_for_their_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
