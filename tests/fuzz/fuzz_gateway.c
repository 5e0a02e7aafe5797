/*
 * fuzz_gateway: arbitrary gateway payloads into the Discord dispatch code.
 *
 * Each input gets a fresh session brought to READY (HELLO, READY), fresh
 * state and a seeded RNG, so a crash reproduces from its input alone. The
 * first byte chooses the way in: even, the bytes are one raw gateway
 * message (JSON or not) for discord_gw; odd, they are the "d" of an
 * INTERACTION_CREATE, which reaches discord_interact, the registry, the
 * dispatcher, the command handlers and render_discord sooner. Every frame
 * the session queues and every answer built is taken and freed.
 */
#include <cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_gw.h"
#include "bot/discord/discord_interact.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct world {
	struct interact *it;
	struct dispatch *d;
};

static int
h_connect(void *ctx, const char *url)
{
	return 0;
}

static void
h_close(void *ctx, int code)
{
}

static void
h_want_write(void *ctx)
{
}

static void
h_fatal(void *ctx, int code, const char *msg)
{
}

static void
h_event(void *ctx, const char *t, const cJSON *d)
{
	struct world *w = ctx;
	struct interact_out out = {0};
	struct request *req;

	if (discord_interact_event(w->it, t, d, 1700000000, &out, &req, 0, 0, 0) ==
	    INTERACT_REQUEST) {
		dispatch_submit(w->d, req);
		dispatch_poll(w->d);
	}
	discord_interact_out_clear(&out);
}

/* A request's answer, rendered as the transport renders it. */
static void
answered(struct request *req, void *ctx)
{
	struct world *w = ctx;
	struct interact_out out;

	discord_interact_render(w->it, req, &out);
	discord_interact_out_clear(&out);
	request_free(req);
}

static void
feed(struct discord_gw *g, const char *s, size_t len)
{
	char *f;
	size_t n;

	discord_gw_message(g, s, len, 1000);
	while ((f = discord_gw_next_frame(g, 1000, &n)) != NULL)
		free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char hello[] = "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}";
	static const char ready[] =
	    "{\"op\":0,\"s\":1,\"t\":\"READY\",\"d\":{\"session_id\":\"s\",\"resume_gateway_url\":"
	    "\"wss://r.example\",\"application\":{\"id\":\"1100000000000000001\"}}}";
	struct discord_gw_opts o = {.token = "fuzz.token.value", .intents = 1, .shard_count = 1};
	struct discord_gw_hooks h = {.connect = h_connect,
	                             .close = h_close,
	                             .want_write = h_want_write,
	                             .event = h_event,
	                             .fatal = h_fatal};
	struct state *st;
	struct rng *drng;
	struct dispatch *d;
	struct world w;
	struct interact_opts io;
	struct rng *rng;
	struct discord_gw *g;

	if (size == 0)
		return 0;
	st = state_new();
	drng = rng_new_seeded(1);
	d = dispatch_new(&(struct dispatch_opts){.state = st, .rng = drng});
	io = (struct interact_opts){
	    .d = d, .gm_role = "Game Master", .answer = answered, .answer_ctx = &w};
	log_set_level(LOG_LEVEL_ERROR);
	rng = rng_new_seeded(2);
	w.d = d;
	w.it = discord_interact_new(&io);
	h.ctx = &w;
	g = discord_gw_new(&o, &h, rng);
	discord_gw_start(g, 0);
	discord_gw_tick(g, 0);
	discord_gw_opened(g, 1);
	feed(g, hello, sizeof(hello) - 1);
	feed(g, ready, sizeof(ready) - 1);
	if (data[0] % 2 == 0) {
		feed(g, (const char *)data + 1, size - 1);
	} else {
		struct buf b;

		buf_init(&b, size + 128);
		buf_adds(&b, "{\"op\":0,\"s\":2,\"t\":\"INTERACTION_CREATE\",\"d\":");
		buf_add(&b, data + 1, size - 1);
		buf_addc(&b, '}');
		feed(g, buf_str(&b), b.len);
		buf_free(&b);
	}
	discord_gw_tick(g, 100000);
	discord_gw_closed(g, -1, 100001);
	discord_gw_free(g);
	discord_interact_free(w.it);
	dispatch_free(d);
	rng_free(rng);
	rng_free(drng);
	state_free(st);
	return 0;
}
