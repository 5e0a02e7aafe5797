/* journal: one append-only journal file; see journal.h. */
#include "bot/store/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/store/fsio.h"
#include "bot/store/store_record.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

struct journal {
	int fd;
	uint64_t seq;
	uint64_t size;
	uint64_t synced;
	uint64_t header; /* bytes of the header line */
	bool broken;
	int refs;
};

int
journal_path(char *out, size_t size, const char *dir, uint64_t seq)
{
	int r = snprintf(out, size, "%s/journal.%08" PRIu64 ".dlv", dir, seq);

	return r < 0 || (size_t)r >= size ? -1 : 0;
}

bool
journal_parse_name(const char *name, uint64_t *seq)
{
	const char *p = name + strlen("journal.");
	uint64_t v = 0;
	size_t digits = 0;

	if (strncmp(name, "journal.", strlen("journal.")) != 0)
		return false;
	for (; *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (digits < 8 || strcmp(p, ".dlv") != 0)
		return false;
	*seq = v;
	return true;
}

struct journal *
journal_create(const char *dir, uint64_t seq, char *err, size_t errlen)
{
	struct store_record_header h = {
	    .version = STORE_RECORD_VERSION, .file = STORE_RECORD_JOURNAL, .seq = seq};
	char path[4096];
	struct journal *j;
	struct buf b;
	int fd;

	if (journal_path(path, sizeof(path), dir, seq) < 0) {
		snprintf(err, errlen, "%s: the state directory's name is too long", dir);
		return NULL;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		return NULL;
	}
	buf_init(&b, STORE_RECORD_LINE_MAX);
	record_encode_header(&h, &b);
	if (fsio_write_all(fd, b.p, b.len) < 0 || fsio_fsync(fd) < 0 || fsio_fsync_dir(dir) < 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		buf_free(&b);
		return NULL;
	}
	j = xcalloc(1, sizeof(*j));
	j->fd = fd;
	j->seq = seq;
	j->size = j->synced = j->header = b.len;
	j->refs = 1;
	buf_free(&b);
	return j;
}

int
journal_append(struct journal *j, const char *line, size_t len)
{
	int saved;

	if (j->broken) {
		errno = EIO;
		return -1;
	}
	if (fsio_write_all(j->fd, line, len) == 0) {
		j->size += len;
		return 0;
	}
	saved = errno;
	if (ftruncate(j->fd, (off_t)j->size) < 0)
		j->broken = true;
	errno = saved;
	return -1;
}

int
journal_sync(struct journal *j)
{
	uint64_t size = j->size;

	if (j->broken) {
		errno = EIO;
		return -1;
	}
	if (fsio_fsync(j->fd) < 0) {
		j->broken = true;
		return -1;
	}
	j->synced = size;
	return 0;
}

int
journal_fd(const struct journal *j)
{
	return j->fd;
}

uint64_t
journal_seq(const struct journal *j)
{
	return j->seq;
}

uint64_t
journal_size(const struct journal *j)
{
	return j->size;
}

uint64_t
journal_synced(const struct journal *j)
{
	return j->synced;
}

void
journal_set_synced(struct journal *j, uint64_t size)
{
	if (size > j->synced)
		j->synced = size;
}

bool
journal_broken(const struct journal *j)
{
	return j->broken;
}

bool
journal_empty(const struct journal *j)
{
	return j->size == j->header;
}

void
journal_set_broken(struct journal *j)
{
	j->broken = true;
}

void
journal_hold(struct journal *j)
{
	j->refs++;
}

void
journal_release(struct journal *j)
{
	if (j == NULL || --j->refs > 0)
		return;
	close(j->fd);
	free(j);
}
