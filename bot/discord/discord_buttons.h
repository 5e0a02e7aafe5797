/*
 * discord_buttons: the command line a message button runs.
 *
 * A button's custom_id says what it runs: "a:<line>" when that fits
 * Discord's 100 characters, else "b:<n>" (n in hexadecimal), a reference
 * into a bounded in-memory store of the most recent long lines; for a
 * button whose reply replaces the message it is on (reply_button_update),
 * "u:<line>" and "v:<n>". A pressed button whose line was evicted, or that
 * was made before a restart, has no line any more: it is reported as
 * expired. Nothing here does I/O.
 */
#ifndef DELVER_DISCORD_BUTTONS_H
#define DELVER_DISCORD_BUTTONS_H

#include <stdbool.h>
#include <stddef.h>

struct discord_buttons;

/* What a press of the button does with its message. */
enum discord_button_kind {
	DISCORD_BUTTON_NEW = 0, /* its reply is a new message */
	DISCORD_BUTTON_UPDATE,  /* its reply replaces the message it is on */
	DISCORD_BUTTON_PANEL,   /* a button of the channel's panel */
};

/* A store remembering the cap most recent long button lines (cap 0: 1).
 * The caller frees it with discord_buttons_free. */
struct discord_buttons *discord_buttons_new(size_t cap);
void discord_buttons_free(struct discord_buttons *bs);

/*
 * Writes the custom_id of a button that runs line into id (len bytes; at
 * least DISCORD_CUSTOM_ID_MAX + 1 hold any). A line too long to be carried
 * in the id is stored in bs, evicting the oldest stored one when full.
 * Returns 0, or -1 when the line is too long and bs is NULL (the button is
 * then to be left out).
 */
int discord_buttons_id(struct discord_buttons *bs, const char *line, enum discord_button_kind kind,
                       char *id, size_t len);

/*
 * The command line a custom_id stands for, or NULL when it is not one of
 * ours or has expired; *kind (when not NULL) tells what the press does
 * with the button's message. bs may be NULL (only lines carried
 * in the id are then known). The pointer is owned by bs and valid until bs
 * next changes.
 */
const char *discord_buttons_action(const struct discord_buttons *bs, const char *custom_id,
                                   enum discord_button_kind *kind);

#endif
