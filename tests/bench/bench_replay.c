/*
 * bench_replay: persist's queue under a burst, and a burst of replays after
 * a restart (bot/store/persist_queue.h, exactly once in persist.h), on the
 * SQLite store, fsync no (the work per request, not the disk's).
 *
 * - burst: N requests over C channels, every other one a change (the
 *   others read), one a loop turn, while another connection holds the
 *   database's write lock (a stalled disk: the first commit waits, and
 *   every request is in flight when it ends); prints the loop thread's CPU
 *   time per request, the commits and the longest turn. With a pass over
 *   every request in flight per turn or per commit, this grows with N;
 *   with work per request only, it stays flat.
 * - replays: R events handled (each a change, its mark stored), the store
 *   closed and opened again, then in one turn the replays of those R and
 *   of R never handled; prints the loop thread's CPU time per
 *   replay, its longest turn, and the reads by key the replays made.
 *
 * Prints figures; asserts nothing but that every request is answered as
 * its kind says (a replay of a handled event is not run again).
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "bot/store/persist.h"
#include "commands/core/channel.h"
#include "commands/core/reply.h"
#include "tests/bench/bench.h"

static long answered, replayed;

static void
done(struct request *req, void *ctx)
{
	(void)ctx;
	answered++;
	replayed += request_outcome(req) == REQUEST_REPLAYED;
	request_free(req);
}

/* A read. */
static void
peek_fn(struct invocation *inv, struct reply *out)
{
	reply_line(out, 0, channel_gm(inv->chan) != NULL ? "a GM" : "no GM");
}

static const struct command swap_cmd = {.name = "swap", .desc = "s", .fn = bench_swap_gm};
static const struct command peek_cmd = {.name = "peek", .desc = "p", .fn = peek_fn};
static const struct command *const table[] = {&swap_cmd, &peek_cmd, NULL};

static int
keep(struct request *req, struct buf *out)
{
	return buf_addf(out, "{\"content\":\"swapped\",\"id\":\"%s\"}", request_key(req));
}

struct bench {
	char dir[600];
	uv_loop_t loop;
	struct state *st;
	struct dispatch *d;
	struct persist *p;
};

static void
bench_open(struct bench *b)
{
	struct persist_opts o;
	char err[2048];

	uv_loop_init(&b->loop);
	persist_opts_default(&o);
	o.dir = b->dir;
	o.fsync = FSYNC_NO;
	o.snapshot_on_stop = false;
	b->st = state_new();
	b->p = persist_open(&b->loop, b->st, &o, err, sizeof(err));
	if (b->p == NULL) {
		printf("%s\n", err);
		exit(1);
	}
	b->d = dispatch_new(&(struct dispatch_opts){.state = b->st, .commands = table});
	dispatch_set_store(b->d, &persist_store_ops, b->p);
}

static void
bench_close(struct bench *b)
{
	persist_close(b->p);
	dispatch_free(b->d);
	uv_run(&b->loop, UV_RUN_DEFAULT);
	uv_loop_close(&b->loop);
	state_free(b->st);
}

/* One request: line in channel chan, answering event key ("" none). */
static void
submit(struct bench *b, int chan, const char *line, const char *key, bool replay)
{
	struct origin o = {.platform = "bench", .user_key = "discord:9", .user_name = "u"};
	struct request *req;

	snprintf(o.chan_key, sizeof(o.chan_key), "discord:%d", chan);
	req = request_new(&o, 0, done, NULL);
	request_set_line(req, line, strlen(line));
	if (key[0] != '\0')
		request_set_key(req, key, keep);
	if (replay)
		request_set_replayed(req);
	dispatch_submit(b->d, req);
}

/* Runs the loop until want requests were answered; the longest turn in
 * *worst (ns, wall). */
static void
drain(struct bench *b, long want, double *worst)
{
	*worst = 0;
	while (answered < want || !persist_settled(b->p)) {
		double t = bench_now_ns();

		uv_run(&b->loop, UV_RUN_ONCE);
		if (bench_now_ns() - t > *worst)
			*worst = bench_now_ns() - t;
	}
}

static void
burst(const char *top, int n, int chans)
{
	struct bench b;
	struct persist_stats s0, s1;
	char path[700];
	sqlite3 *db;
	double cpu, worst;

	snprintf(b.dir, sizeof(b.dir), "%s/burst-%d-%d", top, n, chans);
	bench_open(&b);
	answered = 0;
	persist_get_stats(b.p, &s0);
	/* Another connection holds the database's write lock while the
	 * requests come, one a loop turn: the commit waits, as behind a
	 * stalled disk, and every request is in flight at the end. */
	snprintf(path, sizeof(path), "%s/" PERSIST_DB_FILE, b.dir);
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		printf("cannot lock %s\n", path);
		exit(1);
	}
	cpu = bench_cpu_ns();
	for (int i = 0; i < n; i++) {
		submit(&b, i % chans, i % 2 == 0 ? "swap" : "peek", "", false);
		uv_run(&b.loop, UV_RUN_NOWAIT);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	drain(&b, n, &worst);
	cpu = bench_cpu_ns() - cpu;
	persist_get_stats(b.p, &s1);
	printf("burst %5d requests over %2d channel%s, the store stalled: %6.2f us of loop CPU "
	       "per request, %llu commits, longest turn %.1f ms\n",
	       n, chans, chans == 1 ? " " : "s", cpu / 1e3 / n,
	       (unsigned long long)(s1.commits - s0.commits), worst / 1e6);
	bench_close(&b);
}

static void
replays(const char *top, int r)
{
	struct bench b;
	struct persist_stats s0, s1;
	char key[64];
	double cpu, worst, sub;

	snprintf(b.dir, sizeof(b.dir), "%s/replay-%d", top, r);
	bench_open(&b);
	answered = 0;
	for (int i = 0; i < r; i++) {
		snprintf(key, sizeof(key), "%d", 1000000 + i);
		submit(&b, i % 50, "swap", key, false);
	}
	drain(&b, r, &worst);
	bench_close(&b);
	bench_open(&b);
	answered = replayed = 0;
	persist_get_stats(b.p, &s0);
	sub = bench_cpu_ns();
	for (int i = 0; i < 2 * r; i++) {
		snprintf(key, sizeof(key), "%d", 1000000 + i);
		submit(&b, i % 50, "swap", key, true);
	}
	cpu = bench_cpu_ns();
	sub = cpu - sub;
	drain(&b, 2 * r, &worst);
	cpu = bench_cpu_ns() - cpu + sub;
	persist_get_stats(b.p, &s1);
	printf("replays of %5d handled + %5d not: %6.2f us of loop CPU per replay, submitting "
	       "%.1f ms, longest turn %.1f ms, %llu reads by key, %ld not run again\n",
	       r, r, cpu / 1e3 / (2 * r), sub / 1e6, worst / 1e6,
	       (unsigned long long)(s1.reads - s0.reads), replayed);
	if (replayed != r)
		printf("  (expected %d not run again)\n", r);
	bench_close(&b);
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int
main(void)
{
	char top[] = "/tmp/bench-replay-XXXXXX";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	for (int n = 1000; n <= 8000; n *= 2) {
		burst(top, n, 1);
		burst(top, n, 50);
	}
	replays(top, 500);
	replays(top, 5000);
	nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
