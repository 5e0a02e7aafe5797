/* Tests for bot/discord/discord_zlib: payloads cut anywhere, one inflate context
 * per stream, the caps, corrupt streams and resets. The streams are made
 * here the way Discord makes them: one deflate context, a Z_SYNC_FLUSH
 * after each payload. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bot/discord/discord_zlib.h"
#include "rules/base/buf.h"
#include "tests/zpack.h"

#define MIB (1024u * 1024)

static const char HELLO[] =
    "{\"t\":null,\"s\":null,\"op\":10,\"d\":{\"heartbeat_interval\":41250}}";
static const char READY[] =
    "{\"t\":\"READY\",\"s\":1,\"op\":0,\"d\":{\"v\":10,\"session_id\":\"8f3c2a\","
    "\"resume_gateway_url\":\"wss://gateway-us-east1-b.discord.gg\","
    "\"application\":{\"id\":\"1100000000000000001\",\"flags\":565248}}}";
static const char INTERACTION[] =
    "{\"t\":\"INTERACTION_CREATE\",\"s\":2,\"op\":0,\"d\":{\"version\":1,\"type\":2,"
    "\"token\":\"aW50ZXJhY3Rpb246MTIwMDAwMDAwMDAwMDAwMDAwMDpxWnR5\",\"locale\":\"en-US\","
    "\"id\":\"1200000000000000000\",\"data\":{\"type\":1,\"name\":\"roll\",\"options\":[{"
    "\"type\":3,\"name\":\"expression\",\"value\":\"4d6kh3\"}],\"id\":\"1\"},"
    "\"channel_id\":\"1300000000000000000\",\"application_id\":\"1100000000000000001\","
    "\"guild_id\":\"1000000000000000001\",\"member\":{\"user\":{\"id\":"
    "\"1400000000000000000\",\"username\":\"player0\",\"global_name\":\"Player 0\"},"
    "\"roles\":[],\"permissions\":\"1024\",\"nick\":null}}}";

/* A deflate context, as the server keeps one per connection. */
struct packer {
	z_stream zs;
};

static void
packer_init(struct packer *pk, int level)
{
	memset(pk, 0, sizeof(*pk));
	assert_int_equal(deflateInit(&pk->zs, level), Z_OK);
}

static void
packer_end(struct packer *pk)
{
	deflateEnd(&pk->zs);
}

/* One payload, as Discord sends it: its compressed bytes replace out's. */
static void
pack(struct packer *pk, const void *p, size_t n, struct buf *out)
{
	buf_reset(out);
	zpack(&pk->zs, p, n, Z_SYNC_FLUSH, out);
	assert_true(out->len >= DISCORD_ZLIB_SUFFIX_LEN);
	assert_memory_equal(out->p + out->len - DISCORD_ZLIB_SUFFIX_LEN, DISCORD_ZLIB_SUFFIX,
	                    DISCORD_ZLIB_SUFFIX_LEN);
}

/* One payload of n bytes c, without ever holding it whole. */
static void
pack_repeat(struct packer *pk, char c, size_t n, struct buf *out)
{
	char chunk[65536];

	memset(chunk, c, sizeof(chunk));
	buf_reset(out);
	for (; n > sizeof(chunk); n -= sizeof(chunk))
		zpack(&pk->zs, chunk, sizeof(chunk), Z_NO_FLUSH, out);
	zpack(&pk->zs, chunk, n, Z_SYNC_FLUSH, out);
}

static void
assert_payload(struct discord_zlib *z, const char *want, size_t wantlen)
{
	size_t len;
	const char *got = discord_zlib_payload(z, &len);

	assert_int_equal(len, wantlen);
	assert_memory_equal(got, want, wantlen);
	assert_int_equal(got[len], '\0');
}

/* Each test's world: a stream with 8 MiB caps, the server's deflate
 * context (default level) and a buffer for compressed bytes. */
struct fx {
	struct discord_zlib *z;
	struct packer pk;
	struct buf c;
};

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->z = discord_zlib_new(8 * MIB, 8 * MIB);
	packer_init(&f->pk, Z_DEFAULT_COMPRESSION);
	buf_init(&f->c, 64 * MIB);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	discord_zlib_free(f->z);
	packer_end(&f->pk);
	buf_free(&f->c);
	free(f);
	return 0;
}

/* Gives the test a stream with other caps. */
static void
caps(struct fx *f, size_t in_max, size_t out_max)
{
	discord_zlib_free(f->z);
	f->z = discord_zlib_new(in_max, out_max);
}

/* Gives the test a new deflate context at level. */
static void
repack(struct fx *f, int level)
{
	packer_end(&f->pk);
	packer_init(&f->pk, level);
}

static void
test_one_payload(void **state)
{
	struct fx *f = *state;

	pack(&f->pk, HELLO, strlen(HELLO), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, HELLO, strlen(HELLO));
	assert_int_equal(discord_zlib_fault(f->z), DISCORD_ZLIB_OK);
	assert_string_equal(discord_zlib_why(f->z), "");
	assert_int_equal(discord_zlib_stats(f->z)->payloads, 1);
	assert_int_equal(discord_zlib_stats(f->z)->in_bytes, f->c.len);
	assert_int_equal(discord_zlib_stats(f->z)->out_bytes, strlen(HELLO));
}

/* A payload cut into two messages at every point, the suffix split
 * ("00 00" then "ff ff") among them: the first part is never a payload. */
static void
test_split_anywhere(void **state)
{
	struct fx *f = *state;
	struct buf *c = &f->c;

	pack(&f->pk, READY, strlen(READY), c);
	for (size_t i = 1; i < c->len; i++) {
		discord_zlib_reset(f->z);
		assert_int_equal(discord_zlib_feed(f->z, c->p, i), DISCORD_ZLIB_MORE);
		assert_int_equal(discord_zlib_feed(f->z, c->p + i, c->len - i),
		                 DISCORD_ZLIB_PAYLOAD);
		assert_payload(f->z, READY, strlen(READY));
	}
	assert_int_equal(discord_zlib_stats(f->z)->payloads, c->len - 1);
	assert_int_equal(discord_zlib_stats(f->z)->in_bytes, (c->len - 1) * c->len);
}

static void
test_one_byte_messages_and_pieces(void **state)
{
	struct fx *f = *state;
	struct buf *c = &f->c;

	pack(&f->pk, HELLO, strlen(HELLO), c);
	for (size_t i = 0; i + 1 < c->len; i++)
		assert_int_equal(discord_zlib_feed(f->z, c->p + i, 1), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(f->z, c->p + c->len - 1, 1), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, HELLO, strlen(HELLO));

	/* One message in three pieces (websocket fragments). */
	pack(&f->pk, READY, strlen(READY), c);
	discord_zlib_add(f->z, c->p, 5);
	discord_zlib_add(f->z, c->p + 5, c->len - 7);
	discord_zlib_add(f->z, c->p + c->len - 2, 2);
	assert_int_equal(discord_zlib_end(f->z), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, READY, strlen(READY));

	/* Empty messages change nothing. */
	assert_int_equal(discord_zlib_feed(f->z, NULL, 0), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_stats(f->z)->payloads, 2);
}

static void
test_payloads_in_sequence(void **state)
{
	const char *const payloads[] = {HELLO, READY, INTERACTION, HELLO};
	struct fx *f = *state;
	size_t in = 0, out = 0;

	for (size_t i = 0; i < 4; i++) {
		pack(&f->pk, payloads[i], strlen(payloads[i]), &f->c);
		assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
		assert_payload(f->z, payloads[i], strlen(payloads[i]));
		in += f->c.len;
		out += strlen(payloads[i]);
	}
	assert_int_equal(discord_zlib_stats(f->z)->payloads, 4);
	assert_int_equal(discord_zlib_stats(f->z)->in_bytes, in);
	assert_int_equal(discord_zlib_stats(f->z)->out_bytes, out);
}

/* The second copy of a payload is mostly a back-reference into the first:
 * it inflates only with the first one's context, kept across payloads. */
static void
test_context_across_payloads(void **state)
{
	struct fx *f = *state;
	struct buf c2;

	buf_init(&c2, 64 * MIB);
	pack(&f->pk, INTERACTION, strlen(INTERACTION), &f->c);
	pack(&f->pk, INTERACTION, strlen(INTERACTION), &c2);
	assert_true(c2.len * 10 < f->c.len);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, INTERACTION, strlen(INTERACTION));
	assert_int_equal(discord_zlib_feed(f->z, c2.p, c2.len), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, INTERACTION, strlen(INTERACTION));

	/* Without that context (a new stream) the same bytes are no stream. */
	discord_zlib_reset(f->z);
	assert_int_equal(discord_zlib_feed(f->z, c2.p, c2.len), DISCORD_ZLIB_ERROR);
	assert_int_equal(discord_zlib_fault(f->z), DISCORD_ZLIB_CORRUPT);
	buf_free(&c2);
}

static void
test_corrupt_stream(void **state)
{
	static const char bad_type[] = "\x78\x9c\xff" DISCORD_ZLIB_SUFFIX;
	static const char not_zlib[] = "{\"op\":10}" DISCORD_ZLIB_SUFFIX;
	struct fx *f = *state;
	struct discord_zlib *z = f->z;

	/* A block of the reserved type 3 at once. */
	assert_int_equal(discord_zlib_feed(z, bad_type, sizeof(bad_type) - 1), DISCORD_ZLIB_ERROR);
	assert_int_equal(discord_zlib_fault(z), DISCORD_ZLIB_CORRUPT);
	assert_string_equal(discord_zlib_why(z),
	                    "the gateway's compressed stream is corrupt (invalid block type)");
	/* Reported once; what follows is dropped, valid or not. */
	pack(&f->pk, HELLO, strlen(HELLO), &f->c);
	assert_int_equal(discord_zlib_feed(z, f->c.p, f->c.len), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(z, bad_type, sizeof(bad_type) - 1), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_stats(z)->payloads, 0);

	/* Text where the zlib header should be. */
	discord_zlib_reset(z);
	assert_int_equal(discord_zlib_feed(z, not_zlib, sizeof(not_zlib) - 1), DISCORD_ZLIB_ERROR);
	assert_string_equal(discord_zlib_why(z),
	                    "the gateway's compressed stream is corrupt (incorrect header check)");

	/* Good payloads, then a bad block in the middle of the stream. */
	discord_zlib_reset(z);
	assert_int_equal(discord_zlib_fault(z), DISCORD_ZLIB_OK);
	repack(f, Z_DEFAULT_COMPRESSION);
	pack(&f->pk, HELLO, strlen(HELLO), &f->c);
	assert_int_equal(discord_zlib_feed(z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	pack(&f->pk, READY, strlen(READY), &f->c);
	assert_int_equal(discord_zlib_feed(z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_int_equal(discord_zlib_feed(z, "\xff" DISCORD_ZLIB_SUFFIX, 5), DISCORD_ZLIB_ERROR);
	assert_string_equal(discord_zlib_why(z),
	                    "the gateway's compressed stream is corrupt (invalid block type)");
	assert_int_equal(discord_zlib_stats(z)->payloads, 2);
}

/* The stream's two-byte header is checked as zlib checks it, whether it
 * comes in the first message or across two; it is not looked for again in
 * later payloads. */
static void
test_header(void **state)
{
	static const struct {
		const char *bytes, *why;
	} bad[] = {
	    {"\x78\x9d", "incorrect header check"},
	    {"\x79\x18", "unknown compression method"},
	    {"\x88\x1c", "invalid window size"},
	    {"\x78\x20", "it asks for a preset dictionary"},
	};
	struct fx *f = *state;
	char why[160], msg[2 + DISCORD_ZLIB_SUFFIX_LEN];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		discord_zlib_reset(f->z);
		memcpy(msg, bad[i].bytes, 2);
		memcpy(msg + 2, DISCORD_ZLIB_SUFFIX, DISCORD_ZLIB_SUFFIX_LEN);
		assert_int_equal(discord_zlib_feed(f->z, msg, sizeof(msg)), DISCORD_ZLIB_ERROR);
		snprintf(why, sizeof(why), "the gateway's compressed stream is corrupt (%s)",
		         bad[i].why);
		assert_string_equal(discord_zlib_why(f->z), why);
	}
	/* The header alone in a message, then the rest of the payload. */
	discord_zlib_reset(f->z);
	repack(f, Z_DEFAULT_COMPRESSION);
	pack(&f->pk, HELLO, strlen(HELLO), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, 1), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p + 1, f->c.len - 1), DISCORD_ZLIB_PAYLOAD);
	pack(&f->pk, READY, strlen(READY), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_int_equal(discord_zlib_stats(f->z)->payloads, 2);
}

/* A stream that ends (Z_FINISH) is not Discord's. */
static void
test_stream_end(void **state)
{
	struct fx *f = *state;

	zpack(&f->pk.zs, HELLO, strlen(HELLO), Z_FINISH, &f->c);
	buf_add(&f->c, DISCORD_ZLIB_SUFFIX, DISCORD_ZLIB_SUFFIX_LEN);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_ERROR);
	assert_string_equal(
	    discord_zlib_why(f->z),
	    "the gateway's compressed stream is corrupt (it ended, which Discord's never does)");
}

/* 64 MiB of 'x' in about 64 KiB: the output stops at the cap. */
static void
test_zip_bomb(void **state)
{
	struct fx *f = *state;

	caps(f, 8 * MIB, MIB);
	repack(f, 9);
	pack_repeat(&f->pk, 'x', 64 * MIB, &f->c);
	assert_true(f->c.len < 128 * 1024);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_ERROR);
	assert_int_equal(discord_zlib_fault(f->z), DISCORD_ZLIB_OUTPUT_TOO_BIG);
	assert_string_equal(discord_zlib_why(f->z),
	                    "the gateway sent a payload that inflates to over 1048576 bytes");
	/* The output buffer reached the cap (1 MiB, one byte to see it was
	 * passed, the NUL) and no further; it is given back after. */
	assert_int_equal(discord_zlib_stats(f->z)->out_peak, MIB + 2);
	assert_int_equal(discord_zlib_footprint(f->z), 0);
	assert_int_equal(discord_zlib_stats(f->z)->payloads, 0);
}

/* A payload of exactly the cap passes; one byte more does not. */
static void
test_output_cap_exact(void **state)
{
	struct fx *f = *state;
	size_t len;

	caps(f, MIB, 100000);
	pack_repeat(&f->pk, 'y', 100000, &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_int_equal(strspn(discord_zlib_payload(f->z, &len), "y"), 100000);
	assert_int_equal(len, 100000);

	pack_repeat(&f->pk, 'y', 100001, &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_ERROR);
	assert_int_equal(discord_zlib_fault(f->z), DISCORD_ZLIB_OUTPUT_TOO_BIG);
}

/* Compressed bytes without a suffix pile up only to the input cap, which
 * counts a payload's bytes across messages. */
static void
test_input_cap(void **state)
{
	struct fx *f = *state;
	char junk[64];

	caps(f, 64, MIB);
	memset(junk, 'j', sizeof(junk));
	assert_int_equal(discord_zlib_feed(f->z, junk, 40), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(f->z, junk, 24), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(f->z, junk, 1), DISCORD_ZLIB_ERROR);
	assert_int_equal(discord_zlib_fault(f->z), DISCORD_ZLIB_INPUT_TOO_BIG);
	assert_string_equal(discord_zlib_why(f->z),
	                    "the gateway sent a compressed payload over 64 bytes");
	assert_int_equal(discord_zlib_feed(f->z, junk, 1), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_footprint(f->z), 0);

	/* A payload of exactly in_max compressed bytes passes. */
	pack(&f->pk, READY, strlen(READY), &f->c);
	caps(f, f->c.len, MIB);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	caps(f, f->c.len - 1, MIB);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, 10), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p + 10, f->c.len - 10), DISCORD_ZLIB_ERROR);
	assert_int_equal(discord_zlib_fault(f->z), DISCORD_ZLIB_INPUT_TOO_BIG);
}

/* A new connection is a new stream: what the old one left half-sent is
 * forgotten, and the new one's header is expected. */
static void
test_reset_between_connections(void **state)
{
	struct fx *f = *state;
	size_t first;

	pack(&f->pk, HELLO, strlen(HELLO), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	first = f->c.len;
	pack(&f->pk, READY, strlen(READY), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len / 2), DISCORD_ZLIB_MORE);

	discord_zlib_reset(f->z);
	repack(f, Z_DEFAULT_COMPRESSION);
	pack(&f->pk, INTERACTION, strlen(INTERACTION), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, INTERACTION, strlen(INTERACTION));
	assert_int_equal(discord_zlib_stats(f->z)->resets, 1);
	assert_int_equal(discord_zlib_stats(f->z)->payloads, 2);
	/* The half-sent payload's bytes count nowhere. */
	assert_int_equal(discord_zlib_stats(f->z)->in_bytes, first + f->c.len);
}

/* 00 00 ff ff inside a stored block's data, at the end of a message, is
 * no flush: the payload goes on with the next message. */
static void
test_suffix_inside_data(void **state)
{
	static const char data[] = "ab\0\0\xff\xff"
	                           "cd";
	static const unsigned char head[] = {0x78, 0x01, 0x00, 0x08, 0x00, 0xf7, 0xff};
	struct fx *f = *state;
	size_t cut = sizeof(head) + 6;

	repack(f, 0); /* stored blocks: the data as it is */
	pack(&f->pk, data, 8, &f->c);
	assert_memory_equal(f->c.p, head, sizeof(head));
	assert_memory_equal(f->c.p + cut - DISCORD_ZLIB_SUFFIX_LEN, DISCORD_ZLIB_SUFFIX,
	                    DISCORD_ZLIB_SUFFIX_LEN);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, cut), DISCORD_ZLIB_MORE);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p + cut, f->c.len - cut),
	                 DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, data, 8);
	assert_int_equal(discord_zlib_stats(f->z)->in_bytes, f->c.len);
}

/* A big payload's buffers are given back once it has been used. */
static void
test_big_buffers_given_back(void **state)
{
	struct fx *f = *state;
	struct buf big;

	buf_init(&big, 64 * MIB);
	for (int i = 0; big.len < 2 * MIB; i++)
		buf_addf(&big, "{\"id\":\"%d\",\"name\":\"channel-%d\",\"type\":0},", i * 7919, i);
	pack(&f->pk, big.p, big.len, &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, big.p, big.len);
	assert_true(discord_zlib_footprint(f->z) > 2 * MIB);
	pack(&f->pk, HELLO, strlen(HELLO), &f->c);
	assert_int_equal(discord_zlib_feed(f->z, f->c.p, f->c.len), DISCORD_ZLIB_PAYLOAD);
	assert_payload(f->z, HELLO, strlen(HELLO));
	assert_true(discord_zlib_footprint(f->z) <= 256 * 1024);
	buf_free(&big);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_one_payload),
	    T(test_split_anywhere),
	    T(test_one_byte_messages_and_pieces),
	    T(test_payloads_in_sequence),
	    T(test_context_across_payloads),
	    T(test_corrupt_stream),
	    T(test_header),
	    T(test_stream_end),
	    T(test_zip_bomb),
	    T(test_output_cap_exact),
	    T(test_input_cap),
	    T(test_reset_between_connections),
	    T(test_suffix_inside_data),
	    T(test_big_buffers_given_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
