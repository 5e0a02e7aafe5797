/* discord_interact: gateway events into requests; see discord_interact.h. */
#include "bot/discord/discord_interact.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <uthash.h>

#include "bot/discord/discord_buttons.h"
#include "bot/discord/discord_interact_int.h"
#include "bot/draft/draft.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_modal.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_roles.h"
#include "bot/log.h"
#include "commands/core/complete.h"
#include "commands/core/registry_parse.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define SEEN_MAX     4096 /* interaction ids remembered */
#define BUTTONS_KEPT 4096 /* long button command lines remembered */
#define TOKEN_MAX    1000
#define PATH_ROOM    64         /* a REST path's bytes besides its token */
#define VALUE_MAX    4096       /* bytes of one option value */
#define BODY_MAX     (1u << 20) /* bytes of one answer's JSON body */

/* A remembered interaction id: a slot of the ring, in the hash while used. */
struct seen {
	uint64_t id; /* 0: the slot is free */
	UT_hash_handle hh;
};

struct interact *
discord_interact_new(const struct interact_opts *o)
{
	struct interact *it = xcalloc(1, sizeof(*it));

	it->d = o->d;
	it->commands = o->commands != NULL ? o->commands : dispatch_commands(o->d);
	it->answer = o->answer;
	it->answer_ctx = o->answer_ctx;
	it->unreachable = o->unreachable;
	it->unreachable_ctx = o->unreachable_ctx;
	it->roles = discord_roles_new(o->gm_role);
	it->buttons = discord_buttons_new(BUTTONS_KEPT, discord_buttons_first());
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

bool
discord_interact_channel_named(const struct origin *o, const char *text, char *key)
{
	size_t n = strlen(text);

	(void)o;
	if (n >= 3 && text[0] == '<' && text[1] == '#' && text[n - 1] == '>') {
		text += 2;
		n -= 3;
	} else if (n >= 1 && text[0] == '#') {
		text++;
		n--;
	}
	if (n < 15 || n > 20 || strspn(text, "0123456789") < n)
		return false;
	snprintf(key, KEY_MAX, "discord:%.*s", (int)n, text);
	return true;
}

/* Whether c may be in an interaction's token: a letter, a digit, '.',
 * '_' or '-'. */
static bool
token_byte(unsigned char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26 || (unsigned char)(c - '0') < 10 ||
	       c == '.' || c == '_' || c == '-';
}

#ifdef __SSE2__
/* Whether the 16 bytes at s are all token_byte's. */
static bool
token_block(const char *s)
{
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	/* Bytes past 0x7F are negative here, below every range's low end. */
	const __m128i l = _mm_or_si128(v, _mm_set1_epi8(0x20));
	__m128i ok = _mm_and_si128(_mm_cmpgt_epi8(l, _mm_set1_epi8('a' - 1)),
	                           _mm_cmplt_epi8(l, _mm_set1_epi8('z' + 1)));

	ok = _mm_or_si128(ok, _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
	                                    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1))));
	ok = _mm_or_si128(ok, _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
	ok = _mm_or_si128(ok, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
	ok = _mm_or_si128(ok, _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
	return _mm_movemask_epi8(ok) == 0xFFFF;
}
#endif

/* An interaction's token: 1 to TOKEN_MAX token_byte's. */
static bool
valid_token(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0, i = 0;

	if (n == 0 || n > TOKEN_MAX)
		return false;
#ifdef __SSE2__
	for (; n - i >= 16; i += 16)
		if (!token_block(s + i))
			return false;
#endif
	for (; i < n; i++)
		if (!token_byte((unsigned char)s[i]))
			return false;
	return true;
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
	o->channel_named = discord_interact_channel_named;
	o->unreachable = it->unreachable;
	o->name_ctx = it->unreachable_ctx;
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

/* An option's value as the text registry_parse_bind() takes. Returns false for a
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
		r = (int)utf8_copy_bytes(out, len, v->valuestring);
	else if (cJSON_IsBool(v))
		r = (int)utf8_copy_bytes(out, len, cJSON_IsTrue(v) ? "true" : "false");
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
	char value[VALUE_MAX];
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
	if (registry_parse_select(inv, names, out) < 0)
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
			if (registry_parse_bind(inv, oname, value, out) < 0)
				goto done;
			continue;
		}
		scratch = reply_new();
		(void)registry_parse_bind(inv, oname, value, scratch);
		reply_free(scratch);
	}
	r = focused != NULL ? 0 : registry_parse_check_required(inv, out);
done:
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

/* "/webhooks/<application id>/<token>" (owned by the caller). */
static char *
webhook_path(const char *app_id, const char *token)
{
	struct buf b;

	buf_init(&b, 2 * TOKEN_MAX);
	buf_reserve(&b, PATH_ROOM + strlen(token)); /* one allocation */
	buf_adds(&b, "/webhooks/");
	buf_adds(&b, app_id);
	buf_addc(&b, '/');
	buf_adds(&b, token);
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
	out->callback_body = discord_interact__body(it, DISCORD_CALLBACK_AUTOCOMPLETE, res);
}

static void
tag_free(void *p)
{
	struct tag *t = p;

	discord_interact_out_clear(&t->ev);
	discord_interact_out_clear(&t->kept);
	free(t);
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

bool
discord_interact_origin_of(struct interact *it, const cJSON *d, struct origin *o)
{
	struct fields f;

	fields_of(d, &f);
	return make_origin(it, &f, o);
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
	out->idn = id;
	out->type = type->valueint;
	out->rx_ns = rx_ns;
	out->deadline = deadline;
	buf_init(&b, 2 * TOKEN_MAX);
	buf_reserve(&b, PATH_ROOM + strlen(token)); /* one allocation */
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
	t->ev.idn = out->idn;
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
	request_set_key(req, out->id, discord_interact__keep);
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

bool
discord_interact_is_autocomplete(const cJSON *d)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(d, "type");

	return cJSON_IsNumber(type) && type->valueint == DISCORD_INTERACTION_AUTOCOMPLETE;
}
