/*
 * render_discord_text: a reply's spans as the text of a Discord message,
 * in the two forms render_discord puts together: Discord markdown outside
 * the ansi block (markup characters escaped, **bold**, *italic*, `code`,
 * ~~struck~~, a channel as a <#id> link that pings nobody, a command as
 * typed on Discord with every option named) and ANSI inside a fenced
 * ```ansi block (the SGR codes Discord knows, struck text crossed out by
 * U+0336, nothing that could end the block).
 *
 * Every function appends to a caller's buffer (rules/base/buf.h), which
 * grows up to its own cap; nothing here keeps state or does I/O.
 */
#ifndef DELVER_RENDER_DISCORD_TEXT_H
#define DELVER_RENDER_DISCORD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/reply.h"
#include "rules/base/buf.h"

/* A rendered message, or a line of one, is built in a buffer this large
 * at most. */
#define RENDER_DISCORD_TEXT_MAX (1u << 22)

/* Text inside the ansi block: control characters become spaces and a
 * zero-width space follows each backtick, so no text can end the block. */
void render_discord_text_fenced(struct buf *b, const char *s);

/* Markdown text with Discord's markup characters escaped. at_start says
 * whether the text begins a line (where '#', '>', '-' and "1." mean
 * something); it is updated as the text goes on. */
void render_discord_text_md(struct buf *b, const char *s, bool *at_start);

/* The SGR parameters Discord's ANSI blocks know: 1 bold, 4 underline,
 * 30-37 colours, as "ESC[...m" into out (len bytes, cut as snprintf
 * cuts). Returns false when the span needs none (out is then untouched). */
bool render_discord_text_sgr(unsigned style, const struct thwacko_style *us, char *out, size_t len);

/* Whether a line carries dice (a span styled as a crit, a fumble, a struck
 * or dim die, a player's style, the highlighted pick): such a line goes
 * into the ansi block. */
bool render_discord_text_is_dice(const struct reply_block *bl);

/* One span: as ANSI for the inside of the block when fenced, else as
 * markdown (at_start as render_discord_text_md's; not read when fenced). */
void render_discord_text_span(struct buf *b, const struct reply_span *s, bool fenced,
                              bool *at_start);

#endif
