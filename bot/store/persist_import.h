/*
 * persist_import: the first start on a state directory of the older
 * journal-and-snapshot format imports it into the SQLite database,
 * losslessly, and moves the old files aside (persist.h).
 *
 * Ownership: p is persist's; its state receives the records.
 */
#ifndef DELVER_PERSIST_IMPORT_H
#define DELVER_PERSIST_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

struct persist;

/* Whether dir holds files of the old format. */
bool persist_import_needed(const char *dir);
/* Reads them (p->o.salvage applies), commits every record in one fsynced
 * transaction, then moves the old files into DIR/imported-<time>/. A crash
 * before the move imports again on the next start, to the same rows.
 * Returns 0 (p->st then holds every record), or -1 with one sentence in err. */
int persist_import_old(struct persist *p, char *err, size_t errlen);

#endif
