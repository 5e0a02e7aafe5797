/*
 * irc_service: IRC as app services. Every [irc.<network>] section becomes
 * one network (bot/irc_net) registered as the service "irc <network>":
 * drained by no longer taking commands and writing the replies already
 * queued, stopped by QUIT and closing the link. The networks share one
 * libwebsockets context, destroyed when the last of them has stopped.
 *
 * Each network keeps its own copy of its configuration, so a reload (which
 * frees the old configuration) leaves nothing dangling. A reload applies a
 * changed channel list on the live link (leaving and joining channels);
 * other changed settings are reported as needing a restart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/app.h"
#include "bot/irc_net.h"
#include "bot/log.h"
#include "rules/mem.h"

struct irc_service;

struct svc_net {
	struct irc_service *svc;
	struct app_service *as;
	struct app_service_ops ops;
	char name[64];         /* "irc <network>" */
	struct config_irc cfg; /* a deep copy */
	struct irc_timing timing;
	struct irc_net *net;
};

struct irc_service {
	struct irc_lws *x;
	size_t live; /* networks not yet stopped */
	struct svc_net nets[CONFIG_IRC_MAX];
};

static bool
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
same_channels(const struct config_irc *a, const struct config_irc *b)
{
	if (a->nchannels != b->nchannels)
		return false;
	for (size_t i = 0; i < a->nchannels; i++)
		if (!same_str(a->channels[i], b->channels[i]) ||
		    !same_str(a->channel_keys[i], b->channel_keys[i]))
			return false;
	return true;
}

/* Everything but the channel list, which a reload applies live. */
static bool
same_link(const struct config_irc *a, const struct config_irc *b)
{
	if (!same_str(a->host, b->host) || a->port != b->port || a->tls != b->tls ||
	    a->tls_verify != b->tls_verify || !same_str(a->nick, b->nick) ||
	    a->nalt_nicks != b->nalt_nicks || !same_str(a->username, b->username) ||
	    !same_str(a->realname, b->realname) || !same_str(a->sasl_user, b->sasl_user) ||
	    !same_str(a->password, b->password) || !same_str(a->prefix, b->prefix) ||
	    a->flood_burst != b->flood_burst || a->flood_interval_ms != b->flood_interval_ms ||
	    a->max_lines != b->max_lines || a->ping_interval != b->ping_interval ||
	    a->ping_timeout != b->ping_timeout)
		return false;
	for (size_t i = 0; i < a->nalt_nicks; i++)
		if (!same_str(a->alt_nicks[i], b->alt_nicks[i]))
			return false;
	return true;
}

/* Joins and leaves channels to match the new list, on the live link; the
 * old names are freed only once the session points at the new ones. */
static void
apply_channels(struct svc_net *sn, const struct config_irc *now)
{
	char *old[CONFIG_CHANNELS_MAX], *oldkeys[CONFIG_CHANNELS_MAX];
	size_t nold = sn->cfg.nchannels;

	memcpy(old, sn->cfg.channels, nold * sizeof(old[0]));
	memcpy(oldkeys, sn->cfg.channel_keys, nold * sizeof(oldkeys[0]));
	for (size_t i = 0; i < now->nchannels; i++) {
		sn->cfg.channels[i] = xstrdup(now->channels[i]);
		sn->cfg.channel_keys[i] =
		    now->channel_keys[i] != NULL ? xstrdup(now->channel_keys[i]) : NULL;
	}
	sn->cfg.nchannels = now->nchannels;
	if (sn->net != NULL)
		irc_net_reconfigure(sn->net, &sn->cfg, NULL);
	for (size_t i = 0; i < nold; i++) {
		free(old[i]);
		free(oldkeys[i]);
	}
	log_info("irc %s: channel list reloaded (%zu channels)", sn->cfg.network,
	         sn->cfg.nchannels);
}

static void
drained(void *ctx)
{
	struct svc_net *sn = ctx;

	app_service_done(sn->as);
}

static void
drain(void *ctx, struct app_service *s)
{
	struct svc_net *sn = ctx;

	(void)s;
	irc_net_drain(sn->net, drained, sn);
}

static void
stopped(void *ctx)
{
	struct svc_net *sn = ctx;
	struct irc_service *svc = sn->svc;

	sn->net = NULL;
	config_irc_clear(&sn->cfg);
	/* The app reads the service's ops (in svc) while ending the step:
	 * end it before the last network frees them. */
	app_service_done(sn->as);
	if (--svc->live == 0) {
		irc_lws_destroy(svc->x);
		free(svc);
	}
}

static void
stop(void *ctx, struct app_service *s)
{
	struct svc_net *sn = ctx;

	(void)s;
	irc_net_stop(sn->net, stopped, sn);
}

static void
reload(void *ctx, const struct config *old, const struct config *now)
{
	struct svc_net *sn = ctx;

	(void)old;
	for (size_t i = 0; i < now->nirc; i++) {
		if (strcmp(now->irc[i].network, sn->cfg.network) != 0)
			continue;
		if (!same_channels(&now->irc[i], &sn->cfg))
			apply_channels(sn, &now->irc[i]);
		if (!same_link(&now->irc[i], &sn->cfg))
			log_warnx(
			    "irc %s: its connection settings changed; restart delver to apply "
			    "them (the channel list applies at once)",
			    sn->cfg.network);
		return;
	}
	log_warnx("irc %s: its section is gone from the configuration; restart delver to leave "
	          "the network",
	          sn->cfg.network);
}

static void
timing_from(const struct config_irc *c, struct irc_timing *t)
{
	irc_timing_defaults(t);
	if (c->ping_interval > 0)
		t->ping_idle = c->ping_interval * 1000;
	if (c->ping_timeout > 0)
		t->ping_timeout = c->ping_timeout * 1000;
}

int
irc_service_start(struct app *a, char *err, size_t errlen)
{
	const struct config *c = app_config(a);
	struct irc_service *svc;

	if (c->nirc == 0)
		return 0;
	svc = xcalloc(1, sizeof(*svc));
	svc->x = irc_lws_new(app_loop(a));
	if (svc->x == NULL) {
		free(svc);
		snprintf(err, errlen,
		         "IRC cannot start: libwebsockets failed to join the event loop");
		return -1;
	}
	for (size_t i = 0; i < c->nirc && i < CONFIG_IRC_MAX; i++) {
		struct svc_net *sn = &svc->nets[i];

		sn->svc = svc;
		config_irc_copy(&sn->cfg, &c->irc[i]);
		timing_from(&sn->cfg, &sn->timing);
		snprintf(sn->name, sizeof(sn->name), "irc %s", sn->cfg.network);
		sn->ops.name = sn->name;
		sn->ops.timeout_ms = 10000;
		sn->ops.drain = drain;
		sn->ops.stop = stop;
		sn->ops.reload = reload;
		sn->net = irc_net_new(svc->x, app_dispatch(a), &sn->cfg, &sn->timing);
		svc->live++;
		sn->as = app_add_service(a, &sn->ops, sn);
		irc_net_start(sn->net);
	}
	return 0;
}
