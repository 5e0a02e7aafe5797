/*
 * unit_filter_probe: tries a few system calls and prints one line for each,
 * "NAME ok" or "NAME E...", for tests/integration/test_unit_filter.sh.
 *
 * unit_filter_probe DIR
 *
 * Each call is one that succeeds for any user outside the filter, so a
 * failure under tests/tools/unit_filter is the filter's doing:
 *   setpriority  the process's own priority set to its current value (@resources)
 *   fchown       a file of DIR given to its own owner (@chown, in @privileged)
 *   file         a file in DIR written, read back and removed (ordinary work)
 *   socketpair   a byte through a unix socket pair (ordinary work)
 * Exits 0 when every line was printed, whatever the calls returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* Prints "name ok" when rc is 0, else "name " and errno's symbolic name. */
static void
unit_filter_probe_say(const char *name, int rc)
{
	const char *e = errno == EPERM ? "EPERM" : errno == EACCES ? "EACCES" : "other";

	if (rc == 0)
		printf("%s ok\n", name);
	else
		printf("%s %s (%s)\n", name, e, strerror(errno));
}

static int
unit_filter_probe_priority(void)
{
	int prio;

	errno = 0;
	prio = getpriority(PRIO_PROCESS, 0);
	if (prio == -1 && errno != 0)
		return -1;
	return setpriority(PRIO_PROCESS, 0, prio);
}

/* Creates path, then runs fchown (when chown is set) or a write and read
 * back; the file is removed either way. */
static int
unit_filter_probe_file(const char *path, int chown)
{
	char back[6] = {0};
	int fd, rc, saved;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	if (chown)
		rc = fchown(fd, getuid(), getgid());
	else
		rc = write(fd, "delver", 6) == 6 && pread(fd, back, 6, 0) == 6 &&
		             memcmp(back, "delver", 6) == 0
		         ? 0
		         : -1;
	saved = errno;
	close(fd);
	unlink(path);
	errno = saved;
	return rc;
}

static int
unit_filter_probe_socketpair(void)
{
	int sv[2], rc = -1;
	char c = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return -1;
	if (write(sv[0], "x", 1) == 1 && read(sv[1], &c, 1) == 1 && c == 'x')
		rc = 0;
	close(sv[0]);
	close(sv[1]);
	return rc;
}

int
main(int argc, char **argv)
{
	char path[4096];
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: unit_filter_probe DIR\n");
		return 2;
	}
	r = snprintf(path, sizeof(path), "%s/probe", argv[1]);
	if (r < 0 || (size_t)r >= sizeof(path)) {
		fprintf(stderr, "unit_filter_probe: the directory name is too long.\n");
		return 2;
	}
	unit_filter_probe_say("setpriority", unit_filter_probe_priority());
	unit_filter_probe_say("fchown", unit_filter_probe_file(path, 1));
	unit_filter_probe_say("file", unit_filter_probe_file(path, 0));
	unit_filter_probe_say("socketpair", unit_filter_probe_socketpair());
	return 0;
}
