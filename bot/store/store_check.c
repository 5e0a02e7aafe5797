/* store_check: a delver database file checked whole; see store_check.h. */
#include "bot/store/store_check.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "bot/store/store_record.h"

#define BUSY_MS 5000

/* Whether the row (key, version, rec) decodes as a record of kind under its
 * own key; else why. */
static int
check_row(const char *key, int version, const void *rec, size_t len, enum store_record_kind kind,
          char *why, size_t whylen)
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
	sqlite3_stmt *s = NULL;
	long n = 0;
	int step;

	snprintf(sql, sizeof(sql), "SELECT key, version, rec FROM %s", table);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s is not a delver database (no %s table)", path, table);
		return -1;
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(s, 0);

		if (key == NULL ||
		    check_row(key, sqlite3_column_int(s, 1), sqlite3_column_blob(s, 2),
		              (size_t)sqlite3_column_bytes(s, 2), kind, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "the %s record '%.200s' in %s cannot be read: %s",
			         kind == STORE_RECORD_USER ? "user" : "channel",
			         key != NULL ? key : "(no key)", path,
			         key != NULL ? why : "its key is missing");
			sqlite3_finalize(s);
			return -1;
		}
		n++;
	}
	if (step != SQLITE_DONE) {
		snprintf(err, errlen, "cannot read %s: %s", path, sqlite3_errmsg(db));
		n = -1;
	}
	sqlite3_finalize(s);
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
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW ||
	    (res = (const char *)sqlite3_column_text(s, 0)) == NULL || strcmp(res, "ok") != 0) {
		res = s != NULL ? (const char *)sqlite3_column_text(s, 0) : NULL;
		snprintf(err, errlen, "%s is not a whole SQLite database (%s)", path,
		         res != NULL ? res : sqlite3_errmsg(db));
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
