/*
 * store_check: a delver database file (a snapshot file, or a database to
 * restore) checked whole before anything is replaced by it.
 *
 * `delver --restore FILE` replaces the state by FILE (SQLite: the database
 * file; PostgreSQL: the tables' rows). The start refuses a database with a
 * record it cannot read, so a restore that installed such a file would
 * leave a bot that does not start: the file is checked first, every record
 * of it, and refused with nothing changed.
 */
#ifndef DELVER_STORE_CHECK_H
#define DELVER_STORE_CHECK_H

#include <stddef.h>

/*
 * Checks that path is a whole delver database every record of which the
 * start would accept: SQLite's quick_check, a schema no newer than this
 * delver's (STORE_SQLITE_SCHEMA), the channels and users tables,
 * and each row decoded (checksum, format, module states) as a record of its
 * table's kind under its own key column, a channel's with its log entries. Reads only. Returns the
 * number of records, or -1 with one sentence in err naming the file and the first row refused.
 */
long store_check_file(const char *path, char *err, size_t errlen);

#endif
