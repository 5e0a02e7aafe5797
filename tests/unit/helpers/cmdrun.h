/*
 * cmdrun: the unit tests' dispatcher. A fresh state, an RNG seeded as the
 * test asks and the command table behind one dispatcher, which runs typed
 * lines as a console user in a console channel (or from any origin) and
 * keeps the last reply for the test to read.
 */
#ifndef DELVER_TEST_CMDRUN_H
#define DELVER_TEST_CMDRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "commands/core/dispatch.h"

struct cmdrun {
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct reply *last; /* the last line's reply; NULL before the first */
	char *plain;        /* cmdrun_plain's text of last, or NULL */
};

/* Sets cr up: a new state, an RNG seeded with seed, a dispatcher on both. */
void cmdrun_open(struct cmdrun *cr, uint64_t seed);
/* Frees everything cr holds. */
void cmdrun_close(struct cmdrun *cr);

/* Fills o as console user user (also its name) in console channel chan;
 * a channel admin when admin. */
void cmdrun_console(struct origin *o, const char *chan, const char *user, bool admin);

/* Runs line from o at time now; the reply replaces cr->last and is
 * returned (cr owns it). */
const struct reply *cmdrun_from(struct cmdrun *cr, const struct origin *o, const char *line,
                                int64_t now);
/* Runs line as console user user in console channel chan at time now. */
const struct reply *cmdrun_line(struct cmdrun *cr, const char *chan, const char *user,
                                const char *line, int64_t now);

/* Replaces cr->last with a new empty reply and returns it, for a test
 * that dispatches by other means (an invocation it binds itself). */
struct reply *cmdrun_reply(struct cmdrun *cr);

/* The last reply as plain text (reply_plain), valid until the next line. */
const char *cmdrun_plain(struct cmdrun *cr);

/*
 * Defines a test file's one dispatcher, the static struct cmdrun cr, and
 * the cmocka fixtures setup() (cmdrun_open with seed) and teardown()
 * (cmdrun_close) that give each test a fresh one.
 */
#define CMDRUN_FIXTURE(seed)                                                                       \
	static struct cmdrun cr;                                                                   \
	static int setup(void **unused)                                                            \
	{                                                                                          \
		(void)unused;                                                                      \
		cmdrun_open(&cr, (seed));                                                          \
		return 0;                                                                          \
	}                                                                                          \
	static int teardown(void **unused)                                                         \
	{                                                                                          \
		(void)unused;                                                                      \
		cmdrun_close(&cr);                                                                 \
		return 0;                                                                          \
	}

#endif
