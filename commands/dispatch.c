/* dispatch: from a command line to a durable reply; see dispatch.h. */
#include "commands/dispatch.h"

#include <string.h>

#include "commands/undo.h"
#include "rules/base/utf8.h"

static int
persist_channel(struct channel *ch, void *ctx)
{
	struct dispatch *d = ctx;

	return d->persist_channel ? d->persist_channel(ch, d->persist_ctx) : 0;
}

static int
persist_user(struct user *u, void *ctx)
{
	struct dispatch *d = ctx;

	return d->persist_user ? d->persist_user(u, d->persist_ctx) : 0;
}

/*
 * Runs the handler. Game state that a command creates but does not change
 * (a read-only /tension or /fungeon party in a channel that never played)
 * is dropped again, so memory tracks channels that hold state, not every
 * channel that was ever asked something. A command that changed game state
 * leaves a step /undo can take back (commands/undo.h).
 */
static void
run_handler(struct invocation *inv, struct reply *out)
{
	bool had[CHANMOD_COUNT + 1];
	struct undo_snap snap;

	for (int i = 0; i < CHANMOD_COUNT; i++)
		had[i] = channel_mod_peek(inv->chan, (enum chanmod_id)i) != NULL;
	undo_before(inv, &snap);
	inv->cmd->fn(inv, out);
	undo_after(inv, &snap);
	if (channel_touched(inv->chan))
		return;
	for (int i = 0; i < CHANMOD_COUNT; i++)
		if (!had[i] && channel_mod_peek(inv->chan, (enum chanmod_id)i) != NULL)
			channel_mod_set(inv->chan, (enum chanmod_id)i, NULL);
}

void
dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv, int64_t now,
                    struct reply *out)
{
	const char *gm;
	int saved;

	inv->from = o;
	inv->state = d->state;
	inv->rng = d->rng;
	inv->now = now;
	inv->chan = state_channel(d->state, o->chan_key);
	if (inv->chan == NULL) {
		reply_error(out,
		            "This channel's saved state cannot be read right now (the error is "
		            "logged); try again in a minute.");
		invocation_clear(inv);
		return;
	}
	if (o->legacy_user_key[0] != '\0') {
		int moved = state_adopt(d->state, inv->chan, o->legacy_user_key, o->user_key);

		if (moved > 0 && d->adopted != NULL)
			d->adopted(o->chan_key, moved);
	}
	inv->user = state_user(d->state, o->user_key);
	if (inv->user == NULL) {
		reply_error(out,
		            "Your saved settings cannot be read right now (the error is logged); "
		            "try again in a minute.");
		invocation_clear(inv);
		return;
	}
	if (strcmp(user_name(inv->user), o->user_name) != 0)
		user_set_name(inv->user, o->user_name);
	user_set_last_used(inv->user, now);
	channel_set_last_used(inv->chan, now);
	gm = channel_gm(inv->chan);
	inv->is_gm = o->platform_admin || (gm != NULL && strcmp(gm, o->user_key) == 0);

	for (size_t i = 0; i < 3 && inv->path[i] != NULL; i++) {
		if (inv->path[i]->role == ROLE_GM && !inv_require_gm(inv, out))
			goto done;
	}
	run_handler(inv, out);
done:
	saved = d->persist_flush != NULL ? d->persist_flush(d->persist_ctx)
	                                 : state_flush(d->state, persist_channel, persist_user, d);
	if (saved < 0) {
		/* Refused: persistence put the records back as they were saved
		 * (they left memory), so the reply must not say it was done. */
		inv->chan = NULL;
		inv->user = NULL;
		reply_clear(out);
		reply_error(out, "This change was not made: the disk holding the bot's saved state "
		                 "is full; try again once space is freed (nothing saved before is "
		                 "affected).");
	} else if (saved > 0 && !reply_is_error(out)) {
		reply_to(out, REPLY_CHANNEL);
		reply_line(out, RS_BAD,
		           "Warning: this change could not be saved to disk and may be lost if "
		           "the bot restarts.");
	}
	/* A user with nothing to keep is not kept in memory either. */
	if (inv->user != NULL && state_release_user(d->state, inv->user))
		inv->user = NULL;
	invocation_clear(inv);
}

void
dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len, int64_t now,
              struct reply *out)
{
	struct invocation inv;

	memset(&inv, 0, sizeof(inv));
	if (len > CMD_LINE_MAX) {
		reply_error(out,
		            "That message is %zu bytes long; a command may be at most %d bytes.",
		            len, CMD_LINE_MAX);
		return;
	}
	if (memchr(line, '\0', len) != NULL) {
		reply_error(out, "That message contains a NUL byte; send plain text.");
		return;
	}
	if (!utf8_valid(line, len)) {
		reply_error(out, "That message is not valid UTF-8 text; send plain text.");
		return;
	}
	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (len > 0 && *line == '/') {
		line++;
		len--;
	}
	if (registry_parse_in(d->commands ? d->commands : command_table, line, len, &inv, out) < 0)
		return;
	inv.line = line;
	inv.line_len = len;
	dispatch_invocation(d, o, &inv, now, out);
}
