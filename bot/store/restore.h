/*
 * restore: reads a state directory of the journal-and-snapshot store of
 * older versions into memory, for persist's one-time import into the
 * database (persist_import.c's persist_import_old). It reads only: it never writes a
 * state file.
 *
 * Loads DIR/snapshot.dlv, then replays the journal files numbered from the
 * snapshot's next_journal up, in order; the last record of a key wins.
 * Every line is checked (checksum, JSON, fields, module states). A torn last
 * line of a journal (a crash in mid-write) is dropped with a warning naming
 * the file and byte offset. Any other bad line, a missing end line or a
 * format version newer than this program refuses the whole restore with one
 * message naming file, line and reason, and leaves every file untouched.
 *
 * With salvage set, each bad line is skipped with a warning instead, and
 * every file that had one is renamed to <name>.bad-<UTC time> (never
 * removed) once what it held that was readable is loaded.
 */
#ifndef DELVER_RESTORE_H
#define DELVER_RESTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/state.h"

struct restore_opts {
	const char *dir;
	bool salvage;
	int64_t now; /* unix seconds */
};

struct restore_result {
	int64_t taken;     /* when the snapshot was taken; 0 without one */
	int64_t clock;     /* the latest time any file mentions */
	uint64_t loaded;   /* records read from the snapshot */
	uint64_t replayed; /* journal records replayed */
	uint64_t journals; /* journal files replayed */
	bool moved_aside;  /* salvage renamed a file */
};

/* Fills the empty state st with every record of o->dir. Returns 0 with res
 * filled, or -1 with err. Also removes the temporary files of snapshots
 * that were never finished. */
int restore_state(struct state *st, const struct restore_opts *o, struct restore_result *res,
                  char *err, size_t errlen);

#endif
