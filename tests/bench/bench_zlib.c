/*
 * bench_zlib: what gateway compression (compress=zlib-stream) costs and
 * saves, without a network. 20,000 INTERACTION_CREATE payloads shaped like
 * Discord's (a slash command or a button from a guild member, as the fake
 * Discord sends them; ids, tokens, channels and users vary) go through one
 * deflate context with a Z_SYNC_FLUSH each, as Discord sends them, then
 * through discord_zlib. Prints the bytes on the wire with and without
 * compression, the inflate time per payload next to the JSON parse every
 * payload costs anyway, the same for a 1 MiB GUILD_CREATE-like payload,
 * and the stream's own buffers. Discord's deflate level is not published:
 * the default level (6) stands in for it.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tests/bench/bench.h"
#include "bot/discord/discord_zlib.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/zpack.h"

#define PAYLOADS 20000
#define ROUNDS   5

static volatile size_t sink;

static const char *const datas[] = {
    "{\"type\":1,\"name\":\"roll\",\"id\":\"1250000000000000001\",\"options\":[{\"type\":3,"
    "\"name\":\"expression\",\"value\":\"4d6kh3\"},{\"type\":3,\"name\":\"label\","
    "\"value\":\"Stealth\"}]}",
    "{\"type\":1,\"name\":\"gm\",\"id\":\"1250000000000000002\",\"options\":[{\"type\":1,"
    "\"name\":\"show\"}]}",
    "{\"type\":1,\"name\":\"tension\",\"id\":\"1250000000000000003\",\"options\":[{\"type\":1,"
    "\"name\":\"raise\",\"options\":[{\"type\":3,\"name\":\"event\",\"value\":\"door\"}]}]}",
    "{\"custom_id\":\"a:roll 2d20kh1+3\",\"component_type\":2}",
};

static void
token(struct rng *rng, char *out, size_t n)
{
	static const char set[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

	for (size_t i = 0; i + 1 < n; i++)
		out[i] = set[rng_below(rng, 64)];
	out[n - 1] = '\0';
}

/* The k-th INTERACTION_CREATE, as the gateway sends it. */
static void
interaction(struct rng *rng, uint64_t k, struct buf *b)
{
	uint64_t user = UINT64_C(1400000000000000000) + rng_below(rng, 1000);
	uint64_t chan = UINT64_C(1300000000000000000) + rng_below(rng, 50);
	int which = (int)rng_below(rng, 4);
	char tok[122];

	token(rng, tok, sizeof(tok));
	buf_reset(b);
	buf_addf(
	    b,
	    "{\"t\":\"INTERACTION_CREATE\",\"s\":%" PRIu64 ",\"op\":0,\"d\":{\"version\":1,"
	    "\"type\":%d,\"token\":\"aW50ZXJhY3Rpb246%s\",\"locale\":\"en-US\",\"id\":\"%" PRIu64
	    "\",\"entitlements\":[],\"data\":%s,\"channel_id\":\"%" PRIu64 "\","
	    "\"application_id\":\"1100000000000000001\",\"app_permissions\":"
	    "\"2248473465835073\",\"context\":0,\"guild_id\":\"1000000000000000001\","
	    "\"guild_locale\":\"en-US\",\"guild\":{\"id\":\"1000000000000000001\",\"locale\":"
	    "\"en-US\",\"features\":[]},\"channel\":{\"id\":\"%" PRIu64 "\",\"type\":0,"
	    "\"guild_id\":\"1000000000000000001\",\"name\":\"table-%" PRIu64 "\"},"
	    "\"member\":{\"user\":{\"id\":\"%" PRIu64 "\",\"username\":\"player%" PRIu64 "\","
	    "\"global_name\":\"Player %" PRIu64 "\",\"discriminator\":\"0\",\"avatar\":null,"
	    "\"public_flags\":0},\"roles\":[],\"premium_since\":null,\"permissions\":\"1024\","
	    "\"pending\":false,\"nick\":null,\"mute\":false,\"joined_at\":"
	    "\"2024-01-01T00:00:00.000000+00:00\",\"flags\":0,\"deaf\":false}}}",
	    k + 2, which == 3 ? 3 : 2, tok, UINT64_C(1200000000000000000) + k, datas[which], chan,
	    chan, chan % 1000, user, user % 1000, user % 1000);
}

/* A GUILD_CREATE-like payload of about n bytes: channels and members. */
static void
guild(struct rng *rng, size_t n, struct buf *b)
{
	buf_reset(b);
	buf_adds(b,
	         "{\"t\":\"GUILD_CREATE\",\"s\":2,\"op\":0,\"d\":{\"id\":\"1000000000000000001\","
	         "\"members\":[");
	for (uint64_t i = 0; b->len < n; i++) {
		char tok[17];

		token(rng, tok, sizeof(tok));
		buf_addf(b,
		         "%s{\"user\":{\"id\":\"%" PRIu64 "\",\"username\":\"user%s\",\"avatar\":"
		         "\"%s\",\"discriminator\":\"0\"},\"roles\":[\"%" PRIu64
		         "\"],\"joined_at\":"
		         "\"2024-0%" PRIu64 "-1%" PRIu64 "T00:00:00.000000+00:00\",\"deaf\":false}",
		         i ? "," : "", UINT64_C(1400000000000000000) + i * 7919, tok, tok,
		         UINT64_C(1000000000000000500) + i % 7, 1 + i % 9, i % 10);
	}
	buf_adds(b, "]}}");
}

/* ns per payload to inflate the stream (ROUNDS passes, a fresh stream
 * each), and to parse the payloads (what they cost without compression). */
static void
time_stream(const struct buf *stream, const size_t *ends, size_t n, double *inflate_ns,
            double *parse_ns)
{
	struct discord_zlib *z = discord_zlib_new(8u << 20, 8u << 20);
	double t0, t1, parse = 0;

	t0 = bench_now_ns();
	for (int r = 0; r < ROUNDS; r++) {
		size_t start = 0;

		discord_zlib_reset(z);
		for (size_t i = 0; i < n; i++) {
			size_t len;

			if (discord_zlib_feed(z, stream->p + start, ends[i] - start) !=
			    DISCORD_ZLIB_PAYLOAD) {
				fprintf(stderr, "bench_zlib: payload %zu did not inflate\n", i);
				exit(1);
			}
			sink += discord_zlib_payload(z, &len)[len / 2];
			start = ends[i];
		}
	}
	t1 = bench_now_ns();
	*inflate_ns = (t1 - t0) / ROUNDS / (double)n;
	discord_zlib_reset(z);
	for (size_t i = 0, start = 0; i < n; start = ends[i++]) {
		const char *p;
		size_t len;
		double a;
		cJSON *j;

		discord_zlib_feed(z, stream->p + start, ends[i] - start);
		p = discord_zlib_payload(z, &len);
		a = bench_now_ns();
		j = cJSON_ParseWithLength(p, len);
		parse += bench_now_ns() - a;
		sink += cJSON_GetArraySize(j);
		cJSON_Delete(j);
	}
	*parse_ns = parse / (double)n;
	if (n > 1)
		printf("  the stream's own buffers: %zu bytes (plus zlib's inflate state, about "
		       "40 KiB a connection)\n",
		       discord_zlib_footprint(z));
	discord_zlib_free(z);
}

int
main(void)
{
	struct rng *rng = rng_new_seeded(42);
	struct buf one, stream;
	size_t *ends = calloc(PAYLOADS, sizeof(*ends));
	uint64_t raw = 0;
	size_t first = 0;
	double inflate_ns, parse_ns;
	z_stream zs;

	buf_init(&one, 64u << 20);
	buf_init(&stream, 1u << 30);
	memset(&zs, 0, sizeof(zs));
	deflateInit(&zs, Z_DEFAULT_COMPRESSION);
	for (size_t i = 0; i < PAYLOADS; i++) {
		interaction(rng, i, &one);
		raw += one.len;
		zpack(&zs, one.p, one.len, Z_SYNC_FLUSH, &stream);
		ends[i] = stream.len;
		if (i == 0)
			first = stream.len;
	}
	printf("gateway compression (zlib-stream, deflate level 6), %d INTERACTION_CREATE "
	       "payloads in one stream\n",
	       PAYLOADS);
	printf("  %.0f bytes a payload as JSON, %.0f compressed (%.1f%%): %.0f bytes saved each; "
	       "the first, with no history, %zu\n",
	       (double)raw / PAYLOADS, (double)stream.len / PAYLOADS,
	       100.0 * (double)stream.len / (double)raw, (double)(raw - stream.len) / PAYLOADS,
	       first);
	time_stream(&stream, ends, PAYLOADS, &inflate_ns, &parse_ns);
	printf("  inflate %.0f ns a payload (%.0f MB/s of JSON); parsing it costs %.0f ns either "
	       "way\n",
	       inflate_ns, (double)raw / PAYLOADS / inflate_ns * 1e3, parse_ns);

	deflateReset(&zs);
	buf_reset(&stream);
	guild(rng, 1u << 20, &one);
	zpack(&zs, one.p, one.len, Z_SYNC_FLUSH, &stream);
	ends[0] = stream.len;
	printf("a GUILD_CREATE-like payload of %zu bytes: %zu compressed (%.1f%%)\n", one.len,
	       stream.len, 100.0 * (double)stream.len / (double)one.len);
	raw = one.len;
	time_stream(&stream, ends, 1, &inflate_ns, &parse_ns);
	printf("  inflate %.2f ms (%.0f MB/s); parsing it %.2f ms\n", inflate_ns / 1e6,
	       (double)raw / inflate_ns * 1e3, parse_ns / 1e6);
	deflateEnd(&zs);
	buf_free(&one);
	buf_free(&stream);
	free(ends);
	rng_free(rng);
	return 0;
}
