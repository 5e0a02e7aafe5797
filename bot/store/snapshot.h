/*
 * snapshot: the file DIR/snapshot.dlv of the store older versions wrote,
 * which delver only reads now (restore.h imports it once).
 *
 * Layout (store_record.h has the line format): a header line (with the moment
 * "taken" and "next_journal", the first journal file not folded into it),
 * then every channel record, then every user record, then the end line
 * with the number of records. A crash of that store could leave
 * DIR/snapshot.dlv.tmp-<pid> files of snapshots never finished.
 */
#ifndef DELVER_SNAPSHOT_H
#define DELVER_SNAPSHOT_H

#include <stddef.h>

#define SNAPSHOT_FILE       "snapshot.dlv"
#define SNAPSHOT_TMP_PREFIX "snapshot.dlv.tmp-"

/* DIR/snapshot.dlv. Returns 0, or -1 when the path does not fit. */
int snapshot_path(char *out, size_t size, const char *dir);

#endif
