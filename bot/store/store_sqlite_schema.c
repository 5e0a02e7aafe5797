/* store_sqlite_schema: the database file and its tables; see store_sqlite_schema.h. */
#include "bot/store/store_sqlite_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bot/fsio.h"
#include "bot/log.h"
#include "bot/store/persist.h"
#include "bot/store/snapfile.h"
#include "bot/store/statedir.h"
#include "bot/store/store_sqlite.h"
#include "bot/store/store_sqlite_int.h"
#include "bot/store/walcheck.h"

/* Writes checked against generations (store_backend.h): a new row (?5 is
 * 1) only where none is, a changed one only at the generation it was read
 * at (?6); sqlite3_changes() tells a conflict. The PUT forms ignore
 * generations (store_sqlite_write_now). A channel's ?7 is its at_start. */
static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_GEN_CHANNEL] = "SELECT generation FROM channels WHERE key = ?1",
    [ST_GEN_USER] = "SELECT generation FROM users WHERE key = ?1",
    [ST_NEW_CHANNEL] = "INSERT INTO channels(key, last_used, version, rec, generation, "
                       "at_start) VALUES(?1, ?2, ?3, ?4, ?5, ?7) ON CONFLICT(key) DO NOTHING",
    [ST_NEW_USER] = "INSERT INTO users(key, version, rec, generation) VALUES(?1, ?3, ?4, ?5) "
                    "ON CONFLICT(key) DO NOTHING",
    [ST_SET_CHANNEL] = "UPDATE channels SET last_used = ?2, version = ?3, rec = ?4, "
                       "generation = ?5, at_start = ?7 WHERE key = ?1 AND generation = ?6",
    [ST_SET_USER] = "UPDATE users SET version = ?3, rec = ?4, generation = ?5 "
                    "WHERE key = ?1 AND generation = ?6",
    [ST_PUT_CHANNEL] = "INSERT INTO channels(key, last_used, version, rec, generation, "
                       "at_start) VALUES(?1, ?2, ?3, ?4, ?5, ?7) ON CONFLICT(key) DO UPDATE SET "
                       "last_used = excluded.last_used, version = excluded.version, "
                       "rec = excluded.rec, generation = excluded.generation, "
                       "at_start = excluded.at_start",
    [ST_PUT_USER] = "INSERT INTO users(key, version, rec, generation) VALUES(?1, ?3, ?4, ?5) "
                    "ON CONFLICT(key) DO UPDATE SET version = excluded.version, "
                    "rec = excluded.rec, generation = excluded.generation",
    [ST_DEL_CHANNEL] = "DELETE FROM channels WHERE key = ?1",
    [ST_DEL_USER] = "DELETE FROM users WHERE key = ?1",
    [ST_GONE] = "INSERT INTO gone(kind, key, at) VALUES(?1, ?2, ?3) ON CONFLICT(kind, key) DO "
                "UPDATE SET at = max(at, excluded.at)",
    [ST_GET_CHANNEL] = "SELECT last_used, version, rec, generation FROM channels WHERE key = ?1",
    [ST_GET_USER] = "SELECT 0, version, rec, generation FROM users WHERE key = ?1",
    [ST_LOG_ADD] = "INSERT INTO logs(key, seq, rec) VALUES(?1, ?2, ?3) ON CONFLICT DO NOTHING",
    [ST_LOG_TRIM] = "DELETE FROM logs WHERE key = ?1 AND seq <= ?2",
    [ST_LOG_CLEAR] = "DELETE FROM logs WHERE key = ?1",
    [ST_LOG_GET] = "SELECT seq, rec FROM logs WHERE key = ?1 ORDER BY seq",
    [ST_PUT_MARK] = "INSERT OR IGNORE INTO handled(key, at, answer) VALUES(?1, ?2, ?3)",
    [ST_EXPIRE_MARKS] = "DELETE FROM handled WHERE at < ?1",
    [ST_GET_MARK] = "SELECT at, 0, answer, 0 FROM handled WHERE key = ?1",
    [ST_PUT_MARK_ID] = "INSERT OR IGNORE INTO handled_ids(id, at, answer) VALUES(?1, ?2, ?3)",
    [ST_EXPIRE_MARK_IDS] = "DELETE FROM handled_ids WHERE at < ?1",
    [ST_GET_MARK_ID] = "SELECT at, 0, answer, 0 FROM handled_ids WHERE id = ?1",
};

/* The marks of the events handled (STORE_HANDLED): those whose key is a
 * number (store_sqlite_mark_id: Discord's interaction ids) in a table
 * whose rowid is that number (one b-tree), the others keyed by their text
 * (a table and the index of its keys). */
#define HANDLED_SCHEMA                                                                             \
	"CREATE TABLE IF NOT EXISTS handled(key TEXT PRIMARY KEY NOT NULL, "                       \
	"at INTEGER NOT NULL, answer BLOB NOT NULL);"                                              \
	"CREATE TABLE IF NOT EXISTS handled_ids(id INTEGER PRIMARY KEY, "                          \
	"at INTEGER NOT NULL, answer BLOB NOT NULL);"
/* The marks of schema 3 whose key is a number, as SQL: the key is the
 * decimal text of a number from 0 to 2^63 - 1 (store_sqlite_mark_id). */
#define MARK_KEY_IS_ID "(key NOT LIKE '-%' AND CAST(CAST(key AS INTEGER) AS TEXT) = key)"
/* Channels and users are rowid tables: a record is stored in its b-tree
 * leaf up to about 4 KB, where a table WITHOUT ROWID (as in schema 1)
 * spills any record past about 1 KB into overflow pages of their own. A
 * log entry is small: WITHOUT ROWID keeps a channel's entries together in
 * the order of their numbers. A channel's at_start is NULL where it is not
 * known (store_sqlite.h). */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS channels(key TEXT NOT NULL UNIQUE, "
    "last_used INTEGER NOT NULL, version INTEGER NOT NULL, rec BLOB NOT NULL, "
    "generation INTEGER NOT NULL DEFAULT 0, at_start INTEGER);"
    "CREATE TABLE IF NOT EXISTS users(key TEXT NOT NULL UNIQUE, "
    "version INTEGER NOT NULL, rec BLOB NOT NULL, "
    "generation INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS logs(key TEXT NOT NULL, seq INTEGER NOT NULL, "
    "rec BLOB NOT NULL, PRIMARY KEY(key, seq)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS gone(kind INTEGER NOT NULL, key TEXT NOT NULL, "
    "at INTEGER NOT NULL, PRIMARY KEY(kind, key)) WITHOUT ROWID;" HANDLED_SCHEMA;
static const char handled_schema[] = HANDLED_SCHEMA;
/* The channels wanted at every start, or not known yet (at_start 1 or
 * NULL; few of all): the start reads them through this index alone. Made
 * at every open where missing (a schema-3 database from before it); a
 * delver that does not know it keeps it up to date all the same. */
static const char at_start_index[] = "CREATE INDEX IF NOT EXISTS channels_at_start ON "
                                     "channels(key) WHERE at_start IS NOT 0";

const char *
store_sqlite_schema(void)
{
	return schema;
}

static void
damaged(struct sqlite_backend *b, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen,
	         "the database %s is damaged (%s); delver leaves it as it is and will not start "
	         "on it: put back a copy from a backup or a snapshot file, or move it aside to "
	         "start with no saved state",
	         b->path, why);
	b->fail = PERSIST_DAMAGED;
}

/*
 * Refuses a database SQLite opened but will not write, which would fail
 * every change until the stop: a header whose write version (byte 18) is
 * past 2 (a newer SQLite's format, or damage), or a file system mounted
 * read-only. Call it once a read has loaded the header (check_db).
 */
static int
check_written(struct sqlite_backend *b, char *err, size_t errlen)
{
	unsigned char head[20];
	char why[200];
	int fd;
	bool newer;

	if (sqlite3_db_readonly(b->db, "main") != 1)
		return 0;
	fd = open(b->path, O_RDONLY | O_CLOEXEC);
	newer =
	    fd >= 0 && pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) && head[18] > 2;
	if (fd >= 0)
		close(fd);
	if (newer) {
		snprintf(why, sizeof(why),
		         "its header says only a newer SQLite may write it (file format write "
		         "version %u; this SQLite writes versions 1 and 2)",
		         head[18]);
		damaged(b, why, err, errlen);
		return -1;
	}
	snprintf(err, errlen,
	         "cannot write the database %s: SQLite opened it read-only (is its file system "
	         "mounted read-only?)",
	         b->path);
	b->fail = STATEDIR_UNSAFE;
	return -1;
}

/* The directory of the database (the state directory), into dir. */
static void
dir_of(const struct sqlite_backend *b, char *dir, size_t len)
{
	const char *slash = strrchr(b->path, '/');

	snprintf(dir, len, "%.*s",
	         slash == NULL      ? 1
	         : slash == b->path ? 1
	                            : (int)(slash - b->path),
	         slash == NULL ? "." : b->path);
}

/*
 * The check's read failed (SQLite's error on b->db): a full disk when
 * SQLite says so (SQLITE_FULL) or an I/O error meets a full file system
 * (opening the log files of a database stopped cleanly writes them), which
 * freeing space mends, so errno ENOSPC (exit status 1); else damage.
 */
static void
unreadable(struct sqlite_backend *b, char *err, size_t errlen)
{
	int code = sqlite3_extended_errcode(b->db) & 0xff;
	char dir[4300], mnt[4300];
	unsigned long long free_kb;
	bool full;

	dir_of(b, dir, sizeof(dir));
	full = statedir_full(dir, mnt, sizeof(mnt), &free_kb);
	if (code != SQLITE_FULL && !(code == SQLITE_IOERR && full)) {
		damaged(b, sqlite3_errmsg(b->db), err, errlen);
		return;
	}
	snprintf(err, errlen,
	         "the disk holding the state directory %s is full (the file system mounted on %s "
	         "has %llu KiB free), so the database %s cannot be opened (%s); delver leaves it "
	         "as it is and starts on it once space is freed there",
	         dir, mnt, free_kb, b->path, sqlite3_errmsg(b->db));
	b->fail = ENOSPC;
}

/* Checks the whole database file before anything may write to it. */
static int
check_db(struct sqlite_backend *b, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	const char *res;
	int rc;

	if (sqlite3_prepare_v2(b->db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK) {
		unreadable(b, err, errlen);
		return -1;
	}
	rc = sqlite3_step(s);
	res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
	if (rc != SQLITE_ROW || res == NULL) {
		unreadable(b, err, errlen);
		sqlite3_finalize(s);
		return -1;
	}
	if (strcmp(res, "ok") != 0) {
		damaged(b, res, err, errlen);
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

static bool
has_column(struct sqlite_backend *b, const char *table, const char *column)
{
	char sql[128];
	sqlite3_stmt *s;
	bool found = false;

	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", table);
	if (sqlite3_prepare_v2(b->db, sql, -1, &s, NULL) != SQLITE_OK)
		return false;
	while (!found && sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);

		found = name != NULL && strcmp(name, column) == 0;
	}
	sqlite3_finalize(s);
	return found;
}

static int
user_version(struct sqlite_backend *b)
{
	sqlite3_stmt *s;
	int v = -1;

	if (sqlite3_prepare_v2(b->db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* Brings the tables of an older delver to the current schema, in one
 * transaction: tables written before generations get the column (every
 * row at generation 0); schema 1's tables WITHOUT ROWID are copied into
 * rowid tables, and the log's table is made, the space the old tables held
 * given back (VACUUM) once the new ones are committed; schema 2's channels
 * get at_start; schema 3's marks whose key is a number move to the table
 * keyed by it (handled_ids). Every channel row brought over has at_start
 * NULL (not known): the next start loads it and sets it
 * (store_sqlite_read_active). */
static int
migrate(struct sqlite_backend *b, char *err, size_t errlen)
{
	static const char *const tables[2] = {"channels", "users"};
	static const char rebuild[] = "ALTER TABLE channels RENAME TO channels_schema1;"
	                              "ALTER TABLE users RENAME TO users_schema1;";
	static const char copy[] =
	    "INSERT INTO channels(key, last_used, version, rec, generation) "
	    "SELECT key, last_used, version, rec, generation FROM channels_schema1;"
	    "INSERT INTO users(key, version, rec, generation) "
	    "SELECT key, version, rec, generation FROM users_schema1;"
	    "DROP TABLE channels_schema1;"
	    "DROP TABLE users_schema1;";
	/* Schema 4: the marks keyed by a number move to their own table. */
	static const char move_ids[] = HANDLED_SCHEMA
	    "INSERT INTO handled_ids(id, at, answer) SELECT CAST(key AS INTEGER), at, answer "
	    "FROM handled WHERE " MARK_KEY_IS_ID ";"
	    "DELETE FROM handled WHERE " MARK_KEY_IS_ID ";";
	char sql[160];
	int v = user_version(b);

	if (v < 0) {
		snprintf(err, errlen, "cannot read the schema version of %s: %s", b->path,
		         sqlite3_errmsg(b->db));
		return -1;
	}
	if (v > STORE_SQLITE_SCHEMA) {
		snprintf(err, errlen,
		         "the database %s was written by a newer delver (schema %d; this one knows "
		         "%d); run that version, or restore a snapshot file this version wrote",
		         b->path, v, STORE_SQLITE_SCHEMA);
		b->fail = PERSIST_DAMAGED;
		return -1;
	}
	if (v == STORE_SQLITE_SCHEMA)
		return 0;
	if (store_sqlite__exec_sql(b, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	for (int t = 0; t < 2; t++) {
		if (has_column(b, tables[t], "generation"))
			continue;
		snprintf(sql, sizeof(sql),
		         "ALTER TABLE %s ADD COLUMN generation INTEGER NOT NULL DEFAULT 0",
		         tables[t]);
		if (store_sqlite__exec_sql(b, sql, err, errlen) < 0)
			goto fail;
	}
	if (v < 2 && (store_sqlite__exec_sql(b, rebuild, err, errlen) < 0 ||
	              store_sqlite__exec_sql(b, schema, err, errlen) < 0 ||
	              store_sqlite__exec_sql(b, copy, err, errlen) < 0))
		goto fail;
	if (v >= 2 && !has_column(b, "channels", "at_start") &&
	    store_sqlite__exec_sql(b, "ALTER TABLE channels ADD COLUMN at_start INTEGER", err,
	                           errlen) < 0)
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SQLITE_SCHEMA);
	if (sqlite3_exec(b->db, move_ids, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(b->db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(b->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(
		    err, errlen,
		    "cannot bring the database %s from schema %d to %d (%s); it was left as it "
		    "was, and delver starts on it once that is mended (free disk space, for one)",
		    b->path, v, STORE_SQLITE_SCHEMA, sqlite3_errmsg(b->db));
		goto fail;
	}
	if (v < 2 && store_sqlite__exec_sql(b, "VACUUM", err, errlen) < 0)
		return -1;
	log_info("store: %s brought from schema %d to %d", b->path, v, STORE_SQLITE_SCHEMA);
	return 0;
fail:
	sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Refuses a database (or its log) delver could not write: statedir.h. */
static int
check_writable(struct sqlite_backend *b, char *err, size_t errlen)
{
	static const char *const parts[] = {"", "-wal", "-shm"};
	char path[4400];

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", b->path, parts[i]);
		if (statedir_check_file(path, i == 0 ? "database" : "database log", err, errlen) <
		    0) {
			b->fail = STATEDIR_UNSAFE;
			return -1;
		}
	}
	return 0;
}

/*
 * Makes a new database, whole, under a temporary name (PATH.new), then
 * gives it its name: a start stopped while it makes one (killed, the power
 * lost, a write failed) leaves no delver.db, which would be empty and so
 * taken for a damaged database by every later start, but at most the
 * temporary file, which the next start removes before it makes its own.
 * The file is 0600 whatever the umask; SQLite gives its log files the
 * database's mode.
 */
static int
create_db(struct sqlite_backend *b, char *err, size_t errlen)
{
	char tmp[4300], dir[4300], sql[64];
	sqlite3 *db = NULL;
	int e;

	snprintf(tmp, sizeof(tmp), "%s.new", b->path);
	dir_of(b, dir, sizeof(dir));
	snapfile_remove(tmp);
	if (statedir_create_file(tmp) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot create the database %s: %s", b->path, strerror(e));
		b->fail = e == EACCES || e == EPERM || e == EROFS ? STATEDIR_UNSAFE : e;
		return -1;
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SQLITE_SCHEMA);
	/* One transaction, committed with synchronous FULL (the default of a
	 * rollback journal): the file is whole on disk before its rename. */
	if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot create the database %s: %s", b->path,
		         db != NULL ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		snapfile_remove(tmp);
		return -1;
	}
	sqlite3_close(db);
	if (fsio_rename(tmp, b->path) < 0 || fsio_fsync_dir(dir) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot create the database %s: %s", b->path, strerror(e));
		snapfile_remove(tmp);
		return -1;
	}
	return 0;
}

/*
 * Reads the log beside the database before SQLite recovers it, which drops
 * every frame from the first unreadable one on and later writes over the
 * log: a damaged log is copied aside and named in one warning (walcheck.h),
 * and the start goes on with what SQLite recovers.
 */
static void
check_log(const struct sqlite_backend *b)
{
	char msg[9000];

	if (walcheck_keep(b->path, time(NULL), msg, sizeof(msg)) != 0)
		log_warnx("store: %s", msg);
}

int
store_sqlite_schema_open(struct sqlite_backend *b, char *err, size_t errlen)
{
	struct stat sb;
	bool had[2];
	int rc;

	/* A link is refused before anything is read through it. */
	if (check_writable(b, err, errlen) < 0)
		return -1;
	/* SQLite takes an empty file for a new database: an empty file was cut
	 * short (delver writes the header as it creates it). */
	if (stat(b->path, &sb) == 0 && sb.st_size == 0) {
		damaged(b, "the file is empty: truncated", err, errlen);
		return -1;
	}
	if (stat(b->path, &sb) < 0 && errno == ENOENT && create_db(b, err, errlen) < 0)
		return -1;
	store_sqlite_logs_present(b->path, had);
	check_log(b);
	rc = sqlite3_open_v2(b->path, &b->db,
	                     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
	                     NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the database %s: %s", b->path,
		         b->db ? sqlite3_errmsg(b->db) : sqlite3_errstr(rc));
		return -1;
	}
	sqlite3_extended_result_codes(b->db, 1);
	sqlite3_busy_timeout(b->db, BUSY_MS);
	store_sqlite__set_cache(b->db, CACHE_WRITER_KIB);
	/* Closing must not checkpoint a WAL into a file that fails the check. */
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	if (check_db(b, err, errlen) < 0 || check_written(b, err, errlen) < 0) {
		/* Refused before any write: the directory is left as it was. */
		sqlite3_close(b->db);
		b->db = NULL;
		store_sqlite_logs_remove_made(b->path, had);
		return -1;
	}
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
	if (store_sqlite__exec_sql(b, "PRAGMA journal_mode = WAL", err, errlen) < 0 ||
	    store_sqlite__exec_sql(b, store_sqlite__sync_pragma(b->sync), err, errlen) < 0)
		return -1;
	b->sync_set = b->sync;
	store_sqlite__set_autockpt(b, b->sync);
	if (has_column(b, "channels", "key")) {
		if (migrate(b, err, errlen) < 0)
			return -1;
	} else {
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SQLITE_SCHEMA);
		if (store_sqlite__exec_sql(b, schema, err, errlen) < 0 ||
		    store_sqlite__exec_sql(b, sql, err, errlen) < 0)
			return -1;
	}
	/* The marks came within schema 2: a database without them gets them
	 * (a delver that does not know them leaves them alone). */
	if (store_sqlite__exec_sql(b, handled_schema, err, errlen) < 0 ||
	    store_sqlite__exec_sql(b, at_start_index, err, errlen) < 0)
		return -1;
	for (int i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(b->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
		                       &b->stmt[i], NULL) != SQLITE_OK) {
			snprintf(err, errlen, "cannot prepare a statement on %s: %s", b->path,
			         sqlite3_errmsg(b->db));
			return -1;
		}
	}
	if (sqlite3_open_v2(b->path, &b->rdb, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	        SQLITE_OK ||
	    sqlite3_prepare_v3(b->rdb, stmt_sql[ST_GET_CHANNEL], -1, SQLITE_PREPARE_PERSISTENT,
	                       &b->rget[0], NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(b->rdb, stmt_sql[ST_GET_USER], -1, SQLITE_PREPARE_PERSISTENT,
	                       &b->rget[1], NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(b->rdb, stmt_sql[ST_LOG_GET], -1, SQLITE_PREPARE_PERSISTENT,
	                       &b->rget[2], NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(b->rdb, stmt_sql[ST_GET_MARK], -1, SQLITE_PREPARE_PERSISTENT,
	                       &b->rget[3], NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(b->rdb, stmt_sql[ST_GET_MARK_ID], -1, SQLITE_PREPARE_PERSISTENT,
	                       &b->rget[4], NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s for reading: %s", b->path,
		         b->rdb != NULL ? sqlite3_errmsg(b->rdb) : "out of memory");
		return -1;
	}
	sqlite3_busy_timeout(b->rdb, BUSY_MS);
	store_sqlite__set_cache(b->rdb, CACHE_READER_KIB);
	if (sqlite3_open_v2(b->path, &b->cdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s for its checkpoints: %s", b->path,
		         b->cdb != NULL ? sqlite3_errmsg(b->cdb) : "out of memory");
		return -1;
	}
	sqlite3_busy_timeout(b->cdb, BUSY_MS);
	store_sqlite__set_cache(b->cdb, CACHE_ONCE_KIB);
	/* everysec: the checkpoint fsyncs the log, then the database. */
	if (sqlite3_exec(b->cdb, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot set up %s for its checkpoints: %s", b->path,
		         sqlite3_errmsg(b->cdb));
		return -1;
	}
	return 0;
}
