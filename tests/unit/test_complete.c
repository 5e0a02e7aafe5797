/* Tests for commands/core/complete through Discord autocomplete: Fungeoneers,
 * traps, monsters and their abilities, Tension table entries, lists, and
 * nothing for a non-GM on a GM-only command. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_interact.h"
#include "commands/core/registry.h"
#include "rules/base/rng.h"

#define CHANNEL "1300000000000000001"

struct fixture {
	struct dispatch *d;
	struct state *st;
	struct rng *rng;
	struct interact *it;
	int next_id;
	const char *chan; /* where suggest() asks */
};

/* Runs a console-style line in the Discord channel chan as user id. */
static void
run_in(struct fixture *f, const char *chan, const char *user, const char *line)
{
	struct origin o = {.platform = "discord"};
	struct reply *r = reply_new();

	snprintf(o.chan_key, sizeof(o.chan_key), "discord:%s", chan);
	snprintf(o.user_key, sizeof(o.user_key), "discord:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "u%s", user);
	dispatch_line(f->d, &o, line, strlen(line), 1000, r);
	assert_false(reply_is_error(r));
	reply_free(r);
}

/* The same in the test's channel. */
static void
run(struct fixture *f, const char *user, const char *line)
{
	run_in(f, CHANNEL, user, line);
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct interact_opts io = {0};

	f->st = state_new();
	f->rng = rng_new_seeded(1);
	f->d = dispatch_new(&(struct dispatch_opts){.state = f->st, .rng = f->rng});
	io.d = f->d;
	f->it = discord_interact_new(&io);
	f->next_id = 5000;
	f->chan = CHANNEL;
	run(f, "1", "fungeon join Alba fighter");
	run(f, "1", "fungeon hallway"); /* alone: Alba's player makes the room */
	run(f, "2", "fungeon join Brom thief");
	run(f, "1", "fungeon trap add Spikes annoy 1 pain 1 type darts");
	run(f, "1", "fungeon monster add Ogre level 1 ability club annoy 1 type blunt");
	run(f, "1", "gm claim");
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	discord_interact_free(f->it);
	dispatch_free(f->d);
	state_free(f->st);
	rng_free(f->rng);
	free(f);
	return 0;
}

/* Asks for suggestions for the focused option of data (a JSON object) as
 * user id; returns the callback's body. */
static cJSON *
ask(struct fixture *f, const char *user, const char *data)
{
	char json[2048];
	struct interact_out out = {0};
	struct request *req;
	cJSON *d, *body;

	snprintf(
	    json, sizeof(json),
	    "{\"id\":\"%d\",\"type\":4,\"token\":\"t\",\"guild_id\":\"1\",\"channel_id\":\"%s"
	    "\",\"member\":{\"user\":{\"id\":\"%s\",\"username\":\"u\"},\"permissions\":\"%s\"},"
	    "\"data\":%s}",
	    f->next_id++, f->chan, user, strcmp(user, "9") == 0 ? "8" : "0", data);
	d = cJSON_Parse(json);
	assert_non_null(d);
	assert_int_equal(
	    discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &out, &req, 0, 0, 0),
	    INTERACT_ANSWER);
	body = cJSON_Parse(out.callback_body);
	assert_non_null(body);
	cJSON_Delete(d);
	discord_interact_out_clear(&out);
	return body;
}

/* The suggestions for data as user must be want (NULL-terminated). */
static void
suggest(struct fixture *f, const char *user, const char *data, const char *const *want)
{
	cJSON *body = ask(f, user, data);
	const cJSON *choices = cJSON_GetObjectItem(cJSON_GetObjectItem(body, "data"), "choices");
	size_t n = 0;
	char *text;

	while (want[n] != NULL)
		n++;
	if ((size_t)cJSON_GetArraySize(choices) != n) {
		text = cJSON_PrintUnformatted(body);
		fail_msg("%s: got %s", data, text);
	}
	for (size_t i = 0; i < n; i++)
		assert_string_equal(
		    cJSON_GetObjectItem(cJSON_GetArrayItem(choices, (int)i), "value")->valuestring,
		    want[i]);
	cJSON_Delete(body);
}

static void
test_fungeoneers(void **state)
{
	static const char *const all[] = {"Alba", "Brom", NULL};
	static const char *const b[] = {"Brom", "Alba", NULL}; /* starts with, then contains */
	static const char *const list[] = {"Alba, Brom", NULL};

	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"sheet\",\"options\":"
	        "[{\"type\":3,\"name\":\"who\",\"value\":\"\",\"focused\":true}]}]}",
	        all);
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"sheet\",\"options\":"
	        "[{\"type\":3,\"name\":\"who\",\"value\":\"b\",\"focused\":true}]}]}",
	        b);
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"retreat\",\"options\":"
	        "[{\"type\":3,\"name\":\"who\",\"value\":\"Alba, br\",\"focused\":true}]}]}",
	        list);
}

static void
test_obstacles(void **state)
{
	static const char *const club[] = {"Ogre/club", NULL};
	static const char *const traps[] = {"Spikes", NULL};
	static const char *const monsters[] = {"Ogre", NULL};

	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"combat\",\"options\":"
	        "[{\"type\":3,\"name\":\"use\",\"value\":\"\",\"focused\":true}]}]}",
	        club);
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"combat\",\"options\":"
	        "[{\"type\":3,\"name\":\"use\",\"value\":\"CLU\",\"focused\":true}]}]}",
	        club);
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"find\",\"options\":"
	        "[{\"type\":3,\"name\":\"trap\",\"value\":\"s\",\"focused\":true}]}]}",
	        traps);
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"combat\",\"options\":"
	        "[{\"type\":3,\"name\":\"monsters\",\"value\":\"o\",\"focused\":true}]}]}",
	        monsters);
	/* the piece to rename, of its own kind */
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":2,\"name\":\"monster\",\"options\":"
	        "[{\"type\":1,\"name\":\"rename\",\"options\":[{\"type\":3,\"name\":\"name\","
	        "\"value\":\"\",\"focused\":true}]}]}]}",
	        monsters);
	suggest(*state, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":2,\"name\":\"trap\",\"options\":"
	        "[{\"type\":1,\"name\":\"rename\",\"options\":[{\"type\":3,\"name\":\"name\","
	        "\"value\":\"\",\"focused\":true}]}]}]}",
	        traps);
}

#define STRIKE(value, more)                                                                        \
	snprintf(data, sizeof(data),                                                               \
	         "{\"name\":\"tension\",\"options\":[{\"type\":1,\"name\":\"strike\",\"options\":" \
	         "[{\"type\":3,\"name\":\"entry\",\"value\":\"%s\",\"focused\":true}%s]}]}",       \
	         value, more)

static void
test_tension_entries(void **state)
{
	static const char *const goblins[] = {"1d4 goblins", "2d4 goblins", NULL};
	static const char *const effects[] = {"a tremor drops roof tiles, DEX save or 1d8 "
	                                      "bludgeoning damage",
	                                      NULL};
	static const char *const none[] = {NULL};
	static const char *const struck[] = {"1d4 goblins", NULL};
	char data[512];

	/* The GM (user 1 claimed the seat) sees the encounter table's entries. */
	STRIKE("gob", "");
	suggest(*state, "1", data, goblins);
	STRIKE("tremor", ",{\"type\":3,\"name\":\"table\",\"value\":\"effects\"}");
	suggest(*state, "1", data, effects);
	/* Anyone else: nothing, the command being the GM's. */
	STRIKE("gob", "");
	suggest(*state, "3", data, none);
	/* unstrike offers the struck entries only. */
	run(*state, "1", "tension strike 1d4 goblins");
	snprintf(
	    data, sizeof(data),
	    "{\"name\":\"tension\",\"options\":[{\"type\":1,\"name\":\"unstrike\","
	    "\"options\":[{\"type\":3,\"name\":\"entry\",\"value\":\"\",\"focused\":true}]}]}");
	suggest(*state, "1", data, struck);
	STRIKE("gob", "");
	suggest(*state, "1", data, goblins + 1);
}

#define TABLE_NAME(sub, value)                                                                     \
	snprintf(data, sizeof(data),                                                               \
	         "{\"name\":\"table\",\"options\":[{\"type\":1,\"name\":\"%s\",\"options\":"       \
	         "[{\"type\":3,\"name\":\"name\",\"value\":\"%s\",\"focused\":true}]}]}",          \
	         sub, value)

/* While Tension is hidden, a player's autocomplete of a table's name
 * offers no table behind the GM's screen (check-26 F4): not its name, nor
 * that it exists; nor Tension's own encounter and effects, which are
 * behind it too (hide23 F3: a player was offered them, then told no table
 * they may read has that name); the GM's offers them all; once Tension is
 * open, anyone's. */
static void
test_table_names_behind_the_screen(void **state)
{
	static const char *const gm[] = {"effects-9", "loot", "encounter", "effects", NULL};
	static const char *const player[] = {"loot", NULL};
	static const char *const e_gm[] = {"effects-9", "encounter", "effects", NULL};
	static const char *const none[] = {NULL};
	static const struct {
		const char *sub, *value, *user;
		const char *const *want;
	} hidden[] = {
	    {"show", "", "1", gm},      {"show", "", "3", player},   {"roll", "e", "1", e_gm},
	    {"roll", "e", "3", none},   {"roll", "", "3", player},   {"set", "", "3", player},
	    {"set", "e", "3", none},    {"delete", "", "3", player}, {"delete", "e", "3", none},
	    {"delete", "e", "1", e_gm},
	};
	char data[512];

	run(*state, "1", "table set loot 1-6: gold");
	run(*state, "1", "tension mode hidden");
	run(*state, "1", "table set effects-9 1-20: the vault floods");
	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
		TABLE_NAME(hidden[i].sub, hidden[i].value);
		suggest(*state, hidden[i].user, data, hidden[i].want);
	}
	run(*state, "1", "tension mode open");
	TABLE_NAME("show", "");
	suggest(*state, "3", data, gm);
}

#define COPY_NAME(value, from)                                                                     \
	snprintf(data, sizeof(data),                                                               \
	         "{\"name\":\"table\",\"options\":[{\"type\":1,\"name\":\"copy\",\"options\":"     \
	         "[{\"type\":3,\"name\":\"name\",\"value\":\"%s\",\"focused\":true}%s]}]}",        \
	         value, from)

/* /table copy's name offers * and the tables of the channel named by from:
 * where the invoker holds the GM seat, not this channel's (check-26 F10:
 * each is answered); another channel's GM gets only *, a player nothing. */
static void
test_table_copy_names(void **state)
{
	static const char *const star[] = {"*", NULL};
	static const char *const theirs[] = {"*", "rumours", "wm", NULL};
	static const char *const r[] = {"rumours", NULL};
	static const char *const none[] = {NULL};
#define FROM5 ",{\"type\":3,\"name\":\"from\",\"value\":\"<#1300000000000000005>\"}"
	static const struct {
		const char *user, *value, *from;
		const char *const *want;
	} cases[] = {
	    {"1", "", "", star},
	    {"1", "", FROM5, theirs},
	    {"1", "R", ",{\"type\":3,\"name\":\"from\",\"value\":\"1300000000000000005\"}", r},
	    /* user 9, a channel admin here, is not the GM there */
	    {"9", "", FROM5, star},
	    {"3", "", FROM5, none},
	};
#undef FROM5
	char data[512];

	run(*state, "1", "table set loot 1-6: gold");
	run_in(*state, "1300000000000000005", "1", "gm claim");
	run_in(*state, "1300000000000000005", "1", "table set rumours 1-6: the duke lies");
	run_in(*state, "1300000000000000005", "1", "table set wm 1-6: a rat");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		COPY_NAME(cases[i].value, cases[i].from);
		suggest(*state, cases[i].user, data, cases[i].want);
	}
}

/* A loader that knows no record but fails on the channel "broken". */
static int
broken_load(struct channel *fresh, void *ctx)
{
	(void)ctx;
	return strcmp(channel_key(fresh), "discord:1300000000000000009") == 0 ? -1 : 0;
}

/*
 * Autocomplete in a channel with no record creates none (nor a user
 * record), yet completes as in an empty channel; in a channel whose record
 * cannot be loaded it suggests nothing and does not crash (it used to call
 * channel_gm(NULL)).
 */
static void
test_no_record_created(void **state)
{
	struct fixture *f = *state;
	static const char *const none[] = {NULL};
	static const char *const goblins[] = {"1d4 goblins", "2d4 goblins", NULL};
	static const char *const sheet[] = {"fungeon sheet", NULL};
	size_t chans = state_nchannels(f->st), users = state_nusers(f->st);
	char data[512];

	state_set_loader(f->st, broken_load, NULL);
	f->chan = "1300000000000000002";
	suggest(f, "3",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"sheet\",\"options\":"
	        "[{\"type\":3,\"name\":\"who\",\"value\":\"\",\"focused\":true}]}]}",
	        none);
	STRIKE("gob", "");
	suggest(f, "9", data, goblins);
	suggest(f, "4",
	        "{\"name\":\"help\",\"options\":[{\"type\":3,\"name\":\"command\","
	        "\"value\":\"fungeon she\",\"focused\":true}]}",
	        sheet);
	assert_int_equal(state_nchannels(f->st), chans);
	assert_int_equal(state_nusers(f->st), users);

	f->chan = "1300000000000000009";
	suggest(f, "9", data, none);
	suggest(f, "9",
	        "{\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"sheet\",\"options\":"
	        "[{\"type\":3,\"name\":\"who\",\"value\":\"\",\"focused\":true}]}]}",
	        none);
	assert_int_equal(state_nchannels(f->st), chans);
	assert_int_equal(state_nusers(f->st), users);
}

/* The answer for data as user must be choices (an array, maybe empty). */
static void
answered(struct fixture *f, const char *user, const char *data)
{
	cJSON *body = ask(f, user, data);

	if (!cJSON_IsArray(cJSON_GetObjectItem(cJSON_GetObjectItem(body, "data"), "choices")))
		fail_msg("%s: no choices", data);
	cJSON_Delete(body);
}

/* Every autocomplete option of path (n commands deep) is asked for, as a
 * player and as a GM, with nothing and with a letter typed. */
static size_t
ask_every_option(struct fixture *f, const struct command *const *path, size_t n)
{
	const struct command *c = path[n - 1];
	size_t asked = 0;

	for (const struct cmd_opt *o = c->opts; o != NULL && o->name != NULL; o++) {
		static const char *const typed[] = {"", "a"};

		if (!(o->flags & OPT_AUTOCOMPLETE))
			continue;
		for (size_t t = 0; t < 2; t++) {
			char data[1024], tail[256];

			snprintf(tail, sizeof(tail),
			         "[{\"type\":3,\"name\":\"%s\",\"value\":\"%s\",\"focused\":true}]",
			         o->name, typed[t]);
			if (n == 1)
				snprintf(data, sizeof(data), "{\"name\":\"%s\",\"options\":%s}",
				         path[0]->name, tail);
			else if (n == 2)
				snprintf(
				    data, sizeof(data),
				    "{\"name\":\"%s\",\"options\":[{\"type\":1,\"name\":\"%s\","
				    "\"options\":%s}]}",
				    path[0]->name, path[1]->name, tail);
			else
				snprintf(
				    data, sizeof(data),
				    "{\"name\":\"%s\",\"options\":[{\"type\":2,\"name\":\"%s\","
				    "\"options\":[{\"type\":1,\"name\":\"%s\",\"options\":%s}]}]}",
				    path[0]->name, path[1]->name, path[2]->name, tail);
			answered(f, "3", data);
			answered(f, "9", data);
			asked++;
		}
	}
	for (const struct command *s = c->subs; n < 3 && s != NULL && s->name != NULL; s++) {
		const struct command *deeper[3] = {path[0], path[1], path[2]};

		deeper[n] = s;
		asked += ask_every_option(f, deeper, n + 1);
	}
	return asked;
}

/* A channel with no record yet: every option Discord may ask suggestions
 * for is answered (table names once crashed the daemon: the screen check
 * read Tension from a channel that was not there), and nothing is made. */
static void
test_every_option_without_a_record(void **state)
{
	struct fixture *f = *state;
	size_t chans = state_nchannels(f->st), users = state_nusers(f->st), asked = 0;

	f->chan = "1300000000000000003";
	for (size_t i = 0; command_table[i] != NULL; i++) {
		const struct command *path[3] = {command_table[i], NULL, NULL};

		asked += ask_every_option(f, path, 1);
	}
	assert_true(asked >= 20);
	assert_int_equal(state_nchannels(f->st), chans);
	assert_int_equal(state_nusers(f->st), users);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_fungeoneers, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_obstacles, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tension_entries, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_table_names_behind_the_screen, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_table_copy_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_record_created, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_every_option_without_a_record, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
