/* shard_dirs: the state directories of a sharded bot; see shard_dirs.h. */
#include "bot/store/shard_dirs.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/log.h"
#include "bot/store/persist.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define SIBLINGS_MAX 4096 /* subdirectories looked at, at most */

bool
shard_dirs_all(int first, int last, int count)
{
	return first < 0 || count == 0 || (first == 0 && last == count - 1);
}

char *
shard_dirs_own(const char *root, int first, int last, int count)
{
	struct buf b;

	buf_init(&b, 8192);
	if (shard_dirs_all(first, last, count))
		buf_adds(&b, root);
	else if (first == last)
		buf_addf(&b, "%s/shard-%d", root, first);
	else
		buf_addf(&b, "%s/shards-%d-%d", root, first, last);
	return buf_take(&b);
}

/* Whether name is "shard-N" or "shards-N-M" (digits only). */
static bool
shard_name(const char *name)
{
	const char *p;

	if (strncmp(name, "shard-", 6) == 0)
		p = name + 6;
	else if (strncmp(name, "shards-", 7) == 0)
		p = name + 7;
	else
		return false;
	if (*p < '0' || *p > '9')
		return false;
	p += strspn(p, "0123456789");
	if (*p == '-' && name[5] == 's') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		p += strspn(p, "0123456789");
	}
	return *p == '\0';
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether path is a symbolic link, which is then passed over with a
 * warning: delver never follows a link in its state directory. */
static bool
linked(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return false;
	log_warnx("store: %s is a symbolic link, and delver never follows a link in its state "
	          "directory: the channels of the database it leads to are not read",
	          path);
	return true;
}

/* Appends dir/delver.db to the list when that file exists and dir is not
 * own (compared as written and by inode). Neither the database nor a
 * shard's directory under the root (inside) may be a link. */
static void
add_if_db(char ***list, size_t *n, const char *dir, const struct stat *own, bool inside)
{
	struct stat st;
	char db[8192];

	if (inside && linked(dir))
		return;
	if (stat(dir, &st) == 0 && own != NULL && st.st_dev == own->st_dev &&
	    st.st_ino == own->st_ino)
		return;
	if (persist_db_path(db, sizeof(db), dir) < 0 || access(db, F_OK) != 0 || linked(db))
		return;
	*list = xrealloc(*list, (*n + 2) * sizeof(**list));
	(*list)[(*n)++] = xstrdup(db);
	(*list)[*n] = NULL;
}

char **
shard_dirs_siblings(const char *root, const char *own)
{
	char **list = xcalloc(1, sizeof(*list)), **names = NULL;
	size_t n = 0, nn = 0;
	struct stat ost;
	bool have_own = stat(own, &ost) == 0;
	DIR *d;
	struct dirent *e;

	add_if_db(&list, &n, root, have_own ? &ost : NULL, false);
	d = opendir(root);
	if (d == NULL)
		return list;
	while ((e = readdir(d)) != NULL && nn < SIBLINGS_MAX) {
		if (!shard_name(e->d_name))
			continue;
		names = xrealloc(names, (nn + 1) * sizeof(*names));
		names[nn++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (nn > 0)
		qsort(names, nn, sizeof(*names), by_name);
	for (size_t i = 0; i < nn; i++) {
		struct buf p;

		buf_init(&p, 8192);
		buf_addf(&p, "%s/%s", root, names[i]);
		add_if_db(&list, &n, buf_str(&p), have_own ? &ost : NULL, true);
		buf_free(&p);
		free(names[i]);
	}
	free(names);
	return list;
}

void
shard_dirs_free(char **list)
{
	if (list == NULL)
		return;
	for (size_t i = 0; list[i] != NULL; i++)
		free(list[i]);
	free(list);
}
