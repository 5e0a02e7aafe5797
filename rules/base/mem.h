/*
 * mem: the out-of-memory policy, decided once for the whole program.
 *
 * delver is a small daemon whose working set is bounded by its input limits;
 * if the system cannot give it a few kilobytes, no useful recovery exists.
 * So, as in Redis (zmalloc), allocation failure ends the process at once with
 * a message on stderr, and every caller may treat these as infallible. Every
 * size that comes from a user or the network is checked against a limit
 * before it reaches these functions.
 */
#ifndef DELVER_MEM_H
#define DELVER_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Duplicates s (NULL gives NULL). */
char *xstrdup(const char *s);
/* Duplicates the first n bytes of s and NUL-terminates the copy. */
char *xstrndup(const char *s, size_t n);

#endif
