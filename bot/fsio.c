/* fsio: the switchable write layer; see fsio.h. */
#include "bot/fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static ssize_t
sys_write(int fd, const void *p, size_t n)
{
	return write(fd, p, n);
}

static int
sys_fsync(int fd)
{
	return fsync(fd);
}

static int
sys_rename(const char *from, const char *to)
{
	return rename(from, to);
}

static int
sys_unlink(const char *path)
{
	return unlink(path);
}

static const struct fsio_ops sys_ops = {sys_write, sys_fsync, sys_rename, sys_unlink};
static struct fsio_ops ops = {sys_write, sys_fsync, sys_rename, sys_unlink};

void
fsio_set_ops(const struct fsio_ops *o)
{
	ops = o != NULL ? *o : sys_ops;
	if (ops.write == NULL)
		ops.write = sys_write;
	if (ops.fsync == NULL)
		ops.fsync = sys_fsync;
	if (ops.rename == NULL)
		ops.rename = sys_rename;
	if (ops.unlink == NULL)
		ops.unlink = sys_unlink;
}

int
fsio_write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n > 0) {
		ssize_t w = ops.write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int
fsio_unlink(const char *path)
{
	return ops.unlink(path);
}

int
fsio_fsync(int fd)
{
	int r;

	do
		r = ops.fsync(fd);
	while (r < 0 && errno == EINTR);
	return r;
}

int
fsio_rename(const char *from, const char *to)
{
	return ops.rename(from, to);
}

int
fsio_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r, saved;

	if (fd < 0)
		return -1;
	r = fsio_fsync(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}
