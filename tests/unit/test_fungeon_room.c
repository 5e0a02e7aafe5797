/* Unit tests for rules/fungeon/fungeon_room: a dungeon's life cycle (town,
 * entrance, hallway, room, the way back), what each phase allows and why
 * not, the room's pieces, the treasure the dead leave, and the floors
 * remembered for the way back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/fungeon_room.h"

/* What each phase allows: 1 allowed, 0 refused. */
static void
phases_allow(void **unused)
{
	static const enum fungeon_act acts[] = {
	    FUNGEON_ACT_ENTRANCE, FUNGEON_ACT_HALLWAY, FUNGEON_ACT_PICK,    FUNGEON_ACT_DESIGN,
	    FUNGEON_ACT_WANDERER, FUNGEON_ACT_ENTER,   FUNGEON_ACT_TRAP,    FUNGEON_ACT_COMBAT,
	    FUNGEON_ACT_TAKE,     FUNGEON_ACT_PLUNDER, FUNGEON_ACT_RETREAT, FUNGEON_ACT_TRADE,
	    FUNGEON_ACT_FLOOR,    FUNGEON_ACT_JOIN,
	};
	/* columns as acts; rows town, entrance, hallway, room, retreat */
	static const int want[FUNGEON_PHASE_COUNT][14] = {
	    {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1},
	    {0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1}, {0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1},
	    {0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1},
	};
	struct fungeon_dungeon d;
	struct fungeon_refusal r;

	(void)unused;
	memset(&d, 0, sizeof(d));
	d.room.picks.n = 1; /* someone drew in the hallway */
	for (int ph = 0; ph < FUNGEON_PHASE_COUNT; ph++) {
		d.phase = (enum fungeon_phase)ph;
		for (size_t a = 0; a < sizeof(acts) / sizeof(acts[0]); a++) {
			int got = fungeon_dungeon_may(&d, acts[a], &r) == 0;

			if (got != want[ph][a])
				fail_msg("phase %s, act %d: %s", fungeon_phase_name(d.phase),
				         (int)acts[a], got ? "allowed" : r.why);
		}
	}
	/* nobody was left to draw (playtest8 T8): the hallway runs again */
	d.phase = FUNGEON_HALLWAY;
	d.room.picks.n = 0;
	assert_true(fungeon_dungeon_hallway_again(&d));
	assert_int_equal(fungeon_dungeon_may(&d, FUNGEON_ACT_HALLWAY, &r), 0);
	d.room.picks.n = 1;
	assert_false(fungeon_dungeon_hallway_again(&d));
}

/* Issue 25, finding 5: treasure is traded in town; in a room the refusal
 * says where the party is and what to do instead. */
static void
refusals_name_what_to_do(void **unused)
{
	struct fungeon_dungeon d;
	struct fungeon_refusal r;

	(void)unused;
	memset(&d, 0, sizeof(d));
	d.phase = FUNGEON_ROOM;
	d.rooms = 3;
	d.room.number = 3;
	d.room.floor = 2;
	assert_int_equal(fungeon_dungeon_may(&d, FUNGEON_ACT_TRADE, &r), -1);
	assert_string_equal(r.why,
	                    "Treasure is traded in town, and the party is in room 3 on floor "
	                    "2; head back first with");
	assert_int_equal(r.instead, FUNGEON_ACT_RETREAT);
	d.phase = FUNGEON_HALLWAY;
	d.room.picks.n = 1; /* it ran, and someone drew */
	assert_int_equal(fungeon_dungeon_may(&d, FUNGEON_ACT_COMBAT, &r), -1);
	assert_string_equal(r.why,
	                    "The party is in the hallway before room 3, and a fight needs the "
	                    "room: once its designs are made, go in with");
	assert_int_equal(r.instead, FUNGEON_ACT_ENTER);
	d.phase = FUNGEON_TOWN;
	assert_int_equal(fungeon_dungeon_may(&d, FUNGEON_ACT_RETREAT, &r), -1);
	assert_string_equal(r.why, "The party is in town already.");
	assert_int_equal(r.instead, FUNGEON_ACT_NONE);
}

static struct fungeon_piece *
add(struct fungeon_room *r, enum fungeon_kind k, const char *name, int64_t cost)
{
	struct fungeon_piece *p = fungeon_room_add(r, k);

	snprintf(p->name, sizeof(p->name), "%s", name);
	p->cost = cost;
	return p;
}

/* Issue 25, finding 3: each hallway makes a new room; what stayed behind
 * is not in it. The life cycle, and the floors the way back re-enters. */
static void
life_cycle(void **unused)
{
	struct fungeon_dungeon d;
	struct fungeon_party p = {.n = 3, .min = 2, .max = 5, .total = 8}, after = p;
	struct fungeon_budgets b;
	char err[200];

	(void)unused;
	memset(&d, 0, sizeof(d));
	fungeon_dungeon_clear(&d);
	fungeon_dungeon_begin(&d, &p);
	assert_int_equal(d.phase, FUNGEON_ENTRANCE);
	assert_int_equal(d.floor, 2); /* the entrance opens on Party Min */
	fungeon_budgets(&after, d.floor, &b);
	fungeon_dungeon_hallway(&d, &after, &b, false);
	assert_int_equal(d.phase, FUNGEON_HALLWAY);
	assert_int_equal(d.room.number, 1);
	assert_int_equal(d.room.budgets.traps, 7);
	assert_int_equal(d.room.budgets.monsters, 10);
	assert_int_equal(d.room.budgets.treasure, 4);
	add(&d.room, FUNGEON_MONSTER, "Troll", 8)->hits = 6;
	add(&d.room, FUNGEON_TRAP, "Dart", 1);
	fungeon_dungeon_enter(&d);
	assert_int_equal(d.phase, FUNGEON_ROOM);
	assert_int_equal(d.rooms, 1);
	assert_int_equal(fungeon_room_standing(&d.room), 1);
	/* on, with the troll still standing: room 2 holds nothing of it */
	fungeon_dungeon_hallway(&d, &after, &b, false);
	assert_int_equal(d.room.number, 2);
	assert_null(fungeon_room_find(&d.room, FUNGEON_MONSTER, "Troll"));
	assert_null(fungeon_room_find(&d.room, FUNGEON_TRAP, "Dart"));
	assert_int_equal(fungeon_room_standing(&d.room), 0);
	fungeon_dungeon_enter(&d);
	/* a stair: the rooms to come are on floor 3 */
	assert_int_equal(fungeon_dungeon_set_floor(&d, 3, err, sizeof(err)), 0);
	fungeon_dungeon_hallway(&d, &after, &b, true);
	assert_int_equal(d.room.floor, 3);
	assert_true(d.room.stair);
	fungeon_dungeon_enter(&d);
	assert_int_equal(fungeon_dungeon_floor_of(&d, 1), 2);
	assert_int_equal(fungeon_dungeon_floor_of(&d, 2), 2);
	assert_int_equal(fungeon_dungeon_floor_of(&d, 3), 3);
	/* back: rooms 2, 1, then town */
	assert_int_equal(fungeon_dungeon_next_back(&d), 2);
	fungeon_dungeon_reenter(&d, 2);
	assert_int_equal(d.phase, FUNGEON_RETREAT);
	assert_int_equal(d.room.number, 2);
	assert_int_equal(d.room.floor, 2);
	assert_int_equal(fungeon_dungeon_next_back(&d), 1);
	fungeon_dungeon_reenter(&d, 1);
	assert_int_equal(fungeon_dungeon_next_back(&d), 0);
	fungeon_dungeon_town(&d);
	assert_int_equal(d.phase, FUNGEON_TOWN);
	assert_int_equal(d.rooms, 0);
	assert_int_equal(d.npath, 0);
	/* heading back from the hallway before room 2 re-enters room 1 */
	fungeon_dungeon_begin(&d, &p);
	fungeon_dungeon_hallway(&d, &after, &b, false);
	fungeon_dungeon_enter(&d);
	fungeon_dungeon_hallway(&d, &after, &b, false);
	assert_int_equal(fungeon_dungeon_next_back(&d), 1);
	fungeon_dungeon_clear(&d);
}

/* The way back remembers at most FUNGEON_PATH_MAX floors; the last change
 * that would not fit is refused, saying why. */
static void
floor_changes_are_bounded(void **unused)
{
	struct fungeon_dungeon d;
	struct fungeon_party p = {.n = 1, .min = 1, .max = 1, .total = 1};
	struct fungeon_budgets b = {0};
	char err[200];
	int k = 0;

	(void)unused;
	memset(&d, 0, sizeof(d));
	fungeon_dungeon_begin(&d, &p);
	for (;;) {
		fungeon_dungeon_hallway(&d, &p, &b, false);
		fungeon_dungeon_enter(&d);
		if (fungeon_dungeon_set_floor(&d, 1 + (++k % 2), err, sizeof(err)) < 0)
			break;
	}
	assert_int_equal(d.npath, FUNGEON_PATH_MAX - 1);
	assert_string_equal(err, "This dungeon's floor has changed 63 times, the most the bot "
	                         "remembers for the way back; head back to town before going "
	                         "deeper.");
	assert_int_equal(fungeon_dungeon_set_floor(&d, d.floor, err, sizeof(err)), 0);
	fungeon_dungeon_clear(&d);
}

/* The play-test's deviation 2: the floor goes down only by the stair of a
 * room whose hallway saw Party Min rise, and one floor at a time. */
static void
stair_leads_one_floor_down(void **unused)
{
	struct fungeon_dungeon d;
	struct fungeon_party p = {.n = 1, .min = 2, .max = 2, .total = 2};
	struct fungeon_budgets b = {0};
	struct fungeon_refusal r;
	char err[200];

	(void)unused;
	memset(&d, 0, sizeof(d));
	fungeon_dungeon_begin(&d, &p);
	assert_int_equal(fungeon_dungeon_may(&d, FUNGEON_ACT_STAIR, &r), -1);
	assert_string_equal(r.why, "A downward stair is taken from the room it is in, and the "
	                           "party is at the dungeon's entrance, on floor 2.");
	assert_int_equal(fungeon_dungeon_take_stair(&d, err, sizeof(err)), -1);
	fungeon_dungeon_hallway(&d, &p, &b, false);
	fungeon_dungeon_enter(&d);
	assert_int_equal(fungeon_dungeon_may(&d, FUNGEON_ACT_STAIR, &r), 0);
	assert_int_equal(fungeon_dungeon_take_stair(&d, err, sizeof(err)), -1);
	assert_string_equal(err, "Room 1 has no downward stair: the Traps player places one only "
	                         "when Party Min rose in the hallway before the room.");
	assert_int_equal(d.floor, 2);
	fungeon_dungeon_hallway(&d, &p, &b, true);
	fungeon_dungeon_enter(&d);
	assert_int_equal(fungeon_dungeon_take_stair(&d, err, sizeof(err)), 0);
	assert_int_equal(d.floor, 3);
	assert_int_equal(fungeon_dungeon_take_stair(&d, err, sizeof(err)), -1);
	assert_string_equal(err, "The party took room 2's stair already: the rooms to come are "
	                         "on floor 3.");
	assert_int_equal(d.floor, 3);
	d.room.floor = FUNGEON_FLOOR_MAX;
	d.floor = FUNGEON_FLOOR_MAX;
	assert_int_equal(fungeon_dungeon_take_stair(&d, err, sizeof(err)), -1);
	assert_int_equal(d.floor, FUNGEON_FLOOR_MAX);
	fungeon_dungeon_clear(&d);
}

/* Death and plunder: every item a dead Fungeoneer carried is left in the
 * room, marked left, outside the budgets; a name taken there gets a
 * number, and what it took from this room is that piece again. */
static void
dead_leave_their_treasure(void **unused)
{
	struct fungeon_room r;
	struct fungeon_member m;
	struct fungeon_item *it;

	(void)unused;
	memset(&r, 0, sizeof(r));
	fungeon_room_clear(&r);
	snprintf(add(&r, FUNGEON_TREASURE, "Gem", 3)->maker, FUNGEON_KEY_MAX, "console:carol");
	fungeon_member_init(&m, "a", "alice", "Alba", "wizard", 2);
	it = fungeon_item_add(&m);
	snprintf(it->name, sizeof(it->name), "Gem");
	it->cost = 5;
	it = fungeon_item_add(&m);
	snprintf(it->name, sizeof(it->name), "Ring");
	it->cost = 6;
	assert_true(fungeon_damage(&m, 10));
	fungeon_room_leave_items(&r, &m);
	assert_int_equal(m.nitems, 0);
	assert_int_equal(r.n[FUNGEON_TREASURE], 3);
	assert_string_equal(r.p[FUNGEON_TREASURE][1].name, "Gem2");
	assert_true(r.p[FUNGEON_TREASURE][1].left);
	assert_int_equal(r.p[FUNGEON_TREASURE][1].cost, 5);
	assert_string_equal(r.p[FUNGEON_TREASURE][2].name, "Ring");
	assert_int_equal(fungeon_room_spent(&r, FUNGEON_TREASURE), 3);
	assert_int_equal(fungeon_room_made(&r, FUNGEON_TREASURE), 1);
	fungeon_member_free(&m);
	/* what the dead took from this room lies there again, the same piece */
	fungeon_member_init(&m, "b", "bob", "Brom", "fighter", 2);
	it = fungeon_item_add(&m);
	snprintf(it->name, sizeof(it->name), "Gem");
	it->cost = 3;
	snprintf(r.p[FUNGEON_TREASURE][0].taken, sizeof(r.p[FUNGEON_TREASURE][0].taken), "Brom");
	assert_true(fungeon_damage(&m, 10));
	fungeon_room_leave_items(&r, &m);
	assert_int_equal(r.n[FUNGEON_TREASURE], 3);
	assert_string_equal(r.p[FUNGEON_TREASURE][0].taken, "");
	assert_true(r.p[FUNGEON_TREASURE][0].left);
	assert_int_equal(fungeon_room_spent(&r, FUNGEON_TREASURE), 3); /* still paid for */
	fungeon_member_free(&m);
	fungeon_room_clear(&r);
}

/* Treasure guarded by a trap waits for that trap to be triggered, disarmed
 * or sidestepped; otherwise it is found when the room's monsters are dead. */
static void
treasure_gate(void **unused)
{
	struct fungeon_room r;
	const struct fungeon_piece *guard = NULL;
	struct fungeon_piece *t, *goblin;

	(void)unused;
	memset(&r, 0, sizeof(r));
	fungeon_room_clear(&r);
	goblin = add(&r, FUNGEON_MONSTER, "goblin", 2);
	goblin->hits = 6;
	assert_int_equal(fungeon_room_treasure_gate(&r, &guard), FUNGEON_TREASURE_MONSTERS);
	goblin->hits = 0;
	assert_int_equal(fungeon_room_treasure_gate(&r, &guard), FUNGEON_TREASURE_OPEN);
	r.p[FUNGEON_MONSTER][0].hits = 6;
	t = add(&r, FUNGEON_TRAP, "Needle", 8);
	t->d.guards = true;
	assert_int_equal(fungeon_room_treasure_gate(&r, &guard), FUNGEON_TREASURE_GUARDED);
	assert_string_equal(guard->name, "Needle");
	/* once the guard is passed it does not wait for the monsters */
	r.p[FUNGEON_TRAP][0].passed = true;
	assert_int_equal(fungeon_room_treasure_gate(&r, &guard), FUNGEON_TREASURE_OPEN);
	fungeon_room_clear(&r);
}

/* A member leaving: the choosing order and trap marks follow; what it held
 * goes to the highest roller left. */
static void
member_gone(void **unused)
{
	struct fungeon_room r;
	struct fungeon_piece *t;

	(void)unused;
	memset(&r, 0, sizeof(r));
	fungeon_room_clear(&r);
	r.number = 1;
	r.picks = (struct fungeon_picks){
	    .n = 3, .order = {2, 0, 1}, .holder = {0, 2, 1}, .made = FUNGEON_CAT_COUNT};
	t = add(&r, FUNGEON_TRAP, "Dart", 1);
	t->unaware = (1u << 0) | (1u << 2);
	fungeon_room_member_gone(&r, 0);
	assert_int_equal(r.picks.n, 2);
	assert_int_equal(r.picks.order[0], 1);
	assert_int_equal(r.picks.order[1], 0);
	assert_int_equal(fungeon_room_holder(&r, FUNGEON_CAT_TRAPS), 1); /* was member 0's */
	assert_int_equal(fungeon_room_holder(&r, FUNGEON_CAT_MONSTERS), 1);
	assert_int_equal(fungeon_room_holder(&r, FUNGEON_CAT_TREASURE), 0);
	assert_int_equal(r.p[FUNGEON_TRAP][0].unaware, 1u << 1);
	fungeon_room_clear(&r);
}

/* Line 67 (every point is spent), Ruling: only what no new piece can use
 * is waived. The cheapest new piece: a trap 2, a monster the floor (at
 * least 1), a treasure 1; a kind with its FUNGEON_DESIGNS_MAX pieces takes
 * no more, whatever is left. */
static void
points_a_new_piece_can_use(void **unused)
{
	struct fungeon_room r = {.floor = 3};

	(void)unused;
	assert_int_equal(fungeon_room_cheapest(&r, FUNGEON_TRAP), 2);
	assert_int_equal(fungeon_room_cheapest(&r, FUNGEON_MONSTER), 3);
	assert_int_equal(fungeon_room_cheapest(&r, FUNGEON_TREASURE), 1);
	assert_false(fungeon_room_left_usable(&r, FUNGEON_TRAP, 1));
	assert_true(fungeon_room_left_usable(&r, FUNGEON_TRAP, 2));
	assert_false(fungeon_room_left_usable(&r, FUNGEON_MONSTER, 2));
	assert_true(fungeon_room_left_usable(&r, FUNGEON_MONSTER, 3));
	assert_true(fungeon_room_left_usable(&r, FUNGEON_TREASURE, 1));
	r.floor = 0; /* no floor below 1: a monster costs at least its level, 1 */
	assert_int_equal(fungeon_room_cheapest(&r, FUNGEON_MONSTER), 1);
	for (int i = 0; i < FUNGEON_DESIGNS_MAX; i++)
		add(&r, FUNGEON_TREASURE, "gem", 1);
	assert_false(fungeon_room_left_usable(&r, FUNGEON_TREASURE, 5));
	fungeon_room_clear(&r);
}

/* The verdict on a waiver, with its reason as data: none without one;
 * the GM's stands as made; a holder's lapses once nothing is left or a new
 * piece could use what is, and stands while fewer points are left than
 * the cheapest new piece costs, or the room holds all it can. */
static void
a_waiver_stands_or_lapses_with_its_reason(void **unused)
{
	struct fungeon_room r = {.floor = 3};
	struct fungeon_waiver why = {0};

	(void)unused;
	assert_int_equal(fungeon_room_waiver(&r, FUNGEON_MONSTER, 2, &why), FUNGEON_WAIVER_NONE);
	snprintf(r.waived_by[FUNGEON_MONSTER], FUNGEON_PLAYER_MAX, "cy");
	assert_int_equal(fungeon_room_waiver(&r, FUNGEON_MONSTER, 2, &why), FUNGEON_WAIVER_STANDS);
	assert_int_equal(why.reason, FUNGEON_WAIVER_TOO_FEW);
	assert_int_equal(why.left, 2);
	assert_int_equal(why.cheapest, 3);
	assert_int_equal(fungeon_room_waiver(&r, FUNGEON_MONSTER, 3, &why), FUNGEON_WAIVER_LAPSES);
	assert_int_equal(why.reason, FUNGEON_WAIVER_USABLE);
	assert_int_equal(fungeon_room_waiver(&r, FUNGEON_MONSTER, 0, &why), FUNGEON_WAIVER_LAPSES);
	assert_int_equal(why.reason, FUNGEON_WAIVER_NOTHING_LEFT);
	r.waived_gm[FUNGEON_MONSTER] = true;
	assert_int_equal(fungeon_room_waiver(&r, FUNGEON_MONSTER, 12, &why), FUNGEON_WAIVER_STANDS);
	assert_int_equal(why.reason, FUNGEON_WAIVER_BY_GM);
	snprintf(r.waived_by[FUNGEON_TREASURE], FUNGEON_PLAYER_MAX, "bo");
	for (int i = 0; i < FUNGEON_DESIGNS_MAX; i++)
		add(&r, FUNGEON_TREASURE, "gem", 1);
	assert_int_equal(fungeon_room_waiver(&r, FUNGEON_TREASURE, 5, &why), FUNGEON_WAIVER_STANDS);
	assert_int_equal(why.reason, FUNGEON_WAIVER_ROOM_FULL);
	fungeon_room_clear(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(phases_allow),
	    cmocka_unit_test(refusals_name_what_to_do),
	    cmocka_unit_test(life_cycle),
	    cmocka_unit_test(floor_changes_are_bounded),
	    cmocka_unit_test(stair_leads_one_floor_down),
	    cmocka_unit_test(dead_leave_their_treasure),
	    cmocka_unit_test(treasure_gate),
	    cmocka_unit_test(member_gone),
	    cmocka_unit_test(points_a_new_piece_can_use),
	    cmocka_unit_test(a_waiver_stands_or_lapses_with_its_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
