/*
 * irc_fold: case folding of IRC nicks and channel names by the server's
 * CASEMAPPING, so that names the server holds to be one compare equal.
 *
 *   ascii           A-Z fold to a-z; nothing else changes.
 *   rfc1459         ascii, and [ ] \ ~ fold to { } | ^.
 *   strict-rfc1459  ascii, and [ ] \ fold to { } | (not ~).
 *   rfc7613         the PRECIS UsernameCaseMapped mappings of RFC 7613 and
 *                   RFC 8265, done with libutf8proc: width mapping (a
 *                   fullwidth or halfwidth character becomes its <wide> or
 *                   <narrow> decomposition: "Ａ" is "A"), Unicode lowercase
 *                   (of the canonically decomposed text, so "İ" becomes
 *                   "i" U+0307 as full lowercasing does), then NFC.
 *                   Lowercase, not case folding (RFC 8265): "ß" stays. "ＣＲＹＰＴ", "Crypt" and
 * "crypt" fold alike; "É" (U+00C9) and "E" U+0301 both fold to "é" (U+00E9).
 *
 * Text that is not well-formed UTF-8 cannot be mapped by rfc7613: it is
 * folded as ascii instead and keeps its other bytes as they are. Its fold is
 * therefore never well-formed UTF-8 either, so it can never equal the fold
 * of a well-formed name, and two malformed names share a fold only when
 * they differ in ASCII case alone.
 *
 * Pure functions; nothing is allocated that outlives a call.
 */
#ifndef DELVER_IRC_FOLD_H
#define DELVER_IRC_FOLD_H

#include <stddef.h>

enum irc_casemap {
	IRC_CM_ASCII,
	IRC_CM_RFC1459,
	IRC_CM_STRICT,
	IRC_CM_RFC7613,
};

/* The casemapping a CASEMAPPING token names; an unknown name folds as
 * ascii (every casemapping folds at least that). */
enum irc_casemap irc_fold_casemap(const char *name);

/*
 * Folds in by cm into out, NUL-terminated, cut on a character boundary to
 * at most size - 1 bytes. Returns 0, or -1 when the fold did not fit whole
 * (out then holds the part that did; callers that key records by the fold
 * must not use it, or two long names could share a key).
 */
int irc_fold(enum irc_casemap cm, const char *in, char *out, size_t size);

#endif
