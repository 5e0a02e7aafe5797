/*
 * Hidden means hidden everywhere (issue 26). A channel plays with Tension
 * behind the GM's screen: its value (8), its tables (entries no other text
 * uses), the reason of a change, a strike, the GM's rolls, a hazard roll,
 * and a player's secret roll. Then every command and subcommand of the
 * command table (tests/unit/helpers/cmdwalk.h: a new command is walked too)
 * runs, each on a fresh copy of that channel:
 *  - as a player, on the console (its lines before the GM's part), on IRC
 *    through the bot layer (every line not sent to the GM alone) and on
 *    Discord through the interaction layer (every callback and follow-up:
 *    the player sees their own ephemeral messages), and Discord's
 *    autocomplete of every option that has it;
 *  - as the GM, on each platform: what the channel sees of the GM's own
 *    commands (IRC's channel lines, Discord's public messages, the console's
 *    lines before the private parts);
 *  - the buttons the channel was shown, pressed by the player.
 * No text a player can see may hold a hidden entry, the reason, the value
 * as the bot writes it, or the secret roll's expression and label. The same
 * walk in an open channel must find them (the detector can fail).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/console/console.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/irc/irc.h"
#include "bot/log.h"
#include "commands/core/dispatch.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdwalk.h"
#include "tests/unit/helpers/ircdrain.h"

/* What a player may never see while Tension is hidden. */
static const char *const secrets[] = {
    "Quillfang",   "Morrowisp", "Gloamjaw",  "Vexthorn",  "Drowsmire",  "Ashveil",    "Brinecall",
    "ambushready", "8/10",      "Tension 8", "tension 8", "→ 8",        "████████░░", "Nightjar",
    "1d20+7",      "1d20 + 7",  "+ 7",       "effects-9", "Cinderhall", NULL,
};

/* The GM's play before each case: two orders, so that the newest change
 * /undo meets is a hazard roll (the last line) in one and the hidden
 * Tension change in the other. */
static const char *const setup_gm[] = {
    "gm claim",
    "tension table set encounter 1-4 Quillfang; 5-8 Morrowisp; 9-12 Gloamjaw; 13-16 Vexthorn; "
    "17-20 Drowsmire",
    "tension table set effects 1-10 Ashveil; 11-20 Brinecall",
    "tension mode hidden",
    "table set effects-9 1-20: Cinderhall",
    "tension strike Gloamjaw",
    "tension roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "wander check",
    "tension set 8 # ambushready",
    "hazard roll",
    NULL,
};

enum platform {
	CONSOLE,
	IRC,
	DISCORD,
	NPLATFORMS
};
static const char *const platform_names[] = {"console", "irc", "discord"};

/* One platform's session on a fresh state. */
struct world {
	enum platform kind;
	struct dispatch *d;
	struct interact_out out; /* a Discord request's answer (answered) */
	struct console *con;
	struct config_irc cfg;
	struct irc_conn *c;
	struct irc_bot *b;
	struct interact *it;
	int ids;
	bool open; /* the setup leaves Tension open (the detector's check) */
};

/* What the walk found. */
struct findings {
	int cases, checked, leaks;
	int shown[NPLATFORMS]; /* texts checked that held something */
	char first[8][1500];
	/* the open channel's check: texts that held a secret */
	int open_hits;
	/* buttons the channel was shown (Discord custom_ids) */
	char buttons[64][128];
	int nbuttons;
};

static struct findings F;

/* When set, a run keeps what the channel sees, whoever runs it (as for
 * the GM's commands). */
static bool channel_view;
/* When set, a console run keeps every part (the GM's view of the play). */
static bool full_view;

/* Whether what who runs is kept as the channel sees it only. */
static bool
public_only(const char *who)
{
	return channel_view || strcmp(who, "gm") == 0;
}

static const struct irc_conn_hooks irc_hooks;

static void
on_irc_message(void *ctx, const struct irc_msg *m)
{
	struct world *w = ctx;

	irc_bot_message(w->b, m, 5000, 1700000000);
}

static void
on_irc_user(void *ctx, const struct irc_msg *m)
{
	struct world *w = ctx;

	irc_bot_user(w->b, m);
}

static const struct irc_conn_hooks irc_hooks = {NULL, NULL, on_irc_message, on_irc_user};

static void
irc_line(struct world *w, const char *line)
{
	irc_conn_receive(w->c, line, strlen(line), 5000);
	dispatch_poll(w->d); /* a loop turn: the commands' answers */
}

/* A Discord request's answer, rendered as the transport renders it. */
static void
answered(struct request *req, void *ctx)
{
	struct world *w = ctx;

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

static void run_line(struct world *w, const char *who, const char *line, struct buf *seen);

static int setup_lines = -1; /* lines of setup each world runs (-1: all) */
/* The play before each case, and where what it shows goes (NULL: away). */
static const char *const *setup = setup_gm;
static struct buf *setup_seen;
/* Whether each line of the play, and the case after it, rolls from a seed
 * of its own: dice drawn depend on what is behind the screen (meeting a
 * sign's creature rolls no table), and must not make later rolls differ. */
static bool reseed;

/* A line of the setup: the GM's, or a player's after "alice: ". */
static void
setup_line(struct world *w, const char *line, struct buf *seen)
{
	if (strncmp(line, "alice: ", 7) == 0)
		run_line(w, "alice", line + 7, seen);
	else
		run_line(w, "gm", line, seen);
}

static struct world *
world_new(enum platform kind, bool open)
{
	struct world *w = calloc(1, sizeof(*w));
	struct console_opts co = {.user = "gm", .channel = "walk"};
	struct interact_opts io;
	struct buf sink;

	w->kind = kind;
	w->open = open;
	w->d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(26)});
	switch (kind) {
	case CONSOLE:
		w->con = console_new(w->d, &co);
		break;
	case IRC:
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
		irc_line(w, ":irc.test 001 delver :Welcome");
		irc_line(w, ":delver!~d@h JOIN #walk");
		irc_line(w, ":gm!gm@h JOIN #walk");
		irc_line(w, ":alice!alice@h JOIN #walk");
		irc_line(w, ":bob!bob@h JOIN #walk");
		ircdrain(w->c, 5000);
		break;
	case DISCORD:
		io = (struct interact_opts){.d = w->d, .answer = answered, .answer_ctx = w};
		w->it = discord_interact_new(&io);
		break;
	case NPLATFORMS:
		break;
	}
	buf_init(&sink, 1 << 20);
	for (int i = 0; setup[i] != NULL && (setup_lines < 0 || i < setup_lines); i++) {
		if (reseed)
			rng_seed(dispatch_rng(w->d), 2000 + (uint64_t)i * 7919);
		if (!open || strcmp(setup[i], "tension mode hidden") != 0)
			setup_line(w, setup[i], setup_seen != NULL ? setup_seen : &sink);
	}
	if (reseed)
		rng_seed(dispatch_rng(w->d), 4242);
	run_line(w, "bob", "gmroll 1d20+7 # Nightjar", &sink);
	buf_free(&sink);
	return w;
}

static void
world_free(struct world *w)
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

/* The console: what is printed before the parts that are not the
 * invoker's to show: the GM's part for a player, every private part for
 * the GM (the channel sees only the channel's part of the GM's commands). */
static void
console_run(struct world *w, const char *who, const char *line, struct buf *seen)
{
	struct buf out;
	char as[CMDWALK_LINE_MAX + 2], marker[64];
	const char *cut;

	buf_init(&out, 1 << 20);
	snprintf(as, sizeof(as), "/as %s", who);
	console_handle_line(w->con, as, strlen(as), &out);
	buf_reset(&out);
	snprintf(as, sizeof(as), "/%s", line);
	console_handle_line(w->con, as, strlen(as), &out);
	snprintf(marker, sizeof(marker), public_only(who) ? "(only " : "(only the GM, ");
	cut = full_view ? NULL : strstr(buf_str(&out), marker);
	buf_add(seen, buf_str(&out), cut != NULL ? (size_t)(cut - buf_str(&out)) : out.len);
	buf_free(&out);
}

/* IRC: every line the bot writes except those to the GM alone; for the
 * GM's own commands, the channel's lines. */
static void
irc_run(struct world *w, const char *who, const char *line, struct buf *seen)
{
	char msg[CMDWALK_LINE_MAX + 64];
	const char *out, *p;

	snprintf(msg, sizeof(msg), ":%s!%s@h PRIVMSG #walk :!%s", who, who, line);
	irc_conn_receive(w->c, msg, strlen(msg), 5000);
	dispatch_poll(w->d); /* a loop turn: the command's answer */
	out = ircdrain(w->c, 5000);
	for (p = out; *p != '\0';) {
		const char *end = strstr(p, "\r\n");
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		bool to_gm =
		    strncmp(p, "NOTICE gm ", 10) == 0 || strncmp(p, "PRIVMSG gm ", 11) == 0;
		bool to_chan = strncmp(p, "PRIVMSG #walk ", 14) == 0;

		if (public_only(who) ? to_chan : !to_gm) {
			buf_add(seen, p, len);
			buf_addc(seen, '\n');
		}
		p += len + (end != NULL ? 2 : 0);
	}
}

/* The custom_ids of a Discord message's buttons, kept for the presses. */
static void
keep_buttons(const cJSON *msg)
{
	const cJSON *row, *b;

	cJSON_ArrayForEach(row, cJSON_GetObjectItem(msg, "components"))
	{
		cJSON_ArrayForEach(b, cJSON_GetObjectItem(row, "components"))
		{
			const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(b, "custom_id"));

			if (id != NULL && F.nbuttons < 64)
				snprintf(F.buttons[F.nbuttons++], sizeof(F.buttons[0]), "%s", id);
		}
	}
}

/* One Discord message body (a callback or a follow-up): seen when the
 * invoker is a player (their ephemeral messages too), or when it is public. */
static void
discord_body(const char *body, bool player, struct buf *seen)
{
	cJSON *j = cJSON_Parse(body), *data;
	const cJSON *flags;

	assert_non_null(j);
	data = cJSON_GetObjectItem(j, "data") != NULL ? cJSON_GetObjectItem(j, "data") : j;
	flags = cJSON_GetObjectItem(data, "flags");
	if (player || !(cJSON_IsNumber(flags) && (flags->valueint & 64))) {
		buf_adds(seen, body);
		buf_addc(seen, '\n');
		if (!(cJSON_IsNumber(flags) && (flags->valueint & 64)))
			keep_buttons(data);
	}
	cJSON_Delete(j);
}

static void
discord_event(struct world *w, const char *who, int type, cJSON *data, struct buf *seen)
{
	struct interact_out out = {0};
	struct request *req;
	cJSON *ev = cJSON_CreateObject(), *member, *user;
	char id[32], token[40];

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
	enum interact_result r = discord_interact_event(w->it, "INTERACTION_CREATE", ev, 1700000000,
	                                                &out, &req, 0, 0, 0);
	bool player = !public_only(who);

	/* An answer at once (autocomplete, a refusal): its callback. */
	if (r == INTERACT_ANSWER && out.callback_body != NULL)
		discord_body(out.callback_body, player, seen);
	if (r == INTERACT_REQUEST) {
		/* Its road, and the loop turn that answers it. */
		dispatch_submit(w->d, req);
		dispatch_poll(w->d);
		if (w->out.callback_body != NULL)
			discord_body(w->out.callback_body, player, seen);
		for (size_t i = 0; i < w->out.nfollowups; i++)
			discord_body(w->out.followups[i], player, seen);
		discord_interact_out_clear(&w->out);
	}
	discord_interact_out_clear(&out);
	cJSON_Delete(ev);
}

/* A typed line as the Discord interaction that binds the same options. */
static cJSON *
discord_data(const struct cmdwalk_case *c)
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

/* A setup line is typed as it is on the text platforms. */
static void
run_line(struct world *w, const char *who, const char *line, struct buf *seen)
{
	struct reply *r;
	struct origin o = {.platform = "discord"};

	switch (w->kind) {
	case CONSOLE:
		console_run(w, who, line, seen);
		break;
	case IRC:
		irc_run(w, who, line, seen);
		break;
	case DISCORD:
		/* The setup goes through dispatch as a Discord user (a button
		 * press runs a typed line the same way). */
		snprintf(o.chan_key, sizeof(o.chan_key), "discord:1234567890123456789");
		snprintf(o.user_key, sizeof(o.user_key), "discord:%s", discord_id(who));
		snprintf(o.user_name, sizeof(o.user_name), "%s", who);
		r = reply_new();
		dispatch_line(w->d, &o, line, strlen(line), 1700000000, r);
		reply_free(r);
		break;
	case NPLATFORMS:
		break;
	}
}

/* Whether text holds a secret; names the first. */
static const char *
leak_in(const char *text)
{
	for (size_t i = 0; secrets[i] != NULL; i++)
		if (strstr(text, secrets[i]) != NULL)
			return secrets[i];
	return NULL;
}

static void
check(struct world *w, const char *who, const char *what, const struct buf *seen)
{
	const char *hit = leak_in(seen->p != NULL ? seen->p : "");

	F.checked++;
	F.shown[w->kind] += seen->len > 0;
	if (hit == NULL)
		return;
	if (w->open) {
		F.open_hits++;
		return;
	}
	if (F.leaks < 8)
		snprintf(F.first[F.leaks], sizeof(F.first[0]),
		         "%s, as %s: %s\n  shows '%s' in:\n%.1200s", platform_names[w->kind], who,
		         what, hit, buf_str(seen));
	F.leaks++;
}

/* One case of the walk on every platform, as a player and as the GM. */
static void
walk_case(void *ctx, const struct cmdwalk_case *c)
{
	bool open = *(bool *)ctx;
	static const char *const who[] = {"alice", "gm"};

	F.cases++;
	for (int p = 0; p < NPLATFORMS; p++)
		for (int u = 0; u < 2; u++) {
			struct world *w = world_new((enum platform)p, open);
			struct buf seen;

			/* The GM opening the screen shows Tension to all: that is
			 * what it is for. */
			if (u == 1 && strstr(c->line, "mode:open") != NULL &&
			    c->leaf == registry_find_sub(registry_find("tension", 7), "mode", 4)) {
				world_free(w);
				continue;
			}
			buf_init(&seen, 1 << 22);
			if (p != DISCORD)
				run_line(w, who[u], c->line, &seen);
			else if (c->leaf->subs == NULL)
				discord_event(w, who[u], 2, discord_data(c), &seen);
			check(w, who[u], c->line, &seen);
			buf_free(&seen);
			world_free(w);
		}
}

/* Discord's autocomplete of every option that has it, as the player,
 * with nothing typed yet and with one letter of a hidden entry. */
static void
autocomplete_case(void *ctx, const struct cmdwalk_case *c)
{
	static const char *const partials[] = {"", "o", "Q"};
	bool open = *(bool *)ctx;

	if (c->leaf->subs != NULL || c->nopts == 0 || c->path[0] == NULL)
		return;
	for (size_t i = 0; i < c->nopts; i++) {
		if (!(c->opts[i]->flags & OPT_AUTOCOMPLETE))
			continue;
		for (size_t k = 0; k < sizeof(partials) / sizeof(partials[0]); k++) {
			struct world *w = world_new(DISCORD, open);
			cJSON *data = discord_data(c),
			      *level = cJSON_GetObjectItem(data, "options");
			cJSON *o;
			struct buf seen;
			char what[CMDWALK_LINE_MAX + 64];

			/* The option being typed is the deepest level's i-th. */
			while (
			    cJSON_GetArraySize(level) > 0 &&
			    cJSON_GetObjectItem(cJSON_GetArrayItem(level, 0), "type")->valueint <=
			        2)
				level =
				    cJSON_GetObjectItem(cJSON_GetArrayItem(level, 0), "options");
			o = cJSON_GetArrayItem(level, (int)i);
			cJSON_ReplaceItemInObject(o, "value", cJSON_CreateString(partials[k]));
			if (c->opts[i]->type != OPT_STRING)
				cJSON_ReplaceItemInObject(o, "type", cJSON_CreateNumber(3));
			cJSON_AddBoolToObject(o, "focused", true);
			buf_init(&seen, 1 << 20);
			discord_event(w, "alice", 4, data, &seen);
			snprintf(what, sizeof(what), "autocomplete of %s in '%s' from '%s'",
			         c->opts[i]->name, c->line, partials[k]);
			check(w, "alice", what, &seen);
			buf_free(&seen);
			world_free(w);
		}
	}
}

/* The buttons the channel was shown, pressed by the player. */
static void
press_buttons(bool open)
{
	for (int i = 0; i < F.nbuttons; i++) {
		struct world *w = world_new(DISCORD, open);
		cJSON *data = cJSON_CreateObject();
		struct buf seen;
		char what[200];

		cJSON_AddStringToObject(data, "custom_id", F.buttons[i]);
		cJSON_AddNumberToObject(data, "component_type", 2);
		buf_init(&seen, 1 << 20);
		discord_event(w, "alice", 3, data, &seen);
		snprintf(what, sizeof(what), "the button %s", F.buttons[i]);
		check(w, "alice", what, &seen);
		buf_free(&seen);
		world_free(w);
	}
}

static void
report(void)
{
	for (int i = 0; i < F.leaks && i < 8; i++)
		print_message("LEAK %d: %s\n", i + 1, F.first[i]);
	print_message("walked %d cases, %d texts checked (console %d, IRC %d, Discord %d not "
	              "empty), %d buttons pressed, %d leaks\n",
	              F.cases, F.checked, F.shown[CONSOLE], F.shown[IRC], F.shown[DISCORD],
	              F.nbuttons, F.leaks);
}

static void
hidden_means_hidden_everywhere(void **unused)
{
	bool open = false;
	int n = 0;

	while (setup_gm[n] != NULL)
		n++;
	memset(&F, 0, sizeof(F));
	log_set_level(LOG_LEVEL_WARN);
	for (int pass = 0; pass < 2; pass++) {
		setup_lines = pass == 0 ? -1 : n - 1;
		cmdwalk(command_table, walk_case, &open);
		cmdwalk(command_table, autocomplete_case, &open);
		press_buttons(open);
	}
	setup_lines = -1;
	report();
	assert_true(F.cases > 200);
	assert_true(F.nbuttons > 0);
	/* Every platform answered: a walk that sees nothing proves nothing. */
	for (int p = 0; p < NPLATFORMS; p++)
		assert_true(F.shown[p] > F.cases / 2);
	assert_int_equal(F.leaks, 0);
}

/* The detector can fail: in an open channel the same walk shows the
 * value, the tables, the reason, as it should. */
static void
an_open_channel_shows_them(void **unused)
{
	bool open = true;

	memset(&F, 0, sizeof(F));
	log_set_level(LOG_LEVEL_WARN);
	cmdwalk(command_table, walk_case, &open);
	print_message("open channel: %d of %d texts show what hidden mode hides\n", F.open_hits,
	              F.checked);
	assert_true(F.open_hits > 20);
}

/* A player's secret roll: the channel sees who rolls in secret, and not
 * the dice (their modifier tells what the roll is for) nor the label, on
 * every platform, with the label after # or as an option. */
static void
a_secret_roll_shows_who_alone(void **unused)
{
	static const char *const lines[] = {"gmroll 1d20+7 # Nightjar",
	                                    "gmroll 1d20+7 label:Nightjar"};
	static const char *const hidden[] = {"1d20", "+7", "+ 7", "Nightjar", NULL};

	log_set_level(LOG_LEVEL_WARN);
	channel_view = true;
	for (int p = 0; p < NPLATFORMS; p++)
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			struct world *w = world_new((enum platform)p, false);
			struct buf seen;

			buf_init(&seen, 1 << 20);
			if (p == DISCORD) {
				struct cmdwalk_case c = {0};
				static const struct cmd_opt *opts;

				c.path[0] = c.leaf = registry_find("gmroll", 6);
				opts = c.leaf->opts;
				c.opts[0] = &opts[0];
				c.values[0] = i == 0 ? "1d20+7 # Nightjar" : "1d20+7";
				c.nopts = 1;
				if (i == 1) {
					c.opts[1] = &opts[1];
					c.values[1] = "Nightjar";
					c.nopts = 2;
				}
				discord_event(w, "bob", 2, discord_data(&c), &seen);
			} else {
				run_line(w, "bob", lines[i], &seen);
			}
			/* IRC keeps nicks from notifying with a zero-width joiner
			 * (here in "GM", a member "gm"'s nick): the text is read as
			 * a client shows it. */
			for (char *z;
			     seen.p != NULL && (z = strstr(seen.p, "\xe2\x80\x8d")) != NULL;
			     seen.len -= 3)
				memmove(z, z + 3, strlen(z + 3) + 1);
			if (strstr(buf_str(&seen), "rolls in secret: only the GM") == NULL)
				fail_msg("%s: '%s' shows: %s", platform_names[p], lines[i],
				         buf_str(&seen));
			for (size_t k = 0; hidden[k] != NULL; k++)
				if (strstr(buf_str(&seen), hidden[k]) != NULL)
					fail_msg("%s: the channel sees '%s' of '%s': %s",
					         platform_names[p], hidden[k], lines[i],
					         buf_str(&seen));
			buf_free(&seen);
			world_free(w);
		}
	channel_view = false;
}

/*
 * The differential walk: channels that differ only behind the screen (the
 * Tension value and how the GM set it, which entry is struck, the sign's
 * creature) must show a player, and the channel, the very same texts:
 * what a player can infer (a struck entry said aloud bounds Tension, "reset"
 * says 1) is caught though no hidden word is in it. A d2 of Encounter and
 * Sign (delving: both roll the encounter table) is rolled by the GM and
 * by a player; each variant meets struck entries, signs and their
 * creatures. Each line rolls from a seed of its own (reseed).
 */
#define VARIANTS 3

#define VARIANT(strike, change, sign, calm)                                                        \
	{                                                                                          \
		"gm claim",                                                                        \
		    "tension table set encounter 1-4 Quillfang; 5-8 Morrowisp; 9-12 Gloamjaw; "    \
		    "13-16 "                                                                       \
		    "Vexthorn; 17-20 Drowsmire",                                                   \
		    "tension mode hidden", "hazard table delving",                                 \
		    "hazard custom d2 1 Encounter; 2 Sign", "tension strike " strike, change,      \
		    "hazard roll", "alice: hazard roll", "hazard roll", "alice: hazard roll",      \
		    "hazard sign " sign, "alice: hazard roll", "hazard roll",                      \
		    "alice: hazard roll", calm, "alice: hazard roll", "hazard roll",               \
		    "alice: hazard roll", NULL                                                     \
	}

static const char *const variants[VARIANTS][24] = {
    VARIANT("Vexthorn", "tension set 8 # ambushready", "Morrowisp",
            "tension lower amount:1 # calm"),
    VARIANT("Quillfang", "tension reset # ambushready", "", "tension set 2 # calm"),
    VARIANT("Gloamjaw", "tension raise amount:4 # ambushready", "none", "tension reset # calm"),
};

/* What the differential walk found. */
static struct {
	int cases, compared, diffs;
	char first[8][1800];
} D;

/* Notes a difference between a (variant 0) and b (variant v) of what. */
static void
note_diff(const char *what, int v, const char *a, const char *b)
{
	size_t at = 0, line = 0;

	D.compared++;
	if (strcmp(a, b) == 0)
		return;
	while (a[at] == b[at])
		at++;
	for (size_t i = at; i > 0 && a[i - 1] != '\n'; i--)
		line = i - 1;
	if (D.diffs < 8)
		snprintf(D.first[D.diffs], sizeof(D.first[0]),
		         "%s: variant 0 and %d differ at:\n  %.300s\n  ---\n  %.300s", what, v,
		         a + line, b + line);
	D.diffs++;
}

/* One platform's view of line run by who, in each variant. */
static void
diff_views(enum platform p, const char *who, const struct cmdwalk_case *c, const char *line,
           struct buf seen[VARIANTS])
{
	for (int v = 0; v < VARIANTS; v++) {
		struct world *w;

		setup = variants[v];
		w = world_new(p, false);
		buf_init(&seen[v], 1 << 22);
		if (c == NULL || p != DISCORD)
			run_line(w, who, line, &seen[v]);
		else if (c->leaf->subs == NULL)
			discord_event(w, who, 2, discord_data(c), &seen[v]);
		world_free(w);
	}
	setup = setup_gm;
}

static void
diff_case(void *ctx, const struct cmdwalk_case *c)
{
	static const char *const who[] = {"alice", "gm"};

	(void)ctx;
	D.cases++;
	reseed = true;
	for (int p = 0; p < NPLATFORMS; p++)
		for (int u = 0; u < 2; u++) {
			struct buf seen[VARIANTS];
			char what[CMDWALK_LINE_MAX + 64];

			if (u == 1 && strstr(c->line, "mode:open") != NULL &&
			    c->leaf == registry_find_sub(registry_find("tension", 7), "mode", 4))
				continue;
			diff_views((enum platform)p, who[u], c, c->line, seen);
			snprintf(what, sizeof(what), "%s, as %s: %s", platform_names[p], who[u],
			         c->line);
			for (int v = 1; v < VARIANTS; v++)
				note_diff(what, v, buf_str(&seen[0]), buf_str(&seen[v]));
			for (int v = 0; v < VARIANTS; v++)
				buf_free(&seen[v]);
		}
	reseed = false;
}

/* The setup itself, as the channel and alice see it, is the same in every
 * variant; the GM's own view of it is not (there is something to hide). */
static void
what_is_behind_the_screen_makes_no_difference(void **unused)
{
	bool gm_differs = false;

	memset(&D, 0, sizeof(D));
	log_set_level(LOG_LEVEL_WARN);
	reseed = true;
	for (int p = 0; p < NPLATFORMS; p++) {
		struct buf seen[VARIANTS];
		char what[64];

		for (int v = 0; v < VARIANTS; v++) {
			struct world *w;

			buf_init(&seen[v], 1 << 22);
			setup = variants[v];
			setup_seen = &seen[v];
			w = world_new((enum platform)p, false);
			world_free(w);
		}
		snprintf(what, sizeof(what), "%s: the play as the channel sees it",
		         platform_names[p]);
		for (int v = 1; v < VARIANTS; v++)
			note_diff(what, v, buf_str(&seen[0]), buf_str(&seen[v]));
		for (int v = 0; v < VARIANTS; v++)
			buf_free(&seen[v]);
		if (p == CONSOLE) {
			/* The GM's own view of the play in each variant: every
			 * kind of thing hidden mode keeps behind the screen came
			 * up, and the variants differ there. */
			static const char *const met[] = {
			    "is struck (defeated)",
			    "The sign leads nowhere",
			    "The party meets only the sign of",
			    "Encounter! It is the creature whose sign",
			    "Encounter! From the encounter table",
			    "(only the GM, gm, sees this)\nBehind the screen: ",
			    NULL,
			};
			struct buf gm[VARIANTS], all;

			buf_init(&all, 1 << 23);
			full_view = true;
			for (int v = 0; v < VARIANTS; v++) {
				buf_init(&gm[v], 1 << 22);
				setup = variants[v];
				setup_seen = &gm[v];
				world_free(world_new(CONSOLE, false));
				buf_adds(&all, buf_str(&gm[v]));
			}
			full_view = false;
			for (int v = 1; v < VARIANTS; v++)
				gm_differs |= strcmp(buf_str(&gm[0]), buf_str(&gm[v])) != 0;
			for (size_t k = 0; met[k] != NULL; k++)
				if (strstr(buf_str(&all), met[k]) == NULL)
					fail_msg("the play never shows the GM '%s'", met[k]);
			for (int v = 0; v < VARIANTS; v++)
				buf_free(&gm[v]);
			buf_free(&all);
		}
	}
	setup = setup_gm;
	setup_seen = NULL;
	reseed = false;
	cmdwalk(command_table, diff_case, NULL);
	for (int i = 0; i < D.diffs && i < 8; i++)
		print_message("DIFFERENCE %d: %s\n", i + 1, D.first[i]);
	print_message("differential walk: %d cases, %d views compared, %d differences\n", D.cases,
	              D.compared, D.diffs);
	assert_true(gm_differs);
	assert_true(D.cases > 200);
	assert_int_equal(D.diffs, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(an_open_channel_shows_them),
	    cmocka_unit_test(hidden_means_hidden_everywhere),
	    cmocka_unit_test(a_secret_roll_shows_who_alone),
	    cmocka_unit_test(what_is_behind_the_screen_makes_no_difference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
