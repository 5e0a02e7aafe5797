/*
 * discord_buttons: the command line a message button runs.
 *
 * A button's custom_id says what it runs: "a:<line>" when that fits
 * Discord's 100 characters, else "b:<n>" (n in hexadecimal), a reference
 * into a bounded in-memory store of the most recent long lines; for a
 * button whose reply replaces the message it is on (reply_button_update),
 * "u:<line>" and "v:<n>". A pressed button whose line was evicted, or that
 * was made before a restart, has no line any more: it is reported as
 * expired. Each run numbers its stored lines from its own starting point
 * (discord_buttons_new's first), so a number an earlier run gave out never
 * names a line of this one. Nothing here does I/O.
 */
#ifndef DELVER_DISCORD_BUTTONS_H
#define DELVER_DISCORD_BUTTONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct discord_buttons;

/* What a press of the button does with its message. */
enum discord_button_kind {
	DISCORD_BUTTON_NEW = 0, /* its reply is a new message */
	DISCORD_BUTTON_UPDATE,  /* its reply replaces the message it is on */
	DISCORD_BUTTON_PANEL,   /* a button of the channel's panel */
};

/* A store remembering the cap most recent long button lines (cap 0: 1),
 * numbered from first (0: 1) on. A daemon passes a number no earlier run
 * gave out (discord_buttons_first); tests pass their own. The caller frees
 * it with discord_buttons_free. */
struct discord_buttons *discord_buttons_new(size_t cap, uint64_t first);
/* A starting number for this run's store: random, below 2^48, so that
 * runs' ranges do not meet in practice (time-based if the kernel gives no
 * randomness). */
uint64_t discord_buttons_first(void);
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
