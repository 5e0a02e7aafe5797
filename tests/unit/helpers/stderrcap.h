/*
 * stderrcap: what a piece of code writes to stderr (the log), for tests:
 * stderrcap_begin() sends fd 2 to a temporary file, stderrcap_end() puts it
 * back and returns what was written.
 *
 * Ownership: the returned text is the capture's, valid until the next
 * stderrcap_begin() on it.
 */
#ifndef DELVER_STDERRCAP_H
#define DELVER_STDERRCAP_H

#include <stdio.h>

struct stderrcap {
	FILE *f;
	int saved;
	char out[8192];
};

/* Returns 0, or -1 when no temporary file could be made. */
int stderrcap_begin(struct stderrcap *c);
const char *stderrcap_end(struct stderrcap *c);

#endif
