/*
 * discord_service: the Discord transport as an app service: started when
 * the configuration has a [discord] section; draining closes the gateway
 * and lets answers in flight finish; stopping (after the store has
 * drained) tears libwebsockets down; a fatal Discord error stops delver
 * with exit status 1. libwebsockets frees its context only after the loop
 * has ended, so the memory goes in the release step.
 */
#include <stdlib.h>
#include <string.h>

#include "bot/app.h"
#include "bot/discord/discord.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_service.h"
#include "bot/log.h"
#include "bot/store/persist_opts.h"
#include "rules/base/mem.h"

struct discord_service {
	struct app *app;
	struct discord *dc;
	struct app_service *svc;
};

static void
drained(void *ctx)
{
	struct discord_service *ds = ctx;

	app_service_done(ds->svc);
}

static void
drain(void *ctx, struct app_service *s)
{
	struct discord_service *ds = ctx;

	ds->svc = s;
	discord_stop(ds->dc, drained, ds);
}

/* The stop phase comes after every service's drain, the store's too (its
 * last commit and the stop snapshot, its threads joined): only now does
 * libwebsockets go, whose teardown closes descriptors (discord_ws.h). */
static void
stop(void *ctx, struct app_service *s)
{
	struct discord_service *ds = ctx;

	discord_shutdown(ds->dc);
	app_service_done(s);
}

static bool
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void
reload(void *ctx, const struct config *old, const struct config *now)
{
	struct discord_service *ds = ctx;
	const struct config_discord *o = &old->discord, *n = &now->discord;

	if (!same(old->bot.gm_role, now->bot.gm_role))
		discord_set_gm_role(ds->dc, now->bot.gm_role);
	if (!same(o->token, n->token) || !same(o->application_id, n->application_id) ||
	    !same(o->gateway_url, n->gateway_url) || !same(o->rest_url, n->rest_url) ||
	    !same(o->dev_guild, n->dev_guild) || o->user_install != n->user_install ||
	    o->shard_first != n->shard_first || o->shard_last != n->shard_last ||
	    o->shard_count != n->shard_count || o->intents != n->intents ||
	    o->tls_verify != n->tls_verify || !same(o->tls_ca_file, n->tls_ca_file) ||
	    o->compress != n->compress || o->stats_interval != n->stats_interval)
		log_warnx("[discord] changed: restart delver to apply it");
}

static void
stats(void *ctx)
{
	struct discord_service *ds = ctx;

	discord_log_stats(ds->dc);
}

static void
release(void *ctx)
{
	struct discord_service *ds = ctx;

	discord_free(ds->dc);
	free(ds);
}

static const char *
stalled(void *ctx, char *why, size_t len)
{
	struct discord_service *ds = ctx;

	return discord_stalled(ds->dc, why, len);
}

static const struct app_service_ops ops = {
    .name = "discord",
    .timeout_ms = 5000,
    .drain = drain,
    .stop = stop,
    .reload = reload,
    .stalled = stalled,
    .stats = stats,
    .release = release,
};

int
discord_service_exit_status(int code)
{
	switch (code) {
	case 401:
	case DISCORD_CLOSE_AUTHENTICATION_FAILED:
		return APP_EXIT_DISCORD_TOKEN;
	case DISCORD_CLOSE_INVALID_SHARD:
		return APP_EXIT_DISCORD_SHARD;
	case DISCORD_CLOSE_SHARDING_REQUIRED:
		return APP_EXIT_DISCORD_SHARDING;
	case DISCORD_CLOSE_INVALID_API_VERSION:
		return APP_EXIT_DISCORD_VERSION;
	case DISCORD_CLOSE_INVALID_INTENTS:
		return APP_EXIT_DISCORD_INTENTS;
	case DISCORD_CLOSE_DISALLOWED_INTENTS:
		return APP_EXIT_DISCORD_DISALLOWED;
	default:
		return APP_EXIT_FAILURE;
	}
}

static void
on_fatal(void *ctx, int code, const char *msg)
{
	struct discord_service *ds = ctx;

	app_shutdown(ds->app, discord_service_exit_status(code), "Discord cannot go on");
}

int
discord_service_start(struct app *a, char *err, size_t errlen)
{
	const struct config *c = app_config(a);
	struct discord_service *ds;
	struct discord_opts o = {0};

	if (!c->discord.enabled)
		return 0;
	ds = xcalloc(1, sizeof(*ds));
	ds->app = a;
	o.cfg = &c->discord;
	o.gm_role = c->bot.gm_role;
	o.state_dir = c->bot.state_dir;
	o.state_root = c->bot.state_root != NULL ? c->bot.state_root : c->bot.state_dir;
	o.ledger_dir = c->bot.state_root != NULL  ? c->bot.state_root
	               : c->bot.state_dir != NULL ? c->bot.state_dir
	                                          : persist_opts_default_dir();
	if (c->store.backend == STORE_ENGINE_POSTGRESQL) {
		o.store_conninfo = c->store.conninfo;
		o.store_password = c->store.password;
	}
	o.d = app_dispatch(a);
	o.on_fatal = on_fatal;
	o.ctx = ds;
	o.stats_interval_ms = (uint64_t)c->discord.stats_interval * 1000u;
	ds->dc = discord_start(app_loop(a), &o);
	if (ds->dc == NULL) {
		free(ds);
		snprintf(err, errlen, "the Discord transport cannot start (see above)");
		return -1;
	}
	app_add_service(a, &ops, ds);
	return 0;
}
