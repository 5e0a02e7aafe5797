/* The sixth independent play-test of Fungeon
 * (notes/playtest-fungeon-6.md), its findings each played at a table as
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

#include <cJSON.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_save.h"
#include "tests/unit/helpers/fgtable.h"

/* Al, Bo and Cy, level 3 fighters, in the hallway before room 1 on
 * floor 3 with the categories drawn: Traps 6, Monsters 12, Treasure 6. */
static struct fungeon_channel *
drawn(struct fgtable *t)
{
	return fgtable_drawn(t, 3, 3);
}

/* The table's state holds whose waivers are the GM's, reads back the
 * same, and a record whose "waived_gm" is not all true or false is
 * refused with the field named. */
static void
saved_and_read_back(struct fgtable *t)
{
	char *a = fgtable_saved(t), err[200] = "", *at;
	void *fresh = fungeon_mod.create();
	cJSON *j;

	fgtable_round_trips(fgtable_fungeon(t));
	at = strstr(a, "\"waived_gm\":[false,true,false]");
	assert_non_null(at);
	memcpy(at + strlen("\"waived_gm\":["), "0    ", 5);
	j = cJSON_Parse(a);
	assert_non_null(j);
	assert_int_equal(fungeon_mod.load(fresh, j, err, sizeof(err)), -1);
	assert_string_equal(err,
	                    "Fungeon room: 'waived_gm' holds a value that is not true or false.");
	cJSON_Delete(j);
	fungeon_mod.destroy(fresh);
	free(a);
}

/* R1 (line 67: every point given is spent; Ruling: a holder waives only
 * points no new piece can use): the holder of Monsters waives 2 (a
 * monster costs at least 3 on floor 3), then unmakes the three ghouls.
 * The waiver lapses at once, saying so, and the party may not go in with
 * 12 points unspent and no monster; the hallway's `party` shows a
 * waiver standing. */
static void
r1_a_waiver_covers_only_what_no_new_piece_can_use(void **unused)
{
	struct fgtable *t = fgtable_new(607);
	struct fungeon_channel *c = drawn(t);
	const char *m = fgtable_holder(t, FUNGEON_CAT_MONSTERS);
	char line[400], *text;

	(void)unused;
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ghoul level 4");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ghoul2 level 3");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ghoul3 level 3");
	snprintf(line, sizeof(line), "Points left unspent, waived by %s: Monsters 2.", m);
	fgtable_says(t, m, "/fungeon enter waive:true", line);
	snprintf(line, sizeof(line),
	         "Waived so far: %s: Monsters 2 (a player's waiver holds while no new piece "
	         "can use the points; it is checked again at each piece made or unmade and at "
	         "entry).",
	         m);
	fgtable_says(t, "al", "/fungeon party", line);

	text = fgtable_said(t, m, "/fungeon monster remove ghoul3");
	snprintf(line, sizeof(line),
	         "%s's waiver of Monsters lapses: the 5 left can buy a new monster (one costs "
	         "at least 3 here): spend them, and waive again only what no new piece can use.",
	         m);
	fgtable_holds(text, line);
	free(text);
	assert_string_equal(c->d.room.waived_by[FUNGEON_CAT_MONSTERS], "");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster remove ghoul");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster remove ghoul2");
	text = fgtable_said(t, "al", "/fungeon party");
	assert_null(strstr(text, "Waived so far"));
	free(text);

	/* the other two spend all theirs */
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit annoy 2 pain 1 type spikes");
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit2 annoy 2 pain 1 type spikes");
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit3 annoy 2 pain 1 type spikes");
	fgtable_make(t, FUNGEON_CAT_TREASURE, "/fungeon treasure add gem mundane value 5");
	snprintf(line, sizeof(line),
	         "Room 1's points are not all spent (left: Monsters 12 (%s)), and the text says "
	         "every point is spent; each holder spends theirs, or lets go what no new piece "
	         "can use with /fungeon enter waive:true.",
	         m);
	fgtable_fails_unchanged(t, "al", "/fungeon enter", line);
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);

	/* a waiver saved before this rule, over points a monster can use,
	 * is checked at entry and counts for nothing */
	snprintf(c->d.room.waived_by[FUNGEON_CAT_MONSTERS], FUNGEON_PLAYER_MAX, "%s", m);
	fgtable_fails_unchanged(t, "al", "/fungeon enter", line);
	fgtable_fails_unchanged(t, m, "/fungeon enter waive:true",
	                        "Monsters 12 can still buy a new monster (one costs at least 3 "
	                        "here), and the text has every point spent: spend them first; a "
	                        "holder waives only points no new piece can use (a Ruling), and "
	                        "the GM any, outside the rules.");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);

	/* the GM's waiver, outside the rules, stands as made */
	fgtable_gm(t, "/fungeon enter waive:true");
	assert_int_equal(c->d.phase, FUNGEON_ROOM);
	assert_true(c->d.room.waived_gm[FUNGEON_CAT_MONSTERS]);
	saved_and_read_back(t);
	fgtable_free(t);
}

/* R2: the holder of Monsters leaves the hallway with 3 points unspent:
 * the reply says who holds the category now and what is left to spend,
 * and `party` says the budget's Party Total is the one the hallway
 * counted (9), not the party now (6). */
static void
r2_a_holder_who_leaves_says_where_the_category_goes(void **unused)
{
	struct fgtable *t = fgtable_new(730);
	char m[16], line[200], *text;

	(void)unused;
	drawn(t);
	snprintf(m, sizeof(m), "%s", fgtable_holder(t, FUNGEON_CAT_MONSTERS));
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ghoul level 3");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ghoul2 level 3");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add ghoul3 level 3");
	text = fgtable_said(t, m, "/fungeon leave");
	snprintf(line, sizeof(line),
	         "Monsters pass to %s, the highest roller left, with 3 points left to spend.",
	         fgtable_holder(t, FUNGEON_CAT_MONSTERS));
	fgtable_holds(text, line);
	assert_string_not_equal(fgtable_holder(t, FUNGEON_CAT_MONSTERS), m);
	free(text);
	text = fgtable_said(t, fgtable_holder(t, FUNGEON_CAT_MONSTERS), "/fungeon party");
	fgtable_holds(text, "Party now: Min 3 · Max 3 · Total 6 · ");
	fgtable_holds(text, "Monsters budget this room: 12 (Party Total 9 as the hallway counted "
	                    "it + floor 3); spent 9, left 3.");
	fgtable_holds(text, "Traps budget this room: 6 (Party Max 3 + floor 3)");
	free(text);
	fgtable_free(t);
}

/* R5 (lines 53-54: whoever died makes a new Fungeoneer in the hallway):
 * after a total party kill in a room nobody is in play, so `combat`
 * says what the fallen do next instead of pointing at players in play,
 * and `hallway` names every player who still needs a new Fungeoneer. */
static void
r5_after_a_total_party_kill_every_player_hears_what_next(void **unused)
{
	static const char *const m[] = {"/fungeon monster add ogre level 6", NULL};
	struct fgtable *t = fgtable_new(817);
	struct fungeon_channel *c;

	(void)unused;
	c = fgtable_three(t, m);
	fgtable_all_fall(t);
	assert_true(c->m[0].dead && c->m[1].dead && c->m[2].dead);
	fgtable_fails_unchanged(t, "cy", "/fungeon combat",
	                        "Nobody of the party is in play here: each player whose "
	                        "Fungeoneer died makes a new one (/fungeon join NAME CLASS, "
	                        "level 5), then any of them goes on to the hallway (/fungeon "
	                        "hallway).");
	fgtable_fails_unchanged(t, "cy", "/fungeon hallway",
	                        "al's Al, bo's Bo and cy's Cy died: each new Fungeoneer comes "
	                        "first in the hallway (/fungeon join NAME CLASS, at level 5), or "
	                        "its player leaves the party (/fungeon leave).");
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter 5");
	fgtable_fails_unchanged(t, "bo", "/fungeon hallway",
	                        "al's Al and cy's Cy died: each new Fungeoneer comes first in the "
	                        "hallway (/fungeon join NAME CLASS, at level 5), or its player "
	                        "leaves the party (/fungeon leave).");
	fgtable_ok(t, "al", "/fungeon join Al2 fighter 5");
	fgtable_fails_unchanged(t, "al", "/fungeon hallway",
	                        "cy's Cy died: the new Fungeoneer comes first in the hallway "
	                        "(/fungeon join NAME CLASS, at level 5), or cy leaves the party "
	                        "(/fungeon leave).");
	fgtable_free(t);
}

/* R5: with the room's monsters all down, `combat` says what comes next:
 * the treasure left to take, or the hallway. */
static void
r5_nothing_to_fight_says_what_next(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3",
	                                "/fungeon treasure add gem mundane", NULL};
	struct fgtable *t = fgtable_new(818);
	struct fungeon_channel *c = fgtable_into_room(t, 3, d);

	(void)unused;
	c->d.room.p[FUNGEON_MONSTER][0].hits = 0;
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "No monster of this room has hits left: there is nothing to "
	                        "fight here; take its treasure (/fungeon take ITEM) or go on "
	                        "(/fungeon hallway).");
	fgtable_ok(t, "al", "/fungeon take gem");
	fgtable_fails_unchanged(t, "al", "/fungeon combat",
	                        "No monster of this room has hits left: there is nothing to "
	                        "fight here; go on (/fungeon hallway).");
	fgtable_free(t);
}

/* R4 (line 67): points too few for a new piece could still be spent on a
 * bigger existing piece, remade; /help and delver(7) say so, and that
 * the waiver is the project's Ruling for that case. */
static void
r4_the_waiver_ruling_names_the_remake(void **unused)
{
	static char man[1 << 18];
	struct fgtable *t = fgtable_new(1);
	FILE *f = fopen("bot/man/delver.7.md", "r");
	char *text;
	size_t n;

	(void)unused;
	text = fgtable_said(t, "al", "/help fungeon enter");
	fgtable_holds(text, "Points too few for a new piece could also go into remaking a bigger "
	                    "existing piece (unmake it, make it again with more: 2 more Annoy dice "
	                    "for a Traps point, more levels for Monsters points); the waiver is "
	                    "this project's Ruling for that case");
	free(text);
	fgtable_free(t);
	assert_non_null(f);
	n = fread(man, 1, sizeof(man) - 1, f);
	fclose(f);
	man[n] = '\0';
	fgtable_holds(man, "The waiver is this project's Ruling for that\n  case: instead of that "
	                   "remake, a holder may let those points go");
}

/* R4's nit: a holder of two categories, one with points no new piece can
 * use and one with points a monster can, is refused the waiver, and the
 * refusal says the first may go once the second is spent. */
static void
r4_a_refused_waiver_names_what_may_go_after(void **unused)
{
	struct fgtable *t = fgtable_new(902);

	(void)unused;
	fgtable_alone_on_floor(t, 3, "/fungeon monster add rat level 3");
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_ok(t, "al", "/fungeon trap add pit annoy 2 pain 2 type spikes");
	fgtable_ok(t, "al", "/fungeon treasure add coin mundane value 3");
	fgtable_fails_unchanged(t, "al", "/fungeon enter waive:true",
	                        "Monsters 4 can still buy a new monster (one costs at least 3 "
	                        "here), and the text has every point spent: spend them first, then "
	                        "Traps 1 may go; a holder waives only points no new piece can use "
	                        "(a Ruling), and the GM any, outside the rules.");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(r1_a_waiver_covers_only_what_no_new_piece_can_use),
	    cmocka_unit_test(r2_a_holder_who_leaves_says_where_the_category_goes),
	    cmocka_unit_test(r5_after_a_total_party_kill_every_player_hears_what_next),
	    cmocka_unit_test(r5_nothing_to_fight_says_what_next),
	    cmocka_unit_test(r4_the_waiver_ruling_names_the_remake),
	    cmocka_unit_test(r4_a_refused_waiver_names_what_may_go_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
