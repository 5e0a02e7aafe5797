/*
 * console: the local transport. One command per stdin line, replies on
 * stdout; works on a terminal, in a pipe and from a file.
 *
 * Console-only lines: "/as NAME" switches the acting player (so one terminal
 * can play a whole table) and "/channel NAME" switches the channel (with no
 * NAME, each says the current one); "quit" or "exit" ends the input as its
 * end would. Control characters in a line are shown as their Unicode
 * pictures (ESC as U+241B), never sent raw to the terminal. Lines
 * over CMD_LINE_MAX bytes, with NUL bytes or invalid UTF-8 get an error
 * reply and the console keeps reading. End of input calls on_eof.
 */
#ifndef DELVER_CONSOLE_H
#define DELVER_CONSOLE_H

#include <stdbool.h>

#include <uv.h>

#include "commands/core/dispatch.h"
#include "rules/base/buf.h"

struct console;

/* The most bytes of a line the echo ("name> line") shows; a longer one is
 * cut on a character, with "…" within them. */
#define CONSOLE_ECHO_MAX 200

struct console_opts {
	const char *user;    /* the acting user's name */
	const char *channel; /* the channel's name */
	bool ansi;           /* colours and styles on stdout */
	bool echo;           /* print "name> line" before each reply */
	/* On a terminal: a banner, the prompt "user@channel> ", line editing
	 * and history (libedit), replies wrapped at the terminal's width, and
	 * Ctrl-C (console_interrupt) clearing the line. Elsewhere ignored. */
	bool interactive;
	const char *history; /* the history file (interactive), or NULL: none */
};

/* Starts reading stdin on loop. Returns NULL (and logs) when stdin cannot
 * be read. on_eof runs once, when input ends. */
struct console *console_start(uv_loop_t *loop, struct dispatch *d, const struct console_opts *o,
                              void (*on_eof)(void *ctx), void *ctx);
/* Stops reading; the console is freed once libuv has closed its handles.
 * An interactive console gives the terminal its modes back at once. */
void console_stop(struct console *c);
/* SIGINT (Ctrl-C) while an interactive console edits a line: the line is
 * dropped for a fresh prompt, and true returned. False when c is not
 * interactive: the caller does what SIGINT otherwise does. */
bool console_interrupt(struct console *c);

struct app;

/* Handles one line as if read from stdin (tests and benchmarks). The reply
 * text is appended to out instead of being written to stdout. Returns
 * false when the line ends the console ("quit" or "exit"). */
bool console_handle_line(struct console *c, const char *line, size_t len, struct buf *out);

/* A console with no input, for console_handle_line (free with console_free). */
struct console *console_new(struct dispatch *d, const struct console_opts *o);
void console_free(struct console *c);

#endif
