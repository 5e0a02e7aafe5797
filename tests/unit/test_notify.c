/* Unit tests for bot/notify: the datagrams systemd would receive on a path
 * and on an abstract socket, no socket named, names that cannot be one, and
 * whose watchdog interval it is. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bot/notify.h"

/* A datagram socket bound at name (a path, or '@' and an abstract name),
 * as systemd's. */
static int
listener(const char *name)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_true(n < sizeof(sa.sun_path));
	memcpy(sa.sun_path, name, n);
	if (name[0] == '@')
		sa.sun_path[0] = '\0';
	assert_int_equal(bind(fd, (struct sockaddr *)&sa,
	                      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
	                 0);
	return fd;
}

/* The next datagram on fd, which must be waiting, as a string. */
static void
received(int fd, char *out, size_t size)
{
	ssize_t n = recv(fd, out, size - 1, MSG_DONTWAIT);

	assert_true(n >= 0);
	out[n] = '\0';
}

static void
test_a_path_gets_each_state_whole(void **state)
{
	char dir[] = "/tmp/delver-notify-XXXXXX", path[64], got[256];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/notify", dir);
	fd = listener(path);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(notify_send("READY=1\nSTATUS=running"), 1);
	assert_int_equal(notify_send("WATCHDOG=1"), 1);
	received(fd, got, sizeof(got));
	assert_string_equal(got, "READY=1\nSTATUS=running");
	received(fd, got, sizeof(got));
	assert_string_equal(got, "WATCHDOG=1");
	unsetenv("NOTIFY_SOCKET");
	close(fd);
	unlink(path);
	rmdir(dir);
}

static void
test_an_abstract_name_starts_with_an_at(void **state)
{
	char name[64], got[64];
	int fd;

	(void)state;
	snprintf(name, sizeof(name), "@delver-notify-test-%ld", (long)getpid());
	fd = listener(name);
	setenv("NOTIFY_SOCKET", name, 1);
	assert_int_equal(notify_send("STOPPING=1"), 1);
	received(fd, got, sizeof(got));
	assert_string_equal(got, "STOPPING=1");
	unsetenv("NOTIFY_SOCKET");
	close(fd);
}

static void
test_no_socket_named_sends_nothing(void **state)
{
	(void)state;
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(notify_send("READY=1"), 0);
	setenv("NOTIFY_SOCKET", "", 1);
	assert_int_equal(notify_send("READY=1"), 0);
	unsetenv("NOTIFY_SOCKET");
}

static void
test_names_that_are_no_socket_are_refused(void **state)
{
	char long_path[200];

	(void)state;
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = '\0';
	setenv("NOTIFY_SOCKET", "relative/notify", 1);
	errno = 0;
	assert_int_equal(notify_send("READY=1"), -1);
	assert_int_equal(errno, EINVAL);
	setenv("NOTIFY_SOCKET", "@", 1);
	assert_int_equal(notify_send("READY=1"), -1);
	assert_int_equal(errno, EINVAL);
	setenv("NOTIFY_SOCKET", long_path, 1);
	assert_int_equal(notify_send("READY=1"), -1);
	assert_int_equal(errno, EINVAL);
	/* A path where nothing listens: the send fails, and says why. */
	setenv("NOTIFY_SOCKET", "/nonexistent/delver/notify", 1);
	errno = 0;
	assert_int_equal(notify_send("READY=1"), -1);
	assert_int_equal(errno, ENOENT);
	unsetenv("NOTIFY_SOCKET");
}

static void
test_the_watchdog_is_for_this_process_only(void **state)
{
	char pid[32];

	(void)state;
	unsetenv("WATCHDOG_PID");
	unsetenv("WATCHDOG_USEC");
	assert_int_equal(notify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "30000000", 1);
	assert_int_equal(notify_watchdog_usec(), 30000000);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	assert_int_equal(notify_watchdog_usec(), 30000000);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid() + 1);
	setenv("WATCHDOG_PID", pid, 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	setenv("WATCHDOG_PID", "x", 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	unsetenv("WATCHDOG_PID");
	setenv("WATCHDOG_USEC", "0", 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "-5", 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "12ms", 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "99999999999999999999999", 1);
	assert_int_equal(notify_watchdog_usec(), 0);
	unsetenv("WATCHDOG_USEC");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_a_path_gets_each_state_whole),
	    cmocka_unit_test(test_an_abstract_name_starts_with_an_at),
	    cmocka_unit_test(test_no_socket_named_sends_nothing),
	    cmocka_unit_test(test_names_that_are_no_socket_are_refused),
	    cmocka_unit_test(test_the_watchdog_is_for_this_process_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
