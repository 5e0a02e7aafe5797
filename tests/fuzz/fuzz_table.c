/*
 * libFuzzer target: the text of a roll table (rules/tables/roll_table.h),
 * as /table set, /tension table set and /hazard custom read it. Whatever
 * parses must be written back (roll_table_write) as text that parses into
 * the same table and writes the same again; then every entry is rolled,
 * with a lookup that answers every [[name]] with the table itself, which
 * must stay within the limits of rules/tables/roll_table_roll.h. What is
 * set, written as it is saved, must load (roll_table_load_die, which leaves
 * the limits of what an entry asks for to set time) as the same table; and
 * whatever the load parse takes must round-trip and roll too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "rules/tables/roll_table.h"
#include "rules/tables/roll_table_roll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct roll_table *
itself(void *ctx, const char *name)
{
	(void)name;
	return ctx;
}

typedef int parse_fn(const char *, struct roll_table *, char *, size_t);

static void
round_trip(const struct roll_table *t, parse_fn *parse)
{
	struct roll_table *u = xmalloc(sizeof(*u));
	struct buf once, twice;
	char err[300];

	buf_init(&once, 1 << 20);
	buf_init(&twice, 1 << 20);
	roll_table_write(t, &once);
	if (parse(buf_str(&once), u, err, sizeof(err)) != 0)
		abort();
	if (memcmp(t, u, sizeof(*t)) != 0)
		abort();
	roll_table_write(u, &twice);
	if (strcmp(buf_str(&once), buf_str(&twice)) != 0)
		abort();
	buf_free(&once);
	buf_free(&twice);
	free(u);
}

static void
roll_each(const struct roll_table *t)
{
	struct rng *r = rng_new_seeded(1);
	struct roll_table_lookup lk = {itself, (void *)t};

	for (size_t i = 0; i < t->n; i++) {
		struct roll_table_trace tr = {0};
		struct roll_table_pick p;
		struct buf out;

		buf_init(&out, 1 << 16);
		roll_table_pick(r, t, 5, &p);
		if (p.index >= (int)t->n)
			abort();
		roll_table_expand(r, t, i, &lk, &tr, &out);
		if (tr.n > ROLL_TABLE_ROLLS_MAX)
			abort();
		buf_free(&out);
	}
	rng_free(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size), err[300];
	struct roll_table *t = xmalloc(sizeof(*t)), *saved = xmalloc(sizeof(*saved));
	int strict = roll_table_parse_die(text, t, err, sizeof(err));

	if (strict == 0) {
		round_trip(t, roll_table_parse_die);
		round_trip(t, roll_table_load_die); /* what is set is saved and loads */
		roll_each(t);
	} else if (strchr(err, '\n') != NULL || err[0] == '\0') {
		abort(); /* a refusal is one sentence on one line */
	}
	if (roll_table_load_die(text, saved, err, sizeof(err)) == 0) {
		round_trip(saved, roll_table_load_die);
		roll_each(saved);
	}
	free(saved);
	if (roll_table_parse(text, 1, 20, t, err, sizeof(err)) == 0)
		roll_each(t);
	free(t);
	free(text);
	return 0;
}
