/*
 * dispatch: where a command's road enters the command layer.
 *
 * A transport hands every command over as a request (commands/core/
 * request.h, which draws the whole road) to dispatch_submit. The
 * dispatcher checks a typed line (length, NUL, UTF-8) and parses it against
 * the command table, then hands the request to the store through one table
 * of operations (struct dispatch_store_ops). The store runs it through the
 * dispatcher's handler when its records are in memory: the channel and
 * user records are resolved, a line whose reading depends on the channel
 * (a command whose first option defaults to the channel's: registry.h,
 * channel_default) has the words split on arrival bound with them, the invoker's
 * GM right worked out, GM-only
 * commands refused to others (on every platform alike), the handler run
 * with its /undo step (commands/core/undo.h). The store commits what the
 * command changed and answers it; nothing acknowledges a change before it
 * is committed.
 *
 * There is one road: the answer always comes through the request's answer
 * function, from the loop, after dispatch_submit returned. Whoever needs an
 * answer at once (tests, tools, the console's line API) drives the same
 * road and waits on it: dispatch_run, and its forms dispatch_line and
 * dispatch_invocation, submit and then wait on the store until the answer
 * came, as curl's easy interface loops over its multi interface.
 *
 * The store: the runtime's is persist (bot/store/persist.h). With none set,
 * it is a memstore (commands/core/memstore.h), which keeps nothing and
 * answers at the next wait (dispatch_poll).
 *
 * Ownership: the dispatcher borrows the state, the RNG and the store; they
 * must outlive it.
 */
#ifndef DELVER_DISPATCH_H
#define DELVER_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/registry.h"
#include "commands/core/request.h"

struct dispatch;
struct rng;

struct dispatch_opts {
	struct state *state;
	struct rng *rng;
	const struct command *const *commands; /* NULL: command_table */
	/* When set, told that a command in chan_key adopted `moved` references
	 * kept under the invoker's legacy user key (state_adopt); the runtime
	 * logs it. */
	void (*adopted)(const char *chan_key, int moved);
};

/*
 * The store as the dispatcher reaches it. Each operation gets the store's
 * own pointer, given with the table to dispatch_set_store.
 */
struct dispatch_store_ops {
	/* Takes req and carries it to its answer (request.h, step 3). */
	void (*submit)(void *store, struct request *req);
	/* Waits for the store's next piece of work (one turn of its loop) and
	 * does it; never from within the store's own callbacks. */
	void (*wait)(void *store);
	/* The requests whose answer context is ctx will never be wanted: they
	 * still run and commit, but are not answered (their transport is
	 * going away). */
	void (*cancel)(void *store, void *ctx);
};

struct dispatch *dispatch_new(const struct dispatch_opts *o);
/* Frees the dispatcher; requests still held by the store in memory are
 * freed without an answer. */
void dispatch_free(struct dispatch *d);
/* Sets the store (NULL: the store in memory). Requests already submitted
 * stay with the store that took them. */
void dispatch_set_store(struct dispatch *d, const struct dispatch_store_ops *ops, void *store);

struct state *dispatch_state(const struct dispatch *d);
struct rng *dispatch_rng(const struct dispatch *d);
/* The command table commands are parsed against. */
const struct command *const *dispatch_commands(const struct dispatch *d);

/* Takes req on the road (request.h); its answer function is called once,
 * from the loop, after this returned. */
void dispatch_submit(struct dispatch *d, struct request *req);

/*
 * Who keeps the channels' live panels (commands/panel) current: once a
 * request's changes are kept (request_on_kept), fn(ctx, req, chan_key,
 * message) is called for each channel the request changed whose record
 * names a message showing its panel, before the request is answered; so
 * every change on the road, by any command on any platform or a button,
 * reaches the panel. One watcher (the Discord transport's); NULL: none.
 */
typedef void (*dispatch_panel_fn)(void *ctx, const struct request *req, const char *chan_key,
                                  const char *message);
void dispatch_watch_panels(struct dispatch *d, dispatch_panel_fn fn, void *ctx);
/* Tells the store that ctx's requests will not be wanted (see cancel). */
void dispatch_cancel(struct dispatch *d, void *ctx);

/* The easy interface: submits req (made with no answer function) and waits
 * on the store until it is answered; req stays the caller's, its reply
 * complete. Never from within a loop callback. */
void dispatch_run(struct dispatch *d, struct request *req);
/* The same for a typed line (a leading '/' is skipped; transports strip
 * their own prefix first), or for an invocation whose command and options
 * are bound (its values move to the request), the reply written into out. */
void dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len,
                   int64_t now, struct reply *out);
void dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv,
                         int64_t now, struct reply *out);
/* Waits once on the store (dispatch_store_ops.wait): with the store in
 * memory, answers every request it holds. */
void dispatch_poll(struct dispatch *d);

#endif
