/* restore_cut: the leftovers of a cut --restore; see restore_cut.h. */
#include "bot/store/restore_cut.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/fsio.h"
#include "bot/log.h"
#include "bot/store/persist.h"
#include "bot/store/replaced.h"
#include "bot/store/snapfile.h"
#include "bot/store/store_check.h"

static bool
ends_with(const char *name, const char *end)
{
	size_t n = strlen(name), m = strlen(end);

	return n > m && strcmp(name + n - m, end) == 0;
}

static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* A copy --restore (or --restore --channel) made of the operator's file
 * (snapfile_copy_in), or a side file of one. */
static bool
copy_name(const char *name)
{
	static const char *const ends[] = {".expanded",         ".expanded-wal", ".expanded-shm",
	                                   ".expanded-journal", ".copy",         ".copy-wal",
	                                   ".copy-shm",         ".copy-journal"};

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (ends_with(name, ends[i]))
			return true;
	return false;
}

/* Removes the copies of cut restores and their empty replaced-TIME
 * directories from dir; into best (size 4300) the newest replaced-TIME
 * holding a delver.db, or "" when none. */
static void
sweep(const char *dir, char *best)
{
	char path[4600], stamp[REPLACED_STAMP_LEN + 1], best_stamp[REPLACED_STAMP_LEN + 1] = "";
	long rank, best_rank = 0;
	struct dirent *e;
	DIR *d;

	best[0] = '\0';
	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (copy_name(e->d_name)) {
			if (fsio_unlink(path) == 0)
				log_info(
				    "store: removed %s, left by a --restore that did not finish",
				    path);
			continue;
		}
		if ((rank = replaced_rank(e->d_name, stamp)) < 0)
			continue;
		/* Only an empty directory goes: rmdir removes nothing else. */
		if (rmdir(path) == 0) {
			log_info("store: removed the empty directory %s, left by a --restore "
			         "that did not finish",
			         path);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/" PERSIST_DB_FILE, dir, e->d_name);
		if (!exists(path))
			continue;
		if (best[0] == '\0' || strcmp(stamp, best_stamp) > 0 ||
		    (strcmp(stamp, best_stamp) == 0 && rank > best_rank)) {
			snprintf(best, 4300, "%s/%s", dir, e->d_name);
			memcpy(best_stamp, stamp, sizeof(best_stamp));
			best_rank = rank;
		}
	}
	closedir(d);
}

/* Finishes the restore whose copy tmp was cut before it took db's name:
 * the replaced database's -wal and -shm still in dir join it in aside. */
static int
finish(const char *dir, const char *db, const char *tmp, const char *aside, char *err,
       size_t errlen)
{
	static const char *const sides[] = {"-wal", "-shm"};
	char from[4500], to[4500];

	for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(from, sizeof(from), "%s%s", db, sides[i]);
		if (!exists(from))
			continue;
		if (aside[0] == '\0') {
			snprintf(
			    err, errlen,
			    "%s holds the finished copy of a --restore that was cut short, "
			    "but %s (the log of the database it replaced) has no replaced-TIME "
			    "directory to go to; move %s away, then start again",
			    dir, from, from);
			return -1;
		}
		snprintf(to, sizeof(to), "%s/" PERSIST_DB_FILE "%s", aside, sides[i]);
		if (exists(to)) {
			snprintf(err, errlen,
			         "%s holds the finished copy of a --restore that was cut short, "
			         "but both %s and %s exist, so which database %s belongs to is not "
			         "known; move it away, then start again",
			         dir, from, to, from);
			return -1;
		}
		if (fsio_rename(from, to) < 0) {
			snprintf(err, errlen, "cannot move %s to %s: %s", from, aside,
			         strerror(errno));
			return -1;
		}
	}
	if (aside[0] != '\0')
		fsio_fsync_dir(aside);
	/* Reading the copy for its check left its -wal and -shm beside it. */
	snapfile_remove_sides(tmp);
	if (fsio_rename(tmp, db) < 0 || fsio_fsync_dir(dir) < 0) {
		snprintf(err, errlen, "cannot install %s as %s: %s", tmp, db, strerror(errno));
		return -1;
	}
	log_info("store: %s restored: the --restore that made it was cut short after it had "
	         "moved the database it replaced%s%s, so this start finished it",
	         db, aside[0] != '\0' ? " into " : "", aside);
	return 1;
}

int
restore_cut_settle(const char *dir, char *err, size_t errlen)
{
	char db[4300], tmp[4400], journal[4500], aside[4300], why[4096];

	if (snprintf(db, sizeof(db), "%s/" PERSIST_DB_FILE, dir) >= (int)sizeof(db)) {
		snprintf(err, errlen, "the state directory's name is too long");
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.restore-tmp", db);
	snprintf(journal, sizeof(journal), "%s-journal", tmp);
	sweep(dir, aside);
	if (!exists(tmp)) {
		if (exists(journal) && fsio_unlink(journal) == 0)
			log_info("store: removed %s, left by a --restore that did not finish",
			         journal);
		return 0;
	}
	/* The copy is whole once its journal is gone (a commit of SQLite's
	 * deletes it) and it reads as a delver database. */
	if (!exists(db) && !exists(journal) && store_check_file(tmp, why, sizeof(why)) >= 0)
		return finish(dir, db, tmp, aside, err, errlen);
	snapfile_remove(tmp);
	log_info("store: removed %s, left by a --restore cut before it changed anything", tmp);
	return 0;
}
