/*
 * dispatch: one command line or invocation in, one reply out.
 *
 * Checks the raw text (length, NUL, UTF-8), parses it against the command
 * table, resolves the channel and user records and the invoker's GM right,
 * enforces GM-only commands (on every platform alike), runs the handler, and
 * then makes every record the handler touched durable through the persist
 * hooks, so that a transport never sends a reply that acknowledges a change
 * which was not committed.
 *
 * Transports use the asynchronous forms (dispatch_line_async,
 * dispatch_invocation_async): the command runs in memory at once; with a
 * store attached (persist_defer), its reply is held until the records it
 * changed are committed in the store's next group commit, then handed to
 * done; a command that changed nothing replies at once unless an earlier
 * reply of its channel is still held (replies of one channel leave in the
 * order their commands came in).
 */
#ifndef DELVER_DISPATCH_H
#define DELVER_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/registry.h"

struct rng;

/* A held reply is ready: out is the caller's reply given to the call, now
 * complete (with the "may be lost" warning when its commit failed). */
typedef void (*dispatch_done_fn)(void *ctx, struct reply *out);

/* The refusals persist_defer's done may give instead of a count. */
#define DISPATCH_REFUSED  (-1) /* the disk holding the state is full */
#define DISPATCH_NOT_KEPT (-2) /* another process saved a change to a record first */

struct dispatch {
	struct state *state;
	struct rng *rng;
	const struct command *const *commands; /* NULL: command_table */
	/* Each returns 0, or -1 when the record could not be made durable
	 * (the reply then says so). Either may be NULL (no persistence). */
	int (*persist_channel)(struct channel *ch, void *ctx);
	int (*persist_user)(struct user *u, void *ctx);
	/* When set, called instead of the two above after each command: makes
	 * every touched record durable at once (one transaction) and returns the
	 * number that could not be (kept in memory: the reply warns), or a
	 * negative number when the change was refused: the touched records were
	 * dropped from memory, so they read back as last saved (the disk is
	 * full), and the reply becomes an error. */
	int (*persist_flush)(void *ctx);
	/* When set, used instead of all three: the store's group commit.
	 * Hands every touched record to the store's next commit; when done is
	 * not NULL and the reply must wait (records of this command, or an
	 * earlier held reply in chan_key), arranges done(dctx, lost) from the
	 * loop once they are committed (lost > 0: they are not durable;
	 * DISPATCH_REFUSED or DISPATCH_NOT_KEPT: the change was refused, its
	 * records read back as last saved) and returns 1; else returns 0 and
	 * never calls done. */
	int (*persist_defer)(void *ctx, const char *chan_key, void (*done)(void *dctx, int lost),
	                     void *dctx);
	void *persist_ctx;
	/* When set, told that a command in chan_key adopted `moved` references
	 * kept under the invoker's legacy user key (state_adopt); the runtime
	 * logs it. */
	void (*adopted)(const char *chan_key, int moved);
};

/* Runs a command line. A leading '/' is skipped; transports strip their
 * own prefix ('!' on IRC) first. Returns true when out is complete now
 * (done is never called); false when the reply is held: done(ctx, out) is
 * then called once from the loop, and out must live until then. */
bool dispatch_line_async(struct dispatch *d, const struct origin *o, const char *line, size_t len,
                         int64_t now, struct reply *out, dispatch_done_fn done, void *ctx);

/* Runs an invocation whose command and options are already bound (Discord).
 * Fills inv's context fields and clears its values afterwards. Returns as
 * dispatch_line_async. */
bool dispatch_invocation_async(struct dispatch *d, const struct origin *o, struct invocation *inv,
                               int64_t now, struct reply *out, dispatch_done_fn done, void *ctx);

/* The same, never holding the reply: with a store attached the records go
 * to its next commit but the reply does not wait for it (tests, tools;
 * transports use the forms above). */
void dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len,
                   int64_t now, struct reply *out);
void dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv,
                         int64_t now, struct reply *out);

#endif
