/*
 * dice_eval: rolls a parsed command into a struct dice_result, and the
 * public entry points and walking API of dice.h.
 */
#include "rules/dice/dice_impl.h"

#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"
#include "rules/base/rng.h"

/* Bytes of arena inside the result itself: with the header, 1 KB, which
 * glibc serves from its per-thread cache; enough for everyday rolls such
 * as "4d6kh3" or "1d20+5 # attack" to need no second allocation. */
#define RESULT_INLINE (1024 - sizeof(struct dice_result))

struct dice_result {
	struct dice_arena arena;
	size_t nexprs;
	struct dice_expr *exprs;
	const char *label;
	size_t rolled;
	bool capped;
	_Alignas(max_align_t) unsigned char mem[];
};

struct eval {
	struct dice_arena *a;
	struct rng *rng;
	struct dice_errbuf *e;
	const char *text;
	size_t rolled;
	bool capped;
	int sub;       /* > 0 inside a count or sides */
	int exact;     /* > 0 inside a function (its counts and sides aside) */
	uint32_t term; /* byte offset of the term being rolled */
	struct dice_item *items;
	size_t nitems;
	struct dice_group *groups;
	size_t ngroups;
};

/* The dice of one group while it is rolled. */
struct dlist {
	struct dice_die *d;
	size_t n, cap;
};

/* A term's compare points with the defaults filled in. */
struct points {
	struct dice_cmp explode, reroll, crit, fumble;
};

struct rank {
	int64_t v;
	uint32_t i; /* index in the dice, or start of a run */
	uint32_t n; /* length of the run (sorting) */
};

static int eval_node(struct eval *, const struct dice_node *, struct dice_q *);

static int
col(const struct eval *ev, uint32_t pos)
{
	return dice__column(ev->text, pos);
}

static void
emit_text(struct eval *ev, const char *text, const char *label)
{
	struct dice_item *it = &ev->items[ev->nitems++];

	it->kind = DICE_ITEM_TEXT;
	it->text = text;
	it->label = label;
	it->group = NULL;
}

static inline void
push(struct eval *ev, struct dlist *l, struct dice_die d)
{
	if (l->n == l->cap) {
		size_t cap = l->cap * 2;
		struct dice_die *nd = dice__arena_alloc(ev->a, cap * sizeof(*nd));

		memcpy(nd, l->d, l->n * sizeof(*nd));
		l->d = nd;
		l->cap = cap;
	}
	l->d[l->n++] = d;
}

static int
too_many(struct eval *ev)
{
	return dice__fail(ev->e, DICE_ELIMIT,
	                  "a roll may roll at most %d dice "
	                  "in all, counting explosions and rerolls; the term at "
	                  "column %d went past it",
	                  DICE_ROLLED_MAX, col(ev, ev->term));
}

/* Rolls one die (one rng draw), clamped by min and max. */
static inline int
roll_face(struct eval *ev, const struct dice_spec *sp, int64_t sides, struct dice_die *d)
{
	int64_t v;

	if (++ev->rolled > DICE_ROLLED_MAX)
		return too_many(ev);
	v = sp->fate ? (int64_t)rng_below(ev->rng, 3) - 1 : rng_die(ev->rng, sides);
	d->flags = 0;
	if ((sp->have & MOD_MIN) && v < sp->min) {
		v = sp->min;
		d->flags |= DICE_MIN;
	}
	if ((sp->have & MOD_MAX) && v > sp->max) {
		v = sp->max;
		d->flags |= DICE_MAX;
	}
	d->value = v;
	return 0;
}

/*
 * Rolls n dice of a term that neither explodes nor rerolls: one draw each,
 * straight into l (which has room). The caller has checked that they fit
 * within DICE_ROLLED_MAX, so nothing here can fail.
 */
static void
roll_plain(struct eval *ev, const struct dice_spec *sp, int64_t sides, struct dlist *l, size_t n)
{
	bool clamp = (sp->have & (MOD_MIN | MOD_MAX)) != 0;

	ev->rolled += n;
	for (size_t i = 0; i < n; i++) {
		struct dice_die *d = &l->d[i];

		d->value = sp->fate ? (int64_t)rng_below(ev->rng, 3) - 1 : rng_die(ev->rng, sides);
		d->flags = 0;
		if (clamp) {
			if ((sp->have & MOD_MIN) && d->value < sp->min) {
				d->value = sp->min;
				d->flags |= DICE_MIN;
			}
			if ((sp->have & MOD_MAX) && d->value > sp->max) {
				d->value = sp->max;
				d->flags |= DICE_MAX;
			}
		}
	}
	l->n = n;
}

/* The value explode and reroll points test: a penetrating die's face. */
static int64_t
face(const struct dice_die *d)
{
	if ((d->flags & DICE_PENETRATED) && !(d->flags & DICE_COMPOUNDED))
		return d->value + 1;
	return d->value;
}

/* Names the term when its notation is short enough to keep the message
 * within DICE_ERR_MAX. */
static int
too_big(struct eval *ev, const struct dice_node *n)
{
	if (strlen(n->text) > 64)
		return dice__fail(ev->e, DICE_EMATH,
		                  "the dice of the term at "
		                  "column %d add up to more than a 64-bit integer holds",
		                  col(ev, n->pos));
	return dice__fail(ev->e, DICE_EMATH,
	                  "the dice of %s at column %d add "
	                  "up to more than a 64-bit integer holds",
	                  n->text, col(ev, n->pos));
}

/*
 * Appends die d, and, when the term rerolls and d matches, the rerolls
 * that replace it: each replaced value stays in the list as
 * DICE_REROLLED, directly before its replacement.
 */
static int
add_rerolled(struct eval *ev, const struct dice_spec *sp, int64_t sides, const struct points *pt,
             struct dlist *l, struct dice_die d)
{
	struct dice_die g = {0, 0};
	unsigned int keep;

	if (sp->reroll == RR_NONE || !dice__cmp_match(&pt->reroll, face(&d))) {
		push(ev, l, d);
		return 0;
	}
	for (int n = 0;; n++) {
		if (sp->reroll == RR_ALL && n == DICE_CHAIN_MAX) {
			d.flags |= DICE_CAPPED;
			ev->capped = true;
			push(ev, l, d);
			return 0;
		}
		d.flags |= DICE_REROLLED;
		push(ev, l, d);
		if (roll_face(ev, sp, sides, &g) != 0)
			return ev->e->code;
		/* The replacement takes the place of the same die: an added
		 * die stays added, a penetrating one still counts one less. A
		 * compounded die is replaced by a single plain roll. */
		keep = d.flags & DICE_COMPOUNDED ? 0 : d.flags & (DICE_ADDED | DICE_PENETRATED);
		if (keep & DICE_PENETRATED)
			g.value--;
		g.flags |= keep;
		d = g;
		if (sp->reroll == RR_ONCE || !dice__cmp_match(&pt->reroll, face(&d))) {
			push(ev, l, d);
			return 0;
		}
	}
}

/* Rolls one of the term's dice with its explosion chain and rerolls. */
static int
roll_one(struct eval *ev, const struct dice_node *node, int64_t sides, const struct points *pt,
         struct dlist *l)
{
	const struct dice_spec *sp = node->spec;
	bool pen = sp->explode == EXP_PENETRATE || sp->explode == EXP_COMPOUND_PEN;
	struct dice_die cur = {0, 0}, g = {0, 0};
	int64_t f;

	if (roll_face(ev, sp, sides, &cur) != 0)
		return ev->e->code;
	if (sp->explode == EXP_NONE)
		return add_rerolled(ev, sp, sides, pt, l, cur);
	if (sp->explode == EXP_COMPOUND || sp->explode == EXP_COMPOUND_PEN) {
		f = cur.value;
		for (int n = 0; dice__cmp_match(&pt->explode, f); n++) {
			if (n == DICE_CHAIN_MAX) {
				cur.flags |= DICE_CAPPED;
				ev->capped = true;
				break;
			}
			if (roll_face(ev, sp, sides, &g) != 0)
				return ev->e->code;
			f = g.value;
			if (pen)
				g.value--;
			if (__builtin_add_overflow(cur.value, g.value, &cur.value))
				return too_big(ev, node);
			cur.flags |= DICE_COMPOUNDED | (pen ? DICE_PENETRATED : 0) |
			             (g.flags & (DICE_MIN | DICE_MAX));
		}
		return add_rerolled(ev, sp, sides, pt, l, cur);
	}
	for (int n = 0;; n++) {
		bool trig = dice__cmp_match(&pt->explode, face(&cur));

		if (trig && n == DICE_CHAIN_MAX) {
			cur.flags |= DICE_CAPPED;
			ev->capped = true;
			trig = false;
		}
		if (trig)
			cur.flags |= DICE_EXPLODED;
		if (add_rerolled(ev, sp, sides, pt, l, cur) != 0)
			return ev->e->code;
		if (!trig)
			return 0;
		if (roll_face(ev, sp, sides, &cur) != 0)
			return ev->e->code;
		cur.flags |= DICE_ADDED;
		if (pen) {
			cur.value--;
			cur.flags |= DICE_PENETRATED;
		}
	}
}

static int
rank_cmp(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int
rank_cmp_desc(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;

	if (a->v != b->v)
		return a->v > b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * Sorts ranks by value (descending when desc), ties by position. Ranks
 * arrive in position order, so a stable sort of the values alone gives
 * that order: small pools, the everyday case, take an insertion sort with
 * the comparison inlined; larger ones qsort with the full comparison.
 */
static void
sort_ranks(struct rank *r, size_t n, bool desc)
{
	if (n > 16) {
		qsort(r, n, sizeof(*r), desc ? rank_cmp_desc : rank_cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct rank t = r[i];
		size_t j = i;

		if (desc)
			for (; j > 0 && r[j - 1].v < t.v; j--)
				r[j] = r[j - 1];
		else
			for (; j > 0 && r[j - 1].v > t.v; j--)
				r[j] = r[j - 1];
		r[j] = t;
	}
}

/* How many of m ranked dice modifier mod names (n, capped at m), or 0
 * when the term lacks it. */
static size_t
kd_count(const struct dice_spec *sp, unsigned int mod, int64_t n, size_t m)
{
	if (!(sp->have & mod))
		return 0;
	return n < (int64_t)m ? (size_t)n : m;
}

/*
 * Marks DICE_DROPPED the dice that keep and drop remove. As in
 * rpg-dice-roller, each of kh, kl, dl and dh looks at the whole pool and a
 * die is dropped when any of them drops it ("3d10kh1dl1" keeps the
 * highest die: dl1 drops the lowest, which kh1 had dropped already). Dice
 * rank by value, ties by position, so equal notations drop equal dice.
 */
static void
keep_drop(struct eval *ev, const struct dice_spec *sp, struct dlist *l)
{
	struct rank *r;
	size_t m = 0, lo, hi;

	if (!(sp->have & (MOD_KEEP | MOD_KEEPL | MOD_DROP | MOD_DROPH)))
		return;
	r = dice__arena_alloc(ev->a, l->n * sizeof(*r));
	for (size_t i = 0; i < l->n; i++)
		if (!(l->d[i].flags & DICE_REROLLED))
			r[m++] = (struct rank){l->d[i].value, (uint32_t)i, 1};
	sort_ranks(r, m, false);
	/* The dice kept are r[lo..hi): every modifier only narrows it. */
	lo = 0;
	hi = m;
	if (sp->have & MOD_KEEP)
		lo = m - kd_count(sp, MOD_KEEP, sp->keep_n, m);
	if ((sp->have & MOD_KEEPL) && kd_count(sp, MOD_KEEPL, sp->keepl_n, m) < hi)
		hi = kd_count(sp, MOD_KEEPL, sp->keepl_n, m);
	if (kd_count(sp, MOD_DROP, sp->drop_n, m) > lo)
		lo = kd_count(sp, MOD_DROP, sp->drop_n, m);
	if (m - kd_count(sp, MOD_DROPH, sp->droph_n, m) < hi)
		hi = m - kd_count(sp, MOD_DROPH, sp->droph_n, m);
	for (size_t k = 0; k < m; k++)
		if (k < lo || k >= hi)
			l->d[r[k].i].flags |= DICE_DROPPED;
}

/* Reorders the shown dice; a rerolled die stays before its replacement. */
static void
sort_dice(struct eval *ev, const struct dice_spec *sp, struct dlist *l)
{
	struct rank *r = dice__arena_alloc(ev->a, l->n * sizeof(*r));
	struct dice_die *nd = dice__arena_alloc(ev->a, l->n * sizeof(*nd));
	size_t m = 0, start = 0, k = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (l->d[i].flags & DICE_REROLLED)
			continue;
		r[m++] = (struct rank){l->d[i].value, (uint32_t)start, (uint32_t)(i + 1 - start)};
		start = i + 1;
	}
	sort_ranks(r, m, sp->sort == SORT_DESC);
	for (size_t i = 0; i < m; i++) {
		memcpy(nd + k, l->d + r[i].i, r[i].n * sizeof(*nd));
		k += r[i].n;
	}
	l->d = nd;
}

/* Counts successes and failures, marks criticals and fumbles, and sums. */
static int
score(struct eval *ev, const struct dice_node *node, const struct points *pt, struct dlist *l,
      struct dice_group *g)
{
	const struct dice_spec *sp = node->spec;
	int64_t sum = 0;

	if (!(sp->have & (MOD_CRIT | MOD_FUMBLE | MOD_SUCCESS | MOD_EXPLODE | MOD_REROLL))) {
		/* No die here can be capped, rerolled or marked: just sum. */
		for (size_t i = 0; i < l->n; i++)
			if (!(l->d[i].flags & DICE_DROPPED) &&
			    __builtin_add_overflow(sum, l->d[i].value, &sum))
				return too_big(ev, node);
		g->value = sum;
		return 0;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct dice_die *d = &l->d[i];

		if (d->flags & DICE_CAPPED)
			g->capped = true;
		if (d->flags & DICE_REROLLED)
			continue;
		if ((sp->have & MOD_CRIT) && dice__cmp_match(&pt->crit, d->value))
			d->flags |= DICE_CRIT;
		if ((sp->have & MOD_FUMBLE) && dice__cmp_match(&pt->fumble, d->value))
			d->flags |= DICE_FUMBLE;
		if (d->flags & DICE_DROPPED)
			continue;
		if (sp->have & MOD_SUCCESS) {
			if (dice__cmp_match(&sp->success, d->value)) {
				d->flags |= DICE_SUCCESS;
				g->successes++;
			} else if ((sp->have & MOD_FAILURE) &&
			           dice__cmp_match(&sp->failure, d->value)) {
				d->flags |= DICE_FAILURE;
				g->failures++;
			}
		} else if (__builtin_add_overflow(sum, d->value, &sum)) {
			return too_big(ev, node);
		}
	}
	g->successes_counted = (sp->have & MOD_SUCCESS) != 0;
	g->value = g->successes_counted ? g->successes - g->failures : sum;
	return 0;
}

static struct dice_cmp
point(const struct dice_cmp *given, int64_t dflt)
{
	struct dice_cmp c = *given;

	if (c.op == CMP_NONE) {
		c.op = CMP_EQ;
		c.n = dflt;
	}
	return c;
}

/* Rolls a dice term: its count and sides first (their dice shown as
 * operand groups), then its dice, in NOTATION.md's modifier order. */
static int
eval_dice(struct eval *ev, const struct dice_node *node, struct dice_q *v)
{
	const struct dice_spec *sp = node->spec;
	int64_t count = sp->count, sides = sp->sides;
	int64_t lo = sp->fate ? -1 : 1, hi;
	int exact = ev->exact;
	struct dice_group *g;
	struct dlist l;
	struct points pt;
	struct dice_q q;

	/* A count or sides is a whole number even inside a function. */
	ev->sub++;
	ev->exact = 0;
	if (sp->count_expr != NULL) {
		if (eval_node(ev, sp->count_expr, &q) != 0)
			return ev->e->code;
		count = q.n;
	}
	if (sp->sides_expr != NULL) {
		if (eval_node(ev, sp->sides_expr, &q) != 0)
			return ev->e->code;
		sides = q.n;
	}
	ev->sub--;
	ev->exact = exact;
	if ((sp->count_expr != NULL || sp->sides_expr != NULL) &&
	    dice__check_term(sp, count, sides, col(ev, node->pos), ev->e) != 0)
		return ev->e->code;
	hi = sp->fate ? 1 : sides;
	pt.explode = point(&sp->explode_cp, hi);
	pt.reroll = point(&sp->reroll_cp, lo);
	pt.crit = point(&sp->crit, hi);
	pt.fumble = point(&sp->fumble, lo);

	ev->term = node->pos;
	g = &ev->groups[ev->ngroups++];
	memset(g, 0, sizeof(*g));
	g->notation = node->text;
	g->label = node->label;
	g->count = count;
	g->sides = sides;
	g->fate = sp->fate;
	g->operand = ev->sub > 0;

	if (sp->explode == EXP_NONE && sp->reroll == RR_NONE &&
	    ev->rolled + (size_t)count > DICE_ROLLED_MAX)
		return too_many(ev);
	l.n = 0;
	l.cap = (size_t)count;
	l.d = dice__arena_alloc(ev->a, l.cap * sizeof(*l.d));
	if (sp->explode == EXP_NONE && sp->reroll == RR_NONE)
		roll_plain(ev, sp, sides, &l, (size_t)count);
	else
		for (int64_t i = 0; i < count; i++)
			if (roll_one(ev, node, sides, &pt, &l) != 0)
				return ev->e->code;
	keep_drop(ev, sp, &l);
	if (score(ev, node, &pt, &l, g) != 0)
		return ev->e->code;
	if (sp->have & MOD_SORT)
		sort_dice(ev, sp, &l);
	g->dice = l.d;
	g->ndice = l.n;

	ev->items[ev->nitems++] = (struct dice_item){DICE_ITEM_GROUP, NULL, NULL, g};
	*v = (struct dice_q){g->value, 1};
	return 0;
}

static int
overflow(struct eval *ev, const char *what, uint32_t pos)
{
	return dice__fail(ev->e, DICE_EMATH,
	                  "the result of '%s' at column %d "
	                  "does not fit in a 64-bit integer",
	                  what, col(ev, pos));
}

/* Applies k's binary operator to a and b into *v (see dice__q_apply). */
static int
apply(struct eval *ev, const struct dice_node *k, struct dice_q a, struct dice_q b,
      struct dice_q *v)
{
	char what[2] = {k->op, '\0'};

	switch (dice__q_apply(k->op, a, b, ev->exact > 0, v)) {
	case DICE_Q_OK:
		return 0;
	case DICE_Q_DIVZERO:
		return dice__fail(ev->e, DICE_EMATH, "division by zero at column %d",
		                  col(ev, k->oppos));
	default:
		return overflow(ev, what, k->oppos);
	}
}

/* Evaluates a subtree, emitting its display items (only its groups when
 * inside a count or sides). Recursion is bounded by DICE_NEST_MAX. */
static int
eval_node(struct eval *ev, const struct dice_node *n, struct dice_q *v)
{
	static const char *const opstr[] = {" + ", " - ", " * ", " / "};
	const struct dice_node *k;
	struct dice_q x;

	switch (n->kind) {
	case NODE_NUM:
		if (ev->sub == 0)
			emit_text(ev, n->text, n->label);
		*v = (struct dice_q){n->v, 1};
		return 0;
	case NODE_DICE:
		return eval_dice(ev, n, v);
	case NODE_PAREN:
		if (ev->sub == 0)
			emit_text(ev, "(", NULL);
		if (eval_node(ev, n->kid, v) != 0)
			return ev->e->code;
		if (ev->sub == 0)
			emit_text(ev, ")", NULL);
		return 0;
	case NODE_FUNC:
		if (ev->sub == 0)
			emit_text(ev, n->text, NULL);
		ev->exact++;
		if (eval_node(ev, n->kid, &x) != 0)
			return ev->e->code;
		ev->exact--;
		if (dice__q_fn(n->fn, x, v) != DICE_Q_OK)
			return overflow(ev, n->text, n->pos);
		/* abs() outside any other function: a whole number again. */
		if (ev->exact == 0 && v->d != 1)
			*v = (struct dice_q){dice__q_floor(*v), 1};
		return 0;
	case NODE_NEG:
		if (ev->sub == 0)
			emit_text(ev, n->text, NULL);
		if (eval_node(ev, n->kid, v) != 0)
			return ev->e->code;
		if (v->n == INT64_MIN)
			return dice__fail(ev->e, DICE_EMATH,
			                  "the negation at "
			                  "column %d does not fit in a 64-bit integer",
			                  col(ev, n->pos));
		if (n->nneg % 2 == 1)
			v->n = -v->n;
		return 0;
	default:
		if (eval_node(ev, n->kid, v) != 0)
			return ev->e->code;
		for (k = n->kid->next; k != NULL; k = k->next) {
			if (ev->sub == 0)
				emit_text(ev,
				          opstr[k->op == '+'   ? 0
				                : k->op == '-' ? 1
				                : k->op == '*' ? 2
				                               : 3],
				          NULL);
			if (eval_node(ev, k, &x) != 0 || apply(ev, k, *v, x, v) != 0)
				return ev->e->code;
		}
		return 0;
	}
}

static int
roll_cmd(struct dice_result *res, const struct dice_cmd *cmd, const char *text, struct rng *rng,
         struct dice_errbuf *e)
{
	struct eval ev = {&res->arena, rng, e, text, 0, false, 0, 0, 0, NULL, 0, NULL, 0};

	res->exprs = dice__arena_alloc(ev.a, cmd->nstmt * sizeof(*res->exprs));

	for (size_t i = 0; i < cmd->nstmt; i++) {
		const struct dice_stmt *st = &cmd->stmt[i];
		struct dice_expr *x = &res->exprs[i];
		struct dice_repeat *reps;
		struct dice_q total;

		reps = dice__arena_alloc(ev.a, (size_t)st->repeat * sizeof(*reps));
		x->source = st->source;
		x->nrepeats = (size_t)st->repeat;
		x->repeats = reps;
		for (int64_t r = 0; r < st->repeat; r++) {
			ev.items = dice__arena_alloc(ev.a, st->root->nitems * sizeof(*ev.items));
			ev.groups = dice__arena_alloc(ev.a, st->root->ngroups * sizeof(*ev.groups));
			ev.nitems = ev.ngroups = 0;
			if (eval_node(&ev, st->root, &total) != 0)
				return e->code;
			reps[r].total = total.n;
			reps[r].items = ev.items;
			reps[r].nitems = ev.nitems;
		}
	}
	res->nexprs = cmd->nstmt;
	res->label = cmd->label;
	res->rolled = ev.rolled;
	res->capped = ev.capped;
	return 0;
}

int
dice_roll(const char *text, size_t len, struct rng *rng, struct dice_result **out, char *err,
          size_t errlen)
{
	struct dice_errbuf e = {err, errlen, 0};
	struct dice_result *res;
	struct dice_cmd cmd;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out != NULL)
		*out = NULL;
	if ((text == NULL && len > 0) || rng == NULL || out == NULL)
		return dice__fail(&e, DICE_EINVAL,
		                  "dice_roll needs text, a "
		                  "generator and a place for the result");
	if (text == NULL)
		text = "";
	res = xmalloc(sizeof(*res) + RESULT_INLINE);
	dice__arena_init(&res->arena, res->mem, RESULT_INLINE);
	if (dice__parse(text, len, &res->arena, &cmd, &e) != 0 ||
	    roll_cmd(res, &cmd, text, rng, &e) != 0) {
		dice_result_free(res);
		return e.code;
	}
	*out = res;
	return 0;
}

void
dice_result_free(struct dice_result *res)
{
	if (res == NULL)
		return;
	dice__arena_release(&res->arena);
	free(res);
}

size_t
dice_result_nexprs(const struct dice_result *res)
{
	return res != NULL ? res->nexprs : 0;
}

const struct dice_expr *
dice_result_expr(const struct dice_result *res, size_t i)
{
	return res != NULL && i < res->nexprs ? &res->exprs[i] : NULL;
}

const char *
dice_result_label(const struct dice_result *res)
{
	return res != NULL ? res->label : NULL;
}

size_t
dice_result_rolled(const struct dice_result *res)
{
	return res != NULL ? res->rolled : 0;
}

bool
dice_result_capped(const struct dice_result *res)
{
	return res != NULL && res->capped;
}
