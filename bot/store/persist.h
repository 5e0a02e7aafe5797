/*
 * persist: makes the state durable in one SQLite database, DIR/delver.db
 * (WAL mode), written through from memory.
 *
 * - Tables: channels(key, last_used, version, rec) and users(key, version,
 *   rec); rec is the record's line as record.h encodes it (without the
 *   newline), version its format version (RECORD_VERSION when written; older
 *   ones are migrated when read). A channel with nothing to keep has no row.
 * - Every record the dispatcher reports as changed is committed before the
 *   reply is released: the records of one command in one transaction
 *   (persist_flush), a record handed to a hook on its own in a transaction of
 *   its own. The fsync policy maps onto SQLite's synchronous setting:
 *     always   FULL:   the WAL is fsynced at every commit; nothing
 *                      acknowledged is lost, even by a power cut;
 *     everysec NORMAL: commits are not fsynced; a checkpoint on the thread
 *                      pool once a second fsyncs the WAL and the database,
 *                      so a power cut loses about the last second; a crash
 *                      of delver alone loses nothing;
 *     no       OFF:    nothing is fsynced; a crash of delver alone loses
 *                      nothing, a power cut can lose any recent change.
 * - Idle channels and users: a channel or user untouched for evict_after
 *   seconds is dropped from memory (its row is always current) and read
 *   back by key when next used (state_set_loader, state_set_user_loader).
 *   At open, every user and every channel used within evict_after is
 *   loaded. A user with nothing to keep (no style) has no row (a row that
 *   becomes empty is deleted) and is not kept in memory.
 * - Failures: a failed commit is logged, the hook (or persist_flush) reports
 *   the records as not durable (the reply then says the change may be
 *   lost), and they are written again from memory every second until that
 *   works. A full disk (SQLITE_FULL) in persist_flush instead refuses the
 *   change: the transaction is rolled back, its records leave memory (they
 *   read back as last committed) and persist_flush returns a negative
 *   number (the reply becomes an error); the next change after space
 *   returns is saved as usual.
 *
 * - Snapshot files: every snapshot_interval seconds when anything was
 *   committed since the last one, a worker thread copies the database with
 *   SQLite's online backup API (a consistent image; the loop keeps
 *   committing) to DIR/snapshots/delver-<UTC time>.db (written as .tmp,
 *   renamed, the directory fsynced), keeping the snapshot_keep newest.
 *
 * Files in the state directory (created 0700; files 0600): delver.db,
 * delver.db-wal, delver.db-shm (SQLite's), lock (held with flock while
 * running), snapshots/.
 *
 * Ownership: persist_open returns a struct persist that persist_close
 * frees; the state must outlive it and is not freed by it.
 */
#ifndef DELVER_PERSIST_H
#define DELVER_PERSIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/config/config.h"
#include "commands/dispatch.h"

#define PERSIST_DB_FILE "delver.db"

struct persist;

struct persist_opts {
	const char *dir;         /* NULL: $STATE_DIRECTORY, else ./state */
	enum fsync_policy fsync; /* default FSYNC_EVERYSEC */
	int snapshot_interval;   /* seconds between snapshot files, 1 to 86400; default 60 */
	int snapshot_keep;       /* snapshot files kept, 1 to 10000; default 24 */
	int evict_after;         /* idle seconds before a channel may leave memory;
	                            0: never; default 86400 */
	bool salvage;            /* accepted for compatibility; the database is never
	                            changed to start */
};

struct persist_stats {
	uint64_t appends;           /* records committed */
	uint64_t append_failures;   /* records whose write or commit failed */
	uint64_t refused;           /* records of changes refused on a full disk */
	uint64_t retry_pending;     /* records waiting to be written again */
	uint64_t checkpoints;       /* everysec checkpoints started */
	uint64_t snapshots;         /* snapshot files written */
	uint64_t snapshot_failures; /* snapshot files that could not be written */
	double last_snapshot_ms;    /* the last one, on the worker thread */
	uint64_t evicted;           /* channels dropped from memory */
	uint64_t loaded;            /* channels read back on demand */
	uint64_t users_evicted;     /* users dropped from memory */
	uint64_t users_loaded;      /* users read back on demand */
};

/* Fills o with the defaults (bot/persist_opts.c). */
void persist_opts_default(struct persist_opts *o);
/* The directory when none is given: the first of $STATE_DIRECTORY's
 * ':'-separated entries, else "./state". Static storage. */
const char *persist_default_dir(void);
/* Sets one option from command-line text: name is "state-dir", "fsync",
 * "snapshot-interval" or "evict-after". Returns 0, or -1 with one sentence
 * in err saying what is allowed. value must outlive o. */
int persist_opt(struct persist_opts *o, const char *name, const char *value, char *err,
                size_t errlen);

/* DIR/delver.db. Returns 0, or -1 when it does not fit. */
int persist_db_path(char *out, size_t size, const char *dir);

/*
 * Creates or opens the state directory, takes its lock, opens (or creates)
 * the database and loads st (which must be empty) from it. Returns NULL with
 * err (one message naming the file and reason, and what to do) when it
 * cannot.
 */
struct persist *persist_open(uv_loop_t *loop, struct state *st, const struct persist_opts *o,
                             char *err, size_t errlen);

/*
 * Replaces the database of dir (NULL: the default) by a copy of file (a
 * snapshot file, or any delver database), for `delver --restore FILE`: file
 * must pass SQLite's quick_check and hold the tables; the database in use
 * and its log move into DIR/replaced-<UTC time>/ (never removed). Takes the
 * directory's lock, so a running delver is refused. Returns 0, or -1 with
 * one sentence in err (nothing changed unless it says so).
 */
int persist_restore(const char *dir, const char *file, char *err, size_t errlen);

/* Points the dispatcher's hooks and the state's loader at p. */
void persist_attach(struct persist *p, struct dispatch *d);

/* The hooks (ctx is the struct persist): commit the record (inside
 * persist_flush: write it in its transaction); 0, or -1 when it could not be
 * made durable as the policy promises. */
int persist_channel(struct channel *ch, void *ctx);
int persist_user(struct user *u, void *ctx);
/* Commits every touched record in one transaction (the dispatcher calls it
 * after each command). Returns the number that are not durable (kept for a
 * retry), or a negative number when a full disk refused them (see
 * Failures above). */
int persist_flush(struct persist *p);

/* Starts a snapshot file now. Returns 0, or -1 when one is running. */
int persist_snapshot(struct persist *p);
/* True while a snapshot file is being written. */
bool persist_busy(const struct persist *p);

/* Drops idle channels now (the timer does it every minute, or every
 * evict_after seconds when that is shorter); returns how many. */
size_t persist_evict(struct persist *p);
void persist_get_stats(const struct persist *p, struct persist_stats *s);

/* Applies new fsync, snapshot_interval, snapshot_keep and evict_after values
 * at once (the directory is fixed at open). */
void persist_reconfigure(struct persist *p, const struct persist_opts *o);

/*
 * Closes p: waits for a running checkpoint or snapshot, commits what is left, closes the
 * database, releases the lock and frees p; then calls done(ctx) from the
 * loop. Nothing may use p after the call.
 */
void persist_close_async(struct persist *p, void (*done)(void *ctx), void *ctx);
/* The same, running the loop until it is over: only outside the loop's
 * callbacks (tests, tools). */
void persist_close(struct persist *p);

#endif
