/* store_pg_snapshot: PostgreSQL's tables into an SQLite file; see store_pg_snapshot.h. */
#include "bot/store/store_pg_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "bot/store/store_pg_sql.h"

#define WHY_MAX 256

static const char sqlite_schema[] =
    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
    "CREATE TABLE channels(key TEXT PRIMARY KEY NOT NULL, last_used INTEGER NOT NULL DEFAULT 0, "
    "version INTEGER NOT NULL, rec BLOB NOT NULL, generation INTEGER NOT NULL DEFAULT 0) "
    "WITHOUT ROWID;"
    "CREATE TABLE users(key TEXT PRIMARY KEY NOT NULL, last_used INTEGER NOT NULL DEFAULT 0, "
    "version INTEGER NOT NULL, rec BLOB NOT NULL, generation INTEGER NOT NULL DEFAULT 0) "
    "WITHOUT ROWID;"
    "BEGIN";

static uint64_t
be_uint(const PGresult *r, int col, int len)
{
	const unsigned char *v = (const unsigned char *)PQgetvalue(r, 0, col);
	uint64_t x = 0;

	for (int i = 0; i < len; i++)
		x = x << 8 | v[i];
	return x;
}

/* Copies one table. Returns 0, or -1 with the reason in why. */
static int
copy_table(PGconn *c, sqlite3 *db, const char *table, char *why, size_t whylen)
{
	char sql[160];
	sqlite3_stmt *ins = NULL;
	PGresult *r;
	int rc = 0;

	snprintf(sql, sizeof(sql),
	         "INSERT INTO %s(key, last_used, version, rec, generation) VALUES(?1, ?2, ?3, ?4, "
	         "?5)",
	         table);
	if (sqlite3_prepare_v2(db, sql, -1, &ins, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	snprintf(sql, sizeof(sql),
	         "SELECT key, last_used, version, rec, generation FROM %s ORDER BY key", table);
	if (!PQsendQueryParams(c, sql, 0, NULL, NULL, NULL, NULL, 1) || !PQsetSingleRowMode(c)) {
		store_pg_sql_first_line(why, whylen, PQerrorMessage(c));
		sqlite3_finalize(ins);
		return -1;
	}
	while ((r = PQgetResult(c)) != NULL) {
		ExecStatusType st = PQresultStatus(r);

		if (st == PGRES_SINGLE_TUPLE && rc == 0) {
			if (PQgetlength(r, 0, 1) != 8 || PQgetlength(r, 0, 2) != 4 ||
			    PQgetlength(r, 0, 4) != 8) {
				snprintf(why, whylen, "the %s table does not have delver's columns",
				         table);
				rc = -1;
			} else {
				sqlite3_bind_text(ins, 1, PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0),
				                  SQLITE_STATIC);
				sqlite3_bind_int64(ins, 2, (int64_t)be_uint(r, 1, 8));
				sqlite3_bind_int(ins, 3, (int)(int32_t)(uint32_t)be_uint(r, 2, 4));
				sqlite3_bind_blob(ins, 4, PQgetvalue(r, 0, 3), PQgetlength(r, 0, 3),
				                  SQLITE_STATIC);
				sqlite3_bind_int64(ins, 5, (int64_t)be_uint(r, 4, 8));
				if (sqlite3_step(ins) != SQLITE_DONE) {
					snprintf(why, whylen, "%s", sqlite3_errmsg(db));
					rc = -1;
				}
				sqlite3_reset(ins);
			}
		} else if (st != PGRES_SINGLE_TUPLE && st != PGRES_TUPLES_OK && rc == 0) {
			store_pg_sql_first_line(why, whylen, PQresultErrorMessage(r));
			rc = -1;
		}
		PQclear(r);
	}
	sqlite3_finalize(ins);
	return rc;
}

/* fsyncs path (a file or a directory). Returns 0, or -1. */
static int
sync_path(const char *path, bool dir)
{
	int fd = open(path, (dir ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int
store_pg_snapshot_write(const char *const *keywords, const char *const *values, const char *path,
                        char *err, size_t errlen)
{
	char part[4200], dir[4200], why[WHY_MAX] = "";
	PGconn *c = NULL;
	sqlite3 *db = NULL;
	const char *slash;
	int rc = -1;
	char *msg = NULL;

	if (snprintf(part, sizeof(part), "%s.part", path) >= (int)sizeof(part)) {
		snprintf(err, errlen, "the snapshot path is too long");
		return -1;
	}
	unlink(part);
	c = PQconnectdbParams(keywords, values, 1);
	if (c == NULL || PQstatus(c) != CONNECTION_OK) {
		store_pg_sql_first_line(why, sizeof(why),
		                        c != NULL ? PQerrorMessage(c) : "out of memory");
		snprintf(err, errlen, "cannot connect to PostgreSQL for a snapshot: %s", why);
		goto out;
	}
	if (!store_pg_sql_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", why,
	                       sizeof(why))) {
		snprintf(err, errlen, "cannot start the snapshot's transaction: %s", why);
		goto out;
	}
	if (sqlite3_open_v2(part, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	        SQLITE_OK ||
	    sqlite3_exec(db, sqlite_schema, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "cannot write %s: %s", part,
		         msg != NULL ? msg : sqlite3_errmsg(db));
		goto out;
	}
	if (copy_table(c, db, "channels", why, sizeof(why)) < 0 ||
	    copy_table(c, db, "users", why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot copy PostgreSQL's tables into %s: %s", part, why);
		goto out;
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "cannot write %s: %s", part,
		         msg != NULL ? msg : sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_close(db);
	db = NULL;
	if (sync_path(part, false) < 0 || rename(part, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s",
	         slash == NULL ? 1 : (int)(slash - path + (slash == path)),
	         slash == NULL ? "." : path);
	if (sync_path(dir, true) < 0) {
		snprintf(err, errlen, "cannot sync the directory of %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	sqlite3_free(msg);
	if (db != NULL)
		sqlite3_close(db);
	if (rc < 0)
		unlink(part);
	if (c != NULL)
		PQfinish(c);
	return rc;
}
