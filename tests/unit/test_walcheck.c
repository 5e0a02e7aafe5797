/*
 * Unit tests for bot/store/walcheck.c: logs that SQLite itself wrote, then
 * damaged, cut or restarted; where a log is damaged, SQLite's own recovery
 * of a copy is checked to keep exactly the commits walcheck says it keeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bot/store/walcheck.h"
#include "tests/unit/helpers/slurp.h"

#define ROWS 6

struct wal {
	unsigned char *db, *log;
	size_t db_n, log_n;
};

static void
spill(const char *path, const unsigned char *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void
exec(sqlite3 *db, const char *sql)
{
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
}

/*
 * A database in WAL mode with a table and ROWS rows, each its own commit,
 * all in the log; with restart, those commits are checkpointed, the log
 * restarted, and one more row committed into the new generation (written
 * over the first frames, the older ones kept after it). The database file
 * and log are copied while the connection is open, as a kill -9 leaves
 * them.
 */
static void
make_wal(struct wal *w, bool restart)
{
	char dir[] = "/tmp/walcheck-XXXXXX", path[256], sql[64];
	sqlite3 *db;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
	         "CREATE TABLE t(x)");
	for (int i = 0; i < ROWS; i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO t VALUES(%d)", i);
		exec(db, sql);
	}
	if (restart) {
		exec(db, "PRAGMA wal_checkpoint(RESTART)");
		exec(db, "INSERT INTO t VALUES(99)");
	}
	w->db = (unsigned char *)slurp(path, &w->db_n);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	w->log = (unsigned char *)slurp(path, &w->log_n);
	sqlite3_close(db);
	snprintf(sql, sizeof(sql), "rm -rf %s", dir);
	assert_int_equal(system(sql), 0);
}

static void
free_wal(struct wal *w)
{
	free(w->db);
	free(w->log);
}

/* The rows SQLite reads from the database file with log beside it; -1
 * when it finds no table (the whole log ignored: the table is in it). */
static int
rows_recovered(const struct wal *w, const unsigned char *log, size_t log_n)
{
	char dir[] = "/tmp/walcheck-XXXXXX", path[256];
	sqlite3 *db;
	sqlite3_stmt *st;
	int rows;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	spill(path, log, log_n);
	snprintf(path, sizeof(path), "%s/t.db", dir);
	spill(path, w->db, w->db_n);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &st, NULL) == SQLITE_OK) {
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		rows = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	} else {
		rows = -1;
	}
	sqlite3_close(db);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
	return rows;
}

static size_t
frame_at(const struct walcheck *c, long i)
{
	return WALCHECK_HDR + (size_t)i * (WALCHECK_FRAME_HDR + c->page_size);
}

static void
test_whole_log(void **state)
{
	struct wal w;
	struct walcheck c;

	make_wal(&w, false);
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	assert_int_equal(c.page_size, 4096);
	assert_true(c.frames >= ROWS + 1);
	assert_int_equal(c.readable, c.frames);
	assert_int_equal(c.commits, ROWS + 1);
	assert_int_equal(c.first_bad, -1);
	assert_int_equal(c.lost_frames, 0);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), ROWS);
	free_wal(&w);
}

/* A flipped byte in the last frame's page: its commit is dropped by SQLite,
 * and walcheck says so. */
static void
test_last_frame_flipped(void **state)
{
	struct wal w;
	struct walcheck c;

	make_wal(&w, false);
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	w.log[frame_at(&c, c.frames - 1) + WALCHECK_FRAME_HDR + 300] ^= 0xff;
	assert_true(walcheck_scan(w.log, w.log_n, &c));
	assert_false(c.bad_header);
	assert_int_equal(c.first_bad, c.frames - 1);
	assert_int_equal(c.readable, c.frames - 1);
	assert_int_equal(c.lost_frames, 1);
	assert_int_equal(c.lost_commits, 1);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), ROWS - 1);
	free_wal(&w);
}

/* A flipped byte in a frame's header in the middle: every later commit goes. */
static void
test_middle_frame_flipped(void **state)
{
	struct wal w;
	struct walcheck c;
	long bad;

	make_wal(&w, false);
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	bad = c.frames - 3;
	w.log[frame_at(&c, bad) + 2] ^= 0x01; /* the page number */
	assert_true(walcheck_scan(w.log, w.log_n, &c));
	assert_int_equal(c.first_bad, bad);
	assert_int_equal(c.lost_frames, 3);
	assert_int_equal(c.lost_commits, 3);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), ROWS - 3);
	free_wal(&w);
}

/* A salt flipped in a middle frame: recovery stops there as at an older
 * generation's frame, but current frames follow, so it is damage. */
static void
test_salt_flipped(void **state)
{
	struct wal w;
	struct walcheck c;
	long bad;

	make_wal(&w, false);
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	bad = c.frames - 2;
	w.log[frame_at(&c, bad) + 9] ^= 0x10;
	assert_true(walcheck_scan(w.log, w.log_n, &c));
	assert_int_equal(c.first_bad, bad);
	assert_int_equal(c.lost_frames, 2);
	assert_int_equal(c.lost_commits, 2);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), ROWS - 2);
	free_wal(&w);
}

/* A restarted log: the new generation over the first frame, the older
 * frames after it with their salts, normal and not damage. */
static void
test_older_generation(void **state)
{
	struct wal w;
	struct walcheck c;

	make_wal(&w, true);
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	assert_true(c.frames > c.readable);
	assert_int_equal(c.commits, 1);
	assert_int_equal(c.first_bad, -1);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), ROWS + 1);
	/* A stale frame damaged says nothing either. */
	w.log[frame_at(&c, c.frames - 1) + WALCHECK_FRAME_HDR + 10] ^= 0xff;
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	free_wal(&w);
}

/* A frame cut short at the end (a write never finished) is not damage. */
static void
test_cut_last_frame(void **state)
{
	struct wal w;
	struct walcheck c;

	make_wal(&w, false);
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	w.log_n = frame_at(&c, c.frames - 1) + WALCHECK_FRAME_HDR + 100;
	assert_false(walcheck_scan(w.log, w.log_n, &c));
	assert_int_equal(c.commits, ROWS);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), ROWS - 1);
	free_wal(&w);
}

/* A damaged header: SQLite ignores the whole log. */
static void
test_bad_header(void **state)
{
	struct wal w;
	struct walcheck c;

	make_wal(&w, false);
	w.log[20] ^= 0x01; /* salt-2, under the header's checksum */
	assert_true(walcheck_scan(w.log, w.log_n, &c));
	assert_true(c.bad_header);
	assert_int_equal(rows_recovered(&w, w.log, w.log_n), -1);
	/* A header alone, or less, holds nothing to lose. */
	assert_false(walcheck_scan(w.log, WALCHECK_HDR, &c));
	assert_false(walcheck_scan(w.log, 5, &c));
	assert_false(walcheck_scan(w.log, 0, &c));
	free_wal(&w);
}

/* The copies in dir whose names start with prefix. */
static int
copies(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

static void
test_keep(void **state)
{
	char dir[] = "/tmp/walcheck-XXXXXX", db[256], log[256], name[300], msg[9000], want[9000];
	struct wal w;
	struct walcheck c;
	unsigned char *back;
	size_t back_n;
	time_t t = 1796222696; /* 2026-12-02T14:44:56Z */

	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/delver.db", dir);
	snprintf(log, sizeof(log), "%s/delver.db-wal", dir);
	/* No log, and a whole log: nothing to say, no copy. */
	assert_int_equal(walcheck_keep(db, t, msg, sizeof(msg)), 0);
	make_wal(&w, false);
	spill(log, w.log, w.log_n);
	assert_int_equal(walcheck_keep(db, t, msg, sizeof(msg)), 0);
	assert_int_equal(copies(dir, "delver.db-wal.damaged-"), 0);

	assert_false(walcheck_scan(w.log, w.log_n, &c));
	w.log[frame_at(&c, c.frames - 1) + WALCHECK_FRAME_HDR + 300] ^= 0xff;
	spill(log, w.log, w.log_n);
	assert_int_equal(walcheck_keep(db, t, msg, sizeof(msg)), 1);
	snprintf(want, sizeof(want),
	         "the database log %s has 1 frame of its current generation that cannot be "
	         "read (from frame %ld on, holding 1 commit), which SQLite drops as it opens "
	         "the database: those changes are lost (a damaged disk, or a write cut short "
	         "by a crash or power cut); a byte-for-byte copy of the log is kept as "
	         "%s.damaged-20261202T144456Z, and delver starts on what SQLite recovers",
	         log, c.frames, log);
	assert_string_equal(msg, want);
	snprintf(name, sizeof(name), "%s.damaged-20261202T144456Z", log);
	back = (unsigned char *)slurp(name, &back_n);
	assert_int_equal(back_n, w.log_n);
	assert_memory_equal(back, w.log, w.log_n);
	free(back);
	back = (unsigned char *)slurp(log, &back_n);
	assert_memory_equal(back, w.log, w.log_n);
	free(back);

	/* A second start in the same second keeps its own copy beside the first. */
	w.log[frame_at(&c, c.frames - 2) + WALCHECK_FRAME_HDR + 300] ^= 0xff;
	spill(log, w.log, w.log_n);
	assert_int_equal(walcheck_keep(db, t, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "2 frames of its current generation"));
	assert_non_null(strstr(msg, ".damaged-20261202T144456Z.1, and"));
	snprintf(name, sizeof(name), "%s.damaged-20261202T144456Z", log);
	back = (unsigned char *)slurp(name, &back_n);
	assert_int_equal(back_n, w.log_n);
	assert_memory_not_equal(back, w.log, w.log_n);
	free(back);
	assert_int_equal(copies(dir, "delver.db-wal.damaged-"), 2);

	free_wal(&w);
	snprintf(name, sizeof(name), "rm -rf %s", dir);
	assert_int_equal(system(name), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_whole_log),
	    cmocka_unit_test(test_last_frame_flipped),
	    cmocka_unit_test(test_middle_frame_flipped),
	    cmocka_unit_test(test_salt_flipped),
	    cmocka_unit_test(test_older_generation),
	    cmocka_unit_test(test_cut_last_frame),
	    cmocka_unit_test(test_bad_header),
	    cmocka_unit_test(test_keep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
