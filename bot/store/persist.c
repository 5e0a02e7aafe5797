/* persist: the state written through to a store backend; see persist.h. */
#include "bot/store/persist.h"
#include "bot/store/persist_int.h"
#include "bot/store/persist_snapshot.h"
#include "bot/store/persist_queue.h"
#include "bot/store/persist_read.h"
#include "bot/store/replaced.h"
#include "bot/store/restore_cut.h"
#include "bot/store/keyset.h"
#include "bot/store/markset.h"
#include "bot/store/snapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uthash.h>

#include "bot/log.h"
#include "bot/fsio.h"
#include "bot/store/statedir.h"
#include "bot/store/store_check.h"
#include "bot/store/store_record.h"
#include "bot/store/store_merge.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define TICK_MS       1000  /* retries */
#define SWEEP_SECONDS 60    /* between eviction sweeps */
#define MARK_SWEEP_MS 60000 /* between expiries of the marks of handled events */

static void start_batch(struct persist *p);
static void refuse_all(struct persist *p);
static void idle_cb(uv_idle_t *h);

int64_t
persist__tick_clock(struct persist *p)
{
	int64_t now = (int64_t)time(NULL);

	if (now > p->clock)
		p->clock = now;
	return p->clock;
}

/* --- sets of record ids --- */

static struct id *
id_find(struct id *set, const char *id)
{
	struct id *e = NULL;

	if (set != NULL)
		HASH_FIND_STR(set, id, e);
	return e;
}

static bool
id_add(struct id **set, const char *id)
{
	struct id *e = id_find(*set, id);

	if (e != NULL)
		return false;
	e = xcalloc(1, sizeof(*e));
	snprintf(e->id, sizeof(e->id), "%s", id);
	HASH_ADD_STR(*set, id, e);
	return true;
}

static void
id_del(struct id **set, const char *id)
{
	struct id *e = id_find(*set, id);

	if (e != NULL) {
		HASH_DEL(*set, e);
		free(e);
	}
}

static void
id_clear(struct id **set)
{
	struct id *e, *tmp;

	HASH_ITER(hh, *set, e, tmp)
	{
		HASH_DEL(*set, e);
		free(e);
	}
}

void
persist__make_id(char out[KEY_MAX + 2], char kind, const char *key)
{
	snprintf(out, KEY_MAX + 2, "%c:%s", kind, key);
}

void
persist__away(struct persist *p, char kind, const char *key)
{
	if (p->away != NULL)
		keyset_add(p->away, keyset_hash(kind, key));
}

/* --- collecting the changes of a turn --- */

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
	id_add(&p->pending, id);
	if (p->collecting != NULL)
		request_add_change(p->collecting, id);
	p->collected++;
}

/* The mark of a handled event as a row. */
static void
mark_row(const struct mark *m, struct store_row *row)
{
	memset(row, 0, sizeof(*row));
	row->kind = STORE_HANDLED;
	row->key = m->id + 2;
	row->last_used = m->at;
	row->rec = m->answer;
	row->rec_len = m->len;
}

static void
mark_free(struct persist *p, const char *id)
{
	struct mark *m = NULL;

	HASH_FIND_STR(p->marks, id, m);
	if (m != NULL) {
		HASH_DEL(p->marks, m);
		free(m->answer);
		free(m);
	}
}

/* Queues the mark m (owned by p from now on) for the next commit. */
static void
mark_add(struct persist *p, struct mark *m)
{
	mark_free(p, m->id); /* an earlier one of the same id (the expiry) */
	HASH_ADD_STR(p->marks, id, m);
	id_add(&p->pending, m->id);
	persist__wake(p);
}

void
persist__mark(struct persist *p, struct request *req)
{
	struct mark *m = xcalloc(1, sizeof(*m));
	struct buf b;

	persist__make_id(m->id, 'h', request_key(req));
	m->at = persist__tick_clock(p);
	buf_init(&b, STORE_RECORD_LINE_MAX);
	if (request_keep(req, &b) < 0 || b.toobig)
		buf_reset(&b);
	m->answer = xmalloc(b.len + 1);
	memcpy(m->answer, b.p != NULL ? b.p : "", b.len);
	m->answer[b.len] = '\0';
	m->len = b.len;
	buf_free(&b);
	request_add_change(req, m->id);
	if (p->known_marks != NULL)
		markset_add(p->known_marks, request_key(req), m->at);
	mark_add(p, m);
}

void
persist_expire(struct persist *p)
{
	struct mark *m = xcalloc(1, sizeof(*m));

	persist__make_id(m->id, 'h', "");
	m->at = persist__tick_clock(p) - PERSIST_MARK_SECONDS;
	mark_add(p, m);
}

/* Whether memory tells if the event key was handled: 1 marked (req, when
 * not NULL, gets what was kept), 0 not marked, -1 only the store can
 * tell. */
static int
mark_in_memory(struct persist *p, const char *key, struct request *req)
{
	char id[KEY_MAX + 2];
	struct mark *m = NULL;
	const char *kept;
	size_t len;

	if (p->known_marks == NULL)
		return -1;
	/* One of this process's, not committed yet. */
	persist__make_id(id, 'h', key);
	HASH_FIND_STR(p->marks, id, m);
	if (m != NULL) {
		if (req != NULL)
			request_set_kept(req, m->answer, m->len);
		return 1;
	}
	if ((kept = markset_answer(p->known_marks, key, &len)) != NULL) {
		if (req != NULL)
			request_set_kept(req, kept, len);
		return 1;
	}
	return markset_may_hold(p->known_marks, key) ? -1 : 0;
}

static int
marked_row(const struct store_row *r, void *ctx)
{
	request_set_kept(ctx, r->rec, r->rec_len);
	return 0;
}

/* SQLite: reads the mark of req's key now, on the loop. */
static int
marked_now(struct persist *p, struct request *req)
{
	char err[1100];
	int rc;

	p->stats.reads++;
	rc = store_sqlite_load_now(p->be, STORE_HANDLED, request_key(req), marked_row, req, err,
	                           sizeof(err));
	if (rc < 0)
		log_error("store: cannot tell whether event '%s' was handled: %s", request_key(req),
		          err);
	return rc;
}

bool
persist__mark_unknown(struct persist *p, const char *key)
{
	return mark_in_memory(p, key, NULL) < 0;
}

int
persist__marked(struct persist *p, struct request *req)
{
	char id[KEY_MAX + 2];
	struct fetch *f = NULL;
	int rc = mark_in_memory(p, request_key(req), req);

	if (rc >= 0)
		return rc;
	/* The read by key the request waited for; on SQLite past the bound of
	 * requests waiting (marks_now), none or one not over: read now, on the
	 * loop. */
	persist__make_id(id, 'h', request_key(req));
	HASH_FIND_STR(p->fetches, id, f);
	if (p->sqlite && (f == NULL || f->state != FETCHED)) {
		if (f != NULL && f->state == FETCHING)
			f->orphan = true; /* freed when its read is over */
		else if (f != NULL)
			persist_read_free(p, f);
		return marked_now(p, req);
	}
	if (f == NULL || f->state != FETCHED)
		return -1;
	rc = f->found ? 1 : 0;
	if (f->found)
		request_set_kept(req, f->row->rec, f->row->rec_len);
	persist_read_free(p, f);
	return rc;
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

/* --- the batch --- */

static void
log_failure(struct persist *p, const char *key, const char *err)
{
	if (!p->failing)
		log_warnx("store: cannot save the change to '%s' in %s (%s); it is kept in memory "
		          "and retried every second",
		          key, p->path, err != NULL ? err : "the store refused it");
}

static void forget(struct persist *p, const char *id);

/*
 * Another process wrote a row of the batch since this one read it (a
 * fleet, where a channel moved between shards), so the backend wrote
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
	struct id *drop = NULL, *e, *tmp;
	size_t group = 0;
	bool grew;

	for (size_t i = 0; i < n && i < p->nbatch; i++) {
		if (row_status[i] != STORE_CONFLICT)
			continue;
		log_warnx("store: '%s' in %s was changed by another delver process since this one "
		          "read it; the change made here is not kept and the record is read again",
		          p->batch[i]->id + 2, p->path);
		p->stats.conflicts++;
		id_add(&drop, p->batch[i]->id);
	}
	do {
		grew = false;
		for (struct request *req = p->ran_head; req != NULL;
		     req = request_hold(req)->state_next) {
			size_t i = 0, nc = request_nchanges(req);

			/* One not kept before holds no change any more. */
			if (request_outcome(req) == REQUEST_NOT_KEPT)
				continue;
			while (i < nc && id_find(drop, request_change(req, i)) == NULL)
				i++;
			if (i == nc)
				continue;
			request_set_outcome(req, REQUEST_NOT_KEPT);
			for (i = 0; i < nc; i++)
				if (id_add(&drop, request_change(req, i))) {
					grew = true;
					group++;
				}
		}
	} while (grew);
	if (group > 0)
		log_warnx(
		    "store: %zu more record%s changed by the same commands %s not kept either "
		    "and %s read again",
		    group, group == 1 ? "" : "s", group == 1 ? "is" : "are",
		    group == 1 ? "is" : "are");
	for (size_t i = 0; i < p->nbatch; i++)
		if (id_find(drop, p->batch[i]->id) == NULL)
			id_add(&p->pending, p->batch[i]->id);
	HASH_ITER(hh, drop, e, tmp)
	{
		if (!p->sqlite && e->id[0] != 'h')
			persist_read_start(p, e->id);
		forget(p, e->id);
		id_del(&p->pending, e->id);
	}
	id_clear(&drop);
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
		id_clear(&p->inflight);
		p->nbatch = 0;
		p->lost_carried += p->batch_lost;
		start_batch(p);
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
			retried = retried || id_find(p->retry, e->id) != NULL;
			id_del(&p->retry, e->id);
			/* The expiry ("h:") deleted the marks made before its
			 * time: they leave the set of those stored. */
			if (e->id[2] == '\0' && p->known_marks != NULL)
				markset_expire(p->known_marks, e->at);
			mark_free(p, e->id);
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
			retried = retried || id_find(p->retry, e->id) != NULL;
			id_del(&p->retry, e->id);
		} else {
			log_failure(p, key, err);
			p->failing = true;
			p->stats.append_failures++;
			id_add(&p->retry, e->id);
			lost++;
		}
	}
	(void)status;
	if (lost == 0 && retried && p->failing && p->retry == NULL) {
		log_warnx("store: writing works again; the changes that had failed are now saved");
		p->failing = false;
	}
	id_clear(&p->inflight);
	p->nbatch = 0;
	persist__commit_over(p, p->batch_seq, lost);
	start_batch(p);
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
	id_del(&p->retry, id);
	if (id[0] == 'h') {
		mark_free(p, id);
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
	id_clear(&p->inflight);
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

/* The row of one id, encoded into b (a channel's log array in *logp, the
 * caller's to free). Returns 1, 0 when there is nothing to write (the
 * record is gone, or a channel's record and log are as stored), -1 when it
 * cannot be encoded (logged). */
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
		mark_row(m, row);
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
	buf_init(b, STORE_RECORD_LINE_MAX * 2);
	if (e->record && store_record_encode(&r, store_record_builtin_mods(), b) < 0)
		goto cannot;
	if (e->record && b->len > 0 && b->p[b->len - 1] == '\n')
		b->len--;
	row->rec_len = b->len;
	if (ch != NULL && log_rows_of(ch, b, row, logp, &e->log_sent) < 0)
		goto cannot;
	if (!e->record && row->nlog == 0) {
		buf_free(b);
		return 0;
	}
	row->rec = e->record ? (b->p != NULL ? b->p : "") : NULL;
	row->log_only = !e->record;
	return 1;
cannot:
	log_error("store: the record of '%s' cannot be saved (a module's save failed or "
	          "it is over 1 MiB)",
	          key);
	buf_free(b);
	return -1;
}

/* Hands everything collected to the backend as one transaction. */
static void
start_batch(struct persist *p)
{
	struct store_row *rows;
	struct buf *bufs;
	struct store_log_row **logs;
	struct id *e, *tmp;
	size_t n = 0, cap = HASH_COUNT(p->pending);

	uv_idle_stop(&p->idle);
	if (p->committing || p->pending == NULL)
		return;
	rows = xcalloc(cap, sizeof(*rows));
	bufs = xcalloc(cap, sizeof(*bufs));
	logs = xcalloc(cap, sizeof(*logs));
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
			buf_free(&bufs[n]);
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
	for (size_t i = 0; i < cap; i++) {
		buf_free(&bufs[i]);
		free(logs[i]);
	}
	free(logs);
	free(bufs);
	free(rows);
}

/* The turn after changes were collected or answers became ready: the
 * next commit starts, and the answers that may go go. */
static void
idle_cb(uv_idle_t *h)
{
	struct persist *p = h->data;

	start_batch(p);
	persist__answer_ready(p);
}

void
persist_collect(struct persist *p)
{
	persist__collect(p);
}

bool
persist_settled(const struct persist *p)
{
	return !p->committing && p->pending == NULL && !persist__queue_busy(p);
}

/* --- idle channels --- */

static bool
evictable(const struct channel *ch, void *ctx)
{
	struct persist *p = ctx;
	char id[KEY_MAX + 2];

	if (channel_last_used(ch) + p->o.evict_after > p->clock)
		return false;
	persist__make_id(id, 'c', channel_key(ch));
	if (id_find(p->retry, id) != NULL || id_find(p->pending, id) != NULL ||
	    id_find(p->inflight, id) != NULL)
		return false;
	if (channel_generation(ch) != 0)
		persist__away(p, 'c', channel_key(ch));
	return true;
}

/* Users: empty ones with no row at once (a user with nothing to keep is
 * not kept), and idle ones (read back by key when next used). */
static bool
user_evictable(const struct user *u, void *ctx)
{
	struct persist *p = ctx;
	char id[KEY_MAX + 2];

	if (!(user_is_empty(u) && user_generation(u) == 0) &&
	    !(p->o.evict_after > 0 && user_last_used(u) + p->o.evict_after <= p->clock))
		return false;
	persist__make_id(id, 'u', user_key(u));
	if (id_find(p->retry, id) != NULL || id_find(p->pending, id) != NULL ||
	    id_find(p->inflight, id) != NULL)
		return false;
	if (user_generation(u) != 0)
		persist__away(p, 'u', user_key(u));
	return true;
}

size_t
persist_evict(struct persist *p)
{
	struct fetch *f, *tmp;
	size_t n, nu;

	persist__tick_clock(p);
	nu = state_evict_users_if(p->st, user_evictable, p);
	p->stats.users_evicted += nu;
	if (p->o.evict_after == 0)
		return 0;
	HASH_ITER(hh, p->fetches, f, tmp)
	{
		if (persist_read_absent(f) && f->used + p->o.evict_after <= p->clock)
			persist_read_free(p, f);
	}
	n = state_evict_channels_if(p->st, evictable, p);
	p->stats.evicted += n;
	return n;
}

/* --- the timer --- */

static uint64_t
sweep_ms(const struct persist *p)
{
	int s = p->o.evict_after > 0 && p->o.evict_after < SWEEP_SECONDS ? p->o.evict_after
	                                                                 : SWEEP_SECONDS;

	return (uint64_t)s * 1000;
}

/* Failed records go back into the next batch. */
static void
retry_failed(struct persist *p)
{
	struct id *e, *tmp;

	HASH_ITER(hh, p->retry, e, tmp)
	{
		struct mark *m = NULL;

		if (e->id[0] == 'h')
			HASH_FIND_STR(p->marks, e->id, m);
		if (e->id[0] == 'h'   ? m == NULL
		    : e->id[0] == 'c' ? state_channel_peek(p->st, e->id + 2) == NULL
		                      : state_user_peek(p->st, e->id + 2) == NULL) {
			HASH_DEL(p->retry, e);
			free(e);
			continue;
		}
		id_add(&p->pending, e->id);
	}
	persist__wake(p);
}

static void
tick_cb(uv_timer_t *t)
{
	struct persist *p = t->data;
	uint64_t now = uv_now(p->loop);

	persist__tick_clock(p);
	if (p->retry != NULL)
		retry_failed(p);
	if (now >= p->next_snapshot_ms && !p->snapping) {
		p->next_snapshot_ms = now + (uint64_t)p->o.snapshot_interval * 1000;
		if (persist__snapshot_due(p))
			persist_snapshot_start(p);
	}
	if (now >= p->next_sweep_ms) {
		p->next_sweep_ms = now + sweep_ms(p);
		persist_evict(p);
	}
	if (now >= p->next_expiry_ms) {
		p->next_expiry_ms = now + MARK_SWEEP_MS;
		persist_expire(p);
	}
}

/* --- opening and closing --- */

/* The database may hold commits that no snapshot holds (why says how it
 * is known): the next snapshot is due even if this process commits
 * nothing. Logged once. */
static void
unsnapped_before(struct persist *p, const char *why)
{
	if (p->unsnapped)
		return;
	p->unsnapped = true;
	log_info("store: the database may hold commits that no snapshot holds (%s): the next "
	         "snapshot is written even if nothing changes",
	         why);
}

/* Makes and checks the state directory (statedir.h) and takes its lock;
 * running: for a process that will run on it (not a restore). Returns 0,
 * or -1 with err and errno as persist_open says. */
static int
open_dir(struct persist *p, bool running, char *err, size_t errlen)
{
	char path[4200];
	struct stat st;

	if (statedir_prepare(p->dir, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/lock", p->dir);
	p->lock_fd = statedir_open(path, O_RDWR | O_CREAT);
	if (p->lock_fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot open %s: %s", path, statedir_strerror(e));
		errno = e == EACCES || e == EPERM || e == EROFS || e == ELOOP ? STATEDIR_UNSAFE : e;
		return -1;
	}
	if (flock(p->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen,
		         "the state directory %s is in use by another delver (%s is "
		         "locked); stop it or use another --state-dir",
		         p->dir, path);
		errno = EAGAIN;
		return -1;
	}
	/* A restore cut short is finished (or its leftovers removed) before
	 * anything opens the database: never a start on nothing by accident.
	 * A finished one leaves a snapshot's database, as persist_restore. */
	switch (restore_cut_settle(p->dir, err, errlen)) {
	case -1:
		errno = STATEDIR_UNSAFE;
		return -1;
	case 1:
		if (ftruncate(p->lock_fd, 0) < 0)
			log_warn("store: cannot empty the lock file of %s", p->dir);
		break;
	default:
		break;
	}
	/* The lock file holds a byte while a process runs; a clean stop
	 * empties it once every commit is in a snapshot (persist__close_step).
	 * A byte found now: the process before was killed, or stopped with
	 * commits no snapshot holds, so the next snapshot is due even if this
	 * one commits nothing. */
	if (!running)
		return 0;
	if (fstat(p->lock_fd, &st) == 0 && st.st_size > 0)
		unsnapped_before(p, "the process before did not stop cleanly, or a channel was "
		                    "restored");
	if (pwrite(p->lock_fd, "1", 1, 0) != 1)
		log_warn("store: cannot write the lock file %s", path);
	p->running_marked = true;
	persist_snapshot_leftovers(p->dir);
	return 0;
}

bool
persist__snapshot_due(const struct persist *p)
{
	return p->unsnapped || p->stats.appends != p->snap_appends;
}

static void
free_persist(struct persist *p)
{
	id_clear(&p->pending);
	id_clear(&p->inflight);
	id_clear(&p->retry);
	while (p->fetches != NULL)
		persist_read_free(p, p->fetches);
	while (p->marks != NULL)
		mark_free(p, p->marks->id);
	free(p->batch);
	free(p->ready);
	keyset_free(p->away);
	markset_free(p->known_marks);
	if (p->lock_fd >= 0)
		close(p->lock_fd);
	free(p);
}

/* free_persist for a failed open: errno stays as the failure set it. */
static void
fail_persist(struct persist *p)
{
	int e = errno;

	/* A start that failed committed nothing: the lock file says what it
	 * said before. */
	if (p->running_marked && !p->unsnapped && ftruncate(p->lock_fd, 0) < 0)
		log_warn("store: cannot empty the lock file of %s", p->dir);
	free_persist(p);
	errno = e;
}

int
persist_db_path(char *out, size_t size, const char *dir)
{
	int n = snprintf(out, size, "%s/" PERSIST_DB_FILE, dir);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* --- restoring a snapshot file --- */

/* The sentence of a restore of file (read from its copy db) that found
 * no room in dir for its copy: it needs two copies of the database. */
static void
no_room(const char *dir, const char *file, const char *db, char *err, size_t errlen)
{
	const long long mb = 1024 * 1024;
	struct stat st;
	long long need = stat(db, &st) == 0 ? (2 * (long long)st.st_size + mb - 1) / mb : 0;

	if (need > 0)
		snprintf(err, errlen,
		         "cannot restore %s: the disk of %s is full (the restore needs about "
		         "%lld MB free there, for two copies of the database); nothing was "
		         "changed",
		         file, dir, need);
	else
		snprintf(err, errlen,
		         "cannot restore %s: the disk of %s is full; nothing was changed", file,
		         dir);
}

/* Takes the stop signals (stop) that came while a restore that finished
 * held them: the restore is done, so they stop nothing now, and the exit
 * status says it was done. */
static void
take_stop_signals(const sigset_t *stop, const char *db)
{
	const struct timespec none = {0, 0};
	int sig, taken = 0;

	while ((sig = sigtimedwait(stop, NULL, &none)) > 0)
		taken = sig;
	if (taken > 0)
		log_info("store: %s came while %s was being put in place; the restore finished "
		         "first, so delver exits as after a restore",
		         taken == SIGINT    ? "SIGINT"
		         : taken == SIGTERM ? "SIGTERM"
		                            : "SIGHUP",
		         db);
}

int
persist_restore(const char *dir, const char *file, char *err, size_t errlen)
{
	struct persist *p = xcalloc(1, sizeof(*p));
	char why[8192], tmp[4300], from[4300], to[4400], aside[4300], plain[4400];
	static const char *const parts[] = {"", "-wal", "-shm"};
	bool moved = false, blocked = false;
	int rc = -1, expanded = 0;
	sigset_t stop, mask;

	p->lock_fd = -1;
	snprintf(p->dir, sizeof(p->dir), "%s", dir != NULL ? dir : persist_opts_default_dir());
	if (persist_db_path(p->path, sizeof(p->path), p->dir) < 0) {
		snprintf(err, errlen, "the state directory's name is too long");
		goto out;
	}
	if (open_dir(p, false, err, errlen) < 0)
		goto out;
	/* Read from its copy in the directory (expanded when compressed):
	 * nothing is written beside the operator's file. */
	expanded = snapfile_copy_in(file, p->dir, plain, sizeof(plain), why, sizeof(why));
	if (expanded < 0 || store_check_file(expanded ? plain : file, why, sizeof(why)) < 0) {
		if (expanded > 0)
			snapfile_name_original(why, sizeof(why), plain, file);
		snprintf(err, errlen, "cannot restore: %s; nothing was changed", why);
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.restore-tmp", p->path);
	unlink(tmp);
	if (store_sqlite_copy(expanded ? plain : file, tmp, why, sizeof(why)) < 0) {
		int e = errno;

		snapfile_remove(tmp);
		if (e == ENOSPC)
			no_room(p->dir, file, expanded ? plain : file, err, errlen);
		else {
			if (expanded > 0)
				snapfile_name_original(why, sizeof(why), plain, file);
			snprintf(err, errlen, "cannot restore: %s; nothing was changed", why);
		}
		goto out;
	}
	/* The copy is whole and durable (store_sqlite_copy commits it with
	 * synchronous FULL; its name too) before anything moves: a start that
	 * finds it without delver.db finishes this restore (restore_cut.h).
	 * From here to the install, SIGINT, SIGTERM and SIGHUP wait. */
	if (fsio_fsync_dir(p->dir) < 0) {
		snprintf(err, errlen, "cannot write to %s: %s; nothing was changed", p->dir,
		         strerror(errno));
		unlink(tmp);
		goto out;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	blocked = sigprocmask(SIG_BLOCK, &stop, &mask) == 0;
	/* The database in use (with its log) moves aside, never removed, into
	 * a directory of its own. */
	if (access(p->path, F_OK) == 0) {
		if (replaced_make(aside, sizeof(aside), p->dir, time(NULL)) < 0) {
			snprintf(err, errlen,
			         "cannot create a replaced-TIME directory in %s: %s; nothing was "
			         "changed",
			         p->dir, statedir_strerror(errno));
			unlink(tmp);
			goto out;
		}
		moved = true;
		for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			snprintf(from, sizeof(from), "%s%s", p->path, parts[i]);
			snprintf(to, sizeof(to), "%s/" PERSIST_DB_FILE "%s", aside, parts[i]);
			if (access(from, F_OK) == 0 && fsio_rename(from, to) < 0) {
				snprintf(err, errlen, "cannot move %s to %s: %s", from, aside,
				         strerror(errno));
				goto out;
			}
		}
		fsio_fsync_dir(aside);
	}
	if (fsio_rename(tmp, p->path) < 0 || fsio_fsync_dir(p->dir) < 0) {
		snprintf(err, errlen, "cannot install %s as %s: %s", tmp, p->path, strerror(errno));
		goto out;
	}
	/* Whatever a killed process committed was moved aside: the database
	 * is a snapshot's now. */
	if (ftruncate(p->lock_fd, 0) < 0)
		log_warn("store: cannot empty the lock file of %s", p->dir);
	log_info("store: %s restored from %s%s%s", p->path, file,
	         moved ? "; the database it replaced is in " : "", moved ? aside : "");
	rc = 0;
out:
	if (expanded > 0)
		snapfile_remove(plain);
	if (blocked && rc == 0)
		take_stop_signals(&stop, p->path);
	free_persist(p);
	if (blocked)
		sigprocmask(SIG_SETMASK, &mask, NULL);
	return rc;
}

static void
backend_gone(void *ctx, enum store_status status, const char *err)
{
	(void)ctx;
	(void)status;
	(void)err;
}

/* Loads st from p->be and starts the handles. Returns 0, or -1 with err
 * (be is then closed). */
static int
open_rest(struct persist *p, char *err, size_t errlen)
{
	if (p->sqlite)
		p->away = keyset_new();
	if (persist_read_all(p, err, errlen) < 0 || persist_read_marks(p, err, errlen) < 0) {
		int e = errno;

		/* Nothing is under way: the backend closes at once. */
		p->be->ops->close(p->be, backend_gone, NULL);
		uv_run(p->loop, UV_RUN_NOWAIT);
		errno = e;
		return -1;
	}
	if (p->sqlite) {
		state_set_loader(p->st, persist_read_channel_now, p);
		state_set_user_loader(p->st, persist_read_user_now, p);
	} else {
		state_set_loader(p->st, persist_read_fetched_channel, p);
		state_set_user_loader(p->st, persist_read_fetched_user, p);
	}
	uv_idle_init(p->loop, &p->idle);
	p->idle.data = p;
	uv_idle_init(p->loop, &p->resume);
	p->resume.data = p;
	uv_timer_init(p->loop, &p->tick);
	p->tick.data = p;
	uv_timer_start(&p->tick, tick_cb, TICK_MS, TICK_MS);
	uv_unref((uv_handle_t *)&p->tick);
	p->next_sweep_ms = uv_now(p->loop) + sweep_ms(p);
	p->next_snapshot_ms = uv_now(p->loop) + (uint64_t)p->o.snapshot_interval * 1000;
	p->next_expiry_ms = uv_now(p->loop) + MARK_SWEEP_MS;
	return 0;
}

static struct persist *
persist_new(uv_loop_t *loop, struct state *st, const struct persist_opts *o, char *err,
            size_t errlen)
{
	struct persist *p = xcalloc(1, sizeof(*p));

	p->loop = loop;
	p->st = st;
	p->o = *o;
	p->lock_fd = -1;
	p->collect_seq = 1;
	snprintf(p->dir, sizeof(p->dir), "%s",
	         o->dir != NULL ? o->dir : persist_opts_default_dir());
	persist__tick_clock(p);
	if (persist_db_path(p->path, sizeof(p->path), p->dir) < 0) {
		snprintf(err, errlen, "the state directory's name is too long");
		free_persist(p);
		errno = STATEDIR_UNSAFE;
		return NULL;
	}
	if (open_dir(p, true, err, errlen) < 0) {
		fail_persist(p);
		return NULL;
	}
	return p;
}

struct persist *
persist_open(uv_loop_t *loop, struct state *st, const struct persist_opts *o, char *err,
             size_t errlen)
{
	struct persist *p = persist_new(loop, st, o, err, errlen);
	char wal[4300];
	struct stat ws;

	if (p == NULL)
		return NULL;
	/* A clean stop checkpoints the log and removes it: one with frames
	 * says the process before did not, also one whose lock file could not
	 * tell (a delver from before the lock's byte). */
	snprintf(wal, sizeof(wal), "%s-wal", p->path);
	if (stat(wal, &ws) == 0 && ws.st_size > 0)
		unsnapped_before(p, "its log holds commits the process before did not "
		                    "checkpoint, so it did not stop cleanly");
	p->be = store_sqlite_open(loop, p->path, o->fsync, err, errlen);
	p->sqlite = true;
	if (p->be == NULL || store_merge(p->path, o->merge_from, err, errlen) < 0 ||
	    open_rest(p, err, errlen) < 0) {
		fail_persist(p);
		return NULL;
	}
	return p;
}

struct persist *
persist_open_backend(uv_loop_t *loop, struct state *st, const struct persist_opts *o,
                     struct store_backend *be, char *err, size_t errlen)
{
	struct persist *p = persist_new(loop, st, o, err, errlen);

	if (p == NULL) {
		be->ops->close(be, backend_gone, NULL);
		return NULL;
	}
	p->be = be;
	p->sqlite = be->ops == store_sqlite_ops();
	snprintf(p->path, sizeof(p->path), "the %s store", be->ops->name);
	if (open_rest(p, err, errlen) < 0) {
		fail_persist(p);
		return NULL;
	}
	return p;
}

void
persist_reconfigure(struct persist *p, const struct persist_opts *o)
{
	p->o.fsync = o->fsync;
	p->o.snapshot_interval = o->snapshot_interval;
	p->o.snapshot_keep = o->snapshot_keep;
	p->o.evict_after = o->evict_after;
	p->o.snapshot_on_stop = o->snapshot_on_stop;
	if (p->next_snapshot_ms > uv_now(p->loop) + (uint64_t)o->snapshot_interval * 1000)
		p->next_snapshot_ms = uv_now(p->loop) + (uint64_t)o->snapshot_interval * 1000;
	if (p->sqlite)
		store_sqlite_set_fsync(p->be, o->fsync);
	p->next_sweep_ms = uv_now(p->loop) + sweep_ms(p);
}

void
persist_get_stats(const struct persist *p, struct persist_stats *s)
{
	*s = p->stats;
	s->retry_pending = HASH_COUNT(p->retry);
	s->absent = p->nabsent;
	s->checkpoints = p->sqlite ? store_sqlite_checkpoints(p->be) : 0;
}

static void
handles_closed(uv_handle_t *h)
{
	struct persist *p = h->data;
	void (*done)(void *, unsigned) = p->closed;
	void *ctx = p->closed_ctx;
	unsigned lost = p->stop_lost;

	if (--p->open_handles > 0)
		return;
	free_persist(p);
	if (done != NULL)
		done(ctx, lost);
}

static void
backend_closed(void *ctx, enum store_status status, const char *err)
{
	struct persist *p = ctx;

	(void)status;
	(void)err;
	p->be = NULL;
	p->open_handles = 3;
	uv_close((uv_handle_t *)&p->idle, handles_closed);
	uv_close((uv_handle_t *)&p->resume, handles_closed);
	uv_close((uv_handle_t *)&p->tick, handles_closed);
}

/* The rounds of a close that tries failed records again: enough for a
 * connection lost again during one, few enough that a write the server
 * refuses every time ends the close soon. */
#define STOP_ROUNDS 10

static void
reached(void *ctx, enum store_status status, const char *err)
{
	struct persist *p = ctx;

	(void)err;
	p->reaching = false;
	if (status == STORE_OK)
		retry_failed(p);
	else
		p->reach_given_up = true;
	persist__close_step(p);
}

/* Whether the close tries the failed records again now: in rounds, each
 * once the backend has reached its server (store_backend.h's reach; SQLite
 * answers at once), until the server could not be reached, STOP_ROUNDS
 * have run, or stop_reach_ms have passed since the first. */
static bool
stop_retry(struct persist *p)
{
	uint64_t now = uv_now(p->loop);

	if (p->retry == NULL || p->reach_given_up || p->stop_rounds >= STOP_ROUNDS)
		return false;
	if (p->stop_rounds++ == 0)
		p->stop_reach_until_ms = now + p->o.stop_reach_ms;
	else if (now >= p->stop_reach_until_ms)
		return false;
	p->reaching = true;
	p->be->ops->reach(
	    p->be, p->stop_reach_until_ms > now ? (unsigned)(p->stop_reach_until_ms - now) : 0,
	    reached, p);
	return true;
}

/* The records whose changes the stop gives up, for its line: the first
 * three by kind and key (channel 'K', user 'K', the mark of event 'K'),
 * then how many more. */
static void
lost_names(struct persist *p, char *out, size_t len)
{
	struct id *e, *tmp;
	size_t at = 0, shown = 0, n = HASH_COUNT(p->retry);

	out[0] = '\0';
	HASH_ITER(hh, p->retry, e, tmp)
	{
		int w;

		if (shown == 3)
			break;
		if (e->id[0] == 'h' && e->id[2] == '\0')
			w = snprintf(out + at, len - at, "%sthe expiry of old events' marks",
			             shown > 0 ? ", " : "");
		else
			w = snprintf(out + at, len - at, "%s%s '%.120s'", shown > 0 ? ", " : "",
			             e->id[0] == 'c'   ? "channel"
			             : e->id[0] == 'u' ? "user"
			                               : "the mark of event",
			             e->id + 2);
		if (w < 0 || (size_t)w >= len - at)
			return;
		at += (size_t)w;
		shown++;
	}
	if (n > shown)
		snprintf(out + at, len - at, " and %zu more", n - shown);
}

/* Waits for the batch and the snapshot under way, commits what is left
 * (failed records again: stop_retry), writes the stop snapshot, closes. */
void
persist__close_step(struct persist *p)
{
	if (p->committing || p->snapping || p->backend_closed || p->reaching)
		return;
	if (p->pending == NULL && stop_retry(p))
		return;
	if (p->pending != NULL) {
		start_batch(p);
		return;
	}
	if (!p->stop_snapshot_done) {
		p->stop_snapshot_done = true;
		if (p->retry != NULL) {
			char names[600];

			p->stop_lost = HASH_COUNT(p->retry);
			lost_names(p, names, sizeof(names));
			log_error(
			    "store: the changes of %u record%s (%s) could not be saved to %s "
			    "before the stop%s; they are lost, and delver exits with status 1",
			    p->stop_lost, p->stop_lost == 1 ? "" : "s", names, p->path,
			    p->reach_given_up ? " (the server could not be reached in the "
			                        "stop's time)"
			                      : "");
		}
		if (p->o.snapshot_on_stop && persist__snapshot_due(p) &&
		    persist_snapshot_start(p) == 0)
			return;
	}
	/* A clean stop: the next start need not take this process's commits
	 * for missing from the snapshots, unless they are (open_dir). */
	if (!persist__snapshot_due(p) && ftruncate(p->lock_fd, 0) < 0)
		log_warn("store: cannot empty the lock file of %s", p->dir);
	p->backend_closed = true;
	p->be->ops->close(p->be, backend_closed, p);
}

void
persist_close_async(struct persist *p, void (*done)(void *ctx, unsigned lost), void *ctx)
{
	p->closing = true;
	p->closed = done;
	p->closed_ctx = ctx;
	uv_timer_stop(&p->tick);
	/* Requests waiting for reads run now when read, else are refused; on
	 * SQLite, a replay reads its mark now. */
	p->marks_now = p->sqlite;
	persist__reads_over(p);
	p->marks_now = false;
	persist__collect(p);
	persist__close_step(p);
}

static void
close_waited(void *ctx, unsigned lost)
{
	struct persist_close_wait *w = ctx;

	w->done = true;
	w->lost = lost;
}

void
persist_close_begin(struct persist *p, struct persist_close_wait *w)
{
	w->done = false;
	persist_close_async(p, close_waited, w);
}

unsigned
persist_close_wait(uv_loop_t *loop, struct persist_close_wait *w)
{
	while (!w->done)
		uv_run(loop, UV_RUN_ONCE);
	return w->lost;
}

unsigned
persist_close(struct persist *p)
{
	uv_loop_t *loop;
	struct persist_close_wait w;

	if (p == NULL)
		return 0;
	loop = p->loop;
	persist_close_begin(p, &w);
	return persist_close_wait(loop, &w);
}
