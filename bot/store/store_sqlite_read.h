/*
 * store_sqlite_read: rows of store_sqlite read back: a row and a channel's
 * log entries from a statement of any of its connections, and every row
 * load_active wants at start-up.
 *
 * Nothing outside bot/store/store_sqlite*.c includes this header.
 */
#ifndef DELVER_STORE_SQLITE_READ_H
#define DELVER_STORE_SQLITE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "bot/store/store_backend.h"
#include "rules/base/buf.h"

/* A channel's log entries as read: their texts in one buffer. */
struct log_read {
	struct store_log_row *rows;
	size_t *off; /* where each text starts in text (it may move as it grows) */
	size_t n, cap;
	struct buf text;
};

/* Whether key is the decimal text of a number from 0 to 2^63 - 1, with no
 * sign and no leading zero (Discord's ids): the mark of such a key is kept
 * in the table keyed by that number, *id. */
bool store_sqlite_mark_id(const char *key, int64_t *id);

/* The statement (enum stmt) that reads a row of kind by key; for
 * ST_GET_MARK_ID, a mark kept by its key's number, that number in *id. */
int store_sqlite_read_stmt(enum store_kind kind, const char *key, int64_t *id);
/* Binds ?1 of s, statement stmt as store_sqlite_read_stmt() chose it with
 * key and id: id for ST_GET_MARK_ID, else key. */
void store_sqlite_read_bind(sqlite3_stmt *s, int stmt, const char *key, int64_t id);

/* Fills r from a row of ST_GET_* (last_used, version, rec, generation);
 * r points into s's row, valid until s is stepped or reset. */
void store_sqlite_read_row(struct store_row *r, sqlite3_stmt *s, enum store_kind kind,
                           const char *key);

/* Reads key's log entries with s (ST_LOG_GET on some connection) into l
 * (emptied first) and points r's log at them, valid until l changes.
 * Returns 0, or -1 when the read failed (the connection's error message
 * says why). */
int store_sqlite_read_log(sqlite3_stmt *s, const char *key, struct log_read *l,
                          struct store_row *r);
void store_sqlite_read_log_init(struct log_read *l);
void store_sqlite_read_log_free(struct log_read *l);

/* The backend's load_active (store_backend.h), on the writing connection:
 * every user, the channels wanted at every start or not known, and the
 * others used since used_since; then the at_start each record says is
 * stored (store_sqlite_write_at_start). */
int store_sqlite_read_active(struct store_backend *base, int64_t used_since,
                             int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
                             size_t errlen);

#endif
