/* persist: the state written through to one SQLite database; see persist.h. */
#include "bot/store/persist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>
#include <sqlite3.h>
#include <uthash.h>

#include "bot/log.h"
#include "bot/store/fsio.h"
#include "bot/store/journal.h"
#include "bot/store/record.h"
#include "bot/store/restore.h"
#include "bot/store/snapshot.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define TICK_MS       1000 /* retries, the everysec checkpoint */
#define SWEEP_SECONDS 60   /* between eviction sweeps */
#define BUSY_MS       5000 /* a checkpoint holding the database */

/* A record whose commit failed: "c:<key>" or "u:<key>". */
struct retry {
	char id[KEY_MAX + 2];
	UT_hash_handle hh;
};

enum stmt {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_PUT_CHANNEL,
	ST_DEL_CHANNEL,
	ST_PUT_USER,
	ST_GET_CHANNEL,
	ST_DEL_USER,
	ST_GET_USER,
	ST_COUNT,
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_PUT_CHANNEL] = "INSERT INTO channels(key, last_used, version, rec) VALUES(?1, ?2, ?3, ?4) "
                       "ON CONFLICT(key) DO UPDATE SET last_used = excluded.last_used, "
                       "version = excluded.version, rec = excluded.rec",
    [ST_DEL_CHANNEL] = "DELETE FROM channels WHERE key = ?1",
    [ST_PUT_USER] = "INSERT INTO users(key, version, rec) VALUES(?1, ?2, ?3) "
                    "ON CONFLICT(key) DO UPDATE SET version = excluded.version, rec = excluded.rec",
    [ST_GET_CHANNEL] = "SELECT version, rec FROM channels WHERE key = ?1",
    [ST_DEL_USER] = "DELETE FROM users WHERE key = ?1",
    [ST_GET_USER] = "SELECT version, rec FROM users WHERE key = ?1",
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS channels(key TEXT PRIMARY KEY NOT NULL, "
    "last_used INTEGER NOT NULL, version INTEGER NOT NULL, rec BLOB NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS users(key TEXT PRIMARY KEY NOT NULL, "
    "version INTEGER NOT NULL, rec BLOB NOT NULL) WITHOUT ROWID;";

struct persist {
	uv_loop_t *loop;
	struct state *st;
	struct persist_opts o;
	char dir[4096];
	char path[4200]; /* the database file */
	int lock_fd;
	sqlite3 *db;
	sqlite3_stmt *stmt[ST_COUNT];
	bool in_batch; /* a transaction of persist_flush is open */
	char **batch;  /* the ids written in it ("c:key"), for a failed commit */
	size_t nbatch, batch_cap;
	int64_t clock; /* unix seconds, never going back */
	uint64_t next_sweep_ms;
	bool failing;       /* commits are failing (log once) */
	bool full;          /* SQLITE_FULL since persist_flush began */
	bool refusing;      /* in persist_flush: a full disk refuses the change */
	bool full_logged;   /* the disk-full error was logged */
	bool import_failed; /* a record of the import could not be written */
	struct retry *retry;
	/* everysec: a checkpoint on the thread pool, on its own connection */
	sqlite3 *ckpt_db;
	bool ckpt_running;
	bool ckpt_due; /* a commit since the last checkpoint began */
	int ckpt_rc;
	/* snapshot files, written on the thread pool */
	struct snapjob *snap;  /* the running one, or NULL */
	uint64_t snap_appends; /* stats.appends when the last one began */
	uint64_t next_snapshot_ms;
	bool closing;
	void (*closed)(void *);
	void *closed_ctx;
	uv_work_t ckpt_req;
	uv_timer_t tick;
	struct persist_stats stats;
};

static void close_step(struct persist *p);

static int64_t
tick_clock(struct persist *p)
{
	int64_t now = (int64_t)time(NULL);

	if (now > p->clock)
		p->clock = now;
	return p->clock;
}

static const char *
sync_pragma(enum fsync_policy f)
{
	return f == FSYNC_ALWAYS ? "PRAGMA synchronous = FULL"
	       : f == FSYNC_NO   ? "PRAGMA synchronous = OFF"
	                         : "PRAGMA synchronous = NORMAL";
}

/* --- retries of failed commits --- */

static struct retry *
retry_find(struct persist *p, char kind, const char *key)
{
	char id[KEY_MAX + 2];
	struct retry *r = NULL;

	if (p->retry == NULL)
		return NULL;
	snprintf(id, sizeof(id), "%c:%s", kind, key);
	HASH_FIND_STR(p->retry, id, r);
	return r;
}

static void
retry_add_id(struct persist *p, const char *id)
{
	struct retry *r;

	HASH_FIND_STR(p->retry, id, r);
	if (r != NULL)
		return;
	r = xcalloc(1, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", id);
	HASH_ADD_STR(p->retry, id, r);
}

static void
retry_del(struct persist *p, struct retry *r)
{
	HASH_DEL(p->retry, r);
	free(r);
}

/* --- writing --- */

static int
step_reset(struct persist *p, enum stmt s)
{
	int rc = sqlite3_step(p->stmt[s]);

	if ((rc & 0xff) == SQLITE_FULL)
		p->full = true;
	sqlite3_reset(p->stmt[s]);
	sqlite3_clear_bindings(p->stmt[s]);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Writes one record in the open transaction, or on its own. Returns 0, or -1. */
static int
write_record(struct persist *p, const struct record *r, char kind)
{
	struct buf b;
	enum stmt s;
	int rc;

	if (record_is_empty(r)) {
		s = kind == 'c' ? ST_DEL_CHANNEL : ST_DEL_USER;
		sqlite3_bind_text(p->stmt[s], 1, r->key, -1, SQLITE_STATIC);
		return step_reset(p, s);
	}
	buf_init(&b, RECORD_LINE_MAX);
	if (record_encode(r, record_builtin_mods(), &b) < 0) {
		log_error("store: the record of '%s' cannot be saved (a module's save failed or "
		          "it is over 1 MiB)",
		          r->key);
		buf_free(&b);
		return -1;
	}
	if (b.len > 0 && b.p[b.len - 1] == '\n')
		b.len--;
	if (kind == 'c') {
		s = ST_PUT_CHANNEL;
		sqlite3_bind_text(p->stmt[s], 1, r->key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(p->stmt[s], 2, r->last_used);
		sqlite3_bind_int(p->stmt[s], 3, RECORD_VERSION);
		sqlite3_bind_blob(p->stmt[s], 4, b.p, (int)b.len, SQLITE_STATIC);
	} else {
		s = ST_PUT_USER;
		sqlite3_bind_text(p->stmt[s], 1, r->key, -1, SQLITE_STATIC);
		sqlite3_bind_int(p->stmt[s], 2, RECORD_VERSION);
		sqlite3_bind_blob(p->stmt[s], 3, b.p, (int)b.len, SQLITE_STATIC);
	}
	rc = step_reset(p, s);
	buf_free(&b);
	return rc;
}

static void
log_failure(struct persist *p, const char *key)
{
	if (!p->failing)
		log_warn("store: cannot save the change to '%s' in %s (%s); it is kept in memory "
		         "and retried every second",
		         key, p->path, sqlite3_errmsg(p->db));
}

static void
batch_forget(struct persist *p)
{
	for (size_t i = 0; i < p->nbatch; i++)
		free(p->batch[i]);
	p->nbatch = 0;
}

static void
batch_add(struct persist *p, const char *id)
{
	if (p->nbatch == p->batch_cap) {
		p->batch_cap = p->batch_cap ? p->batch_cap * 2 : 16;
		p->batch = xrealloc(p->batch, p->batch_cap * sizeof(*p->batch));
	}
	p->batch[p->nbatch++] = xstrdup(id);
}

/* Writes a record: inside persist_flush's transaction it is remembered until
 * the commit; alone it is committed at once (autocommit). */
static int
persist_record(struct persist *p, const struct record *r, char kind)
{
	char id[KEY_MAX + 2];
	struct retry *old;

	snprintf(id, sizeof(id), "%c:%s", kind, r->key);
	if (write_record(p, r, kind) < 0) {
		p->stats.append_failures++;
		if (p->refusing && p->full) {
			/* The whole change is refused (batch_end). */
			batch_add(p, id);
			return -1;
		}
		log_failure(p, r->key);
		p->failing = true;
		retry_add_id(p, id);
		return -1;
	}
	if (p->in_batch) {
		batch_add(p, id);
		return 0;
	}
	p->stats.appends++;
	p->ckpt_due = true;
	old = retry_find(p, kind, r->key);
	if (old != NULL)
		retry_del(p, old);
	return 0;
}

int
persist_channel(struct channel *ch, void *ctx)
{
	struct persist *p = ctx;
	int64_t now = tick_clock(p);
	struct record r;

	if (channel_last_used(ch) < now)
		channel_set_last_used(ch, now);
	record_of_channel(&r, ch);
	return persist_record(p, &r, 'c');
}

int
persist_user(struct user *u, void *ctx)
{
	struct record r;

	record_of_user(&r, u);
	return persist_record(ctx, &r, 'u');
}

/*
 * The disk is full: rolls the batch back and drops its records from memory,
 * so that they read back as last committed (the change is refused, not kept
 * for a retry: nothing would be saved until space returns, and the reply
 * must not acknowledge it). A change kept in memory after an earlier
 * failure of the same record is dropped with it. Returns -(records).
 */
static int
refuse_batch(struct persist *p)
{
	size_t n = p->nbatch;

	step_reset(p, ST_ROLLBACK);
	for (size_t i = 0; i < n; i++) {
		const char *id = p->batch[i];
		struct retry *r;

		HASH_FIND_STR(p->retry, id, r);
		if (r != NULL)
			retry_del(p, r);
		if (id[0] == 'c') {
			struct channel *ch = state_channel_peek(p->st, id + 2);

			if (ch != NULL)
				state_evict_channel(p->st, ch);
		} else {
			struct user *u = state_user_peek(p->st, id + 2);

			if (u != NULL)
				state_evict_user(p->st, u);
		}
	}
	p->stats.refused += n;
	if (!p->full_logged)
		log_error("store: the disk holding %s is full: changes are refused (their replies "
		          "say so) until space is freed; what was saved before is not affected",
		          p->path);
	p->full_logged = true;
	batch_forget(p);
	return n > 0 ? -(int)n : -1;
}

/* Commits the batch; on failure rolls it back and queues every record of it
 * for a retry (in persist_flush on a full disk: refuses it, refuse_batch).
 * Returns the number of records that are not durable, or -(records) when
 * refused. */
static int
batch_end(struct persist *p, int failed)
{
	int lost = failed;

	p->in_batch = false;
	if (p->refusing && p->full)
		return refuse_batch(p);
	if (step_reset(p, ST_COMMIT) == 0) {
		if (p->full_logged && p->nbatch > 0) {
			log_warnx("store: %s has space again; changes are saved again", p->path);
			p->full_logged = false;
		}
		for (size_t i = 0; i < p->nbatch; i++) {
			struct retry *r;

			HASH_FIND_STR(p->retry, p->batch[i], r);
			if (r != NULL)
				retry_del(p, r);
		}
		p->stats.appends += p->nbatch;
		p->ckpt_due = p->ckpt_due || p->nbatch > 0;
	} else if (p->refusing && p->full) {
		return refuse_batch(p);
	} else {
		log_failure(p, p->nbatch > 0 ? p->batch[0] + 2 : "(none)");
		step_reset(p, ST_ROLLBACK);
		for (size_t i = 0; i < p->nbatch; i++)
			retry_add_id(p, p->batch[i]);
		p->stats.append_failures += p->nbatch;
		lost += (int)p->nbatch;
		if (p->nbatch > 0)
			p->failing = true;
	}
	batch_forget(p);
	return lost;
}

int
persist_flush(struct persist *p)
{
	int failed;

	if (step_reset(p, ST_BEGIN) < 0) {
		/* Each record then tries on its own. */
		return state_flush(p->st, persist_channel, persist_user, p);
	}
	p->in_batch = true;
	p->full = false;
	p->refusing = true;
	failed = state_flush(p->st, persist_channel, persist_user, p);
	failed = batch_end(p, failed);
	p->refusing = false;
	return failed;
}

static int
flush_hook(void *ctx)
{
	return persist_flush(ctx);
}

/* Writes the records whose commits failed, in one transaction. */
static void
retry_failed(struct persist *p)
{
	struct retry *r, *tmp;
	int failed = 0;
	size_t n = HASH_COUNT(p->retry);

	if (step_reset(p, ST_BEGIN) < 0)
		return;
	p->in_batch = true;
	HASH_ITER(hh, p->retry, r, tmp)
	{
		struct record rec;

		if (r->id[0] == 'c') {
			struct channel *ch = state_channel_find(p->st, r->id + 2);

			if (ch == NULL) {
				retry_del(p, r);
				continue;
			}
			record_of_channel(&rec, ch);
		} else {
			struct user *u = state_user_peek(p->st, r->id + 2);

			/* Not in memory: released as empty, so its row goes. */
			if (u != NULL) {
				record_of_user(&rec, u);
			} else {
				memset(&rec, 0, sizeof(rec));
				rec.kind = RECORD_USER;
				snprintf(rec.key, sizeof(rec.key), "%s", r->id + 2);
			}
		}
		if (persist_record(p, &rec, r->id[0]) < 0)
			failed++;
	}
	if (batch_end(p, failed) == 0) {
		if (p->failing)
			log_warnx("store: writing works again; %zu changes that had failed are now "
			          "saved",
			          n);
		p->failing = false;
	}
}

/* --- the everysec checkpoint --- */

static void
ckpt_work(uv_work_t *req)
{
	struct persist *p = req->data;

	p->ckpt_rc =
	    sqlite3_wal_checkpoint_v2(p->ckpt_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

static void
ckpt_done(uv_work_t *req, int status)
{
	struct persist *p = req->data;

	p->ckpt_running = false;
	if (p->ckpt_rc != SQLITE_OK && p->ckpt_rc != SQLITE_BUSY)
		log_warn("store: the checkpoint of %s failed: %s", p->path,
		         sqlite3_errmsg(p->ckpt_db));
	if (p->closing)
		close_step(p);
}

/* Under everysec, syncs the WAL into the database file off the loop: what a
 * power cut can lose is then about a second of changes. */
static void
ckpt_start(struct persist *p)
{
	if (p->o.fsync != FSYNC_EVERYSEC || p->ckpt_running || !p->ckpt_due)
		return;
	if (p->ckpt_db == NULL) {
		if (sqlite3_open_v2(p->path, &p->ckpt_db, SQLITE_OPEN_READWRITE, NULL) !=
		    SQLITE_OK) {
			log_warn("store: cannot open %s for checkpoints: %s", p->path,
			         sqlite3_errmsg(p->ckpt_db));
			sqlite3_close(p->ckpt_db);
			p->ckpt_db = NULL;
			return;
		}
		sqlite3_busy_timeout(p->ckpt_db, BUSY_MS);
		sqlite3_exec(p->ckpt_db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	}
	p->ckpt_due = false;
	p->ckpt_running = true;
	p->ckpt_req.data = p;
	p->stats.checkpoints++;
	uv_queue_work(p->loop, &p->ckpt_req, ckpt_work, ckpt_done);
}

/* --- snapshot files --- */

#define SNAP_DIR    "snapshots"
#define SNAP_PREFIX "delver-"
#define SNAP_SUFFIX ".db"

struct snapjob {
	uv_work_t req;
	struct persist *p;
	char src[4200];
	char dir[4200 + 16];
	char tmp[4200 + 64];
	char path[4200 + 64];
	int keep;
	int rc;
	double ms;
	char msg[9000];
};

static bool
snapshot_name(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, SNAP_PREFIX, strlen(SNAP_PREFIX)) == 0 && n > strlen(SNAP_SUFFIX) &&
	       strcmp(name + n - strlen(SNAP_SUFFIX), SNAP_SUFFIX) == 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
snapshot_tmp_name(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, SNAP_PREFIX, strlen(SNAP_PREFIX)) == 0 && n > strlen(".tmp") &&
	       strcmp(name + n - strlen(".tmp"), ".tmp") == 0;
}

/* Removes the oldest snapshot files past keep (names sort by time), and the
 * temporary files of snapshots that a crash left unfinished (only one
 * snapshot is written at a time). */
static void
prune(struct snapjob *w)
{
	DIR *d = opendir(w->dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (snapshot_tmp_name(e->d_name)) {
			char path[4200 + 300];

			snprintf(path, sizeof(path), "%s/%s", w->dir, e->d_name);
			unlink(path);
			continue;
		}
		if (!snapshot_name(e->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (i + (size_t)w->keep < n) {
			char path[4200 + 300];

			snprintf(path, sizeof(path), "%s/%s", w->dir, names[i]);
			unlink(path);
		}
		free(names[i]);
	}
	free(names);
}

/* The worker: a consistent copy of the database through the online backup
 * API, on connections of its own; then rename, fsync, prune. */
static void
snap_work(uv_work_t *req)
{
	struct snapjob *w = req->data;
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *b;
	uint64_t t0 = uv_hrtime();
	int rc;

	w->rc = -1;
	unlink(w->tmp);
	if (sqlite3_open_v2(w->src, &src, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_open_v2(w->tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	        SQLITE_OK) {
		snprintf(w->msg, sizeof(w->msg), "cannot open %s: %s",
		         dst == NULL ? w->src : w->tmp, sqlite3_errmsg(dst == NULL ? src : dst));
		goto out;
	}
	sqlite3_busy_timeout(src, BUSY_MS);
	sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
	b = sqlite3_backup_init(dst, "main", src, "main");
	if (b == NULL) {
		snprintf(w->msg, sizeof(w->msg), "cannot start the copy: %s", sqlite3_errmsg(dst));
		goto out;
	}
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		snprintf(w->msg, sizeof(w->msg), "the copy failed: %s", sqlite3_errstr(rc));
		goto out;
	}
	if (sqlite3_close(dst) != SQLITE_OK) {
		snprintf(w->msg, sizeof(w->msg), "cannot close %s", w->tmp);
		dst = NULL;
		goto out;
	}
	dst = NULL;
	if (fsio_rename(w->tmp, w->path) < 0 || fsio_fsync_dir(w->dir) < 0) {
		snprintf(w->msg, sizeof(w->msg), "cannot install %s: %s", w->path, strerror(errno));
		goto out;
	}
	prune(w);
	w->rc = 0;
out:
	if (dst != NULL)
		sqlite3_close(dst);
	if (w->rc < 0)
		unlink(w->tmp);
	sqlite3_close(src);
	w->ms = (double)(uv_hrtime() - t0) / 1e6;
}

static void
snap_done(uv_work_t *req, int status)
{
	struct snapjob *w = req->data;
	struct persist *p = w->p;

	p->snap = NULL;
	if (w->rc == 0) {
		p->stats.snapshots++;
		p->stats.last_snapshot_ms = w->ms;
		log_debug("store: snapshot %s written in %.0f ms", w->path, w->ms);
	} else {
		p->stats.snapshot_failures++;
		p->snap_appends = 0; /* try again at the next interval */
		log_warnx("store: snapshot file: %s; the database is not affected, and the next "
		          "one is tried in %d s",
		          w->msg, p->o.snapshot_interval);
	}
	free(w);
	if (p->closing)
		close_step(p);
}

int
persist_snapshot(struct persist *p)
{
	struct snapjob *w;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	if (p->snap != NULL || p->closing)
		return -1;
	w = xcalloc(1, sizeof(*w));
	w->p = p;
	w->keep = p->o.snapshot_keep > 0 ? p->o.snapshot_keep : 1;
	snprintf(w->src, sizeof(w->src), "%s", p->path);
	snprintf(w->dir, sizeof(w->dir), "%s/" SNAP_DIR, p->dir);
	if (mkdir(w->dir, 0700) < 0 && errno != EEXIST) {
		log_warn("store: cannot create %s", w->dir);
		p->stats.snapshot_failures++;
		free(w);
		return -1;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(w->path, sizeof(w->path), "%s/" SNAP_PREFIX "%s" SNAP_SUFFIX, w->dir, stamp);
	snprintf(w->tmp, sizeof(w->tmp), "%s/" SNAP_PREFIX "%s.tmp", w->dir, stamp);
	w->req.data = w;
	p->snap = w;
	p->snap_appends = p->stats.appends;
	uv_queue_work(p->loop, &w->req, snap_work, snap_done);
	return 0;
}

bool
persist_busy(const struct persist *p)
{
	return p->snap != NULL;
}

/* --- idle channels --- */

static bool
evictable(const struct channel *ch, void *ctx)
{
	struct persist *p = ctx;

	return channel_last_used(ch) + p->o.evict_after <= p->clock &&
	       retry_find(p, 'c', channel_key(ch)) == NULL;
}

/* Users: idle ones (their row is current), and empty ones at once. */
static bool
user_evictable(const struct user *u, void *ctx)
{
	struct persist *p = ctx;

	return (user_is_empty(u) ||
	        (p->o.evict_after > 0 && user_last_used(u) + p->o.evict_after <= p->clock)) &&
	       retry_find(p, 'u', user_key(u)) == NULL;
}

size_t
persist_evict(struct persist *p)
{
	size_t n, nu;

	tick_clock(p);
	nu = state_evict_users_if(p->st, user_evictable, p);
	p->stats.users_evicted += nu;
	if (p->o.evict_after == 0)
		return 0;
	n = state_evict_channels_if(p->st, evictable, p);
	p->stats.evicted += n;
	return n;
}

/* Reads one record row (version, rec) into r. Returns 0, or -1 with err. */
static int
decode_row(sqlite3_stmt *s, int col, struct record *r, char *err, size_t errlen)
{
	int version = sqlite3_column_int(s, col);
	const void *blob = sqlite3_column_blob(s, col + 1);
	int len = sqlite3_column_bytes(s, col + 1);

	if (blob == NULL) {
		snprintf(err, errlen, "the record is empty");
		return -1;
	}
	return record_decode(blob, (size_t)len, version, record_builtin_mods(), r, err, errlen);
}

static int
load_channel(struct channel *fresh, void *ctx)
{
	struct persist *p = ctx;
	sqlite3_stmt *s = p->stmt[ST_GET_CHANNEL];
	char err[1024];
	struct record r;
	int rc;

	sqlite3_bind_text(s, 1, channel_key(fresh), -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		rc = 0;
	} else if (rc != SQLITE_ROW) {
		log_error("cannot load channel '%s' from %s: %s", channel_key(fresh), p->path,
		          sqlite3_errmsg(p->db));
		rc = -1;
	} else if (decode_row(s, 0, &r, err, sizeof(err)) < 0) {
		log_error("cannot load channel '%s' from %s: %s", channel_key(fresh), p->path, err);
		rc = -1;
	} else if (r.kind != RECORD_CHANNEL) {
		record_clear(&r, record_builtin_mods());
		log_error("cannot load channel '%s' from %s: the record is not a channel",
		          channel_key(fresh), p->path);
		rc = -1;
	} else {
		record_to_channel(&r, fresh);
		p->stats.loaded++;
		rc = 1;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc;
}

static int
load_user(struct user *fresh, void *ctx)
{
	struct persist *p = ctx;
	sqlite3_stmt *s = p->stmt[ST_GET_USER];
	char err[1024];
	struct record r;
	int rc;

	sqlite3_bind_text(s, 1, user_key(fresh), -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		rc = 0;
	} else if (rc != SQLITE_ROW) {
		log_error("cannot load user '%s' from %s: %s", user_key(fresh), p->path,
		          sqlite3_errmsg(p->db));
		rc = -1;
	} else if (decode_row(s, 0, &r, err, sizeof(err)) < 0) {
		log_error("cannot load user '%s' from %s: %s", user_key(fresh), p->path, err);
		rc = -1;
	} else if (r.kind != RECORD_USER) {
		record_clear(&r, record_builtin_mods());
		log_error("cannot load user '%s' from %s: the record is not a user",
		          user_key(fresh), p->path);
		rc = -1;
	} else {
		record_to_user(&r, fresh);
		user_set_last_used(fresh, tick_clock(p));
		p->stats.users_loaded++;
		rc = 1;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc;
}

/* --- the timer --- */

static uint64_t
sweep_ms(const struct persist *p)
{
	int s = p->o.evict_after > 0 && p->o.evict_after < SWEEP_SECONDS ? p->o.evict_after
	                                                                 : SWEEP_SECONDS;

	return (uint64_t)s * 1000;
}

static void
tick_cb(uv_timer_t *t)
{
	struct persist *p = t->data;
	uint64_t now = uv_now(p->loop);

	tick_clock(p);
	if (p->retry != NULL)
		retry_failed(p);
	ckpt_start(p);
	if (now >= p->next_snapshot_ms && p->snap == NULL) {
		p->next_snapshot_ms = now + (uint64_t)p->o.snapshot_interval * 1000;
		if (p->stats.appends != p->snap_appends)
			persist_snapshot(p);
	}
	if (now >= p->next_sweep_ms) {
		p->next_sweep_ms = now + sweep_ms(p);
		persist_evict(p);
	}
}

/* --- opening and closing --- */

static int
open_dir(struct persist *p, char *err, size_t errlen)
{
	char path[4200];
	struct stat sb;

	if (mkdir(p->dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create the state directory %s: %s", p->dir,
		         strerror(errno));
		return -1;
	}
	if (stat(p->dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "the state directory %s is not a directory", p->dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/lock", p->dir);
	p->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (p->lock_fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(p->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen,
		         "the state directory %s is in use by another delver (%s is "
		         "locked); stop it or use another --state-dir",
		         p->dir, path);
		return -1;
	}
	return 0;
}

static int
exec_sql(struct persist *p, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(p->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "cannot set up the database %s (%s): %s", p->path, sql,
	         sqlite3_errmsg(p->db));
	return -1;
}

static void
damaged(struct persist *p, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen,
	         "the database %s is damaged (%s); delver leaves it as it is and will not start "
	         "on it: put back a copy from a backup or a snapshot file, or move it aside to "
	         "start with no saved state",
	         p->path, why);
}

/* Checks the whole database file before anything may write to it. */
static int
check_db(struct persist *p, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	const char *res;
	int rc;

	if (sqlite3_prepare_v2(p->db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK) {
		damaged(p, sqlite3_errmsg(p->db), err, errlen);
		return -1;
	}
	rc = sqlite3_step(s);
	res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
	if (rc != SQLITE_ROW || res == NULL || strcmp(res, "ok") != 0) {
		damaged(p, rc != SQLITE_ROW || res == NULL ? sqlite3_errmsg(p->db) : res, err,
		        errlen);
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

static int
open_db(struct persist *p, char *err, size_t errlen)
{
	mode_t old;
	struct stat sb;
	int rc;

	/* SQLite takes an empty file for a new database: an empty delver.db
	 * was cut short (delver writes the header as it creates it). */
	if (stat(p->path, &sb) == 0 && sb.st_size == 0) {
		damaged(p, "the file is empty: truncated", err, errlen);
		return -1;
	}
	old = umask(077);
	rc =
	    sqlite3_open_v2(p->path, &p->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	umask(old);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the database %s: %s", p->path,
		         p->db ? sqlite3_errmsg(p->db) : sqlite3_errstr(rc));
		return -1;
	}
	sqlite3_extended_result_codes(p->db, 1);
	sqlite3_busy_timeout(p->db, BUSY_MS);
	/* Closing must not checkpoint a WAL into a file that fails the check. */
	sqlite3_db_config(p->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	if (check_db(p, err, errlen) < 0)
		return -1;
	sqlite3_db_config(p->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
	if (exec_sql(p, "PRAGMA journal_mode = WAL", err, errlen) < 0 ||
	    exec_sql(p, sync_pragma(p->o.fsync), err, errlen) < 0 ||
	    exec_sql(p, schema, err, errlen) < 0)
		return -1;
	for (int i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(p->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
		                       &p->stmt[i], NULL) != SQLITE_OK) {
			snprintf(err, errlen, "cannot prepare a statement on %s: %s", p->path,
			         sqlite3_errmsg(p->db));
			return -1;
		}
	}
	return 0;
}

static void
stamp_user(struct user *u, void *ctx)
{
	user_set_last_used(u, ((struct persist *)ctx)->clock);
}

/* Loads every user, and the channels used within evict_after (all of them
 * when evict_after is 0); the others stay on disk until used. */
static int
load_all(struct persist *p, char *err, size_t errlen)
{
	static const char *const sql[2] = {
	    "SELECT key, version, rec FROM users",
	    "SELECT key, version, rec FROM channels WHERE last_used > ?1",
	};
	int64_t since = p->o.evict_after > 0 ? p->clock - p->o.evict_after : INT64_MIN;
	uint64_t n = 0;
	/* Keys are unique in the table: into an empty state, no lookups. */
	bool fresh = state_nchannels(p->st) == 0;
	char **empty = NULL; /* users rows that hold nothing (older versions wrote them) */
	size_t nempty = 0, cap = 0;
	int ret = -1;

	for (int t = 0; t < 2; t++) {
		sqlite3_stmt *s;
		int rc;

		if (sqlite3_prepare_v2(p->db, sql[t], -1, &s, NULL) != SQLITE_OK) {
			snprintf(err, errlen, "cannot read %s: %s", p->path, sqlite3_errmsg(p->db));
			goto out;
		}
		if (t == 1)
			sqlite3_bind_int64(s, 1, since);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			char why[1024];
			struct record r;
			const char *key = (const char *)sqlite3_column_text(s, 0);
			enum record_kind want = t == 0 ? RECORD_USER : RECORD_CHANNEL;
			int bad = decode_row(s, 1, &r, why, sizeof(why));

			if (bad == 0 && r.kind != want) {
				record_clear(&r, record_builtin_mods());
				snprintf(why, sizeof(why), "it holds another kind of record");
				bad = -1;
			}
			if (bad < 0) {
				snprintf(
				    err, errlen,
				    "%s: the %s record '%s' cannot be read: %s; restore a snapshot "
				    "of the state directory",
				    p->path, t == 0 ? "user" : "channel", key ? key : "", why);
				sqlite3_finalize(s);
				goto out;
			}
			if (t == 0 && record_is_empty(&r)) {
				if (nempty == cap) {
					cap = cap ? cap * 2 : 16;
					empty = xrealloc(empty, cap * sizeof(*empty));
				}
				empty[nempty++] = xstrdup(r.key);
				continue;
			}
			if (t == 0)
				record_to_user(&r, state_user(p->st, r.key));
			else
				record_to_channel(&r, fresh ? state_channel_new(p->st, r.key)
				                            : state_channel(p->st, r.key));
			n++;
		}
		if (rc != SQLITE_DONE) {
			snprintf(err, errlen, "cannot read %s: %s", p->path, sqlite3_errmsg(p->db));
			sqlite3_finalize(s);
			goto out;
		}
		sqlite3_finalize(s);
	}
	/* Loading is not a change; every user loaded counts as used now. */
	state_flush(p->st, NULL, NULL, NULL);
	state_each_user(p->st, stamp_user, p);
	/* Empty user rows go: a user with nothing to keep is not stored. */
	if (nempty > 0 && step_reset(p, ST_BEGIN) == 0) {
		int bad = 0;

		for (size_t i = 0; i < nempty; i++) {
			sqlite3_bind_text(p->stmt[ST_DEL_USER], 1, empty[i], -1, SQLITE_STATIC);
			bad |= step_reset(p, ST_DEL_USER);
		}
		if (bad != 0 || step_reset(p, ST_COMMIT) < 0) {
			step_reset(p, ST_ROLLBACK);
			log_warn("store: cannot delete the %zu empty user records of %s: %s",
			         nempty, p->path, sqlite3_errmsg(p->db));
		}
	}
	log_debug("state %s: %llu records loaded", p->path, (unsigned long long)n);
	ret = 0;
out:
	for (size_t i = 0; i < nempty; i++)
		free(empty[i]);
	free(empty);
	return ret;
}

/* --- importing a state directory of the journal-and-snapshot format --- */

/* True for the files of the old format: snapshot.dlv, journal.<n>.dlv and
 * what --salvage moved aside. */
static bool
old_format_name(const char *name)
{
	uint64_t seq;

	return strcmp(name, SNAPSHOT_FILE) == 0 || journal_parse_name(name, &seq) ||
	       (strncmp(name, SNAPSHOT_FILE ".bad-", strlen(SNAPSHOT_FILE ".bad-")) == 0) ||
	       (strncmp(name, "journal.", strlen("journal.")) == 0 &&
	        strstr(name, ".bad-") != NULL);
}

static bool
has_old_format(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (d == NULL)
		return false;
	while (!found && (e = readdir(d)) != NULL)
		found = old_format_name(e->d_name);
	closedir(d);
	return found;
}

static void
import_channel(struct channel *ch, void *ctx)
{
	struct persist *p = ctx;
	struct record r;

	record_of_channel(&r, ch);
	if (write_record(p, &r, 'c') < 0)
		p->import_failed = true;
}

static void
import_user(struct user *u, void *ctx)
{
	struct persist *p = ctx;
	struct record r;

	record_of_user(&r, u);
	if (!record_is_empty(&r) && write_record(p, &r, 'u') < 0)
		p->import_failed = true;
}

/* Moves every old-format file into DIR/<sub> (made fresh), then fsyncs. */
static int
move_aside(struct persist *p, const char *sub, char *err, size_t errlen)
{
	char to[4200 + 300], from[4200 + 300], aside[4200];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	snprintf(aside, sizeof(aside), "%s/%s", p->dir, sub);
	if (mkdir(aside, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", aside, strerror(errno));
		return -1;
	}
	d = opendir(p->dir);
	if (d == NULL) {
		snprintf(err, errlen, "cannot list %s: %s", p->dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!old_format_name(e->d_name))
			continue;
		snprintf(from, sizeof(from), "%s/%s", p->dir, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", aside, e->d_name);
		if (fsio_rename(from, to) < 0) {
			snprintf(err, errlen, "cannot move %s to %s: %s", from, aside,
			         strerror(errno));
			rc = -1;
		}
	}
	closedir(d);
	if (rc == 0 && (fsio_fsync_dir(aside) < 0 || fsio_fsync_dir(p->dir) < 0)) {
		snprintf(err, errlen, "cannot fsync %s: %s", p->dir, strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * Imports a state directory written by the journal-and-snapshot store: reads
 * it whole with restore (which refuses damaged files as it always did),
 * commits every record in one fsynced transaction, then moves the old files
 * into DIR/imported-<time>/. A crash before the move imports again on the
 * next start, to the same rows. Returns 0 (st then holds every record), or -1.
 */
static int
import_old(struct persist *p, char *err, size_t errlen)
{
	struct restore_opts ro = {.dir = p->dir, .salvage = p->o.salvage, .now = p->clock};
	struct restore_result res;
	char why[16384], sub[64];
	time_t now = time(NULL);
	struct tm tm;

	if (restore_state(p->st, &ro, &res, why, sizeof(why)) < 0) {
		snprintf(err, errlen,
		         "%s. The state directory is in the old format and cannot be imported "
		         "into %s; the files are left as they are: repair or remove them, or "
		         "start with --salvage to import what is readable",
		         why, p->path);
		return -1;
	}
	if (res.clock > p->clock)
		p->clock = res.clock;
	state_flush(p->st, NULL, NULL, NULL);
	if (exec_sql(p, "PRAGMA synchronous = FULL", err, errlen) < 0 ||
	    exec_sql(p, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	state_each_channel(p->st, import_channel, p);
	state_each_user(p->st, import_user, p);
	if (p->import_failed || exec_sql(p, "COMMIT", err, errlen) < 0) {
		if (p->import_failed)
			snprintf(err, errlen, "cannot import the old state files into %s: %s",
			         p->path, sqlite3_errmsg(p->db));
		sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (exec_sql(p, sync_pragma(p->o.fsync), err, errlen) < 0)
		return -1;
	gmtime_r(&now, &tm);
	strftime(sub, sizeof(sub), "imported-%Y%m%dT%H%M%SZ", &tm);
	if (move_aside(p, sub, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "the old state files were imported into %s, but %s", p->path,
		         why);
		return -1;
	}
	log_info("store: imported %llu records from the old state files of %s into %s; the "
	         "old files are in %s/%s",
	         (unsigned long long)(state_nchannels(p->st) + state_nusers(p->st)), p->dir,
	         p->path, p->dir, sub);
	return 0;
}

static void
free_persist(struct persist *p)
{
	struct retry *r, *tmp;

	HASH_ITER(hh, p->retry, r, tmp)
	{
		retry_del(p, r);
	}
	batch_forget(p);
	free(p->batch);
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(p->stmt[i]);
	sqlite3_close(p->ckpt_db);
	sqlite3_close(p->db);
	if (p->lock_fd >= 0)
		close(p->lock_fd);
	free(p);
}

int
persist_db_path(char *out, size_t size, const char *dir)
{
	int n = snprintf(out, size, "%s/" PERSIST_DB_FILE, dir);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* --- restoring a snapshot file --- */

/* Copies the database at from into to (which must not exist) with the
 * backup API, fsynced. Returns 0, or -1 with err. */
static int
copy_db(const char *from, const char *to, char *err, size_t errlen)
{
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *b;
	int rc = -1;

	if (sqlite3_open_v2(from, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_open_v2(to, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	        SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", dst == NULL ? from : to,
		         sqlite3_errmsg(dst == NULL ? src : dst));
		goto out;
	}
	sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
	b = sqlite3_backup_init(dst, "main", src, "main");
	if (b == NULL) {
		snprintf(err, errlen, "cannot copy %s: %s", from, sqlite3_errmsg(dst));
		goto out;
	}
	rc = sqlite3_backup_step(b, -1) == SQLITE_DONE ? 0 : -1;
	sqlite3_backup_finish(b);
	if (rc < 0)
		snprintf(err, errlen, "cannot copy %s: %s", from, sqlite3_errmsg(dst));
out:
	sqlite3_close(dst);
	sqlite3_close(src);
	return rc;
}

/* Checks that path is a whole delver database. Returns 0, or -1 with err. */
static int
check_file(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	const char *res;
	int rc = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW ||
	    (res = (const char *)sqlite3_column_text(s, 0)) == NULL || strcmp(res, "ok") != 0) {
		snprintf(err, errlen, "%s is not a whole SQLite database (%s)", path,
		         sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM channels, users LIMIT 0", -1, &s, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s is not a delver database (no channels and users tables)",
		         path);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(s);
	sqlite3_close(db);
	return rc;
}

int
persist_restore(const char *dir, const char *file, char *err, size_t errlen)
{
	struct persist *p = xcalloc(1, sizeof(*p));
	char why[8192], tmp[4300], from[4300], to[4400], sub[64], aside[4300];
	static const char *const parts[] = {"", "-wal", "-shm"};
	time_t now = time(NULL);
	struct tm tm;
	int rc = -1;

	p->lock_fd = -1;
	snprintf(p->dir, sizeof(p->dir), "%s", dir != NULL ? dir : persist_default_dir());
	if (persist_db_path(p->path, sizeof(p->path), p->dir) < 0) {
		snprintf(err, errlen, "the state directory's name is too long");
		goto out;
	}
	if (check_file(file, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot restore: %s; nothing was changed", why);
		goto out;
	}
	if (open_dir(p, err, errlen) < 0)
		goto out;
	snprintf(tmp, sizeof(tmp), "%s.restore-tmp", p->path);
	unlink(tmp);
	if (copy_db(file, tmp, why, sizeof(why)) < 0) {
		unlink(tmp);
		snprintf(err, errlen, "cannot restore: %s; nothing was changed", why);
		goto out;
	}
	/* The database in use (with its log) moves aside, never removed. */
	gmtime_r(&now, &tm);
	strftime(sub, sizeof(sub), "replaced-%Y%m%dT%H%M%SZ", &tm);
	snprintf(aside, sizeof(aside), "%s/%s", p->dir, sub);
	if (access(p->path, F_OK) == 0) {
		if (mkdir(aside, 0700) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s; nothing was changed", aside,
			         strerror(errno));
			unlink(tmp);
			goto out;
		}
		for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			snprintf(from, sizeof(from), "%s%s", p->path, parts[i]);
			snprintf(to, sizeof(to), "%s/" PERSIST_DB_FILE "%s", aside, parts[i]);
			if (access(from, F_OK) == 0 && fsio_rename(from, to) < 0) {
				snprintf(err, errlen, "cannot move %s to %s: %s", from, aside,
				         strerror(errno));
				goto out;
			}
		}
		fsio_fsync_dir(aside);
	}
	if (fsio_rename(tmp, p->path) < 0 || fsio_fsync_dir(p->dir) < 0) {
		snprintf(err, errlen, "cannot install %s as %s: %s", tmp, p->path, strerror(errno));
		goto out;
	}
	log_info("store: %s restored from %s%s%s", p->path, file,
	         access(aside, F_OK) == 0 ? "; the database it replaced is in " : "",
	         access(aside, F_OK) == 0 ? aside : "");
	rc = 0;
out:
	free_persist(p);
	return rc;
}

struct persist *
persist_open(uv_loop_t *loop, struct state *st, const struct persist_opts *o, char *err,
             size_t errlen)
{
	struct persist *p = xcalloc(1, sizeof(*p));

	p->loop = loop;
	p->st = st;
	p->o = *o;
	p->lock_fd = -1;
	snprintf(p->dir, sizeof(p->dir), "%s", o->dir != NULL ? o->dir : persist_default_dir());
	tick_clock(p);
	if (persist_db_path(p->path, sizeof(p->path), p->dir) < 0) {
		snprintf(err, errlen, "the state directory's name is too long");
		free_persist(p);
		return NULL;
	}
	if (open_dir(p, err, errlen) < 0 || open_db(p, err, errlen) < 0 ||
	    (has_old_format(p->dir) ? import_old(p, err, errlen) : load_all(p, err, errlen)) < 0) {
		free_persist(p);
		return NULL;
	}
	uv_timer_init(loop, &p->tick);
	p->tick.data = p;
	uv_timer_start(&p->tick, tick_cb, TICK_MS, TICK_MS);
	uv_unref((uv_handle_t *)&p->tick);
	p->next_sweep_ms = uv_now(loop) + sweep_ms(p);
	p->next_snapshot_ms = uv_now(loop) + (uint64_t)p->o.snapshot_interval * 1000;
	return p;
}

void
persist_reconfigure(struct persist *p, const struct persist_opts *o)
{
	p->o.fsync = o->fsync;
	p->o.snapshot_interval = o->snapshot_interval;
	p->o.snapshot_keep = o->snapshot_keep;
	p->o.evict_after = o->evict_after;
	if (p->next_snapshot_ms > uv_now(p->loop) + (uint64_t)o->snapshot_interval * 1000)
		p->next_snapshot_ms = uv_now(p->loop) + (uint64_t)o->snapshot_interval * 1000;
	if (sqlite3_exec(p->db, sync_pragma(o->fsync), NULL, NULL, NULL) != SQLITE_OK)
		log_warn("store: cannot change the fsync policy of %s: %s", p->path,
		         sqlite3_errmsg(p->db));
	p->next_sweep_ms = uv_now(p->loop) + sweep_ms(p);
}

void
persist_attach(struct persist *p, struct dispatch *d)
{
	d->persist_channel = persist_channel;
	d->persist_user = persist_user;
	d->persist_flush = flush_hook;
	d->persist_ctx = p;
	state_set_loader(p->st, load_channel, p);
	state_set_user_loader(p->st, load_user, p);
}

void
persist_get_stats(const struct persist *p, struct persist_stats *s)
{
	*s = p->stats;
	s->retry_pending = HASH_COUNT(p->retry);
}

static void
tick_closed(uv_handle_t *h)
{
	struct persist *p = h->data;
	void (*done)(void *) = p->closed;
	void *ctx = p->closed_ctx;

	free_persist(p);
	if (done != NULL)
		done(ctx);
}

/* Waits for a running checkpoint, saves what is left, closes. */
static void
close_step(struct persist *p)
{
	if (p->ckpt_running || p->snap != NULL)
		return;
	persist_flush(p);
	if (p->retry != NULL)
		retry_failed(p);
	if (p->retry != NULL)
		log_error("store: %u changes could not be saved to %s before the stop",
		          HASH_COUNT(p->retry), p->path);
	uv_close((uv_handle_t *)&p->tick, tick_closed);
}

void
persist_close_async(struct persist *p, void (*done)(void *ctx), void *ctx)
{
	p->closing = true;
	p->closed = done;
	p->closed_ctx = ctx;
	uv_timer_stop(&p->tick);
	close_step(p);
}

static void
set_true(void *ctx)
{
	*(bool *)ctx = true;
}

void
persist_close(struct persist *p)
{
	uv_loop_t *loop;
	bool done = false;

	if (p == NULL)
		return;
	loop = p->loop;
	persist_close_async(p, set_true, &done);
	while (!done)
		uv_run(loop, UV_RUN_ONCE);
}
