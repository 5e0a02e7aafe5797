/* store_pg: the PostgreSQL backend; see store_pg.h. */
#include "bot/store/store_pg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "bot/log.h"
#include "bot/store/statedir.h"
#include "bot/store/store.h"
#include "bot/store/store_pg_snapshot.h"
#include "bot/store/store_pg_active.h"
#include "bot/store/store_pg_conn.h"
#include "bot/store/store_pg_int.h"
#include "bot/store/store_pg_sql.h"
#include "bot/store/store_pg_tables.h"
#include "rules/base/mem.h"

struct snap_job {
	uv_work_t req;
	struct store_pg *p;
	char *path;
	store_done_cb done;
	void *ctx;
	int rc;
	char err[OP_ERR_MAX];
};

static const struct store_backend_ops pg_ops;
static void kick_cb(uv_timer_t *t);

/* --- helpers --- */

void
store_pg__queue_push(struct op_queue *q, struct op *o)
{
	o->next = NULL;
	if (q->tail != NULL)
		q->tail->next = o;
	else
		q->head = o;
	q->tail = o;
}

struct op *
store_pg__queue_pop(struct op_queue *q)
{
	struct op *o = q->head;

	if (o != NULL) {
		q->head = o->next;
		if (q->head == NULL)
			q->tail = NULL;
	}
	return o;
}

/* The first line of a libpq message, without its "ERROR:  " decoration. */
void
store_pg__first_line(char *out, size_t outlen, const char *msg)
{
	size_t n;

	if (msg == NULL || *msg == '\0')
		msg = "no message from libpq";
	n = strcspn(msg, "\n");
	snprintf(out, outlen, "%.*s", (int)n, msg);
}

uint64_t
store_pg__now_ms(const struct store_pg *p)
{
	return uv_now(p->base.loop);
}

void
store_pg__free_op(struct op *o)
{
	if (o->got != NULL)
		PQclear(o->got);
	for (size_t i = 0; i < o->n && o->rows != NULL; i++)
		free(o->rows[i]);
	free(o->rows);
	free(o->row_status);
	free(o->stmt_row);
	free(o->key);
	free(o);
}

/* Queues o's completion to run from the loop. */
void
store_pg__finish(struct store_pg *p, struct op *o)
{
	store_pg__queue_push(&p->done, o);
	if (!uv_is_active((uv_handle_t *)&p->kick))
		uv_timer_start(&p->kick, kick_cb, 0, 0);
}

static const char *const conn_keywords[] = {"dbname", "fallback_application_name", "password",
                                            NULL};

PGconn *
store_pg__connect_params(const struct store_pg *p, bool async)
{
	/* A NULL password is ignored: libpq's own sources (PGPASSWORD,
	 * ~/.pgpass) apply. */
	const char *values[] = {p->conninfo, "delver", p->password, NULL};
	const char *const *kw = conn_keywords;

	return async ? PQconnectStartParams(kw, values, 1) : PQconnectdbParams(kw, values, 1);
}

static void
kick_cb(uv_timer_t *t)
{
	struct store_pg *p = t->data;
	struct op *o;

	while ((o = store_pg__queue_pop(&p->done)) != NULL) {
		const char *err = o->err[0] != '\0' ? o->err : NULL;

		if (o->kind == OP_COMMIT) {
			/* After a conflict nothing of the batch was written. */
			for (size_t i = 0; i < o->n && o->status != STORE_OK; i++)
				if (o->status != STORE_CONFLICT)
					o->row_status[i] = o->status;
				else if (o->row_status[i] != STORE_CONFLICT)
					o->row_status[i] = STORE_NOT_WRITTEN;
			o->commit_done(o->ctx, o->status, o->row_status, o->n, err);
		} else if (o->kind == OP_LOAD) {
			struct store_row row;
			const struct store_row *rp = NULL;

			struct store_log_row *log = NULL;

			if (o->status == STORE_OK && o->got != NULL) {
				if (store_pg_tables_row(o->got, 0, o->kind_loaded, &row) == 0 &&
				    store_pg_tables_log(o->got, &row, &log) == 0) {
					rp = &row;
				} else {
					o->status = STORE_FAILED;
					snprintf(
					    o->err, sizeof(o->err),
					    "the %s table of PostgreSQL does not have delver's "
					    "columns",
					    store_pg_tables_name[o->kind_loaded]);
					err = o->err;
				}
			}
			o->load_done(o->ctx, o->status, rp, err);
			free(log);
		}
		store_pg__free_op(o);
	}
	if (p->up)
		store_pg_conn_reach_over(p, STORE_OK);
	if (p->closing)
		store_pg__close_maybe(p);
}

/* --- the operations --- */

/* Sends o (a commit or a load) when connected; otherwise it fails now. */
static void
submit(struct store_pg *p, struct op *o, bool (*send)(struct store_pg *, struct op *))
{
	if (p->closing) {
		o->status = STORE_FAILED;
		snprintf(o->err, sizeof(o->err), "the store is closing");
	} else if (!p->up) {
		o->status = STORE_UNAVAILABLE;
		snprintf(o->err, sizeof(o->err), "PostgreSQL cannot be reached: %s",
		         p->lost_why[0] != '\0' ? p->lost_why : "reconnecting");
		if (o->kind == OP_COMMIT)
			store_pg_conn_hurry(p);
	} else if (!send(p, o) || !PQpipelineSync(p->conn)) {
		/* libpq refuses only when the connection broke */
		o->status = STORE_UNAVAILABLE;
		store_pg__first_line(o->err, sizeof(o->err), PQerrorMessage(p->conn));
		store_pg__finish(p, o);
		store_pg_conn_lost_conn(p);
		return;
	} else {
		o->sent_ms = store_pg__now_ms(p);
		store_pg__queue_push(&p->sent, o);
		store_pg_conn_step(p);
		return;
	}
	store_pg__finish(p, o);
}

/* Sends one statement of row i (NO_ROW: the marks' check); its result
 * will be the next one of o.
 * Returns false when libpq refused it. */
static bool
send_stmt(struct store_pg *p, struct op *o, size_t i, enum stmt s, int np, const char *const *v,
          const int *len, const int *fmt)
{
	char name[16];

	if (o->nstmt == o->stmt_cap) {
		o->stmt_cap = o->stmt_cap ? o->stmt_cap * 2 : 16;
		o->stmt_row = xrealloc(o->stmt_row, o->stmt_cap * sizeof(*o->stmt_row));
	}
	o->stmt_row[o->nstmt++] = i;
	store_pg_tables_stmt_name(name, sizeof(name),
	                          i == NO_ROW ? STORE_HANDLED : o->rows[i]->kind, s);
	return PQsendQueryPrepared(p->conn, name, np, v, len, fmt, 0) != 0;
}

/* Sends row i's log statements: a new or deleted channel's entries go
 * first (clear), then the row's own are appended (each conflicts when its
 * number is stored already) and the oldest past log_keep dropped. */
static bool
send_log(struct store_pg *p, struct op *o, size_t i, bool clear)
{
	const struct store_row *r = o->rows[i];
	char seq[24];
	const char *v[3] = {r->key, seq, NULL};
	int len[3] = {0, 0, 0}, fmt[3] = {0, 0, 1};
	uint64_t newest = 0;

	if (clear && !send_stmt(p, o, i, ST_LOG_CLEAR, 1, v, NULL, NULL))
		return false;
	for (size_t k = 0; k < r->nlog; k++) {
		snprintf(seq, sizeof(seq), "%" PRIu64, r->log[k].seq);
		v[2] = r->log[k].rec;
		len[2] = (int)r->log[k].rec_len;
		if (!send_stmt(p, o, i, ST_LOG_ADD, 3, v, len, fmt))
			return false;
		if (r->log[k].seq > newest)
			newest = r->log[k].seq;
	}
	if (r->nlog > 0 && r->log_keep > 0 && newest > r->log_keep) {
		snprintf(seq, sizeof(seq), "%" PRIu64, newest - r->log_keep);
		if (!send_stmt(p, o, i, ST_LOG_TRIM, 2, v, NULL, NULL))
			return false;
	}
	return true;
}

/* Sends row i's statements (a channel's log with its record). Returns
 * false when libpq refused one. */
static bool
send_row(struct store_pg *p, struct op *o, size_t i)
{
	const struct store_row *r = o->rows[i];
	char used[24], ver[16], gen[24];
	const char *v[6];
	int len[6] = {0, 0, 0, 0, 0, 0}, fmt[6] = {0, 0, 0, 1, 0, 0};
	bool chan = r->kind == STORE_CHANNEL;
	enum stmt s;
	int np;

	snprintf(used, sizeof(used), "%" PRId64, r->last_used);
	snprintf(ver, sizeof(ver), "%d", r->version);
	snprintf(gen, sizeof(gen), "%" PRIu64, r->generation);
	v[0] = r->key;
	if (r->kind == STORE_HANDLED && r->rec == NULL) {
		s = ST_DELETE;
		v[0] = used;
		np = 1;
		fmt[3] = 0;
	} else if (r->kind == STORE_HANDLED) {
		s = ST_INSERT;
		v[1] = used;
		v[2] = r->rec;
		len[2] = (int)r->rec_len;
		fmt[2] = 1;
		v[3] = p->writer_text;
		fmt[3] = 0;
		np = 4;
	} else if (r->log_only) {
		s = ST_CURRENT;
		v[1] = gen;
		np = 2;
		fmt[3] = 0;
	} else if (r->rec == NULL) {
		s = r->generation == 0 ? ST_EXISTS : ST_DELETE;
		v[1] = gen;
		np = r->generation == 0 ? 1 : 2;
		fmt[3] = 0;
	} else {
		s = r->generation == 0 ? ST_INSERT : ST_UPDATE;
		v[1] = used;
		v[2] = ver;
		v[3] = r->rec;
		len[3] = (int)r->rec_len;
		v[4] = gen;
		np = r->generation == 0 ? 4 : 5;
		/* A channel's at_start follows (stmt_sql). */
		if (chan)
			v[np++] = r->at_start ? "true" : "false";
	}
	if (!send_stmt(p, o, i, s, np, v, len, fmt))
		return false;
	return !chan || send_log(p, o, i, !r->log_only && (r->rec == NULL || r->generation == 0));
}

static bool
is_mark(const struct store_row *r)
{
	return r->kind == STORE_HANDLED && r->rec != NULL;
}

/* The batch's statements: its marks first, each tried, then their check,
 * which rolls the batch back when one was refused (its event was handled
 * by another process), so that every refused mark is known whatever
 * records the batch also changed (the first failure ends the section);
 * then its other rows, in order. */
static bool
send_commit(struct store_pg *p, struct op *o)
{
	bool marks = false;

	for (size_t i = 0; i < o->n; i++) {
		if (!is_mark(o->rows[i]))
			continue;
		if (!send_row(p, o, i))
			return false;
		marks = true;
	}
	if (marks && !send_stmt(p, o, NO_ROW, ST_MARKS_CHECK, 0, NULL, NULL, NULL))
		return false;
	for (size_t i = 0; i < o->n; i++)
		if (!is_mark(o->rows[i]) && !send_row(p, o, i))
			return false;
	return true;
}

/* The first mark of commit o, or NULL. */
static const struct store_row *
first_mark(const struct op *o)
{
	for (size_t i = 0; i < o->n; i++)
		if (is_mark(o->rows[i]))
			return o->rows[i];
	return NULL;
}

bool
store_pg__doubt_ask(struct store_pg *p)
{
	struct op *o;

	while ((o = store_pg__queue_pop(&p->doubt)) != NULL) {
		const char *v[2] = {first_mark(o)->key, p->writer_text};

		o->asking = true;
		o->own = false;
		o->status = STORE_OK;
		o->err[0] = '\0';
		o->sent_ms = store_pg__now_ms(p);
		store_pg__queue_push(&p->sent, o);
		if (!PQsendQueryParams(
		        p->conn, "SELECT count(*) FROM handled WHERE key = $1 AND writer = $2", 2,
		        NULL, v, NULL, NULL, 0) ||
		    !PQpipelineSync(p->conn))
			return false;
	}
	return true;
}

bool
store_pg__doubt_answered(struct store_pg *p, struct op *o)
{
	bool asked = o->status == STORE_OK;

	o->asking = false;
	for (size_t i = 0; i < o->n; i++)
		o->row_status[i] = STORE_OK;
	if (asked && o->own) {
		/* it went through: every row is written */
		log_info("store: a commit whose answer was lost with the PostgreSQL connection "
		         "went through (the mark of event '%s' is this process's)",
		         first_mark(o)->key);
		store_pg__finish(p, o);
		return true;
	}
	if (!asked) {
		o->status = STORE_UNAVAILABLE;
		store_pg__finish(p, o);
		return true;
	}
	log_info("store: a commit whose answer was lost with the PostgreSQL connection did not "
	         "go through (event '%s' is not marked); it is sent again",
	         first_mark(o)->key);
	o->nstmt = 0;
	o->nresults = 0;
	o->sent_ms = store_pg__now_ms(p);
	if (!send_commit(p, o) || !PQpipelineSync(p->conn)) {
		o->status = STORE_UNAVAILABLE;
		store_pg__first_line(o->err, sizeof(o->err), PQerrorMessage(p->conn));
		store_pg__finish(p, o);
		return false;
	}
	store_pg__queue_push(&p->sent, o);
	return true;
}

static bool
send_load(struct store_pg *p, struct op *o)
{
	char name[16];
	const char *v[1] = {o->key};

	/* A channel comes with its log, in one query. */
	store_pg_tables_stmt_name(name, sizeof(name), o->kind_loaded,
	                          o->kind_loaded == STORE_CHANNEL ? ST_LOG_GET : ST_GET);
	return PQsendQueryPrepared(p->conn, name, 1, v, NULL, NULL, 1) != 0;
}

static void
pg_commit(struct store_backend *b, const struct store_row *rows, size_t n, store_commit_cb done,
          void *ctx)
{
	struct store_pg *p = (struct store_pg *)b;
	struct op *o = xcalloc(1, sizeof(*o));

	o->kind = OP_COMMIT;
	o->rows = xcalloc(n > 0 ? n : 1, sizeof(*o->rows));
	o->row_status = xcalloc(n > 0 ? n : 1, sizeof(*o->row_status));
	o->n = n;
	o->commit_done = done;
	o->ctx = ctx;
	for (size_t i = 0; i < n; i++) {
		o->rows[i] = store_row_dup(&rows[i]);
		o->row_status[i] = STORE_OK;
	}
	submit(p, o, send_commit);
}

static void
pg_load(struct store_backend *b, enum store_kind kind, const char *key, store_load_cb done,
        void *ctx)
{
	struct store_pg *p = (struct store_pg *)b;
	struct op *o = xcalloc(1, sizeof(*o));

	o->kind = OP_LOAD;
	o->kind_loaded = kind;
	o->key = xstrdup(key);
	o->load_done = done;
	o->ctx = ctx;
	submit(p, o, send_load);
}

/* --- snapshot --- */

static void
snap_work(uv_work_t *req)
{
	struct snap_job *j = req->data;
	const char *values[] = {j->p->conninfo, "delver", j->p->password, NULL};

	j->rc = store_pg_snapshot_write(conn_keywords, values, j->path, j->err, sizeof(j->err));
}

static void
snap_after(uv_work_t *req, int status)
{
	struct snap_job *j = req->data;
	struct store_pg *p = j->p;

	if (status != 0 && j->rc == 0) {
		j->rc = -1;
		snprintf(j->err, sizeof(j->err), "the snapshot of PostgreSQL was cancelled");
	}
	j->done(j->ctx, j->rc == 0 ? STORE_OK : STORE_FAILED, j->rc == 0 ? NULL : j->err);
	free(j->path);
	free(j);
	p->snapshots--;
	if (p->closing)
		store_pg__close_maybe(p);
}

static void
pg_snapshot(struct store_backend *b, const char *path, store_done_cb done, void *ctx)
{
	struct store_pg *p = (struct store_pg *)b;
	struct snap_job *j = xcalloc(1, sizeof(*j));

	j->p = p;
	j->path = xstrdup(path);
	j->done = done;
	j->ctx = ctx;
	j->req.data = j;
	p->snapshots++;
	if (uv_queue_work(b->loop, &j->req, snap_work, snap_after) != 0) {
		/* cannot happen with libuv's pool; still one completion, later */
		j->rc = -1;
		snprintf(j->err, sizeof(j->err), "no worker thread for the snapshot");
		snap_work(&j->req);
		snap_after(&j->req, 0);
	}
}

/* --- reaching the server now --- */

static void
pg_reach(struct store_backend *b, unsigned within_ms, store_done_cb done, void *ctx)
{
	struct store_pg *p = (struct store_pg *)b;

	p->reach_done = done;
	p->reach_ctx = ctx;
	p->reach_until_ms = store_pg__now_ms(p) + within_ms;
	if (p->up || p->connecting) {
		/* up: done from the loop (kick_cb); connecting: when it ends */
		if (p->up)
			uv_timer_start(&p->kick, kick_cb, 0, 0);
		return;
	}
	/* Not after the rest of the backoff: now, and from the shortest
	 * backoff again. */
	p->backoff_ms = BACKOFF_MIN_MS;
	uv_timer_start(&p->retry, store_pg_conn_retry, 0, 0);
}

/* --- closing --- */

static void
handle_closed(uv_handle_t *h)
{
	struct store_pg *p = h->data;

	if (--p->open_handles > 0)
		return;
	if (p->password != NULL) {
		explicit_bzero(p->password, strlen(p->password));
		free(p->password);
	}
	free(p->conninfo);
	if (p->closed != NULL)
		p->closed(p->closed_ctx, STORE_OK, NULL);
	free(p);
}

/* Frees p once nothing is under way. */
void
store_pg__close_maybe(struct store_pg *p)
{
	if (p->sent.head != NULL || p->done.head != NULL || p->doubt.head != NULL ||
	    p->snapshots > 0 || p->open_handles > 0)
		return;
	if (p->conn != NULL) {
		PQfinish(p->conn);
		p->conn = NULL;
	}
	p->up = false;
	store_pg_conn_poll_stop(p);
	p->open_handles = 3;
	uv_close((uv_handle_t *)&p->kick, handle_closed);
	uv_close((uv_handle_t *)&p->retry, handle_closed);
	uv_close((uv_handle_t *)&p->watch, handle_closed);
}

static void
pg_close(struct store_backend *b, store_done_cb done, void *ctx)
{
	struct store_pg *p = (struct store_pg *)b;

	p->closing = true;
	p->closed = done;
	p->closed_ctx = ctx;
	store_pg_conn_reach_over(p, STORE_UNAVAILABLE);
	uv_timer_stop(&p->retry);
	if (p->connecting || p->doubt.head != NULL)
		store_pg_conn_lost(p, "closing");
	store_pg__close_maybe(p);
}

static const struct store_backend_ops pg_ops = {
    .name = "postgresql",
    .load_active = store_pg_active_load,
    .commit = pg_commit,
    .load = pg_load,
    .snapshot = pg_snapshot,
    .reach = pg_reach,
    .close = pg_close,
};

/* --- open --- */

struct store_backend *
store_pg_open(uv_loop_t *loop, const struct store_pg_opts *o, char *err, size_t errlen)
{
	struct store_pg *p = xcalloc(1, sizeof(*p));
	char why[ERR_MAX];
	int fail = EAGAIN;

	p->base.ops = &pg_ops;
	p->base.loop = loop;
	p->conninfo = xstrdup(o->conninfo != NULL ? o->conninfo : "");
	if (o->password != NULL) {
		p->password = xstrdup(o->password);
		log_secret(p->password);
	}
	p->poll_fd = -1;
	p->backoff_ms = BACKOFF_MIN_MS;
	if (getrandom(&p->writer, sizeof(p->writer), 0) != (ssize_t)sizeof(p->writer))
		p->writer = (uint64_t)time(NULL) << 24 ^ (uint64_t)getpid() ^ (uintptr_t)p;
	snprintf(p->writer_text, sizeof(p->writer_text), "%" PRId64, (int64_t)p->writer);
	p->conn = store_pg__connect_params(p, false);
	if (p->conn == NULL || PQstatus(p->conn) != CONNECTION_OK) {
		store_pg__first_line(why, sizeof(why),
		                     p->conn != NULL ? PQerrorMessage(p->conn) : NULL);
		snprintf(
		    err, errlen,
		    "cannot connect to PostgreSQL (%s): %s; check [store] conninfo and that the "
		    "server is running",
		    p->conn != NULL && PQdb(p->conn) != NULL ? PQdb(p->conn) : "?", why);
		goto fail;
	}
	store_pg_sql_quiet_notices(p->conn);
	if (store_pg_tables_check_writable(p->conn, err, errlen) < 0) {
		fail = STATEDIR_UNSAFE;
		goto fail;
	}
	if (store_pg_tables_setup(p->conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot set up the tables in PostgreSQL database %s: %s",
		         PQdb(p->conn), why);
		goto fail;
	}
	uv_timer_init(loop, &p->kick);
	uv_timer_init(loop, &p->retry);
	uv_timer_init(loop, &p->watch);
	p->kick.data = p->retry.data = p->watch.data = p;
	if (PQsetnonblocking(p->conn, 1) != 0 || !PQenterPipelineMode(p->conn)) {
		store_pg__first_line(why, sizeof(why), PQerrorMessage(p->conn));
		snprintf(err, errlen, "cannot use PostgreSQL's connection: %s", why);
		PQfinish(p->conn);
		p->conn = NULL;
		p->closing = true;
		store_pg__close_maybe(p); /* frees p from the loop */
		errno = EAGAIN;
		return NULL;
	}
	p->up = true;
	uv_timer_start(&p->watch, store_pg_conn_watch, WATCH_MS, WATCH_MS);
	uv_unref((uv_handle_t *)&p->watch); /* a watchdog keeps no loop alive */
	if (store_pg_conn_poll(p, PQsocket(p->conn), UV_READABLE) < 0)
		store_pg_conn_lost(p, "its socket cannot be watched");
	return &p->base;
fail:
	if (p->conn != NULL)
		PQfinish(p->conn);
	if (p->password != NULL) {
		explicit_bzero(p->password, strlen(p->password));
		free(p->password);
	}
	free(p->conninfo);
	free(p);
	errno = fail;
	return NULL;
}

int
store_pg_connected(const struct store_backend *b)
{
	return ((const struct store_pg *)b)->up;
}

uint64_t
store_pg_retry_wait_ms(const struct store_backend *b, unsigned long *scheduled)
{
	const struct store_pg *p = (const struct store_pg *)b;

	if (scheduled != NULL)
		*scheduled = p->retries_scheduled;
	return p->retry_wait_ms;
}

void
store_pg_lose_next_answer(struct store_backend *b)
{
	((struct store_pg *)b)->lose_answer = true;
}
