/*
 * persist: makes the state durable (after Redis's append-only file plus
 * snapshots, adapted to per-channel records).
 *
 * - Journal: every record the dispatcher reports as changed is appended to
 *   the current journal file before the reply is released. With fsync
 *   "always" the file is fsynced before the hook returns (a reply never
 *   acknowledges what a crash could lose); with "everysec" (the default) a
 *   thread-pool fsync runs once a second; with "no" the kernel decides.
 * - Snapshots: every snapshot_interval seconds when something changed (and
 *   at persist_close), a forked child writes every record to a new file
 *   (bgsave.h); the journal is switched to a new file at the fork, so the
 *   snapshot plus the newer journals always hold everything.
 * - Restore at persist_open (restore.h); bad files refuse the start unless
 *   salvage is set.
 * - Idle channels: a channel untouched for evict_after seconds whose latest
 *   version is in the installed snapshot is dropped from memory and read
 *   back from the snapshot when next used (state_set_loader).
 * - Failures: a failed append or fsync is logged, the hook returns -1 (the
 *   reply then says the change may be lost), the record is remembered and
 *   appended again every second until it succeeds or a snapshot holds it;
 *   a failed snapshot keeps the previous one and is retried after
 *   RETRY_SECONDS (persist.c).
 *
 * Files in the state directory (created 0700; files 0600): snapshot.dlv,
 * journal.<n>.dlv, lock (held with flock while running), and, after
 * --salvage, <file>.bad-<time>.
 *
 * Ownership: persist_open returns a struct persist that persist_close
 * frees; the state must outlive it and is not freed by it.
 */
#ifndef DELVER_PERSIST_H
#define DELVER_PERSIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/config/config.h"
#include "commands/dispatch.h"

struct persist;

struct persist_opts {
	const char *dir;         /* NULL: $STATE_DIRECTORY, else ./state */
	enum fsync_policy fsync; /* default FSYNC_EVERYSEC */
	int snapshot_interval;   /* seconds, 1 to 86400; default 60 */
	int evict_after;         /* idle seconds before a channel may leave memory;
	                            0: never; default 86400 */
	bool salvage;            /* move bad files aside instead of refusing to start */
};

struct persist_stats {
	uint64_t appends;           /* records appended to a journal */
	uint64_t append_failures;   /* appends or fsyncs that failed */
	uint64_t retry_pending;     /* records waiting to be appended again */
	uint64_t snapshots;         /* snapshots installed */
	uint64_t snapshot_failures; /* snapshots that failed */
	uint64_t evicted;           /* channels dropped from memory */
	uint64_t loaded;            /* channels read back on demand */
	uint64_t last_bytes;        /* size of the last snapshot */
	double last_fork_ms;        /* the loop's stall in the last fork */
	double last_total_ms;       /* the last snapshot, from fork to installed */
};

/* Fills o with the defaults (bot/persist_opts.c). */
void persist_opts_default(struct persist_opts *o);
/* The directory when none is given: the first of $STATE_DIRECTORY's
 * ':'-separated entries, else "./state". Static storage. */
const char *persist_default_dir(void);
/* Sets one option from command-line text: name is "state-dir", "fsync",
 * "snapshot-interval" or "evict-after". Returns 0, or -1 with one sentence
 * in err saying what is allowed. value must outlive o. */
int persist_opt(struct persist_opts *o, const char *name, const char *value, char *err,
                size_t errlen);

/*
 * Creates or opens the state directory, takes its lock, restores st (which
 * must be empty) from it and opens a new journal. Returns NULL with err (one
 * message naming the file, line and reason, and what to do) when it cannot;
 * the files are then as they were.
 */
struct persist *persist_open(uv_loop_t *loop, struct state *st, const struct persist_opts *o,
                             char *err, size_t errlen);

/* Points the dispatcher's hooks and the state's loader at p. */
void persist_attach(struct persist *p, struct dispatch *d);

/* The hooks (ctx is the struct persist): append the record; 0, or -1 when
 * it could not be made durable as the policy promises. */
int persist_channel(struct channel *ch, void *ctx);
int persist_user(struct user *u, void *ctx);
/* Persists every touched record, for changes made outside a command (the
 * dispatcher does this itself). Returns the number that failed. */
int persist_flush(struct persist *p);

/* Starts a background snapshot now. Returns 0, or -1 when one is already
 * running or fork failed. */
int persist_snapshot(struct persist *p);
/* True while a background snapshot is running. */
bool persist_busy(const struct persist *p);
/* Drops idle channels now (the timer does it every minute, or every
 * evict_after seconds when that is shorter); returns how many. */
size_t persist_evict(struct persist *p);
void persist_get_stats(const struct persist *p, struct persist_stats *s);

/* Applies new fsync, snapshot_interval and evict_after values at once (the
 * directory and salvage are fixed at open). */
void persist_reconfigure(struct persist *p, const struct persist_opts *o);

/*
 * Closes p: waits for running jobs and a running snapshot, persists what is
 * left, fsyncs the journal, writes a final snapshot (in a forked child, so
 * the loop keeps running) when anything changed since the last one, closes
 * the files, releases the lock and frees p; then calls done(ctx) from the
 * loop. Nothing may use p after the call.
 */
void persist_close_async(struct persist *p, void (*done)(void *ctx), void *ctx);
/* The same, running the loop until it is over: only outside the loop's
 * callbacks (tests, tools). */
void persist_close(struct persist *p);

#endif
