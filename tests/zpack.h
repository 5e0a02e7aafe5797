/*
 * zpack: the sending side of compress=zlib-stream, for the unit tests, the
 * fuzzer, the benchmarks and the fake Discord (delver itself only
 * inflates). Header-only: each of those is its own program.
 */
#ifndef DELVER_TESTS_ZPACK_H
#define DELVER_TESTS_ZPACK_H

#include <stddef.h>
#include <zlib.h>

#include "rules/base/buf.h"

/* Deflates n bytes through zs onto out with flush (Z_NO_FLUSH, or
 * Z_SYNC_FLUSH to end a payload as Discord does, with 00 00 ff ff). */
static inline void
zpack(z_stream *zs, const void *p, size_t n, int flush, struct buf *out)
{
	unsigned char chunk[16384];

	zs->next_in = (Bytef *)p;
	zs->avail_in = (uInt)n;
	do {
		zs->next_out = chunk;
		zs->avail_out = sizeof(chunk);
		deflate(zs, flush);
		buf_add(out, chunk, sizeof(chunk) - zs->avail_out);
	} while (zs->avail_out == 0 || zs->avail_in > 0);
}

#endif
