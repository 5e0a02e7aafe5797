/* store_pg: the PostgreSQL backend; see store_pg.h. */
#include "bot/store/store_pg.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bot/log.h"
#include "bot/store/statedir.h"
#include "bot/store/store.h"
#include "bot/store/store_pg_snapshot.h"
#include "bot/store/store_pg_sql.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define BACKOFF_MIN_MS 200
#define BACKOFF_MAX_MS 5000
#define WATCH_MS       1000
#define OP_TIMEOUT_MS  10000 /* an answer slower than this: the server is unreachable */
#define ERR_MAX        256   /* a reason from libpq, cut */
#define OP_ERR_MAX     512   /* a sentence around it */

/* The prepared statements, for each of the two tables. */
enum stmt {
	ST_INSERT,
	ST_UPDATE,
	ST_DELETE,
	ST_EXISTS,
	ST_GET,
	ST_CURRENT, /* the row is at generation $2: a log-only write's check */
	ST_LOG_ADD,
	ST_LOG_TRIM,
	ST_LOG_CLEAR,
	ST_LOG_GET,
	ST_COUNT
};

/*
 * The writes fail when they touch no row (the generation moved on): the
 * count of rows written divides 1, so a conflict is SQLSTATE 22012
 * (division_by_zero), which aborts the pipeline section and rolls its
 * transaction back; nothing else in these statements divides.
 */
#define CONFLICT_SQLSTATE "22012"
#define WRITTEN_ONCE(W)   "WITH w AS (" W " RETURNING 1) SELECT 1 / count(*) FROM w"
/* T's table; a channel's writes also store its at_start: INS_COL and
 * INS_VAL add it to an insert, UPD_SET to an update. */
#define STMTS(T, INS_COL, INS_VAL, UPD_SET)                                                        \
	{                                                                                          \
		[ST_INSERT] = WRITTEN_ONCE("INSERT INTO " T "(key, last_used, version, rec, "      \
		                           "generation" INS_COL ") VALUES($1, $2, $3, $4, "        \
		                           "1" INS_VAL ") ON CONFLICT (key) DO NOTHING"),          \
		[ST_UPDATE] = WRITTEN_ONCE("UPDATE " T " SET last_used = $2, version = $3, "       \
		                           "rec = $4, generation = generation + 1" UPD_SET         \
		                           " WHERE key = $1 AND generation = $5"),                 \
		[ST_DELETE] =                                                                      \
		    WRITTEN_ONCE("DELETE FROM " T " WHERE key = $1 AND generation = $2"),          \
		[ST_EXISTS] = "SELECT 1 / (1 - count(*)) FROM " T " WHERE key = $1",               \
		[ST_GET] =                                                                         \
		    "SELECT key, last_used, version, rec, generation FROM " T " WHERE key = $1",   \
		[ST_CURRENT] =                                                                     \
		    "SELECT 1 / count(*) FROM " T " WHERE key = $1 AND generation = $2",           \
		[ST_LOG_ADD] = WRITTEN_ONCE("INSERT INTO logs(key, seq, rec) VALUES($1, $2, $3) "  \
		                            "ON CONFLICT DO NOTHING"),                             \
		[ST_LOG_TRIM] = "DELETE FROM logs WHERE key = $1 AND seq <= $2",                   \
		[ST_LOG_CLEAR] = "DELETE FROM logs WHERE key = $1",                                \
		[ST_LOG_GET] = "SELECT c.key, c.last_used, c.version, c.rec, c.generation, "       \
		               "l.seq, l.rec FROM channels c LEFT JOIN logs l ON l.key = c.key "   \
		               "WHERE c.key = $1 ORDER BY l.seq",                                  \
	}
/* The marks of handled events (STORE_HANDLED): written once, never
 * conflicting; ST_DELETE expires the marks handled before $1; ST_GET reads
 * one in the tables' row shape. */
#define MARK_STMTS                                                                                 \
	{                                                                                          \
		[ST_INSERT] = "INSERT INTO handled(key, at, answer) VALUES($1, $2, $3) "           \
		              "ON CONFLICT (key) DO UPDATE SET at = excluded.at, "                 \
		              "answer = excluded.answer",                                          \
		[ST_DELETE] = "DELETE FROM handled WHERE at < $1",                                 \
		[ST_GET] = "SELECT key, at, 0::integer, answer, 0::bigint FROM handled "           \
		           "WHERE key = $1",                                                       \
	}
static const char *const stmt_sql[3][ST_COUNT] = {
    [STORE_CHANNEL] = STMTS("channels", ", at_start", ", $5", ", at_start = $6"),
    [STORE_USER] = STMTS("users", "", "", ""),
    [STORE_HANDLED] = MARK_STMTS,
};
#undef STMTS
#undef MARK_STMTS

static const char *const table_name[3] = {
    [STORE_CHANNEL] = "channels", [STORE_USER] = "users", [STORE_HANDLED] = "handled"};

/* Run in one transaction by open and after every reconnection. */
static const char *const schema_sql[] = {
    "SELECT pg_advisory_xact_lock(7346238117)", /* "delver" schema creation */
    "CREATE TABLE IF NOT EXISTS channels(key text PRIMARY KEY, last_used bigint NOT NULL, "
    "version integer NOT NULL, rec bytea NOT NULL, generation bigint NOT NULL, "
    "at_start boolean)",
    /* A channel's at_start: store_row's, NULL where not known (a row an
     * older delver wrote; load_active stores what its record says). Its
     * tables got it after they were made: added where missing, without
     * taking the table's lock where it is there. */
    "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = "
    "'channels'::regclass AND attname = 'at_start' AND NOT attisdropped) THEN "
    "ALTER TABLE channels ADD COLUMN at_start boolean; END IF; END $$",
    /* The channels wanted at every start or not known yet (few of all):
     * the start reads them through this index alone. Made where missing,
     * again without the table's lock where it is there. */
    "DO $$ BEGIN IF to_regclass('channels_at_start') IS NULL THEN "
    "CREATE INDEX channels_at_start ON channels(key) WHERE at_start IS NOT false; "
    "END IF; END $$",
    "CREATE TABLE IF NOT EXISTS users(key text PRIMARY KEY, last_used bigint NOT NULL, "
    "version integer NOT NULL, rec bytea NOT NULL, generation bigint NOT NULL)",
    "CREATE TABLE IF NOT EXISTS logs(key text NOT NULL, seq bigint NOT NULL, "
    "rec bytea NOT NULL, PRIMARY KEY (key, seq))",
    "CREATE TABLE IF NOT EXISTS handled(key text PRIMARY KEY, at bigint NOT NULL, "
    "answer bytea NOT NULL)",
};
#define NSCHEMA (sizeof(schema_sql) / sizeof(schema_sql[0]))

enum op_kind {
	OP_SETUP,
	OP_COMMIT,
	OP_LOAD
};

struct op {
	enum op_kind kind;
	struct op *next;
	void *ctx;
	enum store_status status;
	char err[OP_ERR_MAX];
	size_t nresults; /* statement results read so far */
	uint64_t sent_ms;
	/* OP_COMMIT: the copied rows (store_row_dup) */
	struct store_row **rows;
	enum store_status *row_status;
	size_t n;
	size_t *stmt_row; /* the row each statement sent writes */
	size_t nstmt, stmt_cap;
	store_commit_cb commit_done;
	/* OP_LOAD */
	enum store_kind kind_loaded;
	char *key;
	PGresult *got; /* the row read (a channel's: once per log entry), or NULL */
	store_load_cb load_done;
};

struct op_queue {
	struct op *head, *tail;
};

struct snap_job {
	uv_work_t req;
	struct store_pg *p;
	char *path;
	store_done_cb done;
	void *ctx;
	int rc;
	char err[OP_ERR_MAX];
};

struct store_pg {
	struct store_backend base; /* first: the backend is this struct */
	char *conninfo;
	char *password;
	PGconn *conn;
	bool up;         /* connected, set up, in pipeline mode */
	bool connecting; /* PQconnectPoll under way */
	uv_poll_t *poll; /* on PQsocket(conn), or NULL */
	int poll_fd;
	int poll_events;
	uv_timer_t kick;  /* runs the completions of done */
	uv_timer_t retry; /* reconnection backoff */
	uv_timer_t watch; /* answers too slow */
	int backoff_ms;
	uint64_t connect_ms;  /* when connecting began */
	struct op_queue sent; /* on the connection, in order */
	struct op_queue done; /* completions to run from the loop */
	int snapshots;        /* running */
	bool closing;
	int open_handles;
	store_done_cb closed;
	void *closed_ctx;
	char lost_why[ERR_MAX];
	/* A reach under way (pg_reach): done once up, or at reach_until_ms. */
	store_done_cb reach_done;
	void *reach_ctx;
	uint64_t reach_until_ms;
};

static const struct store_backend_ops pg_ops;
static void pg_step(struct store_pg *p);
static void kick_cb(uv_timer_t *t);
static void close_maybe(struct store_pg *p);

/* --- helpers --- */

static void
queue_push(struct op_queue *q, struct op *o)
{
	o->next = NULL;
	if (q->tail != NULL)
		q->tail->next = o;
	else
		q->head = o;
	q->tail = o;
}

static struct op *
queue_pop(struct op_queue *q)
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
static void
first_line(char *out, size_t outlen, const char *msg)
{
	size_t n;

	if (msg == NULL || *msg == '\0')
		msg = "no message from libpq";
	n = strcspn(msg, "\n");
	snprintf(out, outlen, "%.*s", (int)n, msg);
}

static uint64_t
now_ms(const struct store_pg *p)
{
	return uv_now(p->base.loop);
}

static void
free_op(struct op *o)
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
static void
finish(struct store_pg *p, struct op *o)
{
	queue_push(&p->done, o);
	if (!uv_is_active((uv_handle_t *)&p->kick))
		uv_timer_start(&p->kick, kick_cb, 0, 0);
}

static void
stmt_name(char *out, size_t len, enum store_kind k, enum stmt s)
{
	snprintf(out, len, "%c%d", "cuh"[k], (int)s);
}

/* --- rows --- */

static uint64_t
be_uint(const PGresult *r, int row, int col, int len)
{
	const unsigned char *v = (const unsigned char *)PQgetvalue(r, row, col);
	uint64_t x = 0;

	if (PQgetlength(r, row, col) != len)
		return 0;
	for (int i = 0; i < len; i++)
		x = x << 8 | v[i];
	return x;
}

/* Reads row i of a result in binary format (key, last_used, version, rec,
 * generation). Returns 0, or -1 when its shape is not the tables'. */
static int
row_from(const PGresult *r, int i, enum store_kind kind, struct store_row *out)
{
	if (PQnfields(r) < 5 || PQgetlength(r, i, 1) != 8 || PQgetlength(r, i, 2) != 4 ||
	    PQgetlength(r, i, 4) != 8)
		return -1;
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	out->key = PQgetvalue(r, i, 0);
	out->last_used = (int64_t)be_uint(r, i, 1, 8);
	out->version = (int)(int32_t)(uint32_t)be_uint(r, i, 2, 4);
	out->rec = PQgetvalue(r, i, 3);
	out->rec_len = (size_t)PQgetlength(r, i, 3);
	out->generation = be_uint(r, i, 4, 8);
	return 0;
}

/* Points row's log at the entries r holds (a channel read with its log:
 * columns 5 and 6 of each row, NULL when it has none), in *log (the caller
 * frees it). Returns 0, or -1 when r's shape is not the tables'. */
static int
log_from(const PGresult *r, struct store_row *row, struct store_log_row **log)
{
	int n = PQntuples(r), k = 0;

	*log = NULL;
	row->log = NULL;
	row->nlog = 0;
	if (PQnfields(r) != 7 || PQgetisnull(r, 0, 5))
		return PQnfields(r) == 7 || PQnfields(r) == 5 ? 0 : -1;
	*log = xcalloc((size_t)n, sizeof(**log));
	for (int i = 0; i < n; i++) {
		if (PQgetlength(r, i, 5) != 8)
			return -1;
		(*log)[k].seq = be_uint(r, i, 5, 8);
		(*log)[k].rec = PQgetvalue(r, i, 6);
		(*log)[k].rec_len = (size_t)PQgetlength(r, i, 6);
		k++;
	}
	row->log = *log;
	row->nlog = (size_t)k;
	return 0;
}

/* --- the connection's socket --- */

static void poll_cb(uv_poll_t *h, int status, int events);
static void watch_cb(uv_timer_t *t);

static void
free_handle(uv_handle_t *h)
{
	free(h);
}

static void
poll_stop(struct store_pg *p)
{
	if (p->poll == NULL)
		return;
	uv_close((uv_handle_t *)p->poll, free_handle);
	p->poll = NULL;
	p->poll_fd = -1;
	p->poll_events = 0;
}

/* Watches fd for events (UV_READABLE, UV_WRITABLE), replacing the watch of
 * another socket. Returns 0, or -1. */
static int
poll_watch(struct store_pg *p, int fd, int events)
{
	if (p->poll != NULL && p->poll_fd != fd)
		poll_stop(p);
	if (p->poll == NULL) {
		p->poll = xcalloc(1, sizeof(*p->poll));
		if (uv_poll_init(p->base.loop, p->poll, fd) != 0) {
			free(p->poll);
			p->poll = NULL;
			return -1;
		}
		p->poll->data = p;
		p->poll_fd = fd;
		p->poll_events = 0;
	}
	if (events != p->poll_events) {
		uv_poll_start(p->poll, events, poll_cb);
		p->poll_events = events;
	}
	return 0;
}

/* --- losing and finding the server --- */

static void
fail_all_sent(struct store_pg *p, enum store_status status, const char *why)
{
	struct op *o;

	while ((o = queue_pop(&p->sent)) != NULL) {
		if (o->kind == OP_SETUP) {
			free_op(o);
			continue;
		}
		o->status = status;
		snprintf(o->err, sizeof(o->err), "%s", why);
		finish(p, o);
	}
}

static void schedule_reconnect(struct store_pg *p);

/* Ends the reach under way, if any, with status. */
static void
reach_over(struct store_pg *p, enum store_status status)
{
	store_done_cb done = p->reach_done;

	if (done == NULL)
		return;
	p->reach_done = NULL;
	done(p->reach_ctx, status, status == STORE_OK ? NULL : p->lost_why);
}

/* The connection is gone: everything in flight fails as unavailable. */
static void
lost(struct store_pg *p, const char *why)
{
	char msg[ERR_MAX + 40];

	if (p->up)
		log_warnx("store: PostgreSQL connection lost: %s; reconnecting", why);
	else
		log_debug("store: PostgreSQL not reached: %s", why);
	snprintf(p->lost_why, sizeof(p->lost_why), "%s", why);
	snprintf(msg, sizeof(msg), "PostgreSQL cannot be reached: %s", why);
	p->up = false;
	p->connecting = false;
	poll_stop(p);
	if (p->conn != NULL) {
		PQfinish(p->conn);
		p->conn = NULL;
	}
	fail_all_sent(p, STORE_UNAVAILABLE, msg);
	if (p->closing)
		close_maybe(p);
	else
		schedule_reconnect(p);
}

static void
lost_conn(struct store_pg *p)
{
	char why[ERR_MAX];

	first_line(why, sizeof(why), p->conn != NULL ? PQerrorMessage(p->conn) : NULL);
	lost(p, why);
}

/* Sends the statements that set a fresh connection up, as one pipeline
 * section. Returns 0, or -1. */
static int
send_setup(struct store_pg *p)
{
	struct op *o = xcalloc(1, sizeof(*o));
	char name[16];

	o->kind = OP_SETUP;
	for (size_t i = 0; i < NSCHEMA; i++)
		if (!PQsendQueryParams(p->conn, schema_sql[i], 0, NULL, NULL, NULL, NULL, 0))
			goto fail;
	for (int t = 0; t < 3; t++) {
		for (int s = 0; s < ST_COUNT; s++) {
			if (stmt_sql[t][s] == NULL)
				continue;
			stmt_name(name, sizeof(name), (enum store_kind)t, (enum stmt)s);
			if (!PQsendPrepare(p->conn, name, stmt_sql[t][s], 0, NULL))
				goto fail;
		}
	}
	if (!PQpipelineSync(p->conn))
		goto fail;
	o->sent_ms = now_ms(p);
	queue_push(&p->sent, o);
	return 0;
fail:
	free(o);
	return -1;
}

static const char *const conn_keywords[] = {"dbname", "fallback_application_name", "password",
                                            NULL};

static PGconn *
connect_params(const struct store_pg *p, bool async)
{
	/* A NULL password is ignored: libpq's own sources (PGPASSWORD,
	 * ~/.pgpass) apply. */
	const char *values[] = {p->conninfo, "delver", p->password, NULL};
	const char *const *kw = conn_keywords;

	return async ? PQconnectStartParams(kw, values, 1) : PQconnectdbParams(kw, values, 1);
}

/* Turns a fresh connection into the working one: non-blocking, pipeline
 * mode, statements prepared. Returns 0, or -1 with the reason in why. */
static int
go_up(struct store_pg *p, char *why, size_t whylen)
{
	if (PQsetnonblocking(p->conn, 1) != 0 || !PQenterPipelineMode(p->conn) ||
	    send_setup(p) < 0) {
		first_line(why, whylen, PQerrorMessage(p->conn));
		return -1;
	}
	p->up = true;
	p->connecting = false;
	p->backoff_ms = BACKOFF_MIN_MS;
	pg_step(p);
	return 0;
}

/* Advances a connection being made (PQconnectPoll). */
static void
connect_step(struct store_pg *p)
{
	PostgresPollingStatusType st = PQconnectPoll(p->conn);
	char why[ERR_MAX];
	int fd = PQsocket(p->conn);

	switch (st) {
	case PGRES_POLLING_READING:
	case PGRES_POLLING_WRITING:
		/* libpq may have closed the socket and opened another with the
		 * same number (another address, SSL refused): watch afresh. */
		poll_stop(p);
		if (fd < 0 ||
		    poll_watch(p, fd, st == PGRES_POLLING_READING ? UV_READABLE : UV_WRITABLE) < 0)
			lost(p, "its socket cannot be watched");
		return;
	case PGRES_POLLING_OK:
		if (go_up(p, why, sizeof(why)) < 0) {
			lost(p, why);
			return;
		}
		log_info("store: PostgreSQL connection back");
		reach_over(p, STORE_OK);
		return;
	default:
		lost_conn(p);
		return;
	}
}

static void
retry_cb(uv_timer_t *t)
{
	struct store_pg *p = t->data;

	if (p->closing || p->up || p->connecting)
		return;
	if (p->reach_done != NULL && now_ms(p) >= p->reach_until_ms) {
		reach_over(p, STORE_UNAVAILABLE); /* may close p */
		if (!p->closing)
			schedule_reconnect(p);
		return;
	}
	p->conn = connect_params(p, true);
	if (p->conn == NULL || PQstatus(p->conn) == CONNECTION_BAD) {
		lost_conn(p);
		return;
	}
	store_pg_sql_quiet_notices(p->conn);
	p->connecting = true;
	p->connect_ms = now_ms(p);
	connect_step(p);
}

static void
schedule_reconnect(struct store_pg *p)
{
	uint64_t wait = (uint64_t)p->backoff_ms;

	/* A reach ends at its time, not after the backoff. */
	if (p->reach_done != NULL)
		wait = p->reach_until_ms <= now_ms(p)         ? 0
		       : p->reach_until_ms - now_ms(p) < wait ? p->reach_until_ms - now_ms(p)
		                                              : wait;
	uv_timer_start(&p->retry, retry_cb, wait, 0);
	p->backoff_ms = p->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : p->backoff_ms * 2;
}

/* --- results --- */

/* True when r is a write's refusal because the row's generation moved on
 * (see stmt_sql). */
static bool
conflict_error(const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	return state != NULL && strcmp(state, CONFLICT_SQLSTATE) == 0;
}

/* Takes one result of the pipeline for the op at the head of sent. Returns
 * true when the op is over (its Sync came). */
static bool
take_result(struct store_pg *p, struct op *o, PGresult *r)
{
	ExecStatusType st = PQresultStatus(r);
	size_t i;

	switch (st) {
	case PGRES_PIPELINE_SYNC:
		PQclear(r);
		return true;
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
		o->nresults++;
		if (o->kind == OP_LOAD && o->got == NULL && PQntuples(r) >= 1) {
			o->got = r;
			return false;
		}
		break;
	case PGRES_PIPELINE_ABORTED:
		o->nresults++;
		break;
	default: /* an error: the section's transaction is rolled back */
		i = o->nresults++;
		if (o->kind == OP_COMMIT && i < o->nstmt && o->status == STORE_OK &&
		    conflict_error(r)) {
			i = o->stmt_row[i];
			o->status = STORE_CONFLICT;
			o->row_status[i] = STORE_CONFLICT;
			snprintf(o->err, sizeof(o->err),
			         "the %s row '%s' was written by another process since it was read",
			         o->rows[i]->kind == STORE_USER ? "user" : "channel",
			         o->rows[i]->key);
		} else if (o->status == STORE_OK) {
			char why[ERR_MAX];

			o->status = STORE_FAILED;
			first_line(why, sizeof(why), PQresultErrorMessage(r));
			snprintf(o->err, sizeof(o->err), "PostgreSQL refused the %s: %s",
			         o->kind == OP_LOAD ? "read" : "commit", why);
			if (o->kind == OP_SETUP)
				log_error("store: %s", o->err);
		}
		break;
	}
	PQclear(r);
	return false;
}

/* Reads every result that has arrived. Returns 0, or -1 when the
 * connection was lost. */
static int
read_results(struct store_pg *p)
{
	int nulls = 0;

	if (!PQconsumeInput(p->conn))
		return -1;
	while (p->sent.head != NULL && !PQisBusy(p->conn)) {
		PGresult *r = PQgetResult(p->conn);

		if (r == NULL) {
			if (++nulls > 1)
				break; /* nothing more for now */
			continue;
		}
		nulls = 0;
		if (take_result(p, p->sent.head, r)) {
			struct op *o = queue_pop(&p->sent);

			if (o->kind == OP_SETUP) {
				bool bad = o->status != STORE_OK;

				free_op(o);
				if (bad)
					return -1;
			} else {
				finish(p, o);
			}
		}
	}
	return PQstatus(p->conn) == CONNECTION_BAD ? -1 : 0;
}

/* Flushes what libpq holds and reads what came; watches the socket for
 * what is still to do. */
static void
pg_step(struct store_pg *p)
{
	int fl, events = UV_READABLE;

	if (!p->up)
		return;
	fl = PQflush(p->conn);
	if (fl < 0 || read_results(p) < 0) {
		lost_conn(p);
		return;
	}
	if (fl == 1)
		events |= UV_WRITABLE;
	if (poll_watch(p, PQsocket(p->conn), events) < 0)
		lost(p, "its socket cannot be watched");
	else if (p->closing)
		close_maybe(p);
}

static void
poll_cb(uv_poll_t *h, int status, int events)
{
	struct store_pg *p = h->data;

	(void)events;
	if (p->connecting) {
		connect_step(p);
		return;
	}
	if (status < 0) {
		/* libuv reports an error on the socket (POLLERR, as when the
		 * server's end was closed with our data unread) as UV_EBADF,
		 * which names nothing true, and stops watching. The socket is
		 * read as when readable: the results that came are taken, and
		 * libpq, failing to read on, says what happened (the server
		 * closed the connection). */
		p->poll_events = 0;
		for (int i = 0; i < 3 && p->up; i++)
			pg_step(p);
		if (p->up)
			lost(p, "the socket reported an error");
		return;
	}
	pg_step(p);
}

static void
watch_cb(uv_timer_t *t)
{
	struct store_pg *p = t->data;

	if (p->up && p->sent.head != NULL && now_ms(p) - p->sent.head->sent_ms > OP_TIMEOUT_MS)
		lost(p, "no answer in 10 seconds");
	else if (p->connecting && now_ms(p) - p->connect_ms > OP_TIMEOUT_MS)
		lost(p, "no answer to connecting in 10 seconds");
	else if (p->connecting && p->reach_done != NULL && now_ms(p) >= p->reach_until_ms)
		reach_over(p, STORE_UNAVAILABLE); /* the attempt goes on */
}

static void
kick_cb(uv_timer_t *t)
{
	struct store_pg *p = t->data;
	struct op *o;

	while ((o = queue_pop(&p->done)) != NULL) {
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
				if (row_from(o->got, 0, o->kind_loaded, &row) == 0 &&
				    log_from(o->got, &row, &log) == 0) {
					rp = &row;
				} else {
					o->status = STORE_FAILED;
					snprintf(
					    o->err, sizeof(o->err),
					    "the %s table of PostgreSQL does not have delver's "
					    "columns",
					    table_name[o->kind_loaded]);
					err = o->err;
				}
			}
			o->load_done(o->ctx, o->status, rp, err);
			free(log);
		}
		free_op(o);
	}
	if (p->up)
		reach_over(p, STORE_OK);
	if (p->closing)
		close_maybe(p);
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
	} else if (!send(p, o) || !PQpipelineSync(p->conn)) {
		/* libpq refuses only when the connection broke */
		o->status = STORE_UNAVAILABLE;
		first_line(o->err, sizeof(o->err), PQerrorMessage(p->conn));
		finish(p, o);
		lost_conn(p);
		return;
	} else {
		o->sent_ms = now_ms(p);
		queue_push(&p->sent, o);
		pg_step(p);
		return;
	}
	finish(p, o);
}

/* Sends one statement of row i; its result will be the next one of o.
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
	stmt_name(name, sizeof(name), o->rows[i]->kind, s);
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

static bool
send_commit(struct store_pg *p, struct op *o)
{
	for (size_t i = 0; i < o->n; i++) {
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
			fmt[3] = 0;
			np = 3;
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
		if (chan &&
		    !send_log(p, o, i, !r->log_only && (r->rec == NULL || r->generation == 0)))
			return false;
	}
	return true;
}

static bool
send_load(struct store_pg *p, struct op *o)
{
	char name[16];
	const char *v[1] = {o->key};

	/* A channel comes with its log, in one query. */
	stmt_name(name, sizeof(name), o->kind_loaded,
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

/* --- load_active: blocking, at start-up --- */

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

	if (PQnfields(r) != 8 || row_from(r, 0, STORE_CHANNEL, &sr) < 0 ||
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
	a->log[a->nlog].seq = be_uint(r, 0, 5, 8);
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
			first_line(why, sizeof(why), PQresultErrorMessage(r));
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
		         table_name[kind]);
	snprintf(since, sizeof(since), "%" PRId64, kind == STORE_USER ? INT64_MIN : used_since);
	if (!PQsendQueryParams(p->conn, sql, 1, NULL, v, NULL, NULL, 1) ||
	    !PQsetSingleRowMode(p->conn)) {
		first_line(why, sizeof(why), PQerrorMessage(p->conn));
		snprintf(err, errlen, "cannot read the %s of PostgreSQL: %s", table_name[kind],
		         why);
		rc = -1;
		goto out;
	}
	while ((r = PQgetResult(p->conn)) != NULL) {
		ExecStatusType st = PQresultStatus(r);

		if (st == PGRES_SINGLE_TUPLE && rc == 0) {
			struct store_row sr;
			int added = kind == STORE_CHANNEL ? active_add(&a, r, row, ctx) : 0;

			if (kind == STORE_USER && row_from(r, 0, kind, &sr) < 0)
				added = -1;
			else if (kind == STORE_USER && row(&sr, ctx) < 0)
				added = -2;
			if (added == -1) {
				snprintf(
				    err, errlen,
				    "the %s table of PostgreSQL does not have delver's columns",
				    table_name[kind]);
				rc = -1;
			} else if (added == -2) {
				rc = -2; /* row's own error; the rest is read away */
			}
		} else if (st != PGRES_SINGLE_TUPLE && st != PGRES_TUPLES_OK && rc == 0) {
			first_line(why, sizeof(why), PQresultErrorMessage(r));
			snprintf(err, errlen, "cannot read the %s of PostgreSQL: %s",
			         table_name[kind], why);
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

static int
pg_load_active(struct store_backend *b, int64_t used_since,
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
		first_line(err, errlen, PQerrorMessage(p->conn));
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
			first_line(err, errlen, PQerrorMessage(p->conn));
		rc = -1;
	}
	return rc;
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
		close_maybe(p);
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
	p->reach_until_ms = now_ms(p) + within_ms;
	if (p->up || p->connecting) {
		/* up: done from the loop (kick_cb); connecting: when it ends */
		if (p->up)
			uv_timer_start(&p->kick, kick_cb, 0, 0);
		return;
	}
	/* Not after the rest of the backoff: now, and from the shortest
	 * backoff again. */
	p->backoff_ms = BACKOFF_MIN_MS;
	uv_timer_start(&p->retry, retry_cb, 0, 0);
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
static void
close_maybe(struct store_pg *p)
{
	if (p->sent.head != NULL || p->done.head != NULL || p->snapshots > 0 || p->open_handles > 0)
		return;
	if (p->conn != NULL) {
		PQfinish(p->conn);
		p->conn = NULL;
	}
	p->up = false;
	poll_stop(p);
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
	reach_over(p, STORE_UNAVAILABLE);
	uv_timer_stop(&p->retry);
	if (p->connecting)
		lost(p, "closing");
	close_maybe(p);
}

static const struct store_backend_ops pg_ops = {
    .name = "postgresql",
    .load_active = pg_load_active,
    .commit = pg_commit,
    .load = pg_load,
    .snapshot = pg_snapshot,
    .reach = pg_reach,
    .close = pg_close,
};

/* --- open --- */

int
store_pg_create_tables(struct pg_conn *c, char *why, size_t whylen)
{
	for (size_t i = 0; i < NSCHEMA; i++) {
		PGresult *r = PQexec(c, schema_sql[i]);
		bool ok =
		    PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;

		if (!ok)
			first_line(why, whylen, PQresultErrorMessage(r));
		PQclear(r);
		if (!ok)
			return -1;
	}
	return 0;
}

/* The one value of a query of one row and column, into out ("" when it
 * fails). */
static void
query_value(PGconn *c, const char *sql, char *out, size_t len)
{
	PGresult *r = PQexec(c, sql);

	snprintf(out, len, "%s",
	         PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQnfields(r) == 1
	             ? PQgetvalue(r, 0, 0)
	             : "");
	PQclear(r);
}

/* Refuses, before anything is set up, a server or role that may not write:
 * every change would otherwise be refused later, one by one. Returns 0, or
 * -1 with one sentence in err. */
static int
check_writable(PGconn *c, char *err, size_t errlen)
{
	static const char *const privs[] = {"SELECT", "INSERT", "UPDATE", "DELETE"};
	static const char *const tables[] = {"channels", "users"};
	char v[64], sql[160];

	query_value(c, "SELECT current_setting('transaction_read_only')", v, sizeof(v));
	if (strcmp(v, "on") == 0) {
		snprintf(
		    err, errlen,
		    "the PostgreSQL database %s is read-only for delver (transaction_read_only "
		    "is on: a standby server, or default_transaction_read_only set for the "
		    "database or the role %s); delver needs a primary server and a role that "
		    "may write its tables",
		    PQdb(c), PQuser(c));
		return -1;
	}
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		snprintf(sql, sizeof(sql), "SELECT to_regclass('%s') IS NOT NULL", tables[t]);
		query_value(c, sql, v, sizeof(v));
		if (strcmp(v, "t") != 0)
			continue; /* made below, by this role */
		for (size_t i = 0; i < sizeof(privs) / sizeof(privs[0]); i++) {
			snprintf(sql, sizeof(sql), "SELECT has_table_privilege('%s', '%s')",
			         tables[t], privs[i]);
			query_value(c, sql, v, sizeof(v));
			if (strcmp(v, "t") == 0)
				continue;
			snprintf(
			    err, errlen,
			    "the PostgreSQL table %s of database %s is read-only for delver (the "
			    "role %s lacks %s on it); delver needs GRANT SELECT, INSERT, UPDATE, "
			    "DELETE ON channels, users TO %s",
			    tables[t], PQdb(c), PQuser(c), privs[i], PQuser(c));
			return -1;
		}
	}
	return 0;
}

/* Runs the schema in one transaction and prepares the statements, on a
 * blocking connection. Returns 0, or -1 with the reason in why. */
static int
setup_blocking(PGconn *c, char *why, size_t whylen)
{
	PGresult *r = PQexec(c, "BEGIN");
	char name[16];
	bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	PQclear(r);
	if (ok)
		ok = store_pg_create_tables(c, why, whylen) == 0;
	if (ok) {
		r = PQexec(c, "COMMIT");
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			first_line(why, whylen, PQresultErrorMessage(r));
		PQclear(r);
	}
	for (int t = 0; ok && t < 3; t++) {
		for (int s = 0; ok && s < ST_COUNT; s++) {
			if (stmt_sql[t][s] == NULL)
				continue;
			stmt_name(name, sizeof(name), (enum store_kind)t, (enum stmt)s);
			r = PQprepare(c, name, stmt_sql[t][s], 0, NULL);
			ok = PQresultStatus(r) == PGRES_COMMAND_OK;
			if (!ok)
				first_line(why, whylen, PQresultErrorMessage(r));
			PQclear(r);
		}
	}
	return ok ? 0 : -1;
}

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
	p->conn = connect_params(p, false);
	if (p->conn == NULL || PQstatus(p->conn) != CONNECTION_OK) {
		first_line(why, sizeof(why), p->conn != NULL ? PQerrorMessage(p->conn) : NULL);
		snprintf(
		    err, errlen,
		    "cannot connect to PostgreSQL (%s): %s; check [store] conninfo and that the "
		    "server is running",
		    p->conn != NULL && PQdb(p->conn) != NULL ? PQdb(p->conn) : "?", why);
		goto fail;
	}
	store_pg_sql_quiet_notices(p->conn);
	if (check_writable(p->conn, err, errlen) < 0) {
		fail = STATEDIR_UNSAFE;
		goto fail;
	}
	if (setup_blocking(p->conn, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot set up the tables in PostgreSQL database %s: %s",
		         PQdb(p->conn), why);
		goto fail;
	}
	uv_timer_init(loop, &p->kick);
	uv_timer_init(loop, &p->retry);
	uv_timer_init(loop, &p->watch);
	p->kick.data = p->retry.data = p->watch.data = p;
	if (PQsetnonblocking(p->conn, 1) != 0 || !PQenterPipelineMode(p->conn)) {
		first_line(why, sizeof(why), PQerrorMessage(p->conn));
		snprintf(err, errlen, "cannot use PostgreSQL's connection: %s", why);
		PQfinish(p->conn);
		p->conn = NULL;
		p->closing = true;
		close_maybe(p); /* frees p from the loop */
		errno = EAGAIN;
		return NULL;
	}
	p->up = true;
	uv_timer_start(&p->watch, watch_cb, WATCH_MS, WATCH_MS);
	uv_unref((uv_handle_t *)&p->watch); /* a watchdog keeps no loop alive */
	if (poll_watch(p, PQsocket(p->conn), UV_READABLE) < 0)
		lost(p, "its socket cannot be watched");
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
