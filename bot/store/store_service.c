/*
 * store_service: persistence (bot/store/persist.h) as an app service. It
 * starts first, so the state is loaded before any transport takes a command,
 * and drains last, committing what is left after every transport has
 * answered what was in flight.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bot/app.h"
#include "bot/log.h"
#include "bot/store/persist.h"
#include "bot/store/shard_dirs.h"
#include "bot/store/statedir.h"
#include "bot/store/store.h"
#include "bot/store/store_service.h"
#include "rules/base/mem.h"

#define STORE_TIMEOUT_MS 120000 /* a last checkpoint of a large state on a slow disk */

struct store_service {
	struct app *a;
	struct persist *p;
	struct dispatch *d;
	struct app_service *s;
};

/* The persistence options of a configuration (overrides already applied). */
static void
opts_of(const struct config *c, struct persist_opts *o)
{
	persist_opts_default(o);
	o->dir = c->bot.state_dir;
	o->fsync = c->bot.fsync;
	o->snapshot_interval = c->bot.snapshot_interval;
	o->snapshot_keep = c->bot.snapshot_keep;
	o->evict_after = c->bot.evict_after;
}

/* The store once persist has closed: every transport stopped taking
 * commands before it drained, so a request that still comes is dropped,
 * neither run nor answered. */
static void
closed_submit(void *store, struct request *req)
{
	(void)store;
	log_debug("store: a command came after the store closed; dropped");
	request_free(req);
}

static void
closed_nothing(void *store)
{
	(void)store;
}

static void
closed_cancel(void *store, void *ctx)
{
	(void)store;
	(void)ctx;
}

static const struct dispatch_store_ops closed_ops = {
    .submit = closed_submit,
    .wait = closed_nothing,
    .cancel = closed_cancel,
};

static void
closed(void *ctx, unsigned lost)
{
	struct store_service *ss = ctx;

	/* Acknowledged changes are lost (persist logged how many): the stop
	 * must not look clean to systemd. */
	if (lost > 0)
		app_stop_failed(ss->a, APP_EXIT_FAILURE);
	dispatch_set_store(ss->d, &closed_ops, NULL);
	app_service_done(ss->s);
	free(ss);
}

static void
drain(void *ctx, struct app_service *s)
{
	struct store_service *ss = ctx;

	ss->s = s;
	persist_close_async(ss->p, closed, ss);
}

static void
stop(void *ctx, struct app_service *s)
{
	/* Everything was closed by the drain. */
	app_service_done(s);
}

static void
reload(void *ctx, const struct config *old, const struct config *now)
{
	struct store_service *ss = ctx;
	struct persist_opts o;

	opts_of(now, &o);
	persist_reconfigure(ss->p, &o);
}

static const struct app_service_ops ops = {
    .name = "store",
    .timeout_ms = STORE_TIMEOUT_MS,
    .drain = drain,
    .stop = stop,
    .reload = reload,
};

int
store_service_start(struct app *a, char *err, size_t errlen)
{
	struct store_service *ss = xcalloc(1, sizeof(*ss));
	struct persist_opts o;

	opts_of(app_config(a), &o);
	if (app_config(a)->store.backend == STORE_ENGINE_POSTGRESQL) {
		/* The state directory still holds the lock and the snapshot
		 * files; the rows live on the server. */
		struct store_opts so;
		struct store_backend *be;

		store_opts_from_config(&so, app_config(a),
		                       o.dir != NULL ? o.dir : persist_opts_default_dir());
		be = store_open(app_loop(a), &so, err, errlen);
		ss->p = be != NULL
		            ? persist_open_backend(app_loop(a), app_state(a), &o, be, err, errlen)
		            : NULL; /* errno as store_pg_open says */
	} else {
		/* The other shard processes' databases (shard_dirs.h): a reshard
		 * finds each channel where it was last changed. */
		const struct config *c = app_config(a);
		const char *own = o.dir != NULL ? o.dir : persist_opts_default_dir();
		char **siblings =
		    shard_dirs_siblings(c->bot.state_root != NULL ? c->bot.state_root : own, own);

		o.merge_from = siblings;
		ss->p = persist_open(app_loop(a), app_state(a), &o, err, errlen);
		shard_dirs_free(siblings);
	}
	if (ss->p == NULL) {
		/* persist_open's errno says whether a restart could mend it. */
		int e = errno;

		free(ss);
		return e == PERSIST_DAMAGED   ? APP_EXIT_STORE_DAMAGED
		       : e == STATEDIR_UNSAFE ? APP_EXIT_STORE_UNSAFE
		                              : -1;
	}
	ss->a = a;
	ss->d = app_dispatch(a);
	dispatch_set_store(ss->d, &persist_store_ops, ss->p);
	app_add_service(a, &ops, ss);
	return 0;
}
