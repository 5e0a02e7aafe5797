/* notify: the systemd notification protocol; see notify.h. */
#include "bot/notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* A whole number in decimal, all of s, above 0: or 0. */
static uint64_t
positive(const char *s)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	return *end != '\0' || errno != 0 ? 0 : (uint64_t)v;
}

int
notify_send(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n, len = strlen(state);
	socklen_t salen;
	ssize_t sent;
	int fd, e;

	if (path == NULL || *path == '\0')
		return 0;
	n = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || n < 2 || n > sizeof(sa.sun_path)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(sa.sun_path, path, n);
	/* An abstract name: a NUL first, and the length tells where it ends. */
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	do
		sent = sendto(fd, state, len, MSG_NOSIGNAL, (struct sockaddr *)&sa, salen);
	while (sent < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (sent < 0) {
		errno = e;
		return -1;
	}
	return 1;
}

uint64_t
notify_watchdog_usec(void)
{
	const char *pid = getenv("WATCHDOG_PID");

	if (pid != NULL && positive(pid) != (uint64_t)getpid())
		return 0;
	return positive(getenv("WATCHDOG_USEC"));
}
