/* discord_idq: identify slots for this process's shards; see discord_idq.h. */
#include "bot/discord/discord_idq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot/discord/discord_gw.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define RETRY_MS  1000 /* after a ledger failure */
#define OPS_MAX   256  /* ledger operations queued, at most (a handful in practice) */
#define BUCKETS_Q LEDGER_BUCKETS_MAX

struct want {
	int shard;
	void (*grant)(void *ctx);
	void *ctx;
};

struct job {
	uv_work_t req;
	struct discord_idq *q;
	struct ledger_op op;
	struct ledger_result res;
	int shards[LEDGER_TRIES_MAX]; /* TRY: the shard asked for each bucket */
	void (*done)(void *ctx, const struct ledger_result *res);
	void *ctx;
	struct job *next;
};

struct discord_idq {
	uv_loop_t *loop;
	struct ledger_backend *ledger;
	void (*refetch)(void *ctx);
	void *ctx;
	char owner[LEDGER_OWNER_MAX];

	int max_concurrency; /* 0 until discord_idq_limits */
	int64_t interval;    /* ms between IDENTIFYs of a bucket, with the margin */
	struct want *wants;
	int nwants, capwants;
	/* per bucket: the shard holding a slot of ours (-1: none), when to
	 * ask the ledger again (uv_now ms), whether a TRY for it is out, and
	 * whether the wait for another process's slot there was logged */
	int held[BUCKETS_Q];
	uint64_t next_at[BUCKETS_Q];
	bool asking[BUCKETS_Q];
	bool held_said[BUCKETS_Q];

	struct job *head, *tail; /* head runs when running */
	int nops;
	bool running;
	uv_timer_t timer;
	bool spent;       /* the budget is spent down to the reserve */
	bool spent_said;  /* that was logged; cleared by the next slot granted */
	uint64_t wake_at; /* spent: when to ask Discord again (uv_now ms) */
	bool failing;     /* the last ledger operation failed (said once) */
	int total, remaining;
	bool closing;
	void (*closed)(void *ctx);
	void *closed_ctx;
};

static void kick(struct discord_idq *q);
static void schedule(struct discord_idq *q);

static void
on_timer(uv_timer_t *t)
{
	struct discord_idq *q = t->data;

	if (q->spent && uv_now(q->loop) >= q->wake_at) {
		/* Discord's reset is due: its new numbers come through
		 * discord_idq_limits, which lifts the wait. */
		q->wake_at = uv_now(q->loop) + 60000;
		if (q->refetch != NULL)
			q->refetch(q->ctx);
	}
	kick(q);
}

struct discord_idq *
discord_idq_new(const struct discord_idq_opts *o)
{
	struct discord_idq *q = xcalloc(1, sizeof(*q));
	char host[64] = "";

	q->loop = o->loop;
	q->ledger = o->ledger;
	q->refetch = o->refetch;
	q->ctx = o->ctx;
	gethostname(host, sizeof(host) - 1);
	snprintf(q->owner, sizeof(q->owner), "%.40s:%ld", host, (long)getpid());
	for (int i = 0; i < BUCKETS_Q; i++)
		q->held[i] = -1;
	uv_timer_init(q->loop, &q->timer);
	q->timer.data = q;
	return q;
}

static int
bucket_of(const struct discord_idq *q, int shard)
{
	return q->max_concurrency > 0 ? shard % q->max_concurrency : 0;
}

static void free_job(struct job *j);
static void run_next(struct discord_idq *q);

/* Says at debug why shard waits for a slot in bucket b (answer i of res):
 * the spacing since the bucket's last IDENTIFY, each time; another
 * process's slot, once until the bucket is granted. (A spent budget is
 * said at warn, by tried.) */
static void
waits(struct discord_idq *q, int shard, int b, const struct ledger_result *res, int i)
{
	if (res->spent)
		return;
	if (!res->held[i]) {
		log_debug("discord: shard %d may identify in %.1f s (bucket %d: the spacing since "
		          "its last IDENTIFY)",
		          shard, (double)res->wait[i] / 1000.0, b);
		return;
	}
	if (q->held_said[b])
		return;
	q->held_said[b] = true;
	log_debug("discord: shard %d waits: another process of the bot holds the identify "
	          "slot of bucket %d (%s); asked again every %.1f s until its IDENTIFY is "
	          "written",
	          shard, b, q->ledger->where, LEDGER_HELD_POLL_MS / 1000.0);
}

/* A TRY's answer: slots granted, buckets to ask again later, or the
 * budget spent. */
static void
tried(struct discord_idq *q, struct job *j)
{
	uint64_t now = uv_now(q->loop);

	for (int i = 0; i < j->op.nbuckets; i++) {
		int b = j->op.bucket[i];

		q->asking[b] = false;
		if (j->res.status < 0) {
			q->next_at[b] = now + RETRY_MS;
			continue;
		}
		if (j->res.wait[i] > 0) {
			q->next_at[b] = now + (uint64_t)j->res.wait[i];
			waits(q, j->shards[i], b, &j->res, i);
			continue;
		}
		q->held_said[b] = false;
		/* Granted to the shard asked for, if it still wants it. */
		for (int k = 0; k < q->nwants; k++) {
			struct want w = q->wants[k];

			if (w.shard != j->shards[i])
				continue;
			q->wants[k] = q->wants[--q->nwants];
			q->held[b] = w.shard;
			if (q->spent_said)
				log_info("discord: the session budget allows new sessions again");
			q->spent_said = false;
			w.grant(w.ctx);
			goto next;
		}
		/* Nobody wants it any more: given back. */
		discord_idq_unused(q, j->shards[i]);
	next:;
	}
	if (j->res.status == 0 && j->res.spent && !q->spent) {
		q->spent = true;
		q->wake_at = now + (uint64_t)j->res.reset_in + 1000;
	}
	if (j->res.status == 0 && j->res.spent && !q->spent_said) {
		time_t at = time(NULL) + (time_t)(j->res.reset_in / 1000);
		struct tm tm;
		char when[64];

		gmtime_r(&at, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		q->spent_said = true;
		log_warnx("discord: only %d of today's %d session starts are left; no new gateway "
		          "session starts until Discord resets the budget at %s (in %" PRId64
		          " min); running sessions go on and resume as usual",
		          j->res.remaining, j->res.total, when, (j->res.reset_in + 59999) / 60000);
	}
}

static void
work(uv_work_t *req)
{
	struct job *j = (struct job *)req;

	j->q->ledger->exec(j->q->ledger, &j->op, &j->res);
}

static void
after_work(uv_work_t *req, int status)
{
	struct job *j = (struct job *)req;
	struct discord_idq *q = j->q;

	q->running = false;
	q->head = j->next;
	if (q->head == NULL)
		q->tail = NULL;
	q->nops--;
	if (status != 0) {
		j->res.status = -1;
		snprintf(j->res.err, sizeof(j->res.err), "the operation was cancelled");
	}
	if (j->res.status < 0 && !q->failing) {
		q->failing = true;
		log_warnx(
		    "discord: the identify ledger (%s) failed: %s; new sessions wait until it "
		    "works",
		    q->ledger->where, j->res.err);
	} else if (j->res.status == 0) {
		if (q->failing)
			log_info("discord: the identify ledger works again");
		q->failing = false;
		if (j->res.err[0] != '\0')
			log_warnx("discord: %s", j->res.err);
		q->total = j->res.total;
		q->remaining = j->res.remaining;
	}
	if (j->op.kind == LEDGER_TRY)
		tried(q, j);
	if (j->done != NULL)
		j->done(j->ctx, &j->res);
	free_job(j);
	run_next(q);
	if (!q->closing)
		schedule(q);
}

static void
free_job(struct job *j)
{
	free(j);
}

static void finish_close(struct discord_idq *q);

static void
run_next(struct discord_idq *q)
{
	if (q->running)
		return;
	if (q->closing) {
		/* Only what records something is still worth doing. */
		while (q->head != NULL && q->head->op.kind == LEDGER_TRY) {
			struct job *j = q->head;

			q->head = j->next;
			q->nops--;
			for (int i = 0; i < j->op.nbuckets; i++)
				q->asking[j->op.bucket[i]] = false;
			free_job(j);
		}
		if (q->head == NULL) {
			q->tail = NULL;
			finish_close(q);
			return;
		}
	}
	if (q->head == NULL)
		return;
	q->running = true;
	uv_queue_work(q->loop, &q->head->req, work, after_work);
}

static struct job *
enqueue(struct discord_idq *q, enum ledger_kind kind)
{
	struct job *j;

	if (q->nops >= OPS_MAX && kind == LEDGER_TRY)
		return NULL;
	j = xcalloc(1, sizeof(*j));
	j->q = q;
	j->op.kind = kind;
	snprintf(j->op.owner, sizeof(j->op.owner), "%s", q->owner);
	if (q->tail != NULL)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	q->nops++;
	return j;
}

/* Asks the ledger for every bucket that has a shard waiting, is not held
 * by one of ours and is due. */
static void
kick(struct discord_idq *q)
{
	uint64_t now = uv_now(q->loop);
	struct job *j = NULL;

	if (q->max_concurrency == 0 || q->closing || (q->spent && now < q->wake_at))
		return;
	for (int k = 0; k < q->nwants; k++) {
		int b = bucket_of(q, q->wants[k].shard), lowest = q->wants[k].shard;

		if (q->held[b] >= 0 || q->asking[b] || q->next_at[b] > now)
			continue;
		for (int m = 0; m < q->nwants; m++)
			if (bucket_of(q, q->wants[m].shard) == b && q->wants[m].shard < lowest)
				lowest = q->wants[m].shard;
		if (j == NULL && (j = enqueue(q, LEDGER_TRY)) == NULL)
			return;
		if (j->op.nbuckets == LEDGER_TRIES_MAX)
			break;
		q->asking[b] = true;
		j->shards[j->op.nbuckets] = lowest;
		j->op.bucket[j->op.nbuckets++] = b;
	}
	if (j != NULL) {
		j->op.interval = q->interval;
		j->op.lease = DISCORD_GW_SLOT_LEASE;
		j->op.reserve = q->total / 100 > 1 ? q->total / 100 : 1;
		run_next(q);
	}
}

/* Arms the timer for the next bucket due (or Discord's reset). */
static void
schedule(struct discord_idq *q)
{
	uint64_t now = uv_now(q->loop), at = UINT64_MAX;

	if (q->closing)
		return;
	kick(q);
	if (q->spent)
		at = q->wake_at;
	for (int k = 0; k < q->nwants && !q->spent; k++) {
		int b = bucket_of(q, q->wants[k].shard);

		if (q->held[b] < 0 && !q->asking[b] && q->next_at[b] < at)
			at = q->next_at[b];
	}
	if (at == UINT64_MAX) {
		uv_timer_stop(&q->timer);
		return;
	}
	uv_timer_start(&q->timer, on_timer, at > now ? at - now : 1, 0);
}

void
discord_idq_limits(struct discord_idq *q, int total, int remaining, int64_t reset_after,
                   int max_concurrency, int64_t interval,
                   void (*done)(void *ctx, const struct ledger_result *res), void *ctx)
{
	struct job *j = enqueue(q, LEDGER_LIMITS);

	if (max_concurrency < 1)
		max_concurrency = 1;
	if (max_concurrency > BUCKETS_Q)
		max_concurrency = BUCKETS_Q;
	if (interval <= 0)
		interval = DISCORD_IDQ_INTERVAL;
	if (max_concurrency != q->max_concurrency) {
		for (int i = 0; i < BUCKETS_Q; i++) {
			q->held[i] = -1;
			q->next_at[i] = 0;
		}
	}
	q->max_concurrency = max_concurrency;
	q->interval = interval + interval / 10;
	q->spent = false; /* the ledger says again if it still is */
	j->op.total = total;
	j->op.remaining = remaining;
	j->op.reset_after = reset_after;
	j->done = done;
	j->ctx = ctx;
	run_next(q);
}

void
discord_idq_want(struct discord_idq *q, int shard, void (*grant)(void *ctx), void *ctx)
{
	for (int k = 0; k < q->nwants; k++) {
		if (q->wants[k].shard == shard) {
			q->wants[k].grant = grant;
			q->wants[k].ctx = ctx;
			schedule(q);
			return;
		}
	}
	if (q->nwants == q->capwants) {
		q->capwants = q->capwants ? q->capwants * 2 : 8;
		q->wants = xrealloc(q->wants, (size_t)q->capwants * sizeof(*q->wants));
	}
	q->wants[q->nwants++] = (struct want){shard, grant, ctx};
	schedule(q);
}

void
discord_idq_cancel(struct discord_idq *q, int shard)
{
	for (int k = 0; k < q->nwants; k++) {
		if (q->wants[k].shard == shard) {
			q->wants[k] = q->wants[--q->nwants];
			return;
		}
	}
}

/* Records kind for shard's bucket, whose slot we no longer hold. */
static void
release(struct discord_idq *q, int shard, enum ledger_kind kind)
{
	int b = bucket_of(q, shard);
	struct job *j;

	if (q->held[b] == shard)
		q->held[b] = -1;
	j = enqueue(q, kind);
	j->op.bucket[0] = b;
	j->op.nbuckets = 1;
	if (kind == LEDGER_SENT)
		q->next_at[b] = uv_now(q->loop) + (uint64_t)q->interval;
	run_next(q);
	schedule(q);
}

void
discord_idq_sent(struct discord_idq *q, int shard)
{
	release(q, shard, LEDGER_SENT);
}

void
discord_idq_unused(struct discord_idq *q, int shard)
{
	release(q, shard, LEDGER_UNUSED);
}

void
discord_idq_refused(struct discord_idq *q, int count, int code, int recommended)
{
	struct job *j = enqueue(q, LEDGER_REFUSED);

	j->op.count = count;
	j->op.code = code;
	j->op.recommended = recommended;
	run_next(q);
}

bool
discord_idq_busy(const struct discord_idq *q)
{
	return q->head != NULL;
}

int
discord_idq_waiting(const struct discord_idq *q)
{
	return q->nwants;
}

void
discord_idq_budget(const struct discord_idq *q, int *total, int *remaining)
{
	*total = q->total;
	*remaining = q->remaining;
}

static void
timer_closed(uv_handle_t *h)
{
	struct discord_idq *q = h->data;
	void (*done)(void *) = q->closed;
	void *ctx = q->closed_ctx;

	q->ledger->close(q->ledger);
	free(q->wants);
	free(q);
	if (done != NULL)
		done(ctx);
}

static void
finish_close(struct discord_idq *q)
{
	uv_close((uv_handle_t *)&q->timer, timer_closed);
}

void
discord_idq_close(struct discord_idq *q, void (*done)(void *ctx), void *ctx)
{
	q->closing = true;
	q->closed = done;
	q->closed_ctx = ctx;
	q->nwants = 0;
	uv_timer_stop(&q->timer);
	run_next(q);
}

const char *
discord_idq_where(const struct discord_idq *q)
{
	return q != NULL ? q->ledger->where : "this process";
}
