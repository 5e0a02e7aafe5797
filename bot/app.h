/*
 * app: the running daemon. One libuv loop carries every service (the state
 * store, the console, Discord, IRC) and delver's own handles: SIGTERM,
 * SIGINT, SIGHUP, SIGUSR1 and the systemd watchdog.
 *
 * Start: app_run() loads the configuration, builds the state, the RNG and
 * the dispatcher, calls each starter in app.c's starters[] in order (the
 * store first, then the transports), tells systemd READY=1 and runs the
 * loop. A starter returns 0 when its service is running or not configured,
 * or, with one sentence in err, which ends the start: -1 (exit status
 * APP_EXIT_FAILURE) or the exit status that says why (APP_EXIT_CONFIG, ...).
 *
 * Stop: SIGTERM, SIGINT or app_shutdown() tell systemd STOPPING=1, then run
 * two phases, each service in turn in reverse start order:
 *   drain: stop taking commands and answer those in flight (transports);
 *          commit what is left (the store, which drains last);
 *   stop:  close connections and files.
 * Each step ends when the service calls app_service_done(), or after its
 * timeout (then a warning is logged and the stop goes on). Then delver's
 * own handles close, the loop ends and app_run() returns the exit status.
 *
 * Watchdog: under systemd's WatchdogSec, WATCHDOG=1 goes every half interval
 * only while the loop makes real progress: it polled its sockets and
 * signals since the last ping (a timer re-armed at 0 from its own callback
 * keeps libuv from ever polling) and no service says it is stalled. A
 * withheld ping is logged once per stall, with its reason.
 *
 * Stats: SIGUSR1 asks each service that keeps statistics to log them (its
 * stats callback), in start order.
 *
 * Reload: SIGHUP reads the configuration again. A file with any error is
 * rejected with the error logged and the old configuration kept. Otherwise
 * the log level changes at once and each service's reload callback sees the
 * old and the new configuration (for IRC channels, tables, ...); after the
 * callbacks the old one is freed, so a service keeps no pointer into it.
 */
#ifndef DELVER_APP_H
#define DELVER_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bot/config/config.h"
#include "commands/core/dispatch.h"

#ifndef DELVER_CONFIG_PATH
#define DELVER_CONFIG_PATH "/etc/delver/delver.conf"
#endif

/*
 * Exit statuses (delver(8), EXIT STATUS). Those from APP_EXIT_USAGE on are
 * conditions a restart cannot mend: both systemd units name each of them
 * in RestartPreventExitStatus=, so that systemd does not start delver again
 * and again (each Discord start spends one IDENTIFY of a daily budget).
 * tests/unit/test_app.c checks the units and the manual against this list.
 */
#define APP_EXIT_OK                 0
#define APP_EXIT_FAILURE            1  /* something a restart may mend */
#define APP_EXIT_USAGE              2  /* the command line is wrong */
#define APP_EXIT_CONFIG             3  /* the configuration or a secret it names */
#define APP_EXIT_STORE_DAMAGED      4  /* the database or a record in it is damaged */
#define APP_EXIT_STORE_UNSAFE       5  /* the state cannot be kept safely (read-only, modes) */
#define APP_EXIT_DISCORD_TOKEN      6  /* Discord refused the token: 4004, or HTTP 401 */
#define APP_EXIT_DISCORD_SHARD      7  /* 4010: an invalid shard */
#define APP_EXIT_DISCORD_SHARDING   8  /* 4011: fewer shards than Discord requires */
#define APP_EXIT_DISCORD_VERSION    9  /* 4012: an API version Discord no longer takes */
#define APP_EXIT_DISCORD_INTENTS    10 /* 4013: invalid intents */
#define APP_EXIT_DISCORD_DISALLOWED 11 /* 4014: privileged intents not allowed */
#define APP_EXIT_FATAL_FIRST        APP_EXIT_USAGE
#define APP_EXIT_FATAL_LAST         APP_EXIT_DISCORD_DISALLOWED

/* Logs the one error line of a start or a command line that cannot go on:
 * the sentence fmt makes (less a full stop ending it), then "; exiting
 * with status N", and for a status a restart cannot mend, that delver(8)
 * explains it. Returns status. */
int app_exit_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The command line, as main() parsed it. */
struct app_opts {
	const char *config_path; /* --config; NULL: DELVER_CONFIG_PATH, where a
	                          * missing file means the defaults */
	bool console;            /* --console: the console even with other transports */
	const char *user;        /* --user, or NULL for [console] user */
	const char *channel;     /* --channel, or NULL for [console] channel */
	const char *color;       /* --color: "auto", "always" or "never" */
	bool seeded;             /* --seed was given: */
	uint64_t seed;           /* fixed dice */
	int log_level;           /* --log-level as an enum log_level, or -1 */
	int shard;               /* --shard, or -1 for [discord] shard_id */
	/* persistence (bot/store/persist.h): each overrides its [bot] key when set */
	const char *state_dir; /* --state-dir, or NULL */
	int fsync;             /* --fsync as an enum fsync_policy, or -1 */
	int snapshot_interval; /* --snapshot-interval, or 0 */
	int evict_after;       /* --evict-after, or -1 */
};

struct app;
struct app_service;

/*
 * What a service gives the app. Every member but name may be NULL. drain
 * and stop are asynchronous: the service calls app_service_done(s) once,
 * when the step is over (it may do so before returning: the app goes on
 * from the loop all the same, never inside that call). reload runs on
 * SIGHUP with a valid new configuration and must not fail: what it cannot
 * apply live it logs ("restart delver to apply ...").
 */
struct app_service_ops {
	const char *name;    /* in log lines: "console", "discord", "irc libera" */
	unsigned timeout_ms; /* for each of drain and stop; 0: 20 s */
	void (*drain)(void *ctx, struct app_service *s);
	void (*stop)(void *ctx, struct app_service *s);
	void (*reload)(void *ctx, const struct config *old, const struct config *now);
	/* Whether the service is making progress, asked before each systemd
	 * watchdog ping: NULL when it is, else one sentence saying what is
	 * overdue (say, a heartbeat 12 s late). While any service answers a
	 * sentence the ping is withheld, so systemd restarts a stuck delver. */
	const char *(*stalled)(void *ctx, char *why, size_t len);
	/* Logs the service's statistics at info (SIGUSR1). */
	void (*stats)(void *ctx);
	/* Frees what the service keeps past its stop step, once the loop has
	 * ended (libwebsockets on a foreign loop frees its context only then),
	 * before the loop is closed. May run the loop until its own handles
	 * are closed. */
	void (*release)(void *ctx);
};

/* Registers a started service (in start order; it is stopped in reverse).
 * ops must outlive the app; ctx is the service's own. */
struct app_service *app_add_service(struct app *a, const struct app_service_ops *ops, void *ctx);
/* Ends the service's current drain or stop step; a late or second call
 * (after the step timed out) is ignored. The next step runs from the loop,
 * never before this returns. */
void app_service_done(struct app_service *s);

/* Starts the stop sequence (once; later calls do nothing). status is the
 * exit status app_run() returns: APP_EXIT_OK, or another APP_EXIT_ status
 * when a service cannot go on (say, APP_EXIT_DISCORD_TOKEN for a token the
 * server rejects). why is logged as an error with a status other than
 * APP_EXIT_OK, else at debug level (the caller logs what a user should
 * see); NULL: the caller logged why, with the status. */
void app_shutdown(struct app *a, int status, const char *why);

/* A service that could not keep what it had to during the stop (the store
 * could not save every change; it logs why) makes the stop exit with
 * status, unless the stop already has a status other than APP_EXIT_OK. */
void app_stop_failed(struct app *a, int status);

uv_loop_t *app_loop(struct app *a);
/* The configuration in use: valid until the next reload (see above). */
const struct config *app_config(const struct app *a);
const struct app_opts *app_options(const struct app *a);
/* The dispatcher: transports submit their requests to it; the store
 * service sets itself as its store. */
struct dispatch *app_dispatch(struct app *a);
/* The channel and user records (the store loads them at start). */
struct state *app_state(struct app *a);
/* True when the only transport configured is the console, whose end of
 * input then ends delver. */
bool app_console_only(const struct app *a);

/* SIGINT first asks fn(ctx), which returns true when it used the signal (an
 * interactive console clears its line: Ctrl-C does not stop delver there);
 * otherwise SIGINT stops delver. One handler at a time; fn NULL removes it.
 * ctx must outlive the handler. */
void app_set_interrupt(struct app *a, bool (*fn)(void *ctx), void *ctx);

/* Runs delver until it is stopped. Returns the exit status. */
int app_run(const struct app_opts *o);

#endif
