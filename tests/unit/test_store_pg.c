/*
 * Unit tests for bot/store/store_pg.c against a real PostgreSQL: a
 * throwaway cluster (tests/tools/pg_cluster.sh) started for this program
 * and stopped at its end. Run from the repository's top (as make unit does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "bot/fsio.h"
#include "bot/store/crc32.h"
#include "bot/store/statedir.h"
#include "bot/store/store.h"
#include "bot/store/store_record.h"
#include "rules/base/buf.h"
#include "bot/store/store_pg.h"
#include "bot/store/store_pg_restore.h"
#include "bot/store/store_pg_snapshot.h"
#include "bot/store/store_sqlite.h"
#include "tests/unit/helpers/pgcluster.h"
#include "tests/unit/helpers/stderrcap.h"
#include "tests/unit/helpers/storelog.h"

static int
group_setup(void **state)
{
	(void)state;
	return pgcluster_setup("test_store_pg");
}

static int
group_teardown(void **state)
{
	(void)state;
	return pgcluster_teardown();
}

/* --- a loop and a backend --- */

/*
 * One turn of a test's loop. A backend finishes an operation from its
 * loop, never in the call: an answer read at once (the server was quick)
 * waits in a timer due now. A UV_RUN_ONCE runs such a timer before it
 * polls, and then polls on until the next event, which may be the
 * connection's watch, a second away; so while a timer is due the turn
 * does not wait.
 */
static void
turn(uv_loop_t *loop)
{
	uv_run(loop, uv_backend_timeout(loop) == 0 ? UV_RUN_NOWAIT : UV_RUN_ONCE);
}

struct t {
	uv_loop_t loop;
	struct store_backend *b;
};

static void
t_open(struct t *t)
{
	struct store_opts o = {.backend = STORE_ENGINE_POSTGRESQL, .conninfo = pgcluster_conninfo};
	char err[600];

	uv_loop_init(&t->loop);
	t->b = store_open(&t->loop, &o, err, sizeof(err));
	if (t->b == NULL)
		fail_msg("store_open: %s", err);
	assert_string_equal(t->b->ops->name, "postgresql");
}

static void
closed_cb(void *ctx, enum store_status status, const char *err)
{
	*(int *)ctx = 1;
	assert_int_equal(status, STORE_OK);
}

static void
t_close(struct t *t)
{
	int done = 0;

	t->b->ops->close(t->b, closed_cb, &done);
	while (!done)
		turn(&t->loop);
	uv_run(&t->loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&t->loop), 0);
}

struct commit_res {
	bool done;
	enum store_status status;
	enum store_status rows[16];
	char err[600];
};

static void
commit_cb(void *ctx, enum store_status status, const enum store_status *row_status, size_t n,
          const char *err)
{
	struct commit_res *r = ctx;

	assert_false(r->done);
	r->done = true;
	r->status = status;
	for (size_t i = 0; i < n && i < 16; i++)
		r->rows[i] = row_status[i];
	snprintf(r->err, sizeof(r->err), "%s", err != NULL ? err : "");
}

static enum store_status
commit(struct t *t, const struct store_row *rows, size_t n, struct commit_res *r)
{
	memset(r, 0, sizeof(*r));
	t->b->ops->commit(t->b, rows, n, commit_cb, r);
	assert_false(r->done); /* never before the call returns */
	while (!r->done)
		turn(&t->loop);
	return r->status;
}

static struct store_row
chan(const char *key, const char *rec, uint64_t gen)
{
	struct store_row r = {.kind = STORE_CHANNEL,
	                      .key = key,
	                      .last_used = 1000,
	                      .version = 3,
	                      .rec = rec,
	                      .rec_len = rec != NULL ? strlen(rec) : 0,
	                      .generation = gen};
	return r;
}

/* A real record of the channel key with gm as its GM, as persist writes it
 * (--restore checks every record of its file: store_check.h). */
static const char *
encoded(char *out, size_t len, const struct store_record *r)
{
	struct buf b;

	buf_init(&b, len - 1);
	assert_int_equal(store_record_encode(r, store_record_builtin_mods(), &b), 0);
	snprintf(out, len, "%.*s", (int)strcspn(buf_str(&b), "\n"), buf_str(&b));
	buf_free(&b);
	return out;
}

static const char *
real_rec(char *out, size_t len, const char *key, const char *gm)
{
	struct store_record r = {.kind = STORE_RECORD_CHANNEL, .last_used = 1000};

	snprintf(r.key, sizeof(r.key), "%s", key);
	snprintf(r.gm, sizeof(r.gm), "console:%s", gm);
	snprintf(r.gm_name, sizeof(r.gm_name), "%s", gm);
	return encoded(out, len, &r);
}

/* A real entry of the roll log labelled label, framed as persist writes
 * it. */
static void
real_log(char *out, size_t len, const char *label)
{
	char json[200];

	snprintf(json, sizeof(json), "[1700000000,\"ann\",\"1d6 # %s\",\"3\"]", label);
	snprintf(out, len, "%08x %s", (unsigned)crc32_of(json, strlen(json)), json);
}

struct load_res {
	bool done;
	enum store_status status;
	bool found;
	char rec[400];
	uint64_t gen;
	int64_t last_used;
	int version;
	char log[200]; /* a channel's entries: "seq=rec;"... */
};

static void
load_cb(void *ctx, enum store_status status, const struct store_row *row, const char *err)
{
	struct load_res *r = ctx;

	r->done = true;
	r->status = status;
	r->found = row != NULL;
	if (row != NULL) {
		assert_true(row->rec_len < sizeof(r->rec));
		memcpy(r->rec, row->rec, row->rec_len);
		r->rec[row->rec_len] = '\0';
		r->gen = row->generation;
		r->last_used = row->last_used;
		r->version = row->version;
		for (size_t i = 0, at = 0; i < row->nlog && at < sizeof(r->log); i++)
			at += (size_t)snprintf(r->log + at, sizeof(r->log) - at, "%llu=%.*s;",
			                       (unsigned long long)row->log[i].seq,
			                       (int)row->log[i].rec_len, row->log[i].rec);
	}
}

static enum store_status
load(struct t *t, enum store_kind kind, const char *key, struct load_res *r)
{
	memset(r, 0, sizeof(*r));
	t->b->ops->load(t->b, kind, key, load_cb, r);
	assert_false(r->done);
	while (!r->done)
		turn(&t->loop);
	return r->status;
}

/* --- tests --- */

/* A channel's log: the contract both backends keep (helpers/storelog.h). */
static void
logs_keep_their_contract(void **state)
{
	struct t t;
	struct store_backend *other;
	struct store_opts o = {.backend = STORE_ENGINE_POSTGRESQL, .conninfo = pgcluster_conninfo};
	char err[600];
	int closed = 0;

	(void)state;
	t_open(&t);
	other = store_open(&t.loop, &o, err, sizeof(err));
	assert_non_null(other);
	storelog_check(t.b, &t.loop, "pglog:");
	storelog_check_marks(t.b, other, &t.loop, "pglog:");
	other->ops->close(other, closed_cb, &closed);
	while (!closed)
		turn(&t.loop);
	t_close(&t);
}

static void
commit_and_load(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row rows[2] = {chan("cl:a", "alpha", 0), chan("cl:b", "be\0ta", 0)};

	(void)state;
	rows[1].rec_len = 5; /* a record is bytes, NUL included */
	rows[1].kind = STORE_USER;
	t_open(&t);
	assert_int_equal(commit(&t, rows, 2, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	assert_int_equal(c.rows[1], STORE_OK);
	assert_int_equal(load(&t, STORE_CHANNEL, "cl:a", &l), STORE_OK);
	assert_true(l.found);
	assert_string_equal(l.rec, "alpha");
	assert_int_equal(l.gen, 1);
	assert_int_equal(l.last_used, 1000);
	assert_int_equal(l.version, 3);
	assert_int_equal(load(&t, STORE_USER, "cl:b", &l), STORE_OK);
	assert_true(l.found);
	assert_memory_equal(l.rec, "be\0ta", 5);
	/* the tables are apart: no channel of that key */
	assert_int_equal(load(&t, STORE_CHANNEL, "cl:b", &l), STORE_OK);
	assert_false(l.found);
	t_close(&t);
}

static void
generations_refuse_stale_rows(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r;
	struct store_row mix[3];

	(void)state;
	t_open(&t);
	r = chan("g:a", "one", 0);
	assert_int_equal(commit(&t, &r, 1, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	/* another process that never saw it */
	r = chan("g:a", "other", 0);
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_CONFLICT);
	r = chan("g:a", "two", 1);
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_OK);
	/* a stale generation in a batch: refused, and nothing of the batch is
	 * written, neither the row before it nor the one after */
	mix[0] = chan("g:b", "fresh", 0);
	mix[1] = chan("g:a", "stale", 1);
	mix[2] = chan("g:c", "after", 0);
	assert_int_equal(commit(&t, mix, 3, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[0], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	assert_int_equal(c.rows[2], STORE_NOT_WRITTEN);
	assert_non_null(strstr(c.err, "the channel row 'g:a' was written by another process"));
	load(&t, STORE_CHANNEL, "g:a", &l);
	assert_string_equal(l.rec, "two");
	assert_int_equal(l.gen, 2);
	load(&t, STORE_CHANNEL, "g:b", &l);
	assert_false(l.found);
	load(&t, STORE_CHANNEL, "g:c", &l);
	assert_false(l.found);
	/* sent again without the conflicting row, the others commit */
	mix[1] = mix[2];
	assert_int_equal(commit(&t, mix, 2, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	assert_int_equal(c.rows[1], STORE_OK);
	load(&t, STORE_CHANNEL, "g:b", &l);
	assert_string_equal(l.rec, "fresh");
	assert_int_equal(l.gen, 1);
	t_close(&t);
}

static struct store_row
mark(const char *key, const char *answer, int64_t at)
{
	struct store_row r = {.kind = STORE_HANDLED,
	                      .key = key,
	                      .last_used = at,
	                      .rec = answer,
	                      .rec_len = answer != NULL ? strlen(answer) : 0};
	return r;
}

/* Finishes the commit of rows that t began (commit's second half). */
static enum store_status
commit_wait(struct t *t, struct commit_res *r)
{
	while (!r->done)
		turn(&t->loop);
	return r->status;
}

/*
 * Two processes sharing the tables (a fleet whose shards overlap, as at a
 * reshard) both handle one event: its mark is written once, and the
 * second process's batch, with the changes it made, is refused as a
 * conflict on the mark, even when its records are current (it read them
 * after the first one committed) and even when a record of it conflicts
 * too. Before, the second mark replaced the first and the change was
 * applied twice.
 */
static void
marks_are_written_once_across_processes(void **state)
{
	struct t a, b;
	struct commit_res c, d;
	struct load_res l;
	struct store_row rows[2];

	(void)state;
	t_open(&a);
	t_open(&b);
	rows[0] = chan("mk:a", "one", 0);
	rows[1] = mark("mk-ev1", "answer of a", 1000);
	assert_int_equal(commit(&a, rows, 2, &c), STORE_OK);
	/* b read the channel after a committed: its generation is current */
	rows[0] = chan("mk:a", "two", 1);
	rows[1] = mark("mk-ev1", "answer of b", 1000);
	assert_int_equal(commit(&b, rows, 2, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[0], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	assert_string_equal(c.err, "the event 'mk-ev1' was handled by another process");
	load(&a, STORE_CHANNEL, "mk:a", &l);
	assert_string_equal(l.rec, "one");
	assert_int_equal(l.gen, 1);
	load(&a, STORE_HANDLED, "mk-ev1", &l);
	assert_true(l.found);
	assert_string_equal(l.rec, "answer of a");
	/* b's stale record comes first in its batch: the mark's conflict is
	 * the one told (the marks are written first) */
	rows[0] = chan("mk:a", "stale", 0);
	assert_int_equal(commit(&b, rows, 2, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[0], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	/* a mark of the process that wrote it reads as written (a commit of
	 * it whose answer was lost went through): the batch commits */
	rows[0] = chan("mk:b", "new", 0);
	rows[1] = mark("mk-ev1", "answer of a", 1000);
	assert_int_equal(commit(&a, rows, 2, &c), STORE_OK);
	load(&a, STORE_CHANNEL, "mk:b", &l);
	assert_string_equal(l.rec, "new");
	load(&a, STORE_HANDLED, "mk-ev1", &l);
	assert_string_equal(l.rec, "answer of a");
	/* expired, a mark's key may be written again */
	rows[0] = mark("", NULL, 1001);
	assert_int_equal(commit(&a, rows, 1, &c), STORE_OK);
	rows[0] = mark("mk-ev1", "later", 1002);
	assert_int_equal(commit(&b, rows, 1, &c), STORE_OK);
	/* both at once, each with a channel of its own: one is kept */
	for (int i = 0; i < 10; i++) {
		char key[32], ca[32], cb[32];
		struct store_row ra[2], rb[2];
		int ok;

		snprintf(key, sizeof(key), "mk-race%d", i);
		snprintf(ca, sizeof(ca), "mk:ra%d", i);
		snprintf(cb, sizeof(cb), "mk:rb%d", i);
		ra[0] = chan(ca, "a", 0);
		ra[1] = mark(key, "a", 1000);
		rb[0] = chan(cb, "b", 0);
		rb[1] = mark(key, "b", 1000);
		memset(&c, 0, sizeof(c));
		memset(&d, 0, sizeof(d));
		a.b->ops->commit(a.b, ra, 2, commit_cb, &c);
		b.b->ops->commit(b.b, rb, 2, commit_cb, &d);
		ok = (commit_wait(&a, &c) == STORE_OK) + (commit_wait(&b, &d) == STORE_OK);
		assert_int_equal(ok, 1);
		assert_int_equal(c.status == STORE_OK ? d.rows[1] : c.rows[1], STORE_CONFLICT);
		load(&a, STORE_CHANNEL, c.status == STORE_OK ? cb : ca, &l);
		assert_false(l.found);
	}
	t_close(&b);
	t_close(&a);
}

/*
 * Several events of one batch were handled by another process: each of
 * their marks is told as a conflict, not only the first (PostgreSQL stopped
 * at the first, so persist sent the batch again with the second and was
 * refused again, and that command was told its change was not kept though
 * the other process kept it). Sent again without them, the rest commits.
 */
static void
every_conflicting_mark_of_a_batch_is_told(void **state)
{
	struct t a, b;
	struct commit_res c;
	struct load_res l;
	struct store_row rows[6];

	(void)state;
	t_open(&a);
	t_open(&b);
	rows[0] = mark("mm-ev1", "a1", 1000);
	rows[1] = mark("mm-ev2", "a2", 1000);
	rows[2] = mark("mm-ev3", "a3", 1000);
	assert_int_equal(commit(&a, rows, 3, &c), STORE_OK);
	/* two of b's three marks were a's */
	rows[0] = chan("mm:x", "x", 0);
	rows[1] = mark("mm-ev1", "b1", 1000);
	rows[2] = mark("mm-ev4", "b4", 1000);
	rows[3] = mark("mm-ev2", "b2", 1000);
	assert_int_equal(commit(&b, rows, 4, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[0], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	assert_int_equal(c.rows[2], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[3], STORE_CONFLICT);
	assert_string_equal(c.err, "the events 'mm-ev1' and 'mm-ev2' were handled by another "
	                           "process");
	/* three, behind a stale record */
	rows[0] = chan("mm:y", "stale", 3);
	rows[1] = mark("mm-ev3", "b3", 1000);
	rows[2] = mark("mm-ev2", "b2", 1000);
	rows[3] = mark("mm-ev5", "b5", 1000);
	rows[4] = mark("mm-ev1", "b1", 1000);
	assert_int_equal(commit(&b, rows, 5, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[0], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	assert_int_equal(c.rows[2], STORE_CONFLICT);
	assert_int_equal(c.rows[3], STORE_NOT_WRITTEN);
	assert_int_equal(c.rows[4], STORE_CONFLICT);
	assert_string_equal(c.err, "the events 'mm-ev3', 'mm-ev2' and 'mm-ev1' were handled by "
	                           "another process");
	/* nothing of either batch was written */
	load(&a, STORE_HANDLED, "mm-ev4", &l);
	assert_false(l.found);
	load(&a, STORE_HANDLED, "mm-ev1", &l);
	assert_string_equal(l.rec, "a1");
	/* the rest of the first batch, sent again, commits once */
	rows[0] = chan("mm:x", "x", 0);
	rows[1] = mark("mm-ev4", "b4", 1000);
	assert_int_equal(commit(&b, rows, 2, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	assert_int_equal(c.rows[1], STORE_OK);
	load(&a, STORE_CHANNEL, "mm:x", &l);
	assert_int_equal(l.gen, 1);
	load(&a, STORE_HANDLED, "mm-ev4", &l);
	assert_string_equal(l.rec, "b4");
	t_close(&b);
	t_close(&a);
}

/* The value of a query of one row and column, as text, in out. */
static void
query1(const char *sql, char *out, size_t len)
{
	PGconn *c = PQconnectdb(pgcluster_conninfo);
	PGresult *r = PQexec(c, sql);

	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 1);
	snprintf(out, len, "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
}

/*
 * A commit whose answer is lost with the connection after the server
 * committed it (COMMIT sent, the connection broken before its answer):
 * the backend asks on its new connection whether the batch's mark is
 * stored under its own name, and it is, so the commit completes as
 * committed. Before, it completed as unavailable, its rows were written
 * again, conflicted on their own mark, and the command was taken for one
 * handled by another process. A commit refused by the server, its answer
 * lost too, is sent again and refused again; one with no mark to ask
 * about stays unavailable.
 */
static void
a_commit_whose_answer_was_lost_is_known_kept(void **state)
{
	struct t a, b;
	struct commit_res c;
	struct load_res l;
	struct store_row rows[2];
	char v[64];

	(void)state;
	t_open(&a);
	t_open(&b);
	rows[0] = chan("la:a", "one", 0);
	rows[1] = mark("la-ev1", "answer", 1000);
	store_pg_lose_next_answer(a.b);
	assert_int_equal(commit(&a, rows, 2, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	assert_int_equal(c.rows[1], STORE_OK);
	load(&a, STORE_CHANNEL, "la:a", &l);
	assert_string_equal(l.rec, "one");
	assert_int_equal(l.gen, 1);
	/* written once, by a; b's copy of the event is refused */
	query1("SELECT count(DISTINCT writer) FROM handled WHERE key = 'la-ev1'", v, sizeof(v));
	assert_string_equal(v, "1");
	rows[0] = chan("la:b", "b", 0);
	rows[1] = mark("la-ev1", "b's", 1000);
	assert_int_equal(commit(&b, rows, 2, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	/* refused, its answer lost: sent again, refused again */
	rows[0] = chan("la:a", "stale", 0);
	rows[1] = mark("la-ev2", "answer", 1000);
	store_pg_lose_next_answer(a.b);
	assert_int_equal(commit(&a, rows, 2, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[0], STORE_CONFLICT);
	assert_int_equal(c.rows[1], STORE_NOT_WRITTEN);
	load(&a, STORE_HANDLED, "la-ev2", &l);
	assert_false(l.found);
	/* no mark: nothing tells whether it went through */
	rows[0] = chan("la:c", "c", 0);
	store_pg_lose_next_answer(a.b);
	assert_int_equal(commit(&a, rows, 1, &c), STORE_UNAVAILABLE);
	while (!store_pg_connected(a.b))
		turn(&a.loop);
	load(&a, STORE_CHANNEL, "la:c", &l);
	assert_int_equal(l.gen, 1);
	t_close(&b);
	t_close(&a);
}

/* A database whose marks have no writer (made by a delver before marks
 * had one) is brought up to date in place when opened; its old marks are
 * nobody's own. */
static void
marks_of_an_older_database_are_kept(void **state)
{
	struct t a;
	struct commit_res c;
	struct store_row rows[2];
	char v[64];

	(void)state;
	pgcluster_exec("ALTER TABLE handled DROP COLUMN writer");
	pgcluster_exec("INSERT INTO handled(key, at, answer) VALUES('old-ev1', 1000, 'x')");
	t_open(&a);
	query1("SELECT count(*) FROM information_schema.columns WHERE table_name = 'handled' "
	       "AND column_name = 'writer'",
	       v, sizeof(v));
	assert_string_equal(v, "1");
	rows[0] = chan("old:a", "a", 0);
	rows[1] = mark("old-ev1", "again", 1000);
	assert_int_equal(commit(&a, rows, 2, &c), STORE_CONFLICT);
	assert_int_equal(c.rows[1], STORE_CONFLICT);
	rows[1] = mark("old-ev2", "new", 1000);
	assert_int_equal(commit(&a, rows, 2, &c), STORE_OK);
	query1("SELECT count(*) FROM handled WHERE writer IS NOT NULL AND key = 'old-ev2'", v,
	       sizeof(v));
	assert_string_equal(v, "1");
	t_close(&a);
}

static void
deletes_keep_generations(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r;

	(void)state;
	t_open(&t);
	r = chan("d:a", "x", 0);
	commit(&t, &r, 1, &c);
	r = chan("d:a", NULL, 5); /* stale delete */
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_CONFLICT);
	r = chan("d:a", NULL, 0); /* "nothing stored" is wrong: it is */
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_CONFLICT);
	load(&t, STORE_CHANNEL, "d:a", &l);
	assert_true(l.found);
	r = chan("d:a", NULL, 1);
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_OK);
	load(&t, STORE_CHANNEL, "d:a", &l);
	assert_false(l.found);
	r = chan("d:never", NULL, 0); /* nothing stored, nothing to keep */
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_OK);
	t_close(&t);
}

struct active {
	int channels, users;
	bool saw_old;
	bool old_at_start; /* what the row says of act:old */
};

static int
active_row(const struct store_row *r, void *ctx)
{
	struct active *a = ctx;

	if (strncmp(r->key, "act:", 4) != 0)
		return 0;
	if (r->kind == STORE_USER)
		a->users++;
	else
		a->channels++;
	if (strcmp(r->key, "act:old") == 0)
		a->saw_old = true;
	return r->kind == STORE_CHANNEL && strcmp(r->key, "act:old") == 0 && a->old_at_start;
}

/* Runs sql on a connection of its own. */
static void
pg_exec(const char *sql)
{
	PGconn *c = PQconnectdb(pgcluster_conninfo);
	PGresult *r;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, sql);
	assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
	PQclear(r);
	PQfinish(c);
}

/* The one integer sql reads, on a connection of its own. */
static long
pg_int(const char *sql)
{
	PGconn *c = PQconnectdb(pgcluster_conninfo);
	PGresult *r;
	long v;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, sql);
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 1);
	v = strtol(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	PQfinish(c);
	return v;
}

/* The partial index of the channels wanted at every start, as made. */
#define AT_START_INDEX                                                                             \
	"SELECT count(*) FROM pg_indexes WHERE tablename = 'channels' AND indexname = "            \
	"'channels_at_start' AND indexdef LIKE '%WHERE (at_start IS NOT FALSE)'"

/* load_active on a fresh backend, into a (zeroed but for what the rows
 * say). */
static void
load_active_once(struct active *a, bool old_at_start)
{
	struct t t;
	char err[300];

	memset(a, 0, sizeof(*a));
	a->old_at_start = old_at_start;
	t_open(&t);
	assert_int_equal(t.b->ops->load_active(t.b, 4000, active_row, a, err, sizeof(err)), 0);
	t_close(&t);
}

static void
load_active_reads_recent_channels_and_all_users(void **state)
{
	struct t t;
	struct commit_res c;
	struct store_row rows[3] = {chan("act:old", "o", 0), chan("act:new", "n", 0),
	                            chan("act:u", "u", 0)};
	struct active a = {0};
	char err[300];

	(void)state;
	rows[0].last_used = 100;
	rows[1].last_used = 5000;
	rows[2].kind = STORE_USER;
	rows[2].last_used = 0;
	t_open(&t);
	commit(&t, rows, 3, &c);
	t_close(&t);
	t_open(&t); /* as at start-up: nothing under way */
	assert_int_equal(t.b->ops->load_active(t.b, 4000, active_row, &a, err, sizeof(err)), 0);
	assert_int_equal(a.channels, 1);
	assert_int_equal(a.users, 1);
	assert_false(a.saw_old);
	t_close(&t);
	/* A channel stored with at_start is read however long it was idle;
	 * when its row says it is no longer wanted at start, that is stored,
	 * and the next start leaves it. */
	t_open(&t);
	rows[0] = chan("act:old", "o", 1);
	rows[0].last_used = 100;
	rows[0].at_start = true;
	assert_int_equal(commit(&t, rows, 1, &c), STORE_OK);
	t_close(&t);
	load_active_once(&a, false);
	assert_int_equal(a.channels, 2);
	assert_true(a.saw_old);
	load_active_once(&a, false);
	assert_int_equal(a.channels, 1);
	assert_false(a.saw_old);
	/* Those rows are read through their own index, made where missing. */
	assert_int_equal(pg_int(AT_START_INDEX), 1);
	pg_exec("DROP INDEX channels_at_start");
	load_active_once(&a, false);
	assert_int_equal(a.channels, 1);
	assert_int_equal(pg_int(AT_START_INDEX), 1);
	/* Tables an older delver made have no at_start: the column comes at
	 * the next open, not known for every row, so each is read and what
	 * its row says is stored: wanted, it stays read. */
	pg_exec("ALTER TABLE channels DROP COLUMN at_start");
	assert_int_equal(pg_int(AT_START_INDEX), 0); /* dropped with its column */
	load_active_once(&a, true);
	assert_int_equal(a.channels, 2);
	assert_true(a.saw_old);
	assert_int_equal(pg_int(AT_START_INDEX), 1);
	load_active_once(&a, true);
	assert_true(a.saw_old);
	assert_int_equal(a.channels, 2);
	/* The generation is the record's: the next write at 2 is taken. */
	t_open(&t);
	rows[0] = chan("act:old", "o2", 2);
	rows[0].last_used = 100;
	assert_int_equal(commit(&t, rows, 1, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	t_close(&t);
	load_active_once(&a, false);
	assert_false(a.saw_old);
	t_open(&t);
	/* the connection works as before afterwards */
	rows[1] = chan("act:new", "n2", 1);
	assert_int_equal(commit(&t, &rows[1], 1, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	t_close(&t);
}

static void
snap_cb(void *ctx, enum store_status status, const char *err)
{
	if (status != STORE_OK)
		fail_msg("snapshot: %s", err);
	*(int *)ctx = 1;
}

static void
snapshot_is_an_sqlite_file(void **state)
{
	struct t t;
	struct commit_res c;
	char ra[400], rb[400], seven[200];
	struct store_row rows[2] = {chan("snap:a", real_rec(ra, sizeof(ra), "snap:a", "a"), 0),
	                            chan("snap:b", real_rec(rb, sizeof(rb), "snap:b", "b"), 0)};
	char path[300];
	sqlite3 *db;
	sqlite3_stmt *s;
	int done = 0;

	(void)state;
	/* A snapshot is checked whole: the rows of the tests before, not real
	 * records, go first. */
	pgcluster_exec("DELETE FROM channels; DELETE FROM users; DELETE FROM logs");
	snprintf(path, sizeof(path), "%s/snap.db", pgcluster_dir);
	t_open(&t);
	real_log(seven, sizeof(seven), "seven");
	rows[1].log = &(struct store_log_row){7, seven, strlen(seven)};
	rows[1].nlog = 1;
	commit(&t, rows, 2, &c);
	t.b->ops->snapshot(t.b, path, snap_cb, &done);
	assert_int_equal(done, 0);
	while (!done)
		turn(&t.loop);
	t_close(&t);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	                                    "SELECT rec, generation, version FROM channels WHERE "
	                                    "key = 'snap:b'",
	                                    -1, &s, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_bytes(s, 0), (int)strlen(rb));
	assert_memory_equal(sqlite3_column_blob(s, 0), rb, strlen(rb));
	assert_int_equal(sqlite3_column_int64(s, 1), 1);
	assert_int_equal(sqlite3_column_int(s, 2), 3);
	sqlite3_finalize(s);
	/* The log too, in the SQLite backend's current tables. */
	assert_int_equal(
	    sqlite3_prepare_v2(db, "SELECT seq, rec FROM logs WHERE key = 'snap:b'", -1, &s, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(s, 0), 7);
	assert_int_equal(sqlite3_column_bytes(s, 1), (int)strlen(seven));
	assert_memory_equal(sqlite3_column_blob(s, 1), seven, strlen(seven));
	sqlite3_finalize(s);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), STORE_SQLITE_SCHEMA);
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static void
snap_status_cb(void *ctx, enum store_status status, const char *err)
{
	(void)err;
	*(int *)ctx = status == STORE_OK ? 1 : 2;
}

/* A copy that --restore would refuse (a row that is not a record) is not
 * kept: neither the snapshot's name nor its .part is left. */
static void
snapshot_refused_by_the_check_is_not_kept(void **state)
{
	struct t t;
	char path[300], part[320];
	int done = 0;

	(void)state;
	pgcluster_exec("DELETE FROM channels; DELETE FROM users; DELETE FROM logs");
	pgcluster_exec(
	    "INSERT INTO channels VALUES ('bad:a', 1, 3, convert_to('junk', 'UTF8'), 1)");
	snprintf(path, sizeof(path), "%s/refused.db", pgcluster_dir);
	snprintf(part, sizeof(part), "%s.part", path);
	t_open(&t);
	t.b->ops->snapshot(t.b, path, snap_status_cb, &done);
	while (!done)
		turn(&t.loop);
	t_close(&t);
	assert_int_equal(done, 2);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(part, F_OK), -1);
	pgcluster_exec("DELETE FROM channels WHERE key = 'bad:a'");
}

/* Runs sql on a connection of its own (the test's setup). */
static long
sqlite_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	long n;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* A real user record of key, as persist writes it. */
static const char *
real_user(char *out, size_t len, const char *key)
{
	struct store_record r = {.kind = STORE_RECORD_USER};

	snprintf(r.key, sizeof(r.key), "%s", key);
	snprintf(r.name, sizeof(r.name), "u");
	r.style_set = true;
	return encoded(out, len, &r);
}

/* Inserts n rows numbered i from 1 into table (channels or users), keyed
 * prefix and i (zero-padded to width), each a real record (a snapshot is checked as --restore
 * checks a file), a channel's last_used 5000 + i and generation 7 + i. */
static void
batch_rows(const char *table, const char *prefix, int width, int n)
{
	bool chans = strcmp(table, "channels") == 0;
	char key[40], rec[400];
	struct buf b;

	buf_init(&b, 1u << 22);
	buf_addf(&b, "INSERT INTO %s VALUES ", table);
	for (int i = 1; i <= n; i++) {
		snprintf(key, sizeof(key), "%s%0*d", prefix, width, i);
		if (chans)
			buf_addf(&b, "%s('%s', %d, 3, convert_to('%s', 'UTF8'), %d)",
			         i > 1 ? "," : "", key, 5000 + i,
			         real_rec(rec, sizeof(rec), key, "g"), 7 + i);
		else
			buf_addf(&b, "%s('%s', 1, 3, convert_to('%s', 'UTF8'), 1)",
			         i > 1 ? "," : "", key, real_user(rec, sizeof(rec), key));
	}
	pgcluster_exec(buf_str(&b));
	buf_free(&b);
}

/* The snapshot reads STORE_PG_SNAPSHOT_BATCH rows per FETCH: a table of
 * two batches and one row and a table of exactly one batch (its last FETCH
 * comes back empty) arrive whole, every column in place. */
static void
snapshot_copies_every_batch(void **state)
{
	struct t t;
	char sql[400], path[300], key[40], rec[400];
	sqlite3 *db;
	sqlite3_stmt *s;
	int done = 0;

	(void)state;
	pgcluster_exec("DELETE FROM channels; DELETE FROM users; DELETE FROM logs");
	batch_rows("channels", "batch:", 6, 2 * STORE_PG_SNAPSHOT_BATCH + 1);
	batch_rows("users", "batchu:", 0, STORE_PG_SNAPSHOT_BATCH);
	snprintf(path, sizeof(path), "%s/batches.db", pgcluster_dir);
	t_open(&t);
	t.b->ops->snapshot(t.b, path, snap_cb, &done);
	while (!done)
		turn(&t.loop);
	t_close(&t);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite_count(db, "SELECT count(*) FROM channels WHERE key LIKE 'batch:%'"),
	                 2 * STORE_PG_SNAPSHOT_BATCH + 1);
	assert_int_equal(sqlite_count(db, "SELECT count(*) FROM users WHERE key LIKE 'batchu:%'"),
	                 STORE_PG_SNAPSHOT_BATCH);
	snprintf(sql, sizeof(sql),
	         "SELECT last_used, version, rec, generation FROM channels WHERE key = "
	         "'batch:%06d'",
	         2 * STORE_PG_SNAPSHOT_BATCH + 1);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(s, 0), 5000 + 2 * STORE_PG_SNAPSHOT_BATCH + 1);
	assert_int_equal(sqlite3_column_int(s, 1), 3);
	snprintf(key, sizeof(key), "batch:%06d", 2 * STORE_PG_SNAPSHOT_BATCH + 1);
	real_rec(rec, sizeof(rec), key, "g");
	assert_int_equal(sqlite3_column_bytes(s, 2), (int)strlen(rec));
	assert_memory_equal(sqlite3_column_blob(s, 2), rec, strlen(rec));
	assert_int_equal(sqlite3_column_int64(s, 3), 7 + 2 * STORE_PG_SNAPSHOT_BATCH + 1);
	sqlite3_finalize(s);
	sqlite3_close(db);
	pgcluster_exec("DELETE FROM channels WHERE key LIKE 'batch:%'");
	pgcluster_exec("DELETE FROM users WHERE key LIKE 'batchu:%'");
}

/* A snapshot put back: its rows replace the stored ones with their
 * generation raised (a process holding a newer copy is refused), rows it
 * does not hold are deleted; a file that is not a snapshot changes
 * nothing. */
static void
restore_puts_a_snapshot_back(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r;
	char path[300], bad[300], err[2000], old[400], new[400], later[400], sql[700];
	char state_dir[300], want[400];
	static struct stderrcap cap;
	int done = 0, rc;
	FILE *f;
	sqlite3 *db;

	(void)state;
	snprintf(path, sizeof(path), "%s/rs.db", pgcluster_dir);
	snprintf(bad, sizeof(bad), "%s/bad.db", pgcluster_dir);
	t_open(&t);
	/* The other tests' rows are no records: the snapshot holds these alone. */
	pgcluster_exec("DELETE FROM channels; DELETE FROM users");
	r = chan("rs:a", real_rec(old, sizeof(old), "rs:a", "old"), 0);
	commit(&t, &r, 1, &c);
	t.b->ops->snapshot(t.b, path, snap_cb, &done);
	while (!done)
		turn(&t.loop);
	r = chan("rs:a", real_rec(new, sizeof(new), "rs:a", "new"), 1);
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_OK);
	r = chan("rs:later", real_rec(later, sizeof(later), "rs:later", "x"), 0);
	commit(&t, &r, 1, &c);
	f = fopen(bad, "w");
	assert_non_null(f);
	fputs("not a database\n", f);
	fclose(f);
	assert_int_equal(
	    store_pg_restore(pgcluster_conninfo, NULL, NULL, bad, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not a whole SQLite database"));
	load(&t, STORE_CHANNEL, "rs:a", &l);
	assert_string_equal(l.rec, new);
	/* A snapshot with one record that does not read back (here: a row
	 * under another key than its record's) is refused whole, before
	 * anything is replaced. */
	snprintf(sql, sizeof(sql), "cp %s %s", path, bad);
	assert_int_equal(system(sql), 0);
	assert_int_equal(sqlite3_open(bad, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE channels SET key = 'rs:b' WHERE key = 'rs:a'",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(
	    store_pg_restore(pgcluster_conninfo, NULL, NULL, bad, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the channel record 'rs:b' in "));
	assert_non_null(strstr(err, "it holds the record of 'rs:a': the row's key column was "
	                            "changed or damaged; nothing was changed"));
	/* Read from its copy in a state directory, the file refused is still
	 * the operator's, named as given, and the copy is not left there. */
	snprintf(state_dir, sizeof(state_dir), "%s/rs-state", pgcluster_dir);
	assert_int_equal(mkdir(state_dir, 0700), 0);
	assert_int_equal(
	    store_pg_restore(pgcluster_conninfo, NULL, state_dir, bad, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "the channel record 'rs:b' in %s cannot be read", bad);
	if (strstr(err, want) == NULL)
		fail_msg("%s", err);
	/* Only the lock the restore took while it read is left there. */
	snprintf(want, sizeof(want), "%s/lock", state_dir);
	assert_int_equal(unlink(want), 0);
	assert_int_equal(rmdir(state_dir), 0);
	load(&t, STORE_CHANNEL, "rs:a", &l);
	assert_string_equal(l.rec, new);
	load(&t, STORE_CHANNEL, "rs:later", &l);
	assert_true(l.found);

	/* the tables exist already: PostgreSQL's "already exists, skipping"
	 * notices go to the log's debug level, not to stderr */
	assert_int_equal(stderrcap_begin(&cap), 0);
	rc = store_pg_restore(pgcluster_conninfo, NULL, NULL, path, NULL, err, sizeof(err));
	assert_string_equal(stderrcap_end(&cap), "");
	assert_int_equal(rc, 0);
	assert_non_null(strstr(err, "into PostgreSQL"));
	load(&t, STORE_CHANNEL, "rs:a", &l);
	assert_string_equal(l.rec, old);
	assert_int_equal(l.gen, 3);
	load(&t, STORE_CHANNEL, "rs:later", &l);
	assert_false(l.found);
	r = chan("rs:a", "stale", 2); /* a process still holding "new" */
	commit(&t, &r, 1, &c);
	assert_int_equal(c.rows[0], STORE_CONFLICT);
	t_close(&t);
}

/* The state directory of the restore below, and whether its lock could
 * be taken by another (-1: not tried yet) while the restore copied its
 * file there. */
static char lock_probe_dir[400];
static int lock_free_during_copy = -1;

static ssize_t
write_and_probe_lock(int fd, const void *p, size_t n)
{
	char path[500];
	int lk;

	snprintf(path, sizeof(path), "%s/lock", lock_probe_dir);
	if (lock_free_during_copy < 0 && (lk = open(path, O_RDWR)) >= 0) {
		lock_free_during_copy = flock(lk, LOCK_EX | LOCK_NB) == 0;
		close(lk);
	}
	return write(fd, p, n);
}

/*
 * A restore into a state directory that does not exist yet makes it and
 * its missing parents (0700) as a start does, and holds its lock while it
 * reads its copy of the file there, so that no start there takes the copy
 * for a leftover; with the lock held elsewhere (a running delver: the
 * shards may keep running) it goes on.
 */
static void
restore_makes_and_locks_its_state_directory(void **state)
{
	static const struct fsio_ops probe = {.write = write_and_probe_lock};
	struct t t;
	struct commit_res c;
	struct store_row r;
	char path[300], err[2000], rec[400], parent[300], lock[500];
	struct stat sb;
	int done = 0, lk;

	(void)state;
	snprintf(path, sizeof(path), "%s/lk.db", pgcluster_dir);
	snprintf(parent, sizeof(parent), "%s/lk-new", pgcluster_dir);
	snprintf(lock_probe_dir, sizeof(lock_probe_dir), "%s/a/state", parent);
	t_open(&t);
	r = chan("lk:a", real_rec(rec, sizeof(rec), "lk:a", "x"), 0);
	commit(&t, &r, 1, &c);
	t.b->ops->snapshot(t.b, path, snap_cb, &done);
	while (!done)
		turn(&t.loop);
	t_close(&t);
	lock_free_during_copy = -1;
	fsio_set_ops(&probe);
	if (store_pg_restore(pgcluster_conninfo, NULL, lock_probe_dir, path, "lk:a", err,
	                     sizeof(err)) < 0)
		fail_msg("%s", err);
	fsio_set_ops(NULL);
	assert_int_equal(lock_free_during_copy, 0);
	assert_int_equal(stat(lock_probe_dir, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	assert_int_equal(stat(parent, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	/* A delver running there holds the lock: the restore goes on. */
	snprintf(lock, sizeof(lock), "%s/lock", lock_probe_dir);
	lk = open(lock, O_RDWR);
	assert_true(lk >= 0);
	assert_int_equal(flock(lk, LOCK_EX | LOCK_NB), 0);
	if (store_pg_restore(pgcluster_conninfo, NULL, lock_probe_dir, path, "lk:a", err,
	                     sizeof(err)) < 0)
		fail_msg("%s", err);
	close(lk);
	snprintf(err, sizeof(err), "rm -r %s", parent);
	assert_int_equal(system(err), 0);
}

/* One channel put back (--restore FILE --channel KEY): only its row takes
 * the file's record, with its generation raised; every other row stays; a
 * key the file lacks is refused and changes nothing. */
static void
restore_puts_one_channel_back(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r[2];
	char path[300], err[2000], recs[5][400], logs[2][200];
	int done = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/one.db", pgcluster_dir);
	t_open(&t);
	pgcluster_exec("DELETE FROM channels; DELETE FROM users");
	r[0] = chan("one:a", real_rec(recs[0], sizeof(recs[0]), "one:a", "aold"), 0);
	r[1] = chan("one:b", real_rec(recs[1], sizeof(recs[1]), "one:b", "bold"), 0);
	real_log(logs[0], sizeof(logs[0]), "first");
	r[0].log = &(struct store_log_row){1, logs[0], strlen(logs[0])};
	r[0].nlog = 1;
	commit(&t, r, 2, &c);
	t.b->ops->snapshot(t.b, path, snap_cb, &done);
	while (!done)
		turn(&t.loop);
	r[0] = chan("one:a", real_rec(recs[2], sizeof(recs[2]), "one:a", "anew"), 1);
	r[1] = chan("one:b", real_rec(recs[3], sizeof(recs[3]), "one:b", "bnew"), 1);
	real_log(logs[1], sizeof(logs[1]), "second");
	r[0].log = &(struct store_log_row){2, logs[1], strlen(logs[1])};
	r[0].nlog = 1;
	commit(&t, r, 2, &c);
	assert_int_equal(c.rows[0], STORE_OK);
	assert_int_equal(c.rows[1], STORE_OK);
	r[0] = chan("one:later", real_rec(recs[4], sizeof(recs[4]), "one:later", "x"), 0);
	commit(&t, r, 1, &c);

	assert_int_equal(
	    store_pg_restore(pgcluster_conninfo, NULL, NULL, path, "one:none", err, sizeof(err)),
	    -1);
	assert_non_null(
	    strstr(err, "holds no record for the channel one:none; nothing was changed"));
	assert_int_equal(
	    store_pg_restore(pgcluster_conninfo, NULL, NULL, path, "one:a", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "restored the channel one:a from"));
	load(&t, STORE_CHANNEL, "one:a", &l);
	assert_string_equal(l.rec, recs[0]);
	assert_int_equal(l.gen, 3);
	/* The file's log, and no other. */
	assert_true(strncmp(l.log, "1=", 2) == 0 && strstr(l.log, "# first") != NULL);
	assert_null(strstr(l.log, "second"));
	load(&t, STORE_CHANNEL, "one:b", &l);
	assert_string_equal(l.rec, recs[3]);
	assert_int_equal(l.gen, 2);
	load(&t, STORE_CHANNEL, "one:later", &l);
	assert_true(l.found);
	r[0] = chan("one:a", "stale", 2); /* a process still holding "a-new" */
	commit(&t, r, 1, &c);
	assert_int_equal(c.rows[0], STORE_CONFLICT);
	t_close(&t);
}

static void
wake_cb(uv_timer_t *h)
{
}

/* Runs the loop until the backend is connected again (at most 60 s). */
static void
wait_connected(struct t *t)
{
	uv_timer_t tick;

	uv_timer_init(&t->loop, &tick);
	uv_timer_start(&tick, wake_cb, 50, 50);
	for (int i = 0; i < 1200 && !store_pg_connected(t->b); i++)
		uv_run(&t->loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&tick, NULL);
	uv_run(&t->loop, UV_RUN_NOWAIT);
	assert_true(store_pg_connected(t->b));
}

/*
 * A writer as persist is: counts 1..N into one row, each commit with the
 * generation it read. The server is stopped and started in the middle; an
 * unavailable commit is written again from memory, a conflict after it
 * means the lost answer's commit went through (the row holds our value).
 * At the end the row holds N at generation N: no change lost, none twice.
 */
static void
server_restarted_mid_stream(void **state)
{
	enum {
		N = 60
	};
	struct t t;
	struct commit_res c;
	struct load_res l;
	char rec[32];
	uint64_t gen = 0;
	int unavailable = 0, conflicts = 0;

	(void)state;
	t_open(&t);
	for (int i = 1; i <= N;) {
		struct store_row r;

		if (i == N / 2 && unavailable == 0) {
			assert_int_equal(pgcluster_run("stop", NULL, 0), 0);
		}
		snprintf(rec, sizeof(rec), "%d", i);
		r = chan("restart:n", rec, gen);
		commit(&t, &r, 1, &c);
		if (c.status == STORE_UNAVAILABLE) {
			assert_int_equal(c.rows[0], STORE_UNAVAILABLE);
			assert_non_null(strstr(c.err, "PostgreSQL cannot be reached"));
			if (unavailable++ == 0) {
				assert_int_equal(pgcluster_run("start", NULL, 0), 0);
				wait_connected(&t);
			}
			continue;
		}
		if (c.status == STORE_CONFLICT) {
			assert_int_equal(c.rows[0], STORE_CONFLICT);
			conflicts++;
			assert_int_equal(load(&t, STORE_CHANNEL, "restart:n", &l), STORE_OK);
			assert_true(l.found);
			gen = l.gen;
			if (strcmp(l.rec, rec) == 0)
				i++;
			continue;
		}
		assert_int_equal(c.status, STORE_OK);
		assert_int_equal(c.rows[0], STORE_OK);
		gen++;
		i++;
	}
	assert_true(unavailable >= 1);
	assert_true(conflicts <= 1);
	assert_int_equal(load(&t, STORE_CHANNEL, "restart:n", &l), STORE_OK);
	assert_string_equal(l.rec, "60");
	assert_int_equal(l.gen, N);
	t_close(&t);
}

/* The PID of the server process serving the backend's connection (its
 * application_name is delver's). */
static long
delver_backend_pid(void)
{
	PGconn *c = PQconnectdb(pgcluster_conninfo);
	PGresult *r;
	long pid = -1;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, "SELECT pid FROM pg_stat_activity WHERE application_name = 'delver'");
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 1);
	pid = strtol(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	PQfinish(c);
	return pid;
}

/*
 * A server that stops answering (its process frozen, as behind a dead
 * network): the commit fails as unavailable after the watchdog's 10 s
 * instead of hanging; the server may still apply it when it wakes, so the
 * write sent again is either committed or refused as a conflict whose row
 * is ours: the row ends at generation 1 either way, never 2.
 */
static void
silent_server_is_unavailable(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r = chan("silent:a", "v1", 0);
	long pid;

	(void)state;
	t_open(&t);
	pid = delver_backend_pid();
	assert_int_equal(kill((pid_t)pid, SIGSTOP), 0);
	assert_int_equal(commit(&t, &r, 1, &c), STORE_UNAVAILABLE);
	assert_non_null(strstr(c.err, "no answer in 10 seconds"));
	assert_int_equal(kill((pid_t)pid, SIGCONT), 0);
	wait_connected(&t);
	commit(&t, &r, 1, &c);
	if (c.status == STORE_CONFLICT) {
		assert_int_equal(c.rows[0], STORE_CONFLICT);
		load(&t, STORE_CHANNEL, "silent:a", &l);
		assert_string_equal(l.rec, "v1");
	} else {
		assert_int_equal(c.status, STORE_OK);
		assert_int_equal(c.rows[0], STORE_OK);
	}
	load(&t, STORE_CHANNEL, "silent:a", &l);
	assert_int_equal(l.gen, 1);
	t_close(&t);
}

/*
 * The server process killed while a commit waits unread in its socket: the
 * kernel resets the connection, which libuv reports on the socket's
 * watcher as UV_EBADF. The commit fails as unavailable with what libpq
 * read from the socket (the server closed the connection), never "bad file
 * descriptor"; the backend reconnects once the server has recovered.
 */
static void
reset_connection_says_the_server_closed_it(void **state)
{
	struct t t;
	struct commit_res c;
	struct store_row r = chan("reset:a", "v1", 0);
	long pid;

	(void)state;
	t_open(&t);
	pid = delver_backend_pid();
	assert_int_equal(kill((pid_t)pid, SIGSTOP), 0);
	memset(&c, 0, sizeof(c));
	t.b->ops->commit(t.b, &r, 1, commit_cb, &c);
	for (int i = 0; i < 20; i++)
		uv_run(&t.loop, UV_RUN_NOWAIT);
	assert_false(c.done);
	assert_int_equal(kill((pid_t)pid, SIGKILL), 0);
	while (!c.done)
		turn(&t.loop);
	assert_int_equal(c.status, STORE_UNAVAILABLE);
	assert_string_equal(
	    c.err, "PostgreSQL cannot be reached: server closed the connection unexpectedly");
	/* The kill makes the server end every process and recover; a stop
	 * and a start wait until it takes connections again. The commit never
	 * reached the server: sent again, it is committed once connected. */
	assert_int_equal(pgcluster_run("stop", NULL, 0), 0);
	assert_int_equal(pgcluster_run("start", NULL, 0), 0);
	for (int i = 0; i < 3; i++) {
		wait_connected(&t);
		if (commit(&t, &r, 1, &c) != STORE_UNAVAILABLE)
			break;
	}
	assert_int_equal(c.status, STORE_OK);
	t_close(&t);
}

/* Loads and commits while the server is down fail as unavailable, each
 * completing once, after the call. */
static void
down_server_refuses_at_once(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r = chan("down:a", "x", 0);

	(void)state;
	t_open(&t);
	assert_int_equal(pgcluster_run("stop", NULL, 0), 0);
	assert_int_equal(commit(&t, &r, 1, &c), STORE_UNAVAILABLE);
	assert_int_equal(commit(&t, &r, 1, &c), STORE_UNAVAILABLE);
	assert_int_equal(load(&t, STORE_CHANNEL, "down:a", &l), STORE_UNAVAILABLE);
	assert_false(l.found);
	assert_int_equal(pgcluster_run("start", NULL, 0), 0);
	wait_connected(&t);
	assert_int_equal(commit(&t, &r, 1, &c), STORE_OK);
	assert_int_equal(c.rows[0], STORE_OK);
	t_close(&t);
}

/* Runs the loop until the backend has scheduled its next reconnection;
 * returns that reconnection's wait (ms). */
static uint64_t
next_retry(struct t *t)
{
	unsigned long n0, n;

	store_pg_retry_wait_ms(t->b, &n0);
	n = n0;
	for (int i = 0; i < 400 && n == n0; i++) {
		uv_run(&t->loop, UV_RUN_ONCE);
		store_pg_retry_wait_ms(t->b, &n);
	}
	assert_int_not_equal(n, n0);
	return store_pg_retry_wait_ms(t->b, NULL);
}

/* While a change waits to be saved the backend reconnects at most 1 s
 * apart, so it is written within about a second of the server's return;
 * with nothing waiting its backoff doubles from 0.2 s past that. */
static void
a_waiting_change_keeps_reconnections_a_second_apart(void **state)
{
	struct t t;
	struct commit_res c;
	struct load_res l;
	struct store_row r = chan("waiting:a", "x", 0);

	(void)state;
	t_open(&t);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(pgcluster_run("stop", NULL, 0), 0);
		/* A load finds the server gone; it leaves no change waiting. */
		assert_int_equal(load(&t, STORE_CHANNEL, "waiting:a", &l), STORE_UNAVAILABLE);
		for (uint64_t wait = 400; wait <= 1600; wait *= 2)
			assert_int_equal(next_retry(&t), wait);
		if (round == 1)
			break;
		/* The change that fails now waits: the reconnection due in
		 * 1.6 s comes in 1 s, and so does each one after it. */
		assert_int_equal(commit(&t, &r, 1, &c), STORE_UNAVAILABLE);
		assert_int_equal(store_pg_retry_wait_ms(t.b, NULL), 1000);
		for (int i = 0; i < 2; i++)
			assert_int_equal(next_retry(&t), 1000);
		assert_int_equal(pgcluster_run("start", NULL, 0), 0);
		wait_connected(&t);
		assert_int_equal(commit(&t, &r, 1, &c), STORE_OK);
	}
	assert_int_equal(pgcluster_run("start", NULL, 0), 0);
	wait_connected(&t);
	t_close(&t);
}

/* --- a fleet: two processes, channels moving between them --- */

enum {
	FLEET_CHANNELS = 24,
	FLEET_ROUNDS = 240,
	FLEET_EPOCH = 20
};

struct fleet_chan {
	bool held; /* in memory */
	uint64_t gen;
	long value;
	long acked; /* increments this process was told are committed */
};

struct fleet {
	struct store_backend *b;
	uv_loop_t loop;
	struct fleet_chan ch[FLEET_CHANNELS];
	int pending, conflicts, errors;
	int batch_keys[FLEET_CHANNELS];
	long batch_values[FLEET_CHANNELS];
};

static void
fleet_loaded(void *ctx, enum store_status status, const struct store_row *row, const char *err)
{
	struct fleet_chan *c = ctx;

	if (status != STORE_OK) {
		fprintf(stderr, "fleet: load: %s\n", err);
		exit(3);
	}
	c->held = true;
	c->gen = row != NULL ? row->generation : 0;
	c->value = 0;
	if (row != NULL) {
		char v[32];

		snprintf(v, sizeof(v), "%.*s", (int)row->rec_len, row->rec);
		c->value = strtol(v, NULL, 10);
	}
}

static void
fleet_committed(void *ctx, enum store_status status, const enum store_status *rs, size_t n,
                const char *err)
{
	struct fleet *f = ctx;

	f->pending = 0;
	if (status != STORE_OK && status != STORE_CONFLICT) {
		fprintf(stderr, "fleet: commit: %s\n", err);
		f->errors++;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct fleet_chan *c = &f->ch[f->batch_keys[i]];

		if (rs[i] == STORE_OK && status == STORE_OK) {
			c->gen++;
			c->value = f->batch_values[i];
			c->acked++;
		} else if (rs[i] == STORE_CONFLICT) {
			c->held = false; /* another process wrote it: read it again */
			f->conflicts++;
		} else if (rs[i] != STORE_NOT_WRITTEN || status != STORE_CONFLICT) {
			f->errors++; /* not written: raised again next round */
		}
	}
}

/* One shard process: in round r it owns channel k when (k + r / EPOCH) % 2
 * is its id, so ownership moves every EPOCH rounds, and the two processes,
 * running at their own pace, overlap at each move. Each round raises every
 * channel it owns by one in one batch. Writes its acknowledged counts to
 * out. */
static int
fleet_process(int id, const char *out)
{
	struct fleet f;
	struct store_opts o = {.backend = STORE_ENGINE_POSTGRESQL, .conninfo = pgcluster_conninfo};
	char err[600], keys[FLEET_CHANNELS][16], recs[FLEET_CHANNELS][24];
	FILE *fp;

	memset(&f, 0, sizeof(f));
	uv_loop_init(&f.loop);
	f.b = store_open(&f.loop, &o, err, sizeof(err));
	if (f.b == NULL) {
		fprintf(stderr, "fleet: %s\n", err);
		return 2;
	}
	for (int r = 0; r < FLEET_ROUNDS; r++) {
		struct store_row rows[FLEET_CHANNELS];
		size_t n = 0;

		for (int k = 0; k < FLEET_CHANNELS; k++) {
			struct fleet_chan *c = &f.ch[k];

			snprintf(keys[k], sizeof(keys[k]), "fleet:%d", k);
			if ((k + r / FLEET_EPOCH) % 2 != id) {
				c->held = false; /* moved to the other process */
				continue;
			}
			if (!c->held) {
				f.b->ops->load(f.b, STORE_CHANNEL, keys[k], fleet_loaded, c);
				while (!c->held)
					turn(&f.loop);
			}
			snprintf(recs[k], sizeof(recs[k]), "%ld", c->value + 1);
			f.batch_keys[n] = k;
			f.batch_values[n] = c->value + 1;
			rows[n++] = (struct store_row){.kind = STORE_CHANNEL,
			                               .key = keys[k],
			                               .last_used = r,
			                               .version = 1,
			                               .rec = recs[k],
			                               .rec_len = strlen(recs[k]),
			                               .generation = c->gen};
		}
		f.pending = 1;
		f.b->ops->commit(f.b, rows, n, fleet_committed, &f);
		while (f.pending)
			turn(&f.loop);
	}
	fp = fopen(out, "w");
	if (fp == NULL)
		return 4;
	for (int k = 0; k < FLEET_CHANNELS; k++)
		fprintf(fp, "%ld\n", f.ch[k].acked);
	fprintf(fp, "%d\n", f.conflicts);
	fclose(fp);
	{
		int done = 0;

		f.b->ops->close(f.b, closed_cb, &done);
		uv_run(&f.loop, UV_RUN_DEFAULT);
	}
	return f.errors > 0 ? 5 : 0;
}

/*
 * The fleet test at the store's level: two processes on one PostgreSQL
 * raise counters while channels move between them every few rounds. Every
 * acknowledged raise is in the final value, exactly once: the sum of both
 * processes' acknowledged raises equals each counter, and its generation
 * (one per committed write) too.
 */
static void
fleet_moves_channels_without_loss(void **state)
{
	pid_t pid[2];
	char out[2][300];
	long acked[FLEET_CHANNELS] = {0};
	int conflicts = 0;
	struct t t;
	struct load_res l;

	(void)state;
	for (int i = 0; i < 2; i++) {
		snprintf(out[i], sizeof(out[i]), "%s/fleet-%d", pgcluster_dir, i);
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0)
			_exit(fleet_process(i, out[i]));
	}
	for (int i = 0; i < 2; i++) {
		int st;
		FILE *fp;

		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
		fp = fopen(out[i], "r");
		assert_non_null(fp);
		for (int k = 0; k < FLEET_CHANNELS; k++) {
			long a;
			char line[32];

			assert_non_null(fgets(line, sizeof(line), fp));
			a = strtol(line, NULL, 10);
			acked[k] += a;
		}
		{
			char line[32];

			assert_non_null(fgets(line, sizeof(line), fp));
			conflicts += (int)strtol(line, NULL, 10);
		}
		fclose(fp);
	}
	t_open(&t);
	for (int k = 0; k < FLEET_CHANNELS; k++) {
		char key[16], want[32];

		snprintf(key, sizeof(key), "fleet:%d", k);
		assert_int_equal(load(&t, STORE_CHANNEL, key, &l), STORE_OK);
		assert_true(l.found);
		snprintf(want, sizeof(want), "%ld", acked[k]);
		assert_string_equal(l.rec, want);
		assert_int_equal(l.gen, (uint64_t)acked[k]);
		assert_true(acked[k] > 0);
	}
	print_message("fleet: %d conflicts refused at the moves\n", conflicts);
	t_close(&t);
}

static void
open_names_the_problem(void **state)
{
	uv_loop_t loop;
	struct store_opts o = {.backend = STORE_ENGINE_POSTGRESQL,
	                       .conninfo = "host=/nonexistent/dir dbname=delver",
	                       .password = "s3cret-pass-word"};
	char err[600];

	(void)state;
	uv_loop_init(&loop);
	assert_null(store_open(&loop, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot connect to PostgreSQL"));
	assert_null(strstr(err, "s3cret"));
	assert_int_equal(uv_loop_close(&loop), 0);
}

/* A server or role that may not write is refused at open, as read-only,
 * with errno STATEDIR_UNSAFE (the exit status the units do not restart):
 * every change would otherwise be refused, one by one, after the start. */
static void
open_refuses_read_only(void **state)
{
	uv_loop_t loop;
	struct store_opts o = {.backend = STORE_ENGINE_POSTGRESQL};
	char conninfo[700], err[600];
	struct t t;

	(void)state;
	t_open(&t); /* the tables exist */
	t_close(&t);
	uv_loop_init(&loop);
	snprintf(conninfo, sizeof(conninfo), "%s options='-c default_transaction_read_only=on'",
	         pgcluster_conninfo);
	o.conninfo = conninfo;
	errno = 0;
	assert_null(store_open(&loop, &o, err, sizeof(err)));
	assert_int_equal(errno, STATEDIR_UNSAFE);
	assert_non_null(strstr(err, "is read-only for delver (transaction_read_only is on: a "
	                            "standby server, or default_transaction_read_only set"));

	pgcluster_exec("DROP ROLE IF EXISTS reader");
	pgcluster_exec("CREATE ROLE reader LOGIN");
	snprintf(conninfo, sizeof(conninfo), "%s user=reader", pgcluster_conninfo);
	errno = 0;
	assert_null(store_open(&loop, &o, err, sizeof(err)));
	assert_int_equal(errno, STATEDIR_UNSAFE);
	assert_non_null(strstr(err, "the PostgreSQL table channels of database "));
	assert_non_null(strstr(err, " is read-only for delver (the role reader lacks SELECT on "
	                            "it); delver needs GRANT SELECT, INSERT, UPDATE, DELETE ON "
	                            "channels, users TO reader"));
	pgcluster_exec("GRANT SELECT ON channels, users TO reader");
	assert_null(store_open(&loop, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "(the role reader lacks INSERT on it)"));
	pgcluster_exec("REVOKE ALL ON channels, users FROM reader");
	pgcluster_exec("DROP ROLE reader");

	/* A server that cannot be reached may come back: not that errno. */
	o.conninfo = "host=/nonexistent/dir dbname=delver";
	assert_null(store_open(&loop, &o, err, sizeof(err)));
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(uv_loop_close(&loop), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(commit_and_load),
	    cmocka_unit_test(logs_keep_their_contract),
	    cmocka_unit_test(generations_refuse_stale_rows),
	    cmocka_unit_test(marks_are_written_once_across_processes),
	    cmocka_unit_test(every_conflicting_mark_of_a_batch_is_told),
	    cmocka_unit_test(a_commit_whose_answer_was_lost_is_known_kept),
	    cmocka_unit_test(marks_of_an_older_database_are_kept),
	    cmocka_unit_test(deletes_keep_generations),
	    cmocka_unit_test(load_active_reads_recent_channels_and_all_users),
	    cmocka_unit_test(snapshot_is_an_sqlite_file),
	    cmocka_unit_test(snapshot_copies_every_batch),
	    cmocka_unit_test(snapshot_refused_by_the_check_is_not_kept),
	    cmocka_unit_test(restore_puts_a_snapshot_back),
	    cmocka_unit_test(restore_puts_one_channel_back),
	    cmocka_unit_test(restore_makes_and_locks_its_state_directory),
	    cmocka_unit_test(server_restarted_mid_stream),
	    cmocka_unit_test(a_waiting_change_keeps_reconnections_a_second_apart),
	    cmocka_unit_test(down_server_refuses_at_once),
	    cmocka_unit_test(silent_server_is_unavailable),
	    cmocka_unit_test(reset_connection_says_the_server_closed_it),
	    cmocka_unit_test(fleet_moves_channels_without_loss),
	    cmocka_unit_test(open_names_the_problem),
	    cmocka_unit_test(open_refuses_read_only),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
