/* Tests for bot/discord/discord_interact and bot/discord/discord_roles. */
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
#include "bot/discord/discord_interact_render.h"
#include "bot/discord/discord_roles.h"
#include "commands/gm/cmd_gm.h"
#include "commands/help/cmd_help.h"
#include "commands/panel/cmd_panel.h"
#include "commands/dice/cmd_log.h"
#include "commands/dice/cmd_roll.h"
#include "commands/tables/cmd_table.h"
#include "commands/procedure/cmd_wander.h"
#include "commands/tension/cmd_tension.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/holdstore.h"

static void
secret_fn(struct invocation *inv, struct reply *out)
{
	reply_line(out, 0, "Something was rolled.");
	reply_to(out, REPLY_INVOKER);
	reply_line(out, RS_BOLD, "It was a 6.");
}

static void
whisper_fn(struct invocation *inv, struct reply *out)
{
	reply_to(out, REPLY_INVOKER);
	reply_line(out, 0, "psst");
}

/* 150 lines for the channel, 100 for the invoker: both longer than one
 * message. */
static void
long_fn(struct invocation *inv, struct reply *out)
{
	for (int i = 0; i < 150; i++)
		reply_line(out, 0, "channel line %d with some words", i);
	reply_to(out, REPLY_INVOKER);
	for (int i = 0; i < 100; i++)
		reply_line(out, 0, "private line %d with some words", i);
}

static void
pick_fn(struct invocation *inv, struct reply *out)
{
	reply_line(out, 0, "who=%s n=%lld flag=%d size=%s", invocation_str(inv, "who"),
	           (long long)invocation_int(inv, "n", -1), invocation_bool(inv, "flag", false),
	           invocation_has(inv, "size") ? invocation_str(inv, "size") : "-");
}

static void
gmcmd_fn(struct invocation *inv, struct reply *out)
{
	reply_line(out, 0, "done by the GM");
}

static void
complete_entry(struct invocation *inv, const char *partial, struct completions *out)
{
	static const char *const entries[] = {"alpha", "beta", "gamma", NULL};

	for (size_t i = 0; entries[i] != NULL; i++)
		if (strstr(entries[i], partial) != NULL)
			completions_add(out, entries[i]);
	/* Autocomplete reads a channel's record, never creates one. */
	completions_add(out, inv->chan != NULL ? channel_key(inv->chan) : "no record");
}

static const char *const sizes[] = {"small", "medium", "large", NULL};

static const struct cmd_opt pick_opts[] = {
    {.name = "who", .desc = "A player", .type = OPT_USER, .flags = OPT_REQUIRED},
    {.name = "n", .desc = "A number", .type = OPT_INT, .min = 1, .max = 10},
    {.name = "flag", .desc = "A flag", .type = OPT_BOOL},
    {.name = "size", .desc = "A size", .type = OPT_STRING, .choices = sizes},
    {.name = "entry",
     .desc = "An entry",
     .type = OPT_STRING,
     .flags = OPT_AUTOCOMPLETE,
     .complete = complete_entry},
    {0},
};

/* 600 lines for the channel, 600 for the invoker: more than 6 messages
 * each. */
static void
huge_fn(struct invocation *inv, struct reply *out)
{
	for (int i = 0; i < 600; i++)
		reply_line(out, 0, "channel line %d with some words", i);
	reply_to(out, REPLY_INVOKER);
	for (int i = 0; i < 600; i++)
		reply_line(out, 0, "private line %d with some words", i);
}

/* A reply for the channel whose button's line is too long for a
 * custom_id (it is stored), and one for the invoker. */
static void
again_fn(struct invocation *inv, struct reply *out)
{
	char line[160];

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	reply_line(out, 0, "Rolled again.");
	reply_button(out, "Again", line);
	reply_to(out, REPLY_INVOKER);
	reply_line(out, 0, "psst");
}

static const struct command again_cmd = {.name = "again", .desc = "a", .fn = again_fn};
static const struct command huge_cmd = {.name = "huge", .desc = "h", .fn = huge_fn};
static const struct command secret_cmd = {.name = "secret", .desc = "s", .fn = secret_fn};
static const struct command whisper_cmd = {
    .name = "whisper", .desc = "w", .fn = whisper_fn, .alias = "wh"};
static const struct command long_cmd = {.name = "long", .desc = "l", .fn = long_fn};
static const struct command pick_cmd = {
    .name = "pick", .desc = "p", .opts = pick_opts, .fn = pick_fn};
static const struct command gmcmd_cmd = {
    .name = "gmcmd", .desc = "g", .role = ROLE_GM, .fn = gmcmd_fn};

static const struct command *const test_table[] = {
    &cmd_gm,   &cmd_help,   &secret_cmd,   &whisper_cmd, &pick_cmd,  &gmcmd_cmd,
    &long_cmd, &cmd_gmroll, &cmd_settings, &cmd_wander,  &cmd_roll,  &cmd_log,
    &huge_cmd, &cmd_table,  &cmd_panel,    &cmd_tension, &again_cmd, NULL};

struct fixture {
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct interact *it;
	struct interact_out out;
	int answers; /* requests answered */
};

/* The answer function of the requests the interaction layer makes: the
 * answer is rendered into f->out, as the transport renders it. */
static void
answered(struct request *req, void *ctx)
{
	struct fixture *f = ctx;

	discord_interact_out_clear(&f->out);
	discord_interact_render(f->it, req, &f->out);
	request_free(req);
	f->answers++;
}

static struct fixture *
fixture_new(const char *gm_role)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct interact_opts o = {.gm_role = gm_role, .answer = answered, .answer_ctx = f};

	f->st = state_new();
	f->rng = rng_new_seeded(1);
	f->d = dispatch_new(
	    &(struct dispatch_opts){.state = f->st, .rng = f->rng, .commands = test_table});
	o.d = f->d;
	f->it = discord_interact_new(&o);
	return f;
}

static int
setup(void **state)
{
	*state = fixture_new(NULL);
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	discord_interact_out_clear(&f->out);
	discord_interact_free(f->it);
	dispatch_free(f->d);
	state_free(f->st);
	rng_free(f->rng);
	free(f);
	return 0;
}

/* A request made is submitted and waited on, as the transport's loop
 * would: its answer is in f->out then (INTERACT_ANSWER returned). */
static int
settle(struct fixture *f, int r, struct request *req)
{
	int before = f->answers;

	if (r != INTERACT_REQUEST)
		return r;
	dispatch_submit(f->d, req);
	dispatch_poll(f->d);
	assert_int_equal(f->answers, before + 1);
	return INTERACT_ANSWER;
}

/* Feeds one event given as JSON text; returns discord_interact_event's
 * result, a request's once answered (settle). */
static int
feed(struct fixture *f, const char *t, const char *json)
{
	cJSON *d = cJSON_Parse(json);
	struct request *req;
	int r;

	assert_non_null(d);
	discord_interact_out_clear(&f->out);
	r = discord_interact_event(f->it, t, d, 1000, &f->out, &req, 0, 0, 0);
	cJSON_Delete(d);
	return settle(f, r, req);
}

/* An INTERACTION_CREATE in guild 99, channel 1234567890123456789. */
static int
interaction(struct fixture *f, const char *id, int type, const char *member, const char *data)
{
	char json[4096];

	snprintf(json, sizeof(json),
	         "{\"id\":\"%s\",\"application_id\":\"42\",\"type\":%d,\"token\":\"tok-%s\","
	         "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\","
	         "\"member\":%s,\"data\":%s}",
	         id, type, id, member, data);
	return feed(f, "INTERACTION_CREATE", json);
}

#define ALICE                                                                                      \
	"{\"user\":{\"id\":\"555\",\"username\":\"alice\"},\"nick\":\"Alice\","                    \
	"\"permissions\":\"0\",\"roles\":[]}"
#define BOB                                                                                        \
	"{\"user\":{\"id\":\"556\",\"username\":\"bob\",\"global_name\":\"Bobby\"},"               \
	"\"permissions\":\"1024\",\"roles\":[\"501\"]}"

static cJSON *
body(const char *s)
{
	cJSON *j = cJSON_Parse(s);

	assert_non_null(j);
	return j;
}

/* The content of a callback body, checked to be a type 4 message. */
static void
assert_message(const char *s, const char *content, bool ephemeral)
{
	cJSON *j = body(s), *data = cJSON_GetObjectItem(j, "data");
	const cJSON *flags = cJSON_GetObjectItem(data, "flags");
	const cJSON *parse =
	    cJSON_GetObjectItem(cJSON_GetObjectItem(data, "allowed_mentions"), "parse");

	assert_int_equal(cJSON_GetObjectItem(j, "type")->valueint, 4);
	assert_string_equal(cJSON_GetObjectItem(data, "content")->valuestring, content);
	assert_true(cJSON_IsArray(parse) && cJSON_GetArraySize(parse) == 0);
	if (ephemeral)
		assert_int_equal(flags->valueint, 64);
	else
		assert_null(flags);
	cJSON_Delete(j);
}

/* /table set NAME alone opens a form (MODAL, type 9) with one paragraph
 * field; its submit (MODAL_SUBMIT, type 5) saves the table from the text,
 * line breaks and all; a submit of a form not ours is refused; a form the
 * interaction can no longer open (it was deferred) has a message instead. */
static void
table_form_and_submit(void **state)
{
	struct fixture *f = *state;
	cJSON *j;
	const cJSON *d, *c;

	assert_int_equal(interaction(f, "800", 2, ALICE,
	                             "{\"name\":\"table\",\"options\":[{\"type\":1,\"name\":"
	                             "\"set\",\"options\":[{\"type\":3,\"name\":\"name\","
	                             "\"value\":\"loot\"}]}]}"),
	                 INTERACT_ANSWER);
	j = body(f->out.callback_body);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(j, "type")->valueint, 9);
	d = cJSON_GetObjectItemCaseSensitive(j, "data");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "custom_id")),
	                    "m:table set loot|entries");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "title")),
	                    "/table set loot");
	c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "components"), 0);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(c, "type")->valueint, 18);
	c = cJSON_GetObjectItemCaseSensitive(c, "component");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(c, "style")->valueint, 2);
	cJSON_Delete(j);
	/* should it have been deferred: a message saying the form could not open */
	j = body(f->out.modal_late);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(j, "type")->valueint, 4);
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
	                           cJSON_GetObjectItemCaseSensitive(j, "data"), "content")),
	                       "could not open in time"));
	cJSON_Delete(j);
	/* the submit */
	assert_int_equal(interaction(f, "801", 5, ALICE,
	                             "{\"custom_id\":\"m:table set loot|entries\",\"components\":"
	                             "[{\"type\":18,\"component\":{\"type\":4,\"custom_id\":"
	                             "\"entries\",\"value\":\"1-3: a rat\\n4-6: 1d4 "
	                             "goblins\"}}]}"),
	                 INTERACT_ANSWER);
	assert_message(f->out.callback_body, "Saved the table **loot**: d6, 2 entries.", false);
	assert_null(f->out.modal_late);
	/* a form not ours */
	assert_int_equal(
	    interaction(f, "802", 5, ALICE, "{\"custom_id\":\"other\",\"components\":[]}"),
	    INTERACT_ANSWER);
	assert_message(f->out.callback_body,
	               "That form is not one this bot opened; run the command again.", true);
}

/* A request is held by the store until its commit is over: meanwhile the
 * event gave what a deferral needs, and the answer comes when the store
 * says so, with what it made of the change. */
static void
test_answer_held_for_the_commit(void **state)
{
	struct fixture *f = *state;
	struct holdstore h = {.st = f->st};
	struct request *req;
	cJSON *d;

	dispatch_set_store(f->d, &holdstore_ops, &h);
	d = cJSON_Parse(
	    "{\"id\":\"1001\",\"application_id\":\"42\",\"type\":2,\"token\":\"tok-1001\","
	    "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":" ALICE
	    ",\"data\":{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}}");
	assert_int_equal(
	    discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req, 7, 9, 8),
	    INTERACT_REQUEST);
	cJSON_Delete(d);
	/* Nothing to send yet. What a deferral needs is there. */
	assert_string_equal(f->out.id, "1001");
	assert_int_equal(f->out.type, 2);
	assert_string_equal(f->out.callback_path, "/interactions/1001/tok-1001/callback");
	assert_string_equal(f->out.followup_path, "/webhooks/42/tok-1001");
	assert_false(f->out.defer_private);
	assert_null(f->out.callback_body);
	assert_int_equal(f->out.nfollowups, 0);
	dispatch_submit(f->d, req);
	dispatch_poll(f->d);
	assert_int_equal(h.n, 1);
	assert_int_equal(f->answers, 0);
	/* The command ran: its reply is public. */
	assert_false(discord_interact_private(h.req[0]));
	holdstore_commit(&h, 0, REQUEST_NOT_DURABLE); /* committed, but not durable */
	assert_int_equal(f->answers, 1);
	assert_string_equal(f->out.callback_path, "/interactions/1001/tok-1001/callback");
	assert_int_equal(f->out.rx_ns, 7);
	assert_int_equal(f->out.deadline, 9);
	assert_message(
	    f->out.callback_body,
	    "**Alice** is now the GM of this channel.\nWarning: this change could not be "
	    "saved yet and may be lost if the bot restarts.",
	    false);
	dispatch_set_store(f->d, NULL, NULL);
}

/* A private reply held for its store: once the command ran, its request
 * tells it is private (a deferral of it is private too); its answer comes
 * ephemeral, not an error. A refusal known before the command runs (an
 * expired button) is private at once. */
static void
test_held_private_reply_defers_private(void **state)
{
	struct fixture *f = *state;
	struct holdstore h = {.st = f->st};
	struct request *req;
	cJSON *d;

	dispatch_set_store(f->d, &holdstore_ops, &h);
	d = cJSON_Parse(
	    "{\"id\":\"1002\",\"application_id\":\"42\",\"type\":2,\"token\":\"tok-1002\","
	    "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":" ALICE
	    ",\"data\":{\"name\":\"whisper\"}}");
	assert_int_equal(
	    discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req, 7, 9, 8),
	    INTERACT_REQUEST);
	cJSON_Delete(d);
	assert_false(f->out.defer_private); /* not known before it runs */
	dispatch_submit(f->d, req);
	assert_true(discord_interact_private(h.req[0]));
	holdstore_commit(&h, 0, REQUEST_DONE);
	assert_int_equal(f->answers, 1);
	assert_message(f->out.callback_body, "psst", true);
	discord_interact_out_clear(&f->out);
	d = cJSON_Parse(
	    "{\"id\":\"1003\",\"application_id\":\"42\",\"type\":3,\"token\":\"tok-1003\","
	    "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":" ALICE
	    ",\"data\":{\"custom_id\":\"gone\",\"component_type\":2}}");
	assert_int_equal(
	    discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req, 7, 9, 8),
	    INTERACT_REQUEST);
	cJSON_Delete(d);
	assert_true(f->out.defer_private);
	dispatch_submit(f->d, req);
	holdstore_commit(&h, 1, REQUEST_DONE);
	assert_message(f->out.callback_body, "That button has expired; run the command again.",
	               true);
	dispatch_set_store(f->d, NULL, NULL);
}

/* What a command's answer keeps with its event's mark is what it renders:
 * a replay of that interaction in another process (a new interaction
 * layer) whose mark was found answers with exactly that, the GM's direct
 * message included. */
static void
test_kept_answer_is_the_answer(void **state)
{
	struct fixture *f = *state, *g = fixture_new(NULL);
	struct holdstore h = {.st = f->st}, h2 = {.st = g->st};
	const char *json =
	    "{\"id\":\"1004\",\"application_id\":\"42\",\"type\":2,\"token\":\"tok-1004\","
	    "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":" ALICE
	    ",\"data\":{\"name\":\"secret\"}}";
	struct request *req;
	struct buf kept;
	char *first;
	cJSON *d = cJSON_Parse(json);

	buf_init(&kept, 1 << 20);
	dispatch_set_store(f->d, &holdstore_ops, &h);
	assert_int_equal(
	    discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req, 7, 9, 8),
	    INTERACT_REQUEST);
	assert_string_equal(request_key(req), "1004");
	dispatch_submit(f->d, req);
	assert_int_equal(request_keep(h.req[0], &kept), 0);
	holdstore_commit(&h, 0, REQUEST_DONE);
	assert_message(f->out.callback_body, "Something was rolled.", false);
	assert_int_equal(f->out.nfollowups, 1);
	first = strdup(f->out.callback_body);
	{
		/* The kept bytes: a JSON head measuring the message and its
		 * parts, then those as sent (no GM here: no direct message). */
		const char *end = NULL;
		cJSON *k = cJSON_ParseWithLengthOpts(kept.p, kept.len, &end, false);
		size_t clen = strlen(first), flen = strlen(f->out.followups[0]);

		assert_non_null(k);
		assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(k, "v")), 2);
		assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(k, "c")), clen);
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(k, "f")), 1);
		assert_int_equal(
		    cJSON_GetNumberValue(cJSON_GetArrayItem(cJSON_GetObjectItem(k, "f"), 0)), flen);
		assert_null(cJSON_GetObjectItem(k, "d"));
		assert_true(cJSON_IsFalse(cJSON_GetObjectItem(k, "e")));
		assert_true(cJSON_IsTrue(cJSON_GetObjectItem(k, "w")));
		assert_int_equal(kept.p + kept.len - end, clen + flen);
		assert_memory_equal(end, first, clen);
		assert_memory_equal(end + clen, f->out.followups[0], flen);
		cJSON_Delete(k);
	}
	dispatch_set_store(g->d, &holdstore_ops, &h2);
	assert_int_equal(
	    discord_interact_event(g->it, "INTERACTION_CREATE", d, 1000, &g->out, &req, 7, 9, 8),
	    INTERACT_REQUEST);
	request_set_replayed(req);
	dispatch_submit(g->d, req);
	request_set_kept(h2.req[0], kept.p, kept.len);
	holdstore_commit(&h2, 0, REQUEST_REPLAYED);
	assert_string_equal(g->out.callback_body, first);
	assert_int_equal(g->out.nfollowups, 1);
	assert_string_equal(g->out.followups[0], f->out.followups[0]);
	assert_string_equal(g->out.callback_path, "/interactions/1004/tok-1004/callback");
	assert_string_equal(g->out.followup_path, "/webhooks/42/tok-1004");
	/* Kept bytes that do not parse give nothing to send. */
	discord_interact_out_clear(&g->out);
	cJSON_Delete(d);
	d = cJSON_Parse(
	    "{\"id\":\"1005\",\"application_id\":\"42\",\"type\":2,\"token\":\"tok-1005\","
	    "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":" ALICE
	    ",\"data\":{\"name\":\"secret\"}}");
	assert_int_equal(
	    discord_interact_event(g->it, "INTERACTION_CREATE", d, 1000, &g->out, &req, 7, 9, 8),
	    INTERACT_REQUEST);
	request_set_replayed(req);
	dispatch_submit(g->d, req);
	request_set_kept(h2.req[1], "{\"c\":", 5);
	holdstore_commit(&h2, 1, REQUEST_REPLAYED);
	assert_null(g->out.callback_body);
	assert_int_equal(g->out.nfollowups, 0);
	discord_interact_out_clear(&g->out);
	cJSON_Delete(d);
	free(first);
	buf_free(&kept);
	dispatch_set_store(f->d, NULL, NULL);
	dispatch_set_store(g->d, NULL, NULL);
	teardown((void **)&g);
}

/* A token is 1 to 1,000 letters, digits, '.', '_' and '-': every byte
 * value, at every place of tokens of 1 to 40 bytes (the whole blocks of 16
 * and the bytes after them), is judged as that set says. */
static void
test_token_bytes(void **state)
{
	static const char set[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	char token[1002], json[1200];

	(void)state;
	for (size_t n = 1; n <= 40; n++) {
		for (size_t at = 0; at < n; at++) {
			for (int c = 1; c < 256; c++) {
				cJSON *d;
				char *path;

				for (size_t i = 0; i < n; i++)
					token[i] = set[(i * 7) % (sizeof(set) - 1)];
				token[at] = (char)c;
				token[n] = '\0';
				d = cJSON_CreateObject();
				cJSON_AddStringToObject(d, "application_id", "42");
				cJSON_AddStringToObject(d, "token", token);
				path = discord_interact_webhook_of(d);
				if (strchr(set, c) != NULL) {
					snprintf(json, sizeof(json), "/webhooks/42/%s", token);
					assert_non_null(path);
					assert_string_equal(path, json);
				} else {
					assert_null(path);
				}
				free(path);
				cJSON_Delete(d);
			}
		}
	}
	{
		cJSON *d = cJSON_CreateObject();
		char *path;

		memset(token, 'a', 1001);
		token[1001] = '\0';
		cJSON_AddStringToObject(d, "application_id", "42");
		cJSON_AddStringToObject(d, "token", token);
		assert_null(discord_interact_webhook_of(d));
		token[1000] = '\0';
		cJSON_ReplaceItemInObject(d, "token", cJSON_CreateString(token));
		path = discord_interact_webhook_of(d);
		assert_non_null(path);
		free(path);
		cJSON_ReplaceItemInObject(d, "token", cJSON_CreateString(""));
		assert_null(discord_interact_webhook_of(d));
		cJSON_Delete(d);
	}
}

/* An answer kept in either form reads as the same answer: the first form
 * (one JSON object, the bodies as strings, as earlier versions stored it)
 * and the second (a head measuring the bodies, then the bodies as they
 * are). A second form whose lengths do not add up to the bytes after its
 * head is no answer. */
static void
test_kept_answer_both_forms(void **state)
{
	static const char c[] =
	    "{\"type\":4,\"data\":{\"content\":\"Hi \\\"you\\\"\",\"flags\":64}}";
	static const char fu[] = "{\"content\":\"two \\u00e9\"}";
	static const char dm[] = "{\"content\":\"for the GM\"}";
	static const char first[] =
	    "{\"c\":\"{\\\"type\\\":4,\\\"data\\\":{\\\"content\\\":\\\"Hi "
	    "\\\\\\\"you\\\\\\\"\\\",\\\"flags\\\":64}}\",\"f\":[\"{\\\"content\\\":\\\"two "
	    "\\\\u00e9\\\"}\"],\"d\":\"{\\\"content\\\":\\\"for the "
	    "GM\\\"}\",\"g\":\"77\",\"n\":\"G\u00e9e\",\"e\":false,\"w\":true}";
	static const char second[] =
	    "{\"v\":2,\"c\":53,\"f\":[24],\"d\":24,\"g\":\"77\",\"n\":\"G\u00e9e\",\"e\":false,"
	    "\"w\":true}{\"type\":4,\"data\":{\"content\":\"Hi \\\"you\\\"\",\"flags\":64}}{"
	    "\"content\":\"two \\u00e9\"}{\"content\":\"for the GM\"}";
	const char *forms[] = {first, second};
	struct interact_out out;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		memset(&out, 0, sizeof(out));
		assert_int_equal(discord_interact_render_kept(forms[i], strlen(forms[i]),
		                                              "/webhooks/42/t", &out),
		                 0);
		assert_string_equal(out.callback_body, c);
		assert_int_equal(out.nfollowups, 1);
		assert_string_equal(out.followups[0], fu);
		assert_string_equal(out.dm_body, dm);
		assert_string_equal(out.gm_user, "77");
		assert_string_equal(out.gm_name, "G\u00e9e");
		assert_false(out.error);
		assert_string_equal(out.followup_path, "/webhooks/42/t");
		discord_interact_out_clear(&out);
	}
	/* One byte short, one byte over. */
	memset(&out, 0, sizeof(out));
	assert_int_equal(discord_interact_render_kept(second, strlen(second) - 1, NULL, &out), -1);
	assert_null(out.callback_body);
	assert_int_equal(out.nfollowups, 0);
	assert_null(out.dm_body);
	{
		char *over = malloc(sizeof(second) + 1);

		memcpy(over, second, sizeof(second) - 1);
		memcpy(over + sizeof(second) - 1, "x", 2);
		assert_int_equal(discord_interact_render_kept(over, strlen(over), NULL, &out), -1);
		assert_null(out.callback_body);
		free(over);
	}
}

/*
 * An interaction already past its deadline is shed before it is worked
 * out: a transport never touches channel state for it (no channel record
 * made, no user record, no command run), it is not even noted as seen,
 * and nothing is to be sent. The same interaction still in time does run.
 */
static void
test_shed_touches_no_state(void **state)
{
	struct fixture *f = *state;
	const char *json =
	    "{\"id\":\"1200000000000000001\",\"application_id\":\"42\",\"type\":2,"
	    "\"token\":\"tok-shed\",\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\","
	    "\"member\":" ALICE ",\"data\":{\"name\":\"gm\",\"options\":[{\"name\":"
	    "\"claim\",\"type\":1}]}}";
	cJSON *d = cJSON_Parse(json);
	size_t before = state_nchannels(f->st);
	struct request *req;
	int r;

	assert_non_null(d);
	/* At its deadline: too late. */
	assert_int_equal(discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req,
	                                        50, 100, 100),
	                 INTERACT_SHED);
	assert_null(req);
	assert_int_equal(state_nchannels(f->st), before);
	assert_null(state_channel_find(f->st, "discord:1234567890123456789"));
	assert_null(state_user_find(f->st, "discord:555"));
	assert_null(f->out.callback_path);
	assert_null(f->out.callback_body);
	assert_int_equal(discord_interact_stats(f->it)->commands, 0);
	/* Past it, and with the clock far ahead: still nothing. */
	assert_int_equal(discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req,
	                                        50, 100, UINT64_MAX),
	                 INTERACT_SHED);
	assert_int_equal(state_nchannels(f->st), before);
	/* One nanosecond before it: answered, and the channel has a record. */
	r = discord_interact_event(f->it, "INTERACTION_CREATE", d, 1000, &f->out, &req, 50, 100,
	                           99);
	assert_int_equal(settle(f, r, req), INTERACT_ANSWER);
	assert_int_equal(state_nchannels(f->st), before + 1);
	assert_message(f->out.callback_body, "**Alice** is now the GM of this channel.", false);
	/* No deadline (0): never shed. */
	discord_interact_out_clear(&f->out);
	cJSON_Delete(d);
	assert_int_equal(interaction(f, "1200000000000000002", 2, ALICE,
	                             "{\"name\":\"gm\",\"options\":[{\"name\":\"show\","
	                             "\"type\":1}]}"),
	                 1);
}

static void
test_command_reply(void **state)
{
	struct fixture *f = *state;
	struct channel *ch;

	assert_int_equal(
	    interaction(f, "1001", 2, ALICE,
	                "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}"),
	    1);
	assert_string_equal(f->out.id, "1001");
	assert_int_equal(f->out.type, 2);
	assert_string_equal(f->out.callback_path, "/interactions/1001/tok-1001/callback");
	assert_message(f->out.callback_body, "**Alice** is now the GM of this channel.", false);
	/* Where the new GM's secret rolls go, for the GM alone (ephemeral). */
	assert_string_equal(f->out.followup_path, "/webhooks/42/tok-1001");
	assert_int_equal(f->out.nfollowups, 1);
	assert_non_null(strstr(f->out.followups[0], "Secret rolls reach you by direct message"));
	assert_non_null(strstr(f->out.followups[0], "\"flags\":64"));
	ch = state_channel_find(f->st, "discord:1234567890123456789");
	assert_non_null(ch);
	assert_string_equal(channel_gm(ch), "discord:555");
	assert_string_equal(channel_gm_name(ch), "Alice");
	assert_int_equal(discord_interact_stats(f->it)->commands, 1);
}

/* An alias (as /r for /roll) is registered as a command of its own and
 * runs its command. */
static void
test_alias_runs_the_command(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(interaction(f, "1003", 2, ALICE, "{\"name\":\"wh\"}"), 1);
	assert_message(f->out.callback_body, "psst", true);
}

static void
test_duplicate_ignored(void **state)
{
	struct fixture *f = *state;
	const char *data = "{\"name\":\"gm\",\"options\":[{\"name\":\"show\",\"type\":1}]}";

	assert_int_equal(interaction(f, "1002", 2, ALICE, data), 1);
	assert_int_equal(interaction(f, "1002", 2, ALICE, data), 0);
	assert_null(f->out.callback_body);
	assert_int_equal(discord_interact_stats(f->it)->duplicates, 1);
	assert_int_equal(discord_interact_stats(f->it)->commands, 1);
}

static void
test_malformed_dropped(void **state)
{
	struct fixture *f = *state;
	static const char *const bad[] = {
	    "{\"id\":1003,\"type\":2,\"token\":\"t\",\"channel_id\":\"1\",\"user\":{\"id\":\"2\"},"
	    "\"data\":{\"name\":\"help\"}}",
	    "{\"id\":\"1004\",\"type\":2,\"channel_id\":\"1\",\"user\":{\"id\":\"2\"},"
	    "\"data\":{\"name\":\"help\"}}",
	    "{\"id\":\"1005\",\"type\":2,\"token\":\"t/../x\",\"channel_id\":\"1\","
	    "\"user\":{\"id\":\"2\"},\"data\":{\"name\":\"help\"}}",
	    "{\"id\":\"1006\",\"type\":2,\"token\":\"t\",\"user\":{\"id\":\"2\"},"
	    "\"data\":{\"name\":\"help\"}}",
	    "{\"id\":\"1007\",\"type\":2,\"token\":\"t\",\"channel_id\":\"18446744073709551616\","
	    "\"user\":{\"id\":\"2\"},\"data\":{\"name\":\"help\"}}",
	    "{\"id\":\"1008\",\"type\":\"2\",\"token\":\"t\",\"channel_id\":\"1\","
	    "\"user\":{\"id\":\"2\"},\"data\":{\"name\":\"help\"}}",
	    "{\"id\":\"1009\",\"type\":2,\"token\":\"t\",\"channel_id\":\"1\","
	    "\"user\":{\"id\":\"2\"},\"data\":[]}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(feed(f, "INTERACTION_CREATE", bad[i]), 0);
	assert_int_equal(discord_interact_stats(f->it)->malformed, sizeof(bad) / sizeof(bad[0]));
	assert_int_equal(feed(f, "INTERACTION_CREATE", "[1,2]"), 0);
	assert_int_equal(feed(f, "MESSAGE_CREATE", "{\"id\":\"5\"}"), 0);
}

static void
test_dm_and_big_snowflake(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(feed(f, "INTERACTION_CREATE",
	                      "{\"id\":\"18446744073709551615\",\"type\":2,\"token\":\"t\","
	                      "\"channel_id\":\"18446744073709551614\",\"user\":{\"id\":"
	                      "\"9007199254740993\",\"username\":\"carol\"},"
	                      "\"data\":{\"name\":\"gm\",\"options\":[{\"name\":\"claim\","
	                      "\"type\":1}]}}"),
	                 1);
	assert_string_equal(f->out.callback_path, "/interactions/18446744073709551615/t/callback");
	assert_string_equal(channel_gm(state_channel_find(f->st, "discord:18446744073709551614")),
	                    "discord:9007199254740993");
	assert_message(f->out.callback_body,
	               "This is your private conversation with delver: you are its GM without "
	               "claiming the seat, so there is no seat to claim.",
	               false);
	/* Ids are keys as numbers: leading zeros do not make another channel,
	 * user or callback path. */
	assert_int_equal(feed(f, "INTERACTION_CREATE",
	                      "{\"id\":\"0077\",\"type\":2,\"token\":\"t\","
	                      "\"channel_id\":\"00042\",\"user\":{\"id\":\"009\","
	                      "\"username\":\"dave\"},\"data\":{\"name\":\"gm\",\"options\":"
	                      "[{\"name\":\"claim\",\"type\":1}]}}"),
	                 1);
	assert_string_equal(f->out.id, "77");
	assert_string_equal(f->out.callback_path, "/interactions/77/t/callback");
	assert_string_equal(channel_gm(state_channel_find(f->st, "discord:42")), "discord:9");
}

static void
test_error_is_ephemeral(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1010", 2, ALICE,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}");
	assert_int_equal(interaction(f, "1011", 2,
	                             "{\"user\":{\"id\":\"557\",\"username\":\"dave\"},"
	                             "\"permissions\":\"0\"}",
	                             "{\"name\":\"gm\",\"options\":[{\"name\":\"release\","
	                             "\"type\":1}]}"),
	                 1);
	assert_message(f->out.callback_body,
	               "Only Alice (the GM) or a channel admin can release the GM seat.", true);
}

static void
test_manage_channels_is_admin(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1020", 2, ALICE,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}");
	/* 16 = Manage Channels: may release someone else's seat. */
	interaction(f, "1021", 2,
	            "{\"user\":{\"id\":\"557\",\"username\":\"dave\"},\"permissions\":\"16\"}",
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"release\",\"type\":1}]}");
	assert_message(f->out.callback_body,
	               "**Alice** is no longer the GM; anyone may `/gm claim`.", false);
	/* Every bit set, as a string too long for a double to hold exactly. */
	interaction(f, "1022", 2,
	            "{\"user\":{\"id\":\"558\",\"username\":\"erin\"},"
	            "\"permissions\":\"18446744073709551615\"}",
	            "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body, "done by the GM", false);
	interaction(f, "1023", 2, ALICE, "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body,
	               "Only the GM can do that, and nobody is GM here yet; `/gm claim` makes "
	               "you the GM.",
	               true);
}

/* The GM role ids learnt from the guilds survive a restart through the
 * session file (a resume does not send GUILD_CREATE again). */
static void
test_gm_roles_export_import(void **state)
{
	struct roles *a = discord_roles_new("Game Master"), *b = discord_roles_new("game master");
	struct roles *other = discord_roles_new("Referee"), *byid = discord_roles_new("500");
	cJSON *gd = cJSON_Parse("{\"id\":\"99\",\"roles\":[{\"id\":\"500\",\"name\":\"Game "
	                        "Master\"},{\"id\":\"501\",\"name\":\"Player\"}]}");
	cJSON *member = cJSON_Parse("[\"501\",\"500\"]"), *saved;
	char out[256], tiny[20];

	discord_roles_event(a, "GUILD_CREATE", gd);
	assert_int_equal(discord_roles_export(a, out, sizeof(out)), 0);
	assert_string_equal(out, "{\"name\":\"Game Master\",\"guilds\":{\"99\":[\"500\"]}}");
	/* too small for any guild: the name alone would not fit either */
	assert_int_equal(discord_roles_export(a, tiny, sizeof(tiny)), 0);
	assert_string_equal(tiny, "");
	assert_int_equal(discord_roles_export(byid, out, sizeof(out)), -1);
	assert_string_equal(out, "");
	discord_roles_export(a, out, sizeof(out));
	saved = cJSON_Parse(out);
	assert_false(discord_roles_member_is_gm(b, 99, member));
	discord_roles_import(b, saved);
	assert_true(discord_roles_member_is_gm(b, 99, member));
	assert_false(discord_roles_member_is_gm(b, 98, member));
	discord_roles_import(other, saved); /* another role's ids are not taken */
	assert_false(discord_roles_member_is_gm(other, 99, member));
	cJSON_Delete(saved);
	cJSON_Delete(member);
	cJSON_Delete(gd);
	discord_roles_free(a);
	discord_roles_free(b);
	discord_roles_free(other);
	discord_roles_free(byid);
}

static void
test_gm_role_by_name(void **state)
{
	struct fixture *f = fixture_new("Game Master");

	feed(f, "GUILD_CREATE",
	     "{\"id\":\"99\",\"roles\":[{\"id\":\"500\",\"name\":\"game master\"},"
	     "{\"id\":\"501\",\"name\":\"Player\"}]}");
	interaction(f, "1030", 2,
	            "{\"user\":{\"id\":\"560\",\"username\":\"gm\"},\"permissions\":\"0\","
	            "\"roles\":[\"501\",\"500\"]}",
	            "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body, "done by the GM", false);
	interaction(f, "1031", 2, BOB, "{\"name\":\"gmcmd\"}");
	assert_true(strstr(f->out.callback_body, "Only the GM") != NULL);
	/* Renamed: 501 is now the GM role, 500 no longer. */
	feed(f, "GUILD_ROLE_UPDATE",
	     "{\"guild_id\":\"99\",\"role\":{\"id\":\"501\",\"name\":\"GAME MASTER\"}}");
	feed(f, "GUILD_ROLE_UPDATE",
	     "{\"guild_id\":\"99\",\"role\":{\"id\":\"500\",\"name\":\"retired\"}}");
	interaction(f, "1032", 2, BOB, "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body, "done by the GM", false);
	feed(f, "GUILD_ROLE_DELETE", "{\"guild_id\":\"99\",\"role_id\":\"501\"}");
	interaction(f, "1033", 2, BOB, "{\"name\":\"gmcmd\"}");
	assert_true(strstr(f->out.callback_body, "Only the GM") != NULL);
	/* Another guild's role of that name does not count here. */
	feed(f, "GUILD_CREATE",
	     "{\"id\":\"98\",\"roles\":[{\"id\":\"501\",\"name\":\"Game Master\"}]}");
	interaction(f, "1034", 2, BOB, "{\"name\":\"gmcmd\"}");
	assert_true(strstr(f->out.callback_body, "Only the GM") != NULL);
	teardown((void **)&f);
}

static void
test_gm_role_by_id(void **state)
{
	struct fixture *f = fixture_new("501");

	interaction(f, "1040", 2, BOB, "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body, "done by the GM", false);
	interaction(f, "1041", 2, ALICE, "{\"name\":\"gmcmd\"}");
	assert_true(strstr(f->out.callback_body, "Only the GM") != NULL);
	teardown((void **)&f);
}

static void
test_options_bound(void **state)
{
	struct fixture *f = *state;

	interaction(
	    f, "1050", 2, ALICE,
	    "{\"name\":\"pick\",\"options\":[{\"name\":\"who\",\"type\":6,\"value\":\"888\"},"
	    "{\"name\":\"n\",\"type\":4,\"value\":3},{\"name\":\"flag\",\"type\":5,"
	    "\"value\":true},{\"name\":\"size\",\"type\":3,\"value\":\"large\"}],"
	    "\"resolved\":{\"users\":{\"888\":{\"id\":\"888\",\"username\":\"bob\"}},"
	    "\"members\":{\"888\":{\"nick\":\"Bob the Bold\"}}}}");
	assert_message(f->out.callback_body, "who=Bob the Bold n=3 flag=1 size=large", false);
	/* Out of the declared range: the registry's own error, privately. */
	interaction(
	    f, "1051", 2, ALICE,
	    "{\"name\":\"pick\",\"options\":[{\"name\":\"who\",\"type\":6,\"value\":\"888\"},"
	    "{\"name\":\"n\",\"type\":4,\"value\":11}]}");
	assert_message(f->out.callback_body,
	               "A number (n:) must be a whole number from 1 to 10 (got '11'); usage: "
	               "`/pick who:text [n:N] [flag:true|false] [size:small|medium|large] "
	               "[entry:text]`",
	               true);
	/* A required option missing, and a fractional integer. */
	interaction(f, "1052", 2, ALICE, "{\"name\":\"pick\"}");
	assert_true(strstr(f->out.callback_body, "No value given for who (a player); usage") !=
	            NULL);
	interaction(
	    f, "1053", 2, ALICE,
	    "{\"name\":\"pick\",\"options\":[{\"name\":\"who\",\"type\":6,\"value\":\"888\"},"
	    "{\"name\":\"n\",\"type\":4,\"value\":2.5}]}");
	assert_true(strstr(f->out.callback_body, "The option n arrived malformed") != NULL);
}

static void
test_private_part_follows_up(void **state)
{
	struct fixture *f = *state;
	cJSON *j;

	interaction(f, "1060", 2, ALICE, "{\"name\":\"secret\"}");
	assert_message(f->out.callback_body, "Something was rolled.", false);
	assert_string_equal(f->out.followup_path, "/webhooks/42/tok-1060");
	assert_int_equal(f->out.nfollowups, 1);
	j = body(f->out.followups[0]);
	assert_string_equal(cJSON_GetObjectItem(j, "content")->valuestring, "**It was a 6.**");
	assert_int_equal(cJSON_GetObjectItem(j, "flags")->valueint, 64);
	assert_non_null(cJSON_GetObjectItem(j, "allowed_mentions"));
	cJSON_Delete(j);
	interaction(f, "1061", 2, ALICE, "{\"name\":\"whisper\"}");
	assert_message(f->out.callback_body, "psst", true);
	assert_null(f->out.followup_path);
	assert_int_equal(f->out.nfollowups, 0);
}

/* A reply longer than a message: the callback has its start, follow-ups
 * the rest, in order, the channel's before the invoker's. */
static void
test_long_reply_follows_up(void **state)
{
	struct fixture *f = *state;
	int line = 0, priv = 0;
	cJSON *j;

	interaction(f, "1062", 2, ALICE, "{\"name\":\"long\"}");
	assert_string_equal(f->out.followup_path, "/webhooks/42/tok-1062");
	assert_int_equal(f->out.nfollowups, 4); /* 5,000 and 3,300 characters */
	for (size_t i = 0; i <= f->out.nfollowups; i++) {
		const char *c, *p;

		j = body(i == 0 ? f->out.callback_body : f->out.followups[i - 1]);
		if (i == 0) {
			cJSON *root = j;

			j = cJSON_DetachItemFromObject(root, "data");
			cJSON_Delete(root);
		}
		c = cJSON_GetObjectItem(j, "content")->valuestring;
		/* Each message continues where the one before it stopped. */
		for (p = c; *p != '\0'; p += strcspn(p, "\n"), p += *p == '\n') {
			char want[64];
			bool eph = cJSON_GetObjectItem(j, "flags") != NULL;

			if (line < 150)
				snprintf(want, sizeof(want), "channel line %d with", line++);
			else
				snprintf(want, sizeof(want), "private line %d with", priv++);
			assert_true(strncmp(p, want, strlen(want)) == 0);
			assert_true(eph == (line == 150 && priv > 0));
		}
		cJSON_Delete(j);
	}
	assert_int_equal(line, 150);
	assert_int_equal(priv, 100);
}

static void
test_unknown_command(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1070", 2, ALICE, "{\"name\":\"nosuch\"}");
	assert_message(f->out.callback_body,
	               "There is no command /nosuch here any more; the command list is being "
	               "updated, so try again in a minute.",
	               true);
	interaction(f, "1071", 2, ALICE,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"nosuch\",\"type\":1}]}");
	assert_true(strstr(f->out.callback_body, "Unknown subcommand 'nosuch'") != NULL);
}

static void
test_button_runs_line(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1080", 3, ALICE, "{\"custom_id\":\"a:gm show\",\"component_type\":2}");
	assert_message(f->out.callback_body, "Nobody is GM here yet; `/gm claim` makes you the GM.",
	               false);
	interaction(f, "1081", 3, ALICE, "{\"custom_id\":\"b:77\",\"component_type\":2}");
	assert_message(f->out.callback_body, "That button has expired; run the command again.",
	               true);
	interaction(f, "1082", 3, ALICE, "{\"component_type\":2}");
	assert_message(f->out.callback_body, "That button has expired; run the command again.",
	               true);
	assert_int_equal(discord_interact_stats(f->it)->components, 3);
}

/* The type and content of a callback body; whether its data has flags. */
static void
assert_callback(const char *s, int type, const char *content, bool ephemeral)
{
	cJSON *j = body(s), *data = cJSON_GetObjectItem(j, "data");

	assert_int_equal(cJSON_GetObjectItem(j, "type")->valueint, type);
	assert_string_equal(cJSON_GetObjectItem(data, "content")->valuestring, content);
	assert_int_equal(cJSON_GetObjectItem(data, "flags") != NULL, ephemeral);
	cJSON_Delete(j);
}

/* A button whose reply replaces its message answers with type 7 (the
 * message's new content, no flags: it stays as public or private as it
 * was); when the reply is an error, or only for the presser, the message
 * stays and the presser alone is told (type 4, ephemeral). */
static void
test_update_button(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1090", 3, ALICE, "{\"custom_id\":\"u:gm show\",\"component_type\":2}");
	assert_callback(f->out.callback_body, 7,
	                "Nobody is GM here yet; `/gm claim` makes you the GM.", false);
	assert_null(f->out.followup_path);
	interaction(f, "1091", 3, ALICE, "{\"custom_id\":\"u:gmcmd\",\"component_type\":2}");
	assert_callback(f->out.callback_body, 4,
	                "Only the GM can do that, and nobody is GM here yet; `/gm claim` makes "
	                "you the GM.",
	                true);
	interaction(f, "1092", 3, ALICE, "{\"custom_id\":\"u:whisper\",\"component_type\":2}");
	assert_callback(f->out.callback_body, 4, "psst", true);
	/* A public and a private part: the public one updates the message,
	 * the private one follows, ephemeral. */
	interaction(f, "1093", 3, ALICE, "{\"custom_id\":\"u:secret\",\"component_type\":2}");
	assert_callback(f->out.callback_body, 7, "Something was rolled.", false);
	assert_int_equal(f->out.nfollowups, 1);
	/* An update button whose stored line is gone has expired, as others. */
	interaction(f, "1094", 3, ALICE, "{\"custom_id\":\"v:1\",\"component_type\":2}");
	assert_callback(f->out.callback_body, 4, "That button has expired; run the command again.",
	                true);
}

/* The answer function of a test's own interaction layer: the press is
 * kept, unrendered (ctx: where). */
static void
keep_press(struct request *req, void *ctx)
{
	*(struct request **)ctx = req;
}

/* Alice's press of the panel button running line, on message 777, fed to
 * it: its request, to submit. */
static struct request *
panel_press(struct interact *it, const char *id, const char *line)
{
	struct interact_out out;
	struct request *req = NULL;
	char json[1024];
	cJSON *d;

	snprintf(json, sizeof(json),
	         "{\"id\":\"%s\",\"application_id\":\"42\",\"type\":3,\"token\":\"tok-%s\","
	         "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":" ALICE
	         ",\"message\":{\"id\":\"777\"},"
	         "\"data\":{\"custom_id\":\"p:%s\",\"component_type\":2}}",
	         id, id, line);
	d = cJSON_Parse(json);
	assert_non_null(d);
	memset(&out, 0, sizeof(out));
	assert_int_equal(
	    discord_interact_event(it, "INTERACTION_CREATE", d, 1000, &out, &req, 0, 0, 0),
	    INTERACT_REQUEST);
	cJSON_Delete(d);
	discord_interact_out_clear(&out);
	return req;
}

/* A press of a panel's button updates the pressed message (type 7) with
 * the very bytes discord_interact_render_panel writes, which discord_live
 * hashes and a refresh edits in: a button whose line is too long for a
 * custom_id is left out there as it is from the panel posted, not stored
 * (a stored line would expire at a restart; the panel does not). */
static void
test_press_carries_the_panel_hashed(void **state)
{
	struct fixture *f = *state;
	struct request *press = NULL, *req = NULL;
	struct interact_opts o = {.d = f->d, .answer = keep_press, .answer_ctx = &press};
	struct interact *it = discord_interact_new(&o);
	struct reply *panel = reply_new();
	struct interact_out out;
	char long_line[160], *body, *want;

	memset(long_line, 'x', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	req = panel_press(it, "1200", "secret");
	dispatch_submit(f->d, req);
	dispatch_poll(f->d);
	assert_ptr_equal(press, req);
	assert_string_equal(discord_interact_pressed(press), "777");
	reply_panel(panel, "777");
	reply_line(panel, 0, "Turn 1");
	reply_button_panel(panel, "Next turn", "hazard roll");
	reply_button_panel(panel, "Far", long_line);
	body = discord_interact_render_panel(it, panel);
	assert_non_null(body);
	assert_null(strstr(body, "Far"));
	memset(&out, 0, sizeof(out));
	assert_true(discord_interact_render_press(it, press, xstrdup(body), true, &out));
	want = malloc(strlen(body) + 32);
	snprintf(want, strlen(body) + 32, "{\"type\":7,\"data\":%s}", body);
	assert_string_equal(out.callback_body, want);
	assert_int_equal(out.nfollowups, 2); /* what the press did, its private part */
	free(want);
	free(body);
	discord_interact_out_clear(&out);
	reply_free(panel);
	request_free(press);
	discord_interact_free(it);
}

/* A press of a panel's button whose change kept its answer with its mark
 * (what a replay of it gets) is answered with those very messages after
 * the panel: not rendered again, so a button line stored for the kept
 * answer is not stored a second time under another number. */
static void
test_press_answers_with_its_kept_messages(void **state)
{
	struct fixture *f = *state;
	struct request *press = NULL, *req = NULL;
	struct interact_opts o = {.d = f->d, .answer = keep_press, .answer_ctx = &press};
	struct interact *it = discord_interact_new(&o);
	struct holdstore h = {.st = f->st};
	struct reply *panel = reply_new();
	struct interact_out out, ko;
	struct buf kept;
	const char *c;
	char *body;

	buf_init(&kept, 1 << 20);
	dispatch_set_store(f->d, &holdstore_ops, &h);
	req = panel_press(it, "1201", "again");
	dispatch_submit(f->d, req);
	assert_int_equal(request_keep(h.req[0], &kept), 0);
	holdstore_commit(&h, 0, REQUEST_DONE);
	assert_ptr_equal(press, req);
	reply_panel(panel, "777");
	reply_line(panel, 0, "Turn 1");
	reply_button_panel(panel, "Next turn", "hazard roll");
	body = discord_interact_render_panel(it, panel);
	memset(&out, 0, sizeof(out));
	assert_true(discord_interact_render_press(it, press, body, true, &out));
	/* The kept answer: its callback's message, then its private part. */
	memset(&ko, 0, sizeof(ko));
	assert_int_equal(discord_interact_render_kept(kept.p, kept.len, NULL, &ko), 0);
	c = ko.callback_body;
	assert_int_equal(strncmp(c, "{\"type\":4,\"data\":", 17), 0);
	assert_int_equal(out.nfollowups, 2);
	assert_int_equal(strlen(out.followups[0]), strlen(c) - 18);
	assert_memory_equal(out.followups[0], c + 17, strlen(c) - 18);
	assert_non_null(strstr(out.followups[0], "\"custom_id\":\"b:"));
	assert_int_equal(ko.nfollowups, 1);
	assert_string_equal(out.followups[1], ko.followups[0]);
	assert_string_equal(out.followup_path, "/webhooks/42/tok-1201");
	discord_interact_out_clear(&ko);
	buf_free(&kept);
	discord_interact_out_clear(&out);
	reply_free(panel);
	request_free(press);
	dispatch_set_store(f->d, NULL, NULL);
	discord_interact_free(it);
}

/* /panel answers its invoker alone (ephemeral), saying which message is
 * the panel; with Tension hidden, the GM's answer says so too, then gives
 * the GM's copy with the bar, and says it is theirs alone (the panel, the
 * channel's, says only that Tension is hidden). */
static void
test_panel_answer_says_where_the_panel_is(void **state)
{
	struct fixture *f = *state;
	cJSON *j;
	const char *content;

	interaction(f, "1210", 2, ALICE,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}");
	interaction(f, "1211", 2, ALICE, "{\"name\":\"panel\"}");
	assert_message(f->out.callback_body, PANEL_NOTE, true);
	interaction(f, "1212", 2, ALICE,
	            "{\"name\":\"tension\",\"options\":[{\"name\":\"mode\",\"type\":1,"
	            "\"options\":[{\"name\":\"mode\",\"type\":3,\"value\":\"hidden\"}]}]}");
	interaction(f, "1213", 2, BOB, "{\"name\":\"panel\"}");
	assert_message(f->out.callback_body, PANEL_NOTE, true);
	interaction(f, "1214", 2, ALICE, "{\"name\":\"panel\"}");
	j = body(f->out.callback_body);
	content =
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "data"), "content"));
	assert_string_equal(content, PANEL_NOTE
	                    " " PANEL_COPY_NOTE "\n"
	                    "**Turn 0** (0 min in the dungeon) · **0** turns since the last "
	                    "rest · Darkness: nothing is lit\n"
	                    "Tension █░░░░░░░░░ **1**/10 · Hazard die: **exploration**");
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "data"), "flags")->valueint,
	                 64);
	cJSON_Delete(j);
}

/* The follow-ups one answer takes: unbounded (up to what its parts make)
 * when a server install authorised it, at most 5 when a user install
 * alone did (Discord refuses a sixth), one of them kept for the note a
 * refused GM message needs, and one more for a button's (its deferral
 * would make its first message a follow-up). */
static void
test_user_install_followups(void **state)
{
	struct fixture *f = *state;
	static const char *const owners[] = {
	    "", ",\"authorizing_integration_owners\":{\"0\":\"99\"}",
	    ",\"authorizing_integration_owners\":{\"0\":\"99\",\"1\":\"555\"}",
	    ",\"authorizing_integration_owners\":{\"1\":\"555\"}"};
	static const size_t want[] = {11, 11, 11, 5};
	char json[2048];

	for (size_t i = 0; i < 4; i++) {
		snprintf(json, sizeof(json),
		         "{\"id\":\"%zu\",\"application_id\":\"42\",\"type\":2,\"token\":\"t%zu\","
		         "\"guild_id\":\"99\",\"channel_id\":\"1234567890123456789\",\"member\":%s,"
		         "\"data\":{\"name\":\"huge\"}%s}",
		         1100 + i, i, ALICE, owners[i]);
		assert_int_equal(feed(f, "INTERACTION_CREATE", json), 1);
		assert_int_equal(f->out.nfollowups, want[i]);
	}
	/* A button's: 4, since a deferral would make its first message a
	 * follow-up. */
	snprintf(
	    json, sizeof(json),
	    "{\"id\":\"1110\",\"application_id\":\"42\",\"type\":3,\"token\":\"t9\","
	    "\"channel_id\":\"1234567890123456780\",\"user\":{\"id\":\"555\",\"username\":\"a\"},"
	    "\"context\":2,\"authorizing_integration_owners\":{\"1\":\"555\"},"
	    "\"data\":{\"custom_id\":\"a:huge\",\"component_type\":2}}");
	assert_int_equal(feed(f, "INTERACTION_CREATE", json), 1);
	assert_int_equal(f->out.nfollowups, 4);
}

/* A thread (or forum post) is a channel of its own, whose GM seat is its
 * parent channel's while it has none: the parent's GM runs GM-only
 * commands there, another member is told who the GM is. */
/* An interaction in thread 777 of channel 1234567890123456789. */
static void
in_thread(struct fixture *f, const char *id, const char *member, const char *data)
{
	char json[2048];

	snprintf(json, sizeof(json),
	         "{\"id\":\"%s\",\"application_id\":\"42\",\"type\":2,\"token\":\"t%s\","
	         "\"guild_id\":\"99\",\"channel_id\":\"777\",\"channel\":{\"id\":\"777\","
	         "\"type\":11,\"parent_id\":\"1234567890123456789\"},\"member\":%s,\"data\":%s}",
	         id, id, member, data);
	assert_int_equal(feed(f, "INTERACTION_CREATE", json), 1);
}

static void
test_thread_takes_the_parents_seat(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1120", 2, ALICE,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}");
	in_thread(f, "1121", ALICE, "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body, "done by the GM", false);
	in_thread(f, "1122", BOB, "{\"name\":\"gmcmd\"}");
	assert_message(f->out.callback_body, "Only the GM can do that here; the GM is Alice.",
	               true);
	in_thread(f, "1123", BOB, "{\"name\":\"gm\",\"options\":[{\"name\":\"show\",\"type\":1}]}");
	assert_message(f->out.callback_body,
	               "The GM here is **Alice**, the GM of the channel this thread belongs to.",
	               false);
	/* Its records are its own: the thread's key, not the parent's. */
	assert_non_null(state_channel_peek(f->st, "discord:777"));
	assert_null(channel_gm(state_channel_peek(f->st, "discord:777")));
}

static void
assert_choices(const char *s, const char *const *want, size_t n)
{
	cJSON *j = body(s);
	const cJSON *arr = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "data"), "choices");

	assert_int_equal(cJSON_GetObjectItem(j, "type")->valueint, 8);
	assert_int_equal(cJSON_GetArraySize(arr), n);
	for (size_t i = 0; i < n; i++) {
		const cJSON *c = cJSON_GetArrayItem(arr, (int)i);

		assert_string_equal(cJSON_GetObjectItem(c, "name")->valuestring, want[i]);
		assert_string_equal(cJSON_GetObjectItem(c, "value")->valuestring, want[i]);
	}
	cJSON_Delete(j);
}

static void
test_autocomplete(void **state)
{
	struct fixture *f = *state;
	static const char *const sizes_l[] = {"large", "small"};
	static const char *const entries[] = {"alpha", "beta", "gamma", "no record"};

	interaction(f, "1090", 4, ALICE,
	            "{\"name\":\"pick\",\"options\":[{\"name\":\"size\",\"type\":3,"
	            "\"value\":\"L\",\"focused\":true}]}");
	assert_choices(f->out.callback_body, sizes_l, 2);
	/* A bad value in another option does not stop suggestions. */
	interaction(f, "1091", 4, ALICE,
	            "{\"name\":\"pick\",\"options\":[{\"name\":\"n\",\"type\":4,\"value\":99},"
	            "{\"name\":\"entry\",\"type\":3,\"value\":\"a\",\"focused\":true}]}");
	assert_choices(f->out.callback_body, entries, 4);
	interaction(f, "1092", 4, ALICE, "{\"name\":\"nosuch\",\"options\":[]}");
	assert_choices(f->out.callback_body, NULL, 0);
	/* No option focused, one bound: nothing suggested, nothing leaked
	 * (the fuzzer found the leak; unit-sanitize checks it). */
	interaction(f, "1093", 4, ALICE,
	            "{\"name\":\"pick\",\"options\":[{\"name\":\"size\",\"type\":3,"
	            "\"value\":\"small\"}]}");
	assert_choices(f->out.callback_body, NULL, 0);
	assert_int_equal(discord_interact_stats(f->it)->autocompletes, 4);
	assert_int_equal(state_nchannels(f->st), 0);
	assert_int_equal(state_nusers(f->st), 0);
}

/* The id set forgets the oldest ids first and never loses a recent one,
 * however the ids fall into the hash's buckets. */
static void
test_seen_window(void **state)
{
	struct fixture *f = *state;
	char id[32];
	int answered = 0;

	for (int i = 0; i < 10000; i++) {
		snprintf(id, sizeof(id), "%d", 100000 + i * 4096);
		answered += interaction(f, id, 2, ALICE, "{\"name\":\"whisper\"}");
	}
	assert_int_equal(answered, 10000);
	for (int i = 10000 - 4096; i < 10000; i++) {
		snprintf(id, sizeof(id), "%d", 100000 + i * 4096);
		assert_int_equal(interaction(f, id, 2, ALICE, "{\"name\":\"whisper\"}"), 0);
	}
	snprintf(id, sizeof(id), "%d", 100000);
	assert_int_equal(interaction(f, id, 2, ALICE, "{\"name\":\"whisper\"}"), 1);
}

/* A player's secret roll: the channel's answer says who rolls what, the
 * GM's part becomes a direct message to the GM seat's holder, headed by
 * the channel, with a follow-up path for telling the roller when it
 * cannot be delivered; nothing of it is in the channel's answer. */
static void
test_gmroll_direct_message(void **state)
{
	struct fixture *f = *state;
	cJSON *j;

	interaction(f, "1070", 2, BOB,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}");
	assert_string_equal(f->out.gm_user, "");
	assert_null(f->out.dm_body);
	interaction(f, "1071", 2, ALICE,
	            "{\"name\":\"gmroll\",\"options\":[{\"name\":\"expression\",\"type\":3,"
	            "\"value\":\"1d20+5 # stealth\"}]}");
	assert_message(f->out.callback_body,
	               "**Alice** rolls in secret: only the GM, **Bobby**, sees the result.",
	               false);
	assert_int_equal(f->out.nfollowups, 0);
	assert_string_equal(f->out.gm_user, "556");
	assert_string_equal(f->out.gm_name, "Bobby");
	assert_string_equal(f->out.followup_path, "/webhooks/42/tok-1071");
	j = body(f->out.dm_body);
	assert_string_equal(
	    cJSON_GetObjectItem(j, "content")->valuestring,
	    "From <#1234567890123456789>:\n**Alice** rolls *stealth* in "
	    "secret\n```ansi\n\x1b[0;36m1d20 + 5\x1b[0m: [15] + 5 = \x1b[1;33m20\x1b[0m\n```");
	assert_null(cJSON_GetObjectItem(j, "flags"));
	assert_non_null(cJSON_GetObjectItem(j, "allowed_mentions"));
	cJSON_Delete(j);
	/* The GM's own: behind the screen, private to the GM, no message. */
	interaction(f, "1072", 2, BOB,
	            "{\"name\":\"gmroll\",\"options\":[{\"name\":\"expression\",\"type\":3,"
	            "\"value\":\"2d6\"}]}");
	assert_message(f->out.callback_body, "**Bobby** (GM) rolls behind the screen.", false);
	assert_int_equal(f->out.nfollowups, 1);
	assert_string_equal(f->out.gm_user, "");
	assert_null(f->out.dm_body);
}

/* Compact output on Discord: a wandering check's heading opens its line
 * instead of being the message's bold first line. */
static void
test_compact_heading(void **state)
{
	struct fixture *f = *state;
	static const char *const check =
	    "{\"name\":\"wander\",\"options\":[{\"name\":\"check\",\"type\":1}]}";

	interaction(f, "1080", 2, BOB, check);
	assert_message(
	    f->out.callback_body,
	    "**Wandering check: corridor leg (1-in-6)**\n```ansi\nd6: \x1b[1;33m5\x1b[0m → "
	    "\x1b[0;32mno wandering monsters\x1b[0m.\n```",
	    false);
	interaction(f, "1079", 2, BOB,
	            "{\"name\":\"gm\",\"options\":[{\"name\":\"claim\",\"type\":1}]}");
	interaction(f, "1081", 2, BOB,
	            "{\"name\":\"settings\",\"options\":[{\"name\":\"compact\",\"type\":1,"
	            "\"options\":[{\"name\":\"mode\",\"type\":3,\"value\":\"on\"}]}]}");
	interaction(f, "1082", 2, BOB, check);
	assert_message(f->out.callback_body,
	               "```ansi\nWandering check: corridor leg (1-in-6) · d6: \x1b[1;33m4\x1b[0m → "
	               "\x1b[0;32mno wandering monsters\x1b[0m.\n```",
	               false);
}

/* Issue 15's shortcuts on Discord: /r with adv, a label's bidi override
 * removed, /log, and a lone d20's natural 20 marked. */
static void
test_roll_shortcuts(void **state)
{
	struct fixture *f = *state;
	int i;

	interaction(f, "1100", 2, ALICE,
	            "{\"name\":\"r\",\"options\":[{\"name\":\"expression\",\"type\":3,"
	            "\"value\":\"1d20+5 adv # sneak\"}]}");
	assert_message(
	    f->out.callback_body,
	    "**Alice** rolls *sneak*\n"
	    "```ansi\n"
	    "\x1b[0;36m2d20kh1 + 5\x1b[0m: [15, \x1b[0;30m1̶1̶\x1b[0m] + 5 = \x1b[1;33m20\x1b[0m\n"
	    "```",
	    false);
	interaction(f, "1101", 2, ALICE,
	            "{\"name\":\"roll\",\"options\":[{\"name\":\"expression\",\"type\":3,"
	            "\"value\":\"1d20 # a\xe2\x80\xae"
	            "41\"}]}");
	assert_message(f->out.callback_body,
	               "**Alice** rolls *a41*\n"
	               "```ansi\n"
	               "\x1b[0;36m1d20\x1b[0m: [12] = \x1b[1;33m12\x1b[0m\n"
	               "```",
	               false);
	interaction(f, "1102", 2, ALICE,
	            "{\"name\":\"log\",\"options\":[{\"name\":\"count\",\"type\":4,"
	            "\"value\":2}]}");
	assert_message(f->out.callback_body,
	               "**The last 2 rolls here, newest first**\n"
	               "```ansi\n"
	               "\x1b[1mwhen      who    roll                 result\x1b[0m\n"
	               "just now  Alice  1d20 # a41           12\n"
	               "just now  Alice  2d20kh1 + 5 # sneak  20\n"
	               "```",
	               false);
	for (i = 0; i < 100; i++) {
		char id[16];
		cJSON *j;
		bool natural;

		snprintf(id, sizeof(id), "%d", 1200 + i);
		interaction(f, id, 2, ALICE,
		            "{\"name\":\"roll\",\"options\":[{\"name\":\"expression\","
		            "\"type\":3,\"value\":\"d20\"}]}");
		j = body(f->out.callback_body);
		natural =
		    strstr(
		        cJSON_GetObjectItem(cJSON_GetObjectItem(j, "data"), "content")->valuestring,
		        "Natural") != NULL;
		cJSON_Delete(j);
		if (natural)
			break;
	}
	assert_message(f->out.callback_body,
	               "**Alice** rolls\n"
	               "```ansi\n"
	               "\x1b[0;36m1d20\x1b[0m: [20] = \x1b[1;33m20\x1b[0m\n"
	               "\x1b[1;31mNatural 20!\x1b[0m\n"
	               "```",
	               false);
}

#define ROLL_LABELLED(expr, label)                                                                 \
	"{\"name\":\"roll\",\"options\":[{\"name\":\"expression\",\"type\":3,\"value\":\"" expr    \
	"\"},{\"name\":\"label\",\"type\":3,\"value\":\"" label "\"}]}"

/* newcomer F1: a roll labelled both by its label option and after '#' in
 * its expression is refused. */
static void
test_label_given_once(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1300", 2, ALICE, ROLL_LABELLED("3d6 # more", "fire"));
	assert_message(f->out.callback_body,
	               "The label is given twice, as label:fire and as '# more' in the "
	               "expression; give it once, as label: or after ' # '; usage: `/roll "
	               "expression:text [label:text] [private:true|false]`",
	               true);
}

/* newcomer F17: a blank label option is no label. */
static void
test_empty_label_is_none(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1301", 2, ALICE, ROLL_LABELLED("1d1", "  "));
	assert_message(
	    f->out.callback_body,
	    "**Alice** rolls\n```ansi\n\x1b[0;36m1d1\x1b[0m: [1] = \x1b[1;33m1\x1b[0m\n```", false);
}

/* newcomer F5: /log says one roll as one. */
static void
test_log_one_roll(void **state)
{
	struct fixture *f = *state;

	interaction(f, "1302", 2, ALICE,
	            "{\"name\":\"roll\",\"options\":[{\"name\":\"expression\",\"type\":3,"
	            "\"value\":\"1d1\"}]}");
	interaction(f, "1303", 2, ALICE, "{\"name\":\"log\"}");
	assert_message(
	    f->out.callback_body,
	    "**The last roll here**\n```ansi\n\x1b[1mwhen      who    roll  result\x1b[0m\n"
	    "just now  Alice  1d1   1\n```",
	    false);
}

/* The custom_id of the first button of the last answer. */
static char *
first_button(struct fixture *f)
{
	cJSON *j = body(f->out.callback_body), *data = cJSON_GetObjectItem(j, "data");
	cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(data, "components"), 0);
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(row, "components"), 0), "custom_id"));
	char *copy = id != NULL ? strdup(id) : NULL;

	cJSON_Delete(j);
	return copy;
}

/* newcomer F10: a roll whose command passes the 100 characters of a
 * button's id keeps its Roll again button, the command kept by the bot. */
static void
test_long_roll_keeps_its_button(void **state)
{
	struct fixture *f = *state;
	char data[1024], label[121], press[128];
	char *id;

	memset(label, 'x', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	snprintf(data, sizeof(data),
	         "{\"name\":\"roll\",\"options\":[{\"name\":\"expression\",\"type\":3,"
	         "\"value\":\"1d1 # %s\"}]}",
	         label);
	interaction(f, "1304", 2, ALICE, data);
	id = first_button(f);
	assert_non_null(id);
	/* a stored line's number, from this run's own starting point */
	assert_memory_equal(id, "b:", 2);
	assert_true(strlen(id) > 2 && strspn(id + 2, "0123456789abcdef") == strlen(id + 2));
	snprintf(press, sizeof(press), "{\"custom_id\":\"%s\",\"component_type\":2}", id);
	free(id);
	/* pressed, it rolls the command kept for it */
	interaction(f, "1305", 3, ALICE, press);
	snprintf(
	    data, sizeof(data),
	    "**Alice** rolls *%s*\n```ansi\n\x1b[0;36m1d1\x1b[0m: [1] = \x1b[1;33m1\x1b[0m\n```",
	    label);
	assert_message(f->out.callback_body, data, false);
}

/* newcomer F11: a table breakdown cut short says how many it left out. */
static void
test_breakdown_cut(void **state)
{
	struct fixture *f = *state;
	char data[1024];
	cJSON *j;

	for (int t = 1; t <= 3; t++) {
		char id[8];

		snprintf(data, sizeof(data),
		         "{\"name\":\"table\",\"options\":[{\"name\":\"set\",\"type\":1,"
		         "\"options\":[{\"name\":\"name\",\"type\":3,\"value\":\"deep%d\"},"
		         "{\"name\":\"entries\",\"type\":3,\"value\":\"1-4: [[deep%d]] "
		         "[[deep%d]] [[deep%d]]\"}]}]}",
		         t, t + 1, t + 1, t + 1);
		snprintf(id, sizeof(id), "%d", 1305 + t);
		interaction(f, id, 2, ALICE, data);
	}
	interaction(f, "1309", 2, ALICE,
	            "{\"name\":\"table\",\"options\":[{\"name\":\"roll\",\"type\":1,"
	            "\"options\":[{\"name\":\"name\",\"type\":3,\"value\":\"deep1\"}]}]}");
	j = body(f->out.callback_body);
	assert_non_null(
	    strstr(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "data"), "content")->valuestring,
	           "23 more [[references]] not listed: the lines above list at most 16."));
	cJSON_Delete(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(table_form_and_submit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_command_reply, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_update_button, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_press_carries_the_panel_hashed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_press_answers_with_its_kept_messages, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_panel_answer_says_where_the_panel_is, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_user_install_followups, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_thread_takes_the_parents_seat, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_shed_touches_no_state, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_alias_runs_the_command, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_duplicate_ignored, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_malformed_dropped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dm_and_big_snowflake, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_error_is_ephemeral, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_manage_channels_is_admin, setup, teardown),
	    cmocka_unit_test(test_gm_role_by_name),
	    cmocka_unit_test(test_gm_roles_export_import),
	    cmocka_unit_test(test_gm_role_by_id),
	    cmocka_unit_test_setup_teardown(test_options_bound, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_long_reply_follows_up, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_private_part_follows_up, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gmroll_direct_message, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compact_heading, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_roll_shortcuts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_label_given_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_label_is_none, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_log_one_roll, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_long_roll_keeps_its_button, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_breakdown_cut, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown_command, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_button_runs_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_autocomplete, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_seen_window, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_answer_held_for_the_commit, setup, teardown),
	    cmocka_unit_test(test_token_bytes),
	    cmocka_unit_test(test_kept_answer_both_forms),
	    cmocka_unit_test_setup_teardown(test_kept_answer_is_the_answer, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_held_private_reply_defers_private, setup,
	                                    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
