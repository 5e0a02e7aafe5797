/*
 * roll_line: a roll of dice as /roll shows it; see roll_line.h.
 *
 * Every die is shown; dropped and rerolled dice are struck; marks after a
 * die follow rpg-dice-roller's, which players know: ! exploded, !! compound,
 * p penetrated, r rerolled, * success, _ failure, ** critical, __ fumble,
 * ^ raised by min, v lowered by max. Colour only repeats what the marks say.
 */
#include "commands/dice/roll_line.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rules/base/num.h"

/* Dice shown per group; more are summarised (the total still counts all). */
#define ROLL_SHOWN_MAX    100 /* entries of a pool shown */
#define ROLL_COMPACT_FROM 20  /* a larger pool has its runs compacted */

/* Appends s to text at *n (text has room: marks are short and bounded). */
static void
mark(char *text, size_t *n, const char *s)
{
	size_t len = strlen(s);

	memcpy(text + *n, s, len);
	*n += len;
}

/* Plain text gathered into one span: most of a roll's pieces (brackets,
 * separators, ordinary dice) are unstyled, and one reply span per piece
 * made the reply the costliest part of a roll. */
struct plain {
	char t[256];
	size_t n;
	unsigned style; /* of the gathered text */
};

static void
plain_flush(struct reply *out, struct plain *p)
{
	if (p->n == 0)
		return;
	p->t[p->n] = '\0';
	reply_add(out, p->style, "%s", p->t);
	p->n = 0;
}

static void
plain_add(struct reply *out, struct plain *p, const char *s, size_t len)
{
	if (len >= sizeof(p->t) - p->n)
		plain_flush(out, p);
	if (len >= sizeof(p->t)) {
		reply_add(out, p->style, "%s", s);
		return;
	}
	memcpy(p->t + p->n, s, len);
	p->n += len;
}

static void
die_span(struct reply *out, struct plain *p, const struct dice_group *g, const struct dice_die *d,
         size_t times)
{
	unsigned style = 0;
	char text[64];
	size_t n = 0;

	if (g->fate)
		mark(text, &n, d->value > 0 ? "+" : d->value < 0 ? "-" : "0");
	else
		n = num_text(d->value, text);
	if (d->flags & DICE_COMPOUNDED)
		mark(text, &n, "!!");
	else if (d->flags & DICE_EXPLODED)
		mark(text, &n, "!");
	if (d->flags & DICE_PENETRATED)
		mark(text, &n, "p");
	if (d->flags & DICE_REROLLED)
		mark(text, &n, "r");
	if (d->flags & DICE_MIN)
		mark(text, &n, "^");
	if (d->flags & DICE_MAX)
		mark(text, &n, "v");
	if (d->flags & DICE_SUCCESS)
		mark(text, &n, "*");
	else if (d->flags & DICE_FAILURE)
		mark(text, &n, "_");
	if (d->flags & DICE_CRIT)
		mark(text, &n, "**");
	if (d->flags & DICE_FUMBLE)
		mark(text, &n, "__");
	if (d->flags & DICE_CAPPED)
		mark(text, &n, "…");
	if (times > 1)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "x%zu", times);
	text[n] = '\0';

	if (d->flags & (DICE_DROPPED | DICE_REROLLED))
		style |= RS_STRUCK | RS_DIM;
	else if (d->flags & DICE_CRIT)
		style |= RS_CRIT;
	else if (d->flags & DICE_FUMBLE)
		style |= RS_FUMBLE;
	else if (d->flags & DICE_SUCCESS)
		style |= RS_GOOD;
	else if (d->flags & DICE_FAILURE)
		style |= RS_BAD;
	if (style == 0) {
		plain_add(out, p, text, n);
		return;
	}
	plain_flush(out, p);
	reply_add(out, style | p->style, "%s", text);
}

/* The flags that show in a die's text or style. */
#define SHOWN_FLAGS                                                                                \
	(DICE_COMPOUNDED | DICE_EXPLODED | DICE_PENETRATED | DICE_REROLLED | DICE_MIN | DICE_MAX | \
	 DICE_SUCCESS | DICE_FAILURE | DICE_CRIT | DICE_FUMBLE | DICE_CAPPED | DICE_DROPPED)

/* How many dice from i on read the same (value and marks). */
static size_t
run_of(const struct dice_group *g, size_t i)
{
	size_t n = 1;

	while (i + n < g->ndice && g->dice[i + n].value == g->dice[i].value &&
	       (g->dice[i + n].flags & SHOWN_FLAGS) == (g->dice[i].flags & SHOWN_FLAGS))
		n++;
	return n;
}

/* How many rerolled dice start at i (a chain whose last replacement, the
 * die that counts, follows them). */
static size_t
rerolls_from(const struct dice_group *g, size_t i)
{
	size_t n = 0;

	while (i + n < g->ndice && (g->dice[i + n].flags & DICE_REROLLED))
		n++;
	return n;
}

/* A pool of more than ROLL_COMPACT_FROM dice is written as chat rollers
 * do: a run of three or more equal dice as one entry, "6x3" (a sorted pool
 * becomes a count of each face); a chain of more than three rerolls as
 * its first and last and the die that replaced them; at most
 * ROLL_SHOWN_MAX entries, then how many dice are left. */
static void
group_spans(struct reply *out, const struct dice_group *g)
{
	bool compact = g->ndice > ROLL_COMPACT_FROM;
	struct plain p = {.n = 0, .style = RS_DETAIL};
	size_t i = 0;

	if (g->operand)
		reply_add(out, RS_DIM, "%s→", g->notation);
	reply_add(out, 0, "[");
	for (size_t entries = 0; i < g->ndice && entries < ROLL_SHOWN_MAX; entries++) {
		size_t run = compact ? run_of(g, i) : 1, chain = rerolls_from(g, i);

		if (i > 0)
			plain_add(out, &p, ", ", 2);
		if (chain > 3) {
			/* A long reroll chain: its first and last rerolls, then
			 * the die that counts, whatever the limit. */
			char more[48];

			die_span(out, &p, g, &g->dice[i], 1);
			plain_flush(out, &p);
			snprintf(more, sizeof(more), ", … %zu more rerolled, ", chain - 2);
			reply_add(out, RS_DIM | RS_DETAIL, "%s", more);
			die_span(out, &p, g, &g->dice[i + chain - 1], 1);
			i += chain;
			if (i < g->ndice) {
				plain_add(out, &p, ", ", 2);
				die_span(out, &p, g, &g->dice[i++], 1);
			}
			continue;
		}
		die_span(out, &p, g, &g->dice[i], run >= 3 ? run : 1);
		i += run >= 3 ? run : 1;
	}
	plain_flush(out, &p);
	if (i < g->ndice)
		reply_add(out, RS_DIM | RS_DETAIL, ", … %zu more", g->ndice - i);
	reply_add(out, 0, "]");
	if (g->label != NULL)
		reply_add(out, RS_ITALIC, " %s", g->label);
	if (g->operand)
		reply_add(out, 0, " ");
}

void
roll_line_repeat(struct reply *out, const struct dice_expr *e, size_t r)
{
	const struct dice_repeat *rep = &e->repeats[r];
	long long succ = 0, fail = 0;
	bool counting = false;

	if (e->nrepeats > 1) {
		reply_add(out, RS_DIM, "%2zu: ", r + 1);
	} else {
		reply_add(out, RS_CODE, "%s", e->source);
		reply_add(out, 0, ": ");
	}
	for (size_t i = 0; i < rep->nitems; i++) {
		const struct dice_item *it = &rep->items[i];

		if (it->kind == DICE_ITEM_TEXT) {
			reply_add(out, 0, "%s", it->text);
			if (it->label != NULL)
				reply_add(out, RS_ITALIC, " %s", it->label);
			continue;
		}
		group_spans(out, it->group);
		if (it->group->successes_counted) {
			counting = true;
			succ += it->group->successes;
			fail += it->group->failures;
		}
	}
	reply_add(out, 0, " = ");
	{
		char num[24];

		num_text(rep->total, num);
		reply_add(out, RS_BOLD | RS_HIGHLIGHT, "%s", num);
	}
	if (counting && fail > 0)
		reply_add(out, RS_DIM, " (%lld success%s − %lld failure%s)", succ,
		          succ == 1 ? "" : "es", fail, fail == 1 ? "" : "s");
	else if (counting)
		reply_add(out, RS_DIM, " success%s", rep->total == 1 ? "" : "es");
}
