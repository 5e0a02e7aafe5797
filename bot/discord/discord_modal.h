/*
 * discord_modal: a command's ask for a long text (reply_ask,
 * commands/core/reply.h) as a Discord modal, and the modal's submit back as
 * the command to run.
 *
 * The MODAL callback (type 9) carries the form: its custom_id says what to
 * run with the text, "m:<line>|<option>" ("m:table set loot|entries"); one
 * Label component (type 18) holds a paragraph text input (type 4) whose
 * custom_id is the option, with the ask's sample as its placeholder and its
 * limit as max_length (at most Discord's 4000). The MODAL_SUBMIT interaction
 * (type 5) brings the custom_id back with each input's value, inside the
 * Label (or, as modals once were made, an action row). Nothing here does
 * I/O.
 */
#ifndef DELVER_DISCORD_MODAL_H
#define DELVER_DISCORD_MODAL_H

#include <stddef.h>

#include <cJSON.h>

#include "commands/core/reply.h"

/* The MODAL callback's data for ask (caller frees), or NULL when the line
 * and option do not fit a custom_id. */
cJSON *discord_modal_data(const struct reply_ask *ask);

/*
 * Reads a MODAL_SUBMIT's data: the command line to run (into line, len
 * bytes), the option the text goes to (into opt, optlen bytes) and the
 * text (*value, owned by data). Returns 0, or -1 when the data is not a
 * submit of a modal of ours.
 */
int discord_modal_submit(const cJSON *data, char *line, size_t len, char *opt, size_t optlen,
                         const char **value);

#endif
