/*
 * store_pg_active: store_pg's load_active (store_backend.h), at start-up:
 * the connection leaves pipeline mode and blocks while every user, then
 * the channels wanted at every start or not known and those used since,
 * each with its log entries, are read (single-row mode: one row in memory
 * at a time) and handed over; then the at_start each record says is
 * stored, and the connection goes back to the pipeline.
 *
 * Nothing outside bot/store/store_pg*.c includes this header.
 */
#ifndef DELVER_STORE_PG_ACTIVE_H
#define DELVER_STORE_PG_ACTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "bot/store/store_backend.h"

/* The backend's load_active. */
int store_pg_active_load(struct store_backend *b, int64_t used_since,
                         int (*row)(const struct store_row *r, void *ctx), void *ctx, char *err,
                         size_t errlen);

#endif
