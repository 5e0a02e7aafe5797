/*
 * bench_persist: the SQLite store with many channels.
 *
 * Builds BENCH_CHANNELS channel records (default 100,000; Discord-style
 * keys, a GM on each, from 10,000 users of whom half chose a Thwack-O
 * style; with BENCH_PLAYED=1 each also holds a full roll log and a Tension
 * track that moved 8 times) and commits them in one transaction, then
 * measures: the database's size against the bytes of the records it holds,
 * a start that loads every channel (time, resident memory) and one
 * that leaves idle channels on disk, loading one channel by key,
 * committed changes per second with group commit (commands arrive per loop
 * turn, each reply held until its commit, as the transports run them) with
 * synchronous OFF, NORMAL and FULL and the p50/p99 time from a command to
 * its released reply, and the loop's longest stall while a snapshot file of
 * every channel is written as commands keep coming. Prints figures; asserts
 * nothing.
 *
 * With BENCH_STATE_DIR=DIR: builds the state into DIR and keeps it, with no
 * commit figures; when DIR already holds a database, only the two starts on
 * it (to profile a start: perf record bench_persist).
 */
#include <ftw.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>
#include <uv.h>

#include "bot/store/persist.h"
#include "commands/dice/rollchan.h"
#include "commands/tension/tension_state.h"
#include "rules/base/rng.h"
#include "tests/bench/bench.h"

#define NUSERS 10000

static double
now_ms(void)
{
	return (double)uv_hrtime() / 1e6;
}

static long
rss_mb(void)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	long kb = 0;

	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = strtol(line + 6, NULL, 10);
	if (fp != NULL)
		fclose(fp);
	return kb / 1024;
}

/* What a channel that plays holds: a full roll log (20 rolls of a few
 * players), and a Tension track that moved 8 times. */
static void
play(struct channel *ch, int g, int64_t when)
{
	static const char *const what[] = {"1d20+5 # attack", "2d6+3", "4d6kh3 # stealth", "1d20",
	                                   "8d6 # fireball"};
	static const char *const why[] = {"door", "combat", "quiet-combat", "enemy-escaped"};
	struct rollchan *rc = rollchan_of(ch);
	struct tension_state *ts = tension_state_of(ch);
	char who[NAME_MAX_LEN], result[16];

	for (int k = 0; k < ROLLCHAN_LOG_MAX; k++) {
		snprintf(who, sizeof(who), "Player %d", (g + k % 4) % NUSERS);
		snprintf(result, sizeof(result), "%d", (g * 7 + k * 13) % 30 + 1);
		rollchan_log(rc, when - 600 + k * 30, who, what[k % 5], result);
	}
	for (int k = 0; k < 8; k++)
		tension_event(&ts->track, (enum tension_event)(k % 4), why[k % 4]);
	channel_touch(ch);
}

static bool played; /* BENCH_PLAYED=1: channels that play (play()) */

static void
build(struct state *st, long n, int64_t when)
{
	for (int i = 0; i < NUSERS; i++) {
		char key[KEY_MAX], name[NAME_MAX_LEN];
		struct thwacko_style s = {.colour = (enum ucolour)(i % UC_COUNT), .mark = "⚔"};
		struct user *u;

		snprintf(key, sizeof(key), "discord:%llu",
		         80351110224678912ull + (unsigned)i * 7919);
		snprintf(name, sizeof(name), "Player %d", i);
		u = state_user(st, key);
		user_set_name(u, name);
		if (i % 2 == 0)
			user_set_style(u, &s);
	}
	for (long i = 0; i < n; i++) {
		char key[KEY_MAX], gm[KEY_MAX], name[NAME_MAX_LEN];
		struct channel *ch;
		int g = (int)(i % NUSERS);

		snprintf(key, sizeof(key), "discord:%llu",
		         1100000000000000000ull + (unsigned long)i * 104729);
		snprintf(gm, sizeof(gm), "discord:%llu", 80351110224678912ull + (unsigned)g * 7919);
		snprintf(name, sizeof(name), "Player %d", g);
		ch = state_channel(st, key);
		channel_set_gm(ch, gm, name);
		channel_set_last_used(ch, when - (int64_t)(i % 86400));
		if (played)
			play(ch, g, when);
	}
}

static long long
file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* The bytes of the records the database at path holds: every row's key
 * and record, and its log entries'. */
static double
record_bytes(const char *path)
{
	static const char sql[] =
	    "SELECT (SELECT total(length(key) + length(rec)) FROM channels) + "
	    "(SELECT total(length(key) + length(rec)) FROM users) + "
	    "(SELECT total(length(key) + length(rec)) FROM logs)";
	sqlite3 *db;
	sqlite3_stmt *s;
	double n = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			n = sqlite3_column_double(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return n;
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
touch_all(struct channel *ch, void *ctx)
{
	channel_touch(ch);
}

/* --- commits --- */

/* One command whose reply is held: when it came in, when it was released. */
struct cmd {
	double t0, t1;
	bool done;
};

static void
cmd_done(struct request *req, void *ctx)
{
	struct cmd *c = ctx;

	request_free(req);
	c->t1 = now_ms();
	c->done = true;
}

static const struct command swap_cmd = {.name = "swap", .desc = "s", .fn = bench_swap_gm};
static const struct command *const bench_table[] = {&swap_cmd, NULL};

/* A dispatcher over st whose store is p. */
static struct dispatch *
dispatcher(struct persist *p, struct state *st)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = st, .commands = bench_table});

	dispatch_set_store(d, &persist_store_ops, p);
	return d;
}

/* One command that changes channel i, on its road as a transport
 * submits it. */
static void
command(struct dispatch *d, int i, struct cmd *c)
{
	struct origin o = {.platform = "bench", .user_key = "discord:9", .user_name = "u"};
	struct request *req;

	snprintf(o.chan_key, sizeof(o.chan_key), "discord:%d", i % 5000);
	req = request_new(&o, 0, cmd_done, c);
	request_set_line(req, "swap", 4);
	c->t0 = now_ms();
	dispatch_submit(d, req);
}

/* Opens a fresh store in top/name with the policy; n commands arrive at
 * rate per second (0: as fast as the loop takes them), those of one loop
 * turn and those that come while a commit is in flight going into one
 * transaction; prints committed changes per second, the transactions, and
 * the time from a command to its released reply. */
static void
bench_commits(const char *top, enum fsync_policy policy, const char *name, int n, double rate)
{
	char dir[512], err[2048];
	struct persist_opts o;
	struct state *st = state_new();
	uv_loop_t loop;
	struct persist *p;
	struct persist_stats s0, s1;
	struct dispatch *d;
	struct cmd *cmds = calloc((size_t)n, sizeof(*cmds));
	double *lat = calloc((size_t)n, sizeof(*lat)), t0;
	int sent = 0;
	char offered[32];

	snprintf(dir, sizeof(dir), "%s/commits-%s-%.0f", top, name, rate);
	uv_loop_init(&loop);
	persist_opts_default(&o);
	o.dir = dir;
	o.fsync = policy;
	o.snapshot_on_stop = false;
	p = persist_open(&loop, st, &o, err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return;
	}
	d = dispatcher(p, st);
	persist_get_stats(p, &s0);
	t0 = now_ms();
	while (sent < n || !persist_settled(p)) {
		int due = rate > 0 ? (int)((now_ms() - t0) * rate / 1000.0) + 1 : sent + 100;

		for (; sent < due && sent < n; sent++)
			command(d, sent, &cmds[sent]);
		uv_run(&loop, sent < n ? UV_RUN_NOWAIT : UV_RUN_ONCE);
	}
	t0 = now_ms() - t0;
	persist_get_stats(p, &s1);
	for (int i = 0; i < n; i++)
		lat[i] = cmds[i].t1 - cmds[i].t0;
	qsort(lat, (size_t)n, sizeof(*lat), cmp_double);
	snprintf(offered, sizeof(offered), rate > 0 ? "%.0f/s" : "max", rate);
	printf("group commit %-6s offered %7s: %7.0f changes/s (%llu rows) in %6llu "
	       "transactions, command to reply p50 %.3f ms, p99 %.3f ms\n",
	       name, offered, (double)n / (t0 / 1000.0),
	       (unsigned long long)(s1.appends - s0.appends),
	       (unsigned long long)(s1.commits - s0.commits), lat[n / 2], lat[n * 99 / 100]);
	free(lat);
	free(cmds);
	persist_close(p);
	dispatch_free(d);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	state_free(st);
}

/* Runs loop turns with one command each (and a 0.2 ms pause) while
 * persist_snapshot_busy (snapshot) or for ms milliseconds; returns the longest turn. */
static double
turns(uv_loop_t *loop, struct persist *p, struct dispatch *d, bool snapshot, double ms, int *i)
{
	static struct cmd c[64];
	double worst = 0, end = now_ms() + ms;

	while (snapshot ? persist_snapshot_busy(p) : now_ms() < end) {
		double t;

		command(d, *i, &c[*i % 64]);
		(*i)++;
		t = now_ms();
		uv_run(loop, UV_RUN_NOWAIT);
		if (now_ms() - t > worst)
			worst = now_ms() - t;
		usleep(200);
	}
	while (!persist_settled(p))
		uv_run(loop, UV_RUN_ONCE);
	return worst;
}

/* Opens dir, starts a snapshot file, and keeps commands coming (one per
 * loop turn) until it is written; prints the longest loop turn then, and
 * over as long a time without a snapshot for comparison. */
static void
bench_snapshot_stall(const char *dir)
{
	uv_loop_t loop;
	struct state *st = state_new();
	struct persist_opts o;
	struct persist *p;
	struct persist_stats s;
	struct dispatch *d;
	char err[2048];
	double with, without, t0, took;
	int i = 0, n;

	uv_loop_init(&loop);
	persist_opts_default(&o);
	o.dir = dir;
	o.snapshot_on_stop = false;
	p = persist_open(&loop, st, &o, err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return;
	}
	d = dispatcher(p, st);
	t0 = now_ms();
	if (persist_snapshot(p) < 0) {
		printf("snapshot: cannot start\n");
		return;
	}
	with = turns(&loop, p, d, true, 0, &i);
	took = now_ms() - t0;
	n = i;
	without = turns(&loop, p, d, false, took, &i);
	persist_get_stats(p, &s);
	printf("snapshot file            %.0f ms (worker %.0f ms), %d commands meanwhile; longest "
	       "loop turn %.3f ms (%.3f ms over as long without a snapshot)\n",
	       took, s.last_snapshot_ms, n, with, without);
	persist_close(p);
	dispatch_free(d);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	state_free(st);
}

/* Opens dir as delver starts; prints the time and memory it took. */
static void
bench_start(const char *dir, int evict_after, const char *what)
{
	uv_loop_t loop;
	struct state *st;
	struct persist_opts o;
	struct persist *p;
	char err[2048];
	long rss0;
	double t0;

	malloc_trim(0);
	rss0 = rss_mb();
	uv_loop_init(&loop);
	st = state_new();
	persist_opts_default(&o);
	o.dir = dir;
	o.evict_after = evict_after;
	t0 = now_ms();
	p = persist_open(&loop, st, &o, err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return;
	}
	printf("start, %-17s %6.0f ms, %zu channels in memory, %ld MB resident\n", what,
	       now_ms() - t0, state_nchannels(st), rss_mb() - rss0);
	if (evict_after > 0) {
		struct persist_stats s;

		t0 = now_ms();
		for (int i = 0; i < 1000; i++) {
			char key[KEY_MAX];

			snprintf(key, sizeof(key), "discord:%llu",
			         1100000000000000000ull + (unsigned long)(i * 37) * 104729);
			state_channel(st, key);
		}
		persist_get_stats(p, &s);
		printf("load by key on demand    %.3f ms per channel (%llu loaded)\n",
		       (now_ms() - t0) / 1000.0, (unsigned long long)s.loaded);
	}
	persist_close(p);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	state_free(st);
}

int
main(int argc, char **argv)
{
	const char *env = getenv("BENCH_CHANNELS");
	const char *keep = getenv("BENCH_STATE_DIR");
	long n = env != NULL ? atol(env) : 100000;
	int64_t when = (int64_t)time(NULL);
	char top[] = "build/bench-persist-XXXXXX", dir[600], path[700], err[2048];
	struct state *st = state_new();
	struct persist_opts o;
	struct persist *p;
	uv_loop_t loop;
	long rss0 = rss_mb();
	double t0;
	int failed;

	played = getenv("BENCH_PLAYED") != NULL;
	if (keep != NULL) {
		snprintf(dir, sizeof(dir), "%s", keep);
		snprintf(path, sizeof(path), "%s/" PERSIST_DB_FILE, dir);
		if (file_size(path) > 0) {
			printf("the state in %s\n", dir);
			bench_start(dir, 0, "all in memory");
			bench_start(dir, 1, "idle on disk");
			return 0;
		}
	} else if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	printf("%ld channels, %d users, state in %s\n", n, NUSERS, keep != NULL ? keep : top);
	t0 = now_ms();
	build(st, n, when);
	printf("built in memory          %.0f ms, %ld MB resident\n", now_ms() - t0,
	       rss_mb() - rss0);

	if (keep == NULL)
		snprintf(dir, sizeof(dir), "%s/state", top);
	uv_loop_init(&loop);
	persist_opts_default(&o);
	o.dir = dir;
	o.fsync = FSYNC_ALWAYS;
	/* An empty database opened on the built state: nothing is loaded. */
	p = persist_open(&loop, st, &o, err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return 1;
	}
	state_each_channel(st, touch_all, NULL);
	t0 = now_ms();
	persist_collect(p);
	while (!persist_settled(p))
		uv_run(&loop, UV_RUN_ONCE);
	{
		struct persist_stats s;

		persist_get_stats(p, &s);
		failed = (int)s.append_failures;
	}
	printf("commit every record      %.0f ms in one transaction (%d failed)\n", now_ms() - t0,
	       failed);
	persist_close(p);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	snprintf(path, sizeof(path), "%s/" PERSIST_DB_FILE, dir);
	printf("database                 %lld bytes (%.0f per channel), holding %.0f bytes of "
	       "records (%.2f times)\n",
	       file_size(path), (double)file_size(path) / (double)n, record_bytes(path),
	       (double)file_size(path) / record_bytes(path));
	state_free(st);

	bench_start(dir, 0, "all in memory");
	bench_start(dir, 1, "idle on disk");
	bench_snapshot_stall(dir);

	if (keep != NULL) /* the start figures alone, the state kept */
		return 0;
	bench_commits(top, FSYNC_NO, "OFF", 200000, 0);
	bench_commits(top, FSYNC_EVERYSEC, "NORMAL", 200000, 0);
	bench_commits(top, FSYNC_EVERYSEC, "NORMAL", 40000, 20000);
	bench_commits(top, FSYNC_EVERYSEC, "NORMAL", 2000, 1000);
	bench_commits(top, FSYNC_ALWAYS, "FULL", 200000, 0);
	bench_commits(top, FSYNC_ALWAYS, "FULL", 40000, 20000);
	bench_commits(top, FSYNC_ALWAYS, "FULL", 2000, 1000);
	nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
