/*
 * holdstore: a store for unit tests (struct dispatch_store_ops) that runs
 * each request when it is submitted (the records it touched are dropped, as
 * if sent to a commit) and holds it until the test says its commit is over
 * (holdstore_commit): the test decides when, and with what outcome, each
 * answer goes. Cancelled requests are answered into nothing.
 */
#ifndef DELVER_TEST_HOLDSTORE_H
#define DELVER_TEST_HOLDSTORE_H

#include "commands/core/dispatch.h"

#define HOLDSTORE_MAX 8

struct holdstore {
	struct state *st;
	struct request *req[HOLDSTORE_MAX]; /* held, in the order they came; NULL once answered */
	int n;                              /* requests submitted */
};

extern const struct dispatch_store_ops holdstore_ops;

/* Answers the i-th request submitted, with outcome. */
void holdstore_commit(struct holdstore *h, int i, enum request_outcome outcome);

#endif
