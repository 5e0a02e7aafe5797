/* Unit tests for bot/store/replaced.c: the replaced-TIME names. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/store/replaced.h"
#include "tests/unit/helpers/faultio.h"

/* 2026-01-02 03:04:05 UTC */
#define AT ((time_t)1767323045)

/* Restores in one second get -2, -3... after the first; each directory is
 * new and private, and each name reads back as made. */
static void
made_in_one_second(void **state)
{
	char *dir = tmpdir_new(), out[600], want[600], stamp[REPLACED_STAMP_LEN + 1];
	struct stat sb;

	(void)state;
	for (int k = 1; k <= 3; k++) {
		assert_int_equal(replaced_make(out, sizeof(out), dir, AT), 0);
		if (k == 1)
			snprintf(want, sizeof(want), "%s/replaced-20260102T030405Z", dir);
		else
			snprintf(want, sizeof(want), "%s/replaced-20260102T030405Z-%d", dir, k);
		assert_string_equal(out, want);
		assert_int_equal(stat(out, &sb), 0);
		assert_true(S_ISDIR(sb.st_mode));
		assert_int_equal(sb.st_mode & 0777, 0700);
		assert_int_equal(replaced_rank(strrchr(out, '/') + 1, stamp), k);
		assert_string_equal(stamp, "20260102T030405Z");
	}
	for (int k = 3; k >= 1; k--) {
		if (k == 1)
			snprintf(want, sizeof(want), "%s/replaced-20260102T030405Z", dir);
		else
			snprintf(want, sizeof(want), "%s/replaced-20260102T030405Z-%d", dir, k);
		assert_int_equal(rmdir(want), 0);
	}
	tmpdir_remove(dir);
}

/* A file in the way is passed over too; a name that does not fit says
 * so and makes nothing. */
static void
in_the_way_and_too_long(void **state)
{
	char *dir = tmpdir_new(), out[600], path[600];
	char small[24];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/replaced-20260102T030405Z", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(replaced_make(out, sizeof(out), dir, AT), 0);
	assert_string_equal(strrchr(out, '/') + 1, "replaced-20260102T030405Z-2");
	assert_int_equal(rmdir(out), 0);
	assert_int_equal(unlink(path), 0);
	errno = 0;
	assert_int_equal(replaced_make(small, sizeof(small), dir, AT), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	tmpdir_remove(dir);
}

static void
names_read(void **state)
{
	char stamp[REPLACED_STAMP_LEN + 1];

	(void)state;
	assert_int_equal(replaced_rank("replaced-20200101T000000Z", stamp), 1);
	assert_string_equal(stamp, "20200101T000000Z");
	assert_int_equal(replaced_rank("replaced-20200101T000000Z-2", stamp), 2);
	assert_int_equal(replaced_rank("replaced-20200101T000000Z-100", stamp), 100);
	/* Not one of delver's names. */
	assert_int_equal(replaced_rank("replaced-20200101T000000Z-1", stamp), -1);
	assert_int_equal(replaced_rank("replaced-20200101T000000Z-", stamp), -1);
	assert_int_equal(replaced_rank("replaced-20200101T000000Z-2x", stamp), -1);
	assert_int_equal(replaced_rank("replaced-20200101T000000Zx", stamp), -1);
	assert_int_equal(replaced_rank("replaced-2020", stamp), -1);
	assert_int_equal(replaced_rank("replaced-", stamp), -1);
	assert_int_equal(replaced_rank("replace", stamp), -1);
	assert_int_equal(replaced_rank("delver.db", stamp), -1);
	assert_int_equal(replaced_rank("", stamp), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(made_in_one_second),
	    cmocka_unit_test(in_the_way_and_too_long),
	    cmocka_unit_test(names_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
