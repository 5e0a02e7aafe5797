/*
 * dispatch: one command line or invocation in, one reply out.
 *
 * Checks the raw text (length, NUL, UTF-8), parses it against the command
 * table, resolves the channel and user records and the invoker's GM right,
 * enforces GM-only commands (on every platform alike), runs the handler, and
 * then makes every record the handler touched durable through the persist
 * hooks before returning, so that a transport never sends a reply that
 * acknowledges a change which was not handed to the journal.
 */
#ifndef DELVER_DISPATCH_H
#define DELVER_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "commands/registry.h"

struct rng;

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
	void *persist_ctx;
	/* When set, told that a command in chan_key adopted `moved` references
	 * kept under the invoker's legacy user key (state_adopt); the runtime
	 * logs it. */
	void (*adopted)(const char *chan_key, int moved);
};

/* Runs a command line. A leading '/' is skipped; transports strip their
 * own prefix ('!' on IRC) first. */
void dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len,
                   int64_t now, struct reply *out);

/* Runs an invocation whose command and options are already bound (Discord).
 * Fills inv's context fields and clears its values afterwards. */
void dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv,
                         int64_t now, struct reply *out);

#endif
