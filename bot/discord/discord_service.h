/*
 * discord_service: the Discord transport (bot/discord/discord.h) as an app
 * service, started when the configuration has a [discord] section.
 */
#ifndef DELVER_DISCORD_SERVICE_H
#define DELVER_DISCORD_SERVICE_H

#include <stddef.h>

struct app;

/* Starts the transport and registers the service (nothing without
 * [discord]). Returns 0, or -1 with one sentence in err. */
int discord_service_start(struct app *a, char *err, size_t errlen);

/* The exit status (bot/app.h) for what stopped Discord for good: a fatal
 * gateway close code, or 401 for the token refused on REST. */
int discord_service_exit_status(int code);

#endif
