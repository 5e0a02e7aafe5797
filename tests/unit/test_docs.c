/*
 * The user's manual names every command and subcommand of the command
 * table, so the two cannot drift: a command added without its docs fails
 * here. Run from the repository's top (as make unit does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ctype.h>

#include "bot/config/config.h"
#include "bot/config/config_keys.h"
#include "commands/core/invocation.h"
#include "commands/core/registry.h"
#include "commands/core/registry_parse.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "tests/unit/helpers/slurp.h"

/* The documents a user reads, joined: README.md and the manual pages. */
static const char *const doc_files[] = {"README.md", "bot/man/delver.7.md", "bot/man/delver.8",
                                        "bot/man/delver.conf.5.md"};

static char *
read_docs(void)
{
	struct buf all;

	buf_init(&all, 16u << 20);
	for (size_t i = 0; i < sizeof(doc_files) / sizeof(doc_files[0]); i++) {
		size_t n;
		char *text = slurp_try(doc_files[i], &n);

		if (text == NULL)
			continue; /* a page that does not exist yet */
		buf_add(&all, text, n);
		buf_add(&all, "\n", 1);
		free(text);
	}
	{
		char *text = xstrdup(buf_str(&all));

		buf_free(&all);
		return text;
	}
}

/* True when text holds "/name" (or "/name sub") as a whole word: followed
 * by neither a letter nor a digit nor '_'. Roff escapes "\-" are not used
 * in command names, so the same search serves the manual pages. */
static int
mentions(const char *text, const char *what)
{
	size_t n = strlen(what);

	for (const char *p = strstr(text, what); p != NULL; p = strstr(p + 1, what)) {
		char c = p[n];

		if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_')
			return 1;
	}
	return 0;
}

static void
every_command_is_documented(void **state)
{
	char *docs = read_docs();
	char missing[4096] = "";
	size_t used = 0;

	(void)state;
	assert_true(strlen(docs) > 1000);
	for (size_t i = 0; command_table[i] != NULL; i++) {
		const struct command *c = command_table[i];
		char want[128];

		snprintf(want, sizeof(want), "/%s", c->name);
		if (!mentions(docs, want) && used < sizeof(missing) - 200)
			used +=
			    (size_t)snprintf(missing + used, sizeof(missing) - used, " %s", want);
		for (const struct command *s = c->subs; s != NULL && s->name != NULL; s++) {
			snprintf(want, sizeof(want), "/%s %s", c->name, s->name);
			if (!mentions(docs, want) && used < sizeof(missing) - 200)
				used += (size_t)snprintf(missing + used, sizeof(missing) - used,
				                         " '%s'", want);
		}
	}
	if (used > 0)
		fail_msg("not in README.md or the manual pages:%s", missing);
	free(docs);
}

struct key_check {
	const char *page;
	char missing[2048];
	size_t used;
};

static void
check_key(const char *section, const char *key, void *ctx)
{
	struct key_check *k = ctx;
	char want[96];

	snprintf(want, sizeof(want), "`%s`", key);
	if (strstr(k->page, want) == NULL && k->used < sizeof(k->missing) - 100)
		k->used += (size_t)snprintf(k->missing + k->used, sizeof(k->missing) - k->used,
		                            " [%s] %s", section, key);
}

/* delver.conf(5) describes every key of the configuration's key table. */
static void
every_config_key_is_documented(void **state)
{
	struct key_check k = {.page = slurp("bot/man/delver.conf.5.md", NULL)};

	(void)state;
	config_keys_each(check_key, &k);
	if (k.used > 0)
		fail_msg("not in bot/man/delver.conf.5.md:%s", k.missing);
	free((char *)k.page);
}

/* The command families whose every line the manual shows is checked
 * against the command table (every_shown_command_exists). */
static const char *const shown_families[] = {"fungeon", "thwacko", "xp", NULL};

/* Whether word (n bytes) stands for a value in a usage line rather than
 * being typed as it is: <name>, [level], CATEGORY, N, ±N, an ellipsis. */
static bool
placeholder(const char *w, size_t n)
{
	size_t upper = 0;

	if (n == 0 || strchr("<[", w[0]) != NULL || memchr(w, '|', n) != NULL ||
	    (n >= 3 && memcmp(w, "...", 3) == 0) || strncmp(w, "…", 3) == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		upper += isupper((unsigned char)w[i]) || w[i] == '_';
	return upper == n;
}

/* Checks one usage line ("fungeon trap add <name> <design>", alternatives
 * as a|b, or a family alone: "fungeon monster"): its subcommand path names
 * subcommands, in order, and each name: it gives is an option of the
 * command it reaches. Appends what is wrong to bad. */
static void
check_usage(const char *line, struct buf *bad)
{
	const struct command *c = NULL;
	const char *p = line;
	int depth = 0;

	while (*p != '\0') {
		size_t n = strcspn(p, " ");
		const char *colon = memchr(p, ':', n);

		if (depth == 0) {
			c = registry_find(p, n);
			if (c == NULL) {
				buf_addf(bad, "\n  %s: no command %.*s", line, (int)n, p);
				return;
			}
		} else if (c->subs != NULL && depth < 3) {
			const struct command *s = NULL;
			size_t alt = strcspn(p, "| ");

			/* each of a|b|c names a subcommand; the first is followed */
			for (const char *a = p; a < p + n; a += alt + (a[alt] == '|')) {
				const struct command *one;

				alt = strcspn(a, "| ");
				one = registry_find_sub(c, a, alt);
				if (one == NULL && !placeholder(a, alt)) {
					buf_addf(bad, "\n  %s: /%s has no subcommand %.*s", line,
					         c->name, (int)alt, a);
					return;
				}
				if (s == NULL)
					s = one;
			}
			if (s == NULL)
				return; /* a placeholder for the subcommand */
			c = s;
		} else if (colon != NULL && !placeholder(p + (*p == '['), (size_t)(colon - p)) &&
		           registry_opt_index(c, p + (*p == '['),
		                              (size_t)(colon - p) - (*p == '[')) < 0) {
			buf_addf(bad, "\n  %s: /%s has no option %.*s", line, c->name,
			         (int)(colon - p), p);
			return;
		}
		depth++;
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* Whether line only names a command or subcommand ("fungeon join",
 * "fungeon monster add", "fungeon monster"): a name in prose, not a line
 * as typed. */
static bool
names_only(const char *line)
{
	const struct command *c = NULL;

	for (const char *p = line; *p != '\0';) {
		size_t n = strcspn(p, " ");

		c = c == NULL         ? registry_find(p, n)
		    : c->subs != NULL ? registry_find_sub(c, p, n)
		                      : NULL;
		if (c == NULL)
			return false;
		p += n;
		while (*p == ' ')
			p++;
	}
	return c != NULL;
}

/* Checks one command line shown in the manual (without its prefix): a
 * usage line is read for its names (check_usage); a line as typed must
 * parse as it stands. */
static void
check_shown(const char *line, struct buf *bad)
{
	struct invocation inv;
	struct reply *out;
	bool usage = false;

	for (const char *p = line; *p != '\0';) {
		size_t n = strcspn(p, " ");
		const char *colon = memchr(p, ':', n);

		if (colon != NULL)
			usage |= *p == '[' || placeholder(colon + 1, n - (size_t)(colon + 1 - p));
		else
			usage |= placeholder(p, n);
		p += n;
		while (*p == ' ')
			p++;
	}
	usage |= names_only(line);
	if (usage) {
		check_usage(line, bad);
		return;
	}
	memset(&inv, 0, sizeof(inv));
	out = reply_new();
	if (registry_parse_in(command_table, line, strlen(line), &inv, out) < 0)
		buf_addf(bad, "\n  %s: %s", line, reply_error_text(out));
	invocation_clear(&inv);
	reply_free(out);
}

/*
 * Every line of a shown family (shown_families) the manual gives, in a
 * code span (`...`, roff's bold), a transcript ("alice> /fungeon ...") or
 * an IRC log ("<alice> !fungeon ..."), names commands, subcommands and
 * options the bot has, and when it is a line as typed, the bot parses it.
 * Play-test 2 found /fungeon annoy and /fungeon damage in the manual, which
 * the bot never had.
 */
static void
every_shown_command_exists(void **state)
{
	struct buf bad;
	int seen = 0;

	(void)state;
	buf_init(&bad, 1u << 16);
	for (size_t f = 0; f < sizeof(doc_files) / sizeof(doc_files[0]); f++) {
		char *text = slurp(doc_files[f], NULL);

		for (const char *p = text; *p != '\0'; p++) {
			const char *end, *start = p + 1, *nl;
			bool span = false, roff = false;
			char line[512];
			size_t k = 0, n;
			int fam = -1;

			if ((*p != '/' && *p != '!') ||
			    (p > text && !strchr(" `>(\"", p[-1]) &&
			     !(p - text >= 3 && !strncmp(p - 3, "\\fB", 3))))
				continue;
			for (int i = 0; shown_families[i] != NULL && fam < 0; i++) {
				n = strlen(shown_families[i]);
				if (!strncmp(start, shown_families[i], n) &&
				    (start[n] == ' ' || start[n] == '`' || start[n] == '\\' ||
				     start[n] == '\n'))
					fam = i;
			}
			if (fam < 0)
				continue;
			/* where the line ends: its code span, or the line */
			nl = strchr(p, '\n');
			{
				const char *bop = p; /* the paragraph's start: spans may wrap */
				int ticks = 0;

				while (bop > text + 1 && !(bop[-1] == '\n' && bop[-2] == '\n'))
					bop--;
				for (const char *q = bop; q < p; q++) {
					if (!strncmp(q, "```", 3)) /* a fence, not a span */
						q += 2;
					else
						ticks += *q == '`';
				}
				span = ticks % 2 == 1;
				roff = p - text >= 3 && !strncmp(p - 3, "\\fB", 3);
			}
			if (span)
				end = strchr(start, '`');
			else if (roff)
				end = strstr(start, "\\fR");
			else
				end = nl;
			if (end == NULL)
				end = start + strlen(start);
			/* a command quoted in a reply's text ends at the reply's
			 * next clause ("Undid alice's /fungeon adjust Alba
			 * hits:-12: Fungeon state is ...") */
			if (span && p[-1] != '`') {
				const char *cut = strstr(start, ": ");

				if (cut != NULL && cut < end)
					end = cut;
			}
			for (const char *q = start; q < end && k + 1 < sizeof(line); q++) {
				if (*q == '\\' && q + 1 < end && q[1] == '-') /* roff's \- */
					continue;
				line[k++] = *q == '\n' ? ' ' : *q;
			}
			while (k > 0 && strchr(" .,;:)\"", line[k - 1]) != NULL)
				k--;
			line[k] = '\0';
			/* a table cell's \| is a | */
			for (char *q = line; (q = strstr(q, "\\|")) != NULL;)
				memmove(q, q + 1, strlen(q));
			check_shown(line, &bad);
			seen++;
		}
		free(text);
	}
	assert_true(seen > 50);
	if (bad.len > 0) {
		fprintf(stderr,
		        "command lines in README.md or the manual pages the bot does not "
		        "have:%s\n",
		        buf_str(&bad));
		fail_msg("%d shown command lines checked; the bot lacks those above", seen);
	}
	buf_free(&bad);
}

/* delver(7)'s "A room, played" is the start of the transcript it names,
 * line for line, so what it shows is what the bot says. */
static void
the_room_played_is_the_transcript(void **state)
{
	char *page = slurp("bot/man/delver.7.md", NULL);
	char *want = slurp("tests/integration/transcripts/room.expected", NULL);
	const char *block = strstr(page, "## A room, played"), *end;
	size_t n;

	(void)state;
	assert_non_null(block);
	block = strstr(block, "```\n");
	assert_non_null(block);
	block += 4;
	end = strstr(block, "```\n");
	assert_non_null(end);
	n = (size_t)(end - block);
	assert_true(n > 1000);
	if (strncmp(block, want, n) != 0)
		fail_msg("delver(7)'s room differs from room.expected at byte %zu",
		         strspn(block, want));
	free(page);
	free(want);
}

/* recheck2 F6: delver(7)'s paragraph on Discord's threads and DMs says a
 * DM with the bot is the user's, GM without a claim, as /gm there answers
 * (commands/gm/cmd_gm.c: "you are its GM without claiming the seat"); it
 * said nobody was GM there until the seat was claimed. */
static void
a_dm_is_its_users_own(void **state)
{
	char *docs = read_docs();
	const char *from = strstr(docs, "**Threads, forum posts and DMs (Discord).**");
	const char *to = from != NULL ? strstr(from, "\n\n") : NULL;
	char *par;

	(void)state;
	assert_non_null(to);
	par = xstrdup(from);
	par[to - from] = '\0';
	assert_non_null(strstr(par,
	                       "A DM with the bot is yours:\nyou are its GM without claiming a "
	                       "seat"));
	assert_null(strstr(par, "until you claim"));
	free(par);
	free(docs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_command_is_documented),
	    cmocka_unit_test(every_config_key_is_documented),
	    cmocka_unit_test(every_shown_command_exists),
	    cmocka_unit_test(the_room_played_is_the_transcript),
	    cmocka_unit_test(a_dm_is_its_users_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
