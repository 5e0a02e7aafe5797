/*
 * app: the daemon's life cycle on one libuv loop (start, signals, reload,
 * the two-phase stop, systemd notification); see app.h.
 */
#include "bot/app.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/app_config.h"
#include "bot/console/console.h"
#include "bot/discord/discord.h"
#include "bot/irc/irc_net.h"
#include "bot/log.h"
#include "bot/notify.h"
#include "bot/store/persist.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "bot/console/console_service.h"
#include "bot/discord/discord_service.h"
#include "bot/irc/irc_service.h"
#include "bot/store/store_service.h"

#define APP_SERVICES_MAX   16
#define APP_STEP_TIMEOUT   20000 /* ms a drain or stop step may take by default */
#define APP_CLOSE_GRACE_MS 5000  /* after the stop, for handles left open */

/*
 * The services, in start order. Each starts its service when the
 * configuration asks for it and registers it with app_add_service(). Keep
 * the store first: it must be open before any transport takes a command,
 * and it drains (snapshots) after every transport has drained.
 */
static const struct {
	int (*start)(struct app *a, char *err, size_t errlen);
	const char *what; /* as a start error names it when the starter gave no sentence */
} starters[] = {
    {store_service_start, "the store"},
    {console_service_start, "the console"},
    {discord_service_start, "Discord"},
    {irc_service_start, "IRC"},
};

enum phase {
	PHASE_RUN,
	PHASE_DRAIN,
	PHASE_STOP,
	PHASE_CLOSE,
};

struct app_service {
	struct app *app;
	const struct app_service_ops *ops;
	void *ctx;
	bool waiting; /* its current step has not ended yet */
};

struct app {
	uv_loop_t *loop;
	struct app_opts opts;
	struct config *cfg;
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	uv_signal_t sigterm, sigint, sighup, sigusr1;
	bool (*interrupt)(void *ctx); /* asked first on SIGINT; see app.h */
	void *interrupt_ctx;
	uv_timer_t watchdog; /* started only under a systemd watchdog */
	uv_check_t polled;   /* counts loop iterations that polled */
	uint64_t polls, polls_at_ping;
	uint64_t pings, withheld; /* watchdog pings sent and held back */
	bool stall_logged;        /* the current stall was logged */
	uv_timer_t step;          /* the next step, or the current one's timeout */
	uv_timer_t grace;         /* ends a loop kept alive by a leaked handle */
	struct app_service *svc[APP_SERVICES_MAX];
	size_t nsvc;
	enum phase phase;
	size_t cur; /* services left in the current phase: svc[0..cur) */
	int status;
};

static const char *const phase_names[] = {"run", "drain", "stop", "close"};

struct app_service *
app_add_service(struct app *a, const struct app_service_ops *ops, void *ctx)
{
	struct app_service *s;

	if (a->nsvc == APP_SERVICES_MAX)
		log_fatalx("too many services (APP_SERVICES_MAX is %d)", APP_SERVICES_MAX);
	s = xcalloc(1, sizeof(*s));
	s->app = a;
	s->ops = ops;
	s->ctx = ctx;
	a->svc[a->nsvc++] = s;
	log_debug("%s: started", ops->name);
	return s;
}

uv_loop_t *
app_loop(struct app *a)
{
	return a->loop;
}

const struct config *
app_config(const struct app *a)
{
	return a->cfg;
}

const struct app_opts *
app_options(const struct app *a)
{
	return &a->opts;
}

struct dispatch *
app_dispatch(struct app *a)
{
	return a->d;
}

struct state *
app_state(struct app *a)
{
	return a->st;
}

bool
app_console_only(const struct app *a)
{
	return !a->cfg->discord.enabled && a->cfg->nirc == 0;
}

static void run_step(struct app *a);

/* The dispatcher's note that a user's records moved from the key an older
 * version gave them (no key is logged: they name users and their hosts). */
static void
log_adopted(const char *chan_key, int moved)
{
	log_info("state: %d record reference(s) moved from a user's legacy key to its current "
	         "key, for a command in %s",
	         moved, chan_key);
}

static void
on_next_step(uv_timer_t *t)
{
	run_step(t->data);
}

static void
on_step_timeout(uv_timer_t *t)
{
	struct app *a = t->data;
	struct app_service *s = a->svc[a->cur];

	s->waiting = false;
	log_warnx("%s: did not finish its %s step in time; going on", s->ops->name,
	          phase_names[a->phase]);
	run_step(a);
}

void
app_service_done(struct app_service *s)
{
	struct app *a = s->app;

	if (!s->waiting)
		return;
	s->waiting = false;
	log_debug("%s: %s step done", s->ops->name, phase_names[a->phase]);
	/* Go on from the loop, not from inside the service's callback. */
	uv_timer_start(&a->step, on_next_step, 0, 0);
}

static void
on_grace_over(uv_timer_t *t)
{
	struct app *a = t->data;

	log_warnx("handles were left open after the stop; ending the loop");
	uv_stop(a->loop);
}

/* The last step: delver's own handles. The loop ends when they are closed,
 * unless a service leaked a handle (then the unreferenced grace timer ends
 * it). */
static void
close_handles(struct app *a)
{
	a->phase = PHASE_CLOSE;
	uv_close((uv_handle_t *)&a->sigterm, NULL);
	uv_close((uv_handle_t *)&a->sigint, NULL);
	uv_close((uv_handle_t *)&a->sighup, NULL);
	uv_close((uv_handle_t *)&a->sigusr1, NULL);
	uv_close((uv_handle_t *)&a->watchdog, NULL);
	uv_close((uv_handle_t *)&a->polled, NULL);
	uv_close((uv_handle_t *)&a->step, NULL);
	uv_timer_start(&a->grace, on_grace_over, APP_CLOSE_GRACE_MS, 0);
	uv_unref((uv_handle_t *)&a->grace);
}

/* Runs the next service's step of the current phase, or the next phase. */
static void
run_step(struct app *a)
{
	while (a->cur > 0) {
		struct app_service *s = a->svc[--a->cur];
		void (*fn)(void *, struct app_service *) =
		    a->phase == PHASE_DRAIN ? s->ops->drain : s->ops->stop;
		unsigned timeout = s->ops->timeout_ms ? s->ops->timeout_ms : APP_STEP_TIMEOUT;

		if (fn == NULL)
			continue;
		s->waiting = true;
		log_debug("%s: %s", s->ops->name, phase_names[a->phase]);
		uv_timer_start(&a->step, on_step_timeout, timeout, 0);
		fn(s->ctx, s);
		return;
	}
	if (a->phase == PHASE_DRAIN) {
		a->phase = PHASE_STOP;
		a->cur = a->nsvc;
		run_step(a);
		return;
	}
	close_handles(a);
}

void
app_shutdown(struct app *a, int status, const char *why)
{
	if (a->phase != PHASE_RUN)
		return;
	a->status = status;
	if (why != NULL && status == APP_EXIT_OK)
		log_debug("stopping: %s", why);
	else if (why != NULL)
		log_error("stopping: %s", why);
	notify_send("STOPPING=1");
	a->phase = PHASE_DRAIN;
	a->cur = a->nsvc;
	run_step(a);
}

void
app_stop_failed(struct app *a, int status)
{
	if (a->status == APP_EXIT_OK)
		a->status = status;
}

/* SIGHUP: a new configuration, or the old one kept. */
static void
reload(struct app *a)
{
	char err[1024];
	struct config *old = a->cfg, *now;

	if (a->phase != PHASE_RUN)
		return;
	notify_send("RELOADING=1");
	now = app_config_load(&a->opts, err, sizeof(err));
	if (now == NULL) {
		log_error("reload: %s; keeping the configuration in use", err);
		notify_send("READY=1\nSTATUS=reload failed: kept the old configuration");
		return;
	}
	log_set_level(now->bot.log_level);
	app_config_note_restart(old, now);
	a->cfg = now;
	for (size_t i = 0; i < a->nsvc; i++)
		if (a->svc[i]->ops->reload != NULL)
			a->svc[i]->ops->reload(a->svc[i]->ctx, old, now);
	/* Both sets of secrets were scrubbed until no service held the old. */
	log_forget_secrets();
	config_log_secrets(now);
	config_free(old);
	log_info("reloaded the configuration%s%s", now->path ? " from " : " (defaults)",
	         now->path ? now->path : "");
	notify_send("READY=1\nSTATUS=running");
}

void
app_set_interrupt(struct app *a, bool (*fn)(void *ctx), void *ctx)
{
	a->interrupt = fn;
	a->interrupt_ctx = ctx;
}

static void
on_signal(uv_signal_t *h, int signum)
{
	struct app *a = h->data;

	if (signum == SIGINT && a->phase == PHASE_RUN && a->interrupt != NULL &&
	    a->interrupt(a->interrupt_ctx)) {
		return;
	} else if (signum == SIGHUP) {
		log_info("SIGHUP: reloading the configuration");
		reload(a);
	} else if (signum == SIGUSR1) {
		for (size_t i = 0; i < a->nsvc; i++)
			if (a->svc[i]->ops->stats != NULL)
				a->svc[i]->ops->stats(a->svc[i]->ctx);
	} else if (a->phase != PHASE_RUN) {
		log_info("%s: already stopping", signum == SIGTERM ? "SIGTERM" : "SIGINT");
	} else {
		log_info("%s: stopping once the commands in flight are answered",
		         signum == SIGTERM ? "SIGTERM" : "SIGINT");
		app_shutdown(a, APP_EXIT_OK, signum == SIGTERM ? "SIGTERM" : "SIGINT");
	}
}

static void
on_polled(uv_check_t *h)
{
	((struct app *)h->data)->polls++;
}

/* Why the loop is not making progress (one sentence in why), or NULL. */
static const char *
stalled(struct app *a, char *why, size_t len)
{
	if (a->polls == a->polls_at_ping) {
		snprintf(why, len,
		         "the event loop has not polled its sockets and signals since "
		         "the last watchdog ping");
		return why;
	}
	for (size_t i = 0; i < a->nsvc; i++) {
		const struct app_service_ops *ops = a->svc[i]->ops;
		char sub[256];

		if (ops->stalled != NULL &&
		    ops->stalled(a->svc[i]->ctx, sub, sizeof(sub)) != NULL) {
			snprintf(why, len, "%s: %s", ops->name, sub);
			return why;
		}
	}
	return NULL;
}

/* The systemd watchdog is fed only on real progress, so that systemd
 * restarts a loop that spins or a service that is stuck. */
static void
on_watchdog(uv_timer_t *t)
{
	struct app *a = t->data;
	char why[512];

	if (stalled(a, why, sizeof(why)) != NULL) {
		a->withheld++;
		if (!a->stall_logged)
			log_warnx("watchdog: not pinging systemd: %s", why);
		a->stall_logged = true;
	} else {
		if (a->stall_logged)
			log_info("watchdog: progress again; pinging systemd");
		a->stall_logged = false;
		a->pings++;
		notify_send("WATCHDOG=1");
	}
	a->polls_at_ping = a->polls;
}

/* Signals and the watchdog: handles of delver's own on the loop. */
static void
init_handles(struct app *a)
{
	uint64_t usec = notify_watchdog_usec();

	uv_signal_init(a->loop, &a->sigterm);
	uv_signal_init(a->loop, &a->sigint);
	uv_signal_init(a->loop, &a->sighup);
	uv_signal_init(a->loop, &a->sigusr1);
	a->sigterm.data = a->sigint.data = a->sighup.data = a->sigusr1.data = a;
	uv_signal_start(&a->sigterm, on_signal, SIGTERM);
	uv_signal_start(&a->sigint, on_signal, SIGINT);
	uv_signal_start(&a->sighup, on_signal, SIGHUP);
	uv_signal_start(&a->sigusr1, on_signal, SIGUSR1);
	uv_timer_init(a->loop, &a->watchdog);
	uv_check_init(a->loop, &a->polled);
	a->polled.data = a;
	uv_check_start(&a->polled, on_polled);
	uv_unref((uv_handle_t *)&a->polled);
	uv_timer_init(a->loop, &a->step);
	uv_timer_init(a->loop, &a->grace);
	a->watchdog.data = a->step.data = a->grace.data = a;
	/* Half the interval, as sd_watchdog_enabled(3) advises. */
	if (usec >= 2000) {
		uint64_t ms = usec / 2000;

		uv_timer_start(&a->watchdog, on_watchdog, ms, ms);
		log_debug("systemd watchdog: a ping every %llu ms", (unsigned long long)ms);
	}
}

/* Runs the starters in order. Returns 0, or the exit status of the first
 * that failed, with why in err (one sentence, not logged). */
static int
start_services(struct app *a, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(starters) / sizeof(starters[0]); i++) {
		int rc;

		err[0] = '\0';
		rc = starters[i].start(a, err, errlen);
		if (rc != 0) {
			if (err[0] == '\0')
				snprintf(err, errlen, "%s could not start", starters[i].what);
			return rc < 0 ? APP_EXIT_FAILURE : rc;
		}
	}
	return 0;
}

/* Frees what app_run built; the loop's handles are closed by then. */
static void
free_app(struct app *a)
{
	uv_close((uv_handle_t *)&a->grace, NULL);
	uv_run(a->loop, UV_RUN_NOWAIT);
	for (size_t i = 0; i < a->nsvc; i++) {
		if (a->svc[i]->ops->release != NULL)
			a->svc[i]->ops->release(a->svc[i]->ctx);
		free(a->svc[i]);
	}
	if (uv_loop_close(a->loop) != 0)
		log_warnx("the event loop still had handles at exit");
	dispatch_free(a->d);
	state_free(a->st);
	rng_free(a->rng);
	config_free(a->cfg);
}

int
app_exit_error(int status, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	size_t n;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	n = strlen(why);
	if (n > 0 && why[n - 1] == '.')
		why[n - 1] = '\0';
	log_error("%s; exiting with status %d%s", why, status,
	          status >= APP_EXIT_FATAL_FIRST && status <= APP_EXIT_FATAL_LAST
	              ? " (a restart will not mend it: see delver(8), EXIT STATUS)"
	              : "");
	return status;
}

int
app_run(const struct app_opts *o)
{
	struct app a;
	char err[1024];
	int rc;

	memset(&a, 0, sizeof(a));
	a.opts = *o;
	log_detect_journal();
	a.cfg = app_config_load(o, err, sizeof(err));
	if (a.cfg == NULL)
		return app_exit_error(APP_EXIT_CONFIG, "%s", err);
	log_set_level(a.cfg->bot.log_level);
	if (app_config_start_refusal(o, a.cfg, err, sizeof(err))) {
		config_free(a.cfg);
		return app_exit_error(APP_EXIT_CONFIG, "%s", err);
	}
	/* The run begins: its lines carry their time unless journald's do (a
	 * refusal to start, above, is the answer to whoever started it). */
	log_set_time(!log_to_journal());
	/* The shipped unit never runs delver as root (DynamicUser=): said once,
	 * when the network can reach it. */
	if (geteuid() == 0 && !app_console_only(&a))
		log_warnx("delver is running as root with a network transport, outside the "
		          "shipped unit's sandbox; run it as an unprivileged user (the systemd "
		          "unit does, with DynamicUser=)");
	a.rng = o->seeded ? rng_new_seeded(o->seed) : rng_new();
	if (a.rng == NULL)
		log_fatal("cannot seed the dice from the kernel");
	a.st = state_new();
	a.d = dispatch_new(
	    &(struct dispatch_opts){.state = a.st, .rng = a.rng, .adopted = log_adopted});
	a.loop = uv_default_loop();
	signal(SIGPIPE, SIG_IGN);
	init_handles(&a);
	rc = start_services(&a, err, sizeof(err));
	if (rc != 0) {
		app_shutdown(&a, app_exit_error(rc, "%s", err), NULL);
	} else {
		/* Quiet on the console alone, where play shares the terminal. */
		if (a.cfg->console.enabled && app_console_only(&a))
			log_debug("delver %s ready", DELVER_VERSION);
		else
			log_info("delver %s ready", DELVER_VERSION);
		notify_send("READY=1\nSTATUS=running");
	}
	uv_run(a.loop, UV_RUN_DEFAULT);
	free_app(&a);
	return a.status;
}
