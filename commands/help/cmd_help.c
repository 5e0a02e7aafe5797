/* /help: every command, or one command in full, from the command table. */
#include "commands/help/cmd_help.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/core/registry.h"
#include "rules/base/textsafe.h"

/* Appends s to dst (size bytes) from at, cut as snprintf cuts, and returns
 * the new length: the command list is written without printf, which was
 * most of /help's time. */
static size_t
put(char *dst, size_t size, size_t at, const char *s)
{
	size_t n = strlen(s);

	if (at >= size - 1)
		return at;
	if (n > size - 1 - at)
		n = size - 1 - at;
	memcpy(dst + at, s, n);
	dst[at + n] = '\0';
	return at + n;
}

static bool
on_console(const struct invocation *inv)
{
	return inv->from != NULL && inv->from->platform != NULL &&
	       strcmp(inv->from->platform, "console") == 0;
}

/* "/help as" on the console: true when topic named a console-only line. */
static bool
help_console(const char *topic, struct reply *out)
{
	size_t len;

	while (*topic == ' ' || *topic == '/')
		topic++;
	len = strcspn(topic, " ");
	for (const struct console_line *l = console_lines; l->name != NULL; l++) {
		if (strlen(l->name) != len || strncmp(topic, l->name, len) != 0)
			continue;
		reply_title(out, "%s", l->usage);
		reply_line(out, 0, "%s.", l->desc);
		return true;
	}
	return false;
}

/* "roll" or "tension table": the names of path[0..n) for a command line. */
static void
path_name(const struct command *const *path, size_t n, char *name, size_t size)
{
	name[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(name + strlen(name), size - strlen(name), "%s%s", i ? " " : "",
		         path[i]->name);
}

/* "More: /help roll notation (every modifier), ..." */
static void
topics_line(const struct command *const *path, size_t n, const struct help_topic *t,
            struct reply *out)
{
	char name[80], line[120];

	path_name(path, n, name, sizeof(name));
	reply_add(out, 0, "More: ");
	for (size_t i = 0; t[i].name != NULL; i++) {
		snprintf(line, sizeof(line), "%s %s", name, t[i].name);
		if (i > 0)
			reply_add(out, 0, ", ");
		reply_cmd(out, 0, "help", "command", line, NULL);
		reply_add(out, 0, " (%s)", t[i].desc);
	}
	reply_line(out, 0, ".");
}

/* The topic of c that word (len bytes) names, or NULL. */
static const struct help_topic *
find_topic(const struct command *c, const char *word, size_t len)
{
	for (const struct help_topic *t = c->topics; t != NULL && t->name != NULL; t++)
		if (strlen(t->name) == len && strncasecmp(t->name, word, len) == 0)
			return t;
	return NULL;
}

/* One topic's page, in one paragraph, headed by the line that asks for it:
 * "/help roll marks (what the dice of a result show): ...". */
static void
help_topic(const struct command *const *path, size_t n, const struct help_topic *t,
           struct reply *out)
{
	char name[80], line[120];

	path_name(path, n, name, sizeof(name));
	snprintf(line, sizeof(line), "%s %s", name, t->name);
	reply_cmd(out, RS_BOLD, "help", "command", line, NULL);
	reply_add(out, 0, " (%s): ", t->desc);
	reply_text(out, 0, t->text);
	reply_nl(out);
}

static void
help_one(const struct command *const *path, bool typed, struct reply *out)
{
	const struct command *c = path[0];
	size_t n = 0;

	while (n < 3 && path[n] != NULL)
		c = path[n++];
	/* The usage heads the help, as each platform types the command. */
	registry_usage_add(path, RS_BOLD, out);
	reply_nl(out);
	reply_line(out, 0, "%s", c->desc);
	if (c->role == ROLE_GM)
		reply_line(out, RS_ITALIC, "GM only.");
	if (c->help != NULL) {
		reply_text(out, 0, c->help);
		reply_nl(out);
	}
	if (c->topics != NULL && c->topics[0].name != NULL)
		topics_line(path, n, c->topics, out);
	if (c->opts != NULL && c->opts[0].name != NULL) {
		static const char *const hdr[] = {"option", "what it is"};

		reply_table(out, 2, hdr);
		for (const struct cmd_opt *o = c->opts; o->name != NULL; o++) {
			const char *cells[] = {o->name, o->desc};

			reply_row(out, false, cells);
		}
	}
	if (c->subs != NULL) {
		static const char *const hdr[] = {"subcommand", "what it does"};

		reply_table(out, 2, hdr);
		for (const struct command *s = c->subs; s->name != NULL; s++) {
			const char *cells[] = {s->name, s->desc};

			reply_row(out, c->default_sub && !strcmp(c->default_sub, s->name), cells);
		}
		/* Where options are named (Discord) a subcommand is always
		 * chosen: there is no command without one to mention. */
		if (c->default_sub != NULL && typed) {
			char name[80], sub[120];

			path_name(path, n, name, sizeof(name));
			snprintf(sub, sizeof(sub), "%s %s", name, c->default_sub);
			reply_add(out, RS_DIM, "With no subcommand, ");
			reply_cmd(out, RS_DIM, name, NULL);
			reply_add(out, RS_DIM, " runs ");
			reply_cmd(out, RS_DIM, sub, NULL);
			reply_line(out, RS_DIM, ".");
		}
	}
}

/* Ends an error about word, which names none of the n cands under name (a
 * command line): the closest of them ("did you mean /hazard table?", or
 * "/help roll marks" when they are topics), then all of them. */
static void
closest_of(const char *word, const char *name, const char *const *cands, size_t n, bool topics,
           struct reply *out)
{
	const char *found[REGISTRY_SUGGEST_MAX];
	size_t k = registry_suggest_all(word, cands, n, found, REGISTRY_SUGGEST_MAX);
	const char *kind = topics ? "topics" : "subcommands";

	if (k > 0 && k <= REGISTRY_SUGGEST_MAX) {
		reply_add(out, RS_BAD, "; did you mean ");
		for (size_t i = 0; i < k; i++) {
			char line[120];

			snprintf(line, sizeof(line), "%s %s", name, found[i]);
			reply_add(out, RS_BAD, "%s", reply_list_sep(i, k, " or "));
			if (topics)
				reply_cmd(out, RS_BAD, "help", "command", line, NULL);
			else
				reply_cmd(out, RS_BAD, line, NULL);
		}
		reply_add(out, RS_BAD, "? Its %s are ", kind);
	} else {
		reply_add(out, RS_BAD, "; its %s are ", kind);
	}
	for (size_t i = 0; i < n; i++)
		reply_add(out, RS_BAD, "%s%s", reply_list_sep(i, n, " and "), cands[i]);
	reply_add(out, RS_BAD, ".");
}

/* The error for the word topic (len bytes) that names nothing under
 * path[0..d): the closest name, then every name there. */
static void
no_such(const struct command *const *path, size_t d, const char *topic, size_t len, bool console,
        struct reply *out)
{
	const struct command *c = d > 0 ? path[d - 1] : NULL;
	const char *cands[32];
	char word[41], name[80], quoted[120];
	size_t n = 0;

	snprintf(word, sizeof(word), "%.*s", (int)(len < 40 ? len : 40), topic);
	/* "<U+200B>roll" quoted as 'roll' would deny the command it lists */
	textsafe_quoted(quoted, sizeof(quoted), topic, len, 40);
	if (c == NULL) {
		reply_error(out, "There is no command %s", quoted);
		if (!registry_unknown_add(command_table, word, strlen(word), console, out))
			reply_add(out, RS_BAD, ".");
		return;
	}
	path_name(path, d, name, sizeof(name));
	if (c->subs == NULL && c->topics != NULL && c->topics[0].name != NULL) {
		for (const struct help_topic *t = c->topics; t->name != NULL && n < 32; t++)
			cands[n++] = t->name;
		reply_error(out, "There is no topic %s in the help on ", quoted);
		reply_cmd(out, RS_BAD, name, NULL);
		closest_of(word, name, cands, n, true, out);
		return;
	}
	reply_error(out, "There is no subcommand %s of ", quoted);
	reply_cmd(out, RS_BAD, name, NULL);
	if (c->subs == NULL) {
		reply_add(out, RS_BAD, ", which has none; ");
		reply_cmd(out, RS_BAD, "help", "command", name, NULL);
		reply_add(out, RS_BAD, " explains it.");
		return;
	}
	for (const struct command *s = c->subs; s->name != NULL && n < 32; s++)
		cands[n++] = s->name;
	closest_of(word, name, cands, n, false, out);
}

static void
help_fn(struct invocation *inv, struct reply *out)
{
	const char *topic = invocation_str(inv, "command");
	const struct command *path[3] = {NULL, NULL, NULL};

	if (topic == NULL) {
		static const char *const hdr[] = {"command", "what it does"};

		reply_title(out, "delver commands");
		reply_table(out, 2, hdr);
		for (size_t i = 0; command_table[i] != NULL; i++) {
			char name[40];
			const char *cells[2] = {name, command_table[i]->desc};
			size_t at = put(name, sizeof(name), 0, "/");

			at = put(name, sizeof(name), at, command_table[i]->name);
			if (command_table[i]->alias != NULL) {
				at = put(name, sizeof(name), at, " (/");
				at = put(name, sizeof(name), at, command_table[i]->alias);
				(void)put(name, sizeof(name), at, ")");
			}
			reply_row(out, false, cells);
		}
		for (const struct console_line *l = console_lines;
		     on_console(inv) && l->name != NULL; l++) {
			const char *cells[2] = {l->usage, l->desc};

			reply_row(out, false, cells);
		}
		reply_cmd(out, RS_DIM, "help", "command", "<command>", NULL);
		reply_line(out, RS_DIM, " shows one command in full.");
		return;
	}
	if (on_console(inv) && help_console(topic, out))
		return;
	/* "tension table set" or "/roll": walk the words down the tree. */
	for (size_t d = 0; d < 3 && *topic;) {
		size_t len;

		while (*topic == ' ' || *topic == '/' || *topic == '!')
			topic++;
		len = strcspn(topic, " ");
		if (len == 0)
			break;
		path[d] =
		    d == 0 ? registry_find(topic, len) : registry_find_sub(path[d - 1], topic, len);
		if (path[d] == NULL && d > 0 && find_topic(path[d - 1], topic, len) != NULL) {
			help_topic(path, d, find_topic(path[d - 1], topic, len), out);
			return;
		}
		if (path[d] == NULL) {
			no_such(path, d, topic, len, on_console(inv), out);
			return;
		}
		d++;
		topic += len;
	}
	if (path[0] == NULL) {
		reply_error(out, "Name a command to get help on, e.g. ");
		reply_cmd(out, RS_BAD, "help", "command", "roll", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	help_one(path, inv->from == NULL || strcmp(inv->from->platform, "discord") != 0, out);
}

static void
offer(struct completions *out, const char *path, const char *partial, bool prefix)
{
	const char *hit = strstr(path, partial);

	if (hit != NULL && (hit == path) == prefix)
		completions_add(out, path);
}

/* Suggests command paths ("gm", "gm claim") that contain the typed text,
 * those that start with it first. */
static void
help_complete(struct invocation *inv, const char *partial, struct completions *out)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; command_table[i] != NULL; i++) {
			const struct command *c = command_table[i];

			offer(out, c->name, partial, pass == 0);
			for (const struct command *s = c->subs; s != NULL && s->name != NULL; s++) {
				char path[80];

				snprintf(path, sizeof(path), "%s %s", c->name, s->name);
				offer(out, path, partial, pass == 0);
			}
			for (const struct help_topic *t = c->topics; t != NULL && t->name != NULL;
			     t++) {
				char path[80];

				snprintf(path, sizeof(path), "%s %s", c->name, t->name);
				offer(out, path, partial, pass == 0);
			}
		}
	}
}

static const struct cmd_opt help_opts[] = {
    {.name = "command",
     .desc = "A command (and subcommand or topic) to explain",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_AUTOCOMPLETE,
     .complete = help_complete},
    {0},
};

const struct command cmd_help = {
    .name = "help",
    .desc = "List the commands, or explain one",
    .opts = help_opts,
    .fn = help_fn,
    .read_only = true,
};
