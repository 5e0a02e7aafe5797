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
		if (p->qchan_spare != NULL) {
			c = p->qchan_spare;
			p->qchan_spare = NULL;
			memset(c, 0, sizeof(*c));
		} else {
			c = xcalloc(1, sizeof(*c));
		}
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

/* --- the lists by state, and the answers that may go --- */

/* Appends req to the list *head..*tail (through state_prev, state_next). */
static void
state_list_add(struct request **head, struct request **tail, struct request *req)
{
	struct request_hold *h = request_hold(req);

	h->state_prev = *tail;
	h->state_next = NULL;
	if (*tail != NULL)
		request_hold(*tail)->state_next = req;
	else
		*head = req;
	*tail = req;
}

static void
state_list_del(struct request **head, struct request **tail, struct request *req)
{
	struct request_hold *h = request_hold(req);

	if (h->state_prev != NULL)
		request_hold(h->state_prev)->state_next = h->state_next;
	else
		*head = h->state_next;
	if (h->state_next != NULL)
		request_hold(h->state_next)->state_prev = h->state_prev;
	else
		*tail = h->state_prev;
	h->state_prev = h->state_next = NULL;
}

static bool
came_first(struct request *a, struct request *b)
{
	return request_hold(a)->order < request_hold(b)->order;
}

/* req may be answered: into the heap of answers that may go. */
static void
ready_push(struct persist *p, struct request *req)
{
	size_t i;

	if (p->nready == p->ready_cap) {
		p->ready_cap = p->ready_cap != 0 ? p->ready_cap * 2 : 64;
		p->ready = xrealloc(p->ready, p->ready_cap * sizeof(*p->ready));
	}
	for (i = p->nready++; i > 0 && came_first(req, p->ready[(i - 1) / 2]); i = (i - 1) / 2)
		p->ready[i] = p->ready[(i - 1) / 2];
	p->ready[i] = req;
}

/* The oldest request that may be answered, out of the heap (nready > 0). */
static struct request *
ready_pop(struct persist *p)
{
	struct request *top = p->ready[0], *last = p->ready[--p->nready];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < p->nready) {
		if (c + 1 < p->nready && came_first(p->ready[c + 1], p->ready[c]))
			c++;
		if (!came_first(p->ready[c], last))
			break;
		p->ready[i] = p->ready[c];
		i = c;
	}
	if (p->nready > 0)
		p->ready[i] = last;
	return top;
}

/* Whether req is the oldest of its channel in flight (or joined none). */
static bool
chan_first(struct request *req)
{
	const struct qchan *c = request_hold(req)->chan;

	return c == NULL || c->head == req;
}

/* Moves req into state (0: none, once answered): into the list of that
 * state, and into the heap of answers that may go when it is Q_DONE and the
 * first of its channel (or when it becomes that first: unlink_req). */
static void
set_state(struct persist *p, struct request *req, enum persist_qstate state)
{
	struct request_hold *h = request_hold(req);

	if (h->state == Q_WAIT)
		state_list_del(&p->wait_head, &p->wait_tail, req);
	else if (h->state == Q_RAN)
		state_list_del(&p->ran_head, &p->ran_tail, req);
	h->state = (int)state;
	if (state == Q_WAIT)
		state_list_add(&p->wait_head, &p->wait_tail, req);
	else if (state == Q_RAN)
		state_list_add(&p->ran_head, &p->ran_tail, req);
	else if (state == Q_DONE && chan_first(req))
		ready_push(p, req);
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
	/* An event's mark goes with its changes, and with a run of a command
	 * that may change records but changed none (a refusal, "nothing to
	 * undo"): its answer said so, and a replay run again on newer records
	 * could change what it said it did not. */
	if (request_key(req)[0] != '\0' && (request_nchanges(req) > 0 || request_may_change(req)))
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
	int r = 0;

	/* SQLite's records are read on the loop when needed (persist_read.h). */
	if (!p->sqlite) {
		r = persist_read_want(p, o->chan_key, o->user_key, o->legacy_user_key, restart);
		if (r == PERSIST_WANT_CHANNEL)
			return -REQUEST_CHANNEL_UNREADABLE;
		if (r == PERSIST_WANT_USER)
			return -REQUEST_USER_UNREADABLE;
		/* A thread's parent channel too, for its GM seat: a failed read
		 * of it only leaves the seat unknown (invocation_seat), it
		 * refuses nothing. */
		if (o->parent_key[0] != '\0' &&
		    persist_read_want(p, o->parent_key, o->user_key, "", restart) == 1)
			r = 1;
	}
	/* A replay waits for its event's mark too (persist__marked), unless
	 * memory tells. */
	if (request_replayed(req) && request_key(req)[0] != '\0' &&
	    persist__mark_unknown(p, request_key(req))) {
		int m;

		/* Past the bound of requests waiting, SQLite reads it on the
		 * loop instead, when it runs (persist_queue_submit). */
		if (p->marks_now)
			return r;
		m = persist_read_want_mark(p, request_key(req), restart);
		if (m < 0)
			return -REQUEST_CHANNEL_UNREADABLE;
		r = r > 0 || m > 0 ? 1 : 0;
	}
	return r;
}

static void run_waiting(struct persist *p);

void
persist_queue_submit(void *store, struct request *req)
{
	struct persist *p = store;
	struct request_hold *h = request_hold(req);
	const char *chan_key = request_origin(req)->chan_key;
	struct qchan *c = NULL;
	int r;

	/* On SQLite only replays wait, for their marks: at the bound, those
	 * waiting read them now, on the loop, and run, rather than refuse
	 * more requests. */
	if (p->sqlite && p->nwaiting >= REQUEST_WAITING_MAX) {
		p->marks_now = true;
		run_waiting(p);
		p->marks_now = false;
	}
	memset(h, 0, sizeof(*h));
	h->order = p->norder++;
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
	} else if (!request_runnable(req) &&
	           !(request_replayed(req) && request_key(req)[0] != '\0')) {
		/* Nothing to run; a replay that runs nothing still asks for its
		 * mark (a transport's probe of whether the event was handled). */
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
		if (p->qchan_spare == NULL)
			p->qchan_spare = c;
		else
			free(c);
	} else if (request_hold(c->head)->state == Q_DONE) {
		ready_push(p, c->head);
	}
}

/*
 * The answers go oldest first. Answering one may let the next of its
 * channel go, and may submit more requests (they come later, and go in
 * this call when they may): each joins the heap when it may go, so the
 * order is that of the one pass over the list it replaces.
 */
void
persist__answer_ready(struct persist *p)
{
	while (p->nready > 0) {
		struct request *req = ready_pop(p);

		unlink_req(p, req);
		request_answer(req);
	}
}

/* The requests that ran are in order of their commits (seq): those over
 * are the first of the list. */
void
persist__commit_over(struct persist *p, uint64_t seq, int lost)
{
	while (p->ran_head != NULL && request_hold(p->ran_head)->seq <= seq) {
		struct request *req = p->ran_head;

		if (request_outcome(req) != REQUEST_NOT_KEPT &&
		    request_outcome(req) != REQUEST_HANDLED_ELSEWHERE)
			request_set_outcome(req, lost < 0   ? REQUEST_REFUSED_FULL
			                         : lost > 0 ? REQUEST_NOT_DURABLE
			                                    : REQUEST_DONE);
		set_state(p, req, Q_DONE);
	}
	persist__answer_ready(p);
}

/*
 * One pass over the requests waiting, in the order they came. Only the
 * oldest request of a channel that has not run may run, and one that does
 * makes the next of its channel the oldest, which comes later in the pass;
 * so every request whose records are in memory runs in this pass, in
 * order, and the records of each channel are asked for once.
 */
static void
run_waiting(struct persist *p)
{
	struct request *req, *next;

	for (req = p->wait_head; req != NULL && p->nwaiting > 0; req = next) {
		struct request_hold *h = request_hold(req);
		struct request *before = h->state_prev;
		int r;

		next = h->state_next;
		if (((struct qchan *)h->chan)->wait_head != req)
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
		/* req left the list; what follows it now (a request submitted
		 * meanwhile included) follows the one before it. */
		next = before != NULL ? request_hold(before)->state_next : p->wait_head;
	}
}

void
persist__reads_over(struct persist *p)
{
	run_waiting(p);
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
