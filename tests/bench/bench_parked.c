/*
 * bench_parked: requests waiting for reads by key (bot/store/persist_queue.h)
 * at their bound, REQUEST_WAITING_MAX. Half of them wait, two to a channel,
 * for channels whose reads are still under way and came first; the other
 * half, one to a channel, for reads that are over. The turn after those
 * reads runs the second half and leaves the first; the turn after the slow
 * reads runs the rest. Prints this thread's CPU time for the submitting and
 * for each of the two turns, and the whole per request. The backend is a
 * stand-in that holds every read until the bench answers it, so the figures
 * are persist's and the dispatcher's own.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/store/persist.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "tests/bench/bench.h"

#define READS_MAX (REQUEST_WAITING_MAX + 128)

/* A backend whose reads wait for the bench (fake_answer); it stores
 * nothing, so every read finds no row. */
struct fake {
	struct store_backend base;
	struct {
		char key[KEY_MAX];
		store_load_cb done;
		void *ctx;
	} reads[READS_MAX];
	size_t nreads;
};

static int
fake_load_active(struct store_backend *b, int64_t since,
                 int (*row)(const struct store_row *, void *), void *ctx, char *err, size_t errlen)
{
	return 0;
}

static void
fake_commit(struct store_backend *b, const struct store_row *rows, size_t n, store_commit_cb done,
            void *ctx)
{
	fprintf(stderr, "bench_parked: a command committed a change\n");
	exit(1);
}

static void
fake_load(struct store_backend *b, enum store_kind kind, const char *key, store_load_cb done,
          void *ctx)
{
	struct fake *f = (struct fake *)b;

	if (f->nreads == READS_MAX) {
		fprintf(stderr, "bench_parked: more reads than expected\n");
		exit(1);
	}
	snprintf(f->reads[f->nreads].key, KEY_MAX, "%s", key);
	f->reads[f->nreads].done = done;
	f->reads[f->nreads].ctx = ctx;
	f->nreads++;
}

static void
fake_snapshot(struct store_backend *b, const char *path, store_done_cb done, void *ctx)
{
	done(ctx, STORE_OK, NULL);
}

static void
fake_reach(struct store_backend *b, unsigned within_ms, store_done_cb done, void *ctx)
{
	fprintf(stderr, "bench_parked: a stop tried a failed change again\n");
	exit(1);
}

static void
fake_close(struct store_backend *b, store_done_cb done, void *ctx)
{
	done(ctx, STORE_OK, NULL);
}

static const struct store_backend_ops fake_ops = {
    .name = "bench",
    .load_active = fake_load_active,
    .commit = fake_commit,
    .load = fake_load,
    .snapshot = fake_snapshot,
    .reach = fake_reach,
    .close = fake_close,
};

/* Answers the reads held whose key starts (or does not start, with not
 * set) with prefix: no row. */
static void
fake_answer(struct fake *f, const char *prefix, bool not )
{
	size_t kept = 0;

	for (size_t i = 0; i < f->nreads; i++) {
		bool match = strncmp(f->reads[i].key, prefix, strlen(prefix)) == 0;

		if (match != not )
			f->reads[i].done(f->reads[i].ctx, STORE_OK, NULL, NULL);
		else
			f->reads[kept++] = f->reads[i];
	}
	f->nreads = kept;
}

static int answered;

static void
done(struct request *req, void *ctx)
{
	(void)ctx;
	request_free(req);
	answered++;
}

/* Runs the loop until n requests are answered. */
static void
run_until(uv_loop_t *loop, int n)
{
	while (answered < n)
		uv_run(loop, UV_RUN_ONCE);
}

int
main(void)
{
	enum {
		N = REQUEST_WAITING_MAX,
		ROUNDS = 20
	};
	double submit_ns = 0, first_ns = 0, second_ns = 0;
	char dir[] = "/tmp/delver-bench-parked-XXXXXX";

	if (mkdtemp(dir) == NULL)
		return 1;
	for (int round = 0; round < ROUNDS; round++) {
		struct fake *f = xcalloc(1, sizeof(*f));
		struct state *st = state_new();
		struct rng *rng = rng_new_seeded(1);
		struct dispatch *d = dispatch_new(&(struct dispatch_opts){.state = st, .rng = rng});
		struct persist_opts po;
		struct persist *p;
		uv_loop_t loop;
		char err[1024];
		double t0, t1, t2, t3;

		uv_loop_init(&loop);
		f->base.ops = &fake_ops;
		f->base.loop = &loop;
		persist_opts_default(&po);
		po.dir = dir;
		po.snapshot_on_stop = false;
		p = persist_open_backend(&loop, st, &po, &f->base, err, sizeof(err));
		if (p == NULL) {
			fprintf(stderr, "bench_parked: %s\n", err);
			return 1;
		}
		dispatch_set_store(d, &persist_store_ops, p);
		answered = 0;
		t0 = bench_cpu_ns();
		for (int i = 0; i < N; i++) {
			struct origin o = {.platform = "bench", .user_name = "u"};
			struct request *req;

			if (i < N / 2)
				snprintf(o.chan_key, sizeof(o.chan_key), "slow:%d", i / 2);
			else
				snprintf(o.chan_key, sizeof(o.chan_key), "read:%d", i);
			snprintf(o.user_key, sizeof(o.user_key), "bench:%d", i % 100);
			req = request_new(&o, 0, done, NULL);
			request_set_line(req, "gm", 2);
			dispatch_submit(d, req);
		}
		t1 = bench_cpu_ns();
		fake_answer(f, "slow:", true);
		run_until(&loop, N / 2);
		t2 = bench_cpu_ns();
		fake_answer(f, "slow:", false);
		run_until(&loop, N);
		t3 = bench_cpu_ns();
		if (answered != N || !persist_settled(p)) {
			fprintf(stderr, "bench_parked: %d of %d answered\n", answered, N);
			return 1;
		}
		submit_ns += t1 - t0;
		first_ns += t2 - t1;
		second_ns += t3 - t2;
		persist_close(p);
		dispatch_free(d);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		state_free(st);
		rng_free(rng);
		free(f);
	}
	printf("waiting requests: %d waiting (%d behind reads under way): submitting %.0f us, "
	       "the turn with half read %.0f us, with all read %.0f us; %.2f us per request in "
	       "all\n",
	       N, N / 2, submit_ns / ROUNDS / 1e3, first_ns / ROUNDS / 1e3,
	       second_ns / ROUNDS / 1e3, (submit_ns + first_ns + second_ns) / ROUNDS / 1e3 / N);
	{
		char lock[sizeof(dir) + 8];

		snprintf(lock, sizeof(lock), "%s/lock", dir);
		remove(lock);
		remove(dir);
	}
	return 0;
}
