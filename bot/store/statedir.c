/* statedir: the state directory made and checked; see statedir.h. */
#include "bot/store/statedir.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bot/log.h"

#define PATH_MAX_LEN 4200 /* the longest state path delver builds */

const char *
statedir_strerror(int e)
{
	if (e == ELOOP)
		return "it is a symbolic link, and delver never follows a link in its state "
		       "directory: remove the link, and delver makes the file itself";
	return strerror(e);
}

/* chmod(path, mode) on the file opened, so that a link put in path's place
 * meanwhile fails (ELOOP) instead of having its target changed, unless
 * follow. A file delver's user may not read is changed by name without
 * following a link (the C library's own way). Returns 0, or -1 with errno. */
static int
chmod_opened(const char *path, mode_t mode, bool follow)
{
	int fd =
	    open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
	int r, saved;

	if (fd < 0)
		return errno == EACCES
		           ? fchmodat(AT_FDCWD, path, mode, follow ? 0 : AT_SYMLINK_NOFOLLOW)
		           : -1;
	r = fchmod(fd, mode);
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

/* mkdir(path, 0700) whatever the umask; an existing directory is kept, and
 * so is a link to one when follow (the path the operator named). */
static int
mkdir_one(const char *path, bool follow)
{
	struct stat sb;

	if (mkdir(path, 0700) == 0) /* the umask may have taken bits away: */
		return chmod_opened(path, 0700, false);
	if (errno != EEXIST)
		return -1;
	if ((follow ? stat(path, &sb) : lstat(path, &sb)) < 0)
		return -1;
	if (S_ISLNK(sb.st_mode)) {
		errno = ELOOP;
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int
statedir_mkdir(const char *path)
{
	return mkdir_one(path, false);
}

int
statedir_mkdir_new(const char *path)
{
	if (mkdir(path, 0700) < 0)
		return -1;
	return chmod_opened(path, 0700, false);
}

int
statedir_open(const char *path, int flags)
{
	int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	int saved;

	if (fd < 0 || !(flags & O_CREAT))
		return fd;
	if (fchmod(fd, 0600) < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int
statedir_create_file(const char *path)
{
	int fd = statedir_open(path, O_WRONLY | O_CREAT | O_EXCL);
	int saved;

	if (fd < 0)
		return -1;
	if (close(fd) < 0) {
		saved = errno;
		unlink(path);
		errno = saved;
		return -1;
	}
	return 0;
}

/* The inode flags of path (FS_IMMUTABLE_FL, FS_APPEND_FL), or 0 when they
 * cannot be read (a file system without them). */
static long
inode_flags(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	long flags = 0;

	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		flags = 0;
	close(fd);
	return flags;
}

/* Why delver may not write path (errno e from access(2) for writing), as
 * a clause: "it is immutable (chattr +i)". */
static void
why_read_only(const char *path, const struct stat *sb, int e, char *out, size_t len)
{
	long flags = inode_flags(path);

	if (flags & FS_IMMUTABLE_FL)
		snprintf(out, len, "it is immutable (chattr +i)");
	else if (flags & FS_APPEND_FL)
		snprintf(out, len, "it is append-only (chattr +a)");
	else if (e == EROFS)
		snprintf(out, len, "its file system is mounted read-only");
	else if (e == EACCES)
		snprintf(out, len,
		         "it is owned by uid %u (group %u) with mode %04o, and delver runs as "
		         "uid %u",
		         (unsigned)sb->st_uid, (unsigned)sb->st_gid,
		         (unsigned)(sb->st_mode & 07777), (unsigned)geteuid());
	else
		snprintf(out, len, "%s", strerror(e));
}

/* Whether delver may write (and, for a directory, enter) path; else fills
 * why. Append-only counts as read-only: delver renames and removes files. */
static bool
writable(const char *path, const struct stat *sb, char *why, size_t len)
{
	int mode = S_ISDIR(sb->st_mode) ? W_OK | X_OK : W_OK;
	int e = faccessat(AT_FDCWD, path, mode, AT_EACCESS) < 0 ? errno : 0;

	if (e == 0 && !(inode_flags(path) & (FS_IMMUTABLE_FL | FS_APPEND_FL)))
		return true;
	why_read_only(path, sb, e != 0 ? e : EPERM, why, len);
	return false;
}

/* What makes path writable for delver, as a clause: for an immutable or
 * append-only path, the chattr that undoes it (no owner or mode helps
 * then); on a file system mounted read-only, "mount its file system
 * read-write ..."; else "make it owned by uid N with mode M". Returns a
 * static buffer. */
static const char *
fix_for(const char *path, const char *mode)
{
	static char fix[PATH_MAX_LEN + 64];
	struct statvfs vfs;
	long flags = inode_flags(path);

	if (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL))
		snprintf(fix, sizeof(fix), "chattr -%c %s undoes it",
		         flags & FS_IMMUTABLE_FL ? 'i' : 'a', path);
	else if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		snprintf(fix, sizeof(fix),
		         "mount its file system read-write, or name a state directory on "
		         "another (--state-dir, [bot] state_dir)");
	else
		snprintf(fix, sizeof(fix), "make it owned by uid %u with mode %s",
		         (unsigned)geteuid(), mode);
	return fix;
}

/* The first path on the way to dir (dir itself last) that exists and is
 * no directory, into out (dir when none is found). */
static void
first_file(const char *dir, char *out, size_t len)
{
	struct stat sb;

	snprintf(out, len, "%s", dir);
	for (char *p = out + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (stat(out, &sb) == 0 && !S_ISDIR(sb.st_mode))
			return;
		*p = '/';
	}
}

int
statedir_mkdirs(const char *dir)
{
	char path[PATH_MAX_LEN];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, n + 1);
	for (char *p = path + 1; *p != '\0'; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdir_one(path, true) < 0)
			return -1;
		*p = '/';
	}
	return mkdir_one(path, true);
}

static int check(const char *path, const char *what, bool follow, char *err, size_t errlen);

int
statedir_prepare(const char *dir, char *err, size_t errlen)
{
	struct stat sb;
	char why[512], path[PATH_MAX_LEN + 16];

	if (statedir_mkdirs(dir) < 0) {
		int e = errno;

		if (e == ENOTDIR || e == EEXIST) {
			char file[PATH_MAX_LEN];

			first_file(dir, file, sizeof(file));
			snprintf(err, errlen,
			         "cannot create the state directory %s: %s is a file, not a "
			         "directory; move the file away, or name another directory "
			         "(--state-dir, [bot] state_dir)",
			         dir, file);
			errno = STATEDIR_UNSAFE;
		} else if (e == EROFS) {
			snprintf(err, errlen,
			         "cannot create the state directory %s: its file system is mounted "
			         "read-only; mount it read-write, or name a directory where delver "
			         "may write (--state-dir, [bot] state_dir)",
			         dir);
			errno = STATEDIR_UNSAFE;
		} else if (e == EACCES || e == EPERM) {
			snprintf(err, errlen,
			         "cannot create the state directory %s: %s; make it (with any "
			         "missing parent) owned by uid %u with mode 0700, or name another "
			         "(--state-dir, [bot] state_dir)",
			         dir, strerror(e), (unsigned)geteuid());
			errno = STATEDIR_UNSAFE;
		} else {
			snprintf(err, errlen, "cannot create the state directory %s: %s", dir,
			         strerror(e));
			errno = e;
		}
		return -1;
	}
	if (stat(dir, &sb) < 0) {
		snprintf(err, errlen, "cannot read the state directory %s: %s", dir,
		         strerror(errno));
		return -1;
	}
	if (sb.st_mode & S_IWOTH) {
		snprintf(err, errlen,
		         "the state directory %s may be written by every user (mode %04o): delver "
		         "keeps its state only where no other user can write; chmod 0700 %s",
		         dir, (unsigned)(sb.st_mode & 07777), dir);
		errno = STATEDIR_UNSAFE;
		return -1;
	}
	if (!writable(dir, &sb, why, sizeof(why))) {
		snprintf(err, errlen,
		         "the state directory %s is read-only for delver: %s; delver needs to "
		         "write there: %s",
		         dir, why, fix_for(dir, "0700"));
		errno = STATEDIR_UNSAFE;
		return -1;
	}
	/* Made by someone else with other modes: private as delver makes it.
	 * The directory itself may be a link (systemd's DynamicUser= makes
	 * one); nothing in it may. */
	if (check(dir, "state directory", true, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/lock", dir);
	if (statedir_check_file(path, "lock file", err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/snapshots", dir);
	return statedir_check_file(path, "snapshot directory", err, errlen);
}

/* statedir_check_file; follow lets path itself be a symbolic link. */
static int
check(const char *path, const char *what, bool follow, char *err, size_t errlen)
{
	struct stat sb;
	char why[512];
	bool dir;

	if ((follow ? stat(path, &sb) : lstat(path, &sb)) < 0)
		return 0; /* delver makes it */
	if (S_ISLNK(sb.st_mode)) {
		snprintf(err, errlen,
		         "the %s %s is a symbolic link, and delver never follows a link in its "
		         "state directory (it would read and change whatever the link points "
		         "to): remove the link, and delver makes the %s itself",
		         what, path, what);
		errno = STATEDIR_UNSAFE;
		return -1;
	}
	dir = S_ISDIR(sb.st_mode);
	if (!writable(path, &sb, why, sizeof(why))) {
		snprintf(err, errlen,
		         "the %s %s is read-only for delver: %s; delver needs to write it: %s",
		         what, path, why, fix_for(path, dir ? "0700" : "0600"));
		errno = STATEDIR_UNSAFE;
		return -1;
	}
	if (sb.st_uid == geteuid() && (sb.st_mode & 077) != 0) {
		if (chmod_opened(path, dir ? 0700 : 0600, follow) < 0) {
			snprintf(err, errlen, "cannot make the %s %s private (mode %s): %s", what,
			         path, dir ? "0700" : "0600", statedir_strerror(errno));
			errno = STATEDIR_UNSAFE;
			return -1;
		}
		log_info("store: the %s %s was mode %04o; it is %s now, as delver keeps its files",
		         what, path, (unsigned)(sb.st_mode & 07777), dir ? "0700" : "0600");
	}
	return 0;
}

int
statedir_check_file(const char *path, const char *what, char *err, size_t errlen)
{
	return check(path, what, false, err, errlen);
}

bool
statedir_full(const char *dir, char *mnt, size_t mntlen, unsigned long long *free_kb)
{
	char here[PATH_MAX_LEN], up[PATH_MAX_LEN];
	struct statvfs vfs;
	struct stat sb, upsb;
	unsigned long long avail;

	snprintf(mnt, mntlen, "%s", dir);
	*free_kb = 0;
	if (realpath(dir, here) != NULL && stat(here, &sb) == 0) {
		/* Up from dir while the parent is on the same device. */
		while (strcmp(here, "/") != 0) {
			char *slash = strrchr(here, '/');

			snprintf(up, sizeof(up), "%.*s", slash == here ? 1 : (int)(slash - here),
			         here);
			if (stat(up, &upsb) < 0 || upsb.st_dev != sb.st_dev)
				break;
			*(slash == here ? slash + 1 : slash) = '\0';
		}
		snprintf(mnt, mntlen, "%s", here);
	}
	if (statvfs(dir, &vfs) < 0)
		return false;
	avail = (unsigned long long)(geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail) * vfs.f_frsize;
	*free_kb = avail / 1024;
	return avail < STATEDIR_FULL_BYTES;
}
