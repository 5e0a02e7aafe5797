/*
 * request: one command on its way, from the transport that made it to that
 * transport's answer. It carries who asked and where (an origin), what (a
 * typed line, or a command whose options the transport bound), how to
 * answer (a function and its context), and on the way the reply, the
 * records the command changed and what the store made of them.
 *
 * The road (one for every transport, the console and the tests alike):
 *   1. The transport makes a request (request_new), gives it its command
 *      (request_set_line, or binds the options of request_invocation) and
 *      hands it to dispatch_submit (commands/core/dispatch.h). It may write
 *      an error into request_reply first (an option that does not bind):
 *      such a request is answered without running, in its channel's order.
 *   2. dispatch_submit checks and parses a typed line and hands the request
 *      to the store (struct dispatch_store_ops).
 *   3. The store holds every request in flight, in the order they came. It
 *      runs one (request_run: the dispatcher's handler on records in
 *      memory) once its records are in memory and every earlier request of
 *      its channel has run; it takes the records the command touched into
 *      its next group commit and notes them on the request
 *      (request_add_change); once they are committed and every earlier
 *      request of its channel was answered, it sets the outcome and answers
 *      (request_answer).
 *   4. The answer function runs once, from the loop, after dispatch_submit
 *      returned. It gets the request back, reply complete, and frees it
 *      (request_free) when done with it. Just before it, once what the
 *      request changed is kept, the dispatcher hears of the change
 *      (request_on_kept): what shows a channel's state (its live panel)
 *      follows every change this one way, whatever made it.
 * A command that changes nothing has no changes: the store commits nothing
 * for it, and it is answered as soon as its channel's earlier answers are.
 *
 * Ownership: the transport owns a request until dispatch_submit, the store
 * from then until it answers, the answer function after that. The request
 * owns its reply (unless request_use_reply lent it one), its invocation's
 * option values and its copy of the line.
 */
#ifndef DELVER_REQUEST_H
#define DELVER_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/invocation.h"
#include "commands/core/reply.h"
#include "rules/base/buf.h"

#define REQUEST_KEY_MAX 48            /* bytes of a platform event's id, with the NUL */
#define REQUEST_ID_MAX  (KEY_MAX + 2) /* bytes of a record id ("c:KEY", "u:KEY") */
/* Requests a store lets wait for reads at once; more are refused (REQUEST_BUSY). */
#define REQUEST_WAITING_MAX 1024

struct request;

/* Takes req back, answered: read its reply, then request_free it. */
typedef void (*request_answer_fn)(struct request *req, void *ctx);

/* What the store made of a request, and so what its answer says. */
enum request_outcome {
	REQUEST_DONE = 0,           /* ran; its changes (if any) are committed */
	REQUEST_NOT_DURABLE,        /* ran, but a change could not be saved: kept in
	                               memory and retried; the reply warns */
	REQUEST_REFUSED_FULL,       /* not made: the disk holding the state is full */
	REQUEST_NOT_KEPT,           /* not kept: another process saved the same records first */
	REQUEST_CHANNEL_UNREADABLE, /* not run: the channel's record cannot be read now */
	REQUEST_USER_UNREADABLE,    /* not run: the user's record cannot be read now */
	REQUEST_BUSY,               /* not run: too many requests wait for reads */
	REQUEST_STOPPING,           /* not run: the store has closed */
	REQUEST_REPLAYED,           /* not run: a replay of a platform event whose
	                               changes were committed before (a restart);
	                               its answer is what was kept (request_kept) */
	REQUEST_HANDLED_ELSEWHERE,  /* not kept: another process of the fleet handled the
	                               same event first (its mark was stored), and it is
	                               that process that answers; a transport that cannot
	                               leave it unanswered tells the user so */
};

/* A request from o (copied), made at now (unix seconds), answered through
 * fn(req, ctx); fn may be NULL for the easy interface (dispatch_run). */
struct request *request_new(const struct origin *o, int64_t now, request_answer_fn fn, void *ctx);
void request_free(struct request *req);

/* The typed line (a prefix such as '/' or '!' may remain: dispatch skips a
 * '/'); at most CMD_LINE_MAX + 1 bytes are kept, the length is remembered
 * for the refusal of a longer one. */
void request_set_line(struct request *req, const char *line, size_t len);
/* The invocation a transport binds a command's options to (Discord): set
 * its path and options through the registry, no context fields. */
struct invocation *request_invocation(struct request *req);
/* The reply: empty until the request ran, unless the transport wrote an
 * error into it before submitting. */
struct reply *request_reply(struct request *req);
/* Writes the reply into out (the caller's, not freed) instead of a reply of
 * the request's own. Call it before anything is written. */
void request_use_reply(struct request *req, struct reply *out);
const struct origin *request_origin(const struct request *req);
int64_t request_now(const struct request *req);
/*
 * Exactly once (delver(8)): the id of the platform event the request
 * answers ("" when none). The store commits a mark under this key in the
 * same transaction as the request's changes, with what keep(req, out)
 * writes (the answer as the transport will need it again; keep may be
 * NULL). A request set replayed (its platform may have delivered the
 * event to an earlier process) whose key is marked is not run again: its
 * outcome is REQUEST_REPLAYED and request_kept holds what was kept. One
 * that has nothing to run (no command) asks only that: REQUEST_REPLAYED
 * when marked, else REQUEST_DONE.
 */
void request_set_key(struct request *req, const char *key,
                     int (*keep)(struct request *req, struct buf *out));
const char *request_key(const struct request *req);
void request_set_replayed(struct request *req);
bool request_replayed(const struct request *req);
/* The bytes kept with the mark of a replayed request (NULL when none). */
const char *request_kept(const struct request *req, size_t *len);
/* The answer function's context. */
void *request_ctx(const struct request *req);
/* Data of the transport's carried with the request (where its answer
 * goes), freed with the request by tag_free (NULL: not freed). */
void request_set_tag(struct request *req, void *tag, void (*tag_free)(void *));
void *request_tag(const struct request *req);

/* --- for the dispatcher --- */

/* The typed line and its length as given (NULL when none). */
const char *request_line(const struct request *req, size_t *len);
/* Replaces the answer function (the easy interface's own). */
void request_set_answer(struct request *req, request_answer_fn fn, void *ctx);
/* How the store runs the request: fn(ctx, req), once. */
typedef void (*request_run_fn)(void *ctx, struct request *req);
void request_set_runner(struct request *req, request_run_fn fn, void *ctx);
/* What follows a change kept: fn(ctx, req) is called by request_answer,
 * before the answer function, once for a request whose changes the store
 * kept (outcome REQUEST_DONE, or REQUEST_NOT_DURABLE: in memory, saved
 * later) and that changed at least one record; the records are in memory,
 * as the command left them. */
typedef void (*request_on_kept_fn)(void *ctx, const struct request *req);
void request_on_kept(struct request *req, request_on_kept_fn fn, void *ctx);

/* --- for the store --- */

/* Whether the request has a command to run that has not run yet: one not
 * refused, or one whose refused line the command reads again
 * (struct invocation's misread). */
bool request_runnable(const struct request *req);
/* Runs the command on the records in memory (at most once). The records
 * it touched are marked in the state (state_flush hands them over). */
void request_run(struct request *req);
/* Notes that the command changed the record id ("c:KEY" or "u:KEY"). */
void request_add_change(struct request *req, const char *id);
/* Whether the request ran a command that may change records (one not
 * marked read_only, registry.h) and was not refused by the store, whether
 * or not this run changed any. */
bool request_may_change(const struct request *req);
size_t request_nchanges(const struct request *req);
const char *request_change(const struct request *req, size_t i);
void request_set_outcome(struct request *req, enum request_outcome outcome);
/* What the transport keeps with the request's mark, appended to out:
 * 0, or -1 when there is nothing to keep (no keep function, or it failed). */
int request_keep(struct request *req, struct buf *out);
/* The bytes kept with the mark found for a replayed request (copied). */
void request_set_kept(struct request *req, const char *bytes, size_t len);
enum request_outcome request_outcome(const struct request *req);
/*
 * What a store keeps on a request it holds: its place in the store's list
 * of requests in flight (oldest first), in its channel's and in a list of
 * those in its state, its state in the store, the commit that holds its
 * changes, and its rank in the order requests came. The store's alone.
 */
struct request_hold {
	struct request *prev, *next;
	struct request *chan_next;
	struct request *state_prev, *state_next;
	void *chan;     /* the store's entry for the channel */
	int state;      /* the store's */
	uint64_t seq;   /* the commit that holds its changes, 0: none */
	uint64_t order; /* the store's count of requests when it came */
};
struct request_hold *request_hold(struct request *req);
/* The request's answer will never be wanted (its transport is gone): it is
 * freed when answered. */
void request_orphan(struct request *req);
/* Writes the outcome into the reply (a refusal replaces it; a change not
 * durable adds a warning) and calls the answer function, which takes the
 * request; an orphan is freed instead. */
void request_answer(struct request *req);
/* Writes now the refusal req's outcome gives into its reply, as
 * request_answer will (so that keep, request_set_key, writes the answer
 * the invoker gets). Only for an outcome that refuses (not REQUEST_DONE,
 * REQUEST_REPLAYED or REQUEST_NOT_DURABLE). */
void request_refuse(struct request *req);

#endif
