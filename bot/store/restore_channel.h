/*
 * restore_channel: `delver --restore FILE --channel KEY`: puts back one
 * channel's record from a snapshot file (or any delver database), leaving
 * every other record of the state directory as it is.
 *
 * The snapshot file is read only. The state directory's database must
 * exist and pass SQLite's quick_check; the channel's row is replaced (or
 * added) in one fsynced transaction, exactly as the file holds it (its
 * last use, format version and record), and so is its log (the file's
 * entries and no others). Like `--restore FILE`, it takes the
 * directory's lock, so a running delver is refused.
 */
#ifndef DELVER_RESTORE_CHANNEL_H
#define DELVER_RESTORE_CHANNEL_H

#include <stddef.h>

/*
 * Restores the channel key (a state key such as "discord:<channel id>",
 * "irc:<network>:<#channel>" or "console:<name>") of the state directory
 * dir from file. Returns 0, or -1 with one sentence in err saying what is
 * wrong (nothing was changed then).
 */
int restore_channel(const char *dir, const char *file, const char *key, char *err, size_t errlen);

#endif
