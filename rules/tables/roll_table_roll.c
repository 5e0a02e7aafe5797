/* roll_table_roll: rolling tables and their references; see roll_table_roll.h. */
#include "rules/tables/roll_table_roll.h"

#include <stdio.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/dice/dice.h"
#include "rules/tables/roll_table_dice.h"

void
roll_table_pick_at(const struct roll_table *t, int sides, int d10, int result,
                   struct roll_table_pick *out)
{
	const struct roll_table_entry *e;

	if (sides == 0 && t->n > 0) {
		if (result < t->lo)
			result = t->lo;
		if (result > t->hi)
			result = t->hi;
	}
	out->sides = sides;
	out->d10 = d10;
	out->result = result;
	e = roll_table_lookup(t, result);
	out->index = e != NULL ? (int)(e - t->e) : -1;
	out->struck = e == NULL || e->struck;
}

void
roll_table_pick(struct rng *r, const struct roll_table *t, int tension, struct roll_table_pick *out)
{
	if (tension >= 1 && !t->weighted && t->lo == 1 && t->hi == 20) {
		int d10 = (int)rng_die(r, 10);

		roll_table_pick_at(t, 0, d10, d10 + tension, out);
	} else if (t->die == ROLL_TABLE_D66) {
		int tens = (int)rng_die(r, 6);

		roll_table_pick_at(t, t->die, 0, 10 * tens + (int)rng_die(r, 6), out);
	} else {
		roll_table_pick_at(t, t->die, 0, t->die > 0 ? (int)rng_die(r, t->die) : 0, out);
	}
}

struct walk {
	struct rng *r;
	const struct roll_table_lookup *lk;
	struct roll_table_trace *trace;
	size_t rolls; /* tables rolled so far, the first included */
	size_t unrolled;
	int ndice;
	int64_t dice_left; /* dice the whole roll may still roll, as /roll */
};

/* The length of "[[name]]" at s, or 0; its name into name. */
static size_t
ref_len(const char *s, size_t len, char *name)
{
	const char *close;
	size_t n;

	if (len < 5 || s[0] != '[' || s[1] != '[' || (close = strstr(s + 2, "]]")) == NULL)
		return 0;
	n = (size_t)(close - (s + 2));
	if (n == 0 || n >= ROLL_TABLE_NAME_MAX || memchr(s + 2, '[', n) != NULL ||
	    memchr(s + 2, ']', n) != NULL || memchr(s + 2, ' ', n) != NULL)
		return 0;
	memcpy(name, s + 2, n);
	name[n] = '\0';
	return n + 4;
}

static void expand(struct walk *w, const struct roll_table *t, size_t index, int depth,
                   struct buf *out);

/* A [[name]] at depth (the referring entry's): rolls it or writes it. */
static void
reference(struct walk *w, const char *name, int depth, struct buf *out)
{
	const struct roll_table *t = NULL;
	struct roll_table_step *s = NULL;
	struct roll_table_pick p;

	if (depth + 1 >= ROLL_TABLE_DEPTH_MAX || w->rolls >= ROLL_TABLE_ROLLS_MAX) {
		w->unrolled++;
		buf_addf(out, "[[%s]]", name);
		return;
	}
	if (w->lk != NULL && w->lk->find != NULL)
		t = w->lk->find(w->lk->ctx, name);
	if (w->trace != NULL && w->trace->n < ROLL_TABLE_ROLLS_MAX) {
		s = &w->trace->step[w->trace->n++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->depth = depth + 1;
		s->pick.index = -1;
		s->pick.struck = true;
	} else if (w->trace != NULL) {
		w->trace->unlisted++;
	}
	if (t == NULL || t->n == 0) {
		if (s != NULL)
			s->missing = true;
		buf_addf(out, "[[%s]]", name);
		return;
	}
	w->rolls++;
	roll_table_pick(w->r, t, 0, &p);
	if (s != NULL) {
		s->pick = p;
		if (p.index >= 0)
			snprintf(s->entry, sizeof(s->entry), "%s", t->e[p.index].text);
	}
	if (p.index < 0)
		return;
	if (p.struck)
		buf_adds(out, t->e[p.index].text);
	else
		expand(w, t, (size_t)p.index, depth + 1, out);
}

/* Writes entry index of t (at depth: 0 for the table first rolled). */
static void
expand(struct walk *w, const struct roll_table *t, size_t index, int depth, struct buf *out)
{
	const char *text = t->e[index].text, *p = text;
	size_t len = strlen(text);
	struct buf notes;
	int words = ROLL_TABLE_DICE_WORDS_MAX;

	buf_init(&notes, ROLL_TABLE_NOTES_MAX);
	while (p < text + len) {
		const char *at = strstr(p, "[[");
		char name[ROLL_TABLE_NAME_MAX];
		size_t n = 0;

		while (at != NULL && (n = ref_len(at, len - (size_t)(at - text), name)) == 0)
			at = strstr(at + 1, "[[");
		if (at == NULL)
			at = text + len;
		w->ndice += roll_table_dice_roll_part(p, (size_t)(at - p), w->r, &w->dice_left,
		                                      &words, out, &notes);
		if (at == text + len)
			break;
		reference(w, name, depth, out);
		p = at + n;
	}
	roll_table_dice_notes(&notes, out);
	buf_free(&notes);
}

int
roll_table_expand(struct rng *r, const struct roll_table *t, size_t index,
                  const struct roll_table_lookup *lk, struct roll_table_trace *trace,
                  struct buf *out)
{
	struct walk w = {
	    .r = r, .lk = lk, .trace = trace, .rolls = 1, .dice_left = DICE_ROLLED_MAX};

	if (index >= t->n)
		return 0;
	expand(&w, t, index, 0, out);
	if (trace != NULL)
		trace->unrolled += w.unrolled;
	return w.ndice;
}
