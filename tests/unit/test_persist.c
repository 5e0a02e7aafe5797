/* Unit tests for bot/persist.c: hooks, policies, faults, snapshots, eviction. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "bot/store/persist.h"
#include "bot/console/render_text.h"
#include "bot/store/restore.h"
#include "bot/store/snapshot.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/faultio.h"

#define WARNING                                                                                    \
	"Warning: this change could not be saved to disk and may be lost if the bot restarts.\n"

/* A bot without transports: a loop, a state, a dispatcher, persistence. */
struct bot {
	char *dir;
	uv_loop_t loop;
	uv_timer_t keepalive; /* persistence's own timers do not keep a loop alive */
	struct state *st;
	struct dispatch d;
	struct persist *p;
	struct persist_opts o;
};

static void
keepalive_cb(uv_timer_t *t)
{
}

static void
bot_open(struct bot *b)
{
	char err[2048];

	uv_loop_init(&b->loop);
	uv_timer_init(&b->loop, &b->keepalive);
	uv_timer_start(&b->keepalive, keepalive_cb, 5, 5);
	b->st = state_new();
	memset(&b->d, 0, sizeof(b->d));
	b->d.state = b->st;
	b->d.rng = rng_new_seeded(1);
	b->p = persist_open(&b->loop, b->st, &b->o, err, sizeof(err));
	if (b->p == NULL)
		fail_msg("%s", err);
	persist_attach(b->p, &b->d);
}

static struct bot *
bot_new(enum fsync_policy policy)
{
	struct bot *b = calloc(1, sizeof(*b));

	b->dir = tmpdir_new();
	persist_opts_default(&b->o);
	b->o.dir = b->dir;
	b->o.fsync = policy;
	bot_open(b);
	return b;
}

static void
bot_close(struct bot *b)
{
	persist_close(b->p);
	uv_close((uv_handle_t *)&b->keepalive, NULL);
	uv_run(&b->loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&b->loop), 0);
	state_free(b->st);
	rng_free(b->d.rng);
	b->p = NULL;
}

static void
bot_free(struct bot *b)
{
	if (b->p != NULL)
		bot_close(b);
	tmpdir_remove(b->dir);
	free(b);
}

/* Runs "/line" as user in channel; returns the channel's reply text. */
static const char *
say(struct bot *b, const char *user, const char *chan, const char *line)
{
	static char text[4096];
	struct origin o = {.platform = "console"};
	struct reply *r = reply_new();
	struct buf out;

	snprintf(o.chan_key, sizeof(o.chan_key), "console:%s", chan);
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	dispatch_line(&b->d, &o, line, strlen(line), (int64_t)time(NULL), r);
	buf_init(&out, 1 << 16);
	render_text(reply_msg(r, REPLY_CHANNEL), false, &out);
	snprintf(text, sizeof(text), "%s", buf_str(&out));
	buf_free(&out);
	reply_free(r);
	return text;
}

/* Runs the loop for about ms milliseconds. */
static void
spin(struct bot *b, unsigned ms)
{
	uint64_t until = uv_hrtime() + (uint64_t)ms * 1000000;

	while (uv_hrtime() < until)
		uv_run(&b->loop, UV_RUN_ONCE);
}

/* Takes a background snapshot and waits for its end. */
static void
snapshot_now(struct bot *b)
{
	assert_int_equal(persist_snapshot(b->p), 0);
	while (persist_busy(b->p))
		uv_run(&b->loop, UV_RUN_ONCE);
}

/* The checksum of the installed snapshot file. */
static unsigned long
snapshot_crc(struct bot *b)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/snapshot.dlv", b->dir);
	return file_crc(path);
}

/* What a fresh start would find on disk for a channel's GM. */
static const char *
gm_on_disk(struct bot *b, const char *chan)
{
	static char gm[KEY_MAX];
	struct restore_opts ro = {.dir = b->dir, .now = (int64_t)time(NULL)};
	struct restore_result res;
	struct state *st = state_new();
	struct channel *ch;
	char key[KEY_MAX], err[1024];

	if (restore_state(st, &ro, &res, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	snprintf(key, sizeof(key), "console:%s", chan);
	ch = state_channel_find(st, key);
	snprintf(gm, sizeof(gm), "%s",
	         ch == NULL       ? "(absent)"
	         : channel_gm(ch) ? channel_gm(ch)
	                          : "(none)");
	snapshot_close(res.snap);
	state_free(st);
	return gm;
}

static struct persist_stats
stats(struct bot *b)
{
	struct persist_stats s;

	persist_get_stats(b->p, &s);
	return s;
}

static void
test_always_makes_each_reply_durable(void **state)
{
	struct bot *b = bot_new(FSYNC_ALWAYS);

	assert_string_equal(say(b, "ann", "crypt", "/gm claim"),
	                    "ann is now the GM of this channel.\n");
	assert_string_equal(say(b, "bob", "tower", "/gm claim"),
	                    "bob is now the GM of this channel.\n");
	/* Read back while running: what a crash right now would leave. */
	assert_string_equal(gm_on_disk(b, "crypt"), "console:ann");
	assert_string_equal(gm_on_disk(b, "tower"), "console:bob");
	say(b, "ann", "crypt", "/gm release");
	assert_string_equal(gm_on_disk(b, "crypt"), "(none)");
	assert_int_equal(stats(b).appends, 3);
	bot_free(b);
}

static void
test_close_snapshots_and_reopen_restores(void **state)
{
	struct bot *b = bot_new(FSYNC_EVERYSEC);
	char path[512];

	say(b, "ann", "crypt", "/gm claim");
	bot_close(b);
	snprintf(path, sizeof(path), "%s/snapshot.dlv", b->dir);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/journal.00000001.dlv", b->dir);
	assert_int_equal(access(path, F_OK), -1); /* folded into the snapshot */
	bot_open(b);
	assert_string_equal(say(b, "bob", "crypt", "/gm"), "The GM here is ann.\n");
	/* Nothing changed: closing leaves no new journal behind. */
	bot_close(b);
	snprintf(path, sizeof(path), "%s/journal.00000002.dlv", b->dir);
	assert_int_equal(access(path, F_OK), -1);
	bot_free(b);
}

static void
test_second_instance_is_refused(void **state)
{
	struct bot *b = bot_new(FSYNC_EVERYSEC);
	struct state *st = state_new();
	char err[2048], want[2048];

	assert_null(persist_open(&b->loop, st, &b->o, err, sizeof(err)));
	snprintf(want, sizeof(want),
	         "the state directory %s is in use by another delver (%s/lock is locked); stop "
	         "it or use another --state-dir",
	         b->dir, b->dir);
	assert_string_equal(err, want);
	state_free(st);
	bot_free(b);
}

static void
test_failed_write_warns_keeps_answering_and_retries(void **state)
{
	struct bot *b = bot_new(FSYNC_ALWAYS);

	faultio_arm(FAULTIO_WRITE, 1, ENOSPC, true);
	assert_string_equal(say(b, "ann", "crypt", "/gm claim"),
	                    "ann is now the GM of this channel.\n" WARNING);
	/* The bot keeps answering, from memory. */
	assert_string_equal(say(b, "bob", "crypt", "/gm"), "The GM here is ann.\n");
	assert_int_equal(stats(b).append_failures, 1);
	assert_int_equal(stats(b).retry_pending, 1);
	assert_string_equal(gm_on_disk(b, "crypt"), "(absent)");
	spin(b, 1100);
	assert_int_equal(stats(b).retry_pending, 1); /* still no space */
	faultio_off();
	spin(b, 1100);
	assert_int_equal(stats(b).retry_pending, 0);
	assert_string_equal(gm_on_disk(b, "crypt"), "console:ann");
	bot_free(b);
}

static void
test_failed_fsync_under_always_warns_and_retries(void **state)
{
	struct bot *b = bot_new(FSYNC_ALWAYS);

	faultio_arm(FAULTIO_FSYNC, 1, EIO, false);
	assert_string_equal(say(b, "ann", "crypt", "/gm claim"),
	                    "ann is now the GM of this channel.\n" WARNING);
	faultio_off();
	/* The next change goes to a new journal file and is durable. */
	assert_string_equal(say(b, "bob", "tower", "/gm claim"),
	                    "bob is now the GM of this channel.\n");
	spin(b, 1100);
	assert_int_equal(stats(b).retry_pending, 0);
	assert_string_equal(gm_on_disk(b, "crypt"), "console:ann");
	assert_string_equal(gm_on_disk(b, "tower"), "console:bob");
	bot_free(b);
}

static void
test_everysec_fsyncs_in_the_background(void **state)
{
	struct bot *b = bot_new(FSYNC_EVERYSEC);

	faultio_arm(FAULTIO_FSYNC, 1000000, EIO, false); /* counts, never fails */
	say(b, "ann", "crypt", "/gm claim");
	assert_int_equal(faultio_calls(FAULTIO_FSYNC), 0); /* not before the reply */
	spin(b, 1200);
	assert_int_equal(faultio_calls(FAULTIO_FSYNC), 1);
	spin(b, 1100);
	assert_int_equal(faultio_calls(FAULTIO_FSYNC), 1); /* nothing new to sync */
	faultio_off();
	bot_free(b);
}

static void
test_failed_snapshot_keeps_the_previous_one(void **state)
{
	struct bot *b = bot_new(FSYNC_EVERYSEC);
	unsigned long before;

	say(b, "ann", "crypt", "/gm claim");
	snapshot_now(b);
	assert_int_equal(stats(b).snapshots, 1);
	before = snapshot_crc(b);

	say(b, "bob", "tower", "/gm claim");
	/* Write 1 is the new journal's header; the forked writer inherits the
	 * fault and fails from write 2 on. */
	faultio_arm(FAULTIO_WRITE, 2, ENOSPC, true);
	snapshot_now(b);
	faultio_off();
	assert_int_equal(stats(b).snapshot_failures, 1);
	assert_int_equal(snapshot_crc(b), before);
	assert_string_equal(say(b, "cat", "tower", "/gm"), "The GM here is bob.\n");
	/* The journals still hold the change the failed snapshot missed. */
	assert_string_equal(gm_on_disk(b, "tower"), "console:bob");

	snapshot_now(b);
	assert_int_equal(stats(b).snapshots, 2);
	assert_true(snapshot_crc(b) != before);
	assert_string_equal(gm_on_disk(b, "tower"), "console:bob");
	assert_string_equal(gm_on_disk(b, "crypt"), "console:ann");
	bot_free(b);
}

static void
test_failed_rename_keeps_the_previous_one(void **state)
{
	struct bot *b = bot_new(FSYNC_EVERYSEC);
	unsigned long before;

	say(b, "ann", "crypt", "/gm claim");
	snapshot_now(b);
	before = snapshot_crc(b);
	say(b, "bob", "crypt", "/gm release");
	faultio_arm(FAULTIO_RENAME, 1, EIO, false);
	snapshot_now(b);
	faultio_off();
	assert_int_equal(stats(b).snapshot_failures, 1);
	assert_int_equal(snapshot_crc(b), before);
	assert_string_equal(gm_on_disk(b, "crypt"), "console:ann");
	bot_free(b);
}

static void
test_journal_replaced_while_a_snapshot_prepares(void **state)
{
	struct bot *b = bot_new(FSYNC_ALWAYS);

	say(b, "ann", "crypt", "/gm claim");         /* journal 1 */
	assert_int_equal(persist_snapshot(b->p), 0); /* journal 2, made on the pool... */
	usleep(300000);                              /* ...by now, but not yet seen */
	faultio_arm(FAULTIO_FSYNC, 1, EIO, false);
	assert_string_equal(say(b, "ann", "crypt", "/gm release"),
	                    "ann is no longer the GM; anyone may /gm claim.\n" WARNING);
	faultio_off();
	say(b, "bob", "crypt", "/gm claim"); /* journal 1 broke: this goes to journal 3 */
	while (persist_busy(b->p))
		uv_run(&b->loop, UV_RUN_ONCE);
	say(b, "bob", "crypt", "/gm release");
	/* Had journal 2 been used, this release would replay before journal 3's
	 * older claim. */
	assert_string_equal(gm_on_disk(b, "crypt"), "(none)");
	assert_int_equal(stats(b).snapshot_failures, 1);
	snapshot_now(b);
	assert_string_equal(gm_on_disk(b, "crypt"), "(absent)"); /* empty: not written */
	bot_free(b);
}

/* Waits until the clock has passed t. */
static void
after(time_t t)
{
	while (time(NULL) <= t)
		usleep(20000);
}

static void
test_idle_channels_leave_memory_and_come_back(void **state)
{
	struct bot *b = calloc(1, sizeof(*b));
	time_t t = time(NULL);

	b->dir = tmpdir_new();
	persist_opts_default(&b->o);
	b->o.dir = b->dir;
	b->o.evict_after = 1;
	bot_open(b);
	say(b, "ann", "crypt", "/gm claim");
	say(b, "bob", "tower", "/gm claim");
	assert_int_equal(persist_evict(b->p), 0); /* no snapshot holds them yet */
	after(t);
	snapshot_now(b);
	after(time(NULL));
	say(b, "bob", "tower", "/gm"); /* tower was just used */
	assert_int_equal(persist_evict(b->p), 1);
	assert_int_equal(state_nchannels(b->st), 1);
	/* crypt comes back from the snapshot when used. */
	assert_string_equal(say(b, "cat", "crypt", "/gm"), "The GM here is ann.\n");
	assert_int_equal(stats(b).loaded, 1);
	assert_int_equal(state_nchannels(b->st), 2);
	/* Used after the snapshot: both stay until a newer one holds them. */
	assert_int_equal(persist_evict(b->p), 0);
	after(time(NULL));
	snapshot_now(b);
	after(time(NULL));
	assert_int_equal(persist_evict(b->p), 2);
	assert_int_equal(state_nchannels(b->st), 0);
	/* Evicted channels survive the next snapshot and a restart. */
	say(b, "dan", "hall", "/gm claim");
	snapshot_now(b);
	bot_close(b);
	assert_string_equal(gm_on_disk(b, "crypt"), "console:ann");
	assert_string_equal(gm_on_disk(b, "tower"), "console:bob");
	assert_string_equal(gm_on_disk(b, "hall"), "console:dan");
	bot_free(b);
}

/* How many files in dir have names starting with prefix. */
static int
count_files(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

static void
test_damaged_file_refuses_then_salvage_starts(void **state)
{
	struct bot *b = bot_new(FSYNC_ALWAYS);
	char path[512], err[2048];
	struct state *st = state_new();
	FILE *fp;

	say(b, "ann", "crypt", "/gm claim");
	bot_close(b);
	snprintf(path, sizeof(path), "%s/snapshot.dlv", b->dir);
	fp = fopen(path, "r+");
	fseek(fp, 30, SEEK_SET);
	fputc('#', fp);
	fclose(fp);
	assert_null(persist_open(&b->loop, st, &b->o, err, sizeof(err)));
	assert_non_null(strstr(err, "snapshot.dlv:1: checksum mismatch: the line was changed or "
	                            "damaged. The file is left as it is: repair or remove it, or "
	                            "start with --salvage to move damaged files aside and start "
	                            "from what is readable"));
	state_free(st);
	b->o.salvage = true;
	bot_open(b);
	/* The bad file is kept aside and a fresh snapshot replaced it before the start. */
	assert_int_equal(count_files(b->dir, "snapshot.dlv.bad-"), 1);
	assert_int_equal(count_files(b->dir, "snapshot.dlv"), 2);
	assert_string_equal(say(b, "ann", "crypt", "/gm"),
	                    "Nobody is GM here yet; /gm claim makes you the GM.\n");
	bot_close(b);
	b->o.salvage = false;
	bot_open(b); /* starts without --salvage now */
	bot_free(b);
}

/* The saved JSON of every module slot of a channel and its GM, as text. */
static char *
channel_text(struct state *st, const char *key)
{
	struct channel *ch = state_channel_find(st, key);
	struct buf b;

	buf_init(&b, 1 << 20);
	if (ch == NULL)
		return buf_take(&b);
	buf_addf(&b, "gm=%s;", channel_gm(ch) ? channel_gm(ch) : "");
	for (int i = 0; i < CHANMOD_COUNT; i++) {
		const void *m = channel_mod_peek(ch, (enum chanmod_id)i);
		cJSON *o = m != NULL ? chanmod_table[i]->save(m) : NULL;
		char *t = o != NULL ? cJSON_PrintUnformatted(o) : NULL;

		buf_addf(&b, "%s=%s;", chanmod_table[i]->name, t != NULL ? t : "-");
		cJSON_free(t);
		cJSON_Delete(o);
	}
	return buf_take(&b);
}

/* Restores b's directory into a fresh state. */
static struct state *
restored(struct bot *b)
{
	struct restore_opts ro = {.dir = b->dir, .now = (int64_t)time(NULL)};
	struct restore_result res;
	struct state *st = state_new();
	char err[1024];

	if (restore_state(st, &ro, &res, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	snapshot_close(res.snap);
	return st;
}

static void
test_every_module_round_trips_through_journal_and_snapshot(void **state)
{
	struct bot *b = bot_new(FSYNC_ALWAYS);
	struct ustyle style = {.colour = UC_CYAN, .mark = "🐉"};
	struct channel *ch;
	struct user *u = state_user(b->st, "console:ann");
	struct state *st;
	char *want, *got;

	/* Real commands give the modules rich states: Tension with a custom
	 * table, struck entries, a hidden mode. */
	say(b, "ann", "all", "/gm claim");
	say(b, "ann", "all", "/tension raise combat goblins in the guardroom");
	say(b, "ann", "all",
	    "/tension table set encounter 1-10 rats; 11-19 bats; 20 a lost knight");
	say(b, "ann", "all", "/tension strike bats");
	say(b, "ann", "all", "/tension mode hidden");
	/* The procedure: a light, a hazard table, a wandering-monster setting. */
	say(b, "ann", "all", "/light add torch who:ann");
	say(b, "ann", "all", "/hazard table delving");
	say(b, "ann", "all", "/wander classic chance:2-in-6");
	/* Fungeon: a party, a trap and a monster designed, a trap found. */
	say(b, "ann", "all", "/fungeon join Alba wizard 2");
	say(b, "bob", "all", "/fungeon join Brom fighter 2");
	say(b, "bob", "all", "/thwacko style red ◆");
	say(b, "ann", "all", "/fungeon trap add pit annoy 2 pain 2 type spikes");
	say(b, "ann", "all",
	    "/fungeon monster add wasp level 1 ability sting annoy 2 pain 1 type poison");
	say(b, "ann", "all", "/fungeon find pit");
	/* Dice: a roll log and a setting. */
	say(b, "ann", "all", "/roll 2d6+1 # fire");
	say(b, "bob", "all", "/roll 3x d20");
	say(b, "ann", "all", "/settings natural off");
	say(b, "ann", "all", "/settings compact on");
	say(b, "bob", "all", "/save fireball 8d6 # fire");
	say(b, "ann", "all", "/save sneak 1d20+7 channel:true");
	/* Every other module, at least in its fresh state. */
	ch = state_channel(b->st, "console:all");
	for (int i = 0; i < CHANMOD_COUNT; i++)
		if (chanmod_table[i] != NULL)
			channel_mod(ch, (enum chanmod_id)i);
	channel_touch(ch);
	user_set_style(u, &style);
	user_touch(u);
	assert_int_equal(persist_flush(b->p), 0);
	want = channel_text(b->st, "console:all");
	assert_non_null(strstr(want, "\"mode\":\"hidden\""));
	assert_non_null(strstr(want, "\"struck\":[\"11-19\"]"));
	assert_non_null(strstr(want, "torch"));
	assert_non_null(strstr(want, "Brom"));
	assert_non_null(strstr(want, "wasp"));

	st = restored(b); /* from the journal */
	got = channel_text(st, "console:all");
	assert_string_equal(got, want);
	assert_int_equal(user_style(state_user_find(st, "console:ann"))->colour, UC_CYAN);
	assert_string_equal(user_style(state_user_find(st, "console:ann"))->mark, "🐉");
	assert_int_equal(user_style(state_user_find(st, "console:bob"))->colour, UC_RED);
	assert_string_equal(user_style(state_user_find(st, "console:bob"))->mark, "◆");
	free(got);
	state_free(st);

	bot_close(b); /* now from the snapshot alone */
	st = restored(b);
	got = channel_text(st, "console:all");
	assert_string_equal(got, want);
	assert_string_equal(user_style(state_user_find(st, "console:ann"))->mark, "🐉");
	assert_string_equal(user_style(state_user_find(st, "console:bob"))->mark, "◆");
	free(got);
	free(want);
	state_free(st);
	bot_free(b);
}

static void
test_options_from_the_command_line(void **state)
{
	struct persist_opts o;
	char err[256];

	persist_opts_default(&o);
	assert_int_equal(o.fsync, FSYNC_EVERYSEC);
	assert_int_equal(o.snapshot_interval, 60);
	assert_int_equal(persist_opt(&o, "fsync", "always", err, sizeof(err)), 0);
	assert_int_equal(o.fsync, FSYNC_ALWAYS);
	assert_int_equal(persist_opt(&o, "fsync", "sometimes", err, sizeof(err)), -1);
	assert_string_equal(err, "--fsync must be always, everysec or no (got 'sometimes')");
	assert_int_equal(persist_opt(&o, "snapshot-interval", "0", err, sizeof(err)), -1);
	assert_string_equal(err, "--snapshot-interval must be a whole number of seconds from 1 "
	                         "to 86400 (got '0')");
	assert_int_equal(persist_opt(&o, "snapshot-interval", "300", err, sizeof(err)), 0);
	assert_int_equal(o.snapshot_interval, 300);
	assert_int_equal(persist_opt(&o, "evict-after", "0", err, sizeof(err)), 0);
	assert_int_equal(o.evict_after, 0);
	assert_int_equal(persist_opt(&o, "state-dir", "", err, sizeof(err)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_always_makes_each_reply_durable),
	    cmocka_unit_test(test_close_snapshots_and_reopen_restores),
	    cmocka_unit_test(test_second_instance_is_refused),
	    cmocka_unit_test(test_failed_write_warns_keeps_answering_and_retries),
	    cmocka_unit_test(test_failed_fsync_under_always_warns_and_retries),
	    cmocka_unit_test(test_everysec_fsyncs_in_the_background),
	    cmocka_unit_test(test_failed_snapshot_keeps_the_previous_one),
	    cmocka_unit_test(test_failed_rename_keeps_the_previous_one),
	    cmocka_unit_test(test_journal_replaced_while_a_snapshot_prepares),
	    cmocka_unit_test(test_idle_channels_leave_memory_and_come_back),
	    cmocka_unit_test(test_damaged_file_refuses_then_salvage_starts),
	    cmocka_unit_test(test_every_module_round_trips_through_journal_and_snapshot),
	    cmocka_unit_test(test_options_from_the_command_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
