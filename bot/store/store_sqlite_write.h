/*
 * store_sqlite_write: rows written on store_sqlite's writing connection,
 * in one transaction each call (the writer's thread, or the loop when no
 * job is under way: at start-up, and a commit under everysec).
 *
 * Nothing outside bot/store/store_sqlite*.c includes this header.
 */
#ifndef DELVER_STORE_SQLITE_WRITE_H
#define DELVER_STORE_SQLITE_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "bot/store/store.h"

struct sqlite_backend;

/* Writes rows[0..n) (or plain[0..n) when rows is NULL) in one transaction,
 * each checked against its generation (store_backend.h) unless check is
 * false; fills status when not NULL (all STORE_FAILED when it could not
 * commit, STORE_FULL when the disk is full; when a row conflicts, the
 * transaction is rolled back: those rows STORE_CONFLICT, the others
 * STORE_NOT_WRITTEN). With begun, the transaction is the one
 * store_sqlite_try_begin opened. Returns 0, -1 with err, or -2 with err
 * after a conflict. */
int store_sqlite_write_rows(struct sqlite_backend *b, struct store_row *const *rows,
                            const struct store_row *plain, size_t n, enum store_status *status,
                            bool check, bool begun, char *err, size_t errlen);

/* Opens the write transaction without waiting for another connection's
 * lock: 0, or -1 when it is held (or the BEGIN failed), nothing begun. */
int store_sqlite_try_begin(struct sqlite_backend *b);

/* Stores each at_start of f, in one transaction; the records, and so their
 * generations, stay as they are. Returns 0, or -1 with one sentence in err
 * (a full disk says how much room the start needs). */
int store_sqlite_write_at_start(struct sqlite_backend *b, const struct store_at_start_fix *f,
                                char *err, size_t errlen);

#endif
