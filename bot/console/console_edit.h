/*
 * console_edit: the interactive console on a terminal, for console.c.
 * libedit (its readline interface) edits the line and keeps the history
 * (console_opts.history); the loop polls stdin and hands libedit one key
 * at a time; replies wrap at the terminal's width, and log lines are
 * written above the prompt and the line being typed. That interface has
 * no context pointer, so one console at a time may edit.
 */
#ifndef DELVER_CONSOLE_EDIT_H
#define DELVER_CONSOLE_EDIT_H

#include <stdbool.h>
#include <uv.h>

#include "rules/base/buf.h"

struct console;

/* Starts editing on the terminal: the banner, then the first prompt.
 * Returns 0 or a libuv error (UV_EBUSY: another console edits). */
int console_edit_start(struct console *c);
/* Stops editing: the terminal gets its modes back, the history is saved. */
void console_edit_end(struct console *c);
/* Writes out to stdout wrapped at the terminal's width, then empties it. */
void console_edit_write(struct console *c, struct buf *out);
/* A fresh prompt, "user@channel> ", on an empty line. */
void console_edit_prompt(struct console *c);
/* The poll callback on stdin while editing: a key for libedit. */
void console_edit_poll_cb(uv_poll_t *p, int status, int events);

#endif
