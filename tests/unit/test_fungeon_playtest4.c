/* The fourth independent play-test of Fungeon
 * (notes/playtest-fungeon-4.md): P8, P1, P7 and P11, each played at a
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
#include "tests/unit/helpers/fgtable.h"

/* P8 (death, line 254: a dead Fungeoneer's player is out of the game
 * until the party is next in the Hallway; Ruling: on the way back, where
 * no hallway is ahead, until town): when the whole party has fallen on the
 * way back and no GM sits, any of its players heads on to town, where the
 * fallen come back with new Fungeoneers; the death line says town, not
 * the hallway. */
static void
p8_a_party_fallen_on_the_way_back_reaches_town(void **unused)
{
	struct fgtable *t = fgtable_new(81);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 1, 1);
	c = fgtable_heading_back(t);
	text = fgtable_run(t, "gm", "/gm claim");
	free(text);
	text = fgtable_said(t, "gm", "/fungeon adjust Al hits:-5");
	fgtable_holds(text, "Al dies! al is out until the party reaches town.");
	free(text);
	fgtable_ok(t, "gm", "/gm release");
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Dead: al is out until the party reaches town and makes a new one");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "Nobody of the party is in play on the way back, so nobody fights "
	                        "or rolls there: any of its players takes it on to town (/fungeon "
	                        "retreat).");
	/* a newcomer on the way back waits for town, and moves nothing while
	 * someone of the party is in play; here nobody is */
	text = fgtable_said(t, "bo", "/fungeon join Bo fighter 1");
	fgtable_holds(text, "Bo joins the party when it reaches town");
	free(text);
	text = fgtable_said(t, "bo", "/fungeon retreat");
	fgtable_holds(text, "Nobody of the party is left in play, so nobody rolls or fights on "
	                    "the rest of the way back: the fallen come back into the game in "
	                    "town, where each makes a new Fungeoneer");
	fgtable_holds(text, "The party leaves the dungeon and is back in town.");
	free(text);
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	assert_false(c->m[1].fresh);
	text = fgtable_said(t, "al", "/fungeon join Al2 fighter 2");
	fgtable_holds(text, "al makes a new Fungeoneer: Al2, level 2 fighter");
	free(text);
	fgtable_free(t);
}

/* P8, the other side: while one Fungeoneer of the party is in play on the
 * way back, the fallen still move nothing. */
static void
p8_the_fallen_wait_while_one_stands(void **unused)
{
	struct fgtable *t = fgtable_new(81);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 1);
	c = fgtable_heading_back(t);
	fgtable_gm(t, "/fungeon adjust Al hits:-5");
	fgtable_ok(t, "gm", "/gm release");
	fgtable_fails_unchanged(t, "al", "/fungeon retreat",
	                        "Al is dead: al is out of the game until the party reaches town, "
	                        "and the players whose Fungeoneers are in play move the party on.");
	assert_int_equal(c->d.phase, FUNGEON_RETREAT);
	fgtable_free(t);
}

/* P8's wording: on the way back, a newcomer (a replacement) waits for
 * town, not for a hallway that does not come. */
static void
p8_a_replacement_on_the_way_back_waits_for_town(void **unused)
{
	struct fgtable *t = fgtable_new(81);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 1);
	c = fgtable_rooms_waived(t, 3);
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_RETREAT);
	c->m[0].nwander = 0; /* whatever the roll: nothing to build */
	fgtable_ok(t, "bo", "/fungeon join Bob fighter 1");
	free(fgtable_run(t, "gm", "/gm claim"));
	fgtable_fails_unchanged(t, "gm", "/fungeon retreat Bob",
	                        "Bob is a replacement: bo is out until the party reaches town, "
	                        "where Bob joins the party.");
	fgtable_free(t);
}

/* P1 (Monsters, line 136: whoever creates the monsters controls them;
 * Ruling: a monster whose maker is out of the game follows the defaults):
 * standing orders lapse with those they concern. Cy's orders for the ogre
 * go when Cy dies, so the ogre uses its first ability again; an aim at a
 * Fungeoneer who died, or at a monster defeated, is forgotten, and a
 * defeated monster's own orders go with it. The GM may still direct an
 * ogre nobody in play directs. */
static void
p1_orders_lapse_with_those_they_concern(void **unused)
{
	static const char *const mon[] = {
	    "/fungeon monster add ogre level 6 ability grab annoy 2 pain 1 type crush",
	    "/fungeon monster add newt level 6", NULL};
	struct fgtable *t = fgtable_new(10);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_three(t, mon);
	fgtable_ok(t, "cy", "/fungeon orders targets:ogre>Bo,newt>Al use:ogre/none");
	fgtable_ok(t, "al", "/fungeon orders targets:newt");
	fgtable_ok(t, "bo", "/fungeon orders targets:Cy");
	fgtable_gm(t, "/fungeon adjust Cy hits:-30");
	assert_true(c->m[2].dead);
	text = fgtable_said(t, "al", "/fungeon orders");
	assert_string_equal(text, "Al (al) aims at newt.\n");
	free(text);
	text = fgtable_said(t, "bo", "/fungeon sheet");
	assert_null(strstr(text, "Aims at"));
	free(text);
	/* its maker hears why (fun24, F4): out of the game */
	fgtable_fails_unchanged(t, "cy", "/fungeon orders targets:ogre>Al",
	                        "Cy is dead: cy is out of the game until the next hallway.");
	fgtable_fails_unchanged(
	    t, "al", "/fungeon orders targets:ogre>Bo",
	    "Nobody in play directs ogre now (its maker has left or is out of "
	    "the game), so it follows the defaults; only the GM may direct it.");
	fgtable_gm(t, "/fungeon adjust newt hits:-18");
	text = fgtable_said(t, "al", "/fungeon orders");
	assert_string_equal(text, "No orders in room 1: each monster uses its first special "
	                          "ability, and each winner hurts the other side's lowest die.\n");
	free(text);
	/* the GM directs the ogre, and the GM's order stands */
	fgtable_gm(t, "/fungeon orders targets:ogre>Al");
	text = fgtable_said(t, "al", "/fungeon orders");
	assert_string_equal(text, "ogre aims at Al.\n");
	free(text);
	fgtable_ok(t, "gm", "/gm release");
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(strstr(text, "2. Special abilities"), "ogre/grab");
	free(text);
	fgtable_free(t);
}

/* P1, leaving: the orders a player gave go with them too. */
static void
p1_orders_lapse_when_their_maker_leaves(void **unused)
{
	static const char *const mon[] = {
	    "/fungeon monster add ogre level 6 ability grab annoy 2 pain 1 type crush", NULL};
	struct fgtable *t = fgtable_new(10);
	char *text;

	(void)unused;
	fgtable_three(t, mon);
	fgtable_ok(t, "cy", "/fungeon orders targets:ogre>Bo use:ogre/none");
	fgtable_ok(t, "al", "/fungeon orders targets:Cy");
	fgtable_ok(t, "cy", "/fungeon leave");
	text = fgtable_said(t, "al", "/fungeon orders");
	assert_string_equal(text, "No orders in room 1: each monster uses its first special "
	                          "ability, and each winner hurts the other side's lowest die.\n");
	free(text);
	fgtable_free(t);
}

/* Fails unless the n dice of the party in channel chan all differ in
 * their marks. */
static void
marks_differ(struct fgtable *t, const char *chan)
{
	struct thwacko_style st[FUNGEON_PARTY_MAX];
	const struct fungeon_channel *c;

	t->chan = chan;
	c = fgtable_fungeon(t);
	fungeon_channel_styles(c, t->st, st);
	for (int i = 0; i < c->n; i++)
		for (int k = i + 1; k < c->n; k++)
			if (strcmp(st[i].mark, st[k].mark) == 0)
				fail_msg("in %s, %s and %s both have mark %s", chan, c->m[i].player,
				         c->m[k].player, st[i].mark);
}

/* P7 (line 6: each player's Thwack-O die is told apart from the others;
 * line 244: whoever rolled highest on it narrates): a chosen style holds in
 * every channel, so a mark taken in one party can come in from another,
 * by joining or by a style chosen elsewhere. No two dice of a party share
 * a mark even then: the one who brings the clash keeps its default in that
 * party, and is told so. */
static void
p7_no_two_dice_of_a_party_share_a_mark(void **unused)
{
	struct fgtable *t = fgtable_new(64);
	struct thwacko_style st[FUNGEON_PARTY_MAX];
	char *text, line[80], want[200];

	(void)unused;
	/* al chose ★ at table t; p2 chose ★ too at table u, where al was not */
	fgtable_ok(t, "al", "/fungeon join Al fighter 2");
	fgtable_ok(t, "al", "/thwacko style pink ★");
	t->chan = "u";
	fgtable_ok(t, "p2", "/fungeon join Pol fighter 2");
	fgtable_ok(t, "p2", "/thwacko style red ★");
	/* al joins u: p2's ★ was here first */
	text = fgtable_said(t, "al", "/fungeon join Al2 fighter 2");
	fgtable_holds(text, "Thwack-O mark ★ is another player's in this party, so al's die here "
	                    "is ");
	free(text);
	marks_differ(t, "u");
	fungeon_channel_styles(fgtable_fungeon(t), t->st, st);
	assert_string_equal(st[0].mark, "★");
	text = fgtable_said(t, "al", "/thwacko show");
	snprintf(want, sizeof(want),
	         "al (you): 6 (%s, mark %s, default here: mark ★ is another player's in this "
	         "party)",
	         thwacko_style_colour_name(st[1].colour), st[1].mark);
	fgtable_holds(text, want);
	free(text);
	/* p1 joins t with a default mark; al then chooses that mark at u,
	 * where nobody has it: at t, p1's die keeps it and al's does not */
	t->chan = "t";
	fgtable_ok(t, "p1", "/fungeon join Pia fighter 2");
	fungeon_channel_styles(fgtable_fungeon(t), t->st, st);
	t->chan = "u";
	snprintf(line, sizeof(line), "/thwacko style green %s", st[1].mark);
	fgtable_ok(t, "al", line);
	marks_differ(t, "u");
	marks_differ(t, "t");
	{
		struct thwacko_style now[FUNGEON_PARTY_MAX];

		fungeon_channel_styles(fgtable_fungeon(t), t->st, now);
		assert_string_equal(now[1].mark, st[1].mark); /* p1's default stays */
	}
	/* and where it is typed, a mark another die has is refused */
	t->chan = "u";
	fgtable_fails_unchanged(t, "al", "/thwacko style green ★",
	                        "The mark ★ is taken in this party: it is on p2's Thwack-O die "
	                        "(red); choose another mark, so that the dice can be told apart "
	                        "where colour does not show.");
	fgtable_free(t);
}

/* Eight level 1 Fungeoneers (q1..q8) in room 1 on floor 1, with the nine
 * level 1 monsters k1..k9 made by the holder of Monsters, whose user name
 * is returned. */
static const char *
eight_against_nine(struct fgtable *t)
{
	char lines[9][64];
	const char *designs[10];

	for (int i = 1; i <= 8; i++) {
		char user[8], line[64];

		snprintf(user, sizeof(user), "q%d", i);
		snprintf(line, sizeof(line), "/fungeon join Q%d fighter 1", i);
		fgtable_ok(t, user, line);
	}
	for (int i = 0; i < 9; i++) {
		snprintf(lines[i], sizeof(lines[i]), "/fungeon monster add k%d level 1", i + 1);
		designs[i] = lines[i];
	}
	designs[9] = NULL;
	fgtable_room_made_by(t, "q1", designs);
	return fgtable_holder(t, FUNGEON_CAT_MONSTERS);
}

/* P11 (Monsters, line 136: the maker must have them attack; line 246:
 * combat is sure once the party piles into a room; Ruling: a turn takes
 * at most 13 participants): with 8 Fungeoneers a turn holds 5 of the 9
 * monsters, and naming picks which 5 fight, not how few: the ones named
 * come first and the next standing fill the places left. */
static void
p11_naming_picks_which_monsters_fight_not_how_few(void **unused)
{
	struct fgtable *t = fgtable_new(160);
	const char *maker;
	char *text, *step3;

	(void)unused;
	maker = eight_against_nine(t);
	fgtable_fails_unchanged(t, maker, "/fungeon combat k1 k1",
	                        "k1 is named twice; name each participant once.");
	text = fgtable_said(t, maker, "/fungeon combat k9");
	fgtable_holds(text, "k1, k2, k3 and k4 fill the places the names leave: naming picks "
	                    "which monsters fight, and a turn takes as many as it holds.\n");
	fgtable_holds(text, "k5, k6, k7 and k8 stay out of this turn");
	step3 = strstr(text, "3. Painful conflict");
	assert_non_null(step3);
	for (int i = 1; i <= 9; i++) {
		char who[16];

		snprintf(who, sizeof(who), "\nk%d deals", i);
		if ((strstr(step3, who) != NULL) != (i <= 4 || i == 9))
			fail_msg("k%d %s the Painful conflict", i,
			         i <= 4 || i == 9 ? "is not in" : "is in");
	}
	free(text);
	{
		const struct reply_msg *m = reply_msg(t->last, REPLY_CHANNEL);

		assert_int_equal(m->nbuttons, 1);
		assert_string_equal(m->buttons[0].action, "fungeon combat k9");
	}
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(p8_a_party_fallen_on_the_way_back_reaches_town),
	    cmocka_unit_test(p8_the_fallen_wait_while_one_stands),
	    cmocka_unit_test(p8_a_replacement_on_the_way_back_waits_for_town),
	    cmocka_unit_test(p1_orders_lapse_with_those_they_concern),
	    cmocka_unit_test(p1_orders_lapse_when_their_maker_leaves),
	    cmocka_unit_test(p7_no_two_dice_of_a_party_share_a_mark),
	    cmocka_unit_test(p11_naming_picks_which_monsters_fight_not_how_few),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
