/* console_edit: the interactive console on a terminal; see console_edit.h. */
#include "bot/console/console_edit.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <editline/readline.h>

#include "bot/console/console_int.h"
#include "bot/console/console_tty.h"
#include "bot/console/render_text.h"
#include "bot/log.h"

/*
 * The interactive console: libedit (its readline interface) edits the line
 * and keeps the history; the loop polls stdin and hands libedit one key at
 * a time. That interface has no context pointer, so one console at a time
 * may edit: edit_console.
 */
static struct console *edit_console;

/* The terminal's columns (80 when it does not say). */
static size_t
term_width(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* Writes out to stdout wrapped at the terminal's width, then empties it. */
void
console_edit_write(struct console *c, struct buf *out)
{
	struct buf w;

	buf_init(&w, 4 << 20);
	render_text_wrap(out->p != NULL ? out->p : "", out->len, c->width, &w);
	console__flush_out(&w);
	buf_free(&w);
	buf_reset(out);
}

static void edit_line_cb(char *line);

/* A fresh prompt, "user@channel> ", on an empty line. */
void
console_edit_prompt(struct console *c)
{
	snprintf(c->prompt, sizeof(c->prompt), "%s@%s> ", c->user, c->channel);
	rl_callback_handler_install(c->prompt, edit_line_cb);
}

/* A log line is about to be written: the prompt and the line being typed
 * are erased (the cursor goes back to the start of the screen line)... */
static void
edit_log_before(void *ctx)
{
	struct console *c = ctx;

	if (c->editing && !c->in_handler) {
		fputs("\r\033[K", stdout);
		fflush(stdout);
	}
}

/* ... and drawn again below it, with the cursor where it was. */
static void
edit_log_after(void *ctx)
{
	struct console *c = ctx;

	if (c->editing && !c->in_handler)
		rl_forced_update_display();
}

/* Stops editing: the terminal gets its modes back. */
void
console_edit_end(struct console *c)
{
	if (!c->editing)
		return;
	log_set_around(NULL, NULL, NULL);
	c->editing = false;
	c->reading = false;
	uv_poll_stop(&c->poll);
	uv_signal_stop(&c->winch);
	rl_callback_handler_remove();
	if (c->o.history != NULL)
		write_history(c->o.history);
	edit_console = NULL;
	console_tty_give_back();
}

/* libedit's line handler: line is a whole line (ours to free), or NULL
 * for Ctrl-D on an empty line. */
static void
edit_line_cb(char *line)
{
	struct console *c = edit_console;
	struct buf out;
	size_t len;
	bool more;

	if (c == NULL) {
		free(line);
		return;
	}
	if (line == NULL) {
		fputs("\n", stdout);
		fflush(stdout);
		console_edit_end(c);
		console__finish(c);
		return;
	}
	len = strlen(line);
	/* The history skips blank lines and a line repeated at once. */
	if (strspn(line, " ") < len && strcmp(line, c->last) != 0) {
		add_history(line);
		if (c->o.history != NULL)
			write_history(c->o.history);
		snprintf(c->last, sizeof(c->last), "%s", line);
	}
	buf_init(&out, 1 << 20);
	c->in_handler = true; /* no prompt on the screen until console_edit_prompt */
	more = console__input_line(c, line, len, 0, &out);
	free(line);
	console_edit_write(c, &out);
	buf_free(&out);
	if (c->waiting) {
		/* No prompt and no keys until the answer is out (answered). */
		uv_poll_stop(&c->poll);
		return;
	}
	c->in_handler = false;
	if (!more) {
		c->quit = true;
		console_edit_end(c);
		console__finish(c);
		return;
	}
	console_edit_prompt(c);
}

void
console_edit_poll_cb(uv_poll_t *p, int status, int events)
{
	struct console *c = p->data;

	if (status < 0) {
		log_warnx("console: reading the terminal failed: %s", uv_strerror(status));
		console_edit_end(c);
		console__finish(c);
		return;
	}
	rl_callback_read_char();
}

static void
edit_winch_cb(uv_signal_t *h, int signum)
{
	struct console *c = h->data;

	c->width = term_width();
	rl_resize_terminal();
}

bool
console_interrupt(struct console *c)
{
	if (c == NULL || !c->editing)
		return false;
	rl_callback_handler_remove();
	fputs("^C\n", stdout);
	fflush(stdout);
	console_edit_prompt(c);
	return true;
}

/* The banner, then the first prompt. */
static void
edit_banner(struct console *c)
{
	struct buf out;

	buf_init(&out, 4096);
	buf_addf(&out,
	         "delver %s: dice and dungeon procedures, played in this terminal.\n"
	         "You are %s in channel %s. /help lists the commands; /as NAME plays as "
	         "someone else, /channel NAME moves to another channel.\n"
	         "quit, exit or Ctrl-D leaves; Ctrl-C clears the line.\n",
	         DELVER_VERSION, c->user, c->channel);
	console_edit_write(c, &out);
	buf_free(&out);
}

/* Starts the interactive console on the terminal. Returns 0 or a libuv
 * error. */
int
console_edit_start(struct console *c)
{
	int flags;
	int r;

	if (edit_console != NULL)
		return UV_EBUSY;
	r = uv_poll_init(c->loop, &c->poll, STDIN_FILENO);
	if (r != 0)
		return r;
	/* uv_poll_init made the terminal non-blocking, and stdout shares it:
	 * a long reply would then be cut short. Readiness is all we need. */
	flags = fcntl(STDIN_FILENO, F_GETFL);
	if (flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, flags & ~O_NONBLOCK);
	uv_signal_init(c->loop, &c->winch);
	c->poll.data = c->winch.data = c;
	c->open_handles = 2;
	c->editing = true;
	c->width = term_width();
	edit_console = c;
	/* Ctrl-C is the console's alone, not a make run's around it. */
	console_tty_take(STDIN_FILENO);
	if (!console_tty_utf8())
		log_warnx("console: no UTF-8 character type (LC_CTYPE, C.UTF-8): "
		          "letters outside ASCII typed here are lost");
	/* The loop owns the signals: libedit installs no handler. */
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_instream = stdin;
	rl_outstream = stdout;
	using_history();
	stifle_history(1000);
	if (c->o.history != NULL)
		read_history(c->o.history);
	edit_banner(c);
	console_edit_prompt(c);
	log_set_around(edit_log_before, edit_log_after, c);
	uv_signal_start(&c->winch, edit_winch_cb, SIGWINCH);
	return uv_poll_start(&c->poll, UV_READABLE, console_edit_poll_cb);
}
