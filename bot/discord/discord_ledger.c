/* discord_ledger: the shared record of session starts; see discord_ledger.h. */
#include "bot/discord/discord_ledger.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bot/fsio.h"
#include "bot/store/statedir.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#define LEDGER_FILE_MAX (256 * 1024) /* bytes of the record file read, at most */
#define LOCK_WAIT_MS    2000         /* for another process's hold of the lock, at most */

/* The bucket's entry, made when missing; NULL when the table is full. */
static struct ledger_bucket *
bucket(struct ledger_rec *r, int id)
{
	for (int i = 0; i < r->nb; i++)
		if (r->b[i].id == id)
			return &r->b[i];
	if (r->nb == LEDGER_BUCKETS_MAX)
		return NULL;
	memset(&r->b[r->nb], 0, sizeof(r->b[0]));
	r->b[r->nb].id = id;
	return &r->b[r->nb++];
}

/* Discord's numbers win for a new window; within the one the record
 * knows, the lower remaining wins (others may have spent some since
 * Discord counted). */
static void
limits(struct ledger_rec *r, const struct ledger_op *op, int64_t now)
{
	int64_t reset_at = now + (op->reset_after > 0 ? op->reset_after : 0);
	bool same_window = r->total > 0 && llabs(reset_at - r->reset_at) <= 60000;

	r->total = op->total > 0 ? op->total : 1000;
	if (!same_window || op->remaining < r->remaining)
		r->remaining = op->remaining < 0 ? 0 : op->remaining;
	if (r->remaining > r->total)
		r->remaining = r->total;
	r->reset_at = reset_at;
}

static void
try_buckets(struct ledger_rec *r, const struct ledger_op *op, int64_t now,
            struct ledger_result *res)
{
	for (int i = 0; i < op->nbuckets && i < LEDGER_TRIES_MAX; i++) {
		struct ledger_bucket *bk = bucket(r, op->bucket[i]);

		res->wait[i] = op->interval; /* a full table: try again later */
		if (bk == NULL)
			continue;
		if (r->total > 0 && r->remaining <= op->reserve) {
			res->spent = true;
			res->reset_in = r->reset_at > now ? r->reset_at - now : 0;
			continue;
		}
		if (bk->lease_until > now && strcmp(bk->owner, op->owner) != 0) {
			res->held[i] = true;
			res->wait[i] = bk->lease_until - now < LEDGER_HELD_POLL_MS
			                   ? bk->lease_until - now
			                   : LEDGER_HELD_POLL_MS;
		} else if (bk->last != 0 && bk->last + op->interval > now) {
			res->wait[i] = bk->last + op->interval - now;
		} else {
			res->wait[i] = 0;
			bk->lease_until = now + op->lease;
			snprintf(bk->owner, sizeof(bk->owner), "%s", op->owner);
			if (r->total > 0)
				r->remaining--;
		}
	}
}

void
discord_ledger_apply(struct ledger_rec *r, const struct ledger_op *op, int64_t now,
                     struct ledger_result *res)
{
	struct ledger_bucket *bk;

	memset(res, 0, sizeof(*res));
	if (r->total > 0 && now >= r->reset_at) {
		/* Discord's window is over: the budget is whole again until the
		 * next GET /gateway/bot says more. */
		r->remaining = r->total;
		r->reset_at = now + LEDGER_WINDOW_MS;
	}
	switch (op->kind) {
	case LEDGER_LIMITS:
		limits(r, op, now);
		break;
	case LEDGER_TRY:
		try_buckets(r, op, now, res);
		break;
	case LEDGER_SENT:
		if ((bk = bucket(r, op->bucket[0])) != NULL) {
			bk->last = now;
			if (strcmp(bk->owner, op->owner) == 0)
				bk->lease_until = 0;
		}
		break;
	case LEDGER_UNUSED:
		bk = bucket(r, op->bucket[0]);
		if (bk != NULL && bk->lease_until > 0 && strcmp(bk->owner, op->owner) == 0) {
			bk->lease_until = 0;
			if (r->total > 0 && r->remaining < r->total)
				r->remaining++;
		}
		break;
	case LEDGER_REFUSED:
		r->refused_count = op->count;
		r->refused_code = op->code;
		r->refused_recommended = op->recommended;
		r->refused_at = now;
		break;
	}
	res->total = r->total;
	res->remaining = r->remaining;
	res->refused_count = r->refused_count;
	res->refused_code = r->refused_code;
	res->refused_recommended = r->refused_recommended;
}

char *
discord_ledger_format(const struct ledger_rec *r)
{
	cJSON *root = cJSON_CreateObject(), *bs = cJSON_AddArrayToObject(root, "buckets");
	char *text;

	cJSON_AddNumberToObject(root, "total", r->total);
	cJSON_AddNumberToObject(root, "remaining", r->remaining);
	cJSON_AddNumberToObject(root, "reset_at", (double)r->reset_at);
	cJSON_AddNumberToObject(root, "refused_count", r->refused_count);
	cJSON_AddNumberToObject(root, "refused_code", r->refused_code);
	cJSON_AddNumberToObject(root, "refused_recommended", r->refused_recommended);
	cJSON_AddNumberToObject(root, "refused_at", (double)r->refused_at);
	for (int i = 0; i < r->nb; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "bucket", r->b[i].id);
		cJSON_AddNumberToObject(o, "last", (double)r->b[i].last);
		cJSON_AddNumberToObject(o, "lease_until", (double)r->b[i].lease_until);
		cJSON_AddStringToObject(o, "owner", r->b[i].owner);
		cJSON_AddItemToArray(bs, o);
	}
	text = json_print(root);
	cJSON_Delete(root);
	return text;
}

/* A whole number from lo to hi at key of o, into *out; false when absent
 * or out of range. */
static bool
number(const cJSON *o, const char *key, double lo, double hi, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
	    v->valuedouble != (double)(int64_t)v->valuedouble)
		return false;
	*out = (int64_t)v->valuedouble;
	return true;
}

int
discord_ledger_parse(const char *text, size_t len, struct ledger_rec *r)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *bs = cJSON_GetObjectItemCaseSensitive(root, "buckets"), *o;
	const double big = 9007199254740992.0; /* 2^53 */
	int64_t v[7];
	int ok;

	memset(r, 0, sizeof(*r));
	ok = cJSON_IsObject(root) && cJSON_IsArray(bs) && number(root, "total", 0, 1e9, &v[0]) &&
	     number(root, "remaining", 0, 1e9, &v[1]) && number(root, "reset_at", 0, big, &v[2]) &&
	     number(root, "refused_count", 0, 65535, &v[3]) &&
	     number(root, "refused_code", 0, 65535, &v[4]) &&
	     number(root, "refused_recommended", 0, 65535, &v[5]) &&
	     number(root, "refused_at", 0, big, &v[6]);
	if (ok) {
		r->total = (int)v[0];
		r->remaining = (int)v[1];
		r->reset_at = v[2];
		r->refused_count = (int)v[3];
		r->refused_code = (int)v[4];
		r->refused_recommended = (int)v[5];
		r->refused_at = v[6];
	}
	cJSON_ArrayForEach(o, bs)
	{
		const char *owner =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "owner"));
		int64_t id, last, lease;

		if (!ok)
			break;
		if (r->nb == LEDGER_BUCKETS_MAX || !number(o, "bucket", 0, 65535, &id) ||
		    !number(o, "last", 0, big, &last) ||
		    !number(o, "lease_until", 0, big, &lease) || owner == NULL ||
		    strlen(owner) >= LEDGER_OWNER_MAX) {
			ok = 0;
			break;
		}
		r->b[r->nb].id = (int)id;
		r->b[r->nb].last = last;
		r->b[r->nb].lease_until = lease;
		memcpy(r->b[r->nb].owner, owner, strlen(owner) + 1);
		r->nb++;
	}
	cJSON_Delete(root);
	if (!ok)
		memset(r, 0, sizeof(*r));
	return ok ? 0 : -1;
}

/* --- the file (or memory) backend --- */

struct ledger_file {
	struct ledger_backend base;
	char *dir;             /* NULL: memory only */
	struct ledger_rec rec; /* memory only */
	bool damaged_noted;
};

static int64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads the record at path into *r (empty when there is none, or it is
 * damaged: then *damaged). Returns 0, or -1 with err. */
static int
read_rec(const char *path, struct ledger_rec *r, bool *damaged, char *err, size_t errlen)
{
	int fd = statedir_open(path, O_RDONLY);
	struct buf b;
	char chunk[8192];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot read %s: %s", path, statedir_strerror(errno));
		return -1;
	}
	buf_init(&b, LEDGER_FILE_MAX);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (buf_add(&b, chunk, (size_t)n) < 0)
			break;
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		buf_free(&b);
		return -1;
	}
	if (b.len > 0 && discord_ledger_parse(buf_str(&b), b.len, r) < 0)
		*damaged = true;
	buf_free(&b);
	return 0;
}

/* Writes the record to path through a temporary file and a rename. */
static int
write_rec(const char *path, const struct ledger_rec *r, char *err, size_t errlen)
{
	char *text = discord_ledger_format(r);
	struct buf tmp;
	int fd, rc = -1;

	buf_init(&tmp, 8192);
	buf_addf(&tmp, "%s.tmp", path);
	fd = statedir_open(buf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC);
	if (fd < 0 || fsio_write_all(fd, text, strlen(text)) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", buf_str(&tmp),
		         statedir_strerror(errno));
	} else if (fsio_rename(buf_str(&tmp), path) < 0) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", buf_str(&tmp), path,
		         strerror(errno));
	} else {
		rc = 0;
	}
	if (fd >= 0)
		close(fd);
	free(text);
	buf_free(&tmp);
	return rc;
}

/* flock(LOCK_EX), waiting at most LOCK_WAIT_MS: another process holds the
 * lock only for one read and write of the file, so a longer hold is a
 * process stopped while holding it, which must not keep this worker thread
 * (libuv's pool serves the store too). Returns 0, or -1 with errno. */
static int
lock_file(int fd)
{
	for (int waited = 0;; waited += 10) {
		struct timespec ten = {0, 10 * 1000000L};

		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		if (waited >= LOCK_WAIT_MS) {
			errno = EWOULDBLOCK;
			return -1;
		}
		nanosleep(&ten, NULL);
	}
}

static int
file_exec(struct ledger_backend *base, const struct ledger_op *op, struct ledger_result *res)
{
	struct ledger_file *f = (struct ledger_file *)base;
	struct ledger_rec *r;
	struct buf lock, data;
	bool damaged = false;
	char err[256] = "";
	int fd, rc = -1;

	if (f->dir == NULL) {
		discord_ledger_apply(&f->rec, op, wall_ms(), res);
		return 0;
	}
	buf_init(&lock, 8192);
	buf_init(&data, 8192);
	buf_addf(&lock, "%s/" LEDGER_LOCK_FILE, f->dir);
	buf_addf(&data, "%s/" LEDGER_FILE, f->dir);
	r = xmalloc(sizeof(*r));
	fd = statedir_open(buf_str(&lock), O_RDWR | O_CREAT);
	if (fd < 0) {
		snprintf(err, sizeof(err), "cannot open %s: %s", buf_str(&lock),
		         statedir_strerror(errno));
	} else if (lock_file(fd) < 0) {
		snprintf(err, sizeof(err), "cannot lock %s: %s", buf_str(&lock),
		         errno == EWOULDBLOCK ? "another process has held it for 2 s"
		                              : strerror(errno));
	} else if (read_rec(buf_str(&data), r, &damaged, err, sizeof(err)) == 0) {
		discord_ledger_apply(r, op, wall_ms(), res);
		rc = write_rec(buf_str(&data), r, err, sizeof(err));
	}
	if (fd >= 0)
		close(fd); /* and the lock with it */
	if (damaged && !f->damaged_noted) {
		f->damaged_noted = true;
		snprintf(res->err, sizeof(res->err), "%s was not a valid record; started afresh",
		         buf_str(&data));
	}
	if (rc < 0) {
		memset(res, 0, sizeof(*res));
		res->status = -1;
		snprintf(res->err, sizeof(res->err), "%s", err);
	}
	free(r);
	buf_free(&lock);
	buf_free(&data);
	return rc;
}

static void
file_close(struct ledger_backend *base)
{
	struct ledger_file *f = (struct ledger_file *)base;

	free(f->dir);
	free(f);
}

struct ledger_backend *
discord_ledger_file(const char *dir)
{
	struct ledger_file *f = xcalloc(1, sizeof(*f));

	f->base.exec = file_exec;
	f->base.close = file_close;
	f->dir = dir != NULL ? xstrdup(dir) : NULL;
	f->base.where = f->dir != NULL ? f->dir : "this process";
	return &f->base;
}

/* Makes dir 0700 when missing; 0 when it is then a directory of uid's
 * alone, else -1 with a sentence in err. */
static int
own_dir(const char *dir, unsigned uid, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is not a directory", dir);
		return -1;
	}
	if ((unsigned)st.st_uid != uid) {
		snprintf(err, errlen, "%s belongs to uid %u, not to this process's uid %u", dir,
		         (unsigned)st.st_uid, uid);
		return -1;
	}
	if ((st.st_mode & 077) != 0) {
		snprintf(err, errlen, "%s is open to others (mode %03o; 700 expected)", dir,
		         (unsigned)(st.st_mode & 0777));
		return -1;
	}
	return 0;
}

int
discord_ledger_home(const char *xdg, const char *run_user, const char *tmp, unsigned uid,
                    const char *key, char *out, size_t len, char *err, size_t errlen)
{
	char dir[4096];
	struct stat st;
	int n;

	if (xdg != NULL && xdg[0] == '/') {
		n = snprintf(dir, sizeof(dir), "%s/delver", xdg);
	} else {
		n = snprintf(dir, sizeof(dir), "%s/%u", run_user, uid);
		if (n > 0 && (size_t)n < sizeof(dir) && stat(dir, &st) == 0 &&
		    S_ISDIR(st.st_mode) && (unsigned)st.st_uid == uid)
			n = snprintf(dir, sizeof(dir), "%s/%u/delver", run_user, uid);
		else
			n = snprintf(dir, sizeof(dir), "%s/delver-%u", tmp, uid);
	}
	if (n < 0 || (size_t)n >= sizeof(dir)) {
		snprintf(err, errlen, "the runtime directory's path is too long");
		return -1;
	}
	if (own_dir(dir, uid, err, errlen) < 0)
		return -1;
	n = snprintf(out, len, "%s/%s", dir, key);
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "the runtime directory's path is too long");
		return -1;
	}
	return own_dir(out, uid, err, errlen);
}
