/* Tests for bot/discord/discord_cmds: registration JSON from command tables. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_cmds.h"
#include "bot/discord/render_discord.h"

static void
noop(struct invocation *inv, struct reply *out)
{
}

static const char *const sizes[] = {"small", "medium", "large", NULL};
static const char *const many[] = {"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9",
                                   "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9",
                                   "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", NULL};

static const struct cmd_opt roll_opts[] = {
    {.name = "label", .desc = "What the roll is for", .type = OPT_STRING, .flags = OPT_REST},
    {.name = "expression",
     .desc = "Dice to roll",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = 300},
    {.name = "times", .desc = "How often", .type = OPT_INT, .min = 1, .max = 20},
    {.name = "private", .desc = "Only you see it", .type = OPT_BOOL},
    {.name = "size", .desc = "Size", .type = OPT_STRING, .choices = sizes},
    {.name = "entry", .desc = "A table entry", .type = OPT_STRING, .choices = many},
    {.name = "who", .desc = "A player", .type = OPT_USER},
    {.name = "huge", .desc = "Huge", .type = OPT_INT, .min = INT64_MIN, .max = INT64_MAX},
    {0},
};

static const struct command roll_cmd = {
    .name = "roll", .desc = "Roll dice", .opts = roll_opts, .fn = noop};

static const struct cmd_opt set_opts[] = {
    {.name = "value", .desc = "", .type = OPT_INT, .flags = OPT_REQUIRED, .min = 0, .max = 6},
    {0},
};

static const struct command table_subs[] = {
    {.name = "set", .desc = "Set it", .role = ROLE_GM, .opts = set_opts, .fn = noop},
    {.name = "show", .desc = "Show it", .fn = noop},
    {0},
};

static const struct command tension_subs[] = {
    {.name = "show", .desc = "Show the Tension", .fn = noop},
    {.name = "table", .desc = "The Tension table", .subs = table_subs, .default_sub = "show"},
    {0},
};

static const struct command tension_cmd = {
    .name = "tension", .desc = "Tension", .subs = tension_subs, .default_sub = "show"};

static const struct command reset_cmd = {
    .name = "reset", .desc = "Reset the channel", .role = ROLE_GM, .fn = noop};

static const struct command *const test_table[] = {&roll_cmd, &tension_cmd, &reset_cmd, NULL};

static const cJSON *
named(const cJSON *arr, const char *name)
{
	const cJSON *o;

	cJSON_ArrayForEach(o, arr)
	{
		if (strcmp(cJSON_GetObjectItem(o, "name")->valuestring, name) == 0)
			return o;
	}
	fail_msg("no '%s'", name);
	return NULL;
}

static int
num(const cJSON *o, const char *key)
{
	const cJSON *j = cJSON_GetObjectItem(o, key);

	assert_true(cJSON_IsNumber(j));
	return j->valueint;
}

static void
test_options(void **state)
{
	cJSON *arr = discord_cmds_json(test_table, DISCORD_REACH_GUILD);
	const cJSON *roll = named(arr, "roll"), *opts = cJSON_GetObjectItem(roll, "options"), *o;

	assert_int_equal(num(roll, "type"), 1);
	assert_string_equal(cJSON_GetObjectItem(roll, "description")->valuestring, "Roll dice");
	assert_null(cJSON_GetObjectItem(roll, "default_member_permissions"));
	/* Required first, whatever the table's order. */
	assert_string_equal(cJSON_GetArrayItem(opts, 0)->child->valuestring, "expression");
	o = named(opts, "expression");
	assert_int_equal(num(o, "type"), 3);
	assert_int_equal(num(o, "max_length"), 300);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "required")));
	o = named(opts, "label");
	assert_int_equal(num(o, "max_length"), OPT_STRING_MAX);
	assert_null(cJSON_GetObjectItem(o, "required"));
	o = named(opts, "times");
	assert_int_equal(num(o, "type"), 4);
	assert_int_equal(num(o, "min_value"), 1);
	assert_int_equal(num(o, "max_value"), 20);
	assert_int_equal(num(named(opts, "private"), "type"), 5);
	assert_int_equal(num(named(opts, "who"), "type"), 6);
	o = named(opts, "size");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "choices")), 3);
	assert_string_equal(
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "choices"), 1), "value")
	        ->valuestring,
	    "medium");
	/* Over 25 choices: autocomplete instead. */
	o = named(opts, "entry");
	assert_null(cJSON_GetObjectItem(o, "choices"));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "autocomplete")));
	/* Integers stay within what JSON numbers hold exactly. */
	o = named(opts, "huge");
	assert_true(cJSON_GetObjectItem(o, "max_value")->valuedouble == 9007199254740991.0);
	assert_true(cJSON_GetObjectItem(o, "min_value")->valuedouble == -9007199254740991.0);
	cJSON_Delete(arr);
}

static void
test_subcommands_and_gm(void **state)
{
	cJSON *arr = discord_cmds_json(test_table, DISCORD_REACH_GUILD);
	const cJSON *t = named(arr, "tension"), *opts = cJSON_GetObjectItem(t, "options"), *g;

	/* The default subcommand is exposed by name like the others. */
	assert_int_equal(num(named(opts, "show"), "type"), 1);
	g = named(opts, "table");
	assert_int_equal(num(g, "type"), 2);
	assert_int_equal(num(named(cJSON_GetObjectItem(g, "options"), "set"), "type"), 1);
	/* A description is never empty: the name stands in. */
	assert_string_equal(
	    cJSON_GetObjectItem(
	        named(
	            cJSON_GetObjectItem(named(cJSON_GetObjectItem(g, "options"), "set"), "options"),
	            "value"),
	        "description")
	        ->valuestring,
	    "value");
	assert_null(cJSON_GetObjectItem(t, "default_member_permissions"));
	assert_string_equal(
	    cJSON_GetObjectItem(named(arr, "reset"), "default_member_permissions")->valuestring,
	    "16");
	cJSON_Delete(arr);
}

static void
test_hash(void **state)
{
	char *body = discord_cmds_body(test_table, DISCORD_REACH_GUILD);
	char h1[17], h2[17], h3[17];

	discord_cmds_hash(body, "/applications/1/commands", h1);
	discord_cmds_hash(body, "/applications/1/commands", h2);
	discord_cmds_hash(body, "/applications/1/guilds/2/commands", h3);
	assert_string_equal(h1, h2);
	assert_string_not_equal(h1, h3);
	assert_int_equal(strlen(h1), 16);
	free(body);
}

/* Discord's rules for one option or subcommand list. */
static void
check_options(const cJSON *opts, int depth)
{
	const cJSON *o;
	bool optional_seen = false;

	if (opts == NULL)
		return;
	assert_true(cJSON_GetArraySize(opts) <= 25);
	cJSON_ArrayForEach(o, opts)
	{
		const char *name = cJSON_GetObjectItem(o, "name")->valuestring;
		const char *desc = cJSON_GetObjectItem(o, "description")->valuestring;
		int type = num(o, "type");
		const cJSON *choices = cJSON_GetObjectItem(o, "choices");

		assert_true(strlen(name) >= 1 && strlen(name) <= 32);
		assert_true(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(name));
		assert_true(render_discord_len(desc) >= 1 && render_discord_len(desc) <= 100);
		assert_true(type >= 1 && type <= 11);
		if (type == 1 || type == 2) {
			assert_true(depth < 2 && (type == 1 || depth == 0));
			check_options(cJSON_GetObjectItem(o, "options"), depth + 1);
			continue;
		}
		if (cJSON_IsTrue(cJSON_GetObjectItem(o, "required")))
			assert_false(optional_seen);
		else
			optional_seen = true;
		assert_true(choices == NULL || cJSON_GetArraySize(choices) <= 25);
		assert_false(choices != NULL &&
		             cJSON_IsTrue(cJSON_GetObjectItem(o, "autocomplete")));
	}
}

/* What Discord counts against a command's 8000 characters: every name,
 * description and value, down through options and choices. */
static size_t
counted(const cJSON *o)
{
	static const char *const keys[] = {"name", "description", "value"};
	const cJSON *c;
	size_t n = 0;

	for (size_t k = 0; k < 3; k++) {
		const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(o, keys[k]));

		n += v != NULL ? render_discord_len(v) : 0;
	}
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(o, "options")) n += counted(c);
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(o, "choices")) n += counted(c);
	return n;
}

/* The real command table obeys every rule Discord enforces. */
static void
test_command_table_valid(void **state)
{
	cJSON *arr = discord_cmds_json(NULL, DISCORD_REACH_GUILD), *c;

	assert_true(cJSON_GetArraySize(arr) >= 1 && cJSON_GetArraySize(arr) <= 100);
	/* /r is registered next to /roll, with the same options. */
	{
		const cJSON *roll = NULL, *r = NULL;

		cJSON_ArrayForEach(c, arr)
		{
			const char *n = cJSON_GetObjectItem(c, "name")->valuestring;

			if (strcmp(n, "roll") == 0)
				roll = c;
			else if (strcmp(n, "r") == 0)
				r = c;
		}
		assert_non_null(roll);
		assert_non_null(r);
		assert_true(cJSON_Compare(cJSON_GetObjectItem(roll, "options"),
		                          cJSON_GetObjectItem(r, "options"), true));
	}
	/* /undo is registered, with no options (it always takes back one step). */
	{
		char *undo = NULL;

		cJSON_ArrayForEach(c, arr)
		{
			if (strcmp(cJSON_GetObjectItem(c, "name")->valuestring, "undo") == 0)
				undo = cJSON_PrintUnformatted(c);
		}
		assert_non_null(undo);
		assert_string_equal(undo,
		                    "{\"name\":\"undo\",\"type\":1,\"description\":\"Take "
		                    "back the channel's last change to the game (by its maker "
		                    "or the GM)\",\"options\":[]}");
		free(undo);
	}
	/* /fungeon trap, monster and treasure each register rename NAME NEW,
	 * the name completed. */
	cJSON_ArrayForEach(c, arr)
	{
		const cJSON *group;
		int renames = 0;

		if (strcmp(cJSON_GetObjectItem(c, "name")->valuestring, "fungeon") != 0)
			continue;
		cJSON_ArrayForEach(group, cJSON_GetObjectItem(c, "options"))
		{
			const char *g = cJSON_GetObjectItem(group, "name")->valuestring;
			const cJSON *sub;

			if (strcmp(g, "trap") != 0 && strcmp(g, "monster") != 0 &&
			    strcmp(g, "treasure") != 0)
				continue;
			cJSON_ArrayForEach(sub, cJSON_GetObjectItem(group, "options"))
			{
				const cJSON *o = cJSON_GetObjectItem(sub, "options");

				if (strcmp(cJSON_GetObjectItem(sub, "name")->valuestring,
				           "rename") != 0)
					continue;
				renames++;
				assert_int_equal(cJSON_GetArraySize(o), 2);
				assert_string_equal(
				    cJSON_GetObjectItem(cJSON_GetArrayItem(o, 0), "name")
				        ->valuestring,
				    "name");
				assert_true(cJSON_IsTrue(
				    cJSON_GetObjectItem(cJSON_GetArrayItem(o, 0), "autocomplete")));
				assert_string_equal(
				    cJSON_GetObjectItem(cJSON_GetArrayItem(o, 1), "name")
				        ->valuestring,
				    "new");
			}
		}
		assert_int_equal(renames, 3);
	}
	cJSON_ArrayForEach(c, arr)
	{
		assert_true(counted(c) <= 8000);
		check_options(cJSON_GetObjectItem(c, "options"), 0);
	}
	cJSON_Delete(arr);
}

/* want as Discord answers a GET: ids and defaults added, commands in
 * another order, then edit applied (a JSON patch of one kind, see below). */
static bool
same_after_in(enum discord_cmds_reach reach, const char *edit)
{
	cJSON *want = discord_cmds_json(NULL, reach), *have = cJSON_Duplicate(want, 1), *c, *o;
	bool r;

	cJSON_ArrayForEach(c, have)
	{
		cJSON_AddStringToObject(c, "id", "1500000000000000000");
		cJSON_AddStringToObject(c, "application_id", "1100000000000000001");
		cJSON_AddStringToObject(c, "version", "1500000000000000007");
		cJSON_AddFalseToObject(c, "nsfw");
		cJSON_AddNullToObject(c, "name_localizations");
		if (cJSON_GetObjectItem(c, "default_member_permissions") == NULL)
			cJSON_AddNullToObject(c, "default_member_permissions");
		/* A guild's commands: Discord answers its own defaults. */
		if (cJSON_GetObjectItem(c, "contexts") == NULL) {
			cJSON_AddNullToObject(c, "contexts");
			cJSON_AddItemToObject(c, "integration_types",
			                      cJSON_CreateIntArray((const int[]){0}, 1));
		}
	}
	/* Discord's order is its own: the last command first. */
	c = cJSON_DetachItemFromArray(have, cJSON_GetArraySize(have) - 1);
	cJSON_InsertItemInArray(have, 0, c);
	c = cJSON_GetArrayItem(have, 1); /* the first command of the table */
	o = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "options"), 0);
	if (strcmp(edit, "description") == 0)
		cJSON_ReplaceItemInObject(c, "description", cJSON_CreateString("An old text"));
	else if (strcmp(edit, "option-name") == 0)
		cJSON_ReplaceItemInObject(o, "name", cJSON_CreateString("old"));
	else if (strcmp(edit, "option-extra") == 0)
		cJSON_AddTrueToObject(o, "autocomplete");
	else if (strcmp(edit, "option-default") == 0)
		cJSON_AddFalseToObject(o, "autocomplete");
	else if (strcmp(edit, "option-missing") == 0)
		cJSON_DeleteItemFromArray(cJSON_GetObjectItem(c, "options"), 0);
	else if (strcmp(edit, "missing") == 0)
		cJSON_DeleteItemFromArray(have, 2);
	else if (strcmp(edit, "extra") == 0)
		cJSON_AddItemToArray(have, cJSON_Duplicate(c, 1));
	else if (strcmp(edit, "renamed") == 0)
		cJSON_ReplaceItemInObject(c, "name", cJSON_CreateString("oldname"));
	else if (strcmp(edit, "permissions") == 0)
		cJSON_ReplaceItemInObject(c, "default_member_permissions", cJSON_CreateString("8"));
	else if (strcmp(edit, "contexts-reordered") == 0)
		cJSON_ReplaceItemInObject(c, "contexts",
		                          cJSON_CreateIntArray((const int[]){1, 0}, 2));
	else if (strcmp(edit, "contexts-all") == 0)
		cJSON_ReplaceItemInObject(c, "contexts",
		                          cJSON_CreateIntArray((const int[]){0, 1, 2}, 3));
	else if (strcmp(edit, "contexts-missing") == 0)
		cJSON_DeleteItemFromObject(c, "contexts");
	else if (strcmp(edit, "contexts-null") == 0)
		cJSON_ReplaceItemInObject(c, "contexts", cJSON_CreateNull());
	else if (strcmp(edit, "install-user") == 0)
		cJSON_ReplaceItemInObject(c, "integration_types",
		                          cJSON_CreateIntArray((const int[]){0, 1}, 2));
	else if (strcmp(edit, "install-server") == 0)
		cJSON_ReplaceItemInObject(c, "integration_types",
		                          cJSON_CreateIntArray((const int[]){0}, 1));
	r = discord_cmds_same(want, have);
	cJSON_Delete(want);
	cJSON_Delete(have);
	return r;
}

static bool
same_after(const char *edit)
{
	return same_after_in(DISCORD_REACH_GUILD, edit);
}

/* Registration compares what Discord holds with the table: what Discord
 * adds is no difference, every stale part is. */
static void
test_same(void **state)
{
	cJSON *want = discord_cmds_json(NULL, DISCORD_REACH_GUILD);

	assert_true(same_after("none"));
	assert_true(same_after("option-default"));
	assert_false(same_after("description"));
	assert_false(same_after("option-name"));
	assert_false(same_after("option-extra"));
	assert_false(same_after("option-missing"));
	assert_false(same_after("missing"));
	assert_false(same_after("extra"));
	assert_false(same_after("renamed"));
	assert_false(same_after("permissions"));
	assert_false(discord_cmds_same(want, NULL));
	assert_false(discord_cmds_same(want, cJSON_GetArrayItem(want, 0)));
	cJSON_Delete(want);
}

/* Where the commands may be used: a global registration says it, and the
 * comparison holds Discord to it (as sets: the order is Discord's); a
 * guild's own commands say nothing of it, and Discord's defaults there
 * are no difference. */
static void
test_reach(void **state)
{
	cJSON *g = discord_cmds_json(test_table, DISCORD_REACH_GUILD);
	cJSON *s = discord_cmds_json(test_table, DISCORD_REACH_SERVER);
	cJSON *u = discord_cmds_json(test_table, DISCORD_REACH_USER);
	char *text;

	assert_null(cJSON_GetObjectItem(named(g, "roll"), "contexts"));
	assert_null(cJSON_GetObjectItem(named(g, "roll"), "integration_types"));
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(named(s, "roll"), "integration_types"));
	assert_string_equal(text, "[0]");
	free(text);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(named(s, "tension"), "contexts"));
	assert_string_equal(text, "[0,1]");
	free(text);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(named(u, "reset"), "integration_types"));
	assert_string_equal(text, "[0,1]");
	free(text);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(named(u, "roll"), "contexts"));
	assert_string_equal(text, "[0,1,2]");
	free(text);
	cJSON_Delete(g);
	cJSON_Delete(s);
	cJSON_Delete(u);

	assert_true(same_after_in(DISCORD_REACH_SERVER, "none"));
	assert_true(same_after_in(DISCORD_REACH_SERVER, "contexts-reordered"));
	assert_false(same_after_in(DISCORD_REACH_SERVER, "contexts-all"));
	assert_false(same_after_in(DISCORD_REACH_SERVER, "contexts-missing"));
	assert_false(same_after_in(DISCORD_REACH_SERVER, "contexts-null"));
	assert_false(same_after_in(DISCORD_REACH_SERVER, "install-user"));
	assert_true(same_after_in(DISCORD_REACH_USER, "none"));
	assert_false(same_after_in(DISCORD_REACH_USER, "install-server"));
	assert_false(same_after_in(DISCORD_REACH_USER, "contexts-reordered"));
	/* The guild's defaults, or anything there, is Discord's own. */
	assert_true(same_after_in(DISCORD_REACH_GUILD, "contexts-all"));
	assert_true(same_after_in(DISCORD_REACH_GUILD, "install-user"));
}

static const struct command safe_subs[] = {
    {.name = "on", .desc = "On", .role = ROLE_GM, .fn = noop},
    {.name = "off", .desc = "Off", .role = ROLE_GM, .fn = noop},
    {0},
};
static const struct command deep_subs[] = {
    {.name = "table", .desc = "The table", .subs = safe_subs},
    {.name = "now", .desc = "Now", .role = ROLE_GM, .fn = noop},
    {0},
};
static const struct command mixed_subs[] = {
    {.name = "show", .desc = "Show", .fn = noop},
    {.name = "set", .desc = "Set", .role = ROLE_GM, .fn = noop},
    {0},
};
static const struct command safe_cmd = {.name = "safe", .desc = "Safe", .subs = safe_subs};
static const struct command deep_cmd = {.name = "deep", .desc = "Deep", .subs = deep_subs};
static const struct command mixed_cmd = {.name = "mixed", .desc = "Mixed", .subs = mixed_subs};
static const struct command *const gm_table[] = {&safe_cmd,  &deep_cmd, &mixed_cmd,
                                                 &reset_cmd, &roll_cmd, NULL};

/* Discord hides a whole top-level command only: one whose every leaf is
 * GM-only is hidden from members without Manage Channels, one that mixes
 * stays visible (its GM-only part is refused when run). */
static void
test_gm_only_hidden(void **state)
{
	cJSON *arr = discord_cmds_json(gm_table, DISCORD_REACH_SERVER);

	assert_string_equal(
	    cJSON_GetObjectItem(named(arr, "safe"), "default_member_permissions")->valuestring,
	    DISCORD_GM_PERMISSIONS);
	assert_string_equal(
	    cJSON_GetObjectItem(named(arr, "deep"), "default_member_permissions")->valuestring,
	    DISCORD_GM_PERMISSIONS);
	assert_string_equal(
	    cJSON_GetObjectItem(named(arr, "reset"), "default_member_permissions")->valuestring,
	    DISCORD_GM_PERMISSIONS);
	assert_null(cJSON_GetObjectItem(named(arr, "mixed"), "default_member_permissions"));
	assert_null(cJSON_GetObjectItem(named(arr, "roll"), "default_member_permissions"));
	cJSON_Delete(arr);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options),        cmocka_unit_test(test_subcommands_and_gm),
	    cmocka_unit_test(test_hash),           cmocka_unit_test(test_command_table_valid),
	    cmocka_unit_test(test_same),           cmocka_unit_test(test_reach),
	    cmocka_unit_test(test_gm_only_hidden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
