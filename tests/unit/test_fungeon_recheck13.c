/* The outside recheck13's findings on Fungeon (F1-F5): each played at a
 * table as the report found it, with what the rule text wants instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/fungeon.h"
#include "tests/unit/helpers/fgtable.h"

/* The user and Fungeoneer of the party's first member who is not user. */
static void
other_than(const char *user, const char **other, const char **name)
{
	static const char *const users[] = {"al", "bo", "cy"}, *const names[] = {"Al", "Bo", "Cy"};

	for (int i = 0; i < 3; i++) {
		if (strcmp(users[i], user) != 0) {
			*other = users[i];
			*name = names[i];
			return;
		}
	}
}

/* F1 (line 91: "When a Fungeoneer attempts to get past or accidentally
 * stumbles into a Trap, her Player must make a successful Annoy Roll";
 * line 75: its maker "must keep track of when and how the Traps are
 * triggered, announcing sprung Traps"): a trap springs by a Fungeoneer's
 * own action. The maker's bare trigger no longer springs it on everyone in
 * the room: with others there it is refused, saying to name whose action
 * sprang it; named, the maker announces whose; all only when said. */
static void
f1_a_trap_springs_by_a_fungeoneers_own_action(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add pit annoy 2 pain 1 unlimited type spikes", NULL};
	struct fgtable *t = fgtable_new(1301);
	const char *maker, *other = NULL, *name = NULL;
	char line[200], want[200], *text;

	(void)unused;
	fgtable_fighters(t, 3, 3);
	fgtable_room_made(t, d);
	maker = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	other_than(maker, &other, &name);
	fgtable_fails_unchanged(t, maker, "/fungeon trigger pit",
	                        "A trap springs by a Fungeoneer's own action, so name whose "
	                        "action sprang pit (/fungeon trigger pit NAME, or all when "
	                        "everyone in the room sprang it, as across a footplate).");
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_fails_unchanged(t, "gm", "/fungeon trigger pit",
	                        "A trap springs by a Fungeoneer's own action, so name whose "
	                        "action sprang pit (/fungeon trigger pit NAME, or all when "
	                        "everyone in the room sprang it, as across a footplate).");
	fgtable_fails_unchanged(t, other, "/fungeon trigger pit all",
	                        "Only pit's maker (with /fungeon trigger) or the GM may say that "
	                        "everyone in the room faces it; each player triggers it with "
	                        "their own Fungeoneer.");
	/* the maker names whose action sprang it: that one alone rolls */
	snprintf(line, sizeof(line), "/fungeon trigger pit %s", name);
	text = fgtable_said(t, maker, line);
	snprintf(want, sizeof(want), "\n%s, who made pit, announces it sprung by %s.\n", maker,
	         name);
	fgtable_holds(text, want);
	snprintf(want, sizeof(want), "\n%s (%s): ", name, other);
	fgtable_holds(text, want);
	assert_null(strstr(text, "together"));
	free(text);
	/* a player's bare trigger is their own Fungeoneer's, no announcing */
	text = fgtable_said(t, other, "/fungeon trigger pit");
	assert_null(strstr(text, "announces"));
	assert_null(strstr(text, "together"));
	fgtable_holds(text, want);
	free(text);
	/* all, said explicitly: everyone in the room at the same time */
	text = fgtable_said(t, maker, "/fungeon trigger pit all");
	snprintf(want, sizeof(want),
	         "Triggering pit together: one die + level each, the highest avoids it\n"
	         "%s, who made pit, announces it sprung by Al, Bo and Cy, at the same time.\n",
	         maker);
	fgtable_holds(text, want);
	free(text);
	fgtable_free(t);
}

/* F1: alone in the room, the maker's bare trigger is their own
 * Fungeoneer's, as any player's is. */
static void
f1_alone_the_maker_triggers_their_own(void **unused)
{
	static const char *const d[] = {"/fungeon trap add pit annoy 2 pain 1 type spikes", NULL};
	struct fgtable *t = fgtable_new(1302);
	char *text;

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_room_made(t, d);
	text = fgtable_said(t, "al", "/fungeon trigger pit");
	fgtable_holds(text, "Triggering pit: an Annoy roll against its 2 Annoy dice\n");
	assert_null(strstr(text, "announces"));
	free(text);
	fgtable_free(t);
}

/* F2 (line 297: "the Treasure you give up only gives you half the points
 * to create new Treasure (rounding down)"): half of what was given up,
 * rounded once over the visit's sales, not item by item: the report's
 * 3 + 1 + 4 + 4 points given up credit 6, not 5, and each reply says
 * what the visit gave up. */
static void
f2_half_of_what_was_given_up_rounded_once(void **unused)
{
	struct fgtable *t = fgtable_new(1303);
	const struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_give(t, 0, "ring", 3, false);
	fgtable_give(t, 0, "coins", 1, false);
	fgtable_give(t, 0, "gem", 4, false);
	fgtable_give(t, 0, "amulet", 4, false);
	c = fgtable_fungeon(t);
	fgtable_says(t, "al", "/fungeon town sell ring",
	             "Al sells ring (3 points): what Al gave up in this visit, 3 points, gives "
	             "half, rounded down once over it all, so this sale adds 1 point: credit 1 "
	             "point.\n");
	fgtable_says(t, "al", "/fungeon town sell coins",
	             "Al sells coins (1 point): what Al gave up in this visit, 4 points, gives "
	             "half, rounded down once over it all, so this sale adds 1 point: credit 2 "
	             "points.\n");
	fgtable_ok(t, "al", "/fungeon town sell gem");
	fgtable_says(t, "al", "/fungeon town buy bead mundane",
	             "Al buys bead for 1 point (credit left 3 points).");
	fgtable_says(t, "al", "/fungeon town sell amulet",
	             "Al sells amulet (4 points): what Al gave up in this visit, 12 points, "
	             "gives half, rounded down once over it all, so this sale adds 2 points: "
	             "credit 5 points.\n");
	assert_int_equal(c->m[0].credit + 1, 12 / 2); /* what the bead took */
	fgtable_round_trips(c);
	fgtable_free(t);
}

/* F2: the rounding is once over a visit: a half point left when the
 * party leaves town is not carried to the next visit. */
static void
f2_a_visit_rounds_for_good(void **unused)
{
	struct fungeon_member m;

	(void)unused;
	memset(&m, 0, sizeof(m));
	assert_int_equal(fungeon_sell(&m, 1), 0);
	assert_int_equal(fungeon_sale_gain(&m, 1), 1);
	fungeon_town_leave(&m, 1);
	assert_int_equal(m.sold, 0);
	assert_int_equal(fungeon_sell(&m, 1), 0);
	assert_int_equal(fungeon_sell(&m, 11), 6); /* 12 given up: 6 */
	assert_int_equal(m.credit, 6);
}

/* F3 (Fungeon is played "without a gamemaster"; RULES.md: the prose
 * formula is a configurable alternative to the table): with nobody in the
 * GM seat any player of the party sets the XP rule, no /gm claim needed;
 * one outside the party is told how to join; once a GM holds the seat it
 * is the GM's alone. */
static void
f3_a_masterless_table_sets_its_xp_rule(void **unused)
{
	struct fgtable *t = fgtable_new(1304);
	const struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 1);
	c = fgtable_fungeon(t);
	fgtable_says(t, "bo", "/fungeon xp-rule formula",
	             "XP rule here: formula (level up when XP >= 10 x 2^(current level - 1): "
	             "level 3 at 20).\n");
	assert_int_equal(c->xp_rule, FUNGEON_XP_FORMULA);
	fgtable_fails_unchanged(t, "dan", "/fungeon xp-rule table",
	                        "With nobody in the GM seat, the XP rule is set by a player of "
	                        "the party, and you have no Fungeoneer here; /fungeon join NAME "
	                        "CLASS LEVEL makes one.");
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_fails_unchanged(t, "al", "/fungeon xp-rule table",
	                        "Only the GM can do that here; the GM is gm.");
	fgtable_gm(t, "/fungeon xp-rule table");
	assert_int_equal(c->xp_rule, FUNGEON_XP_TABLE);
	fgtable_free(t);
}

/* F5 (line 29: "Party Total, add up all the Fungeoneer Levels" of your
 * party): the Party now line counts the party in play; a replacement
 * that waits to join is named apart with its level, not counted, and the
 * room's budget lines, counted by the hallway, say that the party changed
 * since. */
static void
f5_party_now_counts_the_party_in_play(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3", NULL};
	struct fgtable *t = fgtable_new(1305);
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_room_made(t, d);
	fgtable_ok(t, "bo", "/fungeon adjust Bo hits:-99");
	fgtable_says(t, "bo", "/fungeon join Bo2 fighter",
	             "bo makes a new Fungeoneer: Bo2, level 2 fighter");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "Party now: Min 3 · Max 3 · Total 3 · Bo2 (level 2) waits to join, "
	                    "not counted · floor 3 · XP rule: table.\n");
	fgtable_holds(text, "Monsters budget this room: 9 (Party Total 6 as the hallway counted "
	                    "it + floor 3)");
	free(text);
	fgtable_free(t);
}

/* F4 (delver(7): "Names never clash"): a Fungeoneer named after a player
 * who joined later made the name mean two members, and /fungeon leave bob
 * took alice's Fungeoneer out when the GM meant the player bob. Now a name
 * that means both is refused, naming both and how to say which: the
 * Fungeoneer by its player's name, the player by their Fungeoneer's. */
static void
f4_a_name_that_means_two_is_refused(void **unused)
{
	static const char *const two =
	    "'bob' names two here, alice's Fungeoneer bob and the player bob, whose Fungeoneer is "
	    "Al; say alice for the first or Al for the second.";
	struct fgtable *t = fgtable_new(1306);
	const struct fungeon_channel *c;

	(void)unused;
	fgtable_ok(t, "alice", "/fungeon join bob rogue 2");
	fgtable_ok(t, "bob", "/fungeon join Al fighter 2");
	fgtable_ok(t, "gm", "/gm claim");
	c = fgtable_fungeon(t);
	fgtable_fails_unchanged(t, "gm", "/fungeon leave bob", two);
	fgtable_fails_unchanged(t, "gm", "/fungeon sheet bob", two);
	fgtable_fails_unchanged(t, "gm", "/fungeon adjust bob hits:-1", two);
	fgtable_says(t, "gm", "/fungeon sheet alice", "bob (alice): level 2 rogue");
	fgtable_says(t, "gm", "/fungeon sheet Al", "Al (bob): level 2 fighter");
	fgtable_ok(t, "gm", "/fungeon leave Al");
	assert_int_equal(c->n, 1);
	assert_string_equal(c->m[0].player, "alice");
	fgtable_says(t, "gm", "/fungeon sheet bob", "bob (alice): level 2 rogue");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f1_a_trap_springs_by_a_fungeoneers_own_action),
	    cmocka_unit_test(f1_alone_the_maker_triggers_their_own),
	    cmocka_unit_test(f2_half_of_what_was_given_up_rounded_once),
	    cmocka_unit_test(f2_a_visit_rounds_for_good),
	    cmocka_unit_test(f3_a_masterless_table_sets_its_xp_rule),
	    cmocka_unit_test(f4_a_name_that_means_two_is_refused),
	    cmocka_unit_test(f5_party_now_counts_the_party_in_play),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
