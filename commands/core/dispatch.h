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
 *
 * With a store whose reads by key are asynchronous (PostgreSQL: hook
 * persist_want), a command whose channel or user is not in memory waits for
 * its read: the asynchronous forms park it (a copy of its origin, line and
 * bound options), the store reads the records, and dispatch_resume runs it
 * (its reply then goes to done as any held reply). Commands of one channel
 * run in the order they came in; a read that fails refuses the commands
 * waiting for it, and at most DISPATCH_PARKED_MAX commands wait (more are
 * refused).
 */
#ifndef DELVER_DISPATCH_H
#define DELVER_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/registry.h"

struct rng;

/* A held reply is ready: out is the caller's reply given to the call, now
 * complete (with the "may be lost" warning when its commit failed). */
typedef void (*dispatch_done_fn)(void *ctx, struct reply *out);

/* The refusals persist_defer's done may give instead of a count. */
#define DISPATCH_REFUSED  (-1) /* the disk holding the state is full */
#define DISPATCH_NOT_KEPT (-2) /* another process saved a change to a record first */

/* What persist_want may say besides 0 (in memory) and 1 (being read). */
#define DISPATCH_WANT_CHANNEL (-1) /* the channel's last read failed */
#define DISPATCH_WANT_USER    (-2) /* a user's last read failed */

/* Commands that may wait for reads at once; more are refused. */
#define DISPATCH_PARKED_MAX 1024

struct dispatch_parked;
struct dispatch_waiting;

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
	/* When set (a store whose reads by key are asynchronous), asked before
	 * a command runs whether its records are in memory: the channel
	 * chan_key, the user user_key and, when not "", the user legacy_key.
	 * Returns 0 when they are (or can be read at once); 1 when a read by
	 * key is under way (started now when none was, or when restart is set
	 * and the last one failed): the store calls dispatch_resume from the
	 * loop when a read is over; DISPATCH_WANT_CHANNEL or DISPATCH_WANT_USER
	 * when the last read of that record failed. */
	int (*persist_want)(void *ctx, const char *chan_key, const char *user_key,
	                    const char *legacy_key, bool restart);
	void *persist_ctx;
	/* The commands waiting for persist_want's reads, oldest first, and
	 * the same by channel key and by user key (the dispatcher's own: zeroed
	 * with the rest, never touched by callers). */
	struct dispatch_parked *parked_head, *parked_tail;
	size_t nparked;
	struct dispatch_waiting *parked_chans, *parked_users;
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

/* Runs the parked commands whose records are now in memory, and refuses
 * those whose read failed (the store calls it from the loop when a read is
 * over; never from within a dispatch_ call). Their replies go to their done
 * functions. */
void dispatch_resume(struct dispatch *d);

/* The same, never holding the reply: with a store attached the records go
 * to its next commit but the reply does not wait for it (tests, tools;
 * transports use the forms above). */
void dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len,
                   int64_t now, struct reply *out);
void dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv,
                         int64_t now, struct reply *out);

#endif
