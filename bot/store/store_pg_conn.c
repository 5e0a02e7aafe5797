/* store_pg_conn: the backend's connection to PostgreSQL; see store_pg_conn.h. */
#include "bot/store/store_pg_conn.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bot/log.h"
#include "bot/store/store_pg_int.h"
#include "bot/store/store_pg_sql.h"
#include "bot/store/store_pg_tables.h"
#include "rules/base/mem.h"

static void poll_cb(uv_poll_t *h, int status, int events);
static void schedule_reconnect(struct store_pg *p);

static void
free_handle(uv_handle_t *h)
{
	free(h);
}

void
store_pg_conn_poll_stop(struct store_pg *p)
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
int
store_pg_conn_poll(struct store_pg *p, int fd, int events)
{
	if (p->poll != NULL && p->poll_fd != fd)
		store_pg_conn_poll_stop(p);
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

/* Whether o, in flight when the connection was lost, is held in doubt
 * (store_pg.h): a commit with a mark to ask about, not held before. */
static bool
doubtful(const struct op *o)
{
	if (o->kind != OP_COMMIT || o->doubted)
		return false;
	for (size_t i = 0; i < o->n; i++)
		if (o->rows[i]->kind == STORE_HANDLED && o->rows[i]->rec != NULL)
			return true;
	return false;
}

/* Everything in flight fails with status, but the commits held in doubt
 * (hold), which fail too when hold is false. */
static void
fail_all_sent(struct store_pg *p, enum store_status status, const char *why, bool hold)
{
	struct op *o;

	while ((o = store_pg__queue_pop(&p->sent)) != NULL) {
		if (o->kind == OP_SETUP) {
			store_pg__free_op(o);
			continue;
		}
		if (hold && doubtful(o)) {
			o->doubted = true;
			store_pg__queue_push(&p->doubt, o);
			continue;
		}
		o->status = status;
		snprintf(o->err, sizeof(o->err), "%s", why);
		store_pg__finish(p, o);
	}
	while (!hold && (o = store_pg__queue_pop(&p->doubt)) != NULL) {
		o->status = status;
		snprintf(o->err, sizeof(o->err), "%s", why);
		store_pg__finish(p, o);
	}
}

/* Ends the reach under way, if any, with status. */
void
store_pg_conn_reach_over(struct store_pg *p, enum store_status status)
{
	store_done_cb done = p->reach_done;

	if (done == NULL)
		return;
	p->reach_done = NULL;
	done(p->reach_ctx, status, status == STORE_OK ? NULL : p->lost_why);
}

/* The connection is gone: everything in flight fails as unavailable. */
void
store_pg_conn_lost(struct store_pg *p, const char *why)
{
	char msg[ERR_MAX + 40];
	bool hold = p->up && !p->closing;

	if (p->up)
		log_warnx("store: PostgreSQL connection lost: %s; reconnecting", why);
	else
		log_debug("store: PostgreSQL not reached: %s", why);
	snprintf(p->lost_why, sizeof(p->lost_why), "%s", why);
	snprintf(msg, sizeof(msg), "PostgreSQL cannot be reached: %s", why);
	p->up = false;
	p->connecting = false;
	store_pg_conn_poll_stop(p);
	if (p->conn != NULL) {
		PQfinish(p->conn);
		p->conn = NULL;
	}
	fail_all_sent(p, STORE_UNAVAILABLE, msg, hold);
	if (p->closing)
		store_pg__close_maybe(p);
	else
		schedule_reconnect(p);
}

void
store_pg_conn_lost_conn(struct store_pg *p)
{
	char why[ERR_MAX];

	store_pg__first_line(why, sizeof(why), p->conn != NULL ? PQerrorMessage(p->conn) : NULL);
	store_pg_conn_lost(p, why);
}

/* Turns a fresh connection into the working one: non-blocking, pipeline
 * mode, statements prepared. Returns 0, or -1 with the reason in why. */
static int
go_up(struct store_pg *p, char *why, size_t whylen)
{
	if (PQsetnonblocking(p->conn, 1) != 0 || !PQenterPipelineMode(p->conn) ||
	    store_pg_tables_send_setup(p) < 0 || !store_pg__doubt_ask(p)) {
		store_pg__first_line(why, whylen, PQerrorMessage(p->conn));
		return -1;
	}
	p->up = true;
	p->connecting = false;
	p->backoff_ms = BACKOFF_MIN_MS;
	p->waiting = false;
	store_pg_conn_step(p);
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
		store_pg_conn_poll_stop(p);
		if (fd < 0 ||
		    store_pg_conn_poll(p, fd,
		                       st == PGRES_POLLING_READING ? UV_READABLE : UV_WRITABLE) < 0)
			store_pg_conn_lost(p, "its socket cannot be watched");
		return;
	case PGRES_POLLING_OK:
		if (go_up(p, why, sizeof(why)) < 0) {
			store_pg_conn_lost(p, why);
			return;
		}
		log_info("store: PostgreSQL connection back");
		store_pg_conn_reach_over(p, STORE_OK);
		if (p->base.back != NULL && !p->closing && p->up)
			p->base.back(p->base.back_ctx);
		return;
	default:
		store_pg_conn_lost_conn(p);
		return;
	}
}

void
store_pg_conn_retry(uv_timer_t *t)
{
	struct store_pg *p = t->data;

	if (p->closing || p->up || p->connecting)
		return;
	if (p->reach_done != NULL && store_pg__now_ms(p) >= p->reach_until_ms) {
		store_pg_conn_reach_over(p, STORE_UNAVAILABLE); /* may close p */
		if (!p->closing)
			schedule_reconnect(p);
		return;
	}
	p->conn = store_pg__connect_params(p, true);
	if (p->conn == NULL || PQstatus(p->conn) == CONNECTION_BAD) {
		store_pg_conn_lost_conn(p);
		return;
	}
	store_pg_sql_quiet_notices(p->conn);
	p->connecting = true;
	p->connect_ms = store_pg__now_ms(p);
	connect_step(p);
}

static void
schedule_reconnect(struct store_pg *p)
{
	uint64_t wait = (uint64_t)p->backoff_ms;

	/* A reach ends at its time, not after the backoff. */
	if (p->reach_done != NULL)
		wait = p->reach_until_ms <= store_pg__now_ms(p) ? 0
		       : p->reach_until_ms - store_pg__now_ms(p) < wait
		           ? p->reach_until_ms - store_pg__now_ms(p)
		           : wait;
	if (store_pg_conn_waiting(p) && wait > WAITING_MAX_MS)
		wait = WAITING_MAX_MS;
	p->retry_wait_ms = wait;
	p->retries_scheduled++;
	uv_timer_start(&p->retry, store_pg_conn_retry, wait, 0);
	p->backoff_ms = p->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : p->backoff_ms * 2;
}

bool
store_pg_conn_waiting(const struct store_pg *p)
{
	return p->waiting || p->doubt.head != NULL;
}

void
store_pg_conn_hurry(struct store_pg *p)
{
	p->waiting = true;
	if (p->closing || p->up || p->connecting || !uv_is_active((uv_handle_t *)&p->retry) ||
	    uv_timer_get_due_in(&p->retry) <= WAITING_MAX_MS)
		return;
	p->retry_wait_ms = WAITING_MAX_MS;
	p->retries_scheduled++;
	uv_timer_start(&p->retry, store_pg_conn_retry, WAITING_MAX_MS, 0);
}

/* Statement i of commit o wrote a mark: whether its answer r says it was
 * refused (stmt_sql: the mark's key is stored already). */
static bool
mark_refused(const struct op *o, size_t i, const PGresult *r)
{
	const struct store_row *row;

	if (i >= o->nstmt || o->stmt_row[i] == NO_ROW)
		return false;
	row = o->rows[o->stmt_row[i]];
	return row->kind == STORE_HANDLED && row->rec != NULL && PQntuples(r) == 1 &&
	       PQnfields(r) >= 1 && strcmp(PQgetvalue(r, 0, 0), "1") == 0;
}

/* Why commit o was refused when its marks' check failed: the events of
 * its refused marks, in the batch's order. */
static void
marks_refused_why(struct op *o)
{
	size_t n = 0, k = 0, at;

	for (size_t i = 0; i < o->n; i++)
		n += o->rows[i]->kind == STORE_HANDLED && o->row_status[i] == STORE_CONFLICT;
	at = (size_t)snprintf(o->err, sizeof(o->err), "the event%s", n == 1 ? "" : "s");
	for (size_t i = 0; i < o->n && at < sizeof(o->err); i++) {
		if (o->rows[i]->kind != STORE_HANDLED || o->row_status[i] != STORE_CONFLICT)
			continue;
		k++;
		at += (size_t)snprintf(o->err + at, sizeof(o->err) - at, "%s'%s'",
		                       k == 1   ? " "
		                       : k == n ? " and "
		                                : ", ",
		                       o->rows[i]->key);
	}
	if (at < sizeof(o->err))
		snprintf(o->err + at, sizeof(o->err) - at, " %s handled by another process",
		         n == 1 ? "was" : "were");
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
		if (o->asking) {
			o->own = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "1") == 0;
			break;
		}
		i = o->nresults++;
		if (o->kind == OP_LOAD && o->got == NULL && PQntuples(r) >= 1) {
			o->got = r;
			return false;
		}
		if (o->kind == OP_COMMIT && mark_refused(o, i, r))
			o->row_status[o->stmt_row[i]] = STORE_CONFLICT;
		break;
	case PGRES_PIPELINE_ABORTED:
		o->nresults++;
		break;
	default: /* an error: the section's transaction is rolled back */
		i = o->nresults++;
		if (o->asking && o->status == STORE_OK) {
			char why[ERR_MAX];

			o->status = STORE_FAILED;
			store_pg__first_line(why, sizeof(why), PQresultErrorMessage(r));
			snprintf(
			    o->err, sizeof(o->err),
			    "PostgreSQL cannot be asked whether a commit whose answer was lost "
			    "went through: %s",
			    why);
		} else if (o->kind == OP_COMMIT && i < o->nstmt && o->status == STORE_OK &&
		           store_pg_tables_conflict(r) && o->stmt_row[i] == NO_ROW) {
			o->status = STORE_CONFLICT;
			marks_refused_why(o);
		} else if (o->kind == OP_COMMIT && i < o->nstmt && o->status == STORE_OK &&
		           store_pg_tables_conflict(r)) {
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
			store_pg__first_line(why, sizeof(why), PQresultErrorMessage(r));
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
			struct op *o;

			if (p->lose_answer && p->sent.head->kind == OP_COMMIT &&
			    !p->sent.head->asking) {
				p->lose_answer = false; /* store_pg_lose_next_answer */
				return -1;
			}
			o = store_pg__queue_pop(&p->sent);
			if (o->asking) {
				if (!store_pg__doubt_answered(p, o))
					return -1;
			} else if (o->kind == OP_SETUP) {
				bool bad = o->status != STORE_OK;

				store_pg__free_op(o);
				if (bad)
					return -1;
			} else {
				store_pg__finish(p, o);
			}
		}
	}
	return PQstatus(p->conn) == CONNECTION_BAD ? -1 : 0;
}

/* Flushes what libpq holds and reads what came; watches the socket for
 * what is still to do. */
void
store_pg_conn_step(struct store_pg *p)
{
	int fl, events = UV_READABLE;

	if (!p->up)
		return;
	fl = PQflush(p->conn);
	if (fl < 0 || read_results(p) < 0) {
		store_pg_conn_lost_conn(p);
		return;
	}
	if (fl == 1)
		events |= UV_WRITABLE;
	if (store_pg_conn_poll(p, PQsocket(p->conn), events) < 0)
		store_pg_conn_lost(p, "its socket cannot be watched");
	else if (p->closing)
		store_pg__close_maybe(p);
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
			store_pg_conn_step(p);
		if (p->up)
			store_pg_conn_lost(p, "the socket reported an error");
		return;
	}
	store_pg_conn_step(p);
}

void
store_pg_conn_watch(uv_timer_t *t)
{
	struct store_pg *p = t->data;

	if (p->up && p->sent.head != NULL &&
	    store_pg__now_ms(p) - p->sent.head->sent_ms > OP_TIMEOUT_MS)
		store_pg_conn_lost(p, "no answer in 10 seconds");
	else if (p->connecting && store_pg__now_ms(p) - p->connect_ms > OP_TIMEOUT_MS)
		store_pg_conn_lost(p, "no answer to connecting in 10 seconds");
	else if (p->connecting && p->reach_done != NULL && store_pg__now_ms(p) >= p->reach_until_ms)
		store_pg_conn_reach_over(p, STORE_UNAVAILABLE); /* the attempt goes on */
}
