/*
 * render_discord: a reply message as a Discord message object.
 *
 * Lines that carry dice (spans styled as crits, fumbles, struck dice,
 * players' Thwack-O styles, the highlighted pick) and every table go into
 * one fenced ```ansi block, so that desktop clients show colour; the text
 * itself still tells things apart where ANSI does not render (mobile): the
 * highlighted row is marked "▶", struck dice are grey and crossed out by a
 * combining stroke (U+0336; markdown's ~~ does not apply inside a block)
 * and a player's span starts with the player's mark. Other lines are Discord markdown (**bold**,
 * *italic*, `code`) with user text escaped.
 *
 * Every message fits Discord's limits: content at most 2000 characters
 * (counted in UTF-16 code units, which is never less than Discord's count),
 * at most 25 buttons in rows of 5, labels at most 80 characters, custom_id at
 * most 100. A message that would be longer is summarised: table rows far
 * from the highlighted row, then trailing lines, are left out and replaced
 * by a line saying how many were left out; lines are never cut in the
 * middle, except a single line longer than a whole message, which is
 * shortened at a word and says so. allowed_mentions is always
 * {"parse": []}, so no reply can ping anyone.
 *
 * A button runs a command line when pressed; its custom_id says which
 * (discord_buttons).
 */
#ifndef DELVER_RENDER_DISCORD_H
#define DELVER_RENDER_DISCORD_H

#include <stdbool.h>
#include <stddef.h>

#include "bot/discord/discord_proto.h" /* the limits of a message */
#include "commands/core/reply.h"

/* Messages one reply may become: the interaction's answer and follow-ups. */
#define DISCORD_PARTS_MAX 6

struct discord_buttons;

/*
 * Renders m as a message object's JSON text: content, flags (64 when
 * ephemeral), allowed_mentions and components, in that order. bs may be
 * NULL (long button lines are then left out). The caller frees the result
 * with free().
 */
char *render_discord(const struct reply_msg *m, bool ephemeral, struct discord_buttons *bs);

/*
 * Renders m as up to max messages (max >= 1) into out, in the order they
 * are to be sent, and returns how many. Whatever fits in one message is one
 * message. A longer one is cut between lines into parts, each within the
 * limits; a part that starts inside a table repeats its header; a part that
 * would hold more than one ansi block is drawn as one. Only what max parts
 * cannot hold is summarised, in the last part, as render_discord does. The
 * buttons go with the last part; every part is ephemeral when asked. head,
 * when not NULL, goes before the last part's content when the two fit in
 * one message (a GM's message names the channel it came from). Each part is
 * its message object's JSON text, as render_discord writes it; the caller
 * frees each with free().
 */
size_t render_discord_parts(const struct reply_msg *m, bool ephemeral, struct discord_buttons *bs,
                            const char *head, char **out, size_t max);

/* The length of UTF-8 text in UTF-16 code units (Discord's character). */
size_t render_discord_len(const char *s);

#endif
