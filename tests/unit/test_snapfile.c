/* Unit tests for bot/store/snapfile.c: compressed snapshot files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/store/snapfile.h"
#include "tests/unit/helpers/faultio.h"
#include "tests/unit/helpers/slurp.h"

/* Writes n bytes of a pattern (compressible, not trivially) to path. */
static void
write_pattern(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc((int)("SQLite format 3\0delver"[i % 22] ^ (i / 4096 % 7)), f);
	fclose(f);
}

/* A snapshot compressed and expanded again is the same bytes; the
 * database as written goes once compressed; the compressed file is private
 * (0600) and smaller. */
static void
round_trip(void **state)
{
	char *dir = tmpdir_new(), db[512], gz[600], out[600], err[512];
	char *a, *b;
	size_t na, nb;
	struct stat sb;

	snprintf(db, sizeof(db), "%s/delver-20260101T000000Z.db", dir);
	snprintf(gz, sizeof(gz), "%s.gz", db);
	write_pattern(db, 3u << 20);
	a = slurp(db, &na);
	assert_false(snapfile_compressed(db));
	assert_int_equal(snapfile_compress(db, gz, err, sizeof(err)), 0);
	assert_int_equal(access(db, F_OK), -1);
	assert_true(snapfile_compressed(gz));
	assert_int_equal(stat(gz, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_true((size_t)sb.st_size < na / 4);
	assert_int_equal(snapfile_expand(gz, dir, out, sizeof(out), err, sizeof(err)), 1);
	assert_non_null(strstr(out, "/delver-20260101T000000Z.db.expanded"));
	b = slurp(out, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	/* A database as it is: nothing to expand. */
	assert_int_equal(snapfile_expand(out, dir, db, sizeof(db), err, sizeof(err)), 0);
	free(a);
	free(b);
	unlink(out);
	unlink(gz);
	tmpdir_remove(dir);
}

/* A compressed file cut short: one sentence, nothing left behind. */
static void
cut_short_is_refused(void **state)
{
	char *dir = tmpdir_new(), db[512], gz[512], out[600], err[512];
	struct stat sb;

	snprintf(db, sizeof(db), "%s/s.db", dir);
	snprintf(gz, sizeof(gz), "%s/s.db.gz", dir);
	write_pattern(db, 1u << 20);
	assert_int_equal(snapfile_compress(db, gz, err, sizeof(err)), 0);
	assert_int_equal(stat(gz, &sb), 0);
	assert_int_equal(truncate(gz, sb.st_size / 2), 0);
	assert_int_equal(snapfile_expand(gz, dir, out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "it is not a whole gzip file"));
	assert_int_equal(access(out, F_OK), -1);
	unlink(gz);
	tmpdir_remove(dir);
}

/* Bytes appended after a whole gzip stream (gzip -t warns of "trailing
 * garbage"; zlib's reader passes over them): a damaged backup is refused,
 * not restored as if whole. */
static void
appended_bytes_are_refused(void **state)
{
	char *dir = tmpdir_new(), db[512], gz[512], out[600], err[512];
	FILE *f;

	snprintf(db, sizeof(db), "%s/s.db", dir);
	snprintf(gz, sizeof(gz), "%s/s.db.gz", dir);
	write_pattern(db, 1u << 20);
	assert_int_equal(snapfile_compress(db, gz, err, sizeof(err)), 0);
	assert_non_null(f = fopen(gz, "ab"));
	assert_true(fputs("garbage", f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(snapfile_expand(gz, dir, out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bytes follow the end of its gzip stream"));
	assert_int_equal(access(out, F_OK), -1);
	unlink(gz);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(round_trip),
	    cmocka_unit_test(cut_short_is_refused),
	    cmocka_unit_test(appended_bytes_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
