/*
 * discord_zlib: the gateway's transport compression (compress=zlib-stream),
 * without I/O.
 *
 * With compress=zlib-stream in the gateway URL, Discord sends one zlib
 * stream per connection, cut into binary websocket messages; each payload
 * ends with a Z_SYNC_FLUSH, whose last four bytes are 00 00 ff ff. A struct
 * dzl is the inflate side of one such stream: the transport hands it each
 * binary message (in pieces with discord_zlib_add(), then discord_zlib_end(); or whole with
 * discord_zlib_feed()). It keeps the compressed bytes until the bytes so far end
 * with the suffix (so a suffix split across two messages counts), then
 * inflates them with the one inflate context it keeps for the connection:
 * a payload may refer back into earlier ones. discord_zlib_reset() starts a new
 * stream (every new connection).
 *
 * When those bytes inflate to a point inside a deflate block (the suffix
 * was data, not a flush), the output so far is kept and the payload goes on
 * with the next message. A message must not hold the end of more than one
 * payload (Discord's never do): two payloads ending in one message come out
 * as one.
 *
 * Bounds: a payload's compressed bytes may not pass in_max and its inflated
 * bytes may not pass out_max. The inflated size is checked as inflate
 * writes, into a buffer that never grows past out_max + 2 bytes, so a zip
 * bomb costs at most that much memory and the time to inflate out_max
 * bytes. A payload over either cap, or a stream zlib cannot inflate
 * (corrupt data, a preset dictionary, the end of the stream, which Discord
 * never sends), makes the stream unusable: the discord_zlib_end() that met it
 * returns DISCORD_ZLIB_ERROR once, with discord_zlib_why() saying what happened in a phrase;
 * later input is dropped (discord_zlib_end() returns DISCORD_ZLIB_MORE) until discord_zlib_reset().
 * The transport then closes the connection and resumes the session.
 *
 * Ownership: discord_zlib_new() returns a stream the caller frees with discord_zlib_free().
 * discord_zlib_payload()'s bytes belong to the stream and stay valid until the next
 * discord_zlib_add(), discord_zlib_end(), discord_zlib_feed() or discord_zlib_reset(). Buffers over
 * 256 KiB are given back once their payload has been used. Out of memory aborts (rules/mem.h),
 * inside zlib too.
 */
#ifndef DELVER_DISCORD_ZLIB_H
#define DELVER_DISCORD_ZLIB_H

#include <stddef.h>
#include <stdint.h>

#define DISCORD_ZLIB_SUFFIX     "\x00\x00\xff\xff"
#define DISCORD_ZLIB_SUFFIX_LEN 4

struct discord_zlib;

enum discord_zlib_status {
	DISCORD_ZLIB_MORE,    /* no whole payload yet (or the input was dropped) */
	DISCORD_ZLIB_PAYLOAD, /* discord_zlib_payload() holds one */
	DISCORD_ZLIB_ERROR,   /* the stream is unusable until discord_zlib_reset(); see
	                         discord_zlib_why() */
};

enum discord_zlib_fault {
	DISCORD_ZLIB_OK,
	DISCORD_ZLIB_INPUT_TOO_BIG,  /* a payload's compressed bytes passed in_max */
	DISCORD_ZLIB_OUTPUT_TOO_BIG, /* a payload inflated past out_max */
	DISCORD_ZLIB_CORRUPT,        /* zlib cannot inflate the stream */
};

struct discord_zlib_stats {
	uint64_t payloads;  /* whole payloads inflated */
	uint64_t in_bytes;  /* compressed bytes of those payloads */
	uint64_t out_bytes; /* their inflated bytes */
	uint64_t resets;    /* discord_zlib_reset() calls (connections) */
	uint64_t out_peak;  /* the most bytes the output buffer ever held */
};

/* A stream whose payloads are at most in_max bytes compressed and out_max
 * bytes inflated (both at least 1 and at most 1 GiB). */
struct discord_zlib *discord_zlib_new(size_t in_max, size_t out_max);
void discord_zlib_free(struct discord_zlib *z);
/* Forgets the stream: the next byte is the first of a new zlib stream. */
void discord_zlib_reset(struct discord_zlib *z);

/* Appends n bytes of the current websocket message. */
void discord_zlib_add(struct discord_zlib *z, const void *p, size_t n);
/* The current message is complete: inflates when the bytes so far end with
 * the suffix. */
enum discord_zlib_status discord_zlib_end(struct discord_zlib *z);
/* discord_zlib_add() of a whole message, then discord_zlib_end(). */
enum discord_zlib_status discord_zlib_feed(struct discord_zlib *z, const void *msg, size_t n);

/* After DISCORD_ZLIB_PAYLOAD: the inflated payload (NUL-terminated) and its size. */
const char *discord_zlib_payload(const struct discord_zlib *z, size_t *len);
/* Why the stream failed, or DISCORD_ZLIB_OK. */
enum discord_zlib_fault discord_zlib_fault(const struct discord_zlib *z);
/* The failure as one phrase (e.g. "the gateway sent a payload that inflates
 * to over 8388608 bytes"), or "" when none. */
const char *discord_zlib_why(const struct discord_zlib *z);

const struct discord_zlib_stats *discord_zlib_stats(const struct discord_zlib *z);
/* Bytes the stream's own buffers hold now (zlib's state not counted). */
size_t discord_zlib_footprint(const struct discord_zlib *z);

#endif
