/*
 * persist_snapshot: the snapshot files of the state (persist.h, Snapshot
 * files): DIR/snapshots/delver-<UTC time>.db, written by the backend off
 * the loop, then compressed into delver-<UTC time>.db.gz and the
 * snapshot_keep newest kept, on a thread of libuv's pool (compressing takes
 * seconds for a large state, and a large file still cached takes tens of
 * ms to remove; the snapshot is busy until both are done).
 *
 * Ownership: p is persist's; nothing here allocates what outlives a call.
 */
#ifndef DELVER_PERSIST_SNAPSHOT_H
#define DELVER_PERSIST_SNAPSHOT_H

#include <stdbool.h>

struct persist;

/* Starts a snapshot file now. Returns 0, or -1 when one is running or delver
 * is closing. */
int persist_snapshot(struct persist *p);
/* True while a snapshot file is being written. */
bool persist_snapshot_busy(const struct persist *p);
/* persist's timer and close: starts one (also while closing). Returns 0, or
 * -1 when one is running or the directory cannot be made (counted, logged). */
int persist_snapshot_start(struct persist *p);

/* Removes from the snapshot directory of the state directory state_dir the
 * temporary files of snapshots that a crash left unfinished (at open: only
 * one snapshot is written at a time, by the one process that holds the
 * lock), each logged. */
void persist_snapshot_leftovers(const char *state_dir);

#endif
