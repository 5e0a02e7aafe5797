/*
 * persist_restore: `delver --restore FILE`, run before (and instead of)
 * the bot: a snapshot file put in place of the database of a state
 * directory, the database it replaces kept aside (replaced.h); a restore
 * cut short is finished by the next start (restore_cut.h).
 */
#ifndef DELVER_PERSIST_RESTORE_H
#define DELVER_PERSIST_RESTORE_H

#include <stddef.h>

/*
 * Replaces the database of dir (NULL: the default) by a copy of file (a
 * snapshot file, or any delver database), for `delver --restore FILE`: file
 * must pass SQLite's quick_check and hold the tables; the database in use
 * and its log move into DIR/replaced-<UTC time>/ (never removed). Takes the
 * directory's lock, so a running delver is refused. SIGINT, SIGTERM and
 * SIGHUP wait while the copy is put in place; when the restore finished,
 * those that came meanwhile are taken (logged), as they stop nothing now.
 * Returns 0, or -1 with one sentence in err (nothing changed unless it
 * says so).
 */
int persist_restore(const char *dir, const char *file, char *err, size_t errlen);

#endif
