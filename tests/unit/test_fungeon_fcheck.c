/* The outside check's findings (fcheck) on the rule texts at the table:
 * each played as the report found it, with what the text (000 Fungeon,
 * 004 safe areas) wants instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/core/channel.h"
#include "commands/core/state.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_save.h"
#include "rules/base/rng.h"
#include "rules/fungeon/fungeon_hallway.h"
#include "tests/unit/helpers/fgtable.h"

static const char *const two_monsters[] = {"/fungeon monster add ooze level 6",
                                           "/fungeon monster add bat level 6", NULL};

/* F6 (text 000, line 136: the Monsters player is "required to have them
 * attack the Players"): a monster's standing order and its aim of the
 * turn name a Fungeoneer; one aimed at a monster is refused, saying whom
 * it may aim at. A Fungeoneer may still aim at another Fungeoneer. */
static void
f6_a_monster_attacks_the_party(void **unused)
{
	struct fgtable *t = fgtable_new(135);

	(void)unused;
	fgtable_three(t, two_monsters);
	fgtable_fails_unchanged(t, "cy", "/fungeon orders targets:ooze>bat",
	                        "ooze is a monster, and its maker is required to have it attack "
	                        "the players: aim it at Al, Bo or Cy, not at bat.");
	fgtable_fails_unchanged(t, "cy", "/fungeon combat targets:bat>ooze",
	                        "bat is a monster, and its maker is required to have it attack "
	                        "the players: aim it at Al, Bo or Cy, not at ooze.");
	fgtable_says(t, "cy", "/fungeon orders targets:ooze>Bo",
	             "ooze's won ranks hurt Bo in this room's fights.");
	fgtable_says(t, "al", "/fungeon orders targets:Al>Bo",
	             "Al's won ranks hurt Bo in this room's fights.");
	fgtable_free(t);
}

/* F6: a standing order of a monster at a monster saved before the rule
 * leaves the default in the fight (no monster hurts another). */
static void
f6_an_old_order_at_a_monster_is_the_default(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_three(t, two_monsters);
	c = fgtable_fungeon(t);
	snprintf(c->d.room.p[FUNGEON_MONSTER][0].aim, sizeof(c->d.room.p[FUNGEON_MONSTER][0].aim),
	         "bat");
	snprintf(c->d.room.p[FUNGEON_MONSTER][1].aim, sizeof(c->d.room.p[FUNGEON_MONSTER][1].aim),
	         "ooze");
	text = fgtable_said(t, "cy", "/fungeon combat");
	fgtable_holds(text, "| ooze | 1 → Cy\n");
	fgtable_holds(text, "| bat | 1 → Al\n");
	assert_null(strstr(text, "| ooze | 1 → bat"));
	assert_null(strstr(text, "| bat | 1 → ooze"));
	free(text);
	fgtable_free(t);
}

/* Alba, a level 3 Fire Mage (class bonus 1, type fire) with a fire charm
 * (2 magic Annoy dice), suffers a fire effect (2 Annoy, 1 Pain dice)
 * from a trap (trap) or from a monster's ability. */
static void
fire_mage_suffers(struct fungeon_member *m, bool trap)
{
	struct fungeon_item *it;
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = trap ? FUNGEON_FROM_TRAP : FUNGEON_FROM_MONSTER,
	                           .annoy = 2,
	                           .pain = 1,
	                           .type = "fire",
	                           .xp = 4};

	fungeon_member_init(m, "a", "alice", "Alba", "Fire Mage", 3);
	snprintf(m->ctype, sizeof(m->ctype), "fire");
	it = fungeon_item_add(m);
	assert_non_null(it);
	snprintf(it->name, sizeof(it->name), "charm");
	it->d = (struct fungeon_design){
	    .kind = FUNGEON_TREASURE, .fancy = true, .annoy = 2, .type = "fire"};
	it->cost = 4;
	snprintf(e.source, sizeof(e.source), "%s", trap ? "vent" : "imp/breath");
	assert_int_equal(fungeon_effect_add(m, &e), 0);
}

/* F1 (text 000, line 125: in each hallway "reroll the Trap's Annoy Roll";
 * line 260: the Fire Mage's class bonus against a fire trap): a trap's
 * continuous damage is re-rolled as its Annoy roll was when triggered,
 * level 3 + class bonus 1 + magic 2 = 6 dice; its Pain roll on a failure
 * counts the bonus as the first did (3 + 1 = 4). A monster ability's
 * continuous damage is an Annoying conflict against the ability, its
 * class bonus counting the same way: 6. */
static void
f1_a_trap_reroll_is_its_annoy_roll_again(void **unused)
{
	struct fungeon_member m[1];
	struct fungeon_cont *k = calloc(1, sizeof(*k));
	struct rng *rng = rng_new_seeded(7);
	int pained = 0;

	(void)unused;
	assert_non_null(k);
	for (int round = 0; round < 12; round++) {
		bool trap = round % 2 == 0;

		fire_mage_suffers(&m[0], trap);
		fungeon_hallway_cont_roll(rng, m, 0, 0, -1, NULL, k);
		assert_int_equal(k->annoy.g[0].n, 6);
		assert_int_equal(k->annoy.g[1].n, 2);
		if (k->pained) {
			pained++;
			assert_int_equal(k->pain.g[0].n, 4);
		}
		fungeon_member_free(&m[0]);
	}
	assert_true(pained > 0);
	rng_free(rng);
	free(k);
}

/* F3 (text 000, line 297: "half the points ... (rounding down). Your 11
 * point magical sword will only get you 5 points"): the sword sells for 5;
 * what a visit gives up is rounded once over it all (recheck13 F2), so a
 * 1-point coin sold after it brings the credit to half of 12, 6. */
static void
f3_the_sword_gives_5_and_a_visit_rounds_once(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add sword mundane value 10",
	                                "/fungeon treasure add coin mundane", NULL};
	struct fgtable *t = fgtable_new(297);
	const struct fungeon_channel *c;

	(void)unused;
	c = fgtable_into_room(t, 6, d);
	fgtable_ok(t, "al", "/fungeon take sword");
	fgtable_ok(t, "al", "/fungeon take coin");
	fgtable_ok(t, "al", "/fungeon retreat confirm:true");
	fgtable_says(t, "al", "/fungeon town sell sword",
	             "Al sells sword (11 points): what Al gave up in this visit, 11 points, gives "
	             "half, rounded down once over it all, so this sale adds 5 points: credit 5 "
	             "points.\n");
	fgtable_says(t, "al", "/fungeon town sell coin",
	             "Al sells coin (1 point): what Al gave up in this visit, 12 points, gives "
	             "half, rounded down once over it all, so this sale adds 1 point: credit 6 "
	             "points.\n");
	assert_int_equal(c->m[0].credit, 6);
	fgtable_free(t);
}

/* F3: a record saved while sales kept half a point ("half": true) still
 * loads, its credit whole points as saved, the half kept as one odd point
 * given up in this visit (recheck13 F2): the next 1-point sale makes it a
 * point. */
static void
f3_a_saved_half_point_loads_rounded_down(void **unused)
{
	struct fgtable *t = fgtable_new(298);
	struct fungeon_channel *fresh;
	cJSON *j, *m;
	char *text, err[200] = "";

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_give(t, 0, "coin", 1, false);
	fgtable_fungeon(t)->m[0].credit = 2;
	j = fungeon_mod.save(fgtable_fungeon(t));
	m = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "party"), 0);
	assert_non_null(m);
	cJSON_AddBoolToObject(m, "half", true);
	fresh = fungeon_mod.create();
	if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	cJSON_Delete(j);
	assert_int_equal(fresh->m[0].credit, 2);
	assert_int_equal(fresh->m[0].sold, 1);
	j = fungeon_mod.save(fresh);
	text = cJSON_PrintUnformatted(j);
	assert_null(strstr(text, "half"));
	fgtable_holds(text, "\"sold\":1");
	free(text);
	cJSON_Delete(j);
	channel_mod_set(state_channel(t->st, "console:t"), CHANMOD_FUNGEON, fresh);
	text = fgtable_said(t, "al", "/fungeon sheet");
	fgtable_holds(text, "Town credit 2 points.\n");
	free(text);
	fgtable_says(t, "al", "/fungeon town sell coin", "so this sale adds 1 point: credit 3");
	fgtable_free(t);
}

/* F7 (text 004: the party "begins its adventure in a Safe Area that is,
 * effectively Level 0"): /turn level 0 puts the party in the safe area,
 * where the hazard die's Encounter does not happen; /safe off is refused
 * there; leaving level 0 for a level leaves it. */
static void
f7_level_0_is_the_safe_area(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	char *text;

	(void)unused;
	fgtable_gm(t, "/hazard chance 6 6");
	text = fgtable_said(t, "gm", "/turn level 0");
	fgtable_holds(text, "The party is on dungeon level 0.\nLevel 0 is the safe area: no "
	                    "wandering monsters, no fighting.\n");
	free(text);
	text = fgtable_said(t, "gm", "/safe");
	fgtable_holds(text, "The party is in the safe area of level 0");
	free(text);
	text = fgtable_said(t, "gm", "/hazard");
	assert_null(strstr(text, "A wandering monster appears"));
	free(text);
	fgtable_fails_unchanged(t, "gm", "/safe off",
	                        "The party is on level 0, which is the safe area itself; it leaves "
	                        "with /turn level 1.");
	text = fgtable_said(t, "gm", "/turn level 1");
	fgtable_holds(text, "The party leaves the safe area of level 0.\n");
	free(text);
	text = fgtable_said(t, "gm", "/safe");
	fgtable_holds(text, "The party is not in a safe area");
	free(text);
	fgtable_free(t);
}

/* F4 (text 000, line 273: every successful Annoy roll against a trap
 * earns its cost): /help fungeon combat steps says a trap's maker's own
 * Fungeoneer earns a trap's XP, as /help fungeon find does. */
static void
f4_a_trap_pays_its_maker_too(void **unused)
{
	struct fgtable *t = fgtable_new(4);
	char *text;

	(void)unused;
	text = fgtable_said(t, "al", "/help fungeon combat steps");
	assert_null(strstr(text, "unlike a trap's maker"));
	fgtable_holds(text, "its maker's Fungeoneer too (a wandering one's as well), as a trap's "
	                    "maker's Fungeoneer earns it from the trap.");
	free(text);
	fgtable_free(t);
}

/* F5 (text 000, line 88: "A single Trap has Annoy and Pain Dice"): /help
 * fungeon cost lists a trap's pain N among the words it needs. */
static void
f5_a_trap_needs_pain_dice(void **unused)
{
	struct fgtable *t = fgtable_new(5);

	(void)unused;
	fgtable_says(t, "al", "/help fungeon cost",
	             "trap: annoy N, pain N and type WORD (all needed), then any of guards, "
	             "unlimited, universal, continuous");
	fgtable_free(t);
}

/* F9 (text 000, line 61: the Traps player "gets to describe the room and
 * draw it on the map"): the hallway's draw and the pick of Traps say so. */
static void
f9_the_traps_player_describes_the_room(void **unused)
{
	struct fgtable *t = fgtable_new(61);
	const struct fungeon_channel *c;
	const char *first;
	char *text, want[160];

	(void)unused;
	fgtable_fighters(t, 2, 1);
	text = fgtable_said(t, "al", "/fungeon hallway");
	fgtable_holds(text, "Whoever takes Traps describes the room and draws it on the map "
	                    "before anything is made.\n");
	free(text);
	c = fgtable_fungeon(t);
	first = c->m[fungeon_hallway_picks_next(&c->d.room.picks)].player;
	snprintf(want, sizeof(want),
	         "%s chooses Traps, and so describes the room and draws it on the map first.",
	         first);
	text = fgtable_said(t, first, "/fungeon pick traps");
	fgtable_holds(text, want);
	free(text);
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f6_a_monster_attacks_the_party),
	    cmocka_unit_test(f6_an_old_order_at_a_monster_is_the_default),
	    cmocka_unit_test(f1_a_trap_reroll_is_its_annoy_roll_again),
	    cmocka_unit_test(f3_the_sword_gives_5_and_a_visit_rounds_once),
	    cmocka_unit_test(f3_a_saved_half_point_loads_rounded_down),
	    cmocka_unit_test(f7_level_0_is_the_safe_area),
	    cmocka_unit_test(f4_a_trap_pays_its_maker_too),
	    cmocka_unit_test(f5_a_trap_needs_pain_dice),
	    cmocka_unit_test(f9_the_traps_player_describes_the_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
