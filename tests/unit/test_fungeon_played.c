/* What the first play-test of Fungeon did not cover, played since: the
 * limits of a party and of a turn, the way back's wandering monsters, who
 * directs them, and the state that must survive a restart mid-room. The
 * play-test's own findings are test_fungeon_playtest.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/core/undo.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_save.h"
#include "tests/unit/helpers/fgtable.h"

/* Saves module mod of the table's channel, loads it into a fresh one and
 * saves that: the two texts must be equal; returns the first. */
static char *
round_trip(struct fgtable *t, const struct chanmod *mod, int slot)
{
	const void *m = channel_mod_peek(state_channel(t->st, "console:t"), slot);
	cJSON *j = mod->save(m);
	char *a = cJSON_PrintUnformatted(j), *b, err[200] = "";
	void *fresh = mod->create();

	if (mod->load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	cJSON_Delete(j);
	j = mod->save(fresh);
	b = cJSON_PrintUnformatted(j);
	assert_string_equal(a, b);
	cJSON_Delete(j);
	free(b);
	mod->destroy(fresh);
	return a;
}

/* What the play-test's fixes keep in the record (aims, abilities chosen,
 * credit, an undo step that rolled) is saved and loaded
 * back as it was: a restart mid-room changes none of it. */
static void
u9_new_state_survives_a_restart(void **unused)
{
	static const char *const m[] = {
	    "/fungeon monster add ogre level 6 ability club annoy 2 pain 1 type blunt", NULL};
	struct fgtable *t = fgtable_new(19);
	struct fungeon_channel *c;
	char *a;

	(void)unused;
	c = fgtable_three(t, m);
	fgtable_ok(t, "al", "/fungeon orders targets:ogre");
	fgtable_ok(t, "cy", "/fungeon orders targets:ogre>Bo use:ogre/none");
	c->m[1].credit = 2;
	a = round_trip(t, &fungeon_mod, CHANMOD_FUNGEON);
	fgtable_holds(a, "\"aim\":\"ogre\"");
	fgtable_holds(a, "\"aim\":\"Bo\",\"use\":\"none\"");
	fgtable_holds(a, "\"credit\":2,");
	free(a);
	fgtable_ok(t, "bo", "/fungeon combat");
	a = round_trip(t, &undo_mod, CHANMOD_UNDO);
	fgtable_holds(a, "\"rolled\":true");
	free(a);
	fgtable_free(t);
}

/* Not covered by the play-test, played since: a party holds 8; a turn
 * holds 13 participants, so with 8 Fungeoneers and 9 monsters the first 5
 * standing fight and the others stay out, said so; naming more is refused
 * with the count; only the monsters' maker may pick which. */
static void
x1_eight_fungeoneers_and_thirteen_participants(void **unused)
{
	struct fgtable *t = fgtable_new(20);
	struct fungeon_channel *c;
	char line[64], *text;

	(void)unused;
	for (int i = 1; i <= 8; i++) {
		char user[8];

		snprintf(user, sizeof(user), "p%d", i);
		snprintf(line, sizeof(line), "/fungeon join F%d fighter 3", i);
		fgtable_ok(t, user, line);
	}
	fgtable_fails_unchanged(t, "p9", "/fungeon join F9 fighter 3",
	                        "The party is full (8 Fungeoneers).");
	fgtable_ok(t, "p1", "/fungeon hallway");
	c = fgtable_fungeon(t);
	c->d.room.picks.made = FUNGEON_CAT_COUNT; /* p4 holds all three, for the test */
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		c->d.room.picks.holder[k] = 3;
	for (int i = 1; i <= 9; i++) {
		snprintf(line, sizeof(line), "/fungeon monster add m%d level 3", i);
		fgtable_ok(t, "p4", line);
	}
	fgtable_enter_waived(t);
	text = fgtable_said(t, "p1", "/fungeon combat");
	fgtable_holds(
	    text, "Combat turn\nm6, m7, m8 and m9 stay out of this turn: a turn takes at most 13 "
	          "participants (p4, who directs them, may name the ones that fight).\n");
	fgtable_holds(text, "\nm5: ");
	assert_null(strstr(text, "\nm6: "));
	free(text);
	fgtable_fails_unchanged(t, "p4", "/fungeon combat m1 m2 m3 m4 m5 m6",
	                        "8 Fungeoneers and 6 monsters would be 14 participants, and a turn "
	                        "takes at most 13: name at most 5 monsters.");
	fgtable_fails_unchanged(t, "p1", "/fungeon combat m5 m6 m7 m8 m9", NULL);
	fgtable_ok(t, "p4", "/fungeon combat m5 m6 m7 m8 m9");
	fgtable_free(t);
}

/* Orders are for those who fight: none for, or at, a defeated monster or
 * a dead Fungeoneer. */
static void
x2_no_orders_for_the_defeated(void **unused)
{
	static const char *const m[] = {"/fungeon monster add rat level 6",
	                                "/fungeon monster add bat level 6", NULL};
	struct fgtable *t = fgtable_new(21);
	struct fungeon_channel *c;

	(void)unused;
	c = fgtable_three(t, m);
	c->d.room.p[FUNGEON_MONSTER][0].hits = 0;
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:rat",
	                        "rat is defeated and fights no more; orders are for those who "
	                        "fight.");
	fgtable_fails_unchanged(t, "cy", "/fungeon orders targets:rat>Al",
	                        "rat is defeated and fights no more; orders are for those who "
	                        "fight.");
	fgtable_ok(t, "al", "/fungeon orders targets:bat");
	fgtable_free(t);
}

/* On the way back every wandering monster of the room is built before the
 * party fights it (as before it goes on), and each is its builder's to
 * direct. */
static void
x3_wanderers_are_built_then_fought(void **unused)
{
	struct fgtable *t = fgtable_new(22);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 1);
	c = fgtable_heading_back(t);
	c->m[0].nwander = c->m[1].nwander = 0; /* whatever the rolls: one each */
	assert_int_equal(fungeon_add_wanderer(&c->m[0], 2), 0);
	assert_int_equal(fungeon_add_wanderer(&c->m[1], 2), 0);
	fgtable_ok(t, "bo", "/fungeon monster add rat level 2");
	fgtable_fails_unchanged(t, "bo", "/fungeon combat",
	                        "al has a wandering monster of 2 points to build in room 1 first "
	                        "(/fungeon monster add NAME DESIGN).");
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:rat>Al",
	                        "rat is bo's to direct: whoever made a monster directs it (the GM "
	                        "may direct any).");
	fgtable_ok(t, "al", "/fungeon monster add bat level 2");
	fgtable_ok(t, "bo", "/fungeon orders targets:rat>Al");
	fgtable_ok(t, "bo", "/fungeon combat");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(u9_new_state_survives_a_restart),
	    cmocka_unit_test(x1_eight_fungeoneers_and_thirteen_participants),
	    cmocka_unit_test(x2_no_orders_for_the_defeated),
	    cmocka_unit_test(x3_wanderers_are_built_then_fought),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
