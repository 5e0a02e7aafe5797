/* snapshot: writing, installing and searching snapshots; see snapshot.h. */
#include "bot/store/snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/store/fsio.h"
#include "bot/store/journal.h"
#include "bot/store/lineread.h"
#include "rules/base/mem.h"

#define WRITE_CHUNK (1u << 20) /* bytes gathered before each write */
#define SYNC_EVERY  (8u << 20) /* bytes after which writeback is started */
#define READ_CHUNK  (1u << 20) /* bytes per read when copying a base */
#define PROBE_CHUNK 4096       /* bytes per read in a lookup */
#define SCAN_MAX    16384      /* below this span a lookup reads line by line */

struct snapshot {
	int fd;
	char *path;
	struct store_record_header h;
	uint64_t body_start; /* the first record line */
	uint64_t body_end;   /* the end line */
};

/* A snapshot being written: gathers lines and writes them in chunks. */
struct writer {
	int fd;
	const char *path;
	struct buf b;
	uint64_t bytes;
	uint64_t synced; /* writeback started up to here */
	uint64_t records;
	uint64_t copied;
	char *err;
	size_t errlen;
};

int
snapshot_path(char *out, size_t size, const char *dir)
{
	int r = snprintf(out, size, "%s/%s", dir, SNAPSHOT_FILE);

	return r < 0 || (size_t)r >= size ? -1 : 0;
}

int
snapshot_tmp_path(char *out, size_t size, const char *dir, pid_t pid)
{
	int r = snprintf(out, size, "%s/%s%ld", dir, SNAPSHOT_TMP_PREFIX, (long)pid);

	return r < 0 || (size_t)r >= size ? -1 : 0;
}

static int
writer_flush(struct writer *w)
{
	if (w->b.len == 0)
		return 0;
	if (fsio_write_all(w->fd, w->b.p, w->b.len) < 0) {
		snprintf(w->err, w->errlen, "%s: cannot write: %s", w->path, strerror(errno));
		return -1;
	}
	w->bytes += w->b.len;
	buf_reset(&w->b);
	/* Start writeback as we go (and wait for the chunk before last), so a
	 * large snapshot never piles up dirty pages that would throttle the
	 * loop's own journal writes (Redis: rdb-save-incremental-fsync). */
	if (w->bytes - w->synced >= SYNC_EVERY) {
		sync_file_range(w->fd, (off_t)w->synced, (off_t)(w->bytes - w->synced),
		                SYNC_FILE_RANGE_WRITE);
		if (w->synced >= SYNC_EVERY)
			sync_file_range(w->fd, (off_t)(w->synced - SYNC_EVERY), SYNC_EVERY,
			                SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			                    SYNC_FILE_RANGE_WAIT_AFTER);
		w->synced = w->bytes;
	}
	return 0;
}

/* Adds one encoded line (already in w->b) and flushes when enough. */
static int
writer_line_done(struct writer *w)
{
	return w->b.len >= WRITE_CHUNK ? writer_flush(w) : 0;
}

static int
writer_record(struct writer *w, const struct store_record *r)
{
	if (store_record_encode(r, store_record_builtin_mods(), &w->b) < 0) {
		snprintf(w->err, w->errlen, "%s: the record of '%s' cannot be saved", w->path,
		         r->key);
		return -1;
	}
	if (r->kind != STORE_RECORD_END)
		w->records++;
	return writer_line_done(w);
}

static int
writer_raw(struct writer *w, const char *line, size_t len)
{
	buf_add(&w->b, line, len);
	buf_addc(&w->b, '\n');
	w->records++;
	w->copied++;
	return writer_line_done(w);
}

/* Collects pointers to every channel or user, for sorting. */
struct ptrs {
	const void **v;
	size_t n, cap;
};

static void
ptrs_add(struct ptrs *p, const void *x)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	p->v[p->n++] = x;
}

static void
collect_channel(struct channel *ch, void *ctx)
{
	ptrs_add(ctx, ch);
}

static void
collect_user(struct user *u, void *ctx)
{
	ptrs_add(ctx, u);
}

static int
cmp_channel(const void *a, const void *b)
{
	return strcmp(channel_key(*(const struct channel *const *)a),
	              channel_key(*(const struct channel *const *)b));
}

static int
cmp_user(const void *a, const void *b)
{
	return strcmp(user_key(*(const struct user *const *)a),
	              user_key(*(const struct user *const *)b));
}

static int
write_channel(struct writer *w, const struct channel *ch)
{
	struct store_record r;

	store_record_of_channel(&r, ch);
	return store_record_is_empty(&r) ? 0 : writer_record(w, &r);
}

/* Checks one base line: a channel in key order after prev, or the first
 * user (*kind tells). Returns 0, or -1 with w->err. */
static int
base_line(struct writer *w, const struct snapshot *base, enum lineread_status st, const char *line,
          size_t len, uint64_t at, enum store_record_kind *kind, char *key, const char *prev)
{
	char why[256];

	if (st != LINEREAD_LINE)
		snprintf(why, sizeof(why), "cannot read it");
	else if (record_peek(line, len, kind, key, why, sizeof(why)) < 0)
		;
	else if (*kind == STORE_RECORD_CHANNEL && strcmp(key, prev) <= 0)
		snprintf(why, sizeof(why), "channels out of order");
	else
		return 0;
	snprintf(w->err, w->errlen, "%s: record at byte %llu: %s", base->path,
	         (unsigned long long)at, why);
	return -1;
}

/* Writes the memory's channels merged with base's (memory wins). */
static int
write_channels(struct writer *w, const struct ptrs *mem, struct snapshot *base)
{
	char prev[KEY_MAX] = "", key[KEY_MAX];
	struct lineread lr;
	const char *line = NULL;
	size_t i = 0, len = 0;
	uint64_t at = base != NULL ? base->body_start : 0;
	int rc = 0;

	if (base != NULL)
		lineread_init(&lr, base->fd, base->body_start, READ_CHUNK, STORE_RECORD_LINE_MAX);
	while (rc == 0 && base != NULL && at < base->body_end) {
		enum lineread_status st = lineread_next(&lr, &line, &len, &at);
		enum store_record_kind kind = STORE_RECORD_END;
		int c = 1;

		rc = base_line(w, base, st, line, len, at, &kind, key, prev);
		if (rc < 0 || kind != STORE_RECORD_CHANNEL)
			break;
		memcpy(prev, key, sizeof(prev));
		while (rc == 0 && i < mem->n && (c = strcmp(channel_key(mem->v[i]), key)) < 0)
			rc = write_channel(w, mem->v[i++]);
		if (rc == 0 && c == 0)
			rc = write_channel(w, mem->v[i++]);
		else if (rc == 0)
			rc = writer_raw(w, line, len);
		at += len + 1;
	}
	if (base != NULL)
		lineread_free(&lr);
	while (rc == 0 && i < mem->n)
		rc = write_channel(w, mem->v[i++]);
	return rc;
}

static int
write_all_records(struct writer *w, struct state *st, struct snapshot *base, int64_t taken,
                  uint64_t next_journal)
{
	struct store_record_header h = {.version = STORE_RECORD_VERSION,
	                                .file = STORE_RECORD_SNAPSHOT,
	                                .taken = taken,
	                                .next_journal = next_journal};
	struct ptrs chans = {0}, users = {0};
	struct store_record end = {.kind = STORE_RECORD_END};
	int rc;

	state_each_channel(st, collect_channel, &chans);
	state_each_user(st, collect_user, &users);
	if (chans.n > 0)
		qsort(chans.v, chans.n, sizeof(*chans.v), cmp_channel);
	if (users.n > 0)
		qsort(users.v, users.n, sizeof(*users.v), cmp_user);
	record_encode_header(&h, &w->b);
	rc = write_channels(w, &chans, base);
	for (size_t i = 0; rc == 0 && i < users.n; i++) {
		struct store_record r;

		store_record_of_user(&r, users.v[i]);
		rc = writer_record(w, &r);
	}
	end.count = w->records;
	if (rc == 0)
		rc = writer_record(w, &end);
	if (rc == 0)
		rc = writer_flush(w);
	free(chans.v);
	free(users.v);
	return rc;
}

int
snapshot_write(struct state *st, struct snapshot *base, const char *path, int64_t taken,
               uint64_t next_journal, struct snapshot_stats *stats, char *err, size_t errlen)
{
	struct writer w = {.path = path, .err = err, .errlen = errlen};
	int rc;

	if (base != NULL && base->h.version != STORE_RECORD_VERSION) {
		snprintf(err, errlen, "%s: format version %d cannot be merged", base->path,
		         base->h.version);
		return -1;
	}
	w.fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (w.fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	buf_init(&w.b, 2 * WRITE_CHUNK + 2 * STORE_RECORD_LINE_MAX);
	rc = write_all_records(&w, st, base, taken, next_journal);
	if (rc == 0 && fsio_fsync(w.fd) < 0) {
		snprintf(err, errlen, "%s: cannot fsync: %s", path, strerror(errno));
		rc = -1;
	}
	buf_free(&w.b);
	close(w.fd);
	if (rc < 0) {
		unlink(path);
		return -1;
	}
	if (stats != NULL) {
		stats->records = w.records;
		stats->bytes = w.bytes;
		stats->copied = w.copied;
	}
	return 0;
}

int
snapshot_install(const char *dir, const char *tmp, uint64_t next_journal, char *err, size_t errlen)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	if (snapshot_path(path, sizeof(path), dir) < 0) {
		snprintf(err, errlen, "%s: the state directory's name is too long", dir);
		return -1;
	}
	if (fsio_rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		return -1;
	}
	if (fsio_fsync_dir(dir) < 0) {
		snprintf(err, errlen, "%s: cannot fsync the directory: %s", dir, strerror(errno));
		return -1;
	}
	d = opendir(dir);
	if (d == NULL)
		return 0; /* obsolete journals are removed at the next start */
	while ((e = readdir(d)) != NULL) {
		uint64_t seq;

		if (journal_parse_name(e->d_name, &seq) && seq < next_journal &&
		    journal_path(path, sizeof(path), dir, seq) == 0)
			unlink(path);
	}
	closedir(d);
	return 0;
}

/* Reads the end line: the last line of the file. */
static int
read_end(struct snapshot *s, char *err, size_t errlen)
{
	char tail[512], why[256];
	struct store_record r;
	struct stat sb;
	ssize_t n;
	size_t len, i;

	if (fstat(s->fd, &sb) < 0 || (uint64_t)sb.st_size <= s->body_start) {
		snprintf(err, errlen, "%s: the file ends after its header (truncated)", s->path);
		return -1;
	}
	len = (uint64_t)sb.st_size - s->body_start < sizeof(tail)
	          ? (size_t)((uint64_t)sb.st_size - s->body_start)
	          : sizeof(tail);
	n = pread(s->fd, tail, len, (off_t)((uint64_t)sb.st_size - len));
	if (n != (ssize_t)len || tail[len - 1] != '\n') {
		snprintf(err, errlen, "%s: the file does not end with a whole line (truncated)",
		         s->path);
		return -1;
	}
	for (i = len - 1; i > 0 && tail[i - 1] != '\n'; i--)
		;
	if ((i == 0 && (uint64_t)sb.st_size - len != s->body_start) ||
	    store_record_decode(tail + i, len - 1 - i, s->h.version, store_record_builtin_mods(),
	                        &r, why, sizeof(why)) < 0 ||
	    r.kind != STORE_RECORD_END) {
		store_record_clear(&r, store_record_builtin_mods());
		snprintf(err, errlen, "%s: the file does not end with its end line (truncated)",
		         s->path);
		return -1;
	}
	s->body_end = (uint64_t)sb.st_size - len + i;
	return 0;
}

struct snapshot *
snapshot_open(const char *path, char *err, size_t errlen)
{
	struct snapshot *s = xcalloc(1, sizeof(*s));
	struct lineread lr;
	const char *line;
	size_t len;
	uint64_t at;
	char why[256];

	s->path = xstrdup(path);
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		snapshot_close(s);
		return NULL;
	}
	lineread_init(&lr, s->fd, 0, PROBE_CHUNK, STORE_RECORD_LINE_MAX);
	if (lineread_next(&lr, &line, &len, &at) != LINEREAD_LINE ||
	    store_record_decode_header(line, len, &s->h, why, sizeof(why)) < 0 ||
	    s->h.file != STORE_RECORD_SNAPSHOT) {
		snprintf(err, errlen, "%s:1: not a valid snapshot header", path);
		lineread_free(&lr);
		snapshot_close(s);
		return NULL;
	}
	s->body_start = len + 1;
	lineread_free(&lr);
	if (read_end(s, err, errlen) < 0) {
		snapshot_close(s);
		return NULL;
	}
	return s;
}

void
snapshot_close(struct snapshot *s)
{
	if (s == NULL)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	free(s);
}

int64_t
snapshot_taken(const struct snapshot *s)
{
	return s->h.taken;
}

uint64_t
snapshot_next_journal(const struct snapshot *s)
{
	return s->h.next_journal;
}

/* Reads the line starting at off: *cmp is its order against key (users
 * sort after every channel), *next the offset of the following line. */
static int
probe(struct snapshot *s, uint64_t off, const char *key, int *cmp, uint64_t *next,
      struct store_record *found, char *err, size_t errlen)
{
	struct lineread lr;
	const char *line;
	size_t len;
	uint64_t at;
	enum store_record_kind kind;
	char k[KEY_MAX], why[256];
	int rc = -1;

	lineread_init(&lr, s->fd, off, PROBE_CHUNK, STORE_RECORD_LINE_MAX);
	if (lineread_next(&lr, &line, &len, &at) != LINEREAD_LINE) {
		snprintf(err, errlen, "%s: cannot read the record at byte %llu", s->path,
		         (unsigned long long)off);
		goto out;
	}
	*next = at + len + 1;
	if (record_peek(line, len, &kind, k, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: record at byte %llu: %s", s->path,
		         (unsigned long long)off, why);
		goto out;
	}
	*cmp = kind == STORE_RECORD_CHANNEL ? strcmp(k, key) : 1;
	rc = 0;
	if (*cmp == 0 && store_record_decode(line, len, s->h.version, store_record_builtin_mods(),
	                                     found, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: record at byte %llu: %s", s->path,
		         (unsigned long long)off, why);
		rc = -1;
	}
out:
	lineread_free(&lr);
	return rc;
}

/* The offset of the first line that starts after byte mid. */
static int
line_after(struct snapshot *s, uint64_t mid, uint64_t *start, char *err, size_t errlen)
{
	struct lineread lr;
	const char *line;
	size_t len;
	uint64_t at;
	int rc = 0;

	lineread_init(&lr, s->fd, mid, PROBE_CHUNK, STORE_RECORD_LINE_MAX);
	if (lineread_next(&lr, &line, &len, &at) == LINEREAD_LINE) {
		*start = at + len + 1;
	} else {
		snprintf(err, errlen, "%s: cannot read at byte %llu", s->path,
		         (unsigned long long)mid);
		rc = -1;
	}
	lineread_free(&lr);
	return rc;
}

int
snapshot_find(struct snapshot *s, const char *key, struct store_record *r, char *err, size_t errlen)
{
	uint64_t lo = s->body_start, hi = s->body_end, start, next;
	int cmp;

	/* Lines starting before lo sort before key; those at hi or later after. */
	while (hi - lo > SCAN_MAX) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (line_after(s, mid, &start, err, errlen) < 0)
			return -1;
		if (start >= hi)
			start = lo; /* one long line spans mid..hi: step from lo */
		if (probe(s, start, key, &cmp, &next, r, err, errlen) < 0)
			return -1;
		if (cmp == 0)
			return 1;
		if (cmp < 0)
			lo = next;
		else if (start == lo)
			return 0;
		else
			hi = start;
	}
	while (lo < hi) {
		if (probe(s, lo, key, &cmp, &next, r, err, errlen) < 0)
			return -1;
		if (cmp == 0)
			return 1;
		if (cmp > 0)
			return 0;
		lo = next;
	}
	return 0;
}
