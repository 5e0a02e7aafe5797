/* The fifth independent play-test of Fungeon
 * (notes/playtest-fungeon-5.md), its findings each played at a table as
 * the report found it, with what the rule text (or a Ruling where it
 * is silent or says two things) wants instead. */
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

/* Q1 (line 242: whenever dice are rolled, each player's Thwack-O is in
 * them; line 271: only one Thwack-O, even for several rolls "this turn";
 * lines 246-252: combat is dealt with in turns): cy's ogre holds Al and
 * Bo, so in one turn cy's Thwack-O lands on the ogre's dice in step 1's
 * first roll (4) and nowhere after: not on the ogre's dice against Bo, not
 * on Cy's in step 2, not in step 3. Each roll that brings a Thwack-O says
 * who narrates so far, and the turn ends naming its narrator, bo with the
 * turn's highest (6); /help fungeon rulings says so. */
static void
q1_one_thwacko_a_player_in_each_combat_turn(void **unused)
{
	static const char *const m[] = {
	    "/fungeon monster add ogre level 2 ability grab annoy 2 hold type crush", NULL};
	struct fgtable *t = fgtable_new(20);
	char *text;

	(void)unused;
	fgtable_three(t, m);
	fgtable_held(t, 0, "ogre/grab", 4, "crush");
	fgtable_held(t, 1, "ogre/grab", 4, "crush");
	text = fgtable_said(t, "bo", "/fungeon combat");
	fgtable_holds(text, "Continuous hold: ogre/grab on Al\nogre/grab: 4 4 5 6 → 6\n"
	                    "Al (al): 3 2 1 6 4 1 → 6, succeeds: the effect ends\n"
	                    "Narrative control so far this turn: cy (Cy), Thwack-O 4.\n"
	                    "Continuous hold: ogre/grab on Bo\nogre/grab: 6 3 5 4 → 6\n"
	                    "Bo (bo): 6 5 5 4 6 4 → 6, succeeds: the effect ends\n"
	                    "Narrative control so far this turn: bo (Bo), Thwack-O 6.\n"
	                    "2. Special abilities\n");
	fgtable_holds(text, "Cy (cy): 1 4 5 6 6 4 → 6, succeeds\n3. Painful conflict\n");
	fgtable_holds(strstr(text, "3. Painful conflict\n"),
	              "ogre deals 0 and takes 4: 2/6 hits.\n"
	              "Narrative control: bo (Bo), Thwack-O 6.\n");
	assert_null(strstr(text, "Thwack-O tie"));
	free(text);
	text = fgtable_said(t, "bo", "/help fungeon rulings");
	fgtable_holds(text, "Thwack-O, as the text has it (\"only roll one Thwack-O Die, even if "
	                    "you are making multiple Rolls this turn\"): in a combat turn each "
	                    "player rolls one Thwack-O, in the first roll of the turn they take "
	                    "part in, and the highest of the turn narrates it; outside combat "
	                    "each roll holds each player's Thwack-O once (even one made for their "
	                    "Fungeoneer and their trap at once) and has its own narrator.");
	free(text);
	fgtable_free(t);
}

/* Q5 (line 254: at zero hits, at any time, death; line 267: the ranks
 * are compared and dealt in turn; Ruling: from the rank after the one
 * that kills it, a participant's dice are gone, counting 0 as a roll that
 * ran out does). Al, down to 1 hit, dies at rank 1 and wins nothing after
 * (its 5 4 2 2 would have taken ranks 2 to 5); the ogre, down to 1 hit,
 * dies at rank 2 and Al's dice take the ranks its 5 5 4 would have. */
static void
q5_the_dead_deal_no_more(void **unused)
{
	static const char *const d[] = {"/fungeon monster add ogre level 5",
	                                "/fungeon monster add ogre2 level 5", NULL};
	struct fgtable *t = fgtable_new(58);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_into_room(t, 5, d);
	fgtable_gm(t, "/fungeon adjust Al hits:-24");
	fgtable_ok(t, "gm", "/gm release");
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "Al (al): 5 5 4 2 2\nogre: 6 4 3 1 1\nogre2: 4 3 1 1 1\n"
	                    "  1 | ♥5 | 6 | 4 | ogre | 1 → Al\n"
	                    "  2 | 0 (dead, rolled 5) | 4 | 3 | ogre | 0 (no one it can hurt)\n"
	                    "  3 | 0 (dead, rolled 4) | 3 | 1 | ogre | 0 (no one it can hurt)\n"
	                    "  4 | 0 (dead, rolled 2) | 1 | 1 | tie | 0 (tie)\n"
	                    "  5 | 0 (dead, rolled 2) | 1 | 1 | tie | 0 (tie)\n"
	                    "Al deals 0 and takes 1: 0/25 hits. Al dies!");
	free(text);
	assert_int_equal(c->m[0].xp, 0);
	assert_int_equal(c->d.room.p[FUNGEON_MONSTER][0].hits, 15);
	assert_int_equal(c->d.room.p[FUNGEON_MONSTER][1].hits, 15);
	fgtable_free(t);

	t = fgtable_new(12);
	c = fgtable_into_room(t, 5, d);
	fgtable_gm(t, "/fungeon adjust ogre hits:-14");
	fgtable_ok(t, "gm", "/gm release");
	fgtable_ok(t, "al", "/fungeon orders targets:Al>ogre");
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "Al (al): 6 6 5 2 2\nogre: 6 5 5 5 4\nogre2: 5 4 2 1 1\n"
	                    "  1 | 6 | 6 | 5 | tie | 0 (tie)\n"
	                    "  2 | 6 | 5 | 4 | Al | 1 → ogre\n"
	                    "  3 | ♥5 | 0 (dead, rolled 5) | 2 | Al | 1 → ogre2\n"
	                    "  4 | 2 | 0 (dead, rolled 5) | 1 | Al | 1 → ogre2\n"
	                    "  5 | 2 | 0 (dead, rolled 4) | 1 | Al | 1 → ogre2\n"
	                    "Al deals 4 and takes 0: 25/25 hits, +20 XP.\n"
	                    "ogre deals 0 and takes 1: 0/15 hits. ogre is defeated!\n");
	free(text);
	assert_int_equal(c->m[0].hits, 25);
	fgtable_says(t, "al", "/help fungeon combat steps",
	             "Ruling: one taken to 0 hits at a rank is dead from the next: its dice there "
	             "count 0, as a roll that ran out (shown \"0 (dead, rolled 4)\", the die it "
	             "rolled beside), so it wins and deals nothing more.");
	fgtable_free(t);
}

/* Q10 (line 67: every point given is spent; line 246: a room brings
 * combat; Ruling: a holder lets go only what no new piece can use): a lone
 * merchant on floor 1 made a trap and two coins and went in with the whole
 * Monsters budget waived, so the room had nothing to fight. A level 2
 * monster fits the 2 points, so the waiver is refused, naming it; one
 * point short of the floor is let go. */
static void
q10_no_room_goes_without_what_its_points_buy(void **unused)
{
	struct fgtable *t = fgtable_new(901);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_ok(t, "zz", "/fungeon join Zed merchant 1");
	fgtable_ok(t, "zz", "/fungeon hallway");
	c = fgtable_fungeon(t);
	fgtable_ok(t, "zz", "/fungeon trap add pit annoy 2 pain 1 type spikes");
	fgtable_ok(t, "zz", "/fungeon treasure add coin mundane");
	fgtable_ok(t, "zz", "/fungeon treasure add coin2 mundane");
	fgtable_fails_unchanged(t, "zz", "/fungeon enter waive:true",
	                        "Monsters 2 can still buy a new monster (one costs at least 1 "
	                        "here), and the text has every point spent: spend them first; a "
	                        "holder waives only points no new piece can use (a Ruling), and "
	                        "the GM any, outside the rules.");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	fgtable_ok(t, "zz", "/fungeon monster add rat level 2");
	fgtable_says(t, "zz", "/fungeon enter",
	             "The party enters room 1 on floor 1: 1 trap, 1 "
	             "monster, 2 treasures.");
	fgtable_free(t);

	/* floor 3, a lone level 1: Monsters 4 (Total 1 + floor 3); a monster
	 * of 3 leaves 1, short of the 3 a monster costs at least here, and a
	 * trap of 3 one point short of a trap */
	t = fgtable_new(902);
	c = fgtable_alone_on_floor(t, 3, "/fungeon monster add rat level 3");
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_ok(t, "al", "/fungeon monster add rat2 level 3");
	fgtable_ok(t, "al", "/fungeon trap add pit annoy 2 pain 2 type spikes");
	fgtable_ok(t, "al", "/fungeon treasure add coin mundane value 3");
	text = fgtable_said(t, "al", "/fungeon enter waive:true");
	fgtable_holds(text, "Points left unspent, waived by al: Traps 1, Monsters 1.\n"
	                    "The party enters room 2 on floor 3");
	assert_null(strstr(text, "outside the rules"));
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_ROOM);
	fgtable_free(t);
}

/* Q2: an Unlimited trap disarmed is listed as disarmed, not "triggered"
 * (nobody triggered it: line 96 makes disarming like triggering only in
 * its roll); one sidestepped is listed as triggered, as before. */
static void
q2_a_disarmed_trap_is_not_listed_as_triggered(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add flame annoy 2 pain 1 unlimited type fire",
	    "/fungeon trap add dart annoy 2 pain 1 unlimited type darts", NULL};
	struct fgtable *t = fgtable_new(109);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_into_room(t, 6, d);
	c->d.room.p[FUNGEON_TRAP][0].state = FUNGEON_TRAP_FOUND;
	fgtable_says(t, "al", "/fungeon disarm flame", "flame is disarmed; it springs no more.");
	fgtable_says(t, "al", "/fungeon trigger dart", "succeeds");
	text = fgtable_said(t, "al", "/fungeon trap list");
	fgtable_holds(text,
	              "  flame | annoy 2 pain 1 unlimited type fire | 4 | disarmed (made by al)\n"
	              "  dart | annoy 2 pain 1 unlimited type darts | 4 | found, triggered (made "
	              "by al)\n");
	free(text);
	fgtable_free(t);
}

/* Q3: a held Fungeoneer's dice line says both why it deals nothing and
 * how many of its dice a Resist took: Bo, a level 2 fire-mage (class type
 * fire, bonus 1), held by the beetle's grab, fails the Annoy roll against
 * its fire bite, which resists fire, and meets it in the bite's Painful
 * conflict. (A monster's attacks in step 3 are universal: no class bonus
 * there for a Resist to take.) */
static void
q3_held_and_resisted_both_shown(void **unused)
{
	static const char *const d[] = {"/fungeon monster add beetle level 2 ability bite annoy 4 "
	                                "pain 1 resist 1 fire type fire",
	                                NULL};
	struct fgtable *t = fgtable_new(3);
	char *text;

	(void)unused;
	fgtable_ok(t, "bo", "/fungeon join Bo fire-mage 2 type:fire");
	fgtable_into_room(t, 2, d);
	fgtable_held(t, 0, "beetle/grab", 9, "crush");
	text = fgtable_said(t, "al", "/fungeon combat");
	/* 2 dice: level 2 + class bonus 1 - 1 resisted */
	fgtable_holds(text, "Bo (bo, held: deals no damage, 1 resisted): 6 6\n");
	free(text);
	fgtable_free(t);
}

/* Q4: step 2 names why an ability is not rolled without saying that
 * everyone still suffers it: Al, alone in the fight, rolled off the ogre's
 * hold in step 1 and is free of it. */
static void
q4_those_who_broke_free_do_not_suffer_it(void **unused)
{
	static const char *const d[] = {
	    "/fungeon monster add ogre level 4 ability grab annoy 2 hold type crush", NULL};
	struct fgtable *t = fgtable_new(2);
	char *text;

	(void)unused;
	fgtable_into_room(t, 6, d);
	fgtable_held(t, 0, "ogre/grab", 6, "crush");
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "Al (al): 5 2 5 5 2 4 → 5, succeeds: the effect ends\n");
	fgtable_holds(text, "2. Special abilities\nogre/grab: level + 2 Annoy dice, no Pain dice, "
	                    "hold\nEveryone it would face rolled against it in step 1.\n3. Painful "
	                    "conflict\n");
	free(text);
	fgtable_free(t);
}

/* Q9: a name taken is named first, whatever the budget has left (making
 * it cheaper would not help); and (Q12) a player who does not hold the
 * category hears that first, not what is wrong with the design. */
static void
q9_who_and_which_name_come_before_the_design(void **unused)
{
	struct fgtable *t = fgtable_new(610);
	const char *maker, *other;
	char want[200];

	(void)unused;
	fgtable_drawn(t, 2, 2);
	maker = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	other = strcmp(maker, "al") == 0 ? "bo" : "al";
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add bell2 annoy 2 pain 3 type sound");
	fgtable_fails_unchanged(t, maker, "/fungeon trap add bell2 annoy 2 pain 1 type sound",
	                        "The name bell2 is taken here by a trap of the room; pick "
	                        "another.");
	snprintf(want, sizeof(want),
	         "Traps are %s's to make in room 1: the player who holds a category alone makes "
	         "its pieces.",
	         maker);
	fgtable_fails_unchanged(t, other, "/fungeon trap add t1 pain 1 type fire", want);
	fgtable_free(t);
}

/* Q11, revisited (fun24; line 260: a Fire Mage gets her class bonus
 * against a Flaming Column Trap): a pyromancer (class type fire, bonus 1)
 * getting past a fire trap rolls her level + 1 dice, as in the Pain roll
 * after, and /help fungeon trigger says so. */
static void
q11_the_fire_mage_counts_her_bonus_when_triggering(void **unused)
{
	static const char *const d[] = {"/fungeon trap add flame annoy 2 pain 1 type fire", NULL};
	struct fgtable *t = fgtable_new(804);

	(void)unused;
	fgtable_ok(t, "ub", "/fungeon join Ub pyromancer 3 type:fire");
	fgtable_into_room(t, 3, d);
	fgtable_says(t, "ub", "/fungeon trigger flame Ub",
	             "flame: 2 2 → 2\nUb (ub): 3 1 2 5 → 5, succeeds (+2 XP)\n");
	fgtable_says(t, "ub", "/help fungeon trigger",
	             "The class bonus counts on the Annoy roll when the class is tied to the "
	             "trap's type (line 260: a Fire Mage against a fire trap), or for those bonus: "
	             "names, unless the trap is universal.");
	fgtable_free(t);
}

/* Q15 (line 175: one who fails against a Continuous Hold may not act
 * during the turn, and after, until an Annoy roll breaks it): held by the
 * vine, Al may not search for a trap, get past one or be named to, between
 * combat turns as in them; a trap triggered for everyone in the room
 * leaves Al out; Bo, free, searches. */
static void
q15_the_held_may_not_act_between_turns(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add pit annoy 2 pain 1 type spikes",
	    "/fungeon monster add vine level 2 ability grab annoy 4 hold type plant", NULL};
	static const char *const held =
	    "Al is held by vine/grab and may not act until a roll in a combat turn breaks the hold "
	    "(/fungeon combat).";
	struct fgtable *t = fgtable_new(2300);
	const char *trapper;
	char *text;

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_held(t, 0, "vine/grab", 4, "plant");
	trapper = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	fgtable_fails_unchanged(t, "al", "/fungeon find pit", held);
	fgtable_fails_unchanged(t, "al", "/fungeon trigger pit Al", held);
	fgtable_fails_unchanged(t, trapper, "/fungeon trigger pit Al Bo", held);
	fgtable_says(t, "bo", "/fungeon find pit", "Searching for pit");
	text = fgtable_said(t, trapper, "/fungeon trigger pit all");
	fgtable_holds(text, "\nBo (bo): ");
	assert_null(strstr(text, "\nAl (al): "));
	free(text);
	fgtable_says(t, "bo", "/help fungeon combat steps",
	             "Ruling: between turns too, until the hold breaks, it does not search, "
	             "disarm, get past a trap, take or use treasure.");
	fgtable_free(t);
}

/* Q12, the wording: each reply says what is so where the party is. */
static void
q12_wording(void **unused)
{
	static const char *const coin[] = {"/fungeon treasure add coin mundane", NULL};
	static const char *const ogre[] = {"/fungeon monster add ogre level 6", NULL};
	static const char *const guarded[] = {"/fungeon trap add blade annoy 2 pain 1 guards type "
	                                      "steel",
	                                      "/fungeon treasure add bow mundane", NULL};
	struct fgtable *t = fgtable_new(902);
	struct fungeon_channel *c;
	struct fungeon_piece *bat;
	char *text, err[200];

	(void)unused;
	/* a room with no traps says so */
	fgtable_fighters(t, 1, 1);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_fails_unchanged(t, "al", "/fungeon trap remove gas",
	                        "There is no trap 'gas' in room 1; it has no traps yet.");
	fgtable_free(t);

	/* an aim without '>' that names nobody says how orders are written; a
	 * coin sold gives no credit (half a point, rounded down) */
	t = fgtable_new(903);
	fgtable_into_room(t, 1, coin);
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:foo",
	                        "There is no Fungeoneer or monster 'foo' here to aim at; an order "
	                        "is written who>target (Alba>goblin), or target alone for your own "
	                        "Fungeoneer.");
	fgtable_ok(t, "al", "/fungeon take coin");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	fgtable_ok(t, "al", "/fungeon town sell coin");
	fgtable_fails_unchanged(t, "al", "/fungeon town buy c3 mundane",
	                        "c3 costs 1 but Al has 0 points of credit.");
	fgtable_free(t);

	/* in town, the dead wait for no hallway; a monster whose maker left
	 * follows the defaults, and the holders line says so */
	t = fgtable_new(1003);
	c = fgtable_three(t, ogre);
	fgtable_ok(t, "cy", "/fungeon leave");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, " (1 made by a player out of the game or gone, following the "
	                    "defaults; only the GM directs it)");
	free(text);
	fgtable_gm(t, "/fungeon adjust Bo hits:-30");
	fgtable_ok(t, "gm", "/gm release");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	fgtable_fails_unchanged(t, "bo", "/fungeon use ring on:Al",
	                        "Bo is dead: bo makes a new Fungeoneer here in town (/fungeon join "
	                        "NAME CLASS).");
	fgtable_free(t);

	/* the whole party fallen on the way back, a wanderer standing: nobody
	 * fights it, and /fungeon party says who moves on */
	t = fgtable_new(1441);
	fgtable_fighters(t, 1, 1);
	c = fgtable_heading_back(t);
	c->m[0].nwander = 0;
	bat = fungeon_room_add(&c->d.room, FUNGEON_MONSTER);
	snprintf(bat->name, sizeof(bat->name), "bat");
	snprintf(bat->maker, sizeof(bat->maker), "console:al");
	assert_int_equal(fungeon_cost_parse(FUNGEON_MONSTER, "level 1", &bat->d, err, sizeof(err)),
	                 0);
	bat->cost = 1;
	bat->hits = 3;
	bat->wanderer = true;
	fgtable_gm(t, "/fungeon adjust Al hits:-5");
	fgtable_ok(t, "gm", "/gm release");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text,
	              "Nobody of the party is in play, so nobody fights the wandering monster "
	              "here: any of its players takes it on to town (/fungeon retreat).\n");
	assert_null(strstr(text, "before going on back"));
	free(text);
	fgtable_free(t);

	/* a guarding trap everyone in play searched for in vain is only got
	 * past or triggered */
	t = fgtable_new(1442);
	c = fgtable_into_room(t, 3, guarded);
	c->d.room.p[FUNGEON_TRAP][0].unaware = 1u << 0; /* Al searched, in vain */
	fgtable_fails_unchanged(
	    t, "al", "/fungeon take bow",
	    "blade guards the treasure and is not found yet, and nobody here may "
	    "search for it again (blissful ignorance): trigger it or get past "
	    "it (/fungeon trigger blade) before taking any.");
	fgtable_free(t);
}

/* Q14: names differing only in case never stand side by side, in any
 * script (delver(7): names never clash), and are found in any case. */
static void
q14_names_fold_case_in_every_script(void **unused)
{
	struct fgtable *t = fgtable_new(1802);

	(void)unused;
	fgtable_ok(t, "z9", "/fungeon join Ünïcødé☃ x 2");
	fgtable_fails_unchanged(
	    t, "y2", "/fungeon join ünïcødé☃ x 2",
	    "The name ünïcødé☃ is taken here by z9's Fungeoneer; pick another.");
	fgtable_says(t, "y2", "/fungeon sheet ÜNÏCØDÉ☃", "Ünïcødé☃");
	fgtable_ok(t, "z9", "/fungeon hallway");
	fgtable_ok(t, "z9", "/fungeon trap add Épée annoy 2 pain 1 type steel");
	fgtable_fails_unchanged(t, "z9", "/fungeon trap add éPÉE annoy 2 pain 1 type steel",
	                        "The name éPÉE is taken here by a trap of the room; pick another.");
	fgtable_free(t);
}

/* Q8: README starts a Fungeon table, GM-less, from joining to town: each
 * step's command in order, under its own heading. */
static void
q8_readme_starts_a_fungeon_table(void **unused)
{
	static const char *const steps[] = {
	    "/fungeon join",     "/fungeon hallway",     "/fungeon pick",
	    "/fungeon trap add", "/fungeon monster add", "/fungeon treasure add",
	    "/fungeon enter",    "/fungeon combat",      "/fungeon take",
	    "/fungeon retreat",  "/fungeon town sell",   "/gm claim",
	};
	FILE *f = fopen("README.md", "r");
	static char text[1 << 17];
	size_t n;
	const char *at;

	(void)unused;
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	at = strstr(text, "\n### A Fungeon table\n");
	assert_non_null(at);
	fgtable_holds(at, "needs no GM");
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const char *next = strstr(at, steps[i]);

		if (next == NULL || (strstr(at, "\n## ") != NULL && next > strstr(at, "\n## ")))
			fail_msg("README's Fungeon table lacks %s after the one before", steps[i]);
		at = next;
	}
}

/* Q7 (line 6: each player's die told apart; the Ruling on styles: in a
 * party the one who joined first keeps a mark): a style chosen in one
 * channel reaches the chooser's other parties, and the reply says what it
 * did there: whose die gave the mark up, or where the chooser's die keeps
 * its default. */
static void
q7_a_style_says_what_it_moves_elsewhere(void **unused)
{
	struct fgtable *t = fgtable_new(407);
	struct thwacko_style st[FUNGEON_PARTY_MAX];
	char *text, want[200];

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	t->chan = "u";
	fgtable_ok(t, "al", "/fungeon join Al2 fighter 2");
	fgtable_ok(t, "p3", "/thwacko style cyan ✚");
	fgtable_ok(t, "p3", "/fungeon join Pip fighter 2");
	t->chan = "t";
	text = fgtable_said(t, "al", "/thwacko style yellow ✚");
	t->chan = "u";
	fungeon_channel_styles(fgtable_fungeon(t), t->st, st);
	assert_string_equal(st[0].mark, "✚"); /* al joined u first */
	snprintf(want, sizeof(want),
	         "In console:u p3's die gives mark ✚ up for %s: you joined that party first, so "
	         "the mark is yours there.\n",
	         st[1].mark);
	fgtable_holds(text, want);
	free(text);
	/* p3 joined v first: there al's die keeps its default */
	t->chan = "v";
	fgtable_ok(t, "p3", "/fungeon join Pip2 fighter 2");
	fgtable_ok(t, "al", "/fungeon join Al3 fighter 2");
	t->chan = "t";
	text = fgtable_said(t, "p3", "/thwacko style cyan ★");
	free(text);
	text = fgtable_said(t, "al", "/thwacko style yellow ★");
	t->chan = "v";
	fungeon_channel_styles(fgtable_fungeon(t), t->st, st);
	assert_string_equal(st[0].mark, "★");
	snprintf(want, sizeof(want),
	         "In console:v your die keeps mark %s: ★ is p3's there, who joined that party "
	         "before you.\n",
	         st[1].mark);
	fgtable_holds(text, want);
	free(text);
	fgtable_free(t);
}

/* Q12, the last: a feature word mistyped gets a "did you mean", as a
 * mistyped command does; a word near none gets the list alone. */
static void
q12_a_feature_typo_gets_did_you_mean(void **unused)
{
	struct fgtable *t = fgtable_new(5200);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon cost trap anoy 2 pain 1 type fire",
	                        "'anoy' is not a trap feature (did you mean annoy?); the words are "
	                        "annoy N, pain N, guards, unlimited, universal, continuous, type "
	                        "WORD.");
	fgtable_fails_unchanged(t, "al", "/fungeon cost monster level 2 abilty bite annoy 2 type x",
	                        "'abilty' is not a monster feature (did you mean ability?); the "
	                        "words are level N, then for each ability: ability NAME, annoy N, "
	                        "pain N, resist N WORD, hold, continuous, universal, type WORD.");
	fgtable_fails_unchanged(t, "al", "/fungeon cost trap zzzzz",
	                        "'zzzzz' is not a trap feature; the words are annoy N, pain N, "
	                        "guards, unlimited, universal, continuous, type WORD.");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(q1_one_thwacko_a_player_in_each_combat_turn),
	    cmocka_unit_test(q5_the_dead_deal_no_more),
	    cmocka_unit_test(q10_no_room_goes_without_what_its_points_buy),
	    cmocka_unit_test(q2_a_disarmed_trap_is_not_listed_as_triggered),
	    cmocka_unit_test(q3_held_and_resisted_both_shown),
	    cmocka_unit_test(q4_those_who_broke_free_do_not_suffer_it),
	    cmocka_unit_test(q9_who_and_which_name_come_before_the_design),
	    cmocka_unit_test(q11_the_fire_mage_counts_her_bonus_when_triggering),
	    cmocka_unit_test(q15_the_held_may_not_act_between_turns),
	    cmocka_unit_test(q12_wording),
	    cmocka_unit_test(q14_names_fold_case_in_every_script),
	    cmocka_unit_test(q8_readme_starts_a_fungeon_table),
	    cmocka_unit_test(q7_a_style_says_what_it_moves_elsewhere),
	    cmocka_unit_test(q12_a_feature_typo_gets_did_you_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
