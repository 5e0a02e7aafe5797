/* discord_zlib: zlib-stream inflation for the gateway; see discord_zlib.h. */
#include "bot/discord/discord_zlib.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define OUT_FIRST (16u * 1024)  /* the output buffer's first size */
#define KEEP_MAX  (256u * 1024) /* buffers past this are given back after use */
#define LIMIT_MAX (1u << 30)

struct discord_zlib {
	z_stream zs;
	size_t in_max, out_max;
	struct buf in;   /* compressed bytes not inflated yet */
	size_t in_total; /* compressed bytes of the current payload */
	char *out;       /* the current payload, inflated */
	size_t out_len, out_cap;
	bool header;   /* the stream's two-byte zlib header is read */
	bool done;     /* out holds a payload the caller has */
	bool reported; /* the fault was returned once */
	enum discord_zlib_fault fault;
	char why[160];
	struct discord_zlib_stats stats;
};

/* zlib allocates through the out-of-memory policy too. */
static voidpf
z_alloc(voidpf opaque, uInt items, uInt size)
{
	return xcalloc(items, size);
}

static void
z_free(voidpf opaque, voidpf p)
{
	free(p);
}

struct discord_zlib *
discord_zlib_new(size_t in_max, size_t out_max)
{
	struct discord_zlib *z = xcalloc(1, sizeof(*z));

	z->in_max = in_max < 1 ? 1 : in_max > LIMIT_MAX ? LIMIT_MAX : in_max;
	z->out_max = out_max < 1 ? 1 : out_max > LIMIT_MAX ? LIMIT_MAX : out_max;
	buf_init(&z->in, z->in_max);
	z->zs.zalloc = z_alloc;
	z->zs.zfree = z_free;
	/* Raw deflate: the zlib header is read here (zlib_header), and the
	 * stream's Adler-32, which zlib would compute over every inflated byte
	 * (about 4k instructions an interaction), is never sent by Discord,
	 * whose stream does not end. */
	if (inflateInit2(&z->zs, -15) != Z_OK) /* only a zlib older than the headers */
		abort();
	return z;
}

void
discord_zlib_free(struct discord_zlib *z)
{
	if (z == NULL)
		return;
	inflateEnd(&z->zs);
	buf_free(&z->in);
	free(z->out);
	free(z);
}

/* Starts the next payload: the last one's bytes are the caller's no more. */
static void
next_payload(struct discord_zlib *z)
{
	if (z->out_cap > KEEP_MAX) {
		free(z->out);
		z->out = NULL;
		z->out_cap = 0;
	}
	z->out_len = 0;
	z->in_total = 0;
	z->done = false;
}

void
discord_zlib_reset(struct discord_zlib *z)
{
	inflateReset(&z->zs);
	z->header = false;
	buf_free(&z->in);
	next_payload(z);
	z->fault = DISCORD_ZLIB_OK;
	z->reported = false;
	z->why[0] = '\0';
	z->stats.resets++;
}

static void
fail(struct discord_zlib *z, enum discord_zlib_fault f, const char *detail)
{
	z->fault = f;
	switch (f) {
	case DISCORD_ZLIB_INPUT_TOO_BIG:
		snprintf(z->why, sizeof(z->why),
		         "the gateway sent a compressed payload over %zu bytes", z->in_max);
		break;
	case DISCORD_ZLIB_OUTPUT_TOO_BIG:
		snprintf(z->why, sizeof(z->why),
		         "the gateway sent a payload that inflates to over %zu bytes", z->out_max);
		break;
	default:
		snprintf(z->why, sizeof(z->why), "the gateway's compressed stream is corrupt (%s)",
		         detail);
		break;
	}
	buf_free(&z->in);
	next_payload(z);
}

void
discord_zlib_add(struct discord_zlib *z, const void *p, size_t n)
{
	if (z->done)
		next_payload(z);
	if (z->fault != DISCORD_ZLIB_OK || n == 0)
		return;
	if (n > z->in_max - z->in_total || buf_add(&z->in, p, n) < 0) {
		fail(z, DISCORD_ZLIB_INPUT_TOO_BIG, NULL);
		return;
	}
	z->in_total += n;
}

/* Room for inflate to write into, keeping one byte for the NUL. The
 * buffer grows to out_max + 2 bytes at most: out_max bytes, one more to
 * see that the cap was passed, and the NUL. */
static void
make_room(struct discord_zlib *z)
{
	size_t cap, most = z->out_max + 2;

	if (z->out_cap - z->out_len >= 2)
		return;
	cap = z->out_cap < OUT_FIRST ? OUT_FIRST : z->out_cap * 2;
	if (cap > most)
		cap = most;
	z->out = xrealloc(z->out, cap);
	z->out_cap = cap;
	if (cap > z->stats.out_peak)
		z->stats.out_peak = cap;
}

/* The stream's first two bytes, checked as zlib checks them (RFC 1950):
 * the check bits, deflate, a window zlib can use, no preset dictionary.
 * Returns how many bytes of the buffer they took, or -1 after fail(). */
static int
zlib_header(struct discord_zlib *z)
{
	unsigned cmf, flg;

	if (z->header)
		return 0;
	if (z->in.len < 2) {
		fail(z, DISCORD_ZLIB_CORRUPT, "incorrect header check");
		return -1;
	}
	cmf = (unsigned char)z->in.p[0];
	flg = (unsigned char)z->in.p[1];
	if (((cmf << 8) | flg) % 31 != 0) {
		fail(z, DISCORD_ZLIB_CORRUPT, "incorrect header check");
		return -1;
	}
	if ((cmf & 15) != 8) {
		fail(z, DISCORD_ZLIB_CORRUPT, "unknown compression method");
		return -1;
	}
	if ((cmf >> 4) > 7) {
		fail(z, DISCORD_ZLIB_CORRUPT, "invalid window size");
		return -1;
	}
	if (flg & 32) {
		fail(z, DISCORD_ZLIB_CORRUPT, "it asks for a preset dictionary");
		return -1;
	}
	z->header = true;
	return 2;
}

/* Inflates the buffered bytes onto out. Returns 0, or -1 after fail(). */
static int
inflate_buffered(struct discord_zlib *z)
{
	int skip = zlib_header(z);

	if (skip < 0)
		return -1;
	z->zs.next_in = (Bytef *)z->in.p + skip;
	z->zs.avail_in = (uInt)(z->in.len - (size_t)skip); /* at most LIMIT_MAX */
	for (;;) {
		int r;

		make_room(z);
		z->zs.next_out = (Bytef *)z->out + z->out_len;
		z->zs.avail_out = (uInt)(z->out_cap - z->out_len - 1);
		r = inflate(&z->zs, Z_SYNC_FLUSH);
		z->out_len = (size_t)((char *)z->zs.next_out - z->out);
		if (z->out_len > z->out_max) {
			fail(z, DISCORD_ZLIB_OUTPUT_TOO_BIG, NULL);
			return -1;
		}
		if (r == Z_STREAM_END) {
			fail(z, DISCORD_ZLIB_CORRUPT, "it ended, which Discord's never does");
			return -1;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			fail(z, DISCORD_ZLIB_CORRUPT, z->zs.msg != NULL ? z->zs.msg : "zlib error");
			return -1;
		}
		/* Done when the input is used up and inflate had room to spare
		 * (Z_BUF_ERROR: nothing more can come out of what it has). */
		if (z->zs.avail_out > 0 && (z->zs.avail_in == 0 || r == Z_BUF_ERROR))
			break;
	}
	z->out[z->out_len] = '\0';
	if (z->in.cap > KEEP_MAX)
		buf_free(&z->in);
	else
		buf_reset(&z->in);
	return 0;
}

static bool
ends_with_suffix(const struct buf *b)
{
	return b->len >= DISCORD_ZLIB_SUFFIX_LEN &&
	       memcmp(b->p + b->len - DISCORD_ZLIB_SUFFIX_LEN, DISCORD_ZLIB_SUFFIX,
	              DISCORD_ZLIB_SUFFIX_LEN) == 0;
}

enum discord_zlib_status
discord_zlib_end(struct discord_zlib *z)
{
	if (z->done)
		next_payload(z);
	if (z->fault != DISCORD_ZLIB_OK) {
		if (z->reported)
			return DISCORD_ZLIB_MORE;
		z->reported = true;
		return DISCORD_ZLIB_ERROR;
	}
	if (!ends_with_suffix(&z->in))
		return DISCORD_ZLIB_MORE;
	if (inflate_buffered(z) < 0) {
		z->reported = true;
		return DISCORD_ZLIB_ERROR;
	}
	/* 128: inflate stopped between two deflate blocks, where a flush
	 * leaves it; elsewhere the suffix was data and the payload goes on. */
	if (!(z->zs.data_type & 128))
		return DISCORD_ZLIB_MORE;
	z->done = true;
	z->stats.payloads++;
	z->stats.in_bytes += z->in_total;
	z->stats.out_bytes += z->out_len;
	return DISCORD_ZLIB_PAYLOAD;
}

enum discord_zlib_status
discord_zlib_feed(struct discord_zlib *z, const void *msg, size_t n)
{
	discord_zlib_add(z, msg, n);
	return discord_zlib_end(z);
}

const char *
discord_zlib_payload(const struct discord_zlib *z, size_t *len)
{
	*len = z->done ? z->out_len : 0;
	return z->done ? z->out : "";
}

enum discord_zlib_fault
discord_zlib_fault(const struct discord_zlib *z)
{
	return z->fault;
}

const char *
discord_zlib_why(const struct discord_zlib *z)
{
	return z->why;
}

const struct discord_zlib_stats *
discord_zlib_stats(const struct discord_zlib *z)
{
	return &z->stats;
}

size_t
discord_zlib_footprint(const struct discord_zlib *z)
{
	return z->in.cap + z->out_cap;
}
