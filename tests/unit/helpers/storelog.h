/*
 * storelog: the contract a store backend keeps for a channel's log
 * (bot/store/store_backend.h), checked the same way on each backend.
 */
#ifndef DELVER_TEST_STORELOG_H
#define DELVER_TEST_STORELOG_H

#include <uv.h>

#include "bot/store/store_backend.h"

/*
 * Runs the checks on b (a backend open on loop, its tables holding no
 * channel whose key starts with prefix): entries appended with a record and
 * alone, the newest log_keep kept, read back in order; a log-only write at
 * a stale generation and an entry whose number is stored both conflict and
 * leave nothing; a deleted row takes its entries, a new one starts with
 * none; load_active gives each channel its entries. Fails the test (cmocka)
 * on any difference.
 */
void storelog_check(struct store_backend *b, uv_loop_t *loop, const char *prefix);
/* Runs the checks of the marks (STORE_HANDLED) on b, its tables holding no
 * channel whose key starts with prefix and no mark of the event ids it
 * uses: a mark whose key is stored conflicts, and nothing of its batch is
 * written. other is a second process's backend on the same tables, on the
 * same loop, which writes the second copy of each mark; NULL where there
 * is none (SQLite: one process per file), and b writes it (a process's
 * own mark conflicts there). */
void storelog_check_marks(struct store_backend *b, struct store_backend *other, uv_loop_t *loop,
                          const char *prefix);

#endif
