/*
 * render_irc_int: what render_irc.c (spans, lines, layout) shares with
 * render_irc_table.c (tables): the colours, the size of a logical line,
 * and the span-level writers. Nothing else includes it.
 */
#ifndef DELVER_RENDER_IRC_INT_H
#define DELVER_RENDER_IRC_INT_H

#include <stdbool.h>

#include "bot/irc/render_irc.h"
#include "commands/core/reply.h"
#include "rules/base/buf.h"

#define LOGICAL_MAX (64 * 1024) /* bytes of one logical line before cutting */

#define C_GREEN  3
#define C_RED    4
#define C_ORANGE 7
#define C_TEAL   10
#define C_GREY   14

/* Ends a logical line: it joins the list uncut, and line is emptied. */
void render_irc__flush_line(struct buf *line, struct irc_lines *logical);
/* Writes the mIRC colour code c, guarded so that ",5" text after it is
 * no background. */
void render_irc__colour(struct buf *out, int c);
/* Opens the codes for a span style; returns whether anything was opened. */
bool render_irc__open_style(unsigned st, const struct thwacko_style *us, struct buf *out);
/* Cleans s into out (irc_fmt_clean), writing each command reference with
 * the network's prefix and breaking nicks so that none notifies anyone. */
void render_irc__clean(struct buf *out, const char *s, const struct render_irc_opts *o);

#endif
