/* dicesame: whether the dice parser's fast path and its grammar agree. */
#ifndef DELVER_TEST_DICESAME_H
#define DELVER_TEST_DICESAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * When the fast path dice__parse_plain() takes the len bytes of text,
 * parses them with dice__parse_grammar() too and compares the two parsed
 * commands node by node (any other text goes to the grammar alone, so
 * there is nothing to compare). Returns true when they agree; otherwise
 * false with one sentence saying where they differ in why (whylen bytes).
 * Sets *fast, when not NULL, to whether the fast path took the text, so
 * tests can check that it is used.
 */
bool dicesame(const char *text, size_t len, bool *fast, char *why, size_t whylen);

#endif
