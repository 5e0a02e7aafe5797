/*
 * slurp: the whole of a file, for tests that compare or search what a
 * file holds (a manual page, a database, a log).
 *
 * Ownership: the returned text is the caller's, to free().
 */
#ifndef DELVER_TEST_SLURP_H
#define DELVER_TEST_SLURP_H

#include <stddef.h>

/* The bytes of the file at path followed by a NUL (so text can be read as
 * a string), their count in *n when n is not NULL; NULL when the file
 * cannot be opened. */
char *slurp_try(const char *path, size_t *n);
/* As slurp_try, but a file that cannot be opened fails the test. */
char *slurp(const char *path, size_t *n);

#endif
