/* storelog: a backend's log contract; see storelog.h. */
#include "tests/unit/helpers/storelog.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct done {
	bool done;
	enum store_status status;
	enum store_status rows[8];
	bool found;
	uint64_t gen;
	char log[512]; /* "seq=rec;" for each entry read */
};

static void
commit_cb(void *ctx, enum store_status status, const enum store_status *row_status, size_t n,
          const char *err)
{
	struct done *d = ctx;

	(void)err;
	d->done = true;
	d->status = status;
	for (size_t i = 0; i < n && i < 8; i++)
		d->rows[i] = row_status[i];
}

static void
log_text(char *out, size_t size, const struct store_row *row)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < row->nlog && at < size; i++)
		at += (size_t)snprintf(out + at, size - at, "%" PRIu64 "=%.*s;", row->log[i].seq,
		                       (int)row->log[i].rec_len, row->log[i].rec);
}

static void
load_cb(void *ctx, enum store_status status, const struct store_row *row, const char *err)
{
	struct done *d = ctx;

	(void)err;
	d->done = true;
	d->status = status;
	d->found = row != NULL;
	if (row != NULL) {
		d->gen = row->generation;
		log_text(d->log, sizeof(d->log), row);
	}
}

static enum store_status
commit(struct store_backend *b, uv_loop_t *loop, const struct store_row *rows, size_t n,
       struct done *d)
{
	memset(d, 0, sizeof(*d));
	b->ops->commit(b, rows, n, commit_cb, d);
	while (!d->done)
		uv_run(loop, UV_RUN_ONCE);
	return d->status;
}

/* key's log as "seq=rec;..." (and its generation in *gen). */
static const char *
log_of(struct store_backend *b, uv_loop_t *loop, const char *key, uint64_t *gen)
{
	static struct done d;

	memset(&d, 0, sizeof(d));
	b->ops->load(b, STORE_CHANNEL, key, load_cb, &d);
	while (!d.done)
		uv_run(loop, UV_RUN_ONCE);
	assert_int_equal(d.status, STORE_OK);
	assert_true(d.found);
	if (gen != NULL)
		*gen = d.gen;
	return d.log;
}

struct active {
	const char *key;
	char log[512];
	bool seen;
};

static int
active_row(const struct store_row *r, void *ctx)
{
	struct active *a = ctx;

	if (r->kind == STORE_CHANNEL && strcmp(r->key, a->key) == 0) {
		a->seen = true;
		log_text(a->log, sizeof(a->log), r);
	}
	return 0;
}

void
storelog_check(struct store_backend *b, uv_loop_t *loop, const char *prefix)
{
	char key[64], other[64], err[600];
	struct store_log_row e[4] = {{1, "one", 3}, {2, "two", 3}, {3, "three", 5}, {4, "four", 4}};
	struct store_row row = {.kind = STORE_CHANNEL, .last_used = 1000, .version = 4};
	struct active a;
	struct done d;
	uint64_t gen;

	snprintf(key, sizeof(key), "%slog", prefix);
	snprintf(other, sizeof(other), "%sother", prefix);
	row.key = key;
	/* A new row with three entries, two kept. */
	row.rec = "rec";
	row.rec_len = 3;
	row.log = e;
	row.nlog = 3;
	row.log_keep = 2;
	assert_int_equal(commit(b, loop, &row, 1, &d), STORE_OK);
	assert_string_equal(log_of(b, loop, key, &gen), "2=two;3=three;");
	assert_int_equal(gen, 1);
	/* An entry alone, at the row's generation: the record stays. */
	row.log_only = true;
	row.rec = NULL;
	row.rec_len = 0;
	row.generation = 1;
	row.log = &e[3];
	row.nlog = 1;
	assert_int_equal(commit(b, loop, &row, 1, &d), STORE_OK);
	assert_string_equal(log_of(b, loop, key, &gen), "3=three;4=four;");
	assert_int_equal(gen, 1);
	/* A stale generation, or a number stored already: a conflict, and
	 * nothing of the batch is kept (the other row neither). */
	{
		struct store_row two[2] = {row,
		                           {.kind = STORE_CHANNEL,
		                            .key = other,
		                            .last_used = 1,
		                            .version = 4,
		                            .rec = "x",
		                            .rec_len = 1}};
		struct store_log_row five = {5, "five", 4};

		two[0].generation = 0;
		two[0].log = &five;
		assert_int_equal(commit(b, loop, two, 2, &d), STORE_CONFLICT);
		assert_int_equal(d.rows[0], STORE_CONFLICT);
		assert_int_equal(d.rows[1], STORE_NOT_WRITTEN);
		two[0].generation = 1;
		two[0].log = &e[3];
		assert_int_equal(commit(b, loop, two, 2, &d), STORE_CONFLICT);
		assert_int_equal(d.rows[0], STORE_CONFLICT);
		assert_string_equal(log_of(b, loop, key, NULL), "3=three;4=four;");
		memset(&d, 0, sizeof(d));
		b->ops->load(b, STORE_CHANNEL, other, load_cb, &d);
		while (!d.done)
			uv_run(loop, UV_RUN_ONCE);
		assert_false(d.found);
	}
	/* At start-up each channel comes with its entries. */
	memset(&a, 0, sizeof(a));
	a.key = key;
	assert_int_equal(b->ops->load_active(b, 0, active_row, &a, err, sizeof(err)), 0);
	assert_true(a.seen);
	assert_string_equal(a.log, "3=three;4=four;");
	/* A deleted row takes its entries; written anew, it starts with none. */
	memset(&row, 0, sizeof(row));
	row.kind = STORE_CHANNEL;
	row.key = key;
	row.version = 4;
	row.generation = 1;
	assert_int_equal(commit(b, loop, &row, 1, &d), STORE_OK);
	row.generation = 0;
	row.rec = "again";
	row.rec_len = 5;
	assert_int_equal(commit(b, loop, &row, 1, &d), STORE_OK);
	assert_string_equal(log_of(b, loop, key, &gen), "");
	assert_int_equal(gen, 1);
}

void
storelog_check_marks(struct store_backend *b, struct store_backend *other, uv_loop_t *loop,
                     const char *prefix)
{
	char chan[64], ev[64];
	/* a text key and a number (SQLite keeps those apart) */
	const char *const keys[2] = {ev, "900000000000000001"};
	struct store_row rows[2] = {
	    {.kind = STORE_CHANNEL,
	     .key = chan,
	     .last_used = 1000,
	     .version = 4,
	     .rec = "first",
	     .rec_len = 5},
	    {.kind = STORE_HANDLED, .last_used = 1000, .rec = "answer", .rec_len = 6}};
	struct done d;

	snprintf(ev, sizeof(ev), "%sevent", prefix);
	for (int k = 0; k < 2; k++) {
		snprintf(chan, sizeof(chan), "%smarked%d", prefix, k);
		rows[0].generation = 0;
		rows[1].key = keys[k];
		assert_int_equal(commit(b, loop, rows, 2, &d), STORE_OK);
		/* The same event again, with a current record: the mark
		 * conflicts and nothing of the batch is written. */
		rows[0].generation = 1;
		rows[0].rec = "again";
		assert_int_equal(commit(other != NULL ? other : b, loop, rows, 2, &d),
		                 STORE_CONFLICT);
		assert_int_equal(d.rows[0], STORE_NOT_WRITTEN);
		assert_int_equal(d.rows[1], STORE_CONFLICT);
		rows[0].rec = "first";
		memset(&d, 0, sizeof(d));
		b->ops->load(b, STORE_CHANNEL, chan, load_cb, &d);
		while (!d.done)
			uv_run(loop, UV_RUN_ONCE);
		assert_true(d.found);
		assert_int_equal(d.gen, 1);
	}
}
