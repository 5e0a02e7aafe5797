/*
 * store: opens the backend the configuration chooses ([store] backend),
 * for persist (store_backend.h is the contract both backends keep).
 *
 * Ownership: the returned backend is freed by its ops->close; the options
 * are copied by the backend.
 */
#ifndef DELVER_STORE_H
#define DELVER_STORE_H

#include <stddef.h>

#include <uv.h>

#include "bot/config/config.h"
#include "bot/store/store_backend.h"

struct store_opts {
	enum store_engine backend;
	const char *dir;      /* sqlite: the state directory */
	const char *conninfo; /* postgresql: libpq's conninfo */
	const char *password; /* postgresql: NULL for libpq's own (PGPASSWORD, ~/.pgpass) */
};

/* Fills o from the configuration's [store] section (the strings stay c's). */
void store_opts_from_config(struct store_opts *o, const struct config *c, const char *dir);

/*
 * Opens the backend o names (blocking: before the loop serves anyone).
 * Returns it, or NULL with one sentence in err saying what is wrong and
 * what to do.
 */
struct store_backend *store_open(uv_loop_t *loop, const struct store_opts *o, char *err,
                                 size_t errlen);

/* A copy of r in one allocation (its key, record, NUL-terminated, and log
 * entries with it), freed with free(). */
struct store_row *store_row_dup(const struct store_row *r);

#endif
