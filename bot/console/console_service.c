/*
 * console_service: the console as an app service: started when [console]
 * is enabled (or --console), drained by no longer reading stdin. Its end of
 * input ends delver when the console is the only transport configured.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/app.h"
#include "bot/console/console.h"
#include "bot/console/console_name.h"
#include "bot/console/console_service.h"
#include "bot/log.h"
#include "bot/store/statedir.h"
#include "rules/base/mem.h"

struct console_service {
	struct app *app;
	struct console *console; /* NULL once it stopped reading */
	char history[PATH_MAX];  /* the interactive console's history file */
};

static void
drain(void *ctx, struct app_service *s)
{
	struct console_service *cs = ctx;

	app_set_interrupt(cs->app, NULL, NULL);
	/* Lines are handled as they are read: none is in flight. */
	console_stop(cs->console);
	cs->console = NULL;
	app_service_done(s);
}

static void
stop(void *ctx, struct app_service *s)
{
	free(ctx);
	app_service_done(s);
}

static const struct app_service_ops ops = {
    .name = "console",
    .drain = drain,
    .stop = stop,
};

static void
on_eof(void *ctx)
{
	struct console_service *cs = ctx;

	if (app_console_only(cs->app)) {
		app_shutdown(cs->app, APP_EXIT_OK, "end of input");
		return;
	}
	log_info("console: end of input; the other transports keep running");
	app_set_interrupt(cs->app, NULL, NULL);
	console_stop(cs->console);
	cs->console = NULL;
}

/* Who is typing: --user or [console] user, else $USER, else the login;
 * cleaned into name as every console name is (console_name.h). Returns 0,
 * or -1 with err naming where the refused name came from. */
static int
console_user(const struct app *a, char name[NAME_MAX_LEN], char *err, size_t errlen)
{
	const struct config *c = app_config(a);
	const char *u = c->console.user,
	           *what = app_options(a)->user != NULL ? "--user" : "[console] user";
	struct passwd *pw;

	if (u == NULL || *u == '\0') {
		u = getenv("USER");
		what = "$USER";
	}
	if (u == NULL || *u == '\0') {
		pw = getpwuid(getuid());
		u = pw != NULL ? pw->pw_name : "player";
		what = "the login name";
	}
	return console_name_clean(what, u, strlen(u), name, err, errlen);
}

static bool
interrupt(void *ctx)
{
	struct console_service *cs = ctx;

	return console_interrupt(cs->console);
}

/* The history file, $XDG_STATE_HOME/delver/history (by default
 * ~/.local/state/delver/history), its folders made if missing. False
 * (no history kept across runs) when there is no home to keep it in. */
static bool
history_path(char *path, size_t size)
{
	const char *base = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char dir[PATH_MAX];
	int n, fd;

	if (base != NULL && base[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s/delver", base);
	else if (home != NULL && home[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s/.local/state/delver", home);
	else
		return false;
	if (n < 0 || (size_t)n >= sizeof(dir))
		return false;
	/* Each missing folder on the way, private like the state itself. */
	if (statedir_mkdirs(dir) < 0) {
		log_debug("console: no history kept: cannot make %s: %s", dir, strerror(errno));
		return false;
	}
	n = snprintf(path, size, "%s/history", dir);
	if (n < 0 || (size_t)n >= size)
		return false;
	/* Private (0600, whatever the umask) before libedit first writes it. */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return false;
	(void)fchmod(fd, 0600);
	close(fd);
	return true;
}

int
console_service_start(struct app *a, char *err, size_t errlen)
{
	const struct config *c = app_config(a);
	const char *color = app_options(a)->color;
	struct console_opts co = {0};
	struct console_service *cs;
	char user[NAME_MAX_LEN], channel[NAME_MAX_LEN];

	if (!c->console.enabled)
		return 0;
	if (console_user(a, user, err, errlen) < 0 ||
	    console_name_clean(app_options(a)->channel != NULL ? "--channel" : "[console] channel",
	                       c->console.channel, strlen(c->console.channel), channel, err,
	                       errlen) < 0)
		return APP_EXIT_CONFIG;
	co.user = user;
	co.channel = channel;
	if (color != NULL && strcmp(color, "always") == 0)
		co.ansi = true;
	else if (color != NULL && strcmp(color, "never") == 0)
		co.ansi = false;
	else
		co.ansi = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
	co.echo = !isatty(STDIN_FILENO);
	co.interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	cs = xcalloc(1, sizeof(*cs));
	cs->app = a;
	if (co.interactive && history_path(cs->history, sizeof(cs->history)))
		co.history = cs->history;
	cs->console = console_start(app_loop(a), app_dispatch(a), &co, on_eof, cs);
	if (cs->console == NULL) {
		free(cs);
		snprintf(err, errlen, "the console cannot read standard input");
		return -1;
	}
	app_add_service(a, &ops, cs);
	if (co.interactive)
		app_set_interrupt(a, interrupt, cs);
	return 0;
}
