/* The seventh independent play-test of Fungeon
 * (notes/playtest-fungeon-7.md), its findings each played at a table as
 * the report found it, with what the rule text (or a Ruling where it
 * is silent) wants instead. */
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

/* Member i of the table is held by the vine's grab (made by the holder
 * of Monsters), as a failed roll against it in combat would leave it. */
static void
held_by_vine(struct fgtable *t, int i)
{
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_HOLD,
	                           .from = FUNGEON_FROM_MONSTER,
	                           .source = "vine/grab",
	                           .annoy = 4,
	                           .type = "plant"};

	snprintf(e.maker, sizeof(e.maker), "console:%s", fgtable_holder(t, FUNGEON_CAT_MONSTERS));
	assert_int_equal(fungeon_effect_add(&fgtable_fungeon(t)->m[i], &e), 0);
}

/* S1 (line 175: the held may not act; Ruling: a trap triggered for
 * everyone leaves the held out, one named is refused): with all three
 * held, the trap's maker triggering it for everyone hears every held one
 * named; with Bo alone free, the roll says who was left out and why;
 * two held named are both named. */
static void
s1_every_held_one_is_named(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add pit annoy 2 pain 1 type spikes",
	    "/fungeon monster add vine level 2 ability grab annoy 4 hold type plant", NULL};
	struct fgtable *t = fgtable_new(2301);
	const char *trapper;
	char *text;

	(void)unused;
	fgtable_fighters(t, 3, 3);
	fgtable_room_made(t, d);
	trapper = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	held_by_vine(t, 0);
	held_by_vine(t, 2);
	fgtable_fails_unchanged(t, trapper, "/fungeon trigger pit Al Cy",
	                        "Al and Cy are held by vine/grab and may not act until rolls in "
	                        "combat turns break the holds (/fungeon combat).");
	text = fgtable_said(t, trapper, "/fungeon trigger pit");
	fgtable_holds(text, "Left out: Al and Cy are held by vine/grab and may not act.\n");
	fgtable_holds(text, "\nBo (bo): ");
	free(text);
	held_by_vine(t, 1);
	fgtable_fails_unchanged(t, trapper, "/fungeon trigger pit",
	                        "Nobody in room 1 is free to face pit: Al, Bo and Cy are held by "
	                        "vine/grab and may not act until rolls in combat turns break the "
	                        "holds (/fungeon combat).");
	fgtable_free(t);
}

/* S2 (line 297, and the Ruling that a sale gives half of all its seller
 * gives up, rounded down once): a treasure's price says what it credits
 * in town as the sale does, a half point included. */
static void
s2_a_price_says_the_half_point(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3", NULL};
	struct fgtable *t = fgtable_new(2302);

	(void)unused;
	fgtable_alone_on_floor(t, 3, d[0]);
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_says(t, "al", "/fungeon treasure add coin mundane",
	             "Cost: 1 point. Sells in town for half a point.\n");
	fgtable_says(t, "al", "/fungeon cost treasure mundane value 1",
	             "Cost: 2 points. Sells in town for 1 point.\n");
	fgtable_says(t, "al", "/fungeon treasure add coin3 mundane value 2",
	             "Cost: 3 points. Sells in town for 1 and a half points.\n");
	fgtable_free(t);
}

/* S12 (delver(7) Limits: a name is 1 to 24 characters; what a user types
 * is shown without invisible characters): a name, class, class type,
 * piece name or design word that holds an invisible character, or starts
 * with an accent that has no letter under it, is refused, so that no
 * Fungeoneer or piece is shown with an empty name or looks like
 * another. */
static void
s12_what_does_not_show_is_refused(void **unused)
{
	static const char *const name =
	    "A Fungeoneer's name shows as it is typed: this one holds an invisible character or "
	    "a control, or an accent with no letter under it.";
	struct fgtable *t = fgtable_new(2312);

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_fails_unchanged(t, "hy", "/fungeon join \xe2\x80\x8b mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join Al\xe2\x80\x8b mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join \xcc\x81 mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join Hy \xe2\x80\x8b",
	                        "A class shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_fails_unchanged(t, "hy",
	                        "/fungeon join Hy mage 3 type:\xe2\x80\x8b"
	                        "fire",
	                        "A class type shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_ok(t, "hy", "/fungeon join Hy Shadow-Mage\xcc\x81 3");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_TRAPS),
	                        "/fungeon trap add \xe2\x80\x8b annoy 2 pain 1 type fire",
	                        "A name shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_TRAPS),
	                        "/fungeon trap add pit annoy 2 pain 1 type \xe2\x80\x8b",
	                        "A design shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_free(t);
}

/* S3 (line 67: every point given is spent): a piece that does not fit
 * what is left says what helps: with nothing left, that the budget is
 * spent and a piece must be unmade first; with less left than any new
 * piece costs, that too, or that the holder may let those go; "make it
 * cheaper" only where a cheaper piece could fit. */
static void
s3_a_spent_budget_says_so(void **unused)
{
	struct fgtable *t = fgtable_new(2303);
	const char *tr, *mo;

	(void)unused;
	fgtable_fighters(t, 3, 3);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	tr = fgtable_holder(t, FUNGEON_CAT_TREASURE);
	fgtable_ok(t, tr, "/fungeon treasure add gem mundane value 5");
	fgtable_fails_unchanged(t, tr, "/fungeon treasure add ring mundane",
	                        "The Treasure budget of room 1 is spent (6 of 6): nothing more can "
	                        "be made; unmake a piece first (/fungeon treasure remove NAME) to "
	                        "change the room.");
	mo = fgtable_holder(t, FUNGEON_CAT_MONSTERS);
	fgtable_ok(t, mo, "/fungeon monster add ogre level 10");
	fgtable_fails_unchanged(t, mo, "/fungeon monster add rat level 3",
	                        "rat costs 3 but the Monsters budget has 2 left this room (budget "
	                        "12, spent 10), less than any new monster costs here (at least 3): "
	                        "unmake a piece first (/fungeon monster remove NAME) to make it "
	                        "again bigger, or let the 2 go (/fungeon enter waive:true).");
	fgtable_ok(t, mo, "/fungeon monster remove ogre");
	fgtable_ok(t, mo, "/fungeon monster add ogre level 6");
	fgtable_fails_unchanged(t, mo, "/fungeon monster add rat level 7",
	                        "rat costs 7 but the Monsters budget has 6 left this room (budget "
	                        "12, spent 6); make it cheaper.");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(s1_every_held_one_is_named),
	    cmocka_unit_test(s2_a_price_says_the_half_point),
	    cmocka_unit_test(s3_a_spent_budget_says_so),
	    cmocka_unit_test(s12_what_does_not_show_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
