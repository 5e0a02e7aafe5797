/*
 * app_config: the configuration as the running app sees it: the file (or,
 * when no --config was given and the default file does not exist, the
 * defaults) with the command line's overrides applied; and the two runs
 * that read it and stop without starting the bot: --check-config and
 * --restore.
 */
#ifndef DELVER_APP_CONFIG_H
#define DELVER_APP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "bot/app.h"
#include "bot/config/config.h"

/* Loads and resolves the configuration for o. Returns it (the caller frees
 * it with config_free), or NULL with one sentence in err. */
struct config *app_config_load(const struct app_opts *o, char *err, size_t errlen);

/* Logs a warning for each change from old to now that only a restart
 * applies (the state directory, which transports run). */
void app_config_note_restart(const struct config *old, const struct config *now);

/* True, with one sentence in err, when c gives delver nothing to serve:
 * no transport at all (wherever it starts), or, as a service (INVOCATION_ID
 * set: systemd sets it for each), the console alone with nothing to read
 * (standard input closed, /dev/null or an empty file) and no --console.
 * delver then exits with APP_EXIT_CONFIG instead of stopping at once, or
 * idling, without a word. */
bool app_config_start_refusal(const struct app_opts *o, const struct config *c, char *err,
                              size_t errlen);

/* --check-config: loads and validates the configuration, with its secrets,
 * prints the verdict (noting when a service would refuse it) and returns
 * the exit status (0 valid, APP_EXIT_CONFIG not, or when it enables no
 * transport at all, which every start refuses). */
int app_config_check(const struct app_opts *o);
/* --restore FILE: replaces the state directory's database (the one the
 * configuration and options name) by a copy of FILE (persist_restore);
 * with --channel KEY (o->channel), only that channel's record
 * (restore_channel). Returns APP_EXIT_OK, or APP_EXIT_FAILURE with the error logged. */
int app_config_restore(const struct app_opts *o, const char *file);

#endif
