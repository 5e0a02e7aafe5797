/*
 * json: JSON text of a cJSON tree, written straight into a caller's
 * buffer (the bodies of Discord answers, the store's records, /undo's
 * encodings), as cJSON_PrintUnformatted would write it for cJSON_Parse to
 * read back the same tree, but without its costs: no allocation per piece,
 * and integers (every number delver keeps) written digit by digit rather
 * than through printf's floating point and the sscanf cJSON checks it with.
 *
 * Ownership: nothing is kept; out is the caller's.
 */
#ifndef DELVER_JSON_H
#define DELVER_JSON_H

#include <stddef.h>
#include <stdint.h>

struct buf;
struct cJSON;

/*
 * Appends item as compact JSON text to out: every string (keys too)
 * escaped (the quote, the backslash and the bytes below 0x20), integers
 * exactly, other numbers with 17 significant digits, and a number that is
 * not finite as null. Returns 0, or -1 when out's cap was reached (out then
 * holds a prefix) or the tree holds an invalid or raw node.
 */
int json_write(const struct cJSON *item, struct buf *out);

/*
 * The text json_write makes of item, in a new string the caller frees
 * with free(): what delver sends and keeps is written by json_write alone.
 * NULL when item is NULL or holds an invalid or raw node (nothing delver
 * builds). No cap: the trees are the program's own, bounded by whoever
 * built them; memory runs out as xmalloc says.
 */
char *json_print(const struct cJSON *item);

/* The pieces, for a writer that needs no tree: s as a JSON string (NULL as
 * ""), and v in decimal digits. A full out sets its toobig flag. */
void json_write_string(const char *s, struct buf *out);
/* The same for len bytes at s (a NUL among them is escaped). */
void json_write_string_len(const char *s, size_t len, struct buf *out);
/* The same for a name of the program's own that needs no escape (no byte
 * below 0x20, no quote, no backslash: a module's or a table's name), put
 * between quotes as it is; a name that does need one stops a DELVER_DEBUG
 * build. */
void json_write_name(const char *s, struct buf *out);
void json_write_int(int64_t v, struct buf *out);
/* Appends the string literal lit, JSON text as it stands (a member's
 * quoted name and its colon, a bracket), to out (rules/base/buf.h). */
#define json_write_lit(out, lit) buf_add((out), "" lit, sizeof(lit) - 1)

/*
 * The tree of the text write(p, out) appends (a save() for a module that
 * writes its text without a tree): NULL when write fails or its text is
 * not JSON. The caller frees it with cJSON_Delete.
 */
struct cJSON *json_tree_of(int (*write)(const void *p, struct buf *out), const void *p);

/*
 * Trees built to be written and thrown away (a record's modules, /undo's
 * encodings) are allocated from an arena of the calling thread: cJSON
 * allocates through json_malloc and json_free (cJSON_InitHooks, done by
 * the program), which, between json_scratch_begin() and the matching
 * json_scratch_end(), take memory from the arena and give none back; at
 * the end all of it goes at once. Outside such a window, and for memory
 * not from the arena, they are xmalloc and free. A tree (or a text) made in
 * a window must not be used after it. Windows may nest.
 */
void *json_malloc(size_t n);
void json_free(void *p);
void json_scratch_begin(void);
void json_scratch_end(void);

#endif
