/*
 * console_service: the local console (bot/console/console.h) as an app
 * service, started when [console] is enabled.
 */
#ifndef DELVER_CONSOLE_SERVICE_H
#define DELVER_CONSOLE_SERVICE_H

#include <stddef.h>

struct app;

/* Starts the console and registers the service (nothing when the console
 * is off). Returns 0, or -1 with one sentence in err. */
int console_service_start(struct app *a, char *err, size_t errlen);

#endif
