/* roll_log: a roll kept in its channel's log; see roll_log.h. */
#include "commands/dice/roll_log.h"

#include "commands/dice/rollchan.h"

void
roll_log_keep(struct invocation *inv, const char *what, const char *result, const char *gm)
{
	struct rollchan *rc;

	if (inv->from->direct)
		return;
	rc = rollchan_of(inv->chan);
	inv->rolled = true;
	if (gm != NULL) {
		inv->rolled_secret = true;
		rollchan_log_secret(rc, inv->now, inv->from->user_name, what, result, gm);
		channel_touch(inv->chan);
	} else {
		rollchan_log(rc, inv->now, inv->from->user_name, what, result);
		channel_append(inv->chan);
	}
}
