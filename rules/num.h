/* num: reading small whole numbers out of user text. */
#ifndef DELVER_NUM_H
#define DELVER_NUM_H

/*
 * Reads a whole number of 1 to 3 decimal digits at *p and moves *p past it.
 * Returns 0, or -1 (with *p somewhere in the digits) when there is no digit
 * or more than 3.
 */
int num_read(const char **p, int *out);

#endif
