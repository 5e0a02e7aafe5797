/* persist_snapshot: the periodic snapshot files of the state; see
 * persist.h (Snapshot files). */
#include "bot/store/persist_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>

#include "bot/log.h"
#include "bot/fsio.h"
#include "bot/store/persist_int.h"
#include "bot/store/snapfile.h"
#include "bot/store/statedir.h"
#include "rules/base/mem.h"

#define SNAP_DIR    "snapshots"
#define SNAP_PREFIX "delver-"
#define SNAP_SUFFIX ".db"
#define SNAP_GZ     ".db.gz"

/* Whether name is one persist_snapshot_start gives: the prefix, the UTC
 * time as YYYYMMDDTHHMMSSZ, the suffix (.db.gz; .db as the backend wrote
 * it, or as delver 0.1 kept it). */
static bool
snapshot_name(const char *name)
{
	const char *t = name + strlen(SNAP_PREFIX), *end;

	if (strncmp(name, SNAP_PREFIX, strlen(SNAP_PREFIX)) != 0 ||
	    strlen(t) < strlen("YYYYMMDDTHHMMSSZ"))
		return false;
	end = t + strlen("YYYYMMDDTHHMMSSZ");
	if (strcmp(end, SNAP_SUFFIX) != 0 && strcmp(end, SNAP_GZ) != 0)
		return false;
	for (size_t i = 0; i < strlen("YYYYMMDDTHHMMSSZ"); i++) {
		char want = i == 8 ? 'T' : i == 15 ? 'Z' : 'd';

		if (want == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != want)
			return false;
	}
	return true;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A temporary file of a snapshot (a SQLite copy's, its compressed form's,
 * PostgreSQL's .part), or the -wal, -shm or -journal file that writing or
 * checking one leaves beside it. */
static bool
snapshot_tmp_name(const char *name)
{
	static const char *const ends[] = {".tmp",  ".tmp-wal",      ".tmp-shm",  ".tmp-journal",
	                                   ".part", ".part-journal", ".part-wal", ".part-shm"};
	size_t n = strlen(name);

	if (strncmp(name, SNAP_PREFIX, strlen(SNAP_PREFIX)) != 0)
		return false;
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (n > strlen(ends[i]) && strcmp(name + n - strlen(ends[i]), ends[i]) == 0)
			return true;
	return false;
}

void
persist_snapshot_leftovers(const char *state_dir)
{
	char dir[4300], path[4300 + 300];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/" SNAP_DIR, state_dir);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!snapshot_tmp_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (fsio_unlink(path) == 0)
			log_info("store: removed %s, left by a snapshot that did not finish", path);
	}
	closedir(d);
}

/* Removes the oldest snapshot files past keep (names sort by time), and the
 * temporary files of snapshots that a crash left unfinished (only one
 * snapshot is written at a time). The snapshot just written (just, a file
 * name) is never removed, and a name dated more than a day after now
 * (late: the cutoff "YYYYMMDDTHHMMSSZ") is neither counted nor removed:
 * no clock or file from the future pushes out the real snapshots.
 * Returns how many such names were seen. */
static size_t
prune(const char *dir, int keep, const char *just, const char *late)
{
	size_t future = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4300 + 300];
	size_t n = 0, cap = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (snapshot_tmp_name(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			fsio_unlink(path);
			continue;
		}
		if (!snapshot_name(e->d_name))
			continue;
		if (strncmp(e->d_name + strlen(SNAP_PREFIX), late, strlen("YYYYMMDDTHHMMSSZ")) >
		    0) {
			future++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!snapfile_is_snapshot(path))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (i + (size_t)keep < n && strcmp(names[i], just) != 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			fsio_unlink(path);
		}
		free(names[i]);
	}
	free(names);
	return future;
}

/* The snapshot's compression and the pruning of the snapshot directory,
 * on a thread of libuv's pool: compressing takes seconds for a large
 * state, and removing a file of a million channels that the page cache
 * still holds takes tens of ms, which the loop must not wait. */
struct prune_job {
	uv_work_t req;
	struct persist *p;
	char dir[4200 + 16];
	char db[4200 + 64], gz[4200 + 64];
	int keep;
	int rc;
	char late[32]; /* names dated after this are not counted */
	size_t future; /* such names seen */
	char err[1024];
};

static void
prune_work(uv_work_t *req)
{
	struct prune_job *j = req->data;

	const char *written;

	j->rc = snapfile_compress(j->db, j->gz, j->err, sizeof(j->err));
	written = j->rc < 0 ? j->db : j->gz;
	written = strrchr(written, '/') != NULL ? strrchr(written, '/') + 1 : written;
	j->future = prune(j->dir, j->keep, written, j->late);
}

/* The snapshot is over: the next may start, or the close go on. */
static void
prune_after(uv_work_t *req, int status)
{
	struct prune_job *j = req->data;
	struct persist *p = j->p;

	(void)status;
	/* The snapshot is kept as the backend wrote it. */
	if (j->rc < 0)
		log_warnx("store: %s; the snapshot %s is kept uncompressed", j->err, j->db);
	/* Said once for as long as the same number of such names stays, not
	 * after every snapshot. */
	if (j->future > 0 && j->future != p->snap_future)
		log_warnx("store: %s holds %zu snapshot name%s dated more than a day ahead of "
		          "now; delver neither counts them toward snapshot_keep nor removes them "
		          "(check the clock, or move them away)",
		          j->dir, j->future, j->future == 1 ? "" : "s");
	p->snap_future = j->future;
	free(j);
	p->snapping = false;
	if (p->closing)
		persist__close_step(p);
}

static void
snap_done(void *ctx, enum store_status status, const char *err)
{
	struct persist *p = ctx;
	double ms = (double)(uv_hrtime() - p->snap_t0) / 1e6;
	struct prune_job *j;

	if (status == STORE_OK) {
		p->stats.snapshots++;
		p->stats.last_snapshot_ms = ms;
		log_debug("store: snapshot %s written in %.0f ms", p->snap_path, ms);
		j = xcalloc(1, sizeof(*j));
		j->p = p;
		j->req.data = j;
		snprintf(j->dir, sizeof(j->dir), "%s/" SNAP_DIR, p->dir);
		snprintf(j->db, sizeof(j->db), "%s", p->snap_path);
		snprintf(j->gz, sizeof(j->gz), "%.*s" SNAP_GZ,
		         (int)(strlen(p->snap_path) - strlen(SNAP_SUFFIX)), p->snap_path);
		j->keep = p->o.snapshot_keep > 0 ? p->o.snapshot_keep : 1;
		{
			time_t t = time(NULL) + 86400;
			struct tm tm;

			gmtime_r(&t, &tm);
			strftime(j->late, sizeof(j->late), "%Y%m%dT%H%M%SZ", &tm);
		}
		if (uv_queue_work(p->loop, &j->req, prune_work, prune_after) == 0)
			return; /* snapping until the pruning is done */
		prune_work(&j->req);
		prune_after(&j->req, 0);
		return;
	}
	p->snapping = false;
	p->stats.snapshot_failures++;
	p->unsnapped = true; /* try again at the next interval */
	/* At a stop the lock file keeps saying that the database holds
	 * commits no snapshot holds (persist__close_step), so the next start
	 * writes one even if nothing changes. */
	if (p->closing)
		log_warnx("store: snapshot file: %s; the database is not affected, and the next "
		          "start writes one",
		          err != NULL ? err : "it failed");
	else
		log_warnx("store: snapshot file: %s; the database is not affected, and the next "
		          "one is tried in %d s",
		          err != NULL ? err : "it failed", p->o.snapshot_interval);
	if (p->closing)
		persist__close_step(p);
}

int
persist_snapshot_start(struct persist *p)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32], dir[4200 + 16];

	if (p->snapping)
		return -1;
	snprintf(dir, sizeof(dir), "%s/" SNAP_DIR, p->dir);
	if (statedir_mkdir(dir) < 0) {
		log_warnx("store: cannot create %s: %s", dir, statedir_strerror(errno));
		p->stats.snapshot_failures++;
		return -1;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(p->snap_path, sizeof(p->snap_path), "%s/" SNAP_PREFIX "%s" SNAP_SUFFIX, dir,
	         stamp);
	p->snapping = true;
	p->snap_appends = p->stats.appends;
	p->unsnapped = false;
	p->snap_t0 = uv_hrtime();
	p->be->ops->snapshot(p->be, p->snap_path, snap_done, p);
	return 0;
}

int
persist_snapshot(struct persist *p)
{
	return p->closing ? -1 : persist_snapshot_start(p);
}

bool
persist_snapshot_busy(const struct persist *p)
{
	return p->snapping;
}
