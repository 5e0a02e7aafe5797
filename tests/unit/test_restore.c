/* Unit tests for bot/store/restore.c, the reader of the old state format:
 * replay, torn lines, corrupt files, salvage. Old-format directories are
 * written by tests/unit/helpers/oldstate.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/store/crc32.h"
#include "bot/store/journal.h"
#include "bot/store/store_record.h"
#include "bot/store/restore.h"
#include "rules/base/buf.h"
#include "tests/unit/helpers/faultio.h"
#include "tests/unit/helpers/oldstate.h"

#define NOW 1700000000

/* --- building state directories --- */

static void
set_gm(struct state *st, const char *key, const char *gm, int64_t used)
{
	struct channel *ch = state_channel(st, key);

	if (gm != NULL)
		channel_set_gm(ch, gm, gm + 8);
	else
		channel_clear_gm(ch);
	channel_set_last_used(ch, used);
}

/* Writes st as dir's snapshot (taken at NOW - 100, next journal next). */
static void
make_snapshot(const char *dir, struct state *st, uint64_t next)
{
	oldstate_snapshot(dir, st, NOW - 100, next);
}

/* Appends a channel record to journal j. */
static void
journal_gm(FILE *j, const char *key, const char *gm, int64_t used)
{
	struct state *st = state_new();

	set_gm(st, key, gm, used);
	oldstate_channel(j, state_channel(st, key));
	state_free(st);
}

static void
append_raw(const char *path, const char *bytes)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	assert_true(fd >= 0);
	assert_true(write(fd, bytes, strlen(bytes)) == (ssize_t)strlen(bytes));
	close(fd);
}

/* Reads a whole file into a NUL-terminated buffer (free it). */
static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *p = calloc(1, 1 << 20);

	assert_non_null(fp);
	*len = fread(p, 1, (1 << 20) - 1, fp);
	fclose(fp);
	return p;
}

static void
spit(const char *path, const char *p, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(p, 1, len, fp), len);
	fclose(fp);
}

/* The byte offset where line n (from 1) of path starts. */
static size_t
line_start(const char *path, int n)
{
	size_t len, off = 0;
	char *p = slurp(path, &len);

	for (int i = 1; i < n; i++)
		off = (size_t)(strchr(p + off, '\n') - p) + 1;
	free(p);
	return off;
}

/* --- running restore with stderr captured --- */

static char logbuf[8192];

static int
run_restore(struct state *st, const char *dir, bool salvage, struct restore_result *res, char *err,
            size_t errlen)
{
	struct restore_opts o = {.dir = dir, .salvage = salvage, .now = NOW};
	char path[] = "/tmp/delver-log-XXXXXX";
	int fd = mkstemp(path), saved = dup(2), rc;
	FILE *fp;
	size_t n;

	fflush(stderr);
	dup2(fd, 2);
	rc = restore_state(st, &o, res, err, errlen);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	fp = fopen(path, "r");
	n = fread(logbuf, 1, sizeof(logbuf) - 1, fp);
	logbuf[n] = '\0';
	fclose(fp);
	unlink(path);
	return rc;
}

static const char *
gm_of(struct state *st, const char *key)
{
	struct channel *ch = state_channel_find(st, key);

	return ch == NULL ? "(absent)" : channel_gm(ch) ? channel_gm(ch) : "(none)";
}

/* A directory with a snapshot (next journal 3) and journals 2 (obsolete), 3, 4. */
static char *
sample_dir(void)
{
	char *dir = tmpdir_new();
	struct state *st = state_new();
	FILE *j;

	set_gm(st, "console:a", "console:ann", NOW - 50);
	set_gm(st, "console:b", "console:bob", NOW - 50);
	user_set_name(state_user(st, "console:ann"), "ann");
	make_snapshot(dir, st, 3);
	state_free(st);
	j = oldstate_journal(dir, 2);
	journal_gm(j, "console:old", "console:zed", NOW - 200);
	fclose(j);
	j = oldstate_journal(dir, 3);
	journal_gm(j, "console:a", "console:cat", NOW - 40);
	journal_gm(j, "console:c", "console:cat", NOW - 40);
	fclose(j);
	j = oldstate_journal(dir, 4);
	journal_gm(j, "console:a", NULL, NOW - 30);
	fclose(j);
	return dir;
}

static void
test_snapshot_then_journals_last_wins(void **state)
{
	char *dir = sample_dir(), err[1024];
	struct state *st = state_new();
	struct restore_result res;

	assert_int_equal(run_restore(st, dir, false, &res, err, sizeof(err)), 0);
	assert_string_equal(gm_of(st, "console:a"), "(none)");
	assert_string_equal(gm_of(st, "console:b"), "console:bob");
	assert_string_equal(gm_of(st, "console:c"), "console:cat");
	assert_string_equal(gm_of(st, "console:old"), "(absent)"); /* folded in: ignored */
	assert_string_equal(user_name(state_user_find(st, "console:ann")), "ann");
	assert_int_equal(res.loaded, 3);
	assert_int_equal(res.replayed, 3);
	assert_int_equal(res.journals, 2);
	assert_int_equal(res.taken, NOW - 100);
	assert_string_equal(logbuf, "");
	state_free(st);
	tmpdir_remove(dir);
}

static void
test_torn_last_line_is_dropped_with_a_warning(void **state)
{
	char *dir = sample_dir(), path[512], err[1024], want[600];
	struct state *st = state_new();
	struct restore_result res;
	struct stat sb;

	journal_path(path, sizeof(path), dir, 4);
	stat(path, &sb);
	append_raw(path, "0badc0de {\"t\":\"c\",\"key\":\"console:b\",\"last_us");
	assert_int_equal(run_restore(st, dir, false, &res, err, sizeof(err)), 0);
	snprintf(want, sizeof(want),
	         "warn: %s: dropping the torn last line at byte %lld (a crash in mid-write)\n",
	         path, (long long)sb.st_size);
	assert_string_equal(logbuf, want);
	assert_string_equal(gm_of(st, "console:b"), "console:bob");
	assert_string_equal(gm_of(st, "console:a"), "(none)");
	state_free(st);
	tmpdir_remove(dir);
}

/* Damages a file, checks the refusal message and that the file is untouched. */
static void
expect_refusal(char *dir, const char *file, const char *why)
{
	char path[512], err[1024], want[700];
	struct state *st = state_new();
	struct restore_result res;
	unsigned long before;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	before = file_crc(path);
	assert_int_equal(run_restore(st, dir, false, &res, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: %s", path, why);
	assert_string_equal(err, want);
	assert_int_equal(file_crc(path), before);
	state_free(st);
	tmpdir_remove(dir);
}

static void
flip_byte(const char *dir, const char *file, size_t off)
{
	char path[512];
	size_t len;
	char *p;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	p = slurp(path, &len);
	p[off] ^= 0x10;
	spit(path, p, len);
	free(p);
}

static void
truncate_file(const char *dir, const char *file, size_t off)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_int_equal(truncate(path, (off_t)off), 0);
}

static void
test_flipped_byte_refuses_and_keeps_the_file(void **state)
{
	char *dir = sample_dir(), path[512];

	snprintf(path, sizeof(path), "%s/snapshot.dlv", dir);
	flip_byte(dir, "snapshot.dlv", line_start(path, 3) + 20);
	expect_refusal(dir, "snapshot.dlv:3", "checksum mismatch: the line was changed or damaged");

	dir = sample_dir();
	snprintf(path, sizeof(path), "%s/journal.00000003.dlv", dir);
	flip_byte(dir, "journal.00000003.dlv", line_start(path, 2) + 30);
	expect_refusal(dir, "journal.00000003.dlv:2",
	               "checksum mismatch: the line was changed or damaged");
}

static void
test_truncated_snapshot_refuses(void **state)
{
	char *dir = sample_dir(), path[512];

	snprintf(path, sizeof(path), "%s/snapshot.dlv", dir);
	truncate_file(dir, "snapshot.dlv", line_start(path, 3) + 10);
	expect_refusal(dir, "snapshot.dlv:3", "the file ends in the middle of a line (truncated)");

	dir = sample_dir();
	snprintf(path, sizeof(path), "%s/snapshot.dlv", dir);
	truncate_file(dir, "snapshot.dlv", line_start(path, 4));
	expect_refusal(dir, "snapshot.dlv:3", "the file ends without its end line (truncated)");

	dir = sample_dir();
	truncate_file(dir, "snapshot.dlv", 0);
	expect_refusal(dir, "snapshot.dlv:1", "the file is empty");
}

static void
test_future_version_refuses(void **state)
{
	char *dir = sample_dir(), path[512];
	const char *json =
	    "{\"format\":\"delver-state\",\"version\":4,\"file\":\"journal\",\"seq\":9}";
	char line[256];

	snprintf(line, sizeof(line), "%08x %s\n", (unsigned)crc32_of(json, strlen(json)), json);
	snprintf(path, sizeof(path), "%s/journal.00000009.dlv", dir);
	spit(path, line, strlen(line));
	expect_refusal(dir, "journal.00000009.dlv:1",
	               "format version 4 is newer than this delver understands (3); run a newer "
	               "delver");
}

static void
test_journal_number_must_match_its_header(void **state)
{
	char *dir = sample_dir(), from[512], to[512];

	snprintf(from, sizeof(from), "%s/journal.00000004.dlv", dir);
	snprintf(to, sizeof(to), "%s/journal.00000007.dlv", dir);
	assert_int_equal(rename(from, to), 0);
	expect_refusal(dir, "journal.00000007.dlv:1", "the header says journal 4, the name 7");
}

static void
test_salvage_moves_the_bad_file_aside(void **state)
{
	char *dir = sample_dir(), path[512], err[1024];
	struct state *st = state_new();
	struct restore_result res;
	struct dirent *e;
	int bad = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/snapshot.dlv", dir);
	flip_byte(dir, "snapshot.dlv", line_start(path, 3) + 20); /* console:b */
	assert_int_equal(run_restore(st, dir, true, &res, err, sizeof(err)), 0);
	assert_true(res.moved_aside);
	assert_int_equal(res.taken, 0);
	assert_string_equal(gm_of(st, "console:b"), "(absent)");
	assert_string_equal(gm_of(st, "console:c"), "console:cat");
	assert_non_null(strstr(logbuf, "snapshot.dlv:3: checksum mismatch: the line was changed "
	                               "or damaged; skipped (--salvage)"));
	assert_non_null(strstr(logbuf, "snapshot.dlv.bad-20231114T221320Z (--salvage)"));
	assert_int_equal(access(path, F_OK), -1);
	d = opendir(dir);
	while ((e = readdir(d)) != NULL)
		bad += strcmp(e->d_name, "snapshot.dlv.bad-20231114T221320Z") == 0;
	closedir(d);
	assert_int_equal(bad, 1);
	state_free(st);
	tmpdir_remove(dir);
}

static void
test_empty_journal_is_ignored(void **state)
{
	char *dir = sample_dir(), path[512], err[1024], want[600];
	struct state *st = state_new();
	struct restore_result res;

	snprintf(path, sizeof(path), "%s/journal.00000005.dlv", dir);
	spit(path, "", 0);
	assert_int_equal(run_restore(st, dir, false, &res, err, sizeof(err)), 0);
	snprintf(want, sizeof(want),
	         "warn: %s: ends within its header at byte 0 (a crash while it was created); "
	         "ignored\n",
	         path);
	assert_string_equal(logbuf, want);
	assert_int_equal(res.journals, 3);
	assert_string_equal(gm_of(st, "console:c"), "console:cat");
	state_free(st);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_snapshot_then_journals_last_wins),
	    cmocka_unit_test(test_torn_last_line_is_dropped_with_a_warning),
	    cmocka_unit_test(test_flipped_byte_refuses_and_keeps_the_file),
	    cmocka_unit_test(test_truncated_snapshot_refuses),
	    cmocka_unit_test(test_future_version_refuses),
	    cmocka_unit_test(test_journal_number_must_match_its_header),
	    cmocka_unit_test(test_salvage_moves_the_bad_file_aside),
	    cmocka_unit_test(test_empty_journal_is_ignored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
