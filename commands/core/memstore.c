/* memstore: a store that keeps nothing; see memstore.h. */
#include "commands/core/memstore.h"

#include <stdio.h>
#include <string.h>

/* The request whose records are being handed over, for chan_note and
 * user_note. */
struct noting {
	struct memstore *m;
	struct request *req;
};

/* Notes a record the request changed ("c:KEY"), then hands it to the
 * test's function, as a store would commit it. */
static int
chan_note(struct channel *ch, void *ctx)
{
	struct noting *n = ctx;
	char id[REQUEST_ID_MAX];

	snprintf(id, sizeof(id), "c:%s", channel_key(ch));
	request_add_change(n->req, id);
	channel_set_changes_saved(ch, channel_changes(ch)); /* held, as far as it goes */
	return n->m->chan_fn != NULL ? n->m->chan_fn(ch, n->m->ctx) : 0;
}

static int
user_note(struct user *u, void *ctx)
{
	struct noting *n = ctx;
	char id[REQUEST_ID_MAX];

	snprintf(id, sizeof(id), "u:%s", user_key(u));
	request_add_change(n->req, id);
	return n->m->user_fn != NULL ? n->m->user_fn(u, n->m->ctx) : 0;
}

static void
mem_submit(void *store, struct request *req)
{
	struct memstore *m = store;
	struct request_hold *h = request_hold(req);

	if (request_runnable(req)) {
		const struct origin *o = request_origin(req);
		struct channel *ch;
		struct user *u;

		struct noting n = {m, req};

		request_run(req);
		if (state_flush(m->st, chan_note, user_note, &n) > 0)
			request_set_outcome(req, REQUEST_NOT_DURABLE);
		if ((u = state_user_peek(m->st, o->user_key)) != NULL)
			state_release_user(m->st, u);
		/* So is a private conversation with nothing to keep: strangers
		 * who write to the bot once each leave nothing behind. */
		if (o->direct && (ch = state_channel_peek(m->st, o->chan_key)) != NULL)
			state_release_channel(m->st, ch);
	}
	h->next = NULL;
	if (m->tail != NULL)
		request_hold(m->tail)->next = req;
	else
		m->head = req;
	m->tail = req;
}

/* Answers every request held when called, in the order they came; those
 * submitted meanwhile wait for the next call. */
static void
mem_wait(void *store)
{
	struct memstore *m = store;
	struct request *req = m->head;

	m->head = m->tail = NULL;
	while (req != NULL) {
		struct request *next = request_hold(req)->next;

		request_answer(req);
		req = next;
	}
}

static void
mem_cancel(void *store, void *ctx)
{
	struct memstore *m = store;

	for (struct request *req = m->head; req != NULL; req = request_hold(req)->next)
		if (request_ctx(req) == ctx)
			request_orphan(req);
}

const struct dispatch_store_ops memstore_ops = {
    .submit = mem_submit,
    .wait = mem_wait,
    .cancel = mem_cancel,
};

void
memstore_init(struct memstore *m, struct state *st)
{
	memset(m, 0, sizeof(*m));
	m->st = st;
}

void
memstore_clear(struct memstore *m)
{
	struct request *req = m->head;

	while (req != NULL) {
		struct request *next = request_hold(req)->next;

		request_free(req);
		req = next;
	}
	m->head = m->tail = NULL;
}
