/*
 * render_text: a reply message as terminal text.
 *
 * With ansi, styles become SGR escapes (bold, dim, strike, colours, each
 * player's Thwack-O colour); without (NO_COLOR set, or not a terminal) the
 * text alone carries the meaning: struck spans as ~~x~~, a player's span
 * preceded by the player's mark, the highlighted table row marked "▶".
 */
#ifndef DELVER_RENDER_TEXT_H
#define DELVER_RENDER_TEXT_H

#include <stdbool.h>

#include "commands/core/reply.h"
#include "rules/base/buf.h"

/* Appends the message to out, every line ending in '\n'; nothing for NULL
 * (a reply with no part for that audience, as reply_msg gives). */
void render_text(const struct reply_msg *m, bool ansi, struct buf *out);
/* render_text() for a terminal of cols columns (0: no limit): a table
 * wider than that is laid out in parts, one under the other, each its
 * first column (what a row is known by) and as many of the next ones as
 * fit (at least one), so that every cell stays under its own header. */
void render_text_width(const struct reply_msg *m, bool ansi, size_t cols, struct buf *out);

/* Appends the len bytes of text at s (lines ended by '\n'; a last line
 * without one gets one) to out, each line longer than width columns broken
 * at the last place that fits where a line may break (a space, or beside a
 * wide character, as Chinese and Japanese text breaks, but not before its
 * closing punctuation), else (a word longer than the line) at the width.
 * The lines a line breaks into are indented to where its last cell begins
 * (after its last run of two spaces, if within half the width), so a table
 * row's text stays in its column; the first line is then not broken between
 * the cells. Columns are counted as render_text_columns does. A width
 * under 20 leaves the text as it is. */
void render_text_wrap(const char *s, size_t len, size_t width, struct buf *out);
/* The terminal columns of the n bytes at s: a CSI escape sequence takes
 * none, a character its East Asian width (wide: 2, combining: 0), a byte
 * that is not UTF-8 one. */
size_t render_text_columns(const char *s, size_t n);

#endif
