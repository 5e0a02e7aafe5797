/*
 * fuzz_state: arbitrary bytes as a state file of the old format, as the
 * import reads it (restore.h). The first byte picks the file (even:
 * snapshot.dlv, odd: journal.00000001.dlv); the rest is its content.
 * Checks, beyond the sanitizers: a refusal is one line naming the file, and
 * every record restore accepted encodes, decodes and encodes again to the
 * same line.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/store/store_record.h"
#include "bot/store/restore.h"
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
	buf_free(&a);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct restore_opts o = {.dir = dir, .now = 4000000000};
	struct restore_result res;
	char path[128], other[128], err[2048] = "";
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
	o.dir = dir;
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
	if (restore_state(st, &o, &res, err, sizeof(err)) == 0)
		state_each_channel(st, check_channel, NULL);
	else if (strchr(err, '\n') != NULL || strncmp(err, path, strlen(path)) != 0)
		abort(); /* a refusal is one line naming the file */
	state_free(st);
	return 0;
}
