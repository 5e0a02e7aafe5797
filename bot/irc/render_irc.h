/*
 * render_irc: a reply message as IRC text lines with mIRC formatting.
 *
 * Styles become the codes every common client shows (RENDER_IRC_CODES:
 * bold, italic, colours, reset); struck text (dropped dice) is written
 * "~~1~~" in grey, one mark that reads the same with formatting or
 * without. A player's span (RS_USER) is drawn bold in the player's colour
 * after the player's mark; a table's highlighted row is marked "▶" and
 * drawn bold orange, the other rows grey. Meaning never rests on colour
 * alone: the text says it.
 *
 * A rolled table (its first column the die) is one line, every row's die
 * range and the short name of its entry, the rolled one bold in brackets:
 * "1 Encounter · 2 Sign · [4 Fatigue] · 5-6 Nothing" (its header and the
 * rolled row alone when that is longer than a line).
 *
 * Every string from the reply is cleaned (irc_fmt_clean) before it is
 * embedded, so user text cannot end a line, start a command or reformat
 * the reply; a word that is_nick says is someone's nick gets a zero-width
 * joiner after its first letter, so no client takes it for a mention.
 * A line with detail (RS_DETAIL: a roll's dice) longer than the budget
 * keeps the whole entries of its detail that fit and says how many dice
 * it left out ("… 55 more"), so what follows (the total) stays on the
 * line. Short lines are packed together (" · " apart) when that takes
 * fewer IRC lines; a message longer than max_lines lines is summarised,
 * in steps until it fits: tables shrink to their highlighted row (or to a
 * list of their first column, unless their rows are records such as a
 * log's: those keep whole rows), detail to its count ("1000 dice"), and
 * working blocks (how a result was reached) are left out, and the brief
 * lines that stand for them (shown only then) come in; what
 * still does not fit is cut in the middle: the first lines stay, then a
 * line saying how many were left out, then the message's last line (its
 * turn, total or outcome), as on Discord. A message that ends in its
 * results (reply_results_last: a combat turn) is never cut: it goes in
 * parts of at most max_lines lines (the brief layout), each part after the
 * first starting with its title and "(continued) · " ("Combat turn
 * (continued) · "), each recorded in out->part. With max_lines 2, or when the
 * message ends in a table of records (newest first), the first lines and
 * the note alone stay.
 * Each logical line is cut to the budget (irc_fmt_split).
 */
#ifndef DELVER_RENDER_IRC_H
#define DELVER_RENDER_IRC_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/reply.h"

/* The control bytes a rendered line may hold: bold, colour, reset,
 * italic (irssi, WeeChat, HexChat, mIRC and The Lounge all show them). */
#define RENDER_IRC_CODES "\x02\x03\x0f\x1d"

struct render_irc_opts {
	size_t budget;      /* bytes per line: 510 - len(":nick!user@host PRIVMSG target :") */
	int max_lines;      /* lines before summarising (at least 2) */
	const char *prefix; /* the command prefix shown in button hints, e.g. "!" */
	/* The nick the message answers, or NULL. When its first line opens
	 * with that name and "rolls" ("alice rolls Stealth"), the line is
	 * written as IRC bots address people: "alice: Stealth · ...". */
	const char *address;
	/* Whether word[0..len) is a nick whose owner a mention would notify;
	 * NULL when none would be (a private message). */
	bool (*is_nick)(void *ctx, const char *word, size_t len);
	void *nick_ctx;
};

/* Lines of text, each without CRLF, NUL-terminated; owned by the struct. */
struct irc_lines {
	size_t n;
	char **v;
	/* Where a message goes in parts: v[part[k]] begins a part of its own
	 * (nparts indices, ascending; none for a message sent whole). */
	size_t nparts;
	size_t *part;
};

/* Appends the rendered lines of m to out (which starts zeroed). */
void render_irc(const struct reply_msg *m, const struct render_irc_opts *o, struct irc_lines *out);

/* Appends one copy of line[0..len) to l. */
void render_irc_lines_add(struct irc_lines *l, const char *line, size_t len);

/* Frees every line; l is left empty. */
void render_irc_lines_free(struct irc_lines *l);

#endif
