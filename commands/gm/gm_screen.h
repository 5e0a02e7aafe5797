/*
 * gm_screen: the GM's screen: whose it is here, and the one road of what
 * only the GM may see (a secret roll, the creature a hazard roll put behind
 * the screen).
 *
 * Behind the screen is whoever may act as GM and runs the command (it is
 * theirs to see: their private part), else the GM seat's holder, reached
 * privately: a direct message on Discord (or the channel the GM set for
 * secret rolls, /gm secret-channel, when the GM takes none, unless that
 * is where the command ran), a NOTICE on
 * IRC, a part marked as the GM's on the console.
 */
#ifndef DELVER_GM_SCREEN_H
#define DELVER_GM_SCREEN_H

#include "commands/core/invocation.h"
#include "commands/core/reply.h"

/* Directs what is added to out next to the one behind the screen (above)
 * and returns that user's key; returns NULL, with out not redirected,
 * when the invoker may not act as GM and nobody holds the seat. */
const char *gm_screen_to(struct invocation *inv, struct reply *out);

/*
 * The road of what a roll or check put behind the screen beside its public
 * lines: directs what is added to out next to the one behind the screen,
 * marked an aside named what for a player who rolled (reply_gm_aside), and
 * returns true; with nobody to tell (a player rolled, the seat is empty)
 * says in the channel that it reached no one and returns false. The caller
 * goes back to REPLY_CHANNEL after the GM's lines.
 */
bool gm_screen_aside(struct invocation *inv, struct reply *out, const char *what);

/* Whether what a player sends behind the screen is known to reach nobody:
 * the seat's holder refuses the transport's private messages (struct
 * origin's unreachable) and no channel for secret rolls is set elsewhere. */
bool gm_screen_unreachable(const struct invocation *inv);

#endif
