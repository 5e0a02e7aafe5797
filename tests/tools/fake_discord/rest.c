/* fake_discord/rest: the HTTP routes the bot uses, their checks, rate
 * limits and the scripted REST faults. */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/json.h"
#include "rules/base/mem.h"

#define API "/api/v10"

void
fake_answer(struct http_answer *a, int status, const char *body)
{
	a->status = status;
	free(a->body);
	a->body = body != NULL ? xstrdup(body) : NULL;
}

void
fake_header(struct http_answer *a, const char *name, const char *fmt, ...)
{
	size_t n = strlen(a->headers);
	va_list ap;
	int r;

	r = snprintf(a->headers + n, sizeof(a->headers) - n, "%s: ", name);
	if (r < 0 || (size_t)r >= sizeof(a->headers) - n)
		return;
	n += (size_t)r;
	va_start(ap, fmt);
	r = vsnprintf(a->headers + n, sizeof(a->headers) - n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(a->headers) - n - 1)
		return;
	n += (size_t)r;
	a->headers[n++] = '\n';
	a->headers[n] = '\0';
}

static bool
digits(const char *s, size_t n)
{
	return n > 0 && strspn(s, "0123456789") >= n;
}

/* "POST /interactions/1/tok/callback": ids become :id except the major
 * parameters, as Discord buckets them. */
static void
route_of(const char *method, const char *path, char *out, size_t len)
{
	struct buf b;
	int keep = 0;

	buf_init(&b, len - 1);
	buf_addf(&b, "%s ", method);
	for (const char *p = path; *p == '/';) {
		const char *seg = ++p;
		size_t n = strcspn(seg, "/?");

		if (keep > 0) {
			buf_addf(&b, "/%.*s", (int)n, seg);
			keep--;
			p = seg + n;
			continue;
		}
		if (digits(seg, n))
			buf_adds(&b, "/:id");
		else
			buf_addf(&b, "/%.*s", (int)n, seg);
		if ((n == 8 && !strncmp(seg, "channels", n)) ||
		    (n == 6 && !strncmp(seg, "guilds", n)))
			keep = 1;
		if ((n == 8 && !strncmp(seg, "webhooks", n)) ||
		    (n == 12 && !strncmp(seg, "interactions", n)))
			keep = 2;
		p = seg + n;
	}
	snprintf(out, len, "%s", buf_str(&b));
	buf_free(&b);
}

static bool
is_interaction_route(const char *route)
{
	return strstr(route, " /interactions/") != NULL || strstr(route, " /webhooks/") != NULL;
}

static void
gateway_bot(struct http_answer *a)
{
	char body[512];

	shard_fake_gateway_bot(body, sizeof(body));
	fake_answer(a, 200, body);
}

const cJSON *
rest_fake_commands(const char *scope)
{
	return cJSON_GetObjectItemCaseSensitive(F.scopes, scope);
}

void
rest_fake_set_commands(const char *scope, cJSON *arr)
{
	cJSON *c;
	int i = 0;

	cJSON_ArrayForEach(c, arr)
	{
		char id[32];

		snprintf(id, sizeof(id), "%" PRIu64,
		         (uint64_t)1500000000000000000ull + (uint64_t)i++);
		cJSON_DeleteItemFromObjectCaseSensitive(c, "id");
		cJSON_AddStringToObject(c, "id", id);
		if (cJSON_GetObjectItemCaseSensitive(c, "application_id") == NULL)
			cJSON_AddStringToObject(c, "application_id", F.app_id);
		if (cJSON_GetObjectItemCaseSensitive(c, "version") == NULL)
			cJSON_AddStringToObject(c, "version", "1");
		/* Discord answers with its defaults filled in. */
		if (cJSON_GetObjectItemCaseSensitive(c, "default_member_permissions") == NULL)
			cJSON_AddNullToObject(c, "default_member_permissions");
		if (cJSON_GetObjectItemCaseSensitive(c, "nsfw") == NULL)
			cJSON_AddFalseToObject(c, "nsfw");
		if (cJSON_GetObjectItemCaseSensitive(c, "integration_types") == NULL)
			cJSON_AddItemToObject(c, "integration_types",
			                      cJSON_CreateIntArray((const int[]){0}, 1));
		if (cJSON_GetObjectItemCaseSensitive(c, "contexts") == NULL)
			cJSON_AddNullToObject(c, "contexts");
	}
	if (F.scopes == NULL)
		F.scopes = cJSON_CreateObject();
	cJSON_DeleteItemFromObjectCaseSensitive(F.scopes, scope);
	cJSON_AddItemToObject(F.scopes, scope, arr);
}

/* Whether every member of the list key of c (absent or null: fine) is
 * within 0..max, and, with forbidden >= 0, none is that. */
static bool
list_within(const cJSON *c, const char *key, int max, int forbidden)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(c, key), *e;

	if (l == NULL || cJSON_IsNull(l))
		return true;
	if (!cJSON_IsArray(l))
		return false;
	cJSON_ArrayForEach(e, l)
	{
		if (!cJSON_IsNumber(e) || e->valueint < 0 || e->valueint > max ||
		    e->valueint == forbidden)
			return false;
	}
	return true;
}

/* A command list's installation contexts and interaction contexts, as
 * Discord takes them: known values only, and a guild's commands cannot be
 * offered in the DM with the bot ("Guild commands don't support the
 * BOT_DM interaction context"); both are the bot's mistakes (violations).
 * A user install is refused when the application does not allow it (the
 * "appinstall" control): the operator's, not the bot's. Returns 0, or -1
 * when Discord answers 400. */
static int
check_reach(const cJSON *arr, bool guild_scope)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, arr)
	{
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));

		if (!list_within(c, "integration_types", 1, -1) ||
		    !list_within(c, "contexts", 2, guild_scope ? DISCORD_CONTEXT_BOT_DM : -1)) {
			fake_violation(
			    "PUT commands: /%s has integration_types or contexts Discord "
			    "refuses here",
			    name);
			return -1;
		}
		if (!F.user_install_allowed && !list_within(c, "integration_types", 0, -1)) {
			F.st.install_refused++;
			return -1;
		}
	}
	return 0;
}

static void
put_commands(const char *path, const char *body, size_t len, struct http_answer *a)
{
	cJSON *arr = cJSON_ParseWithLength(body, len);
	char *out;

	if (check_commands(arr, "PUT commands") < 0 ||
	    check_reach(arr, strstr(path, "/guilds/") != NULL) < 0) {
		fake_answer(a, 400, "{\"code\":50035,\"message\":\"Invalid Form Body\"}");
		cJSON_Delete(arr);
		return;
	}
	rest_fake_set_commands(path, arr);
	snprintf(F.commands_scope, sizeof(F.commands_scope), "%s", path);
	F.st.registrations++;
	out = json_print(arr);
	fake_answer(a, 200, out);
	free(out);
}

/* The registered commands as Discord answers them: every number as it was
 * given, never rounded to 15 digits (an INTEGER option takes any integer
 * between -2^53 and 2^53: "Application Command Option Type" in Discord's
 * interactions documentation, so its min_value and max_value may too). */
static void
get_commands(const char *path, struct http_answer *a)
{
	const cJSON *arr = rest_fake_commands(path);
	char *out = arr != NULL ? json_print(arr) : NULL;

	F.st.command_lists++;
	fake_answer(a, 200, out != NULL ? out : "[]");
	free(out);
}

/* Whether a message's flags make it ephemeral (64). */
static bool
ephemeral(const cJSON *msg)
{
	const cJSON *flags = cJSON_GetObjectItemCaseSensitive(msg, "flags");

	return cJSON_IsNumber(flags) && ((int)flags->valuedouble & 64);
}

/* The expectations a test attached to the interaction's template, on the
 * content of its answer, which is private when eph. */
static void
expectations(const struct inter *it, const char *content, bool eph)
{
	const char *expect =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it->tmpl, "expect"));
	const cJSON *priv = cJSON_GetObjectItemCaseSensitive(it->tmpl, "private");

	if (expect != NULL && (content == NULL || strstr(content, expect) == NULL))
		fake_violation("interaction %" PRIu64 ": the answer lacks '%s': %.300s", it->id,
		               expect, content ? content : "(no content)");
	if (cJSON_IsBool(priv) && cJSON_IsTrue(priv) != eph)
		fake_violation("interaction %" PRIu64 ": the answer should %sbe private: %.300s",
		               it->id, eph ? "not " : "", content ? content : "");
}

/* The template's "parts": strings the messages answering it (the callback,
 * then the follow-ups) must hold in this order. Advances it->parts through
 * one more message. */
static void
parts_seen(struct inter *it, const cJSON *msg)
{
	const cJSON *parts = cJSON_GetObjectItemCaseSensitive(it->tmpl, "parts");
	const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "content"));
	const char *want, *at;

	if (!cJSON_IsArray(parts) || c == NULL)
		return;
	rest_fake_counts(it, -1);
	while ((want = cJSON_GetStringValue(cJSON_GetArrayItem(parts, it->parts))) != NULL &&
	       (at = strstr(c, want)) != NULL) {
		c = at + strlen(want);
		it->parts++;
	}
	rest_fake_counts(it, 1);
}

/* The template's "forbid": strings no message answering it may hold
 * anywhere (content, buttons, suggestions), the private ones too; with
 * "forbid_public": true, only the messages everyone in the channel sees.
 * (A test's check of what reaches whom; Discord has no such rule.) */
static void
forbid_seen(const struct inter *it, const cJSON *msg, bool eph)
{
	const cJSON *forbid = cJSON_GetObjectItemCaseSensitive(it->tmpl, "forbid"), *f;
	char *text;

	if (!cJSON_IsArray(forbid) || msg == NULL ||
	    (eph && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it->tmpl, "forbid_public"))))
		return;
	text = json_print(msg);
	cJSON_ArrayForEach(f, forbid)
	{
		if (cJSON_IsString(f) && strstr(text, f->valuestring) != NULL)
			fake_violation("interaction %" PRIu64 ": a %s message answering it holds "
			               "'%s': %.400s",
			               it->id, eph ? "private" : "public", f->valuestring, text);
	}
	free(text);
}

static bool
parts_missing(const struct inter *it)
{
	const cJSON *parts = cJSON_GetObjectItemCaseSensitive(it->tmpl, "parts");

	return cJSON_IsArray(parts) && it->parts < cJSON_GetArraySize(parts);
}

void
rest_fake_counts(const struct inter *it, int sign)
{
	F.parts_missing += sign * parts_missing(it);
	F.deferred_open += sign * (it->deferred != 0 && !it->completed);
}

void
rest_fake_final(void)
{
	struct inter *it, *tmp;

	HASH_ITER(hh, F.inters, it, tmp)
	{
		if (it->deferred != 0 && !it->completed && !F.lenient)
			fake_violation("interaction %" PRIu64 " was deferred (type %d) but its "
			               "answer never came",
			               it->id, it->deferred);
		if (parts_missing(it) && it->answers > 0)
			fake_violation(
			    "interaction %" PRIu64 ": its answer lacks '%s' (part %d), "
			    "or has it out of order",
			    it->id,
			    cJSON_GetStringValue(cJSON_GetArrayItem(
			        cJSON_GetObjectItemCaseSensitive(it->tmpl, "parts"), it->parts)),
			    it->parts + 1);
	}
}

/* Whether a callback of that type defers the answer to it: type 5 for a
 * command or a component, type 6 (the message is updated later, or not at
 * all) for a component. */
static bool
is_deferral(const struct inter *it, int type)
{
	if (it->type == DISCORD_INTERACTION_AUTOCOMPLETE)
		return false;
	return type == DISCORD_CALLBACK_DEFERRED_MESSAGE ||
	       (type == DISCORD_CALLBACK_DEFERRED_UPDATE &&
	        it->type == DISCORD_INTERACTION_COMPONENT);
}

/* A deferral accepted in time: type 5's data may hold the ephemeral flag
 * alone. */
static void
deferred(struct inter *it, int type, const cJSON *data)
{
	const cJSON *f;

	rest_fake_counts(it, -1);
	it->deferred = type;
	rest_fake_counts(it, 1);
	F.st.deferred++;
	if (type == DISCORD_CALLBACK_DEFERRED_UPDATE) {
		/* @original is now the message the button is on. */
		F.st.deferred_updates++;
		it->original = it->msg;
	}
	if (type != DISCORD_CALLBACK_DEFERRED_MESSAGE)
		return;
	/* The "thinking..." message, which the answer edits. */
	it->deferred_eph = ephemeral(data);
	it->original = msgs_fake_post(it->chan, it->id, it->user, NULL, it->deferred_eph);
	if (data == NULL)
		return;
	if (!cJSON_IsObject(data)) {
		fake_violation("interaction %" PRIu64 ": the deferral's data is not an object",
		               it->id);
		return;
	}
	cJSON_ArrayForEach(f, data)
	{
		if (strcmp(f->string, "flags") != 0 || !cJSON_IsNumber(f) ||
		    ((int)f->valuedouble & ~64) != 0)
			fake_violation("interaction %" PRIu64 ": a deferral may carry the "
			               "ephemeral flag (64) alone, not '%s'",
			               it->id, f->string);
	}
}

/* A type-7 callback: the message the button is on takes data's content
 * and components (an update cannot change whether it is ephemeral). */
static void
update(struct inter *it, const cJSON *data)
{
	if (check_message(data, "update callback") < 0)
		return;
	if (ephemeral(data))
		fake_violation("interaction %" PRIu64 ": an update (type 7) cannot make a "
		               "message ephemeral (flags 64)",
		               it->id);
	expectations(it, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "content")),
	             false);
	parts_seen(it, data);
	forbid_seen(it, data, false);
	if (msgs_fake_edit(it->msg, data) == 0)
		F.st.updates++;
	it->original = it->msg;
}

/* A MODAL callback: only a command's or a component's interaction may open
 * a form ("not available for MODAL_SUBMIT and PING interactions", and an
 * autocomplete takes its choices alone); its data is checked as Discord
 * bounds it and kept for the user's submit. The template's "expect" is
 * looked for in the modal's title. */
static void
modal(struct inter *it, const cJSON *data)
{
	const char *title = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "title"));

	if (it->type != DISCORD_INTERACTION_COMMAND && it->type != DISCORD_INTERACTION_COMPONENT) {
		fake_violation("interaction %" PRIu64 " of type %d answered with a modal (9)",
		               it->id, it->type);
		return;
	}
	if (check_modal(data, "modal callback") < 0)
		return;
	expectations(it, title, false);
	F.st.modals++;
	cJSON_Delete(it->modal);
	it->modal = cJSON_Duplicate(data, true);
}

static void
callback(const char *path, const char *body, size_t len, struct http_answer *a)
{
	const char *p = path + strlen("/interactions/");
	char *end;
	uint64_t id = strtoull(p, &end, 10);
	struct inter *it = gw_fake_interaction(id);
	const char *tok = *end == '/' ? end + 1 : "";
	size_t toklen = strcspn(tok, "/");
	cJSON *j;
	const cJSON *type, *data;
	int64_t age;
	bool deferral;

	if (it == NULL) {
		fake_violation("a callback for interaction %.24s, never sent", p);
		fake_answer(a, 404, "{\"message\":\"Unknown interaction\",\"code\":10062}");
		return;
	}
	if (toklen != strlen(it->token) || strncmp(tok, it->token, toklen) != 0) {
		fake_violation("interaction %" PRIu64 ": the callback has the wrong token", id);
		fake_answer(a, 401, "{\"message\":\"Invalid Webhook Token\",\"code\":50027}");
		return;
	}
	age = fake_now() - it->created;
	if (it->answers++ > 0) {
		/* A replayed event, or one Discord sent to several sessions of
		 * its shard (allowed: the operator runs them), may be answered
		 * twice; Discord then says 400. Else the bot answered twice. */
		if (it->replayed) {
			F.st.replay_duplicates++;
		} else if (it->sessions > 1) {
			F.st.shared_duplicates++;
		} else {
			F.st.duplicates++;
			fake_violation("interaction %" PRIu64 " was answered twice", id);
		}
		fake_answer(
		    a, 400,
		    "{\"message\":\"Interaction has already been acknowledged.\",\"code\":40060}");
		return;
	}
	it->answered_at = fake_now();
	j = cJSON_ParseWithLength(body, len);
	type = cJSON_GetObjectItemCaseSensitive(j, "type");
	data = cJSON_GetObjectItemCaseSensitive(j, "data");
	deferral = cJSON_IsNumber(type) && is_deferral(it, type->valueint);
	/* A deferral's answer is the edit (or follow-up) that completes it; a
	 * modal's is its title. */
	if (!deferral)
		gw_fake_answered(
		    it, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		            data, cJSON_IsNumber(type) && type->valueint == DISCORD_CALLBACK_MODAL
		                      ? "title"
		                      : "content")));
	if (age > FAKE_ANSWER_MS) {
		if (F.mark_id != 0 && id >= F.mark_id)
			F.st.mark_late++;
		fake_violation("interaction %" PRIu64 " was answered after %" PRId64 " ms", id,
		               age);
		fake_answer(a, 404, "{\"message\":\"Unknown interaction\",\"code\":10062}");
		cJSON_Delete(j);
		return;
	}
	F.st.answered++;
	if (F.mark_id != 0 && id >= F.mark_id)
		F.st.mark_answered++;
	if (age > F.st.max_answer_ms)
		F.st.max_answer_ms = age;
	if (!cJSON_IsNumber(type)) {
		fake_violation("interaction %" PRIu64 ": the callback has no type", id);
	} else if (it->type == DISCORD_INTERACTION_AUTOCOMPLETE) {
		if (type->valueint != DISCORD_CALLBACK_AUTOCOMPLETE)
			fake_violation("autocomplete %" PRIu64 " answered with type %d, not 8", id,
			               type->valueint);
		else
			check_autocomplete(data, "autocomplete callback");
		forbid_seen(it, data, true); /* the suggestions: the invoker's */
	} else if (type->valueint == DISCORD_CALLBACK_MESSAGE) {
		if (check_message(data, "interaction callback") == 0) {
			expectations(
			    it,
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "content")),
			    ephemeral(data));
			parts_seen(it, data);
			forbid_seen(it, data, ephemeral(data));
			it->original =
			    msgs_fake_post(it->chan, it->id, it->user, data, ephemeral(data));
		}
	} else if (type->valueint == DISCORD_CALLBACK_UPDATE_MESSAGE &&
	           it->type == DISCORD_INTERACTION_COMPONENT) {
		update(it, data);
	} else if (type->valueint == DISCORD_CALLBACK_MODAL) {
		modal(it, data);
	} else if (deferral) {
		deferred(it, type->valueint, data);
	} else {
		fake_violation("interaction %" PRIu64 " answered with type %d", id, type->valueint);
	}
	cJSON_Delete(j);
	fake_answer(a, 204, NULL);
}

/* The answer to a deferred interaction came in msg (an edit of @original,
 * or a follow-up): it is checked as a callback's message is, private when
 * eph. */
static void
complete(struct inter *it, const cJSON *msg, bool ok, bool eph)
{
	const char *content =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "content"));

	rest_fake_counts(it, -1);
	it->completed = true;
	rest_fake_counts(it, 1);
	gw_fake_answered(it, content);
	if (ok) {
		expectations(it, content, eph);
		parts_seen(it, msg);
		forbid_seen(it, msg, eph);
	}
}

/*
 * GET /webhooks/APP/TOKEN/messages/@original: Discord's Get Original
 * Interaction Response ("returns the initial Interaction response";
 * receiving-and-responding). While an interaction has no initial response
 * there is none to return: 404 Unknown Message (10008). After a type-5
 * deferral not completed yet, it is the "thinking" message, whose flags
 * carry LOADING (1 << 7) (and EPHEMERAL when the deferral asked for it).
 * After a type-6 deferral or a type-7 update of a component it is the
 * message the component is on. With the token expired (15 min): 401.
 */
static void
original(const char *path, struct http_answer *a)
{
	const char *p = path + strlen("/webhooks/");
	const char *tok = strchr(p, '/');
	struct inter *found = NULL;
	char body[256];
	int flags = 0;

	F.st.original_gets++;
	if (tok == NULL || strncmp(p, F.app_id, strlen(F.app_id)) != 0) {
		fake_violation("a webhook call for another application: %.60s", p);
		fake_answer(a, 404, "{\"message\":\"Unknown Webhook\",\"code\":10015}");
		return;
	}
	tok++;
	/* by its token: a scan of every interaction per call made the fake,
	 * not the bot, the bottleneck of a burst */
	if (strchr(tok, '/') != NULL)
		HASH_FIND(hh_token, F.by_token, tok, strcspn(tok, "/"), found);
	if (found == NULL) {
		fake_violation("@original of an interaction never sent");
		fake_answer(a, 404, "{\"message\":\"Unknown Webhook\",\"code\":10015}");
		return;
	}
	if (fake_now() - found->created > FAKE_TOKEN_MS) {
		fake_answer(a, 401, "{\"message\":\"Invalid Webhook Token\",\"code\":50027}");
		return;
	}
	if (found->answers == 0 || found->original == 0) {
		fake_answer(a, 404, "{\"message\":\"Unknown Message\",\"code\":10008}");
		return;
	}
	if (found->deferred == DISCORD_CALLBACK_DEFERRED_MESSAGE && !found->completed)
		flags |= 1 << 7;
	if (found->deferred == DISCORD_CALLBACK_DEFERRED_MESSAGE && found->deferred_eph)
		flags |= DISCORD_FLAG_EPHEMERAL;
	snprintf(body, sizeof(body), "{\"id\":\"%" PRIu64 "\",\"type\":20,\"flags\":%d}",
	         found->original, flags);
	fake_answer(a, 200, body);
}

/*
 * PATCH /webhooks/APP/TOKEN/messages/TARGET (rest: "/messages/TARGET"):
 * Edit Original Interaction Response (TARGET @original) or Edit Followup
 * Message (TARGET a message id), within the token's 15 minutes. @original
 * is the message the callback made (type 4), the deferral's (type 5), or
 * the component's message (type 6 or 7); an interaction answered with a
 * modal or autocomplete choices, or whose callback was refused or came
 * late, has none: 404 Unknown Message (10008), and the bot's mistake, a
 * violation. A message id must be one the token made (a follow-up, or
 * the original response), else the same. The first edit of a type-5
 * deferral completes it. An edit cannot make a message ephemeral.
 */
static void
edit_message(struct inter *it, const char *rest, const char *body, size_t len,
             struct http_answer *a)
{
	bool orig = strcmp(rest, "/messages/@original") == 0;
	uint64_t msg =
	    orig ? it->original
	         : (strncmp(rest, "/messages/", 10) == 0 ? strtoull(rest + 10, NULL, 10) : 0);
	cJSON *j;
	bool ok;

	if (msg == 0 || (!orig && msgs_fake_inter(msg) != it->id)) {
		F.st.edits_unknown++;
		fake_violation("interaction %" PRIu64 ": an edit of %s, which it has no message "
		               "for (answered with a modal or suggestions, refused, late, or "
		               "another's message)",
		               it->id, orig ? "@original" : "a follow-up");
		fake_answer(a, 404, "{\"message\":\"Unknown Message\",\"code\":10008}");
		return;
	}
	if (msgs_fake_content(msg) == NULL) { /* deleted by someone, or forgotten */
		F.st.edits_unknown++;
		fake_answer(a, 404, "{\"message\":\"Unknown Message\",\"code\":10008}");
		return;
	}
	j = cJSON_ParseWithLength(body, len);
	ok = check_message(j, "edit") == 0;
	it->edits++;
	if (ephemeral(j))
		fake_violation("interaction %" PRIu64 ": an edit cannot make a message "
		               "ephemeral (flags 64): the deferral decides",
		               it->id);
	if (orig)
		F.st.edits++;
	else
		F.st.followup_edits++;
	if (orig && it->deferred != 0 && !it->completed)
		complete(it, j, ok,
		         it->deferred == DISCORD_CALLBACK_DEFERRED_MESSAGE ? it->deferred_eph
		                                                           : false);
	else if (ok)
		forbid_seen(it, j, msgs_fake_ephemeral(msg));
	if (ok && msgs_fake_edit(msg, j) == 0 && orig &&
	    it->deferred == DISCORD_CALLBACK_DEFERRED_UPDATE)
		F.st.updates++;
	cJSON_Delete(j);
	msgs_fake_answer(a, msg);
}

/* POST /webhooks/APP/TOKEN: Create Followup Message, after a type-5
 * deferral the message that completes it. */
static void
followup(struct inter *found, const char *body, size_t len, struct http_answer *a)
{
	bool becomes_original =
	    found->deferred == DISCORD_CALLBACK_DEFERRED_MESSAGE && !found->completed;
	uint64_t msg = 0;
	cJSON *j;
	bool ok;

	if (found->followups >= FAKE_FOLLOWUPS)
		fake_violation("interaction %" PRIu64 ": more than %d follow-ups", found->id,
		               FAKE_FOLLOWUPS);
	if (found->user_only && found->followups >= FAKE_USER_FOLLOWUPS) {
		/* "Apps are limited to 5 followup messages per interaction if it
		 * was initiated from a user-installed app and isn't installed in
		 * the server" (receiving-and-responding, Create Followup Message). */
		F.st.followup_cap++;
		fake_violation("interaction %" PRIu64 ": a follow-up past the %d Discord allows "
		               "an interaction of a user install alone",
		               found->id, FAKE_USER_FOLLOWUPS);
		fake_answer(
		    a, 400,
		    "{\"message\":\"This interaction has hit the maximum number of follow up "
		    "messages\",\"code\":40094}");
		return;
	}
	if (limits_fake_channel_followup(found->chan, a))
		return;
	j = cJSON_ParseWithLength(body, len);
	ok = check_message(j, "follow-up") == 0;
	if (found->deferred != 0 && !found->completed)
		/* After type 5 the first follow-up becomes the deferred
		 * response (private as the deferral was); after type 6 it
		 * is a new message. */
		complete(found, j, ok,
		         found->deferred == DISCORD_CALLBACK_DEFERRED_MESSAGE ? found->deferred_eph
		                                                              : ephemeral(j));
	else if (ok) {
		parts_seen(found, j);
		forbid_seen(found, j, ephemeral(j));
	}
	if (becomes_original && ok) {
		msgs_fake_edit(found->original, j);
		msg = found->original;
	} else if (ok) {
		msg = msgs_fake_post(found->chan, found->id, found->user, j, ephemeral(j));
	}
	found->followups++;
	F.st.followups++;
	cJSON_Delete(j);
	if (msg != 0)
		msgs_fake_answer(a, msg);
	else
		fake_answer(a, 200, "{\"id\":\"1600000000000000000\",\"type\":0,\"content\":\"\"}");
}

static void
webhook(const char *method, const char *path, const char *body, size_t len, struct http_answer *a)
{
	const char *p = path + strlen("/webhooks/");
	const char *tok = strchr(p, '/');
	struct inter *found = NULL;
	bool edit = strcmp(method, "PATCH") == 0;

	if (tok == NULL || strncmp(p, F.app_id, strlen(F.app_id)) != 0) {
		fake_violation("a webhook call for another application: %.60s", p);
		fake_answer(a, 404, "{\"message\":\"Unknown Webhook\",\"code\":10015}");
		return;
	}
	tok++;
	HASH_FIND(hh_token, F.by_token, tok, strcspn(tok, "/"), found);
	/* The token serves follow-ups for 15 minutes only after an initial
	 * response: one that got none within its 3 s has its token invalidated
	 * (receiving-and-responding, "Responding to an Interaction"), so no
	 * later call can answer it. An edit finds no message then (below). */
	if (found == NULL || (!edit && found->answers == 0)) {
		fake_violation("a follow-up for an interaction %s",
		               found == NULL ? "never sent" : "not yet acknowledged");
		fake_answer(a, 404, "{\"message\":\"Unknown Webhook\",\"code\":10015}");
		return;
	}
	if (fake_now() - found->created > FAKE_TOKEN_MS) {
		fake_violation("interaction %" PRIu64
		               ": a follow-up after its token expired (15 min)",
		               found->id);
		fake_answer(a, 401, "{\"message\":\"Invalid Webhook Token\",\"code\":50027}");
		return;
	}
	if (edit)
		edit_message(found, tok + strcspn(tok, "/"), body, len, a);
	else
		followup(found, body, len, a);
}

/* Applies the first matching scripted fault. Returns true when it answered. */
static bool
fault(const char *route, struct http_answer *a)
{
	int64_t now = fake_now();

	for (int i = 0; i < FAULTS_MAX; i++) {
		struct fault *f = &F.faults[i];
		char body[256];

		if (f->count <= 0 || strstr(route, f->match) == NULL ||
		    (f->method[0] != '\0' && (strncmp(route, f->method, strlen(f->method)) != 0 ||
		                              route[strlen(f->method)] != ' ')))
			continue;
		f->count--;
		if (strcmp(f->kind, "slow") == 0) {
			F.st.slow++;
			a->delay_ms = f->ms;
			return false;
		}
		if (strcmp(f->kind, "5xx") == 0) {
			F.st.r5xx++;
			fake_answer(a, f->status,
			            "{\"message\":\"upstream connect error\",\"code\":0}");
			return true;
		}
		if (strcmp(f->kind, "echo") == 0) {
			/* A hostile or broken server that echoes the request's
			 * headers in its error body, after pad characters. */
			struct buf b;

			F.st.echoes++;
			buf_init(&b, 1 << 16);
			buf_adds(&b, "{\"message\":\"");
			for (int k = 0; k < f->pad; k++)
				buf_addc(&b, 'x');
			buf_addf(&b, "\",\"request_headers\":\"Authorization: Bot %s\"}", F.token);
			fake_answer(a, f->status >= 400 && f->status <= 499 ? f->status : 400,
			            buf_str(&b));
			buf_free(&b);
			return true;
		}
		if (strcmp(f->kind, "401") == 0 || strcmp(f->kind, "403") == 0) {
			const char *cb = strstr(route, " /interactions/");

			if (cb != NULL) { /* that interaction is lost on purpose */
				struct inter *it = gw_fake_interaction(strtoull(cb + 15, NULL, 10));

				if (it != NULL)
					it->spoiled = true;
			}
		}
		if (strcmp(f->kind, "403") == 0) {
			F.st.r403++;
			fake_answer(a, 403, "{\"message\":\"Missing Permissions\",\"code\":50013}");
			return true;
		}
		if (strcmp(f->kind, "401") == 0) {
			F.st.r401++;
			fake_answer(a, 401, "{\"message\":\"401: Unauthorized\",\"code\":0}");
			return true;
		}
		F.st.r429++;
		if (f->shared)
			F.st.r429_shared++;
		snprintf(body, sizeof(body),
		         "{\"message\":\"You are being rate limited.\",\"retry_after\":%.3f,"
		         "\"global\":%s}",
		         f->retry, f->global ? "true" : "false");
		fake_answer(a, 429, body);
		fake_header(a, "Retry-After", "%d", (int)ceil(f->retry));
		fake_header(a, "X-RateLimit-Scope", "%s",
		            f->global   ? "global"
		            : f->shared ? "shared"
		                        : "user");
		if (f->global) {
			fake_header(a, "X-RateLimit-Global", "true");
			F.global_lock = now + (int64_t)(f->retry * 1000.0);
		} else {
			struct lock *l;

			HASH_FIND_STR(F.locks, route, l);
			if (l == NULL) {
				l = xcalloc(1, sizeof(*l));
				snprintf(l->route, sizeof(l->route), "%s", route);
				HASH_ADD_STR(F.locks, route, l);
			}
			l->until = now + (int64_t)(f->retry * 1000.0);
			fake_header(a, "X-RateLimit-Limit", "5");
			fake_header(a, "X-RateLimit-Remaining", "0");
			fake_header(a, "X-RateLimit-Reset-After", "%.3f", f->retry);
		}
		return true;
	}
	return false;
}

/* Whether the request came while a 429 said to wait. */
static void
check_early(const char *route)
{
	int64_t now = fake_now();
	struct lock *l;

	HASH_FIND_STR(F.locks, route, l);
	if (l != NULL && l->until > now) {
		F.st.early++;
		fake_violation("%s came %" PRId64 " ms before its retry_after passed", route,
		               l->until - now);
	}
	if (F.global_lock > now && !is_interaction_route(route)) {
		F.st.early++;
		fake_violation("%s came %" PRId64 " ms before a global retry_after passed", route,
		               F.global_lock - now);
	}
}

static void
handle(const char *method, const char *path, const char *auth, const char *ua, const char *ctype,
       const char *body, size_t len, struct http_answer *a)
{
	char route[300], want[512];
	bool has_body = strcmp(method, "GET") != 0 && strcmp(method, "DELETE") != 0;

	if (strncmp(path, API, strlen(API)) != 0) {
		fake_violation("%s %.100s is not under " API, method, path);
		fake_answer(a, 404, "{\"message\":\"404: Not Found\",\"code\":0}");
		return;
	}
	path += strlen(API);
	route_of(method, path, route, sizeof(route));
	fake_record("rest", route, body);
	if (strncmp(ua, "DiscordBot (", 12) != 0 || strchr(ua, ')') == NULL)
		fake_violation("%s: User-Agent '%.80s' is not 'DiscordBot (url, version)'", route,
		               ua);
	if (has_body && len > 0 && strncmp(ctype, "application/json", 16) != 0)
		fake_violation("%s: Content-Type is '%.60s', not application/json", route, ctype);
	snprintf(want, sizeof(want), "Bot %s", F.token);
	/* As Discord: a route authorised by an interaction's token needs no
	 * Authorization header, but one sent must be valid; every other route
	 * needs the bot's. */
	if (is_interaction_route(route) && auth[0] != '\0')
		F.st.token_auth++;
	if ((auth[0] != '\0' || !is_interaction_route(route)) &&
	    (strcmp(auth, want) != 0 || F.token_reset)) {
		F.st.r401++;
		fake_answer(a, 401, "{\"message\":\"401: Unauthorized\",\"code\":0}");
		return;
	}
	check_early(route);
	if (fault(route, a) || limits_fake_take(method, path, route, a))
		return;
	if (strcmp(route, "GET /gateway/bot") == 0) {
		gateway_bot(a);
	} else if ((strncmp(route, "PUT /applications/", 18) == 0 ||
	            strncmp(route, "GET /applications/", 18) == 0) &&
	           strstr(route, "/commands")) {
		if (strncmp(path + strlen("/applications/"), F.app_id, strlen(F.app_id)) != 0)
			fake_violation("commands of application %.30s asked for, not %s",
			               path + strlen("/applications/"), F.app_id);
		if (route[0] == 'P')
			put_commands(path, body, len, a);
		else
			get_commands(path, a);
	} else if (strncmp(route, "POST /interactions/", 19) == 0 &&
	           strstr(route, "/callback") != NULL) {
		callback(path, body, len, a);
	} else if (strncmp(route, "GET /webhooks/", 14) == 0 &&
	           strstr(route, "/messages/@original") != NULL) {
		original(path, a);
	} else if (strncmp(route, "POST /webhooks/", 15) == 0 ||
	           strncmp(route, "PATCH /webhooks/", 16) == 0) {
		webhook(method, path, body, len, a);
	} else if (strcmp(route, "POST /users/@me/channels") == 0) {
		dms_fake_open(body, len, a);
	} else if (strncmp(route, "POST /channels/", 15) == 0 && strstr(route, "/messages") &&
	           dms_fake_channel(strtoull(path + strlen("/channels/"), NULL, 10))) {
		dms_fake_message(path, body, len, a);
	} else if (strncmp(path, "/channels/", 10) == 0 && strstr(path, "/messages") != NULL) {
		msgs_fake_route(method, path, route, body, len, a);
	} else {
		fake_violation("%s is not a route the bot should use", route);
		fake_answer(a, 404, "{\"message\":\"404: Not Found\",\"code\":0}");
	}
}

/* One request: Cloudflare's ban comes before anything else; every answer
 * counts toward the invalid-request limit when it is one. */
void
rest_fake_handle(const char *method, const char *path, const char *auth, const char *ua,
                 const char *ctype, const char *body, size_t len, struct http_answer *a)
{
	F.st.requests++;
	if (!limits_fake_banned(a))
		handle(method, path, auth, ua, ctype, body, len, a);
	limits_fake_answered(a->status);
}

/* "rest429 match=/callback count=2 retry=0.5 global=1" (shared=1: a shared
 * limit's), "rest5xx match=X count=3 status=502", "restslow match=X
 * count=50 ms=1500", "rest401", "rest403" (Missing Permissions),
 * "restecho match=X pad=150 status=400" (the Authorization header echoed in
 * the error body after pad characters). Any of them takes method=M: then
 * only requests of method M are spoiled. "restclear" ends every fault. */
int
rest_fake_fault(const char *args, char *err, size_t errlen)
{
	struct fault f = {.count = 1, .retry = 1.0, .status = 502, .ms = 1000};
	const char *p = args;
	int i;

	if (strncmp(p, "rest", 4) != 0) {
		snprintf(err, errlen, "not a REST fault");
		return -1;
	}
	p += 4;
	snprintf(f.kind, sizeof(f.kind), "%.*s", (int)strcspn(p, " \n"), p);
	if (strcmp(f.kind, "clear") == 0) {
		memset(F.faults, 0, sizeof(F.faults));
		return 0;
	}
	if (strcmp(f.kind, "429") && strcmp(f.kind, "5xx") && strcmp(f.kind, "slow") &&
	    strcmp(f.kind, "401") && strcmp(f.kind, "403") && strcmp(f.kind, "echo")) {
		snprintf(err, errlen, "unknown REST fault '%s'", f.kind);
		return -1;
	}
	for (p += strcspn(p, " \n"); *p != '\0';) {
		const char *kv = p + strspn(p, " \n");
		size_t n = strcspn(kv, " \n");
		const char *eq = memchr(kv, '=', n);

		if (n == 0)
			break;
		if (eq == NULL) {
			snprintf(err, errlen, "'%.*s' is not key=value", (int)n, kv);
			return -1;
		}
		if (!strncmp(kv, "match=", 6))
			snprintf(f.match, sizeof(f.match), "%.*s", (int)(n - 6), kv + 6);
		else if (!strncmp(kv, "method=", 7))
			snprintf(f.method, sizeof(f.method), "%.*s", (int)(n - 7), kv + 7);
		else if (!strncmp(kv, "count=", 6))
			f.count = atoi(eq + 1);
		else if (!strncmp(kv, "retry=", 6))
			f.retry = strtod(eq + 1, NULL);
		else if (!strncmp(kv, "global=", 7))
			f.global = eq[1] == '1' || eq[1] == 't';
		else if (!strncmp(kv, "shared=", 7))
			f.shared = eq[1] == '1' || eq[1] == 't';
		else if (!strncmp(kv, "status=", 7))
			f.status = atoi(eq + 1);
		else if (!strncmp(kv, "ms=", 3))
			f.ms = atoi(eq + 1);
		else if (!strncmp(kv, "pad=", 4))
			f.pad = atoi(eq + 1);
		p = kv + n;
	}
	for (i = 0; i < FAULTS_MAX && F.faults[i].count > 0; i++)
		;
	if (i == FAULTS_MAX) {
		snprintf(err, errlen, "too many faults at once");
		return -1;
	}
	F.faults[i] = f;
	return 0;
}
