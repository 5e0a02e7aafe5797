/*
 * app_config: the configuration as the running app sees it: the file (or,
 * when no --config was given and the default file does not exist, the
 * defaults) with the command line's overrides applied; and --check-config.
 */
#ifndef DELVER_APP_CONFIG_H
#define DELVER_APP_CONFIG_H

#include <stddef.h>

#include "bot/app.h"
#include "bot/config/config.h"

/* Loads and resolves the configuration for o. Returns it (the caller frees
 * it with config_free), or NULL with one sentence in err. */
struct config *app_config_load(const struct app_opts *o, char *err, size_t errlen);

/* Logs a warning for each change from old to now that only a restart
 * applies (the state directory, which transports run). */
void app_config_note_restart(const struct config *old, const struct config *now);

#endif
