/* store_merge: newer rows of sibling databases at start; see store_merge.h. */
#include "bot/store/store_merge.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "bot/log.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/buf.h"

#define BUSY_MS 5000

/*
 * What is newer in sib, in one transaction of the own database. A
 * channel's change is its last_used, or, at the same last_used, a log
 * entry appended (a roll writes only its log row: the highest entry number
 * tells). temp.taken holds the channels sib has newer; their rows and their
 * log entries replace ours. A sibling of an older delver may keep no log
 * table: SIBSEQ is then 0.
 */
#define TAKEN(SIBSEQ)                                                                              \
	"INSERT INTO temp.taken SELECT s.key FROM sib.channels s "                                 \
	"LEFT JOIN main.channels c ON c.key = s.key "                                              \
	"LEFT JOIN main.gone g ON g.kind = 0 AND g.key = s.key "                                   \
	"WHERE (c.key IS NULL OR s.last_used > c.last_used OR (s.last_used = c.last_used "         \
	"AND " SIBSEQ " > COALESCE((SELECT max(seq) FROM main.logs WHERE key = s.key), 0))) "      \
	"AND (g.key IS NULL OR s.last_used > g.at)"
#define SIB_MAXSEQ "COALESCE((SELECT max(seq) FROM sib.logs WHERE key = s.key), 0)"

static const char *const taken_sql[2] = {TAKEN("0"), TAKEN(SIB_MAXSEQ)};

static const char new_taken[] = "CREATE TEMP TABLE IF NOT EXISTS taken(key TEXT PRIMARY KEY);"
                                "DELETE FROM temp.taken";
static const char take_channels[] =
    "INSERT INTO main.channels(key, last_used, version, rec, generation) "
    "SELECT s.key, s.last_used, s.version, s.rec, COALESCE(c.generation, 0) + 1 "
    "FROM sib.channels s JOIN temp.taken t ON t.key = s.key "
    "LEFT JOIN main.channels c ON c.key = s.key WHERE true "
    "ON CONFLICT(key) DO UPDATE SET last_used = excluded.last_used, version = "
    "excluded.version, rec = excluded.rec, generation = excluded.generation";
static const char drop_logs[] = "DELETE FROM main.logs WHERE key IN (SELECT key FROM temp.taken)";
static const char take_logs[] =
    "INSERT INTO main.logs(key, seq, rec) SELECT l.key, l.seq, l.rec FROM sib.logs l "
    "JOIN temp.taken t ON t.key = l.key";
static const char take_users[] =
    "INSERT INTO main.users(key, version, rec, generation) "
    "SELECT s.key, s.version, s.rec, 1 FROM sib.users s WHERE NOT EXISTS (SELECT 1 FROM "
    "main.users u WHERE u.key = s.key) AND NOT EXISTS (SELECT 1 FROM main.gone g WHERE "
    "g.kind = 1 AND g.key = s.key)";

/* Deletions newer in sib: our older copy goes (with its log), and the
 * deletion is kept as ours. */
static const char *const gone_steps[] = {
    "DELETE FROM main.logs WHERE key IN (SELECT c.key FROM main.channels c JOIN sib.gone g "
    "ON g.kind = 0 AND g.key = c.key AND g.at > c.last_used)",
    "DELETE FROM main.channels WHERE EXISTS (SELECT 1 FROM sib.gone g WHERE g.kind = 0 AND "
    "g.key = channels.key AND g.at > channels.last_used)",
    "INSERT INTO main.gone(kind, key, at) SELECT 0, s.key, s.at FROM sib.gone s "
    "WHERE s.kind = 0 ON CONFLICT(kind, key) DO UPDATE SET at = max(at, excluded.at)",
};

/* "file:PATH?mode=ro" with the characters a URI gives meaning to escaped. */
static void
uri_of(const char *path, struct buf *b)
{
	buf_adds(b, "file:");
	for (const char *p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			buf_addf(b, "%%%02X", (unsigned char)*p);
		else
			buf_addc(b, *p);
	}
	buf_adds(b, "?mode=ro");
}

/* Whether sib has the table (an older delver's database may lack it). */
static bool
sib_has(sqlite3 *db, const char *table)
{
	sqlite3_stmt *s;
	bool yes = false;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sib.sqlite_master WHERE name = ?1", -1, &s,
	                       NULL) == SQLITE_OK &&
	    sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC) == SQLITE_OK)
		yes = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return yes;
}

/* Runs sql, adding the rows it changed to *taken when count is set. */
static bool
step(sqlite3 *db, const char *sql, bool count, long *taken)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return false;
	if (count)
		*taken += sqlite3_changes(db);
	return true;
}

/* One sibling: rows taken, or -1 (logged). */
static long
merge_one(sqlite3 *db, const char *from)
{
	struct buf uri;
	sqlite3_stmt *s = NULL;
	long taken = 0;
	bool ok, logs;

	buf_init(&uri, 16384);
	uri_of(from, &uri);
	ok = sqlite3_prepare_v2(db, "ATTACH DATABASE ?1 AS sib", -1, &s, NULL) == SQLITE_OK &&
	     sqlite3_bind_text(s, 1, buf_str(&uri), -1, SQLITE_STATIC) == SQLITE_OK &&
	     sqlite3_step(s) == SQLITE_DONE;
	sqlite3_finalize(s);
	buf_free(&uri);
	if (!ok) {
		log_warnx("store: cannot read %s to take what is newer there: %s", from,
		          sqlite3_errmsg(db));
		return -1;
	}
	logs = sib_has(db, "logs");
	ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK &&
	     step(db, new_taken, false, &taken) && step(db, taken_sql[logs], false, &taken) &&
	     step(db, take_channels, true, &taken) &&
	     store_sqlite_forget_at_start(db, "key IN (SELECT key FROM temp.taken)", NULL) == 0 &&
	     step(db, drop_logs, false, &taken) && (!logs || step(db, take_logs, false, &taken)) &&
	     step(db, take_users, true, &taken);
	if (ok && sib_has(db, "gone")) {
		ok = step(db, gone_steps[0], false, &taken) &&
		     step(db, gone_steps[1], true, &taken) &&
		     step(db, gone_steps[2], false, &taken);
	}
	if (!ok || sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		log_warnx("store: cannot take what is newer in %s: %s", from, sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		taken = -1;
	} else if (taken > 0) {
		log_info("store: took %ld record%s newer in %s", taken, taken == 1 ? "" : "s",
		         from);
	}
	sqlite3_exec(db, "DETACH DATABASE sib", NULL, NULL, NULL);
	return taken;
}

long
store_merge(const char *own, char *const *from, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	long total = 0;

	if (from == NULL || from[0] == NULL)
		return 0;
	if (sqlite3_open_v2(own, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s to take the other shards' newer records: %s",
		         own, db != NULL ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, BUSY_MS);
	for (size_t i = 0; from[i] != NULL; i++) {
		long n = merge_one(db, from[i]);

		if (n > 0)
			total += n;
	}
	sqlite3_close(db);
	return total;
}
