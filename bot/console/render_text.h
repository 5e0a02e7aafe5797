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

#include "commands/reply.h"
#include "rules/base/buf.h"

/* Appends the message to out, every line ending in '\n'. */
void render_text(const struct reply_msg *m, bool ansi, struct buf *out);

/* The width of each of a table's columns: the code points of its widest
 * cell or header. */
void render_table_widths(const struct reply_block *b, size_t width[16]);
/* Appends n spaces. */
void render_pad(struct buf *out, size_t n);

/* ANSI SGR foreground code (30..37) of a palette colour. */
int render_ansi_colour(enum ucolour c);

#endif
