/*
 * delver: the entry point. Parses the command line into struct app_opts and
 * hands it to the app (bot/app.h), which runs everything else. Options and
 * usage() must match the man page, bot/delver.8 (a test checks both ways).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>
#include <sqlite3.h>

#include "bot/app.h"
#include "bot/app_config.h"
#include "bot/console/console_name.h"
#include "bot/log.h"
#include "bot/store/persist.h"
#include "bot/store/persist_opts.h"
#include "commands/core/registry.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"

static void
usage(FILE *f)
{
	fprintf(f,
	        "usage: delver [--config PATH] [--check-config] [--credentials-dir DIR]\n"
	        "              [--console] [--user NAME] [--channel NAME] [--color WHEN]\n"
	        "              [--seed N] [--shard ID]\n"
	        "              [--log-level LEVEL] [--state-dir DIR] [--fsync POLICY]\n"
	        "              [--snapshot-interval SECONDS] [--evict-after SECONDS]\n"
	        "              [--restore FILE] [--version] [--help]\n"
	        "\n"
	        "  --config PATH      the configuration file (default: %s;\n"
	        "                     when it does not exist, the defaults: the console)\n"
	        "  --check-config     check the configuration and its secrets, then exit:\n"
	        "                     0 when it is valid, 3 when not\n"
	        "  --credentials-dir DIR\n"
	        "                     read credential:NAME secrets from DIR/NAME (default:\n"
	        "                     $CREDENTIALS_DIRECTORY, which systemd sets); to check\n"
	        "                     the service's file by hand: /etc/credstore\n"
	        "  --console          play in this terminal, even with other transports\n"
	        "                     configured (the default when nothing else is)\n"
	        "  --user NAME        who is typing (default: [console] user, else $USER)\n"
	        "  --channel NAME     the console channel (default: [console] channel, table)\n"
	        "  --color WHEN       auto (default), always or never; NO_COLOR is honoured\n"
	        "  --seed N           fix the dice (for tests and demonstrations)\n"
	        "  --shard ID         run Discord shard ID of [discord] shard_count\n"
	        "                     (delver@.service passes its instance name)\n"
	        "  --log-level LEVEL  error, warn, info or debug (default: [bot] log_level,\n"
	        "                     info)\n"
	        "  --state-dir DIR    where channel and user records are kept (default:\n"
	        "                     [bot] state_dir, else $STATE_DIRECTORY, else ./state)\n"
	        "  --fsync POLICY     always (durable before each reply), everysec or no\n"
	        "                     (default: [bot] fsync, everysec)\n"
	        "  --snapshot-interval SECONDS\n"
	        "                     seconds between snapshot files, 1 to 86400 (default:\n"
	        "                     [bot] snapshot_interval, 60)\n"
	        "  --restore FILE     replace the state by a copy of a snapshot file and\n"
	        "                     exit (the database it replaces is moved aside);\n"
	        "                     with --channel KEY, only that channel's record\n"
	        "  --evict-after SECONDS\n"
	        "                     idle seconds before a channel or player leaves\n"
	        "                     memory, 0 never\n"
	        "                     (default: [bot] evict_after, 86400)\n"
	        "  --version          print the version and exit\n"
	        "  --help             print this help and exit\n",
	        DELVER_CONFIG_PATH);
}

/* A word of the command line as a refusal quotes it, in got (200 bytes):
 * an invisible or bidi character named, never written to the terminal. */
#define QUOTED(word, got) textsafe_quoted((got), sizeof(got), (word), strlen(word), 80)

/* An unknown option or one missing its value (getopt returned ch, '?' or
 * ':', for the word arg): one error line ending with the exit status, 2,
 * which it returns. An unknown long option close to one of longopts gets
 * its "did you mean" ("--colour": --color), as a slip in a command does. */
static int
bad_option(int ch, const char *arg, const struct option *longopts)
{
	char shortopt[3] = {'-', (char)optopt, '\0'}, got[200], typed[40];
	const char *names[32], *best = NULL;
	size_t n = 0;

	/* A short option (optopt, below 256: the long ones' values are
	 * higher, or 0) may sit inside a cluster like -Vq. */
	if (optopt > 0 && optopt < 256)
		arg = shortopt;
	if (ch == ':')
		return app_exit_error(APP_EXIT_USAGE,
		                      "%s needs a value; delver --help lists the options", arg);
	if (strncmp(arg, "--", 2) == 0 && arg[2] != '\0') {
		snprintf(typed, sizeof(typed), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		for (; n < 32 && longopts[n].name != NULL; n++)
			names[n] = longopts[n].name;
		best = registry_suggest(typed, names, n);
	}
	if (best != NULL)
		return app_exit_error(APP_EXIT_USAGE, "unknown option %s; did you mean --%s?",
		                      QUOTED(arg, got), best);
	return app_exit_error(APP_EXIT_USAGE, "unknown option %s; delver --help lists the options",
	                      QUOTED(arg, got));
}

/* An option's value is wrong: one line ending with the exit status for a
 * wrong command line, and that exit. */
static void __attribute__((format(printf, 1, 2), noreturn)) bad_value(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	exit(app_exit_error(APP_EXIT_USAGE, "%s", msg));
}

/* A whole number from 0 to max, or -1. */
static long long
parse_count(const char *s, unsigned long long max)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoull(s, &end, 10);
	if (*end != '\0' || v > max)
		return -1;
	return (long long)v;
}

/*
 * Opens /dev/null on each of the standard descriptors 0, 1 and 2 that is
 * closed, before anything else takes their numbers: an event loop's epoll
 * or an internal pipe on fd 0-2 would be read as the console's input,
 * written to as the log, and closed by libuv as if it were a standard
 * stream (which aborts). Exits with status 1 when /dev/null cannot be
 * opened (APP_EXIT_FAILURE).
 */
static void
hold_standard_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= STDERR_FILENO)
		;
	if (fd < 0)
		exit(
		    app_exit_error(APP_EXIT_FAILURE,
		                   "cannot open /dev/null to hold a closed standard descriptor: %s",
		                   strerror(errno)));
	close(fd);
}

/* Copies the persistence option name, just parsed into po, into o. */
static void
set_persist(struct app_opts *o, const struct persist_opts *po, const char *name)
{
	if (strcmp(name, "state-dir") == 0)
		o->state_dir = po->dir;
	else if (strcmp(name, "fsync") == 0)
		o->fsync = (int)po->fsync;
	else if (strcmp(name, "snapshot-interval") == 0)
		o->snapshot_interval = po->snapshot_interval;
	else
		o->evict_after = po->evict_after;
}

int
main(int argc, char **argv)
{
	enum {
		ARG_CONFIG = 256,
		ARG_CHECK,
		ARG_CONSOLE,
		ARG_USER,
		ARG_CHANNEL,
		ARG_COLOR,
		ARG_SEED,
		ARG_SHARD,
		ARG_LOG_LEVEL,
		ARG_PERSIST, /* --state-dir, --fsync, --snapshot-interval, --evict-after */
		ARG_RESTORE,
		ARG_CREDENTIALS,
	};
	static const struct option longopts[] = {
	    {"config", required_argument, NULL, ARG_CONFIG},
	    {"check-config", no_argument, NULL, ARG_CHECK},
	    {"console", no_argument, NULL, ARG_CONSOLE},
	    {"user", required_argument, NULL, ARG_USER},
	    {"channel", required_argument, NULL, ARG_CHANNEL},
	    {"color", required_argument, NULL, ARG_COLOR},
	    {"seed", required_argument, NULL, ARG_SEED},
	    {"shard", required_argument, NULL, ARG_SHARD},
	    {"log-level", required_argument, NULL, ARG_LOG_LEVEL},
	    {"state-dir", required_argument, NULL, ARG_PERSIST},
	    {"fsync", required_argument, NULL, ARG_PERSIST},
	    {"snapshot-interval", required_argument, NULL, ARG_PERSIST},
	    {"evict-after", required_argument, NULL, ARG_PERSIST},
	    {"restore", required_argument, NULL, ARG_RESTORE},
	    {"credentials-dir", required_argument, NULL, ARG_CREDENTIALS},
	    {"version", no_argument, NULL, 'V'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct app_opts o = {
	    .color = "auto", .log_level = -1, .shard = -1, .fsync = -1, .evict_after = -1};
	struct persist_opts po;
	char perr[256], user[NAME_MAX_LEN], channel[NAME_MAX_LEN], got[200];
	int idx;
	bool check = false;
	const char *restore = NULL;
	enum log_level lvl;
	long long v;
	char *end;
	int ch, print = 0;
	unsigned given = 0; /* the longopts given, a bit each */
	/* cJSON allocates through mem.h's policy like the rest of delver, and
	 * from an arena for the trees of records being encoded (json.h). */
	cJSON_Hooks json_hooks = {.malloc_fn = json_malloc, .free_fn = json_free};

	hold_standard_fds();
	cJSON_InitHooks(&json_hooks);
	/* SQLite gives a connection its cache pages one by one as they are
	 * used, not 20 at its first read (about 87 KB that connections reading
	 * a few pages, the checkpoint's and the snapshots', never fill). Before
	 * anything opens a database. */
	sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0);
	persist_opts_default(&po);
	opterr = 0; /* one line of our own instead (bad_option) */
	while ((idx = -1, ch = getopt_long(argc, argv, ":hV", longopts, &idx)) != -1) {
		/* an option given twice is refused, as a command refuses one:
		 * which of the two was meant is not for delver to guess */
		if (idx >= 0 && (given >> idx & 1u) && optarg != NULL)
			bad_value(
			    "--%s is given twice (the second: --%s %s); give each option once",
			    longopts[idx].name, longopts[idx].name, QUOTED(optarg, got));
		if (idx >= 0 && (given >> idx & 1u))
			bad_value("--%s is given twice; give each option once", longopts[idx].name);
		if (idx >= 0)
			given |= 1u << idx;
		switch (ch) {
		case ARG_CONFIG:
			o.config_path = optarg;
			break;
		case ARG_CHECK:
			check = true;
			break;
		case ARG_CONSOLE:
			o.console = true;
			break;
		case ARG_USER:
			if (console_name_clean("--user", optarg, strlen(optarg), user, perr,
			                       sizeof(perr)) < 0)
				bad_value("%s", perr);
			o.user = user;
			break;
		case ARG_CHANNEL:
			o.channel = optarg;
			break;
		case ARG_COLOR:
			if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "always") != 0 &&
			    strcmp(optarg, "never") != 0)
				bad_value("--color must be auto, always or never (got %s)",
				          QUOTED(optarg, got));
			o.color = optarg;
			break;
		case ARG_SEED:
			errno = 0;
			if (*optarg < '0' || *optarg > '9' ||
			    (o.seed = strtoull(optarg, &end, 10), *end != '\0') || errno == ERANGE)
				bad_value("--seed must be a whole number from 0 to %" PRIu64
				          " (got %s)",
				          UINT64_MAX, QUOTED(optarg, got));
			o.seeded = true;
			break;
		case ARG_SHARD:
			v = parse_count(optarg, 65534);
			if (v < 0)
				bad_value("--shard must be a whole number from 0 to 65534 (got %s)",
				          QUOTED(optarg, got));
			o.shard = (int)v;
			break;
		case ARG_LOG_LEVEL:
			if (log_parse_level(optarg, &lvl) < 0)
				bad_value("--log-level must be error, warn, info or debug (got %s)",
				          QUOTED(optarg, got));
			o.log_level = (int)lvl;
			log_set_level(lvl);
			break;
		case ARG_PERSIST:
			if (persist_opts_parse(&po, longopts[idx].name, optarg, perr,
			                       sizeof(perr)) < 0)
				bad_value("%s", perr);
			set_persist(&o, &po, longopts[idx].name);
			break;
		case ARG_RESTORE:
			restore = optarg;
			break;
		case ARG_CREDENTIALS:
			/* Where credential:NAME secrets are read, as systemd says it
			 * to a service (config_secret.h). */
			if (*optarg == '\0' || setenv("CREDENTIALS_DIRECTORY", optarg, 1) != 0)
				bad_value("--credentials-dir needs a directory (got %s)",
				          QUOTED(optarg, got));
			break;
		case 'V':
		case 'h':
			print = ch; /* once the rest of the line is known to be right */
			break;
		default:
			return bad_option(ch, argv[optind - 1], longopts);
		}
	}
	if (optind < argc)
		return app_exit_error(APP_EXIT_USAGE,
		                      "unexpected argument %s; delver --help lists the options",
		                      QUOTED(argv[optind], got));
	if (print == 'h') {
		usage(stdout);
		return 0;
	}
	if (print == 'V') {
		printf("delver %s\n", DELVER_VERSION);
		return 0;
	}
	if (restore != NULL)
		return app_config_restore(&o, restore);
	/* With --restore, --channel names a channel key ("discord:1234"). */
	if (o.channel != NULL) {
		if (console_name_clean("--channel", o.channel, strlen(o.channel), channel, perr,
		                       sizeof(perr)) < 0)
			bad_value("%s", perr);
		o.channel = channel;
	}
	return check ? app_config_check(&o) : app_run(&o);
}
