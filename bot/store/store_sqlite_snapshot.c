/* store_sqlite_snapshot: the snapshot files; see store_sqlite_snapshot.h. */
#include "bot/store/store_sqlite_snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/fsio.h"
#include "bot/store/snapfile.h"
#include "bot/store/store_check.h"
#include "bot/store/store_sqlite.h"
#include "bot/store/store_sqlite_int.h"
#include "rules/base/mem.h"

struct snap_job {
	uv_work_t req;
	struct sqlite_backend *b;
	char *src, *path, *tmp, *dir;
	store_done_cb done;
	void *ctx;
	enum store_status status;
	char err[1024];
};

static void
snap_work(uv_work_t *req)
{
	struct snap_job *w = req->data;
	char why[1024];

	w->status = STORE_FAILED;
	unlink(w->tmp);
	if (store_sqlite_copy(w->src, w->tmp, why, sizeof(why)) < 0) {
		snprintf(w->err, sizeof(w->err), "%s", why);
		unlink(w->tmp);
		return;
	}
	/* A copy takes a snapshot's name only once --restore would take it
	 * back (store_check.h). */
	if (store_check_file(w->tmp, why, sizeof(why)) < 0) {
		snprintf(w->err, sizeof(w->err),
		         "the copy failed its check, so it is not kept: %.*s",
		         (int)sizeof(w->err) - 64, why);
		snapfile_remove(w->tmp);
		return;
	}
	/* Reading it (in WAL mode, as its source) left these beside it. */
	snapfile_remove_sides(w->tmp);
	if (fsio_rename(w->tmp, w->path) < 0 || fsio_fsync_dir(w->dir) < 0) {
		snprintf(w->err, sizeof(w->err), "cannot install %s: %s", w->path, strerror(errno));
		unlink(w->tmp);
		return;
	}
	w->status = STORE_OK;
}

static void
snap_done(uv_work_t *req, int status)
{
	struct snap_job *w = req->data;
	struct sqlite_backend *b = w->b;

	(void)status;
	b->snapshots--;
	w->done(w->ctx, w->status, w->status == STORE_OK ? NULL : w->err);
	free(w->src);
	free(w->path);
	free(w->tmp);
	free(w->dir);
	free(w);
	if (b->closing)
		store_sqlite__close_step(b);
}

void
store_sqlite_snapshot(struct store_backend *base, const char *path, store_done_cb done, void *ctx)
{
	struct sqlite_backend *b = (struct sqlite_backend *)base;
	struct snap_job *w = xcalloc(1, sizeof(*w));
	size_t n = strlen(path) + 8;
	const char *slash = strrchr(path, '/');

	w->b = b;
	w->src = xstrdup(b->path);
	w->path = xstrdup(path);
	w->tmp = xmalloc(n);
	snprintf(w->tmp, n, "%s.tmp", path);
	w->dir = slash == NULL ? xstrdup(".") : xstrndup(path, (size_t)(slash - path));
	if (w->dir[0] == '\0') {
		free(w->dir);
		w->dir = xstrdup("/");
	}
	w->done = done;
	w->ctx = ctx;
	w->req.data = w;
	b->snapshots++;
	uv_queue_work(b->base.loop, &w->req, snap_work, snap_done);
}
