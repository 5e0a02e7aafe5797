/* Unit tests for rules/light: each source's whole life in both
 * procedures, ids, selection, Light flags, Burn, restoring a flicker. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "rules/procedure/light.h"

/* Lights one source of kind k and burns it turn by turn in procedure p:
 * it must be warned about exactly on turn life-1 and go out on turn life. */
static void
full_life(enum light_kind k, enum procedure p, int life)
{
	struct lights ls;
	struct light_change ch[LIGHT_MAX];
	char err[200];

	memset(&ls, 0, sizeof(ls));
	assert_int_equal(light_life(k, p), life);
	assert_int_equal(light_add(&ls, k, 1, "alice", err, sizeof(err)), 0);
	assert_int_equal(light_left(&ls.l[0], p), life);
	for (int turn = 1; turn < life - 1; turn++) {
		assert_int_equal(light_burn(&ls, p, ch), 0);
		assert_int_equal(light_left(&ls.l[0], p), life - turn);
	}
	/* one turn before it goes out: the warning */
	assert_int_equal(light_burn(&ls, p, ch), 1);
	assert_false(ch[0].out);
	assert_int_equal(ch[0].light.id, 1);
	assert_string_equal(ch[0].light.who, "alice");
	assert_int_equal(light_left(&ls.l[0], p), 1);
	assert_int_equal(ls.n, 1);
	/* then out */
	assert_int_equal(light_burn(&ls, p, ch), 1);
	assert_true(ch[0].out);
	assert_int_equal(ch[0].light.burned, life);
	assert_int_equal(ls.n, 0);
}

static void
exploration_lives(void **unused)
{
	full_life(LIGHT_TORCH, PROC_EXPLORATION, 6);
	full_life(LIGHT_LANTERN, PROC_EXPLORATION, 36);
	full_life(LIGHT_CANDLE, PROC_EXPLORATION, 6);
}

static void
delving_lives(void **unused)
{
	struct lights ls;
	struct light_change ch[LIGHT_MAX];
	char err[200];

	full_life(LIGHT_LANTERN, PROC_DELVING, 48);
	full_life(LIGHT_CANDLE, PROC_DELVING, 48);
	/* a delving torch never burns down: only a Burn puts it out */
	memset(&ls, 0, sizeof(ls));
	light_add(&ls, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	assert_int_equal(light_life(LIGHT_TORCH, PROC_DELVING), 0);
	for (int turn = 0; turn < 1000; turn++)
		assert_int_equal(light_burn(&ls, PROC_DELVING, ch), 0);
	assert_int_equal(ls.n, 1);
	assert_int_equal(light_left(&ls.l[0], PROC_DELVING), -1);
	/* the turns burned still count if the channel goes back to exploration */
	assert_int_equal(light_left(&ls.l[0], PROC_EXPLORATION), 0);
	assert_int_equal(light_burn(&ls, PROC_EXPLORATION, ch), 1);
	assert_true(ch[0].out);
}

static void
ids_and_limits(void **unused)
{
	struct lights ls;
	char err[200];

	memset(&ls, 0, sizeof(ls));
	assert_int_equal(light_add(&ls, LIGHT_TORCH, 3, "bob", err, sizeof(err)), 0);
	assert_int_equal(ls.l[2].id, 3);
	light_remove(&ls, 1);
	assert_int_equal(light_add(&ls, LIGHT_CANDLE, 1, NULL, err, sizeof(err)), 0);
	assert_int_equal(ls.l[2].id, 4); /* ids are not reused while any burns */
	assert_string_equal(ls.l[2].who, "");
	assert_int_equal(light_add(&ls, LIGHT_TORCH, 18, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "3 sources are lit and 18 more would pass the limit of 20; put "
	                         "some out first.");
	assert_int_equal(ls.n, 3);
	assert_int_equal(light_add(&ls, LIGHT_TORCH, 17, NULL, err, sizeof(err)), 0);
	assert_int_equal(ls.n, LIGHT_MAX);
	assert_int_equal(light_add(&ls, LIGHT_TORCH, 1, NULL, err, sizeof(err)), -1);
	while (ls.n > 0)
		light_remove(&ls, 0);
	assert_int_equal(light_add(&ls, LIGHT_TORCH, 1, NULL, err, sizeof(err)), 0);
	assert_int_equal(ls.l[0].id, 1); /* all out: ids start again */
}

static void
selecting(void **unused)
{
	struct lights ls;
	size_t idx[LIGHT_MAX];
	char err[200];

	memset(&ls, 0, sizeof(ls));
	light_add(&ls, LIGHT_TORCH, 2, NULL, err, sizeof(err));
	light_add(&ls, LIGHT_LANTERN, 1, NULL, err, sizeof(err));
	assert_int_equal(light_select(&ls, "3", idx, err, sizeof(err)), 1);
	assert_int_equal(idx[0], 2);
	assert_int_equal(light_select(&ls, "#2", idx, err, sizeof(err)), 1);
	assert_int_equal(idx[0], 1);
	assert_int_equal(light_select(&ls, "torches", idx, err, sizeof(err)), 2);
	assert_int_equal(light_select(&ls, "all", idx, err, sizeof(err)), 3);
	assert_int_equal(light_select(&ls, "candle", idx, err, sizeof(err)), -1);
	assert_string_equal(err, "No candle is lit.");
	assert_int_equal(light_select(&ls, "9", idx, err, sizeof(err)), -1);
	assert_string_equal(err, "No lit source is numbered '9'; /light list shows them.");
	assert_int_equal(light_select(&ls, "2x", idx, err, sizeof(err)), -1);
	assert_int_equal(light_select(&ls, "99999", idx, err, sizeof(err)), -1);
	assert_int_equal(light_select(&ls, "lamp", idx, err, sizeof(err)), -1);
	assert_string_equal(err, "'lamp' names no light; give a number from /light list, torch, "
	                         "lantern, candle or all.");
}

static void
flags_and_burns(void **unused)
{
	struct lights ls;
	struct light was, out[LIGHT_MAX];
	char err[200];

	memset(&ls, 0, sizeof(ls));
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 6, &was), LIGHT_FLAG_NONE);
	light_add(&ls, LIGHT_LANTERN, 1, NULL, err, sizeof(err));
	light_add(&ls, LIGHT_TORCH, 2, NULL, err, sizeof(err));
	ls.l[0].burned = 2;
	/* the oldest is the lantern: its oil runs low to one turn */
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 1, &was), LIGHT_FLAG_LOW);
	assert_int_equal(was.kind, LIGHT_LANTERN);
	assert_int_equal(was.burned, 2);
	assert_int_equal(light_left(&ls.l[0], PROC_EXPLORATION), 1);
	assert_int_equal(ls.n, 3);
	/* a Burn takes every torch, not the lantern */
	assert_int_equal(light_burn_torches(&ls, out), 2);
	assert_int_equal(out[0].id, 2);
	assert_int_equal(out[1].id, 3);
	assert_int_equal(ls.n, 1);
	assert_int_equal(light_burn_torches(&ls, out), 0);
	/* a torch that is the oldest sputters out */
	light_remove(&ls, 0);
	light_add(&ls, LIGHT_TORCH, 1, "cy", err, sizeof(err));
	light_add(&ls, LIGHT_CANDLE, 1, NULL, err, sizeof(err));
	ls.l[0].burned = 2;
	assert_int_equal(light_flag_oldest(&ls, PROC_DELVING, 6, &was), LIGHT_FLAG_OUT);
	assert_int_equal(was.kind, LIGHT_TORCH);
	assert_int_equal(ls.n, 1);
	assert_int_equal(ls.l[0].kind, LIGHT_CANDLE);
	/* restored where its id belongs, before the candle */
	assert_int_equal(light_restore(&ls, &was), 0);
	assert_int_equal(ls.l[0].id, 1);
	assert_string_equal(ls.l[0].who, "cy");
	assert_int_equal(ls.l[1].id, 2);
}

/* Issue 25 item 13: a Light result cut a lantern with 32 turns of oil to 1.
 * Oil that runs low keeps at most the channel's low mark (6 turns, an hour,
 * by default); a source lit just before the turn only flickers. */
static void
lantern_oil_runs_low_not_out(void **unused)
{
	struct lights ls;
	struct light was;
	char err[200];

	memset(&ls, 0, sizeof(ls));
	light_add(&ls, LIGHT_LANTERN, 1, NULL, err, sizeof(err));
	ls.l[0].burned = 4; /* 32 of 36 turns left */
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, LIGHT_LOW_DEFAULT, &was),
	                 LIGHT_FLAG_LOW);
	assert_int_equal(light_left(&was, PROC_EXPLORATION), 32);
	assert_int_equal(light_left(&ls.l[0], PROC_EXPLORATION), 6);
	/* low already: a second result leaves it as it is */
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, LIGHT_LOW_DEFAULT, &was),
	                 LIGHT_FLAG_LOW);
	assert_int_equal(light_left(&ls.l[0], PROC_EXPLORATION), 6);
	/* the GM's own mark */
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 2, &was), LIGHT_FLAG_LOW);
	assert_int_equal(light_left(&ls.l[0], PROC_EXPLORATION), 2);
	/* a mark above what is left changes nothing; delving counts 48 turns */
	ls.l[0].burned = 10;
	assert_int_equal(light_flag_oldest(&ls, PROC_DELVING, 40, &was), LIGHT_FLAG_LOW);
	assert_int_equal(light_left(&ls.l[0], PROC_DELVING), 38);
	assert_int_equal(light_flag_oldest(&ls, PROC_DELVING, LIGHT_LOW_DEFAULT, &was),
	                 LIGHT_FLAG_LOW);
	assert_int_equal(light_left(&ls.l[0], PROC_DELVING), 6);
	assert_int_equal(ls.n, 1);
	/* just lit (burned 0 or 1 turn): it only flickers, unchanged */
	memset(&ls, 0, sizeof(ls));
	light_add(&ls, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	light_add(&ls, LIGHT_LANTERN, 1, NULL, err, sizeof(err));
	ls.l[0].burned = 1;
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 6, &was), LIGHT_FLAG_FLICKER);
	assert_int_equal(was.id, 1);
	assert_int_equal(ls.n, 2);
	assert_int_equal(ls.l[0].burned, 1);
	ls.l[0].burned = 2;
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 6, &was), LIGHT_FLAG_OUT);
	assert_int_equal(ls.n, 1);
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 6, &was), LIGHT_FLAG_FLICKER);
	assert_int_equal(light_left(&ls.l[0], PROC_EXPLORATION), 36);
}

static void
restore_when_id_taken(void **unused)
{
	struct lights ls;
	struct light was;
	char err[200];

	memset(&ls, 0, sizeof(ls));
	light_add(&ls, LIGHT_TORCH, 1, NULL, err, sizeof(err));
	ls.l[0].burned = 3;
	assert_int_equal(light_flag_oldest(&ls, PROC_EXPLORATION, 6, &was), LIGHT_FLAG_OUT);
	assert_int_equal(ls.n, 0);
	light_add(&ls, LIGHT_CANDLE, 1, NULL, err, sizeof(err)); /* takes id 1 again */
	assert_int_equal(light_restore(&ls, &was), 1);
	assert_int_equal(ls.l[1].id, 2);
	assert_int_equal(ls.l[1].kind, LIGHT_TORCH);
	assert_int_equal(ls.next_id, 3);
}

static void
kind_names(void **unused)
{
	assert_int_equal(light_kind_parse("Torch"), LIGHT_TORCH);
	assert_int_equal(light_kind_parse("candles"), LIGHT_CANDLE);
	assert_int_equal(light_kind_parse("lamp"), -1);
	assert_string_equal(light_kind_name(LIGHT_LANTERN), "lantern");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(exploration_lives),     cmocka_unit_test(delving_lives),
	    cmocka_unit_test(ids_and_limits),        cmocka_unit_test(selecting),
	    cmocka_unit_test(flags_and_burns),       cmocka_unit_test(lantern_oil_runs_low_not_out),
	    cmocka_unit_test(restore_when_id_taken), cmocka_unit_test(kind_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
