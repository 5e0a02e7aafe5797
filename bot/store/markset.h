/*
 * markset: which marks of handled platform events (STORE_HANDLED, see
 * persist.h) a store may hold, for a persist that is the only writer of its
 * store (SQLite): a replayed event whose key the set does not hold was
 * never marked, and runs without a read.
 *
 * - Members: the 64-bit hashes of the keys (keyset.h), each with the time
 *   its mark was made, oldest first in the order added (the store's marks
 *   at open, then those made since). Two keys may share a hash: a false
 *   "may hold" only costs a read whose answer is "not marked".
 * - markset_expire(before): the marks made before that time are gone from
 *   the store (its expiry deleted their rows); they leave the set.
 * - Bounded: past MARKSET_MAX members the oldest leave early. The set then
 *   no longer holds every mark stored, and markset_may_hold says true for
 *   every key until an expiry has passed the newest mark that left.
 * - Answers: what was kept with some marks (those the store held at open,
 *   the newest first, MARKSET_ANSWER_BYTES in all at most), by key, so the
 *   replays that follow a restart find them without a read. They leave
 *   with the expiry too.
 *
 * Ownership: markset_new returns a set that markset_free frees; out of
 * memory aborts (rules/base/mem.h).
 */
#ifndef DELVER_MARKSET_H
#define DELVER_MARKSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MARKSET_MAX          65536u        /* members kept */
#define MARKSET_ANSWER_BYTES (512u * 1024) /* memory for answers, keys included */

struct markset;

struct markset *markset_new(void);
void markset_free(struct markset *s);

/* A mark of key made at `at` is stored or being stored: the newest member
 * (past MARKSET_MAX, the oldest leaves). */
void markset_add(struct markset *s, const char *key, int64_t at);
/* The same as the oldest member (the store's marks read newest first);
 * past MARKSET_MAX it is not kept, as markset_lost says. */
void markset_add_older(struct markset *s, const char *key, int64_t at);
/* A mark made at `at` may be stored but is not a member: the set holds
 * every mark stored only once an expiry passes `at`. */
void markset_lost(struct markset *s, int64_t at);
/* The marks made before `before` are no longer stored. */
void markset_expire(struct markset *s, int64_t before);
/* False only when no mark of key is stored. */
bool markset_may_hold(const struct markset *s, const char *key);
/* Whether the set holds every mark stored. */
bool markset_complete(const struct markset *s);
size_t markset_count(const struct markset *s);

/* Keeps a copy of the answer stored with the mark of key (made at `at`),
 * unless the answers kept (with their keys) would pass
 * MARKSET_ANSWER_BYTES: returns whether it was kept. */
bool markset_keep_answer(struct markset *s, const char *key, int64_t at, const char *answer,
                         size_t len);
/* The answer kept for key (len bytes), or NULL. */
const char *markset_answer(const struct markset *s, const char *key, size_t *len);

#endif
