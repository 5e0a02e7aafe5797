/* registry: the command table's lookup, suggestions and usage; see registry.h. */
#include "commands/core/registry.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"
#include "rules/base/textsafe.h"

const struct command *
registry_find_in(const struct command *const *table, const char *name, size_t len)
{
	for (size_t i = 0; table[i] != NULL; i++) {
		const char *n = table[i]->name, *a = table[i]->alias;

		if (strlen(n) == len && strncasecmp(n, name, len) == 0)
			return table[i];
		if (a != NULL && strlen(a) == len && strncasecmp(a, name, len) == 0)
			return table[i];
	}
	return NULL;
}

/* Case-insensitive optimal string alignment distance of two short words
 * (a swap of neighbours counts one), capped: 3 means "3 or more". */
static size_t
distance(const char *a, const char *b)
{
	enum {
		W = 33
	};
	size_t la = strlen(a), lb = strlen(b), d[3][W];

	if (la >= W || lb >= W || (la > lb ? la - lb : lb - la) > 2)
		return 3;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t v = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[la % 3][lb] < 3 ? d[la % 3][lb] : 3;
}

/* The one candidate within a typing slip of typed, or NULL (see
 * registry_suggest()). */
static const char *
slip_of(const char *typed, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = strlen(typed) >= 7 ? 3 : 2, tie = 0;

	for (size_t i = 0; i < n; i++) {
		size_t dd;

		if (cands[i] == NULL)
			continue;
		dd = distance(typed, cands[i]);
		if (dd < bestd) {
			best = cands[i];
			bestd = dd;
			tie = 0;
		} else if (dd == bestd && best != NULL && strcasecmp(best, cands[i]) != 0) {
			tie++;
		}
	}
	return tie == 0 ? best : NULL;
}

size_t
registry_suggest_all(const char *typed, const char *const *cands, size_t n, const char **found,
                     size_t max)
{
	size_t len = strlen(typed), k = 0;
	const char *slip;

	for (size_t i = 0; i < n; i++)
		if (cands[i] != NULL && strcasecmp(cands[i], typed) == 0) {
			if (max > 0)
				found[0] = cands[i];
			return 1;
		}
	for (size_t i = 0; len > 0 && i < n; i++) {
		bool seen = false;

		if (cands[i] == NULL || strncasecmp(cands[i], typed, len) != 0)
			continue;
		for (size_t j = 0; j < i; j++)
			seen = seen || (cands[j] != NULL && strcasecmp(cands[j], cands[i]) == 0);
		if (!seen && k++ < max)
			found[k - 1] = cands[i];
	}
	if (k > 0)
		return k;
	if ((slip = slip_of(typed, cands, n)) == NULL)
		return 0;
	if (max > 0)
		found[0] = slip;
	return 1;
}

const char *
registry_suggest(const char *typed, const char *const *cands, size_t n)
{
	const char *found[1];

	return registry_suggest_all(typed, cands, n, found, 1) == 1 ? found[0] : NULL;
}

void
registry_or_list(struct buf *b, const char *const *words, size_t n, const char *after)
{
	for (size_t k = 0; k < n; k++)
		buf_addf(b, "%s%s%s", reply_list_sep(k, n, " or "), words[k], after);
}

bool
registry_did_you_mean(struct buf *b, const char *lead, const char *typed, const char *const *cands,
                      size_t n, const char *after)
{
	const char *found[REGISTRY_SUGGEST_MAX];
	size_t k = registry_suggest_all(typed, cands, n, found, REGISTRY_SUGGEST_MAX);

	if (k == 0 || k > REGISTRY_SUGGEST_MAX)
		return false;
	buf_addf(b, "%sdid you mean ", lead);
	registry_or_list(b, found, k, after);
	buf_addc(b, '?');
	return true;
}

bool
registry_unknown_add(const struct command *const *table, const char *typed, size_t len,
                     bool console, struct reply *out)
{
	const char *cands[64], *found[REGISTRY_SUGGEST_MAX];
	char word[41];
	size_t n = 0, ncon = 0, k;
	struct buf b;

	snprintf(word, sizeof(word), "%.*s", (int)(len < 40 ? len : 40), typed);
	buf_init(&b, 1000);
	for (size_t i = 0; table[i] != NULL; i++) {
		buf_addf(&b, "%s%s", i ? ", " : "", table[i]->name);
		if (n < 64)
			cands[n++] = table[i]->name;
	}
	for (size_t i = 0; console && console_lines[i].name != NULL; i++) {
		ncon++;
		if (n < 64)
			cands[n++] = console_lines[i].name;
	}
	k = registry_suggest_all(word, cands, n, found, REGISTRY_SUGGEST_MAX);
	/* never the very word typed back (a console word typed elsewhere) */
	if (k > 0 && k <= REGISTRY_SUGGEST_MAX && strcasecmp(found[0], word) != 0) {
		reply_add(out, RS_BAD, "; did you mean ");
		for (size_t i = 0; i < k; i++) {
			reply_add(out, RS_BAD, "%s", reply_list_sep(i, k, " or "));
			reply_cmd(out, RS_BAD, found[i], NULL);
		}
		reply_add(out, RS_BAD, "?");
		buf_free(&b);
		return true;
	}
	reply_add(out, RS_BAD, "; the commands are %s", buf_str(&b));
	for (size_t i = 0; i < ncon; i++)
		reply_add(out, RS_BAD, "%s%s",
		          i == 0 ? "; on the console also " : reply_list_sep(i, ncon, " and "),
		          console_lines[i].name);
	buf_free(&b);
	return false;
}

const struct command *
registry_find(const char *name, size_t len)
{
	return registry_find_in(command_table, name, len);
}

const struct command *
registry_find_cleaned(const struct command *parent, const char *word, size_t len)
{
	struct buf plain;
	const struct command *c = NULL;

	buf_init(&plain, len + 1);
	textsafe_clean(&plain, word, len);
	if (plain.len > 0)
		c = parent == NULL ? registry_find(buf_str(&plain), plain.len)
		                   : registry_find_sub(parent, buf_str(&plain), plain.len);
	buf_free(&plain);
	return c;
}

bool
registry_has_channel_default(const struct command *c)
{
	return c != NULL && c->opts != NULL && c->opts[0].name != NULL &&
	       c->opts[0].channel_default != NULL;
}

const struct command *
registry_find_sub(const struct command *c, const char *name, size_t len)
{
	if (c->subs == NULL)
		return NULL;
	for (const struct command *s = c->subs; s->name != NULL; s++)
		if (strlen(s->name) == len && strncasecmp(s->name, name, len) == 0)
			return s;
	return NULL;
}

int
registry_opt_index(const struct command *c, const char *name, size_t len)
{
	if (c->opts == NULL)
		return -1;
	for (int i = 0; c->opts[i].name != NULL && i < CMD_MAX_OPTS; i++)
		if (strlen(c->opts[i].name) == len && strncasecmp(c->opts[i].name, name, len) == 0)
			return i;
	return -1;
}

static void
path_name(const struct command *const *path, struct buf *b)
{
	buf_addc(b, '/');
	for (size_t i = 0; i < 3 && path[i] != NULL; i++)
		buf_addf(b, "%s%s", i ? " " : "", path[i]->name);
}

static void
opt_usage(const struct cmd_opt *o, bool positional, struct buf *b)
{
	bool req = (o->flags & OPT_REQUIRED) != 0;
	const char *open = req ? "<" : "[", *close = req ? ">" : "]";

	buf_adds(b, " ");
	if (positional) {
		buf_addf(b, "%s", open);
	} else {
		buf_addf(b, "%s%s:", open, o->name);
	}
	if (o->choices != NULL) {
		for (size_t i = 0; o->choices[i] != NULL; i++)
			buf_addf(b, "%s%s", i ? "|" : "", o->choices[i]);
	} else if (o->type == OPT_BOOL) {
		buf_adds(b, positional ? o->name : "true|false");
	} else if (positional) {
		buf_adds(b, o->name);
	} else if (o->type == OPT_INT) {
		buf_adds(b, "N");
	} else {
		buf_adds(b, "text");
	}
	buf_addf(b, "%s", close);
}

bool
registry_opt_positional(const struct command *c, int i)
{
	for (int j = 0; j < i; j++)
		if (c->opts[j].flags & OPT_REST)
			return false;
	return true;
}

void
registry_usage_of(const struct command *const *path, char *out, size_t len)
{
	struct buf b;
	const struct command *c = NULL;
	size_t n = 0;

	while (n < 3 && path[n] != NULL)
		c = path[n++];
	buf_init(&b, len > 0 ? len - 1 : 0);
	path_name(path, &b);
	if (c != NULL && c->subs != NULL && c->fn == NULL) {
		buf_adds(&b, " <");
		for (const struct command *s = c->subs; s->name != NULL; s++)
			buf_addf(&b, "%s%s", s == c->subs ? "" : "|", s->name);
		buf_adds(&b, ">");
	} else if (c != NULL && c->opts != NULL) {
		for (int i = 0; c->opts[i].name != NULL; i++)
			opt_usage(&c->opts[i], registry_opt_positional(c, i), &b);
	}
	if (len > 0)
		snprintf(out, len, "%s", buf_str(&b));
	buf_free(&b);
}

void
registry_usage_add(const struct command *const *path, unsigned style, struct reply *out)
{
	struct reply_usage_opt opts[CMD_MAX_OPTS];
	char names[80] = "", kinds[CMD_MAX_OPTS][160], subs[512] = "";
	const struct command *c = NULL;
	size_t n = 0, np = 0;

	while (np < 3 && path[np] != NULL) {
		c = path[np];
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
		         np ? " " : "", path[np]->name);
		np++;
	}
	if (c != NULL && c->subs != NULL && c->fn == NULL) {
		for (const struct command *s = c->subs; s->name != NULL; s++)
			snprintf(subs + strlen(subs), sizeof(subs) - strlen(subs), "%s%s",
			         s == c->subs ? "" : "|", s->name);
		opts[n++] = (struct reply_usage_opt){.name = "", .value = subs, .kind = subs};
	} else if (c != NULL && c->opts != NULL) {
		for (int i = 0; c->opts[i].name != NULL && n < CMD_MAX_OPTS; i++) {
			const struct cmd_opt *o = &c->opts[i];
			struct buf b;

			buf_init(&b, sizeof(kinds[n]) - 1);
			for (size_t k = 0; o->choices != NULL && o->choices[k] != NULL; k++)
				buf_addf(&b, "%s%s", k ? "|" : "", o->choices[k]);
			if (o->choices == NULL)
				buf_adds(&b, o->type == OPT_BOOL  ? "true|false"
				             : o->type == OPT_INT ? "N"
				                                  : "text");
			snprintf(kinds[n], sizeof(kinds[n]), "%s", buf_str(&b));
			buf_free(&b);
			opts[n] = (struct reply_usage_opt){
			    .name = o->name,
			    .value = o->choices != NULL ? kinds[n] : o->name,
			    .kind = kinds[n],
			    .named = !registry_opt_positional(c, i),
			    .optional = (o->flags & OPT_REQUIRED) == 0,
			};
			n++;
		}
	}
	reply_usage(out, style, names, opts, n);
}

void
registry_opt_list(struct buf *b, const char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		buf_addf(b, "%s%s:", reply_list_sep(k, n, " and "), names[k]);
}
