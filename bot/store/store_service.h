/*
 * store_service: persistence (bot/store/persist.h) as an app service. It is
 * the first starter in app.c, so the state is loaded before any transport
 * takes a command, and it drains last, committing what is left. It reads the
 * [bot] keys and their command-line overrides; SIGHUP applies new fsync,
 * snapshot_interval, snapshot_keep and evict_after values.
 */
#ifndef DELVER_STORE_SERVICE_H
#define DELVER_STORE_SERVICE_H

#include <stddef.h>

struct app;

/* Opens the store and registers the service. Returns 0, or -1 with one
 * sentence in err (the state could not be opened: nothing else starts). */
int store_service_start(struct app *a, char *err, size_t errlen);

#endif
