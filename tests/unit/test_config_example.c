/*
 * config/delver.conf.example cannot drift from the parser: it must load,
 * every key the parser knows must be shown in its section, and the values
 * it shows as defaults must be config_defaults()'s.
 *
 * The example's convention: "#key = value" shows a key at its default (or,
 * for a required key, an example), "#[section]" a section to enable. The
 * test removes those '#'s and loads the result too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/config/config.h"
#include "bot/config/config_keys.h"
#include "rules/base/buf.h"
#include "tests/unit/helpers/slurp.h"

#define EXAMPLE "config/delver.conf.example"

static char err[1024];

static void
assert_same_str(const char *got, const char *want)
{
	if (want == NULL)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

/* The example with every "#key = " and "#[section]" line uncommented. */
static char *
uncommented(void)
{
	char *text = slurp(EXAMPLE, NULL), *line = text;
	struct buf b;

	buf_init(&b, 1 << 20);
	while (*line != '\0') {
		char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
		size_t w = strspn(line + 1, "abcdefghijklmnopqrstuvwxyz_");
		bool key = line[0] == '#' && w > 0 && strncmp(line + 1 + w, " =", 2) == 0;

		if (key || strncmp(line, "#[", 2) == 0)
			buf_add(&b, line + 1, n - 1);
		else
			buf_add(&b, line, n);
		line += n;
	}
	free(text);
	return buf_take(&b);
}

static struct config *
load_text(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct config *c;

	assert_non_null(f);
	c = config_load_stream(f, EXAMPLE, CONFIG_SECRETS_NONE, err, sizeof(err));
	fclose(f);
	if (c == NULL)
		fail_msg("%s", err);
	return c;
}

static void
assert_bot_defaults(const struct config_bot *got, const struct config_bot *want)
{
	assert_same_str(got->state_dir, want->state_dir);
	assert_int_equal(got->snapshot_interval, want->snapshot_interval);
	assert_int_equal(got->fsync, want->fsync);
	assert_int_equal(got->evict_after, want->evict_after);
	assert_int_equal(got->log_level, want->log_level);
	assert_same_str(got->gm_role, want->gm_role);
}

/* Every [discord] field but enabled and the required token_source. */
static void
assert_discord_defaults(const struct config_discord *got, const struct config_discord *want)
{
	assert_same_str(got->application_id, want->application_id);
	assert_same_str(got->gateway_url, want->gateway_url);
	assert_same_str(got->rest_url, want->rest_url);
	assert_int_equal(got->shard_first, want->shard_first);
	assert_int_equal(got->shard_last, want->shard_last);
	assert_int_equal(got->shard_count, want->shard_count);
	assert_same_str(got->dev_guild, want->dev_guild);
	assert_int_equal(got->intents, want->intents);
	assert_int_equal(got->tls_verify, want->tls_verify);
	assert_int_equal(got->compress, want->compress);
}

static void
test_example_as_shipped_is_the_defaults(void **state)
{
	char *text = slurp(EXAMPLE, NULL);
	struct config *c = load_text(text), *d = config_defaults();

	assert_bot_defaults(&c->bot, &d->bot);
	assert_false(c->discord.enabled);
	assert_discord_defaults(&c->discord, &d->discord);
	assert_int_equal(c->nirc, 0);
	assert_int_equal(c->console.enabled, d->console.enabled);
	assert_same_str(c->console.user, d->console.user);
	assert_same_str(c->console.channel, d->console.channel);
	config_free(c);
	config_free(d);
	free(text);
}

static void
test_example_uncommented_states_the_defaults(void **state)
{
	char *text = uncommented();
	struct config *c = load_text(text), *d = config_defaults();
	struct config_irc irc;

	assert_bot_defaults(&c->bot, &d->bot);
	assert_true(c->discord.enabled);
	assert_non_null(c->discord.token_source); /* required: an example */
	assert_discord_defaults(&c->discord, &d->discord);

	assert_int_equal(c->nirc, 1);
	config_irc_init(&irc, "libera");
	assert_string_equal(c->irc[0].network, irc.network);
	assert_non_null(c->irc[0].host);        /* required: an example */
	assert_non_null(c->irc[0].nick);        /* required: an example */
	assert_int_equal(c->irc[0].port, 6697); /* stated as the default with TLS */
	assert_int_equal(c->irc[0].tls, irc.tls);
	assert_int_equal(c->irc[0].tls_verify, irc.tls_verify);
	assert_int_equal(c->irc[0].nalt_nicks, irc.nalt_nicks);
	assert_string_equal(c->irc[0].username, c->irc[0].nick); /* stated: the nick */
	assert_same_str(c->irc[0].realname, irc.realname);
	assert_same_str(c->irc[0].sasl_user, irc.sasl_user);
	assert_same_str(c->irc[0].password_source, irc.password_source);
	assert_int_equal(c->irc[0].nchannels, irc.nchannels);
	assert_same_str(c->irc[0].prefix, irc.prefix);
	assert_int_equal(c->irc[0].flood_burst, irc.flood_burst);
	assert_int_equal(c->irc[0].flood_interval_ms, irc.flood_interval_ms);
	assert_int_equal(c->irc[0].max_lines, irc.max_lines);
	assert_int_equal(c->irc[0].ping_interval, irc.ping_interval);
	assert_int_equal(c->irc[0].ping_timeout, irc.ping_timeout);
	config_irc_clear(&irc);

	/* "enabled = yes" is the stated default of a console-only setup. */
	assert_true(c->console.enabled);
	assert_same_str(c->console.user, d->console.user);
	assert_same_str(c->console.channel, d->console.channel);
	config_free(c);
	config_free(d);
	free(text);
}

struct doc_check {
	const char *text;
	int missing;
};

/* Checks that "key = value" or "key =" appears (uncommented) after the section's header and
 * before the next header. */
static void
check_documented(const char *section, const char *key, void *ctx)
{
	struct doc_check *dc = ctx;
	char header[64], want[64];
	const char *start, *end, *hit;

	if (strcmp(section, "irc") == 0)
		snprintf(header, sizeof(header), "\n[irc.");
	else
		snprintf(header, sizeof(header), "\n[%s]\n", section);
	start = strstr(dc->text, header);
	if (start == NULL) {
		print_error("section [%s] is not in %s\n", section, EXAMPLE);
		dc->missing++;
		return;
	}
	end = strstr(start + 2, "\n[");
	if (end == NULL)
		end = start + strlen(start);
	snprintf(want, sizeof(want), "\n%s =", key);
	for (hit = strstr(start, want); hit != NULL; hit = strstr(hit + 1, want))
		if (hit[strlen(want)] == ' ' || hit[strlen(want)] == '\n')
			break;
	if (hit == NULL || hit > end) {
		print_error("[%s] %s is not documented in %s\n", section, key, EXAMPLE);
		dc->missing++;
	}
}

static void
test_example_documents_every_key(void **state)
{
	struct doc_check dc = {uncommented(), 0};

	config_keys_each(check_documented, &dc);
	assert_int_equal(dc.missing, 0);
	free((char *)dc.text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_example_as_shipped_is_the_defaults),
	    cmocka_unit_test(test_example_uncommented_states_the_defaults),
	    cmocka_unit_test(test_example_documents_every_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
