/* holdstore: a store that holds answers for unit tests; see holdstore.h. */
#include "tests/unit/helpers/holdstore.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static void
hold_submit(void *store, struct request *req)
{
	struct holdstore *h = store;

	assert_true(h->n < HOLDSTORE_MAX);
	request_run(req);
	state_flush(h->st, NULL, NULL, NULL);
	h->req[h->n++] = req;
}

static void
hold_wait(void *store)
{
	(void)store;
}

static void
hold_cancel(void *store, void *ctx)
{
	struct holdstore *h = store;

	for (int i = 0; i < h->n; i++)
		if (h->req[i] != NULL && request_ctx(h->req[i]) == ctx)
			request_orphan(h->req[i]);
}

const struct dispatch_store_ops holdstore_ops = {
    .submit = hold_submit,
    .wait = hold_wait,
    .cancel = hold_cancel,
};

void
holdstore_commit(struct holdstore *h, int i, enum request_outcome outcome)
{
	struct request *req = h->req[i];

	assert_non_null(req);
	h->req[i] = NULL;
	request_set_outcome(req, outcome);
	request_answer(req);
}
