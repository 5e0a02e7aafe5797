/*
 * thwacko_style: players' Thwack-O styles (a colour and a mark), their defaults
 * and their validation.
 *
 * A player who never chose a style gets a default derived from the user key
 * (a stable hash): a colour (gray only as a last resort, it is dark on
 * terminals) and a mark from a small set of distinct symbols, so the die is
 * recognisable where colour does not render. Among the players of a party
 * the defaults are made distinct where possible: each walks from its
 * hashed colour and mark to the first the others do not use. A Fungeon
 * party gives each player its default once, when it joins, and keeps it,
 * so that others joining or leaving never change it.
 */
#ifndef DELVER_THWACKO_STYLE_H
#define DELVER_THWACKO_STYLE_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/reply.h"

#define THWACKO_STYLE_NMARKS 8

/* The default marks, in order. */
extern const char *const thwacko_style_marks[THWACKO_STYLE_NMARKS];

/* "gray", "red", ... for a palette colour. */
const char *thwacko_style_colour_name(enum ucolour c);
/* The colour of that name (case-insensitive), or -1. */
int thwacko_style_colour_parse(const char *name);
/* The colour names, NULL-terminated (for the command table's choices). */
extern const char *const thwacko_style_colour_names[];

/* The default style of one user key, ignoring everyone else. */
void thwacko_style_default(const char *user_key, struct thwacko_style *out);

/* The default style of user_key made distinct from the n styles taken
 * where possible: it walks from its hashed colour and mark to the first
 * that none of them uses (gray last). */
void thwacko_style_distinct(const char *user_key, const struct thwacko_style *taken, int n,
                            struct thwacko_style *out);

#define THWACKO_STYLE_PARTY_MAX 16 /* players thwacko_style_party() orders */

/*
 * The styles of a party of n players (keys[i]; chosen[i] is the player's
 * chosen style or NULL): chosen styles as they are, defaults made distinct
 * from every chosen style and from the defaults before them.
 */
void thwacko_style_party(const char *const *keys, const struct thwacko_style *const *chosen, int n,
                         struct thwacko_style *out);

/*
 * Checks a mark a user chose: well-formed UTF-8 of 1 or 2 code points, or
 * 1 to 4 letters of any script or visible ASCII characters (an accent
 * counts with its letter), with no spaces, no invisible or control
 * characters, shorter than THWACKO_STYLE_MARK_MAX bytes. Returns 0, or -1
 * with one sentence in err, which quotes a mark too long whole (err holds
 * at least 160 bytes more than the mark).
 */
int thwacko_style_mark_check(const char *mark, char *err, size_t errlen);
/* Whether a new mark (one a player chooses now; marks saved before are
 * read with thwacko_style_mark_check() alone) reads apart from the die it
 * marks: no digit of any script, none of + - . , and none of the
 * characters that format a Discord line (~ * _ ` | \). Returns 0, or -1
 * with one sentence in err. */
int thwacko_style_mark_reads(const char *mark, char *err, size_t errlen);

#endif
