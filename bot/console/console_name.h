/*
 * console_name: the names a console player and channel go by.
 *
 * A name comes from --user or --channel, from [console] user or channel,
 * from $USER, or from "/as NAME" and "/channel NAME". Whatever its source it
 * takes one road: what rules/base/textsafe.h removes from every label (bidi
 * controls, invisible characters) is removed from it, and what is left must
 * be 1 to CONSOLE_NAME_MAX bytes of UTF-8 with no space, colon or control
 * character. A name that is not is refused with the same sentence
 * everywhere, never cut short.
 */
#ifndef DELVER_CONSOLE_NAME_H
#define DELVER_CONSOLE_NAME_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/state.h"

struct origin;

#define CONSOLE_NAME_MAX (NAME_MAX_LEN - 1) /* bytes, without the NUL */

/*
 * Cleans s[0..len) into out (NAME_MAX_LEN bytes, NUL-terminated). Returns 0,
 * or -1 with one sentence in err that starts with what (the option or
 * command the name was given to, say "--user" or "/as") and says what is
 * allowed; out is then "".
 */
int console_name_clean(const char *what, const char *s, size_t len, char out[NAME_MAX_LEN],
                       char *err, size_t errlen);

/* The console's channel_named (struct origin): text is a channel's name,
 * with or without "#", and its key "console:NAME". */
bool console_name_channel(const struct origin *o, const char *text, char *key);

#endif
