/*
 * store_sqlite_snapshot: store_sqlite's snapshot (store_backend.h): a copy
 * of the database (store_sqlite_copy) on a thread of libuv's pool, checked
 * (store_check.h) and only then given its name; a failed one leaves no
 * file under that name. The backend counts the snapshots running, and
 * does not close before they are over.
 *
 * Nothing outside bot/store/store_sqlite*.c includes this header.
 */
#ifndef DELVER_STORE_SQLITE_SNAPSHOT_H
#define DELVER_STORE_SQLITE_SNAPSHOT_H

#include "bot/store/store_backend.h"

/* The backend's snapshot: writes path (through path.tmp); done runs on the
 * loop once it is over. */
void store_sqlite_snapshot(struct store_backend *base, const char *path, store_done_cb done,
                           void *ctx);

#endif
