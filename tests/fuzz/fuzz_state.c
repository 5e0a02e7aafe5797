/*
 * fuzz_state: arbitrary bytes as a state file. The first byte picks the
 * file (even: snapshot.dlv, odd: journal.00000001.dlv); the rest is its
 * content. Restore runs over it twice: with every channel kept in memory,
 * then with idle channels left on disk. Checks, beyond the sanitizers: a
 * refusal is one line naming the file; every record restore accepted
 * encodes, decodes and encodes again to the same line; and every channel
 * the second restore left on disk is found by the snapshot's binary search,
 * with the same record.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/store/store_record.h"
#include "bot/store/restore.h"
#include "bot/store/snapshot.h"
#include "rules/base/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

/* Removes the scratch directory when the fuzzer exits. */
static void
remove_dir(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/snapshot.dlv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/journal.00000001.dlv", dir);
	unlink(path);
	rmdir(dir);
}

struct check {
	struct state *lazy;    /* the second restore */
	struct snapshot *snap; /* its lookups, or NULL */
};

/* The channel's record as one line, into b. */
static void
encode(const struct store_record *r, struct buf *b)
{
	buf_reset(b);
	if (store_record_encode(r, store_record_builtin_mods(), b) < 0)
		abort();
}

static void
check_channel(struct channel *ch, void *ctx)
{
	struct check *c = ctx;
	struct store_record r, back;
	struct buf a, b;
	char err[1024];

	buf_init(&a, STORE_RECORD_LINE_MAX);
	buf_init(&b, STORE_RECORD_LINE_MAX);
	store_record_of_channel(&r, ch);
	encode(&r, &a);
	if (store_record_decode(a.p, a.len - 1, STORE_RECORD_VERSION, store_record_builtin_mods(),
	                        &back, err, sizeof(err)) < 0)
		abort();
	encode(&back, &b);
	store_record_clear(&back, store_record_builtin_mods());
	if (strcmp(buf_str(&a), buf_str(&b)) != 0)
		abort();
	if (c->snap != NULL && state_channel_find(c->lazy, channel_key(ch)) == NULL) {
		if (snapshot_find(c->snap, channel_key(ch), &back, err, sizeof(err)) != 1)
			abort(); /* left on disk, but the search cannot find it */
		encode(&back, &b);
		store_record_clear(&back, store_record_builtin_mods());
		if (strcmp(buf_str(&a), buf_str(&b)) != 0)
			abort();
	}
	buf_free(&a);
	buf_free(&b);
}

static int
restore(struct state *st, int64_t evict_after, struct restore_result *res, const char *path)
{
	struct restore_opts o = {.dir = dir, .now = 4000000000, .evict_after = evict_after};
	char err[2048] = "";

	if (restore_state(st, &o, res, err, sizeof(err)) == 0)
		return 0;
	if (strchr(err, '\n') != NULL || strncmp(err, path, strlen(path)) != 0)
		abort();
	return -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct restore_result res, lazy_res;
	struct check c = {0};
	char path[128], other[128];
	struct state *st;
	int fd;

	if (size == 0)
		return 0;
	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/tmp/delver-fuzz-state-XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
		atexit(remove_dir);
	}
	snprintf(path, sizeof(path), "%s/%s", dir,
	         data[0] & 1 ? "journal.00000001.dlv" : "snapshot.dlv");
	snprintf(other, sizeof(other), "%s/%s", dir,
	         data[0] & 1 ? "snapshot.dlv" : "journal.00000001.dlv");
	unlink(other);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	close(fd);
	st = state_new();
	if (restore(st, 0, &res, path) == 0) {
		c.lazy = state_new();
		if (restore(c.lazy, 1, &lazy_res, path) < 0)
			abort(); /* the same files cannot fail the second time */
		c.snap = lazy_res.snap;
		state_each_channel(st, check_channel, &c);
		snapshot_close(c.snap);
		snapshot_close(res.snap);
		state_free(c.lazy);
	}
	state_free(st);
	return 0;
}
