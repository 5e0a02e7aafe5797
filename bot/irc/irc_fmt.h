/*
 * irc_fmt: mIRC formatting codes: cleaning user text of them, and cutting a
 * formatted line into pieces that fit IRC's line limit.
 *
 * The codes: \x02 bold, \x1D italic, \x1F underline, \x1E strike, \x11
 * monospace, \x16 reverse, \x0F reset, \x03fg[,bg] colour (00-99; \x03
 * alone resets colours), \x04RRGGBB[,RRGGBB] hex colour (some clients send
 * it; delver never writes it). delver always writes colours with two
 * digits.
 */
#ifndef DELVER_IRC_FMT_H
#define DELVER_IRC_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/base/buf.h"

#define IRC_FMT_BOLD      "\x02"
#define IRC_FMT_COLOUR    "\x03"
#define IRC_FMT_RESET     "\x0f"
#define IRC_FMT_ITALIC    "\x1d"
#define IRC_FMT_UNDERLINE "\x1f"
#define IRC_FMT_STRIKE    "\x1e"

/* The smallest budget irc_fmt_split accepts: the longest restoring prefix
 * (14 bytes) plus room for any token. */
#define IRC_FMT_BUDGET_MIN 24

/* The formatting in force at a point of a line. */
struct irc_fmt_state {
	bool bold, italic, underline, strike, mono, reverse;
	int fg, bg; /* 0-99, or -1 for the default */
};

/*
 * Appends s to out as plain text safe to embed in a formatted line: CR, LF
 * and TAB become spaces; every other control byte (NUL cannot occur; \x01,
 * which starts CTCP, and every mIRC code included) and DEL are dropped. So
 * nothing a user typed can end the line, start a command or change the
 * formatting around it.
 */
void irc_fmt_clean(struct buf *out, const char *s);

/* Appends the formatted s[0..len) to out without its formatting codes (a
 * colour code with its digits): the text a client without formatting, or
 * a channel that strips it (+c), would show; for a message received, the
 * words its sender sees. */
void irc_fmt_strip(struct buf *out, const char *s, size_t len);

/* Applies the code (or text) token of tlen bytes at s to st. */
void irc_fmt_apply(struct irc_fmt_state *st, const char *s, size_t tlen);

/* The length of the token at s[0..len): a whole formatting code, a whole
 * UTF-8 sequence (as far as len allows) or one byte. At least 1. */
size_t irc_fmt_token(const char *s, size_t len);

/*
 * Cuts the formatted line s[0..len) into pieces of at most budget bytes
 * (budget >= IRC_FMT_BUDGET_MIN) and calls emit for each, in order. A cut
 * falls on the last space that fits (the space itself is dropped), else at
 * a character boundary; never inside a UTF-8 sequence or a formatting
 * code. Each piece after the first starts with the codes that restore the
 * formatting in force where the cut fell. Pieces without a visible
 * character (only codes) are not emitted, so an empty line emits nothing.
 */
void irc_fmt_split(const char *s, size_t len, size_t budget,
                   void (*emit)(void *ctx, const char *piece, size_t len), void *ctx);

#endif
