/* bot/discord/discord_ledger: the rules of identify slots and the daily
 * budget on a clock of the test's own, the record's text, and the file
 * backend shared by two "processes" (two backends on one directory). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/discord/discord_ledger.h"
#include "rules/base/buf.h"
#include "tests/unit/helpers/faultio.h"

#define T0    1764000000000LL /* ms on the ledger's clock */
#define EVERY 5500            /* the spacing asked for */
#define LEASE 15000

static struct ledger_rec rec;

static struct ledger_op
op_of(enum ledger_kind kind, const char *owner)
{
	struct ledger_op op;

	memset(&op, 0, sizeof(op));
	op.kind = kind;
	snprintf(op.owner, sizeof(op.owner), "%s", owner);
	op.interval = EVERY;
	op.lease = LEASE;
	op.reserve = 10;
	return op;
}

/* TRY for buckets b[0..n) by owner at now. */
static struct ledger_result
try_at(const char *owner, const int *b, int n, int64_t now)
{
	struct ledger_op op = op_of(LEDGER_TRY, owner);
	struct ledger_result res;

	for (int i = 0; i < n; i++)
		op.bucket[i] = b[i];
	op.nbuckets = n;
	discord_ledger_apply(&rec, &op, now, &res);
	return res;
}

static void
one(enum ledger_kind kind, const char *owner, int bucket, int64_t now)
{
	struct ledger_op op = op_of(kind, owner);
	struct ledger_result res;

	op.bucket[0] = bucket;
	op.nbuckets = 1;
	discord_ledger_apply(&rec, &op, now, &res);
}

/* One IDENTIFY per bucket per interval, counted from when it was written;
 * other buckets go at once; a lease of another owner holds its bucket,
 * which is asked for again soon (LEDGER_HELD_POLL_MS). */
static void
spacing_per_bucket(void **unused)
{
	const int b01[] = {0, 1};
	struct ledger_result r;

	memset(&rec, 0, sizeof(rec));
	r = try_at("a:1", b01, 2, T0);
	assert_int_equal(r.wait[0], 0);
	assert_int_equal(r.wait[1], 0);
	/* b: bucket 0 is leased by a (not yet written) */
	r = try_at("b:2", b01, 1, T0 + 100);
	assert_int_equal(r.wait[0], LEDGER_HELD_POLL_MS);
	assert_true(r.held[0]);
	one(LEDGER_SENT, "a:1", 0, T0 + 300);
	r = try_at("b:2", b01, 1, T0 + 400);
	assert_int_equal(r.wait[0], EVERY - 100); /* from the write at T0 + 300 */
	r = try_at("b:2", b01, 1, T0 + 300 + EVERY);
	assert_int_equal(r.wait[0], 0);
	/* a slot given back unused frees the bucket at once */
	one(LEDGER_UNUSED, "a:1", 1, T0 + 500);
	r = try_at("b:2", b01 + 1, 1, T0 + 600);
	assert_int_equal(r.wait[0], 0);
	/* a lease past its time holds nothing */
	r = try_at("c:3", b01 + 1, 1, T0 + 600 + LEASE);
	assert_int_equal(r.wait[0], 0);
}

/* recheck4 F1: a bucket handed from one process to another waits the
 * spacing after the first one's IDENTIFY, not the first one's lease
 * (15 s): while the lease is out the bucket is asked for again each
 * LEDGER_HELD_POLL_MS (or when the lease ends, if sooner), and once the
 * IDENTIFY is written, the wait is what is left of the spacing. Never
 * sooner than the spacing. */
static void
a_hand_over_waits_the_spacing(void **unused)
{
	const int b0[] = {0};
	struct ledger_result r;
	int64_t t = T0 + 100, granted = 0;

	memset(&rec, 0, sizeof(rec));
	assert_int_equal(try_at("a:1", b0, 1, T0).wait[0], 0);
	/* b asks as its ledger answers tell it to; a writes its IDENTIFY
	 * 700 ms after its grant. */
	while (granted == 0) {
		if (t >= T0 + 700 && rec.b[0].last == 0)
			one(LEDGER_SENT, "a:1", 0, T0 + 700);
		r = try_at("b:2", b0, 1, t);
		assert_true(r.wait[0] <= EVERY);
		if (r.wait[0] == 0)
			granted = t;
		else if (t < T0 + 700)
			assert_true(r.held[0] && r.wait[0] <= LEDGER_HELD_POLL_MS);
		t += r.wait[0];
	}
	assert_int_equal(granted, T0 + 700 + EVERY);
	/* A lease about to end: asked again when it does. */
	r = try_at("a:1", b0, 1, granted + 50);
	assert_true(r.held[0]);
	assert_int_equal(r.wait[0], LEDGER_HELD_POLL_MS);
	r = try_at("a:1", b0, 1, granted + LEASE - 200);
	assert_int_equal(r.wait[0], 200);
	assert_int_equal(try_at("a:1", b0, 1, granted + LEASE).wait[0], 0);
}

/* The budget: each slot spends one; the last hundredth is kept back; a
 * slot unused gives its start back; the window's end makes it whole. */
static void
budget(void **unused)
{
	struct ledger_op op = op_of(LEDGER_LIMITS, "a:1");
	struct ledger_result r;
	const int b[] = {0, 1, 2};

	memset(&rec, 0, sizeof(rec));
	op.total = 1000;
	op.remaining = 12;
	op.reset_after = 60000;
	discord_ledger_apply(&rec, &op, T0, &r);
	assert_int_equal(r.total, 1000);
	assert_int_equal(r.remaining, 12);
	r = try_at("a:1", b, 3, T0);
	assert_int_equal(r.wait[0], 0);
	assert_int_equal(r.wait[1], 0);
	assert_true(r.wait[2] > 0);
	assert_true(r.spent);
	assert_int_equal(r.reset_in, 60000);
	assert_int_equal(r.remaining, 10);
	one(LEDGER_UNUSED, "a:1", 1, T0 + 10);
	assert_int_equal(rec.remaining, 11);
	r = try_at("a:1", b + 2, 1, T0 + 20);
	assert_int_equal(r.wait[0], 0);
	assert_false(r.spent);
	r = try_at("a:1", b + 1, 1, T0 + 30);
	assert_true(r.spent);
	assert_int_equal(r.reset_in, 60000 - 30);
	/* the window is over: whole again */
	r = try_at("a:1", b + 1, 1, T0 + 60000);
	assert_int_equal(r.wait[0], 0);
	assert_false(r.spent);
	assert_int_equal(r.remaining, 999);
}

/* Discord's numbers: within the window the record knows, the lower count
 * wins (others spent some since Discord counted); a new window takes
 * Discord's. */
static void
limits_merge(void **unused)
{
	struct ledger_op op = op_of(LEDGER_LIMITS, "a:1");
	struct ledger_result r;

	memset(&rec, 0, sizeof(rec));
	op.total = 1000;
	op.remaining = 900;
	op.reset_after = 3600000;
	discord_ledger_apply(&rec, &op, T0, &r);
	rec.remaining = 880; /* others started 20 sessions */
	op.remaining = 890;  /* Discord counted before some of them */
	op.reset_after = 3600000 - 5000;
	discord_ledger_apply(&rec, &op, T0 + 5000, &r);
	assert_int_equal(r.remaining, 880);
	op.remaining = 1000; /* a new day */
	op.reset_after = 86400000;
	discord_ledger_apply(&rec, &op, T0 + 3600000, &r);
	assert_int_equal(r.remaining, 1000);
}

static void
refusal_kept(void **unused)
{
	struct ledger_op op = op_of(LEDGER_REFUSED, "a:1");
	struct ledger_result r;

	memset(&rec, 0, sizeof(rec));
	op.count = 2;
	op.code = 4011;
	op.recommended = 3;
	discord_ledger_apply(&rec, &op, T0, &r);
	op = op_of(LEDGER_LIMITS, "b:2");
	op.total = 1000;
	op.remaining = 999;
	discord_ledger_apply(&rec, &op, T0 + 1, &r);
	assert_int_equal(r.refused_count, 2);
	assert_int_equal(r.refused_code, 4011);
	assert_int_equal(r.refused_recommended, 3);
}

/* The record's text round-trips; anything else gives an empty record. */
static void
text(void **unused)
{
	const int b[] = {5};
	struct ledger_rec *back = calloc(1, sizeof(*back));
	char *t;
	static const char *const bad[] = {
	    "",
	    "[]",
	    "{\"total\":1}",
	    "{\"buckets\":[{\"bucket\":-1}]}",
	    "{\"total\":1,\"remaining\":1,\"reset_at\":1,\"refused_count\":0,\"refused_code\":0,"
	    "\"refused_recommended\":0,\"refused_at\":0,\"buckets\":[{\"bucket\":1,\"last\":1,"
	    "\"lease_until\":0}]}",
	};

	memset(&rec, 0, sizeof(rec));
	rec.total = 1000;
	rec.remaining = 998;
	rec.reset_at = T0;
	(void)try_at("host:42", b, 1, T0 - 100);
	t = discord_ledger_format(&rec);
	assert_int_equal(discord_ledger_parse(t, strlen(t), back), 0);
	assert_int_equal(back->nb, 1);
	assert_int_equal(back->b[0].id, 5);
	assert_int_equal(back->b[0].lease_until, T0 - 100 + LEASE);
	assert_string_equal(back->b[0].owner, "host:42");
	assert_int_equal(back->remaining, 997);
	free(t);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(discord_ledger_parse(bad[i], strlen(bad[i]), back), -1);
		assert_int_equal(back->nb, 0);
		assert_int_equal(back->total, 0);
	}
	free(back);
}

/* Two processes on one directory: the second sees the first's slot; a
 * damaged file is said once and started afresh. */
static void
file_shared(void **unused)
{
	char *dir = tmpdir_new();
	struct ledger_backend *a = discord_ledger_file(dir), *b = discord_ledger_file(dir);
	struct ledger_op op = op_of(LEDGER_TRY, "a:1");
	struct ledger_result r;
	struct buf path;
	struct stat st;
	FILE *f;

	op.bucket[0] = 0;
	op.nbuckets = 1;
	assert_int_equal(a->exec(a, &op, &r), 0);
	assert_int_equal(r.wait[0], 0);
	snprintf(op.owner, sizeof(op.owner), "b:2");
	assert_int_equal(b->exec(b, &op, &r), 0);
	assert_true(r.held[0]);
	assert_int_equal(r.wait[0], LEDGER_HELD_POLL_MS);
	buf_init(&path, 4096);
	buf_addf(&path, "%s/" LEDGER_FILE, dir);
	assert_int_equal(stat(buf_str(&path), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	f = fopen(buf_str(&path), "w");
	fputs("not json", f);
	fclose(f);
	assert_int_equal(b->exec(b, &op, &r), 0);
	assert_int_equal(r.wait[0], 0); /* afresh */
	assert_non_null(strstr(r.err, "was not a valid record"));
	assert_int_equal(b->exec(b, &op, &r), 0);
	assert_string_equal(r.err, "");
	/* a lock held elsewhere (a process stopped while holding it) keeps
	 * this thread 2 s at most, then fails, said */
	{
		struct buf lk;
		int fd;

		buf_init(&lk, 4096);
		buf_addf(&lk, "%s/" LEDGER_LOCK_FILE, dir);
		fd = open(buf_str(&lk), O_RDWR);
		assert_true(fd >= 0);
		assert_int_equal(flock(fd, LOCK_EX), 0);
		assert_int_equal(b->exec(b, &op, &r), -1);
		assert_non_null(strstr(r.err, "another process has held it for 2 s"));
		close(fd);
		assert_int_equal(b->exec(b, &op, &r), 0);
		buf_free(&lk);
	}
	/* a directory that does not exist: a failure, said */
	buf_reset(&path);
	buf_addf(&path, "%s/nope", dir);
	{
		struct ledger_backend *c = discord_ledger_file(buf_str(&path));

		assert_int_equal(c->exec(c, &op, &r), -1);
		assert_int_equal(r.status, -1);
		assert_non_null(strstr(r.err, "cannot open"));
		c->close(c);
	}
	a->close(a);
	b->close(b);
	buf_free(&path);
	tmpdir_remove(dir);
}

/* path/sub, made with mode. */
static void
make_at(char *out, size_t len, const char *path, const char *sub, mode_t mode)
{
	snprintf(out, len, "%s/%s", path, sub);
	assert_int_equal(mkdir(out, mode), 0);
	assert_int_equal(chmod(out, mode), 0);
}

/* Where processes of one bot without a shared runtime directory meet: the
 * user's runtime directory, else /run/user/UID, else a directory of the
 * user's alone in /tmp; one that someone else could have made or entered
 * is refused. */
static void
home(void **unused)
{
	char *t = tmpdir_new();
	unsigned uid = (unsigned)geteuid();
	char out[4096], err[4096], want[8192], p[2048], tmp[1024], run[1024];
	struct stat st;

	/* $XDG_RUNTIME_DIR */
	assert_int_equal(discord_ledger_home(t, "/nonexistent", "/nonexistent", uid,
	                                     "0123456789abcdef", out, sizeof(out), err,
	                                     sizeof(err)),
	                 0);
	snprintf(want, sizeof(want), "%s/delver/0123456789abcdef", t);
	assert_string_equal(out, want);
	assert_int_equal(lstat(out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* /run/user/UID when it is the user's */
	make_at(run, sizeof(run), t, "run", 0755);
	snprintf(p, sizeof(p), "%s/%u", run, uid);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(discord_ledger_home(NULL, run, "/nonexistent", uid, "k", out, sizeof(out),
	                                     err, sizeof(err)),
	                 0);
	snprintf(want, sizeof(want), "%s/%u/delver/k", run, uid);
	assert_string_equal(out, want);
	/* else a directory of the user's in tmp */
	make_at(tmp, sizeof(tmp), t, "tmp", 01777);
	assert_int_equal(discord_ledger_home("", "/nonexistent", tmp, uid, "k", out, sizeof(out),
	                                     err, sizeof(err)),
	                 0);
	snprintf(want, sizeof(want), "%s/delver-%u/k", tmp, uid);
	assert_string_equal(out, want);
	snprintf(p, sizeof(p), "%s/delver-%u", tmp, uid);
	assert_int_equal(lstat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	/* made first by someone else, open to others, or a symlink: refused */
	assert_int_equal(chmod(p, 0755), 0);
	assert_int_equal(discord_ledger_home(NULL, "/nonexistent", tmp, uid, "k", out, sizeof(out),
	                                     err, sizeof(err)),
	                 -1);
	snprintf(want, sizeof(want), "%s is open to others (mode 755; 700 expected)", p);
	assert_string_equal(err, want);
	if (uid == 0) {
		assert_int_equal(chmod(p, 0700), 0);
		assert_int_equal(chown(p, 4242, 4242), 0);
		assert_int_equal(discord_ledger_home(NULL, "/nonexistent", tmp, uid, "k", out,
		                                     sizeof(out), err, sizeof(err)),
		                 -1);
		snprintf(want, sizeof(want), "%s belongs to uid 4242, not to this process's uid 0",
		         p);
		assert_string_equal(err, want);
	}
	snprintf(want, sizeof(want), "%s/k", p);
	assert_int_equal(rmdir(want), 0);
	assert_int_equal(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/delver-%u", tmp, uid);
	assert_int_equal(symlink(t, p), 0);
	assert_int_equal(discord_ledger_home(NULL, "/nonexistent", tmp, uid, "k", out, sizeof(out),
	                                     err, sizeof(err)),
	                 -1);
	snprintf(want, sizeof(want), "%s is not a directory", p);
	assert_string_equal(err, want);
	tmpdir_remove(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(spacing_per_bucket),
	    cmocka_unit_test(a_hand_over_waits_the_spacing),
	    cmocka_unit_test(budget),
	    cmocka_unit_test(limits_merge),
	    cmocka_unit_test(refusal_kept),
	    cmocka_unit_test(text),
	    cmocka_unit_test(file_shared),
	    cmocka_unit_test(home),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
