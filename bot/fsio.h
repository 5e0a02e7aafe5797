/*
 * fsio: the writes, fsyncs, renames and removals of delver's own files (the
 * Discord session file, the moves of the store's files, the snapshot files
 * pruned) go through this one
 * switchable layer, so that tests can make any of them fail (with ENOSPC,
 * EIO, ...) and check that nothing is lost or corrupted. The database's
 * own I/O is SQLite's (tests fault it through a VFS: faultsql.h).
 *
 * The layer is process-wide. fsio_set_ops() must be called while no worker
 * thread is using it (tests call it between steps).
 */
#ifndef DELVER_FSIO_H
#define DELVER_FSIO_H

#include <stddef.h>
#include <sys/types.h>

struct fsio_ops {
	ssize_t (*write)(int fd, const void *p, size_t n);
	int (*fsync)(int fd);
	int (*rename)(const char *from, const char *to);
	int (*unlink)(const char *path);
};

/* Installs ops (copied); NULL restores the system calls, and so does a NULL
 * member for its own call. */
void fsio_set_ops(const struct fsio_ops *ops);

/* Writes all n bytes, continuing after short writes and EINTR. Returns 0,
 * or -1 with errno set; on error some bytes may have been written. */
int fsio_write_all(int fd, const void *p, size_t n);
/* fsync(2), retried on EINTR. Returns 0, or -1 with errno set. */
int fsio_fsync(int fd);
/* rename(2). Returns 0, or -1 with errno set. */
int fsio_rename(const char *from, const char *to);
/* unlink(2). Returns 0, or -1 with errno set. */
int fsio_unlink(const char *path);
/* Makes the creations, renames and removals done in dir so far durable by
 * fsyncing the directory itself. Returns 0, or -1 with errno set. */
int fsio_fsync_dir(const char *dir);

#endif
