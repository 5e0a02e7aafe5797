/*
 * completions: suggestions for a partly typed option value (Discord's
 * autocomplete), gathered by an option's complete function.
 *
 * Ownership: the values are copies, freed by completions_clear().
 */
#ifndef DELVER_COMPLETIONS_H
#define DELVER_COMPLETIONS_H

#include <stddef.h>

#define COMPLETIONS_MAX 25 /* suggestions Discord shows at most */

struct completions {
	size_t n;
	char *v[COMPLETIONS_MAX]; /* owned; freed by completions_clear() */
};

/* Adds a copy of value unless the list is full or already has it; values
 * longer than 100 bytes (Discord's limit) are skipped. */
void completions_add(struct completions *c, const char *value);
void completions_clear(struct completions *c);

#endif
