/*
 * restore: rebuilds the state from a state directory at start.
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
 *
 * Channels idle for evict_after seconds or more may be left in a current,
 * sorted snapshot instead of memory (res->snap is then kept open for
 * lookups); with evict_after 0, or when that is not possible, every record
 * is loaded.
 */
#ifndef DELVER_RESTORE_H
#define DELVER_RESTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/state.h"

struct snapshot;

struct restore_opts {
	const char *dir;
	bool salvage;
	int64_t now;            /* unix seconds */
	int64_t evict_after;    /* seconds; 0: keep every channel in memory */
	void (*progress)(void); /* called every few thousand records, or NULL */
};

struct restore_result {
	struct snapshot *snap; /* lookups for channels left on disk, or NULL */
	int64_t taken;         /* when the snapshot was taken; 0 without one */
	uint64_t next_journal; /* the number of the journal to write next */
	int64_t clock;         /* the latest time any file mentions */
	uint64_t loaded;       /* records read from the snapshot into memory */
	uint64_t on_disk;      /* channels left in the snapshot */
	uint64_t replayed;     /* journal records replayed */
	uint64_t journals;     /* journal files replayed */
	bool moved_aside;      /* salvage renamed a file */
	bool rewrite;          /* a new snapshot should be written soon */
};

/* Fills the empty state st from o->dir. Returns 0 with res filled (close
 * res->snap when done), or -1 with err. Also removes the temporary files of
 * snapshots that were never finished. */
int restore_state(struct state *st, const struct restore_opts *o, struct restore_result *res,
                  char *err, size_t errlen);

#endif
