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

#include "bot/config/config.h"
#include "bot/config/config_keys.h"
#include "commands/core/registry.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* The documents a user reads, joined: README.md and the manual pages. */
static const char *const doc_files[] = {"README.md", "bot/man/delver.7.md", "bot/man/delver.8",
                                        "bot/man/delver.conf.5.md"};

static char *
read_docs(void)
{
	struct buf all;

	buf_init(&all, 16u << 20);
	for (size_t i = 0; i < sizeof(doc_files) / sizeof(doc_files[0]); i++) {
		FILE *f = fopen(doc_files[i], "r");
		char chunk[4096];
		size_t n;

		if (f == NULL)
			continue; /* a page that does not exist yet */
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&all, chunk, n);
		fclose(f);
		buf_add(&all, "\n", 1);
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

/* Reads one file whole, or fails the test. */
static char *
read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	struct buf b;
	char chunk[4096];
	size_t n;
	char *text;

	assert_non_null(f);
	buf_init(&b, 1u << 20);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	text = xstrdup(buf_str(&b));
	buf_free(&b);
	return text;
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
	struct key_check k = {.page = read_file("bot/man/delver.conf.5.md")};

	(void)state;
	config_keys_each(check_key, &k);
	if (k.used > 0)
		fail_msg("not in bot/man/delver.conf.5.md:%s", k.missing);
	free((char *)k.page);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_command_is_documented),
	    cmocka_unit_test(every_config_key_is_documented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
