/*
 * store: opens the backend the configuration chooses ([store] backend),
 * for persist (store_backend.h is the contract both backends keep).
 *
 * Ownership: the returned backend is freed by its ops->close; the options
 * are copied by the backend.
 */
#ifndef DELVER_STORE_H
#define DELVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* What a backend's load_active gathers to store afterwards: the channels
 * whose stored at_start is not what their row said, each with the
 * generation it was read at (a row written since keeps what its writer
 * stored). */
struct store_at_start_fix {
	char **keys;
	bool *at_start;
	uint64_t *generation;
	size_t n, cap;
};

/* Adds key (copied) unless stored, known (stored_known) and equal to
 * at_start already. */
void store_at_start_fix_add(struct store_at_start_fix *f, const char *key, bool stored_known,
                            bool stored, bool at_start, uint64_t generation);
void store_at_start_fix_free(struct store_at_start_fix *f);

#endif
