/* utf8: validation and measuring of UTF-8 text from users and the network. */
#ifndef DELVER_UTF8_H
#define DELVER_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/base/buf.h"

/* Whether s[0..len) is well-formed UTF-8 (no overlongs, no surrogates, no
 * code point past U+10FFFF). NUL bytes are well-formed; callers that refuse
 * them check separately. */
bool utf8_valid(const char *s, size_t len);

/* The length of the longest prefix of s[0..len) that is well-formed UTF-8
 * (as utf8_valid() judges it): len when the whole is, else the offset of
 * the first byte that starts no well-formed sequence. */
size_t utf8_valid_len(const char *s, size_t len);

/* Decodes the well-formed UTF-8 sequence at the start of s[0..len) into
 * *cp and returns its length (1-4); returns 0, leaving *cp as it was, when
 * the bytes there are not well-formed or len is 0. This is the one decoder
 * of UTF-8 (utf8proc's, which follows the Unicode Standard's table 3-7). */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);

/* The length (1-4) of the well-formed UTF-8 sequence at the start of
 * s[0..len), or 0 when it is not well-formed or len is 0. */
size_t utf8_seq_len(const char *s, size_t len);

/* The number of code points in a well-formed string (display width is
 * approximated by it). */
size_t utf8_len(const char *s);

/* The number of code points that start in s[0..len): the bytes that are
 * not continuation bytes (a column, counted from 0, in well-formed text). */
size_t utf8_count(const char *s, size_t len);

/* The largest n <= max such that s[0..n) ends on a code point boundary. */
size_t utf8_cut(const char *s, size_t len, size_t max);

/* The largest n <= max such that s[0..n) of the well-formed s[0..len)
 * ends between two characters as a reader sees them (extended grapheme
 * clusters, Unicode's UAX #29: a letter and its accents, an emoji and its
 * variation selector or skin tone, a ZWJ sequence such as a family, a flag)
 * and len when len <= max; when the first character alone is longer than
 * max, utf8_cut's n. The one cut of user text that shows "…" after it. */
size_t utf8_cut_text(const char *s, size_t len, size_t max);

/* Whether the zero-width joiner (U+200D) or non-joiner (U+200C) joiner,
 * between the code points prev and next (0 at either end), changes what
 * shows: either after a virama (an Indic conjunct's half form or its
 * absence), a joiner of an emoji ZWJ sequence (one glyph: a family),
 * between an Extended_Pictographic code point, or the U+FE0F or skin tone
 * that follows one, and an Extended_Pictographic code point, a non-joiner
 * between two characters of a script whose letters join (Persian's
 * علی‌رضا). Between Latin letters, say, it shows nothing. */
bool utf8_joiner_shows(uint32_t prev, uint32_t joiner, uint32_t next);

/* Compares two strings with case folded in full, for every script (É and
 * é, Σ, σ and ς, İ and i, Straße and STRASSE, the ﬁ ligature and FI are
 * equal), passing over what shows nothing (zero-width spaces, joiners
 * where utf8_joiner_shows() says they show nothing, bidi marks, the soft
 * hyphen): 0 when equal, else <0 or >0 as a comes
 * before or after b. Bytes that are not well-formed UTF-8 compare as they
 * are. This is the one comparison of names a user gives. */
int utf8_casecmp(const char *a, const char *b);

/* Copies the string src into dst (size >= 1 bytes), cut on a code point
 * boundary to at most size - 1 bytes, and NUL-terminates it. */
void utf8_copy(char *dst, size_t size, const char *src);
/* Copies the string src into dst (size >= 1 bytes) as snprintf(dst, size,
 * "%s", src) does, without printf's cost: cut to at most size - 1 bytes
 * wherever that falls, and NUL-terminated. Returns src's length (the copy
 * was cut when it is size or more). For ids and keys, which are ASCII;
 * text a user wrote is cut with utf8_copy(). */
size_t utf8_copy_bytes(char *dst, size_t size, const char *src);

/* Whether cp is a letter of any script (Unicode's categories Lu, Ll, Lt,
 * Lm and Lo). */
bool utf8_is_letter(uint32_t cp);

/* Whether cp is an accent, a mark that goes with the character before it
 * (Unicode's categories Mn, Mc and Me). */
bool utf8_is_accent(uint32_t cp);

/* The length of the longest prefix of s[0..len) of at most chars code
 * points (a byte that starts no character counts as one): the most
 * utf8_cut_text() may keep of a text limited in characters. */
size_t utf8_prefix(const char *s, size_t len, size_t chars);

/* Appends s[0..len) to out with each byte that does not start a
 * well-formed sequence replaced by U+FFFD; returns how many were. */
size_t utf8_repair(struct buf *out, const char *s, size_t len);

#endif
