/*
 * Unit tests for /undo through the dispatcher: a mistaken kill taken back
 * by its maker with the change named; another player refused, the GM
 * allowed; commands that are not undoable leave no step; the history is
 * bounded to UNDO_STEPS, oldest dropped first; it saves and loads exactly
 * (so any store keeps it), and a damaged saved history is refused with one
 * sentence.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "commands/dispatch.h"
#include "commands/registry.h"
#include "commands/undo.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"

static struct dispatch d;
static struct reply *last;
static char text[8192];

static int
setup(void **unused)
{
	(void)unused;
	memset(&d, 0, sizeof(d));
	d.state = state_new();
	d.rng = rng_new_seeded(7);
	last = NULL;
	return 0;
}

static int
teardown(void **unused)
{
	(void)unused;
	reply_free(last);
	state_free(d.state);
	rng_free(d.rng);
	return 0;
}

/* Runs line as user in the channel "table"; its text (or error) in text. */
static const char *
run(const char *user, const char *line)
{
	struct origin o;
	struct buf b;

	memset(&o, 0, sizeof(o));
	o.platform = "console";
	snprintf(o.chan_key, sizeof(o.chan_key), "console:table");
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	reply_free(last);
	last = reply_new();
	dispatch_line(&d, &o, line, strlen(line), 0, last);
	if (reply_is_error(last)) {
		snprintf(text, sizeof(text), "%s", reply_error_text(last));
		return text;
	}
	buf_init(&b, 1 << 20);
	render_text(reply_msg(last, REPLY_CHANNEL), false, &b);
	snprintf(text, sizeof(text), "%s", buf_str(&b));
	buf_free(&b);
	return text;
}

static struct channel *
table(void)
{
	return state_channel(d.state, "console:table");
}

/* The module's saved text, or "" when it has no state (caller frees). */
static char *
mod_text(enum chanmod_id id)
{
	const void *m = channel_mod_peek(table(), id);
	cJSON *o;
	char *t;

	if (m == NULL)
		return strdup("");
	o = chanmod_table[id]->save(m);
	t = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return t;
}

static void
kill_undone_by_its_maker(void **unused)
{
	char *before, *after;

	(void)unused;
	run("gm", "/gm claim");
	run("alice", "/fungeon join Alba wizard 2");
	run("bob", "/fungeon join Brom fighter 2");
	before = mod_text(CHANMOD_FUNGEON);
	assert_non_null(strstr(run("alice", "/fungeon damage Alba 12"), "Alba dies!"));
	assert_int_equal(undo_depth(table()), 3);
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /fungeon damage Alba 12: Fungeon state is as it was "
	                    "before.\n2 more changes can be undone; the next is bob's /fungeon "
	                    "join Brom fighter 2.\n");
	after = mod_text(CHANMOD_FUNGEON);
	assert_string_equal(before, after);
	assert_int_equal(undo_depth(table()), 2);
	free(before);
	free(after);
}

static void
only_the_maker_or_the_gm(void **unused)
{
	(void)unused;
	run("gm", "/gm claim");
	run("alice", "/fungeon join Alba wizard 2");
	assert_string_equal(run("bob", "/undo"),
	                    "The last change here is alice's /fungeon join Alba wizard 2; only "
	                    "alice or the GM can undo it.");
	assert_int_equal(undo_depth(table()), 1);
	assert_string_equal(run("gm", "/undo"),
	                    "Undid alice's /fungeon join Alba wizard 2: Fungeon state is as it "
	                    "was before.\nNothing more can be undone here.\n");
	assert_null(channel_mod_peek(table(), CHANMOD_FUNGEON));
	assert_string_equal(run("alice", "/undo"),
	                    "There is nothing to undo here: no change to Tension, Fungeon or "
	                    "procedure state is kept (a channel keeps its last 10).");
}

static void
not_undoable_leaves_no_step(void **unused)
{
	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/roll 1d20");
	run("gm", "/settings compact on");
	run("gm", "/save fireball 8d6");
	run("gm", "/tension");                 /* read only */
	run("gm", "/tension raise amount:99"); /* refused: out of bounds */
	run("gm", "/fungeon damage Nobody 3"); /* refused: no such Fungeoneer */
	assert_int_equal(undo_depth(table()), 0);
	run("gm", "/gm release");
	assert_int_equal(undo_depth(table()), 0);
}

static void
history_is_bounded(void **unused)
{
	char *after2, *now;

	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/tension raise 1 # one");
	run("gm", "/tension raise 1 # two");
	after2 = mod_text(CHANMOD_TENSION);
	for (int i = 0; i < UNDO_STEPS; i++)
		run("gm", "/tension raise 1 # more ");
	assert_int_equal(undo_depth(table()), UNDO_STEPS);
	for (int i = 0; i < UNDO_STEPS; i++)
		assert_non_null(strstr(run("gm", "/undo"), "Undid gm's /tension raise 1 # more:"));
	now = mod_text(CHANMOD_TENSION);
	assert_string_equal(now, after2);
	assert_string_equal(run("gm", "/undo"),
	                    "There is nothing to undo here: no change to Tension, Fungeon or "
	                    "procedure state is kept (a channel keeps its last 10).");
	free(after2);
	free(now);
}

static void
history_saves_and_loads_exactly(void **unused)
{
	void *h;
	cJSON *o, *o2;
	char *t1, *t2, *t3, *t4, err[256];

	(void)unused;
	run("gm", "/gm claim");
	run("alice", "/fungeon join Alba wizard 2");
	run("gm", "/light add torch");
	run("gm", "/tension raise 2 # noise");
	o = undo_mod.save(channel_mod_peek(table(), CHANMOD_UNDO));
	t1 = cJSON_PrintUnformatted(o);
	h = undo_mod.create();
	assert_int_equal(undo_mod.load(h, o, err, sizeof(err)), 0);
	o2 = undo_mod.save(h);
	t2 = cJSON_PrintUnformatted(o2);
	assert_string_equal(t1, t2);
	/* The loaded history (no encodings in memory yet, as after a restart)
	 * records the next change and undoes like the one it came from. */
	channel_mod_set(table(), CHANMOD_UNDO, h);
	t3 = mod_text(CHANMOD_TENSION);
	run("gm", "/tension raise 1 # door");
	assert_int_equal(undo_depth(table()), 4);
	assert_non_null(strstr(run("gm", "/undo"), "Undid gm's /tension raise 1 # door:"));
	t4 = mod_text(CHANMOD_TENSION);
	assert_string_equal(t3, t4);
	assert_string_equal(run("gm", "/undo"),
	                    "Undid gm's /tension raise 2 # noise: Tension state is as it was "
	                    "before.\n2 more changes can be undone; the next is gm's /light add "
	                    "torch.\n");
	cJSON_Delete(o);
	cJSON_Delete(o2);
	free(t1);
	free(t2);
	free(t3);
	free(t4);
}

static void
damaged_history_is_refused(void **unused)
{
	static const struct {
		const char *json, *want;
	} bad[] = {
	    {"{}", "The undo history's \"steps\" is not an array of at most 10."},
	    {"{\"steps\":[1]}", "An undo step is not an object."},
	    {"{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\",\"mods\":{}}]"
	     "}",
	     "An undo step restores no module."},
	    {"{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\",\"mods\":{"
	     "\"roll\":null}}]}",
	     "An undo step names module \"roll\" that is unknown or repeated; allowed once each: "
	     "tension, fungeon, procedure."},
	    {"{\"steps\":[{\"who\":\"a\",\"name\":\"a\",\"path\":\"x\",\"args\":\"\",\"mods\":{"
	     "\"tension\":3}}]}",
	     "An undo step's \"tension\" is neither a string nor null."},
	    {"{\"steps\":[{\"who\":\"a\",\"path\":\"x\",\"args\":\"\",\"mods\":{\"tension\":null}}]"
	     "}",
	     "An undo step's \"name\" is not a UTF-8 string of at most 63 bytes."},
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *o = cJSON_Parse(bad[i].json);
		void *h = undo_mod.create();
		char err[256] = "";

		assert_non_null(o);
		assert_int_equal(undo_mod.load(h, o, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i].want);
		undo_mod.destroy(h);
		cJSON_Delete(o);
	}
}

static void
unreadable_step_is_refused(void **unused)
{
	cJSON *o = cJSON_Parse("{\"steps\":[{\"who\":\"console:gm\",\"name\":\"gm\",\"path\":"
	                       "\"tension raise\",\"args\":\"2\","
	                       "\"mods\":{\"tension\":\"not json\"}}]}");
	void *h = undo_mod.create();
	char err[256];

	(void)unused;
	assert_int_equal(undo_mod.load(h, o, err, sizeof(err)), 0);
	channel_mod_set(table(), CHANMOD_UNDO, h);
	assert_string_equal(
	    run("gm", "/undo"),
	    "gm's /tension raise 2 cannot be undone: its saved Tension state is not JSON");
	cJSON_Delete(o);
}

/* A Discord invocation (bound options, no typed line) is named by its
 * options as name:value. */
static void
bound_invocation_named_by_options(void **unused)
{
	static const char *const names[] = {"damage", NULL};
	struct invocation inv;
	struct origin o;
	struct reply *r = reply_new();

	(void)unused;
	run("alice", "/fungeon join Alba wizard 2");
	memset(&inv, 0, sizeof(inv));
	memset(&o, 0, sizeof(o));
	o.platform = "discord";
	snprintf(o.chan_key, sizeof(o.chan_key), "console:table");
	snprintf(o.user_key, sizeof(o.user_key), "console:alice");
	snprintf(o.user_name, sizeof(o.user_name), "alice");
	inv.path[0] = registry_find("fungeon", 7);
	assert_int_equal(registry_select(&inv, names, r), 0);
	assert_int_equal(registry_bind(&inv, "who", "Alba", r), 0);
	assert_int_equal(registry_bind(&inv, "n", "3", r), 0);
	assert_int_equal(registry_check_required(&inv, r), 0);
	dispatch_invocation(&d, &o, &inv, 0, r);
	assert_false(reply_is_error(r));
	reply_free(r);
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /fungeon damage who:Alba n:3: Fungeon state is as "
	                    "it was before.\n1 more change can be undone; the next is alice's "
	                    "/fungeon join Alba wizard 2.\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(kill_undone_by_its_maker, setup, teardown),
	    cmocka_unit_test_setup_teardown(only_the_maker_or_the_gm, setup, teardown),
	    cmocka_unit_test_setup_teardown(not_undoable_leaves_no_step, setup, teardown),
	    cmocka_unit_test_setup_teardown(history_is_bounded, setup, teardown),
	    cmocka_unit_test_setup_teardown(history_saves_and_loads_exactly, setup, teardown),
	    cmocka_unit_test_setup_teardown(damaged_history_is_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(unreadable_step_is_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(bound_invocation_named_by_options, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
