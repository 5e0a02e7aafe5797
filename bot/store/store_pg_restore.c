/* store_pg_restore: a snapshot file back into PostgreSQL; see store_pg_restore.h. */
#include "bot/store/store_pg_restore.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/file.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "bot/store/store_check.h"
#include "bot/store/store_pg.h"
#include "bot/store/snapfile.h"
#include "bot/store/statedir.h"
#include "bot/store/store_pg_sql.h"

#define WHY_MAX 300

/* sql (a COPY ... FROM STDIN in binary format), then the header. */
static int
copy_begin(PGconn *c, const char *sql, char *why, size_t whylen)
{
	static const char header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
	PGresult *r = PQexec(c, sql);
	bool ok = PQresultStatus(r) == PGRES_COPY_IN;

	if (!ok)
		store_pg_sql_first_line(why, whylen, PQresultErrorMessage(r));
	PQclear(r);
	if (ok && PQputCopyData(c, header, sizeof(header)) != 1) {
		store_pg_sql_first_line(why, whylen, PQerrorMessage(c));
		ok = false;
	}
	return ok ? 0 : -1;
}

static size_t
put_be(unsigned char *p, uint64_t v, int len)
{
	for (int i = len - 1; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
	return (size_t)len;
}

/* A field of a tuple: bytes (p, len), or an integer v of ilen bytes. */
struct field {
	const void *p;
	size_t len;
	uint64_t v;
	int ilen;
};

/* One tuple of a binary COPY. Returns 0, or -1 with the reason in why. */
static int
copy_tuple(PGconn *c, const struct field *f, int n, char *why, size_t whylen)
{
	unsigned char head[16];

	if (PQputCopyData(c, (const char *)head, (int)put_be(head, (uint64_t)n, 2)) != 1)
		goto fail;
	for (int i = 0; i < n; i++) {
		size_t len = f[i].ilen > 0 ? (size_t)f[i].ilen : f[i].len, k;

		if (len > INT32_MAX) {
			snprintf(why, whylen, "a row is too large");
			return -1;
		}
		k = put_be(head, len, 4);
		if (f[i].ilen > 0)
			k += put_be(head + k, f[i].v, f[i].ilen);
		if (PQputCopyData(c, (const char *)head, (int)k) != 1 ||
		    (f[i].ilen == 0 && PQputCopyData(c, f[i].p, (int)len) != 1))
			goto fail;
	}
	return 0;
fail:
	store_pg_sql_first_line(why, whylen, PQerrorMessage(c));
	return -1;
}

/* One tuple of four fields: key (text), last_used (int8), version (int4),
 * rec (bytea). */
static int
copy_row(PGconn *c, const char *key, size_t klen, int64_t used, int version, const void *rec,
         size_t rlen, char *why, size_t whylen)
{
	const struct field f[4] = {{.p = key, .len = klen},
	                           {.v = (uint64_t)used, .ilen = 8},
	                           {.v = (uint32_t)version, .ilen = 4},
	                           {.p = rec, .len = rlen}};

	return copy_tuple(c, f, 4, why, whylen);
}

/* The trailer, the end of the copy, and its result. */
static int
copy_end(PGconn *c, char *why, size_t whylen)
{
	static const char trailer[2] = "\377\377";
	PGresult *r;
	bool ok;

	if (PQputCopyData(c, trailer, 2) != 1 || PQputCopyEnd(c, NULL) != 1) {
		store_pg_sql_first_line(why, whylen, PQerrorMessage(c));
		return -1;
	}
	r = PQgetResult(c);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok)
		store_pg_sql_first_line(why, whylen, PQresultErrorMessage(r));
	PQclear(r);
	while ((r = PQgetResult(c)) != NULL)
		PQclear(r);
	return ok ? 0 : -1;
}

/*
 * Copies the rows of one table of db (only the row of key, when key is not
 * NULL) into the temporary table "incoming" and then over the stored
 * table; for a whole table, stored rows db lacks are deleted. Returns the
 * number of rows, or -1 with the reason in why.
 */
static long
restore_table(PGconn *c, sqlite3 *db, const char *table, bool has_used, const char *key_only,
              char *why, size_t whylen)
{
	char sql[600];
	sqlite3_stmt *s = NULL;
	long n = 0;
	int step;

	if (!store_pg_sql_exec(c, "TRUNCATE incoming", why, whylen))
		return -1;
	snprintf(sql, sizeof(sql), "SELECT key, %s, version, rec FROM %s%s",
	         has_used ? "last_used" : "0", table, key_only != NULL ? " WHERE key = ?1" : "");
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	if (key_only != NULL)
		sqlite3_bind_text(s, 1, key_only, -1, SQLITE_STATIC);
	if (copy_begin(c, "COPY incoming FROM STDIN (FORMAT binary)", why, whylen) < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(s, 0);
		const void *rec = sqlite3_column_blob(s, 3);

		if (key == NULL || sqlite3_column_type(s, 3) == SQLITE_NULL) {
			snprintf(why, whylen, "a row of %s has no key or no record", table);
			PQputCopyEnd(c, "bad row");
			PQclear(PQgetResult(c));
			sqlite3_finalize(s);
			return -1;
		}
		if (copy_row(c, key, (size_t)sqlite3_column_bytes(s, 0), sqlite3_column_int64(s, 1),
		             sqlite3_column_int(s, 2), rec != NULL ? rec : "",
		             (size_t)sqlite3_column_bytes(s, 3), why, whylen) < 0) {
			sqlite3_finalize(s);
			return -1;
		}
		n++;
	}
	if (copy_end(c, why, whylen) < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	if (step != SQLITE_DONE) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	snprintf(sql, sizeof(sql),
	         "DELETE FROM %s t WHERE NOT EXISTS (SELECT 1 FROM incoming i WHERE i.key = t.key)",
	         table);
	if (key_only == NULL && !store_pg_sql_exec(c, sql, why, whylen))
		return -1;
	/* A channel's at_start is not known until the next start reads its
	 * record (store_pg.c's schema). */
	snprintf(sql, sizeof(sql),
	         "INSERT INTO %s AS t(key, last_used, version, rec, generation) "
	         "SELECT key, last_used, version, rec, 1 FROM incoming ON CONFLICT (key) DO UPDATE "
	         "SET last_used = excluded.last_used, version = excluded.version, "
	         "rec = excluded.rec, generation = t.generation + 1%s",
	         table, has_used ? ", at_start = NULL" : "");
	if (!store_pg_sql_exec(c, sql, why, whylen))
		return -1;
	return n;
}

/* The log entries of db (only those of key, when key is not NULL) replace
 * the stored ones: a restored channel has the file's log and no other (a
 * file whose records hold their own logs, from delver 0.1, has no log
 * table). Returns 0, or -1 with the reason in why. */
static int
restore_logs(PGconn *c, sqlite3 *db, const char *key_only, char *why, size_t whylen)
{
	const char *v[1] = {key_only};
	sqlite3_stmt *s = NULL;
	PGresult *r;
	int step;
	bool ok;

	r = key_only != NULL
	        ? PQexecParams(c, "DELETE FROM logs WHERE key = $1", 1, NULL, v, NULL, NULL, 0)
	        : PQexec(c, "DELETE FROM logs");
	ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok)
		store_pg_sql_first_line(why, whylen, PQresultErrorMessage(r));
	PQclear(r);
	if (!ok)
		return -1;
	if (sqlite3_prepare_v2(db,
	                       key_only != NULL
	                           ? "SELECT key, seq, rec FROM logs WHERE key = ?1 ORDER BY seq"
	                           : "SELECT key, seq, rec FROM logs",
	                       -1, &s, NULL) != SQLITE_OK)
		return 0; /* no log table */
	if (key_only != NULL)
		sqlite3_bind_text(s, 1, key_only, -1, SQLITE_STATIC);
	if (copy_begin(c, "COPY logs(key, seq, rec) FROM STDIN (FORMAT binary)", why, whylen) < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(s, 0);
		const void *rec = sqlite3_column_blob(s, 2);
		const struct field f[3] = {
		    {.p = key, .len = (size_t)sqlite3_column_bytes(s, 0)},
		    {.v = (uint64_t)sqlite3_column_int64(s, 1), .ilen = 8},
		    {.p = rec != NULL ? rec : "", .len = (size_t)sqlite3_column_bytes(s, 2)}};

		if (key == NULL || copy_tuple(c, f, 3, why, whylen) < 0) {
			if (key == NULL)
				snprintf(why, whylen, "a log entry has no key");
			PQputCopyEnd(c, "bad row");
			PQclear(PQgetResult(c));
			sqlite3_finalize(s);
			return -1;
		}
	}
	sqlite3_finalize(s);
	if (step != SQLITE_DONE) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		PQputCopyEnd(c, "bad read");
		PQclear(PQgetResult(c));
		return -1;
	}
	return copy_end(c, why, whylen);
}

static bool
has_column(sqlite3 *db, const char *table, const char *column)
{
	char sql[100];
	sqlite3_stmt *s = NULL;
	bool found = false;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM pragma_table_info('%s') WHERE name = ?1", table);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_text(s, 1, column, -1, SQLITE_STATIC);
		found = sqlite3_step(s) == SQLITE_ROW;
	}
	sqlite3_finalize(s);
	return found;
}

int
store_pg_restore(const char *conninfo, const char *password, const char *dir, const char *file,
                 const char *channel, char *err, size_t errlen)
{
	const char *const kw[] = {"dbname", "fallback_application_name", "password", NULL};
	const char *values[] = {conninfo, "delver", password, NULL};
	char why[WHY_MAX] = "", check[5000], plain[4400], lock[4300];
	sqlite3 *db = NULL;
	PGconn *c = NULL;
	long nc = -1, nu = -1;
	int rc = -1, expanded = 0, lock_fd = -1;

	/* The state directory is made (and checked) as a start makes it. Its
	 * lock is taken when no delver holds it, so that no start there
	 * removes the copy below as a leftover while it is read; a running
	 * delver keeps it (the shards may keep running: see the header). */
	if (dir != NULL) {
		if (statedir_prepare(dir, check, sizeof(check)) < 0) {
			snprintf(err, errlen, "cannot restore: %s; nothing was changed", check);
			return -1;
		}
		if (snprintf(lock, sizeof(lock), "%s/lock", dir) < (int)sizeof(lock) &&
		    (lock_fd = statedir_open(lock, O_RDWR | O_CREAT)) >= 0 &&
		    flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
			close(lock_fd);
			lock_fd = -1;
		}
	}
	/* The file is read from its copy in dir (expanded when compressed):
	 * nothing is written beside the operator's file. Without dir, a file
	 * is read where it is. */
	if (dir != NULL)
		expanded = snapfile_copy_in(file, dir, plain, sizeof(plain), check, sizeof(check));
	if (expanded < 0) {
		snprintf(err, errlen, "cannot restore: %s; nothing was changed", check);
		goto out;
	}
	/* Every record is checked before anything is replaced. */
	if (store_check_file(expanded ? plain : file, check, sizeof(check)) < 0) {
		if (expanded > 0)
			snapfile_name_original(check, sizeof(check), plain, file);
		snprintf(err, errlen, "cannot restore: %s; nothing was changed", check);
		goto out;
	}
	if (sqlite3_open_v2(expanded ? plain : file, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "cannot restore: cannot open %s: %s", file,
		         sqlite3_errmsg(db));
		goto out;
	}
	c = PQconnectdbParams(kw, values, 1);
	if (c == NULL || PQstatus(c) != CONNECTION_OK) {
		store_pg_sql_first_line(why, sizeof(why),
		                        c != NULL ? PQerrorMessage(c) : "out of memory");
		snprintf(err, errlen, "cannot restore: cannot connect to PostgreSQL: %s", why);
		goto out;
	}
	store_pg_sql_quiet_notices(c);
	if (!store_pg_sql_exec(c, "BEGIN", why, sizeof(why)) ||
	    store_pg_create_tables(c, why, sizeof(why)) < 0 ||
	    !store_pg_sql_exec(c, "LOCK TABLE channels, users, logs IN EXCLUSIVE MODE", why,
	                       sizeof(why)) ||
	    !store_pg_sql_exec(
	        c,
	        "CREATE TEMPORARY TABLE incoming(key text PRIMARY KEY, last_used bigint, "
	        "version integer, rec bytea) ON COMMIT DROP",
	        why, sizeof(why))) {
		snprintf(err, errlen, "cannot restore into PostgreSQL: %s; nothing was changed",
		         why);
		goto out;
	}
	nc = restore_table(c, db, "channels", true, channel, why, sizeof(why));
	if (nc == 0 && channel != NULL) {
		snprintf(
		    err, errlen,
		    "cannot restore: %s holds no record for the channel %s; nothing was changed",
		    file, channel);
		goto out;
	}
	if (nc >= 0 && restore_logs(c, db, channel, why, sizeof(why)) < 0)
		nc = -1;
	if (channel != NULL)
		nu = 0;
	else if (nc >= 0)
		nu = restore_table(c, db, "users", has_column(db, "users", "last_used"), NULL, why,
		                   sizeof(why));
	if (nc < 0 || nu < 0 || !store_pg_sql_exec(c, "COMMIT", why, sizeof(why))) {
		snprintf(err, errlen, "cannot restore %s into PostgreSQL: %s; nothing was changed",
		         file, why);
		goto out;
	}
	if (channel != NULL)
		snprintf(err, errlen, "restored the channel %s from %s into PostgreSQL", channel,
		         file);
	else
		snprintf(err, errlen, "restored %ld channels and %ld users from %s into PostgreSQL",
		         nc, nu, file);
	rc = 0;
out:
	if (c != NULL)
		PQfinish(c); /* an open transaction is rolled back */
	sqlite3_close(db);
	if (expanded > 0)
		snapfile_remove(plain);
	if (lock_fd >= 0)
		close(lock_fd);
	return rc;
}
