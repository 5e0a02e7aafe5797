/*
 * roll_table_name: the names of tables (rules/tables/roll_table.h), as a
 * GM types them and as they are kept: letters and digits of any script,
 * folded so that two spellings of one name are one name, and how a name
 * looks, so that two names a reader cannot tell apart are not both kept.
 */
#ifndef DELVER_ROLL_TABLE_NAME_H
#define DELVER_ROLL_TABLE_NAME_H

#include <stddef.h>

#include "rules/tables/roll_table.h"

/*
 * Checks a table's name and writes its canonical form into canon
 * (ROLL_TABLE_NAME_MAX bytes): letters and digits of any script (with
 * their combining accents), '-' and '_', at most ROLL_TABLE_NAME_CHARS
 * code points once capitals of every script are read as small letters
 * (Unicode case folding, NFC: ß counts as ss); what rules/base/textsafe.h
 * removes is removed first. A canonical name is its own canonical form.
 * Returns 0, -1 when name holds what no name holds, or -2 when it is too
 * long.
 */
int roll_table_name(const char *name, size_t len, char *canon);

/* How a canonical name looks, into out (len bytes): letters of other
 * scripts that look like Latin ones (Cyrillic о, Greek ο) as those, so
 * that two names a reader cannot tell apart look the same. */
void roll_table_name_look(const char *canon, char *out, size_t len);

#endif
