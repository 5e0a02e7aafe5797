/*
 * discord_zlib: the gateway's transport compression (compress=zlib-stream),
 * without I/O.
 *
 * With compress=zlib-stream in the gateway URL, Discord sends one zlib
 * stream per connection, cut into binary websocket messages; each payload
 * ends with a Z_SYNC_FLUSH, whose last four bytes are 00 00 ff ff. A struct
 * dzl is the inflate side of one such stream: the transport hands it each
 * binary message (in pieces with dzl_add(), then dzl_end(); or whole with
 * dzl_feed()). It keeps the compressed bytes until the bytes so far end
 * with the suffix (so a suffix split across two messages counts), then
 * inflates them with the one inflate context it keeps for the connection:
 * a payload may refer back into earlier ones. dzl_reset() starts a new
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
 * never sends), makes the stream unusable: the dzl_end() that met it
 * returns DZL_ERROR once, with dzl_why() saying what happened in a phrase;
 * later input is dropped (dzl_end() returns DZL_MORE) until dzl_reset().
 * The transport then closes the connection and resumes the session.
 *
 * Ownership: dzl_new() returns a stream the caller frees with dzl_free().
 * dzl_payload()'s bytes belong to the stream and stay valid until the next
 * dzl_add(), dzl_end(), dzl_feed() or dzl_reset(). Buffers over 256 KiB
 * are given back once their payload has been used. Out of memory aborts
 * (rules/mem.h), inside zlib too.
 */
#ifndef DELVER_DISCORD_ZLIB_H
#define DELVER_DISCORD_ZLIB_H

#include <stddef.h>
#include <stdint.h>

#define DZL_SUFFIX     "\x00\x00\xff\xff"
#define DZL_SUFFIX_LEN 4

struct dzl;

enum dzl_status {
	DZL_MORE,    /* no whole payload yet (or the input was dropped) */
	DZL_PAYLOAD, /* dzl_payload() holds one */
	DZL_ERROR,   /* the stream is unusable until dzl_reset(); see dzl_why() */
};

enum dzl_fault {
	DZL_OK,
	DZL_INPUT_TOO_BIG,  /* a payload's compressed bytes passed in_max */
	DZL_OUTPUT_TOO_BIG, /* a payload inflated past out_max */
	DZL_CORRUPT,        /* zlib cannot inflate the stream */
};

struct dzl_stats {
	uint64_t payloads;  /* whole payloads inflated */
	uint64_t in_bytes;  /* compressed bytes of those payloads */
	uint64_t out_bytes; /* their inflated bytes */
	uint64_t resets;    /* dzl_reset() calls (connections) */
	uint64_t out_peak;  /* the most bytes the output buffer ever held */
};

/* A stream whose payloads are at most in_max bytes compressed and out_max
 * bytes inflated (both at least 1 and at most 1 GiB). */
struct dzl *dzl_new(size_t in_max, size_t out_max);
void dzl_free(struct dzl *z);
/* Forgets the stream: the next byte is the first of a new zlib stream. */
void dzl_reset(struct dzl *z);

/* Appends n bytes of the current websocket message. */
void dzl_add(struct dzl *z, const void *p, size_t n);
/* The current message is complete: inflates when the bytes so far end with
 * the suffix. */
enum dzl_status dzl_end(struct dzl *z);
/* dzl_add() of a whole message, then dzl_end(). */
enum dzl_status dzl_feed(struct dzl *z, const void *msg, size_t n);

/* After DZL_PAYLOAD: the inflated payload (NUL-terminated) and its size. */
const char *dzl_payload(const struct dzl *z, size_t *len);
/* Why the stream failed, or DZL_OK. */
enum dzl_fault dzl_fault(const struct dzl *z);
/* The failure as one phrase (e.g. "the gateway sent a payload that inflates
 * to over 8388608 bytes"), or "" when none. */
const char *dzl_why(const struct dzl *z);

const struct dzl_stats *dzl_stats(const struct dzl *z);
/* Bytes the stream's own buffers hold now (zlib's state not counted). */
size_t dzl_footprint(const struct dzl *z);

#endif
