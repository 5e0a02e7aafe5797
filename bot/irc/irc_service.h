/*
 * irc_service: IRC as an app service, with one network (bot/irc/irc_net.h)
 * per [irc.<network>] section of the configuration.
 */
#ifndef DELVER_IRC_SERVICE_H
#define DELVER_IRC_SERVICE_H

#include <stddef.h>

struct app;

/* Starts the configured networks and registers the service "irc" (nothing
 * when no network is configured). Returns 0, or -1 with one sentence in
 * err. */
int irc_service_start(struct app *a, char *err, size_t errlen);

#endif
