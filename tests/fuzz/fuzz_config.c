/*
 * fuzz_config: arbitrary bytes as a configuration file. Secrets are not
 * resolved (no environment or files). Checks, beyond the sanitizers: a
 * refused file has exactly one line of message naming the file, and an
 * accepted one keeps every limit the rest of delver relies on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_accepted(const struct config *c)
{
	const struct config_discord *d = &c->discord;

	if (c->nirc > CONFIG_IRC_MAX || c->bot.snapshot_interval < 1 ||
	    c->bot.log_level > LOG_LEVEL_DEBUG)
		abort();
	/* every shard or a range, the range within a count set beside it */
	if (d->shard_count < 0 || d->shard_count > 65535 ||
	    (d->shard_first < 0) != (d->shard_last < 0) ||
	    (d->shard_first >= 0 && (d->shard_first > d->shard_last || d->shard_count == 0 ||
	                             d->shard_last >= d->shard_count)))
		abort();
	if (c->discord.enabled && c->discord.token_source == NULL)
		abort();
	for (size_t i = 0; i < c->nirc; i++) {
		const struct config_irc *irc = &c->irc[i];

		if (irc->host == NULL || irc->nick == NULL || irc->username == NULL ||
		    irc->port < 1 || irc->port > 65535 || irc->nchannels > CONFIG_CHANNELS_MAX ||
		    irc->nalt_nicks > CONFIG_NICKS_MAX)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";
	struct config *c;
	FILE *f;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f == NULL)
		return 0;
	c = config_load_stream(f, "fuzz.conf", CONFIG_SECRETS_NONE, err, sizeof(err));
	fclose(f);
	if (c != NULL) {
		check_accepted(c);
		config_free(c);
	} else if (strncmp(err, "fuzz.conf:", 10) != 0 || strchr(err, '\n') != NULL) {
		abort();
	}
	return 0;
}
