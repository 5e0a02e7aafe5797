/*
 * textsafe: user text made safe to echo in a reply.
 *
 * Text a user typed (labels, names, reasons, table entries, hazard signs,
 * Thwack-O marks) is shown next to text the bot writes, such as a total.
 * Some characters change how the text around them looks rather than
 * drawing anything: a right-to-left override before "+ 0 = 14" shows the
 * total as 41. textsafe removes them:
 * - bidi controls: U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069;
 * - C0 and C1 controls, U+007F; line and paragraph breaks (LF, CR, VT, FF,
 *   U+0085, U+2028, U+2029) and tab become one space each, so a line
 *   stays a line;
 * - zero-width and invisible characters: U+00AD, U+115F, U+1160, U+180E,
 *   U+200B, U+2060..U+2064, U+206A..U+206F, U+3164, U+FEFF, U+FFA0,
 *   U+FFF9..U+FFFB; U+200C and U+200D (the zero-width non-joiner and
 *   joiner) too, except where they change what shows (utf8_joiner_shows:
 *   a joiner between two emoji makes one, a family or a rainbow flag; a
 *   non-joiner keeps two Persian letters apart; either shapes an Indic
 *   conjunct after a virama);
 *   tag characters (U+E0000..U+E007F) except in a flag's tag run after
 *   U+1F3F4.
 * Everything is pure: no state, no allocation beyond the buf given.
 */
#ifndef DELVER_TEXTSAFE_H
#define DELVER_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/base/buf.h"

/* Whether well-formed UTF-8 s[0..n) holds nothing textsafe removes. Fast
 * on ASCII text without controls. */
bool textsafe_ok(const char *s, size_t n);

/* Whether s[0..n) is well-formed UTF-8 that holds nothing textsafe
 * removes: utf8_valid() and textsafe_ok() in one walk. */
bool textsafe_ok_utf8(const char *s, size_t n);

/* Whether well-formed UTF-8 s[0..n) shows as nothing once textsafe has
 * made it safe: it holds only spaces and what textsafe removes or turns
 * into a space. */
bool textsafe_blank(const char *s, size_t n);

/* Appends well-formed UTF-8 s[0..n) to out without what textsafe removes;
 * returns how many characters were removed or replaced. */
size_t textsafe_clean(struct buf *out, const char *s, size_t n);

/* Whether the character at the start of well-formed s[0..n) (n > 0),
 * read as the first of a text, is one textsafe removes that is neither a
 * control nor a line break: a bidi control or an invisible character,
 * with *cp set to it. Quoted, it would show as nothing: an error naming
 * a bad piece of input names it by its code point instead. */
bool textsafe_invisible_at(const char *s, size_t n, uint32_t *cp);

/* The byte offset in well-formed s[0..n) of its first character that
 * textsafe removes and that is neither a control nor a line break (a bidi
 * control or an invisible character, judged where it stands: a joiner
 * inside an emoji sequence is none), with *cp set to it; n when there is
 * none. */
size_t textsafe_invisible_find(const char *s, size_t n, uint32_t *cp);

/* Whether well-formed s[0..n) holds such a character: the test a word the
 * bot reads (a name, a prefix, a channel) must pass, where one would make a
 * look-alike of another word. When it does, *cp and *at (either may be
 * NULL) get the first one and its byte offset, as textsafe_invisible_find()
 * gives them. */
bool textsafe_invisible_in(const char *s, size_t n, uint32_t *cp, size_t *at);

/* Writes into dst (size bytes, TEXTSAFE_NAME_MAX always enough) how an
 * error names such a character cp: "an invisible character U+200B", or
 * "invisible character U+200B" when article is false. Every refusal that
 * names one names it so. */
#define TEXTSAFE_NAME_MAX 40
void textsafe_invisible_name(char *dst, size_t size, uint32_t cp, bool article);

/*
 * Appends to b how an error quotes a value s[0..n) it refuses: 'V', V
 * being s cut to at most max bytes on a character boundary, without what
 * textsafe removes (so no bidi control reaches a terminal or a log), and,
 * when s holds a character textsafe_invisible_find() finds, " with an
 * invisible character U+200B at column N" (N counted in characters of s
 * from 1), so that the quote never reads as a right value. Returns
 * whether it named one.
 */
bool textsafe_quote(struct buf *b, const char *s, size_t n, size_t max);

/* The same quote written into out (size bytes, cut short on a character
 * when it does not fit); returns out. For a message made with printf. */
const char *textsafe_quoted(char *out, size_t size, const char *s, size_t n, size_t max);

#endif
