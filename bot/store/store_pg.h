/*
 * store_pg: the PostgreSQL backend of store_backend.h, for a fleet of shard
 * processes on one database.
 *
 * - Tables (created when missing, under an advisory lock so two processes
 *   starting together do not race): channels and users, each
 *   (key text primary key, last_used bigint, version integer, rec bytea,
 *   generation bigint). A deleted row is gone (DELETE).
 * - open connects and prepares with blocking calls (before the loop serves
 *   anyone); afterwards the connection is non-blocking, in pipeline mode,
 *   its socket watched by a uv_poll. Every commit is one pipeline section
 *   ending in a Sync: one implicit transaction, so a batch commits whole or
 *   not at all. Several batches and loads may be in flight at once.
 * - Generations: a row with generation 0 is written with INSERT ... ON
 *   CONFLICT DO NOTHING, any other with UPDATE (or DELETE) ... WHERE
 *   generation = g. A statement that touches no row fails on purpose (it
 *   divides by the count of rows written: SQLSTATE 22012, which the server
 *   logs as "division by zero" with the statement), so its row gets
 *   STORE_CONFLICT, the rest of the pipeline section is aborted and its
 *   transaction rolled back: nothing of the batch is written and the other
 *   rows get STORE_NOT_WRITTEN. Only the first conflicting row of a batch
 *   is found, but every refused mark is (the marks are tried first, then
 *   checked); persist sends the rest again. A delete with generation 0
 *   succeeds when no row is stored and conflicts when one is.
 * - Marks (table handled: key text primary key, at bigint, answer bytea,
 *   writer bigint): each stored with the writer, a random 64-bit number
 *   drawn at open (one per process start; NULL in a mark an older delver
 *   stored, the column added in place). A mark whose key is stored under
 *   another writer is refused; one stored under this writer reads as
 *   written (a commit of it whose answer was lost went through).
 * - The connection lost (server restarted, network): every commit or load
 *   in flight or asked for while it is down completes with
 *   STORE_UNAVAILABLE, except a commit in flight with a mark: its answer
 *   lost, it is held until the next connection is made, which asks
 *   whether its first mark is stored under this writer; yes, it completes
 *   as committed; no, it is sent again; that connection not made, it
 *   completes with STORE_UNAVAILABLE. A commit in flight without a mark
 *   may have been written anyway; its generation then moved on, so
 *   writing it again gets STORE_CONFLICT rather than a second copy. The
 *   backend reconnects with PQconnectStart
 *   and PQconnectPoll, waiting 200 ms, then twice as long each time up to
 *   5 s; but at most 1 s while changes wait to be saved (a commit failed
 *   as unavailable since the connection was lost, or one is in doubt), so
 *   that they are written within about 1 s of the server's return.
 * - Snapshot: a thread of libuv's pool opens its own connection, reads both
 *   tables in one REPEATABLE READ READ ONLY transaction (one consistent
 *   image, the loop keeps committing) and writes them into an SQLite file
 *   with the schema of the SQLite backend, so `delver --restore FILE` takes
 *   it (written as FILE.part, fsynced, renamed, the directory fsynced), at
 *   a pace that leaves the loop a core (store_pg_snapshot.h).
 * - The password (opts.password) is passed to libpq apart from the
 *   conninfo, registered with log_secret, and never logged; libpq's own
 *   messages name neither it nor the conninfo's password.
 *
 * Known limit: a row deleted and written again starts over at generation
 * 1, so a process holding a stale copy of exactly the same generation
 * would not be refused (an ABA; it needs the row to be emptied and then
 * changed as many times as the stale copy had seen).
 *
 * Ownership: store_pg_open returns a backend that ops->close frees; the
 * options are copied.
 */
#ifndef DELVER_STORE_PG_H
#define DELVER_STORE_PG_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/store/store_backend.h"

struct store_pg_opts {
	const char *conninfo; /* libpq's "key=value ..." or a postgresql:// URI */
	const char *password; /* NULL: libpq's own (PGPASSWORD, ~/.pgpass) */
};

/*
 * Connects (blocking: call it before the loop serves anyone), refuses a
 * server or role that may not write (a read-only transaction, as on a
 * standby; the tables not writable by the role), creates the tables when
 * missing and prepares the statements. Returns the backend, or NULL with
 * one sentence in err naming the server and why, and errno STATEDIR_UNSAFE
 * when it may not write (bot/store/statedir.h), else EAGAIN.
 */
struct store_backend *store_pg_open(uv_loop_t *loop, const struct store_pg_opts *o, char *err,
                                    size_t errlen);

/* Creates the tables when missing, in the transaction open on c (libpq's
 * PGconn, blocking). Returns 0, or -1 with libpq's reason in why. */
struct pg_conn;
int store_pg_create_tables(struct pg_conn *c, char *why, size_t whylen);

/* For tests: true while the connection is up (not reconnecting). */
int store_pg_connected(const struct store_backend *b);
/* For tests: the wait (ms) of the reconnection scheduled last, and in
 * *scheduled (unless NULL) how many have been scheduled since the open. */
uint64_t store_pg_retry_wait_ms(const struct store_backend *b, unsigned long *scheduled);
/* For tests: the answer to the next commit is lost with the connection
 * after the server gave it, as when the connection breaks between COMMIT
 * and its answer. */
void store_pg_lose_next_answer(struct store_backend *b);

#endif
