/* console_tty: the terminal's foreground for the console; see console_tty.h. */
#include "bot/console/console_tty.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int tty_fd = -1;  /* the terminal taken, or -1 */
static pid_t given = -1; /* the group it was taken from */

/* tcsetpgrp from a background group sends SIGTTOU unless it is blocked. */
static void
set_foreground(int fd, pid_t pgrp)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	(void)tcsetpgrp(fd, pgrp);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

bool
console_tty_take(int fd)
{
	static bool registered;
	pid_t me = getpid(), group = getpgrp();

	if (tty_fd >= 0 || group == me || tcgetpgrp(fd) != group)
		return false;
	if (setpgid(0, 0) != 0)
		return false;
	set_foreground(fd, me);
	if (tcgetpgrp(fd) != me) {
		(void)setpgid(0, group); /* back where it was: nothing changed */
		return false;
	}
	tty_fd = fd;
	given = group;
	if (!registered) {
		registered = true;
		atexit(console_tty_give_back);
	}
	return true;
}

void
console_tty_give_back(void)
{
	if (tty_fd < 0)
		return;
	if (tcgetpgrp(tty_fd) == getpgrp())
		set_foreground(tty_fd, given);
	tty_fd = -1;
}

/* Whether the LC_CTYPE in force reads UTF-8. */
static bool
ctype_is_utf8(void)
{
	const char *set = nl_langinfo(CODESET);

	return set != NULL && (strcmp(set, "UTF-8") == 0 || strcmp(set, "utf8") == 0);
}

bool
console_tty_utf8(void)
{
	if (setlocale(LC_CTYPE, "") != NULL && ctype_is_utf8())
		return true;
	if (setlocale(LC_CTYPE, "C.UTF-8") != NULL && ctype_is_utf8())
		return true;
	return false;
}
