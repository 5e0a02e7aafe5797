/* Names at a Fungeon table: a player called as a piece of the room is,
 * standing orders that match the name they hold alone, and renaming a
 * trap, monster or treasure. */
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

static const char *const two_monsters[] = {"/fungeon monster add ooze level 6",
                                           "/fungeon monster add bat level 6", NULL};

/* A player whose name a monster of the room has already joins: the join
 * says so; a command that takes a Fungeoneer or a monster refuses that
 * name in one sentence naming both; one that takes a Fungeoneer alone, or
 * a monster alone, finds its own kind. */
static void
a_player_called_as_a_monster(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	const char *holder = "cy"; /* who made the monsters */
	char *text;

	(void)unused;
	fgtable_three(t, two_monsters);
	text = fgtable_said(t, "ooze", "/fungeon join Slime fighter 6");
	fgtable_holds(text, "ooze is also the name of the room's monster ooze: where a command "
	                    "takes either, say Slime for your Fungeoneer; the monster's maker or "
	                    "the GM may rename it (/fungeon monster rename ooze NEW).");
	free(text);
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:Al>ooze",
	                        "'ooze' names both the player ooze and the room's monster ooze; "
	                        "say Slime for the first, and for the second its maker or the GM "
	                        "renames it first (/fungeon monster rename ooze NEW).");
	fgtable_fails_unchanged(t, holder, "/fungeon orders targets:ooze>Al",
	                        "'ooze' names both the player ooze and the room's monster ooze; "
	                        "say Slime for the first, and for the second its maker or the GM "
	                        "renames it first (/fungeon monster rename ooze NEW).");
	fgtable_fails_unchanged(t, holder, "/fungeon combat targets:Al>ooze",
	                        "'ooze' names both the player ooze and the room's monster ooze; "
	                        "say Slime for the first, and for the second its maker or the GM "
	                        "renames it first (/fungeon monster rename ooze NEW).");
	/* one kind alone */
	fgtable_says(t, "al", "/fungeon sheet ooze", "Slime");
	fgtable_says(t, "al", "/fungeon orders targets:Al>Slime",
	             "Al's won ranks hurt Slime in this room's fights.");
	fgtable_says(t, holder, "/fungeon orders use:ooze/none",
	             "ooze uses no special ability in this room's fights.");
	fgtable_free(t);
}

/* A standing order aimed at a monster hits that monster alone: not a
 * Fungeoneer whose player took a name like it (another case, here) after
 * the order was given. */
static void
an_order_hits_the_one_it_names(void **unused)
{
	int hits = 0;

	(void)unused;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct fgtable *t = fgtable_new(seed);
		struct fungeon_channel *c;
		char *text;

		fgtable_three(t, two_monsters);
		fgtable_ok(t, "al", "/fungeon orders targets:Al>ooze");
		c = fgtable_fungeon(t);
		snprintf(c->m[1].player, sizeof(c->m[1].player), "OOZE");
		text = fgtable_said(t, "cy", "/fungeon combat");
		assert_null(strstr(text, "| Al | 1 → Bo"));
		assert_null(strstr(text, "| Al | 2 → Bo"));
		hits += strstr(text, "| Al | 1 → ooze") != NULL;

		free(text);
		fgtable_free(t);
	}
	assert_true(hits > 0);
}

/* /fungeon monster rename: its maker renames it (the GM any; a player of
 * the party once the maker has left), by the rules of a new name; the
 * orders and effects naming it follow; /undo takes it back. */
static void
a_monster_is_renamed(void **unused)
{
	struct fgtable *t = fgtable_new(9);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_three(t, two_monsters);
	fgtable_ok(t, "al", "/fungeon orders targets:Al>ooze");
	fgtable_held(t, 1, "ooze/grab", 2, "slime");
	fgtable_fails_unchanged(t, "al", "/fungeon monster rename ooze goo",
	                        "The monster ooze is cy's, and only its maker renames it (the GM "
	                        "may rename any; a player of the party may once its maker has "
	                        "left).");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze bat",
	                        "The name bat is taken here by a monster of the room; pick "
	                        "another.");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze al",
	                        "The name al is taken here by al's Fungeoneer; pick another.");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze g>o",
	                        "A name is 1 to 24 characters with no spaces or : , > / \" #.");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze none", NULL);
	/* what /fungeon join reads as a level, as "Ⅲ" and "3" are refused */
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze III",
	                        "'III' reads as a level, as /fungeon join takes one (a Roman "
	                        "numeral, or a level's label with its number); pick another "
	                        "name.");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze Lvl3",
	                        "'Lvl3' reads as a level, as /fungeon join takes one (a Roman "
	                        "numeral, or a level's label with its number); pick another "
	                        "name.");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze",
	                        "No value given for new (its new name, one word); usage: /fungeon "
	                        "monster rename <name> <new>");
	fgtable_fails_unchanged(t, "cy", "/fungeon monster rename ooze ooze",
	                        "The monster is called ooze already; give it another name.");
	fgtable_fails_unchanged(t, "cy", "/fungeon trap rename ooze goo", NULL);
	fgtable_says(t, "cy", "/fungeon monster rename ooze goo",
	             "The monster ooze is now called goo.");
	c = fgtable_fungeon(t);
	assert_string_equal(c->d.room.p[FUNGEON_MONSTER][0].name, "goo");
	assert_string_equal(c->m[0].aim, "goo");
	assert_string_equal(c->m[1].effects[0].source, "goo/grab");
	text = fgtable_said(t, "al", "/fungeon orders");
	fgtable_holds(text, "Al (al) aims at goo.");
	free(text);
	/* a new case of its own name is no clash */
	fgtable_says(t, "cy", "/fungeon monster rename goo Goo",
	             "The monster goo is now called Goo.");
	fgtable_ok(t, "cy", "/undo");
	c = fgtable_fungeon(t);
	assert_string_equal(c->d.room.p[FUNGEON_MONSTER][0].name, "goo");
	/* the GM renames any */
	fgtable_gm(t, "/fungeon monster rename bat rat");
	/* its maker gone, any player of the party */
	fgtable_ok(t, "cy", "/fungeon leave");
	fgtable_fails_unchanged(t, "zz", "/fungeon monster rename rat mouse",
	                        "Only a player of the party or the GM renames the monster rat, "
	                        "whose maker has left the party.");
	fgtable_says(t, "bo", "/fungeon monster rename rat mouse",
	             "The monster rat is now called mouse.");
	fgtable_free(t);
}

/* A trap and a treasure are renamed by their makers; the continuous
 * damage a trap left follows it, one of another maker's trap of that name
 * (an earlier room's) keeps its name. */
static void
a_trap_and_a_treasure_are_renamed(void **unused)
{
	static const char *const designs[] = {"/fungeon trap add Needle annoy 2 pain 1 type poison",
	                                      "/fungeon treasure add gem mundane", NULL};
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_TRAP,
	                           .source = "Needle",
	                           .annoy = 2,
	                           .pain = 1,
	                           .type = "poison"};
	const char *traps, *treasure;

	(void)unused;
	fgtable_fighters(t, 3, 2);
	fgtable_room_made(t, designs);
	traps = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	treasure = fgtable_holder(t, FUNGEON_CAT_TREASURE);
	c = fgtable_fungeon(t);
	snprintf(e.maker, sizeof(e.maker), "console:%s", traps);
	assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	snprintf(e.maker, sizeof(e.maker), "console:nobody");
	assert_int_equal(fungeon_effect_add(&c->m[1], &e), 0);
	fgtable_says(t, traps, "/fungeon trap rename needle Spike",
	             "The trap Needle is now called Spike.");
	fgtable_says(t, treasure, "/fungeon treasure rename gem Ruby",
	             "The treasure gem is now called Ruby.");
	c = fgtable_fungeon(t);
	assert_string_equal(c->m[0].effects[0].source, "Spike");
	assert_string_equal(c->m[1].effects[0].source, "Needle");
	assert_string_equal(c->d.room.p[FUNGEON_TREASURE][0].name, "Ruby");
	fgtable_free(t);
}

/* A treasure once taken is its carrier's item, under the name it was
 * taken by: a rename of it is refused (recheck20 finding 1), for the GM
 * too, and the carried item keeps its name for /fungeon use. */
static void
a_taken_treasure_keeps_its_name(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add potion fancy heal 4", NULL};
	struct fgtable *t = fgtable_new(18);
	struct fungeon_channel *c;
	const char *refusal = "The treasure potion was taken by Al and is carried under that name "
	                      "now, so it keeps it; only a treasure left to take is renamed.";

	(void)unused;
	fgtable_into_room(t, 3, d);
	fgtable_ok(t, "al", "/fungeon take potion");
	fgtable_fails_unchanged(t, "al", "/fungeon treasure rename potion tonic", refusal);
	fgtable_gm(t, "/fungeon treasure list");
	fgtable_fails_unchanged(t, "gm", "/fungeon treasure rename potion tonic", refusal);
	c = fgtable_fungeon(t);
	assert_string_equal(c->d.room.p[FUNGEON_TREASURE][0].name, "potion");
	assert_string_equal(c->m[0].items[0].name, "potion");
	fgtable_free(t);
}

/* A player may join under a Fungeoneer's name, and is told what reaches
 * each; but not when that Fungeoneer's other name, its player's, is
 * another Fungeoneer's: nobody could name it then (recheck20 finding 2). */
static void
a_chain_of_names_is_refused(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_ok(t, "alice", "/fungeon join bob wizard 2");
	fgtable_says(t, "bob", "/fungeon join Al fighter 2",
	             "bob is also the name of alice's Fungeoneer: a command given it picks "
	             "neither, so say alice for that Fungeoneer and Al for yours.");
	fgtable_fails_unchanged(t, "Al", "/fungeon join Zed thief 2",
	                        "You may not join under the name Al: it is bob's Fungeoneer's, "
	                        "whose other name, bob, is alice's Fungeoneer's too, so no "
	                        "command could name bob's Al any more; join under another nick, "
	                        "or once bob's Al has left the party.");
	c = fgtable_fungeon(t);
	assert_int_equal(c->n, 2);
	/* bob's Al gone, Al joins, and is told */
	fgtable_ok(t, "bob", "/fungeon leave");
	fgtable_ok(t, "bob", "/fungeon join Bert fighter 2");
	fgtable_says(t, "Al", "/fungeon join Zed thief 2", "Al joins as Zed");
	fgtable_free(t);
}

/* /help names rename under each kind, with who may. */
static void
rename_is_in_help(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	static const char *const kinds[] = {"trap", "monster", "treasure"};

	(void)unused;
	for (int k = 0; k < 3; k++) {
		char line[64], want[128];
		char *text;

		snprintf(line, sizeof(line), "/help fungeon %s", kinds[k]);
		text = fgtable_said(t, "al", line);
		snprintf(want, sizeof(want),
		         "Rename a %s of this room (its maker, the GM, or any party player once "
		         "its maker left)",
		         kinds[k]);
		fgtable_holds(text, want);
		free(text);
		snprintf(line, sizeof(line), "/help fungeon %s rename", kinds[k]);
		text = fgtable_said(t, "al", line);
		fgtable_holds(text, "once its maker has left the party, any player of it may.");
		free(text);
	}
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(a_player_called_as_a_monster),
	    cmocka_unit_test(an_order_hits_the_one_it_names),
	    cmocka_unit_test(a_monster_is_renamed),
	    cmocka_unit_test(a_trap_and_a_treasure_are_renamed),
	    cmocka_unit_test(a_taken_treasure_keeps_its_name),
	    cmocka_unit_test(a_chain_of_names_is_refused),
	    cmocka_unit_test(rename_is_in_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
