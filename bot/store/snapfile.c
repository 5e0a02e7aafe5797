/* snapfile: compressed snapshot files; see snapfile.h. */
#include "bot/store/snapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "bot/fsio.h"
#include "bot/store/statedir.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define CHUNK (256u << 10)

bool
snapfile_compressed(const char *path)
{
	unsigned char head[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	bool gz;

	if (fd < 0)
		return false;
	gz = read(fd, head, 2) == 2 && head[0] == 0x1f && head[1] == 0x8b;
	close(fd);
	return gz;
}

/* The directory of path, into dir. */
static void
dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	snprintf(dir, len, "%.*s", slash == NULL ? 1 : (int)(slash - path + (slash == path)),
	         slash == NULL ? "." : path);
}

/* Whether the gzip file gz expands whole to len bytes whose CRC-32 is crc
 * (buf: CHUNK bytes to read into). */
static bool
gz_holds(const char *gz, uLong crc, off_t len, char *buf)
{
	gzFile z = gzopen(gz, "rb");
	uLong got = crc32(0L, Z_NULL, 0);
	off_t total = 0;
	int n;

	if (z == NULL)
		return false;
	while ((n = gzread(z, buf, CHUNK)) > 0) {
		got = crc32(got, (const Bytef *)buf, (uInt)n);
		total += n;
	}
	/* A stream cut short reads as an end of file: gzclose tells it. */
	return gzclose(z) == Z_OK && n == 0 && total == len && got == crc;
}

int
snapfile_compress(const char *db, const char *gz, char *err, size_t errlen)
{
	char tmp[4400], dir[4400], *chunk = NULL;
	int in = -1, out = -1, n = 0;
	gzFile z = NULL;
	uLong crc = crc32(0L, Z_NULL, 0);
	off_t len = 0;
	struct stat st;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", gz) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "the snapshot's name is too long");
		return -1;
	}
	unlink(tmp);
	in = open(db, O_RDONLY | O_CLOEXEC);
	if (in < 0 || statedir_create_file(tmp) < 0 || (out = statedir_open(tmp, O_WRONLY)) < 0) {
		snprintf(err, errlen, "cannot compress %s into %s: %s", db, tmp,
		         statedir_strerror(errno));
		goto fail;
	}
	/* gzclose closes the descriptor it is given: a second one stays to
	 * fsync the file. */
	z = gzdopen(dup(out), "wb1");
	if (z == NULL) {
		snprintf(err, errlen, "cannot compress %s: out of memory", db);
		goto fail;
	}
	chunk = xmalloc(CHUNK);
	while ((n = (int)read(in, chunk, CHUNK)) > 0) {
		if (gzwrite(z, chunk, (unsigned)n) != n)
			break;
		crc = crc32(crc, (const Bytef *)chunk, (uInt)n);
		len += n;
	}
	if (n != 0 || gzclose(z) != Z_OK) {
		if (n != 0 && z != NULL)
			gzclose(z);
		z = NULL;
		snprintf(err, errlen, "cannot compress %s into %s: %s", db, tmp,
		         errno != 0 ? strerror(errno) : "a write failed");
		goto fail;
	}
	z = NULL;
	if (fstat(in, &st) < 0 || st.st_size != len || !gz_holds(tmp, crc, len, chunk)) {
		snprintf(err, errlen,
		         "the compressed copy %s does not read back as %s, so it is not kept", tmp,
		         db);
		goto fail;
	}
	dir_of(gz, dir, sizeof(dir));
	if (fsio_fsync(out) < 0 || fsio_rename(tmp, gz) < 0 || fsio_fsync_dir(dir) < 0) {
		snprintf(err, errlen, "cannot install %s: %s", gz, strerror(errno));
		goto fail;
	}
	close(out);
	close(in);
	free(chunk);
	fsio_unlink(db);
	return 0;
fail:
	free(chunk);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	unlink(tmp);
	return -1;
}

/* Whether the gzip file gz ends with the trailer of data of len bytes
 * whose CRC-32 is crc: its last 8 bytes, both little-endian, the size mod
 * 2^32. zlib's reader passes over bytes after a stream's end that start
 * no other stream; this tells such a file from a whole one. */
static bool
gz_ends_with(const char *gz, uLong crc, unsigned long long len)
{
	unsigned char t[8];
	unsigned long tcrc, tlen;
	int fd = open(gz, O_RDONLY | O_CLOEXEC);
	off_t end;
	bool ok;

	if (fd < 0)
		return false;
	end = lseek(fd, 0, SEEK_END);
	ok = end >= 8 && pread(fd, t, sizeof(t), end - 8) == (ssize_t)sizeof(t);
	close(fd);
	if (!ok)
		return false;
	tcrc = (unsigned long)t[0] | (unsigned long)t[1] << 8 | (unsigned long)t[2] << 16 |
	       (unsigned long)t[3] << 24;
	tlen = (unsigned long)t[4] | (unsigned long)t[5] << 8 | (unsigned long)t[6] << 16 |
	       (unsigned long)t[7] << 24;
	return tcrc == (crc & 0xffffffffUL) && tlen == (unsigned long)(len & 0xffffffffULL);
}

/* Writes what gzread gives of src (expanded when compressed, as it is
 * when not) into out, a new file (mode 0600), fsynced. A compressed src
 * must be one whole gzip stream and nothing after it. Returns 0, or -1
 * with one sentence in err and nothing left behind. */
static int
copy_into(const char *src, const char *out, char *err, size_t errlen)
{
	char buf[CHUNK / 4];
	gzFile z;
	int fd, n;
	bool cut;
	uLong crc = crc32(0L, Z_NULL, 0);
	unsigned long long total = 0;

	unlink(out);
	z = gzopen(src, "rb");
	if (z == NULL || statedir_create_file(out) < 0 || (fd = statedir_open(out, O_WRONLY)) < 0) {
		snprintf(err, errlen, "cannot %s %s into %s: %s",
		         snapfile_compressed(src) ? "expand" : "copy", src, out,
		         statedir_strerror(errno));
		if (z != NULL)
			gzclose(z);
		unlink(out);
		return -1;
	}
	while ((n = gzread(z, buf, sizeof(buf))) > 0) {
		if (fsio_write_all(fd, buf, (size_t)n) < 0)
			break;
		crc = crc32(crc, (const Bytef *)buf, (uInt)n);
		total += (unsigned long long)n;
	}
	/* A stream cut short reads as an end of file: gzclose tells it
	 * (Z_BUF_ERROR). */
	cut = gzclose(z) != Z_OK;
	if (n == 0 && !cut && snapfile_compressed(src) && !gz_ends_with(src, crc, total)) {
		snprintf(err, errlen,
		         "cannot expand %s: bytes follow the end of its gzip stream (a damaged or "
		         "appended-to file)",
		         src);
		close(fd);
		unlink(out);
		return -1;
	}
	if (n != 0 || cut || fsio_fsync(fd) < 0) {
		snprintf(err, errlen, "cannot %s %s: %s",
		         snapfile_compressed(src) ? "expand" : "copy", src,
		         n < 0 || cut ? "it is not a whole gzip file" : strerror(errno));
		close(fd);
		unlink(out);
		return -1;
	}
	close(fd);
	return 0;
}

int
snapfile_copy_in(const char *file, const char *dir, char *out, size_t outlen, char *err,
                 size_t errlen)
{
	const char *base = strrchr(file, '/');
	bool gz = snapfile_compressed(file);
	char wal[4500], wal_copy[4500];
	struct stat sb;
	size_t blen;

	if (stat(file, &sb) < 0 || access(file, R_OK) < 0) {
		snprintf(err, errlen, "cannot read the snapshot file %s: %s", file,
		         strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "the snapshot file %s is %s, not a file", file,
		         S_ISDIR(sb.st_mode) ? "a directory" : "a device, socket or fifo");
		return -1;
	}
	base = base != NULL ? base + 1 : file;
	blen = strlen(base);
	if (gz && blen > 3 && strcmp(base + blen - 3, ".gz") == 0)
		blen -= 3;
	if (snprintf(out, outlen, "%s/%.*s.%s", dir, (int)blen, base, gz ? "expanded" : "copy") >=
	    (int)outlen) {
		snprintf(err, errlen, "the name of %s is too long", file);
		return -1;
	}
	if (copy_into(file, out, err, errlen) < 0)
		return -1;
	/* A database's log beside it holds commits too. */
	snprintf(wal, sizeof(wal), "%s-wal", file);
	snprintf(wal_copy, sizeof(wal_copy), "%s-wal", out);
	if (!gz && access(wal, F_OK) == 0 && copy_into(wal, wal_copy, err, errlen) < 0) {
		unlink(out);
		return -1;
	}
	return gz ? 1 : 2;
}

int
snapfile_expand(const char *file, const char *dir, char *out, size_t outlen, char *err,
                size_t errlen)
{
	return snapfile_compressed(file) ? snapfile_copy_in(file, dir, out, outlen, err, errlen)
	                                 : 0;
}

void
snapfile_remove_sides(const char *db)
{
	static const char *const sides[] = {"-wal", "-shm", "-journal"};
	char path[4500];

	for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", db, sides[i]);
		unlink(path);
	}
}

void
snapfile_remove(const char *expanded)
{
	unlink(expanded);
	snapfile_remove_sides(expanded);
}

void
snapfile_name_original(char *why, size_t len, const char *plain, const char *file)
{
	size_t n = strlen(plain);
	const char *at;
	struct buf b;

	if (n == 0 || len == 0 || strstr(why, plain) == NULL)
		return;
	buf_init(&b, len);
	for (const char *p = why; *p != '\0'; p = at + n) {
		if ((at = strstr(p, plain)) == NULL) {
			buf_adds(&b, p);
			break;
		}
		buf_add(&b, p, (size_t)(at - p));
		buf_addf(&b, "%s%s", file,
		         !snapfile_compressed(file)      ? ""
		         : at[n] == ':' || at[n] == '\0' ? " (once expanded)"
		                                         : ", once expanded,");
	}
	snprintf(why, len, "%s", buf_str(&b));
	buf_free(&b);
}

bool
snapfile_is_snapshot(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW), n;
	gzFile z;

	if (fd < 0)
		return false;
	/* gzread passes a file that is not gzip through as it is. */
	if ((z = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		return false;
	}
	n = gzread(z, head, sizeof(head));
	gzclose(z);
	return n == (int)sizeof(head) && memcmp(head, magic, sizeof(magic)) == 0;
}
