/*
 * store_backend: what a storage engine gives persist. The state lives in
 * memory (commands/core/state.h); persist writes it through to a backend, which
 * stores one row per channel and per user and knows nothing of games.
 *
 * Two backends implement it: SQLite (bot/store/store_sqlite.c, the default;
 * one file, its writes on a thread of its own) and PostgreSQL
 * (bot/store/store_pg.c; libpq in non-blocking mode, its socket watched by
 * the loop). persist picks one from the configuration.
 *
 * A channel's log (the roll log: commands/core/channel.h) is rows of its
 * own, one per entry, numbered from 1 in the channel: a commit appends the
 * entries a row brings and keeps the newest log_keep of the channel; a read
 * gives a channel's row with its entries. A row that only brings entries
 * (log_only) does not write the record, but its generation is checked as a
 * write's is; an entry whose number is stored already conflicts (another
 * process appended it). A deleted channel row takes its entries with it,
 * and a new one (generation 0) starts with none.
 *
 * Rules every backend keeps:
 * - Every completion (done) runs later from the loop, never before the
 *   call that started it returns, and exactly once.
 * - Nothing here blocks the loop, except store_backend_ops.open and
 *   load_active, which run before the loop serves anyone.
 * - Rows given to a call are copied before it returns.
 * - A row carries a generation: the generation the process read (0 for a
 *   row it has never seen stored). A commit writes a row only when the
 *   stored generation still equals it, and stores generation + 1; a row
 *   whose generation moved on (another process wrote it: a fleet after a
 *   reshard) is refused with STORE_CONFLICT, and then nothing of the batch
 *   is written: the transaction is rolled back, its status is
 *   STORE_CONFLICT, and every other row gets STORE_NOT_WRITTEN (or
 *   STORE_CONFLICT when the backend saw that it conflicts too; a backend
 *   may stop at the first conflict). persist sends the rows it still wants
 *   again at once. This is how two processes never both write one channel,
 *   and how a command's changes to several records are kept or dropped
 *   together.
 * - A mark (STORE_HANDLED) is written once per key, by one process: a
 *   mark whose key is stored already (the event was handled by another
 *   process: a fleet whose shards overlap, as at a reshard, gets it twice)
 *   is refused with STORE_CONFLICT like a stale row, and nothing of its
 *   batch is written; so an event's changes are applied once, whichever
 *   process commits first. A process never means to write one mark twice
 *   (a replayed event is told handled from its mark before it runs); when
 *   it does after all (PostgreSQL: a commit whose answer was lost with the
 *   connection went through), a backend that knows each mark's writer
 *   (store_pg.h) takes its own mark as written, and SQLite, one process
 *   per file with no answer to lose, refuses it as any. Every
 *   conflicting mark of a batch is reported as one, even when a row of
 *   the batch conflicts too (PostgreSQL tries all of a batch's marks
 *   before its other rows), so that each event handled elsewhere is left
 *   to its handler and the rest of the batch, sent again, commits once.
 */
#ifndef DELVER_STORE_BACKEND_H
#define DELVER_STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

enum store_kind {
	STORE_CHANNEL,
	STORE_USER,
	/* A mark that a platform event was handled (commands/core/request.h:
	 * exactly once), written in the batch of the changes it made: key is
	 * the event's key, last_used when it was handled, rec what the
	 * transport keeps to answer it again; no version, no generation (a
	 * mark is written once: one whose key is stored conflicts, see the
	 * rules above). A mark row with key ""
	 * and rec NULL deletes the marks handled before last_used. */
	STORE_HANDLED,
};

enum store_status {
	STORE_OK = 0,
	STORE_FAILED = -1,      /* the engine refused (an I/O error...) */
	STORE_CONFLICT = -2,    /* the row's generation moved on */
	STORE_UNAVAILABLE = -3, /* the server cannot be reached now */
	STORE_FULL = -4,        /* the disk holding the database is full */
	STORE_NOT_WRITTEN = -5, /* rolled back with a batch that had a conflict */
};

/* One entry of a channel's log. */
struct store_log_row {
	uint64_t seq;    /* its number in the channel, from 1 */
	const char *rec; /* the entry as store_record.h frames it */
	size_t rec_len;
};

struct store_row {
	enum store_kind kind;
	const char *key;   /* the state key, NUL-terminated */
	int64_t last_used; /* channels: unix seconds of last use; users: 0 */
	int version;       /* the record format version of rec */
	const char *rec;   /* the encoded record (commands/core/state.h); NULL:
	                      delete the row (nothing left to keep) */
	size_t rec_len;
	uint64_t generation; /* see above */
	/* Channels. In a commit: log_only, the record is unchanged (rec is not
	 * written), only log[0..nlog) is appended, oldest first, and the
	 * channel keeps its newest log_keep entries. Read: the channel's
	 * entries, oldest first. */
	bool log_only;
	const struct store_log_row *log;
	size_t nlog;
	unsigned log_keep;
	/* Channels, in a commit that writes the record: whether the channel
	 * is loaded at every start however long it was idle (a command's
	 * state says so: struct chanmod's at_start). */
	bool at_start;
};

struct store_backend;

/* Called once per commit: status is STORE_OK when the batch is committed,
 * else why not; row_status[i] is STORE_OK (written, its stored generation
 * is now generation + 1) or why row i was not written. */
typedef void (*store_commit_cb)(void *ctx, enum store_status status,
                                const enum store_status *row_status, size_t n, const char *err);
/* row is NULL when none is stored; valid only during the call (its log
 * too). */
typedef void (*store_load_cb)(void *ctx, enum store_status status, const struct store_row *row,
                              const char *err);
typedef void (*store_done_cb)(void *ctx, enum store_status status, const char *err);

struct store_backend_ops {
	const char *name; /* "sqlite", "postgresql" */
	/* Calls row() for every user, every channel used at or after
	 * used_since, and every channel stored with at_start true or not
	 * known (a row an older delver wrote, or one copied in from a file),
	 * however long ago it was used (start-up; may block). row returns -1
	 * to stop with its own error; else, for a channel, 1 when it is to be
	 * loaded at every start (what a commit would store as its at_start),
	 * 0 when not; the backend stores that where it differs, leaving the
	 * row's generation as it is. Returns 0 or -1 with one sentence in
	 * err. */
	int (*load_active)(struct store_backend *b, int64_t used_since,
	                   int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
	                   size_t errlen);
	/* Commits rows[0..n) in one transaction (group commit: persist hands
	 * over all changes of one loop turn). done gets one status per row. */
	void (*commit)(struct store_backend *b, const struct store_row *rows, size_t n,
	               store_commit_cb done, void *ctx);
	/* Reads one row by key. */
	void (*load)(struct store_backend *b, enum store_kind kind, const char *key,
	             store_load_cb done, void *ctx);
	/* Writes a consistent copy of everything to path (a file the operator
	 * can give to `delver --restore`), off the loop. */
	void (*snapshot)(struct store_backend *b, const char *path, store_done_cb done, void *ctx);
	/* Tries to reach the server at once when the connection is down
	 * (not after the rest of a reconnection backoff), and again until
	 * within_ms have passed: done(ctx, STORE_OK, NULL) from the loop once
	 * it is up (also when it already is), else STORE_UNAVAILABLE with the
	 * last reason. At most one at a time. A backend with no server
	 * (SQLite) answers STORE_OK, from the loop as always: every backend
	 * has this op, so a stop tries failed writes again one way. */
	void (*reach)(struct store_backend *b, unsigned within_ms, store_done_cb done, void *ctx);
	/* Finishes what is under way and frees b; done(ctx, STORE_OK, NULL). */
	void (*close)(struct store_backend *b, store_done_cb done, void *ctx);
};

/* Every backend's struct starts with this (zeroed at open). */
struct store_backend {
	const struct store_backend_ops *ops;
	uv_loop_t *loop;
	/* Set by the backend's user, or NULL: called (from the loop, never
	 * inside an operation's call) when a backend that had lost its server
	 * reaches it again, so that changes that failed meanwhile can be
	 * written at once rather than at their next retry. */
	void (*back)(void *ctx);
	void *back_ctx;
};

#endif
