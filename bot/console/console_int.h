/*
 * console_int: the inside of struct console, shared by console.c (lines
 * read from stdin, commands and their answers) and console_edit.c (the
 * interactive line editor on a terminal). Nothing else includes it:
 * everyone else sees the opaque struct of console.h.
 */
#ifndef DELVER_CONSOLE_INT_H
#define DELVER_CONSOLE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "bot/console/console.h"
#include "bot/console/console_name.h"
#include "commands/core/dispatch.h"
#include "rules/base/buf.h"

#define READ_CHUNK 4096

struct console {
	struct dispatch *d;
	struct console_opts o;
	struct origin from; /* who speaks where, rebuilt after /as or /channel */
	bool from_ok;
	struct reply *reply;   /* reused line after line */
	struct drafts *drafts; /* long texts typed line by line (bot/draft/draft.h) */
	char user[NAME_MAX_LEN];
	char channel[NAME_MAX_LEN];
	/* the line being read: at most CMD_LINE_MAX bytes are kept */
	char line[CMD_LINE_MAX + 1];
	size_t len;
	size_t dropped; /* bytes past the limit in the current line */
	/* input handle: a stream (tty, pipe) or a file read by uv_fs_read */
	union {
		uv_tty_t tty;
		uv_pipe_t pipe;
	} h;
	bool is_stream;
	/* interactive: libedit reads the terminal when poll says it can */
	bool editing;
	int open_handles; /* the poll and SIGWINCH handles not yet closed */
	uv_poll_t poll;
	uv_signal_t winch;
	size_t width;                /* the terminal's columns: replies wrap there */
	bool in_handler;             /* a typed line is being handled: no prompt shown */
	char last[CMD_LINE_MAX + 1]; /* the line last added to the history */
	char prompt[2 * NAME_MAX_LEN + 4];
	bool reading;
	bool inflight; /* a uv_fs_read is pending */
	bool stopping; /* console_stop was called: free when idle */
	bool quit;     /* a "quit" or "exit" line was read */
	/* a line's command is on its way: input waits for its answer */
	bool waiting;    /* its answer has not come yet */
	bool eof_seen;   /* input ended while waiting */
	bool freed_wait; /* console_free while waiting: free once it comes */
	struct buf rest; /* the input read past the waiting line */
	struct buf *to;  /* console_handle_line: where the answer's text goes */
	uv_fs_t req;
	char chunk[READ_CHUNK];
	uv_loop_t *loop;
	void (*on_eof)(void *);
	void *ctx;
};

/* Input ended (end of file, an error, or a quit line): handles a last line
 * with no newline and calls on_eof, which may free c, so the caller must
 * not touch c afterwards. */
void console__finish(struct console *c);
/* Handles one whole input line of len bytes (dropped more were cut off),
 * appending what to print to out. Returns false when the line ends the
 * console. */
bool console__input_line(struct console *c, const char *line, size_t len, size_t dropped,
                         struct buf *out);
/* Writes out to stdout, then empties it. */
void console__flush_out(struct buf *out);

#endif
