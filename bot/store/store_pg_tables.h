/*
 * store_pg_tables: delver's tables in PostgreSQL for store_pg: the SQL
 * that makes them, the statements prepared on them and their names, a row
 * read back in binary format, and the set-up of a connection (blocking at
 * open, after a check that the role may write; in the pipeline after a
 * reconnection).
 *
 * Nothing outside bot/store/store_pg*.c includes this header.
 */
#ifndef DELVER_STORE_PG_TABLES_H
#define DELVER_STORE_PG_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "bot/store/store_backend.h"
#include "bot/store/store_pg_int.h"

/* The table of each kind of row (STORE_CHANNEL, STORE_USER, STORE_HANDLED). */
extern const char *const store_pg_tables_name[3];

/* The name of statement s on the table of kind k, into out. */
void store_pg_tables_stmt_name(char *out, size_t len, enum store_kind k, enum stmt s);

/* True when r is a write's refusal because the row's generation moved on
 * (the written-once form of the statements). */
bool store_pg_tables_conflict(const PGresult *r);

/* The big-endian integer of len bytes in a binary result's field; 0 when
 * the field is not len bytes long. */
uint64_t store_pg_tables_uint(const PGresult *r, int row, int col, int len);

/* Reads row i of a result in binary format (key, last_used, version, rec,
 * generation). Returns 0, or -1 when its shape is not the tables'. */
int store_pg_tables_row(const PGresult *r, int i, enum store_kind kind, struct store_row *out);

/* Points row's log at the entries r holds (a channel read with its log:
 * columns 5 and 6 of each row, NULL when it has none), in *log (the caller
 * frees it). Returns 0, or -1 when r's shape is not the tables'. */
int store_pg_tables_log(const PGresult *r, struct store_row *row, struct store_log_row **log);

/* Sends the statements that set a fresh connection of p up, as one
 * pipeline section. Returns 0, or -1. */
int store_pg_tables_send_setup(struct store_pg *p);

/* Refuses, before anything is set up, a server or role that may not write.
 * Returns 0, or -1 with one sentence in err. */
int store_pg_tables_check_writable(PGconn *c, char *err, size_t errlen);

/* Runs the schema in one transaction and prepares the statements, on a
 * blocking connection. Returns 0, or -1 with the reason in why. */
int store_pg_tables_setup(PGconn *c, char *why, size_t whylen);

#endif
