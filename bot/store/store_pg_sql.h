/*
 * store_pg_sql: small helpers for the blocking libpq connections that the
 * PostgreSQL snapshot (on a worker thread) and restore (a command-line run)
 * use; the backend's own connection on the loop never blocks and, like the
 * Discord identify ledger's, uses only store_pg_sql_quiet_notices.
 *
 * Ownership: nothing is kept; out and why are the caller's buffers.
 */
#ifndef DELVER_STORE_PG_SQL_H
#define DELVER_STORE_PG_SQL_H

#include <stdbool.h>
#include <stddef.h>

#include <libpq-fe.h>

/* The first line of a libpq message (its detail lines dropped), or "no
 * message from libpq" when msg is NULL or empty. */
void store_pg_sql_first_line(char *out, size_t outlen, const char *msg);

/* Sends c's notices from the server ("relation already exists,
 * skipping") to the log at debug level rather than to stderr as libpq
 * does: they are not news for the operator. */
void store_pg_sql_quiet_notices(PGconn *c);

/* Runs sql, a command that returns no rows. Returns true, or false with
 * the server's first line in why. */
bool store_pg_sql_exec(PGconn *c, const char *sql, char *why, size_t whylen);

#endif
