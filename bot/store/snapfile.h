/*
 * snapfile: snapshot files kept compressed, and read back.
 *
 * A snapshot is a whole copy of the database. Kept as written, the
 * snapshot_keep newest held that many databases; compressed with gzip
 * (zlib at its fastest level), one takes about a tenth of the space (a
 * state of 100,000 channels that play: 579 MB as a database, 55 MB
 * compressed, in 2.6 s of one core). `gunzip` makes it a database again,
 * and `delver --restore` takes either form.
 *
 * Ownership: nothing is kept; paths and buffers are the caller's.
 */
#ifndef DELVER_SNAPFILE_H
#define DELVER_SNAPFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether path begins as a gzip file does. */
bool snapfile_compressed(const char *path);

/*
 * Writes db compressed as gz (through gz.tmp, read back and compared with
 * what was read of db, whole, fsynced, renamed, the directory fsynced;
 * mode 0600), then removes db. Blocking: a thread's
 * work. Returns 0, or -1 with one sentence in err (db is then left as it
 * is and gz is not made).
 */
int snapfile_compress(const char *db, const char *gz, char *err, size_t errlen);

/*
 * For a restore: when file is compressed, writes it expanded into dir as
 * DIR/<its name without .gz>.expanded (mode 0600), names that in out and
 * returns 1 (the caller removes it when done: snapfile_remove); when it is
 * not, returns 0
 * and leaves out alone. Returns -1 with one sentence in err when the
 * expanded copy cannot be made (nothing is left behind).
 */
int snapfile_expand(const char *file, const char *dir, char *out, size_t outlen, char *err,
                    size_t errlen);
/*
 * For a restore: a copy of file in dir, so that reading it never makes a
 * file beside the operator's (SQLite's -wal and -shm) nor needs that
 * directory writable. A compressed file is expanded as snapfile_expand
 * does (returns 1); one that is not is copied as DIR/<its name>.copy, with
 * its -wal beside it when it has one (a log holds commits too) (returns
 * 2). out names the copy; the caller removes it when done
 * (snapfile_remove). Returns -1 with one sentence in err when file cannot
 * be read or is no file (a directory), or when the copy cannot be made
 * (nothing is left behind).
 */
int snapfile_copy_in(const char *file, const char *dir, char *out, size_t outlen, char *err,
                     size_t errlen);
/* Whether path, never through a symbolic link, begins as every SQLite
 * database does, itself or (compressed) once expanded: what counts as a
 * snapshot file. A gzip file of anything else is not one. */
bool snapfile_is_snapshot(const char *path);

/* Says the operator's file where why names its copy plain: each "PLAIN"
 * in why becomes "FILE, once expanded," or, before a colon or at the end,
 * "FILE (once expanded)" ("FILE" when file is not compressed) (why is
 * rewritten in place, cut to len). */
void snapfile_name_original(char *why, size_t len, const char *plain, const char *file);

/* Removes an expanded copy, and the -wal, -shm and -journal files SQLite
 * may have made beside it when it was read or written. */
void snapfile_remove(const char *expanded);
/* Removes only those -wal, -shm and -journal files beside db. */
void snapfile_remove_sides(const char *db);

#endif
