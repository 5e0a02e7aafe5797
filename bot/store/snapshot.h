/*
 * snapshot: the file DIR/snapshot.dlv that holds every record at one
 * moment, and the lookups that let idle channels live only there.
 *
 * Layout (record.h has the line format): a header line (with the moment
 * "taken" and "next_journal", the first journal file not folded into it),
 * then every channel record sorted by key (strcmp order), then every user
 * record, then the end line with the number of records. Channels being
 * sorted lets snapshot_find() look one up with a binary search over the
 * file, so a channel evicted from memory costs no memory at all.
 *
 * A snapshot is written to a temporary file, fsynced, then renamed over the
 * old one and the directory fsynced (snapshot_install); only then are the
 * journals it makes obsolete removed. A crash at any point leaves either the
 * old snapshot and every journal since, or the new one: both restore
 * everything.
 */
#ifndef DELVER_SNAPSHOT_H
#define DELVER_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bot/store/store_record.h"
#include "commands/state.h"

#define SNAPSHOT_FILE       "snapshot.dlv"
#define SNAPSHOT_TMP_PREFIX "snapshot.dlv.tmp-"

struct snapshot;

struct snapshot_stats {
	uint64_t records; /* lines written between header and end line */
	uint64_t copied;  /* of those, copied from the base snapshot */
	uint64_t bytes;   /* the file's size */
};

/* DIR/snapshot.dlv, and DIR/snapshot.dlv.tmp-<pid>. Return 0, or -1 when
 * the path does not fit. */
int snapshot_path(char *out, size_t size, const char *dir);
int snapshot_tmp_path(char *out, size_t size, const char *dir, pid_t pid);

/*
 * Writes a snapshot of st into path (which must not exist; mode 0600):
 * every user, every channel in memory that is not empty, and every channel
 * of base (which may be NULL) that st does not hold in memory, copied as
 * it is. Then fsyncs the file. Returns 0, or -1 with err, removing path.
 * Reads st only, so a forked child can run it on its copy of the state.
 */
int snapshot_write(struct state *st, struct snapshot *base, const char *path, int64_t taken,
                   uint64_t next_journal, struct snapshot_stats *stats, char *err, size_t errlen);

/* Renames tmp to DIR/snapshot.dlv, fsyncs DIR, then removes the journals
 * numbered below next_journal. Returns 0, or -1 with err (journals are then
 * kept). */
int snapshot_install(const char *dir, const char *tmp, uint64_t next_journal, char *err,
                     size_t errlen);

/* Opens a snapshot for lookups and as a base: checks its header and its end
 * line (not every line: restore does that). Returns NULL with err. */
struct snapshot *snapshot_open(const char *path, char *err, size_t errlen);
void snapshot_close(struct snapshot *s);
int64_t snapshot_taken(const struct snapshot *s);
uint64_t snapshot_next_journal(const struct snapshot *s);

/* Looks the channel key up. Returns 1 with r decoded (builtin modules; the
 * caller applies or clears it), 0 when the snapshot has no such channel, -1
 * with err when the file cannot be read. */
int snapshot_find(struct snapshot *s, const char *key, struct store_record *r, char *err,
                  size_t errlen);

#endif
