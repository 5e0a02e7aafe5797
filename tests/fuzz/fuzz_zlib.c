/*
 * fuzz_zlib: the gateway's zlib-stream inflation (bot/discord/discord_zlib) with
 * small caps, so the cap paths are reached at once.
 *
 * Byte 0 chooses the way in, byte 1 the message size k (0: the rest is one
 * message). Even: the rest is a compressed stream as it comes off the
 * socket, cut into k-byte messages; bit 1 of byte 0 resets the stream after
 * a failure and goes on. Odd: the rest is payloads separated by '\n', made
 * printable (JSON text never holds 00 or ff), deflated as Discord does (one
 * context, level (byte 0 >> 1) % 10, a Z_SYNC_FLUSH each), cut into k-byte
 * messages: each must come back whole at its last message, byte for byte,
 * unless it passes a cap, which must then be the failure reported.
 *
 * Either way: a payload is never over the output cap, the output buffer
 * never grows past the cap + 2, and after a failure nothing comes out
 * until a reset. A broken promise aborts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bot/discord/discord_zlib.h"
#include "rules/base/buf.h"
#include "tests/zpack.h"

#define IN_MAX  2048
#define OUT_MAX 8192

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(bool ok)
{
	if (!ok)
		abort();
}

/* One message; checks what any message must give. */
static enum discord_zlib_status
feed(struct discord_zlib *z, const void *p, size_t n, bool failed)
{
	enum discord_zlib_status st = discord_zlib_feed(z, p, n);
	size_t len;
	const char *out = discord_zlib_payload(z, &len);

	check(discord_zlib_stats(z)->out_peak <= OUT_MAX + 2);
	if (st == DISCORD_ZLIB_PAYLOAD) {
		check(!failed && discord_zlib_fault(z) == DISCORD_ZLIB_OK);
		check(len <= OUT_MAX && out[len] == '\0');
	} else if (st == DISCORD_ZLIB_ERROR) {
		check(!failed && discord_zlib_fault(z) != DISCORD_ZLIB_OK &&
		      discord_zlib_why(z)[0] != '\0');
	} else {
		check(len == 0);
	}
	return st;
}

static void
raw_stream(struct discord_zlib *z, const uint8_t *p, size_t n, size_t k, bool reset)
{
	bool failed = false;

	for (size_t off = 0; off < n; off += k) {
		size_t m = n - off < k ? n - off : k;

		if (feed(z, p + off, m, failed) == DISCORD_ZLIB_ERROR) {
			failed = true;
			if (reset) {
				discord_zlib_reset(z);
				failed = false;
			}
		}
	}
}

/* The payload of n bytes, packed as c, sent in k-byte messages: what
 * must come of it. */
static void
round_trip(struct discord_zlib *z, const char *text, size_t n, const struct buf *c, size_t k)
{
	enum discord_zlib_status st = DISCORD_ZLIB_MORE;
	size_t off, m;

	for (off = 0; off < c->len && st == DISCORD_ZLIB_MORE; off += m) {
		m = c->len - off < k ? c->len - off : k;
		st = feed(z, c->p + off, m, false);
	}
	if (c->len > IN_MAX) {
		check(st == DISCORD_ZLIB_ERROR &&
		      discord_zlib_fault(z) == DISCORD_ZLIB_INPUT_TOO_BIG);
	} else if (n > OUT_MAX) {
		check(st == DISCORD_ZLIB_ERROR &&
		      discord_zlib_fault(z) == DISCORD_ZLIB_OUTPUT_TOO_BIG);
	} else {
		size_t len;
		const char *out;

		check(st == DISCORD_ZLIB_PAYLOAD && off == c->len);
		out = discord_zlib_payload(z, &len);
		check(len == n && memcmp(out, text, n) == 0);
	}
}

static void
payloads(struct discord_zlib *z, const uint8_t *p, size_t n, size_t k, int level)
{
	char *text = malloc(n + 1);
	struct buf c;
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	check(deflateInit(&zs, level) == Z_OK);
	buf_init(&c, 1u << 24);
	for (size_t i = 0; i < n; i++)
		text[i] = p[i] == '\n' ? '\n' : (char)(0x20 + p[i] % 95);
	for (size_t start = 0; start <= n;) {
		const char *nl = memchr(text + start, '\n', n - start);
		size_t len = nl != NULL ? (size_t)(nl - text) - start : n - start;

		buf_reset(&c);
		zpack(&zs, text + start, len, Z_SYNC_FLUSH, &c);
		if (c.len > 0) /* zlib flushes nothing twice: no message */
			round_trip(z, text + start, len, &c, k ? k : c.len);
		if (discord_zlib_fault(z) != DISCORD_ZLIB_OK) { /* a new connection */
			discord_zlib_reset(z);
			deflateReset(&zs);
		}
		start += len + 1;
	}
	deflateEnd(&zs);
	buf_free(&c);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct discord_zlib *z;
	size_t k;

	if (size < 2)
		return 0;
	z = discord_zlib_new(IN_MAX, OUT_MAX);
	k = data[1] != 0 ? data[1] : size;
	if (data[0] % 2 == 0)
		raw_stream(z, data + 2, size - 2, k, data[0] & 2);
	else
		payloads(z, data + 2, size - 2, data[1], (data[0] >> 1) % 10);
	discord_zlib_free(z);
	return 0;
}
