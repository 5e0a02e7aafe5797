/* dispatch: where a command's road enters the command layer; see dispatch.h. */
#include "commands/core/dispatch.h"

#include <stdlib.h>
#include <string.h>

#include "commands/core/memstore.h"
#include "commands/core/registry_parse.h"
#include "commands/core/undo.h"
#include "commands/panel/panel_state.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

struct dispatch {
	struct state *state;
	struct rng *rng;
	const struct command *const *commands;
	void (*adopted)(const char *chan_key, int moved);
	const struct dispatch_store_ops *ops;
	void *store;
	dispatch_panel_fn panel;
	void *panel_ctx;
	struct memstore mem; /* the store when none is set */
};

/*
 * Runs the handler. Game state that a command creates but does not change
 * (a read-only /tension or /fungeon party in a channel that never played)
 * is dropped again, so memory tracks channels that hold state, not every
 * channel that was ever asked something. A command that changed game state
 * leaves a step /undo can take back (commands/core/undo.h).
 */
static void
run_handler(struct invocation *inv, struct reply *out)
{
	bool had[CHANMOD_COUNT + 1];
	struct undo_snap snap;

	for (int i = 0; i < CHANMOD_COUNT; i++)
		had[i] = channel_mod_peek(inv->chan, (enum chanmod_id)i) != NULL;
	undo_before(inv, &snap);
	inv->screened = false;
	inv->rolled = false;
	inv->cmd->fn(inv, out);
	undo_after(inv, &snap, out);
	if (channel_touched(inv->chan))
		return;
	for (int i = 0; i < CHANMOD_COUNT; i++)
		if (!had[i] && channel_mod_peek(inv->chan, (enum chanmod_id)i) != NULL)
			channel_mod_set(inv->chan, (enum chanmod_id)i, NULL);
}

/*
 * Names the channel's users as the platform knows them now (the name of
 * the invoker's own command, another's new IRC nick), once before the
 * command: the GM seat's holder, where a secret roll is sent on IRC (a
 * NOTICE to that nick), and every player a module's state names (struct
 * chanmod's names_now), which may tell the invoker in out of a new name
 * not taken.
 */
static void
names_now(struct invocation *inv, struct reply *out)
{
	const char *gm = channel_gm(inv->chan);

	if (gm != NULL) {
		const char *now = invocation_name_now(inv, gm);

		if (now != NULL && now[0] != '\0' && strcmp(channel_gm_name(inv->chan), now) != 0) {
			channel_set_gm(inv->chan, gm, now);
			channel_touch(inv->chan);
		}
	}
	for (int i = 0; i < CHANMOD_COUNT; i++) {
		const struct chanmod *m = chanmod_table[i];
		void *state = channel_mod_peek(inv->chan, (enum chanmod_id)i);

		if (m != NULL && m->names_now != NULL && state != NULL &&
		    m->names_now(state, inv, out))
			channel_touch(inv->chan);
	}
}

/* The request's runner (request_run): the command on the records in
 * memory. The records it touched stay marked for the store. */
static void
run(void *ctx, struct request *req)
{
	struct dispatch *d = ctx;
	struct invocation *inv = request_invocation(req);
	struct reply *out = request_reply(req);
	const struct origin *o = request_origin(req);

	inv->from = o;
	inv->state = d->state;
	inv->rng = d->rng;
	inv->now = request_now(req);
	inv->chan = state_channel(d->state, o->chan_key);
	if (inv->chan == NULL) {
		request_set_outcome(req, REQUEST_CHANNEL_UNREADABLE);
		return;
	}
	if (o->legacy_user_key[0] != '\0') {
		int moved = state_adopt(d->state, inv->chan, o->legacy_user_key, o->user_key);

		if (moved > 0 && d->adopted != NULL)
			d->adopted(o->chan_key, moved);
	}
	inv->user = state_user(d->state, o->user_key);
	if (inv->user == NULL) {
		request_set_outcome(req, REQUEST_USER_UNREADABLE);
		return;
	}
	if (strcmp(user_name(inv->user), o->user_name) != 0)
		user_set_name(inv->user, o->user_name);
	user_set_last_used(inv->user, inv->now);
	channel_set_last_used(inv->chan, inv->now);
	invocation_seat(inv);
	names_now(inv, out);
	/* the channel's default is known now (registry.h, channel_default):
	 * the words split in parse are bound with it */
	if (inv->read_later && registry_parse_later(inv, out) < 0)
		return;
	if (inv->misread) {
		/* the registry's refusal stands, unless the command reads the
		 * line better with the channel's records (registry.h, misread) */
		(void)inv->cmd->misread(inv, out);
		return;
	}
	for (size_t i = 0; i < 3 && inv->path[i] != NULL; i++) {
		if (inv->path[i]->role == ROLE_GM && !invocation_require_gm(inv, out))
			return;
	}
	run_handler(inv, out);
}

/* Checks and parses the typed line of req into its invocation, or writes
 * the refusal into its reply. */
static void
parse(struct dispatch *d, struct request *req)
{
	struct invocation *inv = request_invocation(req);
	struct reply *out = request_reply(req);
	size_t len;
	const char *line = request_line(req, &len);

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
	inv->from = request_origin(req); /* an unknown name's list is the platform's */
	inv->line = line;
	inv->line_len = len;
	switch (registry_parse_before_channel(dispatch_commands(d), line, len, inv, out)) {
	case 1:
		inv->read_later = true; /* read with the channel's default (run) */
		break;
	case -1:
		/* read again once the channel's records are here (run) */
		inv->misread = inv->cmd != NULL && inv->cmd->misread != NULL;
		break;
	default:
		break;
	}
}

/* req's changes were kept: the panels of the channels it changed are
 * stale. */
static void
kept(void *ctx, const struct request *req)
{
	struct dispatch *d = ctx;

	if (d->panel == NULL)
		return;
	for (size_t i = 0; i < request_nchanges(req); i++) {
		const char *id = request_change(req, i);
		const struct channel *ch;

		if (strncmp(id, "c:", 2) != 0 ||
		    (ch = state_channel_peek(d->state, id + 2)) == NULL ||
		    panel_state_message(ch)[0] == '\0')
			continue;
		d->panel(d->panel_ctx, req, id + 2, panel_state_message(ch));
	}
}

void
dispatch_watch_panels(struct dispatch *d, dispatch_panel_fn fn, void *ctx)
{
	d->panel = fn;
	d->panel_ctx = ctx;
}

void
dispatch_submit(struct dispatch *d, struct request *req)
{
	size_t len;

	if (!reply_is_error(request_reply(req)) && request_line(req, &len) != NULL)
		parse(d, req);
	request_set_runner(req, run, d);
	request_on_kept(req, kept, d);
	d->ops->submit(d->store, req);
}

void
dispatch_cancel(struct dispatch *d, void *ctx)
{
	d->ops->cancel(d->store, ctx);
}

void
dispatch_poll(struct dispatch *d)
{
	d->ops->wait(d->store);
}

static void
ran(struct request *req, void *ctx)
{
	*(bool *)ctx = true;
}

void
dispatch_run(struct dispatch *d, struct request *req)
{
	bool done = false;

	request_set_answer(req, ran, &done);
	dispatch_submit(d, req);
	while (!done)
		dispatch_poll(d);
}

void
dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len, int64_t now,
              struct reply *out)
{
	struct request *req = request_new(o, now, NULL, NULL);

	request_use_reply(req, out);
	request_set_line(req, line, len);
	dispatch_run(d, req);
	request_free(req);
}

void
dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv, int64_t now,
                    struct reply *out)
{
	struct request *req = request_new(o, now, NULL, NULL);

	request_use_reply(req, out);
	*request_invocation(req) = *inv;
	/* The option values are the request's now. */
	memset(inv->args, 0, sizeof(inv->args));
	dispatch_run(d, req);
	request_free(req);
}

struct dispatch *
dispatch_new(const struct dispatch_opts *o)
{
	struct dispatch *d = xcalloc(1, sizeof(*d));

	d->state = o->state;
	d->rng = o->rng;
	d->commands = o->commands;
	d->adopted = o->adopted;
	memstore_init(&d->mem, d->state);
	dispatch_set_store(d, NULL, NULL);
	return d;
}

void
dispatch_free(struct dispatch *d)
{
	if (d == NULL)
		return;
	memstore_clear(&d->mem);
	free(d);
}

void
dispatch_set_store(struct dispatch *d, const struct dispatch_store_ops *ops, void *store)
{
	d->ops = ops != NULL ? ops : &memstore_ops;
	d->store = ops != NULL ? store : &d->mem;
}

struct state *
dispatch_state(const struct dispatch *d)
{
	return d->state;
}

struct rng *
dispatch_rng(const struct dispatch *d)
{
	return d->rng;
}

const struct command *const *
dispatch_commands(const struct dispatch *d)
{
	return d->commands != NULL ? d->commands : command_table;
}
