/* faultio: fault injection for fsio; see faultio.h. */
#include "tests/unit/helpers/faultio.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/store/crc32.h"
#include "bot/fsio.h"
#include "rules/base/mem.h"
#include "tests/unit/helpers/slurp.h"

static struct {
	int n, err, calls, failed;
	bool armed, sticky;
} f[3];

bool
faultio_check(enum faultio_op op)
{
	f[op].calls++;
	if (!f[op].armed || f[op].calls < f[op].n || (f[op].calls > f[op].n && !f[op].sticky))
		return false;
	f[op].failed++;
	errno = f[op].err;
	return true;
}

static ssize_t
fault_write(int fd, const void *p, size_t n)
{
	if (!faultio_check(FAULTIO_WRITE))
		return write(fd, p, n);
	return errno == 0 ? (ssize_t)n : -1; /* lost, or failed */
}

static int
fault_fsync(int fd)
{
	return faultio_check(FAULTIO_FSYNC) ? -1 : fsync(fd);
}

static int
fault_rename(const char *from, const char *to)
{
	return faultio_check(FAULTIO_RENAME) ? -1 : rename(from, to);
}

void
faultio_arm(enum faultio_op op, int n, int err, bool sticky)
{
	static const struct fsio_ops ops = {fault_write, fault_fsync, fault_rename, NULL};

	memset(&f[op], 0, sizeof(f[op]));
	f[op].armed = true;
	f[op].n = n;
	f[op].err = err;
	f[op].sticky = sticky;
	fsio_set_ops(&ops);
}

void
faultio_off(void)
{
	memset(f, 0, sizeof(f));
	fsio_set_ops(NULL);
}

int
faultio_calls(enum faultio_op op)
{
	return f[op].calls;
}

int
faultio_failed(enum faultio_op op)
{
	return f[op].failed;
}

char *
tmpdir_new(void)
{
	char *d = xstrdup("/tmp/delver-test-XXXXXX");

	if (mkdtemp(d) == NULL)
		abort();
	return d;
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

void
tmpdir_remove(char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

unsigned long
file_crc(const char *path)
{
	size_t len;
	char *data = slurp_try(path, &len);
	unsigned long crc;

	if (data == NULL)
		return 0;
	crc = crc32_of(data, len);
	free(data);
	return crc;
}
