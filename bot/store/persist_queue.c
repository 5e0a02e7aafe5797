/*
 * persist_queue: the requests in flight, from dispatch_submit to their
 * answer; see persist_queue.h.
 */
#include "bot/store/persist_queue.h"
#include "bot/store/persist_int.h"
#include "bot/store/persist_read.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/* The entry of key in the channels with requests in flight, made when
 * there is none. */
static struct qchan *
chan_get(struct persist *p, const char *key)
{
	struct qchan *c = NULL;

	HASH_FIND_STR(p->qchans, key, c);
	if (c == NULL) {
		c = xcalloc(1, sizeof(*c));
		memcpy(c->key, key, strnlen(key, KEY_MAX - 1));
		HASH_ADD_STR(p->qchans, key, c);
	}
	return c;
}

static struct quser *
user_find(const struct persist *p, const char *key)
{
	struct quser *u = NULL;

	HASH_FIND_STR(p->qusers, key, u);
	return u;
}

/* One more (add 1) or one less (add -1) request of key waits to run. */
static void
user_count(struct persist *p, const char *key, int add)
{
	struct quser *u = user_find(p, key);

	if (u == NULL) {
		u = xcalloc(1, sizeof(*u));
		memcpy(u->key, key, strnlen(key, KEY_MAX - 1));
		HASH_ADD_STR(p->qusers, key, u);
	}
	if (add > 0)
		u->n++;
	else if (--u->n == 0) {
		HASH_DEL(p->qusers, u);
		free(u);
	}
}

static void
set_state(struct persist *p, struct request *req, enum persist_qstate state)
{
	struct request_hold *h = request_hold(req);

	if (h->state == Q_DONE)
		p->nready--;
	h->state = (int)state;
	if (state == Q_DONE)
		p->nready++;
}

/* req no longer waits to run: the next of its channel is the oldest that
 * does. */
static void
unwait(struct persist *p, struct request *req)
{
	struct request_hold *h = request_hold(req);
	struct qchan *c = h->chan;

	c->wait_head = h->chan_next;
	p->nwaiting--;
	user_count(p, request_origin(req)->user_key, -1);
}

/*
 * Runs req on the records in memory, notes what it changed (the records
 * the state marks touched go to the next commit) and forgets its user's
 * record when it holds nothing to keep, unless a request of that user
 * waits to run (it would read it again).
 */
static void
run_one(struct persist *p, struct request *req)
{
	const struct origin *o = request_origin(req);
	const char *user_key = o->user_key;
	struct channel *ch;
	struct user *u;
	int marked = 0;

	/* A replay of an event handled before (by a process that stopped
	 * since) is not run again: its mark says what it answered. */
	if (request_replayed(req) && request_key(req)[0] != '\0' &&
	    (marked = persist__marked(p, req)) != 0) {
		request_set_outcome(req,
		                    marked > 0 ? REQUEST_REPLAYED : REQUEST_CHANNEL_UNREADABLE);
		set_state(p, req, Q_DONE);
		return;
	}
	request_run(req);
	p->collecting = req;
	persist__collect(p);
	p->collecting = NULL;
	if (request_nchanges(req) > 0 && request_key(req)[0] != '\0')
		persist__mark(p, req);
	if (request_nchanges(req) > 0) {
		request_hold(req)->seq = p->collect_seq;
		set_state(p, req, Q_RAN);
		p->stats.held++;
	} else {
		set_state(p, req, Q_DONE);
	}
	if (user_find(p, user_key) == NULL && (u = state_user_peek(p->st, user_key)) != NULL)
		state_release_user(p->st, u);
	/* So is a private conversation with nothing to keep, unless a request
	 * of it waits to run: strangers who write to the bot once each leave
	 * nothing behind. */
	if (o->direct && ((struct qchan *)request_hold(req)->chan)->wait_head == NULL &&
	    (ch = state_channel_peek(p->st, o->chan_key)) != NULL)
		state_release_channel(p->st, ch);
}

/* Whether req's records are in memory (0), being read (1), or their last
 * read failed (<0: the outcome to refuse it with). */
static int
records(struct persist *p, struct request *req, bool restart)
{
	const struct origin *o = request_origin(req);
	int r;

	if (p->sqlite)
		return 0; /* read on the loop when needed (persist_read.h) */
	r = persist_read_want(p, o->chan_key, o->user_key, o->legacy_user_key, restart);
	if (r == PERSIST_WANT_CHANNEL)
		return -REQUEST_CHANNEL_UNREADABLE;
	if (r == PERSIST_WANT_USER)
		return -REQUEST_USER_UNREADABLE;
	/* A thread's parent channel too, for its GM seat: a failed read of
	 * it only leaves the seat unknown (invocation_seat), it refuses
	 * nothing. */
	if (o->parent_key[0] != '\0' &&
	    persist_read_want(p, o->parent_key, o->user_key, "", restart) == 1)
		r = 1;
	/* A replay waits for its event's mark too (persist__marked). */
	if (request_replayed(req) && request_key(req)[0] != '\0') {
		int m = persist_read_want_mark(p, request_key(req), restart);

		if (m < 0)
			return -REQUEST_CHANNEL_UNREADABLE;
		r = r > 0 || m > 0 ? 1 : 0;
	}
	return r;
}

void
persist_queue_submit(void *store, struct request *req)
{
	struct persist *p = store;
	struct request_hold *h = request_hold(req);
	const char *chan_key = request_origin(req)->chan_key;
	struct qchan *c = NULL;
	int r;

	memset(h, 0, sizeof(*h));
	h->prev = p->qtail;
	if (p->qtail != NULL)
		request_hold(p->qtail)->next = req;
	else
		p->qhead = req;
	p->qtail = req;
	HASH_FIND_STR(p->qchans, chan_key, c);
	if (request_runnable(req) && p->nwaiting >= REQUEST_WAITING_MAX &&
	    ((c != NULL && c->wait_head != NULL) || records(p, req, true) != 0)) {
		/* Refused at once, ahead of its channel's answers: it would
		 * otherwise wait as long as those it cannot join. */
		request_set_outcome(req, REQUEST_BUSY);
		set_state(p, req, Q_DONE);
		persist__wake(p);
		return;
	}
	c = chan_get(p, chan_key);
	h->chan = c;
	if (c->tail != NULL)
		request_hold(c->tail)->chan_next = req;
	else
		c->head = req;
	c->tail = req;
	if (p->backend_closed && request_runnable(req)) {
		request_set_outcome(req, REQUEST_STOPPING);
		set_state(p, req, Q_DONE);
	} else if (!request_runnable(req)) {
		set_state(p, req, Q_DONE);
	} else if ((r = records(p, req, true)) == 0 && c->wait_head == NULL) {
		run_one(p, req);
	} else if (r < 0 && c->wait_head == NULL) {
		request_set_outcome(req, (enum request_outcome) - r);
		set_state(p, req, Q_DONE);
	} else {
		set_state(p, req, Q_WAIT);
		if (c->wait_head == NULL)
			c->wait_head = req;
		p->nwaiting++;
		user_count(p, request_origin(req)->user_key, 1);
	}
	persist__wake(p);
}

/* Takes req off the list and its channel's (it is its channel's oldest). */
static void
unlink_req(struct persist *p, struct request *req)
{
	struct request_hold *h = request_hold(req);
	struct qchan *c = h->chan;

	if (h->prev != NULL)
		request_hold(h->prev)->next = h->next;
	else
		p->qhead = h->next;
	if (h->next != NULL)
		request_hold(h->next)->prev = h->prev;
	else
		p->qtail = h->prev;
	set_state(p, req, 0);
	if (c == NULL)
		return; /* refused at once: it never joined its channel */
	c->head = h->chan_next;
	if (c->head == NULL) {
		HASH_DEL(p->qchans, c);
		free(c);
	}
}

void
persist__answer_ready(struct persist *p)
{
	struct request *req = p->qhead;

	while (req != NULL && p->nready > 0) {
		struct request_hold *h = request_hold(req);
		struct request *before = h->prev;

		if (h->state != Q_DONE ||
		    (h->chan != NULL && ((struct qchan *)h->chan)->head != req)) {
			req = h->next;
			continue;
		}
		unlink_req(p, req);
		/* The answer may submit more requests: they join at the end,
		 * where this pass reaches them. */
		request_answer(req);
		req = before != NULL ? request_hold(before)->next : p->qhead;
	}
}

void
persist__commit_over(struct persist *p, uint64_t seq, int lost)
{
	for (struct request *req = p->qhead; req != NULL; req = request_hold(req)->next) {
		struct request_hold *h = request_hold(req);

		if (h->state != Q_RAN || h->seq > seq)
			continue;
		if (request_outcome(req) != REQUEST_NOT_KEPT)
			request_set_outcome(req, lost < 0   ? REQUEST_REFUSED_FULL
			                         : lost > 0 ? REQUEST_NOT_DURABLE
			                                    : REQUEST_DONE);
		set_state(p, req, Q_DONE);
	}
	persist__answer_ready(p);
}

/*
 * One pass over the requests in the order they came. Only the oldest
 * request of a channel that has not run may run, and one that does makes
 * the next of its channel the oldest, which comes later in the pass; so
 * every request whose records are in memory runs in this pass, in order,
 * and the records of each channel are asked for once.
 */
void
persist__reads_over(struct persist *p)
{
	for (struct request *req = p->qhead; req != NULL && p->nwaiting > 0;
	     req = request_hold(req)->next) {
		struct request_hold *h = request_hold(req);
		int r;

		if (h->state != Q_WAIT || ((struct qchan *)h->chan)->wait_head != req)
			continue;
		r = records(p, req, false);
		if (r == 1)
			continue;
		unwait(p, req);
		if (r < 0) {
			request_set_outcome(req, (enum request_outcome) - r);
			set_state(p, req, Q_DONE);
		} else {
			run_one(p, req);
		}
	}
	persist__answer_ready(p);
	persist__wake(p);
}

bool
persist__queue_busy(const struct persist *p)
{
	return p->qhead != NULL;
}

void
persist_queue_wait(void *store)
{
	struct persist *p = store;

	uv_run(p->loop, UV_RUN_ONCE);
}

void
persist_queue_cancel(void *store, void *ctx)
{
	struct persist *p = store;

	for (struct request *req = p->qhead; req != NULL; req = request_hold(req)->next)
		if (request_ctx(req) == ctx)
			request_orphan(req);
}

const struct dispatch_store_ops persist_store_ops = {
    .submit = persist_queue_submit,
    .wait = persist_queue_wait,
    .cancel = persist_queue_cancel,
};
