/*
 * fungeon_json: reading the Fungeon channel module's JSON back, one field at
 * a time, each checked against its type and range (shared by the module's
 * reader of today's form and of the form before the room model, in
 * fungeon_save.c and fungeon_save_old.c).
 *
 * Each reader returns 0, or -1 with one sentence in the reader's err
 * ("Fungeon party member: 'hits' is missing or not a whole number in
 * range."). Nothing is allocated but by fungeon_json_zeroed(), whose
 * result the caller owns.
 */
#ifndef DELVER_FUNGEON_JSON_H
#define DELVER_FUNGEON_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/fungeon/fungeon_cost.h"

struct cJSON;

struct fungeon_json {
	char *err;
	size_t errlen;
	const char *where; /* "party member", "trap", ... */
};

/* Writes "Fungeon WHERE: 'key' WHAT." into err and returns -1. */
int fungeon_json_bad(struct fungeon_json *r, const char *key, const char *what);
/* A whole number lo..hi: a JSON number, or (past 2^53, where a double
 * stops being exact) a string of decimal digits. */
int fungeon_json_int(struct fungeon_json *r, const struct cJSON *o, const char *key, int64_t lo,
                     int64_t hi, int64_t *out);
/* Whether v is a JSON number that is a whole number lo..hi (within
 * +-2^53), stored in *out when it is. */
bool fungeon_json_whole(const struct cJSON *v, int64_t lo, int64_t hi, int64_t *out);
int fungeon_json_i(struct fungeon_json *r, const struct cJSON *o, const char *key, int lo, int hi,
                   int *out);
int fungeon_json_bool(struct fungeon_json *r, const struct cJSON *o, const char *key, bool *out);
/* A flag added after the first saved records: absent means false. */
int fungeon_json_opt_bool(struct fungeon_json *r, const struct cJSON *o, const char *key,
                          bool *out);
/* A string of at most size - 1 bytes; with name, a valid name (or "" when
 * empty_ok). */
int fungeon_json_str(struct fungeon_json *r, const struct cJSON *o, const char *key, char *out,
                     size_t size, bool name, bool empty_ok);
/* The same, absent meaning "". */
int fungeon_json_opt_str(struct fungeon_json *r, const struct cJSON *o, const char *key, char *out,
                         size_t size, bool name);
/* A design of kind k in "design", priced again (*cost may be NULL). */
int fungeon_json_design(struct fungeon_json *r, const struct cJSON *o, enum fungeon_kind k,
                        struct fungeon_design *d, int64_t *cost);
/* An array under key of at most max elements (absent: NULL with *n 0 when
 * optional). */
int fungeon_json_array(struct fungeon_json *r, const struct cJSON *o, const char *key, int max,
                       bool optional, const struct cJSON **arr, int *n);

/* n zeroed elements of size bytes, or NULL for none. */
void *fungeon_json_zeroed(int n, size_t size);

/* Adds n to o under key as a number, or as a string of digits past 2^53. */
void fungeon_json_add_int(struct cJSON *o, const char *key, int64_t n);

#endif
