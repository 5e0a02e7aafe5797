/*
 * store_sqlite: the SQLite backend of store_backend.h, one database file in
 * WAL mode.
 *
 * - Tables (schema 4): channels(key, last_used, version, rec, generation,
 *   at_start) and users(key, version, rec, generation), rowid tables with a unique
 *   key; logs(key, seq, rec), WITHOUT ROWID, a channel's log entries
 *   (store_backend.h); gone(kind, key, at), WITHOUT ROWID, when each row was
 *   deleted (0 channels, 1 users; a channel's at is its last_used, a user's
 *   the time of the commit), so that the databases of a bot's shard
 *   processes can be merged (store_merge.h); handled_ids(id, at, answer), the
 *   marks of the platform events handled (STORE_HANDLED rows) whose key
 *   is the decimal text of a number from 0 to 2^63 - 1 (Discord's
 *   interaction ids), keyed by that number, and handled(key, at, answer)
 *   those of any other key (both made when missing, as a database written
 *   before them has none). An older database is brought to schema 4 when
 *   it is opened: schema 0 (no
 *   generation column) gets the column, every row at generation 0; schema
 *   1's tables WITHOUT ROWID are copied into rowid tables (a record past
 *   about 1 KB took overflow pages of its own there) and the file is
 *   vacuumed; schema 2's channels get at_start; schema 3's marks keyed by a
 *   number move to handled_ids. A channel's at_start is 1
 *   when it is loaded at every start (store_row's at_start), 0 when not,
 *   NULL when not known (a row brought from an older schema, or copied in
 *   by code that does not set it): load_active loads it and stores what
 *   its record says.
 * - One connection does the writing. Commits and loads by key run on a
 *   thread of the backend's own, one at a time in the order they were asked
 *   (the connection is used by one thread at a time), each handed over with
 *   one wake of that thread; a second, read-only connection serves
 *   store_sqlite_load_now on the loop (WAL: a reader never waits for a
 *   writer); a third makes the everysec checkpoint on libuv's pool, beside
 *   the commits (WAL: no commit waits for its fsyncs). Snapshots use
 *   connections of their own on the pool.
 * - fsync policy onto synchronous: always FULL, everysec NORMAL with a
 *   PASSIVE checkpoint on the pool once a second after commits, no OFF.
 * - A damaged file (failing quick_check, or empty) is refused at open and
 *   never written; so is a file, or its log, that delver may not write
 *   (bot/store/statedir.h), rather than refusing every change later.
 *
 * Ownership: store_sqlite_open returns a backend that its ops->close frees.
 */
#ifndef DELVER_STORE_SQLITE_H
#define DELVER_STORE_SQLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/config/config.h"
#include "bot/store/store_backend.h"

#define STORE_SQLITE_SCHEMA 4 /* PRAGMA user_version of the current tables */

/* Opens (or creates, mode 0600) the database at path. Returns NULL with one
 * sentence in err naming the file, the reason and what to do, and errno as
 * persist_open says (PERSIST_DAMAGED, STATEDIR_UNSAFE, or another). */
struct store_backend *store_sqlite_open(uv_loop_t *loop, const char *path, enum fsync_policy fsync,
                                        char *err, size_t errlen);

/* The SQL that makes the current tables where they are missing (CREATE
 * TABLE IF NOT EXISTS ...; it sets no user_version): for files that other
 * code writes for this backend to read (snapshots of PostgreSQL). */
const char *store_sqlite_schema(void);

/* For code that writes channel records into a database beside the
 * backend (a restore, a merge): makes the at_start of the channels of db's
 * main database that where selects (SQL after WHERE, ?1 bound to key when
 * key is not NULL) not known, so that the next start loads them and
 * stores what their records say. A database of an older schema has no
 * at_start yet (opening it brings every row's to not known). Returns 0,
 * or -1 with db's error. */
struct sqlite3;
int store_sqlite_forget_at_start(struct sqlite3 *db, const char *where, const char *key);

/* Which of the log files SQLite keeps beside the database at path in WAL
 * mode (path-wal, path-shm) are there now, in had: SQLite makes both as
 * soon as it reads a file whose header says WAL mode, and a close without
 * a checkpoint (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE) leaves them. */
void store_sqlite_logs_present(const char *path, bool had[2]);
/* Once every connection to path is closed after it was refused: removes
 * the log files that were not there before (had, from
 * store_sqlite_logs_present), and a -wal only while empty (a read writes
 * none). One that was there before is never touched: it may hold changes
 * not yet in the database, which an operator needs to mend it. */
void store_sqlite_logs_remove_made(const char *path, const bool had[2]);

/* Its operations (to tell a SQLite backend from another). */
const struct store_backend_ops *store_sqlite_ops(void);

/* The synchronous setting for the policy, from the next commit on. */
void store_sqlite_set_fsync(struct store_backend *b, enum fsync_policy fsync);

/* Reads one row by key now, on the calling thread, through the read-only
 * connection (it never waits for a commit under way). Calls row() when one
 * is stored. Returns 1 (found), 0 (none), or -1 with one sentence in err. */
int store_sqlite_load_now(struct store_backend *b, enum store_kind kind, const char *key,
                          int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
                          size_t errlen);

/* Calls fn with the key of every channel stored but not used at or after
 * used_since whose at_start is 0: those load_active leaves in the store,
 * when called before it; on the calling thread: at start-up. Returns 0, or
 * -1 with one sentence in err. */
int store_sqlite_idle_keys(struct store_backend *b, int64_t used_since,
                           void (*fn)(const char *key, void *ctx), void *ctx, char *err,
                           size_t errlen);

/* Calls fn with the key, time and answer length of the newest marks of
 * handled events stored (STORE_HANDLED), limit at most, newest first, on
 * the calling thread: at start-up. Returns 0, or -1 with one sentence in
 * err. */
int store_sqlite_marks(struct store_backend *b, size_t limit,
                       void (*fn)(const char *key, int64_t at, size_t answer_len, void *ctx),
                       void *ctx, char *err, size_t errlen);

/* Writes rows[0..n) in one transaction with synchronous FULL, now, on the
 * calling thread, ignoring generations (each row is stored at generation
 * 1): the import of an old state directory at open. Returns 0, or -1 with
 * err. */
int store_sqlite_write_now(struct store_backend *b, const struct store_row *rows, size_t n,
                           char *err, size_t errlen);

/* Everysec checkpoints started since open. */
uint64_t store_sqlite_checkpoints(const struct store_backend *b);

/* Commits run on the loop since open (under everysec, when no job was
 * under way and the write lock was free); the others ran on the writer's
 * thread. */
uint64_t store_sqlite_commits_here(const struct store_backend *b);

/* Copies the database at from into to, which must not exist (it is made
 * 0600; anything there, a link included, is refused) with the backup API,
 * fsynced. Returns 0, or -1 with err and errno (ENOSPC when the disk is
 * full). */
int store_sqlite_copy(const char *from, const char *to, char *err, size_t errlen);

#endif
