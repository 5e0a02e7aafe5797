/* store: the backend the configuration chooses; see store.h. */
#include "bot/store/store.h"

#include <stdio.h>

#include "bot/store/store_pg.h"

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
