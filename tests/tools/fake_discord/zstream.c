/* fake_discord/zstream: compress=zlib-stream, the server side: one deflate
 * context per connection that asked, each payload ended by a
 * Z_SYNC_FLUSH (so its last four bytes are 00 00 ff ff), as Discord does. */
#include "tests/tools/fake_discord/fake.h"
#include "tests/zpack.h"

#include <stdio.h>
#include <string.h>

int
zs_start(struct conn *c, const char *arg)
{
	const char *v = strncmp(arg, "compress=", 9) == 0 ? arg + 9 : arg;

	if (*v != '\0' && strcmp(v, "zlib-stream") != 0) {
		fake_violation("the gateway URL asks for compress=%s; Discord offers zlib-stream",
		               v);
		gw_fake_close(c, 4002, "decode error");
		return -1;
	}
	c->zlib = *v != '\0';
	if (F.expect_compress != 0 && c->zlib != (F.expect_compress > 0))
		fake_violation("connection %d %s compress=zlib-stream, against the configuration",
		               c->n, c->zlib ? "asks for" : "does not ask for");
	if (!c->zlib)
		return 0;
	F.st.zlib_connections++;
	memset(&c->zs, 0, sizeof(c->zs));
	if (deflateInit(&c->zs, Z_DEFAULT_COMPRESSION) != Z_OK) {
		fprintf(stderr, "fake: deflateInit failed\n");
		c->zlib = false;
		gw_fake_close(c, 4000, "no zlib");
		return -1;
	}
	return 0;
}

void
zs_end(struct conn *c)
{
	if (c->zlib)
		deflateEnd(&c->zs);
	c->zlib = false;
}

void
zs_deflate(struct conn *c, const void *p, size_t n, bool end, struct buf *out)
{
	zpack(&c->zs, p, n, end ? Z_SYNC_FLUSH : Z_NO_FLUSH, out);
}
