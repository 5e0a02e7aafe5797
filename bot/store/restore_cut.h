/*
 * restore_cut: what a whole-file `--restore` cut short (killed, Ctrl-C,
 * power lost) leaves in a state directory, settled before its database is
 * opened, by the process that holds the directory's lock (persist__open_dir,
 * persist.c: a start or the next --restore).
 *
 * The restore (persist_restore) writes a complete, fsynced copy of the
 * file to delver.db.restore-tmp first, then moves delver.db (then its
 * -wal and -shm) into replaced-TIME (its name: replaced.h), then renames
 * the copy to delver.db.
 * So:
 *   - delver.db missing, the copy whole (no -journal, passes
 *     store_check_file): the restore was cut between its moves; it is
 *     finished (a -wal or -shm still in the directory goes after the
 *     database it belongs to, into the newest replaced-TIME that has a
 *     delver.db without one);
 *   - delver.db there (or the copy not whole): the copy is a leftover of a
 *     restore that had moved nothing, removed;
 *   - the restore's copies of the operator's file (NAME.expanded,
 *     NAME.copy, with -wal, -shm, -journal) and an empty replaced-TIME
 *     are removed.
 * Each step is logged at info.
 */
#ifndef DELVER_RESTORE_CUT_H
#define DELVER_RESTORE_CUT_H

#include <stddef.h>

/*
 * Settles the state directory dir as above. Returns 1 when it finished a
 * cut restore (the database is then a snapshot's), 0 when it had nothing
 * to finish, or -1 with one sentence in err when a cut restore cannot be
 * finished (nothing is then moved).
 */
int restore_cut_settle(const char *dir, char *err, size_t errlen);

#endif
