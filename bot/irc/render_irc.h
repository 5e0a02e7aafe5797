/*
 * render_irc: a reply message as IRC text lines with mIRC formatting.
 *
 * Styles become codes (bold, colours, strike); a player's span (RS_USER) is
 * drawn bold in the player's colour after the player's mark; a table's
 * highlighted row is marked "▶" and drawn bold orange, the other rows
 * grey. Meaning never rests on colour alone: the text says it.
 *
 * Every string from the reply is cleaned (irc_fmt_clean) before it is
 * embedded, so user text cannot end a line, start a command or reformat
 * the reply. Each logical line is cut to the budget (irc_fmt_split). A
 * message longer than max_lines lines is summarised, in steps until it
 * fits: short lines are packed together (" · " apart) with tables
 * unpadded; then tables shrink to their highlighted row (or to a list of
 * their first column); what still does not fit is cut, the last line
 * saying how much was left out.
 */
#ifndef DELVER_RENDER_IRC_H
#define DELVER_RENDER_IRC_H

#include <stddef.h>

#include "commands/core/reply.h"

struct render_irc_opts {
	size_t budget;      /* bytes per line: 510 - len(":nick!user@host PRIVMSG target :") */
	int max_lines;      /* lines before summarising (at least 2) */
	const char *prefix; /* the command prefix shown in button hints, e.g. "!" */
};

/* Lines of text, each without CRLF, NUL-terminated; owned by the struct. */
struct irc_lines {
	size_t n;
	char **v;
};

/* Appends the rendered lines of m to out (which starts zeroed). */
void render_irc(const struct reply_msg *m, const struct render_irc_opts *o, struct irc_lines *out);

/* Appends one copy of line[0..len) to l. */
void render_irc_lines_add(struct irc_lines *l, const char *line, size_t len);

/* Frees every line; l is left empty. */
void render_irc_lines_free(struct irc_lines *l);

#endif
