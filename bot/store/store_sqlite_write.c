/* store_sqlite_write: rows written in one transaction; see store_sqlite_write.h. */
#include "bot/store/store_sqlite_write.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "bot/store/store_sqlite_int.h"
#include "bot/store/store_sqlite_read.h"
#include "rules/base/mem.h"

/* The result of the calling thread's last step_reset
 * (store_sqlite_write_rows tells a full disk from it: the rollback that
 * follows sets the error code again). */
static _Thread_local int step_rc;

/* Runs s once and resets it. Its bindings stay (pointers into rows that
 * are freed after the commit, never read again): every statement here is
 * given each of its parameters before each step. */
static int
step_reset(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	step_rc = rc;
	sqlite3_reset(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

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
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* The data version of b's database file into *v: 0, or -1 when SQLite
 * cannot tell. */
static int
data_version(struct sqlite_backend *b, unsigned *v)
{
	return sqlite3_file_control(b->db, "main", SQLITE_FCNTL_DATA_VERSION, v) == SQLITE_OK ? 0
	                                                                                      : -1;
}

/* The slot of key in b's cache of generations (FNV-1a), or NULL when key
 * is too long to be cached. */
static struct gen_slot *
gen_slot(struct sqlite_backend *b, const char *key)
{
	uint32_t h = 2166136261u;
	size_t len = 0;

	for (const unsigned char *k = (const unsigned char *)key; *k != '\0'; k++, len++)
		h = (h ^ *k) * 16777619u;
	if (len >= GEN_KEY_MAX)
		return NULL;
	if (b->gens == NULL)
		b->gens = xcalloc(GEN_SLOTS, sizeof(*b->gens));
	return &b->gens[h % GEN_SLOTS];
}

/* The generation cached for key: 1 with *stored, 0 when none is. */
static int
gen_cached(struct sqlite_backend *b, const char *key, uint64_t *stored)
{
	const struct gen_slot *g = gen_slot(b, key);

	if (g == NULL || g->epoch != b->gen_epoch || strcmp(g->key, key) != 0)
		return 0;
	*stored = g->generation;
	return 1;
}

/* Notes r's row as its commit left it: stored at generation g, or gone. */
static void
gen_note(struct sqlite_backend *b, const struct store_row *r, bool gone, uint64_t g)
{
	struct gen_slot *s = gen_slot(b, r->key);

	if (s == NULL)
		return;
	if (gone) {
		if (s->epoch == b->gen_epoch && strcmp(s->key, r->key) == 0)
			s->epoch = b->gen_epoch - 1;
		return;
	}
	s->epoch = b->gen_epoch;
	memcpy(s->key, r->key, strlen(r->key) + 1);
	s->generation = g;
}

/* After the commit of rows[0..n) (checked, each written): every channel
 * row's stored generation into the cache, and the file's data version. */
static void
gens_committed(struct sqlite_backend *b, struct store_row *const *rows,
               const struct store_row *plain, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct store_row *r = rows != NULL ? rows[i] : &plain[i];

		if (r->kind != STORE_CHANNEL)
			continue;
		if (r->log_only)
			gen_note(b, r, false, r->generation);
		else
			gen_note(b, r, r->rec == NULL, r->generation + 1);
	}
	b->versioned = data_version(b, &b->data_version) == 0;
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
		int64_t id;

		if (r->rec == NULL) {
			s = b->stmt[ST_EXPIRE_MARK_IDS];
			sqlite3_bind_int64(s, 1, r->last_used);
			if (step_reset(s) < 0)
				return STORE_FAILED;
			s = b->stmt[ST_EXPIRE_MARKS];
			sqlite3_bind_int64(s, 1, r->last_used);
		} else if (store_sqlite_mark_id(r->key, &id)) {
			s = b->stmt[ST_PUT_MARK_ID];
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int64(s, 2, r->last_used);
			sqlite3_bind_blob(s, 3, r->rec, (int)r->rec_len, SQLITE_STATIC);
		} else {
			s = b->stmt[ST_PUT_MARK];
			sqlite3_bind_text(s, 1, r->key, -1, SQLITE_STATIC);
			sqlite3_bind_int64(s, 2, r->last_used);
			sqlite3_bind_blob(s, 3, r->rec, (int)r->rec_len, SQLITE_STATIC);
		}
		if (r->rec == NULL)
			return step_reset(s) == 0 ? STORE_OK : STORE_FAILED;
		/* A mark whose key is stored already conflicts (store_backend.h). */
		rc = step_changed(b, s);
		return rc < 0 ? STORE_FAILED : rc == 0 ? STORE_CONFLICT : STORE_OK;
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
		/* The record is as stored: its generation must still be (as
		 * this process last committed or read it, while nothing else
		 * was committed to the file since). */
		rc = gen_cached(b, r->key, &stored);
		if (rc == 0)
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

int
store_sqlite_try_begin(struct sqlite_backend *b)
{
	int rc;

	sqlite3_busy_timeout(b->db, 0);
	rc = sqlite3_step(b->stmt[ST_BEGIN]);
	sqlite3_reset(b->stmt[ST_BEGIN]);
	sqlite3_busy_timeout(b->db, BUSY_MS);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* One transaction for rows; fills status (all STORE_FAILED when it could
 * not commit, STORE_FULL when the disk is full; when a row conflicts, the
 * transaction is rolled back: those rows STORE_CONFLICT, the others
 * STORE_NOT_WRITTEN). Returns 0, -1 with err, or -2 with err after a
 * conflict. */
int
store_sqlite_write_rows(struct sqlite_backend *b, struct store_row *const *rows,
                        const struct store_row *plain, size_t n, enum store_status *status,
                        bool check, bool begun, char *err, size_t errlen)
{
	enum store_status why = STORE_FAILED;
	size_t conflicts = 0;
	bool versioned = b->versioned;
	unsigned v;

	/* Only a checked commit that goes through vouches for the cache. */
	b->versioned = false;
	if (!begun && step_reset(b->stmt[ST_BEGIN]) < 0) {
		snprintf(err, errlen, "cannot begin a transaction on %s: %s", b->path,
		         sqlite3_errmsg(b->db));
		if ((step_rc & 0xff) == SQLITE_FULL)
			why = STORE_FULL;
		goto failed;
	}
	if (!check || !versioned || data_version(b, &v) < 0 || v != b->data_version) {
		/* The file may have been written otherwise: every slot is void
		 * (epoch 0 is never current). */
		if (++b->gen_epoch == 0) {
			if (b->gens != NULL)
				memset(b->gens, 0, GEN_SLOTS * sizeof(*b->gens));
			b->gen_epoch = 1;
		}
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
	if (step_reset(b->stmt[ST_COMMIT]) == 0) {
		if (check)
			gens_committed(b, rows, plain, n);
		return 0;
	}
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
int
store_sqlite_write_at_start(struct sqlite_backend *b, const struct store_at_start_fix *f, char *err,
                            size_t errlen)
{
	sqlite3_stmt *s = NULL;

	if (f->n == 0)
		return 0;
	if (store_sqlite__exec_sql(b, "BEGIN IMMEDIATE", err, errlen) < 0)
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
