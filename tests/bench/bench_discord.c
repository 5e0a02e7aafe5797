/*
 * bench_discord: delver as a server runs it, against the fake Discord on
 * loopback.
 *
 * It starts the fake (tools/fake_discord next to this program's directory)
 * and the daemon (delver, next to that directory) as children, the daemon
 * with a configuration of defaults: a state directory of its own (the
 * SQLite store, fsync everysec, snapshots every 60 s), the compressed
 * gateway (zlib-stream; compress = none with DELVER_BENCH_COMPRESS=none in
 * the environment), dice seeded (--seed 1); DELVER_BENCH_FSYNC=no or
 * always sets fsync instead. Then, phase by phase, the fake
 * sends interactions at a steady rate and this program prints, for the
 * daemon:
 * - how many were answered within Discord's 3 s (the fake's count), and
 *   how many the daemon shed;
 * - its own handling time, from the gateway frame received to the
 *   callback sent (p50, p99, max: the "discord stats:" line it logs on
 *   SIGUSR1, sent before and after the phase);
 * - its CPU time per interaction answered (user + system of every thread,
 *   /proc/PID/stat; the kernel's share in brackets);
 * - its peak resident memory in the phase (VmHWM, reset through
 *   /proc/PID/clear_refs), and how long its threads waited on a run queue
 *   for a CPU (schedstat): when that is more than a few ms, the p99 and max
 *   are the machine's, not the daemon's.
 *
 * The phases: the mix (below) at 1,000, 2,000 and 5,000 a second; each of
 * /roll (over eight expressions), /tension show and /tension raise alone at
 * 1,000 a second; the mix at 5,000 a second beside a CPU-bound process (a
 * child of this program that spins for the phase), which is what a shared
 * machine does to the daemon; the fake as fast as it can send; and
 * 100,000 channels. At the end it prints the size of the state directory's files.
 *
 * The mix, 18 templates in turn: 10 change a channel's state (/roll over
 * eight expressions, a roll button, /tension raise by the GM), 8 do not
 * (/tension show twice, /gm show twice, /help, /xp, /fungeon party,
 * /thwacko show).
 *
 * CPU time per interaction depends little on what else runs, the
 * latencies do (a preempted daemon shows as a slow answer): read those as
 * upper bounds. To see the daemon's own latencies on a busy machine, run
 * this program ahead of the others: chrt -f 10 bench_discord (the daemon
 * and the fake inherit it; the CPU-bound child drops to SCHED_OTHER, as a
 * server's other programs run, unless DELVER_BENCH_BURNER=rt keeps it
 * real-time, where it holds a whole core).
 *
 * For profilers: DELVER_BENCH_ONLY=N runs one phase at N a second, of 8 s
 * or DELVER_BENCH_SECONDS (DELVER_BENCH_ONLY=max: the saturating phase alone):
 * the mix, or the template DELVER_BENCH_MIX=roll|show|raise names alone,
 * over 50 channels or DELVER_BENCH_CHANNELS. DELVER_BENCH_WRAP="valgrind
 * --tool=callgrind ..." starts the daemon under that command (words split
 * at spaces; the command must keep the daemon's process id, as valgrind
 * does). Two such runs at two rates give the instructions per interaction:
 * the difference of their totals over the difference of their counts.
 * DELVER_BENCH_CALLGRIND=1 (with DELVER_BENCH_ONLY) runs the daemon under
 * callgrind, warms it up with one phase, then counts the instructions of a
 * second one alone (callgrind_control) and prints them per interaction.
 * DELVER_BENCH_KEEP=1 keeps the temporary directory (the daemon's log and
 * state). No assertions beyond the daemon staying up and its answers
 * holding what each template expects.
 */
#include <cJSON.h>
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rules/base/buf.h"
#include "tests/bench/bench.h"

#define TOKEN      "MTEwMDAwMDAwMDAwMDAwMDAwMQ.bench.token-value"
#define TOKEN_ENV  "DELVER_BENCH_TOKEN"
#define WRAP_WORDS 32

static pid_t fake_pid = -1, bot_pid = -1;
static int port;
static char work[] = "/tmp/bench-discord-XXXXXX";
static char bot_log[sizeof(work) + 16];
static unsigned stats_lines; /* "discord stats:" lines seen in bot_log */

#define ROLL(expr)                                                                                 \
	"{\"data\":{\"type\":1,\"name\":\"roll\",\"options\":[{\"type\":3,\"name\":"               \
	"\"expression\","                                                                          \
	"\"value\":\"" expr "\"}]},\"expect\":\"rolls\"}"
#define EIGHT_ROLLS                                                                                \
	ROLL("1d20")                                                                               \
	"," ROLL("2d6+3") "," ROLL("4d6kh3") "," ROLL("1d20+5") "," ROLL("3d8") "," ROLL(          \
	    "1d100") "," ROLL("2d20kh1") "," ROLL("8d6")
#define TENSION_SHOW                                                                               \
	"{\"data\":{\"type\":1,\"name\":\"tension\",\"options\":[{\"type\":1,\"name\":\"show\"}]}" \
	","                                                                                        \
	"\"expect\":\"Tension\"}"
#define TENSION_RAISE                                                                              \
	"{\"data\":{\"type\":1,\"name\":\"tension\",\"options\":[{\"type\":1,\"name\":\"raise\","  \
	"\"options\":[{\"type\":3,\"name\":\"event\",\"value\":\"door\"}]}]},"                     \
	"\"gm_role\":true,\"expect\":\"Tension\"}"

/* The interactions of each phase, as the fake's templates (its "expect":
 * text each answer must hold, so a refusal is not counted as the command's
 * work). */
static const char mix[] =
    "[" EIGHT_ROLLS ","
    "{\"type\":3,\"data\":{\"custom_id\":\"a:roll 2d20kh1+3\",\"component_type\":2},"
    "\"expect\":\"rolls\"}," TENSION_RAISE "," TENSION_SHOW "," TENSION_SHOW ","
    "{\"data\":{\"type\":1,\"name\":\"gm\",\"options\":[{\"type\":1,\"name\":\"show\"}]},"
    "\"expect\":\"GM\"},"
    "{\"data\":{\"type\":1,\"name\":\"help\"},\"expect\":\"delver\"},"
    "{\"data\":{\"type\":1,\"name\":\"xp\"},\"expect\":\"XP\"},"
    "{\"data\":{\"type\":1,\"name\":\"fungeon\",\"options\":[{\"type\":1,\"name\":\"party\"}]},"
    "\"expect\":\"party\"},"
    "{\"data\":{\"type\":1,\"name\":\"thwacko\",\"options\":[{\"type\":1,\"name\":\"show\"}]},"
    "\"expect\":\"Thwack-O\"},"
    "{\"data\":{\"type\":1,\"name\":\"gm\",\"options\":[{\"type\":1,\"name\":\"show\"}]},"
    "\"expect\":\"GM\"}]";
static const char rolls[] = "[" EIGHT_ROLLS "]";
static const char show_only[] = "[" TENSION_SHOW "]";
static const char raise_only[] = "[" TENSION_RAISE "]";

static void
fatal(const char *what)
{
	fprintf(stderr, "bench_discord: %s (kept %s)\n", what, work);
	if (bot_pid > 0)
		kill(bot_pid, SIGKILL);
	if (fake_pid > 0)
		kill(fake_pid, SIGKILL);
	exit(1);
}

static size_t
sink(char *p, size_t size, size_t n, void *ctx)
{
	buf_add(ctx, p, size * n);
	return size * n;
}

/* One request to the fake (loopback: a millisecond): body NULL is a GET.
 * Returns its answer (the caller frees it). */
static char *
fake_call(const char *path, const char *body)
{
	CURL *e = curl_easy_init();
	struct buf out;
	char url[256];

	buf_init(&out, 64u << 20);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", port, path);
	curl_easy_setopt(e, CURLOPT_URL, url);
	if (body != NULL)
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, sink);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &out);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, 60L);
	if (curl_easy_perform(e) != CURLE_OK)
		fatal("the fake Discord does not answer (its log: DELVER_BENCH_KEEP=1 keeps it)");
	curl_easy_cleanup(e);
	buf_add(&out, "", 1);
	return buf_take(&out);
}

static void
control(const char *path, const char *body)
{
	char *a = fake_call(path, body);

	if (strncmp(a, "ok", 2) != 0) {
		fprintf(stderr, "bench_discord: control %s: %s\n", path, a);
		fatal("a control request failed");
	}
	free(a);
}

/* One of the fake's statistics: "interactions.answered", "gateway.ready". */
static double
fake_stat(const char *path)
{
	char *a = fake_call("/_control/stats", NULL), name[64];
	const char *dot = strchr(path, '.');
	cJSON *j = cJSON_Parse(a), *v;
	double d;

	snprintf(name, sizeof(name), "%.*s", (int)(dot - path), path);
	v = cJSON_GetObjectItem(cJSON_GetObjectItem(j, name), dot + 1);
	d = cJSON_IsBool(v) ? (double)cJSON_IsTrue(v) : cJSON_GetNumberValue(v);
	cJSON_Delete(j);
	free(a);
	return d;
}

/* First answers that held their template's "expect", over every channel. */
static double
answers_ok(void)
{
	char *a = fake_call("/_control/channels", NULL);
	cJSON *j = cJSON_Parse(a), *c;
	double ok = 0;

	cJSON_ArrayForEach(c, j) ok += cJSON_GetNumberValue(cJSON_GetObjectItem(c, "ok"));
	cJSON_Delete(j);
	free(a);
	return ok;
}

static char *
sibling(const char *argv0, const char *rel)
{
	char dir[4096], *out = malloc(4200);

	snprintf(dir, sizeof(dir), "%s", argv0);
	snprintf(out, 4200, "%s/../%s", dirname(dir), rel);
	return out;
}

static void
start_fake(const char *argv0)
{
	char *fake = sibling(argv0, "tools/fake_discord"), portfile[sizeof(work) + 8];
	char log[sizeof(work) + 16];
	FILE *f;

	snprintf(portfile, sizeof(portfile), "%s/port", work);
	snprintf(log, sizeof(log), "%s/fake.log", work);
	fake_pid = fork();
	if (fake_pid == 0) {
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(out, 1);
		dup2(out, 2);
		execl(fake, fake, "--port-file", portfile, "--token", TOKEN, "--heartbeat", "40000",
		      (char *)NULL);
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
	if (port == 0)
		fatal("the fake Discord did not start; run 'make tools'");
	free(fake);
}

static void
start_bot(const char *argv0)
{
	char *delver = sibling(argv0, "delver"), conf[sizeof(work) + 16], *argv[WRAP_WORDS + 8];
	char wrap[1024];
	const char *mode = getenv("DELVER_BENCH_COMPRESS"), *w = getenv("DELVER_BENCH_WRAP");
	const char *fsync = getenv("DELVER_BENCH_FSYNC");
	int n = 0;
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/delver.conf", work);
	snprintf(bot_log, sizeof(bot_log), "%s/delver.log", work);
	f = fopen(conf, "w");
	if (f == NULL)
		fatal("cannot write the configuration");
	fprintf(f,
	        "[bot]\nstate_dir = %s/state\ngm_role = Game Master\nfsync = %s\n[discord]\n"
	        "token_source = env:" TOKEN_ENV "\nrest_url = http://127.0.0.1:%d/api/v10\n"
	        "stats_interval = 0\n",
	        work,
	        fsync != NULL && (strcmp(fsync, "no") == 0 || strcmp(fsync, "always") == 0)
	            ? fsync
	            : "everysec",
	        port);
	if (mode != NULL && strcmp(mode, "none") == 0)
		fprintf(f, "compress = none\n");

	fclose(f);
	if (getenv("DELVER_BENCH_CALLGRIND") != NULL)
		snprintf(
		    wrap, sizeof(wrap),
		    "valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=%s/cg.out",
		    work);
	else
		snprintf(wrap, sizeof(wrap), "%s", w != NULL ? w : "");
	for (char *s = wrap; *s != '\0' && n < WRAP_WORDS;) {
		char *end = s + strcspn(s, " ");

		if (end > s)
			argv[n++] = s;
		if (*end == '\0')
			break;
		*end = '\0';
		s = end + 1;
	}
	argv[n++] = delver;
	argv[n++] = "--config";
	argv[n++] = conf;
	argv[n++] = "--seed";
	argv[n++] = "1";
	argv[n] = NULL;
	setenv(TOKEN_ENV, TOKEN, 1);
	bot_pid = fork();
	if (bot_pid == 0) {
		int in = open("/dev/null", O_RDONLY),
		    log = open(bot_log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(in, 0);
		dup2(log, 1);
		dup2(log, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (int i = 0; i < 600; i++) {
		if (fake_stat("gateway.ready") == 1 && fake_stat("rest.registrations") >= 1)
			break;
		if (waitpid(bot_pid, &(int){0}, WNOHANG) == bot_pid) {
			bot_pid = -1;
			fatal("delver exited at start; see its log (DELVER_BENCH_KEEP=1 keeps it)");
		}
		usleep(50000);
	}
	free(delver);
}

/* A number of /proc/PID/FILE: the field-th ("a b c": 1 is a). */
static unsigned long long
proc_field(pid_t pid, const char *file, int field)
{
	char path[64], line[2048], *p;
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "r");
	if (f == NULL || fgets(line, sizeof(line), f) == NULL) {
		if (f != NULL)
			fclose(f);
		return 0;
	}
	fclose(f);
	/* In stat, fields are counted after the ')' that ends the command
	 * name (which may hold spaces): that is field 2. */
	p = strrchr(line, ')');
	if (p != NULL) {
		p++;
		field -= 2;
	} else {
		p = line;
		field--;
	}
	while (field-- > 0 && p != NULL) {
		p = strchr(p, ' ');
		p = p != NULL ? p + 1 : NULL;
	}
	if (p != NULL)
		v = strtoull(p, NULL, 10);
	return v;
}

/* User + system CPU time of the daemon (every thread) in microseconds; the
 * system part in *sys. */
static double
bot_cpu_us(double *sys)
{
	double tck = (double)sysconf(_SC_CLK_TCK);
	unsigned long long ut = proc_field(bot_pid, "stat", 14),
	                   st = proc_field(bot_pid, "stat", 15);

	*sys = (double)st * 1e6 / tck;
	return (double)(ut + st) * 1e6 / tck;
}

/* Nanoseconds the daemon's threads have waited on a run queue. */
static double
bot_runq_ns(void)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	double ns = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)bot_pid);
	d = opendir(path);
	while (d != NULL && (e = readdir(d)) != NULL) {
		char f[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(f, sizeof(f), "task/%s/schedstat", e->d_name);
		ns += (double)proc_field(bot_pid, f, 2);
	}
	if (d != NULL)
		closedir(d);
	return ns;
}

/* A /proc/PID/status figure in kB ("VmHWM:", "VmRSS:"), or -1. */
static long
bot_status_kb(const char *key)
{
	char path[64], line[256];
	FILE *f;
	long kb = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)bot_pid);
	f = fopen(path, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, strlen(key)) == 0)
			kb = strtol(line + strlen(key), NULL, 10);
	if (f != NULL)
		fclose(f);
	return kb;
}

/* Starts a new peak-RSS window of the daemon (Linux 4.0 and later). */
static void
bot_reset_peak(void)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/clear_refs", (int)bot_pid);
	f = fopen(path, "w");
	if (f != NULL) {
		fputs("5", f);
		fclose(f);
	}
}

/* What the daemon's "discord stats:" line says. */
struct bot_stats {
	unsigned long long answered, shed, failed; /* since it started */
	unsigned long long n, p50, p99, max;       /* handling times since the last line, us */
};

static unsigned long long
number_after(const char *line, const char *word)
{
	const char *p = strstr(line, word);

	return p != NULL ? strtoull(p + strlen(word), NULL, 10) : 0;
}

/* SIGUSR1 to the daemon, then its stats line (which starts a new window of
 * handling times). */
static void
bot_stats(struct bot_stats *s)
{
	char line[2048];
	unsigned seen = 0;

	kill(bot_pid, SIGUSR1);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(bot_log, "r");

		seen = 0;
		while (f != NULL && fgets(line, sizeof(line), f) != NULL)
			if (strstr(line, "discord stats:") != NULL && ++seen > stats_lines)
				break;
		if (f != NULL)
			fclose(f);
		if (seen > stats_lines)
			break;
		usleep(10000);
	}
	if (seen <= stats_lines)
		fatal("no stats line from delver after SIGUSR1");
	stats_lines = seen;
	s->answered = number_after(line, "interactions answered ");
	s->shed = number_after(line, "shed ");
	s->failed = number_after(line, "failed ");
	s->n = number_after(line, "handling time over ");
	s->p50 = number_after(line, "p50 ");
	s->p99 = number_after(line, "p99 ");
	s->max = number_after(line, "max ");
}

/* A child that spins until killed: a CPU-bound neighbour, scheduled as a
 * server's other programs are (SCHED_OTHER, nice 0) even when this program
 * runs under a real-time policy (chrt), unless DELVER_BENCH_BURNER=rt: then
 * it keeps the inherited policy and, never yielding, holds a whole core. */
static pid_t
start_spinner(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		volatile unsigned long x = 0;
		const char *b = getenv("DELVER_BENCH_BURNER");

		if ((b == NULL || strcmp(b, "rt") != 0) &&
		    (sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){0}) != 0 ||
		     setpriority(PRIO_PROCESS, 0, 0) != 0))
			_exit(1);
		for (;;)
			x++;
	}
	return pid;
}

/* The scheduling of the spinner, as printed with the phase. */
static const char *
spinner_policy(void)
{
	const char *b = getenv("DELVER_BENCH_BURNER");

	if (b != NULL && strcmp(b, "rt") == 0 && sched_getscheduler(0) != SCHED_OTHER)
		return "the spinner real-time like this program: a whole core";
	return "the spinner SCHED_OTHER, nice 0";
}

/* Runs one phase: count interactions at rate a second (0: as fast as the
 * fake can) over channels channels, from templates (a JSON array), beside
 * a spinning process when busy. Returns the daemon's peak RSS in kB. */
static long
phase(const char *what, int count, int rate, int channels, const char *templates, bool busy)
{
	size_t blen = strlen(templates) + 256;
	char *body = malloc(blen);
	struct bot_stats s0, s1;
	double cpu0, cpu1, sys0, sys1, wait0, t0, secs, ok0 = 0, ok = 0, in_time;
	bool check = channels <= 1000;
	pid_t spin = -1;
	long peak;

	snprintf(body, blen,
	         "{\"count\":%d,\"rate\":%d,\"channels\":%d,\"users\":1000,\"templates\":%s}",
	         count, rate, channels, templates);
	if (check)
		ok0 = answers_ok();
	bot_stats(&s0);
	control("/_control", "mark");
	if (busy)
		spin = start_spinner();
	bot_reset_peak();
	cpu0 = bot_cpu_us(&sys0);
	wait0 = bot_runq_ns();
	t0 = bench_now_ns();
	control("/_control/interact", body);
	for (;;) {
		usleep(20000);
		if (fake_stat("interactions.left_to_inject") == 0 &&
		    fake_stat("interactions.mark_answered") +
		            fake_stat("interactions.mark_unanswered") >=
		        count)
			break;
		if ((bench_now_ns() - t0) / 1e9 > 60) {
			printf(
			    "  (stopped waiting after 60 s: the fake counts %.0f answered in time, "
			    "%.0f late, %.0f unanswered, %.0f left to send)\n",
			    fake_stat("interactions.mark_answered"),
			    fake_stat("interactions.mark_late"),
			    fake_stat("interactions.mark_unanswered"),
			    fake_stat("interactions.left_to_inject"));
			break;
		}
		if (waitpid(bot_pid, &(int){0}, WNOHANG) == bot_pid) {
			bot_pid = -1;
			fatal("delver exited during a phase");
		}
	}
	secs = (bench_now_ns() - t0) / 1e9;
	cpu1 = bot_cpu_us(&sys1);
	peak = bot_status_kb("VmHWM:");
	if (spin > 0) {
		kill(spin, SIGKILL);
		waitpid(spin, NULL, 0);
	}
	in_time = fake_stat("interactions.mark_answered");
	bot_stats(&s1);
	/* A deferred interaction counts as answered in time at its deferral;
	 * what it says comes with the edit that completes it, later. */
	for (int i = 0; check && i < 100; i++) {
		ok = answers_ok() - ok0;
		if (ok >= in_time)
			break;
		usleep(100000);
	}
	printf("%-30s %6.0f of %d answered in time (%.2f%%; %llu shed) in %6.2f s = %6.0f/s; "
	       "handling: p50 %5llu us, p99 %6llu us, max %7llu us; CPU %6.1f us per interaction "
	       "(%.1f in the kernel); peak RSS %.1f MB; waited %.1f ms for a CPU\n",
	       what, in_time, count, 100 * in_time / count, s1.shed - s0.shed, secs, in_time / secs,
	       s1.p50, s1.p99, s1.max, in_time > 0 ? (cpu1 - cpu0) / in_time : 0,
	       in_time > 0 ? (sys1 - sys0) / in_time : 0, (double)peak / 1024,
	       (bot_runq_ns() - wait0) / 1e6);
	if (busy)
		printf("  (%s; this program %s)\n", spinner_policy(),
		       sched_getscheduler(0) == SCHED_OTHER ? "SCHED_OTHER" : "real-time");
	if (check && ok < in_time) {
		printf("  (%.0f answers did not hold what their command should say)\n",
		       in_time - ok);
		fatal("the daemon did not do what the phase asks of it");
	}
	free(body);
	return peak;
}

/* Bytes of the files in dir and below. */
static double
du(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	double total = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char path[4096];
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &sb) != 0)
			continue;
		total += S_ISDIR(sb.st_mode) ? du(path) : (double)sb.st_size;
	}
	if (d != NULL)
		closedir(d);
	return total;
}

static double
file_size(const char *rel)
{
	char path[4096];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/state/%s", work, rel);
	return stat(path, &sb) == 0 ? (double)sb.st_size : 0;
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
stop_all(void)
{
	int status;

	if (bot_pid > 0) {
		kill(bot_pid, SIGTERM);
		waitpid(bot_pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fprintf(stderr, "bench_discord: delver ended with status %d\n", status);
	}
	kill(fake_pid, SIGTERM);
	waitpid(fake_pid, &status, 0);
}

/* Runs callgrind_control with one option on the daemon. */
static void
callgrind_control(const char *opt, const char *arg)
{
	char pid[16];
	pid_t c;
	int status;

	snprintf(pid, sizeof(pid), "%d", (int)bot_pid);
	c = fork();
	if (c == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		if (arg != NULL)
			execlp("callgrind_control", "callgrind_control", opt, arg, pid,
			       (char *)NULL);
		else
			execlp("callgrind_control", "callgrind_control", opt, pid, (char *)NULL);
		_exit(127);
	}
	if (c < 0 || waitpid(c, &status, 0) != c || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fatal("callgrind_control failed");
}

/* The instructions of the daemon's first callgrind dump (its "totals:"). */
static double
callgrind_total(void)
{
	char path[sizeof(work) + 16], line[512];
	double total = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cg.out.1", work);
	f = fopen(path, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "totals:", 7) == 0)
			total = strtod(line + 7, NULL);
	if (f != NULL)
		fclose(f);
	return total;
}

int
main(int argc, char **argv)
{
	const char *only = getenv("DELVER_BENCH_ONLY"), *which = getenv("DELVER_BENCH_MIX");
	double raw0, wire0;
	char snaps[sizeof(work) + 32];
	long rss;

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mkdtemp(work) == NULL)
		fatal("cannot make a temporary directory");
	curl_global_init(CURL_GLOBAL_DEFAULT);
	start_fake(argv[0]);
	start_bot(argv[0]);
	control("/_control", "lenient on");
	raw0 = fake_stat("gateway.raw_bytes");
	wire0 = fake_stat("gateway.wire_bytes");
	printf("delver (the daemon: SQLite store, fsync everysec, %s gateway) against the fake "
	       "Discord on loopback; resident memory at ready %.1f MB\n",
	       getenv("DELVER_BENCH_COMPRESS") != NULL &&
	               strcmp(getenv("DELVER_BENCH_COMPRESS"), "none") == 0
	           ? "uncompressed"
	           : "zlib-stream",
	       (double)bot_status_kb("VmRSS:") / 1024);
	if (only != NULL && strcmp(only, "max") == 0) {
		phase("saturating (no pacing)", 30000, 0, 50, mix, false);
		goto out;
	}
	if (only != NULL && atoi(only) > 0) {
		const char *t = which == NULL                 ? mix
		                : strcmp(which, "roll") == 0  ? rolls
		                : strcmp(which, "show") == 0  ? show_only
		                : strcmp(which, "raise") == 0 ? raise_only
		                                              : mix;

		const char *chans = getenv("DELVER_BENCH_CHANNELS");

		int n = chans != NULL && atoi(chans) > 0 ? atoi(chans) : 50;
		const char *secs = getenv("DELVER_BENCH_SECONDS");
		int len = secs != NULL && atoi(secs) > 0 ? atoi(secs) : 8;

		if (getenv("DELVER_BENCH_CALLGRIND") != NULL) {
			double before = fake_stat("interactions.answered");

			phase("warming up", len * atoi(only), atoi(only), n, t, false);
			callgrind_control("-i", "on");
			before = fake_stat("interactions.answered");
			phase("one rate", len * atoi(only), atoi(only), n, t, false);
			callgrind_control("-i", "off");
			callgrind_control("-d", NULL);
			printf("callgrind: %.0f instructions per interaction answered\n",
			       callgrind_total() / (fake_stat("interactions.answered") - before));
			goto out;
		}
		phase("one rate", len * atoi(only), atoi(only), n, t, false);
		goto out;
	}
	phase("mix, 1,000/s for 8 s", 8000, 1000, 50, mix, false);
	phase("mix, 2,000/s for 6 s", 12000, 2000, 50, mix, false);
	phase("mix, 5,000/s for 6 s", 30000, 5000, 50, mix, false);
	phase("/roll alone, 1,000/s", 8000, 1000, 50, rolls, false);
	phase("/tension show alone, 1,000/s", 8000, 1000, 50, show_only, false);
	phase("/tension raise alone, 1,000/s", 8000, 1000, 50, raise_only, false);
	phase("mix, 5,000/s, CPU-bound beside", 20000, 5000, 50, mix, true);
	/* Before the 100,000 channels: the fake's count of the answers that
	 * held what they should (answers_ok) goes over every channel it knows
	 * for every interaction, minutes once it knows 100,000. */
	phase("saturating (no pacing)", 30000, 0, 50, mix, false);
	rss = phase("100,000 channels, 5,000/s", 100000, 5000, 100000, rolls, false);
	printf("gateway: %.1f MB of payloads sent as %.1f MB (%.1f%%)\n",
	       (fake_stat("gateway.raw_bytes") - raw0) / 1e6,
	       (fake_stat("gateway.wire_bytes") - wire0) / 1e6,
	       100 * (fake_stat("gateway.wire_bytes") - wire0) /
	           (fake_stat("gateway.raw_bytes") - raw0));
	snprintf(snaps, sizeof(snaps), "%s/state/snapshots", work);
	printf("resident memory: %.1f MB at the peak of the 100,000-channel phase, %.1f MB now; "
	       "state: delver.db %.1f MB, its WAL %.1f MB, snapshots %.1f MB\n",
	       (double)rss / 1024, (double)bot_status_kb("VmRSS:") / 1024,
	       file_size("delver.db") / 1e6, file_size("delver.db-wal") / 1e6, du(snaps) / 1e6);
out:
	stop_all();
	if (getenv("DELVER_BENCH_KEEP") == NULL) {
		if (nftw(work, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
			fprintf(stderr, "bench_discord: could not remove %s\n", work);
	} else {
		printf("kept %s\n", work);
	}
	return 0;
}
