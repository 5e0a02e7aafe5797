/* config_secret: env:, file: and credential: secrets; see config_secret.h. */
#include "bot/config/config_secret.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules/base/mem.h"

static const char *const usage_text = "must be env:NAME, file:PATH or credential:NAME; "
                                      "the secret itself never goes in this file";

static bool
prefixed(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* An environment variable's name: a letter or '_', then letters, digits, '_'. */
static bool
env_name_ok(const char *s)
{
	if (*s == '\0' || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s != '\0'; s++) {
		bool ok = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		          (*s >= '0' && *s <= '9') || *s == '_';

		if (!ok)
			return false;
	}
	return true;
}

/* A credential's name: what systemd accepts, without '/' or a lone dot. */
static bool
cred_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 255 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (; *s != '\0'; s++) {
		bool ok = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		          (*s >= '0' && *s <= '9') || strchr("-_.", *s) != NULL;

		if (!ok)
			return false;
	}
	return true;
}

static bool
path_ok(const char *s)
{
	if (s[0] != '/' || strlen(s) > 1024)
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

int
config_secret_check(const char *source, char *err, size_t errlen)
{
	const char *rest;

	if (prefixed(source, "env:", &rest)) {
		if (env_name_ok(rest))
			return 0;
		snprintf(err, errlen, "must name a variable after env: (letters, digits and '_')");
	} else if (prefixed(source, "file:", &rest)) {
		if (path_ok(rest))
			return 0;
		snprintf(err, errlen, "must give an absolute path after file:");
	} else if (prefixed(source, "credential:", &rest)) {
		if (cred_name_ok(rest))
			return 0;
		snprintf(err, errlen,
		         "must name a credential after credential: (letters, digits, '.', "
		         "'-' and '_')");
	} else {
		snprintf(err, errlen, "%s", usage_text);
	}
	return -1;
}

/* Checks a secret's bytes (after the trailing newline is dropped). */
static bool
secret_ok(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* Overwrites and frees a buffer of cap bytes that may not be a string. */
static void
wipe_free(char *buf, size_t cap)
{
	if (buf == NULL)
		return;
	explicit_bzero(buf, cap);
	free(buf);
}

/*
 * Reads the file at path (what names it in messages), refusing it when
 * its mode has any of the permission bits in deny.
 */
static char *
read_file(const char *path, const char *what, mode_t deny, char *err, size_t errlen)
{
	char *buf = NULL;
	struct stat st;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);

	if (fd < 0 && errno == ELOOP) {
		snprintf(err, errlen,
		         "%s is a symbolic link, which could point a secret anywhere; name the "
		         "file itself",
		         what);
		return NULL;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot read %s: %s", what, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", what, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file", what);
		goto fail;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(err, errlen,
		         "%s is owned by user %u, neither root nor the user delver runs as (%u); "
		         "chown it to one of them",
		         what, (unsigned)st.st_uid, (unsigned)geteuid());
		goto fail;
	}
	if ((st.st_mode & deny) != 0) {
		snprintf(err, errlen, "%s is open to other users (mode %04o); run chmod 600 %s",
		         what, (unsigned)(st.st_mode & 07777), path);
		goto fail;
	}
	buf = xmalloc(SECRET_MAX + 2);
	for (;;) {
		ssize_t n = read(fd, buf + len, SECRET_MAX + 2 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "cannot read %s: %s", what, strerror(errno));
			goto fail;
		}
		if (n == 0 || (len += (size_t)n) == SECRET_MAX + 2)
			break;
	}
	close(fd);
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (len > 0 && buf[len - 1] == '\r')
		len--;
	if (len > SECRET_MAX) {
		snprintf(err, errlen, "%s is longer than %d bytes; it must hold only the secret",
		         what, SECRET_MAX);
		wipe_free(buf, SECRET_MAX + 2);
		return NULL;
	}
	buf[len] = '\0';
	if (len == 0) {
		snprintf(err, errlen, "%s is empty; it must hold the secret, on one line", what);
		wipe_free(buf, SECRET_MAX + 2);
		return NULL;
	}
	if (memchr(buf, '\0', len) != NULL || !secret_ok(buf)) {
		snprintf(err, errlen, "%s must hold the secret alone, on one line", what);
		wipe_free(buf, SECRET_MAX + 2);
		return NULL;
	}
	return buf;
fail:
	close(fd);
	wipe_free(buf, SECRET_MAX + 2);
	return NULL;
}

static char *
read_env(const char *name, char *err, size_t errlen)
{
	const char *v = getenv(name);

	if (v == NULL || *v == '\0') {
		snprintf(err, errlen, "the environment variable %s is not set", name);
		return NULL;
	}
	if (strlen(v) > SECRET_MAX || !secret_ok(v)) {
		snprintf(err, errlen,
		         "the environment variable %s must hold the secret alone, on one line "
		         "(at most %d bytes)",
		         name, SECRET_MAX);
		return NULL;
	}
	return xstrdup(v);
}

static char *
read_credential(const char *name, char *err, size_t errlen)
{
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	char path[4096], what[512];
	struct stat st;
	int r;

	if (dir == NULL || *dir == '\0') {
		snprintf(
		    err, errlen,
		    "credential:%s is read from $CREDENTIALS_DIRECTORY, which systemd sets for "
		    "the service (the shipped unit loads it from /etc/credstore/ with "
		    "LoadCredential=%s); outside it, name the directory with --credentials-dir "
		    "(delver --check-config --credentials-dir /etc/credstore)",
		    name, name);
		return NULL;
	}
	r = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (r < 0 || (size_t)r >= sizeof(path)) {
		snprintf(err, errlen, "$CREDENTIALS_DIRECTORY is too long");
		return NULL;
	}
	snprintf(what, sizeof(what), "credential %s (%.400s)", name, path);
	/* systemd gives the service its credentials in a directory no one else
	 * may enter (the files may have group bits: access can come through a
	 * group or an ACL), and its /etc/credstore is mode 0700: a file there
	 * is private whatever its mode. A directory anyone may enter (another
	 * --credentials-dir) keeps a secret only if the file is not readable
	 * by every user. */
	return read_file(path, what,
	                 stat(dir, &st) == 0 && (st.st_mode & S_IXOTH) != 0 ? S_IROTH | S_IWOTH : 0,
	                 err, errlen);
}

char *
config_secret_read(const char *source, char *err, size_t errlen)
{
	const char *rest;

	if (prefixed(source, "env:", &rest))
		return read_env(rest, err, errlen);
	if (prefixed(source, "file:", &rest))
		return read_file(rest, rest, 077, err, errlen);
	if (prefixed(source, "credential:", &rest))
		return read_credential(rest, err, errlen);
	snprintf(err, errlen, "%s", usage_text);
	return NULL;
}

void
config_secret_free(char *secret)
{
	if (secret == NULL)
		return;
	explicit_bzero(secret, strlen(secret));
	free(secret);
}
