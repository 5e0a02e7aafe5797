/*
 * irc_service: IRC as the app service "irc". Every [irc.<network>] section
 * becomes one network (bot/irc/irc_net) with its own deep copy of its settings,
 * so a reload (which frees the old configuration) leaves nothing dangling.
 * Each network has its own libuv handles on the app's loop.
 *
 * Drain: every network stops taking commands and writes the replies
 * already queued; the step ends when all have. Stop: every network sends
 * QUIT and closes its link; the step ends when all are freed.
 *
 * Reload (SIGHUP) follows irc_reload_plan(): a network whose settings are
 * the same is not touched; one whose changes apply live gets them on its
 * connection (irc_net_reconfigure); one whose connection settings changed
 * QUITs ("reconnecting with new settings") and, once its link is closed,
 * connects again with the new ones; a new section's network connects; a
 * removed one QUITs and stops. Each network logs one line saying what
 * changed. A reload during a reconnection updates the settings it will
 * connect with.
 *
 * The service registers itself even with no network configured, so that a
 * reload may add the first one; until a network has started it has no
 * drain and stop steps (it is silent in the log).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/app.h"
#include "bot/irc/irc_net.h"
#include "bot/irc/irc_reload.h"
#include "bot/irc/irc_service.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define QUIT_RELOAD "reconnecting with new settings"
#define QUIT_REMOVE "leaving: this network was removed from delver's configuration"
#define QUIT_STOP   "delver is shutting down"

enum svc_phase {
	SVC_RUN,
	SVC_DRAIN,
	SVC_STOP,
};

struct irc_service;

struct svc_net {
	struct irc_service *svc;
	struct svc_net *next;
	struct config_irc cfg;  /* what net runs with: a deep copy */
	struct config_irc want; /* has_want: what to connect with once net stopped */
	bool has_want;
	bool removed; /* stopping for good */
	struct irc_timing timing;
	struct irc_net *net; /* NULL when not running */
	bool stopping;       /* irc_net_stop was called; net_stopped follows */
};

struct irc_service {
	struct app *app;
	struct app_service *as;
	struct app_service_ops ops;
	bool started; /* a network has started: there is a drain and a stop */
	struct svc_net *nets;
	enum svc_phase phase;
	size_t waiting; /* drain or stop: networks (and one guard) not done yet */
};

static void drain(void *ctx, struct app_service *s);
static void stop(void *ctx, struct app_service *s);

static void
timing_from(const struct config_irc *c, struct irc_timing *t)
{
	irc_conn_timing_defaults(t);
	if (c->ping_interval > 0)
		t->ping_idle = c->ping_interval * 1000;
	if (c->ping_timeout > 0)
		t->ping_timeout = c->ping_timeout * 1000;
}

/* Starts sn's network with sn->cfg. */
static void
net_start(struct irc_service *svc, struct svc_net *sn)
{
	if (!svc->started) {
		svc->started = true;
		/* From now on there is something to drain and stop. */
		svc->ops.drain = drain;
		svc->ops.stop = stop;
	}
	timing_from(&sn->cfg, &sn->timing);
	sn->net = irc_net_new(app_loop(svc->app), app_dispatch(svc->app), &sn->cfg, &sn->timing);
	irc_net_start(sn->net);
}

static struct svc_net *
net_add(struct irc_service *svc, const struct config_irc *cfg)
{
	struct svc_net *sn = xcalloc(1, sizeof(*sn)), **tail = &svc->nets;

	sn->svc = svc;
	config_irc_copy(&sn->cfg, cfg);
	while (*tail != NULL)
		tail = &(*tail)->next;
	*tail = sn;
	return sn;
}

static void
net_free(struct irc_service *svc, struct svc_net *sn)
{
	struct svc_net **p = &svc->nets;

	while (*p != sn)
		p = &(*p)->next;
	*p = sn->next;
	config_irc_clear(&sn->cfg);
	if (sn->has_want)
		config_irc_clear(&sn->want);
	free(sn);
}

/* One network (or the guard) of a drain or stop step is done. */
static void
step_one_done(struct irc_service *svc)
{
	if (--svc->waiting > 0)
		return;
	if (svc->phase == SVC_STOP)
		while (svc->nets != NULL)
			net_free(svc, svc->nets);
	app_service_done(svc->as);
}

static void
net_stopped(void *ctx)
{
	struct svc_net *sn = ctx;
	struct irc_service *svc = sn->svc;

	sn->net = NULL;
	sn->stopping = false;
	if (svc->phase == SVC_STOP) {
		step_one_done(svc);
		return;
	}
	if (sn->removed) {
		net_free(svc, sn);
		return;
	}
	if (sn->has_want) {
		config_irc_clear(&sn->cfg);
		sn->cfg = sn->want;
		sn->has_want = false;
		if (svc->phase == SVC_RUN)
			net_start(svc, sn);
	}
}

static void
net_stop(struct svc_net *sn, const char *why)
{
	sn->stopping = true;
	irc_net_stop(sn->net, why, net_stopped, sn);
}

static void
net_drained(void *ctx)
{
	struct svc_net *sn = ctx;

	step_one_done(sn->svc);
}

static void
drain(void *ctx, struct app_service *s)
{
	struct irc_service *svc = ctx;

	(void)s;
	svc->phase = SVC_DRAIN;
	svc->waiting = 1; /* the guard, so that no network can end the step early */
	for (struct svc_net *sn = svc->nets; sn != NULL; sn = sn->next) {
		if (sn->net == NULL || sn->stopping)
			continue;
		svc->waiting++;
		irc_net_drain(sn->net, net_drained, sn);
	}
	step_one_done(svc);
}

static void
stop(void *ctx, struct app_service *s)
{
	struct irc_service *svc = ctx;
	struct svc_net *sn, *next;

	(void)s;
	svc->phase = SVC_STOP;
	svc->waiting = 1;
	for (sn = svc->nets; sn != NULL; sn = next) {
		next = sn->next;
		if (sn->net == NULL)
			continue;
		svc->waiting++; /* also for one already stopping: net_stopped counts it */
		if (!sn->stopping)
			net_stop(sn, QUIT_STOP);
	}
	step_one_done(svc);
}

/* Live changes: sn->cfg becomes a copy of now, the network switches to it,
 * then the old settings are freed. */
static void
apply_live(struct svc_net *sn, const struct config_irc *now)
{
	struct config_irc old = sn->cfg;

	config_irc_copy(&sn->cfg, now);
	timing_from(&sn->cfg, &sn->timing);
	irc_net_reconfigure(sn->net, &sn->cfg, &sn->timing);
	config_irc_clear(&old);
}

static void
want(struct svc_net *sn, const struct config_irc *now)
{
	if (sn->has_want)
		config_irc_clear(&sn->want);
	config_irc_copy(&sn->want, now);
	sn->has_want = true;
}

/* Carries out one network's step of the plan, logging what changed. */
static void
reload_one(struct svc_net *sn, const struct config_irc *base, const struct config *now,
           const struct irc_reload_step *st)
{
	const struct config_irc *to = &now->irc[st->now];
	char what[1024];

	if (st->action == IRC_RELOAD_REMOVE) {
		log_info("irc %s: its section is gone from the configuration; leaving the network",
		         sn->cfg.network);
		sn->removed = true;
		if (sn->has_want) {
			config_irc_clear(&sn->want);
			sn->has_want = false;
		}
		if (!sn->stopping)
			net_stop(sn, QUIT_REMOVE);
		return;
	}
	irc_reload_describe(base, to, st->changes, what, sizeof(what));
	if (st->action == IRC_RELOAD_KEEP) {
		log_info("irc %s: reload: no change", sn->cfg.network);
	} else if (sn->has_want) {
		log_info("irc %s: reload: %s changed; it connects with them once it has "
		         "reconnected",
		         sn->cfg.network, what);
		want(sn, to);
	} else if (st->action == IRC_RELOAD_RECONNECT) {
		log_info("irc %s: reload: %s changed; reconnecting", sn->cfg.network, what);
		want(sn, to);
		net_stop(sn, QUIT_RELOAD);
	} else {
		log_info("irc %s: reload: %s changed; applied on the live connection",
		         sn->cfg.network, what);
		apply_live(sn, to);
	}
}

static void
reload(void *ctx, const struct config *old, const struct config *now)
{
	struct irc_service *svc = ctx;
	const struct config_irc *base[2 * CONFIG_IRC_MAX] = {NULL};
	struct svc_net *nets[2 * CONFIG_IRC_MAX];
	struct irc_reload_step steps[2 * CONFIG_IRC_MAX];
	size_t added[CONFIG_IRC_MAX], nbase = 0, nadded;

	(void)old;
	if (svc->phase != SVC_RUN)
		return;
	/* A network leaving for good is no longer one of ours; a section of
	 * the same name is then a new network. */
	for (struct svc_net *sn = svc->nets; sn != NULL && nbase < 2 * CONFIG_IRC_MAX;
	     sn = sn->next) {
		if (sn->removed)
			continue;
		nets[nbase] = sn;
		base[nbase++] = sn->has_want ? &sn->want : &sn->cfg;
	}
	nadded = irc_reload_plan(base, nbase, now, steps, added);
	for (size_t i = 0; i < nbase; i++)
		reload_one(nets[i], base[i], now, &steps[i]);
	for (size_t i = 0; i < nadded; i++) {
		struct svc_net *sn = net_add(svc, &now->irc[added[i]]);

		log_info("irc %s: reload: a new network; connecting", sn->cfg.network);
		net_start(svc, sn);
	}
}

static void
release(void *ctx)
{
	struct irc_service *svc = ctx;

	/* Anything left when a stop step timed out: the loop has ended. */
	while (svc->nets != NULL)
		net_free(svc, svc->nets);
	free(svc);
}

int
irc_service_start(struct app *a, char *err, size_t errlen)
{
	const struct config *c = app_config(a);
	struct irc_service *svc = xcalloc(1, sizeof(*svc));

	svc->app = a;
	svc->ops.name = "irc";
	svc->ops.timeout_ms = 10000;
	svc->ops.reload = reload;
	svc->ops.release = release;
	svc->as = app_add_service(a, &svc->ops, svc);
	(void)err;
	(void)errlen;
	for (size_t i = 0; i < c->nirc && i < CONFIG_IRC_MAX; i++)
		net_start(svc, net_add(svc, &c->irc[i]));
	return 0;
}
