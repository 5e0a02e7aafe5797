/* The first independent play-test of Fungeon, each finding played at a
 * table as the report found it, with what the rule text wants instead:
 * p1..p5 the deviations, q* the questionable readings, u* usability and
 * docs (the undo of rolls is test_undo_policy.c's). What the report did
 * not cover, played since, is test_fungeon_played.c. Issue
 * 25's first round is test_fungeon_findings.c. */
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

/* Deviation 1: a dungeon's entrance opens on Party Min (text line 46), and
 * a player cannot set it elsewhere; the GM's correction by hand says it is
 * outside the rules. */
static void
p1_the_entrance_opens_on_party_min(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_pair(t, 2, 3);
	text = fgtable_said(t, "al", "/fungeon entrance");
	fgtable_holds(text, "The entrance opens on floor 2 (Party Min).");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon floor 7",
	                        "Only the GM sets the floor by hand, a correction outside the "
	                        "rules: the entrance opens on Party Min, and a downward stair "
	                        "leads one floor deeper (/fungeon stair).");
	text = fgtable_said(t, "bo", "/fungeon party");
	fgtable_holds(text, "Party now: Min 2 · Max 3 · Total 5 · floor 2 · XP rule: table.");
	free(text);
	c = fgtable_fungeon(t);
	free(fgtable_run(t, "gm", "/gm claim"));
	text = fgtable_said(t, "gm", "/fungeon floor 7");
	assert_string_equal(text, "Set by hand, outside the rules (the entrance opens on Party "
	                          "Min, and a downward stair leads one floor deeper):\n"
	                          "The party is on floor 7.\n");
	free(text);
	assert_int_equal(c->d.floor, 7);
	fgtable_free(t);
}

/* Deviation 2: the floor changes only by the downward stair placed when
 * Party Min rose in the hallway, and it leads to the next floor (lines 61,
 * 86); a room without one has none to take. */
static void
p2_only_a_stair_leads_deeper(void **unused)
{
	struct fgtable *t = fgtable_new(2);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	c = fgtable_fungeon(t);
	fgtable_fails_unchanged(t, "al", "/fungeon floor 9", NULL);
	fgtable_fails_unchanged(t, "al", "/fungeon floor 1", NULL);
	fgtable_fails_unchanged(t, "al", "/fungeon stair",
	                        "Room 1 has no downward stair: the Traps player places one only "
	                        "when Party Min rose in the hallway before the room.");
	/* Al reaches level 3: Party Min rises in the next hallway */
	fgtable_ok(t, "al", "/fungeon adjust Al xp:40");
	text = fgtable_said(t, "al", "/fungeon hallway");
	fgtable_holds(text,
	              "Party Min rose from 2 to 3: whoever makes the Traps places a downward stair "
	              "to floor 3 in the room.");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon stair",
	                        "The party is in the hallway before room 2, and a stair is taken "
	                        "from the room it is in: go in with /fungeon enter.");
	text = fgtable_waived_said(t);
	fgtable_holds(
	    text, "A downward stair leads on to floor 3: take it with /fungeon stair before the "
	          "next hallway.");
	free(text);
	text = fgtable_said(t, "al", "/fungeon stair");
	assert_string_equal(text, "The party takes room 2's downward stair: the rooms to come "
	                          "are on floor 3.\n");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon stair",
	                        "The party took room 2's stair already: the rooms to come are on "
	                        "floor 3.");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Total 3 · floor 2 (the rooms to come: floor 3) · XP rule");
	free(text);
	fgtable_ok(t, "al", "/fungeon hallway");
	assert_int_equal(c->d.room.floor, 3);
	assert_false(c->d.room.stair);
	fgtable_free(t);
}

/* Deviation 3: continuous damage ends with a successful Annoy roll or a
 * magical Treasure (line 125), not only a healing one: the fire ring ends
 * the needle's poison and keeps its magic; a coin has none to use. */
static void
p3_any_magic_ends_continuous_damage(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add ring fancy pain 1 type fire",
	                                "/fungeon treasure add coin mundane", NULL};
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_TRAP,
	                           .source = "Needle",
	                           .annoy = 4,
	                           .pain = 2,
	                           .xp = 8};
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_into_room(t, 3, d);
	c = fgtable_fungeon(t);
	fgtable_ok(t, "al", "/fungeon take ring");
	fgtable_ok(t, "al", "/fungeon take coin");
	fgtable_fails_unchanged(t, "al", "/fungeon use ring",
	                        "Al suffers no continuous damage, and ring's magic heals nothing; "
	                        "its dice count by themselves.");
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	fgtable_fails_unchanged(t, "al", "/fungeon use coin",
	                        "coin has no magic to use; magic treasure is used to heal (once) "
	                        "or to end continuous damage.");
	text = fgtable_said(t, "al", "/fungeon use ring");
	assert_string_equal(text, "Al's ring ends Al's continuous damage (1 effect); the ring "
	                          "keeps its magic.\n");
	free(text);
	assert_int_equal(c->m[0].neffects, 0);
	assert_int_equal(c->m[0].nitems, 2);
	fgtable_free(t);
}

/* Deviation 4: whoever made a monster controls it, its abilities and its
 * targets (line 136); each player chooses whom their own Fungeoneer's won
 * ranks hurt (line 267); a wandering monster is its builder's; the GM may
 * decide for anyone; with no choices made, anyone in the party just plays
 * the turn. */
static void
p4_who_decides_what_in_a_fight(void **unused)
{
	static const char *const m[] = {
	    "/fungeon monster add ogre level 6 ability club annoy 2 pain 1 type blunt",
	    "/fungeon monster add imp level 6", NULL};
	struct fgtable *t = fgtable_new(4);
	struct fungeon_channel *c;
	struct fungeon_piece *w;
	char *text;

	(void)unused;
	c = fgtable_three(t, m);
	fgtable_fails_unchanged(t, "cy", "/fungeon combat use:none targets:Al>ogre",
	                        "Al is al's Fungeoneer, and each player decides for their own "
	                        "(the GM may for anyone).");
	fgtable_fails_unchanged(t, "al", "/fungeon combat use:ogre/club",
	                        "ogre is cy's to direct: whoever made a monster directs it (the "
	                        "GM may direct any).");
	fgtable_fails_unchanged(t, "al", "/fungeon combat use:none",
	                        "use:none holds back the abilities of the monsters you direct, "
	                        "and you direct none in this fight.");
	fgtable_fails_unchanged(t, "al", "/fungeon combat targets:imp>Bo",
	                        "imp is cy's to direct: whoever made a monster directs it (the GM "
	                        "may direct any).");
	fgtable_fails_unchanged(t, "al", "/fungeon combat imp",
	                        "Every standing monster fights each turn (monsters attack on "
	                        "sight, and everyone makes the Painful conflict roll), and ogre "
	                        "stands here too; name monsters only when more stand than a turn "
	                        "holds (/fungeon combat takes them all).");
	fgtable_fails_unchanged(t, "cy", "/fungeon orders targets:Al>imp",
	                        "Al is al's Fungeoneer, and each player decides for their own "
	                        "(the GM may for anyone).");
	fgtable_fails_unchanged(t, "al", "/fungeon orders use:ogre/none",
	                        "ogre is cy's to direct: whoever made a monster directs it (the "
	                        "GM may direct any).");
	fgtable_fails_unchanged(t, "zed", "/fungeon combat",
	                        "Only the party's players (or the GM) move the party on; /fungeon "
	                        "join NAME CLASS LEVEL makes you one.");
	/* each gives their own orders */
	text = fgtable_said(t, "al", "/fungeon orders targets:imp");
	assert_string_equal(text, "Al's won ranks hurt imp in this room's fights.\n");
	free(text);
	text = fgtable_said(t, "cy", "/fungeon orders use:ogre/none");
	assert_string_equal(text, "ogre uses no special ability in this room's fights.\n");
	free(text);
	fgtable_ok(t, "cy", "/fungeon orders targets:ogre>Bo,imp>Bo");
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Aims at imp in this room's fights.\n");
	free(text);
	text = fgtable_said(t, "al", "/fungeon monster list");
	fgtable_holds(text, "(made by cy), aims at Bo, uses none\n");
	fgtable_holds(text, "imp | level 6 | 6 | 18/18 hits (made by cy), aims at Bo\n");
	free(text);
	/* al plays the turn: cy's ogre uses no ability, and no one hurts Al
	 * but Al's fellows (the monsters aim at Bo) */
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "2. Special abilities\nNone.\n3. Painful conflict\n");
	assert_null(strstr(text, "→ Al\n"));
	free(text);
	assert_int_equal(c->m[0].hits, 30);
	/* cy's own turn may still choose for cy's monsters */
	fgtable_ok(t, "cy", "/fungeon combat use:ogre/club targets:ogre>Cy");
	/* the GM may decide for anyone */
	free(fgtable_run(t, "gm", "/gm claim"));
	text = fgtable_said(t, "gm", "/fungeon orders targets:Al>none");
	assert_string_equal(text, "Al's won ranks hurt the other side's lowest die again (the "
	                          "default).\n");
	free(text);
	/* a wandering monster is its builder's; a monster whose maker left
	 * follows the defaults (play-test 3, F11): only the GM directs it */
	w = &c->d.room.p[FUNGEON_MONSTER][1];
	w->wanderer = true;
	snprintf(w->maker, sizeof(w->maker), "console:bo");
	fgtable_fails_unchanged(t, "cy", "/fungeon orders targets:imp>Al",
	                        "imp is bo's to direct: whoever made a monster directs it (the GM "
	                        "may direct any).");
	fgtable_ok(t, "bo", "/fungeon orders targets:imp>Al");
	w->wanderer = false;
	snprintf(w->maker, sizeof(w->maker), "console:gone");
	fgtable_fails_unchanged(
	    t, "bo", "/fungeon orders targets:imp>Al",
	    "Nobody in play directs imp now (its maker has left or is out of "
	    "the game), so it follows the defaults; only the GM may direct it.");
	fgtable_fails_unchanged(
	    t, "cy", "/fungeon orders targets:imp>Cy",
	    "Nobody in play directs imp now (its maker has left or is out of "
	    "the game), so it follows the defaults; only the GM may direct it.");
	fgtable_free(t);
}

/* Deviation 5: a Continuous Hold is rolled again in the special-ability
 * part of combat (line 175), which a defeated monster has no more: the
 * hold ends with its monster, at once, and the sheet no longer lists it. */
static void
p5_a_hold_ends_with_its_monster(void **unused)
{
	static const char *const d[] = {
	    "/fungeon monster add spider level 2 ability web annoy 2 hold type silk",
	    "/fungeon monster add rat level 6", NULL};
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_HOLD,
	                           .from = FUNGEON_FROM_MONSTER,
	                           .source = "spider/web",
	                           .maker = "console:al",
	                           .annoy = 4,
	                           .type = "silk"};
	struct fgtable *t = fgtable_new(5);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_into_room(t, 6, d);
	c = fgtable_fungeon(t);
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	free(fgtable_run(t, "gm", "/gm claim"));
	text = fgtable_said(t, "gm", "/fungeon adjust spider hits:-6");
	fgtable_holds(
	    text, "spider's hits 6 → 0 of 6: defeated.\nAl is free of spider/web's hold: spider is "
	          "defeated.\n");
	free(text);
	assert_int_equal(c->m[0].neffects, 0);
	text = fgtable_said(t, "al", "/fungeon sheet");
	assert_null(strstr(text, "hold"));
	free(text);
	/* a hold left over from a monster already dead ends before it is rolled */
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text,
	              "1. Continuous monster features\nAl is free of spider/web's hold: spider is "
	              "defeated.\n2. ");
	assert_null(strstr(text, "held"));
	free(text);
	fgtable_free(t);
}

/* Questionable reading 1: in a special ability's Painful conflict the
 * monster rolls its level plus the ability's Pain dice (line 250), and the
 * winner of a rank hurts one other Fungeoneer or monster (line 267): only
 * traps take no damage, so those who failed can hurt the monster too, and
 * earn XP for it: played until Al (level 1) fails the sting's Annoy roll
 * and wins the first rank of its Pain roll. */
static void
q1_the_ability_s_monster_can_be_hurt(void **unused)
{
	bool seen = false;

	(void)unused;
	for (uint64_t seed = 1; seed < 40 && !seen; seed++) {
		struct fgtable *t = fgtable_new(seed);
		const struct fungeon_channel *c;
		char *text, *step3;

		fgtable_alone_on_floor(
		    t, 20,
		    "/fungeon monster add wasp level 1 ability sting annoy 38 pain "
		    "1 type poison");
		c = fgtable_fungeon(t);
		text = fgtable_said(t, "al", "/fungeon combat");
		step3 = strstr(text, "3. Painful conflict\n");
		assert_non_null(step3);
		*step3 = '\0';
		if (strstr(text, " | Al | 1 → wasp/sting\n") != NULL) {
			seen = true;
			fgtable_holds(text, "Al deals 1 and takes 1: 4/5 hits, +21 XP.\n"
			                    "wasp/sting deals 1 and takes 1: 2/3 hits.\n");
			assert_true(c->d.room.p[FUNGEON_MONSTER][0].hits <= 2);
			assert_true(c->m[0].xp >= 21);
		}
		free(text);
		fgtable_free(t);
	}
	assert_true(seen);
}

/* Questionable reading 2: "a single successful Annoy roll will break the
 * Continuous Hold" (line 175). A Fungeoneer held by the spider's web
 * rolls against it once a turn, in step 1; the spider's web in step 2 is
 * rolled against the others only, so a success there is not undone by a
 * fresh roll in the same turn. */
static void
q2_one_roll_a_turn_against_a_hold(void **unused)
{
	static const char *const m[] = {
	    "/fungeon monster add spider level 2 ability web annoy 2 hold type silk", NULL};
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_HOLD,
	                           .from = FUNGEON_FROM_MONSTER,
	                           .source = "spider/web",
	                           .maker = "console:cy",
	                           .annoy = 4,
	                           .type = "silk"};
	struct fgtable *t = fgtable_new(6);
	struct fungeon_channel *c;
	char *text, *step2;

	(void)unused;
	c = fgtable_three(t, m);
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	text = fgtable_said(t, "bo", "/fungeon combat");
	fgtable_holds(text, "1. Continuous monster features\nContinuous hold: spider/web on Al\n");
	step2 = strstr(text, "2. Special abilities\n");
	assert_non_null(step2);
	assert_non_null(strstr(step2, "3. Painful conflict\n"));
	strstr(step2, "3. Painful conflict\n")[0] = '\0'; /* step 2 alone */
	fgtable_holds(step2, "spider/web: level + 2 Annoy dice, no Pain dice, hold\n");
	fgtable_holds(step2, "\nBo (bo): ");
	fgtable_holds(step2, "\nCy (cy): ");
	assert_null(strstr(step2, "\nAl (al): "));
	free(text);
	/* when all it faces rolled against it in step 1, it rolls nothing */
	c->m[1].dead = c->m[2].dead = true; /* Bo and Cy are out of this fight */
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "2. Special abilities\nspider/web: level + 2 Annoy dice, no Pain dice, "
	                    "hold\nEveryone it would face rolled against it in step 1.\n3. Painful "
	                    "conflict\n");
	free(text);
	fgtable_free(t);
}

/* Usability: heading back is for good, so the first step back asks
 * first; nothing changes until it is confirmed. */
static void
u2_heading_back_asks_first(void **unused)
{
	struct fgtable *t = fgtable_new(12);
	const struct fungeon_channel *c;
	char *text, *before;

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "al", "/fungeon hallway");
	c = fgtable_fungeon(t);
	before = fgtable_saved(t);
	text = fgtable_said(t, "al", "/fungeon retreat");
	assert_string_equal(text, "Heading back from here leaves the dungeon at once, for town, "
	                          "and room 1, being made, is given up. Go with /fungeon retreat "
	                          "confirm:true.\n");
	free(text);
	assert_string_equal(reply_msg(t->last, REPLY_CHANNEL)->buttons[0].action,
	                    "fungeon retreat confirm:true");
	text = fgtable_saved(t);
	assert_string_equal(text, before);
	free(text);
	free(before);
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	fgtable_free(t);
}

/* Usability: a player decides for their own Fungeoneer: takes treasure,
 * adjusts, searches, disarms; others' are the GM's (pick's who: too). */
static void
u3_each_player_decides_for_their_own(void **unused)
{
	static const char *const m[] = {"/fungeon monster add rat level 6", NULL};
	struct fgtable *t = fgtable_new(13);
	struct fungeon_channel *c;
	struct fungeon_piece *pit;

	(void)unused;
	c = fgtable_three(t, m);
	c->d.room.p[FUNGEON_MONSTER][0].hits = 0;
	fungeon_room_add(&c->d.room, FUNGEON_TREASURE)->cost = 1;
	snprintf(c->d.room.p[FUNGEON_TREASURE][0].name, FUNGEON_NAME_MAX + 1, "coin");
	pit = fungeon_room_add(&c->d.room, FUNGEON_TRAP);
	snprintf(pit->name, sizeof(pit->name), "pit");
	snprintf(pit->maker, sizeof(pit->maker), "console:cy");
	assert_int_equal(fungeon_cost_parse(FUNGEON_TRAP, "annoy 2 pain 1 unlimited type spikes",
	                                    &pit->d, NULL, 0),
	                 0);
	pit->cost = 4;
	fgtable_fails_unchanged(
	    t, "al", "/fungeon find pit Bo",
	    "Bo is bo's Fungeoneer, and each player searches for their own (the "
	    "Traps player names who stumbles in only with /fungeon trigger; the "
	    "GM may for anyone).");
	fgtable_fails_unchanged(t, "al", "/fungeon trigger pit Bo",
	                        "Bo is bo's Fungeoneer, and each player decides for their own (the "
	                        "Traps player says who stumbles into their trap; the GM may for "
	                        "anyone).");
	fgtable_ok(t, "cy", "/fungeon trigger pit Bo"); /* cy made it: Bo stumbles into it */
	fgtable_fails_unchanged(t, "al", "/fungeon take coin Bo",
	                        "Bo is bo's Fungeoneer, and each player takes treasure for their "
	                        "own (the GM may for anyone).");
	fgtable_fails_unchanged(t, "al", "/fungeon adjust Bo hits:-1",
	                        "A player adjusts only their own Fungeoneer; the GM adjusts any "
	                        "other Fungeoneer or a monster.");
	fgtable_fails_unchanged(t, "al", "/fungeon adjust rat hits:1",
	                        "A player adjusts only their own Fungeoneer; the GM adjusts any "
	                        "other Fungeoneer or a monster.");
	fgtable_fails_unchanged(t, "al", "/fungeon retreat Bo",
	                        "Every player makes the roll before each room on the way back; "
	                        "only the GM names who rolls.");
	fgtable_ok(t, "al", "/fungeon adjust Al hits:-1");
	fgtable_gm(t, "/fungeon take coin Bo");
	assert_int_equal(c->m[1].nitems, 1);
	fgtable_gm(t, "/fungeon adjust Bo hits:-1");
	assert_int_equal(c->m[1].hits, 29);
	fgtable_free(t);
}

/* Usability: names that would clash are refused with one sentence (a
 * Fungeoneer or piece named like a player, an item bought under a name
 * carried already); treasure taken under a name carried already gets a
 * number; a Thwack-O style that is another player's die in the party is
 * refused. */
static void
u4_names_that_clash(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add stone mundane", NULL};
	struct fgtable *t = fgtable_new(14);
	struct fungeon_channel *c;
	struct thwacko_style st[FUNGEON_PARTY_MAX];
	char line[80], *text, want[200];

	(void)unused;
	fgtable_ok(t, "bo", "/fungeon join Brom fighter 3");
	fgtable_fails_unchanged(t, "al", "/fungeon join bo fighter 3",
	                        "The name bo is a player's here (bo), and names are looked up as "
	                        "Fungeoneers first; pick another.");
	fgtable_fails_unchanged(t, "al", "/fungeon join Brom fighter 3",
	                        "The name Brom is taken here by bo's Fungeoneer; pick another.");
	fgtable_ok(t, "al", "/fungeon join al fighter 3"); /* after oneself is fine */
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	c = fgtable_fungeon(t);
	snprintf(line, sizeof(line), "/fungeon monster add %s level 3",
	         strcmp(fgtable_holder(t, FUNGEON_CAT_MONSTERS), "al") ? "al" : "bo");
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_MONSTERS), line, NULL);
	fgtable_make(t, FUNGEON_CAT_TREASURE, d[0]);
	fgtable_enter_waived(t);
	/* al carries a stone already: the room's is carried as stone2 */
	assert_non_null(fungeon_item_add(&c->m[1]));
	snprintf(c->m[1].items[0].name, FUNGEON_NAME_MAX + 1, "stone");
	c->m[1].items[0].d.kind = FUNGEON_TREASURE;
	text = fgtable_said(t, "al", "/fungeon take stone");
	assert_string_equal(text, "al takes stone (1 point). al carries a stone already, so this "
	                          "one is stone2.\n");
	free(text);
	assert_string_equal(c->m[1].items[1].name, "stone2");
	/* bo's die is taken in this party */
	fungeon_channel_styles(c, t->st, st);
	snprintf(line, sizeof(line), "/thwacko style %s %s",
	         thwacko_style_colour_name(st[0].colour), st[0].mark);
	snprintf(want, sizeof(want),
	         "The mark %s is taken in this party: it is on bo's Thwack-O die (%s); choose "
	         "another mark, so that the dice can be told apart where colour does not show.",
	         st[0].mark, thwacko_style_colour_name(st[0].colour));
	text = fgtable_run(t, "al", line);
	assert_true(reply_is_error(t->last));
	assert_string_equal(reply_error_text(t->last), want);
	free(text);
	fgtable_free(t);
}

/* Usability: wording. One point is "1 point"; Treasure "is" someone's to
 * make; /thwacko show names the caller once; on the way back the party
 * line gives the floor of the room re-entered. */
static void
u5_wording(void **unused)
{
	struct fgtable *t = fgtable_new(15);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_drawn(t, 4, 2);
	for (int i = 0; i < c->n; i++) {
		bool holds_one = false;

		for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
			holds_one |= fungeon_channel_holder(c, (enum fungeon_category)k) == i;
		if (!holds_one) {
			text = fgtable_run(t, c->m[i].player, "/fungeon treasure add coin mundane");
			assert_true(strstr(reply_error_text(t->last), "Treasure is ") ==
			            reply_error_text(t->last));
			free(text);
		}
	}
	text = fgtable_said(t, "al", "/thwacko show");
	assert_null(strstr(text, "You:"));
	fgtable_holds(text, "al (you): ");
	free(text);
	/* the way back: room 2 on floor 3, the party back in room 1 on floor 2 */
	c->d.phase = FUNGEON_RETREAT;
	c->d.rooms = 2;
	c->d.back = 1;
	c->d.floor = 3;
	c->d.room.number = 1;
	c->d.room.floor = 2;
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "The party, heading back to town, in room 1 on floor 2\n");
	fgtable_holds(text, "Total 8 · floor 2 · XP rule");
	free(text);
	fgtable_free(t);
}

/* Usability: /fungeon cost refuses what /fungeon monster add refuses: a
 * Resist die against a type no Fungeoneer has. */
static void
u6_cost_refuses_what_add_refuses(void **unused)
{
	struct fgtable *t = fgtable_new(16);
	const char *want = "No Fungeoneer of the party has cold as a class type or a magic type, "
	                   "so chill's Resist dice would resist nothing; resist a type one of "
	                   "them has.";

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al mage 6 type:fire");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon cost monster level 5 ability chill annoy 1 resist 1 cold type cold",
	    want);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_fails_unchanged(
	    t, "al",
	    "/fungeon monster add ice level 5 ability chill annoy 1 resist 1 cold type cold", want);
	fgtable_ok(t, "al",
	           "/fungeon cost monster level 5 ability chill annoy 1 resist 1 fire "
	           "type cold");
	fgtable_free(t);
}

/* Usability: a plural choice typed in the singular is taken ("trap" for
 * traps). */
static void
u7_a_singular_choice_is_taken(void **unused)
{
	struct fgtable *t = fgtable_new(17);
	struct fungeon_channel *c;
	char *text;
	int next;

	(void)unused;
	fgtable_fighters(t, 2, 2);
	fgtable_ok(t, "al", "/fungeon hallway");
	c = fgtable_fungeon(t);
	next = fungeon_hallway_picks_next(&c->d.room.picks);
	text = fgtable_said(t, c->m[next].player, "/fungeon pick trap");
	fgtable_holds(text, " chooses Traps, and so describes the room and draws it on the map "
	                    "first.");
	free(text);
	text = fgtable_run(t, "al", "/fungeon pick t");
	assert_true(reply_is_error(t->last));
	free(text);
	fgtable_free(t);
}

/* Usability, and line 297: what a Fungeoneer sells in town gives half its
 * points, rounded down (the text's 11-point sword gives 5) once over all
 * given up in the visit (recheck13 F2, no longer item by item): two 1-point
 * coins give 1, said in plain words that read the same on every platform
 * (play-test 3, F8: not "0½"). */
static void
u8_a_visits_sales_round_once(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add coin mundane",
	                                "/fungeon treasure add penny mundane", NULL};
	struct fgtable *t = fgtable_new(18);
	const struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_into_room(t, 3, d);
	fgtable_ok(t, "al", "/fungeon take coin");
	fgtable_ok(t, "al", "/fungeon take penny");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	c = fgtable_fungeon(t);
	text = fgtable_said(t, "al", "/fungeon town sell coin");
	assert_string_equal(text, "Al sells coin (1 point): what Al gave up in this visit, 1 "
	                          "point, gives half, rounded down once over it all, so this "
	                          "sale adds 0 points: credit 0 points.\n");
	free(text);
	text = fgtable_said(t, "al", "/fungeon sheet");
	assert_null(strstr(text, "Town credit"));
	free(text);
	text = fgtable_said(t, "al", "/fungeon town sell penny");
	assert_string_equal(text, "Al sells penny (1 point): what Al gave up in this visit, 2 "
	                          "points, gives half, rounded down once over it all, so this "
	                          "sale adds 1 point: credit 1 point.\n");
	free(text);
	assert_int_equal(c->m[0].credit, 1);
	fgtable_says(t, "al", "/fungeon town buy bead mundane",
	             "Al buys bead for 1 point (credit left 0 points).");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(p1_the_entrance_opens_on_party_min),
	    cmocka_unit_test(p2_only_a_stair_leads_deeper),
	    cmocka_unit_test(p3_any_magic_ends_continuous_damage),
	    cmocka_unit_test(p4_who_decides_what_in_a_fight),
	    cmocka_unit_test(p5_a_hold_ends_with_its_monster),
	    cmocka_unit_test(q1_the_ability_s_monster_can_be_hurt),
	    cmocka_unit_test(q2_one_roll_a_turn_against_a_hold),
	    cmocka_unit_test(u2_heading_back_asks_first),
	    cmocka_unit_test(u3_each_player_decides_for_their_own),
	    cmocka_unit_test(u4_names_that_clash),
	    cmocka_unit_test(u5_wording),
	    cmocka_unit_test(u6_cost_refuses_what_add_refuses),
	    cmocka_unit_test(u7_a_singular_choice_is_taken),
	    cmocka_unit_test(u8_a_visits_sales_round_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
