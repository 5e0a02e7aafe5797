/* store_check: a delver database file checked whole; see store_check.h. */
#include "bot/store/store_check.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "bot/store/store_record.h"
#include "bot/store/store_sqlite.h"

#define BUSY_MS 5000

/* Decodes key's log entries (logs, NULL when the file has no log table:
 * delver 0.1's records hold their logs) into r. Returns 0, or -1 with why. */
static int
check_log(sqlite3_stmt *logs, const char *key, struct store_record *r, char *why, size_t whylen)
{
	int step, rc = 0;

	if (logs == NULL)
		return 0;
	sqlite3_bind_text(logs, 1, key, -1, SQLITE_STATIC);
	while (rc == 0 && (step = sqlite3_step(logs)) == SQLITE_ROW) {
		const void *rec = sqlite3_column_blob(logs, 1);

		if (rec == NULL)
			snprintf(why, whylen, "a log entry is empty");
		if (rec == NULL ||
		    store_record_decode_log(r, store_record_builtin_mods(),
		                            (uint64_t)sqlite3_column_int64(logs, 0), rec,
		                            (size_t)sqlite3_column_bytes(logs, 1), why, whylen) < 0)
			rc = -1;
	}
	if (rc == 0 && step != SQLITE_DONE) {
		snprintf(why, whylen, "its log cannot be read");
		rc = -1;
	}
	sqlite3_reset(logs);
	sqlite3_clear_bindings(logs);
	return rc;
}

/* Whether the row (key, version, rec), with its log entries, decodes as a
 * record of kind under its own key; else why. */
static int
check_row(const char *key, int version, const void *rec, size_t len, enum store_record_kind kind,
          sqlite3_stmt *logs, char *why, size_t whylen)
{
	struct store_record r;
	int rc = 0;

	if (rec == NULL || len == 0) {
		snprintf(why, whylen, "the record is empty");
		return -1;
	}
	if (store_record_decode(rec, len, version, store_record_builtin_mods(), &r, why, whylen) <
	    0)
		return -1;
	if (r.kind != kind) {
		snprintf(why, whylen, "it holds another kind of record");
		rc = -1;
	} else if (strcmp(r.key, key) != 0) {
		snprintf(why, whylen,
		         "it holds the record of '%.200s': the row's key column was changed or "
		         "damaged",
		         r.key);
		rc = -1;
	} else if (kind == STORE_RECORD_CHANNEL) {
		rc = check_log(logs, key, &r, why, whylen);
	}
	store_record_clear(&r, store_record_builtin_mods());
	return rc;
}

/* Checks every row of one table; returns how many, or -1 with err. */
static long
check_table(sqlite3 *db, const char *path, const char *table, enum store_record_kind kind,
            char *err, size_t errlen)
{
	char sql[80], why[1024];
	sqlite3_stmt *s = NULL, *logs = NULL;
	long n = 0;
	int step;

	snprintf(sql, sizeof(sql), "SELECT key, version, rec FROM %s", table);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s is not a delver database (no %s table)", path, table);
		return -1;
	}
	if (kind == STORE_RECORD_CHANNEL &&
	    sqlite3_prepare_v2(db, "SELECT seq, rec FROM logs WHERE key = ?1 ORDER BY seq", -1,
	                       &logs, NULL) != SQLITE_OK)
		logs = NULL;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(s, 0);

		if (key == NULL ||
		    check_row(key, sqlite3_column_int(s, 1), sqlite3_column_blob(s, 2),
		              (size_t)sqlite3_column_bytes(s, 2), kind, logs, why,
		              sizeof(why)) < 0) {
			snprintf(err, errlen, "the %s record '%.200s' in %s cannot be read: %s",
			         kind == STORE_RECORD_USER ? "user" : "channel",
			         key != NULL ? key : "(no key)", path,
			         key != NULL ? why : "its key is missing");
			sqlite3_finalize(s);
			sqlite3_finalize(logs);
			return -1;
		}
		n++;
	}
	if (step != SQLITE_DONE) {
		snprintf(err, errlen, "cannot read %s: %s", path, sqlite3_errmsg(db));
		n = -1;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(logs);
	return n;
}

long
store_check_file(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	const char *res;
	long nc = -1, nu = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path,
		         db != NULL ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, BUSY_MS);
	/* Each page is read once: SQLite's 2,000 KiB cache would only hold them. */
	sqlite3_exec(db, "PRAGMA cache_size = -64", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW ||
	    (res = (const char *)sqlite3_column_text(s, 0)) == NULL || strcmp(res, "ok") != 0) {
		res = s != NULL ? (const char *)sqlite3_column_text(s, 0) : NULL;
		snprintf(err, errlen, "%s is not a whole SQLite database (%s)", path,
		         res != NULL ? res : sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	/* A start refuses a newer schema (store_sqlite.c), so a restore must. */
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) > STORE_SQLITE_SCHEMA) {
		snprintf(err, errlen,
		         "%s was written by a newer delver (schema %d; this one knows %d), which "
		         "alone can restore it",
		         path, sqlite3_column_int(s, 0), STORE_SQLITE_SCHEMA);
		goto out;
	}
	nc = check_table(db, path, "channels", STORE_RECORD_CHANNEL, err, errlen);
	if (nc >= 0)
		nu = check_table(db, path, "users", STORE_RECORD_USER, err, errlen);
out:
	sqlite3_finalize(s);
	sqlite3_close(db);
	return nc < 0 || nu < 0 ? -1 : nc + nu;
}
