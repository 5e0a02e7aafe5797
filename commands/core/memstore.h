/*
 * memstore: a store that keeps nothing (struct dispatch_store_ops): the
 * dispatcher's store when none is set, and the one tests set with their
 * own functions. It runs each request when it is submitted and hands the
 * records the request touched to chan_fn and user_fn, as a store would
 * commit them (NULL: dropped); a function that returns non-zero makes the
 * change not durable (the reply warns). A user record left with nothing to
 * keep is forgotten, and so is a private conversation's channel record. Requests are answered at
 * the next wait (dispatch_poll), in the order they came: memstore has no loop.
 *
 * Ownership: the struct is the caller's (memstore_init, memstore_clear);
 * the state must outlive it.
 */
#ifndef DELVER_MEMSTORE_H
#define DELVER_MEMSTORE_H

#include "commands/core/dispatch.h"

struct memstore {
	struct state *st;
	int (*chan_fn)(struct channel *ch, void *ctx);
	int (*user_fn)(struct user *u, void *ctx);
	void *ctx;
	struct request *head, *tail; /* the requests held, oldest first */
};

extern const struct dispatch_store_ops memstore_ops;

/* A memstore of st with no functions. */
void memstore_init(struct memstore *m, struct state *st);
/* Frees the requests still held, unanswered. */
void memstore_clear(struct memstore *m);

#endif
