/*
 * store_pg_snapshot: writes a consistent copy of PostgreSQL's channels and
 * users tables into an SQLite file, for store_pg's snapshot (on a worker
 * thread: every call here blocks).
 *
 * The file has the tables of the SQLite backend, channels and users, each
 * (key, last_used, version, rec, generation), so `delver --restore FILE`
 * takes it. Both tables are read in one REPEATABLE READ READ ONLY
 * transaction: the image of one moment, while other connections commit.
 * The file is written as PATH.part, fsynced, renamed to PATH and its
 * directory fsynced; a failure removes PATH.part and leaves PATH alone.
 */
#ifndef DELVER_STORE_PG_SNAPSHOT_H
#define DELVER_STORE_PG_SNAPSHOT_H

#include <stddef.h>

/* Connects with libpq's keywords and values (PQconnectdbParams, the dbname
 * expanded) and writes the snapshot to path. Returns 0, or -1 with one
 * sentence in err. */
int store_pg_snapshot_write(const char *const *keywords, const char *const *values,
                            const char *path, char *err, size_t errlen);

#endif
