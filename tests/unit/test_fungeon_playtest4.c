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
	fgtable_ok(t, "al", "/fungeon join Al fighter 1");
	c = fgtable_heading_back(t);
	text = fgtable_run(t, "gm", "/gm claim");
	free(text);
	text = fgtable_said(t, "gm", "/fungeon adjust Al hits:-5");
	fgtable_holds(text, "Al dies: al is out until the party reaches town, and Al's treasure "
	                    "stays to plunder.");
	free(text);
	fgtable_ok(t, "gm", "/gm release");
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Dead: al is out until the party reaches town and makes a new one");
	free(text);
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
	fgtable_ok(t, "al", "/fungeon join Al fighter 1");
	fgtable_ok(t, "bo", "/fungeon join Bo fighter 1");
	c = fgtable_heading_back(t);
	fgtable_gm(t, "/fungeon adjust Al hits:-5");
	fgtable_ok(t, "gm", "/gm release");
	fgtable_fails_unchanged(t, "al", "/fungeon retreat",
	                        "Al is dead: al is out of the game until the party reaches town, "
	                        "and the players whose Fungeoneers are in play move the party on.");
	assert_int_equal(c->d.phase, FUNGEON_RETREAT);
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
	fgtable_fails_unchanged(
	    t, "cy", "/fungeon orders targets:ogre>Al",
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(p8_a_party_fallen_on_the_way_back_reaches_town),
	    cmocka_unit_test(p8_the_fallen_wait_while_one_stands),
	    cmocka_unit_test(p1_orders_lapse_with_those_they_concern),
	    cmocka_unit_test(p1_orders_lapse_when_their_maker_leaves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
