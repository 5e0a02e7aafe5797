/*
 * faultio: fault injection for the fsio layer in unit tests. After
 * faultio_arm(op, n, err) the n-th call (from 1) of that operation, and
 * every later one when sticky is set, fails with errno err; the others go
 * to the system. A write armed with err 0 is lost instead: it reports
 * success and writes nothing (what a write through a descriptor that was
 * closed and reused under its owner's feet looks like to that owner).
 * faultio_off() restores the plain system calls.
 */
#ifndef DELVER_TEST_FAULTIO_H
#define DELVER_TEST_FAULTIO_H

#include <stdbool.h>

enum faultio_op {
	FAULTIO_WRITE,
	FAULTIO_FSYNC,
	FAULTIO_RENAME,
};

void faultio_arm(enum faultio_op op, int n, int err, bool sticky);
void faultio_off(void);
/* Counts a call of op; true when it must fail (errno is then set). For
 * layers other than fsio (faultsql.h). */
bool faultio_check(enum faultio_op op);
/* Calls of op since faultio_arm, and of those, how many failed. */
int faultio_calls(enum faultio_op op);
int faultio_failed(enum faultio_op op);

/* Temporary directories: a fresh one under /tmp (the caller frees the
 * name), and rm -r of one. */
char *tmpdir_new(void);
void tmpdir_remove(char *dir);
/* The CRC-32 of a whole file, or 0 when it cannot be read. */
unsigned long file_crc(const char *path);

#endif
