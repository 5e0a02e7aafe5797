/* restore: the old snapshot plus journals into memory, for the import;
 * see restore.h. */
#include "bot/store/restore.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot/fsio.h"
#include "bot/store/journal.h"
#include "bot/store/lineread.h"
#include "bot/log.h"
#include "bot/store/store_record.h"
#include "bot/store/snapshot.h"
#include "rules/base/mem.h"

#define READ_CHUNK (1u << 20)

/* What one file's load needs and finds. */
struct load {
	struct state *st;
	const struct restore_opts *o;
	struct restore_result *res;
	const char *path;
	int version;
	bool journal;
	bool bad;              /* salvage: some line was skipped */
	bool ended;            /* snapshot: the end line was read */
	uint64_t count;        /* snapshot: record lines read */
	uint64_t next_journal; /* snapshot: the first journal not folded into it */
	char *err;
	size_t errlen;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Lists the journal numbers in dir (sorted) and removes leftover temporary
 * snapshot files. */
static int
scan_dir(const char *dir, uint64_t **seqs, size_t *n, bool *has_snapshot, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*seqs = NULL;
	*n = 0;
	*has_snapshot = false;
	if (d == NULL) {
		snprintf(err, errlen, "%s: cannot read the state directory: %s", dir,
		         strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		uint64_t seq;
		char path[4096];

		if (strcmp(e->d_name, SNAPSHOT_FILE) == 0) {
			*has_snapshot = true;
		} else if (journal_parse_name(e->d_name, &seq)) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				*seqs = xrealloc(*seqs, cap * sizeof(**seqs));
			}
			(*seqs)[(*n)++] = seq;
		} else if (strncmp(e->d_name, SNAPSHOT_TMP_PREFIX, strlen(SNAPSHOT_TMP_PREFIX)) ==
		               0 &&
		           snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) <
		               (int)sizeof(path)) {
			unlink(path);
		}
	}
	closedir(d);
	if (*n > 0)
		qsort(*seqs, *n, sizeof(**seqs), cmp_u64);
	return 0;
}

/* A bad line: refuses the restore, or with salvage skips the line. The
 * reason may quote the file: control characters become '?', so the
 * message stays one line. */
static int
bad_line(struct load *l, unsigned long lineno, const char *reason)
{
	char why[512];

	snprintf(why, sizeof(why), "%s", reason);
	for (char *p = why; *p != '\0'; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	if (!l->o->salvage) {
		snprintf(l->err, l->errlen, "%s:%lu: %s", l->path, lineno, why);
		return -1;
	}
	log_warnx("%s:%lu: %s; skipped (--salvage)", l->path, lineno, why);
	l->bad = true;
	return 0;
}

/* Moves a bad file aside as <path>.bad-<UTC time>[-n]. */
static void
move_aside(struct load *l)
{
	char stamp[32], to[4200];
	time_t now = (time_t)l->o->now;
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(to, sizeof(to), "%s.bad-%s", l->path, stamp);
	for (int i = 2; access(to, F_OK) == 0 && i < 100; i++)
		snprintf(to, sizeof(to), "%s.bad-%s-%d", l->path, stamp, i);
	if (fsio_rename(l->path, to) < 0 || fsio_fsync_dir(l->o->dir) < 0) {
		log_warn("cannot move %s aside to %s", l->path, to);
		return;
	}
	log_warnx("moved %s aside to %s (--salvage); what it held that was readable is loaded",
	          l->path, to);
	l->res->moved_aside = true;
}

static void
apply(struct load *l, struct store_record *r)
{
	if (r->last_used > l->res->clock)
		l->res->clock = r->last_used;
	if (r->kind == STORE_RECORD_USER) {
		store_record_to_user(r, state_user(l->st, r->key));
	} else {
		struct channel *ch = state_channel(l->st, r->key);

		/* A journal record is never older than the snapshot it follows. */
		if (l->journal && r->last_used < l->res->taken)
			r->last_used = l->res->taken;
		store_record_to_channel(r, ch);
	}
	if (l->journal)
		l->res->replayed++;
	else
		l->res->loaded++;
}

static int
one_record(struct load *l, const char *line, size_t len, unsigned long lineno)
{
	char why[512];
	struct store_record r;

	if (l->ended)
		return bad_line(l, lineno, "a line after the end line");
	if (store_record_decode(line, len, l->version, store_record_builtin_mods(), &r, why,
	                        sizeof(why)) < 0)
		return bad_line(l, lineno, why);
	if (r.kind == STORE_RECORD_END) {
		if (l->journal)
			return bad_line(l, lineno, "an end line in a journal");
		l->ended = true;
		if (r.count != l->count) {
			snprintf(
			    why, sizeof(why),
			    "the end line counts %llu records but %llu precede it (lines lost?)",
			    (unsigned long long)r.count, (unsigned long long)l->count);
			return bad_line(l, lineno, why);
		}
		return 0;
	}
	l->count++;
	apply(l, &r);
	return 0;
}

/* Reads the header line; returns 1 when the file holds nothing to load. */
static int
read_header(struct load *l, struct lineread *lr, uint64_t seq)
{
	struct store_record_header h;
	const char *line;
	size_t len;
	uint64_t at;
	char why[512];
	enum lineread_status st = lineread_next(lr, &line, &len, &at);

	if (st == LINEREAD_END || (st == LINEREAD_TORN && l->journal)) {
		if (!l->journal)
			return bad_line(l, 1, "the file is empty") < 0 ? -1 : 1;
		log_warnx("%s: ends within its header at byte 0 (a crash while it was created); "
		          "ignored",
		          l->path);
		return 1;
	}
	if (st != LINEREAD_LINE)
		snprintf(why, sizeof(why), "the header line is cut short or too long");
	else if (store_record_decode_header(line, len, &h, why, sizeof(why)) < 0)
		;
	else if (h.file != (l->journal ? STORE_RECORD_JOURNAL : STORE_RECORD_SNAPSHOT))
		snprintf(why, sizeof(why), "the header says this is a %s",
		         h.file == STORE_RECORD_JOURNAL ? "journal" : "snapshot");
	else if (l->journal && h.seq != seq)
		snprintf(why, sizeof(why), "the header says journal %llu, the name %llu",
		         (unsigned long long)h.seq, (unsigned long long)seq);
	else
		goto ok;
	/* Without a header nothing in the file can be read. */
	return bad_line(l, 1, why) < 0 ? -1 : 1;
ok:
	l->version = h.version;
	if (!l->journal) {
		l->res->taken = h.taken;
		l->next_journal = h.next_journal;
		if (h.taken > l->res->clock)
			l->res->clock = h.taken;
	}
	return 0;
}

/* Loads one file. Returns 0, or -1 with l->err. */
static int
load_file(struct load *l, uint64_t seq)
{
	struct lineread lr;
	const char *line;
	size_t len;
	uint64_t at;
	int fd = open(l->path, O_RDONLY | O_CLOEXEC), rc;
	enum lineread_status st;

	if (fd < 0) {
		snprintf(l->err, l->errlen, "%s: cannot open: %s", l->path, strerror(errno));
		return -1;
	}
	lineread_init(&lr, fd, 0, READ_CHUNK, STORE_RECORD_LINE_MAX);
	rc = read_header(l, &lr, seq);
	while (rc == 0 && (st = lineread_next(&lr, &line, &len, &at)) != LINEREAD_END) {
		if (st == LINEREAD_LINE) {
			rc = one_record(l, line, len, lr.lineno);
		} else if (st == LINEREAD_TORN && l->journal) {
			log_warnx("%s: dropping the torn last line at byte %llu (a crash in "
			          "mid-write)",
			          l->path, (unsigned long long)at);
			break;
		} else if (st == LINEREAD_TORN) {
			rc = bad_line(l, lr.lineno,
			              "the file ends in the middle of a line (truncated)");
		} else if (st == LINEREAD_TOOLONG) {
			rc = bad_line(l, lr.lineno, "a line longer than 1 MiB");
			break; /* the rest cannot be split into lines */
		} else {
			snprintf(l->err, l->errlen, "%s: cannot read: %s", l->path,
			         strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0 && !l->journal && !l->ended && l->version > 0)
		rc = bad_line(l, lr.lineno, "the file ends without its end line (truncated)");
	lineread_free(&lr);
	close(fd);
	if (rc >= 0 && l->bad)
		move_aside(l);
	return rc < 0 ? -1 : 0;
}

/* Loads the snapshot; *next_journal is the first journal not folded into it. */
static int
load_snapshot(struct state *st, const struct restore_opts *o, struct restore_result *res,
              uint64_t *next_journal, char *err, size_t errlen)
{
	char path[4096];
	struct load l = {.st = st, .o = o, .res = res, .path = path, .err = err, .errlen = errlen};

	snapshot_path(path, sizeof(path), o->dir);
	if (load_file(&l, 0) < 0)
		return -1;
	*next_journal = l.next_journal;
	if (res->moved_aside)
		res->taken = 0;
	return 0;
}

int
restore_state(struct state *st, const struct restore_opts *o, struct restore_result *res, char *err,
              size_t errlen)
{
	uint64_t *seqs, first = 0, expect;
	bool has_snapshot;
	size_t n;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (scan_dir(o->dir, &seqs, &n, &has_snapshot, err, errlen) < 0)
		return -1;
	if (has_snapshot && load_snapshot(st, o, res, &first, err, errlen) < 0) {
		free(seqs);
		return -1;
	}
	expect = first;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[4096];
		struct load l = {.st = st,
		                 .o = o,
		                 .res = res,
		                 .path = path,
		                 .journal = true,
		                 .err = err,
		                 .errlen = errlen};

		if (seqs[i] < first)
			continue; /* folded into the snapshot; removed by the next one */
		if (seqs[i] != expect && expect != 0)
			log_warnx(
			    "%s: journal %llu found where %llu was expected: journals %llu to %llu "
			    "are missing",
			    o->dir, (unsigned long long)seqs[i], (unsigned long long)expect,
			    (unsigned long long)expect, (unsigned long long)seqs[i] - 1);
		expect = seqs[i] + 1;
		journal_path(path, sizeof(path), o->dir, seqs[i]);
		rc = load_file(&l, seqs[i]);
		res->journals++;
	}
	free(seqs);
	return rc;
}
