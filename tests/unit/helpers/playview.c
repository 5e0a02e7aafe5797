#include "tests/unit/helpers/playview.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/console.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/irc/irc.h"
#include "commands/core/dispatch.h"
#include "commands/core/reply.h"
#include "commands/core/request.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/ircdrain.h"

const char *const playview_names[PLAYVIEW_NKINDS] = {"console", "irc", "discord"};

struct playview {
	enum playview_kind kind;
	struct dispatch *d;
	struct interact_out out; /* a Discord request's answer (answered) */
	struct console *con;
	struct config_irc cfg;
	struct irc_conn *c;
	struct irc_bot *b;
	struct interact *it;
	int ids;
	playview_button_fn on_button;
	void *button_ctx;
};

static void
on_irc_message(void *ctx, const struct irc_msg *m)
{
	struct playview *w = ctx;

	irc_bot_message(w->b, m, 5000, 1700000000);
}

static void
on_irc_user(void *ctx, const struct irc_msg *m)
{
	struct playview *w = ctx;

	irc_bot_user(w->b, m);
}

static const struct irc_conn_hooks irc_hooks = {NULL, NULL, on_irc_message, on_irc_user};

void
playview_irc(struct playview *w, const char *line)
{
	irc_conn_receive(w->c, line, strlen(line), 5000);
	dispatch_poll(w->d); /* a loop turn: the commands' answers */
}

/* A Discord request's answer, rendered as the transport renders it. */
static void
answered(struct request *req, void *ctx)
{
	struct playview *w = ctx;

	discord_interact_out_clear(&w->out);
	discord_interact_render(w->it, req, &w->out);
	request_free(req);
}

/* The user ids of the Discord members. */
static const char *
discord_id(const char *who)
{
	return strcmp(who, "gm") == 0 ? "501" : strcmp(who, "alice") == 0 ? "502" : "503";
}

struct playview *
playview_new(enum playview_kind kind, uint64_t seed)
{
	struct playview *w = calloc(1, sizeof(*w));
	struct console_opts co = {.user = "gm", .channel = "walk"};
	struct interact_opts io;

	if (w == NULL)
		abort();
	w->kind = kind;
	w->d = dispatch_new(
	    &(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(seed)});
	switch (kind) {
	case PLAYVIEW_CONSOLE:
		w->con = console_new(w->d, &co);
		break;
	case PLAYVIEW_IRC:
		w->cfg.network = "net";
		w->cfg.nick = "delver";
		w->cfg.channels[0] = "#walk";
		w->cfg.nchannels = 1;
		w->cfg.flood_burst = 1;
		w->cfg.flood_interval_ms = 0;
		w->cfg.prefix = "!";
		w->cfg.formatting = false;
		w->c = irc_conn_new(&w->cfg, NULL, &irc_hooks, w);
		w->b = irc_bot_new(w->d, &w->cfg, w->c);
		irc_conn_link_up(w->c, 5000);
		playview_irc(w, ":irc.test 001 delver :Welcome");
		playview_irc(w, ":delver!~d@h JOIN #walk");
		playview_irc(w, ":gm!gm@h JOIN #walk");
		playview_irc(w, ":alice!alice@h JOIN #walk");
		playview_irc(w, ":bob!bob@h JOIN #walk");
		ircdrain(w->c, 5000);
		break;
	case PLAYVIEW_DISCORD:
		io = (struct interact_opts){.d = w->d, .answer = answered, .answer_ctx = w};
		w->it = discord_interact_new(&io);
		break;
	case PLAYVIEW_NKINDS:
		break;
	}
	return w;
}

void
playview_free(struct playview *w)
{
	if (w->con != NULL)
		console_free(w->con);
	if (w->b != NULL)
		irc_bot_free(w->b);
	if (w->c != NULL)
		irc_conn_free(w->c);
	if (w->it != NULL)
		discord_interact_free(w->it);
	discord_interact_out_clear(&w->out);
	state_free(dispatch_state(w->d));
	rng_free(dispatch_rng(w->d));
	dispatch_free(w->d);
	free(w);
}

enum playview_kind
playview_kind(const struct playview *w)
{
	return w->kind;
}

struct dispatch *
playview_dispatch(struct playview *w)
{
	return w->d;
}

void
playview_on_button(struct playview *w, playview_button_fn fn, void *ctx)
{
	w->on_button = fn;
	w->button_ctx = ctx;
}

/* The longest console line a test types: a command may be 2000 bytes (a
 * table of about that much typed on one line). */
#define PLAYVIEW_CONSOLE_LINE_MAX 2048

/* The console: what is printed before the parts that are not the
 * viewer's: the GM's part for the invoker, every private part for the
 * channel. */
static void
console_run(struct playview *w, const char *who, const char *line, enum playview_view view,
            struct buf *seen)
{
	struct buf out;
	char as[PLAYVIEW_CONSOLE_LINE_MAX + 2];
	const char *cut;

	buf_init(&out, 1 << 20);
	snprintf(as, sizeof(as), "/as %s", who);
	console_handle_line(w->con, as, strlen(as), &out);
	buf_reset(&out);
	snprintf(as, sizeof(as), "/%s", line);
	console_handle_line(w->con, as, strlen(as), &out);
	cut = view == PLAYVIEW_ALL
	          ? NULL
	          : strstr(buf_str(&out), view == PLAYVIEW_CHANNEL ? "(only " : "(only the GM, ");
	buf_add(seen, buf_str(&out), cut != NULL ? (size_t)(cut - buf_str(&out)) : out.len);
	buf_free(&out);
}

/* IRC: the lines the viewer reads of what the bot writes. */
static void
irc_run(struct playview *w, const char *who, const char *line, enum playview_view view,
        struct buf *seen)
{
	char msg[CMDWALK_LINE_MAX + 64];
	const char *out, *p;

	snprintf(msg, sizeof(msg), ":%s!%s@h PRIVMSG #walk :!%s", who, who, line);
	playview_irc(w, msg);
	out = ircdrain(w->c, 5000);
	for (p = out; *p != '\0';) {
		const char *end = strstr(p, "\r\n");
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		bool to_gm =
		    strncmp(p, "NOTICE gm ", 10) == 0 || strncmp(p, "PRIVMSG gm ", 11) == 0;
		bool to_chan = strncmp(p, "PRIVMSG #walk ", 14) == 0;

		if (view == PLAYVIEW_ALL || (view == PLAYVIEW_CHANNEL ? to_chan : !to_gm)) {
			buf_add(seen, p, len);
			buf_addc(seen, '\n');
		}
		p += len + (end != NULL ? 2 : 0);
	}
}

void
playview_line(struct playview *w, const char *who, const char *line, enum playview_view view,
              struct buf *seen)
{
	struct reply *r;
	struct origin o = {.platform = "discord", .channel_named = discord_interact_channel_named};

	switch (w->kind) {
	case PLAYVIEW_CONSOLE:
		console_run(w, who, line, view, seen);
		break;
	case PLAYVIEW_IRC:
		irc_run(w, who, line, view, seen);
		break;
	case PLAYVIEW_DISCORD:
		/* Through dispatch as a Discord user (a button press runs a
		 * typed line the same way). */
		snprintf(o.chan_key, sizeof(o.chan_key), "discord:1234567890123456789");
		snprintf(o.user_key, sizeof(o.user_key), "discord:%s", discord_id(who));
		snprintf(o.user_name, sizeof(o.user_name), "%s", who);
		r = reply_new();
		dispatch_line(w->d, &o, line, strlen(line), 1700000000, r);
		reply_free(r);
		break;
	case PLAYVIEW_NKINDS:
		break;
	}
}

/* One Discord message body (a callback or a follow-up): kept when the
 * viewer is the invoker (their ephemeral messages too), or when public. */
static void
discord_body(struct playview *w, const char *body, enum playview_view view, struct buf *seen)
{
	cJSON *j = cJSON_Parse(body), *data;
	const cJSON *flags, *row, *b;
	bool ephemeral;

	if (j == NULL)
		abort();
	data = cJSON_GetObjectItem(j, "data") != NULL ? cJSON_GetObjectItem(j, "data") : j;
	flags = cJSON_GetObjectItem(data, "flags");
	ephemeral = cJSON_IsNumber(flags) && (flags->valueint & 64);
	if (view != PLAYVIEW_CHANNEL || !ephemeral) {
		buf_adds(seen, body);
		buf_addc(seen, '\n');
	}
	if (!ephemeral && w->on_button != NULL)
		cJSON_ArrayForEach(row, cJSON_GetObjectItem(data, "components"))
		{
			cJSON_ArrayForEach(b, cJSON_GetObjectItem(row, "components"))
			{
				const char *id =
				    cJSON_GetStringValue(cJSON_GetObjectItem(b, "custom_id"));

				if (id != NULL)
					w->on_button(w->button_ctx, id);
			}
		}
	cJSON_Delete(j);
}

void
playview_event(struct playview *w, const char *who, int type, cJSON *data, enum playview_view view,
               struct buf *seen)
{
	struct interact_out out = {0};
	struct request *req;
	cJSON *ev = cJSON_CreateObject(), *member, *user;
	char id[32], token[40];
	enum interact_result r;

	snprintf(id, sizeof(id), "%d", 900000 + ++w->ids);
	snprintf(token, sizeof(token), "tok-%s", id);
	cJSON_AddStringToObject(ev, "id", id);
	cJSON_AddStringToObject(ev, "application_id", "42");
	cJSON_AddNumberToObject(ev, "type", type);
	cJSON_AddStringToObject(ev, "token", token);
	cJSON_AddStringToObject(ev, "guild_id", "99");
	cJSON_AddStringToObject(ev, "channel_id", "1234567890123456789");
	member = cJSON_AddObjectToObject(ev, "member");
	user = cJSON_AddObjectToObject(member, "user");
	cJSON_AddStringToObject(user, "id", discord_id(who));
	cJSON_AddStringToObject(user, "username", who);
	cJSON_AddStringToObject(member, "permissions", "0");
	cJSON_AddArrayToObject(member, "roles");
	cJSON_AddItemToObject(ev, "data", data);
	r = discord_interact_event(w->it, "INTERACTION_CREATE", ev, 1700000000, &out, &req, 0, 0,
	                           0);
	/* An answer at once (autocomplete, a refusal): its callback. */
	if (r == INTERACT_ANSWER && out.callback_body != NULL)
		discord_body(w, out.callback_body, view, seen);
	if (r == INTERACT_REQUEST) {
		/* Its road, and the loop turn that answers it. */
		dispatch_submit(w->d, req);
		dispatch_poll(w->d);
		if (w->out.callback_body != NULL)
			discord_body(w, w->out.callback_body, view, seen);
		for (size_t i = 0; i < w->out.nfollowups; i++)
			discord_body(w, w->out.followups[i], view, seen);
		discord_interact_out_clear(&w->out);
	}
	discord_interact_out_clear(&out);
	cJSON_Delete(ev);
}

cJSON *
playview_discord_data(const struct cmdwalk_case *c)
{
	cJSON *data = cJSON_CreateObject(), *opts, *level;

	cJSON_AddNumberToObject(data, "type", 1);
	cJSON_AddStringToObject(data, "name", c->path[0]->name);
	opts = cJSON_AddArrayToObject(data, "options");
	level = opts;
	for (int i = 1; i < 3 && c->path[i] != NULL; i++) {
		cJSON *sub = cJSON_CreateObject();

		cJSON_AddStringToObject(sub, "name", c->path[i]->name);
		cJSON_AddNumberToObject(sub, "type", c->path[i]->subs != NULL ? 2 : 1);
		cJSON_AddItemToArray(level, sub);
		level = cJSON_AddArrayToObject(sub, "options");
	}
	for (size_t i = 0; i < c->nopts; i++) {
		cJSON *o = cJSON_CreateObject();
		const char *v = c->values[i];

		cJSON_AddStringToObject(o, "name", c->opts[i]->name);
		switch (c->opts[i]->type) {
		case OPT_INT:
			cJSON_AddNumberToObject(o, "type", 4);
			cJSON_AddNumberToObject(o, "value", strtod(v, NULL));
			break;
		case OPT_BOOL:
			cJSON_AddNumberToObject(o, "type", 5);
			cJSON_AddBoolToObject(o, "value", strcmp(v, "true") == 0);
			break;
		case OPT_USER:
			cJSON_AddNumberToObject(o, "type", 6);
			cJSON_AddStringToObject(o, "value", discord_id(v));
			break;
		case OPT_STRING:
			cJSON_AddNumberToObject(o, "type", 3);
			cJSON_AddStringToObject(o, "value", v);
			break;
		}
		cJSON_AddItemToArray(level, o);
	}
	return data;
}
