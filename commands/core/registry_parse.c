/* registry_parse: a command's words bound to its options, and the refusals
 * of what does not bind; see registry_parse.h. */
#include "commands/core/registry_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"
#include "rules/procedure/odds.h"

#include <utf8proc.h>

#define MAX_TOKENS REGISTRY_WORDS_MAX

struct token {
	const char *p; /* raw text (quotes removed for the value, see unq) */
	size_t len;
	char *unq;       /* the token with quotes removed, in the caller's store */
	bool in_bracket; /* it starts inside a "[label]" a token before opened */
};

bool
registry_parse_choice(const struct cmd_opt *o, const char *v)
{
	for (size_t i = 0; o->choices[i] != NULL; i++)
		if (strcasecmp(o->choices[i], v) == 0)
			return true;
	return false;
}

/* " (did you mean X?)", or "X or Y", for typed among the subcommands of
 * c (registry_did_you_mean()), or "". */
static void
suggest_sub(const struct command *c, const char *typed, char *out, size_t len)
{
	const char *cands[32];
	size_t n = 0;
	struct buf b;

	for (const struct command *s = c->subs; s != NULL && s->name != NULL && n < 32; s++)
		cands[n++] = s->name;
	buf_init(&b, len - 1);
	if (registry_did_you_mean(&b, " (", typed, cands, n, ""))
		buf_addc(&b, ')');
	snprintf(out, len, "%s", buf_str(&b));
	buf_free(&b);
}

static const struct command *
find_sub(const struct command *c, const char *name)
{
	return registry_find_sub(c, name, strlen(name));
}

/* Whether the word w holds an invisible character (textsafe.h) and names
 * a subcommand of c without it. */
static bool
invisible_sub(const struct command *c, const char *w)
{
	return !textsafe_ok(w, strlen(w)) && registry_find_cleaned(c, w, strlen(w)) != NULL;
}

static void
usage_error(struct invocation *inv, struct reply *out, const char *what)
{
	reply_error_capital(out, "%s; usage: ", what);
	registry_usage_add(inv->path, RS_BAD, out);
}

/* The first control character of s but a tab (and, when lines, line
 * breaks: an option that takes lines), or NULL when it has none. */
static const char *
control_char(const char *s, bool lines)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 && *p != '\t' && !(lines && (*p == '\n' || *p == '\r')))
			return (const char *)p;
	return NULL;
}

/* The 1-based column of p in s, counting UTF-8 characters. */
static int
text_column(const char *s, const char *p)
{
	return 1 + (int)utf8_count(s, (size_t)(p - s));
}

/* Appends " (got 'V'" to b, as textsafe_quote() quotes V (cut at 40
 * bytes, naming an invisible character in it), so the quote never reads
 * as a right value; returns whether it named one. The caller closes the
 * bracket. */
static bool
got_value(struct buf *b, const char *v)
{
	buf_adds(b, " (got ");
	return textsafe_quote(b, v, strlen(v), 40);
}

/* The name v (a command's, a subcommand's) as a refusal quotes it, in q
 * (size bytes): cut at 40 bytes, with an invisible character named, so
 * "r<U+200B>oll" is not refused as 'roll'. */
static const char *
quoted(const char *v, char *q, size_t size)
{
	return textsafe_quoted(q, size, v, strlen(v), 40);
}

/* Writes into what (size bytes) "unexpected 'W'" for a word w that has no
 * place, quoted as quoted() does; a word that shows as nothing is the
 * character it holds, named ("unexpected invisible character U+200B"),
 * not an empty quote. */
static void
unexpected(char *what, size_t size, const char *w)
{
	char q[120];
	uint32_t cp;

	if (utf8_valid(w, strlen(w)) && textsafe_invisible_in(w, strlen(w), &cp, NULL) &&
	    textsafe_blank(w, strlen(w))) {
		textsafe_invisible_name(q, sizeof(q), cp, false);
		snprintf(what, size, "unexpected %s", q);
		return;
	}
	snprintf(what, size, "unexpected %s", quoted(w, q, sizeof(q)));
}

/* Appends to what (size bytes) which option took the word just before
 * word k by its place (at, routed_at: the token each option took so, as
 * in bind_tokens): " ('extra' before it filled type:, the last place)".
 * A word left over once every place is filled often meant to go with the
 * word before it. */
static void
taken_before(const struct command *c, const struct invocation *inv, const size_t *at,
             const size_t *routed_at, size_t k, char *what, size_t size)
{
	size_t len = strlen(what);
	char q[120];

	for (int i = 0; k > 0 && c->opts != NULL && c->opts[i].name != NULL && i < CMD_MAX_OPTS;
	     i++) {
		if (!inv->args[i].set || (at[i] != k - 1 && routed_at[i] != k - 1))
			continue;
		if (len < size && inv->args[i].s != NULL)
			snprintf(what + len, size - len,
			         " (%s before it filled %s:, the last place)",
			         quoted(inv->args[i].s, q, sizeof(q)), c->opts[i].name);
		return;
	}
}

/* Whether s holds a numeral that is not one of the digits 0 to 9: another
 * script's digit (fullwidth "３", Arabic-Indic "٣"), a Roman numeral "Ⅲ",
 * a superscript "³". */
static bool
other_numeral(const char *s)
{
	for (size_t len = strlen(s); len > 0;) {
		uint32_t cp;
		size_t k = utf8_decode(s, len, &cp);
		utf8proc_category_t cat;

		if (k == 0) { /* a byte of no character: pass it */
			s++;
			len--;
			continue;
		}
		cat = utf8proc_category((utf8proc_int32_t)cp);
		if (cp > 0x7f && (cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL ||
		                  cat == UTF8PROC_CATEGORY_NO))
			return true;
		s += k;
		len -= k;
	}
	return false;
}

/* The values a yes/no option takes, each pair's yes first: what
 * registry_parse_bool() accepts and its refusals name are these. */
static const char *const bool_words[][2] = {
    {"true", "false"},
    {"yes", "no"},
    {"on", "off"},
    {"1", "0"},
};

bool
registry_parse_bool(const char *v, size_t len, bool *b)
{
	for (size_t i = 0; i < sizeof(bool_words) / sizeof(bool_words[0]); i++)
		for (int k = 0; k < 2; k++)
			if (len == strlen(bool_words[i][k]) &&
			    strncasecmp(v, bool_words[i][k], len) == 0) {
				*b = k == 0;
				return true;
			}
	return false;
}

void
registry_parse_bool_words(struct buf *b)
{
	for (size_t i = 0; i < sizeof(bool_words) / sizeof(bool_words[0]); i++)
		buf_addf(b, "%s%s or %s", i ? ", " : "", bool_words[i][0], bool_words[i][1]);
}

bool
registry_parse_blank(const char *v)
{
	return textsafe_blank(v, strlen(v));
}

/* The channel's default for c's first option (struct cmd_opt's
 * channel_default), or NULL when it has none or the channel is not known. */
static const char *
channel_default(const struct command *c, const struct invocation *inv)
{
	if (!registry_has_channel_default(c) || inv->chan == NULL)
		return NULL;
	return c->opts[0].channel_default(inv->chan);
}

/* Whether option i of c applies to the value of its first option, given
 * or the channel's default (struct cmd_opt's when); every option applies
 * while it has none. */
static bool
applies(const struct command *c, const struct invocation *inv, int i)
{
	const char *const *w = c->opts[i].when;
	const char *first = inv->args[0].set ? inv->args[0].s : channel_default(c, inv);

	if (w == NULL || i == 0 || first == NULL)
		return true;
	for (; *w != NULL; w++)
		if (strcasecmp(*w, first) == 0)
			return true;
	return false;
}

bool
registry_parse_applies(const struct invocation *inv, int i)
{
	return applies(inv->cmd, inv, i);
}

/* The range a refusal of OPT_INT option o names into *lo and *hi: the
 * one under the first option's value (struct cmd_opt's ranges), else its
 * min and max. */
static void
int_range(const struct invocation *inv, const struct cmd_opt *o, int64_t *lo, int64_t *hi)
{
	const char *first = inv->args[0].set ? inv->args[0].s : channel_default(inv->cmd, inv);

	*lo = o->min;
	*hi = o->max;
	for (const struct opt_range *r = o->ranges; r != NULL && r->when != NULL; r++)
		if (first != NULL && strcasecmp(r->when, first) == 0) {
			*lo = r->min;
			*hi = r->max;
		}
}

/* Adds o's name to b as a refusal names it: a one-letter name ("n"),
 * which says nothing of what the option is, by the start of its
 * description, as help shows it, with the name after it ("Characters
 * checking (n:)", recheck9 F2). */
static void
opt_named(struct buf *b, const struct cmd_opt *o)
{
	size_t len = o->desc != NULL ? strcspn(o->desc, "(,;") : 0;

	while (len > 0 && o->desc[len - 1] == ' ')
		len--;
	if (strlen(o->name) > 1 || len == 0) {
		buf_adds(b, o->name);
		return;
	}
	buf_addf(b, "%.*s (%s:)", (int)len, o->desc, o->name);
}

/* Reads v, an OPT_ODDS option's value, as odds into a (odds_read and
 * odds). Returns 0, or -1 with odds_parse()'s refusal. */
static int
read_odds(struct cmd_arg *a, const char *v, struct reply *out)
{
	char err[200];

	if (odds_parse(v, &a->odds, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return -1;
	}
	a->odds_read = true;
	return 0;
}

/* Refuses v for OPT_INT option o: a whole number in the range o takes
 * (int_range). Returns -1. */
static int
int_refused(struct invocation *inv, const struct cmd_opt *o, const char *v, struct reply *out)
{
	struct buf b;
	int64_t lo, hi;

	int_range(inv, o, &lo, &hi);
	buf_init(&b, 399);
	opt_named(&b, o);
	buf_addf(&b, " must be a whole number from %lld to %lld%s", (long long)lo, (long long)hi,
	         other_numeral(v) ? " typed in the digits 0 to 9" : "");
	got_value(&b, v);
	buf_addc(&b, ')');
	usage_error(inv, out, buf_str(&b));
	buf_free(&b);
	return -1;
}

/* Converts and checks one value for option o, storing it in a. Odds and
 * numbers out of range of an option that does not apply (yet:
 * registry_parse_check_required) are kept as typed, for the command to
 * say where they belong. */
static int
set_value(struct invocation *inv, const struct cmd_opt *o, struct cmd_arg *a, const char *v,
          struct reply *out)
{
	char what[400];
	struct cmd_arg read = {0};

	if (o->type == OPT_INT) {
		char *end;
		long long x;

		errno = 0;
		x = strtoll(v, &end, 10);
		/* a number past the range of an option that does not apply is
		 * kept, for the command to say where it belongs; one that
		 * applies once the first option is known is refused then
		 * (registry_parse_check_required) */
		if (errno != 0 || end == v || *end != '\0' ||
		    ((x < o->min || x > o->max) &&
		     applies(inv->cmd, inv, (int)(o - inv->cmd->opts))))
			return int_refused(inv, o, v, out);
		a->i = x;
	} else if (o->type == OPT_BOOL) {
		if (!registry_parse_bool(v, strlen(v), &a->b)) {
			struct buf b;

			buf_init(&b, sizeof(what) - 1);
			buf_addf(&b, "%s must be ", o->name);
			registry_parse_bool_words(&b);
			got_value(&b, v);
			buf_addc(&b, ')');
			usage_error(inv, out, buf_str(&b));
			buf_free(&b);
			return -1;
		}
	} else {
		const char *cc;
		size_t max = o->type == OPT_USER ? NAME_MAX_LEN - 1
		             : o->max > 0        ? (size_t)o->max
		                                 : OPT_STRING_MAX;

		if (o->check != NULL && control_char(v, (o->flags & OPT_LINES) != 0) == NULL &&
		    o->check(inv, v, out) < 0)
			return -1;
		/* blank odds are none given where the option says so */
		if ((o->flags & OPT_ODDS) && applies(inv->cmd, inv, (int)(o - inv->cmd->opts)) &&
		    control_char(v, false) == NULL &&
		    !((o->flags & OPT_BLANK_NONE) && registry_parse_blank(v)) &&
		    read_odds(&read, v, out) < 0)
			return -1;
		if (strlen(v) > max) {
			snprintf(what, sizeof(what), "%s is too long: at most %zu bytes (got %zu)",
			         o->name, max, strlen(v));
			usage_error(inv, out, what);
			return -1;
		}
		if ((cc = control_char(v, (o->flags & OPT_LINES) != 0)) != NULL) {
			snprintf(what, sizeof(what),
			         "%s may not contain control characters (U+%04X at column %d of "
			         "it)",
			         o->name, (unsigned)(unsigned char)*cc, text_column(v, cc));
			usage_error(inv, out, what);
			return -1;
		}
		/* a lone '#' is the label's mark with no text after it */
		if ((o->flags & OPT_BLANK_NONE) &&
		    registry_parse_blank((o->flags & OPT_LABEL) && v[0] == '#' ? v + 1 : v)) {
			free(a->s);
			memset(a, 0, sizeof(*a));
			return 0;
		}
		if (o->choices != NULL) {
			size_t i;

			for (i = 0; o->choices[i] != NULL; i++)
				if (strcasecmp(o->choices[i], v) == 0)
					break;
			for (size_t k = 0; o->choices[i] == NULL && o->choices[k] != NULL; k++) {
				size_t n = strlen(o->choices[k]);

				/* a plural choice typed in the singular ("trap" for traps) */
				if (n == strlen(v) + 1 &&
				    strncasecmp(o->choices[k], v, n - 1) == 0 &&
				    (o->choices[k][n - 1] == 's' || o->choices[k][n - 1] == 'S'))
					i = k;
			}
			if (o->choices[i] == NULL) {
				struct buf b;

				buf_init(&b, sizeof(what) - 1);
				buf_addf(&b, "%s must be one of ", o->name);
				for (i = 0; o->choices[i] != NULL; i++)
					buf_addf(&b, "%s%s", i ? ", " : "", o->choices[i]);
				/* a named character is the slip: "did you mean
				 * classic?" for "cla<U+00AD>ssic" would offer the
				 * word the reply shows (recheck5 F4) */
				if (!got_value(&b, v))
					registry_did_you_mean(&b, "; ", v, o->choices, i, "");
				buf_addc(&b, ')');
				snprintf(what, sizeof(what), "%s", buf_str(&b));
				buf_free(&b);
				usage_error(inv, out, what);
				return -1;
			}
			v = o->choices[i];
		}
	}
	free(a->s);
	a->s = xstrdup(v);
	a->set = true;
	a->odds_read = read.odds_read;
	a->odds = read.odds;
	return 0;
}

int
registry_parse_bind(struct invocation *inv, const char *name, const char *value, struct reply *out)
{
	int i = registry_opt_index(inv->cmd, name, strlen(name));
	char what[200];

	if (i < 0) {
		snprintf(what, sizeof(what), "there is no option '%.40s'", name);
		usage_error(inv, out, what);
		return -1;
	}
	if (set_value(inv, &inv->cmd->opts[i], &inv->args[i], value, out) < 0)
		return -1;
	inv->args[i].named = true;
	return 0;
}

int
registry_parse_check_required(struct invocation *inv, struct reply *out)
{
	const struct command *c = inv->cmd;
	char what[200];

	if (c->opts == NULL)
		return 0;
	for (int i = 0; c->opts[i].name != NULL; i++) {
		struct cmd_arg *a = &inv->args[i];

		/* odds and numbers given before the first option are read
		 * under its value ("chance:lots classic") */
		if ((c->opts[i].flags & OPT_ODDS) && a->set) {
			if (!applies(c, inv, i))
				a->odds_read = false;
			else if (!a->odds_read && read_odds(a, a->s, out) < 0)
				return -1;
		}
		if (c->opts[i].type == OPT_INT && a->set && applies(c, inv, i) &&
		    (a->i < c->opts[i].min || a->i > c->opts[i].max))
			return int_refused(inv, &c->opts[i], a->s, out);
		if ((c->opts[i].flags & OPT_REQUIRED) && !inv->args[i].set) {
			const char *d = c->opts[i].desc != NULL ? c->opts[i].desc : "";

			/* what the option is, from its description ("A range ..."
			 * reads "a range ..."; "IRC ..." keeps its capitals) */
			if (d[0] == '\0')
				snprintf(what, sizeof(what), "no value given for %s",
				         c->opts[i].name);
			else
				snprintf(what, sizeof(what), "no value given for %s (%c%s)",
				         c->opts[i].name,
				         !isupper((unsigned char)d[1])
				             ? tolower((unsigned char)d[0])
				             : d[0],
				         d + 1);
			usage_error(inv, out, what);
			return -1;
		}
	}
	return 0;
}

/* Splits line into whitespace-separated tokens; "double quotes" group
 * words (also in name:"two words"). A lone # ends the tokens: *hash points
 * at it (the rest of the line is label text, never parsed). A "[label]"
 * (a dice term's, unquoted) is text whatever it holds: a # in it ends
 * nothing, and the tokens that start in it are marked in_bracket, for
 * bind_tokens to keep in the text they belong to ("1d1[a# private:maybe]"
 * gives no option). The unquoted copies go to store, which holds len +
 * MAX_TOKENS bytes. */
static int
tokenize(const char *line, size_t len, struct token *tok, size_t *ntok, const char **hash,
         char *store)
{
	size_t i = 0, n = 0;
	bool bracket = false;

	*hash = NULL;
	while (i < len) {
		size_t start;
		bool quoted = false;

		while (i < len && isspace((unsigned char)line[i]))
			i++;
		if (i >= len)
			break;
		if (!bracket && line[i] == '#' &&
		    (i + 1 == len || isspace((unsigned char)line[i + 1]))) {
			*hash = line + i;
			break;
		}
		if (n == MAX_TOKENS) {
			*ntok = n; /* so the caller frees the tokens made so far */
			return -1;
		}
		start = i;
		tok[n].unq = store;
		tok[n].in_bracket = bracket;
		while (i < len && (quoted || !isspace((unsigned char)line[i]))) {
			if (line[i] == '"')
				quoted = !quoted;
			else
				*store++ = line[i];
			if (!quoted && (line[i] == '[' || line[i] == ']'))
				bracket = line[i] == '[';
			i++;
		}
		*store++ = '\0';
		tok[n].p = line + start;
		tok[n].len = i - start;
		n++;
	}
	*ntok = n;
	return 0;
}

int
registry_parse_words(const char *line, size_t len, char *store, const char **words)
{
	struct token tok[MAX_TOKENS];
	size_t n = 0;
	const char *hash;

	if (tokenize(line, len, tok, &n, &hash, store) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		words[i] = tok[i].unq;
	return (int)n;
}

static int
select_subs(struct invocation *inv, struct token *tok, size_t ntok, size_t *used, struct reply *out)
{
	const struct command *c = inv->path[0];
	size_t d = 1;

	while (c->subs != NULL && d < 3) {
		const struct command *s = NULL;

		if (*used < ntok)
			s = find_sub(c, tok[*used].unq);
		if (s != NULL) {
			(*used)++;
		} else if (c->default_sub != NULL) {
			s = find_sub(c, c->default_sub);
			/* A word that names no subcommand goes to the default one
			 * only when that one takes values; else it is a typo. */
			if (s != NULL && *used < ntok &&
			    (s->opts == NULL || s->opts[0].name == NULL))
				s = NULL;
			/* Nor when it is a slip for a subcommand and no value
			 * the default one's first option allows ("tabel"), or a
			 * subcommand's name but for an invisible character. */
			if (s != NULL && *used < ntok && s->opts != NULL &&
			    s->opts[0].choices != NULL &&
			    !registry_parse_choice(&s->opts[0], tok[*used].unq)) {
				char dym[200];

				suggest_sub(c, tok[*used].unq, dym, sizeof(dym));
				if (dym[0] != '\0' || invisible_sub(c, tok[*used].unq))
					s = NULL;
			}
		}
		if (s == NULL) {
			char what[300];

			inv->cmd = c;
			if (*used < ntok) {
				char dym[200] = "", q[120];

				/* a named character is the slip: "did you mean chance?"
				 * would offer the word the reply shows */
				if (textsafe_ok(tok[*used].unq, strlen(tok[*used].unq)))
					suggest_sub(c, tok[*used].unq, dym, sizeof(dym));
				snprintf(what, sizeof(what), "unknown subcommand %s%s",
				         quoted(tok[*used].unq, q, sizeof(q)), dym);
			} else
				snprintf(what, sizeof(what), "a subcommand is needed");
			usage_error(inv, out, what);
			return -1;
		}
		inv->path[d++] = s;
		c = s;
	}
	inv->cmd = c;
	return 0;
}

int
registry_parse_select(struct invocation *inv, const char *const *names, struct reply *out)
{
	const struct command *c = inv->path[0];
	size_t d = 1;

	for (size_t k = 0; names[k] != NULL && d < 3; k++) {
		const struct command *s = find_sub(c, names[k]);

		if (s == NULL) {
			char what[300], dym[200], q[120];

			inv->cmd = c;
			suggest_sub(c, names[k], dym, sizeof(dym));
			snprintf(what, sizeof(what), "unknown subcommand %s%s",
			         quoted(names[k], q, sizeof(q)), dym);
			usage_error(inv, out, what);
			return -1;
		}
		inv->path[d++] = s;
		c = s;
	}
	inv->cmd = c;
	if (c->fn == NULL) {
		usage_error(inv, out, "a subcommand is needed");
		return -1;
	}
	return 0;
}

/* Whether token t is one value in double quotes ("two", "Old Greta"). */
static bool
whole_quoted(const struct token *t)
{
	return t->len >= 2 && t->p[0] == '"' && t->p[t->len - 1] == '"';
}

/* Whether v reads as a whole number ("3", "-1", "+2"). */
static bool
is_number(const char *v)
{
	const char *p = v + (*v == '-' || *v == '+');

	return *p != '\0' && strspn(p, "0123456789") == strlen(p);
}

bool
registry_parse_number(const char *v)
{
	return is_number(v);
}

/* The first option from i on that is unset, filled by position and
 * applies, or -1. */
static int
next_applying(const struct command *c, const struct invocation *inv, int i)
{
	for (; c->opts[i].name != NULL; i++) {
		if (c->opts[i].flags & OPT_REST)
			return applies(c, inv, i) ? i : -1;
		if (!inv->args[i].set && applies(c, inv, i))
			return i;
	}
	return -1;
}

/* Whether option o can take the positional value v at all. */
static bool
takes(const struct cmd_opt *o, const char *v)
{
	switch (o->type) {
	case OPT_INT:
		return is_number(v);
	case OPT_BOOL: {
		bool b;

		return registry_parse_bool(v, strlen(v), &b);
	}
	case OPT_STRING:
		if (o->flags & OPT_ODDS)
			return is_number(v) || odds_one_word(v);
		return o->choices == NULL || registry_parse_choice(o, v);
	case OPT_USER:
		return true;
	}
	return true;
}

/*
 * Where a positional value goes when the option next in line cannot take
 * it: a number to the first integer option still unset after it, a word
 * past a number or yes/no option to the first text (without choices) or
 * user option still unset after it. "/tension raise 2" is "raise
 * amount:2", "/rest 3" is "rest exits:3", "/light add lantern bob" is
 * "light add lantern who:bob". A word that is no choice of a choice option
 * is left there: it is a slip, and gets its "did you mean"; but one that
 * starts with a digit, where no choice does, is a number mistyped ("/log
 * 5x"), and goes where a number would, to be refused as one. Returns the
 * option's index, or -1.
 */
static int
route(const struct command *c, const struct invocation *inv, int next, const char *v)
{
	const struct cmd_opt *o = &c->opts[next];
	bool number = is_number(v);

	if (!number && o->choices != NULL && isdigit((unsigned char)v[0])) {
		number = true;
		for (size_t i = 0; o->choices[i] != NULL; i++)
			if (isdigit((unsigned char)o->choices[i][0]))
				number = false;
	}
	if (takes(o, v) || (o->choices != NULL && !number))
		return -1;
	for (int i = next + 1; c->opts[i].name != NULL; i++) {
		const struct cmd_opt *t = &c->opts[i];

		if (inv->args[i].set || (t->flags & OPT_REST))
			continue;
		if (!applies(c, inv, i))
			continue;
		if (number
		        ? t->type == OPT_INT
		        : (t->type == OPT_STRING && t->choices == NULL && !(t->flags & OPT_ODDS)) ||
		              t->type == OPT_USER)
			return i;
	}
	return -1;
}

/*
 * Whether the positional word v, given where option next is in line, is
 * refused (with the error in out) because it holds an invisible character
 * (textsafe.h) and would, without it, be read as a number, a yes/no or a
 * choice, by next or by the option route() sends it to. Such a word is a
 * slip in a value the bot reads, not text: were it passed on to the next
 * text option, "/light add torch 2<U+200B>" would light one torch carried
 * by "2" (recheck5 F8). A word that is text either way keeps it.
 */
static bool
invisible_slip(struct invocation *inv, int next, const char *v, struct reply *out)
{
	const struct command *c = inv->cmd;
	size_t len = strlen(v);
	struct buf plain;
	int i = -1;

	if (textsafe_ok(v, len))
		return false;
	buf_init(&plain, len);
	textsafe_clean(&plain, v, len);
	if (plain.len > 0)
		i = takes(&c->opts[next], buf_str(&plain)) ? next
		                                           : route(c, inv, next, buf_str(&plain));
	buf_free(&plain);
	if (i < 0 || c->opts[i].type == OPT_USER ||
	    (c->opts[i].type == OPT_STRING && c->opts[i].choices == NULL))
		return false;
	/* v itself is no number, yes/no or choice: set_value() refuses it,
	 * naming the character */
	return set_value(inv, &c->opts[i], &inv->args[i], v, out) < 0;
}

/*
 * Whether t (of len bytes, up to its first ':') reads as an option's name
 * typed with its colon: a letter, then letters, digits, '-' or '_', at
 * most 32 bytes. Such a word that names no option of the command, where
 * no option left could take it as a value, is refused as "no option"
 * rather than as a bad value of the next one ("private:true" given to a
 * yes/no option).
 */
static bool
looks_named(const char *t, size_t len)
{
	if (len == 0 || len > 32 || !isalpha((unsigned char)t[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)t[i]) && t[i] != '-' && t[i] != '_')
			return false;
	return true;
}

/* How many words from tok[k] on are typed by position: up to the first
 * name:value word (of an option c has, or looking like one) or the end. */
static size_t
positional_words(const struct command *c, const struct token *tok, size_t k, size_t ntok)
{
	size_t n = 0;

	for (; k + n < ntok; n++) {
		const char *colon = memchr(tok[k + n].p, ':', tok[k + n].len);

		if (colon != NULL &&
		    (registry_opt_index(c, tok[k + n].p, (size_t)(colon - tok[k + n].p)) >= 0 ||
		     looks_named(tok[k + n].p, (size_t)(colon - tok[k + n].p))))
			break;
	}
	return n;
}

/*
 * Odds typed by position are one value of one or several words: how many
 * words from tok[k] on an odds option takes, and which one (*to), where
 * option p is next in line; 0 when the word goes another way. Words that
 * are odds and nothing else ("2 in 6", "2-in-6") go to the first odds
 * option left from p on, past a number one, one that applies first (else
 * one that does not, for the command to say where odds belong: "/wander
 * rest 2 in 6" is odds the rest check has not); the odds option next in line
 * with no option after it that applies takes every word typed by
 * position (so that "2 of 6" is refused as a whole); with one, a number
 * goes first to a number option after it, as route() sends numbers, and
 * two numbers ("2 6") are odds.
 */
static size_t
odds_span(const struct command *c, const struct invocation *inv, int p, const struct token *tok,
          size_t k, size_t ntok, int *to)
{
	const char *w = tok[k].unq;
	size_t left = positional_words(c, tok, k, ntok);
	bool in = left >= 2 && is_number(w) && strcasecmp(tok[k + 1].unq, "in") == 0;
	int o = -1;

	if (left == 0)
		return 0;
	if (c->opts[p].flags & OPT_ODDS)
		o = p;
	else if (in || odds_one_word(w))
		for (int pass = 0; pass < 2 && o < 0; pass++)
			for (int i = p + 1; o < 0 && c->opts[i].name != NULL; i++)
				if ((c->opts[i].flags & OPT_ODDS) && !inv->args[i].set &&
				    registry_opt_positional(c, i) &&
				    (pass == 1 || applies(c, inv, i)))
					o = i;
	if (o < 0)
		return 0;
	*to = o;
	/* where odds do not belong, a number is one word, for the command to
	 * count with the others ("/wander rest 3 5 7") */
	if (o == p && !applies(c, inv, p))
		return in ? (left < 3 ? left : 3) : 1;
	if (o == p && next_applying(c, inv, p + 1) < 0)
		return left;
	if (in)
		return left < 3 ? left : 3;
	if (odds_one_word(w))
		return 1;
	if (o != p || !is_number(w))
		return 0;
	for (int i = p + 1; c->opts[i].name != NULL; i++)
		if (c->opts[i].type == OPT_INT && !inv->args[i].set && applies(c, inv, i) &&
		    registry_opt_positional(c, i)) {
			*to = i;
			return 1;
		}
	return left >= 2 && is_number(tok[k + 1].unq) ? 2 : 1;
}

/* How many words after odds given by name as a number (tok[k],
 * "odds:2") go on with them, as one value: "in" and the word after it
 * ("odds:2 in 6", typed without quotes), else none. */
static size_t
named_odds_words(const struct command *c, const struct token *tok, size_t k, size_t ntok)
{
	size_t left = positional_words(c, tok, k + 1, ntok);

	if (left == 0 || strcasecmp(tok[k + 1].unq, "in") != 0)
		return 0;
	return left < 2 ? 1 : 2;
}

/*
 * The option a positional value v goes to when option p, next in line, is
 * the first one and holds the channel's default (struct cmd_opt's
 * channel_default): a number or odds, which no check's name is, pass it by
 * for the next option that applies, else the next one left, for the
 * command to say where it belongs ("/wander 2 6" with classic the default
 * is "/wander classic 2 6"). p itself otherwise.
 */
static int
past_default(const struct command *c, const struct invocation *inv, int p, const char *v)
{
	int q;

	if (p != 0 || channel_default(c, inv) == NULL || registry_parse_choice(&c->opts[0], v) ||
	    !(is_number(v) || isdigit((unsigned char)v[0]) || odds_one_word(v)))
		return p;
	if ((q = next_applying(c, inv, p + 1)) >= 0)
		return q;
	for (q = p + 1; c->opts[q].name != NULL && inv->args[q].set; q++)
		;
	return c->opts[q].name != NULL && registry_opt_positional(c, q) &&
	               !(c->opts[q].flags & OPT_REST)
	           ? q
	           : p;
}

/* The error for name (of len bytes) typed as an option c has not: its
 * options, and the closest of them. */
static void
no_option(struct invocation *inv, const char *name, size_t len, struct reply *out)
{
	const struct command *c = inv->cmd;
	const char *names[32];
	char typed[33];
	size_t n = 0;
	struct buf b;

	buf_init(&b, 400);
	buf_addf(&b, "'%.*s:' is no option of this command", (int)len, name);
	for (; c->opts != NULL && n < 32 && c->opts[n].name != NULL; n++)
		names[n] = c->opts[n].name;
	if (n == 0)
		buf_addf(&b, ", which takes none");
	if (n > 0) {
		buf_adds(&b, " (its options are ");
		registry_opt_list(&b, names, n);
		buf_addc(&b, ')');
	}
	snprintf(typed, sizeof(typed), "%.*s", (int)len, name);
	registry_did_you_mean(&b, "; ", typed, names, n, ":");
	usage_error(inv, out, buf_str(&b));
	buf_free(&b);
}

/*
 * Whether the word t, typed by position as the first word of option o's
 * value, is refused (with the error in out) as an option's name mistyped
 * (struct cmd_opt's OPT_NAME): "/light add torch cnt:2" lit a torch
 * carried by "cnt:2" (recheck9 F12). A player's name holds no colon, and a
 * name or a roll that does is typed in quotes; a reason or a note holds
 * colons freely, so there only a word close to one of the command's own
 * options ("reasn:" for "reason:") is taken for a slip.
 */
static bool
named_slip(struct invocation *inv, const struct cmd_opt *o, const struct token *t,
           struct reply *out)
{
	const struct command *c = inv->cmd;
	const char *colon = memchr(t->p, ':', t->len), *names[32];
	size_t len, n = 0;
	char typed[33];

	if (colon == NULL || !looks_named(t->p, (len = (size_t)(colon - t->p))))
		return false;
	if (o->type != OPT_USER && !(o->flags & OPT_NAME)) {
		if (!(o->flags & OPT_LABEL) || len < 3)
			return false;
		for (; n < 32 && c->opts[n].name != NULL; n++)
			names[n] = c->opts[n].name;
		snprintf(typed, sizeof(typed), "%.*s", (int)len, t->p);
		if (registry_suggest(typed, names, n) == NULL)
			return false;
	}
	no_option(inv, t->p, len, out);
	return true;
}

/*
 * The refusal of word, routed past the number option next, when the word
 * after it (tok[k]) finds that option unable to take it either, and the
 * option before next is free text given by position at token from: the
 * words from there on may be one value of several words typed without
 * quotes ("join Rupert Drazzorian Puddle Thumper 2"), so the refusal says
 * how to give them as one. Returns false, refusing nothing, when word
 * holds a digit (then it was the number mistyped) or the option before
 * is no free text.
 */
static bool
several_words(struct invocation *inv, int next, const char *word, const struct token *tok,
              size_t from, size_t k, struct reply *out)
{
	const struct cmd_opt *o = &inv->cmd->opts[next], *before;
	struct buf b;

	if (next == 0 || from >= k || strpbrk(word, "0123456789") != NULL || other_numeral(word))
		return false;
	before = &inv->cmd->opts[next - 1];
	if (before->type != OPT_STRING || before->choices != NULL || (before->flags & OPT_REST))
		return false;
	buf_init(&b, 400);
	opt_named(&b, o);
	buf_addf(&b, " must be a whole number from %lld to %lld (got '%.40s'); if \"",
	         (long long)o->min, (long long)o->max, word);
	for (size_t j = from; j <= k && b.len < 200; j++)
		buf_addf(&b, "%s%s", j > from ? " " : "", tok[j].unq);
	buf_addf(&b, "\" is one %s, quote it", before->name);
	usage_error(inv, out, buf_str(&b));
	buf_free(&b);
	return true;
}

/*
 * The refusal of option i given by name (tok[k]) after a word typed where
 * the number option past went was routed to it (route()) from token
 * routed: the player typed i once and may not know the word became it
 * (recheck2 F3: "join X Shadow Mage 3 type:fire"). When the option before
 * past is free text given by position from token from, the words from
 * there to the routed one may be one value of several words, and the
 * refusal gives the command with them quoted (the words after the
 * subcommands start at token used; hash..end is a '# label', or hash is
 * NULL).
 */
static void
routed_twice(struct invocation *inv, int i, int past, const struct token *tok, size_t used,
             size_t ntok, size_t from, size_t routed, size_t k, const char *hash, const char *end,
             struct reply *out)
{
	const struct command *c = inv->cmd;
	const struct cmd_opt *before = past > 0 ? &c->opts[past - 1] : NULL;
	struct buf b;

	buf_init(&b, 600);
	buf_addf(&b,
	         "'%.40s' stands where the %s goes, so it was taken as the %s, and %.*s gives "
	         "the %s again",
	         tok[routed].unq, c->opts[past].name, c->opts[i].name,
	         (int)(tok[k].len < 60 ? tok[k].len : 60), tok[k].p, c->opts[i].name);
	if (before == NULL || before->type != OPT_STRING || before->choices != NULL ||
	    (before->flags & OPT_REST) || from >= routed) {
		buf_adds(&b, "; give each option once");
		usage_error(inv, out, buf_str(&b));
		buf_free(&b);
		return;
	}
	buf_adds(&b, "; if \"");
	for (size_t j = from; j <= routed; j++)
		buf_addf(&b, "%s%s", j > from ? " " : "", tok[j].unq);
	buf_addf(&b, "\" is one %s, quote it (/", before->name);
	for (size_t d = 0; d < 3 && inv->path[d] != NULL; d++)
		buf_addf(&b, "%s%s", d > 0 ? " " : "", inv->path[d]->name);
	for (size_t j = used; j < ntok; j++) {
		bool in = j >= from && j <= routed; /* the quoted words, as read */

		buf_addf(&b, " %s%.*s%s", j == from ? "\"" : "",
		         (int)(in ? strlen(tok[j].unq) : tok[j].len), in ? tok[j].unq : tok[j].p,
		         j == routed ? "\"" : "");
	}
	if (hash != NULL)
		buf_addf(&b, " %.*s", (int)(end - hash), hash);
	buf_adds(&b, ").");
	reply_error(out, "%s", buf_str(&b));
	buf_free(&b);
}

/*
 * Where the text of rest-of-line option i, given by name at tok[k], ends:
 * at the first later word typed as another of the command's options given
 * by name ("amount:1", "table:" with nothing after it), its name unquoted
 * and outside a [label], else at the end (ntok). "/tension raise
 * reason:because amount:1" is a reason and an amount; "http://x" or
 * "ratio:3", which name no option, stay text.
 */
static size_t
named_rest_end(const struct command *c, int i, const struct token *tok, size_t k, size_t ntok)
{
	for (size_t j = k + 1; j < ntok; j++) {
		const char *colon = memchr(tok[j].p, ':', tok[j].len);
		int o;

		if (tok[j].in_bracket || colon == NULL)
			continue;
		o = registry_opt_index(c, tok[j].p, (size_t)(colon - tok[j].p));
		if (o >= 0 && o != i)
			return j;
	}
	return ntok;
}

/* Adds tok[k] to the text of rest-of-line option o: for an OPT_TYPED one,
 * after the blanks typed before it when it follows tok[last], the text's
 * last word; else (or when an option given by name, or the text's start,
 * stands between them) after one space. */
static void
rest_add(struct buf *rest, const struct cmd_opt *o, const struct token *tok, size_t k, size_t last)
{
	if ((o->flags & OPT_TYPED) && last + 1 == k)
		buf_add(rest, tok[last].p + tok[last].len,
		        (size_t)(tok[k].p - (tok[last].p + tok[last].len)));
	else
		buf_addc(rest, ' ');
	buf_add(rest, tok[k].p, tok[k].len);
}

/* Binds the tokens after the subcommands: name:value ones by name, the rest
 * by position; an OPT_REST option takes every remaining positional word and
 * the label text after a lone #. */
static int
bind_tokens(struct invocation *inv, struct token *tok, size_t ntok, size_t used, const char *hash,
            const char *end, struct reply *out)
{
	const struct command *c = inv->cmd;
	struct buf rest;
	int rest_i = -1, next = 0, p, r = -1;
	size_t span;
	struct buf words;
	bool rest_named = false;
	/* the first word of the text of a rest option given by position, how
	 * many words it has, and the last word of the text so far (ntok:
	 * none typed by position yet) */
	size_t rest_from = 0, rest_words = 0, rest_last = ntok;
	char what[300];
	/* the word routed past each option by route(): when a later word
	 * finds that number option unable to take it as well, the routed one
	 * was the slip ("join Bee fighter ٣ fire" put ٣ in type:, and fire
	 * then found only level: left), so the refusal names it */
	const char *passed[CMD_MAX_OPTS] = {0};
	/* the token each option was given by position at (ntok: none); for
	 * one given a routed word, that word's token and the option it was
	 * routed past */
	size_t at[CMD_MAX_OPTS], routed_at[CMD_MAX_OPTS];
	int routed_past[CMD_MAX_OPTS];

	for (int i = 0; i < CMD_MAX_OPTS; i++) {
		at[i] = ntok;
		routed_at[i] = ntok;
		routed_past[i] = 0;
	}

	buf_init(&rest, CMD_LINE_MAX);
	buf_init(&words, CMD_LINE_MAX);
	for (size_t k = used; k < ntok; k++) {
		const char *colon = memchr(tok[k].p, ':', tok[k].len);
		int i = -1;

		/* a word inside a [label] of the text is that text's */
		if (tok[k].in_bracket && rest_i >= 0) {
			rest_add(&rest, &c->opts[rest_i], tok, k, rest_last);
			rest_last = k;
			rest_words++;
			continue;
		}

		if (colon != NULL)
			i = registry_opt_index(c, tok[k].p, (size_t)(colon - tok[k].p));
		if (i >= 0 && (c->opts[i].flags & OPT_REST) && rest_i < 0) {
			/* A rest-of-line option given by name takes the rest of
			 * the line up to another option given by name or a #
			 * label, quotes around it removed; words typed by
			 * position after that option go on with the text, as
			 * they do after a text given by position. */
			size_t stop = named_rest_end(c, i, tok, k, ntok);
			const char *v = colon + 1, *e = hash != NULL ? hash : end;

			/* the earlier of the two (no token lies past a lone #:
			 * tokenize) */
			if (stop < ntok && tok[stop].p < e)
				e = tok[stop].p;

			while (e > v && isspace((unsigned char)e[-1]))
				e--;
			if (e - v >= 2 && *v == '"' && e[-1] == '"') {
				v++;
				e--;
			}
			rest_i = i;
			rest_named = true;
			buf_add(&rest, v, (size_t)(e - v));
			k = stop - 1;
			continue;
		}
		if (i >= 0) {
			const char *v = strchr(tok[k].unq, ':') + 1;

			/* A value given twice (type:fire type:ice, or by position
			 * and by name) is refused rather than one silently kept. */
			if (inv->args[i].set && inv->args[i].routed && routed_at[i] < ntok) {
				int past = routed_past[i];

				routed_twice(inv, i, past, tok, used, ntok,
				             past > 0 ? at[past - 1] : ntok, routed_at[i], k, hash,
				             end, out);
				goto done;
			}
			if (inv->args[i].set) {
				snprintf(what, sizeof(what),
				         "the option %s: is given twice (the second: %.*s); give "
				         "each option once",
				         c->opts[i].name, (int)(tok[k].len < 60 ? tok[k].len : 60),
				         tok[k].p);
				usage_error(inv, out, what);
				goto done;
			}
			span = (c->opts[i].flags & OPT_ODDS) && is_number(v)
			           ? named_odds_words(c, tok, k, ntok)
			           : 0;
			if (span > 0) {
				buf_reset(&words);
				buf_adds(&words, v);
				for (size_t j = k + 1; j <= k + span; j++)
					buf_addf(&words, " %s", tok[j].unq);
				v = buf_str(&words);
			}
			if (set_value(inv, &c->opts[i], &inv->args[i], v, out) < 0)
				goto done;
			inv->args[i].named = true;
			k += span;
			continue;
		}
		if (rest_i >= 0) {
			rest_add(&rest, &c->opts[rest_i], tok, k, rest_last);
			rest_last = k;
			rest_words++;
			continue;
		}
		while (c->opts != NULL && c->opts[next].name != NULL && inv->args[next].set)
			next++;
		if (c->opts == NULL || c->opts[next].name == NULL ||
		    !registry_opt_positional(c, next)) {
			if (colon != NULL && looks_named(tok[k].p, (size_t)(colon - tok[k].p))) {
				no_option(inv, tok[k].p, (size_t)(colon - tok[k].p), out);
				goto done;
			}
			unexpected(what, sizeof(what), tok[k].unq);
			taken_before(c, inv, at, routed_at, k, what, sizeof(what));
			usage_error(inv, out, what);
			goto done;
		}
		if (c->opts[next].flags & OPT_REST) {
			if (named_slip(inv, &c->opts[next], &tok[k], out))
				goto done;
			rest_i = next;
			rest_from = k;
			rest_last = k;
			rest_words = 1;
			buf_add(&rest, tok[k].p, tok[k].len);
			continue;
		}
		/* the option next in line that applies; a number none is left
		 * for goes to the next one all the same, for the command to
		 * say where it belongs (struct cmd_opt's when) */
		if ((p = next_applying(c, inv, next)) < 0) {
			if (!is_number(tok[k].unq)) {
				if (colon != NULL &&
				    looks_named(tok[k].p, (size_t)(colon - tok[k].p))) {
					no_option(inv, tok[k].p, (size_t)(colon - tok[k].p), out);
					goto done;
				}
				unexpected(what, sizeof(what), tok[k].unq);
				taken_before(c, inv, at, routed_at, k, what, sizeof(what));
				usage_error(inv, out, what);
				goto done;
			}
			p = next;
		}
		p = past_default(c, inv, p, tok[k].unq);
		if (invisible_slip(inv, p, tok[k].unq, out))
			goto done;
		if ((span = odds_span(c, inv, p, tok, k, ntok, &i)) > 0) {
			buf_reset(&words);
			for (size_t j = k; j < k + span; j++)
				buf_addf(&words, "%s%s", j > k ? " " : "", tok[j].unq);
			if (set_value(inv, &c->opts[i], &inv->args[i], buf_str(&words), out) < 0)
				goto done;
			if (i < CMD_MAX_OPTS)
				at[i] = k;
			k += span - 1;
			continue;
		}
		if ((i = route(c, inv, p, tok[k].unq)) >= 0) {
			if (named_slip(inv, &c->opts[i], &tok[k], out))
				goto done;
			if (p < CMD_MAX_OPTS && passed[p] == NULL)
				passed[p] = tok[k].unq;
			if (set_value(inv, &c->opts[i], &inv->args[i], tok[k].unq, out) < 0)
				goto done;
			inv->args[i].routed = true;
			inv->args[i].quoted = whole_quoted(&tok[k]);
			if (i < CMD_MAX_OPTS) {
				routed_at[i] = k;
				routed_past[i] = p;
			}
			continue;
		}
		if (colon != NULL && !takes(&c->opts[p], tok[k].unq) &&
		    looks_named(tok[k].p, (size_t)(colon - tok[k].p))) {
			no_option(inv, tok[k].p, (size_t)(colon - tok[k].p), out);
			goto done;
		}
		if (p < CMD_MAX_OPTS && passed[p] != NULL && c->opts[p].type == OPT_INT &&
		    !takes(&c->opts[p], tok[k].unq) &&
		    (several_words(inv, p, passed[p], tok, p > 0 ? at[p - 1] : ntok, k, out) ||
		     set_value(inv, &c->opts[p], &inv->args[p], passed[p], out) < 0))
			goto done;
		if (named_slip(inv, &c->opts[p], &tok[k], out) ||
		    set_value(inv, &c->opts[p], &inv->args[p], tok[k].unq, out) < 0)
			goto done;
		inv->args[p].quoted = whole_quoted(&tok[k]);
		if (p < CMD_MAX_OPTS)
			at[p] = k;
	}
	/* The text typed as one quoted word is that text, quotes removed, as
	 * when it is given by name (recheck3 F4: /vendor meet "Old Greta"
	 * met a vendor named with its quotes, whom /bargain "Old Greta" did
	 * not find). */
	if (!rest_named && rest_words == 1 && whole_quoted(&tok[rest_from])) {
		buf_reset(&rest);
		buf_adds(&rest, tok[rest_from].unq);
	}
	if (hash != NULL) {
		if (rest_i < 0 && c->opts != NULL) {
			for (int i = 0; c->opts[i].name != NULL; i++)
				if ((c->opts[i].flags & OPT_REST) && !inv->args[i].set)
					rest_i = i;
		}
		if (rest_i < 0) {
			usage_error(inv, out, "this command takes no '# label'");
			goto done;
		}
		if (rest.len > 0) {
			buf_addc(&rest, ' ');
		} else if (c->opts[rest_i].flags & OPT_LABEL) {
			const char *t = hash + 1;

			while (t < end && isspace((unsigned char)*t))
				t++;
			if (t < end)
				hash = t;
		}
		buf_add(&rest, hash, (size_t)(end - hash));
	}
	if (rest_i >= 0) {
		if (set_value(inv, &c->opts[rest_i], &inv->args[rest_i], buf_str(&rest), out) < 0)
			goto done;
		inv->args[rest_i].named = rest_named;
		inv->args[rest_i].quoted =
		    !rest_named && rest_words == 1 && hash == NULL && whole_quoted(&tok[rest_from]);
	}
	r = registry_parse_check_required(inv, out);
done:
	buf_free(&words);
	buf_free(&rest);
	return r;
}

/* A line's words split by registry_parse_before_channel() and kept for
 * registry_parse_later() (struct invocation's words): the tokens (their
 * raw text in the line, their unquoted copies in store), how many name
 * the command, and where the label starts and the line ends. */
struct registry_words {
	struct token tok[MAX_TOKENS];
	size_t ntok, used;
	const char *hash, *end;
	char store[CMD_LINE_MAX + MAX_TOKENS];
};

/* Keeps the ntok tokens of a line (their copies in store) in inv->words. */
static void
keep_words(struct invocation *inv, const struct token *tok, size_t ntok, size_t used,
           const char *hash, const char *end, const char *store)
{
	struct registry_words *w = xmalloc(sizeof(*w));

	memcpy(w->store, store, sizeof(w->store));
	for (size_t i = 0; i < ntok; i++) {
		w->tok[i] = tok[i];
		w->tok[i].unq = w->store + (tok[i].unq - store);
	}
	w->ntok = ntok;
	w->used = used;
	w->hash = hash;
	w->end = end;
	free(inv->words);
	inv->words = w;
}

/* registry_parse_in(), or with later registry_parse_before_channel(). */
static int
parse_line(const struct command *const *table, const char *line, size_t len, struct invocation *inv,
           struct reply *out, bool later)
{
	struct token tok[MAX_TOKENS];
	char store[CMD_LINE_MAX + MAX_TOKENS], q[120];
	size_t ntok = 0, used = 1;
	const char *hash;
	int r = -1;

	memset(inv->path, 0, sizeof(inv->path));
	inv->cmd = NULL;
	if (len > CMD_LINE_MAX) {
		reply_error(out,
		            "That message is %zu bytes long; a command may be at most %d bytes.",
		            len, CMD_LINE_MAX);
		goto done;
	}
	if (tokenize(line, len, tok, &ntok, &hash, store) < 0) {
		reply_error(out, "That command has more than %d words; shorten it.", MAX_TOKENS);
		goto done;
	}
	if (ntok == 0) {
		reply_error(out, "No command given; try ");
		reply_cmd(out, RS_BAD, "help", NULL);
		reply_add(out, RS_BAD, ".");
		goto done;
	}
	inv->path[0] = registry_find_in(table, tok[0].unq, strlen(tok[0].unq));
	if (inv->path[0] == NULL) {
		reply_error(out, "Unknown command %s", quoted(tok[0].unq, q, sizeof(q)));
		if (!registry_unknown_add(table, tok[0].unq, strlen(tok[0].unq),
		                          inv->from != NULL && inv->from->platform != NULL &&
		                              strcmp(inv->from->platform, "console") == 0,
		                          out)) {
			reply_add(out, RS_BAD, " (try ");
			reply_cmd(out, RS_BAD, "help", NULL);
			reply_add(out, RS_BAD, ").");
		}
		goto done;
	}
	if (select_subs(inv, tok, ntok, &used, out) < 0)
		goto done;
	if (inv->cmd->fn == NULL) {
		usage_error(inv, out, "a subcommand is needed");
		goto done;
	}
	if (later && registry_has_channel_default(inv->cmd)) {
		keep_words(inv, tok, ntok, used, hash, line + len, store);
		return 1;
	}
	r = bind_tokens(inv, tok, ntok, used, hash, line + len, out);
done:
	if (r < 0)
		invocation_clear(inv);
	return r;
}

int
registry_parse_in(const struct command *const *table, const char *line, size_t len,
                  struct invocation *inv, struct reply *out)
{
	return parse_line(table, line, len, inv, out, false);
}

int
registry_parse_before_channel(const struct command *const *table, const char *line, size_t len,
                              struct invocation *inv, struct reply *out)
{
	return parse_line(table, line, len, inv, out, true);
}

int
registry_parse_later(struct invocation *inv, struct reply *out)
{
	struct registry_words *w = inv->words;
	int r;

	inv->words = NULL;
	r = bind_tokens(inv, w->tok, w->ntok, w->used, w->hash, w->end, out);
	free(w);
	if (r < 0)
		invocation_clear(inv);
	return r;
}
