/* cmdwalk: every command and subcommand as typed lines; see cmdwalk.h. */
#include "tests/unit/helpers/cmdwalk.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Words for string options, by option name; "x" for the others. */
static const struct {
	const char *name, *value;
} words[] = {
    {"expression", "1d20+2"},
    {"name", "Alba"},
    {"who", "Alba"},
    {"command", "tension"},
    {"text", "1-20 a quiet hall"},
    {"class", "fighter"},
    {"reason", "checking"},
    {"label", "look"},
    {"entry", "a quiet hall"},
};

const char *
cmdwalk_sample(const struct cmd_opt *o, char *buf, size_t len)
{
	if (o->choices != NULL && o->choices[0] != NULL)
		return o->choices[0];
	switch (o->type) {
	case OPT_INT:
		snprintf(buf, len, "%" PRId64, o->min <= 1 && o->max >= 1 ? (int64_t)1 : o->min);
		return buf;
	case OPT_BOOL:
		return "true";
	case OPT_USER:
		return "bob";
	case OPT_STRING:
		break;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(words[i].name, o->name) == 0)
			return words[i].value;
	return "x";
}

/* Numbers as text, one buffer per option of a case. */
static char numbers[CMD_MAX_OPTS][32];

/* Adds option o with value to the case, and " name:value" to its line
 * (quoted when it holds a space, unless it takes the rest of the line). */
static void
add_opt(struct cmdwalk_case *c, const struct cmd_opt *o, const char *value)
{
	size_t n = strlen(c->line);

	c->opts[c->nopts] = o;
	c->values[c->nopts++] = value;
	if (strchr(value, ' ') != NULL && !(o->flags & OPT_REST))
		snprintf(c->line + n, sizeof(c->line) - n, " %s:\"%s\"", o->name, value);
	else
		snprintf(c->line + n, sizeof(c->line) - n, " %s:%s", o->name, value);
}

/* A case of the path with no option yet. */
static void
start(struct cmdwalk_case *c, const struct command *const *path)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 3 && path[i] != NULL; i++) {
		c->path[i] = path[i];
		c->leaf = path[i];
		snprintf(c->line + strlen(c->line), sizeof(c->line) - strlen(c->line), "%s%s",
		         i ? " " : "", path[i]->name);
	}
}

/* The case with every option (all) or only the required ones sampled;
 * option fixed (an index, or -1) set to value instead. An OPT_REST option
 * goes last, as it takes the rest of the line. */
static void
leaf_case(struct cmdwalk_case *c, const struct command *const *path, bool all, int fixed,
          const char *value)
{
	const struct cmd_opt *opts;
	int rest = -1;

	start(c, path);
	opts = c->leaf->opts;
	for (int i = 0; opts != NULL && opts[i].name != NULL; i++) {
		if (!all && !(opts[i].flags & OPT_REQUIRED) && i != fixed)
			continue;
		if (opts[i].flags & OPT_REST) {
			rest = i;
			continue;
		}
		add_opt(c, &opts[i],
		        i == fixed ? value
		                   : cmdwalk_sample(&opts[i], numbers[i], sizeof(numbers[i])));
	}
	if (rest >= 0)
		add_opt(c, &opts[rest],
		        rest == fixed
		            ? value
		            : cmdwalk_sample(&opts[rest], numbers[rest], sizeof(numbers[rest])));
}

static void
walk_leaf(const struct command *const *path, cmdwalk_fn fn, void *ctx)
{
	struct cmdwalk_case c;
	const struct cmd_opt *opts;

	start(&c, path);
	fn(ctx, &c);
	leaf_case(&c, path, true, -1, NULL);
	fn(ctx, &c);
	opts = c.leaf->opts;
	for (int i = 0; opts != NULL && opts[i].name != NULL; i++)
		for (size_t k = 0; opts[i].choices != NULL && opts[i].choices[k] != NULL; k++) {
			leaf_case(&c, path, false, i, opts[i].choices[k]);
			fn(ctx, &c);
		}
}

static void
walk(const struct command **path, int depth, cmdwalk_fn fn, void *ctx)
{
	const struct command *c = path[depth];

	if (c->subs == NULL || depth == 2) {
		walk_leaf(path, fn, ctx);
		return;
	}
	if (c->fn != NULL || c->default_sub != NULL) {
		struct cmdwalk_case alone;

		start(&alone, path); /* the command alone runs its default */
		fn(ctx, &alone);
	}
	for (size_t i = 0; c->subs[i].name != NULL; i++) {
		path[depth + 1] = &c->subs[i];
		walk(path, depth + 1, fn, ctx);
		path[depth + 1] = NULL;
	}
}

void
cmdwalk(const struct command *const *table, cmdwalk_fn fn, void *ctx)
{
	for (size_t i = 0; table[i] != NULL; i++) {
		const struct command *path[4] = {table[i], NULL, NULL, NULL};

		walk(path, 0, fn, ctx);
	}
}
