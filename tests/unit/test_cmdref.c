/* Command references in replies: every command's help, and the hints and
 * errors that name a command, rendered for Discord, IRC and the console.
 * Each reference must name a real command that can be typed (a leaf, not a
 * group), with real options, positional ones in their declared order; no
 * other text may still name a command the console's way ("/fungeon trigger
 * pit"), which a Discord user could not type. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/render_discord.h"
#include "bot/irc/render_irc.h"
#include "bot/console/render_text.h"
#include "commands/core/dispatch.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"

struct table {
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct reply *r;
	size_t refs; /* references checked */
};

static struct table *
table_new(void)
{
	struct table *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->st = state_new();
	t->rng = rng_new_seeded(3);
	t->d = dispatch_new(&(struct dispatch_opts){.state = t->st, .rng = t->rng});
	t->r = reply_new();
	return t;
}

static void
table_free(struct table *t)
{
	reply_free(t->r);
	dispatch_free(t->d);
	state_free(t->st);
	rng_free(t->rng);
	free(t);
}

static const struct reply *
run(struct table *t, const char *platform, const char *user, const char *line)
{
	struct origin o = {.platform = platform};

	snprintf(o.chan_key, sizeof(o.chan_key), "%s:t", platform);
	snprintf(o.user_key, sizeof(o.user_key), "%s:%s", platform, user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	reply_clear(t->r);
	dispatch_line(t->d, &o, line, strlen(line), 1000, t->r);
	return t->r;
}

/* The command a reference's path names, or NULL. */
static const struct command *
resolve(const char *path)
{
	const struct command *c = NULL;

	for (const char *p = path; *p != '\0';) {
		size_t n = strcspn(p, " ");

		c = c == NULL ? registry_find(p, n) : registry_find_sub(c, p, n);
		if (c == NULL)
			return NULL;
		p += n;
		p += strspn(p, " ");
	}
	return c;
}

static void
check_ref(const struct reply_cmdref *ref, bool discord, const char *where)
{
	const struct command *c = resolve(ref->path);
	int last = -1;

	if (c == NULL)
		fail_msg("%s: '/%s' is no command", where, ref->path);
	if (ref->usage) /* a usage names every option, in order, by itself */
		return;
	if (discord && c->fn == NULL)
		fail_msg("%s: '/%s' cannot be typed on Discord: it needs a subcommand", where,
		         ref->path);
	for (size_t i = 0; i < ref->nopts; i++) {
		int k = -1;

		for (int j = 0; c->opts != NULL && c->opts[j].name != NULL; j++)
			if (strcmp(c->opts[j].name, ref->opts[i].name) == 0)
				k = j;
		if (k < 0)
			fail_msg("%s: /%s has no option '%s'", where, ref->path, ref->opts[i].name);
		if (!ref->opts[i].named && k != last + 1)
			fail_msg("%s: /%s: positional '%s' is not the next option in order", where,
			         ref->path, ref->opts[i].name);
		if (!ref->opts[i].named)
			last = k;
	}
}

static size_t plain_refs; /* found by check_plain: each one is printed */

/* Counts text that names a command the console's way: "/name" at the start
 * of a word, name a command. */
static void
check_plain(const char *text, const char *where)
{
	for (const char *p = text; (p = strchr(p, '/')) != NULL; p++) {
		size_t n = 0;

		if (p > text && !strchr(" ([\"'", p[-1]))
			continue;
		while (islower((unsigned char)p[1 + n]) || p[1 + n] == '-')
			n++;
		if (n > 0 && registry_find(p + 1, n) != NULL) {
			print_error("%s: a command named as plain text: '%.60s'\n", where, p);
			plain_refs++;
		}
	}
}

/* Checks every span of every message of r. */
static void
check_reply(struct table *t, const struct reply *r, bool discord, const char *where)
{
	for (int a = 0; a < REPLY_AUDIENCES; a++) {
		const struct reply_msg *m = reply_msg(r, (enum reply_audience)a);

		for (size_t i = 0; m != NULL && i < m->nblocks; i++) {
			const struct reply_block *b = &m->blocks[i];

			for (size_t j = 0; b->kind == RB_LINE && j < b->nspans; j++) {
				if (b->spans[j].style & RS_CMD) {
					assert_non_null(b->spans[j].cmd);
					check_ref(b->spans[j].cmd, discord, where);
					t->refs++;
				} else {
					check_plain(b->spans[j].text, where);
				}
			}
		}
	}
}

/* The channel message of r on each platform, as one string each. */
static void
rendered(const struct reply *r, char **discord, char **irc, char **console)
{
	/* the channel's part, or, for a reply that is all private, the invoker's */
	const struct reply_msg *m = reply_msg(r, REPLY_CHANNEL) != NULL
	                                ? reply_msg(r, REPLY_CHANNEL)
	                                : reply_msg(r, REPLY_INVOKER);
	struct render_irc_opts io = {.budget = 400, .max_lines = 100, .prefix = "!"};
	struct irc_lines lines = {0};
	char *parts[DISCORD_PARTS_MAX];
	size_t n = render_discord_parts(m, false, NULL, NULL, parts, DISCORD_PARTS_MAX);
	struct buf b;

	buf_init(&b, 1 << 20);
	for (size_t i = 0; i < n; i++) {
		cJSON *o = cJSON_Parse(parts[i]);

		buf_addf(&b, "%s\n", cJSON_GetStringValue(cJSON_GetObjectItem(o, "content")));
		cJSON_Delete(o);
		free(parts[i]);
	}
	*discord = buf_take(&b);
	buf_init(&b, 1 << 20);
	render_irc(m, &io, &lines);
	for (size_t i = 0; i < lines.n; i++)
		buf_addf(&b, "%s\n", lines.v[i]);
	render_irc_lines_free(&lines);
	*irc = buf_take(&b);
	buf_init(&b, 1 << 20);
	render_text(m, false, &b);
	*console = buf_take(&b);
}

/* Help asked with line on every platform: no error, every reference
 * resolves and none is left as "{/...}"; for a command c with a default
 * subcommand, "With no subcommand" is said where one can be typed. */
static void
help_everywhere(struct table *t, const char *line, const struct command *c)
{
	const char *platforms[] = {"discord", "irc", "console"};

	for (size_t k = 0; k < 3; k++) {
		const struct reply *r = run(t, platforms[k], "alice", line);
		char *d, *i, *con;

		if (reply_is_error(r))
			fail_msg("'%s' failed: %s", line, reply_error_text(r));
		check_reply(t, r, k == 0, line);
		rendered(r, &d, &i, &con);
		assert_null(strstr(d, "{/"));
		assert_null(strstr(i, "{/"));
		assert_null(strstr(con, "{/"));
		/* A command without its subcommand cannot be typed on Discord. */
		if (c != NULL && c->default_sub != NULL)
			assert_true((strstr(d, "With no subcommand") != NULL) == (k != 0));
		free(d);
		free(i);
		free(con);
	}
}

/* Walks the command tree: help for every command, subcommand and topic, on
 * every platform. */
static void
walk(struct table *t, const struct command *c, const char *prefix)
{
	char path[128], line[200];

	snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? " " : "", c->name);
	snprintf(line, sizeof(line), "help %s", path);
	help_everywhere(t, line, c);
	for (const struct help_topic *tp = c->topics; tp != NULL && tp->name != NULL; tp++) {
		snprintf(line, sizeof(line), "help %s %s", path, tp->name);
		help_everywhere(t, line, NULL);
	}
	for (const struct command *s = c->subs; s != NULL && s->name != NULL; s++)
		walk(t, s, path);
}

static void
every_help(void **unused)
{
	struct table *t = table_new();

	for (size_t i = 0; command_table[i] != NULL; i++)
		walk(t, command_table[i], "");
	assert_int_equal(plain_refs, 0);
	assert_true(t->refs >= 20);
	table_free(t);
}

/* Hints and errors that name a command, from runs of the commands. */
static void
every_hint(void **unused)
{
	static const char *const lines[][2] = {
	    {"alice", "/fungeon party"},
	    {"alice", "/fungeon hallway"},
	    {"alice", "/fungeon combat"},
	    {"alice", "/fungeon sheet"},
	    {"alice", "/fungeon join Alba wizard 2"},
	    {"alice", "/fungeon join Alba wizard 2"},
	    {"alice", "/fungeon trap add pit annoy 6 pain 2 continuous"},
	    {"alice", "/fungeon hallway"},
	    {"bob", "/fungeon join Brom fighter 2"},
	    {"alice", "/fungeon hallway"},
	    {"alice", "/fungeon combat"},
	    {"alice", "/fungeon trap list"},
	    {"alice", "/fungeon trap add pit annoy 6 pain 2 continuous type acid"},
	    {"alice", "/fungeon enter"},
	    {"alice", "/fungeon enter waive:true"},
	    {"alice", "/fungeon trigger pit Alba Brom"},
	    {"alice", "/fungeon find pit Alba Brom"},
	    {"alice", "/fungeon town sell pit"},
	    {"alice", "/fungeon retreat"},
	    {"alice", "/gm"},
	    {"alice", "/gm claim"},
	    {"bob", "/gm claim"},
	    {"bob", "/tension raise door"},
	    {"alice", "/tension raise combat amount:2"},
	    {"alice", "/tension lower"},
	    {"alice", "/tension raise amount:3"},
	    {"alice", "/tension strike 9-12"},
	    {"alice", "/tension strike 9-12"},
	    {"alice", "/tension strike nothing-like-this"},
	    {"alice", "/help nope"},
	    {"alice", "/help"},
	    {"alice", "/nope"},
	    {"alice", "/safe"},
	    {"alice", "/safe on"},
	    {"alice", "/safe"},
	    {"alice", "/wander check"},
	    {"alice", "/safe off"},
	    {"alice", "/light flicker"},
	    {"alice", "/hazard sign none"},
	    {"alice", "/hazard table custom"},
	    {"alice", "/vendor"},
	    {"alice", "/wander default classic"},
	    {"alice", "/wander retreat 2 alice:2 bob:3"},
	    {"alice", "/gm release"},
	    {"bob", "/hazard who gm"},
	    {"bob", "/turn advance"},
	};
	static const char *const platforms[] = {"discord", "irc", "console"};
	struct table *t = table_new();

	for (size_t k = 0; k < 3; k++) {
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			char where[200];

			snprintf(where, sizeof(where), "%s on %s", lines[i][1], platforms[k]);
			check_reply(t, run(t, platforms[k], lines[i][0], lines[i][1]), k == 0,
			            where);
		}
	}
	assert_int_equal(plain_refs, 0);
	assert_true(t->refs >= 30);
	table_free(t);
}

/* The procedure cards: no command named in a table cell (plain text,
 * which could only be one platform's way), and the commands the turns use
 * as references, written each platform's way. */
static void
procedure_card_refs(void **unused)
{
	static const char *const cards[] = {"/procedure exploration", "/procedure delving",
	                                    "/procedure rooms"};
	struct table *t = table_new();

	for (size_t i = 0; i < 3; i++) {
		const struct reply *r = run(t, "irc", "alice", cards[i]);
		const struct reply_msg *m = reply_msg(r, REPLY_CHANNEL);
		char *d, *irc, *con;

		for (size_t j = 0; j < m->nblocks; j++)
			for (size_t k = 0; m->blocks[j].kind == RB_TABLE && k < m->blocks[j].nrows;
			     k++)
				for (int c = 0; c < m->blocks[j].ncols; c++)
					check_plain(m->blocks[j].rows[k].cells[c], cards[i]);
		check_reply(t, r, false, cards[i]);
		rendered(r, &d, &irc, &con);
		assert_non_null(strstr(irc, "!rest"));
		assert_null(strstr(irc, "/hazard"));
		assert_null(strstr(irc, "/rest"));
		if (i < 2) {
			assert_non_null(strstr(irc, "!hazard roll"));
			assert_non_null(strstr(d, "/hazard roll"));
			assert_non_null(strstr(con, "/hazard roll"));
		} else {
			assert_non_null(strstr(irc, "!safe on"));
			assert_non_null(strstr(d, "/wander check procedure:rest"));
			assert_non_null(strstr(con, "/wander check rest"));
		}
		if (i == 1) {
			assert_non_null(strstr(d, "/turn move pace:running"));
			assert_non_null(strstr(irc, "!turn move running"));
		}
		free(d);
		free(irc);
		free(con);
	}
	assert_int_equal(plain_refs, 0);
	assert_true(t->refs >= 8);
	table_free(t);
}

/* A hint naming commands, as each platform types it. */
static void
trap_hint_per_platform(void **unused)
{
	struct table *t = table_new();
	const struct reply *r;
	char *d, *i, *con;

	run(t, "console", "alice", "/fungeon join Alba wizard 2");
	run(t, "console", "alice", "/fungeon hallway"); /* alone: every category hers */
	run(t, "console", "alice", "/fungeon trap add pit annoy 2 pain 1 guards type darts");
	run(t, "console", "alice", "/fungeon treasure add gem mundane");
	run(t, "console", "gm", "/gm claim"); /* the points left go: the GM's correction */
	run(t, "console", "gm", "/fungeon enter waive:true");
	run(t, "console", "gm", "/gm release");
	r = run(t, "console", "alice", "/fungeon take gem");
	rendered(r, &d, &i, &con);
	/* an unfound trap is found before it is disarmed: the hint says so
	 * (play-test 3, F8) */
	assert_non_null(strstr(con, "(/fungeon trigger pit), or find it (/fungeon find pit)"));
	assert_non_null(
	    strstr(d, "(`/fungeon trigger trap:pit`), or find it (`/fungeon find trap:pit`)"));
	assert_non_null(strstr(i, "(!fungeon trigger pit), or find it (!fungeon find pit)"));
	free(d);
	free(i);
	free(con);
	/* A named option stays named on the text platforms. */
	run(t, "console", "alice", "/gm claim");
	r = run(t, "console", "alice", "/tension raise amount:3");
	rendered(r, &d, &i, &con);
	assert_non_null(strstr(d, "`/tension raise amount:3 reason:why`"));
	assert_non_null(strstr(con, "/tension raise amount:3 reason:why."));
	free(d);
	free(i);
	free(con);
	table_free(t);
}

/* A usage in an error, as each platform types the command. */
static void
usage_per_platform(void **unused)
{
	struct table *t = table_new();
	const struct reply *r = run(t, "console", "alice", "/encumbrance 2");
	char *d, *i, *con;

	assert_true(reply_is_error(r));
	check_reply(t, r, true, "usage");
	rendered(r, &d, &i, &con);
	assert_non_null(strstr(con, "; usage: /encumbrance <str> <weight>\n"));
	assert_non_null(strstr(i, "!encumbrance <str> <weight>"));
	assert_non_null(strstr(d, "; usage: `/encumbrance str:N weight:N`"));
	assert_string_equal(reply_error_text(r),
	                    "No value given for weight (load carried, in pounds "
	                    "(0-100000)); usage: /encumbrance <str> <weight>");
	free(d);
	free(i);
	free(con);
	table_free(t);
}

/* Runs line as user on the console's table and checks that the channel
 * message holds want_d on Discord, want_i on IRC and want_c on the console
 * (each NULL: not checked), and that it names no command as plain text. */
static void
expect_reply(struct table *t, const struct reply *r, const char *line, const char *want_d,
             const char *want_i, const char *want_c)
{
	char *d, *i, *con;

	check_reply(t, r, true, line);
	rendered(r, &d, &i, &con);
	if (getenv("CMDREF_SHOW") != NULL)
		print_message("%s\n--discord\n%s--irc\n%s--console\n%s\n", line, d, i, con),
		    want_d = want_i = want_c = NULL;
	if (want_d != NULL && strstr(d, want_d) == NULL)
		fail_msg("%s on Discord: no '%s' in\n%s", line, want_d, d);
	if (want_i != NULL && strstr(i, want_i) == NULL)
		fail_msg("%s on IRC: no '%s' in\n%s", line, want_i, i);
	if (want_c != NULL && strstr(con, want_c) == NULL)
		fail_msg("%s on the console: no '%s' in\n%s", line, want_c, con);
	free(d);
	free(i);
	free(con);
}

static void
expect3(struct table *t, const char *user, const char *line, const char *want_d, const char *want_i,
        const char *want_c)
{
	expect_reply(t, run(t, "console", user, line), line, want_d, want_i, want_c);
}

/* The replies that named a command as plain text (issue 12, item 6), now
 * references: exact text on each platform. */
static void
converted_refs(void **unused)
{
	struct table *t = table_new();
	char line[80];

	run(t, "console", "alice", "/gm claim");
	expect3(
	    t, "alice", "/log",
	    "No rolls here yet; `/roll` rolls dice (private and secret rolls are not in this log).",
	    "No rolls here yet; !roll rolls dice (private and secret rolls are not in this log).",
	    "No rolls here yet; /roll rolls dice (private and secret rolls are not in this log).");
	expect3(t, "alice", "/save x 1d6",
	        "; roll it with `/roll expression:x` (more may follow: `/roll expression:x +2`).",
	        "; roll it with !roll x (more may follow: !roll x +2).",
	        "; roll it with /roll x (more may follow: /roll x +2).");
	expect3(t, "alice", "/saved show nope",
	        "No saved roll is named 'nope' here; `/saved list` lists them.",
	        "No saved roll is named 'nope' here; !saved list lists them.",
	        "No saved roll is named 'nope' here; /saved list lists them.");
	expect3(t, "alice", "/saved delete nope",
	        "You have no saved roll named 'nope'; `/saved list` lists them.",
	        "You have no saved roll named 'nope'; !saved list lists them.",
	        "You have no saved roll named 'nope'; /saved list lists them.");
	expect3(t, "alice", "/saved delete nope channel:true",
	        "The channel has no saved roll named 'nope' here; `/saved list` lists them.",
	        "The channel has no saved roll named 'nope' here; !saved list lists them.",
	        "The channel has no saved roll named 'nope' here; /saved list lists them.");
	expect3(t, "alice", "/settings compact on",
	        "(a custom table only its rolled row; `/hazard show` has the whole table)",
	        "(a custom table only its rolled row; !hazard show has the whole table)",
	        "(a custom table only its rolled row; /hazard show has the whole table)");
	for (int k = 1; k <= 30; k++) {
		snprintf(line, sizeof(line), "/save c%d 1d6 channel:true", k);
		assert_false(reply_is_error(run(t, "console", "alice", line)));
	}
	expect3(t, "alice", "/save c31 1d6 channel:true",
	        "The channel may keep at most 30 saved rolls here (and a channel 200 in all); "
	        "delete one with `/saved delete name:NAME` first.",
	        "The channel may keep at most 30 saved rolls here (and a channel 200 in all); "
	        "delete one with !saved delete NAME first.",
	        "The channel may keep at most 30 saved rolls here (and a channel 200 in all); "
	        "delete one with /saved delete NAME first.\n");
	for (int k = 2; k <= 50; k++) {
		snprintf(line, sizeof(line), "/save x%d 1d6", k);
		assert_false(reply_is_error(run(t, "console", "alice", line)));
	}
	expect3(t, "alice", "/save x51 1d6",
	        "You may keep at most 50 saved rolls; delete one with `/saved delete name:NAME` "
	        "first.",
	        "You may keep at most 50 saved rolls; delete one with !saved delete NAME first.",
	        "You may keep at most 50 saved rolls; delete one with /saved delete NAME first.\n");
	table_free(t);
}

/* The same for the Fungeon's and the hazard die's. */
static void
converted_play_refs(void **unused)
{
	static const char *const room[][2] = {
	    {"alice", "/fungeon join Alba wizard 3"},
	    {"bob", "/fungeon join Brom fighter 3"},
	    {"carol", "/fungeon join Cora rogue 1"},
	    {"alice", "/fungeon entrance"},
	    {"alice", "/fungeon hallway"},
	    {"alice", "/fungeon pick treasure"},
	    {"carol", "/fungeon pick traps"},
	    {"carol", "/fungeon trap add pit annoy 4 pain 1 guards type spikes"},
	    {"alice", "/fungeon treasure add gem mundane value 1"},
	    /* the Monsters points go unspent: the GM's correction */
	    {"gm", "/gm claim"},
	    {"gm", "/fungeon enter waive:true"},
	    {"gm", "/gm release"},
	};
	struct table *t = table_new();
	bool met = false;

	expect3(t, "alice", "/fungeon monster add ghoul level 1",
	        "No party here yet: `/fungeon join name:NAME class:CLASS level:LEVEL` makes the "
	        "first Fungeoneer.",
	        "No party here yet: !fungeon join NAME CLASS LEVEL makes the first Fungeoneer.",
	        "No party here yet: /fungeon join NAME CLASS LEVEL makes the first Fungeoneer.");
	for (size_t i = 0; i < sizeof(room) / sizeof(room[0]); i++)
		run(t, "console", room[i][0], room[i][1]);
	expect3(t, "alice", "/fungeon take gem",
	        "pit guards the treasure and is not found yet: trigger it or get past it "
	        "(`/fungeon trigger trap:pit`), or find it (`/fungeon find trap:pit`) to disarm "
	        "it, before taking any.",
	        "pit guards the treasure and is not found yet: trigger it or get past it "
	        "(!fungeon trigger pit), or find it (!fungeon find pit) to disarm it, before "
	        "taking any.",
	        "pit guards the treasure and is not found yet: trigger it or get past it "
	        "(/fungeon trigger pit), or find it (/fungeon find pit) to disarm it, before "
	        "taking any.");
	expect3(t, "alice", "/fungeon town sell gem",
	        "Treasure is traded in town, and the party is in room 1 on floor 1; head back "
	        "first with `/fungeon retreat`.",
	        "Treasure is traded in town, and the party is in room 1 on floor 1; head back "
	        "first with !fungeon retreat.",
	        "Treasure is traded in town, and the party is in room 1 on floor 1; head back "
	        "first with /fungeon retreat.");
	expect3(t, "alice", "/fungeon retreat",
	        "Heading back from here leaves the dungeon at once, for town; it leaves room 1 "
	        "with 1 treasure untaken (gem) behind for good. Go with `/fungeon retreat "
	        "confirm:true`.",
	        "Heading back from here leaves the dungeon at once, for town; it leaves room 1 "
	        "with 1 treasure untaken (gem) behind for good. Go with !fungeon retreat "
	        "confirm:true.",
	        "Heading back from here leaves the dungeon at once, for town; it leaves room 1 "
	        "with 1 treasure untaken (gem) behind for good. Go with /fungeon retreat "
	        "confirm:true.");
	expect3(t, "alice", "/fungeon retreat confirm:true",
	        "), and the healer sells healing magic (`/fungeon town healer`).",
	        "), and the healer sells healing magic (!fungeon town healer).",
	        "), and the healer sells healing magic (/fungeon town healer).");
	run(t, "console", "gm", "/gm claim");
	run(t, "console", "gm", "/hazard table delving");
	for (int hidden = 0; hidden < 2; hidden++) {
		const char *want = hidden ? "behind the GM's screen" : "From the encounter table";

		if (hidden)
			run(t, "console", "gm", "/tension mode hidden");
		met = false;
		for (int k = 0; k < 300 && !met; k++) {
			const struct reply *r = run(t, "console", "gm", "/hazard");
			char *p = reply_plain(r);

			if (strstr(p, want) != NULL) {
				met = true;
				expect_reply(
				    t, r, want,
				    "\033[0;36m/surprise\033[0m checks who is caught off guard",
				    "!surprise checks who is caught off guard",
				    "/surprise checks who is caught off guard");
			}
			free(p);
		}
		assert_true(met);
	}
	table_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_help),
	    cmocka_unit_test(every_hint),
	    cmocka_unit_test(trap_hint_per_platform),
	    cmocka_unit_test(usage_per_platform),
	    cmocka_unit_test(procedure_card_refs),
	    cmocka_unit_test(converted_refs),
	    cmocka_unit_test(converted_play_refs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
