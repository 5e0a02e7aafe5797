/*
 * cmdwalk: every command and subcommand of a command table, as typed lines
 * a test runs one by one (the hidden-information walk). A command added to
 * the table is walked with no change to the tests.
 *
 * For each leaf (a command without subcommands, or a subcommand) the walk
 * gives: its path alone (usages and refusals); its path with every option
 * named and given a sample value (the first choice, the lowest allowed
 * number, a word); and, for each option with choices, the path with that
 * option set to each choice in turn and the required options sampled.
 */
#ifndef DELVER_TEST_CMDWALK_H
#define DELVER_TEST_CMDWALK_H

#include <stddef.h>

#include "commands/core/registry.h"

#define CMDWALK_LINE_MAX 1024

/* One case of the walk. */
struct cmdwalk_case {
	const struct command *path[4]; /* root .. leaf, NULL-padded */
	const struct command *leaf;
	size_t nopts;
	const struct cmd_opt *opts[CMD_MAX_OPTS]; /* the options given, in order */
	const char *values[CMD_MAX_OPTS];         /* their values, as text */
	char line[CMDWALK_LINE_MAX];              /* as typed, without a prefix:
	                                           * "tension set value:1" */
};

typedef void (*cmdwalk_fn)(void *ctx, const struct cmdwalk_case *c);

/* Calls fn for each line of the walk over table (NULL-terminated). */
void cmdwalk(const struct command *const *table, cmdwalk_fn fn, void *ctx);

/* The sample value the walk gives option o (a number as text). */
const char *cmdwalk_sample(const struct cmd_opt *o, char *buf, size_t len);

#endif
