/* store_sqlite: the SQLite backend; see store_sqlite.h. */
#include "bot/store/store_sqlite.h"
#include "bot/store/store.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bot/log.h"
#include "bot/soon.h"
#include "bot/store/statedir.h"
#include "bot/store/store_sqlite_int.h"
#include "bot/store/store_sqlite_read.h"
#include "bot/store/store_sqlite_schema.h"
#include "bot/store/store_sqlite_snapshot.h"
#include "bot/store/store_sqlite_write.h"
#include "rules/base/mem.h"

#define CKPT_MS 1000 /* everysec: between checkpoints */

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
	size_t row_status_cap; /* room in row_status */
	store_commit_cb commit_done;
	bool begun; /* its transaction opened on the loop (commit_here) */
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

static const struct store_backend_ops sqlite_ops;

static int
sync_of(enum fsync_policy f)
{
	return f == FSYNC_ALWAYS ? 2 : f == FSYNC_NO ? 0 : 1;
}

const char *
store_sqlite__sync_pragma(int s)
{
	return s == 2   ? "PRAGMA synchronous = FULL"
	       : s == 0 ? "PRAGMA synchronous = OFF"
	                : "PRAGMA synchronous = NORMAL";
}

/* Bounds db's page cache to kib KiB. */
void
store_sqlite__set_cache(sqlite3 *db, int kib)
{
	char sql[48];

	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%d", kib);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* The writer's checkpoints as the synchronous setting s asks (1: everysec). */
void
store_sqlite__set_autockpt(struct sqlite_backend *b, int s)
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
	    sqlite3_exec(b->db, store_sqlite__sync_pragma(want), NULL, NULL, NULL) == SQLITE_OK) {
		b->sync_set = want;
		store_sqlite__set_autockpt(b, want);
	}
	j->status = STORE_OK;
	if (j->kind == JOB_COMMIT) {
		int rc = store_sqlite_write_rows(b, j->rows, NULL, j->n, j->row_status, true,
		                                 j->begun, j->err, sizeof(j->err));

		if (rc < 0)
			j->status = rc == -2 ? STORE_CONFLICT : STORE_FAILED;
	} else if (j->kind == JOB_LOAD) {
		int64_t id;
		int stmt = store_sqlite_read_stmt(j->load_kind, j->key, &id);
		sqlite3_stmt *s = b->stmt[stmt];
		int rc;

		struct log_read l;
		struct store_row r;

		store_sqlite_read_log_init(&l);
		store_sqlite_read_bind(s, stmt, j->key, id);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			store_sqlite_read_row(&r, s, j->load_kind, j->key);
		if (rc == SQLITE_ROW && j->load_kind == STORE_CHANNEL) {
			/* The record's text stays valid: this statement is not
			 * stepped again before the copy. */
			if (store_sqlite_read_log(b->stmt[ST_LOG_GET], j->key, &l, &r) < 0)
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
		store_sqlite_read_log_free(&l);
	}
}

static void
job_free(struct job *j)
{
	struct sqlite_backend *b = j->b;

	for (size_t i = 0; j->rows != NULL && i < j->n; i++)
		free(j->rows[i]);
	free(j->rows);
	free(j->found);
	free(j->key);
	if (b != NULL && b->spare == NULL && !b->closing) {
		b->spare = j; /* its row_status kept for the next commit */
		return;
	}
	free(j->row_status);
	free(j);
}

/* A job of kind, zeroed but for the room of a spare's row_status. */
static struct job *
job_new(struct sqlite_backend *b, enum job_kind kind)
{
	struct job *j = b->spare;

	if (j == NULL) {
		j = xcalloc(1, sizeof(*j));
	} else {
		enum store_status *rs = j->row_status;
		size_t cap = j->row_status_cap;

		b->spare = NULL;
		memset(j, 0, offsetof(struct job, err));
		j->err[0] = '\0';
		j->row_status = rs;
		j->row_status_cap = cap;
	}
	j->kind = kind;
	return j;
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
		store_sqlite__close_step(b);
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

/* The loop's side: a commit done by commit_here, answered once commit()
 * returned, before the loop next waits (soon.h), as the writer's would
 * be. */
static void
here_cb(struct soon *s)
{
	struct sqlite_backend *b = s->data;

	job_done(b->head);
}

/*
 * Under everysec a commit fsyncs nothing (the checkpoints do, on the
 * pool): its transaction is a few writes into the log, which cost less
 * than the two wakes of a hand-off to the writer's thread and back. So
 * when no job is under way and the write lock is free at once, j runs here,
 * on the loop, its answer given once commit() returned (here_cb; the
 * same transaction, as durable as the writer's). Returns whether it ran;
 * when not, nothing was begun and j goes to the writer (which waits for a
 * held lock).
 */
static bool
commit_here(struct sqlite_backend *b, struct job *j, const struct store_row *rows)
{
	int rc;

	if (b->running || b->head != NULL || b->sync_set != 1 ||
	    __atomic_load_n(&b->sync, __ATOMIC_ACQUIRE) != 1 || store_sqlite_try_begin(b) < 0)
		return false;
	j->b = b;
	b->head = b->tail = j;
	b->running = true;
	j->status = STORE_OK;
	rc = store_sqlite_write_rows(b, NULL, rows, j->n, j->row_status, true, true, j->err,
	                             sizeof(j->err));
	if (rc < 0)
		j->status = rc == -2 ? STORE_CONFLICT : STORE_FAILED;
	b->commits_here++;
	soon_start(&b->here);
	return true;
}

static void
sqlite_commit(struct store_backend *base, const struct store_row *rows, size_t n,
              store_commit_cb done, void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct job *j = job_new(b, JOB_COMMIT);

	if (j->row_status_cap < (n > 0 ? n : 1)) {
		free(j->row_status);
		j->row_status_cap = n > 0 ? n : 1;
		j->row_status = xcalloc(j->row_status_cap, sizeof(*j->row_status));
	}
	j->n = n;
	j->commit_done = done;
	j->ctx = ctx;
	if (commit_here(b, j, rows))
		return;
	j->rows = xcalloc(n > 0 ? n : 1, sizeof(*j->rows));
	for (size_t i = 0; i < n; i++)
		j->rows[i] = store_row_dup(&rows[i]);
	enqueue(b, j);
}

static void
sqlite_load(struct store_backend *base, enum store_kind kind, const char *key, store_load_cb done,
            void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct job *j = job_new(b, JOB_LOAD);

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
	struct job *j = job_new(b, JOB_REACH);

	(void)within_ms;
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
		store_sqlite__close_step(b);
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

/* --- opening and closing --- */

static void
free_backend(struct sqlite_backend *b)
{
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(b->stmt[i]);
	for (int i = 0; i < 5; i++)
		sqlite3_finalize(b->rget[i]);
	sqlite3_close(b->rdb);
	sqlite3_close(b->cdb);
	sqlite3_close(b->db);
	if (b->spare != NULL) {
		free(b->spare->row_status);
		free(b->spare);
	}
	free(b->gens);
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
here_closed(struct soon *s)
{
	struct sqlite_backend *b = s->data;

	uv_close((uv_handle_t *)&b->async, async_closed);
}

static void
timer_closed(uv_handle_t *h)
{
	struct sqlite_backend *b = h->data;

	writer_stop(b);
	soon_close(&b->here, here_closed);
}

void
store_sqlite__close_step(struct sqlite_backend *b)
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
	store_sqlite__close_step(b);
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

static const struct store_backend_ops sqlite_ops = {
    .name = "sqlite",
    .load_active = store_sqlite_read_active,
    .commit = sqlite_commit,
    .load = sqlite_load,
    .snapshot = store_sqlite_snapshot,
    .reach = sqlite_reach,
    .close = sqlite_close,
};

const struct store_backend_ops *
store_sqlite_ops(void)
{
	return &sqlite_ops;
}

int
store_sqlite__exec_sql(struct sqlite_backend *b, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(b->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "cannot set up the database %s (%s): %s", b->path, sql,
	         sqlite3_errmsg(b->db));
	return -1;
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
	if (store_sqlite_schema_open(b, err, errlen) < 0) {
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
	soon_init(loop, &b->here, here_cb, b);
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
	int64_t id;
	int i = store_sqlite_read_stmt(kind, key, &id);
	sqlite3_stmt *s = b->rget[i == ST_GET_CHANNEL ? 0
	                          : i == ST_GET_USER  ? 1
	                          : i == ST_GET_MARK  ? 3
	                                              : 4];
	struct log_read l;
	int rc;

	store_sqlite_read_log_init(&l);
	store_sqlite_read_bind(s, i, key, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		struct store_row r;

		store_sqlite_read_row(&r, s, kind, key);
		if (kind == STORE_CHANNEL && store_sqlite_read_log(b->rget[2], key, &l, &r) < 0) {
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
	store_sqlite_read_log_free(&l);
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
	                "SELECT key, at, length(answer) FROM handled UNION ALL SELECT id, at, "
	                "length(answer) FROM handled_ids ORDER BY at DESC LIMIT ?1",
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
	if (store_sqlite__exec_sql(b, "PRAGMA synchronous = FULL", err, errlen) < 0)
		return -1;
	rc = store_sqlite_write_rows(b, NULL, rows, n, NULL, false, false, err, errlen);
	if (store_sqlite__exec_sql(b, store_sqlite__sync_pragma(b->sync), err, errlen) < 0)
		rc = -1;
	b->sync_set = b->sync;
	return rc;
}

uint64_t
store_sqlite_checkpoints(const struct store_backend *base)
{
	return ((const struct sqlite_backend *)base)->checkpoints;
}

uint64_t
store_sqlite_commits_here(const struct store_backend *base)
{
	return ((const struct sqlite_backend *)base)->commits_here;
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
	store_sqlite__set_cache(src, CACHE_ONCE_KIB);
	store_sqlite__set_cache(dst, CACHE_ONCE_KIB);
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

/* The log files SQLite keeps beside a database in WAL mode. */
static const char *const log_sides[2] = {"-wal", "-shm"};

void
store_sqlite_logs_present(const char *path, bool had[2])
{
	char side[4400];
	struct stat sb;

	for (int i = 0; i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", path, log_sides[i]);
		had[i] = lstat(side, &sb) == 0 || errno != ENOENT;
	}
}

void
store_sqlite_logs_remove_made(const char *path, const bool had[2])
{
	char side[4400];
	struct stat sb;

	for (int i = 0; i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", path, log_sides[i]);
		if (had[i] || lstat(side, &sb) != 0 || !S_ISREG(sb.st_mode) ||
		    (i == 0 && sb.st_size != 0))
			continue;
		if (unlink(side) < 0)
			log_warn("store: cannot remove %s, which a refused open made", side);
	}
}
