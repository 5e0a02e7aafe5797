/*
 * Unit tests for /undo through the dispatcher: a mistaken kill taken back
 * by its maker with the change named; another player refused, the GM
 * allowed; commands that are not undoable leave no step; every command
 * marked read_only (no undo encoding) leaves the records' bytes as they
 * were, run by the GM and by a player on a channel where every module holds
 * state, so the mark cannot lie; the history is
 * bounded to UNDO_STEPS, oldest dropped first; it saves and loads exactly
 * (so any store keeps it), and a damaged saved history is refused with one
 * sentence. Steps are kept as deltas (undo_delta.h): they round-trip on
 * edge cases, a version-2 record's whole encodings migrate to deltas that
 * undo exactly as before, and a channel with Tension and ten changes holds
 * under 2 KB with its history.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "bot/store/crc32.h"
#include "bot/store/store_record.h"
#include "commands/core/dispatch.h"
#include "commands/core/registry.h"
#include "commands/core/registry_parse.h"
#include "commands/core/undo.h"
#include "commands/panel/panel_state.h"
#include "commands/core/undo_delta.h"
#include "commands/core/undo_hist.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdrun.h"

static char text[8192];

CMDRUN_FIXTURE(7)

/* Runs line as user in the channel chan; its text (or error) in text. */
static const char *
run_at(const char *chan, const char *user, const char *line)
{
	struct buf b;

	cmdrun_line(&cr, chan, user, line, 0);
	if (reply_is_error(cr.last)) {
		snprintf(text, sizeof(text), "%s", reply_error_text(cr.last));
		return text;
	}
	buf_init(&b, 1 << 20);
	render_text(reply_msg(cr.last, REPLY_CHANNEL), false, &b);
	snprintf(text, sizeof(text), "%s", buf_str(&b));
	buf_free(&b);
	return text;
}

/* Runs line as user in the channel "table". */
static const char *
run(const char *user, const char *line)
{
	return run_at("table", user, line);
}

static struct channel *
table(void)
{
	return state_channel(cr.st, "console:table");
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

/* The record of the channel "table", or of the user, as the store writes
 * it (caller frees). */
static char *
record_text(const char *user)
{
	struct store_record r;
	struct buf b;
	char key[KEY_MAX], *t;

	memset(&r, 0, sizeof(r));
	if (user == NULL) {
		store_record_of_channel(&r, table());
	} else {
		snprintf(key, sizeof(key), "console:%s", user);
		store_record_of_user(&r, state_user(cr.st, key));
	}
	buf_init(&b, 1 << 20);
	assert_int_equal(store_record_encode(&r, store_record_builtin_mods(), &b), 0);
	t = strdup(buf_str(&b));
	buf_free(&b);
	return t;
}

/* Lines to run for read-only commands besides the bare command (which runs
 * too unless an option is required): every required option given, and the
 * options that choose another branch. */
static const struct {
	const char *path, *args;
} read_only_examples[] = {
    {"fungeon cost trap", "annoy 2 pain 3 type spikes"},
    {"fungeon cost monster", "level 2 ability stab annoy 1 pain 1 type blade"},
    {"fungeon cost treasure", "fancy value 1"},
    {"fungeon sheet", "Brom"},
    {"tension table show", "effects"},
    {"xp", "level:4"},
    {"procedure", "delving"},
    {"procedure", "rooms"},
    {"table show", "loot"},
    {"surprise", "n:3 mod:2 monsters:2 forced:true"},
    {"encumbrance", "2 120"},
    {"saved show", "fireball"},
    {"saved show", "volley"},
    {"help", "fungeon"},
};

/* Runs line as "gm" (the GM) and as "bob" (a player) and checks that the
 * channel's and both users' records are byte for byte what they were.
 * Returns how many of the two runs were answered without an error. */
static int
unchanged_by(const char *line)
{
	static const char *const users[] = {"gm", "bob"};
	int runs = 0;

	for (size_t u = 0; u < 2; u++) {
		char *chan = record_text(NULL), *gm = record_text("gm"), *bob = record_text("bob");
		char *chan2, *gm2, *bob2;

		run(users[u], line);
		runs += !reply_is_error(cr.last);
		chan2 = record_text(NULL);
		gm2 = record_text("gm");
		bob2 = record_text("bob");
		if (strcmp(chan, chan2) != 0 || strcmp(gm, gm2) != 0 || strcmp(bob, bob2) != 0)
			fail_msg("%s as %s is marked read_only but changed a record:\n%s%s%s%s%s%s",
			         line, users[u], chan, chan2, gm, gm2, bob, bob2);
		free(chan);
		free(gm);
		free(bob);
		free(chan2);
		free(gm2);
		free(bob2);
	}
	return runs;
}

/* Runs every read_only command under c (path so far in path) bare and with
 * its examples, each of which must be answered without an error at least
 * once; counts the commands in *cmds and the runs answered in *runs. */
static void
walk_read_only(const struct command *c, const char *path, int *cmds, int *runs)
{
	char here[UNDO_PATH_MAX], line[CMD_LINE_MAX];
	bool required = false;
	int ok = 0;

	snprintf(here, sizeof(here), "%s%s%s", path, path[0] != '\0' ? " " : "", c->name);
	for (const struct command *s = c->subs; s != NULL && s->name != NULL; s++)
		walk_read_only(s, here, cmds, runs);
	if (c->fn == NULL || !c->read_only)
		return;
	(*cmds)++;
	for (size_t i = 0; c->opts != NULL && c->opts[i].name != NULL; i++)
		required |= (c->opts[i].flags & OPT_REQUIRED) != 0;
	if (!required) {
		snprintf(line, sizeof(line), "/%s", here);
		ok += unchanged_by(line);
	}
	for (size_t i = 0; i < sizeof(read_only_examples) / sizeof(read_only_examples[0]); i++) {
		if (strcmp(read_only_examples[i].path, here) != 0)
			continue;
		snprintf(line, sizeof(line), "/%s %s", here, read_only_examples[i].args);
		ok += unchanged_by(line);
	}
	if (ok == 0)
		fail_msg("/%s is read_only but never ran without an error: give it an example "
		         "in read_only_examples",
		         here);
	*runs += ok;
}

/* A command marked read_only (registry.h) skips the undo encoding, so the
 * mark must be true: each one, run on a channel where every module holds
 * state, leaves the records exactly as they were. */
static void
read_only_commands_change_nothing(void **unused)
{
	int cmds = 0, runs = 0;

	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/tension raise combat");
	run("gm", "/tension strike 9-12");
	run("gm", "/fungeon join Alba wizard 2");
	run("gm", "/fungeon hallway"); /* alone: the GM holds every category */
	run("bob", "/fungeon join Brom fighter");
	run("gm", "/fungeon trap add pit annoy 2 pain 3 type spikes");
	run("gm", "/fungeon monster add goblin level 2");
	run("gm", "/fungeon treasure add gem mundane value 1");
	run("gm", "/fungeon enter");
	run("gm", "/hazard table delving");
	run("gm", "/turn advance");
	run("gm", "/light add torch");
	run("gm", "/settings compact on");
	run("gm", "/table set loot 1-3: a rat; 4-6: [[gems]]");
	run("bob", "/roll 1d20");
	run("bob", "/thwacko style red");
	run("bob", "/save fireball 8d6");
	run("gm", "/save volley 3d6 channel:true");
	/* A panel's message is recorded by a transport, never typed. */
	panel_state_set(table(), "1380000000000000042", NULL);
	for (int i = 0; i < CHANMOD_COUNT; i++)
		if (chanmod_table[i] != NULL)
			assert_non_null(channel_mod_peek(table(), (enum chanmod_id)i));
	for (size_t i = 0; command_table[i] != NULL; i++)
		walk_read_only(command_table[i], "", &cmds, &runs);
	assert_int_equal(cmds, 29);
	/* Two users each for 26 bare lines (encumbrance, saved show and table
	 * show need options) and 14 examples, less the 5 refusals expected: a bare cost
	 * for a trap or a monster (no design, 4) and bob's saved roll asked for
	 * by the GM (1). */
	assert_int_equal(runs, 2 * (26 + 14) - 5);
	assert_int_equal(undo_depth(table()), 10);
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
	assert_non_null(strstr(run("alice", "/fungeon adjust Alba hits:-12"), "Alba dies!"));
	assert_int_equal(undo_depth(table()), 3);
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /fungeon adjust Alba hits:-12: Fungeon state is as it "
	                    "was before.\n2 more changes can be undone; the next is bob's /fungeon "
	                    "join Brom fighter 2.\n");
	after = mod_text(CHANMOD_FUNGEON);
	assert_string_equal(before, after);
	assert_int_equal(undo_depth(table()), 2);
	free(before);
	free(after);
}

/* An adjustment that would leave the hits as they are is refused and
 * leaves no step to undo. */
static void
adjust_to_the_same_hits_refused(void **unused)
{
	(void)unused;
	run("alice", "/fungeon join Alba wizard 2");
	assert_string_equal(run("alice", "/fungeon adjust Alba hits:+5"),
	                    "Alba's hits are already 10 of 10; nothing changed.");
	assert_int_equal(undo_depth(table()), 1);
}

/* XP and hits adjusted at once, the hits at full: the reply says what
 * changed (the XP) and neither shows the hits going from 10 to 10 nor
 * reminds how hits come back. */
static void
adjust_shows_only_what_changed(void **unused)
{
	(void)unused;
	run("alice", "/fungeon join Alba wizard 2");
	assert_string_equal(run("alice", "/fungeon adjust Alba hits:+5 xp:+3"),
	                    "Adjusted by hand, outside the rules (/undo takes back a mistake):\n"
	                    "Alba's XP 0 → 3.\n");
	assert_int_equal(undo_depth(table()), 2);
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
	assert_string_equal(
	    run("alice", "/undo"),
	    "There is nothing to undo here: no change to Tension, Fungeon, the "
	    "procedure or the channel's tables is kept (a channel keeps its last 10).");
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
	assert_string_equal(
	    run("gm", "/undo"),
	    "There is nothing to undo here: no change to Tension, Fungeon, the "
	    "procedure or the channel's tables is kept (a channel keeps its last 10).");
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

/* Runs the bound invocation of cmd, its subcommands names (NULL-ended) and
 * the options binds names and values, as user on Discord in the test
 * channel. */
static void
run_bound(const char *user, const char *cmd, const char *const *names, const char *const binds[][2],
          size_t nbinds)
{
	struct invocation inv;
	struct origin o;
	struct reply *r = reply_new();

	memset(&inv, 0, sizeof(inv));
	memset(&o, 0, sizeof(o));
	o.platform = "discord";
	snprintf(o.chan_key, sizeof(o.chan_key), "console:table");
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	inv.path[0] = registry_find(cmd, strlen(cmd));
	assert_int_equal(registry_parse_select(&inv, names, r), 0);
	for (size_t i = 0; i < nbinds; i++)
		assert_int_equal(registry_parse_bind(&inv, binds[i][0], binds[i][1], r), 0);
	assert_int_equal(registry_parse_check_required(&inv, r), 0);
	dispatch_invocation(cr.d, &o, &inv, 0, r);
	assert_false(reply_is_error(r));
	reply_free(r);
}

/* A Discord invocation (bound options, no typed line) is named by its
 * options as name:value. */
static void
bound_invocation_named_by_options(void **unused)
{
	(void)unused;
	run("alice", "/fungeon join Alba wizard 2");
	run_bound("alice", "fungeon", (const char *const[]){"adjust", NULL},
	          (const char *const[][2]){{"who", "Alba"}, {"hits", "-3"}}, 2);
	assert_string_equal(run("alice", "/undo"),
	                    "Undid alice's /fungeon adjust who:Alba hits:-3: Fungeon state is as "
	                    "it was before.\n1 more change can be undone; the next is alice's "
	                    "/fungeon join Alba wizard 2.\n");
}

/* A copy found away from where the last one ended is this long at least
 * (commands/core/undo_delta.c). */
#define BLOCK_MIN 8

/* Makes the delta of prev against next, checks that it rebuilds prev from
 * next (also after its saved form is read back) and that it keeps at most
 * max_ops bytes of operations. */
static void
round_trip(const char *prev, const char *next, size_t max_ops)
{
	struct undo_delta dl, back;
	char *out, err[256];
	size_t len;
	cJSON *o;

	undo_delta_make(prev, strlen(prev), next, strlen(next), &dl);
	assert_in_range(dl.ops_len, 0, max_ops);
	assert_int_equal(undo_delta_apply(&dl, next, strlen(next), &out, &len), 0);
	assert_int_equal(len, strlen(prev));
	assert_string_equal(out, prev);
	free(out);
	o = undo_delta_save(&dl);
	assert_int_equal(undo_delta_load(o, "tension", &back, err, sizeof(err)), 0);
	assert_int_equal(back.ops_len, dl.ops_len);
	assert_memory_equal(back.ops, dl.ops, dl.ops_len);
	assert_int_equal(undo_delta_apply(&back, next, strlen(next), &out, &len), 0);
	assert_string_equal(out, prev);
	free(out);
	cJSON_Delete(o);
	undo_delta_free(&back);
	undo_delta_free(&dl);
}

/* Deltas of encodings that differ by a few edits anywhere (a byte
 * changed, an entry added or dropped at the start, in the middle or at the
 * end, a run moved) rebuild the earlier encoding, and a delta whose
 * encodings share their start and their end keeps those as one copy
 * each. */
static void
delta_round_trips_on_random_edits(void **unused)
{
	static char prev[3000], next[3200];
	unsigned seed = 11;

	(void)unused;
	for (int round = 0; round < 3000; round++) {
		size_t plen, nlen = 0, at, cut, add;
		struct undo_delta dl;
		char *out;
		size_t len;

		seed = seed * 1103515245u + 12345u;
		plen = (seed >> 8) % 2000;
		for (size_t i = 0; i < plen; i++) {
			seed = seed * 1103515245u + 12345u;
			prev[i] = "{}[]\",:abcdefgh0123"[(seed >> 16) % 20];
		}
		prev[plen] = '\0';
		seed = seed * 1103515245u + 12345u;
		at = plen > 0 ? (seed >> 8) % plen : 0;
		cut = plen - at > 0 ? (seed >> 4) % (plen - at + 1) % 200 : 0;
		add = (seed >> 20) % 200;
		memcpy(next, prev, at);
		nlen = at;
		for (size_t i = 0; i < add; i++)
			next[nlen++] = (char)('A' + (i * 7 + (size_t)round) % 26);
		memcpy(next + nlen, prev + at + cut, plen - at - cut);
		nlen += plen - at - cut;
		next[nlen] = '\0';
		undo_delta_make(prev, plen, next, nlen, &dl);
		assert_int_equal(undo_delta_apply(&dl, next, nlen, &out, &len), 0);
		assert_int_equal(len, plen);
		assert_memory_equal(out, prev, plen);
		free(out);
		/* a start and an end in common, an edit between: at most a
		 * copy, the cut bytes, a copy */
		if (add == 0 && at > 0 && at + cut < plen)
			assert_in_range(dl.ops_len, 1, cut + 3 * 2 + 3 * 3 + 3);
		undo_delta_free(&dl);
		round_trip(prev, next, plen + 3 * (plen / BLOCK_MIN + 2));
	}
}

/* FNV-1a of s, a byte at a time: the sum a saved delta holds. */
static uint32_t
fnv1a(const void *s, size_t len, uint32_t h)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ ((const unsigned char *)s)[i]) * 16777619u;
	return h;
}

/* Saved deltas are read back by later builds: the same two encodings make
 * the same operations and sum in every build. The sum is FNV-1a (its
 * published values, and every length against the byte-at-a-time form);
 * the operations and sums of 2,000 edits with common ends of every
 * length, as one pinned digest. */
static void
delta_bytes_stay_the_same(void **unused)
{
	static const char js[] = "{\"value\":3,\"history\":[{\"kind\":\"a\"}]}";
	static char prev[600], next[700];
	unsigned seed = 5;
	uint32_t digest = 2166136261u;

	(void)unused;
	assert_int_equal(undo_delta_sum("", 0), 0x811c9dc5u);
	assert_int_equal(undo_delta_sum("a", 1), 0xe40c292cu);
	assert_int_equal(undo_delta_sum("foobar", 6), 0xbf9cf968u);
	for (size_t n = 0; n < sizeof(js); n++) /* every length, to its NUL */
		assert_int_equal(undo_delta_sum(js, n), fnv1a(js, n, 2166136261u));
	for (int round = 0; round < 2000; round++) {
		size_t plen, nlen, at, cut, add;
		struct undo_delta dl;

		seed = seed * 1103515245u + 12345u;
		plen = (seed >> 8) % 500;
		for (size_t i = 0; i < plen; i++) {
			seed = seed * 1103515245u + 12345u;
			prev[i] = "{}[]\",:abcdefgh0123"[(seed >> 16) % 20];
		}
		seed = seed * 1103515245u + 12345u;
		at = plen > 0 ? (seed >> 8) % plen : 0;
		cut = (seed >> 4) % (plen - at + 1) % 24;
		add = (seed >> 20) % 24;
		memcpy(next, prev, at);
		nlen = at;
		for (size_t i = 0; i < add; i++)
			next[nlen++] = "{}[]\",:abcdefgh0123"[(i * 7 + (size_t)round) % 20];
		memcpy(next + nlen, prev + at + cut, plen - at - cut);
		nlen += plen - at - cut;
		undo_delta_make(prev, plen, next, nlen, &dl);
		digest = fnv1a(dl.ops, dl.ops_len, digest);
		for (int k = 0; k < 4; k++)
			digest = fnv1a(&(uint8_t){(uint8_t)(dl.sum >> (8 * k))}, 1, digest);
		undo_delta_free(&dl);
	}
	assert_int_equal(digest, 0x6a6af10bu);
}

/* The same for edits that move text, where the delta finds prev's bytes in
 * next through its index of next's blocks (pinned from the code that built
 * that index before every delta): texts of entries drawn from a few (so
 * blocks repeat and share buckets), of up to 4,000 bytes (every index
 * size), and next made from prev by dropping its first entries and
 * appending others (a full Tension history), swapping two entries, or
 * changing bytes in place, alone or together. */
static void
delta_bytes_stay_the_same_when_text_moves(void **unused)
{
	static const char *const entry[] = {
	    "{\"kind\":\"adjust\",\"from\":4,\"to\":5,\"amount\":1,\"reason\":\"door\"}",
	    "{\"kind\":\"set\",\"from\":5,\"to\":9,\"amount\":4}",
	    "{\"kind\":\"reset\",\"from\":9,\"to\":1}",
	    "abcdefgh",
	    "{\"kind\":\"adjust\",\"from\":1,\"to\":2,\"amount\":1,\"reason\":\"noise\"}",
	    "0123",
	};
	static char prev[4400], next[4800];
	size_t nentries = sizeof(entry) / sizeof(entry[0]);
	unsigned seed = 7;
	uint32_t digest = 2166136261u;

	(void)unused;
	for (int round = 0; round < 1500; round++) {
		size_t plen = 0, nlen = 0, k, pick[80], len[80], how;
		struct undo_delta dl;

		seed = seed * 1103515245u + 12345u;
		k = (seed >> 8) % 80 + 1;
		for (size_t i = 0; i < k; i++) {
			seed = seed * 1103515245u + 12345u;
			pick[i] = (seed >> 16) % nentries;
			len[i] = strlen(entry[pick[i]]);
			memcpy(prev + plen, entry[pick[i]], len[i]);
			plen += len[i];
		}
		seed = seed * 1103515245u + 12345u;
		how = (seed >> 8) % 8;
		if (how & 1) { /* the first entries dropped, others appended */
			size_t drop = (seed >> 12) % 3 < k ? (seed >> 12) % 3 : 0, off = 0;

			for (size_t i = 0; i < drop; i++)
				off += len[i];
			memcpy(next, prev + off, plen - off);
			nlen = plen - off;
			for (size_t i = 0; i <= (seed >> 16) % 3; i++) {
				memcpy(next + nlen, entry[(i + (size_t)round) % nentries],
				       strlen(entry[(i + (size_t)round) % nentries]));
				nlen += strlen(entry[(i + (size_t)round) % nentries]);
			}
		} else {
			memcpy(next, prev, plen);
			nlen = plen;
		}
		if ((how & 2) && k >= 2) { /* two entries swapped, of prev's order */
			size_t a = (seed >> 4) % k, b = (seed >> 20) % k, oa = 0, ob = 0;

			if (a > b) {
				size_t t = a;

				a = b;
				b = t;
			}
			for (size_t i = 0; i < a; i++)
				oa += len[i];
			for (size_t i = 0; i < b; i++)
				ob += len[i];
			if (a != b && ob + len[b] <= nlen) {
				char tmp[4800];
				size_t mid = ob - oa - len[a];

				memcpy(tmp, next + oa, ob + len[b] - oa);
				memcpy(next + oa, tmp + (ob - oa), len[b]);
				memcpy(next + oa + len[b], tmp + len[a], mid);
				memcpy(next + oa + len[b] + mid, tmp, len[a]);
			}
		}
		if ((how & 4) && nlen > 0) /* bytes changed in place */
			for (int i = 0; i < 3; i++) {
				seed = seed * 1103515245u + 12345u;
				next[(seed >> 8) % nlen] = (char)('A' + (seed >> 20) % 26);
			}
		undo_delta_make(prev, plen, next, nlen, &dl);
		digest = fnv1a(dl.ops, dl.ops_len, digest);
		digest = fnv1a(&(uint32_t){(uint32_t)dl.ops_len}, 4, digest);
		undo_delta_free(&dl);
	}
	assert_int_equal(digest, 0xa3312238u);
}

/* The saved history, byte for byte, as the code wrote it before its
 * texts were walked once a step (pinned: length and FNV-1a sum): steps of
 * two makers, quotes and a backslash in what was typed, a step made behind
 * the screen, one that rolled dice, the GM's screen the maker's own and
 * another's, a module with no state before; with Tension's mode once
 * each was made, as written since. */
static void
history_bytes_stay_the_same(void **unused)
{
	static const char *const lines[][2] = {
	    {"gm", "/gm claim"},
	    {"gm", "/tension raise 2 # noise \"at the door\" \\ twice"},
	    {"alice", "/fungeon join Alba wizard 2"},
	    {"gm", "/light add torch"},
	    {"gm", "/tension mode hidden"},
	    {"gm", "/tension raise 3 # behind the screen"},
	    {"gm", "/hazard roll"},
	    {"alice", "/light add lantern"},
	    {"gm", "/tension set 5"},
	};
	struct buf b;

	(void)unused;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		run(lines[i][0], lines[i][1]);
	buf_init(&b, 1 << 20);
	assert_int_equal(undo_mod.write(channel_mod_peek(table(), CHANMOD_UNDO), &b), 0);
	assert_int_equal(undo_depth(table()), 8);
	/* Each step now says whether Tension was open once it was made: 3
	 * steps before /tension mode hidden, 5 from it on; and the 4 that
	 * changed neither Tension nor the tables, with nothing for one reader
	 * alone, that the channel read all of them. Without those the bytes
	 * are as pinned. */
	assert_int_equal(b.len, 1504 + 3 * 12 + 5 * 13 + 4 * 14);
	for (int k = 0; k < 3; k++) {
		static const char *const keys[] = {",\"open\":true", ",\"open\":false",
		                                   ",\"public\":true"};
		const char *key = keys[k];
		size_t klen = strlen(key);
		char *at;

		while ((at = memmem(b.p, b.len, key, klen)) != NULL) {
			memmove(at, at + klen, b.len - (size_t)(at - b.p) - klen);
			b.len -= klen;
		}
	}
	assert_int_equal(b.len, 1504);
	assert_int_equal(fnv1a(b.p, b.len, 2166136261u), 0x249956a4u);
	buf_free(&b);
}

/* Writes head, then unit times times, then tail into out (size bytes). */
static void
repeat(char *out, size_t size, const char *head, const char *unit, int times, const char *tail)
{
	size_t n = (size_t)snprintf(out, size, "%s", head);

	for (int i = 0; i < times; i++)
		n += (size_t)snprintf(out + n, size - n, "%s", unit);
	snprintf(out + n, size - n, "%s", tail);
}

/* What a step says was run (its command path and values), as the code
 * wrote it with snprintf (pinned: printed by that code): a typed line's
 * values with the blanks around them dropped, one cut at 160 bytes between
 * characters with "...", and bound invocations' name:value pairs with a
 * whole number, a flag and text, one cut the same way. */
static void
step_texts_stay_the_same(void **unused)
{
	char line[400], table_text[400], typed_cut[200], bound_cut[200];
	const char *const want[][2] = {
	    {"tension set", "8   # the bell tolls"},
	    {"tension table set", typed_cut},
	    {"tension raise", "event:door"},
	    {"tension raise", "reason:a draft amount:3"},
	    {"tension table set", bound_cut},
	    {"fungeon join", "Alba wizard 2"},
	    {"fungeon hallway", ""},
	    {"fungeon enter", "waive:true"},
	};
	const struct undo_hist *h;

	(void)unused;
	run("gm", "/gm claim");
	run("gm", "/tension set 8   # the bell tolls  ");
	repeat(line, sizeof(line), "/tension table set effects 1-20 ",
	       "\xc3\xa9"
	       "a",
	       50, " ");
	run("gm", line);
	run_bound("gm", "tension", (const char *const[]){"raise", NULL},
	          (const char *const[][2]){{"event", "door"}}, 1);
	run_bound("gm", "tension", (const char *const[]){"raise", NULL},
	          (const char *const[][2]){{"amount", "3"}, {"reason", "a draft"}}, 2);
	repeat(table_text, sizeof(table_text), "1-10 ", "ab\xe2\x82\xac", 30, "; 11-20 orcs");
	run_bound("gm", "tension", (const char *const[]){"table", "set", NULL},
	          (const char *const[][2]){{"kind", "encounter"}, {"text", table_text}}, 2);
	run("gm", "/fungeon join Alba wizard 2");
	run("gm", "/fungeon hallway");
	run_bound("gm", "fungeon", (const char *const[]){"enter", NULL},
	          (const char *const[][2]){{"waive", "true"}}, 1);
	/* 13 + 47 * 3 + 2 + 3 = 159 bytes; 25 + 26 * 5 + 1 + 3 = 159 bytes */
	repeat(typed_cut, sizeof(typed_cut), "effects 1-20 ",
	       "\xc3\xa9"
	       "a",
	       47, "\xc3\xa9...");
	repeat(bound_cut, sizeof(bound_cut), "kind:encounter text:1-10 ", "ab\xe2\x82\xac", 26,
	       "a...");
	h = channel_mod_peek(table(), CHANMOD_UNDO);
	assert_int_equal(undo_hist_count(h), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < undo_hist_count(h); i++) {
		const struct undo_step *st = undo_hist_step(h, i);

		assert_string_equal(undo_step_text(st, UNDO_PATH), want[i][0]);
		assert_string_equal(undo_step_text(st, UNDO_ARGS), want[i][1]);
	}
}

static void
delta_round_trips_on_edge_cases(void **unused)
{
	static const char json[] = "{\"value\":3,\"history\":[{\"kind\":\"adjust\",\"reason\":"
	                           "\"normal combat\"}],\"mode\":\"open\"}";
	static const char json2[] = "{\"value\":4,\"history\":[{\"kind\":\"adjust\",\"reason\":"
	                            "\"normal combat\"},{\"kind\":\"adjust\",\"reason\":\"door\"}],"
	                            "\"mode\":\"open\"}";
	struct undo_delta dl;
	char *out = NULL;
	size_t len;

	(void)unused;
	round_trip(json, json, 4);              /* equal: one copy */
	round_trip("", "", 0);                  /* both empty: nothing */
	round_trip("", json, 0);                /* empty before */
	round_trip(json, "", sizeof(json) + 1); /* empty after: all of it once, 2 bytes of header */
	round_trip("abcdefgh", "ABCDEFGH", 10); /* all different */
	round_trip("aa", "aaa", 3);             /* prefix and suffix overlap */
	round_trip("aaa", "aa", 4);
	round_trip("abab", "ab", 6);
	round_trip("xaaaaaaaaaaaay", "xaaaaaaaaaaaaaaaaaaay", 12);
	round_trip(json, json2, 12); /* a number and an added entry: two changes */
	round_trip(json2, json, 30); /* the entry was taken away: copies and a few bytes */

	/* An encoding other than the one it was made against is refused. */
	undo_delta_make(json, strlen(json), json2, strlen(json2), &dl);
	assert_int_equal(undo_delta_apply(&dl, json, strlen(json), &out, &len), -1);
	assert_null(out);
	{
		char other[sizeof(json2)];

		memcpy(other, json2, sizeof(json2));
		other[9] = '5'; /* same length, one byte changed */
		assert_int_equal(undo_delta_apply(&dl, other, strlen(other), &out, &len), -1);
		assert_null(out);
	}
	undo_delta_free(&dl);
}

static void
damaged_delta_is_refused(void **unused)
{
	static const char *const bad[] = {
	    "{\"after\":5,\"sum\":1,\"ops\":[[3,3]]}", /* past after */
	    "{\"after\":5,\"sum\":1,\"ops\":[[0,0]]}", /* empty copy */
	    "{\"after\":5,\"sum\":1,\"ops\":[\"\"]}",  /* empty literal */
	    "{\"after\":5,\"sum\":-1,\"ops\":[]}",
	    "{\"after\":5,\"ops\":[]}",
	    "{\"after\":5,\"sum\":1,\"ops\":[[0,1,2]]}",
	    "{\"after\":5,\"sum\":1,\"ops\":[3]}",
	    "[]",
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *o = cJSON_Parse(bad[i]);
		struct undo_delta dl;
		char err[256] = "";

		assert_non_null(o);
		assert_int_equal(undo_delta_load(o, "tension", &dl, err, sizeof(err)), -1);
		assert_string_equal(err, "An undo step's \"tension\" is neither null nor a delta "
		                         "{\"after\", \"sum\", \"ops\"} whose ops are non-empty "
		                         "strings and [offset, length] pairs within after.");
		cJSON_Delete(o);
	}
}

/* A step whose delta was made against another Tension state than the
 * channel's (the state changed outside the history) is refused, and
 * nothing changes. */
static void
delta_for_another_state_is_refused(void **unused)
{
	cJSON *o = cJSON_Parse("{\"steps\":[{\"who\":\"console:gm\",\"name\":\"gm\",\"path\":"
	                       "\"tension raise\",\"args\":\"2\",\"deltas\":{\"tension\":{"
	                       "\"after\":3,\"sum\":7,\"ops\":[[0,3]]}}}]}");
	void *h = undo_mod.create();
	char err[256], *before, *after;

	(void)unused;
	run("gm", "/tension raise 1 # door");
	assert_int_equal(undo_mod.load(h, o, err, sizeof(err)), 0);
	channel_mod_set(table(), CHANMOD_UNDO, h);
	before = mod_text(CHANMOD_TENSION);
	assert_string_equal(run("gm", "/undo"),
	                    "gm's /tension raise 2 cannot be undone: its saved Tension change "
	                    "does not fit the current Tension state");
	after = mod_text(CHANMOD_TENSION);
	assert_string_equal(before, after);
	assert_int_equal(undo_depth(table()), 1);
	free(before);
	free(after);
	cJSON_Delete(o);
}

#define CHANNELS 2000

/* A channel with Tension and ten undoable changes, driven through
 * dispatch, holds under 2 KB, its undo history included. */
static void
memory_follows_content(void **unused)
{
	static const char *const lines[] = {"/gm claim",
	                                    "/tension raise combat",
	                                    "/tension raise door",
	                                    "/tension lower trap",
	                                    "/tension raise amount:1 reason:\"the party argued\"",
	                                    "/tension raise combat",
	                                    "/tension lower secret",
	                                    "/tension set 4",
	                                    "/tension raise door",
	                                    "/tension raise quiet-combat",
	                                    "/tension reset",
	                                    NULL};
	struct mallinfo2 m0, m1;
	char chan[32];

	(void)unused;
	for (size_t i = 0; lines[i] != NULL; i++) /* the user record */
		run_at("warm", "gm", lines[i]);
	m0 = mallinfo2();
	for (int c = 0; c < CHANNELS; c++) {
		snprintf(chan, sizeof(chan), "c%d", c);
		for (size_t i = 0; lines[i] != NULL; i++)
			run_at(chan, "gm", lines[i]);
	}
	reply_free(cr.last);
	cr.last = NULL;
	m1 = mallinfo2();
	assert_int_equal(undo_depth(state_channel(cr.st, "console:c99")), 10);
	if (m1.uordblks == m0.uordblks)
		skip(); /* a sanitizer's allocator: mallinfo2 does not see it */
	print_message("%zu bytes per channel\n", (m1.uordblks - m0.uordblks) / CHANNELS);
	assert_in_range((m1.uordblks - m0.uordblks) / CHANNELS, 1, 2047);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(kill_undone_by_its_maker, setup, teardown),
	    cmocka_unit_test_setup_teardown(adjust_to_the_same_hits_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(adjust_shows_only_what_changed, setup, teardown),
	    cmocka_unit_test_setup_teardown(only_the_maker_or_the_gm, setup, teardown),
	    cmocka_unit_test_setup_teardown(not_undoable_leaves_no_step, setup, teardown),
	    cmocka_unit_test_setup_teardown(read_only_commands_change_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(history_is_bounded, setup, teardown),
	    cmocka_unit_test_setup_teardown(history_saves_and_loads_exactly, setup, teardown),
	    cmocka_unit_test_setup_teardown(damaged_history_is_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(unreadable_step_is_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(bound_invocation_named_by_options, setup, teardown),
	    cmocka_unit_test(delta_round_trips_on_edge_cases),
	    cmocka_unit_test(damaged_delta_is_refused),
	    cmocka_unit_test_setup_teardown(delta_for_another_state_is_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(memory_follows_content, setup, teardown),
	    cmocka_unit_test(delta_bytes_stay_the_same),
	    cmocka_unit_test(delta_bytes_stay_the_same_when_text_moves),
	    cmocka_unit_test_setup_teardown(history_bytes_stay_the_same, setup, teardown),
	    cmocka_unit_test_setup_teardown(step_texts_stay_the_same, setup, teardown),
	    cmocka_unit_test(delta_round_trips_on_random_edits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
