/*
 * render_layout: the text layout every renderer of the reply model shares,
 * whatever the platform: a table's column widths, padding, and the ANSI
 * palette (the console's terminal and Discord's ansi code blocks both
 * speak SGR). It belongs to no transport; each renderer
 * (bot/console/render_text, bot/discord/render_discord) builds its own
 * output on it.
 */
#ifndef DELVER_RENDER_LAYOUT_H
#define DELVER_RENDER_LAYOUT_H

#include <stddef.h>

#include "commands/core/reply.h"
#include "rules/base/buf.h"

#define RENDER_SGR_RESET "\033[0m" /* ends every SGR style */
#define RENDER_COLS_MAX  16        /* table columns a renderer lays out */

/* The columns the well-formed UTF-8 string s takes in a monospaced font: a
 * wide character (CJK, most emoji) two, a combining mark or zero-width
 * character none, any other one (the Unicode East Asian Width, as
 * utf8proc reads it). */
size_t render_layout_width(const char *s);

/* The bytes of the longest start of the well-formed UTF-8 string s that
 * takes at most cols columns (render_layout_width), ending on a character
 * boundary, with the combining marks after its last character. */
size_t render_layout_cut(const char *s, size_t cols);

/* The width of each of a table's first RENDER_COLS_MAX columns: the
 * render_layout_width() of its widest cell or header. */
void render_layout_widths(const struct reply_block *b, size_t width[RENDER_COLS_MAX]);

/* Appends n spaces. */
void render_layout_pad(struct buf *out, size_t n);

/* How a text renderer names the channel whose key is key (an RS_CHANNEL
 * span): its name, after the last ':' of the key ("irc:net:#crypt" is
 * #crypt, "console:crypt" is crypt; neither an IRC channel's name nor a
 * console one holds a colon); a key without one is itself. */
const char *render_layout_channel(const char *key);

/* The ANSI SGR foreground code (30..37) of a palette colour, in the order
 * of Discord's ANSI palette (30 gray .. 37 white); an unknown colour is
 * gray. */
int render_layout_ansi_colour(enum ucolour c);

#endif
