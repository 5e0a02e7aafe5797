/*
 * odds: "X-in-N" odds, the old-school way of saying how likely something is:
 * roll a dN; it happens on a result of X or less. Shared by the classic
 * hazard die and the classic wandering-monster check.
 */
#ifndef DELVER_ODDS_H
#define DELVER_ODDS_H

#include <stdbool.h>
#include <stddef.h>

#define ODDS_SIDES_MIN 2
#define ODDS_SIDES_MAX 100

struct rng;

struct odds {
	int x; /* 1..n */
	int n; /* the die, ODDS_SIDES_MIN..ODDS_SIDES_MAX */
};

/* Returns 0 when x-in-n is a valid chance, or -1 with one sentence in err
 * naming what is wrong and what is allowed. */
int odds_check(int x, int n, char *err, size_t errlen);

/*
 * Parses odds into *out: "2-in-6", "2in6", "2/6", "2 in 6" (the texts'
 * "1 in 6"), "2 6", or a bare "2" (meaning 2-in-6); blanks around are
 * allowed. The one reader of odds a user types (the classic hazard die and
 * wandering check). Returns 0, or -1 with one sentence in err naming the
 * forms allowed, and *out untouched.
 */
int odds_parse(const char *s, struct odds *out, char *err, size_t errlen);

/* Whether the word w has the shape of odds written as one word, and so
 * nothing else: digits, then "/", "-in-" or "in", then digits ("2/6",
 * "2-in-6", "2in6"). A shape only: whether its numbers make a chance is
 * odds_parse's to say. For a parser telling odds from other words. */
bool odds_one_word(const char *w);

/* Rolls the dN; *hit tells whether it came up X or less. Returns the roll. */
int odds_roll(struct rng *r, struct odds c, bool *hit);

#endif
