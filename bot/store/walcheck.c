/* walcheck: SQLite's write-ahead log read before SQLite opens it (walcheck.h). */
#include "bot/store/walcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/fsio.h"

#define WAL_MAGIC   0x377f0682u
#define WAL_VERSION 3007000u

static uint32_t
get32be(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t
get32le(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/*
 * SQLite's WAL checksum of n bytes (a multiple of 8) at p, continuing from
 * s[0], s[1]: the bytes as 32-bit words, big-endian when big, each pair
 * (x0, x1) adding s0 += x0 + s1, s1 += x1 + s0.
 */
static void
wal_sum(bool big, const unsigned char *p, size_t n, uint32_t s[2])
{
	uint32_t s0 = s[0], s1 = s[1];

	for (size_t i = 0; i + 8 <= n; i += 8) {
		s0 += (big ? get32be(p + i) : get32le(p + i)) + s1;
		s1 += (big ? get32be(p + i + 4) : get32le(p + i + 4)) + s0;
	}
	s[0] = s0;
	s[1] = s1;
}

/* Whether the header at p passes the checks SQLite's recovery makes. */
static bool
header_ok(const unsigned char *p, uint32_t *page_size)
{
	uint32_t magic = get32be(p), ps = get32be(p + 8), s[2] = {0, 0};

	if ((magic & ~1u) != WAL_MAGIC || get32be(p + 4) != WAL_VERSION || ps < 512 || ps > 65536 ||
	    (ps & (ps - 1)) != 0)
		return false;
	wal_sum(magic & 1, p, 24, s);
	if (s[0] != get32be(p + 24) || s[1] != get32be(p + 28))
		return false;
	*page_size = ps;
	return true;
}

/* Counts, from frame `from` on, the frames with the header's salts. */
static void
count_current(const unsigned char *p, size_t fsz, long from, struct walcheck *out)
{
	const unsigned char *salts = p + 16;

	for (long i = from; i < out->frames; i++) {
		const unsigned char *f = p + WALCHECK_HDR + (size_t)i * fsz;

		if (memcmp(f + 8, salts, 8) != 0)
			continue;
		out->lost_frames++;
		if (get32be(f + 4) != 0)
			out->lost_commits++;
	}
}

bool
walcheck_scan(const unsigned char *p, size_t n, struct walcheck *out)
{
	uint32_t s[2];
	size_t fsz;
	bool big;

	memset(out, 0, sizeof(*out));
	out->first_bad = -1;
	if (n < WALCHECK_HDR)
		return false;
	if (!header_ok(p, &out->page_size)) {
		/* Without a page size no frame can be told apart: any byte past
		 * the smallest frame is taken for one. */
		out->page_size = 0;
		out->bad_header = n >= WALCHECK_HDR + WALCHECK_FRAME_HDR + 512;
		out->damaged = out->bad_header;
		return out->damaged;
	}
	fsz = WALCHECK_FRAME_HDR + out->page_size;
	out->frames = (long)((n - WALCHECK_HDR) / fsz);
	big = get32be(p) & 1;
	s[0] = get32be(p + 24);
	s[1] = get32be(p + 28);
	for (long i = 0; i < out->frames; i++) {
		const unsigned char *f = p + WALCHECK_HDR + (size_t)i * fsz;
		bool current = memcmp(f + 8, p + 16, 8) == 0;

		if (current && get32be(f) != 0) {
			wal_sum(big, f, 8, s);
			wal_sum(big, f + WALCHECK_FRAME_HDR, out->page_size, s);
			if (s[0] == get32be(f + 16) && s[1] == get32be(f + 20)) {
				out->readable++;
				if (get32be(f + 4) != 0)
					out->commits++;
				continue;
			}
		}
		/* Recovery stops here: damage when this frame or a later one
		 * belongs to the current generation. */
		count_current(p, fsz, i, out);
		if (!current && out->lost_frames > 0) {
			out->lost_frames++;
			if (get32be(f + 4) != 0)
				out->lost_commits++;
		}
		if (out->lost_frames > 0)
			out->first_bad = i;
		break;
	}
	out->damaged = out->first_bad >= 0;
	return out->damaged;
}

/* The name for a copy of log: log.damaged-TIME, or with .1, .2, ... added
 * when taken. Opens it (created, 0600) and returns its descriptor, or -1. */
static int
open_copy(const char *log, time_t now, char *name, size_t len)
{
	char stamp[32];
	struct tm tm;
	int fd = -1;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (int k = 0; k < 1000 && fd < 0; k++) {
		int r = k == 0 ? snprintf(name, len, "%s.damaged-%s", log, stamp)
		               : snprintf(name, len, "%s.damaged-%s.%d", log, stamp, k);

		if (r < 0 || (size_t)r >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}

/* Copies n bytes at p to a new file named as open_copy() says, durably.
 * Returns 0, or -1 with errno set and no copy left behind. */
static int
keep_copy(const char *log, const unsigned char *p, size_t n, time_t now, char *name, size_t len)
{
	char dir[4400];
	const char *slash;
	int fd, e;

	fd = open_copy(log, now, name, len);
	if (fd < 0)
		return -1;
	if (fsio_write_all(fd, p, n) < 0 || fsio_fsync(fd) < 0) {
		e = errno;
		close(fd);
		fsio_unlink(name);
		errno = e;
		return -1;
	}
	close(fd);
	slash = strrchr(name, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash == NULL ? 1 : (int)(slash - name),
	         slash == NULL ? "." : name);
	if (fsio_fsync_dir(dir) < 0) {
		e = errno;
		fsio_unlink(name);
		errno = e;
		return -1;
	}
	return 0;
}

/* The sentence for a damaged log. */
static void
describe(const char *log, const struct walcheck *w, const char *copy, int copy_errno, char *msg,
         size_t msglen)
{
	char what[256];

	if (w->bad_header)
		snprintf(what, sizeof(what),
		         "has a damaged header, so SQLite ignores all of it: the changes it "
		         "holds beyond the database are lost");
	else
		snprintf(what, sizeof(what),
		         "has %ld frame%s of its current generation that cannot be read (from "
		         "frame %ld on, holding %ld commit%s), which SQLite drops as it opens "
		         "the database: those changes are lost",
		         w->lost_frames, w->lost_frames == 1 ? "" : "s", w->first_bad + 1,
		         w->lost_commits, w->lost_commits == 1 ? "" : "s");
	snprintf(msg, msglen,
	         "the database log %s %s (a damaged disk, or a write cut short by a crash or "
	         "power cut); %s%s%s, and delver starts on what SQLite recovers",
	         log, what,
	         copy != NULL ? "a byte-for-byte copy of the log is kept as "
	                      : "no copy of the log could be kept (",
	         copy != NULL ? copy : strerror(copy_errno), copy != NULL ? "" : ")");
}

int
walcheck_keep(const char *db_path, time_t now, char *msg, size_t msglen)
{
	char log[4400], copy[4500];
	struct walcheck w;
	struct stat sb;
	unsigned char *p;
	int fd, rc = 0;

	if (snprintf(log, sizeof(log), "%s-wal", db_path) >= (int)sizeof(log)) {
		snprintf(msg, msglen, "the database path %s is too long", db_path);
		return -1;
	}
	fd = open(log, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &sb) < 0) {
		snprintf(msg, msglen, "cannot read the database log %s: %s", log, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size < WALCHECK_HDR) {
		close(fd);
		return 0;
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(msg, msglen, "cannot read the database log %s: %s", log, strerror(errno));
		return -1;
	}
	if (walcheck_scan(p, (size_t)sb.st_size, &w)) {
		bool kept = keep_copy(log, p, (size_t)sb.st_size, now, copy, sizeof(copy)) == 0;

		describe(log, &w, kept ? copy : NULL, errno, msg, msglen);
		rc = 1;
	}
	munmap(p, (size_t)sb.st_size);
	return rc;
}
