/*
 * render_irc_table: a reply's tables (RB_TABLE blocks) as IRC lines, for
 * render_irc: padded into columns, written row by row in words, cut to a
 * rolled row, or listed in one line. Each writer appends to line (the
 * logical line being built, left empty) and ends its lines into out.
 */
#ifndef DELVER_RENDER_IRC_TABLE_H
#define DELVER_RENDER_IRC_TABLE_H

#include <stdbool.h>

#include "bot/irc/render_irc.h"
#include "commands/core/reply.h"
#include "rules/base/buf.h"

/* Whether b is a roll table whose highlighted row is the one rolled: its
 * first column is the die ("roll", "d12", "2d6"). Other tables with a
 * highlighted row (help's default, a party's own member, a price band)
 * are shown whole. */
bool render_irc_table_is_rolled(const struct reply_block *b);

/* A table with a rolled (highlighted) row, in one line: its rows in short
 * when they fit, else its header, then the row marked "▶" and where it
 * stands ("(row 7 of 20)"). */
void render_irc_table_rolled(const struct reply_block *b, const struct render_irc_opts *o,
                             struct buf *line, struct irc_lines *out);

/* Every row; cells padded to columns when padded, else each row in words
 * when the table has a header, or its cells two spaces apart. */
void render_irc_table_rows(const struct reply_block *b, bool padded,
                           const struct render_irc_opts *o, struct buf *line,
                           struct irc_lines *out);

/* A table that is not a roll's in one line: the list of its first column,
 * a highlighted entry marked, so that every entry stays named. */
void render_irc_table_brief(const struct reply_block *b, const struct render_irc_opts *o,
                            struct buf *line, struct irc_lines *out);

#endif
