/*
 * delver: the daemon's entry point. Parses the command line, builds the
 * state, the RNG and the dispatcher, starts the transports on one libuv
 * loop and runs it until input ends or a signal asks it to stop.
 */
#include <getopt.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "bot/console.h"
#include "bot/log.h"
#include "bot/persist.h"
#include "commands/dispatch.h"
#include "rules/rng.h"

struct app {
	uv_loop_t *loop;
	uv_signal_t sigint, sigterm;
	struct console *console;
	bool stopping;
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: delver [--console] [--user NAME] [--channel NAME] [--color WHEN]\n"
	           "              [--seed N] [--log-level LEVEL] [--state-dir DIR]\n"
	           "              [--fsync POLICY] [--snapshot-interval SECONDS]\n"
	           "              [--evict-after SECONDS] [--salvage] [--version] [--help]\n"
	           "\n"
	           "  --console          play in this terminal (the default when nothing else\n"
	           "                     is configured)\n"
	           "  --user NAME        who is typing (default: $USER)\n"
	           "  --channel NAME     the console channel (default: table)\n"
	           "  --color WHEN       auto (default), always or never; NO_COLOR is honoured\n"
	           "  --seed N           fix the dice (for tests and demonstrations)\n"
	           "  --log-level LEVEL  error, warn, info (default) or debug\n"
	           "\n"
	           "State (channel and user records) is kept in a directory:\n"
	           "  --state-dir DIR    default: $STATE_DIRECTORY (systemd), else ./state;\n"
	           "                     created with mode 0700, one delver per directory\n"
	           "  --fsync POLICY     when a change reaches the disk: always (before the\n"
	           "                     reply), everysec (default: at most one second of\n"
	           "                     changes lost on power loss) or no (the kernel decides)\n"
	           "  --snapshot-interval SECONDS\n"
	           "                     how often all records are rewritten into a snapshot\n"
	           "                     when something changed (default 60, 1 to 86400)\n"
	           "  --evict-after SECONDS\n"
	           "                     channels idle this long leave memory and are read\n"
	           "                     back when used (default 86400; 0: never)\n"
	           "  --salvage          when a state file is damaged, move it aside (renamed\n"
	           "                     FILE.bad-TIME) and start from what is readable,\n"
	           "                     instead of refusing to start\n");
}

static void
app_stop(struct app *a)
{
	if (a->stopping)
		return;
	a->stopping = true;
	console_stop(a->console);
	a->console = NULL;
	uv_close((uv_handle_t *)&a->sigint, NULL);
	uv_close((uv_handle_t *)&a->sigterm, NULL);
}

static void
on_eof(void *ctx)
{
	app_stop(ctx);
}

static void
on_signal(uv_signal_t *h, int signum)
{
	log_info("signal %d: stopping", signum);
	app_stop(h->data);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"console", no_argument, NULL, 'c'},
	    {"user", required_argument, NULL, 'u'},
	    {"channel", required_argument, NULL, 'C'},
	    {"color", required_argument, NULL, 'K'},
	    {"seed", required_argument, NULL, 's'},
	    {"log-level", required_argument, NULL, 'l'},
	    {"state-dir", required_argument, NULL, 'P'},
	    {"fsync", required_argument, NULL, 'P'},
	    {"snapshot-interval", required_argument, NULL, 'P'},
	    {"evict-after", required_argument, NULL, 'P'},
	    {"salvage", no_argument, NULL, 'S'},
	    {"version", no_argument, NULL, 'V'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct console_opts co = {.channel = "table"};
	const char *color = "auto", *seed = NULL;
	struct dispatch d = {0};
	struct app a = {0};
	enum log_level lvl;
	int ch, idx;
	struct persist_opts po;
	struct persist *p;
	char perr[4096];

	co.user = getenv("USER");
	if (co.user == NULL || *co.user == '\0') {
		struct passwd *pw = getpwuid(getuid());

		co.user = pw ? pw->pw_name : "player";
	}
	persist_opts_default(&po);
	while ((ch = getopt_long(argc, argv, "hV", longopts, &idx)) != -1) {
		switch (ch) {
		case 'c':
			break;
		case 'u':
			co.user = optarg;
			break;
		case 'C':
			co.channel = optarg;
			break;
		case 'K':
			color = optarg;
			break;
		case 's':
			seed = optarg;
			break;
		case 'l':
			if (log_parse_level(optarg, &lvl) < 0)
				fatalx("--log-level must be error, warn, info or debug (got '%s')",
				       optarg);
			log_set_level(lvl);
			break;
		case 'P':
			if (persist_opt(&po, longopts[idx].name, optarg, perr, sizeof(perr)) < 0)
				fatalx("%s", perr);
			break;
		case 'S':
			po.salvage = true;
			break;
		case 'V':
			printf("delver %s\n", DELVER_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (strcmp(color, "always") == 0)
		co.ansi = true;
	else if (strcmp(color, "never") == 0)
		co.ansi = false;
	else if (strcmp(color, "auto") == 0)
		co.ansi = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
	else
		fatalx("--color must be auto, always or never (got '%s')", color);
	co.echo = !isatty(STDIN_FILENO);

	if (seed != NULL) {
		char *end;
		unsigned long long v = strtoull(seed, &end, 10);

		if (*seed == '\0' || *end != '\0')
			fatalx("--seed must be a whole number (got '%s')", seed);
		d.rng = rng_new_seeded((uint64_t)v);
	} else {
		d.rng = rng_new();
	}
	if (d.rng == NULL)
		fatal("cannot seed the dice from the kernel");
	d.state = state_new();

	a.loop = uv_default_loop();
	p = persist_open(a.loop, d.state, &po, perr, sizeof(perr));
	if (p == NULL)
		fatalx("%s", perr);
	persist_attach(p, &d);
	uv_signal_init(a.loop, &a.sigint);
	uv_signal_init(a.loop, &a.sigterm);
	a.sigint.data = a.sigterm.data = &a;
	uv_signal_start(&a.sigint, on_signal, SIGINT);
	uv_signal_start(&a.sigterm, on_signal, SIGTERM);

	a.console = console_start(a.loop, &d, &co, on_eof, &a);
	if (a.console == NULL)
		fatalx("the console cannot read standard input");
	uv_run(a.loop, UV_RUN_DEFAULT);
	persist_close(p);
	uv_loop_close(a.loop);
	state_free(d.state);
	rng_free(d.rng);
	return 0;
}
