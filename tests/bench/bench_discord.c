/*
 * bench_discord: the Discord transport against the fake Discord on
 * loopback. Prints, for 1,000, 2,000 and 5,000 interactions a second and
 * for as fast as the fake can send them, the rate answered, the time from
 * the gateway frame received to the interaction callback sent (p50, p99,
 * max: the bot's own time, on the one loop that carries everything), the
 * CPU time per interaction (user + system time of this process from
 * /proc/self/stat over the whole phase, divided by the interactions
 * answered; the system time's share in brackets) and the peak resident memory of the phase (VmHWM,
 * reset before each phase through /proc/self/clear_refs); then the resident memory with 100,000
 * channels active.
 *
 * The machine may be shared: CPU time per interaction does not depend on
 * what else runs, the latencies do (a preempted loop shows as a slow
 * answer), so read those as upper bounds. Each phase also prints how long
 * the loop's thread waited on a run queue for a CPU (schedstat): when that
 * is more than a few ms, the p99 and max are the machine's, not the bot's.
 * To see the bot's own latencies on a busy machine, run it (and so the
 * fake, its child) ahead of the other processes: chrt -f 10 bench_discord.
 *
 * It runs the fake (tools/fake_discord next to this program's directory)
 * as a child and the transport in this process; no assertions. The
 * gateway is compressed (zlib-stream, delver's default) unless
 * DELVER_BENCH_COMPRESS=none is in the environment; the bytes the fake sent
 * are printed either way. With DELVER_BENCH_ONLY=N in the environment only
 * one phase runs, 8 s at N interactions a second (for profilers: perf at
 * 1000, callgrind at a rate it can follow, such as 50).
 */
#include <cJSON.h>
#include <curl/curl.h>
#include <libgen.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "bot/discord/discord.h"
#include "bot/discord/discord_gw.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "tests/bench/bench.h"

#define TOKEN "MTEwMDAwMDAwMDAwMDAwMDAwMQ.bench.token-value"

static pid_t fake_pid = -1;
static int port;
static uv_loop_t *loop;
static uv_timer_t tick;

/* Every command family: gm, help, roll (and its button), tension, fungeon,
 * thwacko, xp. */
static const char templates[] =
    "[{\"data\":{\"type\":1,\"name\":\"gm\",\"options\":[{\"type\":1,\"name\":\"show\"}]}},"
    "{\"data\":{\"type\":1,\"name\":\"help\"}},"
    "{\"data\":{\"type\":1,\"name\":\"roll\",\"options\":[{\"type\":3,\"name\":"
    "\"expression\",\"value\":\"4d6kh3\"},{\"type\":3,\"name\":\"label\",\"value\":"
    "\"Stealth\"}]}},"
    "{\"type\":3,\"data\":{\"custom_id\":\"a:roll 2d20kh1+3\",\"component_type\":2}},"
    "{\"data\":{\"type\":1,\"name\":\"tension\",\"options\":[{\"type\":1,\"name\":"
    "\"show\"}]}},"
    "{\"data\":{\"type\":1,\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":"
    "\"party\"}]}},"
    "{\"data\":{\"type\":1,\"name\":\"thwacko\",\"options\":[{\"type\":1,\"name\":"
    "\"show\"}]}},"
    "{\"data\":{\"type\":1,\"name\":\"xp\"}}]";

/* The 100,000-channel phase: commands that keep no per-channel game state,
 * so the figure is the transport's and the channel records'. (A channel
 * that plays Fungeon or Tension also holds those modules' state.) */
static const char light_templates[] =
    "[{\"data\":{\"type\":1,\"name\":\"gm\",\"options\":[{\"type\":1,\"name\":\"show\"}]}},"
    "{\"data\":{\"type\":1,\"name\":\"roll\",\"options\":[{\"type\":3,\"name\":"
    "\"expression\",\"value\":\"4d6kh3\"}]}},"
    "{\"type\":3,\"data\":{\"custom_id\":\"a:roll 2d20kh1+3\",\"component_type\":2}},"
    "{\"data\":{\"type\":1,\"name\":\"help\"}}]";

static size_t
sink(char *p, size_t size, size_t n, void *ctx)
{
	buf_add(ctx, p, size * n);
	return size * n;
}

/* A blocking control request to the fake (loopback: a millisecond). */
static void
control(const char *path, const char *body)
{
	CURL *e = curl_easy_init();
	struct buf out;
	char url[256];

	buf_init(&out, 1 << 20);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", port, path);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, sink);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &out);
	if (curl_easy_perform(e) != CURLE_OK || strncmp(buf_str(&out), "ok", 2) != 0)
		log_fatalx("control %s failed: %s", path, buf_str(&out));
	curl_easy_cleanup(e);
	buf_free(&out);
}

/* One of the fake's gateway counters (GET /_control/stats). */
static double
gateway_stat(const char *name)
{
	CURL *e = curl_easy_init();
	struct buf out;
	char url[256];
	cJSON *j;
	double v;

	buf_init(&out, 1 << 20);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/_control/stats", port);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, sink);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &out);
	if (curl_easy_perform(e) != CURLE_OK)
		log_fatalx("the fake's statistics did not come");
	j = cJSON_Parse(buf_str(&out));
	v = cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "gateway"), name));
	cJSON_Delete(j);
	curl_easy_cleanup(e);
	buf_free(&out);
	return v;
}

static void
start_fake(const char *argv0)
{
	char dir[4096], fake[4200], portfile[] = "/tmp/bench-discord-XXXXXX";
	int fd = mkstemp(portfile);
	FILE *f;

	if (fd < 0)
		log_fatal("mkstemp");
	close(fd);
	snprintf(dir, sizeof(dir), "%s", argv0);
	snprintf(fake, sizeof(fake), "%s/../tools/fake_discord", dirname(dir));
	fake_pid = fork();
	if (fake_pid == 0) {
		int null = open("/dev/null", 1);

		dup2(null, 1);
		dup2(null, 2);
		execl(fake, fake, "--port-file", portfile, "--token", TOKEN, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200 && port == 0; i++) {
		usleep(20000);
		f = fopen(portfile, "r");
		if (f != NULL) {
			if (fscanf(f, "%d", &port) != 1)
				port = 0;
			fclose(f);
		}
	}
	unlink(portfile);
	if (port == 0)
		log_fatalx("the fake Discord (%s) did not start; run 'make tools'", fake);
}

static void
on_tick(uv_timer_t *t)
{
}

/* Runs the loop until dc has answered, failed or shed target
 * interactions. Returns the seconds it took. */
static double
run_until(struct discord *dc, uint64_t target, double limit)
{
	const struct discord_stats *st = discord_stats(dc);
	uint64_t t0 = uv_hrtime();

	while (st->answered + st->failed + st->shed < target) {
		uv_run(loop, UV_RUN_ONCE);
		if ((double)(uv_hrtime() - t0) / 1e9 > limit) {
			printf("  (stopped waiting after %.0f s: %llu of %llu answered)\n", limit,
			       (unsigned long long)discord_stats(dc)->answered,
			       (unsigned long long)target);
			break;
		}
	}
	return (double)(uv_hrtime() - t0) / 1e9;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* User + system CPU time of this process in microseconds; the system part
 * alone in *sys when sys is not NULL. */
static double
cpu_us_split(double *sys)
{
	FILE *f = fopen("/proc/self/stat", "r");
	char line[2048], *p;
	unsigned long long ut = 0, st = 0;
	int field = 2;

	if (f == NULL || fgets(line, sizeof(line), f) == NULL) {
		if (f != NULL)
			fclose(f);
		return 0;
	}
	fclose(f);
	/* utime and stime are fields 14 and 15, counted after the ')' that
	 * ends the command name (which may hold spaces). */
	p = strrchr(line, ')');
	for (p = p != NULL ? p + 1 : line; *p != '\0' && field < 15; p++) {
		if (*p != ' ')
			continue;
		field++;
		if (field == 14)
			ut = strtoull(p + 1, NULL, 10);
		else if (field == 15)
			st = strtoull(p + 1, NULL, 10);
	}
	if (sys != NULL)
		*sys = (double)st * 1e6 / (double)sysconf(_SC_CLK_TCK);
	return (double)(ut + st) * 1e6 / (double)sysconf(_SC_CLK_TCK);
}

/* A /proc/self/status figure in kB ("VmHWM:", "VmRSS:"), or -1. */
static long
status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, strlen(key)) == 0)
			kb = strtol(line + strlen(key), NULL, 10);
	if (f != NULL)
		fclose(f);
	return kb;
}

/* Starts a new peak-RSS window (Linux 4.0 and later). */
static void
reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	if (f != NULL) {
		fputs("5", f);
		fclose(f);
	}
}

/* Interactions answered, failed or shed so far. */
static uint64_t
handled(struct discord *dc)
{
	const struct discord_stats *st = discord_stats(dc);

	return st->answered + st->failed + st->shed;
}

static void
report(struct discord *dc, const char *what, uint64_t n, uint64_t shed, uint64_t vain, double secs,
       double cpu, double sys, double waited_ns)
{
	size_t k;
	const uint64_t *lat = discord_latencies(dc, &k);
	uint64_t *v = malloc((k ? k : 1) * sizeof(*v));

	memcpy(v, lat, k * sizeof(*v));
	qsort(v, k, sizeof(*v), cmp_u64);
	printf("%-26s %6llu answered (%llu shed, %llu of them worked out) in %6.2f s = %7.0f/s; "
	       "frame to callback: p50 "
	       "%6.1f us, p99 %7.1f us, max %8.1f us; CPU %5.1f us per interaction (%.1f in the "
	       "kernel); peak RSS %.1f MB; waited %.1f ms for a CPU\n",
	       what, (unsigned long long)n, (unsigned long long)shed, (unsigned long long)vain,
	       secs, (double)n / secs, k ? (double)v[k / 2] / 1e3 : 0.0,
	       k ? (double)v[(k * 99) / 100] / 1e3 : 0.0, k ? (double)v[k - 1] / 1e3 : 0.0,
	       n > 0 ? cpu / (double)n : 0.0, n > 0 ? sys / (double)n : 0.0,
	       (double)status_kb("VmHWM:") / 1024, waited_ns / 1e6);
	free(v);
	discord_latencies_reset(dc);
}

static uint64_t
phase(struct discord *dc, const char *what, int count, int rate, int channels, const char *tmpls,
      uint64_t done)
{
	char body[4096];
	double secs, cpu0, cpu1, sys0, sys1, wait0;
	const struct discord_stats *st = discord_stats(dc);
	uint64_t answered0 = st->answered, shed0 = st->shed, failed0 = st->failed,
	         tried0 = st->interactions;

	snprintf(body, sizeof(body),
	         "{\"count\":%d,\"rate\":%d,\"channels\":%d,\"users\":1000,\"templates\":%s}",
	         count, rate, channels, tmpls);
	reset_peak();
	cpu0 = cpu_us_split(&sys0);
	wait0 = bench_runq_wait_ns(NULL);
	control("/_control/interact", body);
	secs = run_until(dc, done + (uint64_t)count, 120);
	cpu1 = cpu_us_split(&sys1);
	/* Shed after their answer was worked out: answers attempted that were
	 * neither accepted nor failed. */
	report(dc, what, st->answered - answered0, st->shed - shed0,
	       (st->interactions - tried0) - (st->answered - answered0) - (st->failed - failed0),
	       secs, cpu1 - cpu0, sys1 - sys0, bench_runq_wait_ns(NULL) - wait0);
	return handled(dc);
}

/* Each loop turn, the store in memory answers what it holds (it has no
 * loop of its own; persist answers from its idle turn alike). */
static void
on_turn(uv_check_t *h)
{
	dispatch_poll(h->data);
}

static long
rss_kb(void)
{
	return status_kb("VmRSS:");
}

int
main(int argc, char **argv)
{
	struct config_discord cfg = {.token = TOKEN, .intents = 1, .shard_count = 1};
	struct state *st = state_new();
	struct rng *rng = rng_new_seeded(1);
	struct dispatch *d = dispatch_new(&(struct dispatch_opts){.state = st, .rng = rng});
	struct discord_opts o = {.cfg = &cfg, .d = d, .record_latency = true};
	uv_check_t turn;
	struct discord *dc;
	char rest[128];
	uint64_t done = 0;
	long rss0, rss1, rss2;
	size_t n1;
	int status;
	const char *mode = getenv("DELVER_BENCH_COMPRESS"), *only = getenv("DELVER_BENCH_ONLY");
	double raw0, wire0;

	if (mode != NULL && strcmp(mode, "none") == 0)
		cfg.compress = DISCORD_COMPRESS_NONE;
	cJSON_Hooks json_hooks = {.malloc_fn = xmalloc, .free_fn = free};

	/* cJSON allocates as in the daemon (bot/main.c), which costs it
	 * realloc when it prints: the figures are the daemon's. */
	cJSON_InitHooks(&json_hooks);
	log_set_level(LOG_LEVEL_ERROR);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	start_fake(argv[0]);
	snprintf(rest, sizeof(rest), "http://127.0.0.1:%d/api/v10", port);
	cfg.rest_url = rest;
	loop = uv_default_loop();
	uv_check_init(loop, &turn);
	turn.data = d;
	uv_check_start(&turn, on_turn);
	uv_timer_init(loop, &tick);
	uv_timer_start(&tick, on_tick, 5, 5);
	dc = discord_start(loop, &o);
	if (dc == NULL)
		log_fatalx("the transport did not start");
	while (discord_gw_state(discord_gateway(dc)) != DISCORD_GW_READY)
		uv_run(loop, UV_RUN_ONCE);
	control("/_control", "lenient on");
	rss0 = rss_kb();
	raw0 = gateway_stat("raw_bytes");
	wire0 = gateway_stat("wire_bytes");
	printf("delver Discord transport against the fake Discord on loopback (%s)\n",
	       cfg.compress == DISCORD_COMPRESS_NONE ? "compress = none" : "zlib-stream");
	if (only != NULL && atoi(only) > 0) {
		phase(dc, "one rate for 8 s", 8 * atoi(only), atoi(only), 50, templates, done);
		goto out;
	}
	done = phase(dc, "1,000/s for 8 s", 8000, 1000, 50, templates, done);
	done = phase(dc, "2,000/s for 6 s", 12000, 2000, 50, templates, done);
	done = phase(dc, "5,000/s for 6 s", 30000, 5000, 50, templates, done);
	rss1 = rss_kb();
	n1 = state_nchannels(st);
	done = phase(dc, "100,000 channels, 8,000/s", 100000, 8000, 100000, light_templates, done);
	rss2 = rss_kb();
	done = phase(dc, "saturating (no pacing)", 30000, 0, 50, templates, done);
	printf("gateway: %.1f MB of payloads sent as %.1f MB (%.1f%%)\n",
	       (gateway_stat("raw_bytes") - raw0) / 1e6, (gateway_stat("wire_bytes") - wire0) / 1e6,
	       100 * (gateway_stat("wire_bytes") - wire0) / (gateway_stat("raw_bytes") - raw0));
	malloc_trim(0);
	printf("resident memory: %.1f MB at ready, %.1f MB after the paced phases (%zu channels), "
	       "%.1f MB with %zu channels and %zu users active; %.1f MB at the end, after the "
	       "unpaced burst and malloc_trim\n",
	       (double)rss0 / 1024, (double)rss1 / 1024, n1, (double)rss2 / 1024,
	       state_nchannels(st), state_nusers(st), (double)rss_kb() / 1024);
out:
	uv_timer_stop(&tick);
	uv_close((uv_handle_t *)&tick, NULL);
	uv_close((uv_handle_t *)&turn, NULL);
	discord_stop(dc, NULL, NULL);
	uv_run(loop, UV_RUN_DEFAULT);
	discord_free(dc);
	kill(fake_pid, SIGTERM);
	waitpid(fake_pid, &status, 0);
	dispatch_free(d);
	state_free(st);
	rng_free(rng);
	return 0;
}
