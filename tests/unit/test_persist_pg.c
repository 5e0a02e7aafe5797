/*
 * Unit tests for bot/store/persist.c on PostgreSQL (store_open, as
 * [store] backend = postgresql): the state written through and read back,
 * and conflicts between two processes, against a throwaway cluster
 * (tests/tools/pg_cluster.sh) started for this program and stopped at its
 * end. Run from the repository's top (as make unit does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "bot/console/render_text.h"
#include "bot/store/persist.h"
#include "bot/store/store.h"
#include "bot/store/store_pg.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/faultio.h"
#include "tests/unit/helpers/pgcluster.h"
#include "tests/unit/helpers/stderrcap.h"

#define NOT_KEPT                                                                                   \
	"This change was not kept: another delver process saved a change to the same state "       \
	"first; "                                                                                  \
	"run the command again.\n"
#define UNREADABLE                                                                                 \
	"This channel's saved state cannot be read right now (the error is logged); try again in " \
	"a minute.\n"

static int
group_setup(void **state)
{
	(void)state;
	return pgcluster_setup("test_persist_pg");
}

static int
group_teardown(void **state)
{
	(void)state;
	return pgcluster_teardown();
}

/* A bot without transports on PostgreSQL: a loop, a state, a dispatcher,
 * persistence through store_open. Each has its own state directory (the
 * lock and snapshot files), as each shard process does. */
struct bot {
	char *dir;
	uv_loop_t loop;
	uv_timer_t keepalive; /* persistence's own timers do not keep a loop alive */
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct persist *p;
	struct store_backend *be;
};

static void
keepalive_cb(uv_timer_t *t)
{
}

/* With stop_reach_ms as given (persist_opts.h). */
static struct bot *
bot_open_reach(unsigned stop_reach_ms)
{
	struct bot *b = calloc(1, sizeof(*b));
	struct store_opts so = {.backend = STORE_ENGINE_POSTGRESQL, .conninfo = pgcluster_conninfo};
	struct store_backend *be;
	struct persist_opts o;
	char err[2048];

	b->dir = tmpdir_new();
	persist_opts_default(&o);
	o.dir = b->dir;
	o.snapshot_on_stop = false;
	o.stop_reach_ms = stop_reach_ms;
	uv_loop_init(&b->loop);
	uv_timer_init(&b->loop, &b->keepalive);
	uv_timer_start(&b->keepalive, keepalive_cb, 5, 5);
	b->st = state_new();
	b->rng = rng_new_seeded(1);
	b->d = dispatch_new(&(struct dispatch_opts){.state = b->st, .rng = b->rng});
	b->be = be = store_open(&b->loop, &so, err, sizeof(err));
	if (be == NULL)
		fail_msg("store_open: %s", err);
	b->p = persist_open_backend(&b->loop, b->st, &o, be, err, sizeof(err));
	if (b->p == NULL)
		fail_msg("persist_open_backend: %s", err);
	dispatch_set_store(b->d, &persist_store_ops, b->p);
	return b;
}

static struct bot *
bot_open(void)
{
	return bot_open_reach(PERSIST_STOP_REACH_MS);
}

/* Returns the records whose changes the stop could not save. */
static unsigned
bot_close(struct bot *b)
{
	unsigned lost = persist_close(b->p);

	dispatch_free(b->d);
	uv_close((uv_handle_t *)&b->keepalive, NULL);
	uv_run(&b->loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&b->loop), 0);
	state_free(b->st);
	rng_free(b->rng);
	tmpdir_remove(b->dir);
	free(b);
	return lost;
}

static void
set_true(struct request *req, void *ctx)
{
	*(bool *)ctx = true;
	request_free(req); /* its reply is the pending one's */
}

/* A command started as a transport starts it: its reply is held until its
 * commit, then rendered into text. */
struct pending {
	struct reply *r;
	bool ready;
	char text[4096];
};

/* As start_named, in a thread of channel parent (NULL: none). */
static void
start_in(struct bot *b, struct pending *pr, const char *user, const char *name, const char *chan,
         const char *parent, const char *line)
{
	struct origin o = {.platform = "console"};
	struct request *req;

	pr->r = reply_new();
	pr->ready = false;
	snprintf(o.chan_key, sizeof(o.chan_key), "console:%s", chan);
	if (parent != NULL)
		snprintf(o.parent_key, sizeof(o.parent_key), "console:%s", parent);
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", name);
	req = request_new(&o, (int64_t)time(NULL), set_true, &pr->ready);
	request_use_reply(req, pr->r);
	request_set_line(req, line, strlen(line));
	dispatch_submit(b->d, req);
}

static void
start_named(struct bot *b, struct pending *pr, const char *user, const char *name, const char *chan,
            const char *line)
{
	start_in(b, pr, user, name, chan, NULL, line);
}

static void
start(struct bot *b, struct pending *pr, const char *user, const char *chan, const char *line)
{
	start_named(b, pr, user, user, chan, line);
}

static const char *
finish(struct bot *b, struct pending *pr)
{
	struct buf out;

	while (!pr->ready)
		uv_run(&b->loop, UV_RUN_ONCE);
	buf_init(&out, 1 << 16);
	render_text(reply_msg(pr->r, REPLY_CHANNEL), false, &out);
	snprintf(pr->text, sizeof(pr->text), "%s", buf_str(&out));
	buf_free(&out);
	reply_free(pr->r);
	return pr->text;
}

/* Runs "/line" as user in channel; returns the channel's reply text. */
static const char *
say(struct bot *b, const char *user, const char *chan, const char *line)
{
	static struct pending pr;

	start(b, &pr, user, chan, line);
	return finish(b, &pr);
}

/* The turn the channel's /turn show gives, retrying while the channel is
 * being read again (for at most 10 s); -1 when it never can be. */
static int
turn_of(struct bot *b, const char *chan)
{
	uint64_t until = uv_hrtime() + 10000000000ull;
	const char *t;

	while ((t = say(b, "ann", chan, "/turn show")) != NULL && strcmp(t, UNREADABLE) == 0 &&
	       uv_hrtime() < until)
		uv_run(&b->loop, UV_RUN_NOWAIT);
	if (strncmp(t, "Turn ", 5) != 0)
		return -1;
	return atoi(t + 5);
}

static bool
advanced(const char *reply)
{
	return strncmp(reply, "1 turn passes without a hazard roll", 35) == 0;
}

static struct persist_stats
stats(struct bot *b)
{
	struct persist_stats s;

	persist_get_stats(b->p, &s);
	return s;
}

/* --- tests --- */

/* backend = postgresql end to end: what one process committed, the next
 * one reads. */
static void
state_survives_a_restart(void **state)
{
	struct bot *a = bot_open();

	assert_string_equal(say(a, "ann", "keep", "/gm claim"),
	                    "ann is now the GM of this channel.\n");
	for (int i = 0; i < 3; i++)
		assert_true(advanced(say(a, "ann", "keep", "/turn advance")));
	assert_int_equal(stats(a).conflicts, 0);
	bot_close(a);
	a = bot_open();
	assert_int_equal(turn_of(a, "keep"), 3);
	assert_string_equal(say(a, "bob", "keep", "/gm"), "The GM here is ann.\n");
	bot_close(a);
}

/* What a keyed request keeps with its event's mark: its refusal too, when
 * it is refused. */
static int
keep_key(struct request *req, struct buf *out)
{
	if (reply_is_error(request_reply(req)))
		return buf_addf(out, "answer to %s: %s", request_key(req),
		                reply_error_text(request_reply(req)));
	return buf_addf(out, "answer to %s", request_key(req));
}

struct keyed {
	bool ready;
	enum request_outcome outcome;
	char kept[256];
};

static void
keyed_done(struct request *req, void *ctx)
{
	struct keyed *k = ctx;
	size_t len;
	const char *kept = request_kept(req, &len);

	k->outcome = request_outcome(req);
	snprintf(k->kept, sizeof(k->kept), "%.*s", kept != NULL ? (int)len : 0,
	         kept != NULL ? kept : "");
	k->ready = true;
	request_free(req);
}

/* "/line" by ann in chan as the answer to event key (a replay or not),
 * submitted, not waited for. */
static void
keyed_start(struct bot *b, struct keyed *k, const char *chan, const char *line, const char *key,
            bool replayed)
{
	struct origin o = {.platform = "console", .user_key = "console:ann", .user_name = "ann"};
	struct request *req;

	memset(k, 0, sizeof(*k));
	snprintf(o.chan_key, sizeof(o.chan_key), "console:%s", chan);
	req = request_new(&o, (int64_t)time(NULL), keyed_done, k);
	request_set_line(req, line, strlen(line));
	request_set_key(req, key, keep_key);
	if (replayed)
		request_set_replayed(req);
	dispatch_submit(b->d, req);
}

/* Waits for k's answer and the store settled. */
static void
keyed_wait(struct bot *b, struct keyed *k)
{
	while (!k->ready || !persist_settled(b->p))
		uv_run(&b->loop, UV_RUN_ONCE);
}

/* As keyed_start, waited for. */
static void
keyed(struct bot *b, struct keyed *k, const char *chan, const char *line, const char *key,
      bool replayed)
{
	keyed_start(b, k, chan, line, key, replayed);
	keyed_wait(b, k);
}

/* Exactly once on PostgreSQL: the mark of an event handled by one process
 * is committed with its change; a replay of that event in the next process
 * is not run again (it waits for the mark's read) and gets the kept answer
 * back, while one never handled runs. */
static void
a_replayed_event_is_not_applied_twice(void **state)
{
	struct bot *a = bot_open();
	struct keyed k;

	say(a, "ann", "once", "/gm claim");
	keyed(a, &k, "once", "/turn advance", "pg-1", false);
	assert_int_equal(k.outcome, REQUEST_DONE);
	bot_close(a);
	a = bot_open();
	keyed(a, &k, "once", "/turn advance", "pg-1", true);
	assert_int_equal(k.outcome, REQUEST_REPLAYED);
	assert_string_equal(k.kept, "answer to pg-1");
	keyed(a, &k, "once", "/turn advance", "pg-2", true);
	assert_int_equal(k.outcome, REQUEST_DONE);
	assert_int_equal(turn_of(a, "once"), 2);
	bot_close(a);
}

/* Two processes both get three events of one channel (a fleet whose shards
 * overlap); the first handles two of them. The second runs all three in one
 * batch (one read of the channel): both events handled by the first are
 * left to it (not answered here, counted twice), the third, whose record
 * went with theirs, is told it was not kept. Before, the second event's
 * mark was not told as a conflict (PostgreSQL stopped at the first), and
 * it was told "not kept, run again" though the first process kept it. */
static void
two_events_of_one_batch_handled_elsewhere_are_both_left(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	struct keyed k[3];

	say(a, "ann", "twice", "/gm claim");
	keyed(a, &k[0], "twice", "/turn advance", "pg-tw-1", false);
	keyed(a, &k[1], "twice", "/turn advance", "pg-tw-2", false);
	keyed_start(b, &k[0], "twice", "/turn advance", "pg-tw-1", false);
	keyed_start(b, &k[1], "twice", "/turn advance", "pg-tw-2", false);
	keyed_start(b, &k[2], "twice", "/turn advance", "pg-tw-3", false);
	while (!k[0].ready || !k[1].ready || !k[2].ready || !persist_settled(b->p))
		uv_run(&b->loop, UV_RUN_ONCE);
	assert_int_equal(k[0].outcome, REQUEST_HANDLED_ELSEWHERE);
	assert_int_equal(k[1].outcome, REQUEST_HANDLED_ELSEWHERE);
	assert_int_equal(k[2].outcome, REQUEST_NOT_KEPT);
	assert_int_equal(stats(b).handled_elsewhere, 2);
	assert_int_equal(turn_of(a, "twice"), 2);
	assert_int_equal(turn_of(b, "twice"), 2);
	bot_close(b);
	bot_close(a);
}

/* A command's commit whose answer is lost with the connection after the
 * server committed it: the command is answered as kept, once, and its
 * change is there; nothing is taken for a conflict. Before, it was told
 * its change might be lost, and the batch written again conflicted on its
 * own mark ("handled by another process"). */
static void
a_commit_whose_answer_was_lost_is_answered_kept(void **state)
{
	struct bot *a = bot_open();
	struct keyed k;

	say(a, "ann", "lost", "/gm claim");
	store_pg_lose_next_answer(a->be);
	keyed(a, &k, "lost", "/turn advance", "pg-lost-1", false);
	assert_int_equal(k.outcome, REQUEST_DONE);
	assert_int_equal(turn_of(a, "lost"), 1);
	keyed(a, &k, "lost", "/turn advance", "pg-lost-2", false);
	assert_int_equal(k.outcome, REQUEST_DONE);
	assert_int_equal(turn_of(a, "lost"), 2);
	assert_int_equal(stats(a).conflicts, 0);
	assert_int_equal(stats(a).handled_elsewhere, 0);
	bot_close(a);
	a = bot_open();
	assert_int_equal(turn_of(a, "lost"), 2);
	bot_close(a);
}

/* A connection of the test's own to the cluster. */
static PGconn *
sql_conn(void)
{
	PGconn *c = PQconnectdb(pgcluster_conninfo);

	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("cannot connect: %s", PQerrorMessage(c));
	return c;
}

static void
sql_ok(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql);

	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	PQclear(r);
}

/* Runs b's loop until n server processes wait for a lock (at most 10 s). */
static void
until_waiting(struct bot *b, PGconn *c, int n)
{
	char sql[200];

	snprintf(sql, sizeof(sql),
	         "SELECT count(*) = %d FROM pg_stat_activity WHERE wait_event_type = 'Lock'", n);
	for (int i = 0; i < 1000; i++) {
		PGresult *r = PQexec(c, sql);
		bool there = PQresultStatus(r) == PGRES_TUPLES_OK && PQgetvalue(r, 0, 0)[0] == 't';

		PQclear(r);
		if (there)
			return;
		uv_run(&b->loop, UV_RUN_NOWAIT);
		uv_sleep(10);
	}
	fail_msg("no %d processes ever waited for a lock", n);
}

/* The one line logged when a batch that changed channel fleet is rolled
 * back, why. */
static const char *
fleet_dropped(const char *why, const char *told)
{
	static char line[768];

	snprintf(line, sizeof(line),
	         "warn: store: a commit to the postgresql store was rolled back: %s; the changes "
	         "made here to 'console:fleet' are not kept (those records are read again)%s\n",
	         why, told);
	return line;
}

/*
 * A fleet whose shards overlap gets each event twice. The race of F1: b's
 * batch for event fl-1 writes its mark first, then its channel row, which
 * another process is writing (the test's transaction w); that process's
 * handling of fl-1 (the test's insert of its mark, m) waits for b's mark.
 * w commits: b's row conflicts, b's batch is rolled back, m's mark is
 * written. b must not tell fl-1 its change was not kept (run again, it
 * would be made twice): its claim of fl-1 conflicts with that mark, the
 * other process answers it. An event nobody else handled (fl-2) is
 * claimed and told so; then nobody may apply it (fl-2 from a conflicts),
 * and a replay of it gets the refusal kept with the claim.
 */
static void
a_command_handled_elsewhere_after_a_record_conflict_is_left_to_it(void **state)
{
	struct bot *a = bot_open(), *b;
	struct keyed ka, kb;
	PGconn *w = sql_conn(), *m = sql_conn(), *look = sql_conn();
	PGresult *r;
	struct stderrcap cap;
	const char *logged;

	(void)state;
	say(a, "ann", "fleet", "/gm claim");
	say(a, "ann", "fleet", "/thwacko style red"); /* b loads ann at open */
	b = bot_open();
	sql_ok(w, "BEGIN");
	sql_ok(w, "UPDATE channels SET generation = generation + 1 WHERE key = 'console:fleet'");
	keyed_start(b, &kb, "fleet", "/turn advance", "fl-1", false);
	until_waiting(b, look, 1); /* b's row waits for w */
	assert_int_equal(PQsendQuery(m, "INSERT INTO handled(key, at, answer) "
	                                "VALUES ('fl-1', 0, 'answered there')"),
	                 1);
	until_waiting(b, look, 2); /* m's mark waits for b's */
	sql_ok(w, "COMMIT");
	/* m's mark is written once b's batch is rolled back, before b hears
	 * of it (b's loop does not run meanwhile). */
	while ((r = PQgetResult(m)) != NULL) {
		assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
		PQclear(r);
	}
	assert_false(kb.ready);
	assert_int_equal(stderrcap_begin(&cap), 0);
	keyed_wait(b, &kb);
	logged = stderrcap_end(&cap);
	assert_int_equal(kb.outcome, REQUEST_HANDLED_ELSEWHERE);
	/* One line, naming the record (and every dropped one) and the event
	 * of the command whose reply waited for its claim. */
	assert_string_equal(logged,
	                    fleet_dropped("'console:fleet' was changed by another delver "
	                                  "process since this one read it",
	                                  "; 1 command is told its change was not kept unless "
	                                  "another delver process handled its event (event "
	                                  "'fl-1')"));
	/* The row, then b's claim of fl-1. */
	assert_int_equal(stats(b).conflicts, 2);
	assert_int_equal(stats(b).handled_elsewhere, 1);
	/* b's copy is stale again; this event reaches b alone. */
	keyed(a, &ka, "fleet", "/turn advance", "fl-x", false);
	assert_int_equal(ka.outcome, REQUEST_NOT_KEPT); /* a's copy was stale too */
	keyed(a, &ka, "fleet", "/turn advance", "fl-y", false);
	assert_int_equal(ka.outcome, REQUEST_DONE);
	keyed(b, &kb, "fleet", "/turn advance", "fl-2", false);
	assert_int_equal(kb.outcome, REQUEST_NOT_KEPT);
	keyed(a, &ka, "fleet", "/turn advance", "fl-2", false);
	assert_int_equal(ka.outcome, REQUEST_HANDLED_ELSEWHERE);
	/* The claim keeps the refusal as fl-2's answer: a replay (b died
	 * before answering) says that nothing was done (fleet16's edge case:
	 * before, an empty answer, read as "carried out, answer lost"). */
	keyed(a, &ka, "fleet", "/turn advance", "fl-2", true);
	assert_int_equal(ka.outcome, REQUEST_REPLAYED);
	assert_string_equal(ka.kept, "answer to fl-2: This change was not kept: another delver "
	                             "process saved a change to the same state first; run the "
	                             "command again.");
	assert_int_equal(stats(b).conflicts, 3);
	assert_int_equal(stats(b).handled_elsewhere, 1);
	assert_int_equal(turn_of(a, "fleet"), 1);
	/* Both get fl-3, a commits first: b's mark conflicts. */
	assert_int_equal(turn_of(b, "fleet"), 1);
	keyed(a, &ka, "fleet", "/turn advance", "fl-3", false);
	assert_int_equal(ka.outcome, REQUEST_DONE);
	assert_int_equal(stderrcap_begin(&cap), 0);
	keyed(b, &kb, "fleet", "/turn advance", "fl-3", false);
	assert_string_equal(stderrcap_end(&cap),
	                    fleet_dropped("event 'fl-3' was handled by another delver process "
	                                  "(its shards overlap this one's)",
	                                  ""));
	assert_int_equal(kb.outcome, REQUEST_HANDLED_ELSEWHERE);
	assert_int_equal(stats(b).conflicts, 4);
	assert_int_equal(stats(b).handled_elsewhere, 2);
	assert_int_equal(turn_of(b, "fleet"), 2);
	PQfinish(w);
	PQfinish(m);
	PQfinish(look);
	bot_close(a);
	bot_close(b);
}

/*
 * Two processes both get six events of one channel (a fleet whose shards
 * overlap); the first handles them, then the second runs them and six
 * events of its own in one batch. The one line it logs names the first
 * four conflicts, records and events of the commands told "not kept" and
 * counts the rest, so that an operator can match a user's report and the
 * line stays bounded. Before, it named no event and listed every
 * conflict of the batch.
 */
static void
a_rolled_back_batch_names_the_events_told_not_kept(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	struct keyed k[12];
	struct stderrcap cap;
	const char *logged;
	char key[16];

	(void)state;
	say(a, "ann", "six", "/gm claim");
	for (int i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "six-%d", i);
		keyed(a, &k[i], "six", "/turn advance", key, false);
	}
	assert_int_equal(stderrcap_begin(&cap), 0);
	for (int i = 0; i < 12; i++) {
		snprintf(key, sizeof(key), i < 6 ? "six-%d" : "new-%d", i % 6);
		keyed_start(b, &k[i], "six", "/turn advance", key, false);
	}
	for (int i = 0; i < 12; i++)
		keyed_wait(b, &k[i]);
	logged = stderrcap_end(&cap);
	for (int i = 0; i < 12; i++)
		assert_int_equal(k[i].outcome,
		                 i < 6 ? REQUEST_HANDLED_ELSEWHERE : REQUEST_NOT_KEPT);
	assert_string_equal(
	    logged,
	    "warn: store: a commit to the postgresql store was rolled back: event 'six-0' was "
	    "handled by another delver process (its shards overlap this one's); event 'six-1' was "
	    "handled by another delver process (its shards overlap this one's); event 'six-2' was "
	    "handled by another delver process (its shards overlap this one's); event 'six-3' was "
	    "handled by another delver process (its shards overlap this one's) (and 2 more "
	    "conflicts); the changes made here to 'console:six' are not kept (those records are "
	    "read again); 6 commands are told their change was not kept unless another delver "
	    "process handled their events (events 'new-0', 'new-1', 'new-2', 'new-3' and 2 "
	    "more)\n");
	bot_close(a);
	bot_close(b);
}

/* Two processes with a copy of one channel: the second to commit is told
 * its change was not kept; its copy leaves memory, and once read again it
 * sees the other's change and its own next change is kept. */
static void
conflict_drops_the_channel_and_reads_it_again(void **state)
{
	struct bot *a = bot_open(), *b;

	say(a, "ann", "moved", "/gm claim");
	b = bot_open(); /* reads the channel as a wrote it */
	assert_true(advanced(say(a, "ann", "moved", "/turn advance")));
	assert_string_equal(say(b, "ann", "moved", "/turn advance"), NOT_KEPT);
	assert_int_equal(stats(b).conflicts, 1);
	/* Refused until read again (test_persist checks that reply: here the
	 * read may be over before the next command), then the other's turn. */
	assert_int_equal(turn_of(b, "moved"), 1);
	assert_true(advanced(say(b, "ann", "moved", "/turn advance")));
	assert_int_equal(stats(b).conflicts, 1);
	/* Now a's copy is the stale one. */
	assert_string_equal(say(a, "ann", "moved", "/turn advance"), NOT_KEPT);
	assert_int_equal(turn_of(a, "moved"), 2);
	assert_int_equal(stats(a).conflicts, 1);
	bot_close(a);
	bot_close(b);
	a = bot_open();
	assert_int_equal(turn_of(a, "moved"), 2);
	bot_close(a);
}

/* A change made on the stale copy while the conflicting commit was in
 * flight is not kept either, and its reply is not held for ever. */
static void
later_changes_on_the_stale_copy_are_not_kept(void **state)
{
	struct bot *a = bot_open(), *b;
	struct pending first, second;
	uint64_t commits;

	say(a, "ann", "race", "/gm claim");
	/* ann holds something: b loads her at open, so her commands do not
	 * wait for a read of her record and run on b's copy at once. */
	say(a, "ann", "race", "/thwacko style red");
	b = bot_open();
	assert_true(advanced(say(a, "ann", "race", "/turn advance")));
	commits = stats(b).commits;
	start(b, &first, "ann", "race", "/turn advance");
	uv_run(&b->loop, UV_RUN_NOWAIT); /* its commit goes out */
	assert_int_equal(stats(b).commits, commits + 1);
	assert_false(first.ready);
	start(b, &second, "ann", "race", "/turn advance");
	assert_string_equal(finish(b, &first), NOT_KEPT);
	assert_string_equal(finish(b, &second), NOT_KEPT);
	assert_true(persist_settled(b->p));
	assert_int_equal(turn_of(b, "race"), 1);
	bot_close(a);
	bot_close(b);
}

/*
 * A command that changed two records, one of which another process wrote
 * first, keeps neither change and says so (kept in part, the user's second
 * try would make the other change twice); an unrelated command committed in
 * the same batch is kept and its reply says nothing unusual.
 */
static void
a_command_keeps_all_its_records_or_none(void **state)
{
	struct bot *a = bot_open(), *b, *c;
	struct pending both, other;
	uint64_t commits;
	char shown[4096];

	say(a, "ivy", "pairs", "/gm claim");
	say(a, "ivy", "pairs", "/thwacko style red");
	snprintf(shown, sizeof(shown), "%s", say(a, "ivy", "pairs", "/thwacko show"));
	assert_non_null(strstr(shown, "red"));
	say(a, "jon", "solo", "/gm claim");
	say(a, "jon", "solo", "/thwacko style blue"); /* a row: b loads jon at open */
	b = bot_open();
	assert_true(advanced(say(a, "ivy", "pairs", "/turn advance")));
	commits = stats(b).commits;
	/* Under a new display name the GM changes the seat's name (the
	 * channel, which a wrote since b read it) and her style (her record);
	 * jon's command in another channel goes into the same batch. */
	start_named(b, &both, "ivy", "Ivy", "pairs", "/thwacko style green");
	start(b, &other, "jon", "solo", "/turn advance");
	assert_false(both.ready);
	assert_false(other.ready);
	assert_string_equal(finish(b, &both), NOT_KEPT);
	assert_true(advanced(finish(b, &other)));
	assert_int_equal(stats(b).conflicts, 1);
	/* The batch, rolled back, then sent again without ivy's records. */
	assert_int_equal(stats(b).commits, commits + 2);
	/* b reads both records again and sees what is stored. */
	for (int i = 0; i < 1000 && strcmp(say(b, "ivy", "pairs", "/thwacko show"), shown) != 0;
	     i++)
		uv_run(&b->loop, UV_RUN_ONCE);
	assert_string_equal(say(b, "ivy", "pairs", "/thwacko show"), shown);
	assert_int_equal(turn_of(b, "pairs"), 1);
	bot_close(b);
	/* What is stored, as another process reads it: neither of ivy's
	 * changes, and jon's turn. */
	c = bot_open();
	assert_string_equal(say(c, "ivy", "pairs", "/thwacko show"), shown);
	assert_string_equal(say(c, "jon", "pairs", "/gm"), "The GM here is ivy.\n");
	assert_int_equal(turn_of(c, "pairs"), 1);
	assert_int_equal(turn_of(c, "solo"), 1);
	assert_int_equal(stats(c).conflicts, 0);
	bot_close(c);
	bot_close(a);
}

/* A user's record is shared by every shard (a player uses several guilds):
 * the same holds for it: not kept, read again, then the other's style. */
static void
user_conflict_reads_the_user_again(void **state)
{
	struct bot *a = bot_open(), *b;
	char shown[4096];

	say(a, "cat", "ua", "/thwacko style red");
	b = bot_open();
	say(a, "cat", "ua", "/thwacko style blue");
	snprintf(shown, sizeof(shown), "%s", say(a, "cat", "ua", "/thwacko show"));
	assert_non_null(strstr(shown, "blue"));
	assert_string_equal(say(b, "cat", "ub", "/thwacko style green"), NOT_KEPT);
	assert_int_equal(stats(b).conflicts, 1);
	for (int i = 0; i < 1000 && strcmp(say(b, "cat", "ub", "/thwacko show"), shown) != 0; i++)
		uv_run(&b->loop, UV_RUN_ONCE);
	assert_string_equal(say(b, "cat", "ub", "/thwacko show"), shown);
	assert_int_equal(stats(b).users_loaded, 1);
	bot_close(a);
	bot_close(b);
}

/* A command in a channel this process does not hold (another process wrote
 * it since this one started: a fleet after a reshard) waits for the
 * channel's read by key, then runs on the stored record. */
static void
a_command_waits_for_its_channel_to_be_read(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	struct persist_stats s0;
	struct pending pr;

	say(a, "fay", "late", "/gm claim");
	assert_true(advanced(say(a, "fay", "late", "/turn advance")));
	assert_true(advanced(say(a, "fay", "late", "/turn advance")));
	s0 = stats(b);
	start(b, &pr, "fay", "late", "/turn show");
	assert_false(pr.ready); /* waiting for the read */
	assert_int_equal(strncmp(finish(b, &pr), "Turn 2", 6), 0);
	/* The channel and fay (who holds nothing: no row) were read. */
	assert_int_equal(stats(b).reads, s0.reads + 2);
	assert_int_equal(stats(b).loaded, s0.loaded + 1);
	/* The channel now in memory, fay known absent: no read. */
	assert_true(advanced(say(b, "fay", "late", "/turn advance")));
	assert_int_equal(stats(b).reads, s0.reads + 2);
	assert_int_equal(stats(b).conflicts, 0);
	bot_close(a);
	bot_close(b);
}

/* A thread whose channel this process does not hold: the command waits for
 * the channel's read too, and that channel's GM seat is in force in the
 * thread (its GM runs a GM-only command there, /gm show names them). */
static void
a_thread_reads_its_channels_seat(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	struct persist_stats s0;
	struct pending pr;

	say(a, "ivy", "hold", "/gm claim");
	s0 = stats(b);
	start_in(b, &pr, "ivy", "ivy", "hold-thread", "hold", "/gm show");
	assert_false(pr.ready); /* waiting for the reads */
	assert_string_equal(finish(b, &pr),
	                    "The GM here is ivy, the GM of the channel this thread belongs to.\n");
	/* The channel was read back (the thread has no row yet). */
	assert_int_equal(stats(b).loaded, s0.loaded + 1);
	start_in(b, &pr, "jon", "jon", "hold-thread", "hold", "/turn advance");
	assert_non_null(strstr(finish(b, &pr), "the GM is ivy"));
	start_in(b, &pr, "ivy", "ivy", "hold-thread", "hold", "/turn advance");
	assert_true(advanced(finish(b, &pr)));
	bot_close(a);
	bot_close(b);
}

static int order_seq;

struct ordered {
	struct pending pr;
	int order;
};

static void
ordered_done(struct request *req, void *ctx)
{
	struct ordered *o = ctx;

	request_free(req); /* its reply is the pending one's */
	o->pr.ready = true;
	o->order = ++order_seq;
}

static void
start_ordered(struct bot *b, struct ordered *od, const char *user, const char *chan,
              const char *line)
{
	struct origin o = {.platform = "console"};
	struct request *req;

	od->pr.r = reply_new();
	od->pr.ready = false;
	od->order = 0;
	snprintf(o.chan_key, sizeof(o.chan_key), "console:%s", chan);
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	req = request_new(&o, (int64_t)time(NULL), ordered_done, od);
	request_use_reply(req, od->pr.r);
	request_set_line(req, line, strlen(line));
	dispatch_submit(b->d, req);
}

/* Two commands in a row for a channel being read: one read of it, and they
 * run and reply in the order they came in. */
static void
commands_waiting_for_one_channel_keep_their_order(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	struct persist_stats s0;
	struct ordered first, second;

	say(a, "gil", "pair", "/gm claim");
	s0 = stats(b);
	order_seq = 0;
	start_ordered(b, &first, "gil", "pair", "/turn advance");
	start_ordered(b, &second, "hub", "pair", "/turn show");
	assert_false(first.pr.ready);
	assert_false(second.pr.ready);
	assert_true(advanced(finish(b, &first.pr)));
	assert_int_equal(strncmp(finish(b, &second.pr), "Turn 1", 6), 0);
	assert_int_equal(first.order, 1);
	assert_int_equal(second.order, 2);
	/* pair once, gil and hub once each. */
	assert_int_equal(stats(b).reads, s0.reads + 3);
	assert_int_equal(stats(b).loaded, s0.loaded + 1);
	assert_int_equal(stats(b).conflicts, 0);
	bot_close(a);
	bot_close(b);
}

/* A user another process wrote since this one started is read by key too. */
static void
a_command_waits_for_its_user_to_be_read(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	char shown[4096];
	struct persist_stats s0;
	struct pending pr;

	say(b, "dax", "ub", "/gm"); /* the channel is in b's memory, dan never read */
	say(a, "dan", "ua", "/thwacko style blue");
	snprintf(shown, sizeof(shown), "%s", say(a, "dan", "ua", "/thwacko show"));
	assert_non_null(strstr(shown, "blue"));
	s0 = stats(b);
	start(b, &pr, "dan", "ub", "/thwacko show");
	assert_false(pr.ready);
	assert_string_equal(finish(b, &pr), shown);
	assert_int_equal(stats(b).reads, s0.reads + 1);
	assert_int_equal(stats(b).users_loaded, s0.users_loaded + 1);
	bot_close(a);
	bot_close(b);
}

/*
 * A user who holds nothing (no row) is read once, not before each of their
 * commands, until idle for evict_after. When another process gives them a
 * row meanwhile, this one's copy is stale as a channel's would be: its
 * first write of them conflicts, is not kept, and they are read again.
 */
static void
a_user_known_absent_is_read_once(void **state)
{
	struct bot *a = bot_open(), *b = bot_open();
	struct persist_stats s0;
	struct persist_opts o;
	char shown[4096];
	uint64_t until;
	bool chan_read;

	say(b, "kim", "kk", "/gm claim");
	assert_int_equal(stats(b).absent, 1);
	s0 = stats(b);
	for (int i = 0; i < 5; i++)
		assert_true(advanced(say(b, "kim", "kk", "/turn advance")));
	assert_int_equal(stats(b).reads, s0.reads); /* it was 5: one before each */
	/* a gives kim a row; b's copy (nothing) is stale until it writes. */
	say(a, "kim", "ka", "/thwacko style blue");
	snprintf(shown, sizeof(shown), "%s", say(a, "kim", "ka", "/thwacko show"));
	assert_non_null(strstr(shown, "blue"));
	assert_string_equal(say(b, "kim", "kk", "/thwacko style green"), NOT_KEPT);
	assert_int_equal(stats(b).conflicts, 1);
	for (int i = 0; i < 1000 && strcmp(say(b, "kim", "kk", "/thwacko show"), shown) != 0; i++)
		uv_run(&b->loop, UV_RUN_ONCE);
	assert_string_equal(say(b, "kim", "kk", "/thwacko show"), shown);
	assert_int_equal(stats(b).absent, 0);
	/* Idle past evict_after, the entry goes: the next command reads. */
	say(b, "lea", "kk", "/turn show");
	assert_int_equal(stats(b).absent, 1);
	persist_opts_default(&o);
	o.snapshot_on_stop = false;
	o.evict_after = 1;
	persist_reconfigure(b->p, &o);
	until = uv_hrtime() + 5000000000ull;
	while (stats(b).absent > 0 && uv_hrtime() < until) {
		uv_run(&b->loop, UV_RUN_NOWAIT);
		persist_evict(b->p);
	}
	assert_int_equal(stats(b).absent, 0);
	persist_opts_default(&o);
	o.snapshot_on_stop = false;
	persist_reconfigure(b->p, &o);
	s0 = stats(b);
	/* lea, and the channel when it left memory too (idle as long). */
	chan_read = state_channel_peek(b->st, "console:kk") == NULL;
	assert_int_equal(strncmp(say(b, "lea", "kk", "/turn show"), "Turn 5", 6), 0);
	assert_int_equal(stats(b).absent, 1);
	assert_int_equal(stats(b).reads, s0.reads + 1 + (chan_read ? 1 : 0));
	bot_close(a);
	bot_close(b);
}

/* Idle channels and users leave memory on PostgreSQL too, and come back by
 * key with what they held; at open only the channels used within
 * evict_after are loaded. */
static void
idle_records_leave_memory_and_are_read_back(void **state)
{
	struct bot *b = bot_open();
	struct persist_opts o;
	struct persist_stats s0;
	uint64_t until;
	char shown[4096];

	say(b, "eve", "idle", "/gm claim");
	assert_true(advanced(say(b, "eve", "idle", "/turn advance")));
	say(b, "eve", "idle", "/thwacko style green");
	snprintf(shown, sizeof(shown), "%s", say(b, "eve", "idle", "/thwacko show"));
	while (!persist_settled(b->p))
		uv_run(&b->loop, UV_RUN_ONCE);
	persist_opts_default(&o);
	o.snapshot_on_stop = false;
	o.evict_after = 1;
	persist_reconfigure(b->p, &o);
	/* Idle for a second (the clock has whole seconds): at most 5 s. */
	until = uv_hrtime() + 5000000000ull;
	while (state_channel_peek(b->st, "console:idle") != NULL && uv_hrtime() < until) {
		uv_run(&b->loop, UV_RUN_NOWAIT);
		persist_evict(b->p);
	}
	assert_null(state_channel_peek(b->st, "console:idle"));
	assert_null(state_user_peek(b->st, "console:eve"));
	s0 = stats(b);
	assert_int_equal(turn_of(b, "idle"), 1);
	assert_int_equal(stats(b).loaded, s0.loaded + 1);
	s0 = stats(b);
	assert_string_equal(say(b, "eve", "idle", "/thwacko show"), shown);
	assert_int_equal(stats(b).users_loaded, s0.users_loaded + 1);
	assert_string_equal(say(b, "bob", "idle", "/gm"), "The GM here is eve.\n");
	assert_int_equal(stats(b).loaded, s0.loaded);
	assert_int_equal(stats(b).conflicts, 0);
	bot_close(b);
}

/* A row whose key column is not its record's own key is damage: the start
 * refuses it (errno PERSIST_DAMAGED, the exit status the units do not
 * restart) instead of loading the record under either key. */
static void
a_row_under_another_key_is_refused(void **state)
{
	struct bot *b = bot_open();
	struct store_opts so = {.backend = STORE_ENGINE_POSTGRESQL, .conninfo = pgcluster_conninfo};
	struct store_backend *be;
	struct persist_opts o;
	struct state *st = state_new();
	char err[2048], *dir = tmpdir_new();
	uv_loop_t loop;

	say(b, "gm", "keyed", "/gm claim");
	bot_close(b);
	pgcluster_exec("UPDATE channels SET key = 'console:rekeyed' WHERE key = 'console:keyed'");
	persist_opts_default(&o);
	o.dir = dir;
	o.snapshot_on_stop = false;
	uv_loop_init(&loop);
	be = store_open(&loop, &so, err, sizeof(err));
	assert_non_null(be);
	errno = 0;
	assert_null(persist_open_backend(&loop, st, &o, be, err, sizeof(err)));
	assert_int_equal(errno, PERSIST_DAMAGED);
	assert_non_null(strstr(err, "the channel record 'console:rekeyed' cannot be read: it holds "
	                            "the record of 'console:keyed': the row's key column was "
	                            "changed or damaged"));
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&loop), 0);
	pgcluster_exec("DELETE FROM channels WHERE key = 'console:rekeyed'");
	tmpdir_remove(dir);
	state_free(st);
}

/* A stop whose server stays away for all of stop_reach_ms gives up the
 * changes it kept in memory and counts them (delver then exits 1); the
 * server back, a start reads what was saved before it went away. */
static void
a_stop_that_cannot_reach_the_server_counts_what_it_lost(void **state)
{
	struct bot *b = bot_open_reach(300);
	char out[512];

	(void)state;
	assert_string_equal(say(b, "gm", "away", "/gm claim"),
	                    "gm is now the GM of this channel.\n");
	assert_int_equal(pgcluster_run("stop", NULL, 0), 0);
	assert_non_null(strstr(say(b, "gm", "away", "/tension set 4"), "may be lost"));
	assert_int_equal(bot_close(b), 1);
	assert_int_equal(pgcluster_run("start", out, sizeof(out)), 0);
	assert_string_equal(out, pgcluster_conninfo);
	b = bot_open();
	assert_non_null(strstr(say(b, "gm", "away", "/tension"), " 1/10"));
	assert_string_equal(say(b, "gm", "away", "/gm"), "The GM here is gm.\n");
	assert_int_equal(bot_close(b), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(state_survives_a_restart),
	    cmocka_unit_test(a_replayed_event_is_not_applied_twice),
	    cmocka_unit_test(a_commit_whose_answer_was_lost_is_answered_kept),
	    cmocka_unit_test(two_events_of_one_batch_handled_elsewhere_are_both_left),
	    cmocka_unit_test(conflict_drops_the_channel_and_reads_it_again),
	    cmocka_unit_test(later_changes_on_the_stale_copy_are_not_kept),
	    cmocka_unit_test(a_command_handled_elsewhere_after_a_record_conflict_is_left_to_it),
	    cmocka_unit_test(a_rolled_back_batch_names_the_events_told_not_kept),
	    cmocka_unit_test(a_command_keeps_all_its_records_or_none),
	    cmocka_unit_test(user_conflict_reads_the_user_again),
	    cmocka_unit_test(a_command_waits_for_its_channel_to_be_read),
	    cmocka_unit_test(a_thread_reads_its_channels_seat),
	    cmocka_unit_test(commands_waiting_for_one_channel_keep_their_order),
	    cmocka_unit_test(a_command_waits_for_its_user_to_be_read),
	    cmocka_unit_test(a_user_known_absent_is_read_once),
	    cmocka_unit_test(idle_records_leave_memory_and_are_read_back),
	    cmocka_unit_test(a_row_under_another_key_is_refused),
	    cmocka_unit_test(a_stop_that_cannot_reach_the_server_counts_what_it_lost),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
