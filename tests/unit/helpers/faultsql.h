/*
 * faultsql: faultio's fault injection for SQLite. faultsql_install() makes
 * a VFS that wraps the default one the default: its file writes count (and
 * fail) as FAULTIO_WRITE, its syncs as FAULTIO_FSYNC (faultio.h), so a
 * test arms faults on the database as it did on the journal files.
 */
#ifndef DELVER_TEST_FAULTSQL_H
#define DELVER_TEST_FAULTSQL_H

#include <stdbool.h>

/* Idempotent; call before opening a database. */
void faultsql_install(void);
/* While held, every sync of the VFS waits (on whatever thread makes it)
 * until faultsql_hold_syncs(false); faultsql_syncs_waiting() counts the
 * syncs waiting. */
void faultsql_hold_syncs(bool hold);
int faultsql_syncs_waiting(void);

#endif
