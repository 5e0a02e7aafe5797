/*
 * persist_opts: the persistence options (state directory, fsync policy,
 * snapshots, eviction) from their defaults and command-line text. The
 * struct is a plain value the caller owns; the strings it points to (dir)
 * are the caller's and must outlive it.
 */
#ifndef DELVER_PERSIST_OPTS_H
#define DELVER_PERSIST_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "bot/config/config.h"

/* The default stop_reach_ms: with the stop snapshot after it, within the
 * store's stop limit (120 s) and systemd's TimeoutStopSec (90 s). */
#define PERSIST_STOP_REACH_MS 60000

struct persist_opts {
	const char *dir;         /* NULL: $STATE_DIRECTORY, else ./state */
	enum fsync_policy fsync; /* default FSYNC_EVERYSEC */
	int snapshot_interval;   /* seconds between snapshot files, 1 to 86400; default 60 */
	int snapshot_keep;       /* snapshot files kept, 1 to 10000; default 24 */
	int evict_after;         /* idle seconds before a channel may leave memory;
	                            0: never; default 86400 */
	bool snapshot_on_stop;   /* a snapshot file at close, after the last commit
	                            (when anything was committed since the last one);
	                            default true */
	unsigned stop_reach_ms;  /* at close, with changes not saved: how long they are
	                            tried again, each round once the server is reached
	                            (store_backend.h reach), before they are given up;
	                            default 60000 */
	char *const *merge_from; /* SQLite: other shard processes' databases, whose newer
	                            records are taken before loading (store_merge.h);
	                            NULL-terminated, or NULL */
};

/* Fills o with the defaults. */
void persist_opts_default(struct persist_opts *o);
/* The directory when none is given: the first of $STATE_DIRECTORY's
 * ':'-separated entries, else "./state". Static storage. */
const char *persist_opts_default_dir(void);
/* Sets one option from command-line text: name is "state-dir", "fsync",
 * "snapshot-interval" or "evict-after". Returns 0, or -1 with one sentence
 * in err saying what is allowed. value must outlive o. */
int persist_opts_parse(struct persist_opts *o, const char *name, const char *value, char *err,
                       size_t errlen);

#endif
