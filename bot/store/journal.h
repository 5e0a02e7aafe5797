/*
 * journal: the journal files of the store older versions wrote,
 * DIR/journal.<seq>.dlv, which delver only reads now (restore.h imports
 * them once).
 *
 * A journal starts with a header line (store_record.h) and holds one record line
 * per change, in the order the changes were made. Files are numbered: a
 * snapshot records the first number it does not hold, so restore replays
 * the journals from that number up, in order.
 */
#ifndef DELVER_JOURNAL_H
#define DELVER_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes DIR/journal.<seq>.dlv (8 or more digits) into out. Returns 0, or
 * -1 when it does not fit. */
int journal_path(char *out, size_t size, const char *dir, uint64_t seq);
/* True when name is a journal file name; *seq is then its number. */
bool journal_parse_name(const char *name, uint64_t *seq);

#endif
