/* gm_screen: the road of what only the GM may see; see gm_screen.h. */
#include "commands/gm/gm_screen.h"

#include <string.h>

#include "commands/dice/rollchan.h"

const char *
gm_screen_to(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->seat), *fallback = rollchan_secret_to(inv->seat);

	if (inv->is_gm) {
		reply_to(out, REPLY_INVOKER);
		return inv->from->user_key;
	}
	if (gm == NULL)
		return NULL;
	reply_to_gm(out, gm, channel_gm_name(inv->seat));
	/* Never into the channel or thread the roll was made in, where all
	 * there would read it (a thread of the channel may be the one named:
	 * its rolls then reach the GM by direct message alone). */
	if (fallback != NULL && strcmp(fallback, channel_key(inv->chan)) != 0)
		reply_gm_fallback(out, fallback);
	return gm;
}

bool
gm_screen_unreachable(const struct invocation *inv)
{
	const char *gm = channel_gm(inv->seat), *fallback = rollchan_secret_to(inv->seat);

	if (inv->from->unreachable == NULL || gm == NULL || inv->is_gm)
		return false;
	if (fallback != NULL && strcmp(fallback, channel_key(inv->chan)) != 0)
		return false;
	return inv->from->unreachable(inv->from, gm);
}

bool
gm_screen_aside(struct invocation *inv, struct reply *out, const char *what)
{
	if (gm_screen_to(inv, out) == NULL) {
		reply_line(out, RS_DIM,
		           "Nobody holds the GM seat, so what is behind the screen reached no "
		           "one.");
		return false;
	}
	if (!inv->is_gm)
		reply_gm_aside(out, what);
	return true;
}
