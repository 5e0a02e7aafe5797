/*
 * replaced: the names of the replaced-TIME directories of a state
 * directory.
 *
 * A whole-file --restore moves the database it replaces (with its -wal and
 * -shm) into one of these, and delver never removes one that holds a file
 * (persist_restore); a start that finishes a cut restore looks for the
 * newest of them (restore_cut). The name is "replaced-" and TIME, the
 * restore's second in UTC as YYYYMMDDTHHMMSSZ, then "-N" (N from 2) for the
 * second and later restores of one second. This module alone makes and
 * reads those names.
 *
 * Ownership: nothing is kept; paths and buffers are the caller's.
 */
#ifndef DELVER_REPLACED_H
#define DELVER_REPLACED_H

#include <stddef.h>
#include <time.h>

#define REPLACED_STAMP_LEN 16 /* YYYYMMDDTHHMMSSZ */

/*
 * Makes the directory (mode 0700) a restore at now moves the replaced
 * database into, in dir: replaced-TIME, or replaced-TIME-2 and on when that
 * exists, never one that exists. Returns 0 with its path in out, or -1 with
 * errno (ENAMETOOLONG when out is too small, EEXIST when a hundred of one
 * second exist).
 */
int replaced_make(char *out, size_t size, const char *dir, time_t now);

/*
 * Reads name (a directory entry, no path) as a replaced-TIME[-N] name:
 * returns N (1 for none) with TIME in stamp, or -1 when name is not one.
 * Names order by stamp (as strings), then by N.
 */
long replaced_rank(const char *name, char stamp[REPLACED_STAMP_LEN + 1]);

#endif
