/*
 * store_pg_restore: puts a snapshot file back into PostgreSQL, for
 * `delver --restore FILE` with [store] backend = postgresql. Blocking: it
 * runs instead of the bot, never on its loop.
 *
 * FILE is an SQLite file with channels and users tables: a snapshot of
 * either backend (the SQLite backend's database or snapshots, or store_pg's
 * snapshots). In one transaction, with both tables locked against writers,
 * every row of FILE replaces the stored one and every stored row that FILE
 * does not hold is deleted; the log entries of every restored channel are
 * FILE's (none when FILE is of delver 0.1, whose records hold their logs).
 * A replaced row's generation is raised, so a
 * shard process still running with an older copy of it is refused on its
 * next write (STORE_CONFLICT) and reads the restored row. Nothing changes
 * unless everything could be restored. With a channel key
 * (`--restore FILE --channel KEY`) only that channel's row is put back, the
 * same way, and every other row stays as it is; a FILE without it is
 * refused.
 */
#ifndef DELVER_STORE_PG_RESTORE_H
#define DELVER_STORE_PG_RESTORE_H

#include <stddef.h>

/* password and channel may be NULL. dir is the state directory (NULL:
 * FILE is read where it is, and must be a database): made as a start makes
 * it when missing, FILE copied into it (expanded when compressed,
 * snapfile.h) and read there, its lock held meanwhile when no delver holds
 * it (one running there keeps it: the shards may keep running).
 * Returns 0 with a summary in err ("restored N channels and M users"), or
 * -1 with one sentence in err. */
int store_pg_restore(const char *conninfo, const char *password, const char *dir, const char *file,
                     const char *channel, char *err, size_t errlen);

#endif
