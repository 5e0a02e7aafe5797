/* persist: the state written through to a store backend; see persist.h. */
#include "bot/store/persist.h"
#include "bot/store/persist_commit.h"
#include "bot/store/persist_int.h"
#include "bot/store/persist_mark.h"
#include "bot/store/persist_snapshot.h"
#include "bot/store/persist_queue.h"
#include "bot/store/persist_read.h"
#include "bot/store/restore_cut.h"
#include "bot/store/keyset.h"
#include "bot/store/markset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uthash.h>

#include "bot/log.h"
#include "bot/store/statedir.h"
#include "bot/store/store_merge.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define TICK_MS       1000  /* retries */
#define SWEEP_SECONDS 60    /* between eviction sweeps */
#define MARK_SWEEP_MS 60000 /* between expiries of the marks of handled events */

int64_t
persist__tick_clock(struct persist *p)
{
	int64_t now = (int64_t)time(NULL);

	if (now > p->clock)
		p->clock = now;
	return p->clock;
}

/* --- sets of record ids --- */

struct id *
persist__id_find(struct id *set, const char *id)
{
	struct id *e = NULL;

	if (set != NULL)
		HASH_FIND_STR(set, id, e);
	return e;
}

bool
persist__id_add(struct id **set, const char *id)
{
	struct id *e = persist__id_find(*set, id);

	if (e != NULL)
		return false;
	e = xcalloc(1, sizeof(*e));
	utf8_copy_bytes(e->id, sizeof(e->id), id);
	HASH_ADD_STR(*set, id, e);
	return true;
}

void
persist__id_del(struct id **set, const char *id)
{
	struct id *e = persist__id_find(*set, id);

	if (e != NULL) {
		HASH_DEL(*set, e);
		free(e);
	}
}

void
persist__id_clear(struct id **set)
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
	out[0] = kind;
	out[1] = ':';
	utf8_copy_bytes(out + 2, KEY_MAX, key);
}

void
persist__away(struct persist *p, char kind, const char *key)
{
	if (p->away != NULL)
		keyset_add(p->away, keyset_hash(kind, key));
}

void
persist_expire(struct persist *p)
{
	struct mark *m = xcalloc(1, sizeof(*m));

	persist__make_id(m->id, 'h', "");
	m->at = persist__tick_clock(p) - PERSIST_MARK_SECONDS;
	persist_mark_add(p, m);
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
	if (persist__id_find(p->retry, id) != NULL || persist__id_find(p->pending, id) != NULL ||
	    persist__id_find(p->inflight, id) != NULL)
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
	if (persist__id_find(p->retry, id) != NULL || persist__id_find(p->pending, id) != NULL ||
	    persist__id_find(p->inflight, id) != NULL)
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
		persist__id_add(&p->pending, e->id);
	}
	persist__wake(p);
}

/* The backend reached its server again: the changes that failed go now,
 * not at the next tick. */
static void
backend_back(void *ctx)
{
	struct persist *p = ctx;

	if (p->retry != NULL && !p->closing)
		retry_failed(p);
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

/* How soon after a start that found commits no snapshot holds the first
 * snapshot is written (the interval when that is shorter): a process that
 * systemd restarts every few seconds still leaves snapshots of them,
 * where an interval begun again at each start would never end. */
#define UNSNAPPED_SOON_MS 5000

/* When the first snapshot of this process is due, in ms from now. */
static uint64_t
first_snapshot_ms(const struct persist *p)
{
	uint64_t every = (uint64_t)p->o.snapshot_interval * 1000;

	return p->unsnapped && every > UNSNAPPED_SOON_MS ? UNSNAPPED_SOON_MS : every;
}

/* The database may hold commits that no snapshot holds (why says how it
 * is known): the first snapshot is due soon (first_snapshot_ms), even if
 * this process commits nothing. Logged once. */
static void
unsnapped_before(struct persist *p, const char *why)
{
	if (p->unsnapped)
		return;
	p->unsnapped = true;
	log_info("store: the database may hold commits that no snapshot holds (%s): a snapshot "
	         "is written %llu s after the start, even if nothing changes",
	         why, (unsigned long long)(first_snapshot_ms(p) / 1000));
}

/* Makes and checks the state directory (statedir.h) and takes its lock;
 * running: for a process that will run on it (not a restore). Returns 0,
 * or -1 with err and errno as persist_open says. */
int
persist__open_dir(struct persist *p, bool running, char *err, size_t errlen)
{
	char path[4200];
	struct stat st;
	bool had;

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
	had = fstat(p->lock_fd, &st) == 0 && st.st_size > 0;
	if (had)
		unsnapped_before(p, "the process before did not stop cleanly, or a channel was "
		                    "restored");
	if (pwrite(p->lock_fd, "1", 1, 0) != 1)
		log_warn("store: cannot write the lock file %s", path);
	p->running_marked = !had;
	persist_snapshot_leftovers(p->dir);
	return 0;
}

bool
persist__snapshot_due(const struct persist *p)
{
	return p->unsnapped || p->stats.appends != p->snap_appends;
}

void
persist__free(struct persist *p)
{
	persist__id_clear(&p->pending);
	persist__id_clear(&p->inflight);
	persist__id_clear(&p->retry);
	while (p->fetches != NULL)
		persist_read_free(p, p->fetches);
	while (p->marks != NULL)
		persist_mark_free(p, p->marks->id);
	free(p->batch);
	free(p->qchan_spare);
	for (size_t i = 0; i < PERSIST_ROWBUFS_KEPT; i++)
		buf_free(&p->rowbufs[i]);
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
	 * said before (its log, if it holds commits, still says so). */
	if (p->running_marked && ftruncate(p->lock_fd, 0) < 0)
		log_warn("store: cannot empty the lock file of %s", p->dir);
	persist__free(p);
	errno = e;
}

int
persist_db_path(char *out, size_t size, const char *dir)
{
	int n = snprintf(out, size, "%s/" PERSIST_DB_FILE, dir);

	return n < 0 || (size_t)n >= size ? -1 : 0;
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
	p->next_snapshot_ms = uv_now(p->loop) + first_snapshot_ms(p);
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
		persist__free(p);
		errno = STATEDIR_UNSAFE;
		return NULL;
	}
	if (persist__open_dir(p, true, err, errlen) < 0) {
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
	be->back = backend_back;
	be->back_ctx = p;
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
	persist__free(p);
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
		persist_commit_start(p);
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
