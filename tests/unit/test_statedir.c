/* Tests for bot/store/statedir: nothing inside the state directory is
 * followed through a symbolic link (check-26 F6), while the directory
 * itself may be one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/store/statedir.h"
#include "tests/unit/helpers/faultio.h"

/* dir/name into out. */
static const char *
at(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	assert_true(n > 0 && (size_t)n < len);
	return out;
}

static mode_t
mode_of(const char *path)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return sb.st_mode & 07777;
}

/* statedir_open and statedir_mkdir fail with ELOOP on a link, whatever it
 * points to (a dangling one too), and statedir_strerror says so in words;
 * the target keeps its mode. */
static void
links_are_refused(void **unused)
{
	char *dir = tmpdir_new();
	char victim[512], pub[512], link[512], dlink[512];
	int fd;

	(void)unused;
	at(victim, sizeof(victim), dir, "victim");
	at(pub, sizeof(pub), dir, "pub");
	fd = open(victim, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chmod(victim, 0644), 0);
	assert_int_equal(mkdir(pub, 0755), 0);
	assert_int_equal(chmod(pub, 0755), 0);
	assert_int_equal(symlink(victim, at(link, sizeof(link), dir, "lock")), 0);
	assert_int_equal(symlink(pub, at(dlink, sizeof(dlink), dir, "snapshots")), 0);

	errno = 0;
	assert_int_equal(statedir_open(link, O_RDWR | O_CREAT), -1);
	assert_int_equal(errno, ELOOP);
	assert_string_equal(statedir_strerror(ELOOP),
	                    "it is a symbolic link, and delver never follows a link in its state "
	                    "directory: remove the link, and delver makes the file itself");
	assert_int_equal(statedir_mkdir(dlink), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(statedir_create_file(link), -1);
	assert_int_equal(mode_of(victim), 0644);
	assert_int_equal(mode_of(pub), 0755);
	/* a dangling link is a link too */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink(at(victim, sizeof(victim), dir, "absent"), link), 0);
	assert_int_equal(statedir_open(link, O_RDWR | O_CREAT), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(access(victim, F_OK), -1);
	tmpdir_remove(dir);
}

/* statedir_prepare refuses a link as the lock file or the snapshot
 * directory, naming it; takes a state directory that is itself a link,
 * making what it leads to 0700; and makes a file of its own 0600 on the
 * opened file. */
static void
prepare_refuses_links_inside(void **unused)
{
	char *dir = tmpdir_new();
	char real[512], st[512], victim[512], path[512], want[2048], err[1024];
	int fd;

	(void)unused;
	at(real, sizeof(real), dir, "real");
	at(st, sizeof(st), dir, "st");
	at(victim, sizeof(victim), dir, "victim");
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(chmod(real, 0755), 0);
	assert_int_equal(symlink(real, st), 0);
	fd = open(victim, O_WRONLY | O_CREAT, 0644);
	close(fd);
	assert_int_equal(chmod(victim, 0644), 0);

	assert_int_equal(statedir_prepare(st, err, sizeof(err)), 0);
	assert_int_equal(mode_of(real), 0700);

	fd = open(at(path, sizeof(path), real, "delver.db"), O_WRONLY | O_CREAT, 0644);
	close(fd);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(statedir_check_file(path, "database", err, sizeof(err)), 0);
	assert_int_equal(mode_of(path), 0600);

	assert_int_equal(symlink(victim, at(path, sizeof(path), st, "lock")), 0);
	assert_int_equal(statedir_prepare(st, err, sizeof(err)), -1);
	assert_int_equal(errno, STATEDIR_UNSAFE);
	snprintf(want, sizeof(want),
	         "the lock file %s is a symbolic link, and delver never follows a link in its "
	         "state directory (it would read and change whatever the link points to): "
	         "remove the link, and delver makes the lock file itself",
	         path);
	assert_string_equal(err, want);
	assert_int_equal(mode_of(victim), 0644);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(links_are_refused),
	    cmocka_unit_test(prepare_refuses_links_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
