/* bgsave: snapshots written by a forked child; see bgsave.h. */
#include "bot/store/bgsave.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bot/log.h"
#include "bot/store/snapshot.h"
#include "rules/base/mem.h"

#define WATCH_MS 10 /* how often the loop looks for the child's exit */

enum bg_phase {
	BG_IDLE,
	BG_CHILD,      /* the child is writing */
	BG_INSTALLING, /* the thread pool renames and cleans up */
};

struct bgsave {
	uv_loop_t *loop;
	char *dir;
	bgsave_done_fn *done;
	void *ctx;
	uv_timer_t watch;
	uv_work_t work;
	enum bg_phase phase;
	pid_t child;
	char tmp[4096];
	uint64_t next_journal;
	bool open_result;
	uint64_t started_ns;
	struct bgsave_result res;
	char err[1024];
};

/* The child: write the snapshot and exit; never returns. */
static _Noreturn void
child_main(struct bgsave *b, struct state *st, struct snapshot *base, int64_t taken, pid_t parent,
           int keep_fd)
{
	static const int quiet[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE};
	struct sigaction sa;
	sigset_t none;
	char err[1024];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		sigaction(quiet[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	/* Background work: the loop must win the CPU over the writer. */
	if (setpriority(PRIO_PROCESS, 0, 10) < 0)
		log_warn("snapshot writer: cannot lower its priority, so it competes with the "
		         "event loop for the CPU (a service manager's system call filter must "
		         "allow setpriority)");
	if (keep_fd >= 0)
		close(keep_fd);
	snapshot_tmp_path(b->tmp, sizeof(b->tmp), b->dir, getpid());
	if (snapshot_write(st, base, b->tmp, taken, b->next_journal, NULL, err, sizeof(err)) < 0) {
		log_error("snapshot writer: %s", err);
		_exit(1);
	}
	_exit(0);
}

static void
finish(struct bgsave *b)
{
	struct bgsave_result res = b->res;

	res.total_ms = (double)(uv_hrtime() - b->started_ns) / 1e6;
	b->phase = BG_IDLE;
	memset(&b->res, 0, sizeof(b->res));
	b->done(b->ctx, &res);
}

/* Renames the written file into place; runs on the thread pool (or, at
 * shutdown, on the loop's thread). */
static void
install(struct bgsave *b)
{
	char path[4096];
	struct stat sb;

	if (stat(b->tmp, &sb) == 0)
		b->res.bytes = (uint64_t)sb.st_size;
	if (snapshot_install(b->dir, b->tmp, b->next_journal, b->err, sizeof(b->err)) < 0) {
		unlink(b->tmp);
		return;
	}
	b->res.ok = true;
	if (b->open_result && snapshot_path(path, sizeof(path), b->dir) == 0)
		b->res.snap = snapshot_open(path, b->err, sizeof(b->err));
	if (b->open_result && b->res.snap == NULL)
		b->res.ok = false; /* installed, but lookups would fail: say so */
}

static void
install_work(uv_work_t *req)
{
	install(req->data);
}

static void
install_done(uv_work_t *req, int status)
{
	struct bgsave *b = req->data;

	if (!b->res.ok)
		log_warnx("snapshot: %s; the previous snapshot and the journals are kept", b->err);
	finish(b);
}

/* Handles the child's exit status; true when the snapshot is ready. */
static bool
reaped(struct bgsave *b, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (WIFSIGNALED(status))
		log_warnx("snapshot: the writer (pid %ld) was killed by signal %d; the previous "
		          "snapshot and the journals are kept",
		          (long)b->child, WTERMSIG(status));
	else
		log_warnx("snapshot: the writer (pid %ld) failed; the previous snapshot and the "
		          "journals are kept",
		          (long)b->child);
	snapshot_tmp_path(b->tmp, sizeof(b->tmp), b->dir, b->child);
	unlink(b->tmp);
	return false;
}

static void
watch_cb(uv_timer_t *t)
{
	struct bgsave *b = t->data;
	int status;
	pid_t r = waitpid(b->child, &status, WNOHANG);

	if (r == 0 || (r < 0 && errno == EINTR))
		return;
	uv_timer_stop(&b->watch);
	if (r < 0) {
		log_warn("snapshot: cannot wait for the writer (pid %ld)", (long)b->child);
		finish(b);
		return;
	}
	if (!reaped(b, status)) {
		finish(b);
		return;
	}
	snapshot_tmp_path(b->tmp, sizeof(b->tmp), b->dir, b->child);
	b->phase = BG_INSTALLING;
	b->work.data = b;
	if (uv_queue_work(b->loop, &b->work, install_work, install_done) != 0) {
		install(b);
		install_done(&b->work, 0);
	}
}

struct bgsave *
bgsave_new(uv_loop_t *loop, const char *dir, bgsave_done_fn *done, void *ctx)
{
	struct bgsave *b = xcalloc(1, sizeof(*b));

	b->loop = loop;
	b->dir = xstrdup(dir);
	b->done = done;
	b->ctx = ctx;
	uv_timer_init(loop, &b->watch);
	b->watch.data = b;
	return b;
}

int
bgsave_start(struct bgsave *b, struct state *st, struct snapshot *base, int64_t taken,
             uint64_t next_journal, int keep_fd, bool open_result)
{
	sigset_t all, old;
	uint64_t t0;
	pid_t pid, parent = getpid();
	int saved;

	if (b->phase != BG_IDLE) {
		errno = EBUSY;
		return -1;
	}
	b->next_journal = next_journal;
	b->open_result = open_result;
	memset(&b->res, 0, sizeof(b->res));
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	t0 = uv_hrtime();
	pid = fork();
	if (pid == 0)
		child_main(b, st, base, taken, parent, keep_fd);
	saved = errno;
	b->started_ns = uv_hrtime();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		errno = saved;
		return -1;
	}
	b->res.fork_ms = (double)(b->started_ns - t0) / 1e6;
	b->child = pid;
	b->phase = BG_CHILD;
	uv_timer_start(&b->watch, watch_cb, WATCH_MS, WATCH_MS);
	return 0;
}

bool
bgsave_running(const struct bgsave *b)
{
	return b->phase != BG_IDLE;
}

static void
closed_cb(uv_handle_t *h)
{
	struct bgsave *b = h->data;

	free(b->dir);
	free(b);
}

void
bgsave_free(struct bgsave *b)
{
	if (b == NULL)
		return;
	uv_close((uv_handle_t *)&b->watch, closed_cb);
}
