/* store: the backend the configuration chooses; see store.h. */
#include "bot/store/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/store/store_pg.h"
#include "rules/base/mem.h"

void
store_opts_from_config(struct store_opts *o, const struct config *c, const char *dir)
{
	o->backend = c->store.backend;
	o->dir = dir;
	o->conninfo = c->store.conninfo;
	o->password = c->store.password;
}

struct store_backend *
store_open(uv_loop_t *loop, const struct store_opts *o, char *err, size_t errlen)
{
	struct store_pg_opts pg = {.conninfo = o->conninfo, .password = o->password};

	switch (o->backend) {
	case STORE_ENGINE_POSTGRESQL:
		if (o->conninfo == NULL) {
			snprintf(err, errlen,
			         "[store] backend = postgresql needs conninfo (the server to use)");
			return NULL;
		}
		return store_pg_open(loop, &pg, err, errlen);
	case STORE_ENGINE_SQLITE:
		break;
	}
	/* The SQLite backend (store_sqlite.c) comes with persist's move to
	 * store_backend.h; until it is merged, persist opens SQLite itself. */
	snprintf(err, errlen, "the sqlite backend is not built as a store_backend yet");
	return NULL;
}

struct store_row *
store_row_dup(const struct store_row *r)
{
	size_t kl = strlen(r->key) + 1, rl = r->rec != NULL ? r->rec_len : 0;
	size_t head = (sizeof(struct store_row) + kl + rl + 1 + 7) & ~(size_t)7, size = head;
	struct store_row *o;
	struct store_log_row *log;
	char *at;

	for (size_t i = 0; i < r->nlog; i++)
		size += sizeof(*log) + r->log[i].rec_len;
	o = xmalloc(size);
	*o = *r;
	at = (char *)(o + 1);
	memcpy(at, r->key, kl);
	o->key = at;
	if (r->rec != NULL) {
		memcpy(at + kl, r->rec, rl);
		at[kl + rl] = '\0';
		o->rec = at + kl;
	}
	log = (struct store_log_row *)(void *)((char *)o + head);
	at = (char *)(log + r->nlog);
	for (size_t i = 0; i < r->nlog; i++) {
		log[i] = r->log[i];
		memcpy(at, r->log[i].rec, r->log[i].rec_len);
		log[i].rec = at;
		at += r->log[i].rec_len;
	}
	o->log = r->nlog > 0 ? log : NULL;
	return o;
}

void
store_at_start_fix_add(struct store_at_start_fix *f, const char *key, bool stored_known,
                       bool stored, bool at_start, uint64_t generation)
{
	if (stored_known && stored == at_start)
		return;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->keys = xrealloc(f->keys, f->cap * sizeof(*f->keys));
		f->at_start = xrealloc(f->at_start, f->cap * sizeof(*f->at_start));
		f->generation = xrealloc(f->generation, f->cap * sizeof(*f->generation));
	}
	f->keys[f->n] = xstrdup(key);
	f->at_start[f->n] = at_start;
	f->generation[f->n++] = generation;
}

void
store_at_start_fix_free(struct store_at_start_fix *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->keys[i]);
	free(f->keys);
	free(f->at_start);
	free(f->generation);
	memset(f, 0, sizeof(*f));
}
