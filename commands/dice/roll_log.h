/*
 * roll_log: the step that ends every command that rolls for its invoker
 * (/roll, /gmroll, /table roll): the roll kept where its channel keeps
 * rolls (commands/dice/rollchan.h).
 */
#ifndef DELVER_ROLL_LOG_H
#define DELVER_ROLL_LOG_H

#include "commands/core/invocation.h"

/*
 * Keeps a roll the invoker made (its text, label included, and its result)
 * where the channel keeps its rolls: an open one (gm NULL) in the roll log,
 * appended alone (channel_append()), a secret one in the secret log for
 * the GM of user key gm, which is in the record (channel_touch()). Marks
 * inv rolled: a store that cannot keep it refuses a roll, not a change
 * (commands/core/request.h). A private conversation with the bot keeps no
 * log (its rolls are the invoker's alone, and a stranger who rolls there
 * leaves nothing): there it does nothing.
 */
void roll_log_keep(struct invocation *inv, const char *what, const char *result, const char *gm);

#endif
