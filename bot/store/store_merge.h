/*
 * store_merge: a reshard on SQLite moves no file by hand.
 *
 * The processes of one bot that each run some of its Discord shards keep
 * their state in sibling directories of one state root (shard_dirs.h), and
 * a reshard moves guilds, hence channels, between them. At start, before
 * anything is loaded, each process takes from every sibling database what
 * is newer there than in its own:
 *
 *  - a channel row whose last_used (the time of its last change: every
 *    written channel carries it) is later than the own copy's, or than the
 *    own record of its deletion, replaces the own copy (at the own
 *    generation + 1, so it is written as any change is);
 *  - a channel's deletion (kept in the table gone, which every delete
 *    writes, store_sqlite.h) later than the own copy removes the own copy,
 *    and is kept as the own deletion;
 *  - a user's row is taken when the own database has none and never
 *    deleted one (a user's row has no time: each process keeps the one it
 *    has, as before).
 *
 * So whichever process owns a channel after a reshard starts from the last
 * change made to it by any of them; the others keep old copies they never
 * use. Each sibling is read in one transaction of the own database, opened
 * read-only (its process may be running); one that cannot be read is
 * logged and skipped.
 */
#ifndef DELVER_STORE_MERGE_H
#define DELVER_STORE_MERGE_H

#include <stddef.h>

/* Takes what is newer in each of the databases from (NULL-terminated) into
 * the database at own (which exists, with the current schema). Returns
 * the number of rows taken, or -1 with one sentence in err when own cannot
 * be written. */
long store_merge(const char *own, char *const *from, char *err, size_t errlen);

#endif
