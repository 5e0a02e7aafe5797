/*
 * console_tty: the terminal's foreground for the interactive console.
 *
 * Started by a program that shares its process group (make run), delver
 * would share the terminal's Ctrl-C with it: the console clears the line,
 * and make, interrupted too, reports an interrupted child and exits 130
 * once delver ends. console_tty_take() gives delver a process group of its
 * own and makes it the terminal's foreground, as a shell does for a job;
 * console_tty_give_back() returns the foreground to the group it was taken
 * from (also at exit, when delver did not give it back itself).
 * console_tty_utf8() sets the character type the line editor decodes
 * keys with.
 */
#ifndef DELVER_CONSOLE_TTY_H
#define DELVER_CONSOLE_TTY_H

#include <stdbool.h>

/* Takes the foreground of the terminal on fd when delver is in its
 * foreground group without leading it; returns whether it did. Nothing
 * is done for a process that leads its group (a shell's job) or runs in
 * the background. */
bool console_tty_take(int fd);

/* Gives the foreground back, when console_tty_take() took it. */
void console_tty_give_back(void);

/* Sets LC_CTYPE for libedit, which decodes the keys typed with it and
 * drops every byte the locale's character set cannot decode (in the "C"
 * locale, all of UTF-8's multi-byte characters). delver reads and writes
 * UTF-8, so the environment's LC_CTYPE is used when it is UTF-8, and
 * C.UTF-8 otherwise. Call it before libedit's first call. Returns whether
 * the character type in force is UTF-8. Only LC_CTYPE changes: numbers
 * and collation keep the "C" locale. */
bool console_tty_utf8(void);

#endif
