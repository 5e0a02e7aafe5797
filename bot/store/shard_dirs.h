/*
 * shard_dirs: where each process of a sharded bot keeps its state.
 *
 * All the processes of one bot on one machine share a state root ([bot]
 * state_dir, else $STATE_DIRECTORY, else ./state). A process that runs
 * every shard of its count (the default: one process, the count from
 * Discord) keeps its state in the root itself; a process that runs a part
 * of them keeps it in a subdirectory named after its shards: shard-N for
 * one shard, shards-FIRST-LAST for a range. The others' directories are its
 * siblings: on SQLite their databases are read at start (see
 * store_sqlite_merge), so a reshard finds every channel wherever it was
 * kept.
 *
 * Ownership: every returned string and array is the caller's
 * (shard_dirs_free for arrays).
 */
#ifndef DELVER_SHARD_DIRS_H
#define DELVER_SHARD_DIRS_H

#include <stdbool.h>

/* Whether a process running shards first..last (-1: all) of count (0:
 * auto, which means all) runs every shard. */
bool shard_dirs_all(int first, int last, int count);

/* The state directory of such a process under root. */
char *shard_dirs_own(const char *root, int first, int last, int count);

/* The databases (DIR/delver.db) of every other state directory under root
 * that has one: root itself unless it is own, and its shard-* and shards-*
 * subdirectories other than own, in name order. A NULL-terminated array,
 * empty when root cannot be read. */
char **shard_dirs_siblings(const char *root, const char *own);

void shard_dirs_free(char **list);

#endif
