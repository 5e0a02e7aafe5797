/* store_pg_active: the rows read at start-up; see store_pg_active.h. */
#include "bot/store/store_pg_active.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bot/store/store.h"
#include "bot/store/store_pg_int.h"
#include "bot/store/store_pg_sql.h"
#include "bot/store/store_pg_tables.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* A channel being read at start-up: its row and log entries, copied (the
 * join repeats the row once per entry). */
struct active_chan {
	bool have;
	bool stored_known, stored; /* its at_start as stored (known: not NULL) */
	struct store_at_start_fix fix;
	struct store_row row;
	struct buf key, rec, text; /* text: the entries' records */
	struct store_log_row *log;
	size_t *off;
	size_t nlog, cap;
};

/* Hands the channel gathered in a to row (when there is one). Returns
 * row's result, 0 when none. */
static int
active_flush(struct active_chan *a, int (*row)(const struct store_row *r, void *ctx), void *ctx)
{
	int said;

	if (!a->have)
		return 0;
	a->have = false;
	a->row.key = buf_str(&a->key);
	a->row.rec = a->rec.p != NULL ? a->rec.p : "";
	for (size_t i = 0; i < a->nlog; i++)
		a->log[i].rec = a->text.p + a->off[i];
	a->row.log = a->nlog > 0 ? a->log : NULL;
	a->row.nlog = a->nlog;
	said = row(&a->row, ctx);
	if (said >= 0)
		store_at_start_fix_add(&a->fix, a->row.key, a->stored_known, a->stored, said == 1,
		                       a->row.generation);
	return said;
}

/* Adds the channel row r (binary: key, last_used, version, rec,
 * generation, seq, rec of one of its entries or NULLs, at_start) to a, handing the
 * previous channel to row when this is another one. Returns 0, -1 when r's
 * shape is not the tables', -2 when row refused. */
static int
active_add(struct active_chan *a, const PGresult *r,
           int (*row)(const struct store_row *r, void *ctx), void *ctx)
{
	struct store_row sr;

	if (PQnfields(r) != 8 || store_pg_tables_row(r, 0, STORE_CHANNEL, &sr) < 0 ||
	    (!PQgetisnull(r, 0, 7) && PQgetlength(r, 0, 7) != 1))
		return -1;
	if (!a->have || strcmp(buf_str(&a->key), sr.key) != 0) {
		if (active_flush(a, row, ctx) < 0)
			return -2;
		a->have = true;
		a->row = sr;
		a->stored_known = !PQgetisnull(r, 0, 7);
		a->stored = a->stored_known && PQgetvalue(r, 0, 7)[0] != 0;
		buf_reset(&a->key);
		buf_reset(&a->rec);
		buf_reset(&a->text);
		buf_adds(&a->key, sr.key);
		buf_add(&a->rec, sr.rec, sr.rec_len);
		a->nlog = 0;
	}
	if (PQgetisnull(r, 0, 5))
		return 0;
	if (PQgetlength(r, 0, 5) != 8)
		return -1;
	if (a->nlog == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 32;
		a->log = xrealloc(a->log, a->cap * sizeof(*a->log));
		a->off = xrealloc(a->off, a->cap * sizeof(*a->off));
	}
	a->log[a->nlog].seq = store_pg_tables_uint(r, 0, 5, 8);
	a->log[a->nlog].rec_len = (size_t)PQgetlength(r, 0, 6);
	a->off[a->nlog] = a->text.len;
	buf_add(&a->text, PQgetvalue(r, 0, 6), a->log[a->nlog].rec_len);
	a->nlog++;
	return 0;
}

/* Stores each fixed at_start (store.h), in one transaction; the records,
 * and so their generations, stay as they are. Returns 0, or -1 with err. */
static int
at_start_fix_write(struct store_pg *p, const struct store_at_start_fix *f, char *err, size_t errlen)
{
	char gen[24], why[ERR_MAX];
	bool ok = f->n == 0 || store_pg_sql_exec(p->conn, "BEGIN", why, sizeof(why));

	for (size_t i = 0; ok && i < f->n; i++) {
		const char *v[3] = {f->keys[i], f->at_start[i] ? "true" : "false", gen};
		PGresult *r;

		snprintf(gen, sizeof(gen), "%" PRIu64, f->generation[i]);
		r = PQexecParams(
		    p->conn, "UPDATE channels SET at_start = $2 WHERE key = $1 AND generation = $3",
		    3, NULL, v, NULL, NULL, 0);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			store_pg__first_line(why, sizeof(why), PQresultErrorMessage(r));
		PQclear(r);
	}
	if (ok && f->n > 0)
		ok = store_pg_sql_exec(p->conn, "COMMIT", why, sizeof(why));
	if (ok)
		return 0;
	PQclear(PQexec(p->conn, "ROLLBACK"));
	snprintf(err, errlen, "cannot write the channels of PostgreSQL: %s", why);
	return -1;
}

static int
load_table(struct store_pg *p, enum store_kind kind, int64_t used_since,
           int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err, size_t errlen)
{
	char sql[640], since[24], why[ERR_MAX];
	const char *v[1] = {since};
	struct active_chan a;
	PGresult *r;
	int rc = 0;

	memset(&a, 0, sizeof(a));
	buf_init(&a.key, (size_t)1 << 16);
	buf_init(&a.rec, (size_t)-1);
	buf_init(&a.text, (size_t)-1);
	/* A channel's rows wanted at every start or not known come through
	 * their index (channels_at_start), then the others used since. */
	if (kind == STORE_CHANNEL)
		snprintf(sql, sizeof(sql),
		         "SELECT c.key, c.last_used, c.version, c.rec, c.generation, l.seq, l.rec, "
		         "c.at_start FROM channels c LEFT JOIN logs l ON l.key = c.key "
		         "WHERE c.at_start IS NOT false UNION ALL "
		         "SELECT c.key, c.last_used, c.version, c.rec, c.generation, l.seq, l.rec, "
		         "c.at_start FROM channels c LEFT JOIN logs l ON l.key = c.key "
		         "WHERE c.last_used >= $1 AND c.at_start IS false ORDER BY 1, 6");
	else
		snprintf(sql, sizeof(sql),
		         "SELECT key, last_used, version, rec, generation FROM %s WHERE "
		         "last_used >= $1",
		         store_pg_tables_name[kind]);
	snprintf(since, sizeof(since), "%" PRId64, kind == STORE_USER ? INT64_MIN : used_since);
	if (!PQsendQueryParams(p->conn, sql, 1, NULL, v, NULL, NULL, 1) ||
	    !PQsetSingleRowMode(p->conn)) {
		store_pg__first_line(why, sizeof(why), PQerrorMessage(p->conn));
		snprintf(err, errlen, "cannot read the %s of PostgreSQL: %s",
		         store_pg_tables_name[kind], why);
		rc = -1;
		goto out;
	}
	while ((r = PQgetResult(p->conn)) != NULL) {
		ExecStatusType st = PQresultStatus(r);

		if (st == PGRES_SINGLE_TUPLE && rc == 0) {
			struct store_row sr;
			int added = kind == STORE_CHANNEL ? active_add(&a, r, row, ctx) : 0;

			if (kind == STORE_USER && store_pg_tables_row(r, 0, kind, &sr) < 0)
				added = -1;
			else if (kind == STORE_USER && row(&sr, ctx) < 0)
				added = -2;
			if (added == -1) {
				snprintf(
				    err, errlen,
				    "the %s table of PostgreSQL does not have delver's columns",
				    store_pg_tables_name[kind]);
				rc = -1;
			} else if (added == -2) {
				rc = -2; /* row's own error; the rest is read away */
			}
		} else if (st != PGRES_SINGLE_TUPLE && st != PGRES_TUPLES_OK && rc == 0) {
			store_pg__first_line(why, sizeof(why), PQresultErrorMessage(r));
			snprintf(err, errlen, "cannot read the %s of PostgreSQL: %s",
			         store_pg_tables_name[kind], why);
			rc = -1;
		}
		PQclear(r);
	}
	if (rc == 0 && active_flush(&a, row, ctx) < 0)
		rc = -2;
	if (rc == 0 && at_start_fix_write(p, &a.fix, err, errlen) < 0)
		rc = -1;
out:
	store_at_start_fix_free(&a.fix);
	buf_free(&a.key);
	buf_free(&a.rec);
	buf_free(&a.text);
	free(a.log);
	free(a.off);
	return rc < 0 ? -1 : 0;
}

int
store_pg_active_load(struct store_backend *b, int64_t used_since,
                     int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
                     size_t errlen)
{
	struct store_pg *p = (struct store_pg *)b;
	int rc;

	if (!p->up || p->sent.head != NULL || PQpipelineStatus(p->conn) != PQ_PIPELINE_ON) {
		snprintf(err, errlen, "cannot read PostgreSQL at start-up: %s",
		         !p->up ? "not connected" : "work is under way");
		return -1;
	}
	if (!PQexitPipelineMode(p->conn) || PQsetnonblocking(p->conn, 0) != 0) {
		store_pg__first_line(err, errlen, PQerrorMessage(p->conn));
		return -1;
	}
	rc = load_table(p, STORE_USER, 0, row, ctx, err, errlen);
	if (rc == 0)
		rc = load_table(p, STORE_CHANNEL, used_since, row, ctx, err, errlen);
	/* libpq leaves single-row mode on after those queries until the next
	 * query sent outside a pipeline: without one, the first read by key in
	 * the pipeline gets its row as PGRES_SINGLE_TUPLE (taken for an error). */
	PQclear(PQexec(p->conn, "SELECT 1"));
	if (PQsetnonblocking(p->conn, 1) != 0 || !PQenterPipelineMode(p->conn)) {
		if (rc == 0)
			store_pg__first_line(err, errlen, PQerrorMessage(p->conn));
		rc = -1;
	}
	return rc;
}
