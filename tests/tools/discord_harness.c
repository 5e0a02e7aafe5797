/*
 * discord_harness: runs delver's Discord transport alone, configured from
 * the command line, until SIGTERM or a fatal error (exit status 1).
 *
 * discord_harness --rest URL --token-env NAME [--gateway URL] [--app-id ID]
 *                 [--dev-guild ID] [--gm-role NAME] [--state-dir DIR]
 *                 [--intents N] [--seed N] [--log-level LEVEL]
 *
 * It stands in for the daemon in the Discord integration tests until the
 * configuration file can name a REST URL; it builds the same dispatcher
 * (state, seeded dice) and the same transport.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "bot/discord.h"
#include "bot/log.h"
#include "rules/rng.h"

struct harness {
	uv_loop_t *loop;
	uv_signal_t sigterm, sigint;
	struct discord *dc;
	int status;
	bool stopping;
};

static void
stopped(void *ctx)
{
	struct harness *h = ctx;

	uv_close((uv_handle_t *)&h->sigterm, NULL);
	uv_close((uv_handle_t *)&h->sigint, NULL);
}

static void
stop(struct harness *h)
{
	if (h->stopping)
		return;
	h->stopping = true;
	discord_stop(h->dc, stopped, h);
}

static void
on_fatal(void *ctx, const char *msg)
{
	struct harness *h = ctx;

	h->status = 1;
	stop(h);
}

static void
on_signal(uv_signal_t *s, int signum)
{
	log_info("signal %d: stopping", signum);
	stop(s->data);
}

int
main(int argc, char **argv)
{
	struct config_discord cfg = {.intents = 1, .shard_count = 1, .tls_verify = true};
	struct discord_opts o = {.cfg = &cfg};
	struct dispatch d = {0};
	struct harness h = {0};
	enum log_level lvl;
	uint64_t seed = 1;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "--rest"))
			cfg.rest_url = (char *)v;
		else if (!strcmp(k, "--gateway"))
			cfg.gateway_url = (char *)v;
		else if (!strcmp(k, "--token-env"))
			cfg.token = getenv(v);
		else if (!strcmp(k, "--app-id"))
			cfg.application_id = (char *)v;
		else if (!strcmp(k, "--dev-guild"))
			cfg.dev_guild = (char *)v;
		else if (!strcmp(k, "--gm-role"))
			o.gm_role = v;
		else if (!strcmp(k, "--state-dir"))
			o.state_dir = v;
		else if (!strcmp(k, "--intents"))
			cfg.intents = strtoull(v, NULL, 10);
		else if (!strcmp(k, "--seed"))
			seed = strtoull(v, NULL, 10);
		else if (!strcmp(k, "--log-level") && log_parse_level(v, &lvl) == 0)
			log_set_level(lvl);
		else
			fatalx("unknown option %s", k);
	}
	if (cfg.token != NULL)
		log_secret(cfg.token);
	d.state = state_new();
	d.rng = rng_new_seeded(seed);
	o.d = &d;
	o.on_fatal = on_fatal;
	o.ctx = &h;
	h.loop = uv_default_loop();
	uv_signal_init(h.loop, &h.sigterm);
	uv_signal_init(h.loop, &h.sigint);
	h.sigterm.data = h.sigint.data = &h;
	uv_signal_start(&h.sigterm, on_signal, SIGTERM);
	uv_signal_start(&h.sigint, on_signal, SIGINT);
	h.dc = discord_start(h.loop, &o);
	if (h.dc == NULL)
		return 1;
	uv_run(h.loop, UV_RUN_DEFAULT);
	discord_free(h.dc);
	uv_loop_close(h.loop);
	state_free(d.state);
	rng_free(d.rng);
	log_info("stopped");
	return h.status;
}
