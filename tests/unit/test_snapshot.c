/* Unit tests for bot/snapshot.c: writing, merging, installing, lookups. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/store/crc32.h"
#include "bot/store/journal.h"
#include "bot/store/snapshot.h"
#include "tests/unit/helpers/faultio.h"

/* Channels "console:c0000" .. with a GM on every third (the rest are
 * empty, so not written), and users u0 .. u9. */
static struct state *
sample_state(int n)
{
	struct state *st = state_new();

	for (int i = 0; i < n; i++) {
		char key[32], gm[32];
		struct channel *ch;

		snprintf(key, sizeof(key), "console:c%04d", i);
		ch = state_channel(st, key);
		channel_set_last_used(ch, 1000 + i);
		if (i % 3 == 0) {
			snprintf(gm, sizeof(gm), "console:u%d", i % 10);
			channel_set_gm(ch, gm, gm + 8);
		}
	}
	for (int i = 0; i < 10; i++) {
		char key[32];
		struct thwacko_style s = {.colour = (enum ucolour)(i % UC_COUNT), .mark = "+"};
		struct user *u;

		snprintf(key, sizeof(key), "console:u%d", i);
		u = state_user(st, key);
		user_set_name(u, key + 8);
		if (i % 2)
			user_set_style(u, &s);
	}
	return st;
}

static struct snapshot *
write_and_open(struct state *st, struct snapshot *base, const char *dir, const char *name,
               struct snapshot_stats *stats)
{
	char path[512], err[1024];
	struct snapshot *s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(snapshot_write(st, base, path, 1234, 9, stats, err, sizeof(err)), 0);
	s = snapshot_open(path, err, sizeof(err));
	if (s == NULL)
		fail_msg("%s", err);
	return s;
}

/* snapshot_find's answer for key: the GM's user key, "" for none, NULL when
 * absent. */
static const char *
find_gm(struct snapshot *s, const char *key)
{
	static char gm[KEY_MAX];
	struct store_record r;
	char err[1024];
	int rc = snapshot_find(s, key, &r, err, sizeof(err));

	if (rc < 0)
		fail_msg("%s", err);
	if (rc == 0)
		return NULL;
	assert_string_equal(r.key, key);
	snprintf(gm, sizeof(gm), "%s", r.gm);
	store_record_clear(&r, store_record_builtin_mods());
	return gm;
}

static void
test_write_then_find_every_channel(void **state)
{
	char *dir = tmpdir_new();
	struct state *st = sample_state(3000);
	struct snapshot_stats stats;
	struct snapshot *s = write_and_open(st, NULL, dir, "a", &stats);

	assert_int_equal(stats.records, 1000 + 10);
	assert_int_equal(stats.copied, 0);
	assert_int_equal(snapshot_taken(s), 1234);
	assert_int_equal(snapshot_next_journal(s), 9);
	for (int i = 0; i < 3000; i++) {
		char key[32];
		const char *gm;

		snprintf(key, sizeof(key), "console:c%04d", i);
		gm = find_gm(s, key);
		if (i % 3 == 0) {
			char want[32];

			snprintf(want, sizeof(want), "console:u%d", i % 10);
			assert_non_null(gm);
			assert_string_equal(gm, want);
		} else {
			assert_null(gm); /* empty channels are not written */
		}
	}
	assert_null(find_gm(s, "console:"));
	assert_null(find_gm(s, "console:c9999"));
	assert_null(find_gm(s, "console:u1")); /* a user, not a channel */
	assert_null(find_gm(s, "zzz"));
	snapshot_close(s);
	state_free(st);
	tmpdir_remove(dir);
}

static void
test_merge_keeps_what_memory_does_not_hold(void **state)
{
	char *dir = tmpdir_new();
	struct state *st = sample_state(300), *mem = state_new();
	struct snapshot_stats stats;
	struct snapshot *base = write_and_open(st, NULL, dir, "base", NULL), *s;

	/* Memory holds only a few channels: changed, cleared, and new. */
	channel_set_gm(state_channel(mem, "console:c0003"), "console:zed", "zed");
	state_channel(mem, "console:c0006"); /* its GM was released: empty */
	channel_set_gm(state_channel(mem, "console:c0007"), "console:new", "new");
	channel_set_gm(state_channel(mem, "console:zz"), "console:new", "new");
	s = write_and_open(mem, base, dir, "merged", &stats);
	assert_int_equal(stats.records, 100 - 1 + 2);
	assert_int_equal(stats.copied, 100 - 2);
	assert_string_equal(find_gm(s, "console:c0000"), "console:u0");
	assert_string_equal(find_gm(s, "console:c0003"), "console:zed");
	assert_null(find_gm(s, "console:c0006"));
	assert_string_equal(find_gm(s, "console:c0007"), "console:new");
	assert_string_equal(find_gm(s, "console:c0297"), "console:u7");
	assert_string_equal(find_gm(s, "console:zz"), "console:new");
	snapshot_close(s);
	snapshot_close(base);
	state_free(mem);
	state_free(st);
	tmpdir_remove(dir);
}

/* Appends a framed JSON line to fd. */
static void
put_line(int fd, const char *json)
{
	char crc[16];

	snprintf(crc, sizeof(crc), "%08x ", (unsigned)crc32_of(json, strlen(json)));
	assert_true(write(fd, crc, 9) == 9);
	assert_true(write(fd, json, strlen(json)) == (ssize_t)strlen(json));
	assert_true(write(fd, "\n", 1) == 1);
}

static void
test_find_around_a_very_long_line(void **state)
{
	static char line[300000];
	char *dir = tmpdir_new(), path[512], err[1024];
	size_t n;
	int fd;
	struct snapshot *s;

	snprintf(path, sizeof(path), "%s/long", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	put_line(fd, "{\"format\":\"delver-state\",\"version\":1,\"file\":\"snapshot\","
	             "\"taken\":1,\"next_journal\":1}");
	put_line(fd,
	         "{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"gm\":\"g:a\",\"gm_name\":\"a\"}");
	/* A line far longer than the scan threshold sits in the middle. */
	n = (size_t)snprintf(line, sizeof(line),
	                     "{\"t\":\"c\",\"key\":\"m\",\"last_used\":1,\"pad\":\"");
	memset(line + n, 'x', 200000);
	snprintf(line + n + 200000, sizeof(line) - n - 200000, "\"}");
	put_line(fd, line);
	put_line(fd,
	         "{\"t\":\"c\",\"key\":\"z\",\"last_used\":1,\"gm\":\"g:z\",\"gm_name\":\"z\"}");
	put_line(fd, "{\"t\":\"end\",\"records\":3}");
	close(fd);
	s = snapshot_open(path, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(find_gm(s, "a"), "g:a");
	assert_string_equal(find_gm(s, "z"), "g:z");
	assert_null(find_gm(s, "b"));
	assert_null(find_gm(s, "n"));
	assert_null(find_gm(s, "zz"));
	snapshot_close(s);
	tmpdir_remove(dir);
}

static void
test_install_replaces_and_drops_old_journals(void **state)
{
	char *dir = tmpdir_new(), tmp[512], path[512], err[1024];
	struct state *st = sample_state(30);

	for (uint64_t seq = 3; seq <= 6; seq++) {
		struct journal *j = journal_create(dir, seq, err, sizeof(err));

		assert_non_null(j);
		journal_release(j);
	}
	snapshot_tmp_path(tmp, sizeof(tmp), dir, 42);
	assert_int_equal(snapshot_write(st, NULL, tmp, 5, 5, NULL, err, sizeof(err)), 0);
	assert_int_equal(snapshot_install(dir, tmp, 5, err, sizeof(err)), 0);
	assert_int_equal(access(tmp, F_OK), -1);
	snapshot_path(path, sizeof(path), dir);
	assert_int_equal(access(path, F_OK), 0);
	for (uint64_t seq = 3; seq <= 6; seq++) {
		journal_path(path, sizeof(path), dir, seq);
		assert_int_equal(access(path, F_OK) == 0, seq >= 5);
	}
	state_free(st);
	tmpdir_remove(dir);
}

static void
test_failed_write_leaves_nothing(void **state)
{
	char *dir = tmpdir_new(), path[512], tmp[512], err[1024];
	struct state *st = sample_state(30);
	unsigned long before;

	snapshot_path(path, sizeof(path), dir);
	assert_int_equal(snapshot_write(st, NULL, path, 5, 5, NULL, err, sizeof(err)), 0);
	before = file_crc(path);
	snapshot_tmp_path(tmp, sizeof(tmp), dir, 7);

	faultio_arm(FAULTIO_WRITE, 1, ENOSPC, false);
	assert_int_equal(snapshot_write(st, NULL, tmp, 6, 6, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot write: No space left on device"));
	assert_int_equal(access(tmp, F_OK), -1);

	faultio_arm(FAULTIO_FSYNC, 1, EIO, false);
	assert_int_equal(snapshot_write(st, NULL, tmp, 6, 6, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot fsync: Input/output error"));
	assert_int_equal(access(tmp, F_OK), -1);

	assert_int_equal(snapshot_write(st, NULL, tmp, 6, 6, NULL, err, sizeof(err)), 0);
	faultio_arm(FAULTIO_RENAME, 1, EIO, false);
	assert_int_equal(snapshot_install(dir, tmp, 6, err, sizeof(err)), -1);
	faultio_off();
	assert_int_equal(file_crc(path), before);
	state_free(st);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_write_then_find_every_channel),
	    cmocka_unit_test(test_merge_keeps_what_memory_does_not_hold),
	    cmocka_unit_test(test_find_around_a_very_long_line),
	    cmocka_unit_test(test_install_replaces_and_drops_old_journals),
	    cmocka_unit_test(test_failed_write_leaves_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
