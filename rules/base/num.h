/* num: reading small whole numbers out of user text, and writing numbers. */
#ifndef DELVER_NUM_H
#define DELVER_NUM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Reads a whole number of 1 to 3 decimal digits at *p and moves *p past it.
 * Returns 0, or -1 (with *p somewhere in the digits) when there is no digit
 * or more than 3.
 */
int num_read(const char **p, int *out);

/* Writes v in decimal at out (room for NUM_TEXT_MAX bytes, NUL included)
 * and returns its length: printf shows in profiles of the dice path. */
#define NUM_TEXT_MAX 21
size_t num_text(long long v, char *out);

/* The number 0..99 that s spells in English words, or -1: a cardinal
 * ("three", "twenty-one", "twentyone", "twenty one"), and with ordinals
 * also an ordinal ("third", "twenty-first") or an ordinal in digits
 * ("3rd", "21st"); case folded as names are (utf8_casecmp()). */
int num_word(const char *s, bool ordinals);

#endif
