/* store_pg_restore: a snapshot file back into PostgreSQL; see store_pg_restore.h. */
#include "bot/store/store_pg_restore.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "bot/store/store_pg.h"

#define WHY_MAX 300

static void
first_line(char *out, size_t outlen, const char *msg)
{
	snprintf(out, outlen, "%.*s", (int)strcspn(msg != NULL ? msg : "", "\n"),
	         msg != NULL ? msg : "");
}

static bool
exec_ok(PGconn *c, const char *sql, char *why, size_t whylen)
{
	PGresult *r = PQexec(c, sql);
	bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	if (!ok)
		first_line(why, whylen, PQresultErrorMessage(r));
	PQclear(r);
	return ok;
}

/* Checks that file is a whole SQLite database with delver's tables.
 * Returns 0, or -1 with a sentence in err. */
static int
check_file(sqlite3 *db, const char *file, char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	const char *res;
	int rc = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW ||
	    (res = (const char *)sqlite3_column_text(s, 0)) == NULL || strcmp(res, "ok") != 0) {
		snprintf(err, errlen, "cannot restore: %s is not a whole SQLite database (%s)",
		         file, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM channels, users LIMIT 0", -1, &s, NULL) !=
	    SQLITE_OK) {
		snprintf(
		    err, errlen,
		    "cannot restore: %s is not a delver snapshot (no channels and users tables)",
		    file);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

/*
 * Copies the rows of one table of db into the temporary table "incoming"
 * and then over the stored table. Returns the number of rows, or -1 with
 * the reason in why.
 */
static long
restore_table(PGconn *c, sqlite3 *db, const char *table, bool has_used, char *why, size_t whylen)
{
	char sql[600];
	sqlite3_stmt *s = NULL;
	long n = 0;
	int step;

	if (!exec_ok(c, "TRUNCATE incoming", why, whylen))
		return -1;
	snprintf(sql, sizeof(sql), "SELECT key, %s, version, rec FROM %s",
	         has_used ? "last_used" : "0", table);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		char used[24], ver[16];
		const char *v[4];
		int len[4] = {0, 0, 0, sqlite3_column_bytes(s, 3)}, fmt[4] = {0, 0, 0, 1};
		PGresult *r;
		bool ok;

		snprintf(used, sizeof(used), "%" PRId64, (int64_t)sqlite3_column_int64(s, 1));
		snprintf(ver, sizeof(ver), "%d", sqlite3_column_int(s, 2));
		v[0] = (const char *)sqlite3_column_text(s, 0);
		v[1] = used;
		v[2] = ver;
		v[3] = sqlite3_column_blob(s, 3);
		if (v[0] == NULL || v[3] == NULL) {
			snprintf(why, whylen, "a row of %s has no key or no record", table);
			sqlite3_finalize(s);
			return -1;
		}
		r = PQexecParams(c, "INSERT INTO incoming VALUES($1, $2, $3, $4)", 4, NULL, v, len,
		                 fmt, 0);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			first_line(why, whylen, PQresultErrorMessage(r));
		PQclear(r);
		if (!ok) {
			sqlite3_finalize(s);
			return -1;
		}
		n++;
	}
	sqlite3_finalize(s);
	if (step != SQLITE_DONE) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(db));
		return -1;
	}
	snprintf(sql, sizeof(sql),
	         "DELETE FROM %s t WHERE NOT EXISTS (SELECT 1 FROM incoming i WHERE i.key = t.key)",
	         table);
	if (!exec_ok(c, sql, why, whylen))
		return -1;
	snprintf(sql, sizeof(sql),
	         "INSERT INTO %s AS t(key, last_used, version, rec, generation) "
	         "SELECT key, last_used, version, rec, 1 FROM incoming ON CONFLICT (key) DO UPDATE "
	         "SET last_used = excluded.last_used, version = excluded.version, "
	         "rec = excluded.rec, generation = t.generation + 1",
	         table);
	if (!exec_ok(c, sql, why, whylen))
		return -1;
	return n;
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
store_pg_restore(const char *conninfo, const char *password, const char *file, char *err,
                 size_t errlen)
{
	const char *const kw[] = {"dbname", "fallback_application_name", "password", NULL};
	const char *values[] = {conninfo, "delver", password, NULL};
	char why[WHY_MAX] = "";
	sqlite3 *db = NULL;
	PGconn *c = NULL;
	long nc = -1, nu = -1;
	int rc = -1;

	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot restore: cannot open %s: %s", file,
		         sqlite3_errmsg(db));
		goto out;
	}
	if (check_file(db, file, err, errlen) < 0)
		goto out;
	c = PQconnectdbParams(kw, values, 1);
	if (c == NULL || PQstatus(c) != CONNECTION_OK) {
		first_line(why, sizeof(why), c != NULL ? PQerrorMessage(c) : "out of memory");
		snprintf(err, errlen, "cannot restore: cannot connect to PostgreSQL: %s", why);
		goto out;
	}
	PQsetNoticeProcessor(c, NULL, NULL);
	if (!exec_ok(c, "BEGIN", why, sizeof(why)) ||
	    store_pg_create_tables(c, why, sizeof(why)) < 0 ||
	    !exec_ok(c, "LOCK TABLE channels, users IN EXCLUSIVE MODE", why, sizeof(why)) ||
	    !exec_ok(c,
	             "CREATE TEMPORARY TABLE incoming(key text PRIMARY KEY, last_used bigint, "
	             "version integer, rec bytea) ON COMMIT DROP",
	             why, sizeof(why))) {
		snprintf(err, errlen, "cannot restore into PostgreSQL: %s; nothing was changed",
		         why);
		goto out;
	}
	nc = restore_table(c, db, "channels", true, why, sizeof(why));
	if (nc >= 0)
		nu = restore_table(c, db, "users", has_column(db, "users", "last_used"), why,
		                   sizeof(why));
	if (nc < 0 || nu < 0 || !exec_ok(c, "COMMIT", why, sizeof(why))) {
		snprintf(err, errlen, "cannot restore %s into PostgreSQL: %s; nothing was changed",
		         file, why);
		goto out;
	}
	snprintf(err, errlen, "restored %ld channels and %ld users from %s into PostgreSQL", nc, nu,
	         file);
	rc = 0;
out:
	if (c != NULL)
		PQfinish(c); /* an open transaction is rolled back */
	sqlite3_close(db);
	return rc;
}
