/*
 * undo_delta: one saved encoding as a change against the encoding that
 * followed it, so the undo history keeps only the bytes that differ.
 *
 * A delta rebuilds prev from next by a list of operations: copy length
 * bytes from next at an offset, or add literal bytes. Consecutive
 * encodings of one module share most of their bytes (a changed number at
 * the start, an entry added to a list further on), so a delta is a few
 * copies and the few bytes that differ. `after` and `sum` (the length and
 * undo_delta_sum() of next) let undo_delta_apply() refuse an encoding other
 * than the one the delta was made against.
 *
 * In memory the operations are bytes: a number (7 bits a byte, low first)
 * length << 1 | kind, then for a copy (kind 1) the offset as a number, for
 * an add (kind 0) the length bytes. Saved (undo_delta_save()) it is
 *   {"after":L,"sum":H,"ops":[[offset,length],"literal",...]}
 *
 * Ownership: a delta's ops are owned by whoever made it (undo_delta_make()
 * and undo_delta_load() allocate them, undo_delta_free() frees them), unless
 * a caller points them into memory of its own (commands/core/undo.c's steps).
 */
#ifndef DELVER_UNDO_DELTA_H
#define DELVER_UNDO_DELTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

struct buf;

#define UNDO_DELTA_NEXT_MAX (1u << 30) /* bytes of the encoding a delta follows */

struct undo_delta {
	uint8_t *ops; /* the operations (see above) */
	size_t ops_len;
	size_t after; /* next's length */
	uint32_t sum; /* undo_delta_sum() of next */
	bool whole;   /* ops only add: they rebuild prev whatever follows (no check) */
};

/* A 32-bit FNV-1a sum of len bytes at s. */
uint32_t undo_delta_sum(const char *s, size_t len);

/* Makes d (ops allocated), the delta that rebuilds prev (plen bytes) from
 * next (nlen bytes). */
void undo_delta_make(const char *prev, size_t plen, const char *next, size_t nlen,
                     struct undo_delta *d);
/* Makes d (ops allocated) hold prev whole, fitting any next. */
void undo_delta_make_whole(const char *prev, size_t plen, struct undo_delta *d);

/* Rebuilds prev from next (nlen bytes) into *out (malloc'd, NUL-terminated,
 * *out_len bytes). Returns 0, or -1 when next is not the encoding d was
 * made against (its length or sum differ) or an operation reaches past it. */
int undo_delta_apply(const struct undo_delta *d, const char *next, size_t nlen, char **out,
                     size_t *out_len);

/* Appends the saved form of a delta that is not whole to out; returns 0,
 * or -1 when out's cap was reached. */
int undo_delta_write(const struct undo_delta *d, struct buf *out);
/* The same as a tree (caller owns it). */
cJSON *undo_delta_save(const struct undo_delta *d);
/* Reads a saved delta into d (ops allocated). Returns 0, or -1 with one
 * sentence in err naming what (a module's name) is wrong. */
int undo_delta_load(const cJSON *o, const char *what, struct undo_delta *d, char *err,
                    size_t errlen);

/* Frees d's ops (made by undo_delta_make*() or undo_delta_load()). */
void undo_delta_free(struct undo_delta *d);

#endif
