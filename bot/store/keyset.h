/*
 * keyset: a set of records by the 64-bit hash of their id ("c:KEY",
 * "u:KEY"), in an open-addressing table: 16 bytes or less per member.
 *
 * Two ids may share a hash (about one pair in 2^64 / n): a caller uses the
 * set where a false "member" only costs work it would have done anyway
 * (persist: a read of a record that turns out to be absent), never where
 * it would cost a result.
 *
 * Ownership: keyset_new() returns a set that keyset_free() frees; out of
 * memory aborts (rules/base/mem.h).
 */
#ifndef DELVER_KEYSET_H
#define DELVER_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct keyset;

struct keyset *keyset_new(void);
void keyset_free(struct keyset *s);

/* The hash of the record of that kind ('c' or 'u') and key. */
uint64_t keyset_hash(char kind, const char *key);

void keyset_add(struct keyset *s, uint64_t h);
void keyset_remove(struct keyset *s, uint64_t h);
bool keyset_has(const struct keyset *s, uint64_t h);
size_t keyset_count(const struct keyset *s);

#endif
