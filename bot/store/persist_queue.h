/*
 * persist_queue: persist's side of a command's road (commands/core/
 * request.h): the store operations the dispatcher reaches persist through
 * (persist_store_ops), and the one list of requests in flight.
 *
 * Every submitted request joins the list, in the order they came, and its
 * channel's. It runs at once when its records are in memory (always on
 * SQLite, whose reads are synchronous) and no earlier request of its
 * channel waits to run; else it waits for the reads by key of its records
 * (persist_read.h), at most REQUEST_WAITING_MAX at once (more are refused),
 * and runs in the turn after they are over, in order (a read that failed
 * refuses it). What it changed goes to the next group commit (persist.h)
 * and is noted on the request; it is answered once that commit is over and
 * every earlier request of its channel was answered: replies of a channel
 * leave in the order their commands came, and a request that changed
 * nothing waits for nothing else. Answers go from the loop (the idle turn,
 * a commit's or a read's end), never within persist_queue_submit.
 *
 * Nothing outside bot/store/ uses more than persist_store_ops.
 */
#ifndef DELVER_PERSIST_QUEUE_H
#define DELVER_PERSIST_QUEUE_H

#include "commands/core/dispatch.h"

/* The store operations of a struct persist (the store pointer given with
 * them to dispatch_set_store). */
extern const struct dispatch_store_ops persist_store_ops;

void persist_queue_submit(void *store, struct request *req);
/* One turn of the persist's loop (the easy interface's wait). */
void persist_queue_wait(void *store);
void persist_queue_cancel(void *store, void *ctx);

#endif
