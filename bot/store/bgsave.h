/*
 * bgsave: writes a snapshot without stalling the event loop, as Redis's
 * BGSAVE does: the loop forks, the child writes the snapshot from its
 * copy-on-write image of the state and exits, and the loop goes on
 * answering. A timer on the loop reaps the child; the rename into place,
 * the directory fsync and the removal of obsolete journals then run on
 * libuv's thread pool. The loop itself only pays for fork(2). While a save
 * runs its timer keeps the loop alive.
 *
 * The child ignores the signals that stop the bot (a Ctrl-C reaches the
 * whole process group), dies with its parent (PR_SET_PDEATHSIG), and never
 * renames anything: a writer orphaned by a crash cannot replace a newer
 * snapshot. Its temporary file DIR/snapshot.dlv.tmp-<pid> is removed at the
 * next start.
 *
 * Ownership: the caller keeps the state and the base snapshot alive and
 * unchanged in identity (records may change) until done has been called.
 */
#ifndef DELVER_BGSAVE_H
#define DELVER_BGSAVE_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#include "commands/state.h"

struct snapshot;
struct bgsave;

struct bgsave_result {
	bool ok;
	struct snapshot *snap; /* the new snapshot opened for lookups (when asked), or NULL */
	uint64_t bytes;        /* its size */
	double fork_ms;        /* how long fork(2) held the loop */
	double total_ms;       /* from fork to installed */
};

/* Called once on the loop when a started save has ended, well or not. The
 * callee owns res->snap. */
typedef void bgsave_done_fn(void *ctx, const struct bgsave_result *res);

struct bgsave *bgsave_new(uv_loop_t *loop, const char *dir, bgsave_done_fn *done, void *ctx);

/*
 * Forks a writer of st merged with base (may be NULL), with header fields
 * taken and next_journal. keep_fd is closed in the child (the directory
 * lock, which must not outlive the parent). With open_result the installed
 * snapshot is opened for lookups. Returns 0 (done will be called), or -1
 * with errno when fork failed (done will not be called).
 */
int bgsave_start(struct bgsave *b, struct state *st, struct snapshot *base, int64_t taken,
                 uint64_t next_journal, int keep_fd, bool open_result);
bool bgsave_running(const struct bgsave *b);

/* Frees b once libuv has closed its timer; no save may be running. */
void bgsave_free(struct bgsave *b);

#endif
