/*
 * persist: makes the state durable in a store backend (store_backend.h:
 * SQLite by default, bot/store/store_sqlite.h: one database DIR/delver.db in
 * WAL mode; or PostgreSQL, bot/store/store_pg.h, opened by store_open for
 * [store] backend = postgresql), written through from memory.
 *
 * - Rows: one per channel and per user (store_backend.h); rec is the
 *   record's line as store_record.h encodes it (without the newline), version its
 *   format version (written as STORE_RECORD_VERSION; store_record.h reads it and the versions
 *   from STORE_RECORD_OLDEST on, and refuses any other). A channel with nothing to keep has
 *   no row.
 * - Requests: persist is the dispatcher's store (persist_store_ops, given to
 *   dispatch_set_store with the struct persist): it holds every request in
 *   flight, runs it when its records are in memory, and answers it once
 *   what it changed is committed (persist_queue.h), so no reply
 *   acknowledges a change that is not committed.
 * - Group commit: the records a request touched are taken when it has run;
 *   the records touched in one loop turn go to the backend as one
 *   transaction, run off the loop (SQLite: on libuv's thread pool). At most
 *   one transaction is in flight; what is touched meanwhile waits and grows
 *   into the next. A request that changed nothing commits nothing.
 * - The fsync policy maps onto SQLite's synchronous setting:
 *     always   FULL:   the WAL is fsynced at every commit; nothing
 *                      acknowledged is lost, even by a power cut;
 *     everysec NORMAL: commits are not fsynced; a checkpoint on the thread
 *                      pool once a second fsyncs the WAL and the database,
 *                      so a power cut loses about the last second; a crash
 *                      of delver alone loses nothing;
 *     no       OFF:    nothing is fsynced; a crash of delver alone loses
 *                      nothing, a power cut can lose any recent change.
 * - Idle channels and users: one untouched for evict_after seconds and
 *   not waiting for a commit is dropped from memory (its row is current)
 *   and read back by key when next used (state_set_loader; for SQLite a
 *   synchronous read on a read-only connection of its own, which never
 *   waits for a commit; for another backend an asynchronous read that the
 *   request waits for, persist_queue.h). At open, every user, every
 *   channel used within evict_after and every channel whose state asks
 *   for it at every start (channel_at_start, stored beside its record as
 *   the row's at_start) are loaded.
 * - Failures: a failed commit is logged, the held replies of that
 *   transaction's commands say the change may be lost, and the records are
 *   written again from memory every second until that works. A row whose
 *   generation moved on (another process wrote it: a fleet of shards on
 *   PostgreSQL) is a conflict, and the backend writes nothing of its batch:
 *   that change is not kept, nor any change of a command linked to it (one
 *   that changed that record, every record such a command changed, and so
 *   on, in this batch or collected for the next): those records leave
 *   memory with every change made to them here since, the held replies of
 *   those commands say the change was not kept, and the records are read
 *   back by key for their next use (see persist_open_backend). The rest of
 *   the batch is sent again at once, so a command's changes are kept or
 *   dropped together and the other commands' replies are as usual. A full disk (SQLite's
 * SQLITE_FULL) refuses instead: every change not committed yet leaves memory (its records read back
 * as last committed), the held replies of the commands that made them become an error (lost < 0),
 * one error line is logged, and the next commit after space returns is saved as usual.
 *
 * - Snapshot files: every snapshot_interval seconds when anything was
 *   committed since the last one, the backend copies the database off the
 *   loop (SQLite's online backup API: a consistent image; the loop keeps
 *   committing) to DIR/snapshots/delver-<UTC time>.db (written as .tmp,
 *   renamed, the directory fsynced), then compressed on a thread of libuv's
 *   pool into delver-<UTC time>.db.gz (bot/store/snapfile.h), keeping the
 *   snapshot_keep newest; and
 *   once more at close, after the last commit, when anything was committed
 *   since the last one (snapshot_on_stop).
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
#include <errno.h>
#include <stdint.h>

#include <uv.h>

#include "bot/config/config.h"
#include "bot/store/persist_opts.h"
#include "bot/store/store_backend.h"
#include "commands/core/dispatch.h"

#define PERSIST_DB_FILE "delver.db"
/* How long the mark that a platform event was handled is kept (seconds):
 * Discord's interaction tokens live 15 minutes, and a replay comes within
 * its resume window, shorter than that. */
#define PERSIST_MARK_SECONDS (15 * 60)
/* Users known to have no row (not SQLite: see persist_open_backend), kept
 * at most; past it the least recently used are forgotten. */
#define PERSIST_ABSENT_MAX 16384

struct persist;

struct persist_stats {
	uint64_t appends;           /* records committed */
	uint64_t commits;           /* transactions handed to the backend */
	uint64_t held;              /* replies held for a commit */
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
	uint64_t reads;             /* reads by key started (SQLite's are synchronous) */
	uint64_t conflicts;         /* records another process wrote first */
	uint64_t handled_elsewhere; /* commands whose event another process handled
	                               first: not kept here, answered there */
	uint64_t absent;            /* users known to have no row, so not read before
	                               each command (not SQLite's) */
};

/* DIR/delver.db. Returns 0, or -1 when it does not fit. */
int persist_db_path(char *out, size_t size, const char *dir);

/* The errno of persist_open when the database, or a record in it, is
 * damaged (or was written by a newer delver): a restart cannot mend it. */
#define PERSIST_DAMAGED EBADMSG

/*
 * Creates or opens the state directory (bot/store/statedir.h: made with
 * its parents, refused when others may write it or delver may not), takes
 * its lock, opens (or creates) the database and loads st (which must be
 * empty) from it. Returns NULL with err (one message naming the file and
 * reason, and what to do) when it cannot, and errno PERSIST_DAMAGED, or
 * STATEDIR_UNSAFE (the state cannot be kept there safely: read-only, open
 * to others), or another value for what may pass (the lock is held by
 * another delver, a server cannot be reached).
 */
struct persist *persist_open(uv_loop_t *loop, struct state *st, const struct persist_opts *o,
                             char *err, size_t errlen);

/*
 * The same on a backend the caller opened (another engine, or a test's):
 * p owns be from the call on (closed by persist_close, or at once on
 * failure). Only a SQLite backend reads records back on the loop: with
 * another, a record not in memory (evicted, not used within evict_after at
 * open, left after a conflict, or written by another process) is read by
 * key asynchronously, and a request that needs it waits for the read
 * (persist_queue.h); when the read fails, the requests waiting for it are
 * refused ("cannot be read right now") and the next one reads it again. A
 * user found to have no row is remembered as absent (struct fetch in
 * persist_int.h), so a user who holds nothing is read once, not before
 * each command. A record that left memory after a conflict is read back
 * at once.
 */
struct persist *persist_open_backend(uv_loop_t *loop, struct state *st,
                                     const struct persist_opts *o, struct store_backend *be,
                                     char *err, size_t errlen);

/* Takes every record touched outside a command (a tool's or a test's own
 * changes to the state) into the next commit. */
void persist_collect(struct persist *p);
/* True when nothing is waiting to be committed, being committed or held. */
bool persist_settled(const struct persist *p);

/* The marks of events handled more than PERSIST_MARK_SECONDS ago go with
 * the next commit (the timer does it every minute). */
void persist_expire(struct persist *p);
/* Drops idle channels now (the timer does it every minute, or every
 * evict_after seconds when that is shorter); returns how many. */
size_t persist_evict(struct persist *p);
void persist_get_stats(const struct persist *p, struct persist_stats *s);

/* Applies new fsync, snapshot_interval, snapshot_keep and evict_after values
 * at once (the directory is fixed at open). */
void persist_reconfigure(struct persist *p, const struct persist_opts *o);

/*
 * Closes p: waits for the commit and snapshot under way, commits what is
 * left, writes the stop snapshot (snapshot_on_stop), closes the backend,
 * releases the lock and frees p; then calls done(ctx, lost) from the
 * loop. Changes that failed are tried again first, in up to ten rounds
 * within stop_reach_ms, each once the backend has reached its server (a
 * server away is reached again at once, not after its backoff; SQLite
 * has none to reach). lost is the number of records whose changes could
 * still not be saved (logged in one line): 0 when every change is saved.
 * Nothing may use p after the call.
 */
void persist_close_async(struct persist *p, void (*done)(void *ctx, unsigned lost), void *ctx);
/* The same, running the loop until it is over: only outside the loop's
 * callbacks (tests, tools). Returns lost. */
unsigned persist_close(struct persist *p);

/* A close to wait for: done once it is over, lost then as done's. */
struct persist_close_wait {
	bool done;
	unsigned lost;
};
/* persist_close in two halves, for a caller that runs the loop itself
 * between them (a test interleaving a store's answers with the close):
 * persist_close_begin starts closing p (persist_close_async) with w as
 * its completion, setting w->done false; persist_close_wait runs loop
 * until w->done and returns w->lost. Only outside the loop's callbacks. */
void persist_close_begin(struct persist *p, struct persist_close_wait *w);
unsigned persist_close_wait(uv_loop_t *loop, struct persist_close_wait *w);

#include "bot/store/persist_queue.h"
#include "bot/store/persist_snapshot.h"

#endif
