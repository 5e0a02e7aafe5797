/* store_pg_snapshot: PostgreSQL's tables into an SQLite file; see store_pg_snapshot.h. */
#include "bot/store/store_pg_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "bot/store/statedir.h"
#include "bot/store/store_check.h"
#include "bot/store/store_pg_sql.h"
#include "bot/store/store_sqlite.h"

#define WHY_MAX 256

/* A small cache (256 KiB): the final COMMIT writes out what it holds in
 * one go, which no pace can split; the rows come in key order, so the
 * B-tree's pages in use are few. The tables are the SQLite backend's
 * (store_sqlite_schema). */
static const char sqlite_pragmas[] =
    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -256;";

static uint64_t
be_uint(const PGresult *r, int row, int col, int len)
{
	const unsigned char *v = (const unsigned char *)PQgetvalue(r, row, col);
	uint64_t x = 0;

	for (int i = 0; i < len; i++)
		x = x << 8 | v[i];
	return x;
}

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The pace of the copy: bursts of work of at most about
 * STORE_PG_SNAPSHOT_SLICE_US (the FETCHes' waits included), each followed
 * by a sleep STORE_PG_SNAPSHOT_REST times as long as it took. */
struct pace {
	double since; /* when the current burst began */
	int fd;       /* the file being written, for its writeback, or -1 */
	long rows;    /* written so far */
};

static void
pace_start(struct pace *p, int fd)
{
	p->since = now_ns();
	p->fd = fd;
	p->rows = 0;
}

/* Sleeps when the current burst has lasted its slice (less when a signal
 * comes: the pace is not exact). */
static void
pace(struct pace *p)
{
	double now = now_ns(), ns = (now - p->since) * STORE_PG_SNAPSHOT_REST;
	struct timespec ts;

	if (now - p->since < STORE_PG_SNAPSHOT_SLICE_US * 1e3)
		return;
	ts.tv_sec = (time_t)(ns / 1e9);
	ts.tv_nsec = (long)(ns - (double)ts.tv_sec * 1e9);
	nanosleep(&ts, NULL);
	p->since = now_ns();
}

/* Inserts the rows of one FETCH's result. Returns 0, or -1 with the reason
 * in why. */
static int
insert_rows(sqlite3 *db, sqlite3_stmt *ins, const PGresult *r, const char *table, struct pace *p,
            char *why, size_t whylen)
{
	bool log = strcmp(table, "logs") == 0;
	int n = PQntuples(r);

	if (n > 0 && PQnfields(r) != (log ? 3 : 5)) {
		snprintf(why, whylen, "the %s table does not have delver's columns", table);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (log ? PQgetlength(r, i, 1) != 8
		        : PQgetlength(r, i, 1) != 8 || PQgetlength(r, i, 2) != 4 ||
		              PQgetlength(r, i, 4) != 8) {
			snprintf(why, whylen, "the %s table does not have delver's columns", table);
			return -1;
		}
		sqlite3_bind_text(ins, 1, PQgetvalue(r, i, 0), PQgetlength(r, i, 0), SQLITE_STATIC);
		sqlite3_bind_int64(ins, 2, (int64_t)be_uint(r, i, 1, 8));
		if (log) {
			sqlite3_bind_blob(ins, 3, PQgetvalue(r, i, 2), PQgetlength(r, i, 2),
			                  SQLITE_STATIC);
		} else {
			sqlite3_bind_int(ins, 3, (int)(int32_t)(uint32_t)be_uint(r, i, 2, 4));
			sqlite3_bind_blob(ins, 4, PQgetvalue(r, i, 3), PQgetlength(r, i, 3),
			                  SQLITE_STATIC);
			sqlite3_bind_int64(ins, 5, (int64_t)be_uint(r, i, 4, 8));
		}
		if (sqlite3_step(ins) != SQLITE_DONE) {
			snprintf(why, whylen, "%s", sqlite3_errmsg(db));
			sqlite3_reset(ins);
			return -1;
		}
		sqlite3_reset(ins);
		/* Starts the writeback of what SQLite has written so far, a
		 * little at a time: the final fsync would otherwise walk the
		 * whole file's dirty pages in one call of several ms. */
		if (++p->rows % STORE_PG_SNAPSHOT_WRITEBACK_ROWS == 0 && p->fd >= 0)
			sync_file_range(p->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		pace(p);
	}
	return 0;
}

/* Copies one table through a cursor, STORE_PG_SNAPSHOT_BATCH rows per
 * FETCH, at the pace above. Returns 0, or -1 with the reason in why. */
static int
copy_table(PGconn *c, sqlite3 *db, int fd, const char *table, char *why, size_t whylen)
{
	char sql[160];
	sqlite3_stmt *ins = NULL;
	struct pace p;
	int rc = 0;

	snprintf(sql, sizeof(sql), "%s",
	         strcmp(table, "logs") == 0 ? "INSERT INTO logs(key, seq, rec) VALUES(?1, ?2, ?3)"
	         : strcmp(table, "users") == 0
	             ? "INSERT INTO users(key, version, rec, generation) VALUES(?1, ?3, ?4, ?5)"
	             : "INSERT INTO channels(key, last_used, version, rec, generation) "
	               "VALUES(?1, ?2, ?3, ?4, ?5)");
	if (sqlite3_prepare_v2(db, sql, -1, &ins, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	pace_start(&p, fd);
	snprintf(sql, sizeof(sql),
	         strcmp(table, "logs") == 0
	             ? "DECLARE snapshot_rows NO SCROLL CURSOR FOR SELECT key, seq, rec FROM %s "
	               "ORDER BY key, seq"
	             : "DECLARE snapshot_rows NO SCROLL CURSOR FOR SELECT key, last_used, version, "
	               "rec, generation FROM %s ORDER BY key",
	         table);
	if (!store_pg_sql_exec(c, sql, why, whylen)) {
		sqlite3_finalize(ins);
		return -1;
	}
	snprintf(sql, sizeof(sql), "FETCH %d FROM snapshot_rows", STORE_PG_SNAPSHOT_BATCH);
	for (;;) {
		PGresult *r = PQexecParams(c, sql, 0, NULL, NULL, NULL, NULL, 1);
		int n = PQntuples(r);

		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			store_pg_sql_first_line(why, whylen, PQresultErrorMessage(r));
			rc = -1;
		} else {
			pace(&p);
			rc = insert_rows(db, ins, r, table, &p, why, whylen);
		}
		PQclear(r);
		if (rc < 0 || n < STORE_PG_SNAPSHOT_BATCH)
			break;
	}
	sqlite3_finalize(ins);
	if (rc == 0 && !store_pg_sql_exec(c, "CLOSE snapshot_rows", why, whylen))
		rc = -1;
	return rc;
}

/* fsyncs path (a file or a directory). Returns 0, or -1. */
static int
sync_path(const char *path, bool dir)
{
	int fd = open(path, (dir ? O_RDONLY | O_DIRECTORY : O_RDWR | O_NOFOLLOW) | O_CLOEXEC);
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
	char part[4200], dir[4200], why[WHY_MAX] = "", version[64];
	PGconn *c = NULL;
	sqlite3 *db = NULL;
	const char *slash;
	int rc = -1, fd = -1;
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
	if (statedir_create_file(part) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", part, statedir_strerror(errno));
		goto out;
	}
	snprintf(version, sizeof(version), "PRAGMA user_version = %d; BEGIN", STORE_SQLITE_SCHEMA);
	if (sqlite3_open_v2(part, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	        SQLITE_OK ||
	    sqlite3_exec(db, sqlite_pragmas, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(db, store_sqlite_schema(), NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(db, version, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "cannot write %s: %s", part,
		         msg != NULL ? msg : sqlite3_errmsg(db));
		goto out;
	}
	fd = open(part, O_RDONLY | O_CLOEXEC); /* for its writeback only: -1 does no harm */
	if (copy_table(c, db, fd, "channels", why, sizeof(why)) < 0 ||
	    copy_table(c, db, fd, "users", why, sizeof(why)) < 0 ||
	    copy_table(c, db, fd, "logs", why, sizeof(why)) < 0) {
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
	/* Named a snapshot only once --restore would take it back. */
	if (store_check_file(part, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "the copy failed its check, so it is not kept: %.*s",
		         (int)errlen > 64 ? (int)errlen - 64 : 0, why);
		goto out;
	}
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
	if (fd >= 0)
		close(fd);
	if (c != NULL)
		PQfinish(c);
	return rc;
}
