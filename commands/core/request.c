/* request: one command on its way; see request.h. */
#include "commands/core/request.h"

#include <stdlib.h>
#include <string.h>

#include "commands/core/registry.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define MAY_BE_LOST                                                                                \
	"Warning: this change could not be saved yet and may be lost if the bot restarts."
#define DISK_FULL                                                                                  \
	"This change was not made: the disk holding the bot's saved state is full; try again "     \
	"once space is freed (nothing saved before is affected)."
/* A roll changes nothing but the channel's log, which keeps every roll
 * made: a roll that cannot be kept there is not made. */
#define ROLL_DISK_FULL                                                                             \
	"This roll was not made: the disk holding the bot's saved state is full, so it cannot be " \
	"kept in /log; roll again once space is freed (nothing saved before is affected)."
/* A secret roll is kept for the GM alone (/log secret), never in /log. */
#define SECRET_ROLL_DISK_FULL                                                                      \
	"This secret roll was not made: the disk holding the bot's saved state is full, so it "    \
	"cannot be kept for the GM; roll again once space is freed (nothing saved before is "      \
	"affected)."
/* What a command handled by another process says where it must be
 * answered here after all (delver deferred it before the other process
 * answered): the change is made, its answer is that process's. */
#define HANDLED_ELSEWHERE                                                                          \
	"Another delver process carried out this command; its answer could not be shown here."
#define NOT_KEPT                                                                                   \
	"This change was not kept: another delver process saved a change to the same state "       \
	"first; "                                                                                  \
	"run the command again."
#define CHAN_UNREADABLE                                                                            \
	"This channel's saved state cannot be read right now (the error is logged); try again in " \
	"a minute."
#define USER_UNREADABLE                                                                            \
	"Your saved settings cannot be read right now (the error is logged); try again in a "      \
	"minute."
#define BUSY                                                                                       \
	"The bot is busy reading saved state for too many commands at once (%d wait); try again "  \
	"in a minute."

#define STOPPING "This command was not run: the bot is stopping; try again once it is back."

struct request {
	struct origin o;
	int64_t now;
	struct invocation inv;
	char *line;      /* the typed line as given (owned), or NULL */
	size_t line_len; /* its length as given (more than was kept, when cut) */
	struct reply *reply;
	bool lent; /* reply is the caller's */
	bool ran;
	request_answer_fn answer;
	void *ctx;
	bool orphan;
	request_run_fn run;
	void *run_ctx;
	char (*changes)[REQUEST_ID_MAX];
	size_t nchanges, cap;
	enum request_outcome outcome;
	struct request_hold hold;
	char key[REQUEST_KEY_MAX];
	int (*keep)(struct request *req, struct buf *out);
	bool replayed;
	char *kept; /* the bytes kept with its mark (owned), or NULL */
	size_t kept_len;
	void *tag;
	void (*tag_free)(void *);
	request_on_kept_fn on_kept;
	void *on_kept_ctx;
};

struct request *
request_new(const struct origin *o, int64_t now, request_answer_fn fn, void *ctx)
{
	struct request *req = xcalloc(1, sizeof(*req));

	req->o = *o;
	req->now = now;
	req->answer = fn;
	req->ctx = ctx;
	req->reply = reply_new();
	return req;
}

void
request_free(struct request *req)
{
	if (req == NULL)
		return;
	invocation_clear(&req->inv);
	if (!req->lent)
		reply_free(req->reply);
	free(req->line);
	free(req->changes);
	free(req->kept);
	if (req->tag_free != NULL)
		req->tag_free(req->tag);
	free(req);
}

void
request_set_line(struct request *req, const char *line, size_t len)
{
	size_t keep = len <= CMD_LINE_MAX + 1 ? len : CMD_LINE_MAX + 1;

	free(req->line);
	req->line = xmalloc(keep + 1);
	memcpy(req->line, line, keep);
	req->line[keep] = '\0';
	req->line_len = len;
}

const char *
request_line(const struct request *req, size_t *len)
{
	*len = req->line_len;
	return req->line;
}

struct invocation *
request_invocation(struct request *req)
{
	return &req->inv;
}

struct reply *
request_reply(struct request *req)
{
	return req->reply;
}

void
request_use_reply(struct request *req, struct reply *out)
{
	if (!req->lent)
		reply_free(req->reply);
	req->reply = out;
	req->lent = true;
}

const struct origin *
request_origin(const struct request *req)
{
	return &req->o;
}

int64_t
request_now(const struct request *req)
{
	return req->now;
}

void
request_set_key(struct request *req, const char *key,
                int (*keep)(struct request *req, struct buf *out))
{
	utf8_copy_bytes(req->key, sizeof(req->key), key);
	req->keep = keep;
}

void
request_set_replayed(struct request *req)
{
	req->replayed = true;
}

bool
request_replayed(const struct request *req)
{
	return req->replayed;
}

const char *
request_kept(const struct request *req, size_t *len)
{
	*len = req->kept_len;
	return req->kept;
}

int
request_keep(struct request *req, struct buf *out)
{
	return req->keep != NULL ? req->keep(req, out) : -1;
}

void
request_set_kept(struct request *req, const char *bytes, size_t len)
{
	free(req->kept);
	req->kept = xmalloc(len + 1);
	memcpy(req->kept, bytes, len);
	req->kept[len] = '\0';
	req->kept_len = len;
}

const char *
request_key(const struct request *req)
{
	return req->key;
}

void *
request_ctx(const struct request *req)
{
	return req->ctx;
}

void
request_set_tag(struct request *req, void *tag, void (*tag_free)(void *))
{
	req->tag = tag;
	req->tag_free = tag_free;
}

void *
request_tag(const struct request *req)
{
	return req->tag;
}

void
request_set_answer(struct request *req, request_answer_fn fn, void *ctx)
{
	req->answer = fn;
	req->ctx = ctx;
}

void
request_set_runner(struct request *req, request_run_fn fn, void *ctx)
{
	req->run = fn;
	req->run_ctx = ctx;
}

bool
request_runnable(const struct request *req)
{
	return !req->ran && req->run != NULL && req->inv.cmd != NULL &&
	       (!reply_is_error(req->reply) || req->inv.misread);
}

void
request_run(struct request *req)
{
	if (!request_runnable(req))
		return;
	req->ran = true;
	req->run(req->run_ctx, req);
}

void
request_add_change(struct request *req, const char *id)
{
	if (req->nchanges == req->cap) {
		req->cap = req->cap != 0 ? 2 * req->cap : 4;
		req->changes = xrealloc(req->changes, req->cap * sizeof(*req->changes));
	}
	utf8_copy_bytes(req->changes[req->nchanges++], REQUEST_ID_MAX, id);
}

bool
request_may_change(const struct request *req)
{
	return req->ran && req->outcome == REQUEST_DONE && req->inv.cmd != NULL &&
	       !req->inv.cmd->read_only;
}

size_t
request_nchanges(const struct request *req)
{
	return req->nchanges;
}

const char *
request_change(const struct request *req, size_t i)
{
	return i < req->nchanges ? req->changes[i] : NULL;
}

void
request_set_outcome(struct request *req, enum request_outcome outcome)
{
	req->outcome = outcome;
}

enum request_outcome
request_outcome(const struct request *req)
{
	return req->outcome;
}

struct request_hold *
request_hold(struct request *req)
{
	return &req->hold;
}

void
request_orphan(struct request *req)
{
	req->orphan = true;
}

/* The outcome in words: a refusal replaces the reply (it must not say the
 * change was made); a change not durable adds a warning to a reply that is
 * not an error. */
static void
tell_outcome(struct request *req)
{
	struct reply *r = req->reply;
	const char *refusal = NULL;

	switch (req->outcome) {
	case REQUEST_DONE:
	case REQUEST_REPLAYED:
		return;
	case REQUEST_NOT_DURABLE:
		if (!reply_is_error(r)) {
			reply_to(r, REPLY_CHANNEL);
			reply_line(r, RS_BAD, MAY_BE_LOST);
		}
		return;
	case REQUEST_REFUSED_FULL:
		refusal = req->inv.rolled_secret ? SECRET_ROLL_DISK_FULL
		          : req->inv.rolled      ? ROLL_DISK_FULL
		                                 : DISK_FULL;
		break;
	case REQUEST_NOT_KEPT:
		refusal = NOT_KEPT;
		break;
	case REQUEST_HANDLED_ELSEWHERE:
		refusal = HANDLED_ELSEWHERE;
		break;
	case REQUEST_CHANNEL_UNREADABLE:
		refusal = CHAN_UNREADABLE;
		break;
	case REQUEST_USER_UNREADABLE:
		refusal = USER_UNREADABLE;
		break;
	case REQUEST_STOPPING:
		refusal = STOPPING;
		break;
	case REQUEST_BUSY:
		reply_clear(r);
		reply_error(r, BUSY, REQUEST_WAITING_MAX);
		return;
	}
	reply_clear(r);
	reply_error(r, "%s", refusal);
}

void
request_refuse(struct request *req)
{
	tell_outcome(req);
}

void
request_on_kept(struct request *req, request_on_kept_fn fn, void *ctx)
{
	req->on_kept = fn;
	req->on_kept_ctx = ctx;
}

void
request_answer(struct request *req)
{
	if (req->on_kept != NULL && req->nchanges > 0 &&
	    (req->outcome == REQUEST_DONE || req->outcome == REQUEST_NOT_DURABLE))
		req->on_kept(req->on_kept_ctx, req);
	tell_outcome(req);
	if (req->orphan || req->answer == NULL) {
		request_free(req);
		return;
	}
	req->answer(req, req->ctx);
}
