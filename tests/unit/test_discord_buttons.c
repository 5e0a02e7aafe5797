/* Tests for bot/discord/discord_buttons: custom_ids, the store of long
 * lines and its eviction. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bot/discord/discord_buttons.h"
#include "bot/discord/discord_proto.h"

/* A command line of n bytes: "roll " then x's. */
static void
long_line(char *out, size_t n, char fill)
{
	memset(out, fill, n);
	memcpy(out, "roll ", 5);
	out[n] = '\0';
}

/* A line that fits in 100 characters with "a:" is carried in the id, with
 * or without a store. */
static void
test_short_line_in_id(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4, 1);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[DISCORD_CUSTOM_ID_MAX];

	assert_int_equal(discord_buttons_id(bs, "roll 1d6", DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_string_equal(id, "a:roll 1d6");
	assert_string_equal(discord_buttons_action(bs, id, NULL), "roll 1d6");
	assert_string_equal(discord_buttons_action(NULL, id, NULL), "roll 1d6");
	long_line(line, 98, 'x'); /* "a:" + 98 = 100: still fits */
	assert_int_equal(discord_buttons_id(NULL, line, DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_int_equal(strlen(id), 100);
	assert_string_equal(discord_buttons_action(NULL, id, NULL), line);
	discord_buttons_free(bs);
}

/* A longer line is stored and referred to by number, in hexadecimal;
 * without a store it cannot be addressed. */
static void
test_long_line_stored(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(32, 1);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[200];

	long_line(line, 99, 'y'); /* "a:" + 99 = 101: too long */
	assert_int_equal(discord_buttons_id(NULL, line, DISCORD_BUTTON_NEW, id, sizeof(id)), -1);
	assert_int_equal(discord_buttons_id(bs, line, DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_string_equal(id, "b:1");
	assert_string_equal(discord_buttons_action(bs, "b:1", NULL), line);
	assert_null(discord_buttons_action(NULL, "b:1", NULL));
	for (int i = 2; i <= 26; i++)
		assert_int_equal(discord_buttons_id(bs, line, DISCORD_BUTTON_NEW, id, sizeof(id)),
		                 0);
	assert_string_equal(id, "b:1a");
	assert_string_equal(discord_buttons_action(bs, "b:1a", NULL), line);
	assert_null(discord_buttons_action(bs, "b:1b", NULL)); /* not made yet */
	discord_buttons_free(bs);
}

/* The store keeps the cap most recent long lines: older ids expire. */
static void
test_eviction(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4, 1);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[6][150];

	for (int i = 0; i < 6; i++) {
		long_line(line[i], 120 + i, (char)('a' + i));
		assert_int_equal(
		    discord_buttons_id(bs, line[i], DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	}
	assert_null(discord_buttons_action(bs, "b:1", NULL));
	assert_null(discord_buttons_action(bs, "b:2", NULL));
	assert_string_equal(discord_buttons_action(bs, "b:3", NULL), line[2]);
	assert_string_equal(discord_buttons_action(bs, "b:6", NULL), line[5]);
	discord_buttons_free(bs);
	/* A store of capacity 0 keeps one line. */
	bs = discord_buttons_new(0, 1);
	assert_int_equal(discord_buttons_id(bs, line[0], DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_int_equal(discord_buttons_id(bs, line[1], DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_null(discord_buttons_action(bs, "b:1", NULL));
	assert_string_equal(discord_buttons_action(bs, "b:2", NULL), line[1]);
	discord_buttons_free(bs);
}

/* A button whose reply replaces its message says so in its id ("u:", or
 * "v:" for a stored line), and only those read back as updates. */
static void
test_update_buttons(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4, 1);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[150];
	enum discord_button_kind kind = DISCORD_BUTTON_PANEL;

	assert_int_equal(discord_buttons_id(bs, "safe on", DISCORD_BUTTON_UPDATE, id, sizeof(id)),
	                 0);
	assert_string_equal(id, "u:safe on");
	assert_string_equal(discord_buttons_action(NULL, id, &kind), "safe on");
	assert_int_equal(kind, DISCORD_BUTTON_UPDATE);
	assert_string_equal(discord_buttons_action(bs, "a:safe on", &kind), "safe on");
	assert_int_equal(kind, DISCORD_BUTTON_NEW);
	long_line(line, 130, 'q');
	assert_int_equal(discord_buttons_id(bs, line, DISCORD_BUTTON_UPDATE, id, sizeof(id)), 0);
	assert_string_equal(id, "v:1");
	assert_string_equal(discord_buttons_action(bs, "v:1", &kind), line);
	assert_int_equal(kind, DISCORD_BUTTON_UPDATE);
	/* The number is the line's, whichever letter asks for it. */
	assert_string_equal(discord_buttons_action(bs, "b:1", &kind), line);
	assert_int_equal(kind, DISCORD_BUTTON_NEW);
	assert_null(discord_buttons_action(bs, "u:", &kind));
	assert_null(discord_buttons_action(bs, "v:", &kind));
	assert_null(discord_buttons_action(bs, "v:2", &kind));
	assert_null(discord_buttons_action(bs, "ua:x", &kind));
	discord_buttons_free(bs);
}

/* recheck3 F12: after a restart the store numbered its lines from 1 again,
 * so an old message's "b:1" ran the first long line of the new run (a GM's
 * private roll, for a player pressing an old public button). A run that
 * starts elsewhere never answers an earlier run's number; and two runs'
 * starting points differ. */
static void
test_restart_never_reuses(void **state)
{
	struct discord_buttons *before = discord_buttons_new(4, discord_buttons_first()), *after;
	char id[DISCORD_CUSTOM_ID_MAX + 1], old[DISCORD_CUSTOM_ID_MAX + 1], line[150];
	uint64_t a = discord_buttons_first(), b = discord_buttons_first();

	(void)state;
	assert_true(a >= 1 && a <= (UINT64_C(1) << 48));
	assert_true(b >= 1 && b <= (UINT64_C(1) << 48));
	assert_true(a != b);
	long_line(line, 130, 'p');
	assert_int_equal(discord_buttons_id(before, line, DISCORD_BUTTON_NEW, old, sizeof(old)), 0);
	discord_buttons_free(before);
	after = discord_buttons_new(4, discord_buttons_first());
	long_line(line, 130, 's');
	for (int i = 0; i < 4; i++)
		assert_int_equal(
		    discord_buttons_id(after, line, DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_string_not_equal(id, old);
	assert_null(discord_buttons_action(after, old, NULL));
	assert_string_equal(discord_buttons_action(after, id, NULL), line);
	discord_buttons_free(after);
}

/* A panel's buttons say so ("p:", or "q:" for a stored line). */
static void
test_panel_buttons(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4, 1);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[150];
	enum discord_button_kind kind = DISCORD_BUTTON_NEW;

	assert_int_equal(discord_buttons_id(bs, "hazard", DISCORD_BUTTON_PANEL, id, sizeof(id)), 0);
	assert_string_equal(id, "p:hazard");
	/* Carried in the id: no store needed (a restart keeps it). */
	assert_string_equal(discord_buttons_action(NULL, id, &kind), "hazard");
	assert_int_equal(kind, DISCORD_BUTTON_PANEL);
	long_line(line, 130, 'r');
	assert_int_equal(discord_buttons_id(bs, line, DISCORD_BUTTON_PANEL, id, sizeof(id)), 0);
	assert_string_equal(id, "q:1");
	kind = DISCORD_BUTTON_NEW;
	assert_string_equal(discord_buttons_action(bs, "q:1", &kind), line);
	assert_int_equal(kind, DISCORD_BUTTON_PANEL);
	assert_null(discord_buttons_action(bs, "p:", &kind));
	assert_null(discord_buttons_action(bs, "q:2", &kind));
	assert_int_equal(discord_buttons_id(bs, "x", (enum discord_button_kind)7, id, sizeof(id)),
	                 -1);
	discord_buttons_free(bs);
}

/* Ids that are not ours are unknown. */
static void
test_foreign_ids(void **state)
{
	struct discord_buttons *bs = discord_buttons_new(4, 1);
	char id[DISCORD_CUSTOM_ID_MAX + 1], line[150];

	long_line(line, 140, 'z');
	assert_int_equal(discord_buttons_id(bs, line, DISCORD_BUTTON_NEW, id, sizeof(id)), 0);
	assert_null(discord_buttons_action(bs, "a:", NULL));
	assert_null(discord_buttons_action(bs, "b:", NULL));
	assert_null(discord_buttons_action(bs, "b:0", NULL));
	assert_null(discord_buttons_action(bs, "b:zz", NULL));
	assert_null(discord_buttons_action(bs, "b:1 ", NULL));
	assert_null(discord_buttons_action(bs, "x:1", NULL));
	assert_null(discord_buttons_action(bs, "", NULL));
	discord_buttons_free(bs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_short_line_in_id),
	    cmocka_unit_test(test_long_line_stored),
	    cmocka_unit_test(test_eviction),
	    cmocka_unit_test(test_update_buttons),
	    cmocka_unit_test(test_panel_buttons),
	    cmocka_unit_test(test_foreign_ids),
	    cmocka_unit_test(test_restart_never_reuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
