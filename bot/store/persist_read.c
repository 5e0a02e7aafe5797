/* persist_read: records read back into memory; see persist_read.h. */
#include "bot/store/persist_read.h"
#include "bot/store/persist_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "bot/log.h"
#include "bot/store/keyset.h"
#include "bot/store/markset.h"
#include "bot/store/store.h"
#include "bot/store/store_record.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/* A user read and found absent (see struct fetch). */
bool
persist_read_absent(const struct fetch *f)
{
	return f->state == FETCHED && !f->found && f->id[0] == 'u';
}

void
persist_read_free(struct persist *p, struct fetch *f)
{
	if (persist_read_absent(f))
		p->nabsent--;
	HASH_DEL(p->fetches, f);
	free(f->row);
	free(f);
}

/* Past PERSIST_ABSENT_MAX users known absent, the least recently used go. */
static void
absent_bound(struct persist *p)
{
	struct fetch *f, *tmp;

	HASH_ITER(hh, p->fetches, f, tmp)
	{
		if (p->nabsent <= PERSIST_ABSENT_MAX)
			break;
		if (persist_read_absent(f))
			persist_read_free(p, f);
	}
}

/* Forgets that id is known absent: this process wrote its row. */
void
persist_read_forget_absent(struct persist *p, const char *id)
{
	struct fetch *f = NULL;

	HASH_FIND_STR(p->fetches, id, f);
	if (f != NULL && persist_read_absent(f))
		persist_read_free(p, f);
}

static void
resume_cb(uv_idle_t *h)
{
	struct persist *p = h->data;

	uv_idle_stop(h);
	persist__reads_over(p);
}

static void
fetched(void *ctx, enum store_status status, const struct store_row *row, const char *err)
{
	struct fetch *f = ctx;

	/* The commands waiting for it run (or are refused) in the next turn,
	 * outside the backend's callback. */
	uv_idle_start(&f->p->resume, resume_cb);
	if (f->orphan) {
		persist_read_free(f->p, f);
		return;
	}

	if (status != STORE_OK) {
		log_warnx("store: cannot read '%s' again from %s (%s); the next command that needs "
		          "it tries again",
		          f->id + 2, f->p->path, err != NULL ? err : "the store refused");
		f->state = FETCH_FAILED;
		return;
	}
	f->state = FETCHED;
	f->found = row != NULL && row->rec != NULL;
	if (f->found) {
		f->row = store_row_dup(row);
	} else if (persist_read_absent(f)) {
		f->used = persist__tick_clock(f->p);
		f->p->nabsent++;
		absent_bound(f->p);
	}
}

/* Starts reading id back from the backend (not SQLite: see struct fetch). */
void
persist_read_start(struct persist *p, const char *id)
{
	struct fetch *f = NULL;

	HASH_FIND_STR(p->fetches, id, f);
	if (f == NULL) {
		f = xcalloc(1, sizeof(*f));
		snprintf(f->id, sizeof(f->id), "%s", id);
		f->p = p;
		HASH_ADD_STR(p->fetches, id, f);
	} else if (f->state == FETCHING) {
		return;
	}
	if (persist_read_absent(f))
		p->nabsent--;
	free(f->row);
	f->row = NULL;
	f->found = false;
	f->state = FETCHING;
	p->stats.reads++;
	p->be->ops->load(p->be,
	                 id[0] == 'c'   ? STORE_CHANNEL
	                 : id[0] == 'u' ? STORE_USER
	                                : STORE_HANDLED,
	                 id + 2, fetched, f);
}

/* One record a command needs: 0 in memory (or read), 1 being read, -1 its
 * last read failed (or the store is closing). */
static int
want_one(struct persist *p, char kind, const char *key, bool restart)
{
	char id[KEY_MAX + 2];
	struct fetch *f = NULL;

	if (kind == 'c'   ? state_channel_peek(p->st, key) != NULL
	    : kind == 'u' ? state_user_peek(p->st, key) != NULL
	                  : false)
		return 0;
	persist__make_id(id, kind, key);
	HASH_FIND_STR(p->fetches, id, f);
	if (f != NULL && f->state == FETCHED)
		return 0;
	if (f != NULL && f->state == FETCH_FAILED && !restart)
		return -1;
	if (p->closing)
		return -1;
	persist_read_start(p, id);
	return 1;
}

int
persist_read_want_mark(struct persist *p, const char *key, bool restart)
{
	return want_one(p, 'h', key, restart);
}

/* Whether the records of a request are in memory: see persist_read.h. */
int
persist_read_want(void *ctx, const char *chan_key, const char *user_key, const char *legacy_key,
                  bool restart)
{
	struct persist *p = ctx;
	int c = want_one(p, 'c', chan_key, restart);
	int u = want_one(p, 'u', user_key, restart);
	int l = legacy_key[0] != '\0' ? want_one(p, 'u', legacy_key, restart) : 0;

	if (c < 0)
		return PERSIST_WANT_CHANNEL;
	if (u < 0 || l < 0)
		return PERSIST_WANT_USER;
	return c > 0 || u > 0 || l > 0 ? 1 : 0;
}

/* Decodes a stored row into r (its kind checked, and its own key against
 * the row's key column: a record under another key is damage, never trusted
 * either way). Returns 0, or -1 with err. */
static int
decode_row(const struct store_row *row, struct store_record *r, char *err, size_t errlen)
{
	enum store_record_kind want =
	    row->kind == STORE_USER ? STORE_RECORD_USER : STORE_RECORD_CHANNEL;

	if (row->rec == NULL || row->rec_len == 0) {
		snprintf(err, errlen, "the record is empty");
		return -1;
	}
	if (store_record_decode(row->rec, row->rec_len, row->version, store_record_builtin_mods(),
	                        r, err, errlen) < 0)
		return -1;
	if (r->kind != want) {
		store_record_clear(r, store_record_builtin_mods());
		snprintf(err, errlen, "it holds another kind of record");
		return -1;
	}
	if (strcmp(r->key, row->key) != 0) {
		snprintf(err, errlen,
		         "it holds the record of '%.200s': the row's key column was changed or "
		         "damaged",
		         r->key);
		store_record_clear(r, store_record_builtin_mods());
		return -1;
	}
	for (size_t i = 0; i < row->nlog; i++) {
		if (store_record_decode_log(r, store_record_builtin_mods(), row->log[i].seq,
		                            row->log[i].rec, row->log[i].rec_len, err,
		                            errlen) < 0) {
			store_record_clear(r, store_record_builtin_mods());
			return -1;
		}
	}
	return 0;
}

/* Makes fresh hold the decoded record r of row, as stored: its record and
 * log are what the store holds. */
static void
install_channel(struct channel *fresh, struct store_record *r, const struct store_row *row)
{
	store_record_to_channel(r, fresh);
	channel_set_generation(fresh, row->generation);
	channel_set_changes_saved(fresh, channel_changes(fresh));
	channel_set_log_saved(fresh, row->nlog > 0 ? row->log[row->nlog - 1].seq : 0);
}

struct load_ctx {
	struct persist *p;
	struct channel *fresh;
	struct user *user;
	char err[1024];
};

static int
loaded_row(const struct store_row *row, void *ctx)
{
	struct load_ctx *l = ctx;
	struct store_record r;

	if (decode_row(row, &r, l->err, sizeof(l->err)) < 0)
		return -1;
	install_channel(l->fresh, &r, row);
	return 0;
}

/* The state's loader: the SQLite read is synchronous, on a read-only
 * connection of its own (WAL: it never waits for a commit). */
int
persist_read_channel_now(struct channel *fresh, void *ctx)
{
	struct persist *p = ctx;
	struct load_ctx l = {.p = p, .fresh = fresh};
	char err[1100];
	uint64_t h = keyset_hash('c', channel_key(fresh));
	int rc;

	if (!keyset_has(p->away, h))
		return 0; /* no row: see struct persist's away */
	p->stats.reads++;
	rc = store_sqlite_load_now(p->be, STORE_CHANNEL, channel_key(fresh), loaded_row, &l, err,
	                           sizeof(err));
	if (rc >= 0)
		keyset_remove(p->away, h);
	if (rc < 0) {
		log_error("cannot load channel '%s' from %s: %s", channel_key(fresh), p->path,
		          l.err[0] != '\0' ? l.err : err);
		return -1;
	}
	if (rc == 1)
		p->stats.loaded++;
	return rc;
}

static int
loaded_user_row(const struct store_row *row, void *ctx)
{
	struct load_ctx *l = ctx;
	struct store_record r;

	if (decode_row(row, &r, l->err, sizeof(l->err)) < 0)
		return -1;
	store_record_to_user(&r, l->user);
	user_set_generation(l->user, row->generation);
	return 0;
}

/* The state's user loader: as persist_read_channel_now. */
int
persist_read_user_now(struct user *fresh, void *ctx)
{
	struct persist *p = ctx;
	struct load_ctx l = {.p = p, .user = fresh};
	char err[1100];
	uint64_t h = keyset_hash('u', user_key(fresh));
	int rc;

	if (!keyset_has(p->away, h))
		return 0; /* no row: see struct persist's away */
	p->stats.reads++;
	rc = store_sqlite_load_now(p->be, STORE_USER, user_key(fresh), loaded_user_row, &l, err,
	                           sizeof(err));
	if (rc >= 0)
		keyset_remove(p->away, h);
	if (rc < 0) {
		log_error("cannot load user '%s' from %s: %s", user_key(fresh), p->path,
		          l.err[0] != '\0' ? l.err : err);
		return -1;
	}
	if (rc == 1) {
		user_set_last_used(fresh, persist__tick_clock(p));
		p->stats.users_loaded++;
	}
	return rc;
}

/* The loaders on a backend other than SQLite: a record not in memory comes
 * from its read by key (struct fetch), which the request waited for
 * (persist_queue.h); without one, the read starts and the record cannot be
 * used yet (-1: the command is refused). On 1, *row is the row read (the
 * caller frees it). */
static int
fetched_record(struct persist *p, char kind, const char *key, struct store_record *r,
               struct store_row **row)
{
	char id[KEY_MAX + 2], err[1024];
	struct fetch *f = NULL;

	persist__make_id(id, kind, key);
	HASH_FIND_STR(p->fetches, id, f);
	if (f == NULL) {
		persist_read_start(p, id);
		return -1;
	}
	if (f->state == FETCH_FAILED)
		persist_read_start(p, id);
	if (f->state != FETCHED)
		return -1;
	if (!f->found && kind == 'u') {
		/* Known absent from now on: the most recently used. */
		f->used = persist__tick_clock(p);
		HASH_DEL(p->fetches, f);
		HASH_ADD_STR(p->fetches, id, f);
		return 0;
	}
	if (!f->found) {
		persist_read_free(p, f);
		return 0;
	}
	if (decode_row(f->row, r, err, sizeof(err)) < 0) {
		log_error("cannot read '%s' from %s: %s", key, p->path, err);
		return -1;
	}
	*row = f->row;
	f->row = NULL;
	persist_read_free(p, f);
	return 1;
}

int
persist_read_fetched_channel(struct channel *fresh, void *ctx)
{
	struct persist *p = ctx;
	struct store_record r;
	struct store_row *row = NULL;
	int rc = fetched_record(p, 'c', channel_key(fresh), &r, &row);

	if (rc == 1) {
		install_channel(fresh, &r, row);
		p->stats.loaded++;
	}
	free(row);
	return rc;
}

int
persist_read_fetched_user(struct user *fresh, void *ctx)
{
	struct persist *p = ctx;
	struct store_record r;
	struct store_row *row = NULL;
	int rc = fetched_record(p, 'u', user_key(fresh), &r, &row);

	if (rc == 1) {
		store_record_to_user(&r, fresh);
		user_set_generation(fresh, row->generation);
		p->stats.users_loaded++;
	}
	free(row);
	return rc;
}

struct active_ctx {
	struct persist *p;
	uint64_t n;
	bool fresh;   /* the state was empty: keys are unique, no lookups */
	char **empty; /* keys of user rows that hold nothing (older versions wrote them) */
	size_t nempty, cap;
	char *err;
	size_t errlen;
	bool damaged;  /* a record could not be read: the load stopped there */
	int64_t since; /* channels used before are idle */
};

static int
active_row(const struct store_row *row, void *ctx)
{
	struct active_ctx *a = ctx;
	struct store_record r;
	char why[1024];

	if (decode_row(row, &r, why, sizeof(why)) < 0) {
		a->damaged = true;
		snprintf(
		    a->err, a->errlen,
		    "%s: the %s record '%s' cannot be read: %s; restore a snapshot of the state "
		    "directory",
		    a->p->path, row->kind == STORE_USER ? "user" : "channel", row->key, why);
		return -1;
	}
	if (row->kind == STORE_USER && store_record_is_empty(&r)) {
		if (a->nempty == a->cap) {
			a->cap = a->cap ? a->cap * 2 : 16;
			a->empty = xrealloc(a->empty, a->cap * sizeof(*a->empty));
		}
		a->empty[a->nempty++] = xstrdup(r.key);
		store_record_clear(&r, store_record_builtin_mods());
		return 0;
	}
	if (row->kind == STORE_USER) {
		struct user *u = state_user(a->p->st, r.key);

		store_record_to_user(&r, u);
		user_set_generation(u, row->generation);
		user_set_last_used(u, a->p->clock);
	} else {
		struct channel *ch =
		    a->fresh ? state_channel_new(a->p->st, r.key) : state_channel(a->p->st, r.key);
		bool at_start;

		install_channel(ch, &r, row);
		at_start = channel_at_start(ch);
		/* Idle and not wanted at every start: read only because its
		 * at_start was not known (store_backend.h); it stays in the
		 * store. */
		if (!at_start && row->last_used < a->since) {
			state_evict_channel(a->p->st, ch);
			persist__away(a->p, 'c', row->key);
			return 0;
		}
		a->n++;
		return at_start ? 1 : 0;
	}
	a->n++;
	return 0;
}

static void
idle_key(const char *key, void *ctx)
{
	persist__away(ctx, 'c', key);
}

/* Loads every user, the channels used within evict_after (all of them
 * when evict_after is 0) and those stored as wanted at every start
 * (store_backend.h's load_active); the others stay in the store until
 * used, their keys noted first (store_sqlite_idle_keys: load_active may
 * then store at_start for rows that did not have it). */
int
persist_read_all(struct persist *p, char *err, size_t errlen)
{
	int64_t since = p->o.evict_after > 0 ? p->clock - p->o.evict_after + 1 : INT64_MIN;
	struct active_ctx a = {.p = p,
	                       .err = err,
	                       .errlen = errlen,
	                       .fresh = state_nchannels(p->st) == 0,
	                       .since = since};

	int ret = -1, e;

	err[0] = '\0';
	/* The channels left in the store: read when used (struct persist's
	 * away). */
	if (p->sqlite && store_sqlite_idle_keys(p->be, since, idle_key, p, err, errlen) < 0) {
		errno = EIO;
		goto out;
	}
	if (p->be->ops->load_active(p->be, since, active_row, &a, err, errlen) < 0) {
		/* A damaged record stays damaged; a read that failed may pass. */
		errno = a.damaged ? PERSIST_DAMAGED : EIO;
		goto out;
	}
	/* Loading is not a change. */
	state_flush(p->st, NULL, NULL, NULL);
	/* Empty user rows go: a user with nothing to keep is not stored. */
	if (a.nempty > 0 && p->sqlite) {
		struct store_row *rows = xcalloc(a.nempty, sizeof(*rows));
		char why[1024];

		for (size_t i = 0; i < a.nempty; i++) {
			rows[i].kind = STORE_USER;
			rows[i].key = a.empty[i];
			rows[i].version = STORE_RECORD_VERSION;
		}
		if (store_sqlite_write_now(p->be, rows, a.nempty, why, sizeof(why)) < 0)
			log_warnx("store: cannot delete the %zu empty user records of %s: %s",
			          a.nempty, p->path, why);
		free(rows);
	}
	log_debug("state %s: %llu records loaded", p->path, (unsigned long long)a.n);
	ret = 0;
out:
	e = errno;
	for (size_t i = 0; i < a.nempty; i++)
		free(a.empty[i]);
	free(a.empty);
	errno = e;
	return ret;
}

/* The marks of the store at open, newest first (store_sqlite_marks): into
 * the set of those stored, and the keys of the newest whose answers fit
 * the set's room for answers (read afterwards). */
struct marks_ctx {
	struct persist *p;
	char **keys; /* the answers to read */
	size_t nkeys, cap;
	size_t room; /* bytes of answers that may still be kept */
	bool full;   /* the newest answers took the room */
};

static void
mark_stored(const char *key, int64_t at, size_t answer_len, void *ctx)
{
	struct marks_ctx *m = ctx;
	size_t cost = strlen(key) + answer_len + 128; /* markset's own bytes, roughly */

	markset_add_older(m->p->known_marks, key, at);
	if (m->full || cost > m->room) {
		m->full = true;
		return;
	}
	m->room -= cost;
	if (m->nkeys == m->cap) {
		m->cap = m->cap != 0 ? m->cap * 2 : 64;
		m->keys = xrealloc(m->keys, m->cap * sizeof(*m->keys));
	}
	m->keys[m->nkeys++] = xstrdup(key);
}

static int
answer_row(const struct store_row *r, void *ctx)
{
	struct persist *p = ctx;

	markset_keep_answer(p->known_marks, r->key, r->last_used, r->rec != NULL ? r->rec : "",
	                    r->rec != NULL ? r->rec_len : 0);
	return 0;
}

int
persist_read_marks(struct persist *p, char *err, size_t errlen)
{
	struct marks_ctx m = {.p = p, .room = MARKSET_ANSWER_BYTES};
	int rc;

	if (!p->sqlite)
		return 0;
	p->known_marks = markset_new();
	rc = store_sqlite_marks(p->be, MARKSET_MAX + 1, mark_stored, &m, err, errlen);
	for (size_t i = 0; i < m.nkeys; i++) {
		if (rc == 0 && store_sqlite_load_now(p->be, STORE_HANDLED, m.keys[i], answer_row, p,
		                                     err, errlen) < 0)
			rc = -1;
		free(m.keys[i]);
	}
	free(m.keys);
	if (rc < 0)
		errno = EIO;
	return rc;
}
