/* store_sqlite: the SQLite backend; see store_sqlite.h. */
#include "bot/store/store_sqlite.h"
#include "bot/store/store.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "bot/log.h"
#include "bot/fsio.h"
#include "bot/store/persist.h"
#include "bot/store/snapfile.h"
#include "bot/store/statedir.h"
#include "bot/store/store_check.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define BUSY_MS 5000 /* another connection (a snapshot's) holding a lock */
#define CKPT_MS 1000 /* everysec: between checkpoints */

/* Page caches in KiB (SQLite's default is 2,000 for each connection): the
 * writer keeps the pages its commits come back to (the B-trees' upper
 * levels and newest leaves), the reader those of rows read back on the
 * loop; the checkpoint and a snapshot's copy read each page once. */
#define CACHE_WRITER_KIB 512
#define CACHE_READER_KIB 256
#define CACHE_ONCE_KIB   64

/* The writer's own checkpoints (PRAGMA wal_autocheckpoint, in frames of
 * the log): SQLite's default runs one inside the commit that takes the log
 * past 1,000 frames, with its two fsyncs. Under everysec the pool's
 * checkpoint keeps the log to about a second of commits, and the writer
 * checkpoints only past a log of 64 MiB, should the pool fall behind. */
#define AUTOCKPT_FRAMES          1000
#define AUTOCKPT_EVERYSEC_FRAMES 16384

enum stmt {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_GEN_CHANNEL,
	ST_GEN_USER,
	ST_NEW_CHANNEL,
	ST_NEW_USER,
	ST_SET_CHANNEL,
	ST_SET_USER,
	ST_PUT_CHANNEL,
	ST_PUT_USER,
	ST_DEL_CHANNEL,
	ST_DEL_USER,
	ST_GONE,
	ST_GET_CHANNEL,
	ST_GET_USER,
	ST_LOG_ADD,
	ST_LOG_TRIM,
	ST_LOG_CLEAR,
	ST_LOG_GET,
	ST_PUT_MARK,
	ST_EXPIRE_MARKS,
	ST_GET_MARK,
	ST_COUNT,
};

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
    [ST_PUT_MARK] = "INSERT OR REPLACE INTO handled(key, at, answer) VALUES(?1, ?2, ?3)",
    [ST_EXPIRE_MARKS] = "DELETE FROM handled WHERE at < ?1",
    [ST_GET_MARK] = "SELECT at, 0, answer, 0 FROM handled WHERE key = ?1",
};

/* The marks of the events handled (STORE_HANDLED). */
#define HANDLED_SCHEMA                                                                             \
	"CREATE TABLE IF NOT EXISTS handled(key TEXT PRIMARY KEY NOT NULL, "                       \
	"at INTEGER NOT NULL, answer BLOB NOT NULL);"
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

enum job_kind {
	JOB_COMMIT,
	JOB_LOAD,
	JOB_REACH
};

struct job {
	struct sqlite_backend *b;
	struct job *next;
	enum job_kind kind;
	/* commit */
	struct store_row **rows; /* copies (store_row_dup) */
	size_t n;
	enum store_status *row_status;
	store_commit_cb commit_done;
	/* load */
	enum store_kind load_kind;
	char *key;
	struct store_row *found; /* a copy, or NULL */
	store_load_cb load_done;
	/* reach */
	store_done_cb reach_done;
	void *ctx;
	enum store_status status;
	char err[1024];
};

struct snap_job {
	uv_work_t req;
	struct sqlite_backend *b;
	char *src, *path, *tmp, *dir;
	store_done_cb done;
	void *ctx;
	enum store_status status;
	char err[1024];
};

struct sqlite_backend {
	struct store_backend base;
	char *path;
	int fail;     /* at open: the errno store_sqlite_open gives when it fails */
	sqlite3 *db;  /* the writer: one thread at a time */
	sqlite3 *rdb; /* read-only, on the loop */
	sqlite3 *cdb; /* the everysec checkpoints', on libuv's pool */
	sqlite3_stmt *stmt[ST_COUNT];
	sqlite3_stmt *rget[4]; /* on rdb: channel, user, a channel's log, mark */
	int sync;              /* asked: 0 OFF, 1 NORMAL, 2 FULL */
	int sync_set;          /* in force on db (changed by the worker) */
	bool everysec;
	struct job *head, *tail; /* waiting; head is running when running */
	bool running;
	/* The writer's thread: woken by go (one post per job), it takes the
	 * job in todo and leaves it in finished (under mu), then wakes the
	 * loop (async). */
	uv_thread_t thread;
	uv_sem_t go;
	uv_mutex_t mu;
	uv_async_t async;
	struct job *todo, *finished;
	bool thread_up;
	bool ckpt_due;
	bool ckpt_running;
	uv_work_t ckpt;
	char ckpt_err[1024]; /* the last checkpoint's failure, "" when none */
	uint64_t checkpoints;
	int snapshots; /* running */
	bool closing;
	store_done_cb closed;
	void *closed_ctx;
	uv_timer_t timer;
};

static const struct store_backend_ops sqlite_ops;

static int
sync_of(enum fsync_policy f)
{
	return f == FSYNC_ALWAYS ? 2 : f == FSYNC_NO ? 0 : 1;
}

static const char *
sync_pragma(int s)
{
	return s == 2   ? "PRAGMA synchronous = FULL"
	       : s == 0 ? "PRAGMA synchronous = OFF"
	                : "PRAGMA synchronous = NORMAL";
}

/* Bounds db's page cache to kib KiB. */
static void
set_cache(sqlite3 *db, int kib)
{
	char sql[48];

	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%d", kib);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* The statement that reads a row of kind by key. */
static int
get_stmt(enum store_kind kind)
{
	return kind == STORE_CHANNEL ? ST_GET_CHANNEL
	       : kind == STORE_USER  ? ST_GET_USER
	                             : ST_GET_MARK;
}

/* Fills r from a row of ST_GET_* (last_used, version, rec, generation). */
static void
row_of_stmt(struct store_row *r, sqlite3_stmt *s, enum store_kind kind, const char *key)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->key = key;
	r->last_used = sqlite3_column_int64(s, 0);
	r->version = sqlite3_column_int(s, 1);
	r->rec = sqlite3_column_blob(s, 2);
	r->rec_len = (size_t)sqlite3_column_bytes(s, 2);
	if (r->rec == NULL)
		r->rec = "";
	r->generation = (uint64_t)sqlite3_column_int64(s, 3);
}

/* A channel's log entries as read: their texts in one buffer. */
struct log_read {
	struct store_log_row *rows;
	size_t *off; /* where each text starts in text (it may move as it grows) */
	size_t n, cap;
	struct buf text;
};

/* Reads key's log entries with s (ST_LOG_GET on some connection) into l
 * (emptied first) and points r's log at them, valid until l changes.
 * Returns 0, or -1 when the read failed (the connection's error message
 * says why). */
static int
read_log(sqlite3_stmt *s, const char *key, struct log_read *l, struct store_row *r)
{
	int rc;

	l->n = 0;
	buf_reset(&l->text);
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const void *rec = sqlite3_column_blob(s, 1);
		size_t len = (size_t)sqlite3_column_bytes(s, 1);

		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 32;
			l->rows = xrealloc(l->rows, l->cap * sizeof(*l->rows));
			l->off = xrealloc(l->off, l->cap * sizeof(*l->off));
		}
		l->rows[l->n].seq = (uint64_t)sqlite3_column_int64(s, 0);
		l->rows[l->n].rec_len = len;
		l->off[l->n] = l->text.len;
		buf_add(&l->text, rec != NULL ? rec : "", len);
		l->n++;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE)
		return -1;
	for (size_t i = 0; i < l->n; i++)
		l->rows[i].rec = l->text.p + l->off[i];
	r->log = l->n > 0 ? l->rows : NULL;
	r->nlog = l->n;
	return 0;
}

static void
log_read_init(struct log_read *l)
{
	memset(l, 0, sizeof(*l));
	buf_init(&l->text, (size_t)-1);
}

static void
log_read_free(struct log_read *l)
{
	free(l->rows);
	free(l->off);
	buf_free(&l->text);
}

/* The result of the calling thread's last step_reset (write_rows tells a
 * full disk from it: the rollback that follows sets the error code again). */
static _Thread_local int step_rc;

static int
step_reset(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	step_rc = rc;
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* --- the worker's jobs --- */

/* Runs s (bound) and tells whether it changed a row: 1, 0 (a conflict
 * where one was expected), or -1 when it failed. */
static int
step_changed(struct sqlite_backend *b, sqlite3_stmt *s)
{
	if (step_reset(s) < 0)
		return -1;
	return sqlite3_changes(b->db) > 0;
}

/* The generation stored for r's key: 1 with *stored, 0 when no row is
 * stored, -1 when the read failed. */
static int
stored_generation(struct sqlite_backend *b, const struct store_row *r, uint64_t *stored)
{
	sqlite3_stmt *g = b->stmt[r->kind == STORE_CHANNEL ? ST_GEN_CHANNEL : ST_GEN_USER];
	int rc;

	sqlite3_bind_text(g, 1, r->key, -1, SQLITE_STATIC);
	rc = sqlite3_step(g);
	if (rc == SQLITE_ROW)
		*stored = (uint64_t)sqlite3_column_int64(g, 0);
	sqlite3_reset(g);
	sqlite3_clear_bindings(g);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Runs a statement of the log on key (ST_LOG_CLEAR, or ST_LOG_TRIM up to
 * seq). Returns 0 or -1. */
static int
log_step(struct sqlite_backend *b, enum stmt st, const char *key, uint64_t seq)
{
	sqlite3_stmt *s = b->stmt[st];

	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if (st == ST_LOG_TRIM)
		sqlite3_bind_int64(s, 2, (int64_t)seq);
	return step_reset(s);
}

/* Appends r's log entries and drops the channel's entries past its newest
 * log_keep. */
static enum store_status
put_log(struct sqlite_backend *b, const struct store_row *r)
{
	sqlite3_stmt *s = b->stmt[ST_LOG_ADD];
	uint64_t newest = 0;

	for (size_t i = 0; i < r->nlog; i++) {
		int rc;

		sqlite3_bind_text(s, 1, r->key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 2, (int64_t)r->log[i].seq);
		sqlite3_bind_blob(s, 3, r->log[i].rec, (int)r->log[i].rec_len, SQLITE_STATIC);
		rc = step_changed(b, s);
		if (rc <= 0)
			return rc < 0 ? STORE_FAILED : STORE_CONFLICT;
		if (r->log[i].seq > newest)
			newest = r->log[i].seq;
	}
	if (r->nlog > 0 && r->log_keep > 0 && newest > r->log_keep &&
	    log_step(b, ST_LOG_TRIM, r->key, newest - r->log_keep) < 0)
		return STORE_FAILED;
	return STORE_OK;
}

/* Writes one row in the open transaction, checked against its generation
 * (store_backend.h) unless check is false. Returns the row's status, or
 * STORE_FAILED when a statement failed (the transaction is then lost). */
static enum store_status
put_row(struct sqlite_backend *b, const struct store_row *r, bool check)
{
	bool chan = r->kind == STORE_CHANNEL;
	sqlite3_stmt *s;
	uint64_t stored = 0;
	int rc;

	if (r->kind == STORE_HANDLED) {
		if (r->rec == NULL) {
			s = b->stmt[ST_EXPIRE_MARKS];
			sqlite3_bind_int64(s, 1, r->last_used);
		} else {
			s = b->stmt[ST_PUT_MARK];
			sqlite3_bind_text(s, 1, r->key, -1, SQLITE_STATIC);
			sqlite3_bind_int64(s, 2, r->last_used);
			sqlite3_bind_blob(s, 3, r->rec, (int)r->rec_len, SQLITE_STATIC);
		}
		return step_reset(s) == 0 ? STORE_OK : STORE_FAILED;
	}
	if (r->rec == NULL && !r->log_only) {
		/* A deletion: nothing to delete is no conflict. */
		rc = check ? stored_generation(b, r, &stored) : 0;
		if (rc < 0)
			return STORE_FAILED;
		if (rc == 1 && stored != r->generation)
			return STORE_CONFLICT;
		s = b->stmt[chan ? ST_DEL_CHANNEL : ST_DEL_USER];
		sqlite3_bind_text(s, 1, r->key, -1, SQLITE_STATIC);
		if (step_reset(s) < 0 || (chan && log_step(b, ST_LOG_CLEAR, r->key, 0) < 0))
			return STORE_FAILED;
		/* Kept, so that an older copy in another shard's database does not
		 * come back at a reshard (store_merge.h). */
		s = b->stmt[ST_GONE];
		sqlite3_bind_int(s, 1, chan ? 0 : 1);
		sqlite3_bind_text(s, 2, r->key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 3,
		                   chan && r->last_used > 0 ? r->last_used : (int64_t)time(NULL));
		return step_reset(s) == 0 ? STORE_OK : STORE_FAILED;
	}
	if (r->log_only) {
		/* The record is as stored: its generation must still be. */
		rc = stored_generation(b, r, &stored);
		if (rc < 0)
			return STORE_FAILED;
		if (rc == 1 ? stored != r->generation : r->generation != 0)
			return STORE_CONFLICT;
		return put_log(b, r);
	}
	if (!check)
		s = b->stmt[chan ? ST_PUT_CHANNEL : ST_PUT_USER];
	else if (r->generation == 0)
		s = b->stmt[chan ? ST_NEW_CHANNEL : ST_NEW_USER];
	else
		s = b->stmt[chan ? ST_SET_CHANNEL : ST_SET_USER];
	sqlite3_bind_text(s, 1, r->key, -1, SQLITE_STATIC);
	if (chan)
		sqlite3_bind_int64(s, 2, r->last_used);
	sqlite3_bind_int(s, 3, r->version);
	sqlite3_bind_blob(s, 4, r->rec, (int)r->rec_len, SQLITE_STATIC);
	sqlite3_bind_int64(s, 5, check ? (int64_t)(r->generation + 1) : 1);
	if (check && r->generation != 0)
		sqlite3_bind_int64(s, 6, (int64_t)r->generation);
	if (chan)
		sqlite3_bind_int(s, 7, r->at_start ? 1 : 0);
	rc = step_changed(b, s);
	if (rc <= 0)
		return rc < 0 ? STORE_FAILED : STORE_CONFLICT;
	/* A new channel starts with no entries (none left by a row deleted
	 * outside delver). */
	if (chan && (r->generation == 0 || !check) && log_step(b, ST_LOG_CLEAR, r->key, 0) < 0)
		return STORE_FAILED;
	return chan ? put_log(b, r) : STORE_OK;
}

/* One transaction for rows; fills status (all STORE_FAILED when it could
 * not commit, STORE_FULL when the disk is full; when a row conflicts, the
 * transaction is rolled back: those rows STORE_CONFLICT, the others
 * STORE_NOT_WRITTEN). Returns 0, -1 with err, or -2 with err after a
 * conflict. */
static int
write_rows(struct sqlite_backend *b, struct store_row *const *rows, const struct store_row *plain,
           size_t n, enum store_status *status, bool check, char *err, size_t errlen)
{
	enum store_status why = STORE_FAILED;
	size_t conflicts = 0;

	if (step_reset(b->stmt[ST_BEGIN]) < 0) {
		snprintf(err, errlen, "cannot begin a transaction on %s: %s", b->path,
		         sqlite3_errmsg(b->db));
		if ((step_rc & 0xff) == SQLITE_FULL)
			why = STORE_FULL;
		goto failed;
	}
	for (size_t i = 0; i < n; i++) {
		const struct store_row *r = rows != NULL ? rows[i] : &plain[i];
		enum store_status st = put_row(b, r, check);

		if (status != NULL)
			status[i] = st;
		if (st == STORE_FAILED) {
			snprintf(err, errlen, "cannot write to %s: %s", b->path,
			         sqlite3_errmsg(b->db));
			goto rollback;
		}
		conflicts += st == STORE_CONFLICT;
	}
	if (conflicts > 0) {
		/* Nothing of the batch is kept (store_backend.h). */
		snprintf(err, errlen,
		         "%zu of the records written to %s had been written by another process "
		         "since they were read; the transaction was rolled back",
		         conflicts, b->path);
		if (step_reset(b->stmt[ST_ROLLBACK]) < 0)
			goto rollback;
		for (size_t i = 0; status != NULL && i < n; i++)
			if (status[i] != STORE_CONFLICT)
				status[i] = STORE_NOT_WRITTEN;
		return -2;
	}
	if (step_reset(b->stmt[ST_COMMIT]) == 0)
		return 0;
	snprintf(err, errlen, "cannot commit to %s: %s", b->path, sqlite3_errmsg(b->db));
rollback:
	if ((step_rc & 0xff) == SQLITE_FULL)
		why = STORE_FULL;
	step_reset(b->stmt[ST_ROLLBACK]);
failed:
	for (size_t i = 0; status != NULL && i < n; i++)
		status[i] = why;
	return -1;
}

/* The writer's checkpoints as the synchronous setting s asks (1: everysec). */
static void
set_autockpt(struct sqlite_backend *b, int s)
{
	sqlite3_wal_autocheckpoint(b->db, s == 1 ? AUTOCKPT_EVERYSEC_FRAMES : AUTOCKPT_FRAMES);
}

/* Runs j on the writer's thread. */
static void
job_work(struct job *j)
{
	struct sqlite_backend *b = j->b;
	int want = __atomic_load_n(&b->sync, __ATOMIC_ACQUIRE);

	if (want != b->sync_set &&
	    sqlite3_exec(b->db, sync_pragma(want), NULL, NULL, NULL) == SQLITE_OK) {
		b->sync_set = want;
		set_autockpt(b, want);
	}
	j->status = STORE_OK;
	if (j->kind == JOB_COMMIT) {
		int rc =
		    write_rows(b, j->rows, NULL, j->n, j->row_status, true, j->err, sizeof(j->err));

		if (rc < 0)
			j->status = rc == -2 ? STORE_CONFLICT : STORE_FAILED;
	} else if (j->kind == JOB_LOAD) {
		sqlite3_stmt *s = b->stmt[get_stmt(j->load_kind)];
		int rc;

		struct log_read l;
		struct store_row r;

		log_read_init(&l);
		sqlite3_bind_text(s, 1, j->key, -1, SQLITE_STATIC);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			row_of_stmt(&r, s, j->load_kind, j->key);
		if (rc == SQLITE_ROW && j->load_kind == STORE_CHANNEL) {
			/* The record's text stays valid: this statement is not
			 * stepped again before the copy. */
			if (read_log(b->stmt[ST_LOG_GET], j->key, &l, &r) < 0)
				rc = SQLITE_ERROR;
		}
		if (rc == SQLITE_ROW) {
			j->found = store_row_dup(&r);
		} else if (rc != SQLITE_DONE) {
			snprintf(j->err, sizeof(j->err), "cannot read '%s' from %s: %s", j->key,
			         b->path, sqlite3_errmsg(b->db));
			j->status = STORE_FAILED;
		}
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		log_read_free(&l);
	}
}

static void close_step(struct sqlite_backend *b);

static void
job_free(struct job *j)
{
	for (size_t i = 0; i < j->n; i++)
		free(j->rows[i]);
	free(j->rows);
	free(j->row_status);
	free(j->found);
	free(j->key);
	free(j);
}

static void run_next(struct sqlite_backend *b);

static void
job_done(struct job *j)
{
	struct sqlite_backend *b = j->b;
	const char *err = j->status == STORE_OK ? NULL : j->err;

	b->head = j->next;
	if (b->head == NULL)
		b->tail = NULL;
	b->running = false;
	run_next(b);
	/* A job under way keeps the loop alive, as a request would. */
	if (!b->running)
		uv_unref((uv_handle_t *)&b->async);
	if (j->kind == JOB_COMMIT) {
		b->ckpt_due = b->ckpt_due || j->status == STORE_OK;
		j->commit_done(j->ctx, j->status, j->row_status, j->n, err);
	} else if (j->kind == JOB_LOAD) {
		j->load_done(j->ctx, j->status, j->found, err);
	} else {
		j->reach_done(j->ctx, STORE_OK, NULL);
	}
	job_free(j);
	if (b->closing)
		close_step(b);
}

/* The writer's thread: one job at a time, as the loop hands them over. */
static void
writer(void *arg)
{
	struct sqlite_backend *b = arg;

	for (;;) {
		struct job *j;

		uv_sem_wait(&b->go);
		uv_mutex_lock(&b->mu);
		j = b->todo;
		b->todo = NULL;
		uv_mutex_unlock(&b->mu);
		if (j == NULL)
			break; /* stop */
		job_work(j);
		uv_mutex_lock(&b->mu);
		b->finished = j;
		uv_mutex_unlock(&b->mu);
		uv_async_send(&b->async);
	}
}

/* The loop's side: a job the writer finished. */
static void
async_cb(uv_async_t *h)
{
	struct sqlite_backend *b = h->data;
	struct job *j;

	uv_mutex_lock(&b->mu);
	j = b->finished;
	b->finished = NULL;
	uv_mutex_unlock(&b->mu);
	if (j != NULL)
		job_done(j);
}

/* Hands the next job to the writer: one wake of its thread (a semaphore's
 * post: the thread never wakes only to wait for a lock). */
static void
run_next(struct sqlite_backend *b)
{
	if (b->running || b->head == NULL)
		return;
	b->running = true;
	uv_ref((uv_handle_t *)&b->async);
	uv_mutex_lock(&b->mu);
	b->todo = b->head;
	uv_mutex_unlock(&b->mu);
	uv_sem_post(&b->go);
}

static void
enqueue(struct sqlite_backend *b, struct job *j)
{
	j->b = b;
	if (b->tail != NULL)
		b->tail->next = j;
	else
		b->head = j;
	b->tail = j;
	run_next(b);
}

static void
sqlite_commit(struct store_backend *base, const struct store_row *rows, size_t n,
              store_commit_cb done, void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct job *j = xcalloc(1, sizeof(*j));

	j->kind = JOB_COMMIT;
	j->rows = xcalloc(n > 0 ? n : 1, sizeof(*j->rows));
	j->row_status = xcalloc(n > 0 ? n : 1, sizeof(*j->row_status));
	for (size_t i = 0; i < n; i++)
		j->rows[i] = store_row_dup(&rows[i]);
	j->n = n;
	j->commit_done = done;
	j->ctx = ctx;
	enqueue(b, j);
}

static void
sqlite_load(struct store_backend *base, enum store_kind kind, const char *key, store_load_cb done,
            void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct job *j = xcalloc(1, sizeof(*j));

	j->kind = JOB_LOAD;
	j->load_kind = kind;
	j->key = xstrdup(key);
	j->load_done = done;
	j->ctx = ctx;
	enqueue(b, j);
}

/* A file has no server to reach: the answer is STORE_OK, from the loop,
 * once the jobs ahead of it are over (the writer does nothing for it). */
static void
sqlite_reach(struct store_backend *base, unsigned within_ms, store_done_cb done, void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct job *j = xcalloc(1, sizeof(*j));

	(void)within_ms;
	j->kind = JOB_REACH;
	j->reach_done = done;
	j->ctx = ctx;
	enqueue(b, j);
}

/* The everysec checkpoint, on a thread of libuv's pool through a
 * connection of its own: in WAL mode a checkpoint and the writer's commits
 * go on at once, so no commit (no held reply) waits for its fsyncs. */
static void
ckpt_work(uv_work_t *req)
{
	struct sqlite_backend *b = req->data;
	int rc = sqlite3_wal_checkpoint_v2(b->cdb, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);

	b->ckpt_err[0] = '\0';
	if (rc != SQLITE_OK && rc != SQLITE_BUSY)
		snprintf(b->ckpt_err, sizeof(b->ckpt_err), "the checkpoint of %s failed: %s",
		         b->path, sqlite3_errmsg(b->cdb));
}

static void
ckpt_after(uv_work_t *req, int status)
{
	struct sqlite_backend *b = req->data;

	(void)status;
	b->ckpt_running = false;
	if (b->ckpt_err[0] != '\0')
		log_warnx("store: %s", b->ckpt_err);
	if (b->closing)
		close_step(b);
}

static void
on_timer(uv_timer_t *t)
{
	struct sqlite_backend *b = t->data;

	if (!b->everysec || !b->ckpt_due || b->ckpt_running || b->closing)
		return;
	b->ckpt_due = false;
	b->checkpoints++;
	b->ckpt_running = true;
	b->ckpt.data = b;
	if (uv_queue_work(b->base.loop, &b->ckpt, ckpt_work, ckpt_after) != 0) {
		b->ckpt_running = false;
		b->ckpt_due = true;
	}
}

/* --- snapshots --- */

static void
snap_work(uv_work_t *req)
{
	struct snap_job *w = req->data;
	char why[1024];

	w->status = STORE_FAILED;
	unlink(w->tmp);
	if (store_sqlite_copy(w->src, w->tmp, why, sizeof(why)) < 0) {
		snprintf(w->err, sizeof(w->err), "%s", why);
		unlink(w->tmp);
		return;
	}
	/* A copy takes a snapshot's name only once --restore would take it
	 * back (store_check.h). */
	if (store_check_file(w->tmp, why, sizeof(why)) < 0) {
		snprintf(w->err, sizeof(w->err),
		         "the copy failed its check, so it is not kept: %.*s",
		         (int)sizeof(w->err) - 64, why);
		snapfile_remove(w->tmp);
		return;
	}
	/* Reading it (in WAL mode, as its source) left these beside it. */
	snapfile_remove_sides(w->tmp);
	if (fsio_rename(w->tmp, w->path) < 0 || fsio_fsync_dir(w->dir) < 0) {
		snprintf(w->err, sizeof(w->err), "cannot install %s: %s", w->path, strerror(errno));
		unlink(w->tmp);
		return;
	}
	w->status = STORE_OK;
}

static void
snap_done(uv_work_t *req, int status)
{
	struct snap_job *w = req->data;
	struct sqlite_backend *b = w->b;

	(void)status;
	b->snapshots--;
	w->done(w->ctx, w->status, w->status == STORE_OK ? NULL : w->err);
	free(w->src);
	free(w->path);
	free(w->tmp);
	free(w->dir);
	free(w);
	if (b->closing)
		close_step(b);
}

static void
sqlite_snapshot(struct store_backend *base, const char *path, store_done_cb done, void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct snap_job *w = xcalloc(1, sizeof(*w));
	size_t n = strlen(path) + 8;
	const char *slash = strrchr(path, '/');

	w->b = b;
	w->src = xstrdup(b->path);
	w->path = xstrdup(path);
	w->tmp = xmalloc(n);
	snprintf(w->tmp, n, "%s.tmp", path);
	w->dir = slash == NULL ? xstrdup(".") : xstrndup(path, (size_t)(slash - path));
	if (w->dir[0] == '\0') {
		free(w->dir);
		w->dir = xstrdup("/");
	}
	w->done = done;
	w->ctx = ctx;
	w->req.data = w;
	b->snapshots++;
	uv_queue_work(b->base.loop, &w->req, snap_work, snap_done);
}

/* --- opening and closing --- */

static void
free_backend(struct sqlite_backend *b)
{
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(b->stmt[i]);
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(b->rget[i]);
	sqlite3_close(b->rdb);
	sqlite3_close(b->cdb);
	sqlite3_close(b->db);
	free(b->path);
	free(b);
}

/* Ends the writer's thread (idle: no job is under way). */
static void
writer_stop(struct sqlite_backend *b)
{
	if (!b->thread_up)
		return;
	uv_sem_post(&b->go); /* with todo NULL: stop */
	uv_thread_join(&b->thread);
	b->thread_up = false;
}

static void
async_closed(uv_handle_t *h)
{
	struct sqlite_backend *b = h->data;
	store_done_cb done = b->closed;
	void *ctx = b->closed_ctx;

	uv_sem_destroy(&b->go);
	uv_mutex_destroy(&b->mu);
	free_backend(b);
	if (done != NULL)
		done(ctx, STORE_OK, NULL);
}

static void
timer_closed(uv_handle_t *h)
{
	struct sqlite_backend *b = h->data;

	writer_stop(b);
	uv_close((uv_handle_t *)&b->async, async_closed);
}

static void
close_step(struct sqlite_backend *b)
{
	if (b->running || b->head != NULL || b->snapshots > 0 || b->ckpt_running ||
	    uv_is_closing((uv_handle_t *)&b->timer))
		return;
	uv_close((uv_handle_t *)&b->timer, timer_closed);
}

static void
sqlite_close(struct store_backend *base, store_done_cb done, void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;

	b->closing = true;
	b->closed = done;
	b->closed_ctx = ctx;
	uv_timer_stop(&b->timer);
	close_step(b);
}

static int exec_sql(struct sqlite_backend *b, const char *sql, char *err, size_t errlen);

/* The sentence of a start whose marking of n channel rows found the disk
 * full: the transaction's log grows to about the database's size. */
static void
at_start_no_room(const struct sqlite_backend *b, size_t n, char *err, size_t errlen)
{
	const long long mb = 1024 * 1024;
	const char *slash = strrchr(b->path, '/');
	int dlen = slash == NULL ? 1 : slash == b->path ? 1 : (int)(slash - b->path);
	const char *dir = slash == NULL ? "." : b->path;
	struct stat st;
	long long need = stat(b->path, &st) == 0 ? (st.st_size + mb - 1) / mb : 0;

	snprintf(err, errlen,
	         "cannot start on %s: its disk is full, and this start marks %zu channel rows "
	         "once (the first start after an upgrade, or after a --restore of an older "
	         "snapshot, does), which needs about %lld MB free in %.*s (the database's "
	         "size); free that much, then start again",
	         b->path, n, need > 0 ? need : 1, dlen, dir);
}

/* Stores each fixed at_start, in one transaction; the records, and so their
 * generations, stay as they are. */
static int
at_start_fix_write(struct sqlite_backend *b, const struct store_at_start_fix *f, char *err,
                   size_t errlen)
{
	sqlite3_stmt *s = NULL;

	if (f->n == 0)
		return 0;
	if (exec_sql(b, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	if (sqlite3_prepare_v2(
	        b->db, "UPDATE channels SET at_start = ?2 WHERE key = ?1 AND generation = ?3", -1,
	        &s, NULL) != SQLITE_OK)
		goto fail;
	for (size_t i = 0; i < f->n; i++) {
		sqlite3_bind_text(s, 1, f->keys[i], -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, f->at_start[i] ? 1 : 0);
		sqlite3_bind_int64(s, 3, (int64_t)f->generation[i]);
		if (step_reset(s) < 0)
			goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (sqlite3_exec(b->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
fail:
	if (sqlite3_errcode(b->db) == SQLITE_FULL)
		at_start_no_room(b, f->n, err, errlen);
	else
		snprintf(err, errlen, "cannot write to %s: %s", b->path, sqlite3_errmsg(b->db));
	sqlite3_finalize(s);
	sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int
sqlite_load_active(struct store_backend *base, int64_t used_since,
                   int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
                   size_t errlen)
{
	static const char *const sql[2] = {
	    "SELECT key, 0, version, rec, generation, 0 FROM users",
	    /* The rows wanted at every start or not known, through their
	     * index (channels_at_start), then the others used since. */
	    "SELECT key, last_used, version, rec, generation, at_start FROM channels "
	    "WHERE at_start IS NOT 0 UNION ALL "
	    "SELECT key, last_used, version, rec, generation, at_start FROM channels "
	    "WHERE last_used >= ?1 AND at_start IS 0",
	};
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct store_at_start_fix fix = {0};
	struct log_read l;
	int ret = -1;

	log_read_init(&l);
	for (int t = 0; t < 2; t++) {
		sqlite3_stmt *s;
		int rc;

		if (sqlite3_prepare_v2(b->db, sql[t], -1, &s, NULL) != SQLITE_OK) {
			snprintf(err, errlen, "cannot read %s: %s", b->path, sqlite3_errmsg(b->db));
			goto out;
		}
		if (t == 1)
			sqlite3_bind_int64(s, 1, used_since);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			struct store_row r;
			const char *key = (const char *)sqlite3_column_text(s, 0);
			int said;

			memset(&r, 0, sizeof(r));
			r.kind = t == 0 ? STORE_USER : STORE_CHANNEL;
			r.key = key != NULL ? key : "";
			r.last_used = sqlite3_column_int64(s, 1);
			r.version = sqlite3_column_int(s, 2);
			r.rec = sqlite3_column_blob(s, 3);
			r.rec_len = (size_t)sqlite3_column_bytes(s, 3);
			if (r.rec == NULL)
				r.rec = "";
			r.generation = (uint64_t)sqlite3_column_int64(s, 4);
			if (t == 1 && read_log(b->stmt[ST_LOG_GET], r.key, &l, &r) < 0) {
				rc = SQLITE_ERROR;
				break;
			}
			said = row(&r, ctx);
			if (said < 0) {
				sqlite3_finalize(s);
				goto out;
			}
			if (t == 1)
				store_at_start_fix_add(
				    &fix, r.key, sqlite3_column_type(s, 5) != SQLITE_NULL,
				    sqlite3_column_int(s, 5) != 0, said == 1, r.generation);
		}
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE) {
			snprintf(err, errlen, "cannot read %s: %s", b->path, sqlite3_errmsg(b->db));
			goto out;
		}
	}
	ret = at_start_fix_write(b, &fix, err, errlen);
out:
	log_read_free(&l);
	store_at_start_fix_free(&fix);
	return ret;
}

int
store_sqlite_forget_at_start(sqlite3 *db, const char *where, const char *key)
{
	char sql[256];
	sqlite3_stmt *s = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT at_start FROM main.channels LIMIT 0", -1, &s, NULL) !=
	    SQLITE_OK)
		return 0; /* an older schema */
	sqlite3_finalize(s);
	snprintf(sql, sizeof(sql), "UPDATE main.channels SET at_start = NULL WHERE %s", where);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	if (key != NULL)
		sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

const char *
store_sqlite_schema(void)
{
	return schema;
}

static const struct store_backend_ops sqlite_ops = {
    .name = "sqlite",
    .load_active = sqlite_load_active,
    .commit = sqlite_commit,
    .load = sqlite_load,
    .snapshot = sqlite_snapshot,
    .reach = sqlite_reach,
    .close = sqlite_close,
};

const struct store_backend_ops *
store_sqlite_ops(void)
{
	return &sqlite_ops;
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

static int
exec_sql(struct sqlite_backend *b, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(b->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "cannot set up the database %s (%s): %s", b->path, sql,
	         sqlite3_errmsg(b->db));
	return -1;
}

/* Checks the whole database file before anything may write to it. */
static int
check_db(struct sqlite_backend *b, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	const char *res;
	int rc;

	if (sqlite3_prepare_v2(b->db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK) {
		damaged(b, sqlite3_errmsg(b->db), err, errlen);
		return -1;
	}
	rc = sqlite3_step(s);
	res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
	if (rc != SQLITE_ROW || res == NULL || strcmp(res, "ok") != 0) {
		damaged(b, rc != SQLITE_ROW || res == NULL ? sqlite3_errmsg(b->db) : res, err,
		        errlen);
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
 * get at_start. Every channel row brought over has at_start NULL (not
 * known): the next start loads it and sets it (sqlite_load_active). */
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
	if (exec_sql(b, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	for (int t = 0; t < 2; t++) {
		if (has_column(b, tables[t], "generation"))
			continue;
		snprintf(sql, sizeof(sql),
		         "ALTER TABLE %s ADD COLUMN generation INTEGER NOT NULL DEFAULT 0",
		         tables[t]);
		if (exec_sql(b, sql, err, errlen) < 0)
			goto fail;
	}
	if (v < 2 && (exec_sql(b, rebuild, err, errlen) < 0 ||
	              exec_sql(b, schema, err, errlen) < 0 || exec_sql(b, copy, err, errlen) < 0))
		goto fail;
	if (v >= 2 && !has_column(b, "channels", "at_start") &&
	    exec_sql(b, "ALTER TABLE channels ADD COLUMN at_start INTEGER", err, errlen) < 0)
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SQLITE_SCHEMA);
	if (exec_sql(b, sql, err, errlen) < 0 || exec_sql(b, "COMMIT", err, errlen) < 0)
		goto fail;
	if (v < 2 && exec_sql(b, "VACUUM", err, errlen) < 0)
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
	const char *slash = strrchr(b->path, '/');
	sqlite3 *db = NULL;
	int e;

	snprintf(tmp, sizeof(tmp), "%s.new", b->path);
	snprintf(dir, sizeof(dir), "%.*s",
	         slash == NULL      ? 1
	         : slash == b->path ? 1
	                            : (int)(slash - b->path),
	         slash == NULL ? "." : b->path);
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

static int
open_db(struct sqlite_backend *b, char *err, size_t errlen)
{
	struct stat sb;
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
	set_cache(b->db, CACHE_WRITER_KIB);
	/* Closing must not checkpoint a WAL into a file that fails the check. */
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	if (check_db(b, err, errlen) < 0)
		return -1;
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
	if (exec_sql(b, "PRAGMA journal_mode = WAL", err, errlen) < 0 ||
	    exec_sql(b, sync_pragma(b->sync), err, errlen) < 0)
		return -1;
	b->sync_set = b->sync;
	set_autockpt(b, b->sync);
	if (has_column(b, "channels", "key")) {
		if (migrate(b, err, errlen) < 0)
			return -1;
	} else {
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SQLITE_SCHEMA);
		if (exec_sql(b, schema, err, errlen) < 0 || exec_sql(b, sql, err, errlen) < 0)
			return -1;
	}
	/* The marks came within schema 2: a database without them gets them
	 * (a delver that does not know them leaves them alone). */
	if (exec_sql(b, handled_schema, err, errlen) < 0 ||
	    exec_sql(b, at_start_index, err, errlen) < 0)
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
	                       &b->rget[3], NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s for reading: %s", b->path,
		         b->rdb != NULL ? sqlite3_errmsg(b->rdb) : "out of memory");
		return -1;
	}
	sqlite3_busy_timeout(b->rdb, BUSY_MS);
	set_cache(b->rdb, CACHE_READER_KIB);
	if (sqlite3_open_v2(b->path, &b->cdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s for its checkpoints: %s", b->path,
		         b->cdb != NULL ? sqlite3_errmsg(b->cdb) : "out of memory");
		return -1;
	}
	sqlite3_busy_timeout(b->cdb, BUSY_MS);
	set_cache(b->cdb, CACHE_ONCE_KIB);
	/* everysec: the checkpoint fsyncs the log, then the database. */
	if (sqlite3_exec(b->cdb, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot set up %s for its checkpoints: %s", b->path,
		         sqlite3_errmsg(b->cdb));
		return -1;
	}
	return 0;
}

struct store_backend *
store_sqlite_open(uv_loop_t *loop, const char *path, enum fsync_policy fsync, char *err,
                  size_t errlen)
{
	struct sqlite_backend *b = xcalloc(1, sizeof(*b));

	b->base.ops = &sqlite_ops;
	b->base.loop = loop;
	b->path = xstrdup(path);
	b->sync = sync_of(fsync);
	b->everysec = fsync == FSYNC_EVERYSEC;
	b->fail = EIO;
	if (open_db(b, err, errlen) < 0) {
		int e = b->fail;

		free_backend(b);
		errno = e;
		return NULL;
	}
	uv_mutex_init(&b->mu);
	uv_sem_init(&b->go, 0);
	uv_async_init(loop, &b->async, async_cb);
	b->async.data = b;
	uv_unref((uv_handle_t *)&b->async);
	if (uv_thread_create(&b->thread, writer, b) != 0) {
		snprintf(err, errlen, "cannot start the thread that writes %s", path);
		uv_close((uv_handle_t *)&b->async, NULL);
		uv_run(loop, UV_RUN_NOWAIT);
		uv_sem_destroy(&b->go);
		uv_mutex_destroy(&b->mu);
		free_backend(b);
		errno = EAGAIN;
		return NULL;
	}
	b->thread_up = true;
	uv_timer_init(loop, &b->timer);
	b->timer.data = b;
	uv_timer_start(&b->timer, on_timer, CKPT_MS, CKPT_MS);
	uv_unref((uv_handle_t *)&b->timer);
	return &b->base;
}

void
store_sqlite_set_fsync(struct store_backend *base, enum fsync_policy fsync)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;

	__atomic_store_n(&b->sync, sync_of(fsync), __ATOMIC_RELEASE);
	b->everysec = fsync == FSYNC_EVERYSEC;
}

int
store_sqlite_load_now(struct store_backend *base, enum store_kind kind, const char *key,
                      int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
                      size_t errlen)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	sqlite3_stmt *s = b->rget[kind == STORE_CHANNEL ? 0 : kind == STORE_USER ? 1 : 3];
	struct log_read l;
	int rc;

	log_read_init(&l);
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		struct store_row r;

		row_of_stmt(&r, s, kind, key);
		if (kind == STORE_CHANNEL && read_log(b->rget[2], key, &l, &r) < 0) {
			rc = SQLITE_ERROR;
		} else {
			rc = row(&r, ctx) < 0 ? -1 : 1;
			if (rc < 0)
				snprintf(err, errlen, "the row of '%s' in %s was refused", key,
				         b->path);
		}
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	}
	if (rc != -1 && rc != 0 && rc != 1) {
		snprintf(err, errlen, "cannot read '%s' from %s: %s", key, b->path,
		         sqlite3_errmsg(b->rdb));
		rc = -1;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	log_read_free(&l);
	return rc;
}

/* Runs sql (?1 bound to the integer arg) on the writing connection and
 * calls each(s, ctx) for every row whose first column, a key, is not
 * NULL. Returns 0, or -1 with one sentence in err. */
static int
each_row(struct sqlite_backend *b, const char *sql, int64_t arg,
         void (*each)(sqlite3_stmt *s, const char *key, void *ctx), void *ctx, char *err,
         size_t errlen)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(b->db, sql, -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot read %s: %s", b->path, sqlite3_errmsg(b->db));
		return -1;
	}
	sqlite3_bind_int64(s, 1, arg);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(s, 0);

		if (key != NULL)
			each(s, key, ctx);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "cannot read %s: %s", b->path, sqlite3_errmsg(b->db));
		return -1;
	}
	return 0;
}

struct marks_walk {
	void (*fn)(const char *key, int64_t at, size_t answer_len, void *ctx);
	void *ctx;
};

static void
mark_of_row(sqlite3_stmt *s, const char *key, void *ctx)
{
	struct marks_walk *w = ctx;

	w->fn(key, sqlite3_column_int64(s, 1), (size_t)sqlite3_column_int64(s, 2), w->ctx);
}

int
store_sqlite_marks(struct store_backend *base, size_t limit,
                   void (*fn)(const char *key, int64_t at, size_t answer_len, void *ctx), void *ctx,
                   char *err, size_t errlen)
{
	struct marks_walk w = {.fn = fn, .ctx = ctx};

	return each_row((struct sqlite_backend *)base,
	                "SELECT key, at, length(answer) FROM handled ORDER BY at DESC LIMIT ?1",
	                (int64_t)limit, mark_of_row, &w, err, errlen);
}

struct keys_walk {
	void (*fn)(const char *key, void *ctx);
	void *ctx;
};

static void
key_of_row(sqlite3_stmt *s, const char *key, void *ctx)
{
	struct keys_walk *w = ctx;

	(void)s;
	w->fn(key, w->ctx);
}

int
store_sqlite_idle_keys(struct store_backend *base, int64_t used_since,
                       void (*fn)(const char *key, void *ctx), void *ctx, char *err, size_t errlen)
{
	struct keys_walk w = {.fn = fn, .ctx = ctx};

	return each_row((struct sqlite_backend *)base,
	                "SELECT key FROM channels WHERE last_used < ?1 AND at_start IS 0",
	                used_since, key_of_row, &w, err, errlen);
}

int
store_sqlite_write_now(struct store_backend *base, const struct store_row *rows, size_t n,
                       char *err, size_t errlen)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	int rc;

	if (b->running || b->head != NULL) {
		snprintf(err, errlen, "cannot write to %s now: a commit is under way", b->path);
		return -1;
	}
	if (exec_sql(b, "PRAGMA synchronous = FULL", err, errlen) < 0)
		return -1;
	rc = write_rows(b, NULL, rows, n, NULL, false, err, errlen);
	if (exec_sql(b, sync_pragma(b->sync), err, errlen) < 0)
		rc = -1;
	b->sync_set = b->sync;
	return rc;
}

uint64_t
store_sqlite_checkpoints(const struct store_backend *base)
{
	return ((const struct sqlite_backend *)base)->checkpoints;
}

int
store_sqlite_copy(const char *from, const char *to, char *err, size_t errlen)
{
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *bk;
	int rc = -1, step = SQLITE_ERROR;

	if (statedir_create_file(to) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", to, statedir_strerror(errno));
		return -1;
	}
	if (sqlite3_open_v2(from, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_open_v2(to, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	        SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", dst == NULL ? from : to,
		         sqlite3_errmsg(dst == NULL ? src : dst));
		goto out;
	}
	sqlite3_busy_timeout(src, BUSY_MS);
	set_cache(src, CACHE_ONCE_KIB);
	set_cache(dst, CACHE_ONCE_KIB);
	sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
	bk = sqlite3_backup_init(dst, "main", src, "main");
	if (bk == NULL) {
		snprintf(err, errlen, "cannot copy %s: %s", from, sqlite3_errmsg(dst));
		goto out;
	}
	step = sqlite3_backup_step(bk, -1);
	rc = step == SQLITE_DONE ? 0 : -1;
	sqlite3_backup_finish(bk);
	if (rc < 0)
		snprintf(err, errlen, "cannot copy %s: %s", from, sqlite3_errmsg(dst));
out:
	if (sqlite3_close(dst) != SQLITE_OK && rc == 0) {
		snprintf(err, errlen, "cannot close %s", to);
		rc = -1;
	}
	sqlite3_close(src);
	if (rc < 0)
		errno = step == SQLITE_FULL ? ENOSPC : EIO;
	return rc;
}
