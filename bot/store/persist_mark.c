/* persist_mark: the marks of the events handled; see persist_mark.h. */
#include "bot/store/persist_mark.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "bot/log.h"
#include "bot/store/markset.h"
#include "bot/store/persist_int.h"
#include "bot/store/persist_read.h"
#include "bot/store/store_record.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/* The mark of a handled event as a row. */
void
persist_mark_row(const struct mark *m, struct store_row *row)
{
	memset(row, 0, sizeof(*row));
	row->kind = STORE_HANDLED;
	row->key = m->id + 2;
	row->last_used = m->at;
	row->rec = m->answer;
	row->rec_len = m->len;
}

void
persist_mark_free(struct persist *p, const char *id)
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
void
persist_mark_add(struct persist *p, struct mark *m)
{
	persist_mark_free(p, m->id); /* an earlier one of the same id (the expiry) */
	HASH_ADD_STR(p->marks, id, m);
	persist__id_add(&p->pending, m->id);
	persist__wake(p);
}

struct mark *
persist_mark_new(struct persist *p, struct request *req)
{
	struct mark *m = xcalloc(1, sizeof(*m));
	struct buf b;

	persist__make_id(m->id, 'h', request_key(req));
	m->at = persist__tick_clock(p);
	buf_init(&b, STORE_RECORD_LINE_MAX);
	if (request_keep(req, &b) < 0 || b.toobig)
		buf_reset(&b);
	m->len = b.len;
	m->answer = buf_take(&b); /* NUL-terminated */
	return m;
}

void
persist__mark(struct persist *p, struct request *req)
{
	struct mark *m = persist_mark_new(p, req);

	request_add_change(req, m->id);
	if (p->known_marks != NULL)
		markset_add(p->known_marks, request_key(req), m->at);
	persist_mark_add(p, m);
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
