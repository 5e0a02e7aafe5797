/*
 * cmd_table_examples: /table examples, a complete table for each rule text
 * the bot plays (the D12 Tension text's two, and one each for exploration,
 * delving, safe areas and Fungeon), as a GM would enter them. delver(7),
 * TABLES, and README.md show the same tables (tests/unit/test_cmd_table.c
 * holds them together).
 */
#ifndef DELVER_CMD_TABLE_EXAMPLES_H
#define DELVER_CMD_TABLE_EXAMPLES_H

#include <stddef.h>

#include "commands/core/registry.h"

struct table_example {
	const char *text;  /* the rule text it is for: tension, exploration, ... */
	const char *about; /* one sentence: what the text asks of the table */
	const char *name;  /* the table's name */
	const char *lines; /* its entries, one a line */
};

/* The examples, n of them. */
const struct table_example *cmd_table_examples(size_t *n);

/* The rule texts' names, NULL-terminated (the option's choices). */
extern const char *const cmd_table_example_texts[];

void cmd_table_examples_fn(struct invocation *inv, struct reply *out);

#endif
