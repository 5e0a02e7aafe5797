/*
 * Unit tests for bot/app.c's life cycle: the order of the two-phase stop,
 * asynchronous and late completions, step timeouts, SIGHUP's reload, and
 * SIGINT asking the interrupt handler first.
 * app.c is included to reach its static functions (curl's UNITTEST idea);
 * the test builds a struct app by hand instead of calling app_run().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bot/app.c"
#include "tests/unit/helpers/slurp.h"

static char trace[512];

static void
note(const char *what, const char *name)
{
	size_t n = strlen(trace);

	snprintf(trace + n, sizeof(trace) - n, "%s%s.%s", n ? " " : "", name, what);
}

/* A fake service: name, how it ends each step, and what it saw. */
struct fake {
	const char *name;
	int delay_ms; /* 0: done at once; <0: when the test calls app_service_done */
	struct app_service *s;
	int reloads;
	int old_level, new_level;
};

static void
fake_step(struct fake *f, struct app_service *s, const char *what)
{
	note(what, f->name);
	f->s = s;
	if (f->delay_ms == 0)
		app_service_done(s);
}

static void
fake_drain(void *ctx, struct app_service *s)
{
	fake_step(ctx, s, "drain");
}

static void
fake_stop(void *ctx, struct app_service *s)
{
	fake_step(ctx, s, "stop");
}

static void
fake_reload(void *ctx, const struct config *old, const struct config *now)
{
	struct fake *f = ctx;

	f->reloads++;
	f->old_level = (int)old->bot.log_level;
	f->new_level = (int)now->bot.log_level;
}

static const struct app_service_ops fake_ops = {
    .name = "fake", .drain = fake_drain, .stop = fake_stop, .reload = fake_reload};
static const struct app_service_ops quick_ops = {
    .name = "stuck", .timeout_ms = 50, .drain = fake_drain, .stop = fake_stop};
static const struct app_service_ops stop_only_ops = {.name = "stop-only", .stop = fake_stop};

static uv_loop_t loop;

static void app_free(struct app *a);

static void
app_setup(struct app *a)
{
	memset(a, 0, sizeof(*a));
	memset(trace, 0, sizeof(trace));
	uv_loop_init(&loop);
	a->loop = &loop;
	a->opts.log_level = -1;
	a->opts.shard = -1;
	a->cfg = config_defaults();
	init_handles(a);
}

/* Runs the loop to its end and frees the app as app_run() does. */
static void
app_finish(struct app *a)
{
	uv_run(a->loop, UV_RUN_DEFAULT);
	app_free(a);
}

static void
app_free(struct app *a)
{
	for (size_t i = 0; i < a->nsvc; i++)
		free(a->svc[i]);
	uv_close((uv_handle_t *)&a->grace, NULL);
	uv_run(a->loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(a->loop), 0);
	config_free(a->cfg);
}

static void
test_stop_runs_drains_then_stops_in_reverse_order(void **state)
{
	struct app a;
	struct fake store = {.name = "store"}, irc = {.name = "irc"}, discord = {.name = "discord"};

	app_setup(&a);
	app_add_service(&a, &fake_ops, &store);
	app_add_service(&a, &stop_only_ops, &irc);
	app_add_service(&a, &fake_ops, &discord);
	app_shutdown(&a, APP_EXIT_OK, "test");
	app_shutdown(&a, APP_EXIT_FAILURE, "ignored: already stopping");
	app_finish(&a);
	assert_string_equal(trace, "discord.drain store.drain discord.stop irc.stop store.stop");
	assert_int_equal(a.status, APP_EXIT_OK);
}

/* Done inside its own drain or stop call, then notes that the call returned. */
static void
eager_step(void *ctx, struct app_service *s, const char *what)
{
	struct fake *f = ctx;

	note(what, f->name);
	app_service_done(s);
	note("returned", f->name);
}

static void
eager_drain(void *ctx, struct app_service *s)
{
	eager_step(ctx, s, "drain");
}

static void
eager_stop(void *ctx, struct app_service *s)
{
	eager_step(ctx, s, "stop");
}

static const struct app_service_ops eager_ops = {
    .name = "eager", .drain = eager_drain, .stop = eager_stop};

/* libuv's rule: the app goes on from the loop, never inside the
 * app_service_done call a service makes before its step returns. */
static void
test_done_inside_a_step_goes_on_from_the_loop(void **state)
{
	struct app a;
	struct fake store = {.name = "store"}, irc = {.name = "irc"};

	app_setup(&a);
	app_add_service(&a, &fake_ops, &store);
	app_add_service(&a, &eager_ops, &irc);
	app_shutdown(&a, APP_EXIT_OK, "test");
	assert_string_equal(trace, "irc.drain irc.returned");
	app_finish(&a);
	assert_string_equal(trace, "irc.drain irc.returned store.drain irc.stop irc.returned "
	                           "store.stop");
}

/* discord ends each step when the test says, as a service ends one from
 * a later loop turn (a timer would fire inside any turn a loaded machine
 * makes late, so the test would not know what it waits for). */
static void
test_asynchronous_steps_are_waited_for(void **state)
{
	struct app a;
	struct fake store = {.name = "store"}, discord = {.name = "discord", .delay_ms = -1};

	app_setup(&a);
	app_add_service(&a, &fake_ops, &store);
	app_add_service(&a, &fake_ops, &discord);
	app_shutdown(&a, APP_EXIT_FAILURE, "token rejected");
	/* The store must not drain before discord says it is done. */
	uv_run(a.loop, UV_RUN_NOWAIT);
	uv_run(a.loop, UV_RUN_NOWAIT);
	assert_string_equal(trace, "discord.drain");
	app_service_done(discord.s);
	app_service_done(discord.s); /* a second call is ignored */
	/* (not UV_RUN_ONCE: its poll would wait for the step's timeout; the
	 * steps go on from 0 ms timers, so a few turns are plenty) */
	for (int turn = 0; turn < 100 && strstr(trace, "discord.stop") == NULL; turn++)
		uv_run(a.loop, UV_RUN_NOWAIT);
	assert_string_equal(trace, "discord.drain store.drain discord.stop");
	uv_run(a.loop, UV_RUN_NOWAIT);
	assert_string_equal(trace, "discord.drain store.drain discord.stop");
	app_service_done(discord.s);
	app_finish(&a);
	assert_string_equal(trace, "discord.drain store.drain discord.stop store.stop");
	assert_int_equal(a.status, APP_EXIT_FAILURE);
}

static void
test_a_stuck_step_times_out(void **state)
{
	struct app a;
	struct fake store = {.name = "store"}, stuck = {.name = "stuck", .delay_ms = -1};
	uint64_t start;

	app_setup(&a);
	app_add_service(&a, &fake_ops, &store);
	app_add_service(&a, &quick_ops, &stuck);
	start = uv_now(a.loop);
	app_shutdown(&a, APP_EXIT_OK, "test");
	uv_run(a.loop, UV_RUN_DEFAULT);
	assert_string_equal(trace, "stuck.drain store.drain stuck.stop store.stop");
	/* Two steps of 50 ms each were waited for, not 20 s. */
	assert_true(uv_now(a.loop) - start >= 100);
	assert_true(uv_now(a.loop) - start < 2000);
	/* A late completion is ignored: nothing more runs. */
	app_service_done(a.svc[1]);
	assert_int_equal(uv_run(a.loop, UV_RUN_NOWAIT), 0);
	assert_string_equal(trace, "stuck.drain store.drain stuck.stop store.stop");
	app_free(&a);
}

/* A service whose progress the test decides. */
static const char *stall_reason;

static const char *
fake_stalled(void *ctx, char *why, size_t len)
{
	if (stall_reason == NULL)
		return NULL;
	snprintf(why, len, "%s", stall_reason);
	return why;
}

static const struct app_service_ops watched_ops = {
    .name = "watched", .drain = fake_drain, .stop = fake_stop, .stalled = fake_stalled};

/* Runs the loop until the watchdog has fired n more times. */
static void
watchdog_runs(struct app *a, uint64_t n)
{
	uint64_t until = a->pings + a->withheld + n;

	while (a->pings + a->withheld < until)
		uv_run(a->loop, UV_RUN_ONCE);
}

static void
test_watchdog_pings_only_while_services_progress(void **state)
{
	struct app a;
	struct fake f = {.name = "watched"};
	uint64_t pings;

	app_setup(&a);
	app_add_service(&a, &watched_ops, &f);
	uv_timer_start(&a.watchdog, on_watchdog, 5, 5);
	stall_reason = NULL;
	watchdog_runs(&a, 3);
	assert_true(a.pings >= 3);
	assert_int_equal(a.withheld, 0);
	stall_reason = "the gateway heartbeat is 12 s late";
	pings = a.pings;
	watchdog_runs(&a, 4);
	assert_int_equal(a.pings, pings);
	assert_true(a.withheld >= 4);
	stall_reason = NULL;
	pings = a.pings;
	watchdog_runs(&a, 2);
	assert_true(a.pings >= pings + 2);
	uv_timer_stop(&a.watchdog);
	app_shutdown(&a, APP_EXIT_OK, "test");
	app_finish(&a);
}

/* The spin issue 12 found: a timer re-armed at 0 ms from its own callback
 * (refreshing the loop's clock, as discord_ws did) keeps libuv 1.44 in its
 * timer phase; the watchdog timer still fires in there, but the loop never
 * polls, so no ping may go. The spin ends after 150 ms here. */
struct spin {
	uv_timer_t t;
	uint64_t until_ns;
	uint64_t pings_seen; /* the app's pings when the spin began */
	struct app *a;
	long turns;
};

static void
on_spin(uv_timer_t *t)
{
	struct spin *sp = t->data;

	sp->turns++;
	uv_update_time(t->loop);
	assert_int_equal(sp->a->pings, sp->pings_seen);
	if (uv_hrtime() < sp->until_ns)
		uv_timer_start(t, on_spin, 0, 0);
}

static void
test_watchdog_withholds_pings_while_a_timer_spins(void **state)
{
	struct app a;
	struct spin sp = {0};
	uint64_t withheld;

	app_setup(&a);
	uv_timer_start(&a.watchdog, on_watchdog, 5, 5);
	watchdog_runs(&a, 2);
	assert_true(a.pings >= 2);
	uv_timer_init(a.loop, &sp.t);
	sp.t.data = &sp;
	sp.a = &a;
	sp.pings_seen = a.pings;
	withheld = a.withheld;
	sp.until_ns = uv_hrtime() + 150000000ull;
	uv_timer_start(&sp.t, on_spin, 0, 0);
	uv_run(a.loop, UV_RUN_ONCE); /* the whole spin happens in here */
	/* on_spin checked at every turn that no ping went. */
	assert_true(sp.turns > 1000);
	assert_true(a.withheld > withheld);
	/* Once the loop polls again, the pings come back. */
	watchdog_runs(&a, 3);
	assert_true(a.pings > sp.pings_seen);
	uv_close((uv_handle_t *)&sp.t, NULL);
	uv_timer_stop(&a.watchdog);
	app_shutdown(&a, APP_EXIT_OK, "test");
	app_finish(&a);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_reload_applies_a_good_file_and_keeps_the_old_on_a_bad_one(void **state)
{
	char path[] = "/tmp/delver-app-XXXXXX";
	struct fake svc = {.name = "svc"};
	struct app a;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	app_setup(&a);
	a.opts.config_path = path;
	app_add_service(&a, &fake_ops, &svc);

	write_file(path, "[bot]\nlog_level = debug\n");
	reload(&a);
	assert_int_equal(svc.reloads, 1);
	assert_int_equal(svc.old_level, LOG_LEVEL_INFO);
	assert_int_equal(svc.new_level, LOG_LEVEL_DEBUG);
	assert_int_equal(a.cfg->bot.log_level, LOG_LEVEL_DEBUG);
	assert_int_equal(log_get_level(), LOG_LEVEL_DEBUG);

	write_file(path, "[bot]\nlog_level = warn\nsnapshot_interval = never\n");
	reload(&a);
	assert_int_equal(svc.reloads, 1); /* not called */
	assert_int_equal(a.cfg->bot.log_level, LOG_LEVEL_DEBUG);
	assert_int_equal(log_get_level(), LOG_LEVEL_DEBUG);

	/* --log-level wins over the file across reloads. */
	a.opts.log_level = LOG_LEVEL_ERROR;
	write_file(path, "[bot]\nlog_level = info\n");
	reload(&a);
	assert_int_equal(svc.reloads, 2);
	assert_int_equal(log_get_level(), LOG_LEVEL_ERROR);

	log_set_level(LOG_LEVEL_INFO);
	unlink(path);
	app_shutdown(&a, APP_EXIT_OK, "test");
	app_finish(&a);
}

static int interrupts;
static bool interrupt_used;

static bool
count_interrupt(void *ctx)
{
	interrupts++;
	return interrupt_used;
}

/* SIGINT asks the interrupt handler first (an interactive console clears
 * its line): delver stops only when the handler does not use it. */
static void
test_sigint_asks_the_interrupt_handler_first(void **state)
{
	struct fake svc = {.name = "svc"};
	struct app a;

	app_setup(&a);
	app_add_service(&a, &fake_ops, &svc);
	interrupts = 0;
	interrupt_used = true;
	app_set_interrupt(&a, count_interrupt, NULL);
	on_signal(&a.sigint, SIGINT);
	assert_int_equal(interrupts, 1);
	assert_int_equal(a.phase, PHASE_RUN);
	assert_string_equal(trace, "");
	/* A handler that does not use it: SIGINT stops delver as ever. */
	interrupt_used = false;
	on_signal(&a.sigint, SIGINT);
	assert_int_equal(interrupts, 2);
	assert_int_equal(a.phase, PHASE_DRAIN);
	app_finish(&a);
	assert_string_equal(trace, "svc.drain svc.stop");
	assert_int_equal(a.status, APP_EXIT_OK);
}

/* The value of the one line "key=..." of a unit, or fails. */
static void
unit_value(const char *unit, const char *key, char *out, size_t len)
{
	char want[64];
	const char *p, *end;

	snprintf(want, sizeof(want), "\n%s=", key);
	p = strstr(unit, want);
	if (p == NULL)
		fail_msg("no %s= line", key);
	assert_null(strstr(p + 1, want)); /* one line only */
	p += strlen(want);
	end = strchr(p, '\n');
	snprintf(out, len, "%.*s", (int)(end - p), p);
}

/* Both units stop restarting on exactly the statuses a restart cannot
 * mend, and bound memory and tasks; delver(8) documents every status. A
 * status added to app.h without the units or the manual fails here. */
static void
test_units_name_every_fatal_status(void **unused)
{
	static const char *const units[] = {"systemd/delver.service", "systemd/delver@.service"};
	static const int codes[] = {4004, 4010, 4011, 4012, 4013, 4014, 401};
	char want[128] = "", got[256], *man = slurp("bot/man/delver.8", NULL);
	const char *exit_status = strstr(man, "\n.SH EXIT STATUS\n"), *p;
	int seen = 0;

	for (int s = APP_EXIT_FATAL_FIRST; s <= APP_EXIT_FATAL_LAST; s++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%d",
		         s == APP_EXIT_FATAL_FIRST ? "" : " ", s);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		char *unit = slurp(units[i], NULL);

		unit_value(unit, "Restart", got, sizeof(got));
		assert_string_equal(got, "on-failure");
		unit_value(unit, "RestartPreventExitStatus", got, sizeof(got));
		assert_string_equal(got, want);
		unit_value(unit, "MemoryMax", got, sizeof(got));
		assert_string_equal(got, "1G");
		unit_value(unit, "TasksMax", got, sizeof(got));
		assert_string_equal(got, "64");
		free(unit);
	}
	/* The manual lists 0 .. the last in order, each as ".B N". */
	assert_non_null(exit_status);
	p = exit_status;
	for (int s = APP_EXIT_OK; s <= APP_EXIT_FATAL_LAST; s++) {
		char item[16];

		snprintf(item, sizeof(item), "\n.B %d\n", s);
		p = strstr(p, item);
		assert_non_null(p);
		assert_true(p < strstr(exit_status, "\n.SH ENVIRONMENT"));
	}
	free(man);
	/* Each fatal Discord condition has a status of its own, a fatal one. */
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		int st = discord_service_exit_status(codes[i]);

		assert_in_range(st, APP_EXIT_DISCORD_TOKEN, APP_EXIT_FATAL_LAST);
		assert_false(seen & (1 << st) && codes[i] != 401);
		seen |= 1 << st;
	}
	assert_int_equal(discord_service_exit_status(4004), APP_EXIT_DISCORD_TOKEN);
	assert_int_equal(discord_service_exit_status(401), APP_EXIT_DISCORD_TOKEN);
	assert_int_equal(discord_service_exit_status(4011), APP_EXIT_DISCORD_SHARDING);
	assert_int_equal(discord_service_exit_status(4009), APP_EXIT_FAILURE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stop_runs_drains_then_stops_in_reverse_order),
	    cmocka_unit_test(test_done_inside_a_step_goes_on_from_the_loop),
	    cmocka_unit_test(test_asynchronous_steps_are_waited_for),
	    cmocka_unit_test(test_a_stuck_step_times_out),
	    cmocka_unit_test(test_watchdog_pings_only_while_services_progress),
	    cmocka_unit_test(test_watchdog_withholds_pings_while_a_timer_spins),
	    cmocka_unit_test(test_reload_applies_a_good_file_and_keeps_the_old_on_a_bad_one),
	    cmocka_unit_test(test_sigint_asks_the_interrupt_handler_first),
	    cmocka_unit_test(test_units_name_every_fatal_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
