/* discord_interact: interactions to replies; see discord_interact.h. */
#include "bot/discord/discord_interact.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uthash.h>

#include "bot/discord/discord_buttons.h"
#include "bot/draft/draft.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_modal.h"
#include "rules/base/json.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_roles.h"
#include "bot/log.h"
#include "bot/discord/render_discord.h"
#include "commands/core/complete.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define SEEN_MAX     4096 /* interaction ids remembered */
#define BUTTONS_KEPT 4096 /* long button command lines remembered */
#define TOKEN_MAX    1000
#define VALUE_MAX    4096       /* bytes of one option value */
#define BODY_MAX     (1u << 20) /* bytes of one answer's JSON body */

/* A remembered interaction id: a slot of the ring, in the hash while used. */
struct seen {
	uint64_t id; /* 0: the slot is free */
	UT_hash_handle hh;
};

struct interact {
	struct dispatch *d;
	const struct command *const *commands;
	struct roles *roles;
	struct discord_buttons *buttons;
	/* the ids seen: a ring (eviction order) whose used slots are hashed */
	struct seen *seen; /* SEEN_MAX slots */
	size_t seen_next;
	struct seen *seen_set; /* uthash head */
	struct buf body;       /* where bodies are written; it keeps its memory */
	struct discord_interact_stats stats;
	request_answer_fn answer;
	void *answer_ctx;
};

struct interact *
discord_interact_new(const struct interact_opts *o)
{
	struct interact *it = xcalloc(1, sizeof(*it));

	it->d = o->d;
	it->commands = o->commands != NULL ? o->commands : dispatch_commands(o->d);
	it->answer = o->answer;
	it->answer_ctx = o->answer_ctx;
	it->roles = discord_roles_new(o->gm_role);
	it->buttons = discord_buttons_new(BUTTONS_KEPT);
	it->seen = xcalloc(SEEN_MAX, sizeof(*it->seen));
	buf_init(&it->body, BODY_MAX);
	return it;
}

void
discord_interact_free(struct interact *it)
{
	if (it == NULL)
		return;
	discord_roles_free(it->roles);
	discord_buttons_free(it->buttons);
	HASH_CLEAR(hh, it->seen_set);
	free(it->seen);
	buf_free(&it->body);
	free(it);
}

struct roles *
discord_interact_roles(struct interact *it)
{
	return it->roles;
}

void
discord_interact_set_gm_role(struct interact *it, const char *gm_role)
{
	discord_roles_free(it->roles);
	it->roles = discord_roles_new(gm_role);
}

const struct discord_interact_stats *
discord_interact_stats(const struct interact *it)
{
	return &it->stats;
}

void
discord_interact_out_clear(struct interact_out *out)
{
	free(out->callback_path);
	free(out->callback_body);
	free(out->modal_late);
	free(out->followup_path);
	for (size_t i = 0; i < out->nfollowups; i++)
		free(out->followups[i]);
	free(out->dm_body);
	memset(out, 0, sizeof(*out));
}

/* Records id; returns false when it was seen before. The oldest id is
 * forgotten to make room. */
static bool
seen_add(struct interact *it, uint64_t id)
{
	struct seen *e;

	HASH_FIND(hh, it->seen_set, &id, sizeof(id), e);
	if (e != NULL)
		return false;
	e = &it->seen[it->seen_next];
	if (e->id != 0)
		HASH_DELETE(hh, it->seen_set, e);
	e->id = id;
	HASH_ADD(hh, it->seen_set, id, sizeof(e->id), e);
	it->seen_next = (it->seen_next + 1) % SEEN_MAX;
	return true;
}

/* A snowflake: 1-20 digits, fitting 64 bits, never through a double. */
static bool
snowflake(const cJSON *j, uint64_t *out)
{
	return discord_json_snowflake(cJSON_GetStringValue(j), out) && *out != 0;
}

/* The decimal digits of a string snowflake() accepted, as "%llu" writes its
 * value (without leading zeros): no printf for what is already text. */
static const char *
snowflake_digits(const cJSON *j)
{
	const char *s = cJSON_GetStringValue(j);

	while (*s == '0')
		s++;
	return s;
}

/* dst (KEY_MAX bytes) = "discord:" and the id's digits. */
static void
discord_key(char *dst, const cJSON *id)
{
	const char *digits = snowflake_digits(id);
	size_t n = strlen(digits); /* at most 20 */

	memcpy(dst, "discord:", 8);
	memcpy(dst + 8, digits, n + 1);
}

static bool
valid_token(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n > 0 && n <= TOKEN_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/* Copies a display name: valid UTF-8, no control characters, cut to fit. */
static void
copy_name(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	if (src == NULL || !utf8_valid(src, strlen(src))) {
		snprintf(dst, size, "someone");
		return;
	}
	n = utf8_cut(src, strlen(src), size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
	for (char *p = dst; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	if (dst[0] == '\0')
		snprintf(dst, size, "someone");
}

static const char *
nonempty(const cJSON *j)
{
	const char *s = cJSON_GetStringValue(j);

	return s != NULL && *s != '\0' ? s : NULL;
}

/* Whether a channel of that type is a thread: a forum's post is one too
 * (a public thread whose parent is the forum). */
static bool
is_thread(int type)
{
	return type == DISCORD_CHANNEL_PUBLIC_THREAD || type == DISCORD_CHANNEL_PRIVATE_THREAD ||
	       type == DISCORD_CHANNEL_ANNOUNCEMENT_THREAD;
}

/* The members of an interaction's object (INTERACTION_CREATE's d) that
 * this file reads, each the first of its name, as
 * cJSON_GetObjectItemCaseSensitive() would find it; NULL when absent. */
struct fields {
	const cJSON *type, *data, *token, *application_id, *id, *guild_id, *app_permissions,
	    *channel, *channel_id, *member, *user, *context, *message, *owners;
};

/* Fills f from d in one walk over d's members, rather than a walk per
 * member read. */
static void
fields_of(const cJSON *d, struct fields *f)
{
	memset(f, 0, sizeof(*f));
	for (const cJSON *c = d->child; c != NULL; c = c->next) {
		const char *k = c->string;
		const cJSON **slot = NULL;

		if (k == NULL)
			continue;
		switch (k[0]) {
		case 'a':
			slot = strcmp(k, "application_id") == 0    ? &f->application_id
			       : strcmp(k, "app_permissions") == 0 ? &f->app_permissions
			       : strcmp(k, "authorizing_integration_owners") == 0 ? &f->owners
			                                                          : NULL;
			break;
		case 'c':
			slot = strcmp(k, "channel_id") == 0 ? &f->channel_id
			       : strcmp(k, "channel") == 0  ? &f->channel
			       : strcmp(k, "context") == 0  ? &f->context
			                                    : NULL;
			break;
		case 'd':
			slot = strcmp(k, "data") == 0 ? &f->data : NULL;
			break;
		case 'g':
			slot = strcmp(k, "guild_id") == 0 ? &f->guild_id : NULL;
			break;
		case 'i':
			slot = strcmp(k, "id") == 0 ? &f->id : NULL;
			break;
		case 'm':
			slot = strcmp(k, "member") == 0    ? &f->member
			       : strcmp(k, "message") == 0 ? &f->message
			                                   : NULL;
			break;
		case 't':
			slot = strcmp(k, "type") == 0    ? &f->type
			       : strcmp(k, "token") == 0 ? &f->token
			                                 : NULL;
			break;
		case 'u':
			slot = strcmp(k, "user") == 0 ? &f->user : NULL;
			break;
		default:
			break;
		}
		if (slot != NULL && *slot == NULL)
			*slot = c;
	}
}

/* Fills o from an interaction; returns false when it names no channel or
 * no user. A thread (or forum post) is a channel of its own, whose parent
 * goes into o->parent_key. */
static bool
make_origin(struct interact *it, const struct fields *f, struct origin *o)
{
	const cJSON *member = f->member;
	const cJSON *user =
	    member != NULL ? cJSON_GetObjectItemCaseSensitive(member, "user") : f->user;
	const cJSON *chan = f->channel_id;
	const cJSON *channel = f->channel;
	const cJSON *ctype = cJSON_GetObjectItemCaseSensitive(channel, "type");
	const cJSON *parent = cJSON_GetObjectItemCaseSensitive(channel, "parent_id");
	const cJSON *context = f->context;
	const cJSON *user_id;
	const char *name, *perms;
	uint64_t uid, cid, gid = 0, pid;

	memset(o, 0, sizeof(*o));
	o->platform = "discord";
	if (chan == NULL)
		chan = cJSON_GetObjectItemCaseSensitive(channel, "id");
	user_id = cJSON_GetObjectItemCaseSensitive(user, "id");
	if (!snowflake(chan, &cid) || !snowflake(user_id, &uid))
		return false;
	discord_key(o->chan_key, chan);
	discord_key(o->user_key, user_id);
	if (cJSON_IsNumber(ctype) && is_thread(ctype->valueint) && snowflake(parent, &pid) &&
	    pid != cid)
		discord_key(o->parent_key, parent);
	name = nonempty(cJSON_GetObjectItemCaseSensitive(member, "nick"));
	if (name == NULL)
		name = nonempty(cJSON_GetObjectItemCaseSensitive(user, "global_name"));
	if (name == NULL)
		name = nonempty(cJSON_GetObjectItemCaseSensitive(user, "username"));
	copy_name(o->user_name, sizeof(o->user_name), name);
	/* A private conversation with the bot: its DM (context 1). A group DM
	 * or a DM between users (context 2, a user install's) has no server
	 * either, but is shared with others. */
	o->direct =
	    !snowflake(f->guild_id, &gid) &&
	    !(cJSON_IsNumber(context) && context->valueint == DISCORD_CONTEXT_PRIVATE_CHANNEL);
	perms = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(member, "permissions"));
	if (perms != NULL && strspn(perms, "0123456789") == strlen(perms) && *perms != '\0') {
		unsigned long long p = strtoull(perms, NULL, 10);

		o->platform_admin =
		    (p & (DISCORD_PERM_ADMINISTRATOR | DISCORD_PERM_MANAGE_CHANNELS |
		          DISCORD_PERM_MANAGE_GUILD)) != 0;
	}
	if (member != NULL && !o->platform_admin)
		o->platform_admin = discord_roles_member_is_gm(
		    it->roles, gid, cJSON_GetObjectItemCaseSensitive(member, "roles"));
	return true;
}

/* The command of that name, or of that alias (/r is registered too). */
static const struct command *
find_command(const struct interact *it, const char *name)
{
	return name != NULL ? registry_find_in(it->commands, name, strlen(name)) : NULL;
}

/* An option's value as the text registry_bind() takes. Returns false for a
 * value it cannot express. */
static bool
value_text(const cJSON *opt, const cJSON *resolved, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(opt, "value");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(opt, "type");
	int r;

	if (cJSON_IsString(v) && cJSON_IsNumber(type) && type->valueint == DISCORD_OPTION_USER) {
		/* A user: their display name in this guild, as on text platforms. */
		const char *id = v->valuestring, *name = NULL;
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(resolved, "members"), id);
		const cJSON *u = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(resolved, "users"), id);

		name = nonempty(cJSON_GetObjectItemCaseSensitive(m, "nick"));
		if (name == NULL)
			name = nonempty(cJSON_GetObjectItemCaseSensitive(u, "global_name"));
		if (name == NULL)
			name = nonempty(cJSON_GetObjectItemCaseSensitive(u, "username"));
		copy_name(out, len < NAME_MAX_LEN ? len : NAME_MAX_LEN, name ? name : id);
		return true;
	}
	if (cJSON_IsString(v))
		r = snprintf(out, len, "%s", v->valuestring);
	else if (cJSON_IsBool(v))
		r = snprintf(out, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v) && v->valuedouble == (double)(long long)v->valuedouble &&
	         v->valuedouble < 9007199254740992.0 && v->valuedouble > -9007199254740992.0)
		r = snprintf(out, len, "%lld", (long long)v->valuedouble);
	else
		return false;
	return r >= 0 && (size_t)r < len;
}

/* Walks the options tree: subcommand names into names[], the leaf options
 * into *leaves. Returns false on a malformed tree. */
static bool
walk_options(const cJSON *data, const char **names, const cJSON **leaves)
{
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(data, "options");
	size_t depth = 0;

	names[0] = NULL;
	for (;;) {
		const cJSON *first = cJSON_IsArray(opts) ? opts->child : NULL;
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(first, "type");

		if (first == NULL || !cJSON_IsNumber(type) ||
		    (type->valueint != DISCORD_OPTION_SUB_COMMAND &&
		     type->valueint != DISCORD_OPTION_SUB_COMMAND_GROUP)) {
			*leaves = cJSON_IsArray(opts) ? opts : NULL;
			return true;
		}
		if (depth == 2 ||
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(first, "name")) == NULL)
			return false;
		names[depth++] = cJSON_GetObjectItemCaseSensitive(first, "name")->valuestring;
		names[depth] = NULL;
		opts = cJSON_GetObjectItemCaseSensitive(first, "options");
	}
}

/*
 * Binds a slash command's path and options to inv. Returns 0, or -1 with an
 * error reply. With focused non-NULL (autocomplete), binding errors are
 * ignored and the focused option is returned there instead of bound.
 */
static int
bind_command(struct interact *it, const cJSON *data, struct invocation *inv, struct reply *out,
             const cJSON **focused)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "name"));
	const cJSON *resolved = cJSON_GetObjectItemCaseSensitive(data, "resolved");
	const char *names[3];
	const cJSON *leaves = NULL, *opt;
	char *value = xmalloc(VALUE_MAX);
	int r = -1;

	inv->path[0] = find_command(it, name);
	if (inv->path[0] == NULL) {
		reply_error(out,
		            "There is no command /%.32s here any more; the command list is "
		            "being updated, so try again in a minute.",
		            name ? name : "?");
		goto done;
	}
	if (!walk_options(data, names, &leaves)) {
		reply_error(out, "That command arrived malformed; try it again.");
		goto done;
	}
	if (registry_select(inv, names, out) < 0)
		goto done;
	cJSON_ArrayForEach(opt, leaves)
	{
		const char *oname =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(opt, "name"));
		struct reply *scratch;

		if (focused != NULL &&
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "focused"))) {
			*focused = opt;
			continue;
		}
		if (oname == NULL || !value_text(opt, resolved, value, VALUE_MAX)) {
			if (focused != NULL)
				continue;
			reply_error(out, "The option %.32s arrived malformed; try it again.",
			            oname ? oname : "?");
			goto done;
		}
		if (focused == NULL) {
			if (registry_bind(inv, oname, value, out) < 0)
				goto done;
			continue;
		}
		scratch = reply_new();
		(void)registry_bind(inv, oname, value, scratch);
		reply_free(scratch);
	}
	r = focused != NULL ? 0 : registry_check_required(inv, out);
done:
	free(value);
	if (r < 0)
		invocation_clear(inv);
	return r;
}

/*
 * Binds a form's submit (MODAL_SUBMIT) to inv: the command line the form's
 * custom_id carries, with the text typed into it as the option it names
 * (discord_modal.h). Returns 0, or -1 with an error reply.
 */
static int
bind_submit(struct interact *it, const cJSON *data, struct invocation *inv, struct reply *out)
{
	char line[DISCORD_CUSTOM_ID_MAX + 1], opt[DISCORD_CUSTOM_ID_MAX + 1];
	const char *value;

	if (discord_modal_submit(data, line, sizeof(line), opt, sizeof(opt), &value) < 0) {
		reply_error(out, "That form is not one this bot opened; run the command again.");
		return -1;
	}
	return draft_bind(it->commands, line, opt, value, inv, out);
}

/*
 * The body of a message or of a callback of that type (type 0: the message
 * alone), freed with free(); data is freed. Written by json_write
 * into a buffer kept between answers: no tree around the message, no
 * reallocation once the buffer has grown.
 */
static char *
print_body(struct interact *it, int type, cJSON *data)
{
	char *s;

	buf_reset(&it->body);
	if (type != 0)
		buf_addf(&it->body, "{\"type\":%d,\"data\":", type);
	if (json_write(data, &it->body) < 0 || (type != 0 && buf_addc(&it->body, '}') < 0)) {
		/* Past BODY_MAX, which no message reaches: written uncapped. */
		cJSON *root = data;

		if (type != 0) {
			root = cJSON_CreateObject();
			cJSON_AddNumberToObject(root, "type", type);
			cJSON_AddItemToObject(root, "data", data);
		}
		s = json_print(root);
		cJSON_Delete(root);
		return s;
	}
	cJSON_Delete(data);
	return xstrndup(buf_str(&it->body), it->body.len);
}

/*
 * The GM part of r as a direct message to the GM (a user key
 * "discord:<id>"): one message, headed by a link to the channel it came
 * from ("<#id>" names a channel and pings nobody), so a GM of several
 * channels knows where. Leaves out->gm_user "" when there is none.
 */
static void
gm_message(struct interact *it, const struct reply *r, const char *chan_key,
           struct interact_out *out)
{
	const struct reply_msg *gm = reply_msg(r, REPLY_GM);
	const char *key = reply_gm_key(r), *id;
	cJSON *part, *content;
	struct buf b;

	if (gm == NULL || key == NULL || strncmp(key, "discord:", 8) != 0)
		return;
	id = key + 8;
	if (id[0] == '\0' || strlen(id) >= sizeof(out->gm_user) ||
	    strspn(id, "0123456789") != strlen(id))
		return;
	render_discord_parts(gm, false, it->buttons, &part, 1);
	content = cJSON_GetObjectItemCaseSensitive(part, "content");
	if (cJSON_IsString(content) && strncmp(chan_key, "discord:", 8) == 0) {
		buf_init(&b, 4 * DISCORD_CONTENT_MAX + 64);
		buf_addf(&b, "From <#%s>:\n%s", chan_key + 8, content->valuestring);
		if (!b.toobig && render_discord_len(buf_str(&b)) <= DISCORD_CONTENT_MAX)
			cJSON_SetValuestring(content, buf_str(&b));
		buf_free(&b);
	}
	out->dm_body = print_body(it, 0, part);
	snprintf(out->gm_user, sizeof(out->gm_user), "%s", id);
	snprintf(out->gm_name, sizeof(out->gm_name), "%s", reply_gm_name(r));
	snprintf(out->gm_what, sizeof(out->gm_what), "%s", reply_gm_what(r));
	out->gm_aside = reply_gm_is_aside(r);
	key = reply_gm_fallback_key(r);
	if (key != NULL && strncmp(key, "discord:", 8) == 0 &&
	    strlen(key + 8) < sizeof(out->gm_chan) && key[8] != '\0' &&
	    strspn(key + 8, "0123456789") == strlen(key + 8))
		snprintf(out->gm_chan, sizeof(out->gm_chan), "%s", key + 8);
}

/* "/webhooks/<application id>/<token>" (owned by the caller). */
static char *
webhook_path(const char *app_id, const char *token)
{
	struct buf b;

	buf_init(&b, 2 * TOKEN_MAX);
	buf_addf(&b, "/webhooks/%s/%s", app_id, token);
	return buf_take(&b);
}

/*
 * How many follow-ups Discord takes for interaction d: 5 when a user
 * install alone authorised it (authorizing_integration_owners has "1" and
 * not "0": "Apps are limited to 5 followup messages per interaction if it
 * was initiated from a user-installed app and isn't installed in the
 * server"), else as many as a reply makes (-1).
 */
static int
followups_allowed(const struct fields *f)
{
	const cJSON *owners = f->owners;

	if (cJSON_IsObject(owners) && cJSON_GetObjectItemCaseSensitive(owners, "1") != NULL &&
	    cJSON_GetObjectItemCaseSensitive(owners, "0") == NULL)
		return DISCORD_USER_FOLLOWUPS_MAX;
	return -1;
}

/*
 * Whether interaction d came from where the bot user is not: a group DM or
 * a DM between users (context PRIVATE_CHANNEL), or a server whose
 * authorizing_integration_owners lacks the server install ("0"), which a
 * user install alone reaches. The bot's token may not post there (Create
 * Message answers 403); the interaction's own webhook still answers.
 */
static bool
bot_absent(const struct fields *f)
{
	const cJSON *context = f->context;
	const cJSON *owners = f->owners;

	if (cJSON_IsNumber(context) && context->valueint == DISCORD_CONTEXT_PRIVATE_CHANNEL)
		return true;
	return f->guild_id != NULL && cJSON_IsObject(owners) &&
	       cJSON_GetObjectItemCaseSensitive(owners, "0") == NULL;
}

/*
 * A reply that asks for a long text (reply_ask) to a command or a button
 * opens a form (a MODAL callback) instead of its message, which is for the
 * platforms without forms; a submit cannot open one ("not available for
 * MODAL_SUBMIT and PING interactions"). Returns whether it did.
 */
static bool
ask_form(struct interact *it, const struct reply *r, struct interact_out *out)
{
	const struct reply_ask *ask = reply_asked(r);
	cJSON *modal, *late;
	struct buf b;

	if (ask == NULL ||
	    (out->type != DISCORD_INTERACTION_COMMAND &&
	     out->type != DISCORD_INTERACTION_COMPONENT) ||
	    (modal = discord_modal_data(ask)) == NULL)
		return false;
	out->callback_body = print_body(it, DISCORD_CALLBACK_MODAL, modal);
	/* A deferred interaction can no longer open a form: the invoker is
	 * told to run the command again. */
	buf_init(&b, 512);
	buf_addf(&b, "The form for /%s could not open in time; run the command again.", ask->line);
	late = cJSON_CreateObject();
	cJSON_AddStringToObject(late, "content", buf_str(&b));
	cJSON_AddNumberToObject(late, "flags", DISCORD_FLAG_EPHEMERAL);
	cJSON_AddArrayToObject(cJSON_AddObjectToObject(late, "allowed_mentions"), "parse");
	out->modal_late = print_body(it, DISCORD_CALLBACK_MESSAGE, late);
	buf_free(&b);
	return true;
}

/* Renders a reply into the callback body and, when it is longer than a
 * message or has a channel part and a private part, the follow-ups: at
 * most followups_max of them when it is not -1, one of which is kept for
 * the note a refused GM message may need; each part then holds what its
 * share of messages can (render_discord_parts summarises the rest). With
 * no webhook (no application id) to address follow-ups, one message is all
 * there is. With update, the callback replaces the pressed message (type 7). */
static void
render_reply(struct interact *it, const struct reply *r, const char *webhook, const char *chan_key,
             int followups_max, bool update, struct interact_out *out)
{
	const struct reply_msg *pub = reply_msg(r, REPLY_CHANNEL);
	const struct reply_msg *priv = reply_msg(r, REPLY_INVOKER);
	static const struct reply_msg empty = {0};
	cJSON *parts[2 * DISCORD_PARTS_MAX];
	size_t n, max = webhook != NULL ? DISCORD_PARTS_MAX : 1;
	/* Messages in all: the callback and the follow-ups allowed. */
	size_t total = 2 * DISCORD_PARTS_MAX;

	if (webhook != NULL && followups_max >= 0) {
		total = (size_t)followups_max + 1;
		if (reply_msg(r, REPLY_GM) != NULL && total > 1)
			total--; /* the note, should the GM refuse the message */
		/* A button's answer, if deferred, is all follow-ups (type 6
		 * updates nothing): its first message becomes one. */
		if (out->type == DISCORD_INTERACTION_COMPONENT && total > 1)
			total--;
	}
	if (ask_form(it, r, out))
		return;
	if (reply_panel_message(r) != NULL && !reply_is_error(r) && pub != NULL &&
	    out->type == DISCORD_INTERACTION_COMMAND) {
		/* /panel: the panel goes to the channel as a message of the bot's
		 * (discord_live.h); the command's answer is the invoker's alone:
		 * the GM's copy behind the screen, or where the panel is. */
		struct reply *note = reply_new();
		const struct reply_msg *m = priv;

		if (m == NULL) {
			reply_line(note, 0, PANEL_NOTE);
			m = reply_msg(note, REPLY_CHANNEL);
		}
		update = false;
		n = render_discord_parts(m, true, it->buttons, parts, 1);
		reply_free(note);
	} else if (reply_is_error(r) || pub == NULL) {
		const struct reply_msg *m = reply_is_error(r) ? pub : priv;

		update = false; /* the pressed message stays; the presser alone is told */
		n = render_discord_parts(m != NULL ? m : &empty, true, it->buttons, parts,
		                         max < total ? max : total);
	} else if (update) {
		/* The channel's message replaces the pressed one whole: one
		 * message, what it cannot hold summarised. */
		n = render_discord_parts(pub, false, it->buttons, parts, 1);
		if (priv != NULL && webhook != NULL && total > n)
			n += render_discord_parts(priv, true, it->buttons, parts + n,
			                          max < total - n ? max : total - n);
	} else {
		size_t room = priv != NULL && webhook != NULL && total > 1 ? total - 1 : total;

		n = render_discord_parts(pub, false, it->buttons, parts, max < room ? max : room);
		if (priv != NULL && webhook != NULL && total > n)
			n += render_discord_parts(priv, true, it->buttons, parts + n,
			                          max < total - n ? max : total - n);
	}
	out->callback_body = print_body(
	    it, update ? DISCORD_CALLBACK_UPDATE_MESSAGE : DISCORD_CALLBACK_MESSAGE, parts[0]);
	out->error = reply_is_error(r);
	for (size_t i = 1; i < n; i++)
		out->followups[out->nfollowups++] = print_body(it, 0, parts[i]);
	if (!reply_is_error(r))
		gm_message(it, r, chan_key, out);
	if (n > 1 || (out->gm_user[0] != '\0' && webhook != NULL))
		out->followup_path = xstrdup(webhook);
}

static void
autocomplete(struct interact *it, const cJSON *data, const struct origin *o, int64_t now,
             struct interact_out *out)
{
	struct invocation inv;
	struct reply *r = reply_new();
	struct completions c = {0};
	const cJSON *focused = NULL;
	cJSON *res = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(res, "choices");

	memset(&inv, 0, sizeof(inv));
	if (bind_command(it, data, &inv, r, &focused) == 0 && focused != NULL) {
		const char *oname =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(focused, "name"));
		const char *partial =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(focused, "value"));

		complete_invocation(it->d, o, &inv, oname, partial, now, &c);
	}
	invocation_clear(&inv);
	for (size_t i = 0; i < c.n; i++) {
		cJSON *ch = cJSON_CreateObject();

		cJSON_AddStringToObject(ch, "name", c.v[i]);
		cJSON_AddStringToObject(ch, "value", c.v[i]);
		cJSON_AddItemToArray(arr, ch);
	}
	completions_clear(&c);
	reply_free(r);
	out->callback_body = print_body(it, DISCORD_CALLBACK_AUTOCOMPLETE, res);
}

/* A request's tag: what its answer needs of its interaction, as the event
 * gave it (an interact_out with nothing to send: id, type, paths, times),
 * the follow-ups Discord allows it (followups_allowed), whether its
 * answer replaces the pressed message (a button's, type 7), and the answer
 * rendered when its mark was kept (reused when the reply did not change
 * since). */
struct tag {
	struct interact_out ev;
	int followups_max;
	bool update;
	char pressed[24];   /* a panel's button: the message pressed (its id), else "" */
	char guild[24];     /* the guild's id, "" outside any */
	uint64_t app_perms; /* the bot's permissions in the channel (app_permissions) */
	bool have_perms;    /* app_permissions was given */
	bool thread;        /* the channel is a thread */
	bool bot_absent;    /* the bot user is not in the conversation (bot_absent()) */
	struct interact *it;
	struct interact_out kept;
	bool have_kept;
};

static void
tag_free(void *p)
{
	struct tag *t = p;

	discord_interact_out_clear(&t->ev);
	discord_interact_out_clear(&t->kept);
	free(t);
}

/* The request's keep function (request_set_key): its answer as rendered
 * now, as a JSON object: "c" the callback body, "f" the follow-ups, "d"
 * the GM's message with "g" and "n" (the GM's id and name), "e" an error,
 * "w" whether it uses the webhook. */
static int
keep(struct request *req, struct buf *out)
{
	struct tag *t = request_tag(req);
	struct interact_out *k = &t->kept;

	discord_interact_out_clear(k);
	k->type = t->ev.type; /* render_reply counts a button's messages apart */
	render_reply(t->it, request_reply(req), t->ev.followup_path, request_origin(req)->chan_key,
	             t->followups_max, t->update, k);
	t->have_kept = true;
	/* Written as json_print() writes the object {c, f, [d, g, n,] e, w}
	 * (restore_kept reads it), without building it first. */
	buf_adds(out, "{\"c\":");
	json_write_string(k->callback_body, out);
	buf_adds(out, ",\"f\":[");
	for (size_t i = 0; i < k->nfollowups; i++) {
		if (i > 0)
			buf_addc(out, ',');
		json_write_string(k->followups[i], out);
	}
	buf_addc(out, ']');
	if (k->dm_body != NULL) {
		buf_adds(out, ",\"d\":");
		json_write_string(k->dm_body, out);
		buf_adds(out, ",\"g\":");
		json_write_string(k->gm_user, out);
		buf_adds(out, ",\"n\":");
		json_write_string(k->gm_name, out);
	}
	buf_adds(out, k->error ? ",\"e\":true" : ",\"e\":false");
	buf_adds(out, k->followup_path != NULL ? ",\"w\":true}" : ",\"w\":false}");
	return out->toobig ? -1 : 0;
}

/* The answer kept with a replayed request's mark (keep's JSON) into out.
 * Returns 0, or -1 when it is not such an answer. */
static int
restore_kept(const struct request *req, const struct tag *t, struct interact_out *out)
{
	size_t len;
	const char *bytes = request_kept(req, &len);
	cJSON *o = bytes != NULL ? cJSON_ParseWithLength(bytes, len) : NULL, *v;
	const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "c"));
	int rc = -1;

	if (c == NULL || *c == '\0')
		goto done;
	out->callback_body = xstrdup(c);
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(o, "f"))
	{
		if (cJSON_IsString(v) && out->nfollowups < 2 * DISCORD_PARTS_MAX)
			out->followups[out->nfollowups++] = xstrdup(v->valuestring);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "d")) != NULL && cJSON_IsString(v)) {
		out->dm_body = xstrdup(v->valuestring);
		snprintf(out->gm_user, sizeof(out->gm_user), "%s",
		         cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "g")) != NULL
		             ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "g"))
		             : "");
		snprintf(out->gm_name, sizeof(out->gm_name), "%s",
		         cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "n")) != NULL
		             ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "n"))
		             : "");
	}
	out->error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "e"));
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "w")) && t->ev.followup_path != NULL)
		out->followup_path = xstrdup(t->ev.followup_path);
	rc = 0;
done:
	cJSON_Delete(o);
	return rc;
}

bool
discord_interact_private(struct request *req)
{
	const struct reply *r = request_reply(req);
	const struct tag *t = request_tag(req);

	/* A /panel's answer is the invoker's alone; its panel is posted. */
	if (t != NULL && t->ev.type == DISCORD_INTERACTION_COMMAND &&
	    reply_panel_message(r) != NULL)
		return true;
	return reply_is_error(r) ||
	       (reply_msg(r, REPLY_CHANNEL) == NULL && reply_msg(r, REPLY_INVOKER) != NULL);
}

bool
discord_interact_bot_absent(const struct request *req)
{
	const struct tag *t = request_tag(req);

	return t != NULL && t->bot_absent;
}

bool
discord_interact_app_permissions(const struct request *req, uint64_t *perms, bool *thread)
{
	const struct tag *t = request_tag(req);

	if (t == NULL)
		return false;
	*perms = t->app_perms;
	*thread = t->thread;
	return t->have_perms;
}

char *
discord_interact_note_body(struct interact *it, const char *text)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "content", text);
	cJSON_AddNumberToObject(o, "flags", DISCORD_FLAG_EPHEMERAL);
	cJSON_AddArrayToObject(cJSON_AddObjectToObject(o, "allowed_mentions"), "parse");
	return print_body(it, DISCORD_CALLBACK_MESSAGE, o);
}

/* The id, type, times and callback path of t's interaction into out. */
static void
out_of(const struct tag *t, struct interact_out *out)
{
	memcpy(out->id, t->ev.id, sizeof(out->id));
	out->type = t->ev.type;
	out->rx_ns = t->ev.rx_ns;
	out->deadline = t->ev.deadline;
	free(out->callback_path);
	out->callback_path = xstrdup(t->ev.callback_path);
}

int
discord_interact_render(struct interact *it, struct request *req, struct interact_out *out)
{
	struct tag *t = request_tag(req);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->type = t->ev.type; /* render_reply counts a button's messages apart */
	if (request_outcome(req) == REQUEST_REPLAYED) {
		rc = restore_kept(req, t, out);
	} else if (t->have_kept && request_outcome(req) == REQUEST_DONE) {
		/* Rendered when its mark was kept, and unchanged since. */
		*out = t->kept;
		memset(&t->kept, 0, sizeof(t->kept));
		t->have_kept = false;
	} else {
		render_reply(it, request_reply(req), t->ev.followup_path,
		             request_origin(req)->chan_key, t->followups_max, t->update, out);
	}
	out_of(t, out);
	return rc;
}

const char *
discord_interact_pressed(const struct request *req)
{
	const struct tag *t = request_tag(req);

	return t != NULL && t->pressed[0] != '\0' ? t->pressed : NULL;
}

const char *
discord_interact_guild(const struct request *req)
{
	const struct tag *t = request_tag(req);

	return t != NULL ? t->guild : "";
}

const char *
discord_interact_webhook(const struct request *req)
{
	const struct tag *t = request_tag(req);

	return t != NULL ? t->ev.followup_path : NULL;
}

char *
discord_interact_webhook_of(const cJSON *d)
{
	const char *token = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "token"));
	const cJSON *app = cJSON_GetObjectItemCaseSensitive(d, "application_id");
	uint64_t appn;

	if (!valid_token(token) || !snowflake(app, &appn))
		return NULL;
	return webhook_path(snowflake_digits(app), token);
}

char *
discord_interact_panel_body(struct interact *it, const struct reply *r)
{
	const struct reply_msg *pub = reply_msg(r, REPLY_CHANNEL);
	cJSON *part;

	if (pub == NULL || render_discord_parts(pub, false, NULL, &part, 1) != 1)
		return NULL;
	return print_body(it, 0, part);
}

void
discord_interact_render_press(struct interact *it, struct request *press, const struct reply *panel,
                              struct interact_out *out)
{
	const struct tag *t = request_tag(press);
	const struct reply *r = request_reply(press);
	const struct reply_msg *pub = reply_msg(r, REPLY_CHANNEL);
	const struct reply_msg *priv = reply_msg(r, REPLY_INVOKER);
	const struct reply_msg *pm = reply_msg(panel, REPLY_CHANNEL);
	cJSON *parts[2 * DISCORD_PARTS_MAX];
	size_t n, max = DISCORD_PARTS_MAX, total = 2 * DISCORD_PARTS_MAX;
	const char *webhook = t->ev.followup_path;

	memset(out, 0, sizeof(*out));
	out_of(t, out);
	if (webhook == NULL || pm == NULL || pub == NULL || reply_is_error(r)) {
		/* Nothing to follow with, or no panel: an answer as any press. */
		render_reply(it, r, webhook, request_origin(press)->chan_key, t->followups_max,
		             false, out);
		return;
	}
	if (t->followups_max >= 0) {
		total = (size_t)t->followups_max + 1;
		if (reply_msg(r, REPLY_GM) != NULL && total > 1)
			total--; /* the note, should the GM refuse the message */
	}
	/* The panel updates the pressed message; what the press did follows
	 * as messages of its own (then its private part, ephemeral). */
	n = render_discord_parts(pm, false, it->buttons, parts, 1);
	if (total > n)
		n += render_discord_parts(pub, false, it->buttons, parts + n,
		                          max < total - n ? max : total - n);
	if (priv != NULL && total > n)
		n += render_discord_parts(priv, true, it->buttons, parts + n,
		                          max < total - n ? max : total - n);
	out->callback_body = print_body(it, DISCORD_CALLBACK_UPDATE_MESSAGE, parts[0]);
	for (size_t i = 1; i < n; i++)
		out->followups[out->nfollowups++] = print_body(it, 0, parts[i]);
	gm_message(it, r, request_origin(press)->chan_key, out);
	if (n > 1 || out->gm_user[0] != '\0')
		out->followup_path = xstrdup(webhook);
}

static int
interaction(struct interact *it, const cJSON *d, int64_t now, struct interact_out *out,
            struct request **reqp, uint64_t rx_ns, uint64_t deadline, uint64_t now_ns)
{
	struct fields f;
	const cJSON *type, *data, *app, *idj;
	const char *token;
	struct tag *t;
	struct request *req;
	struct origin o;
	uint64_t id, appn;
	struct buf b;

	fields_of(d, &f);
	type = f.type;
	data = f.data;
	token = cJSON_GetStringValue(f.token);
	app = f.application_id;
	idj = f.id;
	if (!snowflake(idj, &id) || !valid_token(token) || !cJSON_IsNumber(type) ||
	    !cJSON_IsObject(data) || !make_origin(it, &f, &o)) {
		it->stats.malformed++;
		log_debug("discord: dropped a malformed interaction");
		return INTERACT_NONE;
	}
	if (type->valueint != DISCORD_INTERACTION_COMMAND &&
	    type->valueint != DISCORD_INTERACTION_COMPONENT &&
	    type->valueint != DISCORD_INTERACTION_AUTOCOMPLETE &&
	    type->valueint != DISCORD_INTERACTION_MODAL_SUBMIT) {
		log_debug("discord: ignored an interaction of type %d", type->valueint);
		return INTERACT_NONE;
	}
	if (deadline != 0 && now_ns >= deadline)
		return INTERACT_SHED; /* too late: not worked out, nothing touched */
	if (!seen_add(it, id)) {
		it->stats.duplicates++;
		log_debug("discord: interaction %llu was already answered", (unsigned long long)id);
		return INTERACT_NONE;
	}
	memset(out, 0, sizeof(*out));
	memcpy(out->id, snowflake_digits(idj), strlen(snowflake_digits(idj)) + 1);
	out->type = type->valueint;
	out->rx_ns = rx_ns;
	out->deadline = deadline;
	buf_init(&b, 2 * TOKEN_MAX);
	buf_adds(&b, "/interactions/");
	buf_adds(&b, out->id);
	buf_addc(&b, '/');
	buf_adds(&b, token);
	buf_adds(&b, "/callback");
	out->callback_path = buf_take(&b);
	if (snowflake(app, &appn))
		out->followup_path = webhook_path(app->valuestring, token);
	if (type->valueint == DISCORD_INTERACTION_AUTOCOMPLETE) {
		it->stats.autocompletes++;
		free(out->followup_path);
		out->followup_path = NULL;
		autocomplete(it, data, &o, now, out);
		return INTERACT_ANSWER;
	}
	/* A command or a button: a request on the command's road, which
	 * carries what its answer needs (out keeps what a deferral needs). */
	t = xcalloc(1, sizeof(*t));
	t->it = it;
	memcpy(t->ev.id, out->id, sizeof(t->ev.id));
	t->ev.type = out->type;
	t->ev.callback_path = xstrdup(out->callback_path);
	t->ev.followup_path = out->followup_path != NULL ? xstrdup(out->followup_path) : NULL;
	t->ev.rx_ns = rx_ns;
	t->ev.deadline = deadline;
	t->followups_max = followups_allowed(&f);
	{
		const cJSON *gid = f.guild_id;
		uint64_t g;

		if (snowflake(gid, &g))
			memcpy(t->guild, snowflake_digits(gid), strlen(snowflake_digits(gid)) + 1);
	}
	{
		/* A decimal string: Discord's bitsets pass 2^53. */
		const char *perms = cJSON_GetStringValue(f.app_permissions);
		const cJSON *ctype = cJSON_GetObjectItemCaseSensitive(f.channel, "type");

		t->have_perms = discord_json_snowflake(perms, &t->app_perms);
		t->thread = cJSON_IsNumber(ctype) && is_thread(ctype->valueint);
	}
	t->bot_absent = bot_absent(&f);
	req = request_new(&o, now, it->answer, it->answer_ctx);
	request_set_tag(req, t, tag_free);
	request_set_key(req, out->id, keep);
	if (type->valueint == DISCORD_INTERACTION_COMPONENT) {
		const char *cid =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "custom_id"));
		enum discord_button_kind kind = DISCORD_BUTTON_NEW;
		const char *line =
		    cid != NULL ? discord_buttons_action(it->buttons, cid, &kind) : NULL;

		it->stats.components++;
		t->update = kind == DISCORD_BUTTON_UPDATE;
		if (kind == DISCORD_BUTTON_PANEL) {
			const cJSON *mid = cJSON_GetObjectItemCaseSensitive(f.message, "id");
			uint64_t m;

			if (snowflake(mid, &m))
				memcpy(t->pressed, snowflake_digits(mid),
				       strlen(snowflake_digits(mid)) + 1);
		}
		if (line == NULL)
			reply_error(request_reply(req),
			            "That button has expired; run the command again.");
		else
			request_set_line(req, line, strlen(line));
	} else {
		if (type->valueint == DISCORD_INTERACTION_MODAL_SUBMIT) {
			it->stats.submits++;
			bind_submit(it, data, request_invocation(req), request_reply(req));
		} else {
			it->stats.commands++;
			bind_command(it, data, request_invocation(req), request_reply(req), NULL);
		}
	}
	/* A refusal before the command runs is known to be private. */
	out->defer_private = reply_is_error(request_reply(req));
	*reqp = req;
	return INTERACT_REQUEST;
}

int
discord_interact_event(struct interact *it, const char *t, const cJSON *d, int64_t now,
                       struct interact_out *out, struct request **req, uint64_t rx_ns,
                       uint64_t deadline, uint64_t now_ns)
{
	*req = NULL;
	if (t == NULL || !cJSON_IsObject(d))
		return INTERACT_NONE;
	if (strcmp(t, "INTERACTION_CREATE") == 0)
		return interaction(it, d, now, out, req, rx_ns, deadline, now_ns);
	discord_roles_event(it->roles, t, d);
	return INTERACT_NONE;
}
