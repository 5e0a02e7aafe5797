/* persist_commit: the group commit; see persist_commit.h. */
#include "bot/store/persist_commit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "bot/log.h"
#include "bot/store/markset.h"
#include "bot/store/persist_int.h"
#include "bot/store/persist_mark.h"
#include "bot/store/persist_queue.h"
#include "bot/store/persist_read.h"
#include "bot/store/store_record.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

static void refuse_all(struct persist *p);
static void idle_cb(uv_idle_t *h);

void
persist__wake(struct persist *p)
{
	if ((!p->committing && p->pending != NULL) || p->nready > 0)
		uv_idle_start(&p->idle, idle_cb);
}

/* One record a command changed: into the next batch, and noted on the
 * request that changed it. */
static void
collect_id(struct persist *p, const char *id)
{
	persist__id_add(&p->pending, id);
	if (p->collecting != NULL)
		request_add_change(p->collecting, id);
	p->collected++;
}

static int
collect_channel(struct channel *ch, void *ctx)
{
	struct persist *p = ctx;
	int64_t now = persist__tick_clock(p);
	char id[KEY_MAX + 2];

	if (channel_last_used(ch) < now)
		channel_set_last_used(ch, now);
	persist__make_id(id, 'c', channel_key(ch));
	collect_id(p, id);
	return 0;
}

static int
collect_user(struct user *u, void *ctx)
{
	struct persist *p = ctx;
	char id[KEY_MAX + 2];

	persist__make_id(id, 'u', user_key(u));
	collect_id(p, id);
	return 0;
}

size_t
persist__collect(struct persist *p)
{
	p->collected = 0;
	state_flush(p->st, collect_channel, collect_user, p);
	persist__wake(p);
	return p->collected;
}

static void
log_failure(struct persist *p, const char *key, const char *err)
{
	if (!p->failing)
		log_warnx("store: cannot save the change to '%s' in %s (%s); it is kept in memory "
		          "and retried every second",
		          key, p->path, err != NULL ? err : "the store refused it");
}

static void forget(struct persist *p, const char *id);

/* How many names a line of a rolled-back batch gives of each kind (the
 * rest are counted: "and N more"), so that its length is bounded. */
#define DROPPED_NAMED 4

/* The one line a batch rolled back by a conflict logs: why (the first
 * few conflicts), the records dropped (the first few named), read again
 * from the store, and the events of the commands told "not kept" (told[],
 * ntold of them; the first few with an event id named), so that an
 * operator can match a user's report. On a store shared by a fleet those
 * replies wait for the event's claim: a command whose event another
 * process handled is left to it instead. */
static void
log_dropped(const struct persist *p, const char *why, size_t nwhy, struct id *drop,
            struct request *const *told, size_t ntold)
{
	struct id *e, *tmp;
	struct buf names, events, whymore;
	size_t nrec = 0, nev = 0;

	buf_init(&names, 1024);
	buf_init(&events, 1024);
	buf_init(&whymore, 64);
	if (nwhy > DROPPED_NAMED)
		buf_addf(&whymore, " (and %zu more conflicts)", nwhy - DROPPED_NAMED);
	HASH_ITER(hh, drop, e, tmp)
	{
		if (e->id[0] == 'h')
			continue;
		if (nrec < DROPPED_NAMED)
			buf_addf(&names, "%s'%s'", nrec > 0 ? ", " : "", e->id + 2);
		nrec++;
	}
	if (nrec > DROPPED_NAMED)
		buf_addf(&names, " and %zu more", nrec - DROPPED_NAMED);
	for (size_t i = 0; i < ntold; i++)
		if (request_key(told[i])[0] != '\0')
			nev++;
	if (ntold > 0) {
		size_t named = 0;

		buf_addf(&events, "; %zu command%s told %s change was not kept", ntold,
		         ntold == 1 ? " is" : "s are", ntold == 1 ? "its" : "their");
		if (!p->sqlite && nev > 0)
			buf_addf(&events, " unless another delver process handled %s",
			         ntold == 1 ? "its event" : "their events");
		for (size_t i = 0; i < ntold && named < DROPPED_NAMED; i++)
			if (request_key(told[i])[0] != '\0')
				buf_addf(&events, "%s'%s'",
				         named++ > 0 ? ", "
				         : nev == 1  ? " (event "
				                     : " (events ",
				         request_key(told[i]));
		if (nev > DROPPED_NAMED)
			buf_addf(&events, " and %zu more", nev - DROPPED_NAMED);
		if (nev > 0)
			buf_adds(&events, ")");
	}
	if (nrec == 0)
		log_warnx(
		    "store: a commit to %s was rolled back: %s%s; what the commands concerned "
		    "did here is not kept%s",
		    p->path, why, buf_str(&whymore), buf_str(&events));
	else
		log_warnx(
		    "store: a commit to %s was rolled back: %s%s; the changes made here to %s "
		    "are not kept (those records are read again)%s",
		    p->path, why, buf_str(&whymore), buf_str(&names), buf_str(&events));
	buf_free(&names);
	buf_free(&events);
	buf_free(&whymore);
}

/* Whether the claim of req's event (its mark) is among the conflicted
 * marks. */
static bool
claimed(struct id *conflicted, struct request *req)
{
	char id[KEY_MAX + 2];

	if (conflicted == NULL || request_key(req)[0] == '\0')
		return false;
	persist__make_id(id, 'h', request_key(req));
	return persist__id_find(conflicted, id) != NULL;
}

/* What drop_conflicts works out, then applies. */
struct dropping {
	struct id *drop;      /* the records (and marks) dropped */
	struct id *elsewhere; /* the marks in conflict: events another process handled */
	struct buf why;       /* the first conflicts, named */
	size_t nconflicts;
	size_t nclaimed;       /* commands left to the process that handled their event */
	struct request **told; /* the commands told "not kept" */
	size_t ntold;
	struct mark **claims; /* the claims of their events, for the next batch */
	size_t nclaims;
};

/* Notes the batch's rows in conflict: each is dropped, a mark also noted
 * as handled elsewhere, and the first few named in why. */
static void
conflicts_note(struct persist *p, struct dropping *d, const enum store_status *row_status, size_t n)
{
	for (size_t i = 0; i < n && i < p->nbatch; i++) {
		bool mark;

		if (row_status[i] != STORE_CONFLICT)
			continue;
		mark = p->batch[i]->id[0] == 'h';
		if (d->nconflicts < DROPPED_NAMED)
			buf_addf(
			    &d->why,
			    mark ? "%sevent '%s' was handled by another delver process (its "
			           "shards overlap this one's)"
			         : "%s'%s' was changed by another delver process since this one "
			           "read it",
			    d->why.len > 0 ? "; " : "", p->batch[i]->id + 2);
		p->stats.conflicts++;
		d->nconflicts++;
		persist__id_add(&d->drop, p->batch[i]->id);
		if (mark)
			persist__id_add(&d->elsewhere, p->batch[i]->id);
	}
}

/* Whether req changed a record that is dropped. */
static bool
touches_dropped(const struct dropping *d, struct request *req)
{
	size_t nc = request_nchanges(req);

	for (size_t i = 0; i < nc; i++)
		if (persist__id_find(d->drop, request_change(req, i)) != NULL)
			return true;
	return false;
}

/* A command whose change is dropped: not kept, unless its own event was
 * handled by another process (its mark conflicted), which made the change
 * and answers it, so this one does not say it was not kept. */
static void
outcome_set(struct persist *p, struct dropping *d, struct request *req)
{
	size_t nc = request_nchanges(req);

	request_set_outcome(req, REQUEST_NOT_KEPT);
	for (size_t i = 0; i < nc; i++)
		if (persist__id_find(d->elsewhere, request_change(req, i)) != NULL) {
			request_set_outcome(req, REQUEST_HANDLED_ELSEWHERE);
			p->stats.handled_elsewhere++;
			return;
		}
	d->told = xrealloc(d->told, (d->ntold + 1) * sizeof(*d->told));
	d->told[d->ntold++] = req;
}

/*
 * Dropped for a record, req's mark was not written: the other process of
 * an overlapping fleet may handle its event now (or did, once this batch
 * was rolled back). Its reply waits for a claim of the event, a mark with
 * nothing kept, in the next batch: written, nobody else applies it and
 * "not kept" is true; in conflict, the other process handled it. The claim
 * keeps that refusal as the event's answer: a replay (a restart before the
 * answer went) gives it again.
 */
static void
claim_event(struct persist *p, struct dropping *d, struct request *req)
{
	if (request_outcome(req) != REQUEST_NOT_KEPT || p->sqlite || request_key(req)[0] == '\0')
		return;
	request_refuse(req);
	d->claims = xrealloc(d->claims, (d->nclaims + 1) * sizeof(*d->claims));
	d->claims[d->nclaims++] = persist_mark_new(p, req);
	request_hold(req)->seq = p->collect_seq;
}

/* One held command, in a pass over them: dropped when it changed a dropped
 * record, with every record it changed. Returns whether the drop grew. */
static bool
drop_request(struct persist *p, struct dropping *d, struct request *req)
{
	size_t nc = request_nchanges(req);
	bool grew = false;

	/* One not kept before holds no change any more; its claim of its
	 * event (claim_event) conflicted when another process handled the
	 * event: it is left to that one. */
	if (request_outcome(req) == REQUEST_NOT_KEPT && claimed(d->elsewhere, req)) {
		request_set_outcome(req, REQUEST_HANDLED_ELSEWHERE);
		p->stats.handled_elsewhere++;
		d->nclaimed++;
	}
	if (request_outcome(req) == REQUEST_NOT_KEPT ||
	    request_outcome(req) == REQUEST_HANDLED_ELSEWHERE || !touches_dropped(d, req))
		return false;
	outcome_set(p, d, req);
	claim_event(p, d, req);
	for (size_t i = 0; i < nc; i++)
		if (persist__id_add(&d->drop, request_change(req, i)))
			grew = true;
	return grew;
}

/* The log line of the roll-back; claims that conflicted only (their
 * commands said so already) go unsaid: a warning per command is what the
 * stats line counts. */
static void
drop_log(const struct persist *p, struct dropping *d)
{
	size_t nkept = 0;

	for (size_t i = 0; i < d->ntold; i++)
		if (request_outcome(d->told[i]) == REQUEST_NOT_KEPT)
			d->told[nkept++] = d->told[i];
	if (d->nclaimed < d->nconflicts)
		log_dropped(p, d->why.len > 0 ? buf_str(&d->why) : "a row conflicted",
		            d->nconflicts, d->drop, d->told, nkept);
	else
		log_debug("store: %s; left to it", buf_str(&d->why));
}

/* The rest of the batch goes back to be sent again; the dropped records
 * leave memory (read again from a shared store); the claims join the next
 * batch. */
static void
drop_apply(struct persist *p, struct dropping *d)
{
	struct id *e, *tmp;

	for (size_t i = 0; i < p->nbatch; i++)
		if (persist__id_find(d->drop, p->batch[i]->id) == NULL)
			persist__id_add(&p->pending, p->batch[i]->id);
	HASH_ITER(hh, d->drop, e, tmp)
	{
		if (!p->sqlite && e->id[0] != 'h')
			persist_read_start(p, e->id);
		forget(p, e->id);
		persist__id_del(&p->pending, e->id);
	}
	for (size_t i = 0; i < d->nclaims; i++)
		persist_mark_add(p, d->claims[i]);
}

static void
dropping_free(struct dropping *d)
{
	buf_free(&d->why);
	free(d->told);
	free(d->claims);
	persist__id_clear(&d->drop);
	persist__id_clear(&d->elsewhere);
}

/*
 * Another process wrote a row of the batch since this one read it (a
 * fleet, where a channel moved between shards), or handled one of its
 * events (its mark conflicts: both got the event), so the backend wrote
 * nothing of the batch (store_backend.h). What is dropped is the connected
 * group of the conflicted records: every held command that changed one of
 * them, every record such a command changed, and so on (records are shared
 * by commands of this batch and of the next one, collected meanwhile on the
 * same copies). Those records leave memory with every change made to them
 * here since they were committed, so they read back as stored (at once on
 * a backend whose reads are asynchronous), and those commands' held replies
 * say their change was not kept: a command's changes are kept or dropped
 * together, never half, so running it again cannot double one. The rest of
 * the batch goes back to be sent again at once.
 */
static void
drop_conflicts(struct persist *p, const enum store_status *row_status, size_t n)
{
	struct dropping d = {0};
	bool grew;

	buf_init(&d.why, 2048);
	conflicts_note(p, &d, row_status, n);
	do {
		grew = false;
		for (struct request *req = p->ran_head; req != NULL;
		     req = request_hold(req)->state_next)
			grew |= drop_request(p, &d, req);
	} while (grew);
	drop_log(p, &d);
	drop_apply(p, &d);
	dropping_free(&d);
}

static void
commit_done(void *ctx, enum store_status status, const enum store_status *row_status, size_t n,
            const char *err)
{
	struct persist *p = ctx;
	int lost = p->batch_lost;
	bool retried = false;

	p->committing = false;
	if (status == STORE_CONFLICT) {
		drop_conflicts(p, row_status, n);
		persist__id_clear(&p->inflight);
		p->nbatch = 0;
		p->lost_carried += p->batch_lost;
		persist_commit_start(p);
		/* The conflict may have emptied the batch: its held replies (and
		 * those after them) wait for nothing now. */
		if (!p->committing) {
			persist__commit_over(p, UINT64_MAX, p->lost_carried);
			p->lost_carried = 0;
		}
		if (p->closing)
			persist__close_step(p);
		return;
	}
	if (n > 0 && row_status[0] == STORE_FULL && p->sqlite) {
		refuse_all(p);
		if (p->closing)
			persist__close_step(p);
		return;
	}
	if (p->full && n > 0 && row_status[0] == STORE_OK) {
		log_warnx("store: %s has space again; changes are saved again", p->path);
		p->full = false;
	}
	for (size_t i = 0; i < n && i < p->nbatch; i++) {
		struct id *e = p->batch[i];
		const char *key = e->id + 2;

		if (row_status[i] == STORE_OK && e->id[0] == 'h') {
			retried = retried || persist__id_find(p->retry, e->id) != NULL;
			persist__id_del(&p->retry, e->id);
			/* The expiry ("h:") deleted the marks made before its
			 * time: they leave the set of those stored. */
			if (e->id[2] == '\0' && p->known_marks != NULL)
				markset_expire(p->known_marks, e->at);
			persist_mark_free(p, e->id);
		} else if (row_status[i] == STORE_OK) {
			uint64_t g = e->deleted ? 0 : e->record ? e->generation + 1 : e->generation;

			if (e->id[0] == 'c') {
				struct channel *ch = state_channel_peek(p->st, key);

				if (ch != NULL) {
					channel_set_generation(ch, g);
					if (e->record)
						channel_set_changes_saved(ch, e->changes);
					if (e->deleted || e->log_sent > 0)
						channel_set_log_saved(ch, e->log_sent);
				}
			} else {
				struct user *u = state_user_peek(p->st, key);

				if (u != NULL)
					user_set_generation(u, g);
			}
			p->stats.appends++;
			if (e->id[0] == 'u' && !e->deleted)
				persist_read_forget_absent(p, e->id);
			retried = retried || persist__id_find(p->retry, e->id) != NULL;
			persist__id_del(&p->retry, e->id);
		} else {
			log_failure(p, key, err);
			p->failing = true;
			p->stats.append_failures++;
			persist__id_add(&p->retry, e->id);
			lost++;
		}
	}
	(void)status;
	if (lost == 0 && retried && p->failing && p->retry == NULL) {
		log_warnx("store: writing works again; the changes that had failed are now saved");
		p->failing = false;
	}
	persist__id_clear(&p->inflight);
	p->nbatch = 0;
	persist__commit_over(p, p->batch_seq, lost);
	persist_commit_start(p);
	/* Nothing may be left to send (the records of the next batch left
	 * memory): its held replies wait for nothing then. */
	if (!p->committing)
		persist__commit_over(p, UINT64_MAX, 0);
	if (p->closing)
		persist__close_step(p);
}

/* Drops the record of id from memory (and from the retry set), so that it
 * reads back from the database as last committed. */
static void
forget(struct persist *p, const char *id)
{
	persist__id_del(&p->retry, id);
	if (id[0] == 'h') {
		persist_mark_free(p, id);
		return;
	}
	persist__away(p, id[0], id + 2); /* whatever is stored, it is read back */
	if (id[0] == 'c') {
		struct channel *ch = state_channel_peek(p->st, id + 2);

		if (ch != NULL)
			state_evict_channel(p->st, ch);
	} else {
		struct user *u = state_user_peek(p->st, id + 2);

		if (u != NULL)
			state_evict_user(p->st, u);
	}
}

/*
 * The disk is full: the batch was rolled back. Every change not committed
 * yet, the batch's and those collected since, is refused rather than kept
 * for a retry (nothing can be saved until space returns, and the replies
 * must not acknowledge them): their records leave memory, so they read back
 * as last committed (SQLite reads them back by key), and every held reply
 * of a command that changed something becomes an error (lost < 0).
 */
static void
refuse_all(struct persist *p)
{
	struct id *e, *tmp;
	size_t n = p->nbatch;

	for (size_t i = 0; i < p->nbatch; i++)
		forget(p, p->batch[i]->id);
	HASH_ITER(hh, p->pending, e, tmp)
	{
		forget(p, e->id);
		HASH_DEL(p->pending, e);
		free(e);
		n++;
	}
	p->stats.refused += n;
	if (!p->full)
		log_error("store: the disk holding %s is full: changes are refused (their replies "
		          "say so) until space is freed; what was saved before is not affected",
		          p->path);
	p->full = true;
	persist__id_clear(&p->inflight);
	p->nbatch = 0;
	persist__commit_over(p, UINT64_MAX, PERSIST_REFUSED);
}

/* The log entries of ch the store does not hold yet (the newest log_keep
 * of them at most) into b after the record, and into row (its log array
 * allocated in *logp, the caller's to free); *newest is the newest entry.
 * Returns 0, or -1 when one cannot be encoded. */
static int
log_rows_of(const struct channel *ch, struct buf *b, struct store_row *row,
            struct store_log_row **logp, uint64_t *newest)
{
	const struct store_record_mods *m = store_record_builtin_mods();
	size_t slot, n = 0;
	const struct chanmod *cm = store_record_log_mod(m, &slot);
	const void *state = cm != NULL ? channel_mod_peek(ch, (enum chanmod_id)slot) : NULL;
	struct store_log_row *log;
	uint64_t count, from;

	*newest = 0;
	if (state == NULL)
		return 0;
	count = cm->log_count(state);
	from = channel_log_saved(ch);
	if (count > cm->log_keep && from < count - cm->log_keep)
		from = count - cm->log_keep;
	if (from >= count)
		return 0;
	log = *logp = xcalloc((size_t)(count - from), sizeof(*log));
	for (uint64_t seq = from + 1; seq <= count; seq++, n++) {
		/* Offsets for now: b may move as it grows. */
		log[n].rec = (const char *)(uintptr_t)b->len;
		if (store_record_encode_log(m, state, seq, b) < 0)
			return -1;
		log[n].seq = seq;
		log[n].rec_len = b->len - (size_t)(uintptr_t)log[n].rec;
	}
	for (size_t i = 0; i < n; i++)
		log[i].rec = b->p + (size_t)(uintptr_t)log[i].rec;
	row->log = log;
	row->nlog = n;
	row->log_keep = cm->log_keep;
	*newest = count;
	return 0;
}

/* The row of one id, encoded into b (empty, capped at
 * STORE_RECORD_LINE_MAX twice; a channel's log array in *logp, the
 * caller's to free). Returns 1 with the row, 0 when there is nothing to
 * write (the record is gone, or a channel's record and log are as stored),
 * -1 when it cannot be encoded (logged). */
static int
row_of(struct persist *p, struct id *e, struct store_row *row, struct buf *b,
       struct store_log_row **logp)
{
	struct store_record r;
	const char *key = e->id + 2;
	struct channel *ch = NULL;

	if (e->id[0] == 'h') {
		struct mark *m = NULL;

		HASH_FIND_STR(p->marks, e->id, m);
		if (m == NULL)
			return 0;
		persist_mark_row(m, row);
		e->deleted = false;
		e->at = m->at;
		return 1;
	}
	memset(row, 0, sizeof(*row));
	row->key = key;
	row->version = STORE_RECORD_VERSION;
	e->record = true;
	e->log_sent = 0;
	if (e->id[0] == 'c') {
		ch = state_channel_peek(p->st, key);
		if (ch == NULL)
			return 0;
		row->kind = STORE_CHANNEL;
		row->last_used = channel_last_used(ch);
		row->generation = channel_generation(ch);
		/* A row never stored is written whole; a stored one whose record
		 * did not change since, only with its new log entries. */
		e->record = row->generation == 0 || !channel_record_saved(ch);
		e->changes = channel_changes(ch);
		if (e->record) {
			store_record_of_channel(&r, ch);
			row->at_start = channel_at_start(ch);
		}
	} else {
		/* A user released as empty had no row (state_release_user). */
		struct user *u = state_user_peek(p->st, key);

		if (u == NULL)
			return 0;
		store_record_of_user(&r, u);
		row->kind = STORE_USER;
		row->generation = user_generation(u);
	}
	e->generation = row->generation;
	/* A record with nothing to keep has no row: an emptied one is deleted. */
	e->deleted = e->record && store_record_is_empty(&r);
	if (e->deleted)
		return 1; /* rec NULL: delete the row */
	if (e->record && store_record_encode(&r, store_record_builtin_mods(), b) < 0)
		goto cannot;
	if (e->record && b->len > 0 && b->p[b->len - 1] == '\n')
		b->len--;
	row->rec_len = b->len;
	if (ch != NULL && log_rows_of(ch, b, row, logp, &e->log_sent) < 0)
		goto cannot;
	if (!e->record && row->nlog == 0) {
		buf_reset(b);
		return 0;
	}
	row->rec = e->record ? (b->p != NULL ? b->p : "") : NULL;
	row->log_only = !e->record;
	return 1;
cannot:
	log_error("store: the record of '%s' cannot be saved (a module's save failed or "
	          "it is over 1 MiB)",
	          key);
	buf_reset(b);
	return -1;
}

/* The arrays of a batch of cap rows into *rows, *bufs (empty buffers) and
 * *logs (NULL each): p's own when they hold it, else allocated, the first
 * buffers taken from p's (batch_arrays_done gives them back). */
static void
batch_arrays(struct persist *p, size_t cap, struct store_row **rows, struct buf **bufs,
             struct store_log_row ***logs)
{
	if (cap <= PERSIST_ROWBUFS_KEPT) {
		*rows = p->rows_kept;
		*bufs = p->rowbufs;
		*logs = p->logs_kept;
		memset(*rows, 0, cap * sizeof(**rows));
		memset(*logs, 0, cap * sizeof(**logs));
		for (size_t i = 0; i < cap; i++)
			if ((*bufs)[i].p == NULL)
				buf_init(&(*bufs)[i], STORE_RECORD_LINE_MAX * 2);
		return;
	}
	*rows = xcalloc(cap, sizeof(**rows));
	*bufs = xcalloc(cap, sizeof(**bufs));
	*logs = xcalloc(cap, sizeof(**logs));
	for (size_t i = 0; i < cap; i++) {
		if (i < PERSIST_ROWBUFS_KEPT && p->rowbufs[i].p != NULL) {
			(*bufs)[i] = p->rowbufs[i];
			buf_init(&p->rowbufs[i], 0); /* taken until the batch is handed over */
		} else {
			buf_init(&(*bufs)[i], STORE_RECORD_LINE_MAX * 2);
		}
	}
}

/* Once the batch is handed over: the logs freed, the first buffers kept
 * empty (unless grown past PERSIST_ROWBUF_KEEP_MAX), the rest freed. */
static void
batch_arrays_done(struct persist *p, size_t cap, struct store_row *rows, struct buf *bufs,
                  struct store_log_row **logs)
{
	for (size_t i = 0; i < cap; i++) {
		if (i < PERSIST_ROWBUFS_KEPT && bufs[i].cap <= PERSIST_ROWBUF_KEEP_MAX) {
			buf_reset(&bufs[i]);
			p->rowbufs[i] = bufs[i];
		} else {
			buf_free(&bufs[i]);
			if (i < PERSIST_ROWBUFS_KEPT)
				p->rowbufs[i] = bufs[i];
		}
		free(logs[i]);
		logs[i] = NULL;
	}
	if (rows != p->rows_kept) {
		free(logs);
		free(bufs);
		free(rows);
	}
}

/* Hands everything collected to the backend as one transaction. */
void
persist_commit_start(struct persist *p)
{
	struct store_row *rows;
	struct buf *bufs;
	struct store_log_row **logs;
	struct id *e, *tmp;
	size_t n = 0, cap = HASH_COUNT(p->pending);

	uv_idle_stop(&p->idle);
	if (p->committing || p->pending == NULL)
		return;
	batch_arrays(p, cap, &rows, &bufs, &logs);
	if (cap > p->batch_cap) {
		p->batch_cap = cap;
		p->batch = xrealloc(p->batch, cap * sizeof(*p->batch));
	}
	p->nbatch = 0;
	/* Records that could not be encoded for a batch sent again after a
	 * conflict count for this one, which releases its replies. */
	p->batch_lost = p->lost_carried;
	p->lost_carried = 0;
	HASH_ITER(hh, p->pending, e, tmp)
	{
		int rc;

		HASH_DEL(p->pending, e);
		rc = row_of(p, e, &rows[n], &bufs[n], &logs[n]);
		if (rc <= 0) {
			buf_reset(&bufs[n]);
			free(logs[n]);
			logs[n] = NULL;
			if (rc < 0) {
				p->batch_lost++;
				p->stats.append_failures++;
			}
			free(e);
			continue;
		}
		HASH_ADD_STR(p->inflight, id, e);
		p->batch[p->nbatch++] = e;
		n++;
	}
	p->committing = true;
	p->batch_seq = p->collect_seq++;
	p->stats.commits++;
	p->be->ops->commit(p->be, rows, n, commit_done, p);
	batch_arrays_done(p, cap, rows, bufs, logs);
}

/* The turn after changes were collected or answers became ready: the
 * next commit starts, and the answers that may go go. */
static void
idle_cb(uv_idle_t *h)
{
	struct persist *p = h->data;

	persist_commit_start(p);
	persist__answer_ready(p);
}
