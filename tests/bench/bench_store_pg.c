/*
 * bench_store_pg: the PostgreSQL backend on a throwaway local cluster
 * (tests/tools/pg_cluster.sh, fsync on, synchronous_commit on): committed
 * changes per second and commit latency with batches of 1 and 100, one batch
 * in flight (as persist commits one loop turn at a time) and 8 in flight;
 * then a snapshot of N channels (default 1,000,000; argv[1]) with the loop's
 * longest stall while it is written (the longest gap between the ticks of
 * a 1 ms timer), and the restore of that file into PostgreSQL. Run from the
 * repository's top. DELVER_BENCH_ONLY=snapshot runs the snapshot alone.
 *
 * The machine may be shared: for the snapshot it also prints how long the
 * loop's thread waited on a run queue for a CPU (schedstat), within the
 * longest stall and in all, then the same figures over as long again
 * without a snapshot, which are the machine's own.
 *
 * With DELVER_BENCH_PG=CONNINFO it uses that server instead of starting its
 * own: `make bench` starts the cluster outside the unit's system call filter
 * (the server is not delver: it runs under its own unit in production, and
 * pg_cluster.sh needs chown as root), then runs this bench under it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libpq-fe.h>

#include "bot/store/store.h"
#include "bot/store/store_pg_restore.h"
#include "tests/bench/bench.h"

#define REC_BYTES 134 /* the average record (issue 18) */
#define MAX_LAT   200000

static char dir[] = "/tmp/delver-bench-pg-XXXXXX";
static char conninfo[600];

static int
cluster(const char *cmd)
{
	char line[700];
	const char *given = getenv("DELVER_BENCH_PG");
	FILE *f;

	if (given != NULL && given[0] != '\0') {
		if (strcmp(cmd, "start") == 0)
			snprintf(conninfo, sizeof(conninfo), "%s", given);
		return 0;
	}
	snprintf(line, sizeof(line), "sh tests/tools/pg_cluster.sh %s %s", cmd, dir);
	f = popen(line, "r");
	if (f == NULL)
		return -1;
	if (fgets(line, sizeof(line), f) != NULL && strcmp(cmd, "start") == 0)
		snprintf(conninfo, sizeof(conninfo), "%.*s", (int)strcspn(line, "\n"), line);
	while (fgets(line, sizeof(line), f) != NULL)
		;
	return pclose(f);
}

struct run {
	uv_loop_t *loop;
	struct store_backend *b;
	int batch, inflight, batches, sent, done, failed;
	double *lat; /* ms per batch */
	char rec[REC_BYTES];
	uint64_t *gen; /* per key */
	int nkeys;
	int id; /* keys apart from other runs': each starts at generation 0 */
};

struct pending {
	struct run *r;
	double t0;
	int first; /* key of its first row */
};

static void send_batch(struct run *r);

static void
batch_done(void *ctx, enum store_status status, const enum store_status *rs, size_t n,
           const char *err)
{
	struct pending *p = ctx;
	struct run *r = p->r;

	if (status != STORE_OK) {
		r->failed += (int)n;
		if (r->failed == (int)n)
			fprintf(stderr, "bench_store_pg: %s\n", err != NULL ? err : "failed");
	} else {
		for (size_t i = 0; i < n; i++) {
			if (rs[i] == STORE_OK)
				r->gen[(p->first + (int)i) % r->nkeys]++;
			else
				r->failed++;
		}
	}
	if (r->done < MAX_LAT)
		r->lat[r->done] = (bench_now_ns() - p->t0) / 1e6;
	r->done++;
	free(p);
	if (r->sent < r->batches)
		send_batch(r);
}

static void
send_batch(struct run *r)
{
	struct store_row rows[100];
	struct pending *p = calloc(1, sizeof(*p));
	char keys[100][32];

	p->r = r;
	p->first = (r->sent * r->batch) % r->nkeys;
	for (int i = 0; i < r->batch; i++) {
		int k = (p->first + i) % r->nkeys;

		snprintf(keys[i], sizeof(keys[i]), "bench%d:%d", r->id, k);
		rows[i] = (struct store_row){.kind = STORE_CHANNEL,
		                             .key = keys[i],
		                             .last_used = 1,
		                             .version = 3,
		                             .rec = r->rec,
		                             .rec_len = sizeof(r->rec),
		                             .generation = r->gen[k]};
	}
	r->sent++;
	p->t0 = bench_now_ns();
	r->b->ops->commit(r->b, rows, (size_t)r->batch, batch_done, p);
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
commits(uv_loop_t *loop, struct store_backend *b, int batch, int inflight, int batches)
{
	struct run r = {
	    .loop = loop, .b = b, .batch = batch, .inflight = inflight, .batches = batches};
	double t0, secs;
	int nl;

	static int base;
	r.nkeys = batch * inflight * 4;
	r.gen = calloc((size_t)r.nkeys, sizeof(*r.gen));
	r.lat = calloc(MAX_LAT, sizeof(*r.lat));
	memset(r.rec, 'x', sizeof(r.rec));
	r.id = base++;
	/* the first round writes generation 0 rows: INSERT; the rest UPDATE */
	t0 = bench_now_ns();
	for (int i = 0; i < inflight && r.sent < batches; i++)
		send_batch(&r);
	while (r.done < batches)
		uv_run(loop, UV_RUN_ONCE);
	secs = (bench_now_ns() - t0) / 1e9;
	nl = r.done < MAX_LAT ? r.done : MAX_LAT;
	qsort(r.lat, (size_t)nl, sizeof(double), cmp_d);
	printf("batch %3d, %d in flight: %8.0f changes/s, commit p50 %.3f ms, p99 %.3f ms "
	       "(%d batches, %d failed)\n",
	       batch, inflight, (double)batches * batch / secs, r.lat[nl / 2],
	       r.lat[(int)(nl * 0.99)], batches, r.failed);
	free(r.gen);
	free(r.lat);
}

/* Fills the channels table with n rows on the server itself. */
static int
fill(int n)
{
	PGconn *c = PQconnectdb(conninfo);
	char sql[400];
	PGresult *res;
	int ok;

	snprintf(
	    sql, sizeof(sql),
	    "INSERT INTO channels SELECT 'discord:' || (80351110224678912 + i::bigint * 7919), "
	    "1700000000, 3, convert_to(repeat('t', %d), 'UTF8'), 1 "
	    "FROM generate_series(1, %d) i ON CONFLICT DO NOTHING",
	    REC_BYTES, n);
	res = PQexec(c, sql);
	ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		fprintf(stderr, "bench_store_pg: %s", PQerrorMessage(c));
	PQclear(res);
	PQfinish(c);
	return ok ? 0 : -1;
}

/* The loop's stalls: the gaps between the ticks of a 1 ms timer. */
struct stall {
	double t0, last, worst;
	double wait0, wait_last, run_last; /* the loop thread's schedstat */
	double worst_wait, worst_run;      /* in the worst gap */
	double worst_at;                   /* when the worst gap ended, from t0 */
	double *gaps;                      /* every gap, up to MAX_GAPS */
	int ngaps;
};

#define MAX_GAPS 600000

static void
tick_cb(uv_timer_t *t)
{
	struct stall *s = t->data;
	double run, wait = bench_runq_wait_ns(&run), now = bench_now_ns();

	if (s->last > 0 && now - s->last > s->worst) {
		s->worst = now - s->last;
		s->worst_wait = wait - s->wait_last;
		s->worst_run = run - s->run_last;
		s->worst_at = now - s->t0;
	}
	if (s->last > 0 && s->ngaps < MAX_GAPS)
		s->gaps[s->ngaps++] = now - s->last;
	s->last = now;
	s->wait_last = wait;
	s->run_last = run;
}

static void
stall_start(struct stall *s, double *gaps)
{
	*s = (struct stall){.t0 = bench_now_ns(), .wait0 = bench_runq_wait_ns(NULL), .gaps = gaps};
}

/* Prints the longest stall since stall_start, how much of it the loop's
 * thread waited for a CPU (the machine's share: other threads ran) and ran
 * (its own work; the rest it was blocked, or its virtual CPU was not
 * running), the gaps' p99 and p99.9, and the loop's run-queue wait in all. */
static void
stall_print(struct stall *s, const char *what)
{
	int over = 0, n = s->ngaps > 0 ? s->ngaps : 1;

	qsort(s->gaps, (size_t)s->ngaps, sizeof(double), cmp_d);
	for (int i = 0; i < s->ngaps; i++)
		over += s->gaps[i] > 5e6;
	printf("  %s: longest stall %.2f ms (%.2f waiting for a CPU, %.2f running) at %.0f ms; "
	       "p99 %.2f, p99.9 %.2f ms, %d of %d over 5 ms; waited for a CPU %.0f ms of %.0f\n",
	       what, s->worst / 1e6, s->worst_wait / 1e6, s->worst_run / 1e6, s->worst_at / 1e6,
	       s->gaps[(int)(n * 0.99)] / 1e6, s->gaps[(int)(n * 0.999)] / 1e6, over, s->ngaps,
	       (bench_runq_wait_ns(NULL) - s->wait0) / 1e6, (bench_now_ns() - s->t0) / 1e6);
}

static void
snap_done(void *ctx, enum store_status status, const char *err)
{
	*(int *)ctx = status == STORE_OK ? 1 : -1;
	if (status != STORE_OK)
		fprintf(stderr, "bench_store_pg: snapshot: %s\n", err);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000, done = 0;
	const char *only = getenv("DELVER_BENCH_ONLY");
	uv_loop_t loop;
	struct store_opts o = {.backend = STORE_ENGINE_POSTGRESQL};
	struct store_backend *b;
	char err[600], path[300];
	uv_timer_t tick;
	struct stall st;
	double *gaps = calloc(MAX_GAPS, sizeof(*gaps));
	struct stat sb;
	double t0, took;

	if (mkdtemp(dir) == NULL || cluster("start") != 0) {
		fprintf(stderr, "bench_store_pg: the PostgreSQL cluster did not start\n");
		return 1;
	}
	o.conninfo = conninfo;
	uv_loop_init(&loop);
	b = store_open(&loop, &o, err, sizeof(err));
	if (b == NULL) {
		fprintf(stderr, "bench_store_pg: %s\n", err);
		cluster("stop");
		return 1;
	}
	printf("PostgreSQL on a unix socket, fsync on, records of %d bytes\n", REC_BYTES);
	if (only == NULL || strcmp(only, "snapshot") != 0) {
		commits(&loop, b, 1, 1, 3000);
		commits(&loop, b, 100, 1, 300);
		commits(&loop, b, 1, 8, 10000);
		commits(&loop, b, 100, 8, 1000);
	}

	t0 = bench_now_ns();
	if (fill(n) < 0) {
		cluster("stop");
		return 1;
	}
	printf("%d channels inserted on the server in %.0f ms\n", n, (bench_now_ns() - t0) / 1e6);
	snprintf(path, sizeof(path), "%s/snapshot.db", dir);
	uv_timer_init(&loop, &tick);
	tick.data = &st;
	uv_timer_start(&tick, tick_cb, 1, 1);
	stall_start(&st, gaps);
	b->ops->snapshot(b, path, snap_done, &done);
	while (done == 0)
		uv_run(&loop, UV_RUN_ONCE);
	took = bench_now_ns() - st.t0;
	printf("snapshot of %d channels: %.0f ms, %lld bytes, the loop's longest stall %.2f ms\n",
	       n, took / 1e6, stat(path, &sb) == 0 ? (long long)sb.st_size : -1LL, st.worst / 1e6);
	stall_print(&st, "while written");
	/* the same measure without a snapshot: what the machine does anyway */
	stall_start(&st, gaps);
	while (bench_now_ns() - st.t0 < took)
		uv_run(&loop, UV_RUN_ONCE);
	stall_print(&st, "then without");
	uv_close((uv_handle_t *)&tick, NULL);
	free(gaps);
	if (only == NULL || strcmp(only, "snapshot") != 0) {
		long rss0 = bench_rss_kb();

		t0 = bench_now_ns();
		if (store_pg_restore(conninfo, NULL, dir, path, NULL, err, sizeof(err)) < 0) {
			fprintf(stderr, "bench_store_pg: %s\n", err);
			done = -1;
		}
		printf("restore of that snapshot into PostgreSQL: %.0f ms, %ld MB more resident\n",
		       (bench_now_ns() - t0) / 1e6, (bench_rss_kb() - rss0) / 1024);
	}
	b->ops->close(b, snap_done, &done);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	cluster("stop");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	return system(path) == 0 && done == 1 ? 0 : 1;
}
