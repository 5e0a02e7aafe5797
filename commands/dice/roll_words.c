/* roll_words: options typed among a roll's words; see roll_words.h. */
#include "commands/dice/roll_words.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/core/registry_parse.h"
#include "rules/base/buf.h"
#include "rules/base/utf8.h"
#include "rules/dice/dice.h"

/* The offset of the first word of text[i, end) that starts outside any
 * "[label]" (at 0 or after a space); end when there is none. */
static size_t
next_word(const char *text, size_t i, size_t end)
{
	for (; i < end; i++) {
		if (text[i] == '[') {
			const char *rb = memchr(text + i, ']', end - i);

			if (rb == NULL)
				return end;
			i = (size_t)(rb - text);
			continue;
		}
		if (i == 0 || text[i - 1] == ' ')
			return i;
	}
	return end;
}

const char *
roll_words_option(const char *text, const char *name)
{
	const char *hash = dice_label_find(text, NULL, NULL);
	size_t end = hash != NULL ? (size_t)(hash - text) : strlen(text), k = strlen(name);

	for (size_t i = 0; (i = next_word(text, i, end)) < end; i++)
		if (end - i > k && strncmp(text + i, name, k) == 0 && text[i + k] == ':')
			return text + i;
	return NULL;
}

int
roll_words_find(const char *text, size_t from, const char *name, bool *value, char *out,
                size_t outlen, char *bad, size_t badlen)
{
	size_t n = strlen(text), k = strlen(name);

	for (size_t i = from; i + k + 1 <= n; i++) {
		size_t v = i + k + 1, e = v, cut = i;

		if ((i > from && text[i - 1] != ' ') || strncasecmp(text + i, name, k) != 0 ||
		    text[i + k] != ':')
			continue;
		while (e < n && text[e] != ' ' && text[e] != ';')
			e++;
		if (!registry_parse_bool(text + v, e - v, value)) {
			snprintf(bad, badlen, "%.*s", (int)(e - i < 40 ? e - i : 40), text + i);
			return -1;
		}
		/* The word goes with the space before it (or, first in the
		 * text, the one after it). */
		if (cut > from && text[cut - 1] == ' ')
			cut--;
		else if (e < n && text[e] == ' ')
			e++;
		snprintf(out, outlen, "%.*s%s", (int)cut, text, text + e);
		return 1;
	}
	return 0;
}

int
roll_words_in_label(const char *text, const char *name, bool *value, char *out, size_t outlen,
                    char *bad, size_t badlen)
{
	const char *hash = dice_label_find(text, NULL, NULL);
	size_t h, n;
	int r;

	if (hash == NULL)
		return 0;
	h = (size_t)(hash - text);
	r = roll_words_find(text, h + 1, name, value, out, outlen, bad, badlen);
	if (r != 1)
		return r;
	/* A label that was only the option goes, with its '#'. */
	n = strlen(out);
	if (h < n && strspn(out + h + 1, " ") == n - h - 1) {
		while (h > 0 && out[h - 1] == ' ')
			h--;
		out[h] = '\0';
	}
	return 1;
}

void
roll_words_bad(struct reply *out, const char *cmd, const char *name, const char *bad)
{
	struct buf words;

	buf_init(&words, 100);
	registry_parse_bool_words(&words);
	reply_error(out, "'%s' in the label of /%s asks for the %s option, which takes %s", bad,
	            cmd, name, buf_str(&words));
	buf_free(&words);
}

void
roll_words_twice(struct reply *out, const char *cmd, const char *name, bool given)
{
	reply_error(out,
	            "The %s option of /%s is given twice, as %s:%s and in the label as %s:%s; "
	            "give it once.",
	            name, cmd, name, given ? "true" : "false", name, given ? "false" : "true");
}

bool
roll_words_typo(const struct invocation *inv, const char *typed, struct reply *out)
{
	const char *names[CMD_MAX_OPTS], *best, *rest = "expression";
	const char *hash = dice_label_find(typed, NULL, NULL);
	size_t n = 0, end = hash != NULL ? (size_t)(hash - typed) : strlen(typed);
	bool labelled = false;
	struct buf list;

	for (const struct cmd_opt *o = inv->cmd->opts; o != NULL && o->name != NULL; o++) {
		if (o->flags & OPT_REST)
			rest = o->name;
		else if (n < CMD_MAX_OPTS)
			names[n++] = o->name;
		if (strcmp(o->name, "label") == 0)
			labelled = true;
	}
	for (size_t i = 0; (i = next_word(typed, i, end)) < end; i++) {
		size_t w = 0, col;
		char word[33];

		while (i + w < end && w < sizeof(word) - 1 && islower((unsigned char)typed[i + w]))
			w++;
		if (w == 0 || typed[i + w] != ':')
			continue;
		memcpy(word, typed + i, w);
		word[w] = '\0';
		col = 1 + utf8_count(typed, i);
		buf_init(&list, 256);
		registry_opt_list(&list, names, n);
		best = registry_suggest(word, names, n);
		reply_error(
		    out, "'%s:' at column %zu of the %s is no option of /%s (its options are %s)",
		    word, col, rest, inv->cmd->name, buf_str(&list));
		if (best != NULL)
			reply_add(out, RS_BAD, "; did you mean %s:?", best);
		else if (!labelled && strcmp(word, "label") == 0)
			reply_add(out, RS_BAD,
			          "; a label goes after ' # ' in the %s, as in 8d6 # fire.", rest);
		else
			reply_add(out, RS_BAD, ".");
		buf_free(&list);
		return true;
	}
	return false;
}
