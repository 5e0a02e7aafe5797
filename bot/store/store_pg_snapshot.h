/*
 * store_pg_snapshot: writes a consistent copy of PostgreSQL's channels,
 * users and logs tables into an SQLite file, for store_pg's snapshot (on a
 * worker thread: every call here blocks).
 *
 * The file has the tables of the SQLite backend at its current schema
 * (store_sqlite.h), so `delver --restore FILE` takes it. The tables are
 * read in one REPEATABLE READ READ ONLY
 * transaction: the image of one moment, while other connections commit.
 * The file is written as PATH.part, fsynced, renamed to PATH and its
 * directory fsynced; a failure removes PATH.part and leaves PATH alone.
 *
 * Paced, so that the event loop finds a core free when it wakes (on two
 * cores, measured by tests/bench/bench_store_pg.c): each table is read
 * through a cursor, STORE_PG_SNAPSHOT_BATCH rows per FETCH, so that the
 * server's process and this thread take turns (the server waits for the
 * next FETCH, this thread for the rows) rather than filling both cores; and
 * this thread works in bursts of about STORE_PG_SNAPSHOT_SLICE_US, the
 * FETCHes' waits included, each followed by a sleep STORE_PG_SNAPSHOT_REST
 * times as long as it took, so that together they use at most about half
 * of one core and the loop never waits behind them for long (the
 * scheduler lets a running thread finish its slice, a few ms, before a
 * woken one; no priority can be lowered under the unit's system call
 * filter). On a busy machine a burst lasts its slice of wall time sooner,
 * so the copy backs off. Every STORE_PG_SNAPSHOT_WRITEBACK_ROWS rows the
 * kernel's writeback of the file is started (sync_file_range), so that the
 * final fsync has little left: on its own it walked 196 MB of dirty pages
 * for 130 ms in runs of 2 to 4 ms that no pace could split. The price: the
 * snapshot takes about three times as long as the copy at full speed.
 */
#ifndef DELVER_STORE_PG_SNAPSHOT_H
#define DELVER_STORE_PG_SNAPSHOT_H

#include <stddef.h>

#define STORE_PG_SNAPSHOT_BATCH          250  /* rows per FETCH */
#define STORE_PG_SNAPSHOT_SLICE_US       500  /* a burst of work */
#define STORE_PG_SNAPSHOT_REST           1.0  /* the sleep after it, as a multiple of its time */
#define STORE_PG_SNAPSHOT_WRITEBACK_ROWS 8192 /* rows between two starts of writeback */

/* Connects with libpq's keywords and values (PQconnectdbParams, the dbname
 * expanded) and writes the snapshot to path. Returns 0, or -1 with one
 * sentence in err. */
int store_pg_snapshot_write(const char *const *keywords, const char *const *values,
                            const char *path, char *err, size_t errlen);

#endif
