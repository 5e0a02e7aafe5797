/* bot/store/store_merge: what is newer in a sibling shard database comes
 * over, rows written by the SQLite backend itself. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <uv.h>

#include "bot/log.h"
#include "bot/store/store_merge.h"
#include "bot/store/store_sqlite.h"
#include "rules/base/buf.h"
#include "tests/unit/helpers/faultio.h"

static void
closed(void *ctx, enum store_status status, const char *err)
{
	(void)ctx;
	(void)status;
	(void)err;
}

/* Creates path with rows[0..n) as the SQLite backend writes them. */
static void
make_db(const char *path, const struct store_row *rows, size_t n)
{
	uv_loop_t loop;
	char err[512];
	struct store_backend *b;

	uv_loop_init(&loop);
	b = store_sqlite_open(&loop, path, FSYNC_NO, err, sizeof(err));
	assert_non_null(b);
	assert_int_equal(store_sqlite_write_now(b, rows, n, err, sizeof(err)), 0);
	b->ops->close(b, closed, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
}

static struct store_row
chan(const char *key, int64_t used, const char *rec)
{
	return (struct store_row){.kind = STORE_CHANNEL,
	                          .key = key,
	                          .last_used = used,
	                          .version = 3,
	                          .rec = rec,
	                          .rec_len = rec != NULL ? strlen(rec) : 0};
}

/* entries 1..n of a channel's log, "e1", "e2"... */
static struct store_log_row logs[8];

static void
init_logs(void)
{
	static char text[8][4];

	for (int i = 0; i < 8; i++) {
		snprintf(text[i], sizeof(text[i]), "e%d", i + 1);
		logs[i] = (struct store_log_row){(uint64_t)i + 1, text[i], strlen(text[i])};
	}
}

static struct store_row
chan_logged(const char *key, int64_t used, const char *rec, size_t n)
{
	struct store_row r = chan(key, used, rec);

	r.log = logs;
	r.nlog = n;
	return r;
}

/* "e1..eN" of the channel's log in the database, or "" */
static void
look_logs(const char *path, const char *key, char *out, size_t len)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	size_t used = 0;

	out[0] = '\0';
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT rec FROM logs WHERE key = ?1 ORDER BY seq",
	                                    -1, &s, NULL),
	                 SQLITE_OK);
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW && used + 8 < len)
		used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? " " : "",
		                         sqlite3_column_bytes(s, 0),
		                         (const char *)sqlite3_column_blob(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static struct store_row
user(const char *key, const char *rec)
{
	return (struct store_row){
	    .kind = STORE_USER, .key = key, .version = 3, .rec = rec, .rec_len = strlen(rec)};
}

/* "rec@last_used#generation" of a channel, "rec#generation" of a user,
 * "none", or "gone@at". */
static void
look(const char *path, const char *table, const char *key, char *out, size_t len)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char sql[200];
	bool ch = strcmp(table, "channels") == 0;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "SELECT rec, %s, generation FROM %s WHERE key = ?1",
	         ch ? "last_used" : "0", table);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		if (ch)
			snprintf(out, len, "%.*s@%lld#%lld", sqlite3_column_bytes(s, 0),
			         (const char *)sqlite3_column_blob(s, 0),
			         sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2));
		else
			snprintf(out, len, "%.*s#%lld", sqlite3_column_bytes(s, 0),
			         (const char *)sqlite3_column_blob(s, 0),
			         sqlite3_column_int64(s, 2));
	} else {
		snprintf(out, len, "none");
	}
	sqlite3_finalize(s);
	if (strcmp(out, "none") == 0) {
		assert_int_equal(
		    sqlite3_prepare_v2(db, "SELECT at FROM gone WHERE kind = ?2 AND key = ?1", -1,
		                       &s, NULL),
		    SQLITE_OK);
		sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, ch ? 0 : 1);
		if (sqlite3_step(s) == SQLITE_ROW)
			snprintf(out, len, "gone@%lld", sqlite3_column_int64(s, 0));
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
}

static void
newer_wins(void **unused)
{
	char *dir = tmpdir_new();
	struct buf a, b, bad;
	char got[200], err[256];
	char *from[3];
	struct store_row in_a[] = {
	    chan_logged("discord:1", 100, "a1", 2), chan("discord:2", 200, "a2"),
	    chan("discord:4", 250, "a4"),           user("discord:u1", "ua1"),
	    chan("discord:5", 600, "a5"),           chan("discord:5", 500, NULL),
	    chan_logged("discord:6", 300, "a6", 2), chan_logged("discord:7", 300, "a7", 3),
	};
	struct store_row in_b[] = {
	    chan_logged("discord:1", 150, "b1", 3),
	    chan("discord:2", 150, "b2"),
	    chan("discord:3", 50, "b3"),
	    chan("discord:4", 240, "b4"),
	    chan("discord:4", 300, NULL),
	    user("discord:u1", "ub1"),
	    user("discord:u2", "ub2"),
	    chan("discord:5", 400, "b5"),
	    chan_logged("discord:6", 300, "a6", 3),
	    chan_logged("discord:7", 300, "a7", 3),
	};

	log_set_level(LOG_LEVEL_ERROR);
	init_logs();
	buf_init(&a, 4096);
	buf_init(&b, 4096);
	buf_init(&bad, 4096);
	buf_addf(&a, "%s/a.db", dir);
	buf_addf(&b, "%s/b?#%%.db", dir); /* characters a URI gives meaning to */
	buf_addf(&bad, "%s/missing/delver.db", dir);
	make_db(buf_str(&a), in_a, sizeof(in_a) / sizeof(in_a[0]));
	make_db(buf_str(&b), in_b, sizeof(in_b) / sizeof(in_b[0]));
	from[0] = (char *)buf_str(&bad); /* cannot be read: skipped */
	from[1] = (char *)buf_str(&b);
	from[2] = NULL;
	/* c1 newer there, c3 only there, c4 deleted there later, c6 with a
	 * roll more in its log (the record as it was), u2 only there */
	assert_int_equal(store_merge(buf_str(&a), from, err, sizeof(err)), 5);
	look(buf_str(&a), "channels", "discord:1", got, sizeof(got));
	assert_string_equal(got, "b1@150#2"); /* over a1 at generation 1 */
	look_logs(buf_str(&a), "discord:1", got, sizeof(got));
	assert_string_equal(got, "e1 e2 e3");
	look(buf_str(&a), "channels", "discord:6", got, sizeof(got));
	assert_string_equal(got, "a6@300#2");
	look_logs(buf_str(&a), "discord:6", got, sizeof(got));
	assert_string_equal(got, "e1 e2 e3");
	look(buf_str(&a), "channels", "discord:7", got, sizeof(got));
	assert_string_equal(got, "a7@300#1"); /* the same everywhere: left alone */
	look(buf_str(&a), "channels", "discord:2", got, sizeof(got));
	assert_string_equal(got, "a2@200#1");
	look(buf_str(&a), "channels", "discord:3", got, sizeof(got));
	assert_string_equal(got, "b3@50#1");
	look(buf_str(&a), "channels", "discord:4", got, sizeof(got));
	assert_string_equal(got, "gone@300");
	look_logs(buf_str(&a), "discord:4", got, sizeof(got));
	assert_string_equal(got, "");
	/* deleted here after b's copy was made: it stays deleted */
	look(buf_str(&a), "channels", "discord:5", got, sizeof(got));
	assert_string_equal(got, "gone@500");
	look(buf_str(&a), "users", "discord:u1", got, sizeof(got));
	assert_string_equal(got, "ua1#1");
	look(buf_str(&a), "users", "discord:u2", got, sizeof(got));
	assert_string_equal(got, "ub2#1");
	/* again: nothing is newer any more */
	assert_int_equal(store_merge(buf_str(&a), from, err, sizeof(err)), 0);
	/* no siblings at all */
	from[0] = NULL;
	assert_int_equal(store_merge(buf_str(&a), from, err, sizeof(err)), 0);
	buf_free(&a);
	buf_free(&b);
	buf_free(&bad);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(newer_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
