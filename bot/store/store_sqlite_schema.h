/*
 * store_sqlite_schema: the database file of store_sqlite: its tables
 * (store_sqlite.h) and the statements the writer prepares on them; a new
 * file made whole under a temporary name; an existing one checked
 * (quick_check, its mode: statedir.h) before anything writes to it and
 * brought from an older schema; and the three connections opened.
 *
 * Nothing outside bot/store/store_sqlite*.c includes this header.
 */
#ifndef DELVER_STORE_SQLITE_SCHEMA_H
#define DELVER_STORE_SQLITE_SCHEMA_H

#include <stddef.h>

struct sqlite_backend;

/* Opens b->path (created when missing) at the current schema: the
 * writing connection with its statements prepared, the read-only one and
 * the checkpoints' one. Returns 0, or -1 with one sentence in err and
 * b->fail the errno store_sqlite_open gives; what was opened is b's, freed
 * with it. */
int store_sqlite_schema_open(struct sqlite_backend *b, char *err, size_t errlen);

#endif
