/* store_sqlite_read: rows read back; see store_sqlite_read.h. */
#include "bot/store/store_sqlite_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "bot/store/store_sqlite_int.h"
#include "bot/store/store_sqlite_write.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

bool
store_sqlite_mark_id(const char *key, int64_t *id)
{
	uint64_t n = 0;
	size_t i = 0;

	if (key[0] == '0')
		return key[1] == '\0' && (*id = 0, true);
	for (; key[i] >= '0' && key[i] <= '9'; i++) {
		if (i == 19)
			return false;
		n = n * 10 + (uint64_t)(key[i] - '0');
	}
	if (i == 0 || key[i] != '\0' || n > INT64_MAX)
		return false;
	*id = (int64_t)n;
	return true;
}

int
store_sqlite_read_stmt(enum store_kind kind, const char *key, int64_t *id)
{
	*id = 0;
	return kind == STORE_CHANNEL           ? ST_GET_CHANNEL
	       : kind == STORE_USER            ? ST_GET_USER
	       : store_sqlite_mark_id(key, id) ? ST_GET_MARK_ID
	                                       : ST_GET_MARK;
}

void
store_sqlite_read_bind(sqlite3_stmt *s, int stmt, const char *key, int64_t id)
{
	if (stmt == ST_GET_MARK_ID)
		sqlite3_bind_int64(s, 1, id);
	else
		sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
}

/* Fills r from a row of ST_GET_* (last_used, version, rec, generation). */
void
store_sqlite_read_row(struct store_row *r, sqlite3_stmt *s, enum store_kind kind, const char *key)
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

/* Reads key's log entries with s (ST_LOG_GET on some connection) into l
 * (emptied first) and points r's log at them, valid until l changes.
 * Returns 0, or -1 when the read failed (the connection's error message
 * says why). */
int
store_sqlite_read_log(sqlite3_stmt *s, const char *key, struct log_read *l, struct store_row *r)
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

void
store_sqlite_read_log_init(struct log_read *l)
{
	memset(l, 0, sizeof(*l));
	buf_init(&l->text, (size_t)-1);
}

void
store_sqlite_read_log_free(struct log_read *l)
{
	free(l->rows);
	free(l->off);
	buf_free(&l->text);
}

int
store_sqlite_read_active(struct store_backend *base, int64_t used_since,
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

	store_sqlite_read_log_init(&l);
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
			if (t == 1 &&
			    store_sqlite_read_log(b->stmt[ST_LOG_GET], r.key, &l, &r) < 0) {
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
	ret = store_sqlite_write_at_start(b, &fix, err, errlen);
out:
	store_sqlite_read_log_free(&l);
	store_at_start_fix_free(&fix);
	return ret;
}
