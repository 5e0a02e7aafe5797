/* persist_import: the first start on a state directory of the older
 * journal-and-snapshot format imports it; see persist.h. */
#include "bot/store/persist_import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>

#include "bot/log.h"
#include "bot/store/statedir.h"
#include "bot/store/persist_int.h"
#include "bot/store/fsio.h"
#include "bot/store/journal.h"
#include "bot/store/restore.h"
#include "bot/store/snapshot.h"
#include "bot/store/store_record.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/mem.h"

/* True for the files of the old format: snapshot.dlv, journal.<n>.dlv and
 * what --salvage moved aside. */
static bool
old_format_name(const char *name)
{
	uint64_t seq;

	return strcmp(name, SNAPSHOT_FILE) == 0 || journal_parse_name(name, &seq) ||
	       (strncmp(name, SNAPSHOT_FILE ".bad-", strlen(SNAPSHOT_FILE ".bad-")) == 0) ||
	       (strncmp(name, "journal.", strlen("journal.")) == 0 &&
	        strstr(name, ".bad-") != NULL);
}

bool
persist_import_needed(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (d == NULL)
		return false;
	while (!found && (e = readdir(d)) != NULL)
		found = old_format_name(e->d_name);
	closedir(d);
	return found;
}

struct import_rows {
	struct store_row *rows;
	struct buf *bufs;
	size_t n, cap;
	bool failed;
};

static void
import_add(struct import_rows *ir, const struct store_record *r, enum store_kind kind, int64_t used)
{
	struct store_row *row;
	struct buf *b;

	if (ir->n == ir->cap) {
		ir->cap = ir->cap ? ir->cap * 2 : 64;
		ir->rows = xrealloc(ir->rows, ir->cap * sizeof(*ir->rows));
		ir->bufs = xrealloc(ir->bufs, ir->cap * sizeof(*ir->bufs));
	}
	row = &ir->rows[ir->n];
	b = &ir->bufs[ir->n];
	memset(row, 0, sizeof(*row));
	memset(b, 0, sizeof(*b));
	row->kind = kind;
	row->key = xstrdup(r->key);
	row->last_used = used;
	row->version = STORE_RECORD_VERSION;
	ir->n++;
	if (store_record_is_empty(r))
		return;
	buf_init(b, STORE_RECORD_LINE_MAX);
	if (store_record_encode(r, store_record_builtin_mods(), b) < 0) {
		ir->failed = true;
		return;
	}
	if (b->len > 0 && b->p[b->len - 1] == '\n')
		b->len--;
	row->rec = b->p != NULL ? b->p : "";
	row->rec_len = b->len;
}

static void
import_channel(struct channel *ch, void *ctx)
{
	struct store_record r;

	store_record_of_channel(&r, ch);
	import_add(ctx, &r, STORE_CHANNEL, r.last_used);
	channel_set_generation(ch, store_record_is_empty(&r) ? 0 : 1);
}

static void
import_user(struct user *u, void *ctx)
{
	struct store_record r;

	store_record_of_user(&r, u);
	import_add(ctx, &r, STORE_USER, 0);
	user_set_generation(u, store_record_is_empty(&r) ? 0 : 1);
}

static void
import_free(struct import_rows *ir)
{
	for (size_t i = 0; i < ir->n; i++) {
		free((char *)ir->rows[i].key);
		buf_free(&ir->bufs[i]);
	}
	free(ir->rows);
	free(ir->bufs);
}

/* Moves every old-format file into DIR/<sub> (made fresh), then fsyncs. */
static int
move_aside(struct persist *p, const char *sub, char *err, size_t errlen)
{
	char to[4200 + 300], from[4200 + 300], aside[4200];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	snprintf(aside, sizeof(aside), "%s/%s", p->dir, sub);
	if (statedir_mkdir(aside) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", aside, strerror(errno));
		return -1;
	}
	d = opendir(p->dir);
	if (d == NULL) {
		snprintf(err, errlen, "cannot list %s: %s", p->dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!old_format_name(e->d_name))
			continue;
		snprintf(from, sizeof(from), "%s/%s", p->dir, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", aside, e->d_name);
		if (fsio_rename(from, to) < 0) {
			snprintf(err, errlen, "cannot move %s to %s: %s", from, aside,
			         strerror(errno));
			rc = -1;
		}
	}
	closedir(d);
	if (rc == 0 && (fsio_fsync_dir(aside) < 0 || fsio_fsync_dir(p->dir) < 0)) {
		snprintf(err, errlen, "cannot fsync %s: %s", p->dir, strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * Imports a state directory written by the journal-and-snapshot store: reads
 * it whole with restore (which refuses damaged files as it always did),
 * commits every record in one fsynced transaction, then moves the old files
 * into DIR/imported-<time>/. A crash before the move imports again on the
 * next start, to the same rows. Returns 0 (st then holds every record), or -1.
 */
int
persist_import_old(struct persist *p, char *err, size_t errlen)
{
	struct restore_opts ro = {.dir = p->dir, .salvage = p->o.salvage, .now = p->clock};
	struct restore_result res;
	struct import_rows ir = {0};
	char why[16384], sub[64];
	time_t now = time(NULL);
	struct tm tm;

	if (restore_state(p->st, &ro, &res, why, sizeof(why)) < 0) {
		snprintf(err, errlen,
		         "%s. The state directory is in the old format and cannot be imported "
		         "into %s; the files are left as they are: repair or remove them, or "
		         "start with --salvage to import what is readable",
		         why, p->path);
		return -1;
	}
	if (res.clock > p->clock)
		p->clock = res.clock;
	state_flush(p->st, NULL, NULL, NULL);
	state_each_channel(p->st, import_channel, &ir);
	state_each_user(p->st, import_user, &ir);
	if (ir.failed) {
		snprintf(err, errlen,
		         "cannot import the old state files into %s: a record cannot be encoded",
		         p->path);
		import_free(&ir);
		return -1;
	}
	if (store_sqlite_write_now(p->be, ir.rows, ir.n, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot import the old state files into %s: %s", p->path,
		         why);
		import_free(&ir);
		return -1;
	}
	import_free(&ir);
	gmtime_r(&now, &tm);
	strftime(sub, sizeof(sub), "imported-%Y%m%dT%H%M%SZ", &tm);
	if (move_aside(p, sub, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "the old state files were imported into %s, but %s", p->path,
		         why);
		return -1;
	}
	log_info("store: imported %llu records from the old state files of %s into %s; the "
	         "old files are in %s/%s",
	         (unsigned long long)(state_nchannels(p->st) + state_nusers(p->st)), p->dir,
	         p->path, p->dir, sub);
	return 0;
}
