/* persist_restore: a snapshot file put in place of the database; see persist_restore.h. */
#include "bot/store/persist_restore.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bot/fsio.h"
#include "bot/log.h"
#include "bot/store/persist_int.h"
#include "bot/store/replaced.h"
#include "bot/store/snapfile.h"
#include "bot/store/statedir.h"
#include "bot/store/store_check.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/mem.h"

/* The sentence of a restore of file (read from its copy db) that found
 * no room in dir for its copy: it needs two copies of the database. */
static void
no_room(const char *dir, const char *file, const char *db, char *err, size_t errlen)
{
	const long long mb = 1024 * 1024;
	struct stat st;
	long long need = stat(db, &st) == 0 ? (2 * (long long)st.st_size + mb - 1) / mb : 0;

	if (need > 0)
		snprintf(err, errlen,
		         "cannot restore %s: the disk of %s is full (the restore needs about "
		         "%lld MB free there, for two copies of the database); nothing was "
		         "changed",
		         file, dir, need);
	else
		snprintf(err, errlen,
		         "cannot restore %s: the disk of %s is full; nothing was changed", file,
		         dir);
}

/* Takes the stop signals (stop) that came while a restore that finished
 * held them: the restore is done, so they stop nothing now, and the exit
 * status says it was done. */
static void
take_stop_signals(const sigset_t *stop, const char *db)
{
	const struct timespec none = {0, 0};
	int sig, taken = 0;

	while ((sig = sigtimedwait(stop, NULL, &none)) > 0)
		taken = sig;
	if (taken > 0)
		log_info("store: %s came while %s was being put in place; the restore finished "
		         "first, so delver exits as after a restore",
		         taken == SIGINT    ? "SIGINT"
		         : taken == SIGTERM ? "SIGTERM"
		                            : "SIGHUP",
		         db);
}

int
persist_restore(const char *dir, const char *file, char *err, size_t errlen)
{
	struct persist *p = xcalloc(1, sizeof(*p));
	char why[8192], tmp[4300], from[4300], to[4400], aside[4300], plain[4400];
	static const char *const parts[] = {"", "-wal", "-shm"};
	bool moved = false, blocked = false;
	int rc = -1, expanded = 0;
	sigset_t stop, mask;

	p->lock_fd = -1;
	snprintf(p->dir, sizeof(p->dir), "%s", dir != NULL ? dir : persist_opts_default_dir());
	if (persist_db_path(p->path, sizeof(p->path), p->dir) < 0) {
		snprintf(err, errlen, "the state directory's name is too long");
		goto out;
	}
	if (persist__open_dir(p, false, err, errlen) < 0)
		goto out;
	/* Read from its copy in the directory (expanded when compressed):
	 * nothing is written beside the operator's file. */
	expanded = snapfile_copy_in(file, p->dir, plain, sizeof(plain), why, sizeof(why));
	if (expanded < 0 || store_check_file(expanded ? plain : file, why, sizeof(why)) < 0) {
		if (expanded > 0)
			snapfile_name_original(why, sizeof(why), plain, file);
		snprintf(err, errlen, "cannot restore: %s; nothing was changed", why);
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.restore-tmp", p->path);
	unlink(tmp);
	if (store_sqlite_copy(expanded ? plain : file, tmp, why, sizeof(why)) < 0) {
		int e = errno;

		snapfile_remove(tmp);
		if (e == ENOSPC)
			no_room(p->dir, file, expanded ? plain : file, err, errlen);
		else {
			if (expanded > 0)
				snapfile_name_original(why, sizeof(why), plain, file);
			snprintf(err, errlen, "cannot restore: %s; nothing was changed", why);
		}
		goto out;
	}
	/* The copy is whole and durable (store_sqlite_copy commits it with
	 * synchronous FULL; its name too) before anything moves: a start that
	 * finds it without delver.db finishes this restore (restore_cut.h).
	 * From here to the install, SIGINT, SIGTERM and SIGHUP wait. */
	if (fsio_fsync_dir(p->dir) < 0) {
		snprintf(err, errlen, "cannot write to %s: %s; nothing was changed", p->dir,
		         strerror(errno));
		unlink(tmp);
		goto out;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	blocked = sigprocmask(SIG_BLOCK, &stop, &mask) == 0;
	/* The database in use (with its log) moves aside, never removed, into
	 * a directory of its own. */
	if (access(p->path, F_OK) == 0) {
		if (replaced_make(aside, sizeof(aside), p->dir, time(NULL)) < 0) {
			snprintf(err, errlen,
			         "cannot create a replaced-TIME directory in %s: %s; nothing was "
			         "changed",
			         p->dir, statedir_strerror(errno));
			unlink(tmp);
			goto out;
		}
		moved = true;
		for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			snprintf(from, sizeof(from), "%s%s", p->path, parts[i]);
			snprintf(to, sizeof(to), "%s/" PERSIST_DB_FILE "%s", aside, parts[i]);
			if (access(from, F_OK) == 0 && fsio_rename(from, to) < 0) {
				snprintf(err, errlen, "cannot move %s to %s: %s", from, aside,
				         strerror(errno));
				goto out;
			}
		}
		fsio_fsync_dir(aside);
	}
	if (fsio_rename(tmp, p->path) < 0 || fsio_fsync_dir(p->dir) < 0) {
		snprintf(err, errlen, "cannot install %s as %s: %s", tmp, p->path, strerror(errno));
		goto out;
	}
	/* Whatever a killed process committed was moved aside: the database
	 * is a snapshot's now. */
	if (ftruncate(p->lock_fd, 0) < 0)
		log_warn("store: cannot empty the lock file of %s", p->dir);
	log_info("store: %s restored from %s%s%s", p->path, file,
	         moved ? "; the database it replaced is in " : "", moved ? aside : "");
	rc = 0;
out:
	if (expanded > 0)
		snapfile_remove(plain);
	if (blocked && rc == 0)
		take_stop_signals(&stop, p->path);
	persist__free(p);
	if (blocked)
		sigprocmask(SIG_SETMASK, &mask, NULL);
	return rc;
}
