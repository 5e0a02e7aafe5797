/* persist: journal, snapshots, restore and eviction together; see persist.h. */
#include "bot/store/persist.h"

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

#include "bot/store/bgsave.h"
#include "bot/store/fsio.h"
#include "bot/store/hugeheap.h"
#include "bot/store/journal.h"
#include "bot/log.h"
#include "bot/store/record.h"
#include "bot/store/restore.h"
#include "bot/store/snapshot.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define TICK_MS       1000 /* fsync (everysec), retries, snapshot and sweep checks */
#define RETRY_SECONDS 10   /* after a failed snapshot */
#define SWEEP_SECONDS 60   /* between eviction sweeps */

/* A record whose append failed: "c:<key>" or "u:<key>". */
struct retry {
	char id[KEY_MAX + 2];
	uint64_t change; /* p->changes when it failed */
	UT_hash_handle hh;
};

struct persist {
	uv_loop_t *loop;
	struct state *st;
	struct persist_opts o;
	char dir[4096];
	int lock_fd;
	struct journal *j;      /* the current journal, or NULL when none could be made */
	uint64_t next_seq;      /* the number of the next journal file */
	struct snapshot *snap;  /* the installed snapshot, for lookups (or NULL) */
	int64_t taken;          /* when snap's image was taken */
	int64_t clock;          /* unix seconds, never going back */
	uint64_t changes;       /* records handed to the hooks so far */
	uint64_t saved_changes; /* of those, the ones the installed snapshot holds */
	uint64_t bg_changes;    /* changes when the running snapshot forked */
	int64_t bg_taken;
	bool need_snapshot;        /* soon, whether or not anything changed */
	bool bg_need;              /* need_snapshot when the running snapshot forked */
	uint64_t next_snapshot_ms; /* uv_now() of the next snapshot check */
	uint64_t next_sweep_ms;
	struct bgsave *bg;
	bool bg_preparing; /* a new journal is being made for a snapshot */
	bool closing;
	int close_phase;        /* close_step's progress */
	void (*closed)(void *); /* persist_close_async's callback */
	void *closed_ctx;
	uv_timer_t tick;
	int works;                 /* thread-pool jobs not yet done */
	struct journal *syncing_j; /* the journal an everysec fsync is running on */
	bool failing;              /* appends are failing (log once) */
	struct retry *retry;
	struct persist_stats stats;
};

/* A thread-pool job: an fsync, or making the next journal. */
struct job {
	uv_work_t req;
	bool fsync;
	struct persist *p;
	struct journal *j;
	uint64_t size; /* fsync: the journal's size when it began */
	uint64_t seq;  /* new journal: its number */
	int rc, err;
	char msg[512];
};

static void close_step(struct persist *p);

static int64_t
tick_clock(struct persist *p)
{
	int64_t now = (int64_t)time(NULL);

	if (now > p->clock)
		p->clock = now;
	return p->clock;
}

/* --- retries of failed appends --- */

static void
retry_add(struct persist *p, char kind, const char *key)
{
	char id[KEY_MAX + 2];
	struct retry *r;

	snprintf(id, sizeof(id), "%c:%s", kind, key);
	HASH_FIND_STR(p->retry, id, r);
	if (r == NULL) {
		r = xcalloc(1, sizeof(*r));
		memcpy(r->id, id, sizeof(id));
		HASH_ADD_STR(p->retry, id, r);
	}
	r->change = p->changes;
}

static void
retry_del(struct persist *p, struct retry *r)
{
	HASH_DEL(p->retry, r);
	free(r);
}

/* Asks for a snapshot at the next tick (unless one failed just now). */
static void
snapshot_soon(struct persist *p)
{
	uint64_t soon = uv_now(p->loop) + TICK_MS;

	p->need_snapshot = true;
	if (p->next_snapshot_ms > soon)
		p->next_snapshot_ms = soon;
}

/* --- the journal --- */

static void job_done(uv_work_t *req, int status);

static void
fsync_work(uv_work_t *req)
{
	struct job *w = req->data;

	w->rc = fsio_fsync(journal_fd(w->j));
	w->err = errno;
}

/* Queues a thread-pool fsync of j up to its current size. */
static void
queue_fsync(struct persist *p, struct journal *j)
{
	struct job *w = xcalloc(1, sizeof(*w));

	w->fsync = true;
	w->p = p;
	w->j = j;
	w->size = journal_size(j);
	w->req.data = w;
	journal_hold(j);
	if (j == p->j)
		p->syncing_j = j;
	p->works++;
	uv_queue_work(p->loop, &w->req, fsync_work, job_done);
}

/* Lets go of a journal that is no longer written: under everysec its
 * unsynced tail is fsynced first. */
static void
retire(struct persist *p, struct journal *j)
{
	if (j == NULL)
		return;
	if (p->o.fsync == FSYNC_EVERYSEC && !journal_broken(j) &&
	    journal_size(j) > journal_synced(j))
		queue_fsync(p, j);
	journal_release(j);
}

/* Makes sure there is a usable journal, starting a new file when the
 * current one broke. Returns 0, or -1. */
static int
ensure_journal(struct persist *p)
{
	char err[1024];
	struct journal *j;

	if (p->j != NULL && !journal_broken(p->j))
		return 0;
	j = journal_create(p->dir, p->next_seq, err, sizeof(err));
	if (j == NULL) {
		if (!p->failing)
			log_error("journal: %s", err);
		return -1;
	}
	p->next_seq++;
	retire(p, p->j);
	p->j = j;
	/* What the broken file held since its last fsync may be lost. */
	snapshot_soon(p);
	return 0;
}

/* Appends r; under always also fsyncs. Returns 0, or -1 (logged). */
static int
append(struct persist *p, const struct record *r)
{
	struct buf b;
	int rc = -1;

	buf_init(&b, RECORD_LINE_MAX);
	if (record_encode(r, record_builtin_mods(), &b) < 0) {
		log_error("journal: the record of '%s' cannot be saved (a module's save failed or "
		          "it is over 1 MiB)",
		          r->key);
		buf_free(&b);
		return -1;
	}
	if (ensure_journal(p) < 0)
		errno = EIO;
	else if (journal_append(p->j, b.p, b.len) < 0)
		;
	else if (p->o.fsync == FSYNC_ALWAYS && journal_sync(p->j) < 0)
		;
	else
		rc = 0;
	if (rc < 0 && !p->failing)
		log_warn(
		    "journal: cannot save the change to '%s'; it is kept in memory and retried "
		    "every second",
		    r->key);
	buf_free(&b);
	return rc;
}

/* Appends a record and remembers it for a retry when that fails. */
static int
persist_record(struct persist *p, const struct record *r, char kind)
{
	struct retry *old = NULL;
	char id[KEY_MAX + 2];

	p->changes++;
	if (append(p, r) == 0) {
		p->stats.appends++;
		if (p->retry != NULL) {
			snprintf(id, sizeof(id), "%c:%s", kind, r->key);
			HASH_FIND_STR(p->retry, id, old);
		}
		if (old != NULL)
			retry_del(p, old);
		return 0;
	}
	p->stats.append_failures++;
	p->failing = true;
	retry_add(p, kind, r->key);
	return -1;
}

int
persist_channel(struct channel *ch, void *ctx)
{
	struct persist *p = ctx;
	int64_t now = tick_clock(p);
	struct record r;

	/* A record written now is newer than any snapshot taken before. */
	if (channel_last_used(ch) < now)
		channel_set_last_used(ch, now);
	record_of_channel(&r, ch);
	return persist_record(p, &r, 'c');
}

int
persist_user(struct user *u, void *ctx)
{
	struct record r;

	record_of_user(&r, u);
	return persist_record(ctx, &r, 'u');
}

int
persist_flush(struct persist *p)
{
	return state_flush(p->st, persist_channel, persist_user, p);
}

/* Appends the records whose appends failed, while that works. */
static void
retry_failed(struct persist *p)
{
	struct retry *r, *tmp;
	uint64_t done = 0;

	HASH_ITER(hh, p->retry, r, tmp)
	{
		struct record rec;

		if (r->id[0] == 'c') {
			struct channel *ch = state_channel_find(p->st, r->id + 2);

			if (ch == NULL) {
				retry_del(p, r);
				continue;
			}
			record_of_channel(&rec, ch);
		} else {
			record_of_user(&rec, state_user(p->st, r->id + 2));
		}
		if (append(p, &rec) < 0)
			return;
		retry_del(p, r);
		done++;
	}
	if (p->failing)
		log_warnx(
		    "journal: writing works again; %llu changes that had failed are now saved",
		    (unsigned long long)done);
	p->failing = false;
}

/* Once a second after a failure: a new journal, then the failed records. */
static void
recover(struct persist *p)
{
	if (ensure_journal(p) == 0)
		retry_failed(p);
}

/* --- snapshots --- */

static void
bg_done(void *ctx, const struct bgsave_result *res)
{
	struct persist *p = ctx;
	struct retry *r, *tmp;

	p->stats.last_fork_ms = res->fork_ms;
	if (!res->ok) {
		p->need_snapshot |= p->bg_need;
		p->stats.snapshot_failures++;
		p->next_snapshot_ms = uv_now(p->loop) + RETRY_SECONDS * 1000;
		if (p->closing) {
			log_error("snapshot at shutdown failed; the journals keep the changes");
			close_step(p);
		}
		return;
	}
	snapshot_close(p->snap);
	p->snap = res->snap;
	p->taken = p->bg_taken;
	p->saved_changes = p->bg_changes;
	p->stats.snapshots++;
	p->stats.last_bytes = res->bytes;
	p->stats.last_total_ms = res->total_ms;
	/* The snapshot holds every record as it was at the fork. */
	HASH_ITER(hh, p->retry, r, tmp)
	{
		if (r->change <= p->bg_changes)
			retry_del(p, r);
	}
	if (p->retry == NULL)
		p->failing = false;
	if (p->closing)
		close_step(p);
}

/* Forks the writer once the next journal exists: changes made after the
 * fork go to that journal, which the snapshot does not hold. */
static void
bg_fork(struct persist *p, struct journal *next)
{
	retire(p, p->j);
	p->j = next;
	hugeheap_advise();
	p->bg_taken = tick_clock(p);
	p->bg_changes = p->changes;
	p->bg_need = p->need_snapshot;
	p->need_snapshot = false;
	if (bgsave_start(p->bg, p->st, p->snap, p->bg_taken, journal_seq(next), p->lock_fd,
	                 p->o.evict_after > 0) < 0) {
		log_warn("snapshot: cannot fork the writer; retrying in %d s", RETRY_SECONDS);
		p->need_snapshot |= p->bg_need;
		p->stats.snapshot_failures++;
		p->next_snapshot_ms = uv_now(p->loop) + RETRY_SECONDS * 1000;
	}
}

static void
new_journal_work(uv_work_t *req)
{
	struct job *w = req->data;

	w->j = journal_create(w->p->dir, w->seq, w->msg, sizeof(w->msg));
}

static void
job_done(uv_work_t *req, int status)
{
	struct job *w = req->data;
	struct persist *p = w->p;

	p->works--;
	if (!w->fsync) {
		p->bg_preparing = false;
		if (w->j != NULL && p->j != NULL && journal_seq(w->j) < journal_seq(p->j)) {
			/* A broken journal was replaced by a newer file meanwhile: the
			 * prepared one would sort before changes made before it. It
			 * stays, empty (it replays as nothing), and the next snapshot
			 * folds it in. */
			journal_release(w->j);
			w->j = NULL;
			snprintf(w->msg, sizeof(w->msg),
			         "the journal changed while it was prepared");
		}
		if (w->j != NULL && p->closing) {
			retire(p, p->j); /* shutting down: a final snapshot follows */
			p->j = w->j;
		} else if (w->j != NULL) {
			bg_fork(p, w->j);
		} else {
			log_warnx("snapshot: %s; retrying in %d s", w->msg, RETRY_SECONDS);
			if (p->next_seq == w->seq + 1)
				p->next_seq = w->seq; /* unused: no gap in the numbers */
			p->stats.snapshot_failures++;
			p->next_snapshot_ms = uv_now(p->loop) + RETRY_SECONDS * 1000;
		}
	} else {
		if (w->j == p->syncing_j)
			p->syncing_j = NULL;
		if (w->rc == 0) {
			journal_set_synced(w->j, w->size);
		} else if (!journal_broken(w->j)) {
			log_error(
			    "journal: fsync failed: %s; starting a new journal and a snapshot",
			    strerror(w->err));
			journal_set_broken(w->j);
			p->stats.append_failures++;
			snapshot_soon(p);
		}
		journal_release(w->j);
	}
	free(w);
	if (p->closing)
		close_step(p);
}

int
persist_snapshot(struct persist *p)
{
	struct job *w;

	if (p->bg_preparing || bgsave_running(p->bg))
		return -1;
	w = xcalloc(1, sizeof(*w));
	w->p = p;
	w->seq = p->next_seq++;
	w->req.data = w;
	p->bg_preparing = true;
	p->works++;
	uv_queue_work(p->loop, &w->req, new_journal_work, job_done);
	return 0;
}

bool
persist_busy(const struct persist *p)
{
	return p->bg_preparing || bgsave_running(p->bg);
}

/* Writes and installs a snapshot in this thread (start and shutdown). */
static int
snapshot_here(struct persist *p, char *err, size_t errlen)
{
	char tmp[4096], path[4096];
	int64_t taken = tick_clock(p);
	uint64_t next = p->next_seq;

	snapshot_tmp_path(tmp, sizeof(tmp), p->dir, getpid());
	if (snapshot_write(p->st, p->snap, tmp, taken, next, NULL, err, errlen) < 0 ||
	    snapshot_install(p->dir, tmp, next, err, errlen) < 0) {
		unlink(tmp);
		return -1;
	}
	snapshot_close(p->snap);
	p->snap = NULL;
	p->taken = taken;
	p->saved_changes = p->changes;
	p->need_snapshot = false;
	if (p->o.evict_after > 0 && snapshot_path(path, sizeof(path), p->dir) == 0)
		p->snap = snapshot_open(path, err, errlen);
	return 0;
}

/* --- idle channels --- */

static bool
evictable(const struct channel *ch, void *ctx)
{
	struct persist *p = ctx;
	int64_t used = channel_last_used(ch);

	return used < p->taken && used + p->o.evict_after <= p->clock;
}

size_t
persist_evict(struct persist *p)
{
	size_t n;

	if (p->o.evict_after == 0 || p->snap == NULL)
		return 0;
	tick_clock(p);
	n = state_evict_channels_if(p->st, evictable, p);
	p->stats.evicted += n;
	return n;
}

static int
load_channel(struct channel *fresh, void *ctx)
{
	struct persist *p = ctx;
	struct record r;
	char err[1024];
	int rc;

	if (p->snap == NULL)
		return 0;
	rc = snapshot_find(p->snap, channel_key(fresh), &r, err, sizeof(err));
	if (rc < 0) {
		log_error("cannot load channel '%s': %s", channel_key(fresh), err);
		return -1;
	}
	if (rc == 1) {
		record_to_channel(&r, fresh);
		p->stats.loaded++;
	}
	return rc;
}

/* --- the timer --- */

/* Sweeps once a minute, or as often as channels can become idle. */
static uint64_t
sweep_ms(const struct persist *p)
{
	int s = p->o.evict_after > 0 && p->o.evict_after < SWEEP_SECONDS ? p->o.evict_after
	                                                                 : SWEEP_SECONDS;

	return (uint64_t)s * 1000;
}

static void
tick_cb(uv_timer_t *t)
{
	struct persist *p = t->data;
	uint64_t now = uv_now(p->loop);

	hugeheap_advise();
	tick_clock(p);
	if (p->retry != NULL || p->j == NULL || journal_broken(p->j))
		recover(p);
	if (p->o.fsync == FSYNC_EVERYSEC && p->j != NULL && p->syncing_j == NULL &&
	    journal_size(p->j) > journal_synced(p->j))
		queue_fsync(p, p->j);
	if (now >= p->next_snapshot_ms && !persist_busy(p)) {
		p->next_snapshot_ms = now + (uint64_t)p->o.snapshot_interval * 1000;
		if (p->changes > p->saved_changes || p->need_snapshot)
			persist_snapshot(p);
	}
	if (now >= p->next_sweep_ms) {
		p->next_sweep_ms = now + sweep_ms(p);
		persist_evict(p);
	}
}

/* --- opening and closing --- */

static int
open_dir(struct persist *p, char *err, size_t errlen)
{
	char path[4200];
	struct stat sb;

	if (mkdir(p->dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create the state directory %s: %s", p->dir,
		         strerror(errno));
		return -1;
	}
	if (stat(p->dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "the state directory %s is not a directory", p->dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/lock", p->dir);
	p->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (p->lock_fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(p->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen,
		         "the state directory %s is in use by another delver (%s is "
		         "locked); stop it or use another --state-dir",
		         p->dir, path);
		return -1;
	}
	return 0;
}

static void
free_persist(struct persist *p)
{
	struct retry *r, *tmp;

	HASH_ITER(hh, p->retry, r, tmp)
	{
		retry_del(p, r);
	}
	journal_release(p->j);
	snapshot_close(p->snap);
	if (p->lock_fd >= 0)
		close(p->lock_fd);
	free(p);
}

static int
restore(struct persist *p, char *err, size_t errlen)
{
	struct restore_opts ro = {.dir = p->dir,
	                          .salvage = p->o.salvage,
	                          .now = (int64_t)time(NULL),
	                          .evict_after = p->o.evict_after,
	                          .progress = hugeheap_advise};
	struct restore_result res;
	char why[2048];

	if (restore_state(p->st, &ro, &res, why, sizeof(why)) < 0) {
		snprintf(err, errlen,
		         "%s. The file is left as it is: repair or remove it, or start with "
		         "--salvage to move damaged files aside and start from what is readable",
		         why);
		return -1;
	}
	p->snap = res.snap;
	p->taken = res.taken;
	p->clock = res.clock;
	p->next_seq = res.next_journal;
	p->need_snapshot = res.rewrite;
	tick_clock(p);
	log_debug("state %s: %llu records loaded, %llu channels left on disk, %llu journal "
	          "records replayed from %llu files",
	          p->dir, (unsigned long long)res.loaded, (unsigned long long)res.on_disk,
	          (unsigned long long)res.replayed, (unsigned long long)res.journals);
	/* What salvage read lives only in memory now: make it durable first. */
	if (res.moved_aside && snapshot_here(p, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot save what --salvage recovered: %s", why);
		return -1;
	}
	return 0;
}

struct persist *
persist_open(uv_loop_t *loop, struct state *st, const struct persist_opts *o, char *err,
             size_t errlen)
{
	struct persist *p = xcalloc(1, sizeof(*p));

	p->loop = loop;
	p->st = st;
	p->o = *o;
	p->lock_fd = -1;
	snprintf(p->dir, sizeof(p->dir), "%s", o->dir != NULL ? o->dir : persist_default_dir());
	hugeheap_init();
	if (open_dir(p, err, errlen) < 0 || restore(p, err, errlen) < 0) {
		free_persist(p);
		return NULL;
	}
	p->j = journal_create(p->dir, p->next_seq, err, errlen);
	if (p->j == NULL) {
		free_persist(p);
		return NULL;
	}
	p->next_seq++;
	p->bg = bgsave_new(loop, p->dir, bg_done, p);
	uv_timer_init(loop, &p->tick);
	p->tick.data = p;
	uv_timer_start(&p->tick, tick_cb, TICK_MS, TICK_MS);
	uv_unref((uv_handle_t *)&p->tick);
	p->next_snapshot_ms =
	    uv_now(loop) + (p->need_snapshot ? TICK_MS : (uint64_t)o->snapshot_interval * 1000);
	p->next_sweep_ms = uv_now(loop) + sweep_ms(p);
	return p;
}

void
persist_reconfigure(struct persist *p, const struct persist_opts *o)
{
	uint64_t soon = uv_now(p->loop) + (uint64_t)o->snapshot_interval * 1000;

	p->o.fsync = o->fsync;
	p->o.snapshot_interval = o->snapshot_interval;
	p->o.evict_after = o->evict_after;
	if (p->next_snapshot_ms > soon)
		p->next_snapshot_ms = soon;
	p->next_sweep_ms = uv_now(p->loop) + sweep_ms(p);
}

void
persist_attach(struct persist *p, struct dispatch *d)
{
	d->persist_channel = persist_channel;
	d->persist_user = persist_user;
	d->persist_ctx = p;
	state_set_loader(p->st, load_channel, p);
}

void
persist_get_stats(const struct persist *p, struct persist_stats *s)
{
	*s = p->stats;
	s->retry_pending = HASH_COUNT(p->retry);
}

static void
tick_closed(uv_handle_t *h)
{
	struct persist *p = h->data;
	void (*done)(void *) = p->closed;
	void *ctx = p->closed_ctx;

	free_persist(p);
	if (done != NULL)
		done(ctx);
}

/*
 * The steps of closing, run again whenever a job or a snapshot ends:
 * wait for them; then persist what is left, fsync the journal and start
 * the final snapshot (it folds in every journal); then close the handles.
 */
static void
close_step(struct persist *p)
{
	char err[2048];

	if (p->works > 0 || bgsave_running(p->bg))
		return;
	if (p->close_phase == 0) {
		p->close_phase = 1;
		persist_flush(p);
		if (p->retry != NULL)
			recover(p);
		if (p->j != NULL && p->o.fsync != FSYNC_NO)
			journal_sync(p->j);
		if (p->changes > p->saved_changes || p->need_snapshot || p->retry != NULL) {
			p->bg_taken = tick_clock(p);
			p->bg_changes = p->changes;
			p->bg_need = p->need_snapshot;
			if (bgsave_start(p->bg, p->st, p->snap, p->bg_taken, p->next_seq,
			                 p->lock_fd, false) == 0)
				return; /* bg_done comes back here */
			if (snapshot_here(p, err, sizeof(err)) < 0)
				log_error("snapshot at shutdown: %s; the journals keep the changes",
				          err);
		} else if (p->j != NULL && journal_empty(p->j) &&
		           journal_path(err, sizeof(err), p->dir, journal_seq(p->j)) == 0) {
			unlink(err); /* nothing in it: do not leave one behind per start */
		}
	}
	if (p->close_phase == 1) {
		p->close_phase = 2;
		bgsave_free(p->bg);
		uv_close((uv_handle_t *)&p->tick, tick_closed);
	}
}

void
persist_close_async(struct persist *p, void (*done)(void *ctx), void *ctx)
{
	p->closing = true;
	p->closed = done;
	p->closed_ctx = ctx;
	uv_timer_stop(&p->tick);
	close_step(p);
}

static void
set_true(void *ctx)
{
	*(bool *)ctx = true;
}

void
persist_close(struct persist *p)
{
	uv_loop_t *loop;
	bool done = false;

	if (p == NULL)
		return;
	loop = p->loop;
	persist_close_async(p, set_true, &done);
	while (!done)
		uv_run(loop, UV_RUN_ONCE);
}
