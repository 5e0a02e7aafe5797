/* restore_channel: one channel's row back from a snapshot file; see
 * restore_channel.h. */
#include "bot/store/restore_channel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bot/log.h"
#include "bot/store/persist.h"
#include "bot/store/persist_opts.h"
#include "bot/store/restore_cut.h"
#include "bot/store/snapfile.h"
#include "bot/store/statedir.h"
#include "bot/store/store_record.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define BUSY_MS 5000

/* The row of one channel, copied out of the snapshot file, with its log
 * entries (a file of delver 0.1 has none: its records hold their logs). */
struct row {
	int64_t last_used;
	int version;
	void *rec;
	size_t len;
	struct buf log;  /* the entries' records, one after another */
	int64_t *seq;    /* each entry's number */
	size_t *log_len; /* and length */
	size_t nlog;
};

/* Reads key's log entries from the snapshot file into row, checking that
 * each decodes into the channel's record r. Returns 0, or -1 with err. */
static int
read_log(sqlite3 *db, const char *file, const char *key, struct store_record *r, struct row *out,
         char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	char why[1024];
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT seq, rec FROM logs WHERE key = ?1 ORDER BY seq", -1, &s,
	                       NULL) != SQLITE_OK)
		return 0; /* no log table */
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const void *rec = sqlite3_column_blob(s, 1);
		size_t len = (size_t)sqlite3_column_bytes(s, 1);
		int64_t seq = sqlite3_column_int64(s, 0);

		if (rec == NULL ||
		    store_record_decode_log(r, store_record_builtin_mods(), (uint64_t)seq, rec, len,
		                            why, sizeof(why)) < 0) {
			snprintf(err, errlen, "the log of channel '%s' in %s cannot be read (%s)",
			         key, file, rec == NULL ? "an entry is empty" : why);
			sqlite3_finalize(s);
			return -1;
		}
		out->seq = xrealloc(out->seq, (out->nlog + 1) * sizeof(*out->seq));
		out->log_len = xrealloc(out->log_len, (out->nlog + 1) * sizeof(*out->log_len));
		out->seq[out->nlog] = seq;
		out->log_len[out->nlog] = len;
		buf_add(&out->log, rec, len);
		out->nlog++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "cannot read %s: %s", file, sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* Opens path (flags as sqlite3_open_v2) and checks that it is a whole delver
 * database. Returns the connection, or NULL with err; a refused file is
 * left as it was, with the log files beside it (a log that was there is
 * not checkpointed into it, one the open made is removed). */
static sqlite3 *
open_checked(const char *path, int flags, const char *what, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	const char *res = NULL;
	struct stat sb;
	bool had[2];

	if (stat(path, &sb) < 0) {
		snprintf(err, errlen, "cannot read %s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size == 0) {
		snprintf(err, errlen, "%s %s is not a delver database (%s)", what, path,
		         S_ISREG(sb.st_mode) ? "it is empty" : "not a regular file");
		return NULL;
	}
	store_sqlite_logs_present(path, had);
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s %s: %s", what, path,
		         db != NULL ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	/* Until the file passes the check, a close must not checkpoint a
	 * log into it (and so remove the log). */
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	sqlite3_busy_timeout(db, BUSY_MS);
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW ||
	    (res = (const char *)sqlite3_column_text(s, 0)) == NULL || strcmp(res, "ok") != 0) {
		/* SQLite's finding, on the one line of the error */
		snprintf(err, errlen, "%s %s is damaged or not a database (%s)", what, path,
		         res != NULL ? res : sqlite3_errmsg(db));
		for (char *c = err; *c != '\0'; c++)
			if (*c == '\n')
				*c = ' ';
		goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT key, last_used, version, rec FROM channels LIMIT 0", -1,
	                       &s, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s %s is not a delver database (it has no channels table)",
		         what, path);
		goto fail;
	}
	sqlite3_finalize(s);
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
	return db;
fail:
	sqlite3_finalize(s);
	sqlite3_close(db);
	store_sqlite_logs_remove_made(path, had);
	return NULL;
}

/* Reads key's row from the snapshot file and checks that it decodes as that
 * channel. Returns 1 (found), 0 (no such row), or -1 with err. */
static int
read_row(sqlite3 *db, const char *file, const char *key, struct row *out, char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	char why[1024];
	struct store_record r;
	const void *blob;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT last_used, version, rec FROM channels WHERE key = ?1",
	                       -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot read %s: %s", file, sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(s);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		snprintf(err, errlen, "cannot read %s: %s", file, sqlite3_errmsg(db));
		sqlite3_finalize(s);
		return -1;
	}
	out->last_used = sqlite3_column_int64(s, 0);
	out->version = sqlite3_column_int(s, 1);
	blob = sqlite3_column_blob(s, 2);
	out->len = (size_t)sqlite3_column_bytes(s, 2);
	if (blob == NULL ||
	    store_record_decode(blob, out->len, out->version, store_record_builtin_mods(), &r, why,
	                        sizeof(why)) < 0) {
		snprintf(err, errlen, "the record of channel '%s' in %s cannot be read (%s)", key,
		         file, blob == NULL ? "it is empty" : why);
		sqlite3_finalize(s);
		return -1;
	}
	rc = r.kind == STORE_RECORD_CHANNEL && strcmp(r.key, key) == 0;
	if (!rc) {
		store_record_clear(&r, store_record_builtin_mods());
		snprintf(err, errlen, "the row of channel '%s' in %s holds another record", key,
		         file);
		sqlite3_finalize(s);
		return -1;
	}
	rc = read_log(db, file, key, &r, out, err, errlen);
	store_record_clear(&r, store_record_builtin_mods());
	if (rc < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	out->rec = xmalloc(out->len > 0 ? out->len : 1);
	memcpy(out->rec, blob, out->len);
	sqlite3_finalize(s);
	return 1;
}

/* Replaces key's row of the database at db in one fsynced transaction.
 * *existed tells whether it had one. Returns 0, or -1 with err. */
static int
write_row(sqlite3 *db, const char *path, const char *key, const struct row *row, bool *existed,
          char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	int rc = -1;

	/* A database of an older schema gets the log's table (the rest of its
	 * upgrade is the backend's, at the next start). */
	if (sqlite3_exec(db, "PRAGMA synchronous = FULL", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, store_sqlite_schema(), NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot write %s: %s", path, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM channels WHERE key = ?1", -1, &s, NULL) !=
	    SQLITE_OK)
		goto out;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	*existed = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(db,
	                       "INSERT INTO channels(key, last_used, version, rec) "
	                       "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE SET "
	                       "last_used = excluded.last_used, version = excluded.version, "
	                       "rec = excluded.rec",
	                       -1, &s, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	/* Stamped now: the restored copy is the newest, also against the
	 * copies other shard processes' databases hold (store_merge.h). */
	sqlite3_bind_int64(
	    s, 2, row->last_used > (int64_t)time(NULL) ? row->last_used : (int64_t)time(NULL));
	sqlite3_bind_int(s, 3, row->version);
	sqlite3_bind_blob(s, 4, row->rec, (int)row->len, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		goto out;
	sqlite3_finalize(s);
	s = NULL;
	if (store_sqlite_forget_at_start(db, "key = ?1", key) < 0)
		goto out;
	/* The channel's log is the file's: none but its entries. */
	if (sqlite3_prepare_v2(db, "DELETE FROM logs WHERE key = ?1", -1, &s, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		goto out;
	sqlite3_finalize(s);
	s = NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO logs(key, seq, rec) VALUES(?1, ?2, ?3)", -1, &s,
	                       NULL) != SQLITE_OK)
		goto out;
	for (size_t i = 0, at = 0; i < row->nlog; at += row->log_len[i], i++) {
		sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 2, row->seq[i]);
		sqlite3_bind_blob(s, 3, row->log.p + at, (int)row->log_len[i], SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			goto out;
		sqlite3_reset(s);
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		rc = 0;
out:
	sqlite3_finalize(s);
	if (rc < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	}
	return rc;
}

int
restore_channel(const char *dir, const char *file, const char *key, char *err, size_t errlen)
{
	char path[4200], lock[4200], why[8192], plain[4400];
	struct row row = {0};
	sqlite3 *src = NULL, *dst = NULL;
	bool existed = false;
	int fd = -1, rc = -1, found, expanded;

	buf_init(&row.log, (size_t)-1);
	if (dir == NULL)
		dir = persist_opts_default_dir();
	if (*key == '\0' || strlen(key) >= KEY_MAX) {
		snprintf(err, errlen,
		         "cannot restore: --channel takes a channel's state key of 1 to %d bytes "
		         "(discord:<channel id>, irc:<network>:<#channel> or console:<name>)",
		         KEY_MAX - 1);
		return -1;
	}
	if (persist_db_path(path, sizeof(path), dir) < 0 ||
	    snprintf(lock, sizeof(lock), "%s/lock", dir) >= (int)sizeof(lock)) {
		snprintf(err, errlen, "cannot restore: the state directory's name is too long");
		return -1;
	}
	/* The file is read from its copy in dir (expanded when compressed):
	 * nothing is written beside the operator's file. */
	expanded = access(dir, F_OK) == 0
	               ? snapfile_copy_in(file, dir, plain, sizeof(plain), why, sizeof(why))
	               : 0;
	if (expanded < 0) {
		snprintf(err, errlen, "cannot restore channel '%s': %s; nothing was changed", key,
		         why);
		return -1;
	}
	src = open_checked(expanded ? plain : file, SQLITE_OPEN_READONLY, "the snapshot file", why,
	                   sizeof(why));
	if (src == NULL) {
		if (expanded > 0)
			snapfile_name_original(why, sizeof(why), plain, file);
		snprintf(err, errlen, "cannot restore channel '%s': %s; nothing was changed", key,
		         why);
		if (expanded)
			snapfile_remove(plain);
		return -1;
	}
	found = read_row(src, file, key, &row, why, sizeof(why));
	sqlite3_close(src);
	if (expanded)
		snapfile_remove(plain);
	if (found <= 0) {
		if (found == 0)
			snprintf(
			    err, errlen,
			    "cannot restore channel '%s': %s holds no channel with that key "
			    "(keys look like discord:<channel id>, irc:<network>:<#channel> or "
			    "console:<name>); nothing was changed",
			    key, file);
		else
			snprintf(err, errlen,
			         "cannot restore channel '%s': %s; nothing was changed", key, why);
		goto out;
	}
	fd = statedir_open(lock, O_RDWR | O_CREAT);
	if (fd < 0 && errno == ENOENT) {
		snprintf(err, errlen,
		         "cannot restore channel '%s': the state directory %s does not exist; "
		         "nothing was changed",
		         key, dir);
		goto out;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot restore channel '%s': cannot open %s: %s", key, lock,
		         statedir_strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen,
		         "cannot restore channel '%s': the state directory %s is in use by a "
		         "running delver (%s is locked); stop it first; nothing was changed",
		         key, dir, lock);
		goto out;
	}
	/* A whole-file restore cut short is finished first (restore_cut.h). */
	if (restore_cut_settle(dir, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot restore channel '%s': %s; nothing was changed", key,
		         why);
		goto out;
	}
	if (access(path, F_OK) < 0) {
		snprintf(err, errlen,
		         "cannot restore channel '%s': the state directory %s holds no database; "
		         "use --restore FILE without --channel to restore the whole bot; nothing "
		         "was changed",
		         key, dir);
		goto out;
	}
	dst = open_checked(path, SQLITE_OPEN_READWRITE, "the database", why, sizeof(why));
	if (dst == NULL) {
		snprintf(err, errlen, "cannot restore channel '%s': %s; nothing was changed", key,
		         why);
		goto out;
	}
	if (write_row(dst, path, key, &row, &existed, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot restore channel '%s': %s; nothing was changed", key,
		         why);
		goto out;
	}
	/* A change no snapshot holds: the next start's snapshot is due (the
	 * lock file's byte, persist__open_dir). */
	if (pwrite(fd, "1", 1, 0) != 1)
		log_warn("store: cannot write the lock file %s", lock);
	log_info("store: channel '%s' of %s %s from %s; every other record is as it was", key, path,
	         existed ? "restored" : "added", file);
	rc = 0;
out:
	sqlite3_close(dst);
	if (fd >= 0)
		close(fd);
	free(row.rec);
	free(row.seq);
	free(row.log_len);
	buf_free(&row.log);
	return rc;
}
