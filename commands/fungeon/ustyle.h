/*
 * ustyle: players' Thwack-O styles (a colour and a mark), their defaults
 * and their validation.
 *
 * A player who never chose a style gets a default derived from the user key
 * (a stable hash): a colour (gray only as a last resort, it is dark on
 * terminals) and a mark from a small set of distinct symbols, so the die is
 * recognisable where colour does not render. Among the players of a party
 * the defaults are made distinct where possible, deterministically: players
 * are taken in party order, chosen styles are kept, and each default walks
 * from its hashed colour and mark to the first not yet used.
 */
#ifndef DELVER_USTYLE_H
#define DELVER_USTYLE_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/reply.h"

#define USTYLE_NMARKS 8

/* The default marks, in order. */
extern const char *const ustyle_marks[USTYLE_NMARKS];

/* "gray", "red", ... for a palette colour. */
const char *ustyle_colour_name(enum ucolour c);
/* The colour of that name (case-insensitive), or -1. */
int ustyle_colour_parse(const char *name);
/* The colour names, NULL-terminated (for the command table's choices). */
extern const char *const ustyle_colour_names[];

/* The default style of one user key, ignoring everyone else. */
void ustyle_default(const char *user_key, struct ustyle *out);

/*
 * The styles of a party of n players (keys[i]; chosen[i] is the player's
 * chosen style or NULL): chosen styles as they are, defaults made distinct
 * from every chosen style and from the defaults before them.
 */
void ustyle_party(const char *const *keys, const struct ustyle *const *chosen, int n,
                  struct ustyle *out);

/*
 * Checks a mark a user chose: well-formed UTF-8 of 1 or 2 code points, or
 * 1 to 4 ASCII characters, with no spaces, no invisible or control
 * characters, shorter than USTYLE_MARK_MAX bytes. Returns 0, or -1 with one
 * sentence in err.
 */
int ustyle_mark_check(const char *mark, char *err, size_t errlen);

#endif
