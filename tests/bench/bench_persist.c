/*
 * bench_persist: persistence with a million channels.
 *
 * Builds 1,000,000 channel records (Discord-style keys, a GM on each, from
 * 10,000 users of whom half chose a Thwack-O style), then measures: writing
 * a snapshot, its size, restoring it (all in memory, and with idle channels
 * left on disk), resident memory, and the cost of one journal append under
 * fsync no, everysec and always. A second process then starts as delver
 * does (restoring every channel into memory) and takes a background
 * snapshot while a 1 ms timer records its own lateness and makes one change
 * per tick: the longest stall, how long fork() held the loop, and the
 * loop's preemptions (on a shared machine, lateness also counts time the
 * loop was not scheduled). Prints figures; asserts nothing.
 *
 * BENCH_CHANNELS=N changes the number of channels (default 1000000).
 */
#include <ftw.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "bot/store/persist.h"
#include "bot/store/restore.h"
#include "bot/store/snapshot.h"
#include "rules/base/rng.h"

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

static void
build(struct state *st, long n, int64_t when)
{
	for (int i = 0; i < NUSERS; i++) {
		char key[KEY_MAX], name[NAME_MAX_LEN];
		struct ustyle s = {.colour = (enum ucolour)(i % UC_COUNT), .mark = "⚔"};
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
	}
}

static long long
file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* --- the loop while a background snapshot runs --- */

struct probe {
	uv_timer_t t;
	uint64_t expect_ns;
	double worst_ms;
	long ticks;
	struct persist *p;
	struct state *st;
	long changes;
	long over5;        /* stalls over 5 ms */
	double worst_hook; /* longest persist_channel call, ms */
	double worst_cb;   /* longest probe callback, ms */
};

static void
probe_cb(uv_timer_t *t)
{
	struct probe *pr = t->data;
	uint64_t now = uv_hrtime();
	double late = (double)((int64_t)now - (int64_t)pr->expect_ns) / 1e6;
	struct channel *ch;
	char key[KEY_MAX];

	if (pr->ticks > 0 && late > pr->worst_ms)
		pr->worst_ms = late;
	if (pr->ticks > 0 && late > 5.0)
		pr->over5++;
	pr->ticks++;
	pr->expect_ns = now + 1000000;
	/* Meanwhile the bot answers: one change per millisecond. */
	snprintf(key, sizeof(key), "discord:%llu",
	         1100000000000000000ull + (unsigned long)(pr->ticks % 1000) * 104729);
	ch = state_channel(pr->st, key);
	channel_set_gm(ch, "discord:1", "Busy GM");
	now = uv_hrtime();
	if (persist_channel(ch, pr->p) == 0)
		pr->changes++;
	if ((double)(uv_hrtime() - now) / 1e6 > pr->worst_hook)
		pr->worst_hook = (double)(uv_hrtime() - now) / 1e6;
	if ((double)(uv_hrtime() - pr->expect_ns + 1000000) / 1e6 > pr->worst_cb)
		pr->worst_cb = (double)(uv_hrtime() - pr->expect_ns + 1000000) / 1e6;
}

static void
bench_bgsave(uv_loop_t *loop, struct persist *p, struct state *st)
{
	struct probe pr = {.p = p, .st = st};
	struct persist_stats s;
	struct rusage ru0, ru1;
	double t0;

	uv_timer_init(loop, &pr.t);
	pr.t.data = &pr;
	pr.expect_ns = uv_hrtime() + 1000000;
	uv_timer_start(&pr.t, probe_cb, 1, 1);
	while (pr.ticks < 1000) /* a second without a snapshot, for comparison */
		uv_run(loop, UV_RUN_ONCE);
	printf("loop without a snapshot: longest stall %.2f ms (%ld ticks)\n", pr.worst_ms,
	       pr.ticks);
	pr.worst_ms = pr.worst_hook = pr.worst_cb = 0;
	pr.ticks = pr.changes = pr.over5 = 0;
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = now_ms();
	if (persist_snapshot(p) < 0) {
		printf("background snapshot: could not start\n");
		return;
	}
	while (persist_busy(p))
		uv_run(loop, UV_RUN_ONCE);
	getrusage(RUSAGE_THREAD, &ru1);
	persist_get_stats(p, &s);
	printf("background snapshot: %.0f ms from fork to installed (%llu bytes)\n", now_ms() - t0,
	       (unsigned long long)s.last_bytes);
	printf("  fork() held the loop   %.2f ms\n", s.last_fork_ms);
	printf("  longest loop stall     %.2f ms (1 ms timer lateness, %ld ticks)\n", pr.worst_ms,
	       pr.ticks);
	printf("  stalls over 5 ms       %ld (the loop was preempted %ld times, waited %ld "
	       "times, took %ld page faults)\n",
	       pr.over5, ru1.ru_nivcsw - ru0.ru_nivcsw, ru1.ru_nvcsw - ru0.ru_nvcsw,
	       ru1.ru_minflt - ru0.ru_minflt + ru1.ru_majflt - ru0.ru_majflt);
	printf("  longest probe callback %.2f ms\n", pr.worst_cb);
	printf("  changes answered       %ld while it was written, the longest append %.2f ms\n",
	       pr.changes, pr.worst_hook);
	uv_timer_stop(&pr.t);
	uv_close((uv_handle_t *)&pr.t, NULL);
	uv_run(loop, UV_RUN_NOWAIT);
}

/* --- journal appends --- */

static void
bench_appends(const char *top, enum fsync_policy policy, const char *name, int n)
{
	char dir[512], err[2048];
	struct persist_opts o;
	struct state *st = state_new();
	uv_loop_t loop;
	struct persist *p;
	struct channel *ch;
	double t0;

	snprintf(dir, sizeof(dir), "%s/journal-%s", top, name);
	uv_loop_init(&loop);
	persist_opts_default(&o);
	o.dir = dir;
	o.fsync = policy;
	p = persist_open(&loop, st, &o, err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return;
	}
	ch = state_channel(st, "discord:1100000000000000000");
	t0 = now_ms();
	for (int i = 0; i < n; i++) {
		channel_set_gm(ch, i % 2 ? "discord:1" : "discord:2", "Player");
		persist_channel(ch, p);
	}
	printf("journal append, fsync %-8s %8.2f us per change (%d changes)\n", name,
	       (now_ms() - t0) * 1000.0 / n, n);
	persist_close(p);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	state_free(st);
}

/* The second process: a bot restores the state and snapshots it. */
static int
bot_main(const char *dir)
{
	uv_loop_t *loop = uv_default_loop();
	struct state *st = state_new();
	struct persist_opts o;
	struct persist *p;
	char err[2048];
	double t0 = now_ms();

	persist_opts_default(&o);
	o.dir = dir;
	o.evict_after = 0;
	p = persist_open(loop, st, &o, err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return 1;
	}
	printf("bot started              %.0f ms, %ld MB resident\n", now_ms() - t0, rss_mb());
	bench_bgsave(loop, p, st);
	persist_close(p);
	state_free(st);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *env = getenv("BENCH_CHANNELS");
	long n = env != NULL ? atol(env) : 1000000;
	int64_t when = (int64_t)time(NULL);
	char top[] = "build/bench-persist-XXXXXX", dir[600], path[700], err[2048];
	struct state *st = state_new();
	struct snapshot_stats ss;
	struct restore_result res;
	long rss0 = rss_mb();
	double t0;

	if (argc == 3 && strcmp(argv[1], "--bot") == 0)
		return bot_main(argv[2]);

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	printf("%ld channels, %d users, state in %s\n", n, NUSERS, top);
	t0 = now_ms();
	build(st, n, when);
	printf("built in memory          %.0f ms, %ld MB resident\n", now_ms() - t0,
	       rss_mb() - rss0);

	snprintf(dir, sizeof(dir), "%s/state", top);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/snapshot.dlv", dir);
	t0 = now_ms();
	if (snapshot_write(st, NULL, path, when, 1, &ss, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return 1;
	}
	printf("snapshot write           %.0f ms, %lld bytes (%.0f bytes per record), fsynced\n",
	       now_ms() - t0, file_size(path), (double)file_size(path) / (double)ss.records);
	state_free(st);
	malloc_trim(0);

	rss0 = rss_mb();
	st = state_new();
	t0 = now_ms();
	if (restore_state(st, &(struct restore_opts){.dir = dir, .now = when}, &res, err,
	                  sizeof(err)) < 0) {
		printf("%s\n", err);
		return 1;
	}
	printf("restore, all in memory   %.0f ms, %zu channels, %ld MB resident\n", now_ms() - t0,
	       state_nchannels(st), rss_mb() - rss0);
	state_free(st);
	malloc_trim(0);

	rss0 = rss_mb();
	st = state_new();
	t0 = now_ms();
	if (restore_state(
	        st,
	        &(struct restore_opts){.dir = dir, .now = when + 86400 * 2, .evict_after = 86400},
	        &res, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return 1;
	}
	printf("restore, idle on disk    %.0f ms, %zu in memory, %llu on disk, %ld MB resident\n",
	       now_ms() - t0, state_nchannels(st), (unsigned long long)res.on_disk,
	       rss_mb() - rss0);
	snapshot_close(res.snap);
	state_free(st);
	malloc_trim(0);

	/* A running bot, started afresh as delver starts, every channel in memory. */
	fflush(stdout);
	if (fork() == 0) {
		execl("/proc/self/exe", "bench_persist", "--bot", dir, (char *)NULL);
		_exit(127);
	}
	wait(NULL);

	bench_appends(top, FSYNC_NO, "no", 200000);
	bench_appends(top, FSYNC_EVERYSEC, "everysec", 200000);
	bench_appends(top, FSYNC_ALWAYS, "always", 300);
	nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
