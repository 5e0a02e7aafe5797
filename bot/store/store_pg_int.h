/*
 * store_pg_int: the inside of struct store_pg, shared by store_pg.c (the
 * operations and their completions, the snapshot, closing, opening),
 * store_pg_conn.c (the connection: its socket, losing and finding the
 * server, the results read back), store_pg_tables.c (the tables, their
 * statements, a connection's set-up) and store_pg_active.c (the rows read
 * at start-up). Nothing else includes it.
 */
#ifndef DELVER_STORE_PG_INT_H
#define DELVER_STORE_PG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>
#include <uv.h>

#include "bot/store/store_backend.h"

#define BACKOFF_MIN_MS 200
#define BACKOFF_MAX_MS 5000
/* The longest wait between reconnections while changes wait to be saved. */
#define WAITING_MAX_MS 1000
#define WATCH_MS       1000
#define OP_TIMEOUT_MS  10000 /* an answer slower than this: the server is unreachable */
#define ERR_MAX        256   /* a reason from libpq, cut */
#define OP_ERR_MAX     512   /* a sentence around it */
#define NO_ROW         SIZE_MAX

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
	ST_MARKS_CHECK, /* marks: fails as a conflict when one of the batch was refused */
	ST_COUNT
};

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
	size_t *stmt_row; /* the row each statement sent writes (NO_ROW: the marks' check) */
	size_t nstmt, stmt_cap;
	store_commit_cb commit_done;
	/* A commit whose answer was lost with the connection (its Sync sent):
	 * held in the backend's doubt queue until a new connection says
	 * whether its first mark is stored under this writer (asking), then
	 * completed as committed (own) or sent again; doubted once at most. */
	bool doubted, asking, own;
	/* OP_LOAD */
	enum store_kind kind_loaded;
	char *key;
	PGresult *got; /* the row read (a channel's: once per log entry), or NULL */
	store_load_cb load_done;
};

struct op_queue {
	struct op *head, *tail;
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
	/* A commit failed while down: changes wait until the next connection
	 * (so do the commits in doubt). */
	bool waiting;
	uint64_t retry_wait_ms;          /* the wait of the reconnection last scheduled */
	unsigned long retries_scheduled; /* for tests */
	uint64_t connect_ms;             /* when connecting began */
	struct op_queue sent;            /* on the connection, in order */
	struct op_queue done;            /* completions to run from the loop */
	struct op_queue doubt;           /* commits whose answer was lost (struct op's doubted) */
	/* Who writes the marks: random at open, so a mark stored under it was
	 * written by this process (a commit whose answer was lost). */
	uint64_t writer;
	char writer_text[24]; /* as a bigint parameter */
	bool lose_answer;     /* store_pg_lose_next_answer */
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

/* store_pg.c: appends o to q. */
void store_pg__queue_push(struct op_queue *q, struct op *o);
/* store_pg.c: takes the oldest op of q, or NULL. */
struct op *store_pg__queue_pop(struct op_queue *q);
/* store_pg.c: the first line of a libpq message, without its "ERROR:  "
 * decoration ("no message from libpq" when there is none). */
void store_pg__first_line(char *out, size_t outlen, const char *msg);
/* store_pg.c: the loop's time in ms. */
uint64_t store_pg__now_ms(const struct store_pg *p);
/* store_pg.c: frees o and what it holds. */
void store_pg__free_op(struct op *o);
/* store_pg.c: queues o's completion to run from the loop. */
void store_pg__finish(struct store_pg *p, struct op *o);
/* store_pg.c: a new connection with p's conninfo and password, being made
 * (async: PQconnectStartParams) or made (PQconnectdbParams). */
PGconn *store_pg__connect_params(const struct store_pg *p, bool async);
/* store_pg.c: asks on the new connection about every commit in doubt
 * (sent as ops of sent). Returns false when libpq refused (the connection
 * broke). */
bool store_pg__doubt_ask(struct store_pg *p);
/* store_pg.c: the answer came for o, a commit in doubt asked about: it
 * completes as committed, or it is sent again. Returns false when libpq
 * refused to send it (o completed as unavailable; the connection broke). */
bool store_pg__doubt_answered(struct store_pg *p, struct op *o);
/* store_pg.c: frees p once nothing is under way (closing). */
void store_pg__close_maybe(struct store_pg *p);

#endif
